package builtin_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
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
		"Vertical 9:16 scatter plot of ad spend vs signups: (2, 40), (4, 65), (5, 71), (7, 96), (9, 120), teal dots popping in one by one, then a white trend line":                           scene.ChartScatter,
		"Square 1:1 tree map of app storage: Photos 120 GB, Videos 310 GB, Apps 64 GB, Music 22 GB, Other 15 GB, each block with its name":                                                    scene.ChartTreemap,
		"Butterfly chart of survey answers, 2019 on the left and 2024 on the right: Agree 41 and 55, Neutral 30 and 25, Disagree 29 and 20":                                                   scene.ChartPyramid,
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

// TestShapeChartNotes: what a chart's reading makes up because the prompt gave no
// figures is said in the plan's notes, never drawn silently as data; figures given
// leave no note.
func TestShapeChartNotes(t *testing.T) {
	for prompt, want := range map[string]string{
		"Age pyramid morphing from the 1970 shape, wide bottom and narrow top, to the 2024 shape, top-heavy": "not data",
		"A scatterplot of about 25 dots going up, with a line of best fit":                                   "not data",
		"Treemap of our revenue by product: Cloud $19.2M, Devices $11.5M, Services $8.3M, Ads $2.6M":         "",
	} {
		pl, err := builtin.New(nil).Plan(context.Background(), &koda.Project{ID: "prj_test", Prompt: prompt}, "")
		if err != nil {
			t.Fatal(err)
		}
		notes := strings.Join(pl.Notes, " ")
		if want == "" && notes != "" || want != "" && !strings.Contains(notes, want) {
			t.Errorf("%q: plan notes %q, want %q", prompt, notes, want)
		}
	}
}
