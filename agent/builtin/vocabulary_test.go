package builtin_test

import (
	"context"
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
