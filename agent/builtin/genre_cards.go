package builtin

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
)

// Layouts of the genre table that people describe by their parts rather than by a
// name: a quiz (a question, lettered answers, a timer, the right answer lit), a launch
// countdown (days, hours, minutes and seconds in tiles), callouts (a thing with lines
// out to its labels), an announcement (a banner, a name, the thing it is about), a
// coupon (a code uncovered), a speaker card and a big stat in a ring. The rows are in
// genre.go's table; this file builds them.

var (
	// optionMarkRE: a lettered answer's mark ("A Jupiter", "B) Saturn", "(C) Uranus").
	optionMarkRE = regexp.MustCompile(`(?:^|[\s,;:(])\(?([A-F])[).:]?\s+[A-Z0-9"“]`)
	questionRE   = regexp.MustCompile(`[A-Z][^.?!:"“]{6,120}\?`)
	secondsRE    = regexp.MustCompile(`(?i)\b(\d{1,3})[\s-]*(?:seconds?|secs?|s)\b`)
	// rightAnswerRE: which answer is right ("then B turns green", "the answer is C").
	rightAnswerRE = regexp.MustCompile(`\b([A-F])\b[^.;,]{0,12}?\b(?:turns|goes|lights? up|glows|flashes|is (?:highlighted|correct|right|the answer))\b|\b(?:correct|right) answer(?: is)?:?\s*\(?([A-F])\b|\banswer(?: is)?:\s*([A-F])\b`)
)

// options reads lettered answers: the last run A, B, C… of marks, each answer the words
// up to the next mark (its clause's end for the last).
func options(prompt string) []string {
	// The longest run wins: "A 5-second timer" is an article, not answer A.
	var at, run [][2]int
	for _, m := range optionMarkRE.FindAllStringSubmatchIndex(prompt, -1) {
		letter := prompt[m[2]]
		switch {
		case letter == 'A':
			run = [][2]int{{m[2], m[1] - 1}}
		case len(run) > 0 && int(letter-'A') == len(run):
			run = append(run, [2]int{m[2], m[1] - 1})
		}
		if len(run) > len(at) {
			at = run
		}
	}
	if len(at) < 2 {
		return nil
	}
	var out []string
	for k, item := range markedSpans(prompt, at) {
		if i := strings.IndexAny(item, ".;!?"); i >= 0 {
			item = item[:i]
		}
		if k == len(at)-1 {
			if i := strings.Index(item, ","); i >= 0 {
				item = item[:i]
			}
		}
		item = strings.TrimSpace(strings.TrimSuffix(strings.Trim(strings.TrimSpace(item), `,"“”() `), " and"))
		item = strings.Trim(item, `,"“”() `)
		if item == "" || len(strings.Fields(item)) > 6 {
			return nil
		}
		out = append(out, item)
	}
	return out
}

func (g *genreFill) quiz() {
	question := ""
	for i, q := range g.b.Texts {
		if strings.HasSuffix(strings.TrimSpace(q), "?") && !g.used[i] {
			question, g.used[i] = q, true
			break
		}
	}
	if question == "" {
		question = orDefault(questionRE.FindString(g.prompt), g.quote("Question?"))
	}
	answers := options(g.prompt)
	if len(answers) < 2 {
		answers = g.rest()
	}
	if len(answers) < 2 {
		answers = listAfter(g.prompt, answerListRE) // "four choices: Oxygen, Carbon dioxide, …"
	}
	if len(answers) < 2 {
		answers = []string{"Yes", "No"}
	}
	answers = answers[:min(len(answers), 4)]
	right := -1
	if m := rightAnswerRE.FindStringSubmatch(g.prompt); m != nil {
		for _, l := range m[1:] {
			if l != "" {
				right = int(l[0] - 'A')
			}
		}
	}
	for k, a := range answers {
		q := regexp.QuoteMeta(a)
		if right < 0 && regexp.MustCompile(`(?i)\b`+q+`\b[^.;,]{0,12}?\b(?:turns|goes|lights? up|glows|is (?:correct|right))|\b(?:reveal|show|mark|highlight)\w*\s+`+q+`\s+as\s+(?:the\s+)?(?:correct|right)`).MatchString(g.prompt) {
			right = k
		}
	}
	if right >= len(answers) {
		right = -1
	}
	secs := 5.0
	if m := secondsRE.FindStringSubmatch(g.prompt); m != nil {
		if v, err := strconv.ParseFloat(m[1], 64); err == nil && v > 0 {
			secs = v
		}
	}
	portrait := g.c.tall()
	good := "#43a047"
	if i := strings.Index(g.low, "turns "); i >= 0 {
		if c, ok := colorAt(wordRE.FindAllString(g.low[i+6:], 2), 0); ok {
			good = c
		}
	}
	good = solid(good) // white words read on it
	// The timer runs from the answers' arrival to the reveal, which leaves a held end.
	t0 := g.in + 0.4
	reveal := math.Min(t0+secs, g.out-0.9)
	qy, by := -0.56, -0.38
	if portrait {
		qy, by = -0.6, -0.36
	}
	q := g.text(question, 0, qy, fit(question, 1.5, 0.06), g.ink, 800)
	if portrait {
		q.Size = fit(question, 1.2, 0.05)
	}
	g.enter(q, "down", g.t, 0.6)
	parts := []*scene.Element{q}
	barW := 1.2
	if portrait {
		barW = 0.8
	}
	track := g.bar(0, by, barW, 0.03, lighten(g.accent, 0.6))
	bar := g.bar(0, by, barW, 0.03, g.accent)
	bar.In = track.ID
	tr := trackOf(bar)
	half := g.c.xUnits(math.Min(barW, 1.65) / 2)
	key(tr, "sx", 0, 1, "")
	key(tr, "sx", t0, 1, "")
	key(tr, "sx", reveal, 0.001, "linear")
	key(tr, "x", 0, 0, "")
	key(tr, "x", t0, 0, "")
	key(tr, "x", reveal, round3(-half), "linear")
	g.enter(track, "fade", g.t+0.2, 0.4)
	g.enter(bar, "fade", g.t+0.2, 0.4)
	parts = append(parts, track, bar)
	// Answer cards in the accent, white words; the right one lights in another colour.
	card := solid(g.accent)
	if colorDist(card, good) < 120 {
		card = "#334155"
	}
	ink := "#ffffff"
	for k, a := range answers {
		// Sizes are of the frame's shorter side (xUnits, yUnits): a 2×2 grid of cards
		// with gaps in a wide frame, a column in a tall one.
		x, y, w, h := -0.43+0.86*float64(k%2), 0.0+0.32*float64(k/2), 0.7, 0.12
		if len(answers) == 2 {
			y = 0.12
		}
		if portrait {
			x, y, w, h = 0, -0.14+0.22*float64(k), 0.84, 0.15
		}
		label := string(rune('A'+k)) + "   " + a
		size := fit(label, w*0.9, 0.045)
		var lit, litTxt *scene.Element
		if k == right {
			// The lit answer lies under the plain one, which gives way to it at the
			// reveal: nothing of it shows before.
			lit = g.bar(x, y, w, h, good)
		}
		box := g.bar(x, y, w, h, card)
		txt := g.text(label, x, y, size, ink, 700)
		txt.In = box.ID
		if lit != nil {
			// Its words stay on top, in bold from the reveal.
			litTxt = g.text(label, x, y, size, "#ffffff", 800)
			litTxt.In = box.ID
		}
		at := t0 - 0.35 + 0.12*float64(k)
		g.enter(box, "up", at, 0.5)
		g.enter(txt, "up", at+0.2, 0.5) // on its card once the card is there
		if lit != nil {
			box.In = lit.ID
			g.enter(lit, "up", at+0.2, 0.5)
			key(trackOf(litTxt), "opacity", 0, 0, "")
			key(trackOf(litTxt), "opacity", reveal+0.1, 0, "")
			key(trackOf(litTxt), "opacity", reveal+0.3, 1, "easeOutCubic")
			for _, e := range []*scene.Element{lit, litTxt} {
				g.c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: reveal, End: reveal + 0.5, Amp: 0.08, Count: 1})
			}
			for _, e := range []*scene.Element{box, txt} {
				key(trackOf(e), "opacity", reveal, 1, "")
				key(trackOf(e), "opacity", reveal+0.3, 0, "easeOutCubic")
			}
			parts = append(parts, lit, litTxt)
		} else {
			parts = append(parts, box, txt)
		}
	}
	g.behind()
	g.leave(parts...)
}

// unitsRE: a countdown shown in days, hours, minutes (and seconds).
var unitsRE = regexp.MustCompile(`\bdays?\b[^.]{0,40}\bhours?\b[^.]{0,40}\bmin(?:ute)?s?\b|\bdd\s*:\s*hh\s*:\s*mm\b`)

