package builtin

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestNamedChartKinds(t *testing.T) {
	tests := map[string][]string{
		"Waterfall chart of our profit bridge: from €12.4M, +1.8M new customers, −0.9M lost contract, to €13.3M": {dataWaterfall},
		"Revenue bridge from $40M to $46M: +$4M new markets, +$3M pricing, -$1M churn":                           {dataWaterfall},
		"A chart from 120 users: +30 signups, +15 referrals, −20 churned, −5 deleted, to 140 users":              {dataWaterfall},
		"Radar chart comparing Product A and Product B on six attributes":                                        {dataRadar},
		"a spider graph of my skills: design 8, code 6, writing 7":                                               {dataRadar},
		"Heatmap of how busy the gym is, weekdays by hour":                                                       {dataHeatmap},
		"a heat map of sales by region and month, then a counter to 10,000":                                      {dataHeatmap, dataCounter},
		// Not charts: a waterfall in a forest, a radar screen, a spider diagram (a mind map).
		"A waterfall pours into a pool in a forest":  nil,
		"A radar screen whose hand sweeps around":    nil,
		"spider diagram about healthy habits: sleep": nil,
	}
	for in, want := range tests {
		if got := dataKinds(in); !reflect.DeepEqual(got, want) {
			t.Errorf("dataKinds(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestReadWaterfall(t *testing.T) {
	tests := []struct {
		in             string
		labels         []string
		values         []float64
		prefix, suffix string
	}{
		{"Waterfall chart of our profit bridge: from €12.4M last year, +1.8M new customers, −0.9M lost contract, +0.6M price increase, −0.3M higher costs, to €13.6M this year",
			[]string{"Last year", "New customers", "Lost contract", "Price increase", "Higher costs", "This year"},
			[]float64{12.4, 1.8, -0.9, 0.6, -0.3, 13.6}, "€", "M"},
		// Labels before the totals' numbers, signed changes with their currency.
		{"Waterfall chart for the CFO update. Start bar: FY25 operating profit €12.4M. Then +€3.1M price increases, +€1.8M volume, −€2.2M raw materials, ending on FY26 operating profit €15.1M.",
			[]string{"FY25 operating profit", "Price increases", "Volume", "Raw materials", "FY26 operating profit"},
			[]float64{12.4, 3.1, 1.8, -2.2, 15.1}, "€", "M"},
		// Changes said in words; a bridge that does not add up gets its "Other".
		{"Revenue bridge from $40M to $46M: up $4M new markets, up $3M pricing, down $2M churn, then $46M",
			[]string{"Start", "New markets", "Pricing", "Churn", "Other", "End"},
			[]float64{40, 4, 3, -2, 1, 46}, "$", "M"},
		// No end total: the bridge ends where its changes lead.
		{"waterfall chart from 120 users: +30 signups, +15 referrals, -20 churned",
			[]string{"Users", "Signups", "Referrals", "Churned", "End"},
			[]float64{120, 30, 15, -20, 145}, "", ""},
	}
	for _, tc := range tests {
		d := readData(dataWaterfall, tc.in)
		if !reflect.DeepEqual(d.Labels, tc.labels) || !reflect.DeepEqual(d.Values, tc.values) || d.Prefix != tc.prefix || d.Suffix != tc.suffix {
			t.Errorf("%q:\n got %q %v %q %q\nwant %q %v %q %q", tc.in, d.Labels, d.Values, d.Prefix, d.Suffix, tc.labels, tc.values, tc.prefix, tc.suffix)
		}
	}
	d := readData(dataWaterfall, "Waterfall chart: from €10M, +€2M sales, −€1M costs, to €11M. Green for increases, red for decreases, grey for the two totals.")
	want := []string{namedColors["grey"], namedColors["green"], namedColors["red"], namedColors["grey"]}
	if !reflect.DeepEqual(d.Colors, want) {
		t.Errorf("bridge colours %q, want %q", d.Colors, want)
	}
}

func TestReadRadar(t *testing.T) {
	tests := []struct {
		in     string
		axes   []string
		series []string
		values []float64
		top    float64
	}{
		// Per axis, two scores each, the series named by what is compared.
		{"Radar chart comparing Product A and Product B on six attributes: Speed 8 and 6, Price 5 and 9, Battery 7 and 8, Design 9 and 6, Camera 6 and 7, Support 7 and 5",
			[]string{"Speed", "Price", "Battery", "Design", "Camera", "Support"}, []string{"Product A", "Product B"},
			[]float64{8, 5, 7, 9, 6, 7, 6, 9, 8, 6, 7, 5}, 0},
		// Per series, the axes listed, the scale said.
		{"radar chart comparing our two trail shoes, Ridgeline 3 vs Ridgeline 3 GTX. axes: grip, cushioning, lightness, breathability, waterproofing, durability (score 1-10). Ridgeline 3 = 8,7,9,9,3,7. GTX = 8,7,6,4,10,8.",
			[]string{"Grip", "Cushioning", "Lightness", "Breathability", "Waterproofing", "Durability"}, []string{"Ridgeline 3", "GTX"},
			[]float64{8, 7, 9, 9, 3, 7, 8, 7, 6, 4, 10, 8}, 10},
		// One series out of 5.
		{"a spider graph of my skills out of 5: design 4, code 3, writing 5, speaking 2",
			[]string{"Design", "Code", "Writing", "Speaking"}, nil, []float64{4, 3, 5, 2}, 5},
	}
	for _, tc := range tests {
		d := readData(dataRadar, tc.in)
		if !reflect.DeepEqual(d.Labels, tc.axes) || !reflect.DeepEqual(d.Series, tc.series) || !reflect.DeepEqual(d.Values, tc.values) || d.To != tc.top {
			t.Errorf("%q:\n got %q %q %v top %g\nwant %q %q %v top %g", tc.in, d.Labels, d.Series, d.Values, d.To, tc.axes, tc.series, tc.values, tc.top)
		}
	}
	if d := readData(dataRadar, "radar chart of A = 1,2,3 and B = 3,2,1 in orange and slate blue"); len(d.Colors) != 2 || d.Colors[0] != namedColors["orange"] {
		t.Errorf("series colours %q, want orange and a blue", d.Colors)
	}
}

func TestReadHeatmap(t *testing.T) {
	tests := []struct {
		in         string
		rows, cols []string
		values     []float64 // nil: levels, checked below
		count      int
	}{
		// Rows written with their values, columns a list of times.
		{"Heatmap of café visitors: Mon: 12, 30, 45; Tue: 10, 28, 50; Wed: 14, 35, 48 at 8am, 12pm, 4pm, highlight the busiest time",
			[]string{"Mon", "Tue", "Wed"}, []string{"8am", "12pm", "4pm"}, []float64{12, 30, 45, 10, 28, 50, 14, 35, 48}, 1},
		// Blocks over a range, days down the side, levels from words, the best time of a
		// busyness grid is its quietest.
		{"Popular-times heatmap for the pool. Grid with Mon–Sun down the left side and 2-hour blocks from 6am to 10pm across the top. Busiest: weekdays 6–8am and 4–8pm. Quietest: weekdays 10am–2pm. Outline the best time to swim.",
			dayNames, []string{"6am", "8am", "10am", "12pm", "2pm", "4pm", "6pm", "8pm"}, nil, -10},
		// Days across the top swap the grid.
		{"heat map of gym traffic with Mon–Fri across the top and hours down the left side from 6am to 10am",
			[]string{"6am", "7am", "8am", "9am"}, []string{"Mon", "Tue", "Wed", "Thu", "Fri"}, nil, 0},
	}
	for _, tc := range tests {
		d := readData(dataHeatmap, tc.in)
		if !reflect.DeepEqual(d.Series, tc.rows) || !reflect.DeepEqual(d.Labels, tc.cols) || d.Count != tc.count || len(d.Values) != len(tc.rows)*len(tc.cols) {
			t.Errorf("%q:\n got rows %q cols %q count %d, %d values\nwant %q %q %d", tc.in, d.Series, d.Labels, d.Count, len(d.Values), tc.rows, tc.cols, tc.count)
			continue
		}
		if tc.values != nil && !reflect.DeepEqual(d.Values, tc.values) {
			t.Errorf("%q: values %v, want %v", tc.in, d.Values, tc.values)
		}
	}
	// The levels follow the words: Monday 6am is busiest, Tuesday 10am quietest, and
	// Saturday (no words) in between.
	d := readData(dataHeatmap, tests[1].in)
	at := func(row, col int) float64 { return d.Values[row*len(d.Labels)+col] }
	if !(at(0, 0) > at(5, 0) && at(5, 0) > at(1, 2)) || at(4, 5) != at(0, 0) {
		t.Errorf("levels do not follow the words: Mon 6am %g, Sat 6am %g, Tue 10am %g, Fri 4pm %g", at(0, 0), at(5, 0), at(1, 2), at(4, 5))
	}
	if !reflect.DeepEqual(d.Items, []string{"Quiet", "Busy"}) {
		t.Errorf("scale words %q, want quiet to busy", d.Items)
	}
	if d := readData(dataHeatmap, "heatmap from pale blue (quiet) to dark navy (packed), Mon–Fri"); len(d.Scale) != 2 || !reflect.DeepEqual(d.Items, []string{"Quiet", "Packed"}) {
		t.Errorf("scale %q words %q, want two colours, quiet and packed", d.Scale, d.Items)
	}
}

func TestHourSpan(t *testing.T) {
	for in, want := range map[string][2]int{
		"6–8am": {6, 8}, "4–8pm": {16, 20}, "10am–2pm": {10, 14}, "10–2": {10, 14}, "Sunday evening": {17, 22}, "from 6am to 10pm": {6, 22},
	} {
		if a, b, ok := hourSpan(in); !ok || a != want[0] || b != want[1] {
			t.Errorf("hourSpan(%q) = %d, %d, %v, want %v", in, a, b, ok, want)
		}
	}
}

// TestNamedChartTable feeds every row of the table of charts named by their shape its
// own example: the row's kind is the one chosen, alone, and no genre layout takes it.
func TestNamedChartTable(t *testing.T) {
	seen := map[string]bool{}
	for _, row := range namedCharts {
		if seen[row.Kind] {
			t.Errorf("row %q appears twice", row.Kind)
		}
		seen[row.Kind] = true
		if got := dataKinds(row.Example); !reflect.DeepEqual(got, []string{row.Kind}) {
			t.Errorf("the example of %q selects %v", row.Kind, got)
		}
		if g := detectGenre(row.Example); g != nil {
			t.Errorf("the example of %q selects the %s layout", row.Kind, g.Name)
		}
	}
}

// TestShapeChartCues: each kind is chosen by the words of its class however a prompt
// words it, and not by a prompt that only shares a word with it.
func TestShapeChartCues(t *testing.T) {
	tests := map[string][]string{
		"scatterplot with about 20 dots roughly going up, trend line in orange, dots pop in one by one":                        {dataScatter},
		"Bubble chart of countries: GDP per person vs life expectancy, bubbles sized by population: (12, 71, 30), (45, 80, 8)": {dataScatter},
		"Show the correlation between ice cream sales and temperature as dots, no correlation":                                 {dataScatter},
		"Plot test score against hours studied as points: (1, 50), (4, 66), (7, 80)":                                           {dataScatter},
		"A tree map of where my budget goes: Rent 45%, Food 20%, Transport 12%, Fun 8%, Savings 15%":                           {dataTreemap},
		"treemap: App Store 4.2, Search 12.5, Cloud 9.1, Hardware 6.3 (billions)":                                              {dataTreemap},
		"Tree-map of disk usage — Photos 120 GB, Videos 310 GB, Apps 64 GB, Music 22 GB":                                       {dataTreemap},
		"Age pyramid morphing from the 1970 shape, wide bottom and narrow top, to the 2024 shape, top-heavy":                   {dataPyramid},
		"Butterfly chart comparing two teams: Team A on the left, Team B on the right. Passing 82 / 75, Shots 14 / 9":          {dataPyramid},
		"Tornado chart of sensitivity: Price 12 and 9, Volume 7 and 6, Cost 15 and 11":                                         {dataPyramid},
		// Not these charts: bars of two series, a map with a tree, the pyramids of Giza,
		// a butterfly, a sentence about correlation, a tornado.
		"A bar chart of sales vs costs: Q1 12, Q2 18, Q3 25": {dataBar},
		"A tree map of the park with paths and benches":      nil,
		"The pyramids of Giza at sunset, a camel walks by":   nil,
		"A butterfly lands on a flower, then flies away":     nil,
		"Correlation is not causation, says the title":       nil,
		"A tornado spins across the plains towards a barn":   nil,
		"A line graph of sales vs costs with 12 data points": {dataLine},
	}
	for in, want := range tests {
		if got := dataKinds(in); !reflect.DeepEqual(got, want) {
			t.Errorf("dataKinds(%q) = %v, want %v", in, got, want)
		}
	}
}

func TestReadScatter(t *testing.T) {
	d := readData(dataScatter, namedCharts[3].Example)
	if !reflect.DeepEqual(d.Labels, []string{"Hours studied", "Test score"}) || !reflect.DeepEqual(d.Range, []float64{0, 10, 0, 100}) {
		t.Errorf("axes %q range %v, want hours studied 0–10 by test score 0–100", d.Labels, d.Range)
	}
	if len(d.Values) != 14 || d.Count != 2 || d.Values[0] != 1 || d.Values[1] != 52 || d.Values[13] != 91 {
		t.Errorf("points %v (count %d), want the seven pairs as written", d.Values, d.Count)
	}
	// The line of best fit is the least-squares line of those points, in the red asked
	// for; the label is the prompt's own.
	if len(d.Fit) != 2 || math.Abs(d.Fit[0]-4.8802) > 1e-3 || math.Abs(d.Fit[1]-46.0104) > 1e-3 {
		t.Errorf("fit %v, want y = 4.880x + 46.010", d.Fit)
	}
	if len(d.Colors) != 2 || d.Colors[1] != namedColors["red"] || d.Label != "r = 0.82" || d.Note != "" {
		t.Errorf("fit colour %q, label %q, note %q", d.Colors, d.Label, d.Note)
	}
	// Bubbles: triples, the axes named either side of "vs" ("per" inside a name).
	d = readData(dataScatter, "Bubble chart of countries: GDP per person vs life expectancy, bubbles sized by population: (12, 71, 30), (45, 80, 8), (3, 62, 50)")
	if d.Count != 3 || len(d.Values) != 9 || !reflect.DeepEqual(d.Labels, []string{"GDP per person", "Life expectancy"}) {
		t.Errorf("bubbles: count %d values %v axes %q", d.Count, d.Values, d.Labels)
	}
	// "Y against X" puts Y upright.
	if d = readData(dataScatter, "Plot test score against hours studied as points: (1, 50), (4, 66), (7, 80)"); !reflect.DeepEqual(d.Labels, []string{"Hours studied", "Test score"}) {
		t.Errorf("against: axes %q, want hours studied across", d.Labels)
	}
	// No points: as many as asked, following the words' trend, the same every time,
	// and said to be made up; no correlation label is invented.
	for in, sign := range map[string]float64{
		"scatterplot with about 20 dots roughly going up, trend line in orange":   1,
		"scatter plot of 15 points showing a negative correlation, best fit line": -1,
		"scatter chart, no correlation at all, 30 dots":                           0,
	} {
		d := readData(dataScatter, in)
		fit := leastSquares(d.Values, d.Count)
		n := len(d.Values) / 2
		want := map[float64]int{1: 20, -1: 15, 0: 30}[sign]
		if n != want || d.Note == "" || d.Label != "" {
			t.Errorf("%q: %d points (want %d), note %q, label %q", in, n, want, d.Note, d.Label)
		}
		if sign != 0 && fit[0]*sign < 2 || sign == 0 && math.Abs(fit[0]) > 3 {
			t.Errorf("%q: slope %g does not follow the words", in, fit[0])
		}
		if again := readData(dataScatter, in); !reflect.DeepEqual(again.Values, d.Values) {
			t.Errorf("%q: points differ between two readings", in)
		}
	}
	if d := readData(dataScatter, "scatterplot with about 20 dots, dots pop in one by one"); !d.OneByOne || d.Fit != nil {
		t.Errorf("one by one %v, fit %v: want dots in turn and no line unasked", d.OneByOne, d.Fit)
	}
}

func TestReadTreemap(t *testing.T) {
	d := readData(dataTreemap, namedCharts[4].Example)
	if !reflect.DeepEqual(d.Labels, []string{"Cloud", "Devices", "Services", "Licensing", "Ads"}) || !reflect.DeepEqual(d.Values, []float64{19.2, 11.5, 8.3, 4.1, 2.6}) || d.Prefix != "$" || d.Suffix != "M" {
		t.Errorf("blocks %q %v %q %q", d.Labels, d.Values, d.Prefix, d.Suffix)
	}
	if d.To != 45.7 || !d.OneByOne || d.Title != "Revenue by product" {
		t.Errorf("total %g, largest first %v, title %q", d.To, d.OneByOne, d.Title)
	}
	d = readData(dataTreemap, "A tree map of where my budget goes: Rent 45%, Food 20%, Transport 12%, Fun 8%, Savings 15%")
	if len(d.Values) != 5 || d.Suffix != "%" || d.To != 0 || d.OneByOne || d.Note != "" {
		t.Errorf("percentages: %v %q total %g", d.Values, d.Suffix, d.To)
	}
	if d := readData(dataTreemap, "a treemap of our product lines"); d.Note == "" || len(d.Values) < 2 {
		t.Errorf("no figures: %v with note %q, want made-up blocks said to be so", d.Values, d.Note)
	}
}

func TestReadPyramid(t *testing.T) {
	d := readData(dataPyramid, namedCharts[5].Example)
	// Age bands stand oldest at the top; each side's run follows them.
	if !reflect.DeepEqual(d.Labels, []string{"80+", "60–79", "40–59", "20–39", "0–19"}) || !reflect.DeepEqual(d.Series, []string{"Men", "Women"}) {
		t.Errorf("bands %q sides %q", d.Labels, d.Series)
	}
	if !reflect.DeepEqual(d.Values, []float64{2.1, 9.6, 13.4, 13.6, 11.9, 3, 10.1, 12.8, 13, 11.3}) {
		t.Errorf("values %v", d.Values)
	}
	if !reflect.DeepEqual(d.Colors, []string{namedColors["blue"], namedColors["orange"]}) || d.Note != "" {
		t.Errorf("side colours %q, note %q", d.Colors, d.Note)
	}
	// Two periods with figures for both: four runs and the years to count between.
	d = readData(dataPyramid, "population pyramid from 1990 to 2020. 1990 men: 9, 8, 7, 5, 3; 1990 women: 9, 8, 7, 6, 4; 2020 men: 6, 7, 7, 6, 5; 2020 women: 6, 7, 7, 7, 6")
	if len(d.Values) != 20 || d.From != 1990 || d.To != 2020 || !reflect.DeepEqual(d.Series, []string{"Men", "Women"}) || d.Values[4] != 9 || d.Values[15] != 6 {
		t.Errorf("morph: %v %g→%g sides %q", d.Values, d.From, d.To, d.Series)
	}
	// Shapes told in words: a generic shape per period, named, and said to be no data.
	d = readData(dataPyramid, "Age pyramid morphing from the 1970 shape, wide bottom and narrow top, to the 2024 shape, top-heavy")
	if !reflect.DeepEqual(d.Items, []string{"Wide base", "Top-heavy"}) || d.From != 1970 || d.To != 2024 || !strings.Contains(d.Note, "not data") {
		t.Errorf("shapes %q %g→%g note %q", d.Items, d.From, d.To, d.Note)
	}
	k := len(d.Labels)
	if len(d.Values) != 4*k || !(d.Values[k-1] > d.Values[0]) || !(d.Values[2*k] > d.Values[3*k-1]) {
		t.Errorf("the first shape is not wide at its base or the second not top-heavy: %v", d.Values)
	}
	// A butterfly's categories stay as listed, its sides named by where they go.
	d = readData(dataPyramid, "Butterfly chart comparing two teams: Team A on the left, Team B on the right. Passing 82 / 75, Shots 14 / 9, Tackles 20 / 25")
	if !reflect.DeepEqual(d.Labels, []string{"Passing", "Shots", "Tackles"}) || !reflect.DeepEqual(d.Series, []string{"Team A", "Team B"}) || !reflect.DeepEqual(d.Values, []float64{82, 14, 20, 75, 9, 25}) {
		t.Errorf("butterfly: %q %q %v", d.Labels, d.Series, d.Values)
	}
	// A tornado's widest band stands at the top.
	if d := readData(dataPyramid, "Tornado chart of sensitivity: Price 12 and 9, Volume 7 and 6, Cost 15 and 11"); !reflect.DeepEqual(d.Labels, []string{"Cost", "Price", "Volume"}) {
		t.Errorf("tornado bands %q", d.Labels)
	}
	// "0–9 … 90+" is every band between.
	if got := ageBands("bands 0–9 … 90+", 0); len(got) != 10 || got[9] != "90+" || got[4] != "40–49" {
		t.Errorf("ageBands = %q", got)
	}
}

// TestPyramidShapes reads every row's example as that shape.
func TestPyramidShapes(t *testing.T) {
	for k, sh := range pyramidShapes {
		if got := pyramidShape(sh.Example); got != k {
			t.Errorf("%q reads as shape %d, want %d (%s)", sh.Example, got, k, sh.Name)
		}
	}
}
