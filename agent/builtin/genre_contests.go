package builtin

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// Contests: layouts of who beat whom — a knockout bracket whose winners move on round by
// round to a champion, a ranked leaderboard.

// bracketCueRE names a knockout bracket, or a tournament said to go round by round.
var bracketCueRE = regexp.MustCompile(`\bbrackets?\b|\bknock-?outs?\b|\bplayoffs?\b|\bquarter-?finals?\b|\bsemi-?finals?\b|\bsemis\b|\bround of (?:8|16|eight|sixteen)\b|\bsingle elimination\b|\btournament (?:tree|draw|chart)\b|\b(?:tournament|cup|championship)\b[^.]*\b(?:rounds?|advanc\w*|champions?|final)\b`)

const (
	// bracketName: a team's or player's name, up to three capitalised words ("Ana",
	// "Riverside Hawks", "FC Porto").
	bracketName  = `([\p{Lu}\d][\p{L}\d'’&-]*(?:\s+\p{Lu}[\p{L}\d'’&-]*){0,2})`
	bracketScore = `(\d{1,3})\s*[-–—:]\s*(\d{1,3})`
)

var (
	bracketVsRE    = regexp.MustCompile(bracketName + `\s+(?:vs\.?|v\.?|versus|against)\s+` + bracketName + `(?:\s*[,:(]?\s*` + bracketScore + `\)?)?`)
	bracketBeatRE  = regexp.MustCompile(bracketName + `\s+(?:beats?|defeats?|defeated|def\.?|edges?(?:\s+past)?|edged(?:\s+past)?|tops?|topped|knocks?\s+out|knocked\s+out|eliminates?|eliminated|overcomes?|sees?\s+off|wins\s+(?:against|over))\s+` + bracketName + `(?:[^,;.\d]{0,30}?` + bracketScore + `)?`)
	bracketScoreRE = regexp.MustCompile(bracketName + `\s+` + bracketScore + `\s+` + bracketName)
	// bracketChampRE: who wins it all ("champion: Cleo", "Cleo is crowned champion",
	// "Cleo wins the final 11-8").
	bracketChampRE = regexp.MustCompile(`(?i:\b(?:champions?|winner)\b)\s*(?:is|:|-|—|goes\s+to)\s*` + bracketName +
		`|` + bracketName + `\s+(?:is\s+|are\s+|becomes?\s+|as\s+|(?:is\s+)?crowned\s+)(?:the\s+)?(?i:champions?)\b` +
		`|` + bracketName + `\s+(?:wins|lifts|takes|claims|clinches)\s+(?:it\s+all|it\b|the\s+(?:final|title|cup|trophy|tournament|championship|crown))(?:[^,;.\d]{0,20}?` + bracketScore + `)?`)
	// bracketThroughRE: names said to go on ("Marco, Jules, Aiko and Nadia go through",
	// "Jules and Nadia make the final").
	bracketThroughRE = regexp.MustCompile(`((?:` + bracketName + `\s*(?:,\s*(?:and\s+)?|\s+and\s+))*` + bracketName + `)\s+(?:go|goes|went|move|moves|moved|advance|advances|advanced|progress|progresses|make|makes|made|reach|reaches|reached|win|wins|won)\s+(?:through|on|into\s+the\s+\w+|to\s+the\s+\w+|the\s+(?:final|semis|semi-?finals?|next\s+round)|their\s+(?:matches|games))\b`)
	// bracketPieceRE parts a list of entrants.
	bracketPieceRE = regexp.MustCompile(`\s*(?:[,;/]|\s[-—–]\s|\band\b|\bvs\.?(?:\s|$)|\bv\.?\s|\bversus\b|\bagainst\b)\s*`)
	// bracketCleanRE: what stands by an entrant's name and is no part of it: a score, a
	// seed.
	bracketCleanRE = regexp.MustCompile(`\(?\s*\d{1,3}\s*[-–—:]\s*\d{1,3}\s*\)?|\(\s*(?:seed\s*)?#?\d{1,2}\s*\)|^(?:#|no\.?\s*|seed\s*)?\d{1,2}[.)]?\s+`)
	// bracketTitleRE: what the bracket is of ("bracket for the office ping-pong cup").
	bracketTitleRE = regexp.MustCompile(`(?i)\b(?:bracket|tournament|knock-?out|playoffs?)\s+(?:for|of)\s+(?:the\s+|our\s+|my\s+|this\s+)?([^:;,.—–(]+?)\s*(?:[:;,.—–(]|\s-\s|\bwith\b|$)`)
	bracketEntryRE = regexp.MustCompile(`^[\p{Lu}\d][\p{L}\d'’&-]*(?:\s+\p{Lu}[\p{L}\d'’&-]*){0,2}$`)
	// bracketStop: capitalised words that open a clause or name a round, not a side.
	bracketStop = map[string]bool{"then": true, "and": true, "the": true, "in": true, "final": true, "finals": true, "semis": true, "semifinal": true, "semifinals": true,
		"quarterfinal": true, "quarterfinals": true, "round": true, "winner": true, "winners": true, "champion": true, "champions": true, "bracket": true, "tournament": true,
		"first": true, "next": true, "finally": true, "after": true, "it": true, "who": true, "vertical": true, "square": true, "knockout": true, "playoff": true, "playoffs": true}
)

