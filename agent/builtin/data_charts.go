package builtin

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// The charts people name by their shape: a waterfall (a bridge from one total to
// another through signed changes), a radar (series of scores on 3–8 axes), a heatmap
// (a grid of rows by columns coloured by value), a scatter plot (dots on two value
// axes), a treemap (a whole split into blocks by size) and a population pyramid (two
// series of bars going left and right from a column of bands). Each is chosen by the
// words of its class (a bridge, a spider chart, a heat map) in the table below; their
// data are read here and in data_charts_more.go.

const (
	dataWaterfall = "waterfall"
	dataRadar     = "radar"
	dataHeatmap   = "heatmap"
	dataScatter   = "scatter"
	dataTreemap   = "treemap"
	dataPyramid   = "pyramid"
)

var (
	waterfallRE = regexp.MustCompile(`(?i)\bwaterfall\s+(?:chart|graph|diagram|plot|visual\w*)s?\b|\bbridge\s+(?:chart|graph)s?\b|\b(?:profit|revenue|sales|cash|ebitda|ebit|budget|margin|earnings|income|cost|costs|price|value|headcount|volume|p&l)\s+(?:bridge|walk)\b`)
	// A spider diagram is a mind map (the genre table's): only a chart, graph or plot of
	// a spider is a radar.
	radarRE   = regexp.MustCompile(`(?i)\b(?:radar|polar)\s+(?:chart|graph|plot|diagram)s?\b|\b(?:spider|spider-?web|web|star)\s+(?:chart|graph|plot)s?\b`)
	heatmapRE = regexp.MustCompile(`(?i)\bheat[\s-]?maps?\b|\bheat\s+(?:grid|chart|table)s?\b|\bpunch\s?card\s+(?:chart|graph)s?\b`)
)

// namedChartRow is one row of the table of charts named by their shape.
type namedChartRow struct {
	Kind string
	// Cues select the row: a class of words that names the chart, never a word of one
	// prompt. Fits, when set, must hold too (the cue alone may be something else).
	Cues    *regexp.Regexp
	Fits    func(prompt string) bool
	Example string
}

// namedCharts is the table of charts named by their shape; the earliest cue in the
// prompt wins. TestNamedChartTable feeds every row its example.
var namedCharts = []namedChartRow{
	{Kind: dataWaterfall, Cues: waterfallRE,
		Example: "Waterfall chart of our profit bridge: from €12.4M, +1.8M new customers, −0.9M lost contract, to €13.3M"},
	{Kind: dataRadar, Cues: radarRE,
		Example: "a spider graph of my skills: design 8, code 6, writing 7"},
	{Kind: dataHeatmap, Cues: heatmapRE,
		Example: "Heatmap of how busy the gym is, weekdays by hour"},
	{Kind: dataScatter, Cues: scatterRE, Fits: scatterFits,
		Example: "Scatter plot of hours studied vs test score, x axis 0-10, y axis 0-100: (1, 52), (2, 55), (3, 61), (5, 70), (6, 74), (8, 85), (9, 91), with a red line of best fit and r = 0.82"},
	{Kind: dataTreemap, Cues: treemapRE, Fits: treemapFits,
		Example: "Treemap of our revenue by product: Cloud $19.2M, Devices $11.5M, Services $8.3M, Licensing $4.1M, Ads $2.6M, blocks appearing largest first, with the total"},
	{Kind: dataPyramid, Cues: pyramidRE,
		Example: "Population pyramid of Norway, men on the left in blue and women on the right in orange: 0–19: 11.9 and 11.3, 20–39: 13.6 and 13.0, 40–59: 13.4 and 12.8, 60–79: 9.6 and 10.1, 80+: 2.1 and 3.0 (% of the population)"},
}

// ShapeCharts lists the table of charts named by their shape as others read it (the
// prompt suite's sheet of examples): each row's kind and example.
func ShapeCharts() []Genre {
	out := make([]Genre, len(namedCharts))
	for i, c := range namedCharts {
		out[i] = Genre{Name: c.Kind, Example: c.Example}
	}
	return out
}

// shapeChart reports a kind of the table: a chart drawn by its shape, whose parts'
// words (axes, blocks, dots) are its own drawing.
func shapeChart(kind string) bool {
	for _, c := range namedCharts {
		if c.Kind == kind {
			return true
		}
	}
	return false
}

// namedChart is the chart a prompt names by its shape, and where, or "".
func namedChart(s string) (string, int) {
	kind, at := "", -1
	for _, c := range namedCharts {
		if loc := c.Cues.FindStringIndex(s); loc != nil && (at < 0 || loc[0] < at) && (c.Fits == nil || c.Fits(s)) {
			kind, at = c.Kind, loc[0]
		}
	}
	if kind == "" && chartRE.MatchString(s) && bridgeShape(s) {
		// "A chart from €12.4M: +1.8M new customers, −0.9M lost contract… to €13.6M":
		// totals with signed changes between them are a bridge whatever it is called.
		kind, at = dataWaterfall, chartRE.FindStringIndex(s)[0]
	}
	return kind, at
}

