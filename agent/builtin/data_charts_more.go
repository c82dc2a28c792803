package builtin

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A scatter plot's, a treemap's and a population pyramid's data, read from the prompt's
// own words and numbers. What a prompt does not give is made up only where its words
// say what it looks like ("about 15 dots roughly going up", "a wide bottom and a narrow
// top"), and the plan's notes say that it was (dataSpec.Note).

var (
	// scatterNamedRE names a scatter plot outright; scatterRE adds the words that ask
	// for one without naming it (a correlation, a line of best fit, a plot of one
	// quantity against another), which scatterFits checks.
	scatterNamedRE = regexp.MustCompile(`(?i)\bscatter[\s-]?(?:plots?|charts?|graphs?|diagrams?|grams?)\b|\bbubble\s+(?:charts?|graphs?|plots?)\b|\bx[\s/-]?y\s+(?:plots?|charts?|graphs?)\b`)
	scatterRE      = regexp.MustCompile(scatterNamedRE.String() + `|\bcorrelat\w+\b|\b(?:line of best fit|best[- ]fit line|regression line)\b|\b(?:plot|chart|graph)\w*\b[^.]{0,60}?\b(?:vs\.?|versus|against)\s`)
	// scatterSignRE: the words of dots on two axes, which a plot of one thing against
	// another needs before it is a scatter rather than bars of two series.
	scatterSignRE = regexp.MustCompile(`(?i)\b(?:dots?|points|data points|bubbles|markers|correlat\w+|line of best fit|best[- ]fit|regression)\b`)
	// otherChartRE: a chart of another kind named outright ("a line graph of sales vs
	// costs") is that chart, whatever its dots.
	otherChartRE = regexp.MustCompile(`(?i)\b(?:line|bar|column|pie|donut|doughnut|area)\s+(?:charts?|graphs?|plots?)\b`)
	treemapRE    = regexp.MustCompile(`(?i)\btree[\s-]?maps?\b`)
	pyramidRE    = regexp.MustCompile(`(?i)\b(?:population|age|age-sex|age and sex|demographic|age-gender)\s+pyramids?\b|\b(?:butterfly|tornado)\s+(?:charts?|graphs?|plots?|diagrams?)\b|\b(?:back[- ]to[- ]back|diverging|mirrored)\s+(?:bar|bars|column)\s*(?:charts?|graphs?)?\b`)
	// pointPairRE is a point written as a pair or triple in brackets: "(2, 55)".
	pointPairRE = regexp.MustCompile(`\(\s*(-?\d+(?:\.\d+)?\s*[,;]\s*-?\d+(?:\.\d+)?(?:\s*[,;]\s*\d+(?:\.\d+)?)?)\s*\)`)
	// oneByOneRE asks for the parts of a chart to come in turn ("dots pop in one by
	// one", "blocks appearing largest first").
	chartOneByOneRE = regexp.MustCompile(`(?i)\bone (?:by|after) (?:one|another|the other)\b|\bone at a time\b|\bin turn\b|\b(?:largest|biggest) (?:first|to smallest)\b|\bfrom (?:the )?(?:largest|biggest)\b`)
)

// scatterFits: a scatter plot named as one, or a correlation, best fit or plot of one
// thing against another with dots or points to show, when no other chart is named.
func scatterFits(p string) bool {
	if scatterNamedRE.MatchString(p) {
		return true
	}
	if otherChartRE.MatchString(p) {
		return false
	}
	return len(pointPairs(p)) >= 3 || scatterSignRE.MatchString(p) && (chartRE.MatchString(p) || regexp.MustCompile(`(?i)\b(?:dots?|points)\b`).MatchString(p))
}

// treemapFits: "treemap" written as one word is the chart; "a tree map" is one only
// with figures to split (a map of the park's trees has none).
func treemapFits(p string) bool {
	return regexp.MustCompile(`(?i)\btree-?maps?\b`).MatchString(p) || len(numbers(p)) >= 2
}

// pointPairs are the points a prompt writes in brackets, each two or three values.
func pointPairs(s string) [][]float64 {
	var out [][]float64
	for _, m := range pointPairRE.FindAllStringSubmatch(s, -1) {
		v := signedRun(m[1])
		if len(v) == 2 || len(v) == 3 {
			out = append(out, v)
		}
	}
	return out
}

