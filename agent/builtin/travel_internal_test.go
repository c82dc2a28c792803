package builtin

import (
	"strings"
	"testing"
)

// TestTravelVerbs: verbs of going somewhere read as a slide across the frame, "in and
// stops" as an entrance, "up" and "launches" as an upward flight, and the nouns behind a
// place preposition after the verb as places that stay put.
func TestTravelVerbs(t *testing.T) {
	for _, c := range []struct {
		prompt            string
		action            string
		across, enter, up bool
		places            []string // nouns of the beat's places
	}{
		{"A red car drives from left to right along a road", "slide", true, false, false, []string{"road"}},
		{"A turtle slowly walks across the beach", "slide", true, false, false, []string{"beach"}},
		{"A snail crawls along a leaf", "slide", true, false, false, []string{"leaf"}},
		{"A delivery truck drives in and stops", "slide", false, true, false, nil},
		{"A bicycle rides along the bottom of the screen", "slide", true, false, false, nil},
		{"A butterfly flutters across a field of flowers", "fly", true, false, false, []string{"flowers"}},
		{"A rocket launches upward", "fly", false, false, true, nil},
		{"Three red balloons float up into the sky", "rise", false, false, true, nil},
		{"A red apple falls from a tree", "fall", false, false, false, []string{"tree"}},
		{"A golden key turns in a lock", "spin", false, false, false, []string{"lock"}},
		{"Wind blows autumn leaves across the screen", "fly", true, false, false, nil},
	} {
		b := analyze(c.prompt)
		if len(b.Beats) == 0 {
			t.Errorf("%q: no beats", c.prompt)
			continue
		}
		bt := b.Beats[0]
		if !containsStr(bt.Actions, c.action) {
			t.Errorf("%q: actions %v, want %s", c.prompt, bt.Actions, c.action)
		}
		if bt.Across != c.across || bt.Enter != c.enter || bt.Up != c.up {
			t.Errorf("%q: across %v enter %v up %v, want %v %v %v", c.prompt, bt.Across, bt.Enter, bt.Up, c.across, c.enter, c.up)
		}
		var places []string
		for _, si := range bt.Places {
			places = append(places, b.Subjects[si].Noun)
		}
		if strings.Join(places, ",") != strings.Join(c.places, ",") {
			t.Errorf("%q: places %v, want %v", c.prompt, places, c.places)
		}
	}
}

// TestTurnsIntoAColour: "turns red" is a recolour, "turns in a lock" a spin.
func TestTurnsIntoAColour(t *testing.T) {
	if b := analyze("A like button pops and turns red"); !containsStr(b.Actions, "recolor") || containsStr(b.Actions, "spin") {
		t.Errorf("actions %v, want a recolor and no spin", b.Actions)
	}
	if b := analyze("A light bulb switches on and glows yellow"); containsStr(b.Actions, "spin") || len(b.Subjects) != 1 || b.Subjects[0].Asset != "fluent:light-bulb" {
		t.Errorf("actions %v subjects %+v, want the light bulb glowing", b.Actions, b.Subjects)
	}
}

