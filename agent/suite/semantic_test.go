package suite

import (
	"slices"
	"strings"
	"testing"

	"github.com/kodahq/koda/agent"
)

// scene builds a scene.json with the given elements (JSON objects) on a background.
func sceneJSON(bg string, elements ...string) []byte {
	return []byte(`{"version":1,"duration":6,"fps":30,"background":{"colors":["` + bg + `"]},"elements":[` +
		strings.Join(elements, ",") + `]}`)
}

func expectFail(t *testing.T, got []string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !slices.ContainsFunc(got, func(f string) bool { return strings.Contains(f, w) }) {
			t.Errorf("no failure mentions %q; failures: %q", w, got)
		}
	}
}

// The first example: a ball labelled "paper plane" sliding across is not a
// paper plane flying with a trail.
func TestCheckSceneBallIsNotAPaperPlane(t *testing.T) {
	ex := agent.SuiteExpect{Subjects: []string{"paper plane|paper airplane"}, Actions: []string{"fly", "trail"}}
	ball := sceneJSON("#eeeeee", `{"id":"plane-1","type":"circle","label":"paper plane","size":0.1,"color":"#1e88e5",
		"motions":[{"type":"slide","start":0,"end":4,"from_x":-0.7,"to_x":0.7}]}`)
	got := CheckScene(ball, ex, nil)
	expectFail(t, got, `subject "paper plane" is not depicted: it is drawn as a circle`, `action "trail"`)
	if len(got) != 2 {
		t.Errorf("want the subject and the trail to fail (the slide across is a flight path), got %q", got)
	}

	plane := sceneJSON("#eeeeee", `{"id":"plane-1","type":"asset","asset":"fluent:paper-airplane","size":0.1,
		"motions":[{"type":"fly","start":0,"end":4,"trail":"dots"}]}`)
	if got := CheckScene(plane, ex, nil); len(got) != 0 {
		t.Errorf("a paper airplane asset flying with a trail: %q", got)
	}
}

// A widget built from parts says what the parts make: a track with its knob in it is
// a toggle switch, a bob on its swing's cord a pendulum. A rect that only says so, with
// no part in it, is still a rect; a part alone says nothing for the whole.
func TestCheckSceneComposedWidgets(t *testing.T) {
	toggle := agent.SuiteExpect{Subjects: []string{"toggle|switch"}}
	track := `{"id":"t","type":"rect","label":"toggle switch","depicts":"toggle switch","size":0.12,"aspect":2}`
	knob := `{"id":"t-knob","type":"circle","label":"switch knob","in":"t","size":0.1}`
	if got := CheckScene(sceneJSON("#ffffff", track, knob), toggle, nil); len(got) != 0 {
		t.Errorf("a track with its knob, declared a toggle switch: %q", got)
	}
	expectFail(t, CheckScene(sceneJSON("#ffffff", track), toggle, nil),
		`"toggle" is not depicted: it is drawn as a rect that says it depicts a toggle switch but has no parts`)
	stray := `{"id":"t","type":"rect","label":"toggle switch","size":0.12,"aspect":2}`
	expectFail(t, CheckScene(sceneJSON("#ffffff", stray, knob), toggle, nil), `"toggle" is not depicted: it is drawn as a rect`)
	// The knob claiming the whole does not make it one: nothing is in the knob.
	claim := `{"id":"t-knob","type":"circle","depicts":"toggle switch","in":"t","size":0.1}`
	expectFail(t, CheckScene(sceneJSON("#ffffff", stray, claim), toggle, nil), `"toggle" is not depicted`)
	// Declared as something else, the parts are no toggle.
	battery := `{"id":"t","type":"rect","depicts":"battery","size":0.12}`
	expectFail(t, CheckScene(sceneJSON("#ffffff", battery, knob), toggle, nil), `"toggle" is not depicted`)

	pendulum := agent.SuiteExpect{Subjects: []string{"pendulum"}}
	bob := func(motion string) string {
		return `{"id":"p","type":"circle","label":"pendulum","depicts":"pendulum","size":0.1,"motions":[` + motion + `]}`
	}
	if got := CheckScene(sceneJSON("#ffffff", bob(`{"type":"swing","start":0,"end":6,"length":2.5}`)), pendulum, nil); len(got) != 0 {
		t.Errorf("a bob swinging on its cord, declared a pendulum: %q", got)
	}
	// A ball on no cord, or one that only floats, is a ball.
	for _, m := range []string{`{"type":"swing","start":0,"end":6,"length":0}`, `{"type":"float","start":0,"end":6}`} {
		expectFail(t, CheckScene(sceneJSON("#ffffff", bob(m)), pendulum, nil), `"pendulum" is not depicted: it is drawn as a circle`)
	}
}

