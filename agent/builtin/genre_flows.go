package builtin

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// Flows and maps of ideas: layouts whose parts hang on one another (the stages of a
// funnel, each a share of the one above; the branches of a mind map off its topic).

// A funnelStage is one layer of a funnel: its name and how many reach it, as the
// prompt writes the figure ("48,000", "2.5k"), or "" when it gives none.
type funnelStage struct {
	Name, Value string
}

const funnelNum = `[$€£]?\d+(?:\.\d+)?\s?[kKmMbB%]?`

var (
	// funnelItemRE: a stage and its figure, either way round ("Visitors 48,000",
	// "12,000 visitors", "Applied (1200)", "Add to cart: 9600").
	funnelItemRE = regexp.MustCompile(`^(?:(` + funnelNum + `)\s+)?([A-Za-z][\w'’&+-]*(?:\s+[A-Za-z][\w'’&+-]*){0,3}?)\s*(?:[:=(]\s*|[–—-]\s+|\s+at\s+)?(?:(` + funnelNum + `)\)?)?$`)
	// funnelSentRE: the prompt's sentences (a decimal point ends none).
	funnelSentRE = regexp.MustCompile(`[.!?](?:\s+|$)|\n`)
	// funnelArrowRE: the arrows between stages.
	funnelArrowRE = regexp.MustCompile(`\s*(?:→|⟶|->|=>|»|\s>\s)\s*`)
	// funnelSepRE: the other separators of a list of stages.
	funnelSepRE = regexp.MustCompile(`\s*(?:,|;|\band then\b|\bthen\b|\band\b|·)\s*`)
	// funnelToRE: "to" between stages, after a figure ("Leads 10k to Qualified 2.5k").
	funnelToRE = regexp.MustCompile(`(\d[kKmMbB%]?\)?)\s+(?:down\s+)?to\s+`)
	// funnelLeadRE: the words before a list's first stage ("Sales funnel: ", "with the
	// stages ", "hiring funnel - ").
	funnelLeadRE = regexp.MustCompile(`(?i)^.*?(?:[:—–]|\s-\s|\b(?:stages?|steps|levels|layers|tiers)\b(?:\s+(?:of|are|like|called))?|\bfrom\b)\s*`)
	// funnelRateRE: a share in brackets after a stage's figure ("Paid 540 (28%)").
	funnelRateRE = regexp.MustCompile(`\s*\(\s*\d+(?:\.\d+)?\s?%\s*\)`)
	thousandsRE  = regexp.MustCompile(`(\d),(\d{3})\b`)
	funnelNoise  = regexp.MustCompile(`(?i)^(?:the|a|an|then|and|finally|next|last(?:ly)?)\s+`)
)

// funnelStages reads a funnel's stages in order, top to bottom: the first sentence
// that lists three or more, split at its arrows when it has them, else at commas,
// semicolons and "and" ("from A 10k to B 2k to C 400" too). When some stages carry
// figures, the stages are the run of them that all do.
func funnelStages(prompt string) []funnelStage {
	for _, sent := range funnelSentRE.Split(prompt, -1) {
		sent = thousandsRE.ReplaceAllString(thousandsRE.ReplaceAllString(sent, "$1$2"), "$1$2")
		var pieces []string
		if funnelArrowRE.MatchString(sent) {
			pieces = funnelArrowRE.Split(sent, -1)
			last := len(pieces) - 1
			if i := strings.IndexAny(pieces[last], ",;"); i >= 0 {
				pieces[last] = pieces[last][:i] // what follows the last stage is no stage
			}
		} else {
			if regexp.MustCompile(`(?i)\bfrom\b.*\bto\b.*\bto\b`).MatchString(sent) {
				sent = regexp.MustCompile(`\s+to\s+`).ReplaceAllString(sent, ", ")
			}
			pieces = funnelSepRE.Split(funnelToRE.ReplaceAllString(sent, "$1, "), -1)
		}
		var stages []funnelStage
		for k, p := range pieces {
			if loc := listEndRE.FindStringIndex(p); k > 0 && loc != nil {
				p = p[:loc[0]] // a dash ends the list ("… Hired (8) - in navy")
			}
			p = strings.Trim(funnelRateRE.ReplaceAllString(strings.TrimSpace(p), ""), `"“”'‘’`)
			st, ok := funnelItem(p)
			for k == 0 && !ok {
				// The first piece opens with the words that lead to the list.
				loc := funnelLeadRE.FindStringIndex(p)
				if loc == nil || loc[1] == 0 {
					break
				}
				p = p[loc[1]:]
				st, ok = funnelItem(p)
			}
			if !ok {
				if len(stages) >= 3 {
					break // the list has ended
				}
				stages = nil
				continue
			}
			stages = append(stages, st)
		}
		stages = figuredRun(stages)
		if len(stages) >= 3 {
			return stages[:min(len(stages), 7)]
		}
	}
	return nil
}

