package builtin

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// Plans: layouts that lay out a way through something — a flowchart's questions and
// the answers that lead on from them, a project's tasks over the weeks.

// A flowNode is one box of a flowchart: a question (a diamond) or an outcome (a
// rounded box), and the labelled arrows out of it, in the prompt's order.
type flowNode struct {
	Text     string
	Question bool
	Kids     []flowEdge
}

// A flowEdge is an arrow out of a box: its label ("Yes", "No", "Under 18") and the
// box it leads to.
type flowEdge struct {
	Label string
	To    *flowNode
}

var (
	// flowQuoteRE: a quoted box ("…", “…”, ‘…’, or '…' after a space or a mark).
	flowQuoteRE = regexp.MustCompile(`["“]([^"”]+)["”]|‘([^’]+)’|(?:^|[\s(:→>])'([^']+)'`)
	// flowSplitRE: the marks between a flowchart's clauses; \x01 follows a question.
	flowSplitRE = regexp.MustCompile(`(?:\s*(?:→|->|=>|⇒|;|,|\.(?:\s|$)|:(?:\s|$)|[\x01\x03]\s*-\s|\x01|\x03|\bthen\b|—|–|\s-\s|\(|\))\s*)+`)
	// flowNoRE, flowYesRE: an answer opening a clause, in its many spellings ("no:",
	// "if not", "otherwise", "if it isn't"; "yes →", "if so", "if it is").
	flowNoRE  = regexp.MustCompile(`^(?:and |but |or |which |that )*(?:(?:the )?(?:answer is )?(?:no|nope|false)(?: branch| arrow| path| answer)?|(?:or )?otherwise|(?:or )?else|if (?:the answer is |you say |it's |they say )?(?:no|not|false)|if (?:it|they|you|there|we) (?:isn't|aren't|doesn't|don't|can't|hasn't|haven't|wasn't|weren't|won't|is not|are not|does not|do not|cannot|can not|has not|have not|was not|will not))\b[\s:,]*`)
	flowYesRE = regexp.MustCompile(`^(?:and |but |or |which |that )*(?:(?:the )?(?:answer is )?(?:yes|yep|yeah|true)(?: branch| arrow| path| answer)?|if (?:the answer is |you say |it's |they say )?(?:yes|so|true)|if (?:it|they|you|there|we) (?:is|are|does|do|can|has|have|was|were|will)(?: one| some| any)?)\b[\s:,]*`)
	// flowFillerRE: words before a box's own words ("ask", "go to", "it's", "a box
	// saying").
	flowFillerRE = regexp.MustCompile(`^(?i:(?:then|and|so|next|ask|asks|asking|go|goes|going|straight|to|leads?|lead|leading|show|shows|showing|it|it's|is|the|answer|you|get|arrive|at|end|ends|ending|with|in|a|an|box|diamond|question|outcome|result|saying|reading|that|says|reads|start|starts|starting|begin|begins|first|of)\s+)+`)
	// flowCueRE: the names of the layout, which are no answers ("a yes/no chart").
	flowCueRE = regexp.MustCompile(`(?i)\byes ?/ ?no\b|\bflow ?charts?\b|\bdecision (?:tree|chart|flow)s?\b`)
	// flowAskRE: the word a question opens with, after the words that lead to it ("ask
	// whether", "then: is it …").
	flowAskRE = regexp.MustCompile(`(?i)\b(?:is|are|do|does|did|can|could|has|have|had|will|would|should|was|were|what|which|who|how|where|when|why)\b`)
	// flowCustomRE: a short label of the writer's own before a colon or arrow ("Under
	// 18:", "over budget →").
	flowCustomRE = regexp.MustCompile(`^[\p{L}\d<>≤≥+%$£€ '-]{1,24}$`)
)

