package builtin

import (
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Data kinds: what a prompt's numbers and lists are drawn as.
const (
	dataBar       = "bar"
	dataPie       = "pie"
	dataDonut     = "donut"
	dataLine      = "line"
	dataCounter   = "counter"
	dataCountdown = "countdown"
	dataChecklist = "checklist"
	dataClock     = "clock"
	dataProgress  = "progress"
)

// dataSpec is the data a prompt states for one data element, read from the prompt's own
// words and numbers: a chart's labels and values, a counter's target and caption, a
// countdown's sequence, a checklist's items.
type dataSpec struct {
	Kind   string
	Title  string    // "Visitors over the week"
	Labels []string  // one per value (categories, days, slices)
	Values []float64 // as written, before the unit ("12" of "12k")
	Colors []string  // per-value colours the prompt names ("40% red"), "" where none
	Scale  []string  // a colour scale, low to high, the prompt names ("blue to red")
	Prefix string    // "$"
	Suffix string    // "%", "k", "M"
	From   float64   // counter start
	To     float64   // counter target, progress percent
	Items  []string  // countdown sequence, checklist items
	Open   int       // checklist: how many of the last items are left unticked
	Label  string    // counter caption ("subscribers")
	Turns  float64   // clock: minute-hand revolutions
	Hour   float64   // clock: time shown at the start, in hours (10.17 = 10:10)
	// Across: the bars lie down, as the prompt asks ("horizontal bars", "sideways").
	Across bool
	// Series name a radar's polygons or a heatmap's rows; Values hold a run of
	// len(Labels) per series. Count outlines a heatmap's highest cells (negative: the
	// lowest), and Items name its scale's ends when its levels are told in words.
	Series []string
	Count  int
	// Range and Fit are a scatter's axes (x from, x to, y from, y to) and its line of
	// best fit (slope, intercept); Count is 3 when its points carry a bubble's size.
	Range []float64
	Fit   []float64
	// OneByOne: the chart's parts come in turn ("dots pop in one by one", "largest
	// first").
	OneByOne bool
	// Note says what the reading made up because the prompt did not give it ("the
	// bars show the shape its words describe, not data"): the plan tells the person.
	Note string
}

// acrossRE asks for bars that lie down.
var acrossRE = regexp.MustCompile(`(?i)\bhorizontal(?:ly)?\s+(?:[a-z]+\s+)?bars?\b|\bbars?\b[^.]*\b(?:horizontal(?:ly)?|sideways|left to right)\b|\bbar(?:s)? (?:race|ranking)\b`)

// numTok is a number as written in a prompt.
type numTok struct {
	Start, End int
	Value      float64 // the written number ("4.5" of "$4.5M")
	Scale      float64 // 1, 1e3, 1e6, 1e9 from the unit
	Unit       string  // "k", "M", "B" as the prompt wrote it, normalised
	Cur        string  // "$", "€", "£", "¥"
	Pct        bool
	Text       string
}

var numberRE = regexp.MustCompile(`([$€£¥])?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?(k|K|m|M|bn|B|mn|million|thousand|billion)\b)?(\s?%|\s?percent\b|\s?per cent\b)?`)

// timeUnitRE follows numbers that are durations or counts, not data.
var timeUnitRE = regexp.MustCompile(`^\s*(?:-\s*)?(?:seconds?|secs?|s|sec|minutes?|mins?|ms|times|x|fps|px|hz|p|d|am|pm|o'clock|o’clock|items?|things|steps?|tasks?|scenes?|hands?|bars?|slices?|boxes|lines?)\b`)

// numbers finds the data numbers of s (original case), skipping durations, counts,
// ratios (9:16), times of day (10:10) and digits inside words (Q1, 3D, MP4).
func numbers(s string) []numTok {
	var out []numTok
	for _, m := range numberRE.FindAllStringSubmatchIndex(s, -1) {
		start, end := m[0], m[1]
		numStart := m[4]
		if m[2] >= 0 {
			start = m[2]
		} else {
			start = numStart
		}
		if start > 0 {
			r := lastRune(s[:start])
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == ':' || r == '#' {
				continue
			}
		}
		if end < len(s) {
			r := firstRune(s[end:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' {
				continue
			}
			if (r == ':' || r == '/') && end+1 < len(s) && s[end+1] >= '0' && s[end+1] <= '9' {
				continue // 9:16, 10:10, 1/2
			}
		}
		if m[6] < 0 && m[8] < 0 && timeUnitRE.MatchString(s[end:]) {
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(s[m[4]:m[5]], ",", ""), 64)
		if err != nil {
			continue
		}
		t := numTok{Start: start, End: end, Value: v, Scale: 1, Text: strings.TrimSpace(s[start:end])}
		if m[2] >= 0 {
			t.Cur = s[m[2]:m[3]]
		}
		if m[6] >= 0 {
			switch u := s[m[6]:m[7]]; strings.ToLower(u) {
			case "k", "thousand":
				t.Scale, t.Unit = 1e3, "k"
			case "m", "mn", "million":
				if u == "m" && t.Cur == "" {
					// "5 m" is metres more often than millions, unless money.
					t.End = m[6]
					t.Text = strings.TrimSpace(s[start:t.End])
					break
				}
				t.Scale, t.Unit = 1e6, "M"
			case "b", "bn", "billion":
				t.Scale, t.Unit = 1e9, "B"
			}
		}
		t.Pct = m[8] >= 0
		out = append(out, t)
	}
	return out
}

func lastRune(s string) rune {
	r := []rune(s)
	if len(r) == 0 {
		return 0
	}
	return r[len(r)-1]
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

// labelStop are words that end a label read next to a number ("a pie chart of 40% red":
// "of" stops the label before 40%, so the label is "red", after it).
var labelStop = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "with": true, "and": true, "or": true, "to": true,
	"from": true, "for": true, "in": true, "on": true, "at": true, "by": true, "is": true, "are": true,
	"was": true, "be": true, "chart": true, "graph": true, "pie": true, "donut": true, "doughnut": true,
	"bar": true, "bars": true, "line": true, "plot": true, "showing": true, "shows": true, "show": true,
	"then": true, "reaching": true, "reaches": true, "up": true, "down": true, "counter": true,
	"counts": true, "count": true, "counting": true, "percent": true, "values": true, "value": true,
	"data": true, "slice": true, "slices": true, "segment": true, "segments": true, "over": true,
	"each": true, "per": true, "about": true, "around": true, "that": true, "which": true, "where": true,
	"its": true, "it": true, "their": true, "as": true, "like": true, "vs": true, "versus": true,
	"rising": true, "growing": true, "falling": true, "makes": true, "goes": true, "go": true,
	"fills": true, "fill": true, "hits": true, "hit": true, "until": true, "progress": true,
}

var labelWordRE = regexp.MustCompile(`[\p{L}][\p{L}\p{N}'’&.+-]*|[\p{N}]+[\p{L}]+`)

// segmentEnd reports whether r separates list entries.
func segmentEnd(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '(' || r == ')' }

// labelBefore reads up to three label words ending right before position at in s, and
// where the label starts.
func labelBefore(s string, at int) (string, int) {
	j := strings.TrimRight(s[:at], " \t")
	// One separator may stand between a label and its value: "Rent: 40%", "Q1 = 12".
	for _, sep := range []string{":", "=", "–", "—", "-"} {
		if strings.HasSuffix(j, sep) {
			j = strings.TrimRight(strings.TrimSuffix(j, sep), " \t")
			break
		}
	}
	if m := yearLabelRE.FindStringSubmatchIndex(j); m != nil {
		return j[m[2]:m[3]], m[2] // "2010 12%": a year names the value after it
	}
	var words []string
	start := -1
	for len(words) < 3 {
		loc := lastWordRE.FindStringSubmatchIndex(j)
		if loc == nil {
			break
		}
		w := j[loc[2]:loc[3]]
		if labelStop[strings.ToLower(w)] || isCountWord(w) {
			break
		}
		words = append([]string{w}, words...)
		start = loc[2]
		j = j[:loc[2]]
		// Words of one label are separated by single spaces; anything else ends it.
		if !strings.HasSuffix(j, " ") || strings.HasSuffix(j, "  ") {
			break
		}
		j = j[:len(j)-1]
	}
	// "comparing Apples": the capitalised name is the label, not the verb before it.
	for len(words) > 1 && unicode.IsLower(firstRune(words[0])) && unicode.IsUpper(firstRune(words[len(words)-1])) {
		start += len(words[0]) + 1
		words = words[1:]
	}
	return strings.Join(words, " "), start
}

// yearInGapRE is a year ending the gap before a value.
var yearInGapRE = regexp.MustCompile(`\b(?:19|20)\d\d\s*[:=–-]?\s*$`)

// yearLabelRE is a year standing right before a value, as its label.
var yearLabelRE = regexp.MustCompile(`(?:^|[\s,;:(])((?:19|20)\d\d)$`)

// yearLabels drops the years that label the value right after them ("2010 12%, 2020
// 31%") from the values: they are the list's labels.
func yearLabels(s string, nums []numTok) []numTok {
	var keep []numTok
	for k, n := range nums {
		year := n.Cur == "" && n.Unit == "" && !n.Pct && n.Value >= 1900 && n.Value <= 2100 && n.Value == math.Trunc(n.Value)
		if year && k+1 < len(nums) && strings.Trim(s[n.End:nums[k+1].Start], " :=–-") == "" {
			continue
		}
		keep = append(keep, n)
	}
	return keep
}

var lastWordRE = regexp.MustCompile(`(?:^|[^\p{L}\p{N}'’&+])([\p{L}][\p{L}\p{N}'’&+-]*)$`)

// labelAfter reads up to two label words right after position at in s ("40% red").
func labelAfter(s string, at int) string {
	rest := s[at:]
	var words []string
	for len(words) < 2 {
		trimmed := strings.TrimLeft(rest, " \t")
		if trimmed == rest && len(words) > 0 || trimmed == "" {
			break
		}
		w := labelWordRE.FindString(trimmed)
		if w == "" || !strings.HasPrefix(trimmed, w) {
			break
		}
		w = strings.TrimRight(w, ".")
		if labelStop[strings.ToLower(w)] {
			if len(words) == 0 && (strings.EqualFold(w, "in") || strings.EqualFold(w, "of")) {
				// "$4.5M in revenue", "25% of sales": the label follows the preposition.
				rest = trimmed[len(w):]
				continue
			}
			break
		}
		words = append(words, w)
		rest = trimmed[len(w):]
		if r := firstRune(rest); r != ' ' && r != '\t' {
			break
		}
	}
	return strings.Join(words, " ")
}

func isCountWord(w string) bool {
	_, ok := numberWords[strings.ToLower(w)]
	return ok && len(w) > 2
}

// dataList is the longest run of numbers a prompt writes as a list, with their labels.
type dataList struct {
	Nums   []numTok
	Labels []string
	Start  int // where the list (its first label) begins in the prompt
}

// readList finds the prompt's list of values: numbers separated only by list
// punctuation, each labelled by the words right before it ("Q1 12") or, when those are
// missing, right after it ("40% red").
func readList(s string, nums []numTok) dataList {
	var best dataList
	for i := 0; i < len(nums); {
		j := i + 1
		for j < len(nums) && listGap(s[nums[j-1].End:nums[j].Start]) {
			j++
		}
		run := nums[i:j]
		if len(run) > len(best.Nums) {
			best = dataList{Nums: run, Start: run[0].Start}
		}
		i = j
	}
	if len(best.Nums) < 2 {
		return dataList{}
	}
	before := make([]string, len(best.Nums))
	after := make([]string, len(best.Nums))
	nb, na := 0, 0
	firstStart := best.Nums[0].Start
	for k, n := range best.Nums {
		if l, at := labelBefore(s, n.Start); l != "" {
			before[k], nb = l, nb+1
			if k == 0 {
				firstStart = at
			}
		}
		if l := labelAfter(s, n.End); l != "" {
			after[k], na = l, na+1
		}
	}
	switch {
	case nb >= na && nb > 0:
		best.Labels = before
		best.Start = firstStart
	case na > 0:
		best.Labels = after
	default:
		best.Labels = make([]string, len(best.Nums))
	}
	return best
}

// listGap is what may stand between two values of one list: the previous entry's label
// and separators ("12, Q2 ", "% red, ", " and ").
var listGapRE = regexp.MustCompile(`^(?:[\s:=–—-]*[\p{L}][\p{L}\p{N}'’&.+-]*){0,3}\s*(?:[,;/]|\band\b|\s)\s*(?:and\s+)?(?:[\p{L}][\p{L}\p{N}'’&.+-]*\s*){0,3}[:=–—-]?\s*$`)

func listGap(g string) bool {
	if len(g) > 40 || strings.ContainsAny(g, ".!?") && !strings.Contains(g, "...") {
		return false
	}
	if !strings.ContainsAny(g, ",;/") && !strings.Contains(" "+g+" ", " and ") {
		return false
	}
	// A year labelling the next value stands in the gap as a word would ("12%, 2020 31%").
	return listGapRE.MatchString(yearInGapRE.ReplaceAllString(g, "Year "))
}

var (
	dayNames   = []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}
	monthNames = []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	rangeRE    = regexp.MustCompile(`(?i)\b(mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*(?:–|—|-|to|through|thru|until)\s*(mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b`)
	quarterRE  = regexp.MustCompile(`(?i)\bq([1-4])\s*(?:–|—|-|to|through)\s*q([1-4])\b`)
	yearsRE    = regexp.MustCompile(`\b((?:19|20)\d\d)\s*(?:–|—|-|to|through|until)\s*((?:19|20)\d\d)\b`)
	weekRE     = regexp.MustCompile(`(?i)\b(?:days? of (?:the|a) week|over (?:the|a) week|(?:this|the|a|last|per) week|weekly|each day|daily|weekdays?)\b`)
	yearRE     = regexp.MustCompile(`(?i)\b(?:months? of (?:the|a) year|over (?:the|a) year|monthly|(?:this|the|a|last) year|12 months|twelve months)\b`)
	quarterlyR = regexp.MustCompile(`(?i)\b(?:quarterly|quarters|per quarter|by quarter)\b`)
)

// axisLabels are the categories a prompt names without values ("over the days of a
// week", "Mon–Sun", "Q1–Q4", "2019 to 2024").
func axisLabels(s string) []string {
	if m := rangeRE.FindStringSubmatch(s); m != nil {
		for _, names := range [][]string{dayNames, monthNames} {
			a, b := indexFold(names, m[1]), indexFold(names, m[2])
			if a >= 0 && b >= 0 {
				var out []string
				for i := a; ; i = (i + 1) % len(names) {
					out = append(out, names[i])
					if i == b || len(out) > len(names) {
						break
					}
				}
				return out
			}
		}
	}
	if m := quarterRE.FindStringSubmatch(s); m != nil {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		var out []string
		for q := a; q <= b; q++ {
			out = append(out, "Q"+strconv.Itoa(q))
		}
		if len(out) >= 2 {
			return out
		}
	}
	if m := yearsRE.FindStringSubmatch(s); m != nil {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		if b > a && b-a <= 12 {
			var out []string
			for y := a; y <= b; y++ {
				out = append(out, strconv.Itoa(y))
			}
			return out
		}
	}
	switch {
	case weekRE.MatchString(s):
		return append([]string(nil), dayNames...)
	case yearRE.MatchString(s):
		return append([]string(nil), monthNames...)
	case quarterlyR.MatchString(s):
		return []string{"Q1", "Q2", "Q3", "Q4"}
	}
	return nil
}

func indexFold(list []string, s string) int {
	for i, v := range list {
		if strings.EqualFold(v, s[:min(len(s), 3)]) {
			return i
		}
	}
	return -1
}

var (
	pieRE        = regexp.MustCompile(`(?i)\bpie\b`)
	donutRE      = regexp.MustCompile(`(?i)\b(?:donut|doughnut|ring chart)\b`)
	lineRE       = regexp.MustCompile(`(?i)\b(?:line (?:graph|chart|plot)|trend ?line|sparkline|line over|graph (?:rising|falling|climbing|growing|going)|graph of .* over)\b`)
	graphDrawnRE = regexp.MustCompile(`(?i)\b(?:graph|plot)\b.*\b(?:draw(?:s|ing|n)?|left to right|traces?|tracing)\b`)
	barRE        = regexp.MustCompile(`(?i)\b(?:bar|bars|column|columns|histogram)\b`)
	chartRE      = regexp.MustCompile(`(?i)\b(?:chart|graph|plot|bars|histogram|statistics|stats|metrics)\b`)
	countdownRE  = regexp.MustCompile(`(?i)\b(?:count(?:s|ing)?[ -]?down|timer)\b`)
	checklistRE  = regexp.MustCompile(`(?i)\b(?:check ?list|to-?do(?: list)?|task list|check ?boxe?s?|tick(?:ed|s)? off|check(?:ed|s)? off|checking off|ticking off|(?:tick|check)(?:s|ing)?\s+(?:each|every|the|them|it|all)(?:\s+\w+){0,2}\s+off)\b`)
	clockRE      = regexp.MustCompile(`(?i)\b(?:clock|watch face|wall clock|stopwatch)\b`)
	progressRE   = regexp.MustCompile(`(?i)\b(?:progress|loading|upload(?:ing)?|download(?:ing)?) ?(?:bar|meter|indicator)\b|\bprogress\b.*\b(?:fills?|to|reach(?:es)?)\b.*%`)
	// surfaceCounterRE: a counter something is on or behind ("on a kitchen counter",
	// "behind the counter"): a surface of the place, never a number counting (the
	// subject reading's placeObject says the same of the word).
	surfaceCounterRE = regexp.MustCompile(`(?i)\b(?:` + strings.Join(slices.Sorted(maps.Keys(surfacePreps)), "|") + `)\s+(?:(?:a|an|the|my|our|this|that|its|his|her|their)\s+)?(?:[a-z]+\s+)?counters?\b`)
	counterRE        = regexp.MustCompile(`(?i)\b(?:counter|count(?:s|ing)? up|ticks? up|odometer|tally|number (?:counting|rising|climbing|going up|ticking)|counts? to)\b`)
	risingRE         = regexp.MustCompile(`(?i)\b(?:ris(?:e|es|ing)|grow(?:s|ing|th)?|increas(?:e|es|ing)|climb(?:s|ing)?|up(?:ward)?|gain(?:s|ing)?)\b`)
	fallingRE        = regexp.MustCompile(`(?i)\b(?:fall(?:s|ing)?|declin(?:e|es|ing)|drop(?:s|ping)?|decreas(?:e|es|ing)|down(?:ward)?|shrink(?:s|ing)?)\b`)
)

// dataKinds lists the data elements a prompt asks for, in prompt order.
func dataKinds(s string) []string {
	type hit struct {
		kind string
		at   int
	}
	var hits []hit
	add := func(kind string, re *regexp.Regexp) {
		if loc := re.FindStringIndex(s); loc != nil {
			hits = append(hits, hit{kind, loc[0]})
		}
	}
	add(dataChecklist, checklistRE)
	add(dataClock, clockRE)
	add(dataProgress, progressRE)
	add(dataCountdown, countdownRE)
	if countdownRE.FindStringIndex(s) == nil {
		// "3, 2, 1, Go!" is a countdown without the word.
		if loc := countdownRunAt(s); loc >= 0 {
			hits = append(hits, hit{dataCountdown, loc})
		}
	}
	if kind, at := namedChart(s); kind != "" {
		hits = append(hits, hit{kind, at})
	} else if loc := chartRE.FindStringIndex(s); loc != nil {
		kind := dataBar
		switch {
		case pieRE.MatchString(s):
			kind = dataPie
		case donutRE.MatchString(s):
			kind = dataDonut
		case lineRE.MatchString(s):
			kind = dataLine
		case !barRE.MatchString(s) && axisLabels(s) != nil && strings.Contains(strings.ToLower(s), "graph"):
			kind = dataLine // "a graph over the week" is a line
		case !barRE.MatchString(s) && graphDrawnRE.MatchString(s):
			kind = dataLine // "a graph of user growth drawing from left to right": a pen's line
		}
		at := loc[0]
		for _, re := range []*regexp.Regexp{pieRE, donutRE, lineRE, barRE} {
			if l := re.FindStringIndex(s); l != nil && l[0] < at {
				at = l[0]
			}
		}
		hits = append(hits, hit{kind, at})
	} else if pieRE.MatchString(s) && strings.Contains(s, "%") {
		hits = append(hits, hit{dataPie, pieRE.FindStringIndex(s)[0]})
	}
	if loc := counterRE.FindStringIndex(surfaceCounterRE.ReplaceAllStringFunc(s, blankOut)); loc != nil {
		hits = append(hits, hit{dataCounter, loc[0]})
	}
	// A bare list of labelled values ("Q1 12, Q2 18, Q3 25, Q4 31") is a bar chart.
	if len(hits) == 0 {
		if l := readList(s, numbers(s)); len(l.Nums) >= 3 && nonEmpty(l.Labels) >= len(l.Nums)-1 {
			hits = append(hits, hit{dataBar, l.Start})
		}
	}
	// Prompt order; a countdown that is also a timer clock stays a countdown.
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && hits[j].at < hits[j-1].at; j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	var out []string
	for _, h := range hits {
		out = append(out, h.kind)
	}
	return out
}

func nonEmpty(list []string) int {
	n := 0
	for _, s := range list {
		if strings.TrimSpace(s) != "" {
			n++
		}
	}
	return n
}

// readData reads the data of a data element of the given kind from the prompt s
// (original case, quotes included). It never fails: missing data gets sensible values
// ("a line graph rising over the week" rises over Mon–Sun).
func readData(kind, s string) *dataSpec {
	d := &dataSpec{Kind: kind}
	nums := numbers(s)
	switch kind {
	case dataBar, dataPie, dataDonut, dataLine:
		readChart(d, s, nums)
		d.Across = kind == dataBar && acrossRE.MatchString(s)
	case dataWaterfall:
		readWaterfall(d, s)
	case dataRadar:
		readRadar(d, s)
	case dataHeatmap:
		readHeatmap(d, s)
	case dataScatter:
		readScatter(d, s)
	case dataTreemap:
		readTreemap(d, s)
	case dataPyramid:
		readPyramid(d, s)
	case dataCounter:
		readCounter(d, s, nums)
	case dataCountdown:
		d.Items = countdownItems(s)
	case dataChecklist:
		d.Items = checklistItems(s)
		if openLastRE.MatchString(s) && len(d.Items) > 1 {
			d.Open = 1
		}
	case dataClock:
		d.Turns, d.Hour = 1, 10+10.0/60
		if m := clockTimeRE.FindStringSubmatch(s); m != nil {
			h, _ := strconv.Atoi(m[1])
			mm, _ := strconv.Atoi(m[2])
			d.Hour = float64(h%12) + float64(mm)/60
		} else if m := oclockRE.FindStringSubmatch(s); m != nil {
			h, err := strconv.Atoi(m[1])
			if err != nil {
				h = int(numberWords[strings.ToLower(m[1])])
			}
			d.Hour = float64(h % 12)
		}
		if n := parseCount(strings.ToLower(s)); n > 0 {
			d.Turns = float64(n)
		}
	case dataProgress:
		d.To, d.Suffix = 100, "%"
		for _, n := range nums {
			if n.Pct {
				d.To = n.Value
			}
		}
		if d.To <= 0 || d.To > 100 {
			d.To = 100
		}
		if m := regexp.MustCompile(`(?i)\b(loading|uploading|downloading|installing|syncing|saving)\b`).FindString(s); m != "" {
			d.Label = capitalize(strings.ToLower(m)) + "…"
		}
	}
	return d
}

var (
	clockTimeRE = regexp.MustCompile(`\b(1[0-2]|0?[1-9]):([0-5]\d)\b`)
	oclockRE    = regexp.MustCompile(`(?i)\b(1[0-2]|[1-9]|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s*o['’]?\s*clock\b`)
)

// fromToRE is what stands between the two values of "from $1.2M in 2021 to $4.5M in 2024".
var (
	fromToGapRE  = regexp.MustCompile(`(?i)^\s*(?:(?:in|by|during)\s+((?:19|20)\d\d)\s*)?(?:to|→|->|–)\s*$`)
	yearAfterRE  = regexp.MustCompile(`(?i)^\s*(?:in|by|during)\s+((?:19|20)\d\d)\b`)
	fromBeforeRE = regexp.MustCompile(`(?i)\bfrom\s*$`)
)

// fromTo reads "from X (in Y1) to Z (in Y2)": two values, labelled by their years.
func fromTo(s string, nums []numTok) dataList {
	var vals []numTok
	for _, n := range nums {
		if n.Cur == "" && n.Unit == "" && !n.Pct && n.Value >= 1900 && n.Value <= 2100 && n.Value == math.Trunc(n.Value) {
			continue // a year
		}
		vals = append(vals, n)
	}
	for i := 0; i+1 < len(vals); i++ {
		a, b := vals[i], vals[i+1]
		if !fromBeforeRE.MatchString(s[:a.Start]) || !fromToGapRE.MatchString(s[a.End:b.Start]) {
			continue
		}
		l := dataList{Nums: []numTok{a, b}, Labels: []string{"", ""}, Start: a.Start}
		if m := fromToGapRE.FindStringSubmatch(s[a.End:b.Start]); m[1] != "" {
			l.Labels[0] = m[1]
		}
		if m := yearAfterRE.FindStringSubmatch(s[b.End:]); m != nil {
			l.Labels[1] = m[1]
		}
		if l.Labels[0] == "" || l.Labels[1] == "" {
			l.Labels = []string{"Before", "After"}
		}
		return l
	}
	return dataList{}
}

func readChart(d *dataSpec, s string, nums []numTok) {
	// Years written as a range are axis labels, not values.
	if m := yearsRE.FindStringIndex(s); m != nil {
		var keep []numTok
		for _, n := range nums {
			if n.Start < m[0] || n.Start >= m[1] {
				keep = append(keep, n)
			}
		}
		nums = keep
	}
	nums = yearLabels(s, nums)
	l := readList(s, nums)
	if len(l.Nums) == 0 {
		l = fromTo(s, nums)
	}
	if len(l.Nums) == 0 && (d.Kind == dataPie || d.Kind == dataDonut) {
		// "A donut chart showing 60% complete": one share of a whole, and the rest of it.
		if share := onePercent(nums); share != nil {
			lab := orDefault(capitalize(labelAfter(s, share.End)), "Done")
			d.Values, d.Labels, d.Suffix = []float64{share.Value, math.Round((100-share.Value)*10) / 10}, []string{lab, "Remaining"}, "%"
			d.Title = chartTitle(s, share.Start)
			return
		}
	}
	if len(l.Nums) == 0 {
		// One number, or none: a chart of the axis the prompt names with a made-up trend.
		d.Labels = axisLabels(s)
		if len(d.Labels) == 0 {
			if d.Kind == dataPie || d.Kind == dataDonut {
				d.Labels = []string{"A", "B", "C"}
			} else {
				d.Labels = []string{"", "", "", "", ""}
			}
		}
		d.Values = trend(s, len(d.Labels), d.Kind)
		if d.Kind == dataPie || d.Kind == dataDonut {
			d.Suffix = "%"
		}
		if nonEmpty(d.Labels) == 0 {
			d.Labels = nil
		}
		d.Title = chartTitle(s, len(s))
		return
	}
	scale := l.Nums[0].Scale
	same := true
	d.Prefix = l.Nums[0].Cur
	for _, n := range l.Nums {
		if n.Scale != scale {
			same = false
		}
		if n.Cur != d.Prefix {
			d.Prefix = "" // "$4.5M" among plain numbers: no currency for all
		}
		if n.Pct {
			d.Suffix = "%"
		}
	}
	for _, n := range l.Nums {
		v := n.Value
		if !same {
			v *= n.Scale // mixed units: compare in plain numbers
		}
		d.Values = append(d.Values, v)
	}
	if same && l.Nums[0].Unit != "" && d.Suffix == "" {
		d.Suffix = l.Nums[0].Unit
	}
	d.Labels = make([]string, len(l.Labels))
	d.Colors = make([]string, len(l.Labels))
	colored := 0
	for i, lab := range l.Labels {
		if c, ok := colorOf(strings.ToLower(lab)); ok {
			d.Colors[i], colored = c, colored+1
			lab = capitalize(lab)
		} else if f := strings.Fields(lab); len(f) == 2 {
			// "Rent in red" is not written like this, but "Rent red" after a list is rare:
			// a trailing colour word colours the entry and leaves the label.
			if c, ok := colorOf(strings.ToLower(f[1])); ok {
				d.Colors[i], colored = c, colored+1
				lab = f[0]
			}
		}
		d.Labels[i] = lab
	}
	if colored == 0 {
		d.Colors, d.Scale = listColors(s[min(l.Nums[len(l.Nums)-1].End, len(s)):], len(d.Values))
	}
	if runs := runColors(s, len(d.Values)); runs != nil {
		d.Colors, d.Scale = runs, nil
	}
	if nonEmpty(d.Labels) < (len(d.Labels)+1)/2 {
		// "Mon–Sun: 3, 5, 4…": unlabelled values take the axis the prompt names.
		l.Start = l.Nums[0].Start
		if axis := axisLabels(s); len(axis) == len(d.Values) {
			d.Labels, d.Colors = axis, nil
		} else if nonEmpty(d.Labels) == 0 {
			d.Labels = nil
		}
	}
	if (d.Kind == dataPie || d.Kind == dataDonut) && d.Suffix == "%" {
		sum := 0.0
		for _, v := range d.Values {
			sum += v
		}
		if sum < 99.5 && sum > 0 {
			// "40% red, 35% blue": the rest of the whole is a slice too.
			d.Values = append(d.Values, math.Round((100-sum)*10)/10)
			d.Labels = append(d.Labels, "Other")
			if d.Colors != nil {
				d.Colors = append(d.Colors, "")
			}
		}
	}
	d.Title = chartTitle(s, l.Start)
}

// runColorRE: a colour for a run of the values at one end ("the first three grey",
// "the last two bars in green").
var runColorRE = regexp.MustCompile(`(?i)\b(first|last)\s+(\w+)\s+(?:(?:bars?|columns?|ones?|months?|values?|slices?)\s+)?(?:(?:are|in|as|turn|go)\s+)?([a-z]+)`)

// runColors colours the runs of n values a prompt names by their end, or nil.
func runColors(s string, n int) []string {
	var out []string
	for _, m := range runColorRE.FindAllStringSubmatch(s, -1) {
		c, ok := colorOf(strings.ToLower(m[3]))
		if !ok {
			continue
		}
		k, err := strconv.Atoi(m[2])
		if err != nil {
			k = int(numberWords[strings.ToLower(m[2])])
		}
		if k <= 0 || k > n {
			continue
		}
		if out == nil {
			out = make([]string, n)
		}
		for i := 0; i < k; i++ {
			if strings.EqualFold(m[1], "first") {
				out[i] = c
			} else {
				out[n-1-i] = c
			}
		}
	}
	return out
}

// seriesColorRE finds the colour words after a chart's list: "with orange and blue
// bars", "blue to red".
var seriesColorRE = regexp.MustCompile(`[a-z]+`)

// listColors reads the colour words written after a chart's list of n entries: one
// colour each in order ("orange and blue bars"), or a scale from the first to the last
// ("blue to red"); nil for both when the words are not that.
func listColors(rest string, n int) (each, scale []string) {
	var cs []string
	ramp := false
	for _, w := range seriesColorRE.FindAllString(strings.ToLower(rest), -1) {
		if c, ok := colorOf(w); ok {
			cs = append(cs, c)
		} else if w == "to" && len(cs) == 1 {
			ramp = true
		}
	}
	switch {
	case n < 2 || len(cs) < 2:
		return nil, nil
	case len(cs) == n && !ramp:
		return cs, nil
	case ramp && len(cs) == 2:
		return nil, cs
	}
	return nil, nil
}

// onePercent is the prompt's only number when it is a share of a whole (0–100 %).
func onePercent(nums []numTok) *numTok {
	if len(nums) != 1 || !nums[0].Pct || nums[0].Value <= 0 || nums[0].Value >= 100 {
		return nil
	}
	return &nums[0]
}

// chartTitle is what the prompt says the chart is of: the words around its chart noun
// before its list, less the chart words ("Bar chart of quarterly revenue: Q1 12…" →
// "Quarterly revenue", "Temperature line graph from Jan to Dec" → "Temperature").
func chartTitle(s string, listStart int) string {
	head := s[:min(listStart, len(s))]
	// The sentence the list is in (a decimal point is not a full stop).
	if locs := sentenceEndRE.FindAllStringIndex(head, -1); len(locs) > 0 {
		head = head[locs[len(locs)-1][1]:]
	}
	head = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(head), ":-–—,"))
	// A quoted line before the figures is the chart's title as the prompt wrote it
	// ("poll results reveal: 'Pineapple on pizza?' YES 46%"), not the words around it.
	if m := titleQuoteRE.FindStringSubmatch(head); m != nil {
		return strings.TrimSpace(m[1] + m[2] + m[3])
	}
	// A comma ends the title: what follows is about the look ("…, neon", "…, in blue").
	if i := strings.Index(head, ","); i >= 0 {
		head = head[:i]
	}
	var cands []string
	if loc := chartNounRE.FindStringIndex(strings.ToLower(head)); loc != nil {
		cands = []string{titleLeadRE.ReplaceAllString(head[loc[1]:], ""), head[:loc[0]]}
	} else if listStart < len(s) {
		cands = []string{head}
	}
	for _, c := range cands {
		if t := cleanTitle(c); t != "" {
			return capitalize(t)
		}
	}
	return ""
}

