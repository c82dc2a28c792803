package builtin_test

import (
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/scene"
)

// TestComposedWidgetsSayWhatTheyDepict: a widget drawn from parts says what the parts
// make — the track a knob slides on is a toggle switch, the body a terminal sits on a
// battery, the bob on a swing's cord a pendulum — and the scene still validates (only a
// composed element may say so).
func TestComposedWidgetsSayWhatTheyDepict(t *testing.T) {
	for _, c := range []struct{ prompt, depicts, part string }{
		{"A toggle switch slides from off to on and turns green", "toggle switch", scene.TypeCircle},
		{"A battery icon charges from empty to full and turns green", "battery", scene.TypeRect},
		{"A pendulum swings back and forth", "pendulum", ""},
	} {
		_, sb, _ := generate(t, c.prompt, "", 0)
		d := readScene(t, sb)
		if err := d.Validate(); err != nil {
			t.Fatalf("%q: %v", c.prompt, err)
		}
		var whole *scene.Element
		for _, e := range d.Elements {
			if e.Depicts != "" {
				if whole != nil {
					t.Errorf("%q: both %q and %q say what they depict", c.prompt, whole.ID, e.ID)
				}
				whole = e
			}
		}
		if whole == nil || whole.Depicts != c.depicts {
			t.Errorf("%q: want one element depicting a %s, got %+v", c.prompt, c.depicts, whole)
			continue
		}
		if c.part == "" {
			// The pendulum's part is its cord: a swing with a length.
			if ms := motionsOf(d)[scene.MotionSwing]; len(ms) != 1 || ms[0].Length == nil || *ms[0].Length <= 0 {
				t.Errorf("%q: want the bob swinging on a cord, got %+v", c.prompt, ms)
			}
			continue
		}
		parts := 0
		for _, e := range d.Elements {
			if e.In == whole.ID && e.Type == c.part {
				parts++
			}
		}
		if parts != 1 {
			t.Errorf("%q: %d %s parts in %q, want 1", c.prompt, parts, c.part, whole.ID)
		}
	}
	// A ball that is only a ball says nothing more.
	_, sb, _ := generate(t, "A red ball bounces three times", "", 0)
	for _, e := range readScene(t, sb).Elements {
		if e.Depicts != "" {
			t.Errorf("a plain ball says it depicts %q", e.Depicts)
		}
	}
}

// TestPopsInIsAPopEntrance: a subject that "pops in" enters with a pop (from nothing to
// full size with an overshoot) whatever the style, and only the subject that pops.
func TestPopsInIsAPopEntrance(t *testing.T) {
	for _, st := range []koda.Style{koda.StylePlayful, koda.StyleSmooth, koda.StyleCinematic} {
		_, sb, _ := generate(t, "A thumbs up pops in with sparkles", st, 0)
		d := readScene(t, sb)
		var thumb *scene.Element
		for _, e := range d.Elements {
			if e.Asset == "fluent:thumbs-up" {
				thumb = e
			}
		}
		if thumb == nil {
			t.Fatalf("%s: no thumbs up drawn: %v", st, d.Types())
		}
		pops := 0
		for _, m := range thumb.Motions {
			if m.Type == scene.MotionPop {
				pops++
				if m.Start > 1 || m.End < d.Duration {
					t.Errorf("%s: the pop plays %g–%g, want an entrance that stays to the end (%g)", st, m.Start, m.End, d.Duration)
				}
			}
		}
		if pops != 1 {
			t.Errorf("%s: %d pops on the thumbs up, want one pop entrance: %+v", st, pops, thumb.Motions)
		}
	}
	// The slogan pops up, not the bottle.
	_, sb, _ := generate(t, "A blue water bottle bounces three times and then the slogan 'Stay fresh' pops up", "", 0)
	for _, e := range readScene(t, sb).Elements {
		for _, m := range e.Motions {
			if m.Type == scene.MotionPop && e.Type != scene.TypeText {
				t.Errorf("%s %q pops in; only the slogan pops up", e.Type, e.ID)
			}
		}
	}
}

// TestPlanetsOrbitTheSun: "two planets orbit around a yellow sun" draws two planets
// (the library's ringed planet, not balls), both circling the sun — neither circles the
// other — each on its own ring and at its own angle, in different sizes and colours.
func TestPlanetsOrbitTheSun(t *testing.T) {
	_, sb, _ := generate(t, "Two planets orbit around a yellow sun in space", "", 0)
	d := readScene(t, sb)
	var sun *scene.Element
	var planets []*scene.Element
	for _, e := range d.Elements {
		switch e.Asset {
		case "fluent:sun":
			sun = e
		case "fluent:ringed-planet":
			planets = append(planets, e)
		}
	}
	if sun == nil || len(planets) != 2 {
		t.Fatalf("want a sun and two ringed planets, got %d planets among %v", len(planets), d.Types())
	}
	var orbits []*scene.Motion
	for _, p := range planets {
		for _, m := range p.Motions {
			if m.Type == scene.MotionOrbit {
				orbits = append(orbits, m)
				if m.Around != sun.ID {
					t.Errorf("%s orbits %q, want the sun %q", p.ID, m.Around, sun.ID)
				}
			}
		}
	}
	if len(orbits) != 2 {
		t.Fatalf("%d orbits, want one per planet", len(orbits))
	}
	if orbits[0].Amp == orbits[1].Amp || orbits[0].Angle == orbits[1].Angle {
		t.Errorf("both planets on one ring or at one angle: %+v, %+v", orbits[0], orbits[1])
	}
	if planets[0].Size == planets[1].Size || planets[0].Hue == planets[1].Hue {
		t.Errorf("the planets are alike: sizes %g, %g, hues %g, %g", planets[0].Size, planets[1].Size, planets[0].Hue, planets[1].Hue)
	}
}
