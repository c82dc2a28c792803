package assets_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kodahq/koda/agent/assets"
)

// TestHeadInAnotherSense: a phrase whose head names a drawing of another sense of the
// word is not drawn by that drawing; a phrase meaning the sense drawn still is.
func TestHeadInAnotherSense(t *testing.T) {
	for _, tc := range []struct {
		phrase, drawing string
		drawn           bool
	}{
		// WordNet knows the phrase whole, as no kind of what the head's drawing shows.
		{"water tank", "tabler:tank", false}, // a cistern, not the army's tank
		{"cricket bat", "fluent:bat", false},
		// The drawing shows the sense WordNet's first does not cover: the slot machine
		// drawn is the gambling one, so a vending machine (a coin machine) is not it.
		{"vending machine", "fluent:slot-machine", false},
		// A modifier speaks of another sense of the head.
		{"canal lock", "fluent:locked", false},
		{"wax seal", "fluent:seal", false},
		{"sheep pen", "fluent:pen", false},
		// The sense drawn.
		{"bike lock", "fluent:locked", true},
		{"baby seal", "fluent:seal", true},
		{"vampire bat", "fluent:bat", true},
		{"army tank", "tabler:tank", true},
		{"gel pen", "fluent:pen", true},
	} {
		m, ok := assets.Find(tc.phrase)
		if got := ok && m.ID == tc.drawing; got != tc.drawn {
			t.Errorf("Find(%q) = %s (found %v), drawn by %s: %v, want %v", tc.phrase, m.ID, ok, tc.drawing, got, tc.drawn)
		}
	}
}

// TestOtherSense: the modifiers that point away from the sense a drawing shows come
// from WordNet's other senses of the word, not from the one drawn.
func TestOtherSense(t *testing.T) {
	for _, tc := range []struct {
		modifier, head string
		other          bool
	}{
		{"canal", "lock", true},
		{"hair", "lock", true},
		{"door", "lock", false},
		{"wax", "seal", true},
		{"sheep", "pen", true},
		{"ink", "pen", false},
		{"computer", "mouse", true}, // the mouse drawn is the animal
		{"field", "mouse", false},
	} {
		if got := assets.OtherSense(tc.modifier, tc.head); got != tc.other {
			t.Errorf("OtherSense(%q, %q) = %v, want %v", tc.modifier, tc.head, got, tc.other)
		}
	}
}

// TestLooseKeywordsDrawNothing: a word that is only an association of a drawing (a
// keyword naming no kind, part or relative of what it depicts) does not find it; a
// keyword that names the thing or a kind of it still does.
func TestLooseKeywordsDrawNothing(t *testing.T) {
	for _, tc := range []struct {
		word, drawing string
		drawn         bool
	}{
		{"dam", "fluent:beaver", false},
		{"table", "fluent:ping-pong", false},
		{"spiral", "fluent:face-with-spiral-eyes", false},
		{"service", "fluent:service-dog", false},
		{"bench", "fluent:flexed-biceps", false},
		{"tortoise", "fluent:turtle", true},
		{"yacht", "fluent:sailboat", true},
		{"kitten", "fluent:cat", true},
		// A name that ends in the phrase is a kind of it.
		{"traffic light", "fluent:horizontal-traffic-light", true},
	} {
		m, ok := assets.Find(tc.word)
		drawn := ok && m.ID == tc.drawing && m.Score >= 75
		if drawn != tc.drawn {
			t.Errorf("Find(%q) = %s (score %.0f): drawn by %s %v, want %v", tc.word, m.ID, m.Score, tc.drawing, drawn, tc.drawn)
		}
	}
}

// TestGoingVerbs: the verbs of going WordNet knows come in each written form with the
// manner they go in; a form that names a drawing ("boats", "thumbs") or is more often
// a noun ("steps") is left to the noun.
func TestGoingVerbs(t *testing.T) {
	verbs := assets.GoingVerbs()
	for form, want := range map[string]string{"climbs": "rise", "glides": "slide", "wanders": "slide", "soars": "rise", "goes": "slide"} {
		if got := verbs[form]; got != want {
			t.Errorf("%s: %q, want %q", form, got, want)
		}
	}
	for _, noun := range []string{"boats", "thumbs", "steps", "snowboard", "surfboard"} {
		if a, ok := verbs[noun]; ok {
			t.Errorf("%s is read as a verb of going (%s)", noun, a)
		}
	}
}

// TestPartsOfLivingThings: a tail is an animal's, a hand a person's; a wheel or a
// table is nobody's body.
func TestPartsOfLivingThings(t *testing.T) {
	for noun, want := range map[string]string{"tail": "animal", "legs": "animal", "hand": "person", "wings": "animal", "paw": "animal"} {
		if !slices.Contains(assets.PartOf(noun), want) {
			t.Errorf("%s: part of %v, want %s", noun, assets.PartOf(noun), want)
		}
	}
	for _, noun := range []string{"wheel", "table", "fox", "tree"} {
		if p := assets.PartOf(noun); p != nil {
			t.Errorf("%s: part of %v, want none", noun, p)
		}
	}
	lib := assets.Default()
	for id, want := range map[string]string{"fluent:fox": "animal", "fluent:girl": "person", "fluent:deciduous-tree": "plant", "fluent:bicycle": ""} {
		a, ok := lib.Get(id)
		if !ok {
			t.Fatalf("no %s in the library", id)
		}
		if got := a.Living(); got != want {
			t.Errorf("%s: living %q, want %q", id, got, want)
		}
	}
}

// TestCompoundKindOfItsHead: a compound that is a kind of what its last word's drawing
// shows is drawn by it, whatever the order of its senses ("red fox" is a plant first).
func TestCompoundKindOfItsHead(t *testing.T) {
	for phrase, want := range map[string]string{"red fox": "fluent:fox", "field mouse": "fluent:mouse", "cherry tomato": "fluent:tomato"} {
		m, ok := assets.Compound(phrase)
		if !ok || m.Asset.ID != want {
			t.Errorf("%s: %v %v, want %s", phrase, m.Asset, ok, want)
		}
	}
}

// TestPeopleFigures: a person no drawing is named by is drawn doing what the word's
// verb says (a runner running) or as a man or a woman when the word says which (a dad
// is a father); a person the words give no look to (a visitor) is not drawn.
func TestPeopleFigures(t *testing.T) {
	for word, want := range map[string]string{"runner": "fluent:person-running", "swimmer": "fluent:person-swimming",
		"climber": "fluent:person-climbing", "dad": "fluent:man", "mom": "fluent:woman", "uncle": "fluent:man"} {
		m, ok := assets.Compound(word)
		if !ok {
			m, ok = assets.NounSense(word)
		}
		if !ok || m.Asset.ID != want {
			t.Errorf("%s: %v %v, want %s", word, m.Asset, ok, want)
		}
	}
	if m, ok := assets.NounSense("visitor"); ok {
		t.Errorf("visitor drawn as %s", m.Asset.ID)
	}
}

// TestClosedCompound: a two-word lemma written as one word is that word ("firetruck"
// is WordNet's "fire truck"), never a misspelling of another drawing's name
// ("waterhole" is no water polo).
func TestClosedCompound(t *testing.T) {
	if m, ok := assets.Find("firetruck"); !ok || m.Asset.ID != "fluent:fire-engine" {
		t.Errorf("firetruck: %v %v, want the fire engine", m.Asset, ok)
	}
	if m, ok := assets.Find("waterhole"); ok && strings.Contains(m.Asset.ID, "polo") {
		t.Errorf("waterhole drawn as %s", m.Asset.ID)
	}
}
