package builtin_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
)

// messages is a recorder that also keeps the agent's messages.
type messages struct {
	recorder
	mu   sync.Mutex
	msgs []string
}

func (m *messages) Message(_ context.Context, role, content string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, role+": "+content)
}

func generateWithMessages(t *testing.T, prompt string) (*scene.Description, koda.Sandbox, []string) {
	t.Helper()
	ctx := context.Background()
	a := builtin.New(nil)
	p := &koda.Project{ID: "prj_test", Prompt: prompt, Style: koda.StylePlayful}
	pl, err := a.Plan(ctx, p, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Plan = pl
	sb := newSandbox(t)
	rec := &messages{}
	if err := a.Generate(ctx, p, sb, rec); err != nil {
		t.Fatalf("generate %q: %v", prompt, err)
	}
	return readScene(t, sb), sb, rec.msgs
}

func assetsOf(d *scene.Description) []string {
	var out []string
	for _, e := range d.Elements {
		if e.Type == scene.TypeAsset {
			out = append(out, e.Asset)
		}
	}
	return out
}

// TestSubjectsFromTheLibrary: the nouns of a prompt are drawn as the library's
// illustrations of them, multi-word subjects as one, with their SVGs in the project and
// visible on screen; nothing is replaced by a ball.
func TestSubjectsFromTheLibrary(t *testing.T) {
	for _, c := range []struct {
		prompt string
		want   []string
	}{
		{"A paper plane flies from left to right leaving a dotted trail", []string{"tabler:send"}},
		{"a sailboat on waves", []string{"fluent:sailboat"}},
		{"a red car", []string{"fluent:automobile"}},
		{"coffee cup with steam", []string{"fluent:hot-beverage"}},
		{"A hot air balloon rises over the mountains", []string{"tabler:air-balloon", "fluent:mountain"}},
		{"Three balloons float up", []string{"fluent:balloon"}},
		{"A dog chases a butterfly", []string{"fluent:dog", "fluent:butterfly"}},
		{"A black cat walks past a full moon", []string{"fluent:black-cat", "fluent:full-moon"}},
	} {
		t.Run(c.prompt, func(t *testing.T) {
			d, sb, msgs := generateWithMessages(t, c.prompt)
			got := assetsOf(d)
			for _, w := range c.want {
				if !strings.Contains(strings.Join(got, " "), w) {
					t.Errorf("assets %v, want %s", got, w)
				}
			}
			for _, e := range d.Elements {
				if e.Type == scene.TypeCircle && e.Label == "shape" {
					t.Errorf("a placeholder ball %+v was drawn", e)
				}
			}
			for _, f := range d.AssetFiles() {
				if _, err := sb.ReadFile(context.Background(), f.Path, 0, 1); err != nil {
					t.Errorf("%s not written to the project: %v", f.Path, err)
				}
			}
			// The critic may say what it fixed; no other message is due.
			var others []string
			for _, m := range msgs {
				if !strings.Contains(m, critic.NotePrefix) {
					others = append(others, m)
				}
			}
			if len(others) != 0 {
				t.Errorf("messages %v, want none: every subject was found", others)
			}
		})
	}
}

// TestSubstitutionIsSaid: a subject the library has only a relative of is drawn as that
// relative and the project is told; an unknown noun is reported, not silently a ball.
func TestSubstitutionIsSaid(t *testing.T) {
	d, _, msgs := generateWithMessages(t, "A limousine drives across the screen")
	if got := assetsOf(d); len(got) != 1 || got[0] != "fluent:automobile" {
		t.Errorf("assets %v, want the automobile for the limousine", got)
	}
	if len(msgs) != 1 || !strings.Contains(msgs[0], `illustration of "limousine"`) || !strings.Contains(msgs[0], "automobile") {
		t.Errorf("messages %v, want one saying the limousine was drawn as an automobile", msgs)
	}
	_, _, msgs = generateWithMessages(t, "A quokka hops twice")
	if len(msgs) != 1 || !strings.Contains(msgs[0], "quokka") {
		t.Errorf("messages %v, want one saying there is no illustration of the quokka", msgs)
	}
}

// TestAssetSubjectsRender: the drawn subject is on screen from the first captured frame
// of its appearance, in the illustration's own colours.
func TestAssetSubjectsRender(t *testing.T) {
	for _, prompt := range []string{"A paper plane flies from left to right leaving a dotted trail", "a sailboat on waves",
		"a red car", "coffee cup with steam"} {
		t.Run(prompt, func(t *testing.T) {
			d, sb, _ := generateWithMessages(t, prompt)
			c := render(t, browser(t), sb.Dir(), 640, 360, d.Duration*0.25, d.Duration*0.5, d.Duration*0.75)
			if diff(c.frames[0], c.frames[2]) < 0.2 {
				t.Errorf("frames barely differ (%.2f): nothing moves", diff(c.frames[0], c.frames[2]))
			}
		})
	}
}

// TestDrawingsFaceTheirTravel: an emoji car faces left, so one driving to the right is
// mirrored; a paper plane is turned along its flight from its drawn heading.
func TestDrawingsFaceTheirTravel(t *testing.T) {
	d, _, _ := generateWithMessages(t, "A car moves from left to right")
	var car *scene.Element
	for _, e := range d.Elements {
		if e.Asset == "fluent:automobile" {
			car = e
		}
	}
	if car == nil {
		t.Fatalf("no car in %v", d.Types())
	}
	if kfs := car.Tracks["sx"]; len(kfs) == 0 || kfs[0].V >= 0 {
		t.Errorf("car travelling right has sx %v, want it mirrored (the drawing faces left); motions %+v", kfs, car.Motions)
	}
	d, _, _ = generateWithMessages(t, "A paper plane flies from left to right leaving a dotted trail")
	for _, e := range d.Elements {
		if e.Asset != "tabler:send" {
			continue
		}
		turned := false
		for _, m := range e.Motions {
			turned = turned || (m.Type == scene.MotionFly && m.Orient && m.Heading == -45)
		}
		if !turned {
			t.Errorf("paper plane motions %+v, want a fly turned from its drawn heading -45°", e.Motions)
		}
		if len(e.Tracks["sx"]) != 0 {
			t.Errorf("an oriented flyer is not mirrored: sx %v", e.Tracks["sx"])
		}
	}
}

// TestPluralsAndScenery: "three balloons" draws three, spread apart; mountains are the
// place the balloon rises over, drawn behind and below it and not acted on.
func TestPluralsAndScenery(t *testing.T) {
	d, _, _ := generateWithMessages(t, "Three balloons float up")
	var xs []float64
	for _, e := range d.Elements {
		if e.Asset == "fluent:balloon" {
			xs = append(xs, e.X)
		}
	}
	if len(xs) != 3 || xs[1]-xs[0] < 0.2 || xs[2]-xs[1] < 0.2 {
		t.Errorf("balloons at %v, want three spread across the frame", xs)
	}
	d, _, _ = generateWithMessages(t, "A hot air balloon rises over the mountains")
	var balloon, mountain *scene.Element
	bi, mi := -1, -1
	for i, e := range d.Elements {
		switch e.Asset {
		case "tabler:air-balloon":
			balloon, bi = e, i
		case "fluent:mountain":
			mountain, mi = e, i
		}
	}
	if balloon == nil || mountain == nil {
		t.Fatalf("assets %v, want the balloon and the mountains", assetsOf(d))
	}
	if mi > bi || mountain.Y <= balloon.Y || mountain.Size <= balloon.Size {
		t.Errorf("mountains (y %g, size %g, drawn %d) should be behind (drawn before), below and larger than the balloon (y %g, size %g, drawn %d)",
			mountain.Y, mountain.Size, mi, balloon.Y, balloon.Size, bi)
	}
	if len(mountain.Motions) > 0 || len(mountain.Tracks["y"]) > 0 {
		t.Errorf("the mountains move: %+v %v", mountain.Motions, mountain.Tracks["y"])
	}
}

// TestRequestedColourOnIllustration: "a blue car" draws the car illustration painted
// blue; "a red car" keeps the red one as drawn.
func TestRequestedColourOnIllustration(t *testing.T) {
	d, sb, _ := generateWithMessages(t, "a blue car")
	var car *scene.Element
	for _, e := range d.Elements {
		if e.Asset == "fluent:automobile" {
			car = e
		}
	}
	if car == nil || car.Tint == "" {
		t.Fatalf("car %+v, want the automobile painted", car)
	}
	c := render(t, browser(t), sb.Dir(), 640, 360, d.Duration*0.6)
	blue, red := 0, 0
	for y := 0; y < 360; y++ {
		for x := 0; x < 640; x++ {
			r, g, b := rgbAt(c.frames[0], x, y)
			if b > 150 && b > r+60 && b > g+20 {
				blue++
			}
			if r > 180 && g < 90 && b < 90 {
				red++
			}
		}
	}
	if blue < 3*red || blue < 500 {
		t.Errorf("a blue car shows %d blue and %d red pixels, want mostly blue", blue, red)
	}
	d, _, _ = generateWithMessages(t, "a red car")
	for _, e := range d.Elements {
		if e.Asset == "fluent:automobile" && e.Tint != "" {
			t.Errorf("a red car was painted %s", e.Tint)
		}
	}
}

// TestNamedPhrasesAndInterfacePieces: a phrase that is a drawing's very name is drawn
// as that drawing though its words alone read otherwise ("up" a direction, "bar" a
// chart, "icon" a logo), clicking is not a thing, and shape words in "heart-shaped"
// name the shape. (A switch and a battery are drawn from parts: TestInterfaceWidgets.)
func TestNamedPhrasesAndInterfacePieces(t *testing.T) {
	for _, c := range []struct {
		prompt string
		want   []string
		not    []string
	}{
		{"A thumbs up pops in with sparkles", []string{"fluent:thumbs-up"}, nil},
		{"A search bar types 'koda animations' with a blinking cursor", []string{"fluent:magnifying-glass-tilted-right"}, []string{"tabler:pointer"}},
		{"A mouse cursor moves to a 'Sign up' button and clicks it", []string{"tabler:pointer"}, []string{"fluent:mouse", "tabler:click"}},
		{"A heart-shaped like button pops when tapped and turns red", nil, []string{"fluent:magnet"}},
	} {
		t.Run(c.prompt, func(t *testing.T) {
			d, _, _ := generateWithMessages(t, c.prompt)
			got := strings.Join(assetsOf(d), " ")
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("assets %q, want %s", got, w)
				}
			}
			for _, w := range c.not {
				if strings.Contains(got, w) {
					t.Errorf("assets %q, want no %s", got, w)
				}
			}
		})
	}
	d, _, _ := generateWithMessages(t, "A heart-shaped like button pops when tapped and turns red")
	if !strings.Contains(strings.Join(d.Types(), " "), "heart") {
		t.Errorf("types %v, want a heart", d.Types())
	}
	// The composer's own kinds keep their names: a bar chart is a chart, not its icon.
	d, _, _ = generateWithMessages(t, "A bar chart showing revenue growing 12, 18, 25, 31 and 44")
	if got := assetsOf(d); len(got) != 0 {
		t.Errorf("assets %v, want the chart alone", got)
	}
}