// bridgeShape reports numbers shaped like a bridge: a total, then two signed changes
// or more, both ways ("from 120: +30, +15, −20"); a list of plain values is not one.
func bridgeShape(s string) bool {
	total, ups, downs := false, 0, 0
	for _, st := range bridgeSteps(s) {
		switch {
		case st.Sign == 0 && ups+downs == 0:
			total = true
		case st.Sign > 0 && total:
			ups++
		case st.Sign < 0 && total:
			downs++
		}
	}
	return ups > 0 && downs > 0 && ups+downs >= 2
}

// A bridgeStep is one number of a waterfall as written: a total or a signed change.
type bridgeStep struct {
	numTok
	Sign  int // +1, -1 for a change; 0 for a number written without one (a total)
	Label string
}

var (
	// signWordRE: the word before a number that says it is a change, and which way.
	signWordRE  = regexp.MustCompile(`(?i)\b(up|plus|gain(?:ed|s)?|add(?:ed|s)?|grew|rose|increase[sd]?|down|minus|less|lost|loses|lose|drop(?:ped|s)?|fell|cut|decrease[sd]?)\s*(?:by\s*)?$`)
	minusWordRE = regexp.MustCompile(`(?i)^(?:down|minus|less|lost|loses|lose|drop|dropped|drops|fell|cut|decrease|decreased|decreases)$`)
	// stepSepRE ends the words of one step: list punctuation or a sentence's end.
	stepSepRE = regexp.MustCompile(`[,;:\n(]|\.(?:\s|$)|\bthen\b|\band\b|\bplus\b`)
	// stepFillRE are words around a step's number that name no part of it.
	stepFillRE = regexp.MustCompile(`(?i)^(?:(?:from|to|then|and|plus|minus|up|down|by|at|on|of|in|a|an|the|with|ending|ends?|end|closing|starting|starts?|start|begins?|beginning|opening|bar|total|finally|landing|lands?)\s+)+|(?:\s+(?:from|to|then|and|at|on|of|in|by|with|ending|ends?|landing|lands?|bar))+$`)
)

// bridgeSteps reads the numbers of a bridge in order, each with its sign and label:
// "+1.8M new customers", "−€0.9M lost contract", "down 0.3M on costs"; years and
// counts of the video are not steps.
func bridgeSteps(s string) []bridgeStep {
	var out []bridgeStep
	for _, n := range numbers(s) {
		if n.Cur == "" && n.Unit == "" && !n.Pct && n.Value >= 1900 && n.Value <= 2100 && n.Value == math.Trunc(n.Value) {
			continue // a year
		}
		st := bridgeStep{numTok: n}
		before := strings.TrimRight(s[:n.Start], " ")
		switch r := lastRune(before); {
		case r == '+':
			st.Sign = 1
		case r == '-' || r == '−' || r == '–':
			// A dash right before a number is a minus; a range's dash ("6–8") has a digit
			// before it.
			b := strings.TrimRight(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(before, "-"), "−"), "–"), " ")
			if d := lastRune(b); d < '0' || d > '9' {
				st.Sign = -1
			}
		default:
			if m := signWordRE.FindStringSubmatch(before); m != nil {
				st.Sign = 1
				if minusWordRE.MatchString(strings.ToLower(m[1])) {
					st.Sign = -1
				}
			}
		}
		st.Label = stepLabel(s, n)
		out = append(out, st)
	}
	return out
}

// stepLabel names a step by the words after its number up to the next separator
// ("+1.8M new customers,"), else the words before it ("FY25 operating profit €12.4M").
func stepLabel(s string, n numTok) string {
	clean := func(w string) string {
		w = strings.TrimSpace(stepFillRE.ReplaceAllString(strings.TrimSpace(w), ""))
		w = strings.Trim(w, " .:=–—-+−\"'“”")
		if f := strings.Fields(w); len(f) > 4 || len(f) == 0 || strings.ContainsAny(w, "0123456789€$£%") && len(f) > 3 {
			if len(f) > 4 {
				return strings.Join(f[len(f)-4:], " ")
			}
			return ""
		}
		return w
	}
	after := s[n.End:]
	if loc := stepSepRE.FindStringIndex(after); loc != nil {
		after = after[:loc[0]]
	}
	if strings.ContainsAny(after, "+−") {
		after = after[:strings.IndexAny(after, "+−")]
	}
	if w := clean(after); w != "" && !strings.ContainsAny(w, "0123456789") {
		return capitalize(w)
	}
	before := s[:n.Start]
	if locs := stepSepRE.FindAllStringIndex(before, -1); len(locs) > 0 {
		before = before[locs[len(locs)-1][1]:]
	}
	before = signWordRE.ReplaceAllString(strings.TrimRight(before, " +-−–"), "")
	if regexp.MustCompile(`(?i)\b(?:bridge|walk|waterfall|chart|graph)\b`).MatchString(before) {
		return "" // the chart's name ("Revenue bridge from $40M") is not its first bar's
	}
	return capitalize(clean(before))
}

