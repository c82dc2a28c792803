package builtin_test

import (
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// TestInterfaceWidgets: each interface widget plays its own program — a switch's knob
// slides while its track turns green, a like pops and turns red, loading dots hop in
// turn, stars light one by one to the count, a battery fills, a download ends in a check.
func TestInterfaceWidgets(t *testing.T) {
	count := func(d *scene.Description, typ, motion string) int {
		n := 0
		for _, e := range d.Elements {
			for _, m := range e.Motions {
				if e.Type == typ && m.Type == motion {
					n++
				}
			}
		}
		return n
	}
	recolorTo := func(d *scene.Description, col string) bool {
		for _, m := range motionsOf(d)[scene.MotionRecolor] {
			if m.Color == col {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		prompt string
		check  func(t *testing.T, d *scene.Description)
	}{
		{"A toggle switch slides from off to on and turns green", func(t *testing.T, d *scene.Description) {
			if count(d, scene.TypeCircle, scene.MotionSlide) != 1 || !recolorTo(d, "#43a047") {
				t.Errorf("want a knob sliding and a track turning green: %v", motionsOf(d))
			}
		}},
		{"A heart-shaped like button pops when tapped and turns red", func(t *testing.T, d *scene.Description) {
			if count(d, scene.TypeHeart, scene.MotionPop) != 1 || !recolorTo(d, "#e53935") || len(elementsOf(d, scene.TypeRect)) != 0 {
				t.Errorf("want one heart popping and turning red, no separate button: %v", d.Types())
			}
		}},
		{"Three loading dots bounce one after another", func(t *testing.T, d *scene.Description) {
			b := motionsOf(d)[scene.MotionBounce]
			if len(b) != 3 || !(b[0].Start != b[1].Start && b[1].Start != b[2].Start) {
				t.Errorf("bounces %+v, want three dots hopping in turn", b)
			}
		}},
		{"Five stars light up one by one for a 5-star rating", func(t *testing.T, d *scene.Description) {
			p := motionsOf(d)[scene.MotionPop]
			if len(p) != 5 || len(elementsOf(d, scene.TypeStar)) != 10 {
				t.Fatalf("%d pops on %d stars, want five lit stars popping onto five dim ones", len(p), len(elementsOf(d, scene.TypeStar)))
			}
			for k := 1; k < 5; k++ {
				if p[k].Start <= p[k-1].Start {
					t.Errorf("star %d lights at %g, not after star %d (%g)", k+1, p[k].Start, k, p[k-1].Start)
				}
			}
		}},
		{"A battery icon charges from empty to full and turns green", func(t *testing.T, d *scene.Description) {
			f := motionsOf(d)[scene.MotionFill]
			if len(f) != 1 || f[0].Color != "#43a047" || len(elementsOf(d, scene.TypeLogo)) != 0 {
				t.Errorf("fill %+v and %d logos, want the battery (no logo: \"icon\" is no logo here) filling green", f, len(elementsOf(d, scene.TypeLogo)))
			}
		}},
		{"A download arrow drops down, then a check mark appears", func(t *testing.T, d *scene.Description) {
			var check *scene.Element
			for _, e := range d.Elements {
				if e.Type == scene.TypeIcon && e.Variant == "check" {
					check = e
				}
			}
			if check == nil || len(check.Motions) == 0 || check.Motions[0].Type != scene.MotionPop || check.Motions[0].Start < 2 {
				t.Errorf("check %+v, want a check mark popping in after the arrow lands", check)
			}
		}},
		{"A notification card slides down from the top saying 'New message'", func(t *testing.T, d *scene.Description) {
			s := motionsOf(d)[scene.MotionSlide]
			// Still under way an eighth into the video (the first still a person sees),
			// arrived before the title's scene.
			if len(s) != 1 || s[0].FromY > -1 || s[0].Start > 0.5 || s[0].End < d.Duration/8+0.5 || s[0].End > d.Scenes[len(d.Scenes)-1].Start {
				t.Errorf("slides %+v, want the card entering down from above the frame as the video opens, on screen sliding for the first still", s)
			}
		}},
		{"An envelope opens and a letter slides out", func(t *testing.T, d *scene.Description) {
			s := motionsOf(d)[scene.MotionSlide]
			if len(s) != 1 || s[0].FromY <= 0 || d.Elements[0].Label != "letter" {
				t.Errorf("slides %+v, want a letter, drawn behind the envelope, rising out of it", s)
			}
		}},
		{"A mouse cursor moves to a 'Sign up' button and clicks it", func(t *testing.T, d *scene.Description) {
			s := motionsOf(d)[scene.MotionSlide]
			var press bool
			for _, e := range elementsOf(d, scene.TypeRect) {
				for _, m := range e.Motions {
					press = press || (m.Type == scene.MotionPulse && m.Amp < 0 && len(s) == 1 && m.Start >= s[0].End)
				}
			}
			if len(s) != 1 || s[0].ToX <= 0 || !press {
				t.Errorf("slides %+v, press %v: want the pointer gliding right onto the button, then the button pressed", s, press)
			}
		}},
		{"A green check mark draws itself inside a circle", func(t *testing.T, d *scene.Description) {
			var check *scene.Element
			for _, e := range elementsOf(d, scene.TypeIcon) {
				if e.Variant == "check" {
					check = e
				}
			}
			circles := elementsOf(d, scene.TypeCircle)
			if check == nil || len(circles) != 1 || circles[0].Color != "#43a047" || check.In != circles[0].ID {
				t.Fatalf("check %+v on circles %+v, want a check mark in one green circle", check, circles)
			}
			if len(check.Motions) == 0 || check.Motions[0].Type != scene.MotionDraw {
				t.Errorf("check motions %+v, want it drawn", check.Motions)
			}
		}},
	} {
		t.Run(c.prompt[:12], func(t *testing.T) {
			_, sb, _ := generate(t, c.prompt, "", 0)
			c.check(t, readScene(t, sb))
		})
	}
}