// TestProductShowcase: a product reveal or teaser is the genre table's showcase: the
// named product's own drawing on its spotlight, its name under it.
func TestProductShowcase(t *testing.T) {
	for _, c := range []struct{ prompt, asset, text string }{
		{"A sleek product reveal for our new running shoe 'Aero Run' at $129, smooth and minimal", "fluent:running-shoe", "Aero Run"},
		{"Headphones product teaser with a purple glow", "fluent:headphone", ""},
	} {
		t.Run(c.prompt, func(t *testing.T) {
			d, _, _ := generateWithMessages(t, c.prompt)
			var product *scene.Element
			texts := map[string]bool{}
			for _, e := range d.Elements {
				if e.Type == scene.TypeAsset && e.Asset == c.asset {
					product = e
				}
				if e.Type == scene.TypeCard {
					t.Errorf("a product card %+v; the showcase draws the product itself", e)
				}
				texts[e.Text] = true
			}
			if product == nil {
				t.Fatalf("no drawing of %s in %+v", c.asset, d.Elements)
			}
			if c.text != "" && !texts[c.text] {
				t.Errorf("texts %v, want %q", texts, c.text)
			}
		})
	}
}

// TestProductOnItsCard: a product card shows the product the prompt names, whether the
// product comes after the card's noun or before it, and the card's SVG is in the project.
func TestProductOnItsCard(t *testing.T) {
	for _, c := range []struct{ prompt, asset, text string }{
		{`Show an app launch: the app card slides in and the headline "Meet Tempo" appears`, "fluent:mobile-phone", "Meet Tempo"},
		{"A product card for our new running shoe 'Aero Run' slides in", "fluent:running-shoe", "Aero Run"},
	} {
		t.Run(c.prompt, func(t *testing.T) {
			d, sb, _ := generateWithMessages(t, c.prompt)
			var card *scene.Element
			for _, e := range d.Elements {
				if e.Type == scene.TypeCard {
					card = e
				}
			}
			if card == nil || card.Asset != c.asset {
				t.Fatalf("card %+v, want one showing %s", card, c.asset)
			}
			if c.text != "" && card.Text != c.text {
				t.Errorf("card text %q, want %q", card.Text, c.text)
			}
			if got := assetsOf(d); len(got) != 0 {
				t.Errorf("assets %v beside the card, want the product on it only", got)
			}
			files := d.AssetFiles()
			if len(files) != 1 {
				t.Fatalf("asset files %v, want the card's", files)
			}
			if _, err := sb.ReadFile(context.Background(), files[0].Path, 0, 1); err != nil {
				t.Errorf("%s not written: %v", files[0].Path, err)
			}
		})
	}
}

