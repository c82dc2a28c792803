package builtin_test

import (
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// TestNamedChartsAreCharts: a chart asked for by its shape is drawn as that chart, its
// words of data no cue of a layout ("+€3.1M price increases" once made a price tag),
// and its parts (axes, a connector, a box around cells) no drawings of their own; nor
// is its format ("square for insta").
func TestNamedChartsAreCharts(t *testing.T) {
	for prompt, variant := range map[string]string{
		"Waterfall chart: start bar FY25 operating profit €12.4M. Then +€3.1M price increases, +€1.8M volume, −€2.2M raw materials, ending on €15.1M, each step with a dotted connector line": scene.ChartWaterfall,
		"radar chart of Ridgeline 3 vs GTX. axes: grip, cushioning, lightness, breathability (score 1-10). Ridgeline 3 = 8,7,9,9. GTX = 8,7,6,4, square for insta":                            scene.ChartRadar,
		"Popular-times heatmap for the pool: Mon–Sun by 2-hour blocks from 6am to 10pm. Busiest: weekdays 6–8am. Quietest: weekdays 10am–2pm, outlined with a yellow box":                     scene.ChartHeatmap,
	} {
		_, sb, _ := generate(t, prompt, "", 0)
		d := readScene(t, sb)
		ch := dataElement(t, d, scene.TypeChart)
		if ch.Variant != variant {
			t.Errorf("%q: a %q chart, want %q", prompt, ch.Variant, variant)
		}
		for _, e := range d.Elements {
			if e != ch && e.Type != scene.TypeText && e.Type != scene.TypeParticles {
				t.Errorf("%q: a %s %q beside the chart", prompt, e.Type, e.Label)
			}
		}
	}
}
