package builtin

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// Diagrams and app surfaces: layouts whose shape carries the meaning (sets that
// overlap, a hierarchy of boxes, places on a podium, the seats of a chamber, a task
// board, a dial, a post, a word puzzle, a prize wheel).

// circlePath is a disc as path data in the path's 2×2 box: a path, unlike a circle
// element, is a flat fill, as a diagram's shapes are.
const circlePath = "M-1,0 A1,1 0 1,0 1,0 A1,1 0 1,0 -1,0 Z"

var (
	// vennSaysRE: a set's name said of its circle, unquoted ("left circle says What
	// customers want", "one circle labelled Design").
	vennSaysRE = regexp.MustCompile(`(?i)\bcircle\s+(?:says|saying|reads|reading|labell?ed|called|named|for|is)\s+["“]?([^,;.!?"”]+)`)
	// vennSetsRE: circles named in a list ("three circles: Speed, Quality and Price",
	// "circles for Design and Engineering", "a Venn diagram of cats and dogs").
	vennSetsRE = regexp.MustCompile(`(?i)\b(?:venn(?:\s+diagram)?|circles)\s*(?:of|comparing|labell?ed|called|named|for|:)\s*([^.;!?]+)`)
	// vennMeetRE: the words that name where the sets meet.
	vennMeetRE = regexp.MustCompile(`(?i)\b(?:overlap\w*|intersect\w*|middle|cent(?:re|er)|sweet spot|where (?:they|the circles|all three|both) (?:meet|cross))\b`)
	// vennMeetSaysRE: the overlap's words, unquoted ("the overlap says Us").
	vennMeetSaysRE = regexp.MustCompile(`(?i)\b(?:overlap|intersection|middle|cent(?:re|er))\s+(?:says|reads|is labell?ed|labell?ed|with the words?)\s+([^,;.!?"“]+)`)
)

// vennParts reads a Venn diagram's sets and what their overlap says: a quote the
// prompt puts after an overlap word ("the overlap lights up with 'Where we win'") is the
// overlap's; the others, and names said of a circle, are the sets, in order.
func vennParts(prompt string, texts []string) (sets []string, meet string) {
	type at struct {
		pos int
		s   string
	}
	var found []at
	for _, q := range texts {
		i := strings.Index(prompt, q)
		if i < 0 {
			continue
		}
		before := prompt[max(0, i-60):i]
		if s := strings.LastIndexAny(before, ".!?"); s >= 0 {
			before = before[s+1:]
		}
		if meet == "" && vennMeetRE.MatchString(before) {
			meet = q
			continue
		}
		found = append(found, at{i, q})
	}
	for _, m := range vennSaysRE.FindAllStringSubmatchIndex(prompt, -1) {
		s := strings.TrimSpace(prompt[m[2]:m[3]])
		if !containsStr(texts, s) {
			found = append(found, at{m[2], s})
		}
	}
	if len(found) < 2 {
		for _, s := range listItems(vennSetsRE, prompt) {
			if !containsStr(texts, s) && len(found) < 3 {
				found = append(found, at{len(prompt), s})
			}
		}
	}
	// In the prompt's order, quoted or not.
	for i := 1; i < len(found); i++ {
		for k := i; k > 0 && found[k].pos < found[k-1].pos; k-- {
			found[k], found[k-1] = found[k-1], found[k]
		}
	}
	for _, f := range found {
		if len(sets) < 3 {
			sets = append(sets, capitalize(f.s))
		}
	}
	if meet == "" {
		if m := vennMeetSaysRE.FindStringSubmatch(prompt); m != nil {
			meet = capitalize(strings.TrimSpace(m[1]))
		}
	}
	return sets, meet
}

// venn: two or three translucent circles slide in from the sides until they overlap,
// each with its set's name in its own part; the overlap lights up with its words.
func (g *genreFill) venn() {
	sets, meet := vennParts(g.prompt, g.b.Texts)
	g.consume(append(sets, meet)...)
	for len(sets) < 2 {
		sets = append(sets, []string{"Set A", "Set B"}[len(sets)])
	}
	n := len(sets)
	// Radius and the centres' distance from the middle, in sizes.
	r, a := 0.3, 0.19
	if g.c.tall() || g.c.square() {
		r, a = 0.27, 0.17
	}
	if n == 3 {
		r, a = r*0.75, a*0.8
	}
	cy := -0.04
	if g.c.tall() {
		cy = -0.1
	}
	// Centres in sizes off the diagram's middle: side by side, or a triangle of three.
	offs := [][2]float64{{-a, 0}, {a, 0}}
	if n == 3 {
		offs = [][2]float64{{-a, -a * 0.58}, {a, -a * 0.58}, {0, a * 1.15}}
	}
	cols := []string{}
	meetCol := g.meetColor()
	for _, c := range g.b.Colors {
		if c != g.b.Background && c != g.b.Background2 && c != meetCol {
			cols = append(cols, c)
		}
	}
	base := []string{g.accent, "#0ea5e9", "#f97316"}
	for len(cols) < n {
		if len(cols) > 0 && len(cols) < len(g.b.Colors) {
			cols = append(cols, lighten(cols[0], 0.25*float64(len(cols)))) // "navy circles": shades of it
			continue
		}
		cols = append(cols, base[len(cols)])
	}
	var parts, discs []*scene.Element
	for k, s := range sets {
		x, y := g.c.xUnits(offs[k][0]), cy+g.c.yUnits(offs[k][1])
		cols[k] = solid(cols[k]) // the set's name reads on it in white
		disc := g.add(&scene.Element{ID: g.id("set"), Type: scene.TypePath, Path: circlePath, Label: s,
			X: round3(x), Y: round3(y), Size: round3(r), Color: cols[k]})
		from := []string{"left", "right", "up"}[k]
		g.enter(disc, from, g.t+0.15*float64(k), 1.0)
		op := trackOf(disc)["opacity"]
		op[len(op)-1].V = 0.92 // a little translucent, so the overlap shows both
		if k > 0 {
			disc.In = discs[k-1].ID // the sets overlap on purpose
		}
		discs = append(discs, disc)
		// The name sits in the circle's own part, away from the others.
		lx, ly := x+g.c.xUnits(offs[k][0]/a*r*0.45), y+g.c.yUnits(offs[k][1]/a*r*0.45)
		if n == 2 {
			ly = y
		}
		label := g.text(s, lx, ly, 0.045, "#ffffff", 800)
		label.Wrap, label.In = round3(r*0.85), disc.ID
		g.enter(label, from, g.t+0.15*float64(k)+0.2, 1.0)
		parts = append(parts, disc, label)
	}
	if meet != "" || n == 2 {
		glow := orDefault(meetCol, "#f5b700")
		if meet == "" {
			glow = mix(cols[0], cols[1]) // the overlap is both
		}
		mx, my := 0.0, cy
		var lens *scene.Element
		wrap := 2 * (r - a) * 0.95
		if n == 2 {
			// The lens where two discs meet, drawn in a box of its half-width w: its
			// height runs past the box, so the critic, which reads a path as its box,
			// sees it no wider than it is (the discs around it hold its height).
			w, h := r-a, math.Sqrt(r*r-a*a)
			R, H := r/w, h/w
			lens = g.add(&scene.Element{ID: g.id("overlap"), Type: scene.TypePath, Label: "overlap",
				Path: fmt.Sprintf("M0,%.3f A%.3f,%.3f 0 0,1 0,%.3f A%.3f,%.3f 0 0,1 0,%.3f Z", -H, R, R, H, R, R, -H),
				X:    round3(mx), Y: round3(my), Size: round3(w), Color: glow})
		} else {
			wrap = r * 0.7
			lens = g.add(&scene.Element{ID: g.id("overlap"), Type: scene.TypePath, Path: circlePath, Label: "overlap",
				X: round3(mx), Y: round3(my), Size: round3(r * 0.32), Color: glow})
		}
		lens.In = discs[len(discs)-1].ID
		lit := g.in + 0.5
		g.enter(lens, "fade", lit, 0.7)
		parts = append(parts, lens)
		if meet != "" {
			g.c.motion(lens, scene.Motion{Type: scene.MotionPulse, Start: lit + 0.7, End: g.out, Amp: 0.03, Count: 2})
			ink := "#111827"
			if contrast(glow, ink) < 4.5 {
				ink = "#ffffff"
			}
			words := g.text(meet, mx, my, 0.04, ink, 900)
			words.Wrap, words.In = round3(wrap), lens.ID
			g.enter(words, "pop", lit+0.3, 0.6)
			parts = append(parts, words)
		}
	}
	if title := g.quote(""); title != "" {
		parts = append(parts, g.headline(title, -0.8, -0.86, 0.05))
	}
	g.leave(parts...)
}

// meetColorRE: the colour the prompt gives where the sets meet ("the overlap lights
// up gold").
var meetColorRE = regexp.MustCompile(`(?i)\b(?:overlap|intersection|middle|cent(?:re|er)|sweet spot)\b[^.;]{0,40}`)