var (
	// titleQuoteRE: a quoted line of 2–60 characters; an apostrophe inside a word
	// ("the year's") opens no quote.
	titleQuoteRE  = regexp.MustCompile(`"([^"]{2,60})"|“([^”]{2,60})”|(?:^|[\s:(])'([^']{2,60})'(?:[\s.,:;!?)]|$)`)
	sentenceEndRE = regexp.MustCompile(`[.!?](?:\s+|$)|\n`)
	chartNounRE   = regexp.MustCompile(`\b(?:(?:line|bar|column|pie|donut|doughnut|area|waterfall|bridge|radar|spider|polar|scatter|bubble|butterfly|tornado|x-?y)\s+)?(?:chart|graph|plot|histogram)s?\b|\bheat[\s-]?maps?\b|\btree[\s-]?maps?\b|\bscatter(?:plot|gram)s?\b|\b(?:population|age|age-sex|demographic)\s+pyramids?\b`)
	titleLeadRE   = regexp.MustCompile(`(?i)^\s*(?:of|showing|for|with|about|on)\b\s*`)
	titleTailRE   = regexp.MustCompile(`(?i)\b(?:rising|growing|falling|climbing|dropping|went|grew|rose|fell|climbed|dropped|jumped|increased|decreased|doubled|tripled|shrank|that (?:rises|grows|falls)|morph(?:s|ing)?|animated|animating|drawing|draws|drawn|tracing|which|where|with|showing|comparing|compares|versus|vs)\b.*$`)
	titleLeadAdj  = regexp.MustCompile(`(?i)^(?:(?:a|an|the|my|our|your|show|shows|animate|create|make|draw|smooth|simple|minimal|clean|playful|animated|elegant|cinematic|neon|pastel|bold|colou?rful|big|small|nice|modern|vertical|horizontal|square|portrait|landscape|story|stories|reel|reels|tiktok|instagram|youtube|post|video|clip|short|shorts)(?:\s+|$))+`)
	titlePrepRE   = regexp.MustCompile(`(?i)^(?:(?:from|over|to|between|for|by|in|of|on|across|during)(?:\s+|$))+|(?:\s+(?:from|over|to|between|for|by|in|of|on|across|during|as(?:\s+(?:a|an|the))?))+$`)
	titleInRE     = regexp.MustCompile(`(?i)\s+in\s+[a-z]+(?:\s+[a-z]+)?$`)
	titleCountRE  = regexp.MustCompile(`(?i)\d+\s+(?:segments?|slices?|bars?|items?|values?|parts?|points?|categories|columns?)`)
)

