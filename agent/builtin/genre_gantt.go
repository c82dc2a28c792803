package builtin

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// A Gantt chart: a project's tasks as rows, each a bar over the periods it runs
// (weeks, months, days, dates or quarters), on one time axis; a "today" line and
// milestones as diamonds where the prompt places them.

// A ganttTask is one row: its name and the first and last period it runs, inclusive,
// in the plan's unit (week 3 is 3, March is 3, Q2 is 2, a date its day of the year).
type ganttTask struct {
	Name     string
	From, To float64
}

// A ganttPlan is what a prompt says of its project: the unit of its periods, the tasks
// in order, the milestones (From is To) and where today is (0 when it does not say).
type ganttPlan struct {
	Unit       string // week, month, day, quarter, sprint, date
	Tasks      []ganttTask
	Milestones []ganttTask
	Today      float64
}

const (
	ganttUnitW  = `weeks?|wks?|w|months?|mos?|days?|d|quarters?|sprints?`
	ganttPointW = `q[1-4]|(?:` + monthW + `)\.?(?:\s+\d{1,2}(?:st|nd|rd|th)?\b)?|\d{1,3}`
)

// ganttCueRE names a chart of tasks over time: a Gantt chart by name, a project's (or
// a launch's, a campaign's) timeline, plan or schedule, or a timeline whose tasks or
// phases are bars.
var ganttCueRE = regexp.MustCompile(`\bgantt\b|\b(?:project|production|release|launch|product|sprint|campaign|construction|content|delivery|build|wedding|event)\s+(?:timeline|plan(?:ning)?|schedule|roadmap)s?\b|\b(?:timeline|roadmap|schedule|plan)\b[^.]*\b(?:bars?|tasks?|phases?|workstreams?|swim ?lanes?)\b|\b(?:tasks?|phases?|workstreams?)\b[^.]*\bbars?\b`)

var (
	// ganttPeriodRE: the period at the end of a task ("weeks 3-5", "1–2", "(Mar–May)",
	// "from week 6 to week 8", "Q2-Q3", "Mar 3 - Mar 14", "week 9"), a unit glued to its
	// number too ("wk2-4", "w3-w5").
	ganttPeriodRE = regexp.MustCompile(`(?i)(?:\b(?:from|in|during|on|at|over|across|by)\s+)?(?:\(\s*)?(?:\b(?:the\s+)?(` + ganttUnitW + `)\.?\s*|\b)(` + ganttPointW + `)(?:\s*(?:[–—-]|\bto\b|\bthrough\b|\bthru\b|\buntil\b|\btill\b)\s*(?:(?:` + ganttUnitW + `)\.?\s*|\b)(` + ganttPointW + `))?\s*\)?\s*$`)
	// ganttNameRE: a task's name, a few words ("Wireframes", "QA & fixes").
	ganttNameRE = regexp.MustCompile(`^[A-Za-z][\w&'’/+.-]*(?:\s+[A-Za-z&][\w&'’/+.-]*){0,3}$`)
	// ganttSplitRE parts a list of tasks.
	ganttSplitRE = regexp.MustCompile(`\s*(?:[,;→]|\band then\b|\bthen\b|\band\b|\s/\s)\s*`)
	// ganttMarkRE: a piece that is a milestone, not a task.
	ganttMarkRE = regexp.MustCompile(`(?i)\bmilestones?\b|\bdiamonds?\b|\bdeadline\b`)
	// ganttTodayRE: where today stands ("a today line at week 5", "today is week 4").
	ganttTodayRE = regexp.MustCompile(`(?i)\btoday(?:'s)?\b["”’']?(?:\s+(?:line|marker|mark|indicator))?(?:\s+(?:sits|stands|falls|goes|drops|appears|is))?\s*(?:is|at|in|on|=|:)?\s*(?:the\s+)?(?:(?:middle|start|end) of\s+)?(?:(` + ganttUnitW + `)\.?\s*)?\b(` + ganttPointW + `)\b`)
	// ganttUnitOnlyRE: a unit alone is no task's name ("weeks 1-2" after a lead).
	ganttUnitOnlyRE = regexp.MustCompile(`(?i)^(?:` + ganttUnitW + `)$`)
	// ganttNoiseRE: words before a task's or milestone's name.
	ganttNoiseRE = regexp.MustCompile(`(?i)^(?:(?:the|a|an|then|and|finally|next|last(?:ly)?|with|plus|our|its)\s+)+`)
	// ganttNotNameRE: words that name the chart or its parts, never a task.
	ganttNotNameRE = regexp.MustCompile(`(?i)\b(?:gantt|chart|timeline|project|schedule|roadmap|video|bars?|rows?|axis|today|vertical|square|landscape|seconds?)\b`)
	// ganttTodayColRE: the colour word before the today line ("a red 'Today' line").
	ganttTodayColRE = regexp.MustCompile(`(?i)\b([a-z]+)\s+["“'‘]?today\b`)
	// ganttTitleRE: what the chart is for ("Gantt chart for the app launch: …").
	ganttTitleRE = regexp.MustCompile(`(?i)\b(?:gantt(?:\s+chart)?|timeline|roadmap|schedule|plan)\s+(?:for|of)\s+(?:the\s+|our\s+|my\s+|a\s+)?([^:;,.—–(]+?)\s*(?:[:;,.—–(]|\s-\s|\bwith\b|$)`)
)

