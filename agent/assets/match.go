package assets

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Match is an asset found for a subject phrase.
type Match struct {
	*Asset
	Query string  // the phrase as asked ("paper planes")
	Score float64 // higher is better; comparable within one query
	// Substituted is set when no asset depicts the phrase itself and a neighbour was
	// used (the head noun of a longer phrase, a relative of the same category, a close
	// spelling); Message says so in words a person reads.
	Substituted bool
	Message     string
}

// Find returns the best asset for a subject phrase of the embedded library.
func Find(phrase string) (Match, bool) { return Default().Find(phrase) }

// Search returns up to n assets for a query of the embedded library, best first.
func Search(query string, n int) []Match { return Default().Search(query, n) }

// looseScore is a match by a keyword that names nothing the drawing depicts (an
// association: "dam" of the beaver): below what a subject needs.
const looseScore = 50

// minScore is the weakest direct match Find accepts before it falls back.
const minScore = 45

// Named is Find for a phrase that names its drawing outright: an asset's name or CLDR
// label, or a curated synonym ("thumbs up", "search bar"), never a match on keywords,
// a head noun or a relative. It lets a caller take a phrase whose words alone would
// read otherwise ("up" a direction, "bar" a chart).
func Named(phrase string) (Match, bool) { return Default().Named(phrase) }

// Named: see the package function. A synonym WordNet gives of a drawing's name names
// it too ("cell phone" is the mobile phone).
func (l *Library) Named(phrase string) (Match, bool) {
	if m, ok := l.NamedOnly(phrase); ok {
		return m, true
	}
	if m, ok := l.lexiconMatch(phrase, false); ok && !m.Substituted {
		return m, true
	}
	return Match{}, false
}

// NamedOnly is Named by the library's own names alone, without the lexicon: what the
// lexicon is built from.
func (l *Library) NamedOnly(phrase string) (Match, bool) {
	m, ok := l.direct(phrase, normalize(phrase))
	if !ok || m.Substituted {
		return Match{}, false
	}
	p := strings.Join(strings.Fields(strings.ToLower(phrase)), " ")
	for _, f := range forms(p) {
		if f == m.Name || f == m.Label || synonyms[f] != "" {
			return m, true
		}
	}
	return Match{}, false
}