// signedRun is runValues with the signs kept: a point may lie below an axis.
func signedRun(s string) []float64 {
	run := runValues(s)
	for i, loc := range runNumberRE.FindAllStringIndex(s, -1) {
		if i < len(run) && loc[0] > 0 && s[loc[0]-1] == '-' {
			run[i] = -run[i]
		}
	}
	return run
}

var (
	// axisNameRE: an axis the prompt describes ("x axis 0-10", "y-axis: test score
	// (0–100)", "the x axis is hours studied from 0 to 10"), up to the clause's end.
	axisNameRE = regexp.MustCompile(`(?i)\b([xy])[\s-]?axis\b\s*(?:[:=]|\bis\b|\bshows?\b|\bfor\b|\bas\b|\blabell?ed\b|\bof\b)?\s*([^,;.()]*(?:\([^)]*\))?)`)
	// rangeNumsRE is a range of two numbers ("0-10", "0 to 100", "from 20 to 80").
	rangeNumsRE = regexp.MustCompile(`(?i)(?:\bfrom\s+)?(-?\d+(?:\.\d+)?)\s*(?:-|–|—|to)\s*(-?\d+(?:\.\d+)?)`)
	// againstRE: two quantities plotted one against the other; "Y against X" puts the
	// first upright, "X vs Y" the first across.
	againstRE = regexp.MustCompile(`(?i)([\p{L}][\p{L}'’:-]*(?:\s+[\p{L}][\p{L}'’:-]*){0,3})\s+(vs\.?|versus|against)\s+([\p{L}][\p{L}'’-]*(?:\s+[\p{L}][\p{L}'’-]*){0,3})|\b(between)\s+([\p{L}][\p{L}'’-]*(?:\s+[\p{L}][\p{L}'’-]*){0,2}?)\s+and\s+([\p{L}][\p{L}'’-]*(?:\s+[\p{L}][\p{L}'’-]*){0,2})`)
	// dotCountRE: how many dots to draw ("about 15 dots", "twenty points").
	dotCountRE = regexp.MustCompile(`(?i)\b(\d{1,3}|[a-z]+(?:-[a-z]+)?)\s+(?:[a-z]+\s+)?(?:dots|points|data points|bubbles|markers|samples|observations)\b`)
	// noCorrelationRE: dots that follow no line.
	noCorrelationRE  = regexp.MustCompile(`(?i)\bno (?:clear |real |obvious )?(?:correlation|relationship|pattern|trend|link)\b|\buncorrelated\b|\b(?:random(?:ly)?|scattered at random|all over the place)\b`)
	negCorrelationRE = regexp.MustCompile(`(?i)\b(?:negative(?:ly)?|inverse(?:ly)?)\s+correlat\w+|\bgoing down\b|\btrending down\b`)
	posCorrelationRE = regexp.MustCompile(`(?i)\bpositive(?:ly)?\s+correlat\w+|\bgoing up\b|\btrending up\b`)
	looseRE          = regexp.MustCompile(`(?i)\b(?:rough(?:ly)?|loose(?:ly)?|weak(?:ly)?|noisy|somewhat|sort of|kind of)\b`)
	tightRE          = regexp.MustCompile(`(?i)\b(?:strong(?:ly)?|tight(?:ly)?|clear(?:ly)?|close(?:ly)?)\b`)
	// fitRE asks for a line of best fit; fitColorRE reads its colour either way round.
	fitRE      = regexp.MustCompile(`(?i)\bline of best fit\b|\bbest[- ]fit(?: line)?\b|\btrend ?line\b|\bregression(?: line)?\b|\bfit(?:ted)? line\b`)
	fitColorRE = regexp.MustCompile(`(?i)\b([a-z]+(?:\s+[a-z]+)?)\s+(?:line of best fit|best[- ]fit line|trend ?line|regression line|fit(?:ted)? line)\b|\b(?:line of best fit|best[- ]fit line|trend ?line|regression line|fit(?:ted)? line)\s+(?:in|as|coloured|colored)\s+([a-z]+(?:\s+[a-z]+)?)`)
	// rLabelRE is a correlation's value as the prompt writes it ("r = 0.82", "R² = 0.67").
	rLabelRE = regexp.MustCompile(`\b([rR])\s*(²|\^2|2)?\s*=\s*(-?(?:0|1)?\.\d+|-?1(?:\.0+)?|0)\b`)
	// dotColorRE: the colour of the dots ("teal dots", "bubbles in orange").
	dotColorRE = regexp.MustCompile(`(?i)\b([a-z]+(?:\s+[a-z]+)?)\s+(?:dots|points|bubbles|circles|markers)\b|\b(?:dots|points|bubbles|circles|markers)\s+(?:in|are|of)\s+([a-z]+(?:\s+[a-z]+)?)`)
)