// flowTree reads a flowchart: the first question (or quoted box) is the top; each box
// the prompt gives an answer to ("yes: …", "if not, …", "otherwise …", "Under 18: …")
// hangs off the latest question that has no arrow of that answer yet, and each box
// named without an answer follows the box before it.
func flowTree(prompt string) *flowNode {
	var quotes []string
	s := flowQuoteRE.ReplaceAllStringFunc(prompt, func(m string) string {
		sub := flowQuoteRE.FindStringSubmatch(m)
		q := sub[1] + sub[2] + sub[3]
		lead := m[:strings.IndexAny(m, `"“‘'`)]
		quotes = append(quotes, strings.TrimSpace(q))
		return lead + " \x02" + string(rune('A'+len(quotes)-1)) + "\x03 "
	})
	s = strings.ReplaceAll(flowCueRE.ReplaceAllString(s, " "), "?", "?\x01")
	var root, last *flowNode
	var open []*flowNode // questions that may take more arrows, the latest last
	pending := ""
	clauses := flowSplitRE.Split(s, -1)
	delims := flowSplitRE.FindAllString(s, -1)
	nodes := 0
	for i, cl := range clauses {
		cl = strings.TrimSpace(cl)
		low := strings.ToLower(cl)
		label := pending
		if m := flowNoRE.FindString(low); m != "" {
			label, cl = "No", strings.TrimSpace(cl[len(m):])
		} else if m := flowYesRE.FindString(low); m != "" {
			label, cl = "Yes", strings.TrimSpace(cl[len(m):])
		}
		node := flowBox(cl, quotes)
		if node == nil && label != "" && cl != "" && root != nil {
			node = flowWords(cl) // "yes → Deploy": an outcome in a few words
		}
		if node == nil {
			// A short clause before a colon or arrow, once the chart has begun, is a
			// label of the writer's own ("Under 18: …").
			if cl != "" && label == pending && root != nil && i < len(delims) && strings.ContainsAny(delims[i], ":→>⇒") &&
				len(strings.Fields(cl)) <= 3 && flowCustomRE.MatchString(cl) && !strings.Contains(cl, "\x02") {
				label = capitalize(cl)
			}
			pending = label
			continue
		}
		pending = ""
		if nodes >= 10 {
			break
		}
		switch {
		case root == nil:
			root = node
		case label != "":
			// The latest open question without an arrow of this answer takes it.
			for len(open) > 0 && !flowTakes(open[len(open)-1], label) {
				open = open[:len(open)-1]
			}
			if len(open) == 0 {
				continue
			}
			p := open[len(open)-1]
			p.Kids = append(p.Kids, flowEdge{Label: label, To: node})
		case last != nil && len(last.Kids) == 0 && !last.Question:
			last.Kids = append(last.Kids, flowEdge{To: node})
		case last != nil && last.Question && len(last.Kids) == 0:
			last.Kids = append(last.Kids, flowEdge{To: node})
		default:
			continue
		}
		nodes++
		last = node
		if node.Question {
			open = append(open, node)
		}
	}
	if root == nil || len(root.Kids) == 0 {
		return nil
	}
	return root
}

// flowTakes reports whether question q may take an arrow labelled label: not one it
// has, and no more than two yes/no arrows or four of the writer's own.
func flowTakes(q *flowNode, label string) bool {
	most := 4
	for _, k := range q.Kids {
		if strings.EqualFold(k.Label, label) {
			return false
		}
		if k.Label == "Yes" || k.Label == "No" {
			most = 2
		}
	}
	return len(q.Kids) < most
}

// flowBox reads the box a clause names: its quote, else its question, else a few
// words after an answer; nil when the clause names none.
func flowBox(cl string, quotes []string) *flowNode {
	if i := strings.IndexByte(cl, '\x02'); i >= 0 && i+1 < len(cl) {
		if k := int(cl[i+1] - 'A'); k >= 0 && k < len(quotes) && quotes[k] != "" {
			q := quotes[k]
			return &flowNode{Text: q, Question: strings.HasSuffix(q, "?")}
		}
	}
	if cl == "" || strings.ContainsAny(cl, "\x02\x03") {
		return nil
	}
	if strings.HasSuffix(cl, "?") {
		if m := flowAskRE.FindStringIndex(cl); m != nil {
			cl = cl[m[0]:]
		}
		if len(strings.Fields(cl)) > 12 {
			return nil
		}
		return &flowNode{Text: capitalize(cl), Question: true}
	}
	return nil
}

