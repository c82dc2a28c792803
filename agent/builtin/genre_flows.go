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

// funnelInRE: where words about a stage's colour may start ("in teal").
var funnelInRE = regexp.MustCompile(`\s(?:in|with|on|using)\s`)

// colourWords reports whether s only names colours ("in navy and teal").
func colourWords(s string) bool {
	for _, w := range strings.Fields(strings.ToLower(s)) {
		if _, ok := colorOf(strings.Trim(w, ",.")); !ok && w != "in" && w != "with" && w != "on" && w != "using" && w != "and" {
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