// Find returns the asset that best depicts a subject ("paper plane", "balloons",
// "kitty"). Multi-word subjects match as one before their words do; plurals and
// synonyms are tried; an illustration is preferred to a line icon unless the subject
// is a UI word ("settings", "wifi"). With no good match it falls back, in order, to the
// head noun ("wooden boat" → boat), to a relative of the subject's category
// ("limousine" → automobile) and to a close spelling, and says what it substituted.
// It reports false only when nothing is near.
func (l *Library) Find(phrase string) (Match, bool) {
	ws := normalize(phrase)
	if len(ws) == 0 {
		return Match{}, false
	}
	// A drawing named by the phrase beats what WordNet says of it, which beats a loose
	// keyword ("spaniel" is a dog, though some drawing may list the word).
	m, ok := l.direct(phrase, ws)
	if ok && m.Score >= 99 {
		return m, true
	}
	lm, lok := l.lexiconMatch(phrase, false)
	// An illustration listing the word beats a line icon WordNet names ("couch": the
	// couch and lamp, not the sofa outline).
	if lok && !lm.Substituted && !(lm.Stroke && ok && m.Score >= 75 && !m.Stroke) {
		return lm, true
	}
	if ok && m.Score >= 75 {
		return m, true
	}
	if lok {
		return lm, true
	}
	// A drawing named as the phrase's stand-in beats an association ("aquarium" is
	// the jellyfish's keyword; the fish tank is the aquarium's stand-in).
	if !ok || m.Score <= looseScore {
		for _, f := range forms(strings.Join(ws, " ")) {
			if rel, found := relatives[f]; found {
				if r, hit := l.direct(phrase, strings.Fields(rel)); hit {
					return substitute(r, phrase, rel, r.Category), true
				}
			}
		}
	}
	if ok {
		return m, true
	}
	// "coffee cup with steam", "sailboat on waves": the subject comes before the
	// first preposition; the rest is its setting.
	for i, w := range ws {
		if i > 0 && prepositions[w] {
			m, ok := l.Find(strings.Join(ws[:i], " "))
			m.Query = phrase
			return m, ok
		}
	}
	// Colours, sizes and moods describe the subject, they are not it: "red car" is
	// depicted by a car without substitution ("red heart" and "black cat" matched above).
	var core []string
	for _, w := range ws {
		if !modifiers[w] {
			core = append(core, w)
		}
	}
	if len(core) > 0 && len(core) < len(ws) {
		if m, ok := l.direct(phrase, core); ok {
			return m, true
		}
		if m, ok := l.lexiconMatch(strings.Join(core, " "), false); ok {
			m.Query = phrase
			return m, true
		}
		ws = core
	}
	// The head noun of a longer phrase, when a drawing is named by it or WordNet leads
	// it to one: a drawing that only lists the word among its keywords or in a longer
	// name is something else ("door sign" is no "sign of the horns", "toast slices" no
	// pizza), and a thing not drawn is better than a wrong one.
	for i := 1; i < len(ws); i++ {
		if notByHead(ws, i) {
			continue
		}
		if m, ok := l.direct(phrase, ws[i:]); ok && m.Score >= 99 {
			return substitute(m, phrase, strings.Join(ws[i:], " "), ""), true
		}
		if m, ok := l.lexiconMatch(strings.Join(ws[i:], " "), false); ok && !narrower(strings.Join(ws[i:], " ")) {
			return substitute(m, phrase, strings.Join(ws[i:], " "), ""), true
		}
	}
	// A relative of the same category.
	for i := 0; i < len(ws); i++ {
		if i > 0 && notByHead(ws, i) {
			continue
		}
		for _, f := range forms(strings.Join(ws[i:], " ")) {
			if rel, ok := relatives[f]; ok {
				if m, ok := l.direct(phrase, strings.Fields(rel)); ok {
					return substitute(m, phrase, rel, m.Category), true
				}
			}
		}
	}
	// A close spelling of the head noun ("giraff", "elefant").
	head := ws[len(ws)-1]
	if len([]rune(head)) >= 4 && !KnownNoun(head) {
		// Names first: they are nouns, where keywords are often adjectives ("elegant").
		best, bestD := "", maxTypos(head)+1
		for _, pool := range []map[string][]*Asset{l.nameWords, l.byWord} {
			for w := range pool {
				d := editDistance(head, w, maxTypos(head)+1)
				if d == 0 || d > maxTypos(head) {
					continue
				}
				if d < bestD || (d == bestD && w < best) {
					best, bestD = w, d
				}
			}
			if best != "" {
				break
			}
		}
		if best != "" {
			if m, ok := l.direct(phrase, []string{best}); ok {
				return substitute(m, phrase, best, ""), true
			}
		}
	}
	return Match{}, false
}

// notByHead reports whether the words from i on, the head of a longer phrase, may not
// stand for the whole: WordNet knows the whole phrase and it leads to no drawing (a
// water tank is a cistern, no army tank), or a word before the head speaks of a sense
// of it the head's drawing does not show ("canal lock", "computer mouse" when the
// mouse drawn is the animal).
func notByHead(ws []string, i int) bool {
	if NothingDrawn(strings.Join(ws, " ")) {
		return true
	}
	head := strings.Join(ws[i:], " ")
	for _, f := range forms(head) {
		if OtherSense(strings.Join(ws[:i], " "), f) {
			return true
		}
	}
	return false
}

// narrower reports whether the lexicon draws a phrase only by a kind of it (paper by
// confetti): fine for the word alone, too loose for the head of a longer phrase.
func narrower(phrase string) bool {
	for _, f := range forms(phrase) {
		if s, ok := Lexicon(f); ok {
			return s.Depth < 0
		}
	}
	return false
}

// Compound returns the lexicon's drawing for a phrase of several words that WordNet
// knows whole ("fire truck", "baseball glove", "coffee table"): an exact compound beats
// its head noun, even when it is drawn as a relative.
func Compound(phrase string) (Match, bool) {
	ws := normalize(phrase)
	if len(ws) < 2 || slices.ContainsFunc(ws, func(w string) bool { return prepositions[w] }) {
		return Match{}, false
	}
	return Default().lexiconMatch(phrase, false)
}