// TestSubjectsInAndUnderPlaces: "a golden key turns in a lock" keeps the key in the
// lock (marked in it, so the critic does not part them), half out of its side since a
// gold key on a gold lock would vanish; "an ice cream cone under a hot
// sun" puts the sun above the cone.
func TestSubjectsInAndUnderPlaces(t *testing.T) {
	d, _, _ := generateWithMessages(t, "A golden key turns in a lock")
	var key, lock *scene.Element
	for _, e := range d.Elements {
		switch e.Asset {
		case "fluent:key":
			key = e
		case "fluent:locked":
			lock = e
		}
	}
	if key == nil || lock == nil {
		t.Fatalf("no key or lock: %v", assetsOf(d))
	}
	if key.In != lock.ID || key.X <= lock.X || key.X-lock.X > 0.5 || key.Y != lock.Y {
		t.Errorf("key in %q at %g,%g; lock %q at %g,%g: want the key in the lock, out of its right side", key.In, key.X, key.Y, lock.ID, lock.X, lock.Y)
	}
	d, _, _ = generateWithMessages(t, "An ice cream cone under a hot sun")
	var cone, sun *scene.Element
	for _, e := range d.Elements {
		switch {
		case strings.Contains(e.Asset, "ice-cream"):
			cone = e
		case e.Asset == "fluent:sun" || e.Asset == "fluent:sun-with-face":
			sun = e
		}
	}
	if cone == nil || sun == nil {
		t.Fatalf("no cone or sun: %v", assetsOf(d))
	}
	if sun.Y >= cone.Y || math.Abs(sun.X-cone.X) > 0.01 {
		t.Errorf("sun at %g,%g, cone at %g,%g: want the sun straight above the cone", sun.X, sun.Y, cone.X, cone.Y)
	}
}