// readScatter reads a scatter plot: its points as written in brackets, else a
// deterministic cloud of as many dots as the prompt says following the trend its words
// give; the axes' names and ranges; a line of best fit by least squares when asked, in
// the colour named; the correlation's label only as the prompt writes it.
func readScatter(d *dataSpec, s string) {
	d.Count = 2
	pts := pointPairs(s)
	bubble := regexp.MustCompile(`(?i)\bbubbles?\b`).MatchString(s)
	for _, p := range pts {
		if len(p) == 3 {
			d.Count = 3
		}
	}
	// The axes: described one by one, else named as one against the other.
	var names [2]string
	for _, m := range axisNameRE.FindAllStringSubmatch(s, -1) {
		k := 0
		if strings.EqualFold(m[1], "y") {
			k = 1
		}
		clause := m[2]
		if r := rangeNumsRE.FindStringSubmatchIndex(clause); r != nil {
			a, _ := strconv.ParseFloat(clause[r[2]:r[3]], 64)
			b, _ := strconv.ParseFloat(clause[r[4]:r[5]], 64)
			if a < b {
				if d.Range == nil {
					d.Range = make([]float64, 4)
					d.Range[1], d.Range[3] = math.NaN(), math.NaN()
				}
				d.Range[2*k], d.Range[2*k+1] = a, b
			}
			clause = clause[:r[0]]
		}
		names[k] = axisWords(clause)
	}
	if names[0] == "" && names[1] == "" {
		if m := againstRE.FindStringSubmatch(s); m != nil {
			a, b := trimAxisName(m[1], true), trimAxisName(m[3], false)
			switch {
			case m[4] != "": // "the correlation between X and Y"
				a, b = trimAxisName(m[5], false), trimAxisName(m[6], false)
			case strings.EqualFold(m[2], "against"):
				a, b = b, a
			}
			names = [2]string{a, b}
		}
	}
	if names[0] != "" || names[1] != "" {
		d.Labels = []string{capitalize(names[0]), capitalize(names[1])}
	}
	if len(pts) >= 2 {
		for _, p := range pts {
			d.Values = append(d.Values, p[0], p[1])
			if d.Count == 3 {
				d.Values = append(d.Values, valAt(p, 2))
			}
		}
	} else {
		d.Values = scatterCloud(s, d.Range, bubble)
		if bubble {
			d.Count = 3
		}
		d.Note = "the prompt gives no points, so the dots follow the trend its words describe and are not data"
	}
	// A range the prompt gives for one axis only leaves the other to the points.
	if d.Range != nil && (math.IsNaN(d.Range[1]) || math.IsNaN(d.Range[3])) {
		d.Range = nil
	}
	if fitRE.MatchString(s) {
		d.Fit = leastSquares(d.Values, d.Count)
		for _, m := range fitColorRE.FindAllStringSubmatch(s, -1) {
			for _, g := range m[1:] {
				if c, ok := colorPhrase(strings.ToLower(g)); ok && g != "" {
					d.Colors = []string{"", c}
				}
			}
		}
	}
	if m := rLabelRE.FindStringSubmatch(s); m != nil {
		sq := ""
		if m[2] != "" {
			sq = "²"
		}
		d.Label = m[1] + sq + " = " + m[3]
	}
	for _, m := range dotColorRE.FindAllStringSubmatch(s, -1) {
		for _, g := range m[1:] {
			if c, ok := colorPhrase(strings.ToLower(g)); ok && g != "" {
				if d.Colors == nil {
					d.Colors = []string{c}
				} else {
					d.Colors[0] = c
				}
			}
		}
	}
	d.OneByOne = chartOneByOneRE.MatchString(s)
	dataAt := len(s)
	if l := pointPairRE.FindStringIndex(s); l != nil {
		dataAt = l[0]
	}
	d.Title = shapeTitle(s, dataAt)
	if dotCountRE.MatchString(d.Title) || len(d.Labels) == 2 && (strings.EqualFold(d.Title, d.Labels[0]) || strings.EqualFold(d.Title, d.Labels[1])) {
		// "About 20 dots", or one axis' name for the whole: the axes say it better.
		d.Title = ""
		if d.Labels != nil && d.Labels[0] != "" && d.Labels[1] != "" {
			d.Title = d.Labels[1] + " vs " + strings.ToLower(d.Labels[0])
		}
	}
}