// funnelItem reads one stage: a name of up to four words with its figure before or
// after it. Words that only name a colour ("in teal", "navy") are no stage.
func funnelItem(p string) (funnelStage, bool) {
	p = funnelNoise.ReplaceAllString(strings.TrimSpace(p), "")
	if loc := funnelInRE.FindStringIndex(p); loc != nil && colourWords(p[loc[0]:]) {
		p = p[:loc[0]] // "Action in teal": the stage is Action
	}
	m := funnelItemRE.FindStringSubmatch(p)
	if m == nil || m[1] != "" && m[3] != "" || colourWords(m[2]) {
		return funnelStage{}, false
	}
	return funnelStage{Name: capitalize(m[2]), Value: strings.ReplaceAll(m[1]+m[3], " ", "")}, true
}

// colourLinks are the words that lead into or join a stage's colours ("in teal",
// "using navy and mint"); funnelInRE is where such words may start.
var (
	colourLinks = map[string]bool{"in": true, "with": true, "on": true, "using": true, "and": true}
	funnelInRE  = regexp.MustCompile(`\s(?:in|with|on|using)\s`)
)

// colourWords reports whether s only names colours ("in navy and teal").
func colourWords(s string) bool {
	for _, w := range strings.Fields(strings.ToLower(s)) {
		if _, ok := colorOf(strings.Trim(w, ",.")); !ok && !colourLinks[w] {
			return false
		}
	}
	return true
}

// figuredRun is the longest run of stages that carry figures when some do (words
// around a list of figures are no stages), else the stages as they are.
func figuredRun(stages []funnelStage) []funnelStage {
	var best []funnelStage
	for i := 0; i < len(stages); {
		if stages[i].Value == "" {
			i++
			continue
		}
		j := i
		for j < len(stages) && stages[j].Value != "" {
			j++
		}
		if j-i > len(best) {
			best = stages[i:j]
		}
		i = j
	}
	if len(best) >= 2 {
		return best
	}
	return stages
}

// stageAmount is a stage's figure as a number ("2.5k" is 2500), 0 when it has none.
func stageAmount(v string) float64 {
	m := regexp.MustCompile(`(\d+(?:\.\d+)?)\s?([kKmMbB]?)`).FindStringSubmatch(v)
	if m == nil {
		return 0
	}
	n, _ := strconv.ParseFloat(m[1], 64)
	return n * map[string]float64{"": 1, "k": 1e3, "m": 1e6, "b": 1e9}[strings.ToLower(m[2])]
}

// stepRate is the share of a stage that reaches the next, as a label: "13%", "0.8%".
func stepRate(from, to float64) string {
	if from <= 0 || to <= 0 {
		return ""
	}
	r := 100 * to / from
	if r < 10 {
		return strings.TrimSuffix(strconv.FormatFloat(math.Round(r*10)/10, 'f', 1, 64), ".0") + "%"
	}
	return strconv.FormatFloat(math.Round(r), 'f', 0, 64) + "%"
}

