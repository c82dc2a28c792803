package scene_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
)

func valid() *scene.Description {
	return &scene.Description{
		Version: scene.Version, Duration: 4, FPS: 30,
		Background: scene.Background{Colors: []string{"#000000", "#ffffff"}},
		Elements: []*scene.Element{{
			ID: "ball", Type: scene.TypeCircle, Size: 0.1, Color: "#ff0000",
			Tracks:  map[string][]scene.Keyframe{"x": {{T: 0, V: -0.5}, {T: 2, V: 0.5, Ease: "easeOutBack"}}},
			Motions: []*scene.Motion{{Type: scene.MotionBounce, Start: 1, End: 3, Amp: 0.5, Count: 2}},
		}},
	}
}

func TestValidate(t *testing.T) {
	if err := valid().Validate(); err != nil {
		t.Fatalf("valid description rejected: %v", err)
	}
	tests := map[string]func(d *scene.Description){
		"version":        func(d *scene.Description) { d.Version = 9 },
		"duration":       func(d *scene.Description) { d.Duration = 0 },
		"background":     func(d *scene.Description) { d.Background.Colors = []string{"red"} },
		"element type":   func(d *scene.Description) { d.Elements[0].Type = "hologram" },
		"size":           func(d *scene.Description) { d.Elements[0].Size = 0 },
		"colour":         func(d *scene.Description) { d.Elements[0].Color = "#12345" },
		"easing":         func(d *scene.Description) { d.Elements[0].Tracks["x"][1].Ease = "easeSideways" },
		"keyframe order": func(d *scene.Description) { d.Elements[0].Tracks["x"][1].T = -1 },
		"track name":     func(d *scene.Description) { d.Elements[0].Tracks["wobble"] = []scene.Keyframe{{}} },
		"motion":         func(d *scene.Description) { d.Elements[0].Motions[0].End = 0 },
		"duplicate id":   func(d *scene.Description) { d.Elements = append(d.Elements, d.Elements[0]) },
		"empty text":     func(d *scene.Description) { d.Elements[0].Type = scene.TypeText },
		"no elements":    func(d *scene.Description) { d.Elements = nil },
	}
	for name, mutate := range tests {
		d := valid()
		mutate(d)
		if err := d.Validate(); err == nil {
			t.Errorf("%s: invalid description accepted", name)
		}
	}
	if !scene.ValidEasing("cubic-bezier(0.7, 0, 0.2, 1)") || scene.ValidEasing("cubic-bezier(1,2)") {
		t.Error("cubic-bezier parsing")
	}
}

func TestRoundTripAndScale(t *testing.T) {
	d := valid()
	js, err := d.JSON()
	if err != nil {
		t.Fatal(err)
	}
	back, err := scene.Parse(js)
	if err != nil {
		t.Fatal(err)
	}
	js2, _ := back.JSON()
	if !bytes.Equal(js, js2) {
		t.Error("JSON round trip changed the description")
	}
	script, _ := d.Script()
	if !strings.Contains(string(script), "window.__scene = {") || !strings.HasSuffix(string(script), "};\n") {
		t.Errorf("scene.js: %s", script)
	}
	back.ScaleTime(2)
	if back.Duration != 8 || back.Elements[0].Tracks["x"][1].T != 4 || back.Elements[0].Motions[0].End != 6 {
		t.Errorf("ScaleTime(2): %+v", back)
	}
	if !bytes.Contains(scene.RuntimeJS(), []byte("__exportSeekTo")) || !bytes.Contains(scene.IndexHTML(), []byte(`src="runtime.js"`)) {
		t.Error("embedded runtime or page missing the protocol")
	}
}

// TestAssetFiles: a description lists the SVG of each library asset it draws once, at
// the path the runtime loads, and the runtime tints exactly the library's stroke sets.
func TestAssetFiles(t *testing.T) {
	d := &scene.Description{Version: scene.Version, Duration: 1, FPS: 30, Background: scene.Background{Colors: []string{"#000"}},
		Elements: []*scene.Element{
			{ID: "a", Type: scene.TypeAsset, Asset: "fluent:airplane", Size: 0.2},
			{ID: "b", Type: scene.TypeAsset, Asset: "fluent:airplane", Size: 0.1},
			{ID: "c", Type: scene.TypeAsset, Asset: "tabler:settings", Size: 0.1},
			{ID: "d", Type: scene.TypeCircle, Size: 0.1},
			{ID: "e", Type: scene.TypeAsset, Asset: "fluent:bus", Tint: "#FDD835", Size: 0.1},
		}}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	fs := d.AssetFiles()
	if len(fs) != 3 || fs[0].Path != "assets/lib/fluent/airplane.svg" || fs[1].Path != "assets/lib/fluent/bus-fdd835.svg" || fs[2].Path != "assets/lib/tabler/settings.svg" {
		t.Fatalf("asset files %v", fs)
	}
	// The tinted bus is painted: its orange body is gone.
	if bytes.Contains(fs[1].Data, []byte("#ffb02e")) {
		t.Errorf("the yellow bus keeps its orange: %s", fs[1].Data)
	}
	for _, f := range fs {
		if !bytes.HasPrefix(f.Data, []byte("<svg ")) {
			t.Errorf("%s is not an SVG document", f.Path)
		}
	}
	rt := string(scene.RuntimeJS())
	if !strings.Contains(rt, "'assets/lib/' + id.slice(0, k) + '/' + id.slice(k + 1) + t + '.svg'") ||
		!strings.Contains(rt, "'-' + String(tint).replace('#', '').toLowerCase()") {
		t.Error("runtime.js does not load assets from assets.File's path")
	}
	for _, s := range assets.Default().Sets() {
		if got := strings.Contains(rt, "STROKE_SETS = { "+s.Prefix+": true }"); got != s.Stroke {
			t.Errorf("runtime tints set %q: %v, library says stroke %v", s.Prefix, got, s.Stroke)
		}
	}
}

