package assets_test

import (
	"strings"
	"testing"

	"github.com/kodahq/koda/agent/assets"
)

func find(t *testing.T, phrase string) assets.Match {
	t.Helper()
	m, ok := assets.Find(phrase)
	if !ok {
		t.Fatalf("Find(%q): no match", phrase)
	}
	return m
}

// TestFindMultiWord: a multi-word subject matches as one thing, not as its last word.
func TestFindMultiWord(t *testing.T) {
	for phrase, want := range map[string]string{
		"paper plane":     "tabler:send", // the paper-plane glyph, not an airliner
		"price tag":       "fluent:label",
		"speech bubble":   "fluent:left-speech-bubble",
		"shooting star":   "fluent:shooting-star",
		"crescent moon":   "fluent:crescent-moon",
		"coffee cup":      "fluent:hot-beverage",
		"hot air balloon": "tabler:air-balloon",
		"treasure chest":  "noto:treasure-chest",
		"black cat":       "fluent:black-cat",
		"red heart":       "fluent:red-heart",
		"ice cream":       "fluent:ice-cream",
	} {
		if m := find(t, phrase); m.ID != want || m.Substituted {
			t.Errorf("Find(%q) = %s (substituted %v), want %s", phrase, m.ID, m.Substituted, want)
		}
	}
}

func TestFindPlural(t *testing.T) {
	for phrase, want := range map[string]string{
		"balloons":     "fluent:balloon",
		"leaves":       "fluent:fallen-leaf",
		"butterflies":  "fluent:butterfly",
		"boxes":        "fluent:package",
		"paper planes": "tabler:send",
		"tomatoes":     "fluent:tomato",
		"mice":         "fluent:mouse",
		"cherries":     "fluent:cherries", // a name that is itself plural
		"knives":       "fluent:kitchen-knife",
	} {
		if m := find(t, phrase); m.ID != want || m.Substituted {
			t.Errorf("Find(%q) = %s (substituted %v), want %s", phrase, m.ID, m.Substituted, want)
		}
	}
}

func TestFindSynonym(t *testing.T) {
	for phrase, want := range map[string]string{
		"plane":     "fluent:airplane",
		"aeroplane": "fluent:airplane",
		"car":       "fluent:automobile",
		"kitty":     "fluent:cat",
		"puppy":     "fluent:dog",
		"bunny":     "fluent:rabbit",
		"burger":    "fluent:hamburger",
		"blimp":     "tabler:zeppelin",
		"bike":      "fluent:bicycle",
		"cellphone": "fluent:mobile-phone",
		// Names that say otherwise than their drawing: Tabler's location-pin is a
		// paper-plane arrow, its dumbbell a kettlebell.
		"location pin": "fluent:round-pushpin",
		"map marker":   "fluent:round-pushpin",
		"dumbbell":     "tabler:barbell",
		"dumbbells":    "tabler:barbell",
		"kettlebell":   "tabler:dumbbell",
	} {
		if m := find(t, phrase); m.ID != want || m.Substituted {
			t.Errorf("Find(%q) = %s (substituted %v), want %s", phrase, m.ID, m.Substituted, want)
		}
	}
	// CLDR keywords are synonyms too: "tortoise" is a keyword of the turtle.
	if m := find(t, "tortoise"); m.ID != "fluent:turtle" {
		t.Errorf("Find(tortoise) = %s, want the turtle by its CLDR keyword", m.ID)
	}
}

// TestFindDescribedSubject: colours and sizes describe a subject; a preposition starts
// its setting. Neither is a substitution.
func TestFindDescribedSubject(t *testing.T) {
	for phrase, want := range map[string]string{
		"a red car":             "fluent:automobile",
		"tiny house":            "fluent:house",
		"coffee cup with steam": "fluent:hot-beverage",
		"a sailboat on waves":   "fluent:sailboat",
	} {
		if m := find(t, phrase); m.ID != want || m.Substituted || m.Message != "" {
			t.Errorf("Find(%q) = %s (substituted %v, %q), want %s", phrase, m.ID, m.Substituted, m.Message, want)
		}
	}
}

// TestFindFallback: a subject the library cannot draw is replaced by a neighbour and the
// match says what was substituted, in words.
func TestFindFallback(t *testing.T) {
	for _, c := range []struct{ phrase, want, mention string }{
		{"limousine", "fluent:automobile", "a limousine is a kind of car"}, // WordNet's hypernym
		{"jaguar", "fluent:leopard", "animal-mammal"},
		{"wooden boat", "fluent:sailboat", "boat"}, // the head noun
		{"elefant", "fluent:elephant", "elephant"}, // a close spelling
		{"hosre", "fluent:horse", "horse"},         // two letters swapped are one typo
	} {
		m := find(t, c.phrase)
		if m.ID != c.want || !m.Substituted {
			t.Errorf("Find(%q) = %s (substituted %v), want %s substituted", c.phrase, m.ID, m.Substituted, c.want)
		}
		if !strings.Contains(m.Message, `no illustration of "`+c.phrase+`"`) || !strings.Contains(m.Message, c.mention) {
			t.Errorf("Find(%q) message %q should name the subject and %q", c.phrase, m.Message, c.mention)
		}
	}
	if m, ok := assets.Find("qwzx"); ok {
		t.Errorf("Find(qwzx) = %s, want no match", m.ID)
	}
}

