package builtin

import (
	"reflect"
	"strings"
	"testing"
)

func TestNumbers(t *testing.T) {
	tests := []struct {
		in   string
		want []string // Text of each number
		vals []float64
	}{
		{"Q1 12, Q2 18, Q3 25, Q4 31", []string{"12", "18", "25", "31"}, []float64{12, 18, 25, 31}},
		{"sales hit 12k then 1,200 then $4.5M", []string{"12k", "1,200", "$4.5M"}, []float64{12, 1200, 4.5}},
		{"a pie of 40 %, 35% and 25 percent", []string{"40 %", "35%", "25 percent"}, []float64{40, 35, 25}},
		{"a 10 second 9:16 video at 10:10, 3 times, in 3D", nil, nil},
		{"a counter to 10,000 subscribers in 5s", []string{"10,000"}, []float64{10000}},
		{"£2.5bn and €300 million", []string{"£2.5bn", "€300 million"}, []float64{2.5, 300}},
	}
	for _, tc := range tests {
		var got []string
		var vals []float64
		for _, n := range numbers(tc.in) {
			got = append(got, n.Text)
			vals = append(vals, n.Value)
		}
		if !reflect.DeepEqual(got, tc.want) || !reflect.DeepEqual(vals, tc.vals) {
			t.Errorf("numbers(%q) = %q %v, want %q %v", tc.in, got, vals, tc.want, tc.vals)
		}
	}
	n := numbers("$4.5M")[0]
	if n.Cur != "$" || n.Unit != "M" || n.Scale != 1e6 {
		t.Errorf("$4.5M read as %+v", n)
	}
}