// meetColor is the first colour named in the clause about the overlap, or "".
func (g *genreFill) meetColor() string {
	m := meetColorRE.FindString(g.prompt)
	for _, w := range strings.Fields(strings.ToLower(m)) {
		if c, ok := colorOf(strings.Trim(w, `,."'“”`)); ok {
			return c
		}
	}
	return ""
}

// A treeNode is one box of an org chart: a name, its role, the boxes under it.
type treeNode struct {
	Name, Role string
	Kids       []*treeNode
}

var (
	// treeRootRE: the box at the top, a name with its role in brackets ("Priya Raman
	// (CEO)") or a role said to stand at the top ("the CEO at the top").
	treeRootRE = regexp.MustCompile(`([A-Z][\w'’.-]*(?:\s[A-Z][\w'’.-]*){0,3})\s*\(([^)]{1,40})\)|\b([A-Z][\w'’.-]*(?:\s[A-Z][\w'’.-]*){0,2})\s+(?:in a box\s+)?(?:at|on) the top\b`)
	// treeUnderRE: boxes said to hang under one of the row above ("two boxes under
	// Engineering: Platform and Mobile", "Sales splits into North and South").
	treeUnderRE = regexp.MustCompile(`(?i)\b(?:under|below|beneath|reporting to)\s+(?:the\s+)?([\w'’ &-]{2,40}?)\s*[:—–]\s*([^.]+)|\b([A-Z][\w'’&-]*(?:\s[A-Z][\w'’&-]*)?)\s+(?:has|gets|splits into|branches into)\s+(?:\w+\s+){0,3}?(?:teams?|boxes|reports|branches|groups)?\s*[:,—–]?\s*([^.]+)`)
	// treeLeadRE: the words before a list's first item ("then lines draw down to
	// three boxes - ").
	treeLeadRE = regexp.MustCompile(`^.*(?:[:—–]|\s-)\s+`)
)

// treeItems splits a run of boxes: by semicolons when it has them (each item may be
// "Name, Role"), else by commas and "and".
func treeItems(run string) []*treeNode {
	var out []*treeNode
	parts, most := strings.Split(run, ";"), 7
	if len(parts) < 2 {
		parts, most = itemSplitRE.Split(run, -1), 4
	}
	for _, p := range parts {
		p = strings.Trim(strings.TrimSpace(p), `"“”'‘’`)
		if p == "" {
			continue
		}
		if len(strings.Fields(p)) > most {
			return nil // words of a sentence, not a list of boxes
		}
		n := &treeNode{Name: p}
		if m := regexp.MustCompile(`^(.+?)\s*\(([^)]+)\)$`).FindStringSubmatch(p); m != nil {
			n.Name, n.Role = m[1], m[2]
		} else if name, role, ok := strings.Cut(p, ","); ok {
			n.Name, n.Role = strings.TrimSpace(name), strings.TrimSpace(role)
		}
		n.Name = capitalize(n.Name)
		out = append(out, n)
	}
	return out
}

// orgTree reads an org chart: the top box, the row under it (the first list after
// it) and the boxes the prompt hangs under one of that row.
func orgTree(prompt string) *treeNode {
	root := &treeNode{}
	rest := prompt
	if m := treeRootRE.FindStringSubmatchIndex(prompt); m != nil {
		if m[2] >= 0 {
			root.Name, root.Role = prompt[m[2]:m[3]], prompt[m[4]:m[5]]
		} else {
			root.Name = prompt[m[6]:m[7]]
		}
		rest = prompt[m[1]:]
	}
	if ws := strings.Fields(root.Name); len(ws) > 1 && genreCommon[strings.ToLower(ws[0])] {
		root.Name = strings.Join(ws[1:], " ")
	}
	under := treeUnderRE.FindAllStringSubmatchIndex(rest, -1)
	// The second row: the first sentence after the top box that lists two or more,
	// outside the lists said to hang under a box of it.
	row := []byte(rest)
	for _, m := range under {
		for i := m[0]; i < m[1]; i++ {
			row[i] = ' '
		}
	}
	for _, sent := range regexp.MustCompile(`[^.!?]+`).FindAllString(string(row), -1) {
		if kids := treeItems(treeLeadRE.ReplaceAllString(sent, "")); len(kids) >= 2 && len(kids) <= 6 {
			root.Kids = kids
			break
		}
	}
	for _, m := range under {
		parent, list := m[2:4], m[4:6]
		if m[2] < 0 {
			parent, list = m[6:8], m[8:10]
		}
		p := strings.ToLower(strings.TrimSpace(rest[parent[0]:parent[1]]))
		for _, k := range root.Kids {
			if p != "" && (strings.Contains(strings.ToLower(k.Name), p) || strings.Contains(strings.ToLower(k.Role), p)) && len(k.Kids) == 0 {
				if kids := treeItems(treeLeadRE.ReplaceAllString(rest[list[0]:list[1]], "")); len(kids) <= 4 {
					k.Kids = kids
				}
			}
		}
	}
	if root.Name == "" && len(root.Kids) == 0 {
		return nil
	}
	return root
}

// orgChart: the top box, then lines drawing down to the row under it, then the boxes
// the prompt hangs under one of that row; each box with its name and role.
func (g *genreFill) orgChart() {
	root := orgTree(g.prompt)
	if root == nil {
		root = &treeNode{Name: g.name("Team")}
	}
	if root.Name == "" {
		root.Name = "Team"
	}
	var third []*treeNode // the third row, in its parents' order
	var parents []int
	for k, kid := range root.Kids {
		for _, gk := range kid.Kids {
			third = append(third, gk)
			parents = append(parents, k)
		}
	}
	for _, n := range append(append([]*treeNode{root}, root.Kids...), third...) {
		g.consume(n.Name, n.Role)
	}
	tall := g.c.tall()
	avail := 1.55 // the safe width in sizes
	if tall || g.c.square() {
		avail = 0.88
	}
	ys := []float64{-0.45, 0.25}
	if len(third) > 0 {
		ys = []float64{-0.6, -0.05, 0.5}
	}
	bh := 0.15
	if tall {
		// A tall frame gives the rows its height.
		ys, bh = []float64{-0.45, 0.15}, 0.17
		if len(third) > 0 {
			ys = []float64{-0.55, 0.0, 0.55}
		}
	}
	line := mix(g.ink, g.c.bd.Palette.Background[0])
	var parts []*scene.Element
	// box draws a node's box at (x frame units, row), entering at t.
	box := func(n *treeNode, x float64, row int, w float64, color string, t float64) {
		y := ys[row]
		b := g.bar(x, y, w, bh, color)
		b.Shadow = true
		ink := "#ffffff"
		if contrast(color, ink) < 4.6 {
			ink = "#111827"
		}
		nameY, size := y, 0.036
		if n.Role != "" {
			nameY = y - g.c.yUnits(0.025)
		}
		if row == 0 {
			size = 0.042
		}
		name := g.text(n.Name, x, nameY, size, ink, 800)
		name.Wrap = round3(w * 0.88)
		es := []*scene.Element{b, name}
		if n.Role != "" {
			role := g.text(n.Role, x, y+g.c.yUnits(0.035), 0.026, ink, 600)
			role.Wrap = round3(w * 0.88)
			es = append(es, role)
		}
		for _, e := range es {
			g.enter(e, "up", t, 0.6)
		}
		parts = append(parts, es...)
	}
	// connect draws the elbow from a box above to the boxes under it: down to a bus,
	// along it, and down to each, growing from the box above at t.
	connect := func(x0 float64, row int, xs []float64, t float64) {
		top, bottom := ys[row]+g.c.yUnits(bh/2), ys[row+1]-g.c.yUnits(bh/2)
		bus := (top + bottom) / 2
		seg := func(x, y, w, h float64, prop string, at float64) {
			e := g.bar(x, y, w, h, line)
			e.Label = "connector"
			grow(e, prop, at, 0.35, "easeOutCubic")
			parts = append(parts, e)
		}
		thin := 0.008
		seg(x0, (top+bus)/2, thin, (bus-top)/g.c.yUnits(1), "sy", t)
		lo, hi := math.Min(x0, slices.Min(xs)), math.Max(x0, slices.Max(xs))
		if hi-lo > 0.01 {
			seg((lo+hi)/2, bus, (hi-lo)/g.c.xUnits(1)+thin, thin, "sx", t+0.3)
		}
		for _, x := range xs {
			seg(x, (bus+bottom)/2, thin, (bottom-bus)/g.c.yUnits(1), "sy", t+0.6)
		}
	}
	rootW := math.Min(0.55, avail*0.6)
	box(root, 0, 0, rootW, solid(g.accent), g.t)
	n2 := len(root.Kids)
	if n2 > 0 {
		pitch := avail / float64(n2)
		w := math.Min(0.5, pitch*0.9)
		xs := make([]float64, n2)
		for k := range xs {
			xs[k] = g.c.xUnits((float64(k) - float64(n2-1)/2) * pitch)
		}
		t1 := g.t + 0.7
		connect(0, 0, xs, t1)
		for k, kid := range root.Kids {
			box(kid, xs[k], 1, w, g.panel, t1+0.8+0.12*float64(k))
		}
		if len(third) > 0 {
			// Each group centred under its parent, then pushed apart and into the frame.
			p3 := math.Min(pitch, avail/float64(len(third)))
			w3 := math.Min(0.42, p3*0.9)
			x3 := make([]float64, len(third))
			half := g.c.xUnits(avail/2 - p3/2)
			for k := range third {
				var kids int
				var first int = -1
				for j, p := range parents {
					if p == parents[k] {
						kids++
						if first < 0 {
							first = j
						}
					}
				}
				x3[k] = xs[parents[k]] + g.c.xUnits((float64(k-first)-float64(kids-1)/2)*p3)
				if k > 0 {
					x3[k] = math.Max(x3[k], x3[k-1]+g.c.xUnits(p3))
				}
			}
			if shift := x3[len(x3)-1] - half; shift > 0 {
				for k := range x3 {
					x3[k] -= shift
				}
			}
			if shift := -half - x3[0]; shift > 0 {
				for k := range x3 {
					x3[k] += shift
				}
			}
			t2 := math.Max(t1+2.0, g.in+(g.out-g.in)*0.4)
			for k := 0; k < len(third); {
				j := k
				for j < len(third) && parents[j] == parents[k] {
					j++
				}
				connect(xs[parents[k]], 1, x3[k:j], t2)
				for i := k; i < j; i++ {
					box(third[i], x3[i], 2, w3, lighten(g.panel, 0.05), t2+0.8+0.12*float64(i-k))
				}
				k = j
			}
		}
	}
	if len(third) == 0 {
		if title := g.quote(""); title != "" {
			parts = append(parts, g.headline(title, -0.82, -0.8, 0.05))
		}
	}
	g.leave(parts...)
}

