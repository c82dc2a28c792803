package builtin_test

import (
	"slices"
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