// flowWords reads the unquoted outcome after an answer ("yes → Deploy"): a few words.
func flowWords(cl string) *flowNode {
	cl = strings.Trim(strings.TrimSpace(flowFillerRE.ReplaceAllString(cl, "")), ".!")
	if cl == "" || len(strings.Fields(cl)) > 5 {
		return nil
	}
	return &flowNode{Text: capitalize(cl)}
}

// flowchart: the top question, then arrow after arrow in the prompt's order, each
// drawing down from its box with its answer on it to the box it leads to; questions
// are diamonds, outcomes rounded boxes, laid out as a tree with each box over the
// boxes it leads to.
func (g *genreFill) flowchart() {
	root := flowTree(g.prompt)
	if root == nil {
		root = &flowNode{Text: orDefault(g.quote(""), "Start?"), Question: true}
	}
	// Place the boxes: leaves take slots left to right, each box sits over its own.
	type placed struct {
		n          *flowNode
		slot       float64
		level      int
		parent     int
		label      string
		firstChild bool
	}
	var ps []placed
	leaves, levels := 0, 1
	var walk func(n *flowNode, level, parent int, label string) float64
	walk = func(n *flowNode, level, parent int, label string) float64 {
		i := len(ps)
		ps = append(ps, placed{n: n, level: level, parent: parent, label: label})
		levels = max(levels, level+1)
		if len(n.Kids) == 0 || level >= 3 {
			ps[i].slot = float64(leaves)
			leaves++
			return ps[i].slot
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, k := range n.Kids {
			x := walk(k.To, level+1, i, k.Label)
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		ps[i].slot = (lo + hi) / 2
		return ps[i].slot
	}
	walk(root, 0, -1, "")
	for _, p := range ps {
		g.consume(p.n.Text)
	}
	tall := g.c.tall()
	avail := 1.6
	if tall || g.c.square() {
		avail = 0.9
	}
	pitch := avail / float64(max(leaves, 1))
	// An outcome is a slot wide; a question takes the room over the slots under it,
	// short of its neighbours in its row.
	w0 := math.Min(0.5, pitch*0.9)
	widths := make([]float64, len(ps))
	for i := range ps {
		widths[i] = w0
	}
	for i, p := range ps {
		if !p.n.Question || len(p.n.Kids) == 0 || p.level >= 3 {
			continue
		}
		half := math.Min(math.Min(0.62, avail*0.8), pitch*0.9*float64(flowLeaves(p.n, p.level))) / 2
		for j, o := range ps {
			if j != i && o.level == p.level {
				half = math.Min(half, math.Abs(o.slot-p.slot)*pitch-widths[j]/2-0.04)
			}
		}
		widths[i] = math.Max(w0, 2*half)
	}
	top, bottom := -0.6, 0.6
	step := 0.0
	if levels > 1 {
		// Rows no further apart than a box and its arrow need, centred.
		step = math.Min((bottom-top)/float64(levels-1), g.yu(0.42))
		top = -step * float64(levels-1) / 2
	} else {
		top = 0
	}
	// A box is as high as its row allows, up to a limit.
	room := step / g.yu(1)
	if levels == 1 {
		room = 0.4
	}
	h := math.Max(0.1, math.Min(0.16, room*0.5))
	if tall {
		h = math.Max(0.1, math.Min(0.2, room*0.5)) // a tall frame gives the boxes height
	}
	xOf := func(p placed) float64 {
		return g.c.xUnits((p.slot - float64(leaves-1)/2) * pitch)
	}
	yOf := func(p placed) float64 { return top + step*float64(p.level) }
	line := mix(g.ink, g.c.bd.Palette.Background[0])
	var parts []*scene.Element
	thin := 0.007
	// seg draws a line from (x0, y0) to (x1, y1), one of them level, growing from its
	// first end at t.
	seg := func(x0, y0, x1, y1, t, dur float64) *scene.Element {
		// It starts a line's width on from the line it leaves, so while short it is
		// beside that line, not hidden in it.
		if math.Abs(y1-y0) < 1e-6 {
			x0 += math.Copysign(g.c.xUnits(thin), x1-x0)
		} else {
			y0 += math.Copysign(g.yu(thin), y1-y0)
		}
		cx, cy := (x0+x1)/2, (y0+y1)/2
		var e *scene.Element
		prop, axis, from := "sy", "y", y0
		if math.Abs(y1-y0) < 1e-6 {
			e = g.bar(cx, cy, math.Abs(x1-x0)/g.c.xUnits(1)+thin, thin, line)
			prop, axis, from = "sx", "x", x0
		} else {
			e = g.bar(cx, cy, thin, math.Abs(y1-y0)/g.yu(1)+thin, line)
		}
		e.Label = "arrow"
		grow(e, prop, t, dur, "easeInOutSine")
		tr := trackOf(e)
		key(tr, axis, 0, round3(from), "")
		key(tr, axis, t, round3(from), "")
		key(tr, axis, t+dur, round3(map[string]float64{"x": cx, "y": cy}[axis]), "easeInOutSine")
		parts = append(parts, e)
		return e
	}
	// box draws a node: a diamond for a question, a rounded box for an outcome.
	box := func(i int, t float64) {
		p, w := ps[i], widths[i]
		x, y := xOf(p), yOf(p)
		var shape, face *scene.Element
		ink := "#ffffff"
		wrap := w * 0.86
		if p.n.Question {
			color := deep(g.accent)
			// The diamond's size is its half height, so the box it takes is its own
			// height; its corners reach out to its width. Its words sit on a face of
			// its colour inside it, the rectangle the diamond holds.
			shape = g.add(&scene.Element{ID: g.id("question"), Type: scene.TypePath, Label: "decision",
				Path: diamondPath(w / h), X: round3(x), Y: round3(y), Size: round3(h / 2), Color: color, Shadow: true})
			face = g.bar(x, y, w/2, h/2, color)
			face.Label, face.In = "decision", shape.ID
			wrap = w * 0.52
		} else {
			color := g.panel
			if p.level > 0 && len(p.n.Kids) == 0 {
				color = lighten(g.panel, 0.04)
			}
			shape = g.bar(x, y, w, h, color)
			shape.Label, shape.Shadow = "outcome", true
			ink = readableOn("#111827", color)
			if luminance(color) < 0.5 {
				ink = "#ffffff"
			}
			face = shape
		}
		lines := math.Max(1, math.Floor((h*0.7)/0.034))
		if p.n.Question {
			lines = math.Max(1, lines-1)
		}
		size := fit(p.n.Text, wrap*lines*0.9, math.Min(0.034, h*0.26))
		if !p.n.Question && float64(len([]rune(p.n.Text)))*0.55*size < wrap {
			size = math.Min(0.038, h*0.3) // a short outcome reads larger
			size = fit(p.n.Text, wrap, size)
		}
		txt := g.text(p.n.Text, x, y, size, ink, 800)
		txt.Wrap, txt.In = round3(wrap), face.ID
		// The words come once their box is solid under them.
		es := []*scene.Element{shape, face, txt}
		if face == shape {
			es = es[1:]
		}
		for _, e := range es {
			g.enter(e, "pop", t+boolf(e == txt, 0.22), 0.35)
			parts = append(parts, e)
		}
	}
	edges := len(ps) - 1
	t0 := g.t + 0.6
	dt := 0.0
	if edges > 0 {
		dt = math.Min(1.1, math.Max(0.5, (g.out-0.8-t0)/float64(edges)))
	}
	box(0, g.t)
	// A box whose arrows do not all leave by a diamond's corners sends them down one
	// trunk to a rail just under it, drawn with its first arrow.
	rail := map[int]float64{}
	for i := 1; i < len(ps); i++ {
		p, par := ps[i], ps[ps[i].parent]
		half := g.c.xUnits(widths[p.parent] / 2)
		if !(par.n.Question && math.Abs(xOf(p)-xOf(par)) > half) {
			rail[p.parent] = math.NaN()
		}
	}
	for i := 1; i < len(ps); i++ {
		p, par := ps[i], ps[ps[i].parent]
		at := t0 + dt*float64(i-1)
		px, py, cx, cy := xOf(par), yOf(par), xOf(p), yOf(p)
		pb, ct := py+g.yu(h/2), cy-g.yu(h/2)
		half := g.c.xUnits(widths[p.parent] / 2)
		var drop *scene.Element
		var dropTop float64
		bus, hasRail := rail[p.parent]
		switch {
		case par.n.Question && math.Abs(cx-px) > half:
			// Out of the diamond's side corner, across, and down.
			sx := px + math.Copysign(half, cx-px)
			seg(sx, py, cx, py, at, 0.3)
			drop, dropTop = seg(cx, py, cx, ct, at+0.3, 0.3), py
		case hasRail && math.IsNaN(bus) && math.Abs(cx-px) < 0.01 && len(par.n.Kids) == 1:
			drop, dropTop = seg(px, pb, cx, ct, at, 0.45), pb
		default:
			if math.IsNaN(bus) {
				bus = pb + g.yu(0.045)
				rail[p.parent] = bus
				seg(px, pb, px, bus, at, 0.15)
			}
			if math.Abs(cx-px) >= 0.01 {
				seg(px, bus, cx, bus, at+0.15, 0.25)
			}
			drop, dropTop = seg(cx, bus, cx, ct, at+0.4, 0.2), bus
		}
		head := g.add(&scene.Element{ID: g.id("arrowhead"), Type: scene.TypePath, Label: "arrow", Path: "M-1,-0.7 L1,-0.7 L0,1 Z",
			X: round3(cx), Y: round3(ct - g.yu(0.02)), Size: 0.016, Color: line, In: drop.ID})
		g.enter(head, "fade", at+0.55, 0.15)
		parts = append(parts, head)
		if p.label != "" {
			col := deep(g.accent)
			switch p.label {
			case "Yes":
				col = deep("#16a34a")
			case "No":
				col = deep("#dc2626")
			}
			ls := 0.026
			lw := float64(len([]rune(p.label)))*0.6*ls + 0.04
			// The answer sits on the arrow's last stretch, clear of the box it leaves.
			ly := math.Max((dropTop+ct)/2, ct-g.yu(0.06))
			// Beside the arrow, on the side it turned to.
			side := 1.0
			if cx < px-0.01 {
				side = -1
			}
			lx := cx + side*(g.c.xUnits(lw/2)+g.c.xUnits(0.014))
			pill := g.bar(lx, ly, lw, 0.05, col)
			pill.Label = "answer"
			lt := g.text(p.label, lx, ly, ls, "#ffffff", 800)
			lt.In = pill.ID
			g.enter(pill, "pop", at+0.35, 0.3)
			g.enter(lt, "pop", at+0.55, 0.3)
			parts = append(parts, pill, lt)
		}
		box(i, at+0.55)
	}
	g.leave(parts...)
}

// diamondPath is a decision diamond as high as its 2×2 box and a times that wide.
func diamondPath(a float64) string {
	a = round3(a)
	return fmt.Sprintf("M0,-1 L%g,0 L0,1 L%g,0 Z", a, -a)
}

// deep is colour c darkened until white words read on it with room to spare (6:1), so
// they still read when the layout dims at its end.
func deep(c string) string {
	for k := 0; k < 12 && contrast(c, "#ffffff") < 6; k++ {
		c = darken(c, 0.08)
	}
	return c
}

// flowLeaves counts the boxes at the ends of n's arrows, as the layout places them.
func flowLeaves(n *flowNode, level int) int {
	if len(n.Kids) == 0 || level >= 3 {
		return 1
	}
	k := 0
	for _, e := range n.Kids {
		k += flowLeaves(e.To, level+1)
	}
	return k
}

// yu converts a length in sizes to frame y units as the runtime lays them out: in a
// vertical frame positions span its safe area, whose shape is not the frame's.
func (g *genreFill) yu(size float64) float64 {
	if !g.c.tall() {
		return g.c.yUnits(size)
	}
	sa := scene.VerticalSafeArea
	if g.c.d.SafeArea != nil {
		sa = *g.c.d.SafeArea
	}
	rw, rh := 9*(1-sa.Left-sa.Right), 16*(1-sa.Top-sa.Bottom)
	return 2 * size * math.Min(rw, rh) / rh
}
