package builtin

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestBoardRows: a board's rows are the longest run of listed entries, a name and its
// figure or a time and its columns, with a colour the prompt gives a row.
func TestBoardRows(t *testing.T) {
	for prompt, want := range map[string][][]string{
		"Final score for the derby: Northgate Owls 2, Lakeside Herons 2. Names left, scores right.": {{"Northgate Owls", "2"}, {"Lakeside Herons", "2"}},
		"Bake-off standings, top 3: Priya 88 points, Sam 81 and Jo 79":                              {{"Priya", "88 points"}, {"Sam", "81"}, {"Jo", "79"}},
		"Arrivals board: 14:05 Oslo | Gate 3 | Landed, 14:20 Riga | Gate 7 | Late (in red)":         {{"14:05", "Oslo", "Gate 3", "Landed"}, {"14:20", "Riga", "Gate 7", "Late"}},
		"A leaderboard with nothing listed":                                                         nil,
		// Several figures to a row, set apart by slashes; a figure that changes shows the new one.
		"Currency board: GBP 0.86 / 0.89, CHF 0.95 / 0.98, CAD 1.48 / 1.53 — columns Buy and Sell": {{"GBP", "0.86", "0.89"}, {"CHF", "0.95", "0.98"}, {"CAD", "1.48", "1.53"}},
		"Petrol price sign: Unleaded $1.52 → $1.61, Super $1.68 → $1.77, Diesel $1.59 to $1.70":    {{"Unleaded", "$1.61"}, {"Super", "$1.77"}, {"Diesel", "$1.70"}},
		"Chalkboard menu: specials one by one - Wild mushroom risotto 14, Lemon & ricotta ravioli 13, Tiramisu 6 (euros) - with chalk dust": {
			{"Wild mushroom risotto", "14"}, {"Lemon & ricotta ravioli", "13"}, {"Tiramisu", "6"}},
	} {
		rows := boardRows(prompt)
		var got [][]string
		for _, r := range rows {
			got = append(got, r.cells)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: rows %q, want %q", prompt, got, want)
		}
	}
	if rows := boardRows("Arrivals board: 14:05 Oslo | Gate 3 | Landed, 14:20 Riga | Gate 7 | Late (in red)"); len(rows) == 2 && rows[1].color != namedColors["red"] {
		t.Errorf("the late row's colour is %q, want red", rows[1].color)
	}
}

// TestBoardHeads: the columns a prompt names, quoted or listed; a sentence after
// "columns" names none.
func TestBoardHeads(t *testing.T) {
	for prompt, want := range map[string][]string{
		`Rates board, columns "Buy" and "Sell" - GBP 0.86 / 0.89, CHF 0.95 / 0.98`: {"Buy", "Sell"},
		"League table. Columns: Pos, Team, P, W, D, L, Pts. Rows slide in.":        {"Pos", "Team", "P", "W", "D", "L", "Pts"},
		"Three columns of text that slowly fade into the night sky above a lake":   nil,
		"A table with columns for name and score: Ava 9, Ben 7":                    {"name", "score"},
	} {
		if got := boardHeads(prompt); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: heads %q, want %q", prompt, got, want)
		}
	}
}

// TestStepItems: the stops of a tracker listed after a colon are its steps; a number
// before words ("by 8 PM", "6 seconds") is no numbered step, and the quotes are a
// headline and the stop reached.
func TestStepItems(t *testing.T) {
	prompt := `Delivery tracker: a progress line with four stages: Placed, Packed, On its way, Delivered. A scooter rides along, stopping at "On its way". Text on top: "Arrives by 8 PM". 6 seconds.`
	g := &genreFill{prompt: prompt, b: &brief{Texts: []string{"On its way", "Arrives by 8 PM"}}, used: map[int]bool{}}
	if got, want := g.stepItems(), []string{"Placed", "Packed", "On its way", "Delivered"}; !reflect.DeepEqual(got, want) {
		t.Errorf("steps %q, want %q", got, want)
	}
}

// TestBarsAcross: bars asked to lie down are drawn across (the hbar variant).
func TestBarsAcross(t *testing.T) {
	for prompt, want := range map[string]bool{
		"Poll results as horizontal bars: Tea 40%, Coffee 60%": true,
		"A bar chart with bars going left to right: A 3, B 5":  true,
		"A bar chart of sales: Mon 3, Tue 5, Wed 4":            false,
		"Horizontal video of a bar chart: Mon 3, Tue 5, Wed 4": false,
	} {
		if d := readData(dataBar, prompt); d.Across != want {
			t.Errorf("%q: across %v, want %v", prompt, d.Across, want)
		}
	}
}

