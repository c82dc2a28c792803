package builtin

import (
	"reflect"
	"testing"
)

// TestBracket: a bracket's entrants in order and the rounds it plays out to, written as
// people write them: pairs with "vs" and the results after, a list of teams with scores
// between the names, a champion named alone (who then wins each match they play), names
// said to go through, and no results at all (the first listed goes through).
func TestBracket(t *testing.T) {
	type sl = bracketSlot
	for _, c := range []struct {
		prompt string
		want   [][]sl
	}{
		{`Knockout bracket for the office ping-pong cup: Ana vs Ben, Cleo vs Dev, Eli vs Fay, Gus vs Hana. Ana beats Ben 11-5, Cleo beats Dev 11-9, Fay beats Eli 11-7, Hana beats Gus 11-6; in the semis Cleo beats Ana 11-8 and Hana beats Fay 11-4; Cleo wins the final 11-9 and is crowned champion`,
			[][]sl{{{"Ana", "11"}, {"Ben", "5"}, {"Cleo", "11"}, {"Dev", "9"}, {"Eli", "7"}, {"Fay", "11"}, {"Gus", "6"}, {"Hana", "11"}},
				{{"Ana", "8"}, {"Cleo", "11"}, {"Fay", "4"}, {"Hana", "11"}}, {{"Cleo", "11"}, {"Hana", "9"}}, {{"Cleo", ""}}}},
		{`Playoff bracket, 4 teams: Lions, Tigers, Bears and Wolves. Semifinals: Lions 3-1 Tigers, Bears 0-2 Wolves. Final: Wolves 2-1 Lions. Wolves are champions.`,
			[][]sl{{{"Lions", "3"}, {"Tigers", "1"}, {"Bears", "0"}, {"Wolves", "2"}}, {{"Lions", "1"}, {"Wolves", "2"}}, {{"Wolves", ""}}}},
		{`Tournament bracket of 8 players - Kim, Lee, Park, Choi, Jung, Kang, Cho, Yoon - winners advancing round by round, champion: Kang`,
			[][]sl{{{"Kim", ""}, {"Lee", ""}, {"Park", ""}, {"Choi", ""}, {"Jung", ""}, {"Kang", ""}, {"Cho", ""}, {"Yoon", ""}},
				{{"Kim", ""}, {"Park", ""}, {"Kang", ""}, {"Cho", ""}}, {{"Kim", ""}, {"Kang", ""}}, {{"Kang", ""}}}},
		{`office ping pong tournament bracket, 8 players: Deepa v Marco, Jules v Sven, Aiko v Brett, Nadia v Oscar. Marco, Jules, Aiko and Nadia go through, then Jules and Nadia make the final and Nadia wins it.`,
			[][]sl{{{"Deepa", ""}, {"Marco", ""}, {"Jules", ""}, {"Sven", ""}, {"Aiko", ""}, {"Brett", ""}, {"Nadia", ""}, {"Oscar", ""}},
				{{"Marco", ""}, {"Jules", ""}, {"Aiko", ""}, {"Nadia", ""}}, {{"Jules", ""}, {"Nadia", ""}}, {{"Nadia", ""}}}},
		{`Semi-finals bracket: Real Madrid vs Arsenal, Bayern vs Inter`,
			[][]sl{{{"Real Madrid", ""}, {"Arsenal", ""}, {"Bayern", ""}, {"Inter", ""}}, {{"Real Madrid", ""}, {"Bayern", ""}}, {{"Real Madrid", ""}}}},
		{`The cup final: Real Madrid vs Arsenal, then the trophy lift`, nil},
	} {
		b := bracketOf(c.prompt)
		var got [][]sl
		if len(b.Entrants) >= 4 {
			got = b.rounds(c.prompt)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %q\nwant %q", c.prompt, got, c.want)
		}
	}
}