// TestWordInAnotherSenseNotDrawn: a noun before a drawn word that makes it another
// thing ("a canal lock", "a wax seal", "a water tank") keeps the word's drawing out,
// and the message says what is missing; the word alone or in its drawn sense is drawn.
func TestWordInAnotherSenseNotDrawn(t *testing.T) {
	for _, tc := range []struct {
		prompt, asset, phrase string
		drawn                 bool
	}{
		{"A narrowboat waits in a canal lock while the water rises", "fluent:locked", "canal lock", false},
		{"A wax seal is pressed onto a cream envelope", "fluent:seal", "wax seal", false},
		{"A giant water tank on a hill slowly fills up", "tabler:tank", "water tank", false},
		{"A golden key turns in a bike lock", "fluent:locked", "", true},
		{"A baby seal claps on the ice", "fluent:seal", "", true},
	} {
		t.Run(tc.prompt, func(t *testing.T) {
			d, _, msgs := generateWithMessages(t, tc.prompt)
			if got := slices.Contains(assetsOf(d), tc.asset); got != tc.drawn {
				t.Errorf("drawings %v: %s drawn %v, want %v", assetsOf(d), tc.asset, got, tc.drawn)
			}
			if tc.phrase == "" {
				return
			}
			said := false
			for _, m := range msgs {
				said = said || strings.Contains(m, tc.phrase)
			}
			if !said {
				t.Errorf("messages %q do not name %q as missing", msgs, tc.phrase)
			}
		})
	}
}