// cleanTitle keeps what names the data: no ranges, trends, styles or counts.
func cleanTitle(c string) string {
	for _, re := range []*regexp.Regexp{ratioRE, rangeRE, quarterRE, yearsRE, titleTailRE} {
		c = re.ReplaceAllString(c, "")
	}
	c = strings.TrimSpace(c)
	if m := titleInRE.FindString(c); m != "" {
		// "… in pastel", "… in blue": a look, not a name.
		for _, w := range strings.Fields(strings.ToLower(m))[1:] {
			if isColorTok(w) || paletteWordsRE.MatchString(w) {
				c = strings.TrimSpace(strings.TrimSuffix(c, m))
				break
			}
		}
	}
	c = titleLeadAdj.ReplaceAllString(c, "")
	// A colour is the look, not the name: "a green graph" is no chart titled "Green";
	// nor is the video's format ("Square 1:1 donut chart" is no chart titled "1:1").
	var kept []string
	for _, w := range strings.Fields(c) {
		lw := strings.ToLower(w)
		if _, aspect := aspectWords[lw]; !isColorTok(lw) && !aspect {
			kept = append(kept, w)
		}
	}
	c = strings.Join(kept, " ")
	c = strings.TrimSpace(titlePrepRE.ReplaceAllString(strings.TrimSpace(c), ""))
	c = strings.TrimSpace(strings.Trim(c, ":-–—, "))
	if c == "" || len(strings.Fields(c)) > 6 || strings.ContainsAny(c, `"“”«`) || titleCountRE.MatchString(c) {
		return ""
	}
	if chartRE.MatchString(c) || pieRE.MatchString(c) {
		return ""
	}
	return c
}

