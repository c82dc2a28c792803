package builtin_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
)

// shown is what an element shows as words once it has played: a text's words or
// lines, "from→to" for a counter, a countdown's items.
func shown(e *scene.Element) []string {
	switch e.Type {
	case scene.TypeText:
		if len(e.Items) > 0 {
			return e.Items
		}
		return []string{e.Text}
	case scene.TypeCounter:
		num := func(v float64) string {
			s := strconv.FormatFloat(v, 'f', -1, 64)
			if v >= 1000 && v == float64(int64(v)) {
				s = fmt.Sprintf("%d,%03d", int64(v)/1000, int64(v)%1000)
			}
			return s
		}
		return []string{e.Prefix + num(e.From) + "→" + num(e.To) + e.Suffix}
	case scene.TypeCountdown, scene.TypeChecklist:
		return e.Items
	case scene.TypeProgress:
		return []string{"0→" + strconv.FormatFloat(e.To, 'f', -1, 64) + "%"}
	}
	return nil
}

// TestGenreTable feeds every row of the genre table its own example, as a landscape, a
// vertical and a square video: the row is the one chosen, the layout shows every word
// and number the example gives (names, days, prices, counts), and no text leaves the
// frame's safe area or is squeezed in any of the three shapes.
func TestGenreTable(t *testing.T) {
	rows := builtin.Genres()
	if len(rows) < 20 {
		t.Fatalf("the genre table has %d rows, want at least 20", len(rows))
	}
	seen := map[string]bool{}
	for _, row := range rows {
		if seen[row.Name] {
			t.Errorf("row %q appears twice", row.Name)
		}
		seen[row.Name] = true
		for _, shape := range []struct{ prefix, aspect string }{{"", "landscape"}, {"Vertical 9:16: ", "portrait"}, {"Square 1:1: ", "square"}} {
			t.Run(row.Name+"/"+shape.aspect, func(t *testing.T) {
				prompt := shape.prefix + row.Example
				ex := builtin.Explain(prompt)
				if ex.Genre == nil || ex.Genre.Name != row.Name {
					t.Fatalf("the example of %q selects %v", row.Name, ex.Genre)
				}
				if ex.Aspect != shape.aspect {
					t.Fatalf("aspect %s, want %s", ex.Aspect, shape.aspect)
				}
				_, sb, _ := generate(t, prompt, koda.StyleSmooth, 0)
				d := readScene(t, sb)
				var words []string
				for _, e := range d.Elements {
					words = append(words, shown(e)...)
				}
				all := strings.Join(words, " | ")
				for _, want := range row.Shows {
					if !strings.Contains(all, want) {
						t.Errorf("%q is not shown; the layout shows %s", want, all)
					}
				}
				for _, p := range critic.Check(d, critic.FrameFor(shape.aspect)) {
					e := d.Element(p.Element)
					if e != nil && (e.Type == scene.TypeText || e.Type == scene.TypeCounter || e.Type == scene.TypeCountdown) &&
						(p.Check == "safe" || p.Check == "frame" || p.Check == "clip") {
						t.Errorf("%s", p)
					}
				}
			})
		}
	}
}

// TestGenreNotChosen: a prompt that only mentions a word of a genre, without asking for
// its format, is composed as before (a badge that spins is a logo, a weather story with
// no forecast is its sun and cloud, a row of tiles flipping is no KPI row).
func TestGenreNotChosen(t *testing.T) {
	for _, p := range []string{
		"Square 1:1 logo animation for Instagram, a green badge that says 'Fresh Farm' spinning in",
		"Vertical 9:16 weather story: the sun peeks out from behind a cloud, then 'Sunny today'",
		"A row of tiles flips over in sequence",
		"A 2 second notification ping: a green dot pulses",
		"A notification bell swings back and forth as it rings",
		"A notification card slides down from the top saying 'New message'",
		"A chat bubble shows three typing dots, then the message 'On my way!'",
		"Flash sale promo, energetic: big red text 'FLASH SALE' with confetti, then '50% OFF' appears",
		"A red ball bounces across the screen three times",
		"Building a snowman step by step: a big snowball, a medium one on top of it, then a carrot nose",
		"A ranking as horizontal bars: Oslo 81, Bergen 64, Tromsø 40",
		"Building a snowman step by step — a big snowball, a medium one stacked on top of it, then a small head",
		// Three figures side by side are data; "vs" between two things is no matchup.
		"Compare the heights of three towers side by side, to scale: Eiffel Tower 330 m, Empire State Building 443 m, Burj Khalifa 828 m",
		"A cat vs a dog: the cat hisses and the dog wags its tail",
		// An ad's end card is its closing words, not a channel's subscribe screen.
		`Ad for a bakery: a croissant rises from the oven, end card "Fresh every morning"`,
		// A cue inside a quoted sentence is words to show, not a request.
		`Zodiac card, square. Scorpio, Oct 23 – Nov 21. Today: "Accept the invite you nearly turned down." Starry black background`,
	} {
		if g := builtin.Explain(p).Genre; g != nil {
			t.Errorf("%q chose the %s layout", p, g.Name)
		}
	}
}