// ganttPoint reads one period in unit u (the unit a word beside it names, or the
// plan's): a number, a quarter, a month, a month and day.
func ganttPoint(s string) (v float64, unit string, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if n, err := strconv.Atoi(s); err == nil {
		return float64(n), "", true
	}
	if len(s) == 2 && s[0] == 'q' {
		return float64(s[1] - '0'), "quarter", true
	}
	ws := strings.Fields(strings.ReplaceAll(s, ".", " "))
	if len(ws) == 0 {
		return 0, "", false
	}
	m := monthNumber(ws[0])
	if m == 0 {
		return 0, "", false
	}
	if len(ws) == 1 {
		return float64(m), "month", true
	}
	d, _ := strconv.Atoi(strings.TrimRight(ws[1], "stndrh"))
	return float64(monthStart[m-1] + d), "date", true
}

var monthOnlyRE = regexp.MustCompile(`^(?:` + monthW + `)$`)

// monthStart is the day of the year before each month begins (no leap year).
var monthStart = []int{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334}

// monthNumber is a month's number (1–12) from its name or first three letters, 0 for
// no month.
func monthNumber(w string) int {
	w = strings.ToLower(w)
	if len(w) < 3 {
		return 0
	}
	for i, m := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		if strings.HasPrefix(w, m) && monthOnlyRE.MatchString(w) {
			return i + 1
		}
	}
	return 0
}

// unitWord is the plan's unit a word names ("wks" is week), "" for none.
func unitWord(w string) string {
	w = strings.ToLower(strings.TrimRight(w, "."))
	switch {
	case w == "":
		return ""
	case strings.HasPrefix(w, "q"):
		return "quarter"
	case strings.HasPrefix(w, "s"):
		return "sprint"
	case strings.HasPrefix(w, "mo"):
		return "month"
	case strings.HasPrefix(w, "w"):
		return "week"
	case strings.HasPrefix(w, "d"):
		return "day"
	}
	return ""
}

