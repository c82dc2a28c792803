package builtin

import (
	"math"
	"regexp"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// A dictionary entry as people write one in a prompt: a headword, its part of speech in
// brackets and/or its pronunciation between slashes, then its meaning after a dash or
// a colon ("petrichor (noun) /ˈpɛtrɪkɔːr/ — the earthy smell when rain falls on dry
// ground"). A word of the day may give the meaning alone ("word of the day: hygge —
// a cosy contentment").
var (
	dictEntryRE = regexp.MustCompile(`(?i)(?:^|[\s:"“'‘(])([\p{L}][\p{L}'’-]{1,29})["”'’]?\s*(?:\((noun|verb|adjective|adj\.?|adverb|adv\.?|n\.|v\.|interjection|phrase|idiom)\))?\s*(?:/([^/\n]{1,40})/|\[([^\]\n]{1,40})\])?\s*[—–:]\s*["“]?([^.!?\n"”]{4,200})`)
	wordOfDayRE = regexp.MustCompile(`(?i)\bword of the (?:day|week)\b`)
)

// dictEntry is one headword with what the prompt says of it.
type dictEntry struct {
	Word, Part, Say, Meaning string
}

// dictEntryOf reads the prompt's dictionary entry: it needs a part of speech or a
// pronunciation, or a word of the day, to be one (a dash after any word is not).
func dictEntryOf(prompt string) (dictEntry, bool) {
	// Each word in turn may open the entry: a match that is none ("class: …") must not
	// swallow the entry after it. Without a part of speech or a pronunciation, a word of
	// the day is the last word a meaning follows ("… for our club: hygge – a cosy …").
	var last dictEntry
	for pos := 0; pos < len(prompt); {
		loc := dictEntryRE.FindStringSubmatchIndex(prompt[pos:])
		if loc == nil {
			break
		}
		m := func(k int) string {
			if loc[2*k] < 0 {
				return ""
			}
			return prompt[pos+loc[2*k] : pos+loc[2*k+1]]
		}
		e := dictEntry{Word: m(1), Part: strings.TrimSuffix(strings.ToLower(m(2)), "."), Say: orDefault(m(3), m(4)), Meaning: strings.TrimSpace(m(5))}
		pos += loc[3]
		if strings.EqualFold(e.Word, "day") || strings.EqualFold(e.Word, "week") {
			continue // "word of the day: …": the headword comes after
		}
		if e.Part != "" || e.Say != "" {
			e.Part = partNames[e.Part]
			return e, true
		}
		last = e
	}
	if last.Word != "" && wordOfDayRE.MatchString(prompt) {
		return last, true
	}
	return dictEntry{}, false
}

// partNames spell out a part of speech as a dictionary prints it.
var partNames = map[string]string{"": "", "noun": "noun", "n": "noun", "verb": "verb", "v": "verb",
	"adjective": "adjective", "adj": "adjective", "adverb": "adverb", "adv": "adverb",
	"interjection": "interjection", "phrase": "phrase", "idiom": "idiom"}

// dictionary: a page of paper with the headword large, its part of speech and
// pronunciation under it, a rule, and the meaning typed out beneath.
func (g *genreFill) dictionary() {
	e, _ := dictEntryOf(g.prompt)
	g.consume(e.Word, e.Meaning)
	tall := g.c.tall()
	w, h := 1.3, 0.8
	if tall || g.c.square() {
		w, h = 0.84, 0.95
	}
	// A dictionary's page is paper whatever the frame's palette: cream, in dark ink.
	paper, ink := "#fbf6e9", "#1f2937"
	if luminance(g.c.bd.Palette.Background[0]) > 0.8 {
		paper = "#f3ead3" // a shade darker than a light frame, so the page reads as one
	}
	page := g.bar(0, 0, w, h, paper)
	muted := mixHex(ink, paper, 0.45)
	parts := []*scene.Element{page}
	top := -h / 2
	if wordOfDayRE.MatchString(g.prompt) {
		label := g.text("Word of the Day", 0, round3(g.yu(top+0.09)), 0.04, solid(g.accent), 700)
		label.In = page.ID
		parts = append(parts, label)
	}
	head := g.text(e.Word, 0, round3(g.yu(top+h*0.3)), fit(e.Word, w*0.85, 0.13), ink, 800)
	head.In = page.ID
	parts = append(parts, head)
	var line []string
	if e.Part != "" {
		line = append(line, e.Part)
	}
	if e.Say != "" {
		line = append(line, "/"+e.Say+"/")
	}
	var sub *scene.Element
	if len(line) > 0 {
		s := strings.Join(line, "  ·  ")
		sub = g.text(s, 0, round3(g.yu(top+h*0.44)), fit(s, w*0.8, 0.045), muted, 500)
		sub.In = page.ID
	}
	rule := g.bar(0, round3(g.yu(top+h*0.53)), w*0.7, 0.006, mixHex(ink, paper, 0.7))
	rule.In = page.ID
	meaning := g.text(e.Meaning, 0, round3(g.yu(top+h*0.72)), math.Min(0.055, fit(e.Meaning, w*0.85*2.2, 0.055)), ink, 500)
	meaning.In, meaning.Wrap = page.ID, round3(w*0.82)
	for _, p := range parts {
		g.enter(p, "fade", g.t, 0.5)
	}
	g.enter(rule, "fade", g.t+0.3, 0.4)
	// The headword and then its meaning type out, as on a typewriter; the line
	// between them fades in once the word is there.
	typed := g.in + 0.2
	g.c.motion(head, scene.Motion{Type: scene.MotionType, Start: round3(g.t + 0.2), End: round3(typed)})
	if sub != nil {
		g.enter(sub, "fade", typed, 0.4)
		parts = append(parts, sub)
	}
	start := typed + 0.5
	done := math.Min(g.out-0.3, start+0.05*float64(len([]rune(e.Meaning))))
	g.enter(meaning, "fade", start, 0.2)
	g.c.motion(meaning, scene.Motion{Type: scene.MotionType, Start: round3(start), End: round3(done)})
	g.leave(append(parts, rule, meaning)...)
}

// A team as people list one: names with their roles after a dash, a colon or in
// brackets ("Rosa - owner & head baker, Jimmy - pastry", "Priya (CEO), Tom (CTO)").
var teamMemberRE = regexp.MustCompile(`(?:^|[,;:.]\s*|\band\s+)([A-Z][\p{L}'’.-]+(?:\s[A-Z][\p{L}'’.-]+)?)\s*(?:[-–—:]\s*|\(\s*)([^,;:()\n.]{2,40})`)

// teamMember is one person of a team grid.
type teamMember struct{ Name, Role string }

// teamMembers reads the listed people, at most eight; fewer than two is no team.
func teamMembers(prompt string) []teamMember {
	var out []teamMember
	for _, m := range teamMemberRE.FindAllStringSubmatch(prompt, -1) {
		name, role := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
		if genreCommon[strings.ToLower(strings.Fields(name)[0])] || weekdayRE.MatchString(name) {
			continue
		}
		out = append(out, teamMember{name, role})
		if len(out) == 8 {
			break
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// monogram is a person's first letters, of the first and last words of the name, for a
// portrait ("Mei" is M; a brand's initials keep a short name whole: initials).
func monogram(name string) string {
	ws := strings.Fields(name)
	s := string([]rune(ws[0])[:1])
	if len(ws) > 1 {
		s += string([]rune(ws[len(ws)-1])[:1])
	}
	return strings.ToUpper(s)
}

// team: a grid of round portraits (initials on a colour, standing in for photos), each
// turning in one after another with the name and role under it.
func (g *genreFill) team() {
	people := teamMembers(g.prompt)
	n := len(people)
	// The space the grid has, in sizes (the frame's shorter side is 1).
	W, H, cols := 1.6, 0.82, min(n, 4)
	if n > 4 {
		cols = (n + 1) / 2
	}
	switch {
	case g.c.tall():
		W, H, cols = 0.9, 1.45, min(n, 2)
	case g.c.square():
		W, H, cols = 0.9, 0.82, min(n, 2)
		if n > 4 {
			cols = 3
		}
	}
	rows := (n + cols - 1) / cols
	var parts []*scene.Element
	titleH := 0.0
	if title := g.quote(""); title != "" || teamTitleRE.MatchString(g.prompt) {
		title = orDefault(title, "Meet the team")
		titleH = 0.13
		head := g.text(title, 0, round3(g.yu(-H/2-0.02)), fit(title, W, 0.07), g.ink, 800)
		g.enter(head, "down", g.t, 0.6)
		parts = append(parts, head)
	}
	cellW := W / float64(cols)
	cellH := math.Min((H-titleH)/float64(rows), cellW*1.3)
	r := math.Min(cellW*0.3, (cellH-0.2)/2)
	top := -(cellH*float64(rows))/2 + titleH/2
	colors := []string{g.accent, mixHex(g.accent, "#7c3aed", 0.5), mixHex(g.accent, "#0ea5e9", 0.5), mixHex(g.accent, "#f59e0b", 0.5)}
	each := math.Min(0.7, (g.out-g.in)/float64(n+1))
	muted := mixHex(g.ink, g.c.bd.Palette.Background[0], 0.3)
	for k, p := range people {
		col, row := k%cols, k/cols
		inRow := min(cols, n-row*cols)
		x := g.c.xUnits(cellW * (float64(col) - float64(inRow-1)/2))
		cellTop := top + cellH*float64(row) + (cellH-2*r-0.16)/2
		y := func(s float64) float64 { return round3(g.yu(s)) }
		face := g.add(&scene.Element{ID: g.id("portrait"), Type: scene.TypePath, Path: circlePath, Label: p.Name,
			X: round3(x), Y: y(cellTop + r), Size: round3(r), Color: solid(colors[k%len(colors)])})
		ini := g.text(monogram(p.Name), round3(x), y(cellTop+r), round3(r*0.8), "#ffffff", 800)
		ini.In = face.ID
		name := g.text(p.Name, round3(x), y(cellTop+2*r+0.05), fit(p.Name, cellW*0.9, 0.05), g.ink, 800)
		role := g.text(p.Role, round3(x), y(cellTop+2*r+0.115), fit(p.Role, cellW*0.9*1.8, 0.036), muted, 500)
		role.Wrap = round3(cellW * 0.9)
		t := g.t + 0.3 + each*float64(k)
		// The portrait turns in like a card flipped over, then its words come under it.
		grow(face, "sx", t, 0.45, "easeOutBack")
		grow(ini, "sx", t, 0.45, "easeOutBack")
		// The words fade in where they stand: rising, they would cross the row below.
		g.enter(name, "fade", t+0.3, 0.5)
		g.enter(role, "fade", t+0.4, 0.5)
		parts = append(parts, face, ini, name, role)
	}
	g.leave(parts...)
}

// teamTitleRE: the prompt names the grid as the team it shows.
var teamTitleRE = regexp.MustCompile(`(?i)\bmeet (?:the|our) (?:team|crew|staff|people)\b`)
