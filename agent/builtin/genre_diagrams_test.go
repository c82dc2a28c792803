package builtin

import (
	"reflect"
	"testing"
)

// TestVennParts: a Venn diagram's sets are its quotes and the names said of its
// circles, in order; a quote after an overlap word is what the overlap says.
func TestVennParts(t *testing.T) {
	for _, c := range []struct {
		prompt string
		texts  []string
		sets   []string
		meet   string
	}{
		{`left circle says What customers want, right circle says What we're good at, the overlap lights up gold with the words "Where we win"`,
			[]string{"Where we win"}, []string{"What customers want", "What we're good at"}, "Where we win"},
		{`Venn diagram: "Design" and "Engineering" overlap in "Great products"`,
			[]string{"Design", "Engineering", "Great products"}, []string{"Design", "Engineering"}, "Great products"},
		{`three overlapping circles labelled Fast, Cheap and Good; the middle says Pick two`,
			nil, []string{"Fast", "Cheap", "Good"}, "Pick two"},
		{`a venn diagram of cats and dogs`, nil, []string{"Cats", "Dogs"}, ""},
	} {
		sets, meet := vennParts(c.prompt, c.texts)
		if !reflect.DeepEqual(sets, c.sets) || meet != c.meet {
			t.Errorf("%q: sets %q, overlap %q; want %q, %q", c.prompt, sets, meet, c.sets, c.meet)
		}
	}
}

// TestOrgTree: the top box (a name with its role in brackets, or what stands at the
// top), the first list after it as the row under it, and boxes hung under one of
// that row by "under X:".
func TestOrgTree(t *testing.T) {
	type node = treeNode
	for _, c := range []struct {
		prompt string
		want   *node
	}{
		{`Org chart: Priya Raman (CEO) in a box at the top, then lines draw down to three boxes - Tom Becker, Engineering; Aisha Noor, Sales; Luis Ortega, Operations. After that two smaller boxes appear under Engineering: Platform and Mobile.`,
			&node{Name: "Priya Raman", Role: "CEO", Kids: []*node{
				{Name: "Tom Becker", Role: "Engineering", Kids: []*node{{Name: "Platform"}, {Name: "Mobile"}}},
				{Name: "Aisha Noor", Role: "Sales"}, {Name: "Luis Ortega", Role: "Operations"}}}},
		{`family tree: Grandma Rose at the top, then Anna, Ben and Carl`,
			&node{Name: "Grandma Rose", Kids: []*node{{Name: "Anna"}, {Name: "Ben"}, {Name: "Carl"}}}},
		{`an org chart`, nil},
	} {
		if got := orgTree(c.prompt); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v, want %+v", c.prompt, got, c.want)
		}
	}
}

// TestPodiumPlaces: places named by rank, ordinal or medal, each with its figure.
func TestPodiumPlaces(t *testing.T) {
	for prompt, want := range map[string][3]standing{
		"1st Hana Sato 17:42, 2nd Ben Whitfield 18:05, 3rd Clara Ruiz 18:31.":                  {{"Hana Sato", "17:42"}, {"Ben Whitfield", "18:05"}, {"Clara Ruiz", "18:31"}},
		"gold goes to Team Red with 48 pts, silver Team Blue 41 pts, bronze Team Green 37 pts": {{"Team Red", "48 pts"}, {"Team Blue", "41 pts"}, {"Team Green", "37 pts"}},
		"third place Jo, second place Sam, first place Priya":                                  {{"Priya", ""}, {"Sam", ""}, {"Jo", ""}},
	} {
		if got := podiumPlaces(prompt); got != want {
			t.Errorf("%q: got %q, want %q", prompt, got, want)
		}
	}
}

// TestChamber: a seat chart's parties with their seats and colours, the chamber's
// size (a figure called the total is no party) and the majority line.
func TestChamber(t *testing.T) {
	for _, c := range []struct {
		prompt          string
		parties         []party
		total, majority int
	}{
		{`a semicircle parliament chart with 150 seats - Labour Alliance 62 (red), Civic Party 51 (blue), Greens 19 (green), Others 18 (grey). A dashed line marks 76 seats for a majority`,
			[]party{{"Labour Alliance", 62, namedColors["red"]}, {"Civic Party", 51, namedColors["blue"]}, {"Greens", 19, namedColors["green"]}, {"Others", 18, namedColors["grey"]}}, 150, 76},
		{`Seat projection: Blue Party 30, Red Party 25, Yellow Party 10`,
			[]party{{"Blue Party", 30, ""}, {"Red Party", 25, ""}, {"Yellow Party", 10, ""}}, 65, 33},
	} {
		ps, total, majority := chamber(c.prompt)
		if !reflect.DeepEqual(ps, c.parties) || total != c.total || majority != c.majority {
			t.Errorf("%q: %v, %d seats, majority %d; want %v, %d, %d", c.prompt, ps, total, majority, c.parties, c.total, c.majority)
		}
	}
}

