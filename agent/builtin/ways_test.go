package builtin_test

import (
	"math"
	"strings"
	"testing"

	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/scene"
)

// at is an element's x or y at time t: its track between keyframes (linear is close
// enough for which side of a thing it is on), else its place.
func at(e *scene.Element, prop string, t float64) float64 {
	base := e.X
	if prop == "y" {
		base = e.Y
	}
	k := e.Tracks[prop]
	if len(k) == 0 || t <= k[0].T {
		if len(k) > 0 {
			return k[0].V
		}
		return base
	}
	for i := 1; i < len(k); i++ {
		if t <= k[i].T {
			f := (t - k[i-1].T) / math.Max(k[i].T-k[i-1].T, 1e-9)
			return k[i-1].V + (k[i].V-k[i-1].V)*f
		}
	}
	return k[len(k)-1].V
}

// moverAndLandmark are the element that goes and the one it goes past: the mover is
// nested in the landmark (their overlap is meant).
func moverAndLandmark(t *testing.T, d *scene.Description) (mover, landmark *scene.Element) {
	t.Helper()
	for _, e := range d.Elements {
		if e.In != "" && len(e.Tracks["x"])+len(e.Tracks["y"]) > 0 {
			return e, d.Element(e.In)
		}
	}
	t.Fatalf("no element goes a way past another: %v", labels(d))
	return nil, nil
}

func labels(d *scene.Description) []string {
	var out []string
	for _, e := range d.Elements {
		out = append(out, e.ID)
	}
	return out
}

// span is when the mover's x or y track changes.
func span(e *scene.Element) (t0, t1 float64) {
	t0, t1 = math.Inf(1), 0
	for _, p := range []string{"x", "y"} {
		for _, k := range e.Tracks[p] {
			t0, t1 = math.Min(t0, k.T), math.Max(t1, k.T)
		}
	}
	return t0, t1
}

// TestWaysPastALandmark: each preposition of going, by its row's example, moves the
// mover the way the preposition says relative to the thing it names (over it, across
// it, off it, up it…), not beside it in place.
func TestWaysPastALandmark(t *testing.T) {
	checks := map[string]func(m, l *scene.Element, t0, t1 float64) string{
		// Starts on one side, rises above the top, ends on the other side.
		"over": func(m, l *scene.Element, t0, t1 float64) string {
			top := math.Inf(1)
			for _, k := range m.Tracks["y"] {
				top = math.Min(top, k.V)
			}
			if (at(m, "x", t0)-l.X)*(at(m, "x", t1)-l.X) >= 0 || top >= l.Y {
				return "does not leap from one side over the top to the other"
			}
			return ""
		},
		"across":  crosses,
		"through": crosses,
		"past":    crosses,
		"under":   crosses,
		"beneath": crosses,
		"into": func(m, l *scene.Element, t0, t1 float64) string {
			if math.Hypot(at(m, "x", t1)-l.X, at(m, "y", t1)-l.Y) > 0.05 || math.Hypot(at(m, "x", t0)-l.X, at(m, "y", t0)-l.Y) < 0.2 {
				return "does not go from outside into the middle"
			}
			return ""
		},
		"onto": func(m, l *scene.Element, t0, t1 float64) string {
			if at(m, "y", t1) >= l.Y || math.Abs(at(m, "x", t1)-l.X) > 0.05 || math.Abs(at(m, "x", t0)-l.X) < 0.2 {
				return "does not end on top, coming from beside"
			}
			return ""
		},
		"off": func(m, l *scene.Element, t0, t1 float64) string {
			if at(m, "y", t0) >= l.Y || at(m, "y", t1) <= l.Y || math.Abs(at(m, "x", t1)-l.X) <= math.Abs(at(m, "x", t0)-l.X) {
				return "does not go from its top off its side and down"
			}
			return ""
		},
		"out of": rises,
		"up":     rises,
		"down":   falls,
		"from":   falls,
		"toward": nears, "towards": nears,
	}
	for prep, example := range builtin.WayExamples() {
		check, ok := checks[prep]
		if !ok {
			t.Errorf("%s: no check for the row", prep)
			continue
		}
		d, _, _ := generateWithMessages(t, example)
		m, l := moverAndLandmark(t, d)
		t0, t1 := span(m)
		if why := check(m, l, t0, t1); why != "" {
			t.Errorf("%s (%q): %s %s: from (%.2f, %.2f) to (%.2f, %.2f), landmark %s at (%.2f, %.2f)", prep, example, m.Label, why,
				at(m, "x", t0), at(m, "y", t0), at(m, "x", t1), at(m, "y", t1), l.Label, l.X, l.Y)
		}
		if !strings.Contains(example, m.Label) || !strings.Contains(example, l.Label) {
			t.Errorf("%s (%q): mover %q and landmark %q are not the example's", prep, example, m.Label, l.Label)
		}
	}
}

