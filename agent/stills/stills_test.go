package stills_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/agent/stills"
	"github.com/kodahq/koda/renderer"
)

// base is a 6 s, three-scene description on a dark background.
func base(els ...*scene.Element) *scene.Description {
	return &scene.Description{Version: 1, Duration: 6, FPS: 30,
		Background: scene.Background{Colors: []string{"#0f172a", "#1e293b"}, Angle: 90},
		Scenes:     []scene.Mark{{ID: "s1", Name: "in", Start: 0, End: 2}, {ID: "s2", Name: "hold", Start: 2, End: 4}, {ID: "s3", Name: "out", Start: 4, End: 6}},
		Elements:   els}
}

// browser is one real Chromium for the test.
func browser(t *testing.T) *stills.Browser {
	t.Helper()
	br, err := stills.Start(context.Background(), renderer.FindChromium())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(br.Close)
	return br
}

func snapshot(t *testing.T, d *scene.Description) string {
	t.Helper()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// repaired runs the critic's stills loop and wants a fix of the check on elem, no
// problem left on the last look, and the scene still valid.
func repaired(t *testing.T, cam critic.Camera, d *scene.Description, check, elem string, frames ...critic.Frame) []critic.Fix {
	t.Helper()
	ctx := context.Background()
	var first []critic.Problem
	for _, f := range frames {
		st, err := cam.Look(ctx, d, f, []float64{3})
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, critic.CheckStills(d, f, st)...)
	}
	if !slices.ContainsFunc(first, func(p critic.Problem) bool { return p.Check == check && p.Element == elem }) {
		t.Fatalf("the stills do not show %s of %q: %v", check, elem, first)
	}
	fixes, left, err := critic.RepairStills(ctx, cam, d, frames...)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("problems left after the fix: %v", left)
	}
	if !slices.ContainsFunc(fixes, func(f critic.Fix) bool { return f.Check == check && f.Element == elem }) {
		t.Errorf("no %s fix of %q: %v", check, elem, fixes)
	}
	if err := d.Validate(); err != nil {
		t.Errorf("repaired scene invalid: %v", err)
	}
	return fixes
}

func TestStillsGoodScenePassesUnchanged(t *testing.T) {
	cam := &stills.Camera{Browser: browser(t)}
	d := base(
		&scene.Element{ID: "ball", Type: scene.TypeCircle, Size: 0.12, Y: -0.2, Color: "#e53935"},
		&scene.Element{ID: "title", Type: scene.TypeText, Text: "Hello", Size: 0.08, Y: 0.55, Color: "#ffffff"})
	before := snapshot(t, d)
	for _, f := range []critic.Frame{critic.Landscape, critic.Portrait, critic.Square} {
		fixes, left, err := critic.RepairStills(context.Background(), cam, d, f)
		if err != nil {
			t.Fatal(err)
		}
		if len(fixes) != 0 || len(left) != 0 {
			t.Errorf("%s: a good scene got fixes %v, problems %v", f.Name, fixes, left)
		}
	}
	if snapshot(t, d) != before {
		t.Error("a good scene was changed")
	}
}