// TestKanbanParts: a board's columns (listed, or the usual ones the prompt names), the
// card that moves, and the columns it moves from and to.
func TestKanbanParts(t *testing.T) {
	for _, c := range []struct {
		prompt   string
		texts    []string
		cols     []string
		card     string
		from, to int
	}{
		{`Kanban board, three columns: To Do, In Progress, Done. The card "Fix login bug #482" gets dragged out of In Progress, across to Done`,
			[]string{"Fix login bug #482"}, []string{"To Do", "In Progress", "Done"}, "Fix login bug #482", 1, 2},
		{`trello board where "Write launch post" moves from Backlog to Review`,
			[]string{"Write launch post"}, []string{"Backlog", "Review"}, "Write launch post", 0, 1},
		{`a kanban card "Pay invoices" dragged to done`,
			[]string{"Pay invoices"}, []string{"To Do", "In Progress", "Done"}, "Pay invoices", 1, 2},
	} {
		cols, card, from, to := kanbanParts(c.prompt, c.texts)
		if !reflect.DeepEqual(cols, c.cols) || card != c.card || from != c.from || to != c.to {
			t.Errorf("%q: %q, card %q, %d→%d; want %q, %q, %d→%d", c.prompt, cols, card, from, to, c.cols, c.card, c.from, c.to)
		}
	}
}

// TestPostCounts: a post's likes and reposts, with the unit a count is written in.
func TestPostCounts(t *testing.T) {
	for prompt, want := range map[string][2]*postCount{
		"The heart turns red and the like count races from 12 up to 4.8K while the reposts climb to 623.": {{0, 4.8, "K"}, {0, 623, ""}},
		"2,310 likes and 41 shares":             {{0, 2310, ""}, {0, 41, ""}},
		"likes go from 120 to 1,200, no shares": {{120, 1200, ""}, nil},
	} {
		l, r := postCounts(prompt)
		if !reflect.DeepEqual([2]*postCount{l, r}, want) {
			t.Errorf("%q: likes %+v, reposts %+v; want %+v, %+v", prompt, l, r, want[0], want[1])
		}
	}
}

// TestGaugeReading: where the needle stops, its unit, and a round top above it.
func TestGaugeReading(t *testing.T) {
	for prompt, want := range map[string]struct {
		v    float64
		unit string
		top  float64
	}{
		"the needle swings up and settles in the red at 162": {162, "", 200},
		"needle sweeps to 88 mph":                            {88, "mph", 200},
		"settles at 72%":                                     {72, "%", 100},
		"a rating dial pointing to 7 out of 10":              {7, "", 10},
	} {
		v, unit, top := gaugeReading(prompt)
		if v != want.v || unit != want.unit || top != want.top {
			t.Errorf("%q: %g%s of %g; want %g%s of %g", prompt, v, unit, top, want.v, want.unit, want.top)
		}
	}
}

// TestWordGuesses: a word puzzle's guesses in capitals, its answer (the last guess, or
// the one named) and the grid's rows; each guess scored as the game scores it.
func TestWordGuesses(t *testing.T) {
	gs, answer, cols, rows := wordGuesses("a Wordle-style 5x6 grid: CRANE, SLOTH, SHOUT, the last row all green")
	if !reflect.DeepEqual(gs, []string{"CRANE", "SLOTH", "SHOUT"}) || answer != "SHOUT" || cols != 5 || rows != 6 {
		t.Errorf("got %q, answer %q, %dx%d", gs, answer, cols, rows)
	}
	for _, c := range []struct {
		guess, answer string
		want          []int
	}{
		{"CRANE", "SHOUT", []int{0, 0, 0, 0, 0}},
		{"SLOTH", "SHOUT", []int{2, 0, 2, 1, 1}},
		{"SHOUT", "SHOUT", []int{2, 2, 2, 2, 2}},
		{"EERIE", "THERE", []int{1, 0, 1, 0, 2}}, // a letter counts as often as the answer has it
	} {
		if got := marks(c.guess, c.answer); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s against %s: %v, want %v", c.guess, c.answer, got, c.want)
		}
	}
}