// lexiconMatch is the lexicon's drawing for the phrase (as given or made singular);
// rare nouns (Sense.Rare) only when the caller knows the word is a noun.
func (l *Library) lexiconMatch(phrase string, noun bool) (Match, bool) {
	ws := normalize(phrase)
	if len(ws) == 0 {
		return Match{}, false
	}
	fs := forms(strings.Join(ws, " "))
	if len(ws) > 1 && !slices.ContainsFunc(ws, func(w string) bool { return len(w) < 3 || prepositions[w] }) {
		fs = append(fs, strings.Join(ws, "")) // "cell phone": WordNet's "cellphone" (never "pin to": a pinto)
	}
	for _, f := range fs {
		s, ok := Lexicon(f)
		if !ok || s.Rare && !noun {
			continue
		}
		a, ok := l.byID[s.ID]
		if !ok {
			continue // a lexicon built from another library
		}
		m := Match{Asset: a, Query: phrase, Score: 99}
		switch {
		case s.Depth > 0:
			m.Score = 90 - float64(s.Depth)
			m = substitute(m, phrase, s.Via, "")
			m.Message += fmt.Sprintf(" (WordNet: a %s is a kind of %s)", f, s.Via)
		case s.Depth < 0:
			// The drawing is of a kind of the thing (a fridge for "a refrigerator"): it
			// depicts one, so it stands as drawn, just below the thing's own name.
			m.Score = 95
		}
		return m, true
	}
	return Match{}, false
}

func maxTypos(w string) int {
	if len([]rune(w)) >= 7 {
		return 2
	}
	return 1
}

func substitute(m Match, phrase, used, category string) Match {
	m.Substituted = true
	shown := m.Name
	if m.Label != "" {
		shown = m.Label
	}
	msg := fmt.Sprintf("no illustration of %q; used %q (%s)", strings.TrimSpace(phrase), shown, m.ID)
	if used != shown && used != m.Name {
		msg = fmt.Sprintf("no illustration of %q; used %q for %q (%s)", strings.TrimSpace(phrase), shown, used, m.ID)
	}
	if category != "" {
		msg += ", the nearest in " + category
	}
	m.Message = msg
	return m
}

// direct finds the best asset depicting the words themselves (with plural and synonym
// forms), or false when nothing scores minScore.
func (l *Library) direct(phrase string, ws []string) (Match, bool) {
	ms := l.scored(phrase, ws, false)
	if len(ms) == 0 || ms[0].Score < minScore {
		return Match{}, false
	}
	return ms[0], true
}

// Search returns up to n assets for a free query, best first: everything Find would
// consider, then assets matching some of the words.
func (l *Library) Search(query string, n int) []Match {
	ws := normalize(query)
	if len(ws) == 0 || n <= 0 {
		return nil
	}
	ms := l.scored(query, ws, true)
	if len(ms) > n {
		ms = ms[:n]
	}
	return ms
}