// trend makes n values that follow the prompt's words: rising, falling or a wave.
func trend(s string, n int, kind string) []float64 {
	if kind == dataPie || kind == dataDonut {
		base := []float64{45, 30, 25, 20, 15, 10, 8, 6}
		out := make([]float64, n)
		sum := 0.0
		for i := range out {
			out[i] = base[min(i, len(base)-1)]
			sum += out[i]
		}
		for i := range out {
			out[i] = math.Round(out[i] / sum * 100)
		}
		return out
	}
	up, down := risingRE.MatchString(s), fallingRE.MatchString(s)
	wobble := []float64{0, 0.6, -0.4, 0.8, -0.2, 0.5, 0.1, -0.3, 0.7, 0, 0.4, -0.1}
	out := make([]float64, n)
	for i := range out {
		u := float64(i) / math.Max(1, float64(n-1))
		v := 50 + 10*math.Sin(u*math.Pi*2)
		switch {
		case up && !down:
			v = 20 + 80*u
		case down && !up:
			v = 100 - 75*u
		}
		out[i] = math.Round(v + 6*wobble[i%len(wobble)])
	}
	return out
}

// readCounter: "counter to 10,000 subscribers", "counts up from 0 to $4.5M in revenue",
// "a counter reaching 98%".
func readCounter(d *dataSpec, s string, nums []numTok) {
	d.To = 100
	low := strings.ToLower(s)
	anchor := 0
	if loc := counterRE.FindStringIndex(s); loc != nil {
		anchor = loc[0]
	}
	var target *numTok
	for i := range nums {
		n := &nums[i]
		if n.End < anchor && target != nil {
			continue
		}
		pre := strings.TrimSpace(low[max(0, n.Start-6):n.Start])
		if strings.HasSuffix(pre, "from") {
			d.From = n.Value
			continue
		}
		if target == nil || n.Start >= anchor {
			target = n
			if n.Start >= anchor {
				break
			}
		}
	}
	if target == nil {
		return
	}
	d.To, d.Prefix = target.Value, target.Cur
	switch {
	case target.Pct:
		d.Suffix = "%"
	case target.Unit != "":
		d.Suffix = target.Unit
	}
	if lab := labelAfter(s, target.End); lab != "" && !isColorTok(strings.ToLower(lab)) {
		d.Label = lab
	}
	// "a counter 'Night 1' … 'Night 8'", "from day 1 to day 30": one word numbered from
	// the first to the last; the counter reads "Night 1" up to "Night 8".
	if m := wordRangeRE.FindStringSubmatch(s); m != nil && strings.EqualFold(m[1], m[3]) {
		from, _ := strconv.ParseFloat(m[2], 64)
		to, _ := strconv.ParseFloat(m[4], 64)
		if to > from {
			d.From, d.To, d.Prefix, d.Suffix, d.Label = from, to, capitalize(strings.ToLower(m[1]))+" ", "", ""
		}
	}
}