// readWaterfall reads a bridge: the first number without a sign is the start total,
// the signed ones are the changes, the last unsigned number after them the end total.
// A bridge that does not add up gets an "Other" change, so the end bar stands where the
// prompt says; one with no end total ends where its changes lead.
func readWaterfall(d *dataSpec, s string) {
	steps := bridgeSteps(s)
	first, last := -1, -1
	for i, st := range steps {
		if st.Sign != 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		// No signed numbers: the ones between the first and the last are ups.
		if len(steps) >= 3 {
			first, last = 1, len(steps)-2
			for i := first; i <= last; i++ {
				steps[i].Sign = 1
			}
		} else {
			d.Values = []float64{100, 20, -10, 15, 125}
			d.Labels = []string{"Start", "Up", "Down", "Up", "End"}
			d.Title = shapeTitle(s, len(s))
			return
		}
	}
	var start, end *bridgeStep
	for i := 0; i < first; i++ {
		if steps[i].Sign != 0 {
			continue
		}
		if start == nil {
			start = &steps[i]
		} else if fromToGapRE.MatchString(s[start.End:steps[i].Start]) {
			end = &steps[i] // "from $40M to $46M: up $4M …"
		}
	}
	for i := last + 1; i < len(steps); i++ {
		if steps[i].Sign == 0 {
			end = &steps[i]
		}
	}
	// The totals set the unit; a change written without one ("+1.8M" beside "€12.4M")
	// is in the totals' unit, one in another unit is converted to it.
	unit := steps[first].numTok
	if start != nil {
		unit = start.numTok
	}
	in := func(n numTok) float64 {
		if n.Unit == "" || n.Scale == unit.Scale {
			return n.Value
		}
		return n.Value * n.Scale / unit.Scale
	}
	d.Prefix, d.Suffix = unit.Cur, unit.Unit
	if unit.Pct {
		d.Suffix = "%"
	}
	sum := 0.0
	startV := 0.0
	if start != nil {
		startV = in(start.numTok)
	}
	d.Values = append(d.Values, startV)
	d.Labels = append(d.Labels, orDefault(labelOf(start), "Start"))
	for i := first; i <= last; i++ {
		if steps[i].Sign == 0 {
			continue
		}
		v := float64(steps[i].Sign) * in(steps[i].numTok)
		sum += v
		d.Values = append(d.Values, v)
		d.Labels = append(d.Labels, orDefault(steps[i].Label, "Change"))
	}
	endV := startV + sum
	if end != nil {
		if miss := in(end.numTok) - endV; math.Abs(miss) > 0.005*math.Max(1, math.Abs(endV)) {
			d.Values = append(d.Values, round3(miss))
			d.Labels = append(d.Labels, "Other")
		}
		endV = in(end.numTok)
	}
	d.Values = append(d.Values, round3(endV))
	d.Labels = append(d.Labels, orDefault(labelOf(end), "End"))
	d.Colors = bridgeColors(s, d.Values)
	d.Title = shapeTitle(s, steps[0].Start)
}

// shapeTitle is the title of a chart named by its shape: what the sentence naming it
// says it is of, up to its data or a colon ("Waterfall chart for the CFO update. Start
// bar: …" is "CFO update").
func shapeTitle(s string, dataAt int) string {
	_, at := namedChart(s)
	if at < 0 {
		return chartTitle(s, dataAt)
	}
	end := len(s)
	if loc := sentenceEndRE.FindStringIndex(s[at:]); loc != nil {
		end = at + loc[0]
	}
	if dataAt > at && dataAt < end {
		end = dataAt
	}
	head := s[:end]
	if i := strings.IndexAny(head[at:], ":"); i >= 0 {
		head = head[:at+i]
	}
	return chartTitle(head, len(head))
}

func labelOf(st *bridgeStep) string {
	if st == nil {
		return ""
	}
	return st.Label
}

// bridgeColorRE: a colour for a kind of bar of a bridge, either way round ("green for
// increases", "decreases in red", "grey for the two totals").
var bridgeColorRE = regexp.MustCompile(`(?i)\b([a-z]+(?:\s+[a-z]+)?)\s+(?:for|=|on)\s+(?:the\s+)?(?:two\s+|both\s+)?(increases?|ups?|gains?|rises?|positives?|growth|decreases?|downs?|falls?|losses|drops?|declines?|negatives?|totals?|start and end|ends)\b|\b(increases?|ups?|gains?|rises?|positives?|decreases?|downs?|falls?|losses|drops?|declines?|negatives?|totals?)\s+(?:in|=|as)\s+([a-z]+(?:\s+[a-z]+)?)`)

// bridgeColors colours a bridge's bars as the prompt asks: ups, downs and totals each
// their colour; "" where it names none (the runtime's green, red and the element's).
func bridgeColors(s string, vals []float64) []string {
	var up, down, total string
	for _, m := range bridgeColorRE.FindAllStringSubmatch(s, -1) {
		col, what := m[1], m[2]
		if m[3] != "" {
			col, what = m[4], m[3]
		}
		c, ok := colorPhrase(strings.ToLower(col))
		if !ok {
			continue
		}
		switch w := strings.ToLower(what); {
		case strings.HasPrefix(w, "total") || w == "start and end" || w == "ends":
			total = c
		case regexp.MustCompile(`^(?:decrease|down|fall|loss|drop|decline|negative)`).MatchString(w):
			down = c
		default:
			up = c
		}
	}
	if up == "" && down == "" && total == "" {
		return nil
	}
	out := make([]string, len(vals))
	for i, v := range vals {
		switch {
		case i == 0 || i == len(vals)-1:
			out[i] = total
		case v >= 0:
			out[i] = up
		default:
			out[i] = down
		}
	}
	return out
}