// The quiz's right answer named by its words ("reveal Carbon dioxide as correct") is
// the one lit: a card of its own under the plain one, green.
func TestQuizRightAnswerByName(t *testing.T) {
	_, sb, _ := generate(t, `Quiz: "Which gas do plants absorb?" Four choices: Oxygen, Carbon dioxide, Nitrogen, Helium. Then reveal Carbon dioxide as correct`, koda.StyleSmooth, 0)
	d := readScene(t, sb)
	cards := map[string]int{}
	for _, e := range d.Elements {
		if e.Type == scene.TypeRect && e.Y >= 0 {
			cards[e.Color]++
		}
	}
	if len(cards) != 2 {
		t.Errorf("answer card colours %v, want the plain colour and one lit", cards)
	}
	for _, n := range cards {
		if n == 1 {
			return
		}
	}
	t.Errorf("no single lit card among %v", cards)
}

// TestGenreChosenByShape: a row is chosen by what the prompt holds, not by one word: a
// handle is a slot of a holding screen, not a profile card; "vs" between two names is a
// matchup; a list of names with their roles is a fact card, not a board without rows.
func TestGenreChosenByShape(t *testing.T) {
	for _, c := range []struct{ prompt, row string }{
		{"Starting soon screen, big 'STREAM STARTING SOON' and a bar with twitch.tv/pixelhollow and my Instagram @pixelhollow", "title card"},
		{"Game day graphic: Westfield Tigers vs. Carver Falcons, Friday Oct 17, 7:00 PM at Memorial Field", "matchup"},
		{"our starting lineup for saturday, each player pops in with their name: keeper Luca, defenders Sami and Odette, striker Zoe", "fact card"},
		{"My class of 30: 18 walk, 8 take the bus and 4 get driven. Show 30 little people icons in a grid", "icon array"},
		{"Stock update card: NRDX closed at $148.32, up 4.2% today", "stock card"},
		{"Loyalty card: 10 coffee cup circles in two rows of five, the first 8 already stamped", "icon array"},
		{"Announce our opening keynote for the Northern Retail Forum: Marcus Adeyemi, talking about \"What shoppers want\"", "speaker card"},
		{"Chalkboard menu: today's specials - Wild mushroom risotto 14, Lemon & ricotta ravioli 13, Tiramisu 6", "board"},
	} {
		g := builtin.Explain(c.prompt).Genre
		if g == nil || g.Name != c.row {
			t.Errorf("%q chose %v, want the %s", c.prompt, g, c.row)
		}
	}
}

// TestLayoutIsNoMissingDrawing: a word that names the layout the prompt gets is not
// reported as a drawing the library lacks ("no illustration of 'flashcard'").
func TestLayoutIsNoMissingDrawing(t *testing.T) {
	for prompt, word := range map[string]string{
		`Flashcard for French class: "le chat" on the front, it flips over and the back shows a cat with the word "cat"`: "flashcard",
		// A word of the row's own example is the layout's too: the Python is the code's.
		`A dark code editor types out a Python function: def greet(name): on the first line. Then a terminal prints Hi, Ada!`: "python",
		`Election night graphic: a semicircle parliament chart with 150 seats - Labour 62, Civic 51, Greens 19`:               "semicircle",
		// A word of what the row's cue matched is the layout's: the soil of "soil layers".
		`Soil layers diagram: Topsoil 0-25 cm (roots, worms), Subsoil 25-60 cm, Weathered rock 60-120 cm, Bedrock 120 cm+`: "soil",
	} {
		_, _, msgs := generateWithMessages(t, prompt)
		for _, m := range msgs {
			if strings.Contains(strings.ToLower(m), word) {
				t.Errorf("message %q reports the layout as missing", m)
			}
		}
	}
}

// TestCardBackLines: a card whose back lists lines shows every one of them after the
// turn, one after another, and no drawing.
func TestCardBackLines(t *testing.T) {
	prompt := `A matte black card flips from the front ("Juno Reyes Photography") to the back, where 0412 555 019, junoreyes.photo and @junoshoots fade in one line at a time.`
	if ex := builtin.Explain(prompt); ex.Genre == nil || ex.Genre.Name != "flashcard" {
		t.Fatalf("a card turning over is a flashcard, got %v", ex.Genre)
	}
	_, sb, _ := generate(t, prompt, koda.StyleSmooth, 0)
	d := readScene(t, sb)
	var starts []float64
	for _, want := range []string{"0412 555 019", "junoreyes.photo", "@junoshoots"} {
		e := findText(d, want)
		if e == nil {
			t.Fatalf("%q is not on the back", want)
		}
		op := e.Tracks["opacity"]
		starts = append(starts, op[1].T)
	}
	if !(starts[0] < starts[1] && starts[1] < starts[2]) {
		t.Errorf("the lines come in at %v, want one after another", starts)
	}
	for _, e := range d.Elements {
		if e.Type == scene.TypeAsset {
			t.Errorf("a back of lines shows no drawing, got %s", e.Asset)
		}
	}
}

func findText(d *scene.Description, s string) *scene.Element {
	for _, e := range d.Elements {
		if e.Type == scene.TypeText && e.Text == s {
			return e
		}
	}
	return nil
}

// TestCardBackDrawing: the drawing on a card's back is what the prompt names after the
// back, not the card (a postcard, a tag) named before it.
func TestCardBackDrawing(t *testing.T) {
	_, sb, _ := generate(t, `A red postcard for French class: "le chat" on the front, it flips over and the back shows a cat with the word "cat"`, koda.StyleSmooth, 0)
	d := readScene(t, sb)
	var assets []string
	for _, e := range d.Elements {
		if e.Type == scene.TypeAsset {
			assets = append(assets, e.Asset)
		}
	}
	if len(assets) != 1 || !strings.Contains(assets[0], "cat") {
		t.Errorf("the back draws %v, want the cat alone", assets)
	}
}