// funnel: the stages as stacked trapezoids narrowing downward, landing one by one from
// the top, each with its name and its figure counting up; beside each step down, the
// share of the stage above that reached it.
func (g *genreFill) funnel() {
	stages := funnelStages(g.prompt)
	for len(stages) < 3 {
		stages = append(stages, funnelStage{Name: []string{"Awareness", "Interest", "Action"}[len(stages)]})
	}
	n := len(stages)
	var rates []string
	for k := 1; k < n; k++ {
		rates = append(rates, stepRate(stageAmount(stages[k-1].Value), stageAmount(stages[k].Value)))
	}
	hasRates := slicesAny(rates)
	title := g.quote("")
	// Sizes: the funnel's height and top width; the rates' column beside it.
	H, W0 := 0.74, 0.95
	switch {
	case g.c.tall():
		H, W0 = 1.3, 0.72
	case g.c.square():
		H, W0 = 0.74, 0.66
	}
	if title != "" {
		H -= 0.08
	}
	col := 0.0
	if hasRates {
		col = 0.16
		if !g.c.tall() && !g.c.square() {
			col = 0.2
		}
		W0 = math.Min(W0, 1.1-col) // the rates need their column
	}
	cx := -g.c.xUnits(col / 2)
	gap := 0.014
	h := (H - gap*float64(n-1)) / float64(n)
	top := -g.c.yUnits(H / 2)
	if title != "" {
		top += g.c.yUnits(0.05)
	}
	width := func(k int) float64 { return W0 * (1 - 0.55*float64(k)/float64(n)) } // at the top of layer k
	cols := g.funnelColors(n)
	nameSize, valSize := math.Min(0.036, h*0.24), math.Min(0.066, h*0.36)
	if h < 0.13 {
		nameSize, valSize = math.Min(0.03, h*0.3), math.Min(0.048, h*0.34)
	}
	var parts []*scene.Element
	for k, st := range stages {
		wt, wb := width(k), width(k+1)
		y := top + g.c.yUnits(float64(k)*(h+gap)+h/2)
		// A trapezoid drawn in its height's box and stretched to its width (sx), so the
		// critic, which reads a path as its box, reads the layer as wide as it is.
		layer := g.add(&scene.Element{ID: g.id("stage"), Type: scene.TypePath, Label: st.Name,
			Path: fmt.Sprintf("M-1,-1 L1,-1 L%.3f,1 L%.3f,1 Z", wb/wt, -wb/wt),
			X:    round3(cx), Y: round3(y), Size: round3(h / 2), Color: cols[k]})
		key(trackOf(layer), "sx", 0, round3(wt/h), "")
		at := g.stagger(k, n)
		g.enter(layer, "down", at, 0.6)
		ink := inkOn(cols[k])
		room := wb * 0.86
		nameY := y
		if st.Value != "" {
			nameY = y - g.c.yUnits(h*0.2)
		}
		name := g.text(st.Name, cx, nameY, fitBold(st.Name, room, nameSize), ink, 700)
		name.Wrap, name.In = round3(room), layer.ID
		g.enter(name, "fade", at+0.25, 0.4)
		parts = append(parts, layer, name)
		if st.Value != "" {
			val := g.valueElem(st.Value, cx, y+g.c.yUnits(h*0.14), fitBold(st.Value+"0", room, valSize), ink)
			val.In = layer.ID
			g.enter(val, "fade", at+0.25, 0.4)
			if val.Type == scene.TypeCounter {
				g.progress(val, at+0.25, math.Min(g.out, at+1.6), false)
			}
			parts = append(parts, val)
		}
		if k > 0 && rates[k-1] != "" {
			// The step's rate, level with the edge between the two layers.
			ry := top + g.c.yUnits(float64(k)*(h+gap)-gap/2)
			rx := cx + g.c.xUnits(W0/2+col/2)
			r := g.text(rates[k-1], rx, ry, math.Min(0.04, h*0.3), g.ink, 800)
			g.enter(r, "pop", at+0.5, 0.5)
			parts = append(parts, r)
		}
	}
	if title != "" {
		parts = append(parts, g.headline(title, -0.86, -0.8, 0.05))
	}
	g.leave(parts...)
}