// A standing on a podium: who stands there and the figure that put them there.
type standing struct{ Name, Value string }

// placeRE: a place and who took it ("1st Hana Sato 17:42", "gold: Ana Ruiz (9.8)",
// "second place Ben Li, 18:05").
var placeRE = regexp.MustCompile(`(?i)\b(1st|2nd|3rd|first|second|third|gold|silver|bronze)\b(?:\s+place)?[\s:–—-]*(?:(?:goes\s+)?to\s+)?(?-i:([A-Z][\w'’.-]*(?:\s(?:[A-Z][\w'’.-]*|de|van|von|da)){0,3}))[\s,(–—-]*(?:(?:with|in|at|on)\s+)?(\d[\d:.,]*\s?(?:pts|points|s|secs?|min|kg|m|km)?\b|[$€£]\d[\d,.]*)?`)

// podiumPlaces reads the three places in podium order: first, second, third.
func podiumPlaces(prompt string) [3]standing {
	var out [3]standing
	rank := map[string]int{"1st": 0, "first": 0, "gold": 0, "2nd": 1, "second": 1, "silver": 1, "3rd": 2, "third": 2, "bronze": 2}
	for _, m := range placeRE.FindAllStringSubmatch(prompt, -1) {
		k := rank[strings.ToLower(m[1])]
		if out[k].Name == "" {
			out[k] = standing{Name: m[2], Value: strings.TrimRight(strings.TrimSpace(m[3]), ",.")}
		}
	}
	return out
}

// podium: three steps rise, the names land on them third, second, first with their
// figures, and medals drop onto them at the end.
func (g *genreFill) podium() {
	places := podiumPlaces(g.prompt)
	for k := range places {
		g.consume(places[k].Name, places[k].Value)
		places[k].Name = orDefault(places[k].Name, []string{"Winner", "Runner-up", "Third"}[k])
	}
	tall := g.c.tall() || g.c.square()
	// Steps in podium order left to right: second, first, third (heights in sizes).
	order := []int{1, 0, 2}
	heights := []float64{0.46, 0.32, 0.22}
	w, gap, ground := 0.36, 0.38, 0.78
	switch {
	case g.c.tall():
		heights = []float64{0.62, 0.44, 0.3}
		w, gap, ground = 0.28, 0.3, 0.72
	case tall:
		heights = []float64{0.36, 0.25, 0.18}
		w, gap, ground = 0.25, 0.28, 0.56
	}
	medals := []string{"#f5b700", "#9ca3af", "#cd7f32"}
	var parts []*scene.Element
	reveal := []float64{2, 1, 0} // third lands first, the winner last
	span := math.Max(0.9, (g.out-g.in)*0.45)
	for i, k := range order {
		x := g.c.xUnits(gap * float64(i-1))
		h := g.c.yUnits(heights[k])
		top := ground - h
		step := g.bar(x, ground-h/2, w, heights[k], []string{solid(g.accent), lighten(solid(g.accent), 0.15), lighten(solid(g.accent), 0.3)}[k])
		step.Label = "step"
		num := g.text(strconv.Itoa(k+1), x, top+g.c.yUnits(0.07), 0.07, "#ffffff", 900)
		if contrast(step.Color, "#ffffff") < 4.6 {
			num.Color = "#111827"
		}
		g.enter(step, "up", g.t+0.1*float64(i), 0.8)
		g.enter(num, "up", g.t+0.1*float64(i)+0.2, 0.8)
		at := g.in + span*reveal[k]/2
		// The name and figure stand on their step (In), so the critic reads them as its.
		name := g.text(places[k].Name, x, top-g.c.yUnits(0.27), fit(places[k].Name, gap*0.85, 0.04), g.ink, 800)
		name.Wrap, name.In = round3(gap*0.95), step.ID
		g.enter(name, "down", at, 0.6)
		parts = append(parts, step, num, name)
		if places[k].Value != "" {
			v := g.text(places[k].Value, x, top-g.c.yUnits(0.17), 0.03, g.ink, 600)
			v.In = step.ID
			g.enter(v, "down", at, 0.6) // with its name: one dropping through the other reads as a clash
			parts = append(parts, v)
		}
		medal := g.add(&scene.Element{ID: g.id("medal"), Type: scene.TypeCircle, Label: "medal",
			X: round3(x), Y: round3(top - g.c.yUnits(0.05)), Size: 0.045, Color: medals[k], Shadow: true, In: step.ID})
		g.enter(medal, "down", math.Min(g.out-0.8, g.in+span+0.3)+0.15*float64(2-k), 0.5)
		parts = append(parts, medal)
	}
	if title := g.quote(""); title != "" {
		parts = append(parts, g.headline(title, -0.84, -0.8, 0.05))
	}
	g.leave(parts...)
}

// A party of a chamber: its name, seats and colour.
type party struct {
	Name  string
	Seats int
	Color string
}

var (
	// partyRE: a party and its seats ("Labour Alliance 62 (red)", "Greens: 19 seats").
	partyRE = regexp.MustCompile(`([A-Z][\w'’&.-]*(?:\s(?:[A-Z][\w'’&.-]*|of|and|for)){0,3})[\s:–—-]+(\d{1,3})\b(?:\s*seats?)?(?:\s*\(([a-z]+)\))?`)
	// seatTotalRE: the chamber's size ("150 seats", "a 120-seat parliament").
	seatTotalRE = regexp.MustCompile(`(?i)\b(\d{2,3})[\s-]+seats?\b`)
	// majorityRE: the line a majority needs ("76 seats for a majority", "majority at 76").
	majorityRE = regexp.MustCompile(`(?i)\b(\d{1,3})\s+(?:seats?\s+)?(?:for|needed for|to win|makes?|is)\s+(?:a\s+|the\s+)?majority|\bmajority\s+(?:line\s+)?(?:at|of|is|needs)\s+(\d{1,3})`)
)

// chamber reads a seat chart: the parties in order, the seats in all and the majority.
func chamber(prompt string) (parties []party, total, majority int) {
	sum := 0
	for _, m := range partyRE.FindAllStringSubmatch(prompt, -1) {
		n, _ := strconv.Atoi(m[2])
		name := m[1]
		if ws := strings.Fields(name); genreCommon[strings.ToLower(ws[0])] && len(ws) > 1 {
			name = strings.Join(ws[1:], " ")
		}
		if n == 0 || sum+n > 400 {
			continue
		}
		p := party{Name: name, Seats: n}
		if c, ok := colorOf(m[3]); ok {
			p.Color = c
		}
		parties = append(parties, p)
		sum += n
	}
	total = sum
	if m := seatTotalRE.FindStringSubmatch(prompt); m != nil {
		if n, _ := strconv.Atoi(m[1]); n >= sum && n <= 400 {
			total = n
		}
	}
	// A figure the prompt calls the total is no party ("150 seats split …").
	if len(parties) > 0 && parties[0].Seats == total && len(parties) > 1 {
		parties = parties[1:]
	}
	majority = total/2 + 1
	if m := majorityRE.FindStringSubmatch(prompt); m != nil {
		v := orDefault(m[1], m[2])
		if n, _ := strconv.Atoi(v); n > 0 && n <= total {
			majority = n
		}
	}
	return parties, total, majority
}