// Keywords come from the library when one is wired in: a speech balloon asset is a
// speech bubble if the library says so, and plurals match singulars.
func TestCheckSceneSubjectKeywordsAndPlurals(t *testing.T) {
	kw := func(id string) []string {
		if id == "noto:right-anger-bubble" {
			return []string{"speech bubble", "chat"}
		}
		return nil
	}
	doc := sceneJSON("#ffffff",
		`{"id":"b","type":"asset","asset":"noto:right-anger-bubble","size":0.1}`,
		`{"id":"w","type":"wave","size":0.3}`,
		`{"id":"s","type":"particles","variant":"snow","size":0.01}`)
	ex := agent.SuiteExpect{Subjects: []string{"speech bubbles", "waves", "snowflakes", "sailboat|sailing boat"}}
	got := CheckScene(doc, ex, kw)
	if len(got) != 1 || !strings.Contains(got[0], `"sailboat" is not depicted: no element draws it`) {
		t.Errorf("want only the sailboat missing, got %q", got)
	}
	// Without the library's keywords the id alone does not say "speech bubble".
	expectFail(t, CheckScene(doc, ex, IDKeywords), `"speech bubbles" is not depicted`)
	// A rect carrying an asset id is drawn as a rect: it is no book.
	tile := sceneJSON("#ffffff", `{"id":"b","type":"rect","asset":"fluent:open-book","label":"open book","size":0.1}`)
	expectFail(t, CheckScene(tile, agent.SuiteExpect{Subjects: []string{"book"}}, nil), `"book" is not depicted: it is drawn as a rect`)
	// The embedded library's keywords are the default: its sailboat is a boat.
	boat := sceneJSON("#ffffff", `{"id":"b","type":"asset","asset":"fluent:sailboat","size":0.1}`)
	if got := CheckScene(boat, agent.SuiteExpect{Subjects: []string{"sailboat", "boat"}}, nil); len(got) != 0 {
		t.Errorf("fluent:sailboat: %q", got)
	}
	// A primitive is what it is: a circle is a ball, never a sun.
	sun := sceneJSON("#ffffff", `{"id":"sun-1","type":"circle","label":"sun","size":0.1,"color":"#fdd835"}`)
	expectFail(t, CheckScene(sun, agent.SuiteExpect{Subjects: []string{"sun"}}, nil), `"sun" is not depicted: it is drawn as a circle`)
	if got := CheckScene(sun, agent.SuiteExpect{Subjects: []string{"ball"}}, nil); len(got) != 0 {
		t.Errorf("a circle is a ball: %q", got)
	}
}

