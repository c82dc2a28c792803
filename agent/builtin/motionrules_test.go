package builtin_test

import (
	"slices"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
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
