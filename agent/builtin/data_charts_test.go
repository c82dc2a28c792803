package builtin

import (
	"reflect"
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