// TestLeaderRows: a leaderboard's rows in their places with the viewer's row, and where
// each ends up after the prompt's moves, written as people write them: places before
// the names, thousands with commas, "(you)", scores in points out of order, "overtakes",
// "jumps to" a new score, "climbs to 2nd".
func TestLeaderRows(t *testing.T) {
	type lr = leaderRow
	for _, c := range []struct {
		prompt string
		rows   []lr
		final  []int
		news   []string
	}{
		{`Weekly step challenge leaderboard: 1. Priya 84,200 steps, 2. Marco 79,950 steps, 3. Sam (you) 77,400 steps, 4. Jules 70,120 steps, 5. Omar 66,300 steps; rows slide in, then Sam's score jumps to 81,000 and he overtakes Marco`,
			[]lr{{"Priya", "84200", "steps", false}, {"Marco", "79950", "steps", false}, {"Sam", "77400", "steps", true}, {"Jules", "70120", "steps", false}, {"Omar", "66300", "steps", false}},
			[]int{0, 2, 1, 3, 4}, []string{"", "", "81000", "", ""}},
		{`Quiz night standings in points: Team Owl 42, Quizzly Bears 57, Brainiacs 49, You 38. Highlight your row.`,
			[]lr{{"Quizzly Bears", "57", "", false}, {"Brainiacs", "49", "", false}, {"Team Owl", "42", "", false}, {"You", "38", "", true}},
			[]int{0, 1, 2, 3}, []string{"", "", "", ""}},
		{`Sales leaderboard for March - #1 Dana 48 deals, #2 Raj 45 deals, #3 Lee 41 deals, #4 Ines 39 deals - Ines climbs to 2nd at the end`,
			[]lr{{"Dana", "48", "deals", false}, {"Raj", "45", "deals", false}, {"Lee", "41", "deals", false}, {"Ines", "39", "deals", false}},
			[]int{0, 2, 3, 1}, []string{"", "", "", ""}},
		{`Reading challenge leaderboard, top 5: Maya 42 books, Theo 39, Ines 37, Kofi 35, Lars 31. Rows slide in from the right, then Theo's row jumps above Maya's as his count ticks up to 43.`,
			[]lr{{"Maya", "42", "books", false}, {"Theo", "39", "", false}, {"Ines", "37", "", false}, {"Kofi", "35", "", false}, {"Lars", "31", "", false}},
			[]int{1, 0, 2, 3, 4}, []string{"", "43", "", "", ""}},
		{`A leaderboard with nothing listed`, nil, nil, nil},
	} {
		rows := leaderRows(c.prompt)
		if !reflect.DeepEqual(rows, c.rows) {
			t.Errorf("%q:\n rows %+v\n want %+v", c.prompt, rows, c.rows)
			continue
		}
		if rows == nil {
			continue
		}
		final, news := leaderMoves(c.prompt, rows)
		if !reflect.DeepEqual(final, c.final) || !reflect.DeepEqual(news, c.news) {
			t.Errorf("%q: places %v, new scores %q; want %v, %q", c.prompt, final, news, c.final, c.news)
		}
	}
}

// TestContestRowsChosen: the Gantt, bracket and leaderboard rows take their phrasings
// and leave to the rows before and after them what those show better: a ranking without
// places, a viewer's row or a move is the board's; places with medals are the podium's;
// ranked bars are a chart; two sides are a matchup; numbered steps or years are the
// steps timeline's.
func TestContestRowsChosen(t *testing.T) {
	for _, c := range []struct{ prompt, row string }{
		{`League table with our club highlighted: Harbour FC 41 pts, Mill Town 38 pts, Riverside 35 pts, Our Club 33 pts`, "leaderboard"},
		{`High scores screen: #1 ACE 98,200, #2 ZED 87,450, #3 MOX 80,010, #4 YOU 64,900`, "leaderboard"},
		{`Roadmap with bars for 2025: Research (Jan–Mar), Prototype (Mar–Jun), Launch (Jul–Sep)`, "gantt chart"},
		{`Project schedule: Survey days 1-3, Foundations days 3-8, Framing days 8-15, Roofing days 14-18, today marker on day 9`, "gantt chart"},
		{`Playoff bracket, 4 teams: Lions, Tigers, Bears and Wolves. Semifinals: Lions 3-1 Tigers, Bears 0-2 Wolves. Final: Wolves 2-1 Lions.`, "tournament bracket"},
		{`Leaderboard of the spelling bee, top 4: Ava 98, Noah 91, Mia 87 and Leo 80, rows sliding in one by one`, "board"},
		{`Final score for the derby: Northgate Owls 2, Lakeside Herons 2. Names left, scores right.`, "board"},
		{`Race results podium: 1st Hana Sato 17:42, 2nd Ben Whitfield 18:05, 3rd Clara Ruiz 18:31, medals drop on at the end`, "podium"},
		{`Game day graphic: Riverside Hawks vs. Lakeview Owls, Saturday Nov 8, 2:00 PM at Kingston Park. Red and black.`, "matchup"},
		{`Step-by-step timeline of ordering: 1 Pick a plan, 2 Add your address, 3 Enjoy your first box`, "steps timeline"},
		{`Our company timeline: 2014 founded in a garage, 2017 first store, 2021 went online, 2024 100 stores`, "steps timeline"},
		{`KPI tiles for the board: Revenue $1.2M (+12%), Customers 4,300 (+8%), Churn 3% (down 1), NPS 54`, "kpi row"},
		{`Reading challenge leaderboard, top 5: Maya 42 books, Theo 39, Ines 37, Kofi 35, Lars 31. Rows slide in from the right, then Theo's row jumps above Maya's as his count ticks up to 43.`, "leaderboard"},
		{`office ping pong tournament bracket, 8 players: Deepa v Marco, Jules v Sven, Aiko v Brett, Nadia v Oscar. Marco, Jules, Aiko and Nadia go through, then Jules and Nadia make the final and Nadia wins it.`, "tournament bracket"},
		{`Web ad banner, 728x90 leaderboard size, for Greenway Nursery. Three messages rotate over about 10 seconds and then it loops: 1) "Spring Plant Sale" 2) "3 perennials for $25" 3) "greenwaynursery.com" with a BUY NOW button that pulses.`, ""},
		{`A ranking as horizontal bars: Oslo 81, Bergen 64, Tromsø 40`, ""},
		{`Bar chart race of the top 5 languages: Python 31, JavaScript 28, Java 17, C# 12, Go 9`, ""},
	} {
		got := ""
		if row := detectGenre(c.prompt); row != nil {
			got = row.Name
		}
		if got != c.row {
			t.Errorf("%q chose %q, want %q", c.prompt, got, c.row)
		}
	}
}