func TestCheckSceneActionCounts(t *testing.T) {
	bounce := func(n string) []byte {
		return sceneJSON("#ffffff", `{"id":"ball","type":"circle","size":0.1,"motions":[{"type":"bounce","start":0,"end":3,"count":`+n+`}]}`)
	}
	ex := agent.SuiteExpect{Actions: []string{"bounce*3"}}
	if got := CheckScene(bounce("3"), ex, nil); len(got) != 0 {
		t.Errorf("three bounces: %q", got)
	}
	expectFail(t, CheckScene(bounce("4"), ex, nil), `action "bounce": asked 3 times, played circle "ball" 4 times`)

	// Three items checked off one by one: the elements' checks add up.
	items := sceneJSON("#ffffff",
		`{"id":"a","type":"text","text":"Plan","size":0.05,"motions":[{"type":"check","start":1,"end":2}]}`,
		`{"id":"b","type":"text","text":"Build","size":0.05,"motions":[{"type":"check","start":2,"end":3}]}`,
		`{"id":"c","type":"text","text":"Ship","size":0.05,"motions":[{"type":"check","start":3,"end":4}]}`)
	if got := CheckScene(items, agent.SuiteExpect{Actions: []string{"check*3"}}, nil); len(got) != 0 {
		t.Errorf("three checks one by one: %q", got)
	}
	expectFail(t, CheckScene(items, agent.SuiteExpect{Actions: []string{"sweep"}}, nil), `no element plays a sweep motion (motions in the scene: check)`)

	// Alternation needs two elements popping in at different times.
	one := sceneJSON("#ffffff", `{"id":"a","type":"text","text":"Hi!","reveal":"pop","start":0.5,"size":0.05}`)
	expectFail(t, CheckScene(one, agent.SuiteExpect{Actions: []string{"alternate"}}, nil), `no two elements pop in by turns`)
	two := sceneJSON("#ffffff", `{"id":"a","type":"text","text":"Hi!","reveal":"pop","start":0.5,"size":0.05}`,
		`{"id":"b","type":"text","text":"Hello!","reveal":"pop","start":1.5,"size":0.05}`)
	if got := CheckScene(two, agent.SuiteExpect{Actions: []string{"alternate"}}, nil); len(got) != 0 {
		t.Errorf("two pops by turns: %q", got)
	}

	// Three still shapes side by side do not morph; a morph element through them does.
	still := sceneJSON("#ffffff", `{"id":"s","type":"rect","size":0.1}`, `{"id":"c","type":"circle","size":0.1}`, `{"id":"t","type":"triangle","size":0.1}`)
	ex = agent.SuiteExpect{Subjects: []string{"square", "circle", "triangle"}, Actions: []string{"morph*2"}}
	got := CheckScene(still, ex, nil)
	if len(got) != 1 {
		t.Errorf("want only the morph missing, got %q", got)
	}
	expectFail(t, got, `action "morph": no element plays a morph motion`)
	morph := sceneJSON("#ffffff", `{"id":"m","type":"morph","shapes":["square","circle","triangle"],"size":0.2,
		"tracks":{"progress":[{"t":0,"v":0},{"t":4,"v":1}]}}`)
	if got := CheckScene(morph, ex, nil); len(got) != 0 {
		t.Errorf("a morph through square, circle and triangle: %q", got)
	}

	// Alternatives: either kind will do.
	if got := CheckScene(bounce("2"), agent.SuiteExpect{Actions: []string{"float|bounce"}}, nil); len(got) != 0 {
		t.Errorf("float|bounce with a bounce: %q", got)
	}
	expectFail(t, CheckScene(bounce("2"), agent.SuiteExpect{Actions: []string{"orbit|swing"}}, nil), `(nor any of swing)`)
}

