package templates_test

import (
	"encoding/json"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/agent/templates"
)

// promoScene is a 6 s promo: a drawn shoe slides in on its own, then the title (from
// 1.5 s) and the tagline (2 s to 4.5 s) appear; a logo end card follows alone.
func promoScene() *scene.Description {
	return &scene.Description{Version: 1, Duration: 6, FPS: 30, Background: scene.Background{Colors: []string{"#101820"}},
		Elements: []*scene.Element{
			{ID: "shoe", Type: scene.TypeCircle, X: -0.3, Size: 0.2, Color: "#ff6600", End: 5},
			{ID: "title", Type: scene.TypeText, Text: "SUMMER SALE", Y: -0.5, Size: 0.12, Color: "#ffffff", Start: 1.5, End: 5},
			{ID: "tagline", Type: scene.TypeText, Text: "Only this weekend", Y: 0.5, Size: 0.06, Color: "#ffd000", Start: 2, End: 4.5},
			{ID: "card", Type: scene.TypeRect, Size: 0.3, Color: "#2040ff", Start: 5},
		}}
}

// sharedOf fills the rows into d (in the landscape frame) and returns the stretch.
func sharedOf(t *testing.T, d *scene.Description, rows ...map[string]any) koda.SharedStretch {
	t.Helper()
	fields := templates.Discover(d, "", []critic.Frame{critic.Landscape})
	var set []string
	var filled []*scene.Description
	for _, row := range rows {
		values := map[string]json.RawMessage{}
		for k, v := range row {
			b, _ := json.Marshal(v)
			values[k] = b
			set = append(set, k)
		}
		c, bad := templates.Fill(d, fields, values, []critic.Frame{critic.Landscape})
		if len(bad) > 0 {
			t.Fatalf("row %v: %v (fields %v)", row, bad, fields)
		}
		filled = append(filled, c)
	}
	ref, bad := templates.Fill(d, fields, nil, []critic.Frame{critic.Landscape})
	if len(bad) > 0 {
		t.Fatal(bad)
	}
	return templates.Shared(ref, filled, fields, set)
}

func TestSharedStretch(t *testing.T) {
	texts := []map[string]any{{"headline": "BIG SALE", "only_this_weekend": "Today only"}, {"headline": "NEW IN"}}
	if s := sharedOf(t, promoScene(), texts...); s != (koda.SharedStretch{HeadS: 1.5, TailS: 5}) {
		t.Errorf("texts set: %+v, want the intro before 1.5 s and the end card after 5 s", s)
	}
	// Only the tagline set: the title keeps its value in every row.
	if s := sharedOf(t, promoScene(), map[string]any{"only_this_weekend": "Today only"}); s != (koda.SharedStretch{HeadS: 2, TailS: 4.5}) {
		t.Errorf("tagline set: %+v, want 2 s .. 4.5 s", s)
	}
	// No row sets anything: rows are the template; nothing to join.
	if s := sharedOf(t, promoScene(), map[string]any{}); s != (koda.SharedStretch{}) {
		t.Errorf("nothing set: %+v", s)
	}

	// A palette colour in use by the shoe, shown from the start: no intro is shared.
	if s := sharedOf(t, promoScene(), map[string]any{"headline": "X", "shoe_color": "#00ff00"}); s != (koda.SharedStretch{TailS: 5}) {
		t.Errorf("shoe's colour set: %+v, want only the end card (the shoe shows from 0 to 5 s)", s)
	}
	// A colour of the background: every frame depends on the row.
	if s := sharedOf(t, promoScene(), map[string]any{"headline": "X", "background": "#000000"}); s != (koda.SharedStretch{}) {
		t.Errorf("background set: %+v, want nothing shared", s)
	}

	// An opacity track holding the title at zero until 2.5 s hides it until then.
	d := promoScene()
	d.Elements[1].Tracks = map[string][]scene.Keyframe{"opacity": {{T: 1.5, V: 0}, {T: 2.5, V: 0}, {T: 3, V: 1}, {T: 4, V: 1}, {T: 4.2, V: 0}}}
	d.Elements[2].Start, d.Elements[2].End = 3, 4
	if s := sharedOf(t, d, map[string]any{"headline": "X", "only_this_weekend": "Y"}); s != (koda.SharedStretch{HeadS: 2.5, TailS: 4.2}) {
		t.Errorf("faded title: %+v, want 2.5 s .. 4.2 s", s)
	}

	// Something orbiting a filled text moves with it (the fit rules may move the text).
	d = promoScene()
	d.Elements = append(d.Elements, &scene.Element{ID: "spark", Type: scene.TypeStar, Size: 0.03, Color: "#ffffff", Start: 0.5,
		Motions: []*scene.Motion{{Type: scene.MotionOrbit, Start: 0.5, End: 6, Amp: 0.1, Around: "tagline"}}})
	if s := sharedOf(t, d, map[string]any{"only_this_weekend": "Y"}); s != (koda.SharedStretch{HeadS: 0.5}) {
		t.Errorf("orbit around the tagline: %+v, want the intro before 0.5 s only", s)
	}
}

// The fit rules move a text a long row would push out of the frame: what they move
// differs from the reference scene and counts as the row's, even when no field fills it.
func TestSharedStretchSeesWhatTheFitMoved(t *testing.T) {
	d := promoScene()
	fields := templates.Discover(d, "", []critic.Frame{critic.Landscape})
	ref, _ := templates.Fill(d, fields, nil, nil)
	row, _ := templates.Fill(d, fields, map[string]json.RawMessage{"headline": json.RawMessage(`"X"`)}, nil)
	row.Element("shoe").X += 0.1 // as a repair would move it
	if s := templates.Shared(ref, []*scene.Description{row}, fields, []string{"headline"}); s != (koda.SharedStretch{TailS: 5}) {
		t.Errorf("shoe moved in a row: %+v, want only the end card", s)
	}
	row.Background.Drift = 10
	if s := templates.Shared(ref, []*scene.Description{row}, fields, []string{"headline"}); s != (koda.SharedStretch{}) {
		t.Errorf("background differs in a row: %+v, want nothing shared", s)
	}
}