// fitBold is fit for bold words, measured as the critic measures them (a letter about
// 0.66 of the font size wide), so a name that fits its shape is not wrapped.
func fitBold(s string, width, size float64) float64 {
	n := float64(len([]rune(s)))
	return round3(math.Max(size*0.5, math.Min(size, width/(0.66*math.Max(n, 1)))))
}

func slicesAny(ss []string) bool {
	for _, s := range ss {
		if s != "" {
			return true
		}
	}
	return false
}

// funnelColors colours n layers from the prompt's palette: from its first colour to its
// second, or shades of its one colour, top to bottom.
func (g *genreFill) funnelColors(n int) []string {
	var pal []string
	for _, c := range g.b.Colors {
		if c != g.b.Background && c != g.b.Background2 && !containsStr(pal, c) {
			pal = append(pal, c)
		}
	}
	if len(pal) == 0 {
		pal = []string{g.accent}
	}
	out := make([]string, n)
	for k := range out {
		u := float64(k) / float64(max(n-1, 1))
		if len(pal) >= 2 {
			out[k] = mixHex(pal[0], pal[1], u)
		} else {
			out[k] = lighten(pal[0], 0.35*u)
		}
		out[k] = readable(out[k])
	}
	return out
}

// inkOn is the colour words take on a shape of colour c: white, or near black where
// that reads better.
func inkOn(c string) string {
	if contrast(c, "#ffffff") >= contrast(c, "#111827") {
		return "#ffffff"
	}
	return "#111827"
}

// readable moves a shape's colour c, darker or lighter as its words need, until they
// read on it (with a little room: 5:1).
func readable(c string) string {
	for k := 0; k < 12 && contrast(c, inkOn(c)) < 5; k++ {
		if inkOn(c) == "#ffffff" {
			c = darken(c, 0.08)
		} else {
			c = lighten(c, 0.08)
		}
	}
	return c
}

// A mindBranch is one main idea of a mind map and the sub-points off it.
type mindBranch struct {
	Name   string
	Leaves []string
}

var (
	// mindTopicRE: the topic named after the map ("a mind map of Healthy Habits").
	mindTopicRE = regexp.MustCompile(`(?i)\b(?:mind ?map|spider diagram|concept map|brainstorm(?: map)?)\s+(?:of|about|on|for|around)\s+(?:the\s+)?([^:;,.—–(]+?)(?:\s+(?:with|in|where|that|showing)\b|\s*[:;,.—–(]|\s+-\s|$)`)
	// mindCentreRE: the topic said to stand in the middle ("Launch plan in the centre").
	mindCentreRE = regexp.MustCompile(`\b([A-Z0-9][\w'’-]*(?:\s+[A-Z0-9][\w'’-]*){0,4})\s+(?:in|at)\s+(?:a|the)\s+(?:circle|centre|center|middle)\b`)
	// mindGroupRE: a branch and its sub-points ("Sleep: 8 hours, no screens").
	mindGroupRE = regexp.MustCompile(`^(?:.*[—–:]\s+|.*\s-\s)?([A-Za-z][\w'’&-]*(?:\s+[\w'’&-]+){0,3})\s*:\s*(.+)$`)
	// mindChunkRE: where one branch's group ends and the next begins.
	mindChunkRE = regexp.MustCompile(`\s+[/|]\s+|;\s*`)
	// mindLeadRE: the words before a list of branches ("four branches draw out …: ").
	mindLeadRE = regexp.MustCompile(`(?i)^.*(?::|\bbranch(?:es|ing)?\s+(?:out\s+)?(?:to|for|into|called|named|of)?|\bmain ideas?\b|\s[—–-]\s)\s*`)
)