// TestShadeNounIsNoThing: a noun naming the shade of the colour after it ("butter
// yellow", "sky blue") is not drawn.
func TestShadeNounIsNoThing(t *testing.T) {
	for prompt, shade := range map[string]string{
		"Butter yellow background, dark green text, and a small pot where a tulip grows": "fluent:butter",
		"A sky blue kite flies over a hill":                                              "fluent:cloud",
	} {
		d, _, _ := generateWithMessages(t, prompt)
		if got := assetsOf(d); slices.Contains(got, shade) || len(got) < 2 {
			t.Errorf("%q drew %v: want the things, not %s", prompt, got, shade)
		}
	}
}

// TestPartsOfADrawnLivingThing: a part of an animal or a person the prompt draws is
// theirs, not a drawing beside them ("its back legs and tail", "its wings").
func TestPartsOfADrawnLivingThing(t *testing.T) {
	for _, c := range []struct {
		prompt string
		want   []string
	}{
		{"A red fox dives into the snow so only its back legs and tail stick out", []string{"fluent:fox"}},
		{"A hummingbird hovers at a feeder, its wings a blur of motion", []string{"fluent:bird"}},
	} {
		d, _, _ := generateWithMessages(t, c.prompt)
		got := assetsOf(d)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: drawn %v, want %s", c.prompt, got, w)
			}
		}
		for _, a := range got {
			if a == "fluent:leg" || a == "fluent:wing" || strings.Contains(a, "tail") {
				t.Errorf("%q: drawn %v: a part of the animal is drawn on its own", c.prompt, got)
			}
		}
	}
}

// TestVerbBeforeItsObject: a word in -s between a noun and a possessive is the verb
// ("a girl waves her hand"): no water wave is drawn; waves that crash are the sea's.
func TestVerbBeforeItsObject(t *testing.T) {
	d, _, _ := generateWithMessages(t, "A girl waves her hand")
	for _, e := range d.Elements {
		if e.Type == scene.TypeWave || e.Asset == "fluent:water-wave" {
			t.Errorf("a wave is drawn for the verb: %s %s", e.ID, e.Asset)
		}
	}
	d, _, _ = generateWithMessages(t, "Ocean waves crash on the beach")
	found := false
	for _, e := range d.Elements {
		found = found || e.Label == "waves"
	}
	if !found {
		t.Errorf("no waves drawn for the sea's waves")
	}
}

// TestWornClothes: clothes a drawn person or animal is in are theirs to wear: the
// wearer takes their colour and no garment is drawn beside or around them.
func TestWornClothes(t *testing.T) {
	d, _, _ := generateWithMessages(t, "A runner in a yellow vest crosses the finish line")
	var runner *scene.Element
	for _, e := range d.Elements {
		if e.Asset == "fluent:safety-vest" {
			t.Errorf("the vest is drawn on its own: %s", e.ID)
		}
		if e.Label == "runner" {
			runner = e
		}
	}
	// The drawing is painted the colour where its main part can be (Tint); the
	// colour is the runner's either way.
	if runner == nil || runner.Asset != "fluent:person-running" || runner.Color != "#fdd835" {
		t.Errorf("runner %+v: want the person running, in the vest's yellow", runner)
	}
}
