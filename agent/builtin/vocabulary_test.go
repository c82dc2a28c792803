package builtin_test

import (
	"context"
	"math"
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// TestRuntimeVocabulary draws every icon, a morph, a custom path and a staggered list:
// each frame is deterministic in t, shapes change between frames, and list items appear
// one after another.
func TestRuntimeVocabulary(t *testing.T) {
	ctx := context.Background()
	d := &scene.Description{Version: scene.Version, Duration: 3, FPS: 30,
		Background: scene.Background{Colors: []string{"#0f172a", "#1e293b"}}}
	for i, name := range scene.Icons {
		d.Elements = append(d.Elements, &scene.Element{ID: "icon-" + name, Type: scene.TypeIcon, Variant: name,
			X: -0.9 + 0.15*float64(i%12), Y: -0.8 + 0.3*float64(i/12), Size: 0.05, Color: "#ffb300"})
	}
	d.Elements = append(d.Elements,
		&scene.Element{ID: "morph", Type: scene.TypeMorph, Shapes: []string{"circle", "star", "heart"}, X: -0.5, Y: 0.3, Size: 0.15, Color: "#e53935",
			Tracks: map[string][]scene.Keyframe{"progress": {{T: 0, V: 0}, {T: 3, V: 1}}}},
		&scene.Element{ID: "path", Type: scene.TypePath, Path: "M-1,1 L0,-1 L1,1 Z", X: 0, Y: 0.3, Size: 0.15, Color: "#43a047",
			Tracks: map[string][]scene.Keyframe{"progress": {{T: 0, V: 0}, {T: 2, V: 1}}}},
		&scene.Element{ID: "list", Type: scene.TypeText, Items: []string{"Fast", "Secure", "Simple"}, Stagger: 0.8, X: 0.6, Y: 0.3, Size: 0.07, Color: "#ffffff"},
	)
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	sb := newSandbox(t)
	js, _ := d.JSON()
	script, _ := d.Script()
	for name, data := range map[string][]byte{scene.FileIndex: scene.IndexHTML(), scene.FileRuntime: scene.RuntimeJS(), scene.FileJSON: js, scene.FileScene: script} {
		if _, err := sb.WriteFile(ctx, name, data, false); err != nil {
			t.Fatal(err)
		}
	}
	c := render(t, browser(t), sb.Dir(), 640, 360, 0.1, 1.0, 2.9, 1.0)
	if diff(c.frames[1], c.frames[3]) != 0 {
		t.Error("the same time drew two different frames")
	}
	if diff(c.frames[0], c.frames[2]) < 1 {
		t.Errorf("frames at 0.1s and 2.9s barely differ (%.2f): the shapes do not move", diff(c.frames[0], c.frames[2]))
	}
	// The list's region gains ink as its items appear one by one.
	ink := func(i int) float64 {
		n := 0.0
		for y := 60; y < 300; y++ {
			for x := 440; x < 640; x++ {
				if r, g, b := rgbAt(c.frames[i], x, y); r > 200 && g > 200 && b > 200 {
					n++
				}
			}
		}
		return n
	}
	if a, b, e := ink(0), ink(1), ink(2); !(a < b && b < e) {
		t.Errorf("list ink at 0.1s, 1s, 2.9s = %v, %v, %v; want it to grow as items appear", a, b, e)
	}
}

// TestRuntimeAssets draws library assets: an illustration keeps its own colours, a line
// icon takes the element's colour, both are ready on the very first frame and follow
// their motions.
func TestRuntimeAssets(t *testing.T) {
	ctx := context.Background()
	d := &scene.Description{Version: scene.Version, Duration: 2, FPS: 30,
		Background: scene.Background{Colors: []string{"#ffffff"}}}
	d.Elements = append(d.Elements,
		&scene.Element{ID: "boat", Type: scene.TypeAsset, Asset: "fluent:sailboat", X: -0.5, Y: 0, Size: 0.3,
			Motions: []*scene.Motion{{Type: scene.MotionFloat, Start: 0, End: 2, Amp: 0.05, Count: 1}}},
		&scene.Element{ID: "gear", Type: scene.TypeAsset, Asset: "tabler:settings", X: 0.5, Y: 0, Size: 0.3, Color: "#e53935",
			Motions: []*scene.Motion{{Type: scene.MotionSpin, Start: 0, End: 2, Count: 0.25}}},
	)
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	sb := newSandbox(t)
	js, _ := d.JSON()
	script, _ := d.Script()
	files := map[string][]byte{scene.FileIndex: scene.IndexHTML(), scene.FileRuntime: scene.RuntimeJS(), scene.FileJSON: js, scene.FileScene: script}
	for _, f := range d.AssetFiles() {
		files[f.Path] = f.Data
	}
	if len(files) != 6 {
		t.Fatalf("asset files %v, want the two SVGs", d.AssetFiles())
	}
	for name, data := range files {
		if _, err := sb.WriteFile(ctx, name, data, false); err != nil {
			t.Fatal(err)
		}
	}
	c := render(t, browser(t), sb.Dir(), 640, 360, 0, 1.0)
	// Colours in each half of the first frame, quantised.
	colours := func(img int, x0, x1 int) (distinct int, red, dark float64) {
		seen := map[[3]int]bool{}
		n := 0.0
		for y := 0; y < 360; y++ {
			for x := x0; x < x1; x++ {
				r, g, b := rgbAt(c.frames[img], x, y)
				if math.Max(r, math.Max(g, b))-math.Min(r, math.Min(g, b)) < 60 {
					continue // the grey background (white with the runtime's shading)
				}
				n++
				seen[[3]int{int(r) / 32, int(g) / 32, int(b) / 32}] = true
				if r > 180 && g < 110 && b < 110 {
					red++
				}
				if r < 60 && g < 60 && b < 60 {
					dark++
				}
			}
		}
		if n == 0 {
			return 0, 0, 0
		}
		return len(seen), red / n, dark / n
	}
	if k, _, _ := colours(0, 0, 320); k < 4 {
		t.Errorf("the sailboat on the first frame has %d colours, want an illustration in its own colours", k)
	}
	if k, red, dark := colours(0, 320, 640); k == 0 || red < 0.5 || dark > 0.05 {
		t.Errorf("the settings icon is %.0f%% red and %.0f%% dark (%d colours), want it drawn in the element's red", red*100, dark*100, k)
	}
	if diff(c.frames[0], c.frames[1]) < 0.05 {
		t.Errorf("frames at 0s and 1s barely differ (%.2f): the assets do not move", diff(c.frames[0], c.frames[1]))
	}
}