func (g *genreFill) launchCountdown() {
	head := g.quote("")
	if head == "" {
		head = orDefault(g.b.Brand, "Coming soon")
	}
	portrait := g.c.tall()
	units := []string{"DAYS", "HOURS", "MINUTES", "SECONDS"}
	values := []float64{3, 14, 27, 59}
	parts := []*scene.Element{}
	hy := -0.5
	if portrait {
		hy = -0.58
	}
	h := g.text(head, 0, hy, fit(head, 1.5, 0.06), g.accent, 900)
	if portrait {
		h.Size = fit(head, 0.9, 0.05)
	}
	if contrast(h.Color, mix(g.c.bd.Palette.Background[0], g.c.bd.Palette.Background[1])) < 4.5 {
		h.Color = g.ink
	}
	g.enter(h, "down", g.t, 0.6)
	parts = append(parts, h)
	tile := lighten(mix(g.c.bd.Palette.Background[0], g.c.bd.Palette.Background[1]), 0.12)
	if luminance(tile) > 0.6 {
		tile = darken(tile, 0.08)
	}
	for k, u := range units {
		x, y, w := -0.66+0.44*float64(k), 0.05, 0.34
		if portrait {
			x, y, w = -0.42+0.84*float64(k%2), -0.12+0.5*float64(k/2), 0.38
		}
		box := g.bar(x, y, w, 0.34, tile)
		num := g.add(&scene.Element{ID: g.id("value"), Type: scene.TypeCounter, X: round3(x), Y: round3(y - 0.02), Size: 0.09,
			Color: g.accent, From: values[k], To: values[k]})
		if contrast(num.Color, tile) < 3 {
			num.Color = readableOn(g.accent, tile)
		}
		lab := g.text(u, x, y+0.12, 0.03, g.ink, 700)
		if portrait {
			lab.Y = round3(y + 0.13)
		}
		at := g.t + 0.1*float64(k)
		for _, e := range []*scene.Element{box, num, lab} {
			g.enter(e, "up", at, 0.6)
		}
		if k == len(units)-1 {
			// The seconds tick down, one a second, to the end. The runtime eases a
			// counter out (cubic), so each second's progress is that ease undone.
			n := math.Floor(g.end)
			num.To = math.Max(0, values[k]-n)
			for s := 0.0; s <= n; s++ {
				key(trackOf(num), "progress", s, round3(1-math.Cbrt(1-s/n)), "linear")
			}
			g.c.motion(num, scene.Motion{Type: scene.MotionPulse, Start: g.in, End: g.end, Amp: 0.04, Count: math.Max(1, math.Floor(g.end-g.in))})
		}
		parts = append(parts, box, num, lab)
	}
	g.behind()
	g.leave(parts...)
}

var (
	// labelListRE: the parts a prompt asks to label ("Label the magma chamber, vent and
	// crater", "labels: …", "four callouts fade in around it: 65 cm, 3 presets, …").
	labelListRE = regexp.MustCompile(`(?i)\blabel(?:s|led|ling)?\b(?:\s+(?:the|its|each of|each|with|for))?\s*:?\s+([^.!?]+)|\b(?:callouts?|labels?|features?)\b[^:.!?]{0,40}:\s*([^.!?]+)`)
	// answerListRE: a quiz's answers written as a plain list ("four choices in
	// coloured boxes: Oxygen, Carbon dioxide, Nitrogen, Helium").
	answerListRE = regexp.MustCompile(`(?i)\b(?:answers?|options?|choices?)\b[^:.!?]{0,40}:\s*([^.!?]+)`)
)