// seatChart: the seats of a chamber in a half ring, filling party by party from left
// to right, a key counting each party's seats, and the line a majority needs.
func (g *genreFill) seatChart() {
	parties, total, majority := chamber(g.prompt)
	if total < 2 || len(parties) == 0 {
		parties, total, majority = []party{{Name: "Seats", Seats: 100}}, 100, 51
	}
	palette := []string{"#dc2626", "#2563eb", "#16a34a", "#6b7280", "#f59e0b", "#7c3aed"}
	for k := range parties {
		g.consume(parties[k].Name)
		if parties[k].Color == "" {
			parties[k].Color = palette[k%len(palette)]
		}
	}
	tall := g.c.tall() || g.c.square()
	// The ring: its outer radius in sizes and its middle (frame units).
	R, cy := 0.46, 0.34
	if tall {
		R, cy = 0.44, 0.12
		if g.c.square() {
			cy = 0.3
		}
	}
	rows := max(2, min(8, int(math.Round(math.Sqrt(float64(total))/2))))
	inner := 0.42
	radii := make([]float64, rows)
	sumR := 0.0
	for i := range radii {
		radii[i] = R * (inner + (1-inner)*float64(i)/float64(rows-1))
		sumR += radii[i]
	}
	type seat struct{ x, y, angle float64 }
	var seats []seat
	left := total
	for i, r := range radii {
		n := int(math.Round(float64(total) * r / sumR))
		if i == rows-1 {
			n = left
		}
		n = min(n, left)
		left -= n
		for j := range n {
			a := math.Pi
			if n > 1 {
				a = math.Pi * (1 - float64(j)/float64(n-1))
			}
			seats = append(seats, seat{g.c.xUnits(r * math.Cos(a)), cy - g.c.yUnits(r*math.Sin(a)), a})
		}
	}
	slices.SortStableFunc(seats, func(a, b seat) int {
		switch {
		case a.angle > b.angle+1e-9:
			return -1
		case a.angle < b.angle-1e-9:
			return 1
		}
		return 0
	})
	dot := round3(math.Min(R*(1-inner)/float64(rows-1)*0.36, R*math.Pi/float64(max(1, total/rows))*0.36))
	t0, t1 := g.in, math.Max(g.in+1, g.out-1.2)
	dt := (t1 - t0) / float64(max(1, total))
	var parts []*scene.Element
	k := 0
	for _, p := range parties {
		for range p.Seats {
			if k >= len(seats) {
				break
			}
			s := seats[k]
			e := g.add(&scene.Element{ID: g.id("seat"), Type: scene.TypeCircle, Label: "seat", X: round3(s.x), Y: round3(s.y), Size: dot, Color: p.Color})
			g.enter(e, "pop", t0+dt*float64(k), 0.3)
			parts = append(parts, e)
			k++
		}
	}
	// The majority line: a tick across the ring at the top, with its figure above it.
	line := g.bar(0, cy-g.c.yUnits(R*(1+inner)/2), 0.006, R*(1-inner)+0.06, g.ink)
	line.Label = "majority line"
	g.enter(line, "fade", g.in, 0.5)
	mark := g.text(strconv.Itoa(majority)+" for a majority", 0, cy-g.c.yUnits(R+0.05), 0.03, g.ink, 700)
	g.enter(mark, "fade", g.in+0.2, 0.5)
	parts = append(parts, line, mark)
	// The key: each party's swatch, name and seats counting up as its seats fill.
	keyY, step := cy+0.2, 0.12
	cols := len(parties)
	if cols > 3 {
		cols = 2
	}
	if tall {
		keyY, cols = cy+0.14, min(2, len(parties))
		step = 0.1
	}
	width := 1.5
	if tall {
		width = 0.85
	}
	pitch := width / float64(cols)
	k = 0
	for j, p := range parties {
		col, row := j%cols, j/cols
		x := g.c.xUnits(-width/2 + pitch*(float64(col)+0.5))
		y := keyY + step*float64(row)
		sw := g.add(&scene.Element{ID: g.id("key"), Type: scene.TypeCircle, X: round3(x - g.c.xUnits(pitch*0.42)), Y: round3(y), Size: 0.02, Color: p.Color})
		name := g.text(p.Name, round3(x-g.c.xUnits(pitch*0.05)), round3(y), 0.032, g.ink, 700)
		name.Wrap = round3(pitch * 0.62)
		num := g.add(&scene.Element{ID: g.id("value"), Type: scene.TypeCounter, X: round3(x + g.c.xUnits(pitch*0.36)), Y: round3(y), Size: 0.04, Color: g.ink, To: float64(p.Seats)})
		at := t0 + dt*float64(k)
		g.enter(sw, "pop", at, 0.4)
		g.enter(name, "fade", at, 0.5)
		g.enter(num, "fade", at, 0.3)
		g.progress(num, at, at+dt*float64(p.Seats), false)
		parts = append(parts, sw, name, num)
		k += p.Seats
	}
	if title := g.quote(""); title != "" {
		parts = append(parts, g.headline(title, -0.8, -0.8, 0.05))
	}
	g.leave(parts...)
}

var (
	// boardColumnsRE: a board's columns listed after the word ("three columns: To Do,
	// In Progress, Done").
	boardColumnsRE = regexp.MustCompile(`(?i)\bcolumns?\b[^:.]{0,30}[:—–-]\s*([^.]+)`)
	// workflowRE: the usual columns of a task board, named in the prompt without a list.
	workflowRE = regexp.MustCompile(`(?i)\b(?:to[ -]?do|backlog|in progress|doing|review|in review|done|shipped|blocked)\b`)
)

// kanbanParts reads a task board: its columns, the card that moves, and the columns
// it moves from and to (the first and last the prompt names after the card).
func kanbanParts(prompt string, texts []string) (cols []string, card string, from, to int) {
	cols = listItems(boardColumnsRE, prompt)
	if len(cols) < 2 || len(cols) > 5 {
		cols = nil
		seen := map[string]bool{}
		for _, w := range workflowRE.FindAllString(prompt, -1) {
			if k := strings.ToLower(w); !seen[k] {
				seen[k] = true
				cols = append(cols, capitalize(w))
			}
		}
	}
	if len(cols) < 2 {
		cols = []string{"To Do", "In Progress", "Done"}
	}
	at := 0
	for _, q := range texts {
		if !containsStr(cols, capitalize(q)) {
			card = q
			at = strings.Index(prompt, q) + len(q)
			break
		}
	}
	from, to = max(0, len(cols)-2), len(cols)-1
	first, last := -1, -1
	lowRest := strings.ToLower(prompt[max(0, at):])
	pos := func(k int) int { // whole words: "to done" names no "To Do"
		if m := regexp.MustCompile(`\b` + regexp.QuoteMeta(strings.ToLower(cols[k])) + `\b`).FindStringIndex(lowRest); m != nil {
			return m[0]
		}
		return -1
	}
	for k := range cols {
		if p := pos(k); p >= 0 {
			if first < 0 || p < pos(first) {
				first = k
			}
			if last < 0 || p > pos(last) {
				last = k
			}
		}
	}
	switch {
	case first >= 0 && last >= 0 && first != last:
		from, to = first, last
	case first >= 0 && first > 0:
		from, to = first-1, first // "dragged to Done": from the column before
	}
	return cols, card, from, to
}