// topItems splits a list at commas, semicolons and "and" outside brackets, keeping
// "alliances (Triple Entente, Triple Alliance)" one item.
func topItems(s string) []string {
	var out []string
	depth, start := 0, 0
	flush := func(end int) {
		for _, p := range regexp.MustCompile(`\s+and\s+`).Split(s[start:end], -1) {
			if p = strings.Trim(strings.TrimSpace(p), `"“”'‘’`); p != "" {
				out = append(out, p)
			}
		}
	}
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth = max(0, depth-1)
		case (r == ',' || r == ';') && depth == 0:
			flush(i)
			start = i + 1
		}
	}
	flush(len(s))
	return out
}

// mindMap reads a mind map: its topic (a quote, what it is "of", or what stands in
// the middle), its main ideas in order and the sub-points of each, written as
// "idea (a, b)" in the list or as groups "idea: a, b / idea: c, d" (or "; ").
func mindMap(prompt string, texts []string) (topic string, branches []mindBranch) {
	if len(texts) > 0 {
		topic = texts[0]
	} else if m := mindTopicRE.FindStringSubmatch(prompt); m != nil {
		topic = strings.TrimSpace(m[1])
	} else if m := mindCentreRE.FindStringSubmatch(prompt); m != nil {
		topic = strings.TrimSpace(m[1])
	}
	if ws := strings.Fields(topic); len(ws) > 1 && genreCommon[strings.ToLower(ws[0])] {
		topic = strings.Join(ws[1:], " ")
	}
	leaves := map[string][]string{}
	var groupOrder []string
	var listed []mindBranch
	for _, sent := range funnelSentRE.Split(prompt, -1) {
		// Groups: "idea: a, b" chunks, two or more in a sentence.
		var groups []mindBranch
		for _, ch := range mindChunkRE.Split(sent, -1) {
			if m := mindGroupRE.FindStringSubmatch(strings.TrimSpace(ch)); m != nil {
				if items := topItems(m[2]); len(items) > 0 && len(items) <= 5 && shortItems(items, 6) {
					groups = append(groups, mindBranch{Name: capitalize(m[1]), Leaves: items})
				}
			}
		}
		if len(groups) >= 2 {
			for _, gr := range groups {
				k := strings.ToLower(gr.Name)
				if _, ok := leaves[k]; !ok {
					groupOrder = append(groupOrder, gr.Name)
				}
				leaves[k] = gr.Leaves
			}
			continue
		}
		if listed != nil {
			continue
		}
		// The list of main ideas: the first of two or more short items after its lead.
		body := mindLeadRE.ReplaceAllString(sent, "")
		if topic != "" {
			if i := strings.Index(body, topic); i >= 0 {
				continue // the sentence that names the topic lists no ideas
			}
		}
		items := topItems(body)
		if len(items) < 2 || len(items) > 8 || !shortItems(items, 7) {
			continue
		}
		for _, it := range items {
			b := mindBranch{Name: it}
			if m := regexp.MustCompile(`^(.+?)\s*\((.+)\)$`).FindStringSubmatch(it); m != nil {
				b.Name, b.Leaves = m[1], topItems(m[2])
			}
			b.Name = capitalize(b.Name)
			listed = append(listed, b)
		}
	}
	if listed == nil {
		for _, name := range groupOrder {
			listed = append(listed, mindBranch{Name: name})
		}
	}
	for i := range listed {
		if ls, ok := leaves[strings.ToLower(listed[i].Name)]; ok && len(listed[i].Leaves) == 0 {
			listed[i].Leaves = ls
		}
		for k, l := range listed[i].Leaves {
			listed[i].Leaves[k] = capitalize(l)
		}
	}
	if len(listed) > 6 {
		listed = listed[:6]
	}
	return topic, listed
}

// shortItems reports whether every item is a few words (at most most), as list items
// are, not a sentence.
func shortItems(items []string, most int) bool {
	for _, it := range items {
		if n := len(strings.Fields(regexp.MustCompile(`\(.*\)`).ReplaceAllString(it, ""))); n == 0 || n > most {
			return false
		}
	}
	return true
}