// wordRangeRE: a word numbered twice, first to last ("Night 1 … Night 8", "day 1 to day
// 30"); the words between may be dots, a dash, "to" or "through", and quotes.
var wordRangeRE = regexp.MustCompile(`(?i)\b(night|day|week|month|year|round|level|step|lap|chapter|episode|stage|floor|mile|km|page)\s+(\d{1,4})["”'’]?\s*(?:\.\.\.|…|-|–|—|to|through|until|till)\s*["“'‘]?(night|day|week|month|year|round|level|step|lap|chapter|episode|stage|floor|mile|km|page)\s+(\d{1,4})\b`)

var (
	descRunRE   = regexp.MustCompile(`\b(\d{1,2})(?:\s*(?:[,.…;]+|-|–|—)\s*|\s+)(\d{1,2})(?:(?:\s*(?:[,.…;]+|-|–|—)\s*|\s+)(\d{1,2}))*`)
	countFromRE = regexp.MustCompile(`(?i)\bcount(?:s|ing)?[ -]?down\s+(?:(?:timer|clock|sequence)\s+)?(?:from\s+)?(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|sixty)\b(?:\s+to\s+(\d{1,2}|zero|one))?`)
	endWordRE   = regexp.MustCompile(`(?i)\b(?:then|ending|ends|end|followed by|finally|before)\b(?:\s+(?:with|on|in|by|at|showing|saying|reading|revealing))?(?:\s+(?:the|a|an|big|bold|final|last))*(?:\s+(?:words?|text|title|message))?[\s:,]*["“'‘]([^"”'’]{1,24})["”'’]`)
	finalWordRE = regexp.MustCompile(`^\s*(?:[,.…;:–—-]+\s*|\s+)(?:(?:and\s+)?then\s+)?["“']?([\p{L}][\p{L}'’]*(?:\s+[\p{L}][\p{L}'’]*){0,2}\s*!+|[\p{Lu}][\p{L}'’]*(?:\s+[\p{L}][\p{L}'’]*){0,2})`)
)