func TestDataKinds(t *testing.T) {
	tests := map[string][]string{
		"Q1 12, Q2 18, Q3 25, Q4 31":                                                {dataBar},
		"a pie chart of 40% red, 35% blue, 25% yellow":                              {dataPie},
		"donut chart: Rent 40%, Food 35%, Fun 25%":                                  {dataDonut},
		"visitors over the week: Mon 120, Tue 150, Wed 90":                          {dataBar},
		"A line graph rising over the days of a week":                               {dataLine},
		"a graph of visitors over the week":                                         {dataLine},
		"counter to 10,000 subscribers":                                             {dataCounter},
		"3, 2, 1, Go! countdown":                                                    {dataCountdown},
		"Checklist where three items get checked off one by one: Plan, Build, Ship": {dataChecklist},
		"Minimal clock whose hands sweep around once, black on cream":               {dataClock},
		"progress bar fills to 75%":                                                 {dataProgress},
		"A bar chart of revenue growing in green, then a counter reaching 98%":      {dataBar, dataCounter},
		"A red ball bounces 3 times":                                                nil,
	}
	for in, want := range tests {
		if got := dataKinds(in); !reflect.DeepEqual(got, want) {
			t.Errorf("dataKinds(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestReadChartData(t *testing.T) {
	tests := []struct {
		kind, in     string
		labels       []string
		values       []float64
		colors       []string
		prefix, suff string
		title        string
	}{
		{dataBar, "Q1 12, Q2 18, Q3 25, Q4 31", []string{"Q1", "Q2", "Q3", "Q4"}, []float64{12, 18, 25, 31}, nil, "", "", ""},
		{dataBar, "Bar chart of quarterly revenue: Q1 $12k, Q2 $18k, Q3 $25k and Q4 $31k", []string{"Q1", "Q2", "Q3", "Q4"},
			[]float64{12, 18, 25, 31}, nil, "$", "k", "Quarterly revenue"},
		{dataPie, "a pie chart of 40% red, 35% blue, 25% yellow", []string{"Red", "Blue", "Yellow"}, []float64{40, 35, 25},
			[]string{namedColors["red"], namedColors["blue"], namedColors["yellow"]}, "", "%", ""},
		{dataDonut, "donut chart: Rent 40%, Food 35%, Fun 25%", []string{"Rent", "Food", "Fun"}, []float64{40, 35, 25}, nil, "", "%", ""},
		{dataDonut, "donut chart: Rent: 40 %, Food: 35 %", []string{"Rent", "Food", "Other"}, []float64{40, 35, 25}, nil, "", "%", ""},
		{dataBar, "visitors over the week: Mon 120, Tue 150, Wed 90, Thu 1,200", []string{"Mon", "Tue", "Wed", "Thu"},
			[]float64{120, 150, 90, 1200}, nil, "", "", "Visitors over the week"},
		{dataBar, "revenue by region: North America $4.5M, Europe $3.2M and Asia $2.1M", []string{"North America", "Europe", "Asia"},
			[]float64{4.5, 3.2, 2.1}, nil, "$", "M", "Revenue by region"},
		{dataBar, "downloads: iOS 12k, Android 1.2M", []string{"iOS", "Android"}, []float64{12000, 1.2e6}, nil, "", "", "Downloads"},
		{dataLine, "A line graph of signups Mon–Sun: 3, 5, 4, 8, 9, 12, 15", []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"},
			[]float64{3, 5, 4, 8, 9, 12, 15}, nil, "", "", "Signups"},
	}
	for _, tc := range tests {
		d := readData(tc.kind, tc.in)
		if !reflect.DeepEqual(d.Labels, tc.labels) || !reflect.DeepEqual(d.Values, tc.values) {
			t.Errorf("%q: labels %q values %v, want %q %v", tc.in, d.Labels, d.Values, tc.labels, tc.values)
		}
		if !reflect.DeepEqual(d.Colors, tc.colors) {
			t.Errorf("%q: colours %q, want %q", tc.in, d.Colors, tc.colors)
		}
		if d.Prefix != tc.prefix || d.Suffix != tc.suff || d.Title != tc.title {
			t.Errorf("%q: prefix %q suffix %q title %q, want %q %q %q", tc.in, d.Prefix, d.Suffix, d.Title, tc.prefix, tc.suff, tc.title)
		}
	}
}

func TestReadChartAxisWithoutNumbers(t *testing.T) {
	d := readData(dataLine, "a line graph rising over the days of a week")
	if !reflect.DeepEqual(d.Labels, dayNames) {
		t.Fatalf("labels %q, want the days of a week", d.Labels)
	}
	for i := 1; i < len(d.Values); i++ {
		if d.Values[i] <= d.Values[i-1]-6 {
			t.Errorf("a rising line falls: %v", d.Values)
		}
	}
	if d.Values[len(d.Values)-1] <= d.Values[0] {
		t.Errorf("a rising line ends below its start: %v", d.Values)
	}
	for in, want := range map[string][]string{
		"sales Mon–Fri":                 {"Mon", "Tue", "Wed", "Thu", "Fri"},
		"a graph from Friday to Monday": {"Fri", "Sat", "Sun", "Mon"},
		"bar chart Jan - Jun":           {"Jan", "Feb", "Mar", "Apr", "May", "Jun"},
		"Q1–Q4 growth":                  {"Q1", "Q2", "Q3", "Q4"},
		"users from 2019 to 2024":       {"2019", "2020", "2021", "2022", "2023", "2024"},
		"monthly sales":                 monthNames,
	} {
		if got := axisLabels(in); !reflect.DeepEqual(got, want) {
			t.Errorf("axisLabels(%q) = %q, want %q", in, got, want)
		}
	}
	d = readData(dataBar, "users from 2019 to 2024 falling")
	if len(d.Values) != 6 || d.Values[5] >= d.Values[0] {
		t.Errorf("falling users over six years: %v", d.Values)
	}
}

func TestReadCounter(t *testing.T) {
	tests := []struct {
		in                   string
		from, to             float64
		prefix, suffix, labl string
	}{
		{"counter to 10,000 subscribers", 0, 10000, "", "", "subscribers"},
		{"A number counting up from 250 to 1,200 users", 250, 1200, "", "", "users"},
		{"a counter reaching 98%", 0, 98, "", "%", ""},
		{"counts up to $4.5M in revenue", 0, 4.5, "$", "M", "revenue"},
		{"A 5 second counter to 12k followers", 0, 12, "", "k", "followers"},
		{"A bar chart of sales 3, 5, 8, then a counter reaching 40 %", 0, 40, "", "%", ""},
	}
	for _, tc := range tests {
		d := readData(dataCounter, tc.in)
		if d.From != tc.from || d.To != tc.to || d.Prefix != tc.prefix || d.Suffix != tc.suffix || d.Label != tc.labl {
			t.Errorf("%q: %g→%g %q %q %q, want %g→%g %q %q %q", tc.in, d.From, d.To, d.Prefix, d.Suffix, d.Label,
				tc.from, tc.to, tc.prefix, tc.suffix, tc.labl)
		}
	}
}

func TestCountdownAndChecklist(t *testing.T) {
	for in, want := range map[string][]string{
		"3, 2, 1, Go!":                               {"3", "2", "1", "Go!"},
		"A countdown 5 4 3 2 1 then Liftoff!":        {"5", "4", "3", "2", "1", "Liftoff!"},
		"countdown from 5":                           {"5", "4", "3", "2", "1"},
		"a playful countdown from ten to zero":       {"10", "9", "8", "7", "6", "5", "4", "3", "2", "1", "0"},
		"big numbers 3... 2... 1... Happy New Year!": {"3", "2", "1", "Happy New Year!"},
		"a countdown timer":                          {"3", "2", "1"},
	} {
		if got := countdownItems(in); !reflect.DeepEqual(got, want) {
			t.Errorf("countdownItems(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string][]string{
		"Checklist where three items get checked off one by one: Plan, Build, Ship": {"Plan", "Build", "Ship"},
		"a to-do list with buy milk, walk the dog and call mom":                     {"Buy milk", "Walk the dog", "Call mom"},
		"A checklist of four tasks ticked off":                                      {"Task 1", "Task 2", "Task 3", "Task 4"},
		`Checklist: "Design", "Code", "Test"`:                                       {"Design", "Code", "Test"},
		"a packing checklist - Passport, Charger, Socks - each one ticked":          {"Passport", "Charger", "Socks"},
	} {
		if got := checklistItems(in); !reflect.DeepEqual(got, want) {
			t.Errorf("checklistItems(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadClockAndProgress(t *testing.T) {
	d := readData(dataClock, "Minimal clock whose hands sweep around once, black on cream")
	if d.Turns != 1 {
		t.Errorf("clock turns %g, want 1", d.Turns)
	}
	if d := readData(dataClock, "a clock at 3 o'clock spinning twice"); d.Hour != 3 || d.Turns != 2 {
		t.Errorf("clock at 3 o'clock twice: hour %g turns %g", d.Hour, d.Turns)
	}
	p := readData(dataProgress, "progress bar fills to 75%")
	if p.To != 75 || p.Suffix != "%" {
		t.Errorf("progress %+v, want 75%%", p)
	}
	if p := readData(dataProgress, "a loading bar"); p.To != 100 || !strings.HasPrefix(p.Label, "Loading") {
		t.Errorf("loading bar %+v", p)
	}
}

func TestChartTitle(t *testing.T) {
	for in, want := range map[string]string{
		"A smooth line chart of monthly sales, neon":             "Monthly sales",
		"Bar chart of quarterly revenue: Q1 12, Q2 18":           "Quarterly revenue",
		"visitors over the week: Mon 120, Tue 150":               "Visitors over the week",
		"a pie chart of 40% red, 35% blue, 25% yellow":           "",
		"A bar chart of revenue growing in green":                "Revenue",
		"Create a simple animated graph of signups, in blue ink": "Signups",
		// A colour is the chart's look and the video's format no part of its name.
		"A green graph of user growth drawing from left to right, subtle": "User growth",
		"Vertical story poll results as a bar chart: Yes 70, No 30":       "Poll results",
	} {
		kind := dataBar
		if k := dataKinds(in); len(k) > 0 {
			kind = k[0]
		}
		if d := readData(kind, in); d.Title != want {
			t.Errorf("title of %q = %q, want %q", in, readData(kind, in).Title, want)
		}
	}
}

// TestDrawnGraphIsALine: a graph that draws itself from left to right is a pen's line,
// not bars.
func TestDrawnGraphIsALine(t *testing.T) {
	for in, want := range map[string]string{
		"A green graph of user growth drawing from left to right, subtle": dataLine,
		"A graph of signups that draws itself":                            dataLine,
		"A bar graph of signups drawing in":                               dataBar,
		"A graph of signups":                                              dataBar,
	} {
		if k := dataKinds(in); len(k) == 0 || k[0] != want {
			t.Errorf("kinds of %q = %v, want %s first", in, k, want)
		}
	}
}

func TestReadChartPhrasings(t *testing.T) {
	d := readData(dataBar, "Show our revenue growing from $1.2M in 2021 to $4.5M in 2024")
	if !reflect.DeepEqual(d.Labels, []string{"2021", "2024"}) || !reflect.DeepEqual(d.Values, []float64{1.2, 4.5}) ||
		d.Prefix != "$" || d.Suffix != "M" || d.Title != "Revenue" {
		t.Errorf("from-to: %+v", d)
	}
	d = readData(dataBar, "Animated bar chart comparing Apples 30, Oranges 45, Bananas 20")
	if !reflect.DeepEqual(d.Labels, []string{"Apples", "Oranges", "Bananas"}) || d.Title != "" {
		t.Errorf("comparing: labels %q title %q", d.Labels, d.Title)
	}
	d = readData(dataBar, "A bar chart with 12k, 1,200 and $4.5M")
	if d.Prefix != "" || !reflect.DeepEqual(d.Values, []float64{12000, 1200, 4.5e6}) {
		t.Errorf("mixed units: prefix %q values %v", d.Prefix, d.Values)
	}
	for in, want := range map[string]string{
		"Temperature line graph from Jan to Dec":     "Temperature",
		"A donut chart of 3 segments in pastel":      "",
		"Sales up 40% this year":                     "",
		"A pie chart of browser share in blue tones": "Browser share",
		"Vertical 9:16 sales bar chart":              "Sales",
	} {
		if got := chartTitle(in, len(in)); got != want {
			t.Errorf("title of %q = %q, want %q", in, got, want)
		}
	}
	// The video's format is no chart title.
	if d := readData(dataDonut, "Square 1:1 donut chart: Rent 50%, Food 30%, Fun 20%"); d.Title != "" {
		t.Errorf("square 1:1 donut: title %q, want none", d.Title)
	}
	// The word a countdown ends on comes after its last number, as its last item.
	for in, want := range map[string]string{
		"A dramatic countdown from 10 ending with the word 'Launch'":    "10 9 8 7 6 5 4 3 2 1 Launch",
		"Vertical 9:16 countdown from 5 for a live stream, then 'LIVE'": "5 4 3 2 1 LIVE",
		"A countdown from 3 with the title 'Big Sale'":                  "3 2 1",
	} {
		if got := strings.Join(countdownItems(in), " "); got != want {
			t.Errorf("countdown items of %q = %q, want %q", in, got, want)
		}
	}
	// The word it shows is gone from the prompt the verbs are read from ("Launch" is no fly).
	launch := "A dramatic countdown from 10 ending with the word 'Launch'"
	if got := unquoteData(launch, readAllData(launch)); strings.Contains(strings.ToLower(got), "launch") {
		t.Errorf("unquoted countdown prompt %q still says launch", got)
	}
	if got := countdownItems("A countdown timer from 10 with big numbers"); len(got) != 10 || got[0] != "10" {
		t.Errorf("countdown timer from 10: %q", got)
	}
}

// TestOneShareDonut: a pie or donut of one percentage is that share and the rest.
func TestOneShareDonut(t *testing.T) {
	d := readData(dataDonut, "A donut chart showing 60% complete in teal")
	if !reflect.DeepEqual(d.Values, []float64{60, 40}) || len(d.Labels) != 2 || d.Labels[0] != "Complete" || d.Suffix != "%" {
		t.Errorf("donut read as values %v labels %q suffix %q, want 60/40 Complete/Remaining %%", d.Values, d.Labels, d.Suffix)
	}
}

// TestListColors: colour words after a chart's list colour its entries in order, or
// make a scale from the first to the last ("blue to red").
func TestListColors(t *testing.T) {
	d := readData(dataBar, "Bar chart comparing Cats 30 and Dogs 45 with orange and blue bars")
	if len(d.Colors) != 2 || d.Colors[0] == d.Colors[1] {
		t.Fatalf("colors %v, want orange then blue", d.Colors)
	}
	if o, _ := colorOf("orange"); d.Colors[0] != o {
		t.Errorf("first bar %s, want orange %s", d.Colors[0], o)
	}
	d = readData(dataBar, "Bar chart of temperatures: Jan 5, Apr 14, Jul 28, Oct 16, blue to red")
	blue, _ := colorOf("blue")
	red, _ := colorOf("red")
	if d.Colors != nil || len(d.Scale) != 2 || d.Scale[0] != blue || d.Scale[1] != red {
		t.Errorf("colors %v scale %v, want no colour per entry and a scale from %s to %s", d.Colors, d.Scale, blue, red)
	}
	if d := readData(dataBar, "Q1 12, Q2 18, Q3 25, Q4 31"); d.Colors != nil {
		t.Errorf("colors %v for a list without colour words, want none", d.Colors)
	}
}

// TestDataInWords: values said in words reach the chart with their labels — hedges and
// linking verbs between a label and its number, fractions and the rest shared evenly,
// a change "from N in A to M in B".
func TestDataInWords(t *testing.T) {
	for _, c := range []struct {
		prompt string
		labels []string
		values []float64
	}{
		{"Bar chart of coffee sales by season: spring was about 1,200 cups, summer dipped to 800, autumn climbed to 1,500 and winter was the highest at 2,100.",
			[]string{"spring", "summer", "autumn", "winter"}, []float64{1200, 800, 1500, 2100}},
		{"Pie chart of our week: meetings take about a third, coding roughly half, and the rest is split evenly between review and support.",
			[]string{"meetings", "coding", "review", "support"}, []float64{33, 50, 9, 9}},
		{"A line chart: visitors fell from 90 in March to 40 in May",
			[]string{"March", "May"}, []float64{90, 40}},
		{"A bar chart: Q1 12, Q2 18, Q3 25", []string{"Q1", "Q2", "Q3"}, []float64{12, 18, 25}},
		{"Wind and solar went from 12% of our electricity in 2010 to 31% in 2020 and 48% in 2024. Three bars filling up.",
			[]string{"2010", "2020", "2024"}, []float64{12, 31, 48}},
		{"Members grew to 40 by March, then 65 by June and 90 by September, as a bar chart",
			[]string{"March", "June", "September"}, []float64{40, 65, 90}},
	} {
		ds := readAllData(c.prompt)
		if len(ds) == 0 {
			t.Errorf("%q: no data read", c.prompt)
			continue
		}
		if d := ds[0]; !reflect.DeepEqual(d.Labels, c.labels) || !reflect.DeepEqual(d.Values, c.values) {
			t.Errorf("%q: %q %v, want %q %v", c.prompt, d.Labels, d.Values, c.labels, c.values)
		}
	}
}

// A checklist's parts named on their own ("each box", "a green tick") are the checklist,
// its colour theirs; a last item left open keeps its box empty to the end.
func TestChecklistPartsAndOpenItem(t *testing.T) {
	b := analyze("A moving checklist - Book the van, Pack the kitchen, Forward mail - each box gets a green tick, last one still open")
	var cl *subject
	for i := range b.Subjects {
		if b.Subjects[i].Data != nil && b.Subjects[i].Data.Kind == dataChecklist {
			cl = &b.Subjects[i]
		} else if b.Subjects[i].Kind != "" {
			t.Errorf("subject %q drawn beside the checklist", b.Subjects[i].Noun)
		}
	}
	if cl == nil {
		t.Fatal("no checklist")
	}
	if want := []string{"Book the van", "Pack the kitchen", "Forward mail"}; !reflect.DeepEqual(cl.Data.Items, want) {
		t.Errorf("items %q, want %q", cl.Data.Items, want)
	}
	if cl.Color != "#43a047" || cl.Data.Open != 1 {
		t.Errorf("colour %q open %d, want the tick's green and one open", cl.Color, cl.Data.Open)
	}
}

// A colour for a run of values at one end colours those values.
func TestRunColors(t *testing.T) {
	got := runColors("Jan 182, Feb 175, Mar 160, Apr 64, May 41, Jun 38. Make the first three grey and the last three green", 6)
	g, gr := namedColors["grey"], namedColors["green"]
	if want := []string{g, g, g, gr, gr, gr}; !reflect.DeepEqual(got, want) {
		t.Errorf("runColors = %v, want %v", got, want)
	}
	if runColors("the first bar grows", 3) != nil {
		t.Error("no colour named, no run")
	}
}