// crosses: from one side of the landmark to the other.
func crosses(m, l *scene.Element, t0, t1 float64) string {
	if (at(m, "x", t0)-l.X)*(at(m, "x", t1)-l.X) >= 0 || math.Abs(at(m, "x", t1)-at(m, "x", t0)) < 0.6 {
		return "does not cross from one side to the other"
	}
	return ""
}

func rises(m, l *scene.Element, t0, t1 float64) string {
	if at(m, "y", t1) > at(m, "y", t0)-0.2 {
		return "does not go up it"
	}
	return ""
}

func falls(m, l *scene.Element, t0, t1 float64) string {
	if at(m, "y", t1) < at(m, "y", t0)+0.15 {
		return "does not go down from it"
	}
	return ""
}

func nears(m, l *scene.Element, t0, t1 float64) string {
	if math.Abs(at(m, "x", t1)-l.X) > math.Abs(at(m, "x", t0)-l.X)-0.2 {
		return "does not come to it"
	}
	return ""
}

// TestSeveralGoOneAfterAnother: three sheep over a fence each leap it in turn, the
// later ones out of sight until theirs comes, so none stands on another.
func TestSeveralGoOneAfterAnother(t *testing.T) {
	d, _, _ := generateWithMessages(t, "Three sheep jump over a fence")
	var sheep []*scene.Element
	for _, e := range d.Elements {
		if e.Label == "sheep" {
			sheep = append(sheep, e)
		}
	}
	if len(sheep) != 3 {
		t.Fatalf("%d sheep drawn, want 3: %v", len(sheep), labels(d))
	}
	prev := -1.0
	for _, s := range sheep {
		t0, _ := span(s)
		if t0 <= prev || s.In == "" || s.Size < 0.08 {
			t.Errorf("%s: leaps at %.2f (the one before at %.2f), in %q, size %.2f: want one after another over the fence, full size", s.ID, t0, prev, s.In, s.Size)
		}
		prev = t0
	}
}

// TestVerbsOfGoingFromWordNet: verbs of going the hand-made vocabulary lacks are read
// from WordNet in their manner: a squirrel that climbs goes up the tree, a swan that
// glides crosses the lake, a cloud that wanders drifts across the sky.
func TestVerbsOfGoingFromWordNet(t *testing.T) {
	for _, c := range []struct{ prompt, label, want string }{
		{"A squirrel climbs up a tree", "squirrel", "up"},
		{"A swan glides across a lake", "swan", "across"},
		{"A goat wanders past a barn", "goat", "past"},
	} {
		d, _, _ := generateWithMessages(t, c.prompt)
		var m *scene.Element
		for _, e := range d.Elements {
			if e.Label == c.label {
				m = e
			}
		}
		// A way laid out past the landmark (the mover nested in it and moving) is a
		// verb read as going.
		if m == nil || m.In == "" || len(m.Tracks["x"])+len(m.Tracks["y"]) == 0 {
			t.Errorf("%q: the %s does not go %s anything", c.prompt, c.label, c.want)
		}
	}
}

// TestOverToIsNoWayOver: "walks over to a pond" goes to the pond, not over it.
func TestOverToIsNoWayOver(t *testing.T) {
	d, _, _ := generateWithMessages(t, "A duck walks over to a pond")
	for _, e := range d.Elements {
		if e.Label == "duck" && len(e.Tracks["y"]) > 0 {
			top := math.Inf(1)
			for _, k := range e.Tracks["y"] {
				top = math.Min(top, k.V)
			}
			if p := d.Element(e.In); p != nil && top < p.Y-0.3 {
				t.Errorf("the duck leaps over the pond (y %.2f, pond at %.2f)", top, p.Y)
			}
		}
	}
}