// colorPhrase reads "dark navy", "slate blue", "green": the colour of its last word,
// shaded by a modifier before it.
func colorPhrase(p string) (string, bool) {
	ws := strings.Fields(p)
	if len(ws) == 0 {
		return "", false
	}
	if c, ok := colorOf(ws[len(ws)-1]); ok {
		if len(ws) > 1 {
			if f, ok := colorModifiers[ws[len(ws)-2]]; ok {
				c = f(c)
			}
		}
		return c, true
	}
	if len(ws) > 1 {
		return colorOf(ws[0]) // "orange and…" cut short
	}
	return "", false
}

var (
	// axesListRE: the axes a radar names in a list ("axes: grip, cushioning, …",
	// "on six attributes: …"), up to the end of the clause.
	axesListRE = regexp.MustCompile(`(?i)\b(?:axes|attributes|dimensions|criteria|categories|skills|traits|stats|qualities|metrics|features|areas)\b\s*(?:\([^)]*\))?\s*(?:[:=—–-]|\bare\b|\bof\b)\s*([^.;(\n]+)`)
	// seriesRunRE: a series written as its name and its run of values ("GTX = 8,7,6,4,10,8",
	// "Mon: 3, 5, 9, 4").
	seriesRunRE = regexp.MustCompile(`([\p{L}][\p{L}\p{N}'’&.\- ]{0,40}?)\s*[=:]\s*(\d+(?:\.\d+)?(?:\s*[,/]\s*\d+(?:\.\d+)?){2,23})`)
	// axisPairRE: an axis with one score per series ("Speed 8 and 6", "Price: 5 / 9").
	axisPairRE = regexp.MustCompile(`([\p{L}][\p{L}'’&-]*(?:\s[\p{L}][\p{L}'’&-]*){0,2})\s*:?\s*(\d+(?:\.\d+)?)(?:\s*(?:and|&|/|vs\.?|versus|,)\s*(\d+(?:\.\d+)?)\b(?:\s*(?:[,;.]|$)))?`)
	// versusRE: the two things a chart compares ("comparing A and B", "A vs B").
	versusRE  = regexp.MustCompile(`\b(?i:compar(?:e|es|ing))\s+(?:[a-z]+\s+){0,4}?([A-Z][\p{L}\p{N}'’-]*(?:\s[A-Z\p{N}][\p{L}\p{N}'’-]*){0,3})\s+(?:and|vs\.?|versus|with|to)\s+([A-Z][\p{L}\p{N}'’-]*(?:\s[A-Z\p{N}][\p{L}\p{N}'’-]*){0,3})`)
	versusRE2 = regexp.MustCompile(`([A-Z][\p{L}\p{N}'’-]*(?:\s[A-Z\p{N}][\p{L}\p{N}'’-]*){0,3})\s+(?:vs\.?|versus)\s+([A-Z][\p{L}\p{N}'’-]*(?:\s[A-Z\p{N}][\p{L}\p{N}'’-]*){0,3})`)
	// scaleTopRE: the top of the scores' scale ("score 1-10", "out of 5", "/10").
	scaleTopRE = regexp.MustCompile(`(?i)\b(?:scores?|scale|rated|rating|ratings)\s*(?:of\s*|from\s*)?\d+\s*(?:-|–|to)\s*(\d+)\b|\bout of\s*(\d+)\b|\bscale of\s*(?:1\s*(?:-|–|to)\s*)?(\d+)\b|/\s*(10|5|100)\b`)
)

