package builtin

import (
	"reflect"
	"strings"
	"testing"
)

// TestVerbCountsAndOrders: the counts and orders a clause asks for are read with the
// clause's verb, so "beats twice and then fills" counts the beats, not the fill.
func TestVerbCountsAndOrders(t *testing.T) {
	type want struct {
		action    string
		count     int
		oneByOne  bool
		alternate bool
	}
	for prompt, beats := range map[string][]want{
		"a ball bounces three times and settles":                  {{"bounce", 3, false, false}},
		"A heart beats twice and then fills with pink":            {{"pulse", 2, false, false}, {"fill", 0, false, false}},
		"The hands sweep around once":                             {{"sweep", 1, false, false}},
		"A coin flips 4 times":                                    {{"flip", 4, false, false}},
		"Tiles flip in sequence":                                  {{"flip", 0, true, false}},
		"A star spins 2 turns, then twinkles":                     {{"spin", 2, false, false}, {"twinkle", 0, false, false}},
		`Two speech bubbles pop in alternately saying "Hi!"`:      {{"pop", 0, false, true}},
		"Three dots appear one by one":                            {{"appear", 0, true, false}},
		"The moon circles around the earth twice":                 {{"orbit", 2, false, false}},
		"A sign swings on its hook, then the logo slams in":       {{"swing", 0, false, false}, {"slam", 0, false, false}},
		"The title zooms towards the camera":                      {{"slam", 0, false, false}},
		"A blob turns into a star":                                {{"morph", 0, false, false}},
		"A boat bobs on the waves":                                {{"bob", 0, false, false}},
		"A bell rings five times":                                 {{"", 5, false, false}},
		"The DVD logo bounces off the edges and changes colour":   {{"bounce", 0, false, false}},
		"Bubbles rise and the stars twinkle 3 times in turn":      {{"rise", 3, false, true}},
		"A line draws itself from left to right in three seconds": {{"draw", 0, false, false}},
	} {
		b := analyze(prompt)
		if len(b.Beats) != len(beats) {
			t.Errorf("%q: %d beats %+v, want %d", prompt, len(b.Beats), b.Beats, len(beats))
			continue
		}
		for i, w := range beats {
			bt := b.Beats[i]
			if w.action != "" && !containsStr(bt.Actions, w.action) {
				t.Errorf("%q beat %d: actions %v, want %s", prompt, i, bt.Actions, w.action)
			}
			if bt.Count != w.count || bt.OneByOne != w.oneByOne || bt.Alternate != w.alternate {
				t.Errorf("%q beat %d: count %d one-by-one %v alternately %v, want %d %v %v", prompt, i, bt.Count, bt.OneByOne, bt.Alternate,
					w.count, w.oneByOne, w.alternate)
			}
		}
	}
}

func TestVerbPhrasesMapToMotions(t *testing.T) {
	for prompt, action := range map[string]string{
		"a paper plane flies over the city":       "fly",
		"a boat floats on the water":              "float",
		"a duck bobs":                             "bob",
		"the moon orbits the planet":              "orbit",
		"a satellite circles around the earth":    "orbit",
		"the clock hands sweep":                   "sweep",
		"a price tag swings":                      "swing",
		"a square morphs into a circle":           "morph",
		"the word slams onto the screen":          "slam",
		"a rocket zooms towards the camera":       "slam",
		"bubbles pop in":                          "pop",
		"three tasks get checked off":             "check",
		"the text types itself":                   "type",
		"the glass fills with water":              "fill",
		"a pen draws a heart":                     "draw",
		"the tiles flip":                          "flip",
		"steam rises from the cup":                "rise",
		"the stars twinkle":                       "twinkle",
		"a ball bounces":                          "bounce",
		"the ball changes colour when it bounces": "recolor",
	} {
		if b := analyze(prompt); !containsStr(b.Actions, action) {
			t.Errorf("%q: actions %v, want %s", prompt, b.Actions, action)
		}
	}
}

func TestMorphIsOneSubjectThroughItsShapes(t *testing.T) {
	b := analyze("A square morphs into a circle and then into a triangle")
	var drawn []subject
	for _, s := range b.Subjects {
		if !s.Absorbed {
			drawn = append(drawn, s)
		}
	}
	if len(drawn) != 1 || drawn[0].Kind != "morph" || !reflect.DeepEqual(drawn[0].Shapes, []string{"square", "circle", "triangle"}) {
		t.Errorf("subjects %+v, want one morph square→circle→triangle", b.Subjects)
	}
}

func TestFillColourIsTheLiquid(t *testing.T) {
	b := analyze("A heart beats twice and then fills with pink")
	if b.FillColor != namedColors["pink"] {
		t.Errorf("fill colour %q, want pink", b.FillColor)
	}
	for _, s := range b.Subjects {
		if s.Color == namedColors["pink"] {
			t.Errorf("the heart itself was made pink: %+v", s)
		}
	}
	if !strings.Contains(strings.Join(b.Actions, ","), "fill") {
		t.Errorf("actions %v", b.Actions)
	}
}