// A bracketMatch is a result the prompt gives: two sides, their scores ("" when it
// gives none) and the winner.
type bracketMatch struct {
	A, B, SA, SB, Winner string
}

// A bracket is a knockout tournament: its entrants in bracket order (first against
// second, third against fourth…), the results it gives and its champion.
type bracket struct {
	Entrants []string
	// Through counts the rounds each name is said to go on from.
	Through    map[string]int
	Results    []bracketMatch
	Champion   string
	FinalScore [2]string // the champion's and the runner-up's, when the prompt only says "wins the final 11-8"
}

// bracketClean strips a name of the words before it that open a clause ("Then Cleo").
func bracketClean(name string) string {
	ws := strings.Fields(name)
	for len(ws) > 0 && (bracketStop[strings.ToLower(ws[0])] || genreCommon[strings.ToLower(ws[0])]) {
		ws = ws[1:]
	}
	return strings.Join(ws, " ")
}

// bracketOf reads a bracket: the entrants are the first run of four names or more in
// one sentence ("Ana vs Ben, Cleo vs Dev, …", "teams: Lions, Tigers, …"), eight at most;
// the results are the matches it tells ("Cleo beats Ana 11-7", "Lions 3-1 Tigers",
// "Ana vs Ben 11-5") and who is champion.
func bracketOf(prompt string) bracket {
	var b bracket
	text := regexp.MustCompile(`\b(vs|v)\.`).ReplaceAllString(ratioRE.ReplaceAllString(prompt, ""), "$1")
	for _, sent := range funnelSentRE.Split(text, -1) {
		var run, best []string
		for k, p := range bracketPieceRE.Split(sent, -1) {
			p = strings.TrimSpace(p)
			if k == 0 || len(run) == 0 {
				if i := strings.LastIndex(p, ": "); i >= 0 {
					p = p[i+2:] // "teams: Lions"
				}
			}
			p = strings.TrimSpace(bracketCleanRE.ReplaceAllString(p, ""))
			p = strings.Trim(p, `"“”'‘’()`)
			if bracketEntryRE.MatchString(p) && bracketClean(p) == p && !weekdayRE.MatchString(p) {
				run = append(run, p)
				continue
			}
			if len(run) > len(best) {
				best = run
			}
			run = nil
		}
		if len(run) > len(best) {
			best = run
		}
		if len(best) >= 4 {
			n := 4
			if len(best) >= 8 {
				n = 8
			}
			b.Entrants = best[:n]
			break
		}
	}
	add := func(a, bn, sa, sb, winner string) {
		a, bn = bracketClean(a), bracketClean(bn)
		if a == "" || bn == "" || strings.EqualFold(a, bn) {
			return
		}
		if winner == "" && sa != "" && sa != sb {
			winner = a
			if atoiOr(sb) > atoiOr(sa) {
				winner = bn
			}
		}
		b.Results = append(b.Results, bracketMatch{A: a, B: bn, SA: sa, SB: sb, Winner: winner})
	}
	for _, m := range bracketBeatRE.FindAllStringSubmatch(text, -1) {
		hi, lo := m[3], m[4] // a winner's score is the higher, whichever the prompt writes first
		if atoiOr(lo) > atoiOr(hi) {
			hi, lo = lo, hi
		}
		add(m[1], m[2], hi, lo, bracketClean(m[1]))
	}
	for _, m := range bracketScoreRE.FindAllStringSubmatch(text, -1) {
		add(m[1], m[4], m[2], m[3], "")
	}
	for _, m := range bracketVsRE.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2], m[3], m[4], "")
	}
	b.Through = map[string]int{}
	for _, m := range bracketThroughRE.FindAllStringSubmatch(text, -1) {
		for _, n := range regexp.MustCompile(`\s*,\s*(?:and\s+)?|\s+and\s+`).Split(m[1], -1) {
			if n = bracketClean(n); n != "" {
				b.Through[strings.ToLower(n)]++
			}
		}
	}
	if m := bracketChampRE.FindStringSubmatch(text); m != nil {
		b.Champion = bracketClean(m[1] + m[2] + m[3])
		if m[4] != "" {
			hi, lo := m[4], m[5]
			if atoiOr(lo) > atoiOr(hi) {
				hi, lo = lo, hi
			}
			b.FinalScore = [2]string{hi, lo}
		}
	}
	return b
}