// listAfter reads the list a cue introduces (re's first non-empty group): its items
// split at commas and "and", each of at most six words; nil when fewer than two.
func listAfter(prompt string, re *regexp.Regexp) []string {
	m := re.FindStringSubmatch(prompt)
	if m == nil {
		return nil
	}
	var list string
	for _, g := range m[1:] {
		if g != "" {
			list = g
			break
		}
	}
	var out []string
	for _, p := range itemSplitRE.Split(list, -1) {
		p = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(p), "the "))
		if p != "" && len(strings.Fields(p)) <= 6 {
			out = append(out, capitalize(p))
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

func (g *genreFill) callouts() {
	labels := g.rest()
	if len(labels) < 2 {
		labels = listAfter(g.prompt, labelListRE) // "label the vent and crater", "callouts: …"
	}
	labels = labels[:min(len(labels), 6)]
	portrait := g.c.tall()
	heroSize := 0.24
	if portrait {
		heroSize = 0.2
	}
	var hero *scene.Element
	for _, s := range g.b.Subjects {
		if s.Asset != "" {
			hero = g.add(&scene.Element{ID: g.id(slug(s.Noun)), Type: scene.TypeAsset, Label: s.Noun, Asset: s.Asset,
				X: 0, Y: 0.02, Size: heroSize, Tint: s.Color})
			break
		}
	}
	if hero == nil {
		hero = g.add(&scene.Element{ID: g.id("product"), Type: scene.TypeCircle, X: 0, Y: 0.02, Size: heroSize * 0.8, Color: g.accent})
	}
	g.enter(hero, "pop", g.t, 0.7)
	// The thing breathes and sways a little through the hold, so no moment is a still.
	g.c.motion(hero, scene.Motion{Type: scene.MotionPulse, Start: g.in, End: g.end, Amp: 0.08, Count: math.Max(2, math.Round((g.end-g.in)/1.5))})
	g.c.motion(hero, scene.Motion{Type: scene.MotionWiggle, Start: g.in, End: g.end, Amp: 4, Count: math.Max(2, math.Round((g.end-g.in)/2))})
	parts := []*scene.Element{hero}
	// Label places: left and right of the thing in a wide frame, above and below it in
	// a tall one; each line starts at the thing's edge.
	spots := []pose{{-0.66, -0.42}, {0.66, -0.42}, {-0.66, 0.46}, {0.66, 0.46}, {-0.74, 0.02}, {0.74, 0.02}}
	if portrait {
		spots = []pose{{-0.45, -0.62}, {0.45, -0.42}, {-0.45, 0.46}, {0.45, 0.66}, {-0.45, -0.42}, {0.45, 0.46}}
	}
	lineCol := g.ink
	for k, l := range labels {
		sp := spots[k]
		at := g.in + (g.out-0.6-g.in)*float64(k)/float64(len(labels))
		// Size units along each axis, so the angle is the one seen.
		lx, ly := sp.X/g.c.xUnits(1), (sp.Y-hero.Y)/g.c.yUnits(1)
		dist := math.Hypot(lx, ly)
		ux, uy := lx/dist, ly/dist
		r0, r1 := heroSize*0.95, dist-0.1 // from the thing's edge to short of the label
		if portrait {
			r1 = dist - 0.07
		}
		ln := math.Max(0.05, r1-r0)
		mx, my := (r0+ln/2)*ux, (r0+ln/2)*uy
		line := g.add(&scene.Element{ID: g.id("line"), Type: scene.TypeRect, X: round3(mx * g.c.xUnits(1)), Y: round3(hero.Y + my*g.c.yUnits(1)),
			Size: 0.004, Aspect: round3(ln / 0.008), Color: lineCol})
		dot := g.add(&scene.Element{ID: g.id("dot"), Type: scene.TypeCircle, X: round3(r0 * ux * g.c.xUnits(1)), Y: round3(hero.Y + r0*uy*g.c.yUnits(1)),
			Size: 0.012, Color: g.accent})
		tr := trackOf(line)
		key(tr, "rotation", 0, round3(math.Atan2(ly, lx)*180/math.Pi), "")
		// The line shoots out from the thing: it grows from its start.
		sx, sy := round3(r0*ux*g.c.xUnits(1)), round3(hero.Y+r0*uy*g.c.yUnits(1))
		key(tr, "sx", 0, 0.001, "")
		key(tr, "sx", at, 0.001, "")
		key(tr, "sx", at+0.45, 1, "easeOutCubic")
		key(tr, "x", 0, sx, "")
		key(tr, "x", at, sx, "")
		key(tr, "x", at+0.45, line.X, "easeOutCubic")
		key(tr, "y", 0, sy, "")
		key(tr, "y", at, sy, "")
		key(tr, "y", at+0.45, line.Y, "easeOutCubic")
		line.In, dot.In = hero.ID, hero.ID // they start at its edge on purpose
		g.enter(dot, "pop", at, 0.3)
		w := 0.62
		if portrait {
			w = 0.8
		}
		txt := g.text(l, sp.X, sp.Y, fit(l, w, 0.045), g.ink, 800)
		g.enter(txt, "pop", at+0.35, 0.45)
		parts = append(parts, line, dot, txt)
	}
	g.leave(parts...)
}

var (
	// capsPhraseRE: words a prompt writes in capitals to be shown ("a JUST SOLD ribbon").
	capsPhraseRE = regexp.MustCompile(`\b[A-Z][A-Z'’!]+(?:\s+[A-Z][A-Z'’!]+)+\b`)
	// announceHeadRE: the occasion, as the prompt writes it.
	announceHeadRE = regexp.MustCompile(`(?i)\b(?:employee|student|volunteer|player|member|team) of the (?:month|year|week|season)(?:\s*[-—–:]\s*[A-Z][a-z]+)?|\bjust (?:sold|listed|married|engaged|launched)\b|\bcongratulations\b|\bwinners?\b|\bnew hire\b|\bwelcome to the team\b`)
)

func (g *genreFill) announcement() {
	head := ""
	for i, q := range g.b.Texts {
		if !g.used[i] && capsPhraseRE.MatchString(q) && strings.ToUpper(q) == q {
			head, g.used[i] = q, true // "a JUST SOLD ribbon": the words in capitals
			break
		}
	}
	if m := announceHeadRE.FindString(g.prompt); head == "" && m != "" {
		head = strings.ToUpper(m[:1]) + m[1:] // the occasion as the prompt writes it
	}
	detail := g.longestQuote()
	names := g.names()
	name := ""
	for _, n := range names {
		if !strings.Contains(strings.ToLower(head), strings.ToLower(n)) && !strings.Contains(detail, n) &&
			!strings.EqualFold(n, g.b.Brand) && !announceHeadRE.MatchString(n) {
			name = n
		}
	}
	if head == "" {
		head = orDefault(detail, "Congratulations")
		detail = ""
	}
	portrait := g.c.tall()
	band := g.accent
	if len(g.b.Colors) > 0 {
		band = g.b.Colors[0]
	}
	band = solid(band)
	w := 1.3
	if portrait {
		w = 0.8
	}
	ribbon := g.bar(0, -0.55, w, 0.14, band)
	tr := trackOf(ribbon)
	// The band sweeps across from the left.
	key(tr, "sx", 0, 0.001, "")
	key(tr, "sx", g.t, 0.001, "")
	key(tr, "sx", g.t+0.6, 1, "easeOutCubic")
	half := g.c.xUnits(math.Min(w, 1.65) / 2)
	key(tr, "x", 0, round3(-half), "")
	key(tr, "x", g.t, round3(-half), "")
	key(tr, "x", g.t+0.6, 0, "easeOutCubic")
	ht := g.text(head, 0, -0.55, fit(head, w*0.9, 0.055), "#ffffff", 900)
	ht.In = ribbon.ID
	g.enter(ht, "fade", g.t+0.45, 0.4)
	parts := []*scene.Element{ribbon, ht}
	var hero *scene.Element
	for _, s := range g.b.Subjects {
		// A card showing a drawing ("a card: a trophy drops in") is that drawing.
		if s.Asset != "" && (s.Kind == scene.TypeCard || !layoutParts[lastWord(strings.ToLower(s.Noun))]) {
			hero = g.add(&scene.Element{ID: g.id(slug(s.Noun)), Type: scene.TypeAsset, Label: s.Noun, Asset: s.Asset,
				X: 0, Y: -0.08, Size: 0.12, Tint: s.Color})
			break
		}
	}
	if hero != nil {
		// It drops in and turns once, as a medal or a sign lands.
		g.enter(hero, "down", g.t+0.5, 0.7)
		if regexp.MustCompile(`\b(?:spin|spins|spinning|turns|rotat\w+)\b`).MatchString(g.low) {
			g.c.motion(hero, scene.Motion{Type: scene.MotionFlip, Start: g.t + 1.2, End: g.t + 2.4, Count: 2, Ease: "easeInOutCubic"})
		}
		g.c.motion(hero, scene.Motion{Type: scene.MotionFloat, Start: g.t + 2.4, End: g.end, Amp: 0.015, Count: 2})
		parts = append(parts, hero)
	}
	y := 0.34
	if name != "" {
		n := g.text(name, 0, y, fit(name, w, 0.07), g.ink, 900)
		g.enter(n, "up", g.in+0.4, 0.6)
		parts = append(parts, n)
		y += 0.16
	}
	if detail != "" {
		d := g.text(detail, 0, y, fit(detail, w, 0.04), g.ink, 600)
		g.enter(d, "up", g.in+0.7, 0.6)
		parts = append(parts, d)
	}
	g.c.sparkles(0, 0.02, g.in+0.4, g.out, band)
	g.leave(parts...)
}

// layoutParts are nouns a layout draws itself (the banner, the photo frame): the
// drawing it is about is another subject.
var layoutParts = map[string]bool{"ribbon": true, "banner": true, "sign": true, "card": true, "badge": true,
	"photo": true, "picture": true, "frame": true, "label": true, "labels": true, "line": true, "lines": true, "text": true, "title": true}

func lastWord(s string) string {
	ws := strings.Fields(s)
	if len(ws) == 0 {
		return ""
	}
	return ws[len(ws)-1]
}

// codeRE: a promo code ("SUMMER25", "WELCOME10").
var codeRE = regexp.MustCompile(`\b[A-Z][A-Z0-9]{3,}[0-9]+\b|\b[A-Z]{5,}\b`)

func (g *genreFill) coupon() {
	code, offer := "", ""
	for i, q := range g.b.Texts {
		if c := codeRE.FindString(q); c != "" && !g.used[i] {
			g.used[i] = true
			code = c
			offer = strings.Trim(strings.TrimSpace(strings.Replace(q, c, "", 1)), "—–-:, ")
			break
		}
	}
	if code == "" {
		code = orDefault(codeRE.FindString(g.prompt), "SAVE20")
	}
	if offer == "" {
		offer = g.quote("")
	}
	if offer == "" {
		if m := percentRE.FindString(g.prompt); m != "" {
			offer = m + " off"
		}
	}
	portrait := g.c.tall()
	w := 1.0
	if portrait {
		w = 0.8
	}
	paper := "#ffffff"
	if luminance(mix(g.c.bd.Palette.Background[0], g.c.bd.Palette.Background[1])) > 0.7 {
		paper = "#1f2937"
	}
	ink := readableOn(orDefault(g.b.TextColor, g.accent), paper) // "in bright coral": the words' colour
	card := g.bar(0, 0, w, 0.62, paper)
	edge := g.bar(0, 0, w*0.92, 0.5, ink)
	edge.In = card.ID
	inner := g.bar(0, 0, w*0.9, 0.47, paper)
	inner.In = edge.ID
	// A silver foil over the code is scratched away from the left; the code, under it
	// in the drawing order, shows as the scratching ends, never half-read through it.
	cover := g.bar(0, -0.04, w*0.8, 0.2, "#b0b7c3")
	cover.In = inner.ID
	c := g.text(code, 0, -0.04, fit(code, w*0.6, 0.1), ink, 900)
	c.In = inner.ID
	parts := []*scene.Element{card, edge, inner, c}
	for k, e := range parts {
		g.enter(e, "pop", g.t+0.06*float64(k), 0.6)
	}
	tr := trackOf(cover)
	start, done := g.in+0.2, g.in+1.6
	half := g.c.xUnits(math.Min(w*0.8, 1.65) / 2)
	key(tr, "sx", 0, 1, "")
	key(tr, "sx", start, 1, "")
	key(tr, "sx", done, 0.001, "easeInOutSine")
	key(tr, "x", 0, 0, "")
	key(tr, "x", start, 0, "")
	key(tr, "x", done, round3(half), "easeInOutSine")
	ctr := trackOf(c)
	delete(ctr, "opacity")
	key(ctr, "opacity", 0, 0, "")
	key(ctr, "opacity", done-0.25, 0, "")
	key(ctr, "opacity", done, 1, "easeOutCubic")
	g.enter(cover, "pop", g.t+0.2, 0.5)
	g.c.motion(cover, scene.Motion{Type: scene.MotionWiggle, Start: start, End: done, Amp: 2, Count: 6})
	if offer != "" {
		o := g.text(offer, 0, 0.2, fit(offer, w*0.8, 0.04), g.ink, 700)
		o.In = inner.ID
		o.Color = readableOn(g.ink, paper)
		g.enter(o, "fade", done, 0.5)
		parts = append(parts, o)
	}
	g.c.sparkles(0, 0, done, g.out, g.accent)
	g.leave(parts...)
}

// placeWords end the names of events, places and companies, never a person's: "the
// Northern Retail Forum" is where the speaker speaks, not who.
var placeWords = map[string]bool{"forum": true, "summit": true, "conference": true, "expo": true, "festival": true,
	"stage": true, "hall": true, "center": true, "centre": true, "club": true, "group": true, "inc": true, "ltd": true,
	"university": true, "school": true, "college": true, "week": true, "day": true, "awards": true, "meetup": true,
	"congress": true, "symposium": true, "street": true, "park": true, "arena": true, "theatre": true, "theater": true}

func (g *genreFill) speakerCard() {
	talk := g.longestQuote()
	name := ""
	for _, n := range g.names() {
		ws := strings.Fields(n)
		if !strings.EqualFold(n, g.b.Brand) && !strings.Contains(talk, n) && name == "" && len(ws) >= 2 && !regexp.MustCompile(`\d`).MatchString(n) &&
			!placeWords[strings.ToLower(ws[len(ws)-1])] {
			name = n
		}
	}
	name = orDefault(name, "Speaker Name")
	event := g.b.Brand
	if event == "" {
		if m := regexp.MustCompile(`\b(?:for|at)\s+([A-Z][\w]+(?:\s+(?:[A-Z][\w]+|\d{2,4}))*)`).FindStringSubmatch(g.prompt); m != nil {
			event = m[1]
		}
	}
	var when []string
	for _, s := range []string{g.venue(), dateRE.FindString(g.prompt), timeOfDay.FindString(g.prompt)} {
		if s != "" {
			when = append(when, strings.Trim(s, ", "))
		}
	}
	if len(when) < 3 {
		if m := minSecRE.FindString(g.prompt); m != "" && !strings.Contains(strings.Join(when, " "), m) {
			when = append(when, m)
		}
	}
	portrait := g.c.tall()
	paper := "#ffffff"
	if luminance(mix(g.c.bd.Palette.Background[0], g.c.bd.Palette.Background[1])) > 0.75 {
		paper = g.c.bd.Palette.Background[1]
	}
	accent := solid(g.accent)
	w, h := 1.5, 0.9
	if portrait {
		w, h = 0.86, 1.3
	}
	card := g.bar(0, 0, w, h, paper)
	px, py, tx := -0.48, 0.0, 0.22
	if portrait {
		px, py, tx = 0, -0.3, 0
	}
	photo := g.add(&scene.Element{ID: g.id("photo"), Type: scene.TypeCircle, X: px, Y: py, Size: 0.17, Color: lighten(accent, 0.7)})
	parts := []*scene.Element{card, photo}
	if m, ok := assets.Find("bust in silhouette"); ok {
		b := g.add(&scene.Element{ID: g.id("person"), Type: scene.TypeAsset, Asset: m.ID, Label: "photo", X: px, Y: py, Size: 0.13, In: photo.ID})
		parts = append(parts, b)
	}
	tw := 0.95
	if portrait {
		tw = 0.8
	}
	lines := []struct {
		s           string
		size, dy    float64
		color       string
		weight      int
		wide, space float64
	}{
		{strings.ToUpper(event), 0.028, 0, accent, 800, tw, 0.1},
		{name, fit(name, tw, 0.07), 0, "#111827", 900, tw, 0.14},
		{talk, fit(talk, tw, 0.04), 0, "#374151", 600, tw, 0.14},
		{strings.Join(when, " · "), fit(strings.Join(when, " · "), tw, 0.032), 0, accent, 700, tw, 0.1},
	}
	ink := func(c string) string { return readableOn(c, paper) }
	y := -0.27
	if portrait {
		y = -0.05
	}
	for _, l := range lines {
		if strings.TrimSpace(l.s) == "" {
			continue
		}
		e := g.text(l.s, tx, y, l.size, ink(l.color), l.weight)
		e.In = card.ID
		parts = append(parts, e)
		y += l.space + l.size
	}
	for k, e := range parts {
		g.enter(e, "up", g.t+0.08*float64(k), 0.6)
	}
	g.leave(parts...)
}

// venue is a hall, room or stage the prompt names ("Hall B", "Room 12", "Main Stage").
func (g *genreFill) venue() string {
	return regexp.MustCompile(`\b(?:Hall|Room|Stage|Auditorium|Studio|Track)\s+[A-Z0-9]\w*\b|\b(?:Main|Second) Stage\b`).FindString(g.prompt)
}

// pctRE: a share to fill a ring to ("87%").
var pctRE = regexp.MustCompile(`(\d{1,3}(?:\.\d)?)\s?(?:%|percent)`)

func (g *genreFill) bigStat() {
	pct := 75.0
	if m := pctRE.FindStringSubmatch(g.prompt); m != nil {
		pct, _ = strconv.ParseFloat(m[1], 64)
	}
	pct = math.Min(100, math.Max(0, pct))
	caption := g.longestQuote()
	ring := g.add(&scene.Element{ID: g.id("ring"), Type: scene.TypeRing, X: 0, Y: -0.12, Size: 0.22, Color: g.accent})
	num := g.add(&scene.Element{ID: g.id("value"), Type: scene.TypeCounter, X: 0, Y: -0.12, Size: 0.08, Color: g.ink,
		From: 0, To: pct, Suffix: "%", In: ring.ID})
	tr := trackOf(ring)
	key(tr, "progress", 0, 0, "")
	key(tr, "progress", g.in, 0, "")
	key(tr, "progress", g.out-0.6, round3(pct/100), "easeInOutCubic")
	g.progress(num, g.in, g.out-0.6, false)
	g.enter(ring, "pop", g.t, 0.6)
	g.enter(num, "fade", g.t+0.2, 0.5)
	parts := []*scene.Element{ring, num}
	if caption != "" {
		w := 1.5
		if g.c.tall() {
			w = 0.85
		}
		c := g.text(caption, 0, 0.5, fit(caption, w, 0.045), g.ink, 700)
		g.enter(c, "up", g.in+0.3, 0.6)
		parts = append(parts, c)
	}
	g.leave(parts...)
}

// sidesRE: two named sides of a meeting ("Westfield Tigers vs. Carver Falcons").
var sidesRE = regexp.MustCompile(`((?:[A-Z0-9][\w'’.&-]*\s){0,3}[A-Z0-9][\w'’&-]*)\s+(?:vs\.?|VS\.?|versus|v\.)\s+((?:[A-Z0-9][\w'’&-]*)(?:\s[A-Z0-9][\w'’&-]*){0,3})`)

// matchup: two sides named with "vs", their badges sliding in from opposite sides to
// meet at a big VS, and when and where under them (a game day, a debate, a final).
func (g *genreFill) matchup() {
	m := sidesRE.FindStringSubmatch(g.prompt)
	left, right := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
	for _, w := range strings.Fields(left) {
		if genreCommon[strings.ToLower(w)] || strings.HasSuffix(w, ":") {
			left = strings.TrimSpace(left[strings.Index(left, w)+len(w):]) // "Game day graphic: Westfield …"
		}
	}
	g.consume(left, right)
	colors := []string{g.accent, "#1e3a8a"}
	for k, c := range g.b.Colors {
		if k < 2 {
			colors[k] = c
		}
	}
	tall := g.c.tall()
	// Badge centres, radius and the drop to the name under each (frame units: a
	// badge's radius is twice its size in y on a landscape frame, 9/8 of it on a tall one).
	size, drop, vy, vsize := 0.15, 0.4, -0.1, 0.12
	pos := func(k int) (x, y float64) {
		if tall {
			return 0, -0.5 + 0.83*float64(k)
		}
		return -0.48 + 0.96*float64(k), -0.1
	}
	if tall {
		size, drop, vy, vsize = 0.12, 0.2, 0.0, 0.09
	}
	var parts []*scene.Element
	for k, name := range []string{left, right} {
		x, y := pos(k)
		badge := g.add(&scene.Element{ID: g.id("badge"), Type: scene.TypeCircle, X: x, Y: y, Size: size,
			Color: solid(colors[k]), Shadow: true})
		ini := g.text(initials(name), x, y, size/2, "#ffffff", 900)
		ini.In = badge.ID
		label := g.text(strings.ToUpper(name), x, y+drop, fit(name, 0.8, 0.05), g.ink, 900)
		from := []string{"left", "right"}[k]
		for _, e := range []*scene.Element{badge, ini, label} {
			g.enter(e, from, g.t+0.15*float64(k), 0.8)
		}
		parts = append(parts, badge, ini, label)
	}
	vs := g.text("VS", 0, vy, vsize, g.ink, 900)
	g.enter(vs, "pop", g.in, 0.5)
	g.c.motion(vs, scene.Motion{Type: scene.MotionPulse, Start: g.in + 0.6, End: g.out, Amp: 0.06, Count: 2})
	parts = append(parts, vs)
	date, tm, venue := g.when(left + " " + right)
	var info []string
	for _, s := range []string{strings.Trim(date, ", "), tm, venue} {
		if s != "" {
			info = append(info, s)
		}
	}
	if len(info) > 0 {
		line := strings.Join(info, " · ")
		y := 0.55
		if tall {
			y = 0.72
		}
		w := 1.5
		if tall {
			w = 0.85
		}
		e := g.text(line, 0, y, fit(line, w, 0.04), g.ink, 700)
		g.enter(e, "up", g.in+0.4, 0.6)
		parts = append(parts, e)
	}
	if title := g.quote(""); title != "" {
		parts = append(parts, g.headline(title, -0.62, -0.78, 0.05))
	}
	g.leave(parts...)
}

// unitGroup is one group of an icon array: how many icons it fills, what they stand
// for, in which colour ("18 walk", "8 take the bus", "92 of them filling up blue").
type unitGroup struct {
	Label string
	Count int
	Color string
}

var (
	// unitTotalRE: how many icons of what ("30 little people icons", "a grid of 100
	// little water-drop icons").
	unitTotalRE = regexp.MustCompile(`(?i)\b(\d{1,3})\s+((?:[a-z][\w'-]*\s+){0,3}?)(?:icons?|dots|squares|circles|pictograms?|symbols)\b|\bgrid of\s+(\d{1,3})\s+((?:[a-z][\w'-]*\s*){1,3})`)
	// unitGroupRE: a group's count and the words after it, to the clause's end.
	unitGroupRE = regexp.MustCompile(`(?i)\b(\d{1,3})\b(\s*%|\s*percent)?([^,;.\d]*)`)
	unitIconRE  = regexp.MustCompile(`^(?:icons?|dots|squares|circles|pictograms?|symbols)$`)
	unitEndRE   = regexp.MustCompile(`(?i)\s+(?:and|while|as|then|with)\b.*$`)
	// unitLabelSkip are the words around a group's name: "8 take the bus", "92 of them
	// filling up blue one row after another".
	unitLabelSkip = map[string]bool{"of": true, "them": true, "the": true, "a": true, "an": true, "take": true,
		"takes": true, "get": true, "gets": true, "are": true, "is": true, "were": true, "go": true, "goes": true,
		"by": true, "fill": true, "fills": true, "filling": true, "filled": true, "up": true, "in": true,
		"turn": true, "turns": true, "light": true, "lights": true, "colour": true, "color": true, "coloured": true,
		"colored": true, "icons": true, "people": true, "said": true, "already": true, "still": true, "now": true}
	unitLabelStop = map[string]bool{"one": true, "row": true, "rows": true, "after": true, "beside": true,
		"at": true, "on": true, "to": true, "from": true, "each": true}
	unitSmall = map[string]bool{"little": true, "small": true, "tiny": true, "identical": true, "simple": true, "flat": true}
)

// rowsOfRE: the grid's width as the prompt gives it ("two rows of five").
var rowsOfRE = regexp.MustCompile(`\brows? of (\w+)\b`)

// unitArray reads an icon array from a prompt: the number of icons and what they are,
// and the groups that fill them in order; ok is false without a count of icons.
func unitArray(prompt string) (total int, noun string, groups []unitGroup, ok bool) {
	m := unitTotalRE.FindStringSubmatchIndex(prompt)
	if m == nil {
		return 0, "", nil, false
	}
	num, words := m[2:4], m[4:6]
	if m[2] < 0 {
		num, words = m[6:8], m[8:10]
	}
	total, _ = strconv.Atoi(prompt[num[0]:num[1]])
	if total < 4 || total > 200 {
		return 0, "", nil, false
	}
	var kept []string
	for _, w := range strings.Fields(prompt[words[0]:words[1]]) {
		lw := strings.ToLower(w)
		if _, isColor := colorOf(lw); !unitSmall[lw] && !isColor && !unitIconRE.MatchString(lw) {
			kept = append(kept, w)
		}
	}
	noun = strings.Join(kept, " ")
	filled := 0
	for _, g := range unitGroupRE.FindAllStringSubmatchIndex(prompt, -1) {
		n, _ := strconv.Atoi(prompt[g[2]:g[3]])
		if g[4] >= 0 || g[2] == num[0] || n == total || n == 0 || filled+n > total {
			continue
		}
		rest := unitEndRE.ReplaceAllString(prompt[g[6]:g[7]], "") // a share ("92%") is no group
		grp := unitGroup{Count: n}
		var label []string
		for _, w := range strings.Fields(rest) {
			lw := strings.ToLower(strings.Trim(w, `"'“”()`))
			if c, isColor := colorOf(lw); isColor {
				grp.Color = orDefault(grp.Color, c)
				continue
			}
			if unitLabelStop[lw] || len(label) == 3 {
				break
			}
			if !unitLabelSkip[lw] {
				label = append(label, lw)
			}
		}
		grp.Label = capitalize(strings.Join(label, " "))
		groups = append(groups, grp)
		filled += n
	}
	return total, noun, groups, true
}

// iconArray: a grid of the prompt's icons that fill in, group by group, one after
// another, with a key naming the groups and a share counting up beside it.
func (g *genreFill) iconArray() {
	total, noun, groups, _ := unitArray(g.prompt)
	if len(groups) == 0 {
		groups = []unitGroup{{Count: total}}
	}
	palette := []string{g.accent, "#f59e0b", "#10b981", "#ef4444", "#8b5cf6"}
	for k := range groups {
		if groups[k].Color == "" {
			groups[k].Color = palette[k%len(palette)]
		}
	}
	tall, square := g.c.tall(), g.c.square()
	share := pctRE.FindStringSubmatch(g.prompt)
	keyed := 0
	for _, gr := range groups {
		if gr.Label != "" {
			keyed++
		}
	}
	side := keyed > 0 || share != nil
	// The grid's box in sizes (the frame's shorter side) and its centre in frame units.
	w, h, cx, cy := 0.95, 0.78, 0.0, 0.0
	switch {
	case tall:
		w, h, cy = 0.9, 0.85, -0.22
	case square:
		w, h, cy = 0.8, 0.6, -0.15
	case side:
		w, h, cx, cy = 0.85, 0.7, -0.38, -0.08
	}
	cols := int(math.Ceil(math.Sqrt(float64(total) * w / h)))
	if m := rowsOfRE.FindStringSubmatch(strings.ToLower(g.prompt)); m != nil {
		if n := countWord(m[1]); n > 0 && n <= total {
			cols = n // "in two rows of five"
		}
	}
	rows := (total + cols - 1) / cols
	pitch := math.Min(w/float64(cols), h/float64(rows))
	size := round3(0.38 * pitch)
	grey := "#94a3b8"
	if luminance(g.c.bd.Palette.Background[0]) < 0.4 {
		grey = "#475569"
	}
	icon, hasIcon := assets.Find(strings.ReplaceAll(noun, "-", " "))
	cell := func(k int, color string) *scene.Element {
		r, c := k/cols, k%cols
		x := cx + g.c.xUnits((float64(c)-float64(cols-1)/2)*pitch)
		y := cy + g.c.yUnits((float64(r)-float64(rows-1)/2)*pitch)
		e := &scene.Element{ID: g.id("unit"), Type: scene.TypeCircle, X: round3(x), Y: round3(y), Size: size, Color: color, Label: noun}
		if hasIcon {
			e.Type, e.Asset = scene.TypeAsset, icon.ID
			if icon.Stroke {
				e.Color = color
			} else if _, ok := icon.Tint(color); ok {
				e.Tint = color
			}
		}
		return g.add(e)
	}
	var parts []*scene.Element
	base := make([]*scene.Element, total)
	for k := range total {
		base[k] = cell(k, grey)
		g.enter(base[k], "fade", g.t+math.Min(0.8, 0.012*float64(k)), 0.4)
		if base[k].Type == scene.TypeAsset && !icon.Stroke && base[k].Tint == "" {
			// An illustration that cannot be greyed waits faded until its turn.
			op := trackOf(base[k])["opacity"]
			op[len(op)-1].V = 0.5
		}
		parts = append(parts, base[k])
	}
	filled := 0
	for _, gr := range groups {
		filled += gr.Count
	}
	t0, t1 := g.in, math.Max(g.in+0.8, g.out-1.4)
	dt := (t1 - t0) / float64(max(filled, 1))
	k := 0
	for _, gr := range groups {
		for range gr.Count {
			e := cell(k, gr.Color)
			e.In = base[k].ID
			g.enter(e, "pop", t0+dt*float64(k), 0.35)
			parts = append(parts, e)
			k++
		}
	}
	// Beside the grid (under it on a tall or square frame): the share, then the key.
	kx, ky, step := 0.5, -0.25, 0.18
	if tall || square {
		kx, ky, step = -0.35, cy+g.c.yUnits(h/2)+0.14, 0.13
	}
	if share != nil {
		v, _ := strconv.ParseFloat(share[1], 64)
		x, y, s := kx, ky-0.12, 0.11
		if tall || square {
			x, y, s = 0, ky+0.02, 0.08
			ky += 0.2
		} else {
			ky += 0.3
		}
		num := g.add(&scene.Element{ID: g.id("value"), Type: scene.TypeCounter, X: x, Y: y, Size: s, Color: g.ink, To: v, Suffix: "%"})
		g.enter(num, "fade", g.in, 0.4)
		g.progress(num, t0, t1, false)
		parts = append(parts, num)
	}
	if keyed > 0 {
		for j, gr := range groups {
			y := ky + step*float64(j)
			sw := g.add(&scene.Element{ID: g.id("key"), Type: scene.TypeCircle, X: kx, Y: round3(y), Size: 0.025, Color: gr.Color})
			label := strings.TrimSpace(gr.Label + "  " + strconv.Itoa(gr.Count))
			tx := kx + g.c.xUnits(0.05)
			t := g.text(label, round3(tx+g.c.xUnits(0.55*0.045*float64(len(label))/2)), round3(y), 0.045, g.ink, 700)
			at := t0 + dt*float64(filled*j/max(len(groups), 1))
			g.enter(sw, "pop", at, 0.4)
			g.enter(t, "fade", at, 0.5)
			parts = append(parts, sw, t)
		}
		ky += step * float64(len(groups))
	}
	// The line the grid stands for ("of every dollar goes straight to wells") comes
	// once it has filled, centred under everything: off centre, wrapped words would
	// reach the frame's safe edge.
	if q := g.longestQuote(); q != "" {
		y, w := 0.8, 1.6
		if tall || square {
			y, w = ky+0.05, 1.7
		}
		e := g.text(q, 0, y, fit(q, w, 0.045), g.ink, 700)
		g.enter(e, "up", t1, 0.6)
		parts = append(parts, e)
	}
	g.leave(parts...)
}

// A fact is one line of what a prompt lists for the screen ("Gate A54", "Directed by
// Noor Haddad", "keeper Luca"): a label, when the line starts with one, and its value.
type fact struct{ Label, Value string }

var (
	// factListRE: where a list of facts starts: after a colon or a word that shows them.
	factListRE = regexp.MustCompile(`(?:[:—–]|\b(?:showing|with|listing|reading|featuring|including))\s+`)
	// factSentenceRE: an entry that is a sentence goes on, not a fact ("and then a QR
	// code draws in"): the list ends there.
	factSentenceRE = regexp.MustCompile(`(?i)^(?:and\s+)?(?:then|after|before|while|when|as|each|every|the \w+ (?:\w+ )?(?:is|are|slides?|pops?|draws?|appears?|fades?))\b`)
	factSplitRE    = regexp.MustCompile(`\s*[,;]\s*(?:and\s+)?|\s+·\s+`)
	// factValueRE: a word that is a value: it holds a digit, is written in capitals, is
	// capitalised, or is a handle.
	routeRE     = regexp.MustCompile(`→|->|\bto\b.*\b[A-Z]{3}\b`)
	labelJoinRE = regexp.MustCompile(`(?i)\b(?:and|or|&)$`)
	factValueRE = regexp.MustCompile(`^(?:[@#].+|.*\d.*|[A-Z][\w'’.&-]*)$`)
)

// facts reads the longest list of facts a prompt gives: numbered items, else a run of
// three or more short entries most of which hold a value (a digit, a name, a code).
func facts(prompt string) []fact {
	var entries []string
	if en := enumerated(prompt); len(en) >= 3 {
		if storySteps(en) {
			return nil // "(1) a dog sits by the door… (2) the door opens…": beats to act, not lines to list
		}
		entries = en
	} else {
		for _, at := range factListRE.FindAllStringIndex(prompt, -1) {
			rest := prompt[at[1]:]
			if e := sentenceEndRE.FindStringIndex(rest); e != nil {
				rest = rest[:e[0]]
			}
			var run []string
			for _, p := range factSplitRE.Split(rest, -1) {
				p = strings.Trim(strings.TrimSpace(p), `"“”`)
				if p == "" || factSentenceRE.MatchString(p) || len(strings.Fields(p)) > 6 {
					break
				}
				run = append(run, p)
			}
			if len(run) >= len(entries) { // the later start of a run wins: "with their name: keeper Luca, …"
				entries = run
			}
		}
		valued := 0
		for _, e := range entries {
			ws := strings.Fields(e)
			for k, w := range ws {
				if factValueRE.MatchString(strings.Trim(w, ",.;:!?")) && (k > 0 || strings.ContainsAny(w, "0123456789@#")) {
					valued++
					break
				}
			}
		}
		if len(entries) < 3 || valued*3 < len(entries)*2 {
			return nil
		}
	}
	// Labels show in a label's own words: a lower-case word ("keeper Luca", "Directed
	// by") or a value with a figure ("Gate A54"). Without one anywhere, the entries are
	// names in capitals ("Mira Oyelaran, Static Pines, Juno & the Wires"), whole.
	labelled := false
	for _, e := range entries {
		if f := splitFact(e); f.Label != "" && (strings.ContainsAny(f.Value, "0123456789") || labelWords(strings.Fields(e)[:len(strings.Fields(f.Label))])) {
			labelled = true
		}
	}
	var out []fact
	for _, e := range entries {
		f := splitFact(e)
		if !labelled {
			f = fact{Value: e}
		}
		if f.Label == "" && len(out) > 0 && out[len(out)-1].Label != "" && !strings.ContainsAny(f.Value+out[len(out)-1].Value, "0123456789") && !routeRE.MatchString(f.Value) {
			// "midfield Ravi, Hana and Felix": names after a labelled entry are its own.
			out[len(out)-1].Value += ", " + f.Value
			continue
		}
		out = append(out, f)
	}
	return out
}

// storySteps: most numbered items are clauses in which something acts ("water fills
// the drum", "the owner walks in"): the beats of a scene, which the composer plays,
// not facts a card lists.
func storySteps(items []string) bool {
	acting := 0
	for _, it := range items {
		ws := strings.Fields(strings.ToLower(it))
		if len(ws) < 3 {
			continue
		}
		for _, w := range ws[1:] { // a verb after its subject, not an opening imperative
			if _, verb := actionWords[strings.Trim(w, ",.;:!?()")]; verb {
				acting++
				break
			}
		}
	}
	return acting*2 > len(items)
}

// labelWords: a label says what its value is in lower-case words: its first word
// ("keeper") or its last ("Directed by"), an article inside a name ("Juno & the
// Wires") aside.
func labelWords(ws []string) bool {
	first, last := ws[0], ws[len(ws)-1]
	lower := func(w string) bool { return w == strings.ToLower(w) && w != strings.ToUpper(w) }
	return lower(first) || lower(last) && !nameJoins[last]
}

// nameJoins are the small words inside names ("Juno & the Wires", "Ana de la Cruz").
var nameJoins = map[string]bool{"the": true, "a": true, "an": true, "and": true, "&": true, "of": true, "de": true,
	"la": true, "le": true, "van": true, "von": true, "del": true, "da": true}

// splitFact splits an entry at its first value word: "Gate A54" is Gate and A54,
// "Directed by Noor Haddad" is "Directed by" and the name; "18 Dec" is a value alone.
func splitFact(e string) fact {
	ws := strings.Fields(e)
	if routeRE.MatchString(e) {
		return fact{Value: e} // "Zurich ZRH → London LHR" is one value
	}
	for k := 1; k < len(ws) && k <= 3; k++ {
		if factValueRE.MatchString(strings.Trim(ws[k], ",.;:!?")) {
			label := strings.Join(ws[:k], " ")
			if strings.ContainsAny(label, "0123456789@#") || labelJoinRE.MatchString(label) {
				break // "Hana and Felix" are two names, no label
			}

			return fact{Label: capitalize(label), Value: strings.Join(ws[k:], " ")}
		}
	}
	return fact{Value: e}
}

// factCard: what the prompt lists for the screen, line by line on a card (a boarding
// pass's flight, gate and seat, film credits, a lineup), labels muted beside their
// values, the title above.
func (g *genreFill) factCard() {
	fs := facts(g.prompt)
	var used []string
	for _, f := range fs {
		used = append(used, f.Value)
	}
	g.consume(used...)
	title := g.quote("")
	tall := g.c.tall()
	n := float64(len(fs))
	step := math.Min(0.2, 1.2/n)
	if tall {
		step = math.Min(0.16, 1.1/n)
	}
	top := -step * (n - 1) / 2
	if title != "" {
		top += 0.1
	}
	labelled := false
	for _, f := range fs {
		labelled = labelled || f.Label != ""
	}
	w := 1.35
	if tall {
		w = 0.84
	}
	// Rows are spaced in frame units; the card's height is in sizes.
	card := g.bar(0, top+step*(n-1)/2, w, (step*n+0.2)/g.c.yUnits(1), g.panel)
	cardInk := "#111827"
	if luminance(g.panel) < 0.5 {
		cardInk = "#ffffff"
	}
	muted := mixHex(cardInk, g.panel, 0.4)
	g.enter(card, "up", g.t, 0.6)
	parts := []*scene.Element{card}
	if title != "" {
		t := g.text(title, 0, top-step*0.5-0.22, fit(title, 1.5, 0.06), g.ink, 900)
		g.enter(t, "down", g.t, 0.6)
		parts = append(parts, t)
	}
	size := math.Min(0.045, step*0.28)
	for k, f := range fs {
		y := round3(top + step*float64(k))
		at := g.t + 0.3 + float64(k)*math.Min(0.45, (g.out-g.in)*0.6/n)
		var line []*scene.Element
		if labelled {
			// Labels right-aligned to the card's middle, values left of it: two columns.
			half := g.c.xUnits(w/2) * 0.5
			if f.Label != "" {
				l := g.text(f.Label, -half*0.9, y, fit(f.Label, w*0.45, size*0.85), muted, 600)
				l.In = card.ID
				line = append(line, l)
			}
			v := g.text(f.Value, half*0.7, y, fit(f.Value, w*0.5, size), cardInk, 800)
			v.In = card.ID
			line = append(line, v)
		} else {
			v := g.text(f.Value, 0, y, fit(f.Value, w*0.9, size), cardInk, 800)
			v.In = card.ID
			line = append(line, v)
		}
		for _, e := range line {
			g.enter(e, "up", at, 0.5)
		}
		parts = append(parts, line...)
	}
	g.leave(parts...)
}

var (
	// tickerRE: a stock's ticker symbol written in capitals ("NRDX", "$TSLA").
	tickerRE = regexp.MustCompile(`\$?\b[A-Z]{2,5}\b`)
	// changeRE: a move in percent and its way ("up 4.2%", "-1.3%", "fell 2%").
	changeRE = regexp.MustCompile(`(?i)(?:\b(up|down|rose|fell|gained|lost|climbed|dropped|jumped|slid)\s+(?:by\s+)?)?([+−-])?(\d+(?:\.\d+)?)\s?%`)
)

// notTickers are capitals that name no stock.
var notTickers = map[string]bool{"USD": true, "EUR": true, "GBP": true, "CEO": true, "NEW": true, "NOW": true,
	"TV": true, "AI": true, "UK": true, "US": true, "EU": true, "UP": true, "PM": true, "AM": true}

// moveDown are the words of changeRE that say a price fell ("down 1.8%", "slid 2%").
var moveDown = map[string]bool{"down": true, "fell": true, "lost": true, "dropped": true, "slid": true}

// stockMove reads a price's move: its percent and whether it went down.
func stockMove(prompt string) (pct string, down, ok bool) {
	m := changeRE.FindStringSubmatch(prompt)
	if m == nil {
		return "", false, false
	}
	down = moveDown[strings.ToLower(m[1])] || m[2] == "-" || m[2] == "−"
	return m[3] + "%", down, true
}

// stockCard: a ticker, its price counting to the close, the day's move with an arrow
// in green or red, and a sparkline drawing itself the way the price went.
func (g *genreFill) stockCard() {
	price := moneyRE.FindString(g.prompt)
	pct, down, _ := stockMove(g.prompt)
	sym := ""
	for _, m := range tickerRE.FindAllString(g.prompt, -1) {
		if !notTickers[strings.TrimPrefix(m, "$")] {
			sym = strings.TrimPrefix(m, "$")
			break
		}
	}
	if sym == "" {
		sym = g.name("Stock")
	}
	g.consume(sym, price)
	move := "#16a34a"
	sign := "+"
	if down {
		move, sign = "#dc2626", "−"
	}
	tall := g.c.tall()
	card := g.bar(0, 0, 1.3, 0.75, g.panel)
	cardInk := "#111827"
	if luminance(g.panel) < 0.5 {
		cardInk = "#ffffff"
	}
	lx, sx := -0.3, 0.38
	if tall {
		card = g.bar(0, 0, 0.84, 1.1, g.panel)
		lx, sx = 0, 0
	}
	var parts []*scene.Element
	ys := []float64{-0.32, -0.05, 0.2}
	if tall {
		ys = []float64{-0.42, -0.24, -0.08}
	}
	s := g.text(sym, lx, ys[0], 0.07, cardInk, 900)
	p := g.valueElem(strings.ReplaceAll(price, " ", ""), lx, ys[1], 0.1, cardInk)
	if price == "" {
		p = g.text("", lx, ys[1], 0.1, cardInk, 900)
	}
	if p.Type == scene.TypeCounter && strings.HasSuffix(price, "0") && strings.Contains(price, ".") {
		// "$92.10": a counter would drop the last zero; the price stands as written.
		p.Type, p.Text, p.To, p.Prefix, p.Suffix = scene.TypeText, strings.ReplaceAll(price, " ", ""), 0, "", ""
		p.Weight = 900
	}
	if p.Type == scene.TypeCounter {
		p.From = round3(p.To * 0.9)
		g.progress(p, g.in, g.out-0.8, false)
	}
	parts = append(parts, card, s, p)
	if pct != "" {
		ch := g.text(sign+pct, lx+g.c.xUnits(0.05), ys[2], 0.055, readableOn(move, g.panel), 800)
		arrow := g.add(&scene.Element{ID: g.id("arrow"), Type: scene.TypePath, X: round3(lx - g.c.xUnits(0.1)), Y: ys[2],
			Size: 0.03, Color: readableOn(move, g.panel), Path: map[bool]string{false: "M0,-1 L1,0.8 L-1,0.8 Z", true: "M0,1 L1,-0.8 L-1,-0.8 Z"}[down]})
		parts = append(parts, ch, arrow)
	}
	// The sparkline: a walk that ends the way the day went.
	path := "M-1,0.45 L-0.7,0.3 L-0.45,0.38 L-0.2,0.05 L0.05,0.15 L0.3,-0.15 L0.55,-0.05 L0.8,-0.35 L1,-0.45"
	if down {
		path = "M-1,-0.45 L-0.7,-0.3 L-0.45,-0.38 L-0.2,-0.05 L0.05,-0.15 L0.3,0.15 L0.55,0.05 L0.8,0.35 L1,0.45"
	}
	sy := -0.05
	if tall {
		sy = 0.32
	}
	spark := g.add(&scene.Element{ID: g.id("sparkline"), Type: scene.TypePath, Variant: "stroke", X: sx, Y: sy,
		Size: 0.2, Color: readableOn(move, g.panel), Path: path, In: card.ID})
	g.progress(spark, g.in, g.out-0.6, false)
	parts = append(parts, spark)
	for k, e := range parts {
		e.In = orDefault(e.In, card.ID)
		if e == card {
			e.In = ""
		}
		g.enter(e, "up", g.t+0.08*float64(k), 0.6)
	}
	g.leave(parts...)
}

// keyNameRE: a key of a keyboard as prompts name it.
var keyNameRE = regexp.MustCompile(`(?i)\b(ctrl|control|cmd|command|shift|alt|option|opt|enter|return|esc|escape|tab|space(?:bar)?|delete|backspace|fn|win(?:dows)?|f\d{1,2})\b|(?:^|[\s,+])([A-Z0-9])(?:$|[\s,.+])`)

// keysPressed reads the keys of a shortcut in order ("the keys Ctrl, Shift and T",
// "Cmd + K"): two or more named in one run.
func keysPressed(prompt string) []string {
	var keys []string
	last := -1
	for _, m := range keyNameRE.FindAllStringSubmatchIndex(prompt, -1) {
		k := ""
		if m[2] >= 0 {
			k = prompt[m[2]:m[3]]
		} else {
			k = prompt[m[4]:m[5]]
		}
		if last >= 0 && !keyGapRE.MatchString(prompt[last:m[0]]) {
			if len(keys) >= 2 {
				break
			}
			keys = nil
		}
		keys = append(keys, keyLabel(k))
		last = m[1]
	}
	if len(keys) < 2 {
		return nil
	}
	return keys
}

// keyGapRE is what stands between two keys of one shortcut.
var keyGapRE = regexp.MustCompile(`^[\s,+]*(?:and|then|\+|plus)?[\s,+]*$`)

// keyNames are the keys keycaps print shorter than prompts name them.
var keyNames = map[string]string{"control": "Ctrl", "command": "Cmd", "escape": "Esc", "spacebar": "Space"}

func keyLabel(k string) string {
	if short, ok := keyNames[strings.ToLower(k)]; ok {
		return short
	}
	if len(k) <= 3 && strings.ToUpper(k) == k {
		return k
	}
	return capitalize(strings.ToLower(k))
}

// keyboardShortcut: the keys of a shortcut as keycaps with "+" between them, pressed
// one after another and held, the tip's caption above.
func (g *genreFill) keyboardShortcut() {
	keys := keysPressed(g.prompt)
	caption := g.quote("")
	n := float64(len(keys))
	tall := g.c.tall()
	var parts []*scene.Element
	// Keycaps stand out from the backdrop: dark keys on a light one, light on a dark.
	capColor, capInk := g.panel, "#111827"
	if luminance(capColor) < 0.5 {
		capInk = "#ffffff"
	}
	// Keycaps as wide as their names, a "+" between them, the row centred.
	widths := make([]float64, len(keys))
	plusW := g.c.xUnits(0.1)
	total := plusW * (n - 1)
	for k, name := range keys {
		widths[k] = math.Max(0.22, 0.055*float64(len(name))+0.14)
		total += g.c.xUnits(widths[k])
	}
	left := -total / 2
	for k, name := range keys {
		w := widths[k]
		x := round3(left + g.c.xUnits(w)/2)
		left += g.c.xUnits(w) + plusW
		y := 0.05
		if tall {
			x, y = 0, round3(-0.35+0.3*float64(k))
		}
		kc := g.bar(x, y, w, 0.22, capColor)
		kc.Shadow = true
		lab := g.text(name, x, y, 0.06, capInk, 800)
		lab.In = kc.ID
		at := g.t + 0.12*float64(k)
		g.enter(kc, "up", at, 0.5)
		g.enter(lab, "up", at, 0.5)
		// Pressed in turn: down a little and held, as fingers keep a shortcut down.
		press := g.in + 0.45*float64(k)
		for _, e := range []*scene.Element{kc, lab} {
			tr := trackOf(e)
			key(tr, "scale", 0, 1, "")
			key(tr, "scale", press, 1, "")
			key(tr, "scale", press+0.12, 0.9, "easeOutCubic")
			key(tr, "scale", g.out-0.3, 0.9, "")
			key(tr, "scale", g.out, 1, "easeOutBack")
		}
		parts = append(parts, kc, lab)
		if k+1 < len(keys) && !tall {
			plus := g.text("+", round3(x+g.c.xUnits(w)/2+plusW/2), y, 0.05, g.ink, 800)
			g.enter(plus, "fade", at+0.2, 0.4)
			parts = append(parts, plus)
		}
	}
	if caption != "" {
		parts = append(parts, g.headline(caption, -0.55, -0.72, 0.055))
	}
	g.leave(parts...)
}

// flashcard: a card with the prompt's word on its front turns over to show the answer
// on its back: the named drawing and its word.
func (g *genreFill) flashcard() {
	front := g.quote("Question")
	back := g.quote("")
	// A back that lists lines (a business card's phone, site and handle) shows them
	// all, one after another, and no drawing.
	lines := g.rest()
	if back != "" && len(lines) > 0 {
		lines = append([]string{back}, lines...)
	}
	tall := g.c.tall()
	w, h := 1.0, 0.7
	if tall {
		w, h = 0.8, 0.9
	}
	flip := g.in + (g.out-g.in)*0.35
	half := 0.25
	fc := g.bar(0, 0, w, h, g.panel)
	cardInk := "#111827"
	if luminance(g.panel) < 0.5 {
		cardInk = "#ffffff"
	}
	ft := g.text(front, 0, 0, fit(front, w*0.85, 0.08), cardInk, 800)
	ft.In = fc.ID
	bc := g.bar(0, 0, w, h, lighten(g.accent, 0.75))
	var backParts []*scene.Element
	backParts = append(backParts, bc)
	// The back's drawing is a thing the prompt names after the back ("the back shows a
	// cat"), never the card itself named before it.
	afterBack := g.low
	if i := strings.Index(g.low, "back"); i >= 0 {
		afterBack = g.low[i:]
	}
	drawn := ""
	for _, s := range g.b.Subjects {
		if s.Asset != "" && len(lines) == 0 && strings.Contains(afterBack, s.Noun) {
			drawn = s.Noun
			if d := g.drawing(s.Noun, 0, -0.14, 0.14); d != nil {
				d.Asset, d.In = s.Asset, bc.ID
				backParts = append(backParts, d)
			}
			break
		}
	}
	if back == "" {
		back = drawn
	}
	if drawn == "" && back != "" && len(lines) == 0 {
		// A vocabulary card's answer is a thing: its drawing, when the library has one.
		if d := g.drawing(back, 0, -0.14, 0.14); d != nil {
			d.In = bc.ID
			backParts = append(backParts, d)
		}
	}
	var late []*scene.Element // lines that fade in one at a time once the back is up
	switch {
	case len(lines) > 0:
		step := math.Min(0.2, 0.7/float64(len(lines)))
		for k, l := range lines {
			y := step * (float64(k) - float64(len(lines)-1)/2)
			bt := g.text(l, 0, round3(y), fit(l, w*0.85, 0.055), "#111827", 700)
			bt.In = bc.ID
			late = append(late, bt)
		}
	case back != "":
		y := 0.27
		if len(backParts) == 1 {
			y = 0
		}
		bt := g.text(back, 0, y, fit(back, w*0.85, 0.065), "#111827", 800)
		bt.In = bc.ID
		backParts = append(backParts, bt)
	}
	// The turn: the front narrows to an edge, the back opens from it.
	for _, e := range []*scene.Element{fc, ft} {
		g.enter(e, "up", g.t, 0.6)
		tr := trackOf(e)
		key(tr, "sx", 0, 1, "")
		key(tr, "sx", flip, 1, "")
		key(tr, "sx", flip+half, 0, "easeInCubic")
		key(tr, "opacity", flip+half, 1, "")
		key(tr, "opacity", flip+half+0.01, 0, "")
	}
	for _, e := range backParts {
		tr := trackOf(e)
		key(tr, "opacity", 0, 0, "")
		key(tr, "opacity", flip+half, 0, "")
		key(tr, "opacity", flip+half+0.01, 1, "")
		key(tr, "sx", 0, 0, "")
		key(tr, "sx", flip+half, 0, "")
		key(tr, "sx", flip+2*half, 1, "easeOutCubic")
	}
	for k, e := range late {
		g.enter(e, "up", flip+2*half+0.1+0.45*float64(k), 0.5)
	}
	g.leave(append(backParts, late...)...)
}

// captionChunks splits a line into the pieces captions show one after another: two
// words at a time, a long word alone, a piece ending at its punctuation.
func captionChunks(line, stress string) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, w := range strings.Fields(line) {
		// The stressed word stands alone, so its colour is its own.
		alone := len([]rune(w)) > 8 || stress != "" && strings.EqualFold(strings.Trim(w, ",.!?;:"), stress)
		if alone {
			flush()
		}
		cur = append(cur, w)
		if len(cur) == 2 || alone || strings.ContainsAny(w[len(w)-1:], ",.!?;:") {
			flush()
		}
	}
	flush()
	return out
}