func valAt(v []float64, i int) float64 {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// axisWords is an axis' name from the words describing it ("is hours studied from",
// "test score (points)").
func axisWords(c string) string {
	c = regexp.MustCompile(`\([^)]*\)`).ReplaceAllString(c, "")
	c = regexp.MustCompile(`(?i)\b(?:from|goes|going|runs?|running|ranges?|ranging|between|and|to|up|with|in|the|is|are|shows?|labell?ed)\b`).ReplaceAllString(c, " ")
	c = strings.Join(strings.Fields(c), " ")
	if len(strings.Fields(c)) > 4 || strings.ContainsAny(c, "0123456789") {
		return ""
	}
	return c
}

// trimAxisName keeps the words of a quantity beside "vs": the last words before it
// ("a scatter plot of hours studied"), the first after it ("test score with …").
func trimAxisName(p string, before bool) string {
	f := strings.Fields(p)
	var keep []string
	if before {
		for i := len(f) - 1; i >= 0 && len(keep) < 3; i-- {
			w := strings.ToLower(f[i])
			if axisNameStop[w] || chartNounRE.MatchString(w) || strings.HasSuffix(w, ":") {
				break
			}
			keep = append([]string{f[i]}, keep...)
		}
	} else {
		for _, w := range f {
			if axisNameStop[strings.ToLower(w)] || len(keep) == 3 {
				break
			}
			keep = append(keep, w)
		}
	}
	return strings.Join(keep, " ")
}

// axisNameStop are the words that end a quantity's name beside "vs" (a quantity may
// hold "per": "GDP per person").
var axisNameStop = map[string]bool{"a": true, "an": true, "the": true, "of": true, "with": true, "and": true,
	"between": true, "showing": true, "shows": true, "show": true, "plot": true, "plotting": true, "plotted": true,
	"scatter": true, "scatterplot": true, "as": true, "in": true, "for": true, "on": true, "from": true, "to": true,
	"where": true, "which": true, "that": true, "is": true, "are": true, "each": true, "using": true, "vs": true}

// scatterCloud makes n points (n from "about 15 dots", else 14) spread over the x
// range, following the trend the words give (up, down or none) with the scatter their
// strength words allow; the same prompt gives the same points.
func scatterCloud(s string, rg []float64, bubble bool) []float64 {
	n := 14
	if m := dotCountRE.FindStringSubmatch(s); m != nil {
		if v, err := strconv.Atoi(m[1]); err == nil {
			n = v
		} else if v, ok := numberWords[strings.ToLower(m[1])]; ok && v > 1 {
			n = int(v)
		} else if strings.EqualFold(m[1], "dozen") {
			n = 12
		}
	}
	n = max(3, min(n, 80))
	x0, x1, y0, y1 := 0.0, 10.0, 0.0, 100.0
	if rg != nil {
		if !math.IsNaN(rg[1]) {
			x0, x1 = rg[0], rg[1]
		}
		if !math.IsNaN(rg[3]) {
			y0, y1 = rg[2], rg[3]
		}
	}
	slope := 0.0
	switch {
	case noCorrelationRE.MatchString(s):
	case negCorrelationRE.MatchString(s):
		slope = -1
	case posCorrelationRE.MatchString(s):
		slope = 1
	case fallingRE.MatchString(s) && !risingRE.MatchString(s):
		slope = -1
	case risingRE.MatchString(s) || regexp.MustCompile(`(?i)\bcorrelat`).MatchString(s):
		slope = 1
	}
	noise := 0.12
	if looseRE.MatchString(s) {
		noise = 0.2
	} else if tightRE.MatchString(s) {
		noise = 0.06
	}
	if slope == 0 {
		noise = 0.3
	}
	// A fixed low-discrepancy walk: spread out like data, the same on every run.
	var out []float64
	for i := 0; i < n; i++ {
		u := (float64(i) + 0.5 + 0.35*math.Sin(float64(i)*2.39996)) / float64(n)
		u = math.Max(0.02, math.Min(0.98, u))
		e := math.Mod(float64(i)*0.618034+0.31, 1)*2 - 1 // −1..1
		v := 0.5 + slope*0.36*(u*2-1) + noise*e
		v = math.Max(0.04, math.Min(0.96, v))
		x := x0 + (x1-x0)*(0.05+0.9*u)
		y := y0 + (y1-y0)*v
		out = append(out, niceRound(x, x1-x0), niceRound(y, y1-y0))
		if bubble {
			out = append(out, math.Round(10+40*math.Mod(float64(i)*0.754877+0.2, 1)))
		}
	}
	return out
}

// niceRound rounds a made-up value to a place its axis' span reads in (a tenth on a
// 0–10 axis, a whole number on 0–100).
func niceRound(v, span float64) float64 {
	e := int(math.Floor(math.Log10(math.Max(span, 1e-9)))) - 2
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', max(0, -e), 64), 64)
	if e > 0 {
		p := math.Pow(10, float64(e))
		r = math.Round(v/p) * p
	}
	return r
}

// leastSquares is the line y = a·x + b closest to the points (x, y pairs, or
// triples of stride 3) by least squares; nil for points that do not spread along x.
func leastSquares(vals []float64, stride int) []float64 {
	stride = max(2, stride)
	n := float64(len(vals) / stride)
	var sx, sy, sxx, sxy float64
	for i := 0; i+1 < len(vals); i += stride {
		x, y := vals[i], vals[i+1]
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	den := n*sxx - sx*sx
	if n < 2 || math.Abs(den) < 1e-12 {
		return nil
	}
	a := (n*sxy - sx*sy) / den
	b := (sy - a*sx) / n
	return []float64{round4(a), round4(b)}
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// readTreemap reads a treemap's blocks as a bar chart's are read (names with amounts,
// percentages or plain numbers, in any currency or unit), keeping the blocks that have
// an area; the total when the prompt asks for it; blocks in turn, largest first, when
// it asks for that.
func readTreemap(d *dataSpec, s string) {
	readChart(d, s, numbers(s))
	var vals []float64
	var labs, cols []string
	for i, v := range d.Values {
		if v > 0 {
			vals = append(vals, v)
			labs = append(labs, at2(d.Labels, i))
			cols = append(cols, at2(d.Colors, i))
		}
	}
	d.Values, d.Labels, d.Colors = vals, labs, cols
	if nonEmpty(d.Colors) == 0 {
		d.Colors = nil
	}
	if len(d.Values) < 2 || nonEmpty(d.Labels) == 0 {
		// No figures to split: blocks of a made-up size, and the plan says so.
		d.Values = []float64{40, 25, 15, 12, 8}
		d.Labels = []string{"A", "B", "C", "D", "E"}
		d.Colors, d.Prefix, d.Suffix = nil, "", "%"
		d.Note = "the prompt gives no figures to split, so the blocks' sizes are made up"
	}
	if regexp.MustCompile(`(?i)\btotal\b|\bsum\b|\badds? up\b`).MatchString(s) {
		t := 0.0
		for _, v := range d.Values {
			t += v
		}
		d.To = round3(t)
	}
	d.OneByOne = chartOneByOneRE.MatchString(s)
}

func at2(v []string, i int) string {
	if i < len(v) {
		return v[i]
	}
	return ""
}

var (
	// ageBandRE is an age band ("0–9", "20-39", "90+", "85 and over", "under 5").
	ageBandRE = regexp.MustCompile(`(?i)\b(\d{1,3})\s*(?:-|–|—|to)\s*(\d{1,3})\b|\b(\d{1,3})\s*(?:\+|plus\b|and (?:over|older|above)\b)|\bunder\s+(\d{1,3})\b`)
	// bandPairRE: a band with its left and right values ("20–39: 13.6 and 13.0",
	// "Under 18: 12% / 11%", "Speed 8 vs 6").
	bandPairRE = regexp.MustCompile(`(?i)(\d{1,3}\s*(?:-|–|—|to)\s*\d{1,3}|\d{1,3}\s*(?:\+|plus\b|and (?:over|older|above)\b)|under\s+\d{1,3}|[\p{L}][\p{L}'’&-]*(?:\s[\p{L}][\p{L}'’&-]*){0,2})\s*[:=]?\s*(\d+(?:\.\d+)?)\s*(%?)\s*(?:[\p{L}]+\s*)?(?:and|&|/|vs\.?|versus|,|\||to)\s*(\d+(?:\.\d+)?)\s*%?`)
	// sidePairs are the two sides a pyramid usually compares, when the prompt names
	// them: one row per pair, left first.
	sidePairRE = regexp.MustCompile(`(?i)\b(men|males?|boys)\b[^.]*?\b(women|females?|girls)\b|\b(women|females?|girls)\b[^.]*?\b(men|males?|boys)\b`)
	// leftRightRE: a side named by where it goes ("men on the left", "2024 to the right").
	leftRightRE = regexp.MustCompile(`(?i)\b([\p{L}\p{N}][\p{L}\p{N}'’-]*(?:\s[\p{L}\p{N}][\p{L}\p{N}'’-]*)?)\s+(?:(?:bars?|going|extending|are|is)\s+)?(?:on|to)\s+the\s+(left|right)\b`)
	// periodsRE: two periods the bars go between ("from the 1970 shape to the 2024
	// shape", "1990 → 2020", "between 1950 and 2050").
	periodsRE = regexp.MustCompile(`(?i)\b(?:from|between)\s+(?:the\s+|a\s+)?(?:[\p{L}-]+\s+){0,3}?((?:19|20)\d\d)\b[^.]*?\b(?:to|and|into|→|->)\s+(?:the\s+|a\s+)?(?:[\p{L}-]+\s+){0,3}?((?:19|20)\d\d)\b|\b((?:19|20)\d\d)\s*(?:→|->|–|—)\s*((?:19|20)\d\d)\b`)
)

// pyramidShapes are the shapes a pyramid's words may describe instead of its figures,
// each with the share of each band from the bottom (youngest) up, 0..1 of the way.
var pyramidShapes = []struct {
	Name    string
	Pattern *regexp.Regexp
	Share   func(u float64) float64
	Example string
}{
	{"Wide base", regexp.MustCompile(`(?i)\bwide (?:bottom|base)\b|\bbroad (?:bottom|base)\b|\bnarrow(?:s|ing)? (?:at the )?top\b|\bexpansive\b|\bclassic pyramid\b|\btriangle\b|\byoung population\b`),
		func(u float64) float64 { return 10 - 8.2*u }, "a wide bottom and a narrow top"},
	{"Top-heavy", regexp.MustCompile(`(?i)\btop[- ]heavy\b|\bnarrow (?:bottom|base)\b|\bwide (?:top|middle)\b|\bageing\b|\baging\b|\bolder population\b|\binverted\b|\bconstrictive\b|\burn\b`),
		func(u float64) float64 { return 4.5 + 4*math.Sin(u*math.Pi*0.85) - 1.5*u*u }, "a top-heavy, ageing shape"},
	{"Column", regexp.MustCompile(`(?i)\bcolumn\b|\bstraight (?:sides|up)\b|\brectangle\b|\bstationary\b|\bstable\b|\beven\b`),
		func(u float64) float64 { return 6.4 - 2.4*u*u*u }, "almost straight sides, a column"},
}

// readPyramid reads a population pyramid or butterfly chart: the bands with a left and
// a right value each ("20–39: 13.6 and 13.0"), or a run of values per side ("men: …;
// women: …"), for one period or two (a morph with a year counter between them); each
// side's name and colour; a shape described in words when no figures are given.
func readPyramid(d *dataSpec, s string) {
	low := strings.ToLower(s)
	var bands []string
	var runs [][]float64 // left, right (, left, right of the second period)
	var runNames []string
	// Per side (or per side and period): names with runs of one length.
	for _, m := range seriesRunRE.FindAllStringSubmatch(s, -1) {
		run := runValues(m[2])
		if runs != nil && len(run) != len(runs[0]) {
			continue
		}
		runs, runNames = append(runs, run), append(runNames, seriesName(m[1]))
	}
	if len(runs) != 2 && len(runs) != 4 {
		runs, runNames = nil, nil
	}
	if runs == nil {
		// Per band: a band and its two values.
		var left, right []float64
		for _, m := range bandPairRE.FindAllStringSubmatch(s, -1) {
			lab := strings.TrimSpace(m[1])
			if ageBandRE.FindString(lab) == "" {
				lab = lastWords(lab, 2)
				if labelStop[strings.ToLower(lab)] || stepFillRE.MatchString(lab+" ") {
					continue
				}
			}
			a, _ := strconv.ParseFloat(m[2], 64)
			b, _ := strconv.ParseFloat(m[4], 64)
			bands, left, right = append(bands, bandLabel(lab)), append(left, a), append(right, b)
			if m[3] != "" {
				d.Suffix = "%"
			}
		}
		if len(bands) >= 2 {
			runs = [][]float64{left, right}
		} else {
			bands = nil
		}
	} else {
		bands = ageBands(s, len(runs[0]))
		if strings.Contains(s, "%") {
			d.Suffix = "%"
		}
	}
	// The two sides: named by the runs, by where they go, by the usual pairs.
	var sides [2]string
	if len(runNames) >= 2 {
		sides = [2]string{stripYear(runNames[0]), stripYear(runNames[1])}
	}
	for _, m := range leftRightRE.FindAllStringSubmatch(s, -1) {
		w := strings.TrimSpace(m[1])
		if f := strings.Fields(w); len(f) > 0 && (labelStop[strings.ToLower(f[0])] || chartNounRE.MatchString(strings.ToLower(w))) {
			w = lastWords(w, 1)
		}
		if labelStop[strings.ToLower(w)] || w == "" {
			continue
		}
		if k := map[string]int{"left": 0, "right": 1}[strings.ToLower(m[2])]; sides[k] == "" {
			sides[k] = capitalize(w)
		}
	}
	if sides[0] == "" && sides[1] == "" {
		if m := sidePairRE.FindStringSubmatch(s); m != nil {
			if m[1] != "" {
				sides = [2]string{capitalize(m[1]), capitalize(m[2])}
			} else {
				sides = [2]string{capitalize(m[4]), capitalize(m[3])}
			}
		} else if pyramidRE.MatchString(s) && regexp.MustCompile(`(?i)\b(?:population|age)`).MatchString(s) {
			sides = [2]string{"Male", "Female"}
		}
	}
	if sides[0] != "" || sides[1] != "" {
		d.Series = []string{orDefault(sides[0], "Left"), orDefault(sides[1], "Right")}
	}
	// Two periods: their years, and a shape for each when the words give them.
	var years []string
	if m := periodsRE.FindStringSubmatch(s); m != nil {
		years = []string{m[1], m[2]}
		if m[1] == "" {
			years = []string{m[3], m[4]}
		}
	}
	if runs == nil {
		// No figures: the shape the words describe, generic and said to be so.
		if bands = ageBands(s, 0); len(bands) < 2 {
			bands = []string{"0–9", "10–19", "20–29", "30–39", "40–49", "50–59", "60–69", "70–79", "80+"}
		}
		var shapes []int
		split := len(s)
		if years != nil {
			split = strings.Index(s, years[1])
		}
		for _, part := range []string{s[:split], s[split:]} {
			if k := pyramidShape(part); k >= 0 {
				shapes = append(shapes, k)
			}
		}
		if len(shapes) == 0 {
			shapes = []int{0}
			d.Note = "the prompt gives no figures and does not describe the shape, so the bars show a generic pyramid, not data"
		} else {
			d.Note = "the prompt gives no figures, so the bars show the shape its words describe (" + pyramidShapes[shapes[0]].Example
			if len(shapes) > 1 {
				d.Note += ", then " + pyramidShapes[shapes[1]].Example
			}
			d.Note += "), not data"
		}
		if years == nil || len(shapes) < 2 {
			shapes = shapes[:1]
		}
		for _, k := range shapes {
			run := make([]float64, len(bands))
			for i := range run {
				run[i] = math.Round(pyramidShapes[k].Share(float64(i)/float64(max(1, len(bands)-1)))*10) / 10
			}
			// The right side a touch longer in old age, as women outlive men.
			right := make([]float64, len(run))
			for i, v := range run {
				right[i] = math.Round(v*(1+0.12*float64(i)/float64(len(run)))*10) / 10
			}
			runs = append(runs, run, right)
			d.Items = append(d.Items, pyramidShapes[k].Name)
		}
		d.Suffix = ""
	}
	if len(runs) == 4 && years != nil {
		d.From, _ = strconv.ParseFloat(years[0], 64)
		d.To, _ = strconv.ParseFloat(years[1], 64)
	} else if len(runs) == 4 {
		runs = runs[:2]
	}
	// Age bands read youngest first and stand with the oldest at the top; a tornado
	// chart's bands stand widest first; other bands as listed.
	k := len(bands)
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	if k > 0 && ageBandRE.MatchString(bands[0]) {
		for i := range order {
			order[i] = k - 1 - i
		}
	} else if regexp.MustCompile(`(?i)\btornado\b`).MatchString(low) {
		sort.SliceStable(order, func(a, b int) bool {
			return runs[0][order[a]]+runs[1][order[a]] > runs[0][order[b]]+runs[1][order[b]]
		})
	}
	for _, i := range order {
		d.Labels = append(d.Labels, bands[i])
	}
	for _, r := range runs {
		for _, i := range order {
			d.Values = append(d.Values, valAt(r, i))
		}
	}
	d.Colors = sideColors(s, d.Series)
	dataAt := len(s)
	for _, re := range []*regexp.Regexp{periodsRE, bandPairRE, seriesRunRE} {
		if l := re.FindStringIndex(s); l != nil && l[0] < dataAt && l[0] > 0 {
			dataAt = l[0]
		}
	}
	d.Title = shapeTitle(s, dataAt)
}

// pyramidShape is the row of pyramidShapes a text describes, or -1.
func pyramidShape(p string) int {
	for k, sh := range pyramidShapes {
		if sh.Pattern.MatchString(p) {
			return k
		}
	}
	return -1
}

// ageBands are the age bands a prompt lists; "0–9 … 90+" (a first band, an ellipsis
// and a last) is every band of that width between; n > 0 asks for that many.
func ageBands(s string, n int) []string {
	var out []string
	var starts []int
	width := 0
	for _, m := range ageBandRE.FindAllStringSubmatch(s, -1) {
		switch {
		case m[1] != "":
			a, _ := strconv.Atoi(m[1])
			b, _ := strconv.Atoi(m[2])
			if b <= a || b > 120 {
				continue
			}
			if width == 0 {
				width = b - a + 1
			}
			out, starts = append(out, strconv.Itoa(a)+"–"+strconv.Itoa(b)), append(starts, a)
		case m[3] != "":
			a, _ := strconv.Atoi(m[3])
			out, starts = append(out, strconv.Itoa(a)+"+"), append(starts, a)
		}
	}
	if len(out) == 2 && width > 0 && (strings.Contains(s, "…") || strings.Contains(s, "...")) && starts[1] > starts[0]+width {
		last := out[1]
		out = nil
		for a := starts[0]; a < starts[1]; a += width {
			out = append(out, strconv.Itoa(a)+"–"+strconv.Itoa(a+width-1))
		}
		out = append(out, last)
	}
	if n > 0 && len(out) != n {
		if width == 0 {
			width = 10
		}
		out = nil
		for i := 0; i < n; i++ {
			if i == n-1 {
				out = append(out, strconv.Itoa(i*width)+"+")
			} else {
				out = append(out, strconv.Itoa(i*width)+"–"+strconv.Itoa(i*width+width-1))
			}
		}
	}
	return out
}

// bandLabel writes an age band as the chart shows it ("20-39" → "20–39").
func bandLabel(b string) string {
	if m := ageBandRE.FindStringSubmatch(b); m != nil && m[1] != "" {
		return m[1] + "–" + m[2]
	}
	if m := ageBandRE.FindStringSubmatch(b); m != nil && m[3] != "" {
		return m[3] + "+"
	}
	return capitalize(b)
}

// stripYear takes a period's year off a side's name ("1970 men" → "Men").
func stripYear(n string) string {
	n = strings.TrimSpace(regexp.MustCompile(`\b(?:19|20)\d\d\b`).ReplaceAllString(n, ""))
	return capitalize(n)
}

// sideColors are the colours of a pyramid's two sides: each side's colour named beside
// its name ("men in blue", "orange for women"), else two colour words in a row ("blue
// and orange"); "" where the prompt names none.
func sideColors(s string, sides []string) []string {
	out := make([]string, 2)
	for k, name := range sides {
		if k > 1 || name == "" {
			continue
		}
		q := regexp.QuoteMeta(strings.ToLower(name))
		re := regexp.MustCompile(`\b` + q + `\b[^,;.]{0,30}?\b(?:in|as|=|coloured|colored)\s+((?:[a-z]+\s+)?[a-z]+)|\b((?:[a-z]+\s+)?[a-z]+)\s+(?:for|=)\s+(?:the\s+)?` + q + `\b`)
		for _, m := range re.FindAllStringSubmatch(strings.ToLower(s), -1) {
			for _, g := range m[1:] {
				if c, ok := colorPhrase(g); ok && g != "" && out[k] == "" {
					out[k] = c
				}
			}
		}
	}
	if out[0] == "" && out[1] == "" {
		if cs := seriesColorWords(s, 2); len(cs) == 2 {
			return cs
		}
		return nil
	}
	return out
}
