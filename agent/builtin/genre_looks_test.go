package builtin_test

import (
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/scene"
)

// TestGlitchLook: a name asked to glitch in is the glitch intro (the name glitching
// over scanlines, the tagline typed after it); a title card, chapter title or logo
// reveal asked with the effect's words keeps its layout and wears the effect on its
// main words (a glitch, a typewriter); a thing that glitches, with no name to show,
// is no intro.
func TestGlitchLook(t *testing.T) {
	motionOn := func(d *scene.Description, text, typ string) bool {
		for _, e := range d.Elements {
			if e.Text == text {
				for _, m := range e.Motions {
					if m.Type == typ {
						return true
					}
				}
			}
		}
		return false
	}
	for _, c := range []struct {
		prompt, row, text, motion string
		scanlines                 bool
	}{
		{`Glitch intro for my gaming channel NULLSHIFT: the name appears with an RGB split, scanlines and noise bursts, then snaps clean and the tagline "Play. Break. Repeat." types out`,
			"glitch intro", "NULLSHIFT", scene.MotionGlitch, true},
		{`VHS glitch channel intro: "Late Night Tapes" with chromatic aberration, then the tagline "rewind weekly"`,
			"glitch intro", "Late Night Tapes", scene.MotionGlitch, true},
		{`A title card that reads "Midnight Drive" with a VHS glitch`, "title card", "Midnight Drive", scene.MotionGlitch, true},
		{`Logo reveal for Harbor Coffee Co.: the wordmark types out like a typewriter, tagline 'Roasted by the sea'`, "logo reveal", "Harbor Coffee Co.", scene.MotionType, false},
	} {
		if g := builtin.Explain(c.prompt).Genre; g == nil || g.Name != c.row {
			t.Errorf("%q chose %v, want the %s row", c.prompt, g, c.row)
			continue
		}
		_, sb, _ := generate(t, c.prompt, koda.StyleSmooth, 0)
		d := readScene(t, sb)
		if !motionOn(d, c.text, c.motion) {
			t.Errorf("%q: %q has no %s motion", c.prompt, c.text, c.motion)
		}
		if (d.Effects.Scanlines > 0) != c.scanlines {
			t.Errorf("%q: scanlines %g, want them %v", c.prompt, d.Effects.Scanlines, c.scanlines)
		}
	}
	if !func() bool {
		_, sb, _ := generate(t, `Glitch intro for my gaming channel NULLSHIFT: the name appears with an RGB split, then the tagline "Play. Break. Repeat." types out`, koda.StyleSmooth, 0)
		return motionOn(readScene(t, sb), "Play. Break. Repeat.", scene.MotionType)
	}() {
		t.Errorf("the tagline is not typed out")
	}
	for _, p := range []string{"A robot glitches and sparks fly from its arm", "A glitch in the matrix: a black cat walks past twice"} {
		if g := builtin.Explain(p).Genre; g != nil && g.Name == "glitch intro" {
			t.Errorf("%q chose the glitch intro", p)
		}
	}
}