// TestSubjectNames: names the library knows outright match whole even when a word of
// them is a verb or a scene word alone; a compound is its head; a keyword-only adjective
// before a noun is no subject; a place word is no subject; rain is a particle field.
func TestSubjectNames(t *testing.T) {
	for prompt, want := range map[string][]string{
		"A flying saucer hovers over a dark field at night": {"fluent:flying-saucer", "particles:stars"},
		"An ice cream cone under a hot sun":                 {"fluent:soft-ice-cream", "fluent:sun"},
		"A yellow school bus drives across the screen":      {"fluent:bus"},
		"A notification bell swings as it rings":            {"fluent:bell"},
		"A pink doughnut with sprinkles spins slowly":       {"fluent:doughnut"},
		"A pencil draws a wavy line across the page":        {"fluent:pencil", "wave", "fluent:page-with-curl"},
		"Rain falling from a grey cloud":                    {"particles:rain", "fluent:cloud"},
		"A row of tiles flips over in sequence":             {"rect"},
		// A prompt opening on its subject without an article; a noun phrase's last noun
		// is its head; a verb after a noun stays a verb.
		// "branch" is drawn by a twig, a kind of branch (not by the nest its keyword names).
		"Chameleon sitting on a branch":        {"fluent:lizard", "tabler:twig"},
		"Evening: six clay diyas sit in a row": {"fluent:diya-lamp"},
		// An adjective a drawing's name is near ("robotic" of the robot) draws nothing.
		"A robotic arm lifts a teddy bear": {"fluent:teddy-bear"},
		// A word before a reflexive pronoun is the verb ("tie" of the laces, no necktie).
		"A sneaker drops in and its laces tie themselves":  {"fluent:running-shoe"},
		"Juice pours into an empty glass until it is full": {"fluent:beverage-box", "fluent:glass-of-milk"},
		"A snowman stands in falling snow":                 {"fluent:snowman", "particles:snow"},
		"A watermelon slice on a sunny background":         {"fluent:watermelon"},
		"A big snowball, then a medium one stacked on top": {},
		// A look is no thing ("science class style"); bars without figures are no chart.
		"Science class style: a battery lights a light bulb":      {"tabler:battery", "fluent:light-bulb"},
		"A hamster drinks from a water bottle hanging on the bar": {"fluent:hamster", "tabler:bottle"},
		// The words of the name a video is for are no subjects ("Coffee" of a café's name).
		"A logo reveal for Harbor Coffee Co.: an anchor draws itself": {"logo", "fluent:anchor"},
	} {
		b := analyze(prompt)
		var got []string
		for _, s := range b.Subjects {
			switch {
			case s.Asset != "":
				got = append(got, s.Asset)
			case s.Kind == "particles":
				got = append(got, "particles:"+s.Variant)
			default:
				got = append(got, s.Kind)
			}
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%q: subjects %v, want %v", prompt, got, want)
		}
	}
	if b := analyze("Six clay diyas sit in a row"); len(b.Subjects) != 1 || b.Subjects[0].Many != 6 {
		t.Errorf("six clay diyas read as %+v, want six diyas", b.Subjects)
	}
	if b := analyze("A doughnut chart of 40% 35% 25%"); len(b.Subjects) == 0 || b.Subjects[0].Kind != "chart" {
		t.Errorf("a doughnut chart reads as %+v, want a chart", b.Subjects)
	}
}

// TestPlacesAndCompanions: "with" puts a drawing on another, "out of" and "in" record
// the place, "draws itself" is the subject drawn, and a spiral is a particle field's shape.
func TestPlacesAndCompanions(t *testing.T) {
	b := analyze("A birthday cupcake with a candle")
	if len(b.Beats) != 1 || len(b.Subjects) != 2 || b.Beats[0].With[1] != 0 {
		t.Errorf("with: beats %+v, want the candle (1) on the cupcake (0)", b.Beats)
	}
	b = analyze("Popcorn pops out of a striped bucket")
	if len(b.Beats) != 1 || len(b.Subjects) != 2 || b.Beats[0].Within[1] != "out of" || !withinOutOf(&b.Beats[0]) {
		t.Errorf("out of: beats %+v, want the bucket as the place it pops out of", b.Beats)
	}
	if !b.Subjects[1].Absorbed || b.Subjects[0].Absorbed || !b.ownContainer(&b.Beats[0]) {
		t.Errorf("out of: subjects %+v, want the bucket drawn by the popcorn (its emoji is one)", b.Subjects)
	}
	b = analyze("A golden key turns in a lock")
	if b.Beats[0].Within[1] != "in" {
		t.Errorf("in: beats %+v, want the key in the lock", b.Beats)
	}
	if !drawnRE.MatchString("a rainbow draws itself across the sky") || drawnRE.MatchString("a pencil draws a wavy line") {
		t.Error("draws itself is the subject drawn; a pencil that draws a line is a pen")
	}
	b = analyze("Glowing particles swirl in a spiral, purple and blue")
	if len(b.Subjects) != 1 || b.Subjects[0].Variant != "spiral" || !containsStr(b.Actions, "spin") {
		t.Errorf("spiral: subjects %+v actions %v, want one spiral particle field that spins", b.Subjects, b.Actions)
	}
}