// kanban: a task board's columns with a few cards, and the named card lifted out of
// its column, carried across and dropped into the next.
func (g *genreFill) kanban() {
	cols, card, from, to := kanbanParts(g.prompt, g.b.Texts)
	g.consume(append(cols, card)...)
	card = orDefault(card, "Task")
	n := len(cols)
	tall := g.c.tall()
	avail, top, colH := 1.6, -0.62, 0.7
	if tall || g.c.square() {
		avail, top, colH = 0.9, -0.55, 0.7
	}
	if tall {
		top, colH = -0.7, 1.2 // the columns take the tall frame's height
	}
	pitch := avail / float64(n)
	colW := pitch * 0.92
	cardW, cardH := colW*0.86, math.Min(0.11, colW*0.4)
	colTint := lighten(g.c.bd.Palette.Background[0], 0.08)
	if luminance(g.c.bd.Palette.Background[0]) > 0.6 {
		colTint = darken(g.c.bd.Palette.Background[0], 0.06)
	}
	x := func(k int) float64 { return g.c.xUnits((float64(k) - float64(n-1)/2) * pitch) }
	slot := func(i int) float64 { return top + g.c.yUnits(0.12+cardH/2+float64(i)*(cardH+0.03)) }
	var parts []*scene.Element
	for k, name := range cols {
		colY := top + g.c.yUnits(colH/2)
		// The columns and their still cards are the board's backdrop (a depth just
		// under 1): the card that moves passes over them on purpose.
		panel := g.bar(x(k), colY, colW, colH, colTint)
		panel.Label, panel.Depth = "column", 0.99
		head := g.text(strings.ToUpper(name), x(k), top+g.c.yUnits(0.05), fit(name, colW*0.85, 0.032), g.ink, 800)
		head.Wrap = round3(colW * 0.9)
		for _, e := range []*scene.Element{panel, head} {
			g.enter(e, "up", g.t+0.1*float64(k), 0.6)
		}
		parts = append(parts, panel, head)
		// A few cards stand in each column so the board reads as one at work; the
		// moving card's column keeps its slot free below them.
		rest := 2 - k%2
		for i := range rest {
			row := i
			if k == from {
				row = i + 1
			}
			if k == to {
				row = i
			}
			c := g.bar(x(k), slot(row), cardW, cardH, g.panel)
			c.Label, c.Depth = "card", 0.99
			line := g.bar(x(k)-g.c.xUnits(cardW*0.12), slot(row), cardW*0.6, 0.012, mix(g.panel, g.ink))
			line.Label, line.Depth = "card text", 0.99
			g.enter(c, "up", g.t+0.2+0.06*float64(i), 0.6)
			g.enter(line, "up", g.t+0.2+0.06*float64(i), 0.6)
			parts = append(parts, c, line)
		}
	}
	// The moving card: in its column's first slot, lifted, carried across and dropped
	// below the cards of the column it goes to.
	y0 := slot(0)
	toRows := 2 - to%2
	y1 := slot(toRows)
	mv := g.bar(x(from), y0, cardW, cardH, solid(g.accent))
	mv.Label, mv.Shadow = "moving card", true
	title := g.text(card, x(from), y0, 0.03, "#ffffff", 800)
	title.Wrap = round3(cardW * 0.9)
	g.enter(mv, "pop", g.t+0.4, 0.5)
	g.enter(title, "pop", g.t+0.4, 0.5)
	t0 := math.Max(g.in+0.4, g.t+1.2)
	t1 := math.Min(g.out-0.6, t0+1.6)
	for _, e := range []*scene.Element{mv, title} {
		tr := trackOf(e)
		key(tr, "x", 0, e.X, "")
		key(tr, "x", t0, e.X, "")
		key(tr, "x", t1, round3(x(to)), "easeInOutCubic")
		key(tr, "y", 0, e.Y, "")
		key(tr, "y", t0, e.Y, "")
		key(tr, "y", t1, round3(y1), "easeInOutCubic")
		key(tr, "scale", t0-0.2, 1, "")
		key(tr, "scale", t0, 1.08, "easeOutCubic")
		key(tr, "rotation", t0, 0, "")
		key(tr, "rotation", t0+0.3, 4, "easeOutCubic")
		key(tr, "rotation", t1-0.2, 4, "")
		key(tr, "rotation", t1, 0, "easeOutBack")
		key(tr, "scale", t1, 1, "easeOutBack")
	}
	title.In = mv.ID
	parts = append(parts, mv, title)
	g.leave(parts...)
}