// TestGoalAmounts: of a fundraiser's amounts, the one a goal word stands by is the goal
// and the one "raised" stands by is raised, in either order.
func TestGoalAmounts(t *testing.T) {
	for prompt, want := range map[string][2]float64{
		"we've raised $3,200 of our $5,000 goal":               {3200, 5000},
		"Goal is $10,000, we've raised $7,400 so far":          {7400, 10000},
		"$12,500 raised toward a $20,000 target":               {12500, 20000},
		"Donations for the roof: $450 of $1k":                  {450, 1000},
		"A crowdfunding bar for 300 euros, 120 euros pledged!": {120, 300},
	} {
		raised, goal, _ := goalAmounts(prompt)
		if raised != want[0] || goal != want[1] {
			t.Errorf("%q: raised %g of %g, want %g of %g", prompt, raised, goal, want[0], want[1])
		}
	}
}

// TestComparisonCells: a comparison's cells follow what the prompt says of each column
// ("crosses on the last two", "ticks on all three"); a plan comparison is no before/after.
func TestComparisonCells(t *testing.T) {
	prompt := "Compare our plans: Lite at $4/month and Plus at $8/month, rows for Sync, Themes and Support; Lite gets crosses on the last two, Plus gets ticks on all three"
	if row := detectGenre(prompt); row == nil || row.Name != "comparison table" {
		t.Fatalf("genre %v, want the comparison table", row)
	}
	m := cellsRE.FindAllStringSubmatch(prompt, -1)
	if len(m) != 2 || m[0][1] != "Lite" || m[0][5] != "two" || m[1][1] != "Plus" {
		t.Errorf("cells read %q", m)
	}
	if cols := planRE.FindAllStringSubmatch(prompt, -1); len(cols) != 2 || cols[0][2] != "$4/month" || cols[1][1] != "Plus" {
		t.Errorf("columns read %q", cols)
	}
}

// A history told year by year is read with each year's own words, whichever side of
// the year they stand on.
func TestDatedTimeline(t *testing.T) {
	for in, want := range map[string][]string{
		"Our story: 2014 first wheel in a garage, 2017 opened the shop, 2020 launched online store.": {"2014 First wheel in a garage", "2017 Opened the shop", "2020 Launched online store"},
		"Company history: founded in 1998, first store 2003, went online 2011":                       {"1998 Founded", "2003 First store", "2011 Went online"},
		"Revenue grew from 2019 to 2021": nil,
	} {
		years, items := dated(in)
		var got []string
		for k := range years {
			got = append(got, years[k]+" "+items[k])
		}
		if !slices.Equal(got, want) {
			t.Errorf("dated(%q) = %q, want %q", in, got, want)
		}
		if want != nil && detectGenre(in) == nil {
			t.Errorf("%q: no genre row", in)
		}
	}
}

// "Story" is the vertical format only where a platform or a format word says so.
func TestStoryAspect(t *testing.T) {
	for in, want := range map[string]string{
		"Our story so far: 2014 first wheel, 2017 the shop, 2020 online": "",
		"An Instagram story with a sneaker sliding in":                   "portrait",
		"A story for TikTok: a cat waves":                                "portrait",
	} {
		if got := analyze(in).Aspect; got != want {
			t.Errorf("%q: aspect %q, want %q", in, got, want)
		}
	}
}

// Lettered answers are read as the longest run A, B, C…: an article "A" before a
// capital is no answer.
func TestQuizOptions(t *testing.T) {
	for in, want := range map[string][]string{
		`Quiz: "Which is largest?" A Jupiter, B Saturn, C Uranus, D Neptune. A 5-second timer, then B turns green`: {"Jupiter", "Saturn", "Uranus", "Neptune"},
		`Trivia: (A) Paris (B) Rome (C) Madrid`: {"Paris", "Rome", "Madrid"},
		`A Quiet Coast title card`:              nil,
	} {
		if got := options(in); !slices.Equal(got, want) {
			t.Errorf("options(%q) = %q, want %q", in, got, want)
		}
	}
	if m := rightAnswerRE.FindStringSubmatch("four answers, then B turns green"); m == nil || m[1] != "B" {
		t.Errorf("right answer %q, want B", m)
	}
}