// countdownRunAt is where a written countdown ("3, 2, 1, Go!", "5 4 3 2 1") starts, or
// -1: three or more numbers falling by one down to 1 or 0.
func countdownRunAt(s string) int {
	for _, loc := range descRunRE.FindAllStringIndex(s, -1) {
		run := digitsRE.FindAllString(s[loc[0]:loc[1]], -1)
		if len(run) < 3 || !fallingByOne(run) {
			continue
		}
		if last, _ := strconv.Atoi(run[len(run)-1]); last <= 1 {
			return loc[0]
		}
	}
	return -1
}

var digitsRE = regexp.MustCompile(`\d{1,2}`)

func fallingByOne(run []string) bool {
	for i := 1; i < len(run); i++ {
		a, _ := strconv.Atoi(run[i-1])
		b, _ := strconv.Atoi(run[i])
		if b != a-1 {
			return false
		}
	}
	return true
}

// countdownItems reads a countdown's sequence: "3, 2, 1, Go!", "5 4 3 2 1 Liftoff!",
// "countdown from 5", "count down from ten to zero".
func countdownItems(s string) []string {
	for _, loc := range descRunRE.FindAllStringIndex(s, -1) {
		run := digitsRE.FindAllString(s[loc[0]:loc[1]], -1)
		if len(run) < 2 || !fallingByOne(run) {
			continue
		}
		items := run
		if m := finalWordRE.FindStringSubmatch(s[loc[1]:]); m != nil {
			w := strings.TrimSpace(m[1])
			if !labelStop[strings.ToLower(strings.Fields(w)[0])] {
				items = append(items, w)
			}
		}
		return items
	}
	from, to := 3, 1
	if m := countFromRE.FindStringSubmatch(s); m != nil {
		if v, err := strconv.Atoi(m[1]); err == nil {
			from = v
		} else {
			from = int(numberWords[strings.ToLower(m[1])])
		}
		if m[2] != "" {
			if v, err := strconv.Atoi(m[2]); err == nil {
				to = v
			} else if strings.EqualFold(m[2], "zero") {
				to = 0
			}
		}
	}
	from = min(max(from, 1), 60)
	var out []string
	for v := from; v >= to; v-- {
		out = append(out, strconv.Itoa(v))
	}
	// The word the countdown ends on ("… ending with the word 'Launch'", "…, then
	// 'LIVE'") is its last item: shown after the last number, in its place.
	if loc := countdownRE.FindStringIndex(s); loc != nil {
		if m := endWordRE.FindStringSubmatch(s[loc[1]:]); m != nil {
			out = append(out, strings.TrimSpace(m[1]))
		}
	}
	return out
}

var (
	colonListRE  = regexp.MustCompile(`:\s*(.+)$`)
	itemsAfterRE = regexp.MustCompile(`(?i)(?:check ?list|to-?do(?: list)?|task list|items?|tasks?|steps?|list|boxes)[^:.!?]*?(?::|\s[-—–]\s|\b(?:of|with|named|called|reading|saying)\b)\s*(.+)$`)
	// listEndRE ends a list set off by dashes ("… clipboard - Book the van, Pack … - each
	// box gets a tick").
	listEndRE = regexp.MustCompile(`\s[-—–]\s`)
	// openLastRE: the last item is left as it was ("last one still open", "the final box
	// stays unchecked").
	openLastRE  = regexp.MustCompile(`(?i)\b(?:last|final) (?:one|item|task|box|thing)\b[^.;]{0,30}\b(?:open|unchecked|unticked|empty|undone|not (?:ticked|checked|done))\b`)
	itemSplitRE = regexp.MustCompile(`\s*(?:,|;|\band then\b|\bthen\b|\band\b|/|·|→|->)\s*`)
)

// checklistItems reads a checklist's items: the list after a colon or "of"/"with"
// ("Checklist …: Plan, Build, Ship"); else as many numbered tasks as the prompt counts.
func checklistItems(s string) []string {
	var items []string
	// The list named as one ("a to-do list of …"), else any list after a colon ("sign-off
	// before the bell: goggles back, gas taps off, … Tick each line off").
	for _, re := range []*regexp.Regexp{itemsAfterRE, colonListRE} {
		if len(items) >= 2 {
			break
		}
		items = listItems(re, s)
	}
	if len(items) >= 2 && len(items) <= 8 {
		return items
	}
	return checklistDefault(s)
}