// readRadar reads a spider chart: its axes and a run of scores per series, written
// per series ("GTX = 8,7,6,4,10,8" with "axes: grip, …") or per axis ("Speed 8 and 6,
// Price 5 and 9…" comparing two things); the scale's top when the prompt says it.
func readRadar(d *dataSpec, s string) {
	var axes []string
	if m := axesListRE.FindStringSubmatch(s); m != nil {
		for _, a := range splitList(m[1]) {
			if len(strings.Fields(a)) <= 3 && !strings.ContainsAny(a, "0123456789") {
				axes = append(axes, capitalize(a))
			}
		}
		if len(axes) < 3 {
			axes = nil
		}
	}
	// Per series: names with runs as long as the axes (or one another).
	var names []string
	var runs [][]float64
	for _, m := range seriesRunRE.FindAllStringSubmatch(s, -1) {
		run := runValues(m[2])
		if (axes != nil && len(run) != len(axes)) || (runs != nil && len(run) != len(runs[0])) || len(run) > 8 {
			continue
		}
		names = append(names, seriesName(m[1]))
		runs = append(runs, run)
	}
	if len(runs) == 0 {
		// Per axis: the longest run of "Name n (and m)" with one count of scores.
		var labs []string
		var cols [][]float64
		// The scale's numbers ("out of 5") are no axis's score.
		plain := scaleTopRE.ReplaceAllString(s, ";")
		for _, m := range axisPairRE.FindAllStringSubmatch(plain, -1) {
			lab := lastWords(m[1], 2)
			if lab == "" || stepFillRE.MatchString(lab+" ") {
				continue
			}
			v1, _ := strconv.ParseFloat(m[2], 64)
			row := []float64{v1}
			if m[3] != "" {
				v2, _ := strconv.ParseFloat(m[3], 64)
				row = append(row, v2)
			}
			if len(cols) > 0 && len(row) != len(cols[0]) {
				labs, cols = nil, nil
			}
			labs, cols = append(labs, capitalize(lab)), append(cols, row)
		}
		if len(cols) >= 3 && len(cols) <= 8 {
			axes = labs
			for k := range cols[0] {
				var run []float64
				for _, c := range cols {
					run = append(run, c[k])
				}
				runs = append(runs, run)
			}
		}
	}
	if axes == nil && len(runs) > 0 && len(runs[0]) >= 3 {
		for i := range runs[0] {
			axes = append(axes, "Axis "+strconv.Itoa(i+1))
		}
	}
	if len(axes) < 3 {
		axes = []string{"Speed", "Power", "Range", "Comfort", "Price"}
	}
	if len(axes) > 8 {
		axes = axes[:8]
	}
	if len(runs) == 0 {
		// Scores the prompt does not give: one even, made-up shape per series named.
		runs = [][]float64{trend("", len(axes), dataBar)}
	}
	if len(names) == 0 {
		if m := versusRE.FindStringSubmatch(s); m != nil {
			names = []string{m[1], m[2]}
		} else if m := versusRE2.FindStringSubmatch(s); m != nil {
			names = []string{m[1], m[2]}
		}
		if len(names) > len(runs) {
			names = names[:len(runs)]
		}
	}
	if len(runs) > 4 {
		runs, names = runs[:4], names[:min(4, len(names))]
	}
	d.Labels, d.Series = axes, names
	for _, r := range runs {
		d.Values = append(d.Values, r...)
	}
	if m := scaleTopRE.FindStringSubmatch(s); m != nil {
		for _, g := range m[1:] {
			if v, err := strconv.ParseFloat(g, 64); err == nil && v > 0 {
				d.To = v
				break
			}
		}
	}
	d.Colors = seriesColorWords(s, len(runs))
	d.Title = shapeTitle(s, len(s))
}

// seriesName keeps the last few words of a series' name ("Ridgeline 3 = …" after
// "trail shoes, "), capitalised.
func seriesName(p string) string {
	p = strings.TrimSpace(p)
	if i := strings.LastIndexAny(p, ",;:.("); i >= 0 {
		p = strings.TrimSpace(p[i+1:])
	}
	return capitalize(lastWords(p, 3))
}

func lastWords(p string, n int) string {
	f := strings.Fields(p)
	if len(f) > n {
		f = f[len(f)-n:]
	}
	return strings.Join(f, " ")
}