func TestCheckSceneChartData(t *testing.T) {
	pie := agent.SuiteExpect{Chart: &agent.SuiteChart{Kind: "pie", Values: []float64{40, 35, 25}, Labels: []string{"Apple", "Samsung", "Others"}}}
	bars := sceneJSON("#ffffff", `{"id":"c","type":"chart","size":0.4,"values":[40,35,25]}`)
	got := CheckScene(bars, pie, nil)
	expectFail(t, got, `a pie chart was asked for, the scene has bar chart`, `label "Apple" is in no element`, `label "Others"`)
	if len(got) != 4 {
		t.Errorf("want the kind and three labels to fail, got %q", got)
	}
	// A pie storing fractions, with a legend as separate texts.
	ok := sceneJSON("#ffffff", `{"id":"c","type":"chart","variant":"pie","size":0.4,"values":[0.4,0.35,0.25]}`,
		`{"id":"l","type":"text","items":["Apple 40%","Samsung 35%","Others 25%"],"size":0.04}`)
	if got := CheckScene(ok, pie, nil); len(got) != 0 {
		t.Errorf("a pie with fractions and a legend: %q", got)
	}
	// Eight unlabelled bars are not Q1 12, Q2 18, Q3 25, Q4 31.
	q := agent.SuiteExpect{Chart: &agent.SuiteChart{Labels: []string{"Q1", "Q2", "Q3", "Q4"}, Values: []float64{12, 18, 25, 31}}}
	eight := sceneJSON("#ffffff", `{"id":"c","type":"chart","size":0.4,"values":[1,12,2,18,3,25,4,30]}`)
	expectFail(t, CheckScene(eight, q, nil), `value 31 is not in the chart's data (values 1, 12, 2, 18, 3, 25, 4, 30)`, `label "Q1" is in no element`)
	// Labels as new fields of a chart the suite does not know yet are still read, and a
	// keyframe time is not a value.
	labelled := sceneJSON("#ffffff", `{"id":"c","type":"chart","size":0.4,"data":[{"label":"Q1","value":12},{"label":"Q2","value":18},
		{"label":"Q3","value":25},{"label":"Q4","value":31}]}`)
	if got := CheckScene(labelled, q, nil); len(got) != 0 {
		t.Errorf("labelled data: %q", got)
	}
	timed := sceneJSON("#ffffff", `{"id":"c","type":"chart","size":0.4,"values":[1],"tracks":{"progress":[{"t":31,"v":1}]}}`)
	expectFail(t, CheckScene(timed, agent.SuiteExpect{Chart: &agent.SuiteChart{Values: []float64{31}}}, nil), `value 31 is not`)
	// A counter's target written with separators.
	counter := sceneJSON("#ffffff", `{"id":"n","type":"text","text":"10,000 users","size":0.1}`)
	if got := CheckScene(counter, agent.SuiteExpect{Numbers: []float64{10000}}, nil); len(got) != 0 {
		t.Errorf("10,000 in a text: %q", got)
	}
	expectFail(t, CheckScene(counter, agent.SuiteExpect{Numbers: []float64{87}}, nil), `number 87 is in no element's data`)
}

func TestCheckSceneColors(t *testing.T) {
	// "black on cream": a grey background and a blue ball are neither.
	ex := agent.SuiteExpect{Colors: []string{"black", "cream"}, Background: "cream"}
	grey := sceneJSON("#9e9e9e", `{"id":"b","type":"circle","size":0.1,"color":"#1e88e5"}`)
	got := CheckScene(grey, ex, nil)
	expectFail(t, got, `colour black is not used`, `colour cream is not used`, `background should read as cream; it is #9e9e9e (grey)`)
	good := sceneJSON("#fdf6e3", `{"id":"h","type":"rect","size":0.1,"color":"#1a1a1a"}`)
	if got := CheckScene(good, ex, nil); len(got) != 0 {
		t.Errorf("black on cream: %q", got)
	}
	// Gold is not yellow, navy is not blue: the nearest name decides.
	if got := CheckScene(sceneJSON("#fdd835", `{"id":"s","type":"star","size":0.1}`), agent.SuiteExpect{Colors: []string{"golden"}}, nil); len(got) == 0 {
		t.Error("yellow #fdd835 accepted as gold")
	}
	if got := CheckScene(sceneJSON("#1a237e", `{"id":"s","type":"star","size":0.1,"color":"#ffc107"}`), agent.SuiteExpect{Colors: []string{"golden", "navy"}}, nil); len(got) != 0 {
		t.Errorf("gold star on navy: %q", got)
	}
	expectFail(t, CheckScene(sceneJSON("#1a237e"), agent.SuiteExpect{Colors: []string{"blue"}}, nil), "reads as navy")
	// A grey switch that turns green uses green; one that only slides does not.
	green := agent.SuiteExpect{Colors: []string{"green"}}
	turns := sceneJSON("#ffffff", `{"id":"t","type":"rect","size":0.1,"color":"#9ca3af","motions":[{"type":"recolor","start":1,"end":2,"color":"#43a047"}]}`)
	if got := CheckScene(turns, green, nil); len(got) != 0 {
		t.Errorf("a switch turning green: %q", got)
	}
	slides := sceneJSON("#ffffff", `{"id":"t","type":"rect","size":0.1,"color":"#9ca3af","motions":[{"type":"slide","start":1,"end":2,"from_x":-0.2}]}`)
	expectFail(t, CheckScene(slides, green, nil), "colour green is not used")
}