// scored ranks the assets for the phrase's forms.
func (l *Library) scored(phrase string, ws []string, partial bool) []Match {
	q := strings.Join(ws, " ")
	type variant struct {
		q       string
		penalty float64
	}
	var vs []variant
	seen := map[string]bool{}
	add := func(s string, p float64) {
		if s != "" && !seen[s] {
			seen[s] = true
			vs = append(vs, variant{s, p})
		}
	}
	fs := forms(q)
	for _, f := range fs {
		add(f, 0)
	}
	// A synonym is near as good as the word: a curated synonym names the asset a
	// person means ("car" is the automobile illustration, not the racing car).
	for _, f := range fs {
		if syn, ok := synonyms[f]; ok {
			add(syn, -1)
		}
	}
	ui := false
	for _, f := range fs {
		ui = ui || uiWords[f]
	}
	best := map[*Asset]float64{}
	for _, v := range vs {
		if a, ok := l.byID[v.q]; ok { // a synonym naming an asset
			best[a] = 101 + v.penalty
			continue
		}
		vws := strings.Fields(v.q)
		for _, a := range l.candidates(vws) {
			s := score(a, v.q, vws)
			if s == 0 {
				continue
			}
			s += v.penalty + setBias(a, ui)
			if s > best[a] {
				best[a] = s
			}
		}
	}
	if partial {
		// Assets matching some of the words, below every full match.
		for _, w := range ws {
			for _, f := range forms(w) {
				for _, a := range l.byWord[f] {
					if _, ok := best[a]; ok {
						continue
					}
					s := 20 / float64(len(ws))
					if containsAll(a.nameWs, []string{f}) {
						s += 10
					}
					best[a] = s + setBias(a, ui)/4
				}
			}
		}
	}
	out := make([]Match, 0, len(best))
	for a, s := range best {
		out = append(out, Match{Asset: a, Query: phrase, Score: s})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		// More common emoji first (CLDR order; 0 means none), then shorter names.
		ao, bo := a.order, b.order
		if ao == 0 {
			ao = 1 << 30
		}
		if bo == 0 {
			bo = 1 << 30
		}
		if ao != bo {
			return ao < bo
		}
		if len(a.Name) != len(b.Name) {
			return len(a.Name) < len(b.Name)
		}
		return a.ID < b.ID
	})
	return out
}

// candidates are the assets with every word somewhere in their name, label or keywords.
func (l *Library) candidates(ws []string) []*Asset {
	if len(ws) == 0 {
		return nil
	}
	base := l.byWord[ws[0]]
	if len(ws) == 1 {
		return base
	}
	var out []*Asset
	for _, a := range base {
		all := true
		for _, w := range ws[1:] {
			if !a.hasWord(w) {
				all = false
				break
			}
		}
		if all {
			out = append(out, a)
		}
	}
	return out
}

func (a *Asset) hasWord(w string) bool {
	for _, p := range append([]string{a.Name, a.Label}, a.Keywords...) {
		for _, x := range strings.Fields(p) {
			if x == w {
				return true
			}
		}
	}
	return false
}

// kindOf reports whether a name ends in the phrase as its head: "vertical traffic
// light" of "traffic light", not "eye in speech bubble" of "speech bubble".
func kindOf(name, phrase string) bool {
	if !strings.HasSuffix(name, " "+phrase) {
		return false
	}
	for _, w := range strings.Fields(strings.TrimSuffix(name, phrase)) {
		if prepositions[w] || w == "and" || w == "of" {
			return false
		}
	}
	return true
}