// pill is a flat rounded bar w sizes wide and h high at (x, y): a path drawn in its
// height's box and stretched to its width (sx), so the critic reads it as wide as it is.
func (g *genreFill) pill(x, y, w, h float64, color string) *scene.Element {
	a := math.Max(w/h, 1.01)
	s := 1 - 1/a
	e := g.add(&scene.Element{ID: g.id("pill"), Type: scene.TypePath, X: round3(x), Y: round3(y), Size: round3(h / 2), Color: color,
		Path: fmt.Sprintf("M%.3f,-1 L%.3f,-1 A%.3f,1 0 0,1 %.3f,1 L%.3f,1 A%.3f,1 0 0,1 %.3f,-1 Z", -s, s, 1/a, s, -s, 1/a, -s)})
	key(trackOf(e), "sx", 0, round3(a), "")
	return e
}

// line is a stroke drawn from (x0, y0) to (x1, y1) (frame units) between t and t+0.5:
// a backdrop (Depth just under 1), so the critic reads it as the link it is, not as a
// box over the words it joins.
func (g *genreFill) line(x0, y0, x1, y1 float64, color string, t float64) *scene.Element {
	dx, dy := (x1-x0)/g.c.xUnits(1), (y1-y0)/g.c.yUnits(1)
	r := math.Max(math.Max(math.Abs(dx), math.Abs(dy))/2, 0.01)
	e := g.add(&scene.Element{ID: g.id("branch"), Type: scene.TypePath, Variant: "stroke", Label: "branch", Depth: 0.99,
		X: round3((x0 + x1) / 2), Y: round3((y0 + y1) / 2), Size: round3(r), Color: color,
		Path: fmt.Sprintf("M%.3f,%.3f L%.3f,%.3f", -dx/2/r, -dy/2/r, dx/2/r, dy/2/r)})
	grow(e, "progress", t, 0.5, "easeInOutSine")
	return e
}

// mindColors are distinct hues for branches when the prompt names fewer colours.
var mindColors = []string{"#6366f1", "#f97316", "#10b981", "#ec4899", "#0ea5e9", "#eab308"}