// A length of time that belongs to a thing shown ("a 5-second timer") is not the
// video's length, and the video is long enough to run it.
func TestTimedThingIsNotTheLength(t *testing.T) {
	b := analyze(`Quiz card: "Which is largest?" A Jupiter, B Saturn, C Uranus. A 5-second timer bar shrinks`)
	if b.Duration != 0 {
		t.Errorf("duration %g, want none asked", b.Duration)
	}
	if d := b.defaultDuration("smooth"); d < 8.5 {
		t.Errorf("default duration %g, want room for the 5 s timer", d)
	}
	if got := analyze("A 10 second video of a ball bouncing").Duration; got != 10 {
		t.Errorf("a 10 second video lasts %g", got)
	}
}

// Words written in capitals are words to show: two or more, or one named as words; one
// capitalised word alone is often an acronym and stays a word of the prompt.
func TestCapitalsAreShown(t *testing.T) {
	for in, want := range map[string][]string{
		"A JUST SOLD banner sweeps across a house":         {"JUST SOLD"},
		"the Otters jump to 99 and the word WIN flashes":   {"WIN"},
		"A NASA rocket launches":                           nil,
		"the wordmark ACME GLOBAL slides out to the right": nil,
	} {
		if got := analyze(in).Texts; !slices.Equal(got, want) {
			t.Errorf("%q shows %q, want %q", in, got, want)
		}
	}
}

// A row's figure that changes later is read for that row only.
func TestLaterFigure(t *testing.T) {
	p := "Scoreboard: Lakeside Otters 96, Pine Ridge Hawks 97. At the buzzer the Otters' score jumps to 99."
	if v, ok := laterFigure(p, "Lakeside Otters"); !ok || v != 99 {
		t.Errorf("Otters later %g %v, want 99", v, ok)
	}
	if _, ok := laterFigure(p, "Pine Ridge Hawks"); ok {
		t.Error("the Hawks' figure does not change")
	}
}

// An action word after "the" or a possessive is a noun: "where the drop starts" makes
// nothing fall.
func TestActionWordAsNoun(t *testing.T) {
	b := analyze("A bar chart: Jan 182, Feb 175, Mar 64, with a sun icon where the drop starts")
	if slices.Contains(b.Actions, "fall") {
		t.Errorf("actions %q: the drop is a noun", b.Actions)
	}
	if b := analyze("A ball drops onto the floor"); !slices.Contains(b.Actions, "fall") {
		t.Errorf("actions %q, want the ball to fall", b.Actions)
	}
}

// A thing the prompt puts at the end comes at the end.
func TestComesLast(t *testing.T) {
	for in, want := range map[string]bool{
		`Promo code "SAVE10", with confetti at the end`:        true,
		`A title card, then fireworks`:                         true,
		`Confetti falls on a "Happy birthday" card`:            false,
		`the card drops in and a tiny confetti burst goes off`: true,
		`the pointer lands on FREE CANDLE and confetti pops`:   true,
		`confetti pops as the doors open`:                      false,
	} {
		noun := "confetti"
		if strings.Contains(in, "fireworks") {
			noun = "fireworks"
		}
		if got := comesLast(in, noun); got != want {
			t.Errorf("comesLast(%q) = %v, want %v", in, got, want)
		}
	}
}

// After a colon, words that say something moves are a sentence about things, not a list
// of items to write.
func TestColonBeforeASentence(t *testing.T) {
	b := analyze("Employee of the Month - November: gold medal with a blue ribbon drops in and spins")
	var nouns []string
	for _, s := range b.Subjects {
		nouns = append(nouns, s.Noun)
	}
	if !slices.Contains(nouns, "gold medal") {
		t.Errorf("subjects %q, want the gold medal", nouns)
	}
	if b := analyze("Checklist: Plan, Build, Ship"); len(b.Subjects) != 1 {
		t.Errorf("a list's items became subjects: %+v", b.Subjects)
	}
}

// A quiz's answers and a product's callouts written as a plain list after a colon are
// read as that list.
func TestPlainLists(t *testing.T) {
	if got := listAfter("Four choices in coloured boxes: Oxygen, Carbon dioxide, Nitrogen, Helium. Then reveal", answerListRE); !slices.Equal(got, []string{"Oxygen", "Carbon dioxide", "Nitrogen", "Helium"}) {
		t.Errorf("answers %q", got)
	}
	if got := listAfter("four callouts fade in around it: 65-125 cm height range, 3 memory presets, built-in cable tray, holds 80 kg.", labelListRE); len(got) != 4 || got[3] != "Holds 80 kg" {
		t.Errorf("callouts %q", got)
	}
}