// captions: a spoken line shown as social-video captions, a word or two at a time,
// big and bold in the middle of the frame, the stressed word in its colour.
func (g *genreFill) captions() {
	line := g.longestQuote()
	stress := ""
	for _, q := range g.rest() {
		if len(strings.Fields(q)) == 1 && strings.Contains(strings.ToLower(line), strings.ToLower(q)) {
			stress = strings.ToLower(q)
		}
	}
	hot := orDefault(colorAfter(g.prompt, stress), "#facc15")
	if stress == "" {
		hot = ""
	}
	ink := g.ink
	if stated := colorAfter(g.prompt, "chunky"); stated != "" {
		ink = stated
	}
	chunks := captionChunks(line, stress)
	span := (g.out - g.t) / float64(len(chunks))
	var parts []*scene.Element
	for k, c := range chunks {
		at := g.t + span*float64(k)
		color := ink
		hit := stress != "" && strings.Contains(strings.ToLower(c), stress)
		if hit {
			color = hot
		}
		e := g.text(c, 0, 0.1, fit(c, 1.5, 0.11), color, 900)
		e.Shadow = true
		e.Reveal = "pop"
		tr := trackOf(e)
		key(tr, "opacity", 0, 0, "")
		key(tr, "opacity", at, 0, "")
		key(tr, "opacity", at+0.05, 1, "")
		key(tr, "scale", 0, 0.6, "")
		key(tr, "scale", at, 0.6, "")
		key(tr, "scale", at+0.18, 1, "easeOutBack")
		if k+1 < len(chunks) {
			key(tr, "opacity", at+span-0.02, 1, "")
			key(tr, "opacity", at+span, 0, "")
		} else {
			parts = append(parts, e)
		}
		if hit {
			g.c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: at + 0.2, End: at + span, Amp: 0.12, Count: 2})
		}
	}
	g.leave(parts...)
}