// splitList splits "a, b and c" into its entries.
func splitList(p string) []string {
	var out []string
	for _, a := range regexp.MustCompile(`\s*(?:,|;|\band\b|&)\s*`).Split(p, -1) {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// seriesColorWords reads the colours of n series in the order the prompt lists them
// ("orange and slate blue"): two colour words joined by "and", "or" or a comma, the
// second with a word of shade before it.
func seriesColorWords(s string, n int) []string {
	w := regexp.MustCompile(`[a-z]+|[,&/]`).FindAllString(strings.ToLower(s), -1)
	for i := 0; i+1 < len(w); i++ {
		if !isColorTok(w[i]) {
			continue
		}
		j := i + 1
		if w[j] != "and" && w[j] != "or" && w[j] != "," && w[j] != "&" && w[j] != "/" {
			continue
		}
		j++
		if j+1 < len(w) && !isColorTok(w[j]) && isColorTok(w[j+1]) {
			j++ // "slate blue", "dark navy"
		}
		if j >= len(w) || !isColorTok(w[j]) {
			continue
		}
		a, _ := colorAt(w, i)
		b, _ := colorAt(w, j)
		return []string{a, b}[:min(2, max(1, n))]
	}
	return nil
}

// gridChartParts are the words for parts a chart of the shape table draws itself.
var gridChartParts = map[string]bool{"axes": true, "axe": true, "axis": true, "cell": true, "cells": true, "grid": true,
	"block": true, "blocks": true, "box": true, "boxes": true, "connector": true, "connectors": true, "step": true,
	"steps": true, "shape": true, "shapes": true, "polygon": true, "polygons": true, "bar": true, "bars": true,
	"series": true, "legend": true, "web": true, "outline": true, "outlines": true, "scale": true, "key": true,
	"spoke": true, "spokes": true, "ring": true, "rings": true, "line": true, "column": true, "columns": true,
	"dot": true, "dots": true, "point": true, "points": true, "bubble": true, "bubbles": true, "band": true,
	"bands": true, "side": true, "sides": true, "rectangle": true, "rectangles": true, "tile": true, "tiles": true}

var (
	// timeRangeRE is a range of hours ("6–8am", "10am to 2pm", "10–2"); timeListRE a
	// time of day ("6am", "10:30 pm", "noon").
	timeRangeRE = regexp.MustCompile(`(?i)\b(\d{1,2})(?::\d\d)?\s*(am|pm)?\s*(?:–|—|-|to|until|till)\s*(\d{1,2})(?::\d\d)?\s*(am|pm)?\b`)
	timeListRE  = regexp.MustCompile(`(?i)\b\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|\bnoon\b|\bmidnight\b`)
	blockRE     = regexp.MustCompile(`(?i)\b(\d|one|two|three|four)[\s-]*hours?\s+(?:blocks?|slots?|intervals?|steps?|chunks?)|\bhour(?:ly| by hour)\b|\bevery hour\b|\beach hour\b`)
	// busyRE and quietRE: the words that say a part of a grid is high or low.
	busyRE  = regexp.MustCompile(`(?i)\b(?:busiest|busy|peaks?|peak hours|rush(?: hours?)?|packed|crowded|hottest|highest|most|heaviest|max(?:imum)?)\b`)
	quietRE = regexp.MustCompile(`(?i)\b(?:quietest|quiet|calm(?:est)?|empty|emptiest|lowest|least(?: busy)?|coolest|dead|min(?:imum)?)\b`)
)

// hour24 reads an hour and its am/pm as 0–23; "12am" is midnight, "12pm" noon.
func hour24(h int, ap string) int {
	switch strings.ToLower(ap) {
	case "am":
		return h % 12
	case "pm":
		return h%12 + 12
	}
	return h
}

func hourLabel(h int) string {
	h = (h%24 + 24) % 24
	switch {
	case h == 0:
		return "12am"
	case h < 12:
		return strconv.Itoa(h) + "am"
	case h == 12:
		return "12pm"
	}
	return strconv.Itoa(h-12) + "pm"
}

// hourSpan reads a range of hours as 24-hour [from, to): "6–8am", "4–8pm", "10am–2pm",
// "10–2" (morning to afternoon), or a part of the day ("evening").
func hourSpan(s string) (int, int, bool) {
	if m := timeRangeRE.FindStringSubmatch(s); m != nil && (m[2] != "" || m[4] != "" || strings.Contains(s, "–") || strings.Contains(s, "-")) {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[3])
		apA, apB := strings.ToLower(m[2]), strings.ToLower(m[4])
		switch {
		case apA == "" && apB == "pm" && a > b && a < 12:
			apA = "am" // "10–2pm" is ten in the morning to two
		case apA == "" && apB != "":
			apA = apB
		case apA == "" && apB == "" && a > b:
			apA, apB = "am", "pm" // "10–2"
		case apA == "" && apB == "" && a < 8:
			apA, apB = "pm", "pm" // "4–8" are the evening's hours
		}
		if apB == "" {
			apB = apA
		}
		from, to := hour24(a, apA), hour24(b, apB)
		if to <= from {
			to += 12
		}
		return from, to, true
	}
	if m := dayPartRE.FindStringSubmatch(strings.ToLower(s)); m != nil {
		for k, p := range dayParts {
			if m[k+1] != "" {
				return p.From, p.To, true
			}
		}
	}
	return 0, 0, false
}

// heatColumns are a heatmap's time slots: the prompt's list of times ("8am, 10am,
// 12pm…"), or blocks over a range ("2-hour blocks from 6am to 10pm"), with the hour
// each starts at; nil when it names none.
func heatColumns(s string) ([]string, []int) {
	if ts := timeListRE.FindAllString(s, -1); len(ts) >= 3 && !timeRangeRE.MatchString(s[strings.Index(s, ts[0]):]) {
		var labs []string
		var hours []int
		for _, t := range ts {
			h := 12
			if m := regexp.MustCompile(`(?i)(\d{1,2})(?::\d\d)?\s*(am|pm)`).FindStringSubmatch(t); m != nil {
				v, _ := strconv.Atoi(m[1])
				h = hour24(v, m[2])
			} else if strings.EqualFold(t, "midnight") {
				h = 0
			}
			labs, hours = append(labs, hourLabel(h)), append(hours, h)
		}
		return labs, hours
	}
	// A range of the day split in blocks: the widest range the prompt gives.
	from, to, ok := -1, -1, false
	for _, m := range regexp.MustCompile(`(?i)\bfrom\s+(\d{1,2}(?::\d\d)?\s*(?:am|pm)?\s*(?:–|—|-|to|until|till)\s*\d{1,2}(?::\d\d)?\s*(?:am|pm))`).FindAllStringSubmatch(s, -1) {
		if a, b, k := hourSpan(m[1]); k && b-a > to-from {
			from, to, ok = a, b, true
		}
	}
	if !ok {
		return nil, nil
	}
	step := 0
	if m := blockRE.FindStringSubmatch(s); m != nil {
		step = 1
		if m[1] != "" {
			if v, err := strconv.Atoi(m[1]); err == nil {
				step = v
			} else {
				step = int(numberWords[strings.ToLower(m[1])])
			}
		}
	}
	if step <= 0 {
		step = max(1, int(math.Ceil(float64(to-from)/8)))
	}
	var labs []string
	var hours []int
	for h := from; h < to && len(labs) < 24; h += step {
		labs, hours = append(labs, hourLabel(h)), append(hours, h)
	}
	return labs, hours
}

// daySet reads the days of a phrase: weekdays, weekends, ranges and names; nil for
// none.
func daySet(p string) []int {
	low := strings.ToLower(p)
	var out []int
	switch {
	case regexp.MustCompile(`\bweekdays?\b|\bworking days\b`).MatchString(low):
		out = []int{0, 1, 2, 3, 4}
	case regexp.MustCompile(`\bweekends?\b`).MatchString(low):
		out = []int{5, 6}
	case regexp.MustCompile(`\bevery ?day\b|\bdaily\b|\ball week\b`).MatchString(low):
		out = []int{0, 1, 2, 3, 4, 5, 6}
	}
	if m := rangeRE.FindStringSubmatch(p); m != nil {
		a, b := indexFold(dayNames, m[1]), indexFold(dayNames, m[2])
		if a >= 0 && b >= 0 {
			for i := a; ; i = (i + 1) % 7 {
				out = append(out, i)
				if i == b {
					break
				}
			}
			return out
		}
	}
	for _, m := range regexp.MustCompile(`(?i)\b(mon|tue|wed|thu|fri|sat|sun)(?:day|s|\.)?\b|\b(tues|wednes|thurs|satur)days?\b`).FindAllStringSubmatch(p, -1) {
		k := m[1]
		if k == "" {
			k = m[2]
		}
		if i := indexFold(dayNames, k[:3]); i >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// readHeatmap reads a grid: rows of days (or the rows the prompt names with their
// values), columns of time slots; its values as written ("Mon: 3, 5, 9…"), else levels
// from what the prompt says is busiest and quietest, over a gentle day's curve.
func readHeatmap(d *dataSpec, s string) {
	low := strings.ToLower(s)
	cols, hours := heatColumns(s)
	rows := axisLabels(s)
	if len(rows) > 12 {
		rows = rows[:12]
	}
	// Rows written with their runs of values.
	var names []string
	var runs [][]float64
	for _, m := range seriesRunRE.FindAllStringSubmatch(s, -1) {
		run := runValues(m[2])
		if runs != nil && len(run) != len(runs[0]) {
			continue
		}
		names, runs = append(names, seriesName(m[1])), append(runs, run)
	}
	if len(runs) >= 2 {
		d.Series = names
		if len(cols) != len(runs[0]) {
			cols = nil
			for i := range runs[0] {
				cols = append(cols, strconv.Itoa(i+1))
			}
		}
		d.Labels = cols
		for _, r := range runs {
			d.Values = append(d.Values, r...)
		}
	} else {
		if len(rows) == 0 {
			rows = append([]string(nil), dayNames...)
		}
		if len(cols) == 0 {
			cols, hours = []string{"8am", "10am", "12pm", "2pm", "4pm", "6pm", "8pm"}, []int{8, 10, 12, 14, 16, 18, 20}
		}
		d.Series, d.Labels = rows, cols
		d.Values = heatLevels(s, rows, hours)
		d.Items = []string{"Low", "High"}
		if regexp.MustCompile(`\b(?:busy|busiest|crowd\w*|rush|packed|quiet\w*|traffic|visitors?|footfall)\b`).MatchString(low) {
			d.Items = []string{"Quiet", "Busy"}
		}
		if m := regexp.MustCompile(`\(([a-z]+)\)[^()]{0,40}\(([a-z]+)\)`).FindStringSubmatch(low); m != nil {
			d.Items = []string{capitalize(m[1]), capitalize(m[2])} // "pale blue (quiet) to dark navy (packed)"
		}
	}
	// Rows told "down the left" are rows already; days "across the top" swap the axes.
	if regexp.MustCompile(`\b(?:days?|weekdays?|(?:mon|tue|wed|thu|fri|sat|sun)\w*\s*(?:[–-]|to)\s*\w+)\s+(?:\w+\s+){0,2}(?:across|along) the top\b|\b(?:hours?|times?|slots?|blocks?)\s+(?:\w+\s+){0,2}down the (?:left|side)\b`).MatchString(low) {
		d.Series, d.Labels, d.Values = d.Labels, d.Series, transpose(d.Values, len(d.Series), len(d.Labels))
	}
	// The best time of a busyness grid is its quietest cells; of any other grid, the
	// highest ones.
	if regexp.MustCompile(`\b(?:best|ideal|recommended|smartest) (?:time|times|slot|slots|hours?)\b|\bhighlight\w*\b|\boutlin\w+\b|\bcircl\w+\b|\bmark\w*\b`).MatchString(low) {
		n := 1
		if d.Items != nil && d.Items[0] == "Quiet" || regexp.MustCompile(`\b(?:best|ideal) time\b[^.]*\b(?:avoid|dodge|beat|skip|miss)\b|\b(?:avoid|dodge|beat|skip|miss) the (?:rush|crowds?|queues?)\b`).MatchString(low) {
			n = -1
		}
		// As many cells as share the extreme level, so "weekdays 10–2" outlines them all.
		ext := d.Values[0]
		for _, v := range d.Values {
			if n > 0 && v > ext || n < 0 && v < ext {
				ext = v
			}
		}
		k := 0
		for _, v := range d.Values {
			if math.Abs(v-ext) <= 1e-9 {
				k++
			}
		}
		if k > len(d.Values)/3 {
			k = 1
		}
		d.Count = n * k
	}
	if m := regexp.MustCompile(`\bfrom\s+((?:[a-z]+\s+)?[a-z]+)\s*(?:\([^)]*\)\s*)?to\s+((?:[a-z]+\s+)?[a-z]+)`).FindStringSubmatch(low); m != nil {
		a, ok1 := colorPhrase(m[1])
		b, ok2 := colorPhrase(m[2])
		if ok1 && ok2 && isColorTok(lastWords(m[1], 1)) && isColorTok(lastWords(m[2], 1)) {
			d.Scale = []string{a, b}
		}
	}
	d.Title = shapeTitle(s, len(s))
}

func transpose(v []float64, rows, cols int) []float64 {
	out := make([]float64, len(v))
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			out[c*rows+r] = v[r*cols+c]
		}
	}
	return out
}

// heatLevels makes a grid's levels (0–100) from the prompt's words: a day's gentle
// curve, raised where it says busiest (peak, rush…) and lowered where it says quietest,
// for the days and hours each clause names ("weekdays 6–8am and 4–8pm, plus Saturday
// 10am–2pm").
func heatLevels(s string, rows []string, hours []int) []float64 {
	cols := len(hours)
	out := make([]float64, len(rows)*cols)
	wobble := []float64{0, 4, -3, 5, -2, 3, 1, -4, 2, 0, 3, -1}
	for r := range rows {
		for c := range hours {
			u := float64(c) / math.Max(1, float64(cols-1))
			out[r*cols+c] = math.Round(45 + 12*math.Sin(u*math.Pi) + wobble[(r*5+c)%len(wobble)])
		}
	}
	rowDay := make([]int, len(rows))
	for r, name := range rows {
		rowDay[r] = indexFold(dayNames, name)
	}
	for _, sent := range regexp.MustCompile(`[.!?\n]\s+|;`).Split(s, -1) {
		for _, set := range []struct {
			re    *regexp.Regexp
			level float64
		}{{busyRE, 92}, {quietRE, 12}} {
			loc := set.re.FindStringIndex(sent)
			if loc == nil {
				continue
			}
			clause := sent[loc[1]:]
			// The clause ends where the other kind's word begins ("busiest … quietest …").
			other := quietRE
			if set.level < 50 {
				other = busyRE
			}
			if l := other.FindStringIndex(clause); l != nil {
				clause = clause[:l[0]]
			}
			var days []int
			for _, item := range regexp.MustCompile(`\s*(?:,|\band\b|\bplus\b|&)\s*`).Split(clause, -1) {
				if ds := daySet(item); ds != nil {
					days = ds
				}
				from, to, ok := hourSpan(item)
				if !ok {
					continue
				}
				if days == nil {
					days = []int{0, 1, 2, 3, 4, 5, 6}
				}
				for r, day := range rowDay {
					if day < 0 && len(rows) != 7 || day >= 0 && !containsInt(days, day) {
						continue
					}
					for c, h := range hours {
						if h >= from && h < to || h+24 >= from && h+24 < to {
							out[r*cols+c] = set.level
						}
					}
				}
			}
		}
	}
	return out
}

// runNumberRE is one figure of a run of values ("8, 7, 6").
var runNumberRE = regexp.MustCompile(`\d+(?:\.\d+)?`)

// runValues are the figures of a series' or a row's run of values, in order.
func runValues(s string) []float64 {
	var run []float64
	for _, f := range runNumberRE.FindAllString(s, -1) {
		v, _ := strconv.ParseFloat(f, 64)
		run = append(run, v)
	}
	return run
}

// dayParts are the parts of a day a grid's words may name, with their hours (24 h);
// the first that matches wins, so "early morning" stands before "morning".
var dayParts = []struct {
	Pattern  string
	From, To int
	Example  string
}{
	{`early mornings?`, 5, 8, "busiest early mornings"},
	{`mornings?`, 6, 12, "quiet on weekday mornings"},
	{`lunch(?:time)?|noon`, 12, 14, "packed at lunchtime"},
	{`afternoons?`, 12, 17, "calm afternoons"},
	{`evenings?`, 17, 22, "Sunday evening is the quietest"},
	{`(?:late )?nights?`, 20, 24, "busy late nights"},
}

// dayPartRE finds a part of the day, one group per row of dayParts.
var dayPartRE = func() *regexp.Regexp {
	var alts []string
	for _, p := range dayParts {
		alts = append(alts, `\b(`+p.Pattern+`)\b`)
	}
	return regexp.MustCompile(`(?i)` + strings.Join(alts, "|"))
}()
