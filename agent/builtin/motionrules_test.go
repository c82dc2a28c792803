package builtin_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/scene"
)

// TestMotionRules feeds every row of the motion table its own example and checks the
// scene plays the row's motion (a motion type, or "track:NAME" for keyframes on that
// property), and that no verb has two rows.
func TestMotionRules(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range builtin.MotionRules() {
		for _, v := range r.Verbs {
			if seen[v] {
				t.Errorf("verb %q has two rows", v)
			}
			seen[v] = true
		}
		t.Run(r.Verbs[0], func(t *testing.T) {
			_, sb, _ := generate(t, r.Example, koda.StyleSmooth, 0)
			d := readScene(t, sb)
			var got []string
			for _, e := range d.Elements {
				for _, m := range e.Motions {
					got = append(got, m.Type)
				}
				for k := range e.Tracks {
					got = append(got, "track:"+k)
				}
			}
			if !slices.Contains(got, r.Motion) {
				t.Errorf("%q plays %v, want %s", r.Example, got, r.Motion)
			}
		})
	}
}

// TestFormsPlayInPlace: a drawing that becomes another is followed, in its own place,
// by that drawing fading in as it fades out.
func TestFormsPlayInPlace(t *testing.T) {
	_, sb, _ := generate(t, "An egg wobbles, then hatches into a chick", koda.StyleSmooth, 0)
	d := readScene(t, sb)
	var egg, chick *scene.Element
	for _, e := range d.Elements {
		switch e.Asset {
		case "fluent:egg":
			egg = e
		case "fluent:hatching-chick":
			chick = e
		}
	}
	if egg == nil || chick == nil || chick.X != egg.X || chick.Y != egg.Y {
		t.Fatalf("egg %+v, chick %+v, want both in one place", egg, chick)
	}
	eo, co := egg.Tracks["opacity"], chick.Tracks["opacity"]
	if len(eo) == 0 || eo[len(eo)-1].V != 0 || len(co) == 0 || co[0].V != 0 || co[len(co)-1].V != 1 {
		t.Errorf("opacity egg %+v, chick %+v: want the egg to fade out as the chick fades in", eo, co)
	}
}

// TestWordByWord: words asked to come one at a time are revealed word by word, in a
// genre layout as in the composer's own.
func TestWordByWord(t *testing.T) {
	for _, prompt := range []string{
		`Square quote card: "Every mountain top is within reach" in white on teal, the words fading in one at a time`,
		`The words "Small steps every day" appear word by word over a sunrise`,
	} {
		_, sb, _ := generate(t, prompt, koda.StyleSmooth, 0)
		d := readScene(t, sb)
		found := false
		for _, e := range d.Elements {
			if e.Type == scene.TypeText && strings.Contains(e.Text, " ") {
				if e.Reveal != "words" || len(e.Tracks["progress"]) == 0 {
					t.Errorf("%q: text %q reveals %q with progress %v, want word by word", prompt, e.Text, e.Reveal, e.Tracks["progress"])
				}
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no text of several words", prompt)
		}
	}
}

// TestPathWithStops: "from A to B to C" stands the three along the way, each flower its
// own colour, and the traveller visits each in turn ("a bee flies" is a bee that flies).
func TestPathWithStops(t *testing.T) {
	_, sb, _ := generate(t, "A bee flies from a pink flower to a yellow flower to a blue flower", koda.StyleSmooth, 0)
	d := readScene(t, sb)
	var bee *scene.Element
	var flowers []*scene.Element
	for _, e := range d.Elements {
		switch {
		case e.Asset == "fluent:honeybee":
			bee = e
		case strings.Contains(e.Label, "flower"):
			flowers = append(flowers, e)
		}
	}
	if bee == nil || len(flowers) != 3 {
		t.Fatalf("bee %v, %d flowers; want a bee and three flowers", bee != nil, len(flowers))
	}
	if !(flowers[0].X < flowers[1].X && flowers[1].X < flowers[2].X) {
		t.Errorf("flowers at x %g, %g, %g; want them in the order named, left to right", flowers[0].X, flowers[1].X, flowers[2].X)
	}
	xs := bee.Tracks["x"]
	for _, f := range flowers {
		if !slices.ContainsFunc(xs, func(k scene.Keyframe) bool { return k.V == f.X }) {
			t.Errorf("the bee's x keys %v never reach the %s at %g", xs, f.Label, f.X)
		}
	}
}

// TestCopiesInARow: copies asked "in a row" stand on one line, left to right, and "from
// left to right" with a verb that plays in place is their order, not a journey.
func TestCopiesInARow(t *testing.T) {
	_, sb, _ := generate(t, "Five candles stand in a row and light up one after another from left to right", koda.StyleSmooth, 0)
	d := readScene(t, sb)
	var xs []float64
	var y float64
	for _, e := range d.Elements {
		if e.Type != scene.TypeAsset {
			continue
		}
		if len(xs) > 0 && e.Y != y {
			t.Errorf("%s at y %g, the first at %g: want one line", e.ID, e.Y, y)
		}
		y = e.Y
		if len(xs) > 0 && e.X <= xs[len(xs)-1] {
			t.Errorf("%s at x %g after %g: want left to right", e.ID, e.X, xs[len(xs)-1])
		}
		xs = append(xs, e.X)
	}
	if len(xs) != 5 {
		t.Fatalf("%d candles, want 5", len(xs))
	}
}