// Every expectation in prompts.json is one the checks understand: a known action kind,
// a colour with a reference, a chart kind the suite can tell apart.
func TestPromptExpectationsAreCheckable(t *testing.T) {
	prompts, err := agent.SuitePrompts()
	if err != nil {
		t.Fatal(err)
	}
	if len(prompts) < 120 {
		t.Errorf("%d prompts, want at least 120", len(prompts))
	}
	ids := map[string]bool{}
	for _, p := range prompts {
		if ids[p.ID] {
			t.Errorf("prompt id %s repeated", p.ID)
		}
		ids[p.ID] = true
		ex := p.Expect
		if len(ex.Subjects)+len(ex.Actions)+len(ex.Numbers)+len(ex.Colors)+len(ex.Texts) == 0 && ex.Chart == nil {
			t.Errorf("%s: no expectation at all", p.ID)
		}
		for _, a := range ex.Actions {
			for _, alt := range strings.Split(a, "|") {
				kind, _, _ := strings.Cut(alt, "*")
				if _, ok := actionTests[kind]; !ok && kind != "alternate" {
					t.Errorf("%s: action %q unknown to the suite", p.ID, kind)
				}
			}
		}
		for _, c := range append(append([]string(nil), ex.Colors...), ex.Background) {
			if _, ok := namedRef[canonColor(c)]; c != "" && !ok {
				t.Errorf("%s: colour %q has no reference", p.ID, c)
			}
		}
		if c := ex.Chart; c != nil && !slices.Contains([]string{"", "bar", "pie", "donut", "line"}, c.Kind) {
			t.Errorf("%s: chart kind %q", p.ID, c.Kind)
		}
	}
	for _, q := range []string{"A paper plane flies from left to right leaving a dotted trail",
		"Minimal clock whose hands sweep around once, black on cream",
		"Checklist where three items get checked off one by one: Plan, Build, Ship",
		"A heart beats twice and then fills with pink", "A square morphs into a circle and then into a triangle",
		"Q1 12, Q2 18, Q3 25, Q4 31", `Two speech bubbles pop in alternately saying "Hi!" and "Hello!"`} {
		if !slices.ContainsFunc(prompts, func(p agent.SuitePrompt) bool { return p.Prompt == q }) {
			t.Errorf("the issue's prompt %q is not in the suite", q)
		}
	}
}