// atoiOr is a score as a number, 0 for none.
func atoiOr(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return n
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// A bracketSlot is a side of a match: who, and the score they had in it.
type bracketSlot struct{ Name, Score string }

// rounds plays the bracket out: round 0 is the entrants, each next round the winners of
// the one before, the last the champion. A match the prompt tells is won as it says;
// one it does not is won by the champion when they play in it, else by whoever the
// prompt says wins or goes through, else by the higher seed (the one listed first).
func (b bracket) rounds(prompt string) [][]bracketSlot {
	cur := make([]bracketSlot, len(b.Entrants))
	for i, e := range b.Entrants {
		cur[i].Name = e
	}
	out := [][]bracketSlot{cur}
	same := func(a, c string) bool {
		return strings.EqualFold(a, c) || strings.HasPrefix(strings.ToLower(a), strings.ToLower(c)+" ") || strings.HasPrefix(strings.ToLower(c), strings.ToLower(a)+" ")
	}
	for len(cur) > 1 {
		var next []bracketSlot
		for i := 0; i+1 < len(cur); i += 2 {
			a, c := &cur[i], &cur[i+1]
			winner := a
			decided := false
			for _, r := range b.Results {
				switch {
				case same(r.A, a.Name) && same(r.B, c.Name):
					a.Score, c.Score = r.SA, r.SB
				case same(r.A, c.Name) && same(r.B, a.Name):
					a.Score, c.Score = r.SB, r.SA
				default:
					continue
				}
				if r.Winner != "" {
					decided = true
					if same(r.Winner, c.Name) {
						winner = c
					}
				}
				break
			}
			if !decided {
				switch {
				case b.Champion != "" && same(b.Champion, c.Name):
					winner = c
				case b.Champion != "" && same(b.Champion, a.Name):
				case b.Through[strings.ToLower(c.Name)] > b.Through[strings.ToLower(a.Name)]:
					winner = c
				}
				if len(cur) == 2 && b.FinalScore[0] != "" && a.Score == "" {
					a.Score, c.Score = b.FinalScore[0], b.FinalScore[1]
					if winner == c {
						a.Score, c.Score = c.Score, a.Score
					}
				}
			}
			next = append(next, bracketSlot{Name: winner.Name})
		}
		out = append(out, next)
		cur = next
	}
	return out
}

// lit is a highlight's colour (the champion's slot, the viewer's row): c darkened until
// white words read on it at 7.5:1, since a bar's sheen lightens its middle, where the
// words are.
func lit(c string) string {
	for k := 0; k < 16 && contrast(c, "#ffffff") < 7.5; k++ {
		c = darken(c, 0.06)
	}
	return c
}

// bracketFits: a bracket has four entrants or more.
func bracketFits(prompt string) bool { return len(bracketOf(prompt).Entrants) >= 4 }

// tournament: the entrants in slots down the left, and round by round the matches'
// connectors draw in, the loser's words grey and the winner's name moves on to the next
// slot, until the champion's slot lights up. In a wide frame the champion stands in a
// column of its own on the right; in a tall or square one, under the bracket, the final's
// connector dropping down to it.
func (g *genreFill) tournament() {
	b := bracketOf(g.prompt)
	for len(b.Entrants) < 4 {
		b.Entrants = append(b.Entrants, "Team "+string(rune('A'+len(b.Entrants))))
	}
	for _, e := range b.Entrants {
		g.consume(e)
	}
	rounds := b.rounds(g.prompt)
	levels := len(rounds) - 1 // the columns of matches; the last round is the champion
	below := g.c.tall() || g.c.square()
	// The bracket's box in sizes: width, height, its top, and the gap between columns.
	W, H, gap := 1.6, 0.74, 0.09
	switch {
	case g.c.tall():
		W, H, gap = 0.9, 0.98, 0.05
	case g.c.square():
		W, H, gap = 0.9, 0.58, 0.05
	}
	cols := levels
	if !below {
		cols++
	}
	w := (W - gap*float64(cols)) / float64(cols)
	if !below {
		w = (W - gap*float64(cols-1)) / float64(cols)
	}
	title := g.quote("")
	if m := bracketTitleRE.FindStringSubmatch(g.prompt); title == "" && m != nil && len(strings.Fields(m[1])) <= 5 && !regexp.MustCompile(`^\d`).MatchString(m[1]) {
		title = capitalize(strings.TrimSpace(m[1]))
	}
	top := -H/2 + 0.05
	if below {
		top = -0.34 // room under the bracket for the champion
		if g.c.tall() {
			top = -0.57
		}
	}
	pitch := H / float64(len(b.Entrants))
	sh := math.Min(0.085, pitch*0.72)
	if g.c.tall() {
		sh = math.Min(0.11, pitch*0.78)
	}
	colX := func(j int) float64 { return -W/2 + w/2 + float64(j)*(w+gap) }
	x := func(s float64) float64 { return round3(g.c.xUnits(s)) }
	y := func(s float64) float64 { return round3(g.yu(s)) }
	// Cross positions: round 0 evenly spaced, each later slot midway between its two.
	ys := [][]float64{make([]float64, len(b.Entrants))}
	for i := range ys[0] {
		ys[0][i] = top + pitch*(float64(i)+0.5)
	}
	for j := 1; j < len(rounds); j++ {
		var row []float64
		for i := 0; i+1 < len(ys[j-1]); i += 2 {
			row = append(row, (ys[j-1][i]+ys[j-1][i+1])/2)
		}
		ys = append(ys, row)
	}
	accent := lit(g.accent)
	muted := mixHex(g.ink, g.c.bd.Palette.Background[0], 0.55)
	ink := inkOn(g.panel)
	var parts []*scene.Element
	slotEls := make([][][]*scene.Element, len(rounds)) // each slot's words, to dim the loser's
	slot := func(j, i int, s bracketSlot, at float64) {
		sx, sy := colX(j), ys[j][i]
		box := g.bar(x(sx), y(sy), w, sh, g.panel)
		box.Label = s.Name
		room := w * 0.9
		nameX := sx
		if s.Score != "" {
			room = w * 0.68
			nameX = sx - w*0.12
		}
		size := math.Min(0.034, fitBold(s.Name, room, sh*0.42))
		if g.c.tall() {
			size = math.Min(0.034, fitBold(s.Name, room*1.9, sh*0.34)) // two lines in a tall frame
		}
		name := g.text(s.Name, x(nameX), y(sy), size, ink, 700)
		name.Wrap, name.In = round3(room), box.ID
		g.enter(box, "pop", at, 0.45)
		g.enter(name, "fade", at+0.15, 0.35)
		es := []*scene.Element{box, name}
		if s.Score != "" {
			sc := g.text(s.Score, x(sx+w*0.34), y(sy), math.Min(0.034, sh*0.42), ink, 800)
			sc.In = box.ID
			g.enter(sc, "fade", at+0.15, 0.35)
			es = append(es, sc)
		}
		slotEls[j] = append(slotEls[j], es[1:])
		parts = append(parts, es...)
	}
	// Round 0 comes in down the column, then each round resolves in turn.
	for i, s := range rounds[0] {
		slot(0, i, s, g.t+0.06*float64(i))
	}
	span := (g.out - 0.6 - g.in) / float64(levels)
	// A loser's words turn grey on their slot, as far as they still read on it (the
	// slot keeps its colour: one that fades reads as a grey under white words).
	dim := mixHex(ink, g.panel, 0.45)
	for k := 0; k < 10 && contrast(dim, g.panel) < 5.5; k++ {
		dim = mixHex(dim, ink, 0.25)
	}
	// seg is a connector from (x0, y0) to (x1, y1), sizes, across or down: a thin bar
	// growing from its first end, as the org chart's do.
	thin := 0.007
	seg := func(x0, y0, x1, y1 float64, color string, t float64) {
		var e *scene.Element
		prop := "sx"
		if math.Abs(y1-y0) > math.Abs(x1-x0) {
			e, prop = g.bar(x((x0+x1)/2), y((y0+y1)/2), thin, math.Abs(y1-y0)+thin, color), "sy"
		} else {
			e = g.bar(x((x0+x1)/2), y((y0+y1)/2), math.Abs(x1-x0)+thin, thin, color)
		}
		// A backdrop (Depth just under 1), as the mind map's branches: a link, not a box
		// over the slots it joins.
		e.Label, e.Depth = "connector", 0.99
		grow(e, prop, t, 0.35, "easeOutCubic")
		parts = append(parts, e)
	}
	for j := 0; j < levels; j++ {
		at := g.in + span*float64(j)
		mid := colX(j) + w/2 + gap/2
		for i := 0; i+1 < len(rounds[j]); i += 2 {
			winner := rounds[j+1][i/2]
			for k := i; k <= i+1; k++ {
				col := muted
				if rounds[j][k].Name == winner.Name {
					col = accent
				} else if k < len(slotEls[j]) {
					for _, e := range slotEls[j][k] {
						g.c.motion(e, scene.Motion{Type: scene.MotionRecolor, Start: at + 0.5, End: at + 0.8, Color: dim})
					}
				}
				seg(colX(j)+w/2, ys[j][k], mid, ys[j][k], col, at)
			}
			py := ys[j+1][i/2]
			seg(mid, ys[j][i], mid, ys[j][i+1], muted, at+0.3)
			if j+1 < levels || !below {
				seg(mid, py, colX(j+1)-w/2, py, accent, at+0.5)
				if j+1 < levels {
					slot(j+1, i/2, winner, at+0.8)
				}
			}
		}
	}
	// The champion: a larger slot in the accent colour with a crown over it.
	champ := rounds[levels][0]
	at := g.in + span*float64(levels-1) + 0.9
	cx, cy, cw, chh := colX(levels), ys[levels][0], w, sh*1.5
	if below {
		// Under the final's connector, which drops down into it.
		mid := colX(levels-1) + w/2 + gap/2
		cw, chh = math.Min(0.62, W*0.7), math.Min(0.14, sh*1.7)
		cx, cy = math.Min(mid, W/2-cw/2), top+H+0.06+chh/2+0.04
		if mid > cx+cw/2-0.03 {
			cx = mid + 0.03 - cw/2 // the connector lands on the slot, not beside it
		}
		if g.c.tall() {
			cy = top + H + 0.13 + chh/2
		}
		seg(mid, ys[levels][0], mid, cy-chh/2, accent, at-0.4)
	}
	box := g.bar(x(cx), y(cy), cw, chh, accent)
	box.Label, box.Shadow = "champion", true
	name := g.text(champ.Name, x(cx), y(cy), math.Min(0.05, fitBold(champ.Name, cw*0.85, chh*0.45)), inkOn(accent), 900)
	name.Wrap, name.In = round3(cw*0.9), box.ID
	// "CHAMPION" stands over the slot, on the background: small words on the slot's
	// sheen read at 3:1.
	label := g.text("CHAMPION", x(cx), y(cy-chh/2-0.03), 0.028, g.ink, 800)
	crown := g.add(&scene.Element{ID: g.id("crown"), Type: scene.TypePath, Label: "crown", Color: "#f5b700", Shadow: true,
		Path: "M-1,0.7 L-1,-0.5 L-0.5,0.05 L0,-0.9 L0.5,0.05 L1,-0.5 L1,0.7 Z", X: x(cx), Y: y(cy - chh/2 - 0.09), Size: 0.04})
	g.enter(box, "pop", at, 0.6)
	g.enter(label, "fade", at+0.2, 0.4)
	g.enter(name, "pop", at+0.3, 0.6)
	g.enter(crown, "down", at+0.5, 0.5)
	g.c.motion(box, scene.Motion{Type: scene.MotionPulse, Start: at + 0.9, End: math.Min(g.out, at+1.7), Amp: 0.06, Count: 1})
	parts = append(parts, box, name, label, crown)
	if title != "" {
		parts = append(parts, g.headline(title, y(top-0.09), y(top-0.09), 0.05))
	}
	g.leave(parts...)
}

// leaderCueRE names a ranked list: a leaderboard, standings, a league table, rankings,
// high scores.
var leaderCueRE = regexp.MustCompile(`\bleader ?boards?\b|\bstandings\b|\bleague tables?\b|\brankings?\b|\branked (?:list|rows|table)\b|\bhigh ?scores?\b|\bhall of fame\b|\btop (?:\d+|three|five|ten) (?:players|scorers|sellers|reps|teams|students|runners|gamers|streamers|fundraisers|contributors)\b`)

var (
	// leaderItemRE: one ranked row — a written place if any ("1.", "#2", "3rd"), a name,
	// a marker of the viewer's own row, its score and unit ("Ava 2340 pts", "2) Sam
	// (you) 1980").
	leaderItemRE = regexp.MustCompile(`^(?:(?:#|no\.?\s*)?(\d{1,2})(?:st|nd|rd|th|[.):])?\s+)?([\p{L}][\p{L}\d'’&.-]*(?:\s+[\p{L}\d][\p{L}\d'’&.-]*){0,3}?)(\s*\((?:you|me|that's you)\))?\s*[:–—-]?\s*(?:with\s+|at\s+|on\s+)?([$€£]?\d+(?:\.\d+)?[kK%]?)\s*(pts|points|xp|wins|goals|kills|votes|km|miles|mi|steps|books|sales|deals|stars|coins|gems|laps|reps|runs|hours|hrs)?$`)
	// leaderRankRE: a place written before its row, on its own ("1. Ava").
	leaderRankRE = regexp.MustCompile(`(^|[:,;]\s*|\d\s+|\n\s*)(#?\d{1,2})(?:\.|\))\s`)
	leaderYouRE  = regexp.MustCompile(`(?i)^(?:you|me|yourself)$`)
	// leaderMoveRE: a row that moves up ("Sam overtakes Noah", "Mia climbs to 2nd",
	// "Leo jumps to first").
	leaderMoveRE = regexp.MustCompile(`\b([\p{Lu}][\p{L}-]*)(?:['’]s\s+(?:row|bar|name|entry|line))?\s+(?:overtakes|passes|leapfrogs|(?:moves|climbs|jumps|slides|rises)\s+(?:up\s+)?(?:past|above|over|ahead\s+of))\s+([\p{Lu}][\p{L}-]*)|\b([\p{Lu}][\p{L}-]*)(?:['’]s\s+(?:row|bar|name|entry|line))?\s+(?:climbs|jumps|moves(?:\s+up)?|rises|shoots\s+up)\s+to\s+(?:#|no\.?\s*)?(\d|first|second|third|fourth|fifth|top)(?:st|nd|rd|th)?\b`)
	// leaderCountRE: a score said to change without its row's name ("as his count ticks
	// up to 43").
	leaderCountRE = regexp.MustCompile(`^[^.;]*?\b(?:his|her|their|its)\s+(?:score|count|total|points|tally)\s+(?:\w+\s+){0,2}to\s+(\d[\d,]*)`)
	// leaderMarkRE: words that single a row out ("highlight Noah", "Mia's row glows").
	leaderMarkRE = regexp.MustCompile(`(?i)\b(?:highlight\w*|spotlight\w*|glow\w*|lights? up)\b`)
)

// A leaderRow is one row of a leaderboard.
type leaderRow struct {
	Name, Score, Unit string
	You               bool
}

// leaderRows reads a leaderboard's rows: the longest run of ranked entries in one
// sentence ("1. Ava 2,340 pts, 2. Noah 2,110 …", "Ava 98, Noah 91 and Mia 87"), in
// their places: as written when every row says its place, by score (highest first)
// when the scores are not already in order, else as listed.
func leaderRows(prompt string) []leaderRow {
	text := ratioRE.ReplaceAllString(prompt, "")
	text = thousandsRE.ReplaceAllString(thousandsRE.ReplaceAllString(text, "$1$2"), "$1$2")
	text = leaderRankRE.ReplaceAllString(text, "$1, $2) ") // "1. Ava": the place's stop is no sentence's end
	var best []leaderRow
	var ranks []int
	for _, sent := range funnelSentRE.Split(text, -1) {
		var run []leaderRow
		var rk []int
		flush := func() {
			if len(run) > len(best) {
				best, ranks = run, rk
			}
			run, rk = nil, nil
		}
		for _, p := range entrySplitRE.Split(sent, -1) {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			if i := strings.LastIndex(p, ": "); i >= 0 && !leaderItemRE.MatchString(p) {
				p = p[i+2:] // "top 5: Ava 98"
			}
			for _, piece := range listEndRE.Split(p, -1) {
				if leaderItemRE.MatchString(strings.TrimSpace(piece)) {
					p = strings.TrimSpace(piece)
					break
				}
			}
			m := leaderItemRE.FindStringSubmatch(p)
			if m == nil || bracketStop[strings.ToLower(m[2])] {
				flush()
				continue
			}
			r := leaderRow{Name: strings.TrimSpace(m[2]), Score: m[4], Unit: m[5], You: m[3] != "" || leaderYouRE.MatchString(m[2])}
			if r.You && leaderYouRE.MatchString(r.Name) {
				r.Name = "You"
			}
			run = append(run, r)
			rk = append(rk, atoiOr(m[1]))
		}
		flush()
	}
	if len(best) < 3 {
		return nil
	}
	rows := best[:min(len(best), 8)]
	ranks = ranks[:len(rows)]
	written := true
	for _, r := range ranks {
		written = written && r > 0
	}
	score := func(r leaderRow) float64 { return stageAmount(r.Score) }
	up, down := true, true
	for k := 1; k < len(rows); k++ {
		up = up && score(rows[k]) >= score(rows[k-1])
		down = down && score(rows[k]) <= score(rows[k-1])
	}
	switch {
	case written:
		idx := make([]int, len(rows))
		for k := range idx {
			idx[k] = k
		}
		slices.SortStableFunc(idx, func(a, b int) int { return ranks[a] - ranks[b] })
		out := make([]leaderRow, len(rows))
		for k, i := range idx {
			out[k] = rows[i]
		}
		rows = out
	case !up && !down:
		rows = append([]leaderRow(nil), rows...)
		slices.SortStableFunc(rows, func(a, b leaderRow) int {
			switch {
			case score(a) > score(b):
				return -1
			case score(a) < score(b):
				return 1
			}
			return 0
		})
	}
	return rows
}

// leaderMoves is where each row ends up: the places after the prompt's moves ("Sam
// overtakes Noah", "Mia climbs to 2nd", "Leo's score jumps to 99" past those below
// it). final[k] is row k's place at the end; news[k] the score it counts on to, "".
func leaderMoves(prompt string, rows []leaderRow) (final []int, news []string) {
	order := make([]int, len(rows)) // order[place] = row
	for k := range order {
		order[k] = k
	}
	news = make([]string, len(rows))
	find := func(name string) int {
		for k, r := range rows {
			if strings.EqualFold(strings.Fields(r.Name)[0], name) || strings.EqualFold(r.Name, name) {
				return k
			}
		}
		return -1
	}
	place := func(row int) int {
		for p, r := range order {
			if r == row {
				return p
			}
		}
		return -1
	}
	moveTo := func(row, to int) {
		from := place(row)
		if row < 0 || to < 0 || to >= from {
			return
		}
		copy(order[to+1:from+1], order[to:from])
		order[to] = row
	}
	for k, r := range rows {
		// A figure lower than the row's is a place it climbs to ("climbs to 2nd"), no score.
		if to, ok := laterFigure(prompt, r.Name); ok && to > stageAmount(r.Score) && !strings.ContainsAny(r.Score, "$€£%kK") {
			news[k] = formatNum(to)
			p := 0
			for p < len(order) && order[p] != k && stageAmount(rows[order[p]].Score) >= to {
				p++
			}
			moveTo(k, p)
		}
	}
	for _, m := range leaderMoveRE.FindAllStringSubmatch(prompt, -1) {
		if m[1] != "" {
			a, b := find(m[1]), find(m[2])
			if a >= 0 && b >= 0 {
				moveTo(a, place(b))
				// "… as his count ticks up to 43": the mover's new score, said after it.
				if f := leaderCountRE.FindStringSubmatch(prompt[strings.Index(prompt, m[0]):]); f != nil && news[a] == "" {
					if v := stageAmount(f[1]); v > stageAmount(rows[a].Score) {
						news[a] = formatNum(v)
					}
				}
			}
			continue
		}
		to := map[string]int{"first": 1, "top": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5}[m[4]]
		if to == 0 {
			to = atoiOr(m[4])
		}
		moveTo(find(m[3]), to-1)
	}
	final = make([]int, len(rows))
	for p, r := range order {
		final[r] = p
	}
	return final, news
}

// formatNum writes a whole score as it reads, without a fraction.
func formatNum(v float64) string {
	if v == math.Trunc(v) {
		return strconv.Itoa(int(v))
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// leaderFits: a leaderboard lists three ranked rows or more and asks for what a plain
// board does not have: places written, a row singled out (the viewer's, or one
// highlighted), a row moving up, or a figure in points.
func leaderFits(prompt string) bool {
	rows := leaderRows(prompt)
	if len(rows) < 3 {
		return false
	}
	for _, r := range rows {
		if r.You || r.Unit == "pts" || r.Unit == "points" || r.Unit == "xp" {
			return true
		}
	}
	if leaderMarkRE.MatchString(prompt) || leaderMoveRE.MatchString(prompt) || regexp.MustCompile(`(?:^|[\s,:;])(?:#\d|\d{1,2}\)|\d(?:st|nd|rd|th)\s)`).MatchString(leaderRankRE.ReplaceAllString(prompt, "$1$2) ")) {
		return true
	}
	final, _ := leaderMoves(prompt, rows)
	for k, p := range final {
		if p != k {
			return true
		}
	}
	return false
}

// leaderTitleRE: what a leaderboard is of ("the leaderboard for the step challenge").
var leaderTitleRE = regexp.MustCompile(`(?i)\b(leader ?board|standings|league table|rankings?|high ?scores?)\s+(?:for|of)\s+(?:the\s+|our\s+|this\s+|my\s+)?([^:;,.—–(]+?)\s*(?:[:;,.—–(]|\s-\s|\bwith\b|$)`)

// leaderNamedRE: a leaderboard named by the words before it ("Weekly step challenge
// leaderboard: …").
var leaderNamedRE = regexp.MustCompile(`(?i)(?:^|[:.]\s*)((?:[\p{L}'’-]+\s+){1,4})(leader ?board|standings|league table|rankings?|high ?scores?)\s*(?:[:—–,]|\s-\s)`)

// leaderboard: ranked rows slide in one after another, each a bar with its place in a
// medal-coloured disc, the name and the score counting up; the viewer's row (or the
// one the prompt highlights) stands out in the accent colour. When the prompt moves a
// row up, late in the hold the rows slide to their new places while the places stay,
// and a new score counts on.
func (g *genreFill) leaderboard() {
	rows := leaderRows(g.prompt)
	if len(rows) == 0 {
		rows = []leaderRow{{Name: "Player 1", Score: "300"}, {Name: "Player 2", Score: "200"}, {Name: "Player 3", Score: "100"}}
	}
	final, news := leaderMoves(g.prompt, rows)
	n := len(rows)
	title := g.quote("")
	if title == "" {
		if m := leaderTitleRE.FindStringSubmatch(g.prompt); m != nil && len(strings.Fields(m[2])) <= 4 {
			title = capitalize(strings.TrimSpace(m[2]) + " " + strings.ToLower(m[1]))
		} else if m := leaderNamedRE.FindStringSubmatch(g.prompt); m != nil && strings.TrimSpace(ganttNoiseRE.ReplaceAllString(m[1], "")) != "" {
			title = capitalize(ganttNoiseRE.ReplaceAllString(m[1], "") + strings.ToLower(m[2]))
		} else {
			title = capitalize(orDefault(leaderCueRE.FindString(g.low), "leaderboard"))
		}
	}
	W, rowH, area := 1.1, 0.105, 0.68
	switch {
	case g.c.tall():
		W, rowH, area = 0.88, 0.17, 1.1
	case g.c.square():
		W, rowH, area = 0.86, 0.1, 0.7
	}
	rowH = math.Min(rowH, area/float64(n))
	top := -float64(n)*rowH/2 + 0.06
	y := func(p int) float64 { return round3(g.yu(top + rowH*(float64(p)+0.5))) }
	x := func(s float64) float64 { return round3(g.c.xUnits(s)) }
	marked := -1
	for k, r := range rows {
		if r.You {
			marked = k
			break
		}
	}
	// A row named before a highlight word ("our club highlighted") is the one; else the
	// first named after one ("highlight Noah").
	for _, after := range []bool{false, true} {
		for k, r := range rows {
			name := `\b` + regexp.QuoteMeta(r.Name) + `\b`
			re := name + `(?:'s)?[^.;,]{0,20}(?:` + leaderMarkRE.String() + `)`
			if after {
				re = `(?:` + leaderMarkRE.String() + `)[^.;]{0,30}` + name
			}
			if marked < 0 && regexp.MustCompile(`(?i)`+re).MatchString(g.prompt) {
				marked = k
			}
		}
	}
	accent := lit(g.accent)
	head := g.headline(title, round3(g.yu(top-0.09)), round3(g.yu(top-0.09)), 0.06)
	parts := []*scene.Element{head}
	moveAt := math.Max(g.stagger(n-1, n)+1.6, g.out-2.2)
	// The places stand in a column of their own left of the rows, so a row moving up
	// passes under none of them; the bar takes the rest, its name and score in columns.
	disc := rowH * 0.3
	bw := W - 2*disc - 0.03
	bx := W/2 - bw/2
	nameW, scoreW := bw*0.52, bw*0.38
	medals := []string{"#f5b700", "#b8c0cc", "#cd7f32"}
	var discs []*scene.Element
	for k, r := range rows {
		at := g.stagger(k, n) + 0.2
		col, ink := g.panel, inkOn(g.panel)
		if k == marked {
			col, ink = accent, inkOn(accent)
		}
		bar := g.bar(x(bx), y(k), bw, rowH*0.82, col)
		bar.Label = r.Name
		label := r.Name
		if r.You && r.Name != "You" {
			label += " (you)"
		}
		name := g.text(label, x(bx-bw/2+0.02+nameW/2), y(k), fitBold(label, nameW*0.95, rowH*0.36), ink, 700)
		name.Wrap, name.In = round3(nameW), bar.ID
		fig := r.Score
		if r.Unit != "" {
			fig += " " + r.Unit
		}
		score := g.figure(fig, x(bx+bw/2-0.02-scoreW/2), y(k), fitBold(fig, scoreW*0.9, rowH*0.38), ink)
		score.In = bar.ID
		// The words come once their bar has landed: on it, never on the background.
		g.enter(bar, "right", at, 0.5)
		g.enter(name, "fade", at+0.4, 0.35)
		g.enter(score, "fade", at+0.4, 0.35)
		row := []*scene.Element{bar, name, score}
		if score.Type == scene.TypeCounter {
			g.progress(score, at+0.3, math.Min(moveAt-0.2, at+1.5), false)
			if news[k] != "" {
				if to := stageAmount(news[k]); to > score.To && score.To > 0 {
					// The runtime eases a counter's progress out (cubic): this progress
					// shows the first score; the rest counts on as the row moves.
					tr := trackOf(score)
					frac := round3(1 - math.Cbrt(1-score.To/to))
					tr["progress"][len(tr["progress"])-1].V = frac
					key(tr, "progress", moveAt, frac, "")
					key(tr, "progress", moveAt+0.8, 1, "easeOutCubic")
					score.To = to
				}
			}
		}
		if final[k] != k {
			for _, e := range row {
				tr := trackOf(e)
				key(tr, "y", 0, y(k), "")
				key(tr, "y", moveAt, y(k), "")
				key(tr, "y", moveAt+0.8, y(final[k]), "easeInOutCubic")
			}
		}
		if k == marked {
			pulseAt := at + 0.7
			if final[k] != k {
				pulseAt = moveAt + 0.8
			}
			g.c.motion(bar, scene.Motion{Type: scene.MotionPulse, Start: pulseAt, End: math.Min(g.out, pulseAt+0.8), Amp: 0.04, Count: 1})
		}
		parts = append(parts, row...)
		// The places stand still while the rows move past them: a disc per place.
		dc := "#64748b"
		if k < len(medals) {
			dc = medals[k]
		}
		d := g.add(&scene.Element{ID: g.id("place"), Type: scene.TypePath, Path: circlePath, Label: "place " + strconv.Itoa(k+1),
			X: x(-W/2 + disc), Y: y(k), Size: round3(disc), Color: dc})
		num := g.text(strconv.Itoa(k+1), d.X, d.Y, round3(rowH*0.32), inkOn(dc), 800)
		num.In = d.ID
		g.enter(d, "pop", at+0.2, 0.4)
		g.enter(num, "pop", at+0.25, 0.4)
		discs = append(discs, d, num)
	}
	g.leave(append(parts, discs...)...)
}