// TestUnitArray: an icon array's count, icon and groups are read from the words.
func TestUnitArray(t *testing.T) {
	for _, c := range []struct {
		prompt string
		total  int
		noun   string
		groups string
	}{
		{"My class of 30 said how they get to school: 18 walk, 8 take the bus and 4 get driven. Show 30 little people icons in a grid that colour in by group",
			30, "people", "Walk 18 ;Bus 8 ;Driven 4 "},
		{"a grid of 100 little water-drop icons, 92 of them filling up blue one row after another while 92% counts up",
			100, "water-drop", " 92 #1e88e5"},
		{"A grid of 40 little tree icons: 26 planted fill green and 14 lost turn red",
			40, "tree", "Planted 26 #43a047;Lost 14 #e53935"},
		{"Loyalty card: 10 coffee cup circles in two rows of five, the first 8 already stamped",
			10, "coffee cup", "Stamped 8 "},
	} {
		total, noun, groups, ok := unitArray(c.prompt)
		var gs []string
		for _, g := range groups {
			gs = append(gs, fmt.Sprintf("%s %d %s", g.Label, g.Count, g.Color))
		}
		if got := strings.Join(gs, ";"); !ok || total != c.total || noun != c.noun || got != c.groups {
			t.Errorf("%q: %d %q %q, want %d %q %q", c.prompt, total, noun, got, c.total, c.noun, c.groups)
		}
	}
}

// TestFacts: a list the screen must say is read line by line, a label split from its
// value where the line starts with one; lists of plain things are no facts.
func TestFacts(t *testing.T) {
	for _, c := range []struct {
		prompt string
		want   string
	}{
		{"the pass slides up showing Flight LX 318, Zurich ZRH → London LHR, 18 Dec, Gate A54, Seat 21A, and then a QR code draws in",
			"Flight=LX 318|=Zurich ZRH → London LHR|=18 Dec|Gate=A54|Seat=21A"},
		{"Names scroll up slowly on black: Directed by Noor Haddad, Written by Eli Strand, Cinematography Mateo Ruiz, Music by Kaia Lund.",
			"Directed by=Noor Haddad|Written by=Eli Strand|Cinematography=Mateo Ruiz|Music by=Kaia Lund"},
		{"each player pops in with their name: keeper Luca, defenders Sami and Odette, midfield Ravi, Hana and Felix, striker Zoe. team colours purple",
			"Keeper=Luca|Defenders=Sami and Odette|Midfield=Ravi, Hana and Felix|Striker=Zoe"},
		{"headliners drop in huge first: THE VELVET ORCHARD, NOVA KINGS, then smaller rows underneath: Mira Oyelaran, Static Pines, Lowtide Club, Juno & the Wires.",
			"=Mira Oyelaran|=Static Pines|=Lowtide Club|=Juno & the Wires"},
		{"A kitchen with a kettle, a toaster, a bowl of fruit and a cat", ""},
		{"Label the key pins, the driver pins and the shear line", ""},
	} {
		var got []string
		for _, f := range facts(c.prompt) {
			got = append(got, f.Label+"="+f.Value)
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.prompt, g, c.want)
		}
	}
}

// TestListsWithoutTheirName: a list after a colon is the checklist "tick each line off"
// asks for, and "make something square" is the video's shape.
func TestListsWithoutTheirName(t *testing.T) {
	p := "Lab safety sign-off before the bell: goggles back in the cabinet, gas taps off, benches wiped, hands washed. Tick each line off in turn."
	ds := readAllData(p)
	if len(ds) == 0 || ds[0].Kind != dataChecklist {
		t.Fatalf("%q: no checklist read", p)
	}
	if want := []string{"Goggles back in the cabinet", "Gas taps off", "Benches wiped", "Hands washed"}; !reflect.DeepEqual(ds[0].Items, want) {
		t.Errorf("items %q, want %q", ds[0].Items, want)
	}
	if a := analyze("we passed 10,000 followers!! can you make something square with the number rolling up").Aspect; a != "square" {
		t.Errorf("aspect %q, want square", a)
	}
	if a := analyze("A square spins and a circle bounces").Aspect; a == "square" {
		t.Errorf("a square that spins made the video square")
	}
}