func TestSelect(t *testing.T) {
	ps := []agent.SuitePrompt{{ID: "char-ball"}, {ID: "char-ball-big"}, {ID: "data-pie"}, {ID: "data-bars"}}
	ids := func(ps []agent.SuitePrompt) (out []string) {
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	if got := ids(Select(ps, []string{"char-ball"})); !slices.Equal(got, []string{"char-ball"}) {
		t.Errorf("exact id: %v", got)
	}
	if got := ids(Select(ps, []string{"data-", " big"})); !slices.Equal(got, []string{"char-ball-big", "data-pie", "data-bars"}) {
		t.Errorf("substrings: %v", got)
	}
}

func TestPickStills(t *testing.T) {
	var fs []frame
	for i := range 40 {
		fs = append(fs, frame{w: 1, h: 1, pix: []byte{byte(i), 0, 0}})
	}
	var got []byte
	for _, f := range pickStills(fs) {
		got = append(got, f.pix[0])
	}
	if !slices.Equal(got, []byte{5, 15, 25, 35}) {
		t.Errorf("stills at %v, want 5, 15, 25, 35", got)
	}
}

// The data elements play their actions themselves: a checklist checks items off at its
// times, a clock's progress sweeps its hand, a countdown shows its items in turn, a
// progress bar fills; a bounce stepping through colours changes colour on each hit.
func TestCheckSceneDataElementActions(t *testing.T) {
	doc := sceneJSON("#ffffff",
		`{"id":"l","type":"checklist","items":["Plan","Build","Ship"],"times":[1,2,3],"size":0.3}`,
		`{"id":"c","type":"clock","size":0.3,"count":1,"tracks":{"progress":[{"t":0,"v":0},{"t":5,"v":1}]}}`,
		`{"id":"n","type":"countdown","items":["3","2","1","Go!"],"times":[0,1,2,3],"size":0.3}`,
		`{"id":"p","type":"progress","to":75,"size":0.2,"tracks":{"progress":[{"t":0,"v":0},{"t":3,"v":1}]}}`,
		`{"id":"b","type":"circle","size":0.1,"motions":[{"type":"ricochet","start":0,"end":5,"colors":["#ff0000","#00ff00"]}]}`)
	ex := agent.SuiteExpect{Actions: []string{"check*3", "sweep", "countdown", "fill", "recolor"}}
	if got := CheckScene(doc, ex, nil); len(got) != 0 {
		t.Errorf("%q", got)
	}
	expectFail(t, CheckScene(doc, agent.SuiteExpect{Actions: []string{"check*4"}}, nil), `asked 4 times, played checklist "l" 3 times`)
	still := sceneJSON("#ffffff", `{"id":"c","type":"clock","size":0.3}`)
	expectFail(t, CheckScene(still, agent.SuiteExpect{Actions: []string{"sweep"}}, nil), `(motions in the scene: clock element)`)
}

// The video's colour rules know the names the prompts use: cream is a pale warm white,
// not white or yellow; grey is a mid neutral.
func TestHasColorNames(t *testing.T) {
	c := func(r, g, b float64) []rgbColor { return []rgbColor{{r: r, g: g, b: b, share: 1}} }
	for _, tc := range []struct {
		name string
		dom  []rgbColor
		want bool
	}{
		{"cream", c(0xed, 0xe7, 0xda), true}, {"cream", c(255, 255, 255), false}, {"cream", c(0xfd, 0xd8, 0x35), false},
		{"grey", c(0x90, 0x91, 0x95), true}, {"grey", c(0x1a, 0x24, 0x36), false},
		{"brown", c(0x79, 0x44, 0x36), true}, {"brown", c(0xfb, 0x8c, 0x00), false},
		{"pink", c(0xf6, 0xc9, 0xda), true}, {"pink", c(0xd7, 0xcc, 0xc8), false}, {"pink", c(0xfa, 0xf5, 0xf7), false},
		{"blue", c(0x7c, 0xc4, 0xfa), true}, {"blue", c(0x43, 0xa0, 0x47), false},
		// A shaded bar split over two buckets is seen when its halves together reach the
		// share, not when either half alone is all there is.
		{"blue", []rgbColor{{r: 0x22, g: 0x87, b: 0xe4, share: 0.0015}, {r: 0x27, g: 0x7b, b: 0xc8, share: 0.0012}}, true},
		{"blue", []rgbColor{{r: 0x22, g: 0x87, b: 0xe4, share: 0.0015}, {r: 0xe5, g: 0x39, b: 0x35, share: 0.0012}}, false},
	} {
		if got := hasColor(tc.dom, tc.name); got != tc.want {
			t.Errorf("%s on %v: %v, want %v", tc.name, tc.dom, got, tc.want)
		}
	}
	for _, p := range mustPrompts(t) {
		for _, name := range p.Expect.Colors {
			if _, ok := colorRules[canonColor(name)]; !ok {
				t.Errorf("%s: the video check has no rule for %q", p.ID, name)
			}
		}
	}
}

func mustPrompts(t *testing.T) []agent.SuitePrompt {
	t.Helper()
	ps, err := agent.SuitePrompts()
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestCheckSceneDropsAndRises: a drop from above the frame back to its place is a fall
// even though the track ends where it began; a slide up from below is a rise; a sway
// out and back is no fall; rain is a particle field that falls.
func TestCheckSceneDropsAndRises(t *testing.T) {
	ex := agent.SuiteExpect{Subjects: []string{"apple"}, Actions: []string{"fall"}}
	drop := sceneJSON("#eeeeee", `{"id":"apple","type":"asset","asset":"fluent:red-apple","size":0.1,
		"tracks":{"y":[{"t":0,"v":0.2},{"t":2,"v":0.2},{"t":2,"v":-1.3},{"t":3,"v":0.2}]}}`)
	if got := CheckScene(drop, ex, nil); len(got) != 0 {
		t.Errorf("a drop from above is a fall, got %q", got)
	}
	sway := sceneJSON("#eeeeee", `{"id":"apple","type":"asset","asset":"fluent:red-apple","size":0.1,
		"tracks":{"y":[{"t":0,"v":0.2},{"t":2,"v":0.1},{"t":3,"v":0.2}]}}`)
	expectFail(t, CheckScene(sway, ex, nil), `action "fall"`)

	rise := sceneJSON("#eeeeee", `{"id":"sun","type":"asset","asset":"fluent:sun","size":0.1,
		"motions":[{"type":"slide","start":1,"end":3,"from_y":0.6}]}`)
	if got := CheckScene(rise, agent.SuiteExpect{Subjects: []string{"sun"}, Actions: []string{"rise"}}, nil); len(got) != 0 {
		t.Errorf("a slide up from below is a rise, got %q", got)
	}
	rain := sceneJSON("#333333", `{"id":"rain","type":"particles","variant":"rain","count":80}`)
	if got := CheckScene(rain, agent.SuiteExpect{Subjects: []string{"rain|raindrop"}, Actions: []string{"fall"}}, nil); len(got) != 0 {
		t.Errorf("rain particles are falling rain, got %q", got)
	}
}

// TestColorShadesReadAsTheirHue: a person names a pale pink pink, a deep purple purple
// and a sky blue blue; a shade still answers only its own hue (a green is no blue, a
// sky blue asked for is not met by a navy, a pale pink is no purple).
func TestColorShadesReadAsTheirHue(t *testing.T) {
	for _, tc := range []struct {
		hex, asked string
		ok         bool
	}{
		{"#4e135d", "purple", true}, {"#f9c6d7", "pink", true}, {"#7cc4fa", "blue", true},
		{"#f8bbd0", "pink", true},
		{"#43a047", "blue", false}, {"#7cc4fa", "green", false}, {"#f9c6d7", "purple", false},
		{"#4e135d", "navy", false}, {"#1a237e", "sky blue", false}, {"#1e88e5", "sky blue", false},
		{"#d7ccc8", "pink", false}, {"#1a237e", "purple", false},
	} {
		got := checkColorUsed([]string{tc.hex}, tc.asked)
		if (got == "") != tc.ok {
			t.Errorf("%s asked as %s: %q, want ok=%v", tc.hex, tc.asked, got, tc.ok)
		}
	}
}