var (
	// gaugeValueRE: where a needle stops ("settles in the red at 162", "points to 72%"),
	// else where it goes ("sweeps to 88 mph").
	gaugeValueRE = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\b(?:settl\w*|stops?|stopping|lands?|landing|points?|pointing|reads?|reading|rests?|ends?)\b[^.\d]{0,30}?(\d+(?:\.\d+)?)\s*(%|mph|km/h|kph|rpm|°)?`),
		regexp.MustCompile(`(?i)\b(?:to|at|reach\w*|hits?)\s+(\d+(?:\.\d+)?)\s*(%|mph|km/h|kph|rpm|°)?`),
	}
	// gaugeRangeRE: the dial's scale ("out of 10", "from 0 to 300", "0–200").
	gaugeRangeRE = regexp.MustCompile(`(?i)\bout of\s+(\d+)|\b0\s*(?:to|-|–)\s*(\d+)\b`)
)

// gaugeReading reads where the needle stops, its unit and the dial's top.
func gaugeReading(prompt string) (v float64, unit string, top float64) {
	v, top = 70, 100
	for _, re := range gaugeValueRE {
		if m := re.FindStringSubmatch(prompt); m != nil {
			v, _ = strconv.ParseFloat(m[1], 64)
			unit = m[2]
			break
		}
	}
	if m := gaugeRangeRE.FindStringSubmatch(prompt); m != nil {
		n, _ := strconv.ParseFloat(orDefault(m[1], m[2]), 64)
		if n >= v && n > 0 {
			return v, unit, n
		}
	}
	for top < v*1.15 {
		top *= 2 // a round top with room above the reading: 200 for 162
	}
	return v, unit, top
}

// gauge: a half dial of coloured bands, its needle swinging up and settling at the
// reading while the figure counts to it, and the prompt's lines under it.
func (g *genreFill) gauge() {
	v, unit, top := gaugeReading(g.prompt)
	// The bands: the colours the prompt lists for the dial, in order, else green to red.
	var bands []string
	for _, c := range g.b.Colors {
		if c != g.b.Background && c != g.b.Background2 {
			bands = append(bands, c)
		}
	}
	if len(bands) < 2 {
		bands = []string{"#16a34a", "#facc15", "#f97316", "#dc2626"}
	}
	tall := g.c.tall() || g.c.square()
	R, py := 0.42, 0.1 // radius in sizes, the pivot's y in frame units
	if tall {
		R, py = 0.38, 0.05
	}
	// Each band is an annular sector in a box of half-height R/2 centred half a radius
	// above the pivot: the critic, which reads a path as its box, sees the half dial's
	// height (its width is the frame's business, and the layout keeps it in).
	cy := py - g.c.yUnits(R/2)
	pt := func(r, a float64) string { return fmt.Sprintf("%.3f,%.3f", 2*r*math.Cos(a), 1-2*r*math.Sin(a)) }
	var parts, chain []*scene.Element
	n := float64(len(bands))
	for k, col := range bands {
		a0, a1 := math.Pi*(1-float64(k)/n), math.Pi*(1-float64(k+1)/n)
		d := "M" + pt(1, a0) + " A2,2 0 0,1 " + pt(1, a1) + " L" + pt(0.68, a1) + " A1.36,1.36 0 0,0 " + pt(0.68, a0) + " Z"
		band := g.add(&scene.Element{ID: g.id("band"), Type: scene.TypePath, Path: d, Label: "dial", X: 0, Y: round3(cy), Size: round3(R / 2), Color: col})
		if len(chain) > 0 {
			band.In = chain[len(chain)-1].ID
		}
		chain = append(chain, band)
		g.enter(band, "fade", g.t+0.12*float64(k), 0.5)
		parts = append(parts, band)
	}
	// "settles in the red at 162": the scale puts the reading in the middle of that band.
	if m := regexp.MustCompile(`(?i)\bin the (\w+)\b`).FindStringSubmatch(g.prompt); m != nil && !gaugeRangeRE.MatchString(g.prompt) {
		if c, ok := colorOf(strings.ToLower(m[1])); ok {
			if k := slices.Index(bands, c); k >= 0 {
				top = v / ((float64(k) + 0.5) / n)
			}
		}
	}
	needle := g.add(&scene.Element{ID: g.id("needle"), Type: scene.TypePath, Label: "needle", Path: "M-0.07,0 L0,-0.92 L0.07,0 Z",
		X: 0, Y: round3(py), Size: round3(R * 0.92), Color: g.ink, In: chain[len(chain)-1].ID})
	hub := g.add(&scene.Element{ID: g.id("hub"), Type: scene.TypeCircle, X: 0, Y: round3(py), Size: 0.035, Color: g.ink, In: needle.ID})
	g.enter(needle, "fade", g.in-0.3, 0.4)
	g.enter(hub, "pop", g.in-0.3, 0.4)
	// The needle swings from the left end past the reading and settles on it.
	at := -90 + 180*math.Min(1, v/top)
	t0, t1 := g.in, math.Min(g.out-0.5, g.in+2.2)
	tr := trackOf(needle)
	key(tr, "rotation", 0, -90, "")
	key(tr, "rotation", t0, -90, "")
	key(tr, "rotation", t0+(t1-t0)*0.7, math.Min(90, at+12), "easeOutCubic")
	key(tr, "rotation", t1, at, "easeInOutSine")
	// A live reading quivers about its value, so the hold is never a still frame.
	for k, t := 1, t1+0.5; t < g.end-0.2; k, t = k+1, t+0.5 {
		key(tr, "rotation", t, at+2.5*float64(1-2*(k%2)), "easeInOutSine")
	}
	figure := g.add(&scene.Element{ID: g.id("value"), Type: scene.TypeCounter, X: 0, Y: round3(py + g.c.yUnits(0.1)), Size: 0.07,
		Color: g.ink, To: v, Suffix: unit, In: hub.ID})
	g.enter(figure, "fade", g.in, 0.4)
	g.progress(figure, t0, t0+(t1-t0)*0.7, false)
	g.consume(strconv.FormatFloat(v, 'f', -1, 64))
	parts = append(parts, needle, hub, figure)
	// The prompt's lines under the dial, together (a reading and where it was taken).
	y := py + g.c.yUnits(0.2)
	for k, q := range g.rest() {
		s := 0.045
		if k > 0 {
			s = 0.035
		}
		e := g.text(q, 0, round3(y), fit(q, 1.4, s), g.ink, 800-200*min(k, 1))
		e.In = hub.ID // the dial's own lines: the needle's sweep passes over them on purpose
		g.enter(e, "up", t1+0.2*float64(k), 0.6)
		parts = append(parts, e)
		y += g.c.yUnits(s*1.3 + 0.03)
	}
	g.leave(parts...)
}

// repostPath is the two looping arrows of a repost, as stroke path data.
const repostPath = "M-0.8,0.25 L-0.8,-0.4 L0.6,-0.4 M0.3,-0.7 L0.6,-0.4 L0.3,-0.1 M0.8,-0.25 L0.8,0.4 L-0.6,0.4 M-0.3,0.1 L-0.6,0.4 L-0.3,0.7"

// postCountRE: a post's count that climbs ("the like count races from 12 up to 4.8K",
// "reposts climb to 623", "2,310 likes").
var postCountRE = regexp.MustCompile(`(?i)\b(likes?|hearts?|reposts?|retweets?|shares?|comments?|replies)\b(?:\s+count)?[^.;\d]{0,40}?(?:from\s+(\d[\d.,]*[km]?)\s+)?(?:up\s+)?to\s+(\d[\d.,]*[km]?)|(\d[\d.,]*[km]?)\s+(likes?|reposts?|retweets?|shares?|comments?|replies)\b`)

// postCount is a count as a counter reads it: "4.8K" counts to 4.8 with a K after it.
type postCount struct {
	From, To float64
	Suffix   string
}

// parsePostCount reads "4.8K", "623", "1,200" (from may be "").
func parsePostCount(from, to string) postCount {
	num := func(s string) (float64, string) {
		s = strings.ReplaceAll(strings.TrimRight(strings.ToLower(s), ".,"), ",", "")
		suf := ""
		if strings.HasSuffix(s, "k") || strings.HasSuffix(s, "m") {
			suf = strings.ToUpper(s[len(s)-1:])
			s = s[:len(s)-1]
		}
		v, _ := strconv.ParseFloat(s, 64)
		return v, suf
	}
	v, suf := num(to)
	c := postCount{To: v, Suffix: suf}
	if from != "" {
		f, fs := num(from)
		if fs == suf {
			c.From = f
		}
	}
	return c
}

// postCounts reads a post's likes and reposts (or shares).
func postCounts(prompt string) (likes, reposts *postCount) {
	for _, m := range postCountRE.FindAllStringSubmatch(prompt, -1) {
		kind, from, to := m[1], m[2], m[3]
		if kind == "" {
			kind, to = m[5], m[4]
		}
		c := parsePostCount(from, to)
		switch k := strings.ToLower(kind); {
		case strings.HasPrefix(k, "like") || strings.HasPrefix(k, "heart"):
			if likes == nil {
				likes = &c
			}
		case reposts == nil:
			reposts = &c
		}
	}
	return likes, reposts
}

// socialPost: a post as its app shows it — avatar, name and handle, the post's words,
// and a row of actions whose counts climb while the heart turns red.
func (g *genreFill) socialPost() {
	handle := handleRE.FindString(g.prompt)
	name := ""
	if handle != "" {
		// The display name is the proper name just before the handle ("Jen Okoro @jen…").
		before := g.prompt[:strings.Index(g.prompt, handle)]
		if ns := properRE.FindAllString(before, -1); len(ns) > 0 {
			name = ns[len(ns)-1]
		}
	}
	if name == "" {
		if ns := g.names(); len(ns) > 0 {
			name = ns[0]
		}
	}
	g.consume(handle, name)
	name = orDefault(name, strings.TrimPrefix(orDefault(handle, "@you"), "@"))
	text := g.longestQuote()
	likes, reposts := postCounts(g.prompt)
	tall := g.c.tall()
	cardW, cardH, cy := 1.3, 0.62, 0.0
	if tall || g.c.square() {
		cardW, cardH = 0.86, 0.7
	}
	if tall {
		cardH = 0.8
	}
	paper, ink, soft := "#ffffff", "#0f172a", "#64748b"
	if luminance(g.c.bd.Palette.Background[0]) > 0.6 {
		paper, ink, soft = "#0f172a", "#f8fafc", "#94a3b8"
	}
	card := g.bar(0, cy, cardW, cardH, paper)
	card.Shadow = true
	left := -g.c.xUnits(cardW/2 - 0.1)
	topY := cy - g.c.yUnits(cardH/2-0.1)
	avatar := g.add(&scene.Element{ID: g.id("avatar"), Type: scene.TypeCircle, X: round3(left), Y: round3(topY), Size: 0.05, Color: solid(g.accent)})
	ini := g.text(initials(name), left, topY, 0.03, "#ffffff", 800)
	ini.In = avatar.ID
	nx := left + g.c.xUnits(0.08)
	nameW := 0.55 * 0.04 * float64(len([]rune(name)))
	who := g.text(name, round3(nx+g.c.xUnits(nameW/2)), round3(topY-g.c.yUnits(0.02)), 0.04, ink, 800)
	parts := []*scene.Element{card, avatar, ini, who}
	if handle != "" {
		hw := 0.55 * 0.032 * float64(len(handle))
		h := g.text(handle, round3(nx+g.c.xUnits(hw/2)), round3(topY+g.c.yUnits(0.035)), 0.032, soft, 600)
		parts = append(parts, h)
	}
	if text != "" {
		body := g.text(text, 0, round3(cy), fit(text, cardW*1.6, 0.045), ink, 600)
		body.Wrap = round3(cardW * 0.86)
		parts = append(parts, body)
	}
	for k, e := range parts {
		g.enter(e, "up", g.t+0.06*float64(k), 0.6)
	}
	// The actions: a heart that turns red and its count, then the reposts.
	ay := cy + g.c.yUnits(cardH/2-0.08)
	hx := left
	grey := soft
	heart := g.add(&scene.Element{ID: g.id("heart"), Type: scene.TypeHeart, X: round3(hx), Y: round3(ay), Size: 0.035, Color: grey})
	red := g.add(&scene.Element{ID: g.id("liked"), Type: scene.TypeHeart, X: round3(hx), Y: round3(ay), Size: 0.035, Color: "#e11d48", In: heart.ID})
	g.enter(heart, "fade", g.t+0.4, 0.4)
	liked := g.in + 0.3
	g.enter(red, "pop", liked, 0.5)
	g.c.motion(red, scene.Motion{Type: scene.MotionPulse, Start: liked + 0.5, End: liked + 1.3, Amp: 0.15, Count: 1})
	parts = append(parts, heart, red)
	count := func(c *postCount, x float64, t0 float64) {
		if c == nil {
			return
		}
		e := g.add(&scene.Element{ID: g.id("value"), Type: scene.TypeCounter, X: round3(x + g.c.xUnits(0.09)), Y: round3(ay), Size: 0.035,
			Color: ink, From: c.From, To: c.To, Suffix: c.Suffix})
		g.enter(e, "fade", g.t+0.4, 0.4)
		g.progress(e, t0, math.Max(t0+1, g.out-0.8), false)
		parts = append(parts, e)
	}
	count(likes, hx, liked)
	if reposts != nil {
		rx := hx + g.c.xUnits(math.Min(0.4, cardW*0.4))
		rp := g.add(&scene.Element{ID: g.id("repost"), Type: scene.TypePath, Variant: "stroke", Path: repostPath, X: round3(rx), Y: round3(ay), Size: 0.03, Color: soft})
		g.enter(rp, "fade", g.t+0.4, 0.4)
		parts = append(parts, rp)
		count(reposts, rx, liked+0.3)
	}
	g.leave(parts...)
}

var (
	// guessRE: a guess of a word puzzle, written in capitals ("CRANE, SLOTH, SHOUT").
	guessRE = regexp.MustCompile(`\b[A-Z]{4,7}\b`)
	// gridSizeRE: a grid's columns by rows ("a 5x6 grid").
	gridSizeRE = regexp.MustCompile(`\b(\d{1,2})\s*[x×]\s*(\d{1,2})\b`)
	// answerRE: the word a puzzle is solved by ("the answer is SHOUT").
	answerRE = regexp.MustCompile(`(?i)\b(?:answer|solution|word of the day)\b[^.]{0,15}?\b([A-Z]{4,7})\b`)
)

// wordGuesses reads a word puzzle: the guesses in order, the answer, and the grid.
func wordGuesses(prompt string) (guesses []string, answer string, cols, rows int) {
	for _, w := range guessRE.FindAllString(prompt, -1) {
		if len(guesses) == 0 || len(w) == len(guesses[0]) {
			guesses = append(guesses, w)
		}
	}
	if len(guesses) == 0 {
		return nil, "", 0, 0
	}
	cols, rows = len(guesses[0]), 6
	if m := gridSizeRE.FindStringSubmatch(prompt); m != nil {
		c, _ := strconv.Atoi(m[1])
		r, _ := strconv.Atoi(m[2])
		if c == cols && r >= len(guesses) && r <= 8 {
			rows = r
		}
	}
	answer = guesses[len(guesses)-1]
	if m := answerRE.FindStringSubmatch(prompt); m != nil && len(m[1]) == cols {
		answer = m[1]
		guesses = slices.DeleteFunc(guesses, func(g string) bool { return g == answer && g != guesses[len(guesses)-1] })
	}
	return guesses, answer, cols, rows
}

// marks scores a guess against the answer as the game does: 2 right place, 1 in the
// word elsewhere (as often as it is left unmatched), 0 not in it.
func marks(guess, answer string) []int {
	out := make([]int, len(guess))
	left := map[byte]int{}
	for i := range guess {
		if i < len(answer) && guess[i] == answer[i] {
			out[i] = 2
		} else if i < len(answer) {
			left[answer[i]]++
		}
	}
	for i := range guess {
		if out[i] == 0 && left[guess[i]] > 0 {
			out[i] = 1
			left[guess[i]]--
		}
	}
	return out
}

// wordGrid: a word puzzle's grid of empty tiles; each guess types in and its tiles
// flip one after another to grey, yellow or green, and the line under it comes last.
func (g *genreFill) wordGrid() {
	guesses, answer, _, rows := wordGuesses(g.prompt)
	if len(guesses) == 0 {
		guesses, answer, rows = []string{"HELLO"}, "HELLO", 6
	}
	g.consume(guesses...)
	cols := len(guesses[0])
	pitch := math.Min(0.13, 0.74/float64(rows))
	if g.c.tall() {
		pitch = math.Min(0.16, 0.86/float64(cols))
	}
	tile := pitch * 0.88
	cy := -0.08
	if g.c.tall() {
		cy = -0.15
	}
	empty := lighten(g.c.bd.Palette.Background[0], 0.12)
	if luminance(g.c.bd.Palette.Background[0]) > 0.6 {
		empty = darken(g.c.bd.Palette.Background[0], 0.1)
	}
	state := []string{solid("#787c7e"), solid("#c9b458"), solid("#6aaa64")} // the game's colours, deep enough for white letters
	pos := func(r, c int) (float64, float64) {
		return g.c.xUnits((float64(c) - float64(cols-1)/2) * pitch), cy + g.c.yUnits((float64(r)-float64(rows-1)/2)*pitch)
	}
	var parts []*scene.Element
	blank := map[[2]int]*scene.Element{}
	for r := range rows {
		for c := range cols {
			x, y := pos(r, c)
			e := g.bar(x, y, tile, tile, empty)
			e.Label = "tile"
			g.enter(e, "pop", g.t+0.02*float64(r*cols+c), 0.4)
			parts = append(parts, e)
			blank[[2]int{r, c}] = e
		}
	}
	span := math.Max(0.9, (g.out-0.8-g.in)/float64(len(guesses)))
	for r, guess := range guesses {
		ms := marks(guess, answer)
		for c := range cols {
			x, y := pos(r, c)
			at := g.in + span*float64(r) + 0.12*float64(c)
			// The flip: the blank tile closes to an edge, and its scored face opens from it.
			tr := trackOf(blank[[2]int{r, c}])
			key(tr, "sy", 0, 1, "")
			key(tr, "sy", at-0.2, 1, "")
			key(tr, "sy", at, 0, "easeInCubic")
			key(tr, "opacity", at, 1, "")
			key(tr, "opacity", at+0.01, 0, "")
			face := g.bar(x, y, tile, tile, state[ms[c]])
			face.Label = "tile"
			letter := g.text(string(guess[c]), x, y, round3(tile*0.55), "#ffffff", 900)
			letter.In = face.ID
			for _, e := range []*scene.Element{face, letter} {
				tr := trackOf(e)
				key(tr, "opacity", 0, 0, "")
				key(tr, "opacity", at, 0, "")
				key(tr, "opacity", at+0.01, 1, "")
				key(tr, "sy", 0, 0, "")
				key(tr, "sy", at, 0, "")
				key(tr, "sy", at+0.25, 1, "easeOutCubic")
			}
			parts = append(parts, face, letter)
		}
	}
	if q := g.longestQuote(); q != "" {
		_, bottom := pos(rows-1, 0)
		e := g.text(q, 0, round3(bottom+g.c.yUnits(pitch)), fit(q, 1.4, 0.06), g.ink, 900)
		g.enter(e, "pop", g.in+span*float64(len(guesses))+0.2, 0.6)
		parts = append(parts, e)
	}
	g.leave(parts...)
}

var (
	// wheelListRE: a wheel's slices listed after a colon ("six slices …: 10% OFF, FREE
	// TOTE, TRY AGAIN").
	wheelListRE = regexp.MustCompile(`(?i)\b(?:slices|segments|prizes|options|sections|wedges)\b[^:.]{0,60}:\s*([^.]+)`)
	// wheelLandsRE: the slice the pointer stops on.
	wheelLandsRE = regexp.MustCompile(`(?i)\b(?:lands?|landing|stops?|stopping|settles?|comes to rest)\s+(?:right\s+)?(?:on|at)\s+(?:the\s+)?["“]?([^,.;!"”]+)`)
)

// wheelSlices reads a prize wheel: its slices in order and the one it lands on.
func wheelSlices(prompt string, texts []string) (items []string, winner string) {
	items = listItems(wheelListRE, prompt)
	if len(items) < 2 {
		items = nil
		for _, t := range texts { // the quote it lands on is a slice already
			if !containsStr(items, t) {
				items = append(items, t)
			}
		}
	}
	if m := wheelLandsRE.FindStringSubmatch(prompt); m != nil {
		w := strings.TrimSpace(m[1])
		for _, s := range items {
			if strings.EqualFold(s, w) || strings.HasPrefix(strings.ToLower(w), strings.ToLower(s)) {
				winner = s
			}
		}
	}
	if winner == "" && len(items) > 0 {
		winner = items[len(items)/2]
	}
	return items, winner
}

// spinWheel: a prize wheel of the prompt's slices spins fast, slows right down and
// stops with the winning slice under the pointer at the top, which then pulses.
func (g *genreFill) spinWheel() {
	items, winner := wheelSlices(g.prompt, g.b.Texts)
	if len(items) < 2 {
		items = []string{"Prize", "Try again", "Prize", "Try again"}
	}
	if len(items) > 12 {
		items = items[:12]
	}
	g.consume(items...)
	n := len(items)
	win := max(0, slices.Index(items, winner))
	R, cy := 0.38, 0.1
	if g.c.tall() {
		R, cy = 0.42, 0.0
	}
	cols := []string{}
	for _, c := range g.b.Colors {
		if c != g.b.Background && c != g.b.Background2 {
			cols = append(cols, c)
		}
	}
	if len(cols) < 2 {
		cols = append(cols, []string{solid(g.accent), "#ffffff"}...)[:2]
	}
	for k, c := range cols {
		if contrast(c, "#ffffff") < 4.6 && contrast(c, "#111827") < 4.6 {
			cols[k] = solid(c) // mid tones read neither ink: deepen them for white
		}
	}
	slice := 2 * math.Pi / float64(n)
	// The spin: in screen degrees, clockwise; slice k's middle starts at angle -90+k·slice
	// (the top is -90) and the wheel turns until the winner's middle is at the top.
	turns := 4.0
	total := turns*360 + float64(n-win)*360/float64(n)
	if total >= (turns+1)*360 {
		total -= 360
	}
	t0, t1 := g.in, math.Max(g.in+2, g.out-1.4)
	angleAt := func(t float64) float64 { // ease out: fast, then slowing right down
		u := math.Min(1, math.Max(0, (t-t0)/(t1-t0)))
		return total * (1 - math.Pow(1-u, 3))
	}
	var parts, chain []*scene.Element
	for k := range n {
		a0, a1 := -math.Pi/2+(float64(k)-0.5)*slice, -math.Pi/2+(float64(k)+0.5)*slice
		d := fmt.Sprintf("M0,0 L%.3f,%.3f A1,1 0 %d,1 %.3f,%.3f Z", math.Cos(a0), math.Sin(a0), btoi(slice > math.Pi), math.Cos(a1), math.Sin(a1))
		// The slices are the wheel's face (a depth just under 1): each label is read on
		// its own slice, and the slices meet on purpose.
		w := g.add(&scene.Element{ID: g.id("slice"), Type: scene.TypePath, Path: d, Label: "wheel", X: 0, Y: cy, Size: R, Color: cols[k%len(cols)], Depth: 0.99})
		chain = append(chain, w)
		parts = append(parts, w)
	}
	sample := func(e *scene.Element, at func(deg float64) (x, y, rot float64)) {
		tr := trackOf(e)
		for t := t0; ; t += 0.1 {
			t = math.Min(t, t1)
			x, y, rot := at(angleAt(t))
			if e.Type == scene.TypeText {
				key(tr, "x", t, x, "")
				key(tr, "y", t, y, "")
			}
			key(tr, "rotation", t, rot, "")
			if t >= t1 {
				break
			}
		}
	}
	for _, w := range chain {
		sample(w, func(deg float64) (float64, float64, float64) { return 0, cy, deg })
	}
	var labels []*scene.Element
	for k, it := range items {
		mid := -90 + float64(k)*360/float64(n)
		pos := func(deg float64) (float64, float64, float64) {
			a := (mid + deg) * math.Pi / 180
			return round3(g.c.xUnits(0.6 * R * math.Cos(a))), round3(cy + g.c.yUnits(0.6*R*math.Sin(a))), mid + deg // the words run along their radius
		}
		x, y, rot := pos(0)
		ink := "#ffffff"
		if contrast(cols[k%len(cols)], ink) < 4.6 {
			ink = "#111827"
		}
		l := g.text(it, x, y, fit(it, 0.5*R, 0.032), ink, 900)
		l.Wrap, l.In = round3(0.5*R), chain[k].ID
		key(trackOf(l), "rotation", 0, rot, "")
		sample(l, pos)
		labels = append(labels, l)
		parts = append(parts, l)
	}
	pointer := g.add(&scene.Element{ID: g.id("pointer"), Type: scene.TypePath, Label: "pointer", Path: "M-0.7,-1 L0.7,-1 L0,1 Z",
		X: 0, Y: round3(cy - g.c.yUnits(R+0.02)), Size: 0.05, Color: g.ink})
	parts = append(parts, pointer)
	for k, e := range parts {
		g.enter(e, "pop", g.t+0.02*float64(k%n), 0.5)
	}
	g.c.motion(labels[win], scene.Motion{Type: scene.MotionPulse, Start: t1 + 0.1, End: g.out, Amp: 0.15, Count: 2})
	g.leave(parts...)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// codeStatements are the lines of code a prompt writes without quotes, by the shape
// of a statement; each row has its example. The editor types them in the prompt's order.
var codeStatements = []struct {
	RE      *regexp.Regexp
	Color   string // the line's colour in the editor's theme, by what it starts with
	Example string
}{
	{regexp.MustCompile(`\bdef\s+\w+\([^)]*\):?`), "#c678dd", "def greet(name):"},
	{regexp.MustCompile(`\b(?:async\s+)?function\s+\w+\s*\([^)]*\)\s*\{?`), "#c678dd", "function add(a, b) {"},
	{regexp.MustCompile(`\bclass\s+\w+(?:\([^)]*\))?:?`), "#c678dd", "class Cart:"},
	{regexp.MustCompile(`\b(?:const|let|var)\s+\w+\s*=\s*[^,;]+;?`), "#e5c07b", "const total = price * qty;"},
	{regexp.MustCompile(`\breturn\s+(?:f?"[^"]*"|'[^']*'|[^,;.]+)`), "#61afef", `return f"Hello, {name}!"`},
	{regexp.MustCompile(`\b(?:print|console\.log)\s*\([^)]*\);?`), "#98c379", `print("Hello")`},
	{regexp.MustCompile(`\bimport\s+[\w.]+(?:\s+from\s+['"][^'"]+['"])?;?`), "#c678dd", "import numpy"},
	// A shell command ends where the prose goes on ("$ npm run dev and the server starts").
	{regexp.MustCompile(`(\$\s+[a-z][\w./-]*(?:\s+[\w./@:=-]+)*?)(?:\s+(?:and|then|while)\b|[,;]|\.(?:\s|$)|$)`), "#abb2bf", "$ npm run dev"},
}