// ganttPiece reads one piece of a list as a task: a name, then its period. ok is false
// for a piece that is no task.
func ganttPiece(p string) (t ganttTask, unit string, ok bool) {
	p = strings.TrimSpace(p)
	loc := ganttPeriodRE.FindStringSubmatchIndex(p)
	if loc == nil || loc[0] == 0 {
		return t, "", false
	}
	sub := func(i int) string {
		if loc[2*i] < 0 {
			return ""
		}
		return p[loc[2*i]:loc[2*i+1]]
	}
	from, u1, ok1 := ganttPoint(sub(2))
	to, u2, ok2 := from, u1, ok1
	if sub(3) != "" {
		to, u2, ok2 = ganttPoint(sub(3))
	}
	if !ok1 || !ok2 {
		return t, "", false
	}
	unit = orDefault(unitWord(sub(1)), orDefault(u1, u2))
	if u1 == "date" && u2 == "" && sub(3) != "" {
		// "Mar 3-14": the second figure is a day of the first's month.
		to += float64(monthStart[monthOfDay(from)-1])
	}
	if unit == "month" && to < from {
		to += 12 // "Nov–Feb" runs into the next year
	}
	if to < from || to-from > 120 {
		return t, "", false
	}
	name := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(p[:loc[0]]), ":(–—-="))
	name = strings.TrimSpace(strings.Trim(ganttNoiseRE.ReplaceAllString(name, ""), `"“”'‘’`))
	if !ganttNameRE.MatchString(name) || ganttNotNameRE.MatchString(name) || ganttUnitOnlyRE.MatchString(name) {
		return t, "", false
	}
	return ganttTask{Name: capitalize(name), From: from, To: to}, unit, true
}

// monthOfDay is the month (1–12) a day of the year falls in.
func monthOfDay(d float64) int {
	m := 1
	for m < 12 && float64(monthStart[m]) < d {
		m++
	}
	return m
}

// ganttPlanOf reads a Gantt chart: every task the prompt lists with its period ("Discovery
// 1–2, Wireframes 2–4", "Design: weeks 3-5", "Build (Mar–May)"), the milestones (a
// piece that says so, and what follows it in its sentence), and where today is. The
// unit is the one the periods or the prompt name, weeks when none does.
func ganttPlanOf(prompt string) ganttPlan {
	var plan ganttPlan
	units := map[string]int{}
	var taskUnits, markUnits []string
	for _, sent := range funnelSentRE.Split(ratioRE.ReplaceAllString(prompt, ""), -1) {
		marks := false
		for _, p := range ganttSplitRE.Split(sent, -1) {
			if ganttTodayRE.MatchString(p) {
				continue
			}
			if ganttMarkRE.MatchString(p) {
				marks = true
			}
			name := strings.TrimSpace(p)
			t, unit, ok := ganttPiece(name)
			if q := flowQuoteRE.FindStringSubmatch(name); marks && q != nil {
				// A milestone named in quotes ('a diamond "Launch 14 Mar" at the end of
				// week 10'): its name is the quote, its period what follows.
				rest := strings.Replace(name, q[0], " ", 1)
				if loc := ganttPeriodRE.FindStringIndex(rest); loc != nil {
					t, unit, ok = ganttPiece("Milestone " + rest[loc[0]:])
					t.Name = strings.TrimSpace(q[1] + q[2] + q[3])
				}
			}
			for !ok {
				// A piece may open with the words that lead to the list ("in weeks: ").
				i := strings.Index(name, ": ")
				if i < 0 {
					break
				}
				if ganttMarkRE.MatchString(name[:i]) {
					marks = true
				}
				name = name[i+2:]
				t, unit, ok = ganttPiece(name)
			}
			if !ok {
				continue
			}
			units[unit]++
			if marks && flowQuoteRE.MatchString(p) {
				t.From = t.To
				plan.Milestones, markUnits = append(plan.Milestones, t), append(markUnits, unit)
				continue
			}
			if marks {
				// A milestone's name is its words without the words that call it one.
				t.Name = capitalize(strings.TrimSpace(ganttNoiseRE.ReplaceAllString(strings.TrimSpace(regexp.MustCompile(`(?i)\b(?:milestones?|diamonds?|deadline|marker|as|at|for|on|called|named)\b`).ReplaceAllString(t.Name, " ")), "")))
				t.Name = strings.Join(strings.Fields(t.Name), " ")
				if t.Name == "" {
					t.Name = "Milestone"
				}
				t.From = t.To
				plan.Milestones, markUnits = append(plan.Milestones, t), append(markUnits, unit)
				continue
			}
			plan.Tasks, taskUnits = append(plan.Tasks, t), append(taskUnits, unit)
		}
	}
	// Bare figures ("Discovery 1–2") are in the unit the prompt names ("in weeks"), else
	// weeks; the chart's unit is the one most periods are in.
	said := ""
	for _, u := range []string{"sprint", "quarter", "month", "day", "week"} {
		if regexp.MustCompile(`\b` + u + `s?\b`).MatchString(strings.ToLower(prompt)) {
			said = u
			break
		}
	}
	units[orDefault(said, "week")] += units[""]
	best := 0
	for _, u := range []string{"week", "month", "day", "date", "quarter", "sprint"} {
		if units[u] > best {
			plan.Unit, best = u, units[u]
		}
	}
	plan.Unit = orDefault(plan.Unit, orDefault(said, "week"))
	// A period in another unit than the chart's ("Launch in May" on a chart in weeks)
	// has no place on its axis.
	keep := func(ts []ganttTask, us []string) []ganttTask {
		var out []ganttTask
		for k, t := range ts {
			if us[k] == plan.Unit || us[k] == "" && orDefault(said, "week") == plan.Unit {
				out = append(out, t)
			}
		}
		return out
	}
	plan.Tasks, plan.Milestones = keep(plan.Tasks, taskUnits), keep(plan.Milestones, markUnits)
	if m := ganttTodayRE.FindStringSubmatch(prompt); m != nil {
		if v, _, ok := ganttPoint(m[2]); ok {
			plan.Today = v
		}
	}
	if len(plan.Tasks) > 8 {
		plan.Tasks = plan.Tasks[:8]
	}
	if len(plan.Milestones) > 4 {
		plan.Milestones = plan.Milestones[:4]
	}
	return plan
}