// TestLinesShownTogether: two lines joined by "and", or set "underneath" something,
// stand together; lines one "then" another replace each other.
func TestLinesShownTogether(t *testing.T) {
	for p, want := range map[string]bool{
		`A gauge swings to 162. Underneath: "AQI 162 — Unhealthy" and "Fresno · Tuesday 7 AM".`: true,
		`A poster with "Open Mic Night", "Fridays at 8"`:                                        true,
		`"Ready?" appears, then "Go!" replaces it`:                                              false,
	} {
		if got := analyze(p).Stack; got != want {
			t.Errorf("%q: lines together %v, want %v", p, got, want)
		}
	}
}

// TestNounAfterAKindWord: a drawing's own name after a kind word is a thing of its own
// ("sea turtles"); a verb after one stays a verb ("the waves crash").
func TestNounAfterAKindWord(t *testing.T) {
	has := func(p, noun string) bool {
		for _, s := range analyze(p).Subjects {
			if s.Noun == noun {
				return true
			}
		}
		return false
	}
	if !has("Baby sea turtles dig out of the sand and scramble towards the waves", "turtles") {
		t.Errorf("sea turtles: no turtles")
	}
	for _, p := range []string{"The waves crash on the shore", "A ball rolls across the floor", "Stars twinkle over a lake"} {
		for _, s := range analyze(p).Subjects {
			if s.Noun == "crash" || s.Noun == "rolls" || s.Noun == "twinkle" || s.Noun == "crash on" {
				t.Errorf("%q: the verb %q is a subject", p, s.Noun)
			}
		}
	}
}

// TestWhereItGoesChoosesNoLayout: the words that say where a video is shown choose no
// layout ("for our WhatsApp group" is no chat; "for my Instagram story" no social post).
func TestWhereItGoesChoosesNoLayout(t *testing.T) {
	for in, not := range map[string]string{
		`LOST CAT poster for our neighbourhood WhatsApp group, vertical. Big red "LOST CAT" header and "Please call 07700 914 362" at the bottom`: "chat",
		`A "Thank you" card with confetti for my Instagram story`:                                                                                 "social post",
	} {
		if row := detectGenre(in); row != nil && row.Name == not {
			t.Errorf("%q: %s layout", in, not)
		}
	}
	if row := detectGenre(`A WhatsApp chat: "Are you coming?" then "On my way!"`); row == nil || row.Name != "chat" {
		t.Errorf("a WhatsApp chat asked outright is no longer a chat: %v", row)
	}
}

// TestBeforeAndAfterOfTime: "before" and "after" telling when are no before/after
// comparison; as labels they are.
func TestBeforeAndAfterOfTime(t *testing.T) {
	in := `a polar bear mum and two cubs walk across the sea ice, the mum leaps onto the next floe and the cubs hesitate before jumping after her`
	if row := detectGenre(in); row != nil && row.Name == "before after" {
		t.Errorf("%q: before/after layout", in)
	}
	in = `A cluttered desk before, a tidy desk with a plant after`
	if row := detectGenre(in); row == nil || row.Name != "before after" {
		t.Errorf("%q: %v, want the before/after layout", in, row)
	}
}

// TestCalendarPageNeedsADate: the one-date calendar page is chosen only with a date to
// show; without one it showed "TOD" and "1".
func TestCalendarPageNeedsADate(t *testing.T) {
	for _, in := range []string{
		`Release notes card: "What's new in 4.0", then three items tick in: Recurring tasks, Calendar sync with Google & Outlook, Dark mode for desktop`,
		`Habit tracker: a November calendar fills in day by day with green checks up to the 28th`,
	} {
		if row := detectGenre(in); row != nil && row.Name == "calendar date" {
			t.Errorf("%q: a calendar page without a date", in)
		}
	}
	if row := detectGenre(`A calendar page flips to October 12 with the words "Launch day"`); row == nil || row.Name != "calendar date" {
		t.Errorf("a calendar page with its date: %v", row)
	}
}

// TestAlertKinds: each row of alertKinds with its example, and the fallback.
func TestAlertKinds(t *testing.T) {
	for in, want := range map[string]string{
		"achievement unlocked popup for my gaming videos": "ACHIEVEMENT UNLOCKED|trophy",
		"new follower alert for my twitch stream":         "NEW FOLLOWER|bell",
		"donation alert box with the amount":              "NEW DONATION|money bag",
		"a level up toast notification":                   "LEVEL UP|star",
		"a popup slides in at the top":                    "NEW ALERT|star",
	} {
		if title, icon := alertKind(in); title+"|"+icon != want {
			t.Errorf("%q: %s|%s, want %s", in, title, icon, want)
		}
	}
}