var (
	// codeOutputRE: what a terminal prints ("a terminal panel below prints Hello, Ada!").
	codeOutputRE = regexp.MustCompile(`(?i)\b(?:prints?|outputs?|logs?|shows)\s+(?:out\s+)?["“]?([^"”.;]+?[!?]?)(?:["”]|\.(?:\s|$)|$)`)
	// indentedRE: a line the prompt says is indented.
	indentedRE = regexp.MustCompile(`^[^.;]{0,12}\bindented\b`)
)

// codeLines reads the code an editor types: quotes that look like code and statements
// written without quotes, in the prompt's order, each with its colour and indent; and
// what the terminal prints.
func codeLines(prompt string, texts []string) (lines []string, colors []string, output string) {
	type at struct {
		pos        int
		line, tint string
	}
	var found []at
	for _, row := range codeStatements {
		for _, m := range row.RE.FindAllStringSubmatchIndex(prompt, -1) {
			if len(m) > 2 {
				m = m[2:4] // the statement, without what ends it
			}
			line := strings.TrimSpace(prompt[m[0]:m[1]])
			if indentedRE.MatchString(prompt[m[1]:]) {
				line = "    " + line
			}
			found = append(found, at{m[0], line, row.Color})
		}
	}
	if m := codeOutputRE.FindStringSubmatchIndex(prompt); m != nil {
		output = strings.TrimSpace(prompt[m[2]:m[3]])
	}
	for _, q := range texts {
		i := strings.Index(prompt, q)
		inCode := false
		for _, f := range found {
			inCode = inCode || i >= f.pos && i < f.pos+len(f.line)+8
		}
		if inCode || q == output || !strings.ContainsAny(q, "(){}[]=;:<>") {
			continue
		}
		found = append(found, at{i, q, "#abb2bf"})
	}
	slices.SortStableFunc(found, func(a, b at) int { return a.pos - b.pos })
	for _, f := range found {
		lines = append(lines, f.line)
		colors = append(colors, f.tint)
	}
	return lines, colors, output
}