// sungRE: the clause that says how sung words change colour ("each word fills from
// white to gold as it's sung").
var sungRE = regexp.MustCompile(`\b(?:fill\w*|sung|sings?|highlight\w*|turns?|lights? up|glows?|sweeps?)\b[^.;]*`)

// lyrics shows a song's lines one at a time in the middle, each whole as it comes, and
// sweeps the sung colour across it over its share of the video, as a karaoke screen does.
// The colours are the clause's "from A to B", else the layout's ink and accent.
func (g *genreFill) lyrics() {
	lines := g.rest()
	if len(lines) == 0 {
		return
	}
	bg := g.c.bd.Palette.Background[0]
	ink, sung := g.ink, g.accent
	if m := sungRE.FindString(g.low); m != "" {
		var cs []string
		for _, w := range wordRE.FindAllString(m, -1) {
			if c, ok := colorOf(w); ok {
				cs = append(cs, c)
			}
		}
		if len(cs) > 0 {
			sung = cs[len(cs)-1]
		}
		if len(cs) > 1 {
			ink = cs[0]
		}
	}
	if colorDist(ink, sung) < 120 {
		ink = "#ffffff" // the unsung words must differ from the sung
		if luminance(bg) > 0.5 {
			ink = "#111827"
		}
	}
	ink, sung = readableOn(ink, bg), readableOn(sung, bg)
	var parts []*scene.Element
	// A quote that a colon sets before the others is the song's title ("Night Bus":
	// "…" / "…"): it stays small at the top while the lines are sung.
	if len(lines) >= 3 {
		i0, i1 := strings.Index(g.prompt, lines[0]), strings.Index(g.prompt, lines[1])
		if i0 >= 0 && i1 > i0 && strings.Contains(g.prompt[i0+len(lines[0]):i1], ":") {
			title := g.text(lines[0], 0, -0.36, fit(lines[0], 1.2, 0.05), ink, 700)
			if g.c.tall() {
				title.Y = -0.62
			}
			g.enter(title, "fade", g.t, 0.6)
			parts = append(parts, title)
			lines = lines[1:]
		}
	}
	span := (g.out - g.t) / float64(len(lines))
	for k, l := range lines {
		at := g.t + span*float64(k)
		e := g.text(l, 0, 0.05, fit(l, 1.5, 0.09), ink, 900)
		e.Reveal, e.Color2, e.Shadow = "karaoke", sung, true
		tr := trackOf(e)
		key(tr, "opacity", 0, 0, "")
		key(tr, "opacity", at, 0, "")
		key(tr, "opacity", at+0.3, 1, "easeOutCubic")
		key(tr, "progress", 0, 0, "")
		key(tr, "progress", at+0.3, 0, "")
		key(tr, "progress", math.Max(at+0.6, at+span-0.5), 1, "")
		if k+1 < len(lines) {
			key(tr, "opacity", at+span-0.25, 1, "")
			key(tr, "opacity", at+span, 0, "")
		} else {
			parts = append(parts, e)
		}
	}
	g.leave(parts...)
}

// headline is a line over a layout, at y (tallY on a tall frame), dropping in first.
func (g *genreFill) headline(s string, y, tallY, size float64) *scene.Element {
	if g.c.tall() {
		y = tallY
	}
	e := g.text(s, 0, y, fit(s, 1.5, size), g.ink, 800)
	g.enter(e, "down", g.t, 0.6)
	return e
}