// TestWheelSlices: a prize wheel's slices listed after a colon, and the one the pointer
// lands on.
func TestWheelSlices(t *testing.T) {
	items, winner := wheelSlices("Six slices in alternating teal and white: 10% OFF, FREE TOTE, TRY AGAIN, 20% OFF, FREE CANDLE, 5% OFF. It spins fast, the pointer at the top lands on FREE CANDLE and confetti pops.", nil)
	if !reflect.DeepEqual(items, []string{"10% OFF", "FREE TOTE", "TRY AGAIN", "20% OFF", "FREE CANDLE", "5% OFF"}) || winner != "FREE CANDLE" {
		t.Errorf("got %q, lands on %q", items, winner)
	}
	items, winner = wheelSlices(`a prize wheel of "Mug", "Tote" and "Pin" that stops on "Tote"`, []string{"Mug", "Tote", "Pin", "Tote"})
	if !reflect.DeepEqual(items, []string{"Mug", "Tote", "Pin"}) || winner != "Tote" {
		t.Errorf("quoted slices: got %q, lands on %q", items, winner)
	}
}

// TestCodeLines: each statement row reads its own example; a prompt's unquoted code is
// typed in its order, an "indented" line indented, a quote inside a line typed with it,
// and what the terminal prints is its output.
func TestCodeLines(t *testing.T) {
	for _, row := range codeStatements {
		if lines, _, _ := codeLines("the editor types "+row.Example+" and stops", nil); len(lines) != 1 || lines[0] != row.Example {
			t.Errorf("row %q reads %q", row.Example, lines)
		}
	}
	lines, colors, out := codeLines(`types out def greet(name): on the first line, return f"Hello, {name}!" indented on the second. Then a terminal prints Hello, Ada!`,
		[]string{"Hello, {name}!"})
	if !reflect.DeepEqual(lines, []string{"def greet(name):", `    return f"Hello, {name}!"`}) || len(colors) != 2 || out != "Hello, Ada!" {
		t.Errorf("got %q, output %q", lines, out)
	}
}

// TestDictEntry: a headword with its part of speech or pronunciation and its meaning,
// as people write one; a dash after any word is no entry.
func TestDictEntry(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		want   dictEntry
		ok     bool
	}{
		{"Word of the Day, square. petrichor (noun) /ˈpɛtrɪkɔːr/ — the earthy smell when rain falls on dry ground. Old dictionary page look",
			dictEntry{"petrichor", "noun", "ˈpɛtrɪkɔːr", "the earthy smell when rain falls on dry ground"}, true},
		{"word of the day for our book club: hygge – a cosy feeling of contentment and wellbeing", dictEntry{"hygge", "", "", "a cosy feeling of contentment and wellbeing"}, true},
		{"Word of the day for our English club: petrichor (noun) — the earthy smell of rain", dictEntry{"petrichor", "noun", "", "the earthy smell of rain"}, true},
		{`vocab card for class: "ephemeral" (adj.) — lasting a very short time`, dictEntry{"ephemeral", "adjective", "", "lasting a very short time"}, true},
		{"Define sonder [SON-der]: the realisation that each passer-by has a life as vivid as yours", dictEntry{"sonder", "", "SON-der", "the realisation that each passer-by has a life as vivid as yours"}, true},
		{"A ball bounces — then it stops", dictEntry{}, false},
	} {
		got, ok := dictEntryOf(tc.prompt)
		if ok != tc.ok || got != tc.want {
			t.Errorf("dictEntryOf(%q) = %+v %v, want %+v %v", tc.prompt, got, ok, tc.want, tc.ok)
		}
	}
}

// TestTeamMembers: people listed with their roles, as different people write them.
func TestTeamMembers(t *testing.T) {
	for prompt, want := range map[string][]teamMember{
		"Meet the team!! 4 circle photos flip in with name + role under each: Rosa - owner & head baker, Jimmy - pastry, Mei - front of house, Dan - deliveries (and chief taster lol)": {
			{"Rosa", "owner & head baker"}, {"Jimmy", "pastry"}, {"Mei", "front of house"}, {"Dan", "deliveries"}},
		"our team page: Priya Raman (CEO), Tom Becker (CTO) and Aisha Noor (Head of Sales)": {
			{"Priya Raman", "CEO"}, {"Tom Becker", "CTO"}, {"Aisha Noor", "Head of Sales"}},
		"Vertical : staff intro for our cafe: Lena - barista; Omar - roaster": {{"Lena", "barista"}, {"Omar", "roaster"}},
		"Meet the team at our bakery, warm colours":                           nil,
	} {
		if got := teamMembers(prompt); !reflect.DeepEqual(got, want) {
			t.Errorf("teamMembers(%q) = %v, want %v", prompt, got, want)
		}
	}
}