// codeEditor: a dark editor window with its three dots types the prompt's code line by
// line, a caret after the last letter, then a terminal under it prints the output.
func (g *genreFill) codeEditor() {
	lines, colors, output := codeLines(g.prompt, g.b.Texts)
	g.consume(append(append([]string(nil), lines...), output)...)
	for i, q := range g.b.Texts { // a string inside a line of code is typed with it
		for _, l := range lines {
			if strings.Contains(l, q) {
				g.used[i] = true
			}
		}
	}
	if len(lines) == 0 {
		// No statement the table knows: the prompt's quotes are what the editor types.
		for _, q := range g.rest() {
			lines, colors = append(lines, q), append(colors, "#abb2bf")
		}
	}
	if len(lines) == 0 {
		lines, colors = []string{`print("Hello, world!")`}, []string{"#98c379"}
	}
	tall := g.c.tall() || g.c.square()
	w, h, cy, pad := 1.45, 0.56, -0.16, 0.05
	if tall {
		w, h, cy, pad = 0.84, 0.6, -0.18, 0.12
	}
	if output == "" {
		cy = 0
	}
	win := g.bar(0, cy, w, h, "#1e1e2e")
	win.Shadow, win.Label = true, "editor"
	left := -g.c.xUnits(w/2 - pad)
	topY := cy - g.c.yUnits(h/2)
	parts := []*scene.Element{win}
	for k, c := range []string{"#ff5f57", "#febc2e", "#28c840"} {
		d := g.add(&scene.Element{ID: g.id("dot"), Type: scene.TypeCircle, X: round3(left + g.c.xUnits(0.045*float64(k))), Y: round3(topY + g.c.yUnits(0.045)),
			Size: 0.012, Color: c, In: win.ID})
		parts = append(parts, d)
	}
	for _, e := range parts {
		g.enter(e, "up", g.t, 0.6)
	}
	most := 0.04
	if tall {
		most = 0.05 // a narrow frame's letters are its width's: larger, and livelier as they type
	}
	size := math.Min(most, (h-0.14)/float64(len(lines))/1.6)
	// Each line is typed in turn; a typed line is then shown still, so only the line
	// being typed (or the last one) has the caret.
	t := g.in
	per := math.Max(0.6, math.Min(1.2, (g.out-g.in-1.2)/float64(len(lines))))
	for k, l := range lines {
		y := topY + g.c.yUnits(0.11+size*1.6*float64(k)+size/2)
		n := float64(len([]rune(l)))
		x := left + g.c.xUnits(0.55*size*n/2)
		typed := g.text(l, round3(x), round3(y), round3(size), colors[k], 600)
		typed.In = win.ID
		done := t + per*0.85
		g.c.motion(typed, scene.Motion{Type: scene.MotionType, Start: round3(t), End: round3(done)})
		typed.Start = round3(t)
		parts = append(parts, typed)
		if k+1 < len(lines) || output != "" {
			typed.End = round3(t + per)
			still := g.text(l, round3(x), round3(y), round3(size), colors[k], 600)
			still.In, still.Start = win.ID, round3(t+per)
			parts = append(parts, still)
		}
		t += per
	}
	if output != "" {
		th := 0.16
		ty := cy + g.c.yUnits(h/2+0.03+th/2)
		term := g.bar(0, ty, w, th, "#0b0b12")
		term.Label, term.In = "terminal", win.ID // the editor's own panel, docked under it
		g.enter(term, "up", t, 0.5)
		prompt := g.text("$", round3(left+g.c.xUnits(0.01)), round3(ty), 0.035, "#28c840", 700)
		prompt.In = term.ID
		g.enter(prompt, "fade", t+0.2, 0.3)
		out := g.text(output, round3(left+g.c.xUnits(0.05+0.55*0.035*float64(len([]rune(output)))/2)), round3(ty), 0.035, "#e6e6e6", 600)
		out.In = term.ID
		g.enter(out, "fade", t+0.5, 0.4)
		parts = append(parts, term, prompt, out)
	}
	g.leave(parts...)
}