// ganttFits: a Gantt chart lists two tasks or more over periods, one of them a span.
func ganttFits(prompt string) bool {
	p := ganttPlanOf(prompt)
	if len(p.Tasks) < 2 {
		return false
	}
	for _, t := range p.Tasks {
		if t.To > t.From {
			return true
		}
	}
	return false
}

// ganttLabel names period v of unit u on the axis: W3, Mar, Q2, Mar 14.
func ganttLabel(u string, v float64) string {
	n := int(math.Round(v))
	switch u {
	case "month":
		return []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}[(n-1+1200)%12]
	case "quarter":
		return "Q" + strconv.Itoa((n-1+400)%4+1)
	case "date":
		m := monthOfDay(float64(n))
		return ganttLabel("month", float64(m)) + " " + strconv.Itoa(n-monthStart[m-1])
	case "day":
		return "D" + strconv.Itoa(n)
	case "sprint":
		return "S" + strconv.Itoa(n)
	}
	return "W" + strconv.Itoa(n)
}

// gantt: the time axis across the top, the tasks as rows under it; each task's bar
// grows from its start to its end in turn, then the milestones' diamonds pop in on a
// row of their own and the today line drops down across the rows. A wide or square
// frame keeps the names in a column to the left of the bars; a tall one gives the
// bars the whole width and puts each name above its bar.
func (g *genreFill) gantt() {
	plan := ganttPlanOf(g.prompt)
	if len(plan.Tasks) == 0 {
		plan.Tasks = []ganttTask{{"Plan", 1, 2}, {"Build", 2, 4}, {"Launch", 4, 5}}
	}
	first, last := plan.Tasks[0].From, plan.Tasks[0].To
	for _, t := range append(append([]ganttTask(nil), plan.Tasks...), plan.Milestones...) {
		first, last = math.Min(first, t.From), math.Max(last, t.To)
	}
	if plan.Today > 0 {
		first, last = math.Min(first, plan.Today), math.Max(last, plan.Today)
	}
	cols := int(last-first) + 1
	// The quotes the chart shows in place (a milestone's name, the today line's word)
	// are no title.
	g.consume("Today")
	for _, m := range plan.Milestones {
		g.consume(m.Name)
	}
	title := g.quote("")
	if title == "" {
		if m := ganttTitleRE.FindStringSubmatch(g.prompt); m != nil && len(strings.Fields(m[1])) <= 5 {
			title = capitalize(strings.TrimSpace(m[1]))
		} else {
			title = "Project timeline"
		}
	}
	g.consume(title)
	tall := g.c.tall()
	n := len(plan.Tasks)
	rows := float64(n)
	if len(plan.Milestones) > 0 {
		rows++
	}
	// The chart's box in sizes: its left edge and width (the names' column beside it in
	// a wide frame), the top of its first row and the height of a row.
	W, labelW, H := 1.6, 0.36, 0.64
	switch {
	case tall:
		W, labelW, H = 0.84, 0, 0.95
	case g.c.square():
		W, labelW, H = 0.9, 0.26, 0.62
	}
	chartW := W - labelW
	left := -W/2 + labelW
	rowH := math.Min(0.13, H/rows)
	if tall {
		rowH = math.Min(0.17, H/rows)
	}
	top := -(rowH*rows)/2 + 0.08
	x := func(v float64) float64 { return round3(g.c.xUnits(left + chartW*(v-first)/float64(cols))) }
	y := func(s float64) float64 { return round3(g.yu(s)) }
	muted := mixHex(g.ink, g.c.bd.Palette.Background[0], 0.45)
	var parts []*scene.Element
	head := g.text(title, 0, y(top-0.18), fit(title, W, 0.06), g.ink, 800)
	if tall {
		head.Y = y(top - 0.22)
	}
	g.enter(head, "down", g.t, 0.6)
	parts = append(parts, head)
	// The axis: a label over each period (every other one when they crowd), and a faint
	// line between periods down through the rows.
	stride := int(math.Ceil(float64(cols) / map[bool]float64{true: 6, false: 12}[tall || g.c.square()]))
	colW := chartW / float64(cols)
	// Small words read larger in a tall frame, whose sizes are its narrow width's.
	small := 0.03
	if tall {
		small = 0.036
	}
	labelSize := math.Min(small, fit(ganttLabel(plan.Unit, last), colW*float64(stride)*0.9, small))
	for c := 0; c < cols; c++ {
		v := first + float64(c)
		if c%stride == 0 {
			l := g.text(ganttLabel(plan.Unit, v), x(v+0.5), y(top-0.06), labelSize, mixHex(g.ink, g.c.bd.Palette.Background[0], 0.2), 700)
			g.enter(l, "fade", g.t+0.2+0.03*float64(c), 0.4)
			parts = append(parts, l)
		}
		if c > 0 {
			grid := g.bar(x(v), y(top+rowH*rows/2), 0.003, rowH*rows, muted)
			grid.Depth, grid.Label = 0.99, "grid"
			g.enter(grid, "fade", g.t+0.2, 0.5)
			tr := trackOf(grid)
			tr["opacity"][len(tr["opacity"])-1].V = 0.25
			parts = append(parts, grid)
		}
	}
	// A colour said of the today line ("a vertical red 'Today' line") is the line's,
	// not the bars'.
	todayCol := "#ef4444"
	var barCols []string
	for _, c := range g.b.Colors {
		if c != g.b.Background && c != g.b.Background2 {
			barCols = append(barCols, c)
		}
	}
	if m := ganttTodayColRE.FindStringSubmatch(g.prompt); m != nil {
		if c, ok := colorOf(strings.ToLower(m[1])); ok {
			todayCol = c
			barCols = slices.DeleteFunc(barCols, func(b string) bool { return b == c })
		}
	}
	pal := make([]string, n)
	for k := range pal {
		pal[k] = readable(mindColors[k%len(mindColors)])
	}
	for k := range pal {
		// From the prompt's first colour to its second, as a funnel's layers.
		u := float64(k) / float64(max(n-1, 1))
		switch {
		case len(barCols) >= 2:
			pal[k] = readable(mixHex(barCols[0], barCols[1], u))
		case len(barCols) == 1:
			pal[k] = readable(lighten(barCols[0], 0.35*u))
		}
	}
	barH := rowH * 0.56
	if tall {
		barH = rowH * 0.42
	}
	for k, t := range plan.Tasks {
		rowY := top + rowH*(float64(k)+0.5)
		x0, x1 := x(t.From), x(t.To+1)
		w := (x1 - x0) / g.c.xUnits(1)
		barY := rowY
		if tall {
			barY = rowY + rowH*0.16
		}
		at := g.in*0.6 + (g.stagger(k, n)-g.t)*1.1
		bar := g.bar((x0+x1)/2, y(barY), w, barH, pal[k%len(pal)])
		bar.Label = t.Name
		// The bar grows from its start: its centre travels as it widens.
		grow(bar, "sx", at, 0.7, "easeOutCubic")
		tr := trackOf(bar)
		key(tr, "x", 0, x0, "")
		key(tr, "x", at, x0, "")
		key(tr, "x", at+0.7, bar.X, "easeOutCubic")
		var name *scene.Element
		if tall {
			// Above its bar, centred on it as far as the frame lets it be.
			size := fitBold(t.Name, W*0.9, 0.044)
			half := g.c.xUnits(0.55 * float64(len([]rune(t.Name))) * size / 2)
			cx := math.Max(-g.c.xUnits(W/2)+half, math.Min(g.c.xUnits(W/2)-half, (x0+x1)/2))
			name = g.text(t.Name, round3(cx), y(rowY-rowH*0.2), size, g.ink, 700)
		} else {
			name = g.text(t.Name, round3(g.c.xUnits(-W/2+labelW/2)), y(rowY), fitBold(t.Name, labelW*0.92, 0.034), g.ink, 700)
			name.Wrap = round3(labelW * 0.95)
		}
		g.enter(name, "fade", at-0.15, 0.4)
		parts = append(parts, bar, name)
	}
	if len(plan.Milestones) > 0 {
		rowY := top + rowH*(float64(n)+0.4)
		at := math.Min(g.out-1.2, g.in*0.6+(g.out-g.t)*0.6)
		gap := chartW
		for i := 1; i < len(plan.Milestones); i++ {
			gap = math.Min(gap, math.Abs(plan.Milestones[i].To-plan.Milestones[i-1].To)*colW)
		}
		if !tall {
			lab := g.text("Milestones", round3(g.c.xUnits(-W/2+labelW/2)), y(rowY), fitBold("Milestones", labelW*0.9, 0.03), muted, 700)
			g.enter(lab, "fade", at-0.2, 0.4)
			parts = append(parts, lab)
		}
		for i, m := range plan.Milestones {
			mx := x(m.To + 0.5)
			d := g.add(&scene.Element{ID: g.id("milestone"), Type: scene.TypePath, Path: diamondPath(1), Label: m.Name,
				X: mx, Y: y(rowY - rowH*0.12), Size: round3(rowH * 0.22), Color: solid(orDefault(firstColor(g.b), "#f59e0b")), Shadow: true})
			g.enter(d, "pop", at+0.25*float64(i), 0.5)
			size := fitBold(m.Name, math.Max(gap*0.95, 0.16), small)
			half := g.c.xUnits(0.55 * float64(len([]rune(m.Name))) * size / 2)
			lx := math.Max(-g.c.xUnits(W/2)+half, math.Min(g.c.xUnits(W/2)-half, mx))
			l := g.text(m.Name, round3(lx), y(rowY+rowH*0.3), size, g.ink, 700)
			g.enter(l, "fade", at+0.25*float64(i)+0.2, 0.4)
			parts = append(parts, d, l)
		}
	}
	if plan.Today > 0 {
		// The today line drops down across the rows, last: where the project stands.
		at := math.Min(g.out-0.9, g.in*0.6+(g.out-g.t)*0.7)
		tx := x(plan.Today + 0.5)
		red := readableOn(todayCol, g.c.bd.Palette.Background[0])
		h := rowH * float64(n)
		line := g.bar(tx, y(top+h/2), 0.006, h+0.02, red)
		line.Label, line.Depth = "today", 0.99
		grow(line, "sy", at, 0.5, "easeOutCubic")
		tl := g.text("Today", tx, y(top-0.015), small*0.9, red, 800)
		if tall {
			tl.Y = y(top + h + 0.005)
		}
		g.enter(tl, "fade", at+0.3, 0.4)
		parts = append(parts, line, tl)
	}
	g.leave(parts...)
}
