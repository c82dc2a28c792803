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
	if tall || g.c.b.Aspect == "square" {
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
		label := g.text("Word of the Day", 0, round3(g.c.yUnits(top+0.09)), 0.04, solid(g.accent), 700)
		label.In = page.ID
		parts = append(parts, label)
	}
	head := g.text(e.Word, 0, round3(g.c.yUnits(top+h*0.3)), fit(e.Word, w*0.85, 0.13), ink, 800)
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
		sub = g.text(s, 0, round3(g.c.yUnits(top+h*0.44)), fit(s, w*0.8, 0.045), muted, 500)
		sub.In = page.ID
	}
	rule := g.bar(0, round3(g.c.yUnits(top+h*0.53)), w*0.7, 0.006, mixHex(ink, paper, 0.7))
	rule.In = page.ID
	meaning := g.text(e.Meaning, 0, round3(g.c.yUnits(top+h*0.72)), math.Min(0.055, fit(e.Meaning, w*0.85*2.2, 0.055)), ink, 500)
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