// listItems reads the short items of the list re's group 1 starts: up to the
// sentence's end or a dash, none longer than five words.
func listItems(re *regexp.Regexp, s string) []string {
	var items []string
	if m := re.FindStringSubmatch(s); m != nil {
		rest := m[1]
		if i := strings.IndexAny(rest, ".!?\n"); i >= 0 && !strings.HasPrefix(rest[i:], "...") {
			rest = rest[:i]
		}
		if loc := listEndRE.FindStringIndex(rest); loc != nil {
			rest = rest[:loc[0]]
		}
		for _, p := range itemSplitRE.Split(rest, -1) {
			p = strings.Trim(strings.TrimSpace(p), `"“”'‘’`)
			if p == "" {
				continue
			}
			if len(strings.Fields(p)) > 5 {
				items = nil
				break
			}
			items = append(items, capitalize(p))
		}
	}
	return items
}

// checklistDefault: the count a checklist names with no items ("four tasks"), as placeholders.
func checklistDefault(s string) []string {
	var items []string
	n := 3
	if m := regexp.MustCompile(`(?i)\b(two|three|four|five|six|seven|eight|[2-8])\s+(?:items?|tasks?|things|steps?|boxes|checkboxes|to-?dos?)\b`).FindStringSubmatch(s); m != nil {
		if v, err := strconv.Atoi(m[1]); err == nil {
			n = v
		} else {
			n = int(numberWords[strings.ToLower(m[1])])
		}
	}
	for i := 1; i <= n; i++ {
		items = append(items, "Task "+strconv.Itoa(i))
	}
	return items
}

// readAllData reads the data elements of a prompt. Quoted text a data element consumed
// (a countdown's "3, 2, 1, Go!") is returned so it is not shown again as a title.
func readAllData(prompt string) []*dataSpec {
	var out []*dataSpec
	data := plainData(prompt)
	for _, k := range dataKinds(prompt) {
		out = append(out, readData(k, data))
	}
	return out
}

// Data said in words, rewritten as the label-value lists the readers know: hedges and
// linking verbs between a label and its number go ("spring was about 1,200 cups,
// summer dipped to 800" is "spring 1,200 cups, summer 800"), shares said as fractions
// become percentages ("meetings take about a third" is "meetings 33%"), and "the rest
// split evenly between A and B" shares what is left.
var (
	dataLinkRE = regexp.MustCompile(`(?i)\b(?:was|were|is|are|had|has|hit|reached|takes?|took|got|made|came in at|sits? at|stood at|ended at|the highest at|the lowest at|highest at|lowest at|(?:dipped|climbed|rose|fell|grew|dropped|jumped|slipped|increased|decreased|went (?:up|down)) to|at|of|about|around|roughly|approximately|nearly|almost|just|some|only|over|under)\s+((?:about|around|roughly|approximately|nearly|almost|just|some|only|over|under)\s+)?(?:(?:the\s+)?(?:highest|lowest)\s+at\s+)?([$€£]?\d|a (?:half|third|quarter|fifth)|half|one (?:half|third|quarter|fifth)|two thirds|three quarters)`)
	fractionRE = regexp.MustCompile(`(?i)\b(a half|one half|half|a third|one third|two thirds|a quarter|one quarter|three quarters|a fifth|one fifth)\b`)
	restRE     = regexp.MustCompile(`(?i),?\s*\b(?:and\s+)?the rest(?:\s+(?:is|are|goes|go))?\s+(?:split|divided|shared)\s+(?:evenly|equally)\s+(?:between|among)\s+([\p{L} ]+?)\s+and\s+([\p{L} ]+?)\s*(?:[.;,]|$)`)
)

var fractionPct = map[string]float64{"a half": 50, "one half": 50, "half": 50, "a third": 33, "one third": 33,
	"two thirds": 67, "a quarter": 25, "one quarter": 25, "three quarters": 75, "a fifth": 20, "one fifth": 20}

func plainData(prompt string) string {
	s := dataLinkRE.ReplaceAllString(prompt, "$2")
	used := 0.0
	fracs := 0
	s = fractionRE.ReplaceAllStringFunc(s, func(m string) string {
		v := fractionPct[strings.ToLower(m)]
		used += v
		fracs++
		return strconv.FormatFloat(v, 'f', -1, 64) + "%"
	})
	if fracs > 0 && used < 100 {
		left := strconv.FormatFloat(math.Round((100-used)/2), 'f', -1, 64)
		s = restRE.ReplaceAllString(s, ", $1 "+left+"%, $2 "+left+"%.")
	}
	return valuesInWhen(s)
}

// valueInRE is a value said with its time ("12% of our power in 2010", "90 in March",
// "$4M by Q3"): the value, up to five words it measures, and the year, month or quarter.
var valueInRE = regexp.MustCompile(`(?i)([$€£]?\d[\d,]*(?:\.\d+)?(?:\s?(?:%|percent|k|m|bn)\b|%)?)((?:\s+[\p{L}'’]+){0,5}?)\s+(?:in|by|during)\s+((?:19|20)\d\d|q[1-4]|` + monthW + `)\b`)

// chainGapRE joins the values of one series: "…, to …", "… and …", "… then …".
var chainGapRE = regexp.MustCompile(`(?i)^\s*(?:,|to|and|then|→|->|–|, and|, then|and then|, to)?\s*(?:then\s+)?$`)

// valuesInWhen rewrites a series told as a story ("went from 12% in 2010 to 31% in 2020
// and 48% in 2024", "fell from 90 in March to 40 in May") as the list it is ("2010 12%,
// 2020 31%, 2024 48%"), so the times label the values and no year is read as one.
func valuesInWhen(s string) string {
	ms := valueInRE.FindAllStringSubmatchIndex(s, -1)
	var b strings.Builder
	last := 0
	for i := 0; i < len(ms); {
		j := i
		for j+1 < len(ms) && chainGapRE.MatchString(s[ms[j][1]:ms[j+1][0]]) {
			j++
		}
		if j == i {
			i++
			continue
		}
		start := ms[i][0]
		if k := fromBeforeRE.FindStringIndex(s[last:start]); k != nil {
			start = last + k[0]
		}
		b.WriteString(s[last:start])
		b.WriteString(": ")
		for k := i; k <= j; k++ {
			if k > i {
				b.WriteString(", ")
			}
			m := ms[k]
			b.WriteString(s[m[6]:m[7]] + " " + s[m[2]:m[3]])
		}
		last = ms[j][1]
		i = j + 1
	}
	b.WriteString(s[last:])
	return b.String()
}

// dataNouns are the words that name each kind of data element, so the subject a prompt
// names ("the clock", "a progress bar") is drawn as that element whatever the lexicon
// maps the word to.
var dataNouns = map[string][]string{
	dataBar:       {"chart", "graph", "plot", "bars", "bar", "histogram", "statistics", "stats", "data", "revenue", "sales", "growth", "metrics"},
	dataLine:      {"chart", "graph", "plot", "line", "trend", "data", "revenue", "sales", "growth", "metrics"},
	dataPie:       {"chart", "graph", "pie", "data"},
	dataWaterfall: {"chart", "graph", "waterfall", "bridge", "walk", "data", "profit", "revenue"},
	dataRadar:     {"chart", "graph", "plot", "radar", "spider", "web", "data"},
	dataHeatmap:   {"chart", "heatmap", "map", "grid", "data"},
	dataScatter:   {"chart", "graph", "plot", "scatter", "scatterplot", "dots", "dot", "points", "bubbles", "bubble", "data"},
	dataTreemap:   {"chart", "treemap", "map", "tree", "blocks", "data"},
	dataPyramid:   {"chart", "graph", "pyramid", "butterfly", "tornado", "bars", "data", "population"},
	dataDonut:     {"chart", "graph", "donut", "doughnut", "ring", "data"},
	dataCounter:   {"counter", "number", "numbers", "score", "percentage", "percent", "odometer", "tally"},
	dataCountdown: {"countdown", "timer", "counter", "number", "numbers"},
	dataChecklist: {"checklist", "list", "todo", "to-do", "task", "tasks", "item", "items", "box", "boxes", "checkbox", "checkboxes", "checkmark", "check", "tick", "ticks", "clipboard"},
	dataClock:     {"clock", "clocks", "watch", "stopwatch"},
	dataProgress:  {"progress", "bar", "loader", "loading", "meter"},
}