// TestValidateGridCharts: the variants whose values are more than one row say how they
// split, and a split that does not add up is refused rather than drawn against the
// wrong names.
func TestValidateGridCharts(t *testing.T) {
	chart := func(variant string, set func(e *scene.Element)) error {
		d := valid()
		e := &scene.Element{ID: "c", Type: scene.TypeChart, Variant: variant, Size: 0.3}
		set(e)
		d.Elements = []*scene.Element{e}
		return d.Validate()
	}
	six := []string{"a", "b", "c", "d", "e", "f"}
	good := map[string]func(e *scene.Element){
		scene.ChartWaterfall: func(e *scene.Element) { e.Values = []float64{12.4, 1.8, -0.9, 13.3} },
		scene.ChartRadar: func(e *scene.Element) {
			e.Labels, e.Values, e.Series, e.To = six, make([]float64, 12), []string{"A", "B"}, 10
		},
		scene.ChartHeatmap: func(e *scene.Element) {
			e.Labels, e.Series, e.Values, e.Count = []string{"8am", "noon"}, []string{"Mon", "Tue", "Wed"}, make([]float64, 6), -2
			e.ColorScale = []string{"#dbeafe", "#1e3a8a"}
		},
		scene.ChartScatter: func(e *scene.Element) {
			e.Values, e.Labels, e.Range, e.Fit = []float64{1, 52, 2, 55, 3, 61}, []string{"Hours", "Score"}, []float64{0, 10, 0, 100}, []float64{4.5, 47}
		},
		scene.ChartTreemap: func(e *scene.Element) { e.Values, e.Labels, e.To = []float64{19.2, 11.5, 8.3}, six[:3], 39 },
		scene.ChartPyramid: func(e *scene.Element) {
			e.Labels, e.Series, e.Values, e.From, e.To = six[:3], []string{"Men", "Women"}, make([]float64, 12), 1970, 2024
		},
	}
	for v, set := range good {
		if err := chart(v, set); err != nil {
			t.Errorf("%s: valid chart rejected: %v", v, err)
		}
	}
	bad := map[string]func(e *scene.Element){
		"waterfall without changes": func(e *scene.Element) { e.Variant, e.Values = scene.ChartWaterfall, []float64{1, 2} },
		"radar of two axes":         func(e *scene.Element) { e.Variant, e.Labels, e.Values = scene.ChartRadar, six[:2], []float64{1, 2} },
		"radar values not per axis": func(e *scene.Element) { e.Variant, e.Labels, e.Values = scene.ChartRadar, six, make([]float64, 7) },
		"radar below its centre": func(e *scene.Element) {
			e.Variant, e.Labels, e.Values = scene.ChartRadar, six[:3], []float64{1, -1, 2}
		},
		"heatmap not rows × columns": func(e *scene.Element) {
			e.Variant, e.Labels, e.Series, e.Values = scene.ChartHeatmap, six[:2], six[:3], make([]float64, 5)
		},
		"heatmap outlines more cells than it has": func(e *scene.Element) {
			e.Variant, e.Labels, e.Series, e.Values, e.Count = scene.ChartHeatmap, six[:2], six[:1], make([]float64, 2), 3
		},
		"series on a bar chart": func(e *scene.Element) { e.Values, e.Series = []float64{1, 2}, []string{"A"} },
		"scatter of odd values": func(e *scene.Element) { e.Variant, e.Values = scene.ChartScatter, []float64{1, 2, 3, 4, 5} },
		"scatter range backwards": func(e *scene.Element) {
			e.Variant, e.Values, e.Range = scene.ChartScatter, []float64{1, 2, 3, 4}, []float64{10, 0, 0, 100}
		},
		"bubble below zero": func(e *scene.Element) {
			e.Variant, e.Count, e.Values = scene.ChartScatter, 3, []float64{1, 2, -3, 4, 5, 6}
		},
		"fit on a bar chart":    func(e *scene.Element) { e.Values, e.Fit = []float64{1, 2}, []float64{1, 0} },
		"treemap block of zero": func(e *scene.Element) { e.Variant, e.Values = scene.ChartTreemap, []float64{3, 0} },
		"pyramid one side short": func(e *scene.Element) {
			e.Variant, e.Labels, e.Values = scene.ChartPyramid, six[:3], make([]float64, 5)
		},
		"pyramid of three sides": func(e *scene.Element) {
			e.Variant, e.Labels, e.Values, e.Series = scene.ChartPyramid, six[:2], make([]float64, 4), six[:3]
		},
		"colour scale on a radar": func(e *scene.Element) {
			e.Variant, e.Labels, e.Values, e.ColorScale = scene.ChartRadar, six[:3], make([]float64, 3), []string{"#000000", "#ffffff"}
		},
	}
	for name, set := range bad {
		if err := chart("", set); err == nil {
			t.Errorf("%s: invalid chart accepted", name)
		}
	}
}