// TestFindPrefersSet: illustrations for subjects, line icons for interface words.
func TestFindPrefersSet(t *testing.T) {
	for _, w := range []string{"settings", "wifi", "battery", "search", "download", "menu"} {
		if m := find(t, w); m.Set != "tabler" {
			t.Errorf("Find(%q) = %s, want a Tabler icon for a UI word", w, m.ID)
		}
	}
	for _, w := range []string{"rocket", "car", "cup", "house", "bell", "camera"} {
		if m := find(t, w); m.Set != "fluent" {
			t.Errorf("Find(%q) = %s, want a Fluent illustration", w, m.ID)
		}
	}
}

// TestFindCommonNouns: common subjects resolve to an asset that is named or tagged with
// the noun itself.
func TestFindCommonNouns(t *testing.T) {
	nouns := []string{
		// objects
		"key", "lock", "bell", "gift", "trophy", "camera", "guitar", "umbrella", "candle", "book", "pencil",
		"scissors", "hammer", "lamp", "clock", "chair", "door", "crown", "magnet", "balloon", "laptop", "phone",
		// vehicles
		"car", "bus", "train", "bicycle", "motorcycle", "airplane", "plane", "helicopter", "rocket", "ship",
		"boat", "truck", "tractor", "taxi", "ambulance", "sailboat", "canoe",
		// animals
		"dog", "cat", "fish", "bird", "horse", "cow", "pig", "elephant", "lion", "tiger", "bear", "penguin",
		"owl", "frog", "turtle", "snake", "whale", "dolphin", "octopus", "bee", "butterfly", "rabbit", "monkey",
		"giraffe", "zebra", "unicorn", "dragon", "spider", "ant", "snail", "crab", "shark",
		// food
		"pizza", "burger", "apple", "banana", "cake", "bread", "cheese", "egg", "coffee", "tea", "carrot",
		"cookie", "doughnut", "strawberry", "grapes", "watermelon", "avocado", "taco", "sushi", "popcorn",
		// weather and nature
		"sun", "cloud", "rain", "snow", "lightning", "rainbow", "snowflake", "tornado", "moon", "star", "tree",
		"flower", "leaf", "mushroom", "cactus", "volcano", "mountain", "wave", "fire", "droplet",
		// UI
		"settings", "wifi", "battery", "search", "download", "upload", "menu", "home", "user", "trash", "calendar",
		"bluetooth", "share", "filter", "chart", "checklist", "folder", "bookmark",
	}
	if len(nouns) < 60 {
		t.Fatalf("table has %d nouns, want ≥60", len(nouns))
	}
	for _, n := range nouns {
		m, ok := assets.Find(n)
		if !ok {
			t.Errorf("Find(%q): no match", n)
			continue
		}
		if m.Substituted {
			t.Errorf("Find(%q) = %s substituted (%s)", n, m.ID, m.Message)
		}
		words := strings.Fields(m.Name + " " + m.Label + " " + strings.Join(m.Keywords, " "))
		found := false
		for _, w := range words {
			if w == n || w == n+"s" || w == n+"es" {
				found = true
			}
		}
		if !found {
			t.Errorf("Find(%q) = %s whose name and keywords %v do not contain it", n, m.ID, words)
		}
	}
}

func TestSearch(t *testing.T) {
	ms := assets.Search("rocket", 5)
	if len(ms) != 5 || ms[0].ID != "fluent:rocket" {
		t.Fatalf("Search(rocket) = %v, want 5 with fluent:rocket first", ids(ms))
	}
	for i := 1; i < len(ms); i++ {
		if ms[i].Score > ms[i-1].Score {
			t.Errorf("Search results out of order: %v", ids(ms))
		}
	}
	// Some words match: still listed, after full matches.
	if ms := assets.Search("rocket zzyzx", 3); len(ms) == 0 || !strings.Contains(ms[0].ID, "rocket") {
		t.Errorf("Search(rocket zzyzx) = %v, want rocket assets", ids(ms))
	}
	if ms := assets.Search("", 3); len(ms) != 0 {
		t.Errorf("Search(\"\") = %v, want nothing", ids(ms))
	}
}