// score: the exact name or CLDR label, then a whole keyword, then every word in the
// name (fewer extra words is closer), then every word among the keywords.
func score(a *Asset, q string, ws []string) float64 {
	if a.Name == q || a.Label == q {
		return 100
	}
	for _, k := range a.Keywords {
		if k == q {
			if looseKeyword(a.ID, k) {
				return looseScore
			}
			return 75
		}
	}
	// A name that ends in the phrase names a kind of it: a vertical traffic light is
	// a traffic light (an eye in a speech bubble is no speech bubble).
	if len(ws) > 1 && (kindOf(a.Name, q) || kindOf(a.Label, q)) {
		return 99
	}
	if in := containsAll(a.nameWs, ws); in || containsAll(strings.Fields(a.Label), ws) {
		n := len(a.nameWs)
		if !in {
			n = len(strings.Fields(a.Label))
		}
		return 70 - 2*float64(n-len(ws))
	}
	if len(ws) > 1 {
		// Words scattered over several keywords ("flying" and "bird" of a wing) are
		// only a hint: below what Find accepts, still listed by Search.
		return 40
	}
	return 50
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			if h == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// setBias prefers the illustrated sets for subjects and the line icons for UI words.
func setBias(a *Asset, ui bool) float64 {
	switch {
	case ui && a.Stroke:
		return 0
	case ui:
		return -25
	case a.Stroke:
		return -30
	case a.Set == "noto":
		return -2
	}
	return 0
}

// modifiers describe a subject without naming it.
var modifiers = map[string]bool{
	"red": true, "blue": true, "green": true, "yellow": true, "orange": true, "purple": true, "pink": true,
	"black": true, "white": true, "grey": true, "gray": true, "brown": true, "golden": true, "gold": true,
	"silver": true, "teal": true, "navy": true, "cream": true, "pastel": true, "neon": true, "colorful": true,
	"colourful": true, "big": true, "small": true, "little": true, "tiny": true, "huge": true, "giant": true,
	"large": true, "cute": true, "happy": true, "sad": true, "shiny": true, "bright": true, "glowing": true,
	"cartoon": true, "simple": true, "minimal": true, "flat": true, "animated": true, "cool": true, "old": true,
	"new": true, "lonely": true, "single": true, "lone": true, "friendly": true, "funny": true, "fast": true,
	"slow": true, "spinning": true, "bouncing": true, "flying": true, "floating": true, "rotating": true,
	"smiling": true, "modern": true, "retro": true, "vintage": true, "tall": true, "short": true, "round": true,
}

var prepositions = map[string]bool{"with": true, "on": true, "in": true, "over": true, "under": true,
	"at": true, "from": true, "to": true, "and": true, "into": true, "across": true, "through": true,
	"above": true, "below": true, "near": true, "beside": true, "behind": true, "around": true, "inside": true}

// stopWords never name a subject.
var stopWords = map[string]bool{"a": true, "an": true, "the": true, "some": true, "my": true, "our": true,
	"your": true, "their": true, "his": true, "her": true, "its": true, "this": true, "that": true}

// normalize lower-cases a phrase into words: hyphens and underscores separate words,
// other punctuation goes.
func normalize(s string) []string {
	s = strings.ToLower(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case r == '\'' || r == '’':
		default:
			b.WriteByte(' ')
		}
	}
	var out []string
	for _, w := range strings.Fields(b.String()) {
		if !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// forms are the phrase as given, then with its last word (and then every word) made
// singular: the ways a library name may spell it.
func forms(q string) []string {
	out := []string{q}
	ws := strings.Fields(q)
	if len(ws) == 0 {
		return out
	}
	for _, s := range singulars(ws[len(ws)-1]) {
		out = append(out, strings.Join(append(append([]string(nil), ws[:len(ws)-1]...), s), " "))
	}
	if len(ws) > 1 {
		all := make([]string, len(ws))
		for i, w := range ws {
			all[i] = w
			if s := singulars(w); len(s) > 0 {
				all[i] = s[0]
			}
		}
		out = append(out, strings.Join(all, " "))
	}
	return out
}

var irregular = map[string]string{"leaves": "leaf", "knives": "knife", "wolves": "wolf", "mice": "mouse",
	"geese": "goose", "feet": "foot", "teeth": "tooth", "children": "child", "people": "person", "men": "man",
	"women": "woman", "oxen": "ox", "cacti": "cactus", "dice": "die", "loaves": "loaf", "lives": "life",
	"shelves": "shelf", "calves": "calf", "halves": "half", "wives": "wife", "thieves": "thief", "scarves": "scarf",
	"elves": "elf", "dwarves": "dwarf", "octopi": "octopus", "fungi": "fungus", "buses": "bus", "gases": "gas"}

// singulars are the possible singular forms of a word (none when it does not look
// plural); the library's vocabulary decides which one exists.
func singulars(w string) []string {
	if s, ok := irregular[w]; ok {
		return []string{s}
	}
	n := len(w)
	if n < 3 || !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is") {
		return nil
	}
	var out []string
	switch {
	case strings.HasSuffix(w, "ies") && n > 4:
		out = append(out, w[:n-3]+"y")
	case strings.HasSuffix(w, "ves"):
		out = append(out, w[:n-3]+"f", w[:n-3]+"fe")
	case strings.HasSuffix(w, "oes"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zes"),
		strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "sses"):
		out = append(out, w[:n-2])
	}
	return append(out, w[:n-1])
}

// editDistance is the optimal string alignment distance (Levenshtein with two
// neighbouring letters swapped counted as one typo: "clcok" is one from "clock"), or
// limit when it is at least limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d >= limit || -d >= limit {
		return limit
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	lowPrev := 0
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			low = min(low, cur[j])
		}
		// A row reads the two before it: past the limit only when both are.
		if low >= limit && lowPrev >= limit {
			return limit
		}
		lowPrev = low
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(rb)], limit)
}