// mindMapLayout: the topic in a circle in the middle; branches draw out to the main
// ideas one by one, each in a pill of its own colour, its sub-points as smaller pills
// off it. A wide frame puts the ideas left and right of the topic, a tall or square
// one above and below.
func (g *genreFill) mindMapLayout() {
	topic, branches := mindMap(g.prompt, g.b.Texts)
	g.consume(topic)
	if topic == "" {
		topic = "Topic"
	}
	if len(branches) == 0 {
		branches = []mindBranch{{Name: "Idea 1"}, {Name: "Idea 2"}, {Name: "Idea 3"}}
	}
	n := len(branches)
	var pal []string
	for _, c := range g.b.Colors {
		if c != g.b.Background && c != g.b.Background2 && !containsStr(pal, c) {
			pal = append(pal, c)
		}
	}
	wide := !g.c.tall() && !g.c.square()
	R, pillH, leafH, lh := 0.13, 0.075, 0.055, 0.07
	most := 3
	if g.c.tall() {
		R, lh = 0.15, 0.075
	}
	if g.c.square() {
		R, pillH, leafH, lh, most = 0.1, 0.065, 0.05, 0.058, 2
	}
	centre := g.add(&scene.Element{ID: g.id("topic"), Type: scene.TypePath, Path: circlePath, Label: "topic",
		Size: R, Color: readable(solid(orDefault(firstColor(g.b), g.accent)))})
	g.enter(centre, "pop", g.t, 0.6)
	// The topic may take two lines: sized by its longer half, and by its longest word.
	size := fitBold(topic, 1.5*R, 0.042)
	if ws := strings.Fields(topic); len(ws) > 1 {
		longest := ""
		for _, w := range ws {
			if len(w) > len(longest) {
				longest = w
			}
		}
		size = math.Min(fitBold(topic[:(len(topic)+1)/2+1], 1.4*R, 0.042), fitBold(longest, 1.4*R, 0.042))
	}
	tt := g.text(topic, 0, 0, size, inkOn(centre.Color), 800)
	tt.Wrap, tt.In = round3(1.6*R), centre.ID
	g.enter(tt, "pop", g.t+0.15, 0.6)
	parts := []*scene.Element{centre, tt}
	// Sides: the first half of the ideas on one side (right, or above), the rest on the
	// other.
	half := (n + 1) / 2
	for k, b := range branches {
		side, j, m := 1.0, k, half
		if k >= half {
			side, j, m = -1, k-half, n-half
		}
		col := readable(mindColors[k%len(mindColors)])
		if len(pal) > 1 {
			col = readable(pal[k%len(pal)])
		}
		leaves := b.Leaves[:min(len(b.Leaves), most)]
		var px, py, pw float64 // the idea's pill, frame units; its width in sizes
		var lx func(i int) (float64, float64)
		lw := 0.0
		if wide {
			span := 0.68
			y := 0.0
			if m > 1 {
				y = -span/2 + span*float64(j)/float64(m-1)
			}
			px, py, pw = side*g.c.xUnits(0.38), g.c.yUnits(y), 0.27
			lw = 0.24
			lx = func(i int) (float64, float64) {
				return side * g.c.xUnits(0.66), g.c.yUnits(y + (float64(i)-float64(len(leaves)-1)/2)*lh)
			}
		} else {
			pitch := 0.9 / float64(m)
			x := (float64(j) - float64(m-1)/2) * pitch
			base := 0.42 // a tall frame gives the ideas its height
			if g.c.square() {
				base = 0.2
			}
			pw = math.Min(0.3, pitch*0.9)
			lw = pw * 0.9
			px, py = g.c.xUnits(x), -side*g.c.yUnits(base)
			lx = func(i int) (float64, float64) {
				return g.c.xUnits(x), -side * g.c.yUnits(base+pillH/2+0.02+leafH/2+float64(i)*lh)
			}
		}
		at := g.stagger(k, n+1) + 0.5
		// The branch runs from the circle's rim to the pill.
		ang := math.Atan2(py/g.c.yUnits(1), px/g.c.xUnits(1))
		parts = append(parts, g.line(g.c.xUnits(R*math.Cos(ang)), g.c.yUnits(R*math.Sin(ang)), px, py, col, at))
		p := g.pill(px, py, pw, pillH, col)
		p.Label = b.Name
		g.enter(p, "pop", at+0.4, 0.5)
		name := g.text(b.Name, px, py, fitBold(b.Name, pw*0.85, 0.032), inkOn(col), 800)
		name.Wrap, name.In = round3(pw*0.88), p.ID
		g.enter(name, "fade", at+0.9, 0.3) // once its pill has grown: words on it, not on the background
		parts = append(parts, p, name)
		leafCol := readable(lighten(col, 0.55))
		for i, l := range leaves {
			x, y := lx(i)
			from := px + side*g.c.xUnits(pw/2)
			fy := py
			if !wide {
				from, fy = px, py-side*g.c.yUnits(pillH/2)
			}
			ln := g.line(from, fy, x, y, col, at+0.7+0.15*float64(i))
			lp := g.pill(x, y, lw, leafH, leafCol)
			lp.Label = l
			lt := g.text(l, x, y, fitBold(l, lw*0.86, 0.024), inkOn(leafCol), 700)
			lt.Wrap, lt.In = round3(lw*0.9), lp.ID
			g.enter(lp, "pop", at+1.0+0.15*float64(i), 0.4)
			g.enter(lt, "fade", at+1.4+0.15*float64(i), 0.3)
			parts = append(parts, ln, lp, lt)
		}
	}
	g.leave(parts...)
}