func ids(ms []assets.Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

// TestNamed: only a name, a CLDR label or a curated synonym is a named phrase; a
// keyword, a head noun or a phrase padded with function words is not.
func TestNamed(t *testing.T) {
	for phrase, want := range map[string]string{"thumbs up": "fluent:thumbs-up", "search bar": "fluent:magnifying-glass-tilted-right",
		"toggle switch": "tabler:toggle-right", "mouse cursor": "tabler:pointer", "cat": "fluent:cat"} {
		m, ok := assets.Named(phrase)
		if !ok || m.ID != want {
			t.Errorf("Named(%q) = %v, %v; want %s", phrase, m.Asset, ok, want)
		}
	}
	for _, phrase := range []string{"cat on", "sun and", "heart shaped", "up the", "pie chart"} {
		if m, ok := assets.Named(phrase); ok {
			t.Errorf("Named(%q) = %s, want no match", phrase, m.ID)
		}
	}
}

// TestShowsContainer: a drawing that already shows what its subject comes in says so
// (the popcorn emoji is a striped bucket, a hot beverage a cup), and a keyword that
// only says where a thing lives is no container of the drawing.
func TestShowsContainer(t *testing.T) {
	for _, c := range []struct {
		phrase, container string
		want              bool
	}{
		{"popcorn", "striped bucket", true},
		{"popcorn", "buckets", true},
		{"popcorn", "box", true},
		{"coffee", "cup", true},
		{"coffee", "mug", true},
		{"potted plant", "pot", true},
		{"popcorn", "bowl", false},
		{"goldfish", "bowl", false},
		{"jellyfish", "aquarium", false},
		{"key", "lock", false},
	} {
		m := find(t, c.phrase)
		a, ok := assets.Default().Get(m.ID)
		if !ok {
			t.Fatalf("%q: %s not in the library", c.phrase, m.ID)
		}
		if got := a.ShowsContainer(c.container); got != c.want {
			t.Errorf("%s (%q) shows a %q: %v, want %v", m.ID, c.phrase, c.container, got, c.want)
		}
	}
}

// TestLexicon: WordNet leads a noun the library has no drawing named for to the drawing
// of its synonym (as good as the name) or of its nearest drawn relative (said).
func TestLexicon(t *testing.T) {
	for _, c := range []struct {
		phrase, want string
		substituted  bool
	}{
		{"fire truck", "fluent:fire-engine", false}, // a synonym, whole compound
		{"earphones", "fluent:headphone", false},    // plural, synonym
		{"spaniel", "fluent:dog", true},             // hypernym, three steps
		{"dachshunds", "fluent:dog", true},
		{"refrigerator", "tabler:fridge", false},  // a kind of it is drawn, and that is one
		{"couch", "fluent:couch-and-lamp", false}, // an illustration listing the word beats the sofa outline
		{"tie", "fluent:necktie", false},          // a synonym beats a loose keyword
		{"suitcase", "fluent:luggage", false},     // its own keyword; not "bag"'s shopping bags, which bag means first
	} {
		m := find(t, c.phrase)
		if m.ID != c.want || m.Substituted != c.substituted {
			t.Errorf("Find(%q) = %s (substituted %v), want %s (substituted %v)", c.phrase, m.ID, m.Substituted, c.want, c.substituted)
		}
		if c.substituted && !strings.Contains(m.Message, "WordNet") {
			t.Errorf("Find(%q) message %q does not say WordNet led there", c.phrase, m.Message)
		}
	}
	if m, ok := assets.Named("fire truck"); !ok || m.ID != "fluent:fire-engine" {
		t.Errorf("Named(fire truck) = %v %v, want the fire engine", m.ID, ok)
	}
	if m, ok := assets.Compound("baseball glove"); ok && m.ID == "fluent:baseball" {
		t.Errorf("Compound(baseball glove) = the baseball: a compound is not its first word")
	}
	// Abstract nouns lead nowhere: the lexicon holds only things one can draw.
	for _, w := range []string{"freedom", "speed", "idea"} {
		if s, ok := assets.Lexicon(w); ok {
			t.Errorf("Lexicon(%q) = %v, want nothing for an abstract noun", w, s)
		}
	}
}

// The head noun of a phrase stands in for it only when a drawing is named by the head
// or WordNet leads the head to one: a drawing that merely lists the word is something
// else, and nothing drawn is better than a wrong thing.
func TestHeadNounStandsInOnlyByName(t *testing.T) {
	for phrase, want := range map[string]string{
		"brass bell":       "fluent:bell",
		"horseshoe magnet": "fluent:magnet",
		"door sign":        "",
		"toast slices":     "",
		"kraft paper":      "",
	} {
		m, ok := assets.Find(phrase)
		got := ""
		if ok {
			got = m.Asset.ID
		}
		if got != want {
			t.Errorf("Find(%q) = %q, want %q", phrase, got, want)
		}
	}
}