// dataElement is the scene element type that draws a data kind.
var dataElement = map[string]string{
	dataBar: "chart", dataLine: "chart", dataPie: "chart", dataDonut: "chart", dataCounter: "counter",
	dataWaterfall: "chart", dataRadar: "chart", dataHeatmap: "chart", dataScatter: "chart", dataTreemap: "chart", dataPyramid: "chart",
	dataCountdown: "countdown", dataChecklist: "checklist", dataClock: "clock", dataProgress: "progress",
}

var dataSubjectNoun = map[string]string{
	dataBar: "chart", dataLine: "graph", dataPie: "pie chart", dataDonut: "donut chart", dataCounter: "counter",
	dataWaterfall: "waterfall chart", dataRadar: "radar chart", dataHeatmap: "heatmap",
	dataScatter: "scatter plot", dataTreemap: "treemap", dataPyramid: "population pyramid",
	dataCountdown: "countdown", dataChecklist: "checklist", dataClock: "clock", dataProgress: "progress bar",
}

// attachData gives each data element the subject that names it, turning that subject
// into the element that draws the data, or adds one ("Q1 12, Q2 18…" names no noun).
func (b *brief) attachData(data []*dataSpec) {
	used := map[int]bool{}
	for _, d := range data {
		idx := -1
		for _, want := range []bool{true, false} { // a subject of the right kind first
			for i, s := range b.Subjects {
				if used[i] || s.Kind == "particles" || (s.Kind == dataElement[d.Kind]) != want {
					continue
				}
				if want && s.Kind != "chart" && s.Kind != "counter" || containsFold(dataNouns[d.Kind], s.Noun) {
					idx = i
					break
				}
			}
			if idx >= 0 {
				break
			}
		}
		if idx < 0 {
			b.Subjects = append(b.Subjects, subject{Noun: dataSubjectNoun[d.Kind]})
			idx = len(b.Subjects) - 1
		}
		used[idx] = true
		b.Subjects[idx].Kind = dataElement[d.Kind]
		b.Subjects[idx].Data = d
		b.Subjects[idx].Variant = ""
	}
	// Words of the data are not subjects: "Sun 260" is a day, not a sun.
	labels := map[string]bool{}
	for _, d := range data {
		for _, l := range append(append(append([]string(nil), d.Labels...), d.Items...), d.Series...) {
			for _, w := range strings.Fields(strings.ToLower(l)) {
				labels[w] = true
			}
		}
		for _, w := range strings.Fields(strings.ToLower(d.Title + " " + d.Label)) {
			labels[w] = true
		}
	}
	for i, s := range b.Subjects {
		if !used[i] && (labels[strings.ToLower(s.Noun)] || inDataLabel(data, s.Noun)) {
			b.Subjects[i].Kind = "" // dropped below
		}
	}
	// A word for a part of a checklist already drawn ("each box gets a green tick",
	// "the item gets crossed out") is that element: its colour goes to it.
	for i, s := range b.Subjects {
		if used[i] || s.Kind == "" {
			continue
		}
		for k := range b.Subjects {
			if d := b.Subjects[k].Data; used[k] && d != nil && d.Kind == dataChecklist && containsFold(dataNouns[d.Kind], s.Noun) {
				if b.Subjects[k].Color == "" {
					b.Subjects[k].Color = s.Color
				}
				b.Subjects[i].Kind = "" // dropped below
				break
			}
		}
	}
	// A word for a part of a chart drawn by its shape (a radar's axes, a heatmap's cells
	// or the box around some, a waterfall's connectors) is that chart's own drawing.
	for _, d := range data {
		if !shapeChart(d.Kind) {
			continue
		}
		for i, s := range b.Subjects {
			if !used[i] && gridChartParts[strings.ToLower(s.Noun)] {
				b.Subjects[i].Kind = "" // dropped below
			}
		}
	}
	// A chart or counter the lexicon found but no data phrase named ("revenue growing")
	// still draws the prompt's numbers.
	has := map[string]bool{}
	for i, s := range b.Subjects {
		if len(data) > 0 || used[i] || has[s.Kind] || (s.Kind != "chart" && s.Kind != "counter") {
			continue
		}
		kind := dataBar
		if s.Kind == "counter" {
			kind = dataCounter
		}
		b.Subjects[i].Data = readData(kind, b.Prompt)
		used[i], has[s.Kind] = true, true
		data = append(data, b.Subjects[i].Data)
	}
	// A chart or counter word the data did not claim ("sales" in a counter prompt) is
	// not a second chart.
	if len(data) > 0 {
		var keep []subject
		for i, s := range b.Subjects {
			if !used[i] && (s.Kind == "" || s.Kind == "chart" || s.Kind == "counter" || s.Kind == "ring" && strings.EqualFold(s.Noun, "progress")) {
				continue
			}
			keep = append(keep, s)
		}
		b.Subjects = keep
	}
}

// inDataLabel reports a noun of two words or more that a data label holds whole ("ice
// cream" of "Ice cream sales"): a compound of the data, no subject beside it.
func inDataLabel(data []*dataSpec, noun string) bool {
	n := " " + strings.ToLower(noun) + " "
	if !strings.Contains(strings.TrimSpace(n), " ") {
		return false
	}
	for _, d := range data {
		for _, l := range append(append([]string(nil), d.Labels...), d.Series...) {
			if strings.Contains(" "+strings.ToLower(l)+" ", n) {
				return true
			}
		}
	}
	return false
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) || strings.EqualFold(v+"s", s) {
			return true
		}
	}
	return false
}

// unquoteData takes the quotes off text a data element shows itself (a countdown's
// "3, 2, 1, Go!", checklist items "Plan", "Build"), so it is not also shown as a title.
func unquoteData(prompt string, data []*dataSpec) string {
	items := map[string]bool{}
	for _, d := range data {
		if d.Kind != dataCountdown && d.Kind != dataChecklist {
			continue
		}
		for _, it := range d.Items {
			items[strings.ToLower(strings.Trim(it, "!. "))] = true
		}
	}
	if len(items) == 0 {
		return prompt
	}
	return quoteRE.ReplaceAllStringFunc(prompt, func(m string) string {
		sub := quoteRE.FindStringSubmatch(m)
		text := ""
		for _, s := range sub[1:] {
			if s != "" {
				text = s
			}
		}
		for _, part := range itemSplitRE.Split(text, -1) {
			p := strings.ToLower(strings.Trim(strings.TrimSpace(part), "!.… "))
			if p != "" && !items[p] {
				return m
			}
		}
		if !strings.ContainsAny(text, "0123456789") {
			// A word the element shows ("ending with the word 'Launch'") is no verb or
			// subject of the prompt: it goes, not just its quote marks.
			return ""
		}
		return stripQuoteMarks(m)
	})
}

func stripQuoteMarks(m string) string {
	return strings.NewReplacer(`"`, "", "“", "", "”", "", "‘", "", "’", "").Replace(strings.Replace(strings.Replace(m, "'", "", 1), "'", "", 1))
}

// blankOut replaces a match by as many spaces, so offsets into the text still hold.
func blankOut(m string) string { return strings.Repeat(" ", len(m)) }