func TestStillsMeasureWhatIsDrawn(t *testing.T) {
	cam := &stills.Camera{Browser: browser(t)}
	d := base(
		&scene.Element{ID: "ball", Type: scene.TypeCircle, Size: 0.2, X: -0.5, Color: "#e53935"},
		&scene.Element{ID: "title", Type: scene.TypeText, Text: "Hello", Size: 0.1, X: 0.5, Color: "#ffffff"})
	st, err := cam.Look(context.Background(), d, critic.Landscape, []float64{3})
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 1 || len(st[0].Elements) != 2 {
		t.Fatalf("stills: %+v", st)
	}
	ball, title := st[0].Elements[0], st[0].Elements[1]
	// The ball: a circle of radius 0.2 of 1080 at x = 480, y = 540 of 1920×1080.
	if ball.Box == nil || abs(ball.Box[0]*1920-(480-216)) > 8 || abs(ball.Box[2]*1920-(480+216)) > 8 {
		t.Errorf("ball box %v, want x from %d to %d", ball.Box, 480-216, 480+216)
	}
	if ball.Visible < ball.Pixels*9/10 || ball.Strong < ball.Pixels/2 {
		t.Errorf("ball pixels %d visible %d strong %d", ball.Pixels, ball.Visible, ball.Strong)
	}
	if !title.Text || title.Contrast < 10 {
		t.Errorf("white words on navy: text %v contrast %.1f", title.Text, title.Contrast)
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func TestStillsCatchAndFixClippedSubject(t *testing.T) {
	cam := &stills.Camera{Browser: browser(t)}
	d := base(&scene.Element{ID: "ball", Type: scene.TypeCircle, Size: 0.2, X: 0.95, Color: "#e53935"})
	repaired(t, cam, d, "frame", "ball", critic.Landscape)
}

func TestStillsCatchAndFixSubjectOutsideVerticalSafeArea(t *testing.T) {
	cam := &stills.Camera{Browser: browser(t)}
	// Inside the 9:16 frame but up under the apps' top overlay.
	d := base(&scene.Element{ID: "ball", Type: scene.TypeCircle, Size: 0.15, Y: -0.8, Color: "#e53935"},
		&scene.Element{ID: "title", Type: scene.TypeText, Text: "Hi", Size: 0.1, Y: 0.3, Color: "#ffffff"})
	repaired(t, cam, d, "safe", "ball", critic.Portrait)
}

func TestStillsCatchLowContrastWordsOnADrawing(t *testing.T) {
	cam := &stills.Camera{Browser: browser(t)}
	// White words over a large white cloud drawn as a backdrop layer: the geometry
	// reads them on the navy background, only the pixels show the cloud behind them.
	d := base(
		&scene.Element{ID: "cloud", Type: scene.TypeAsset, Asset: "fluent:cloud", Size: 0.45, Depth: 0.5},
		&scene.Element{ID: "title", Type: scene.TypeText, Text: "Cloudy", Size: 0.09, Color: "#ffffff"})
	if ps := critic.Check(d, critic.Landscape); len(ps) != 0 {
		t.Fatalf("the geometry finds %v", ps)
	}
	st, err := cam.Look(context.Background(), d, critic.Landscape, []float64{3})
	if err != nil {
		t.Fatal(err)
	}
	ps := critic.CheckStills(d, critic.Landscape, st)
	if !slices.ContainsFunc(ps, func(p critic.Problem) bool { return p.Check == "contrast" && p.Element == "title" }) {
		t.Errorf("the still does not show the words unreadable: %v", ps)
	}
}

func TestStillsCatchAndFixLowContrastWords(t *testing.T) {
	cam := &stills.Camera{Browser: browser(t)}
	// Grey words on a navy background.
	d := base(&scene.Element{ID: "title", Type: scene.TypeText, Text: "Launch", Size: 0.09, Color: "#3b4252"})
	repaired(t, cam, d, "contrast", "title", critic.Landscape)
	if c := d.Element("title").Color; c != "#ffffff" {
		t.Errorf("words recoloured %s, want white on navy", c)
	}
}

func TestStillsCatchAndFixFaintSubject(t *testing.T) {
	cam := &stills.Camera{Browser: browser(t)}
	// A navy star outline on a navy background.
	d := base(&scene.Element{ID: "ball", Type: scene.TypeAsset, Asset: "tabler:star", Size: 0.2, Color: "#25314b"},
		&scene.Element{ID: "title", Type: scene.TypeText, Text: "Ball", Size: 0.08, Y: 0.6, Color: "#ffffff"})
	repaired(t, cam, d, "faint", "ball", critic.Landscape)
}

func TestStillsCatchAndFixTextOnASubject(t *testing.T) {
	cam := &stills.Camera{Browser: browser(t)}
	d := base(&scene.Element{ID: "ball", Type: scene.TypeCircle, Size: 0.25, Color: "#e53935"},
		&scene.Element{ID: "title", Type: scene.TypeText, Text: "Launch", Size: 0.08, Y: 0.1, Color: "#ffffff"})
	repaired(t, cam, d, "overlap", "title", critic.Landscape)
}
