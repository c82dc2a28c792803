package builtin

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/kodahq/koda"
)

// Scene roles. A plan scene's ID carries its roles ("s2-action.0+text.1") so the plan,
// which users approve and the store keeps, is all Generate needs besides the prompt.
const (
	roleIntro  = "intro"
	roleAction = "action" // index: the prompt's beat
	roleText   = "text"   // index: position among the plan's texts
	roleDetail = "detail" // index: variation number
	roleOutro  = "outro"
)

// Planning rules of the specification.
const (
	minSceneS    = 1.5
	longVideoS   = 30.0
	timeQuantumS = 0.05
)

type role struct {
	Kind  string
	Index int
}

func (r role) String() string {
	if r.Kind == roleIntro || r.Kind == roleOutro {
		return r.Kind
	}
	return r.Kind + "." + strconv.Itoa(r.Index)
}

var roleWeight = map[string]float64{roleIntro: 1, roleAction: 1.5, roleText: 1.3, roleDetail: 1, roleOutro: 1}

type board struct {
	Style     koda.Style // as chosen (may be custom)
	Base      koda.Style // the style table row used
	StyleNote string
	Total     float64
	Scenes    [][]role
	Texts     []string
	Palette   palette
}

// sceneCountRange is the specification's rule: 3–7 scenes under 30 s, 5–12 from 30 s, and
// never more than fit at 1.5 s each (which wins for videos under 4.5 s).
func sceneCountRange(total float64) (lo, hi int) {
	lo, hi = 3, 7
	if total >= longVideoS {
		lo, hi = 5, 12
	}
	fit := int(math.Floor(total/minSceneS + 1e-9))
	if fit < 1 {
		fit = 1
	}
	return min(lo, fit), min(hi, fit)
}

// newBoard lays out the storyboard for a brief: intro, one scene per beat, a scene per
// quoted text not yet shown, an outro; merged or extended to the allowed scene count.
func newBoard(b *brief, style koda.Style, note string, total float64) *board {
	bd := &board{Style: style, Base: baseStyle(style, note), StyleNote: note, Total: total, Texts: append([]string(nil), b.Texts...)}
	bd.Scenes = append(bd.Scenes, []role{{Kind: roleIntro}})
	shown := map[int]bool{}
	for i, bt := range b.Beats {
		var sc []role
		if len(bt.Actions) > 0 || len(bt.Subjects) > 0 {
			// Quoted words that do the verb themselves ("'LAUNCH' slams onto the screen")
			// play it in their own text scene.
			if !(len(bt.Quotes) > 0 && onlyAppear(bt.Actions) && len(bt.Subjects) == 0) && b.wordsAct(i) < 0 {
				sc = append(sc, role{Kind: roleAction, Index: i})
			}
		}
		for _, q := range bt.Quotes {
			if !shown[q] && !quoteBelongsToSubject(b, bt) && !titlesData(b, q) {
				sc = append(sc, role{Kind: roleText, Index: q})
				shown[q] = true
			}
		}
		if len(sc) > 0 {
			bd.Scenes = append(bd.Scenes, sc)
		}
	}
	for q := range b.Texts {
		if !shown[q] && !quoteOnLogoOrCard(b, q) && !titlesData(b, q) {
			bd.Scenes = append(bd.Scenes, []role{{Kind: roleText, Index: q}})
		}
	}
	if len(bd.Scenes) == 1 {
		bd.Scenes = append(bd.Scenes, []role{{Kind: roleAction, Index: -1}})
	}
	bd.Scenes = append(bd.Scenes, []role{{Kind: roleOutro}})
	bd.fitCount(0)
	bd.Palette = choosePalette(b, bd.Base)
	return bd
}

func onlyAppear(actions []string) bool {
	for _, a := range actions {
		if a != "appear" && a != "fade" && a != "type" && a != "pop" {
			return false
		}
	}
	return true
}

// quoteBelongsToSubject: a quote in the same clause as a logo or card names it.
func quoteBelongsToSubject(b *brief, bt beat) bool {
	for _, si := range bt.Subjects {
		if k := b.Subjects[si].Kind; k == "logo" || k == "card" || k == "progress" || k == "counter" {
			return true
		}
		if iconVariants[b.Subjects[si].Noun] == "chat" {
			return true // the words said in a speech bubble are drawn inside it
		}
	}
	return false
}

// titlesData: quote q is a chart's title, which the chart writes itself.
func titlesData(b *brief, q int) bool {
	for _, s := range b.Subjects {
		if s.Data != nil && s.Data.Title != "" && strings.EqualFold(s.Data.Title, strings.TrimSpace(b.Texts[q])) {
			return true
		}
	}
	return false
}

func quoteOnLogoOrCard(b *brief, q int) bool {
	for _, bt := range b.Beats {
		for _, bq := range bt.Quotes {
			if bq == q && quoteBelongsToSubject(b, bt) {
				return true
			}
		}
	}
	return false
}

// fitCount merges or adds scenes until the count is within the rules; want > 0 asks for
// a specific count (feedback "more scenes").
func (bd *board) fitCount(want int) {
	lo, hi := sceneCountRange(bd.Total)
	target := len(bd.Scenes)
	// Longer videos get more scenes: about one per 5 s below 30 s, one per 15 s above.
	per := 5.0
	if bd.Total >= longVideoS {
		per = 15
	}
	target = max(target, int(math.Ceil(bd.Total/per)))
	if want > 0 {
		target = want
	}
	target = min(max(target, lo), hi)
	for len(bd.Scenes) > target {
		bd.mergeOnce()
	}
	for v := 0; len(bd.Scenes) < target; v++ {
		at := len(bd.Scenes) - 1 // before the outro
		bd.Scenes = append(bd.Scenes[:at], append([][]role{{{Kind: roleDetail, Index: v}}}, bd.Scenes[at:]...)...)
	}
}

func (bd *board) mergeOnce() {
	n := len(bd.Scenes)
	kind := func(i int) string { return bd.Scenes[i][0].Kind }
	merge := func(i int) { // scene i+1 joins scene i
		bd.Scenes[i] = append(bd.Scenes[i], bd.Scenes[i+1]...)
		bd.Scenes = append(bd.Scenes[:i+1], bd.Scenes[i+2:]...)
	}
	for i := 0; i+1 < n; i++ {
		if kind(i) == roleDetail && kind(i+1) == roleDetail {
			merge(i)
			return
		}
	}
	for i := 0; i+1 < n; i++ {
		if kind(i) == roleAction && kind(i+1) == roleAction {
			merge(i)
			return
		}
	}
	if n > 1 && kind(n-1) == roleOutro && len(bd.Scenes[n-1]) == 1 {
		merge(n - 2)
		return
	}
	if n > 1 && kind(0) == roleIntro && len(bd.Scenes[0]) == 1 {
		merge(0)
		return
	}
	// Otherwise join the pair with the least combined weight.
	best, bestW := 0, math.Inf(1)
	for i := 0; i+1 < n; i++ {
		if w := bd.weight(i) + bd.weight(i+1); w < bestW {
			best, bestW = i, w
		}
	}
	merge(best)
}

func (bd *board) weight(i int) float64 {
	w := 0.0
	for _, r := range bd.Scenes[i] {
		w += roleWeight[r.Kind]
	}
	return w
}

// timings gives every scene 1.5 s and shares the rest by weight, on a 0.05 s grid, so the
// scenes are contiguous from 0 to exactly Total.
func (bd *board) timings() []float64 {
	n := len(bd.Scenes)
	bounds := make([]float64, n+1)
	if n == 1 || bd.Total < minSceneS*float64(n) {
		for i := range bounds {
			bounds[i] = bd.Total * float64(i) / float64(n)
		}
		bounds[n] = bd.Total
		return bounds
	}
	extra := bd.Total - minSceneS*float64(n)
	sum := 0.0
	for i := range bd.Scenes {
		sum += bd.weight(i)
	}
	cum := 0.0
	for i := 1; i < n; i++ {
		cum += bd.weight(i-1) / sum * extra
		// Flooring a non-decreasing sequence keeps it non-decreasing: no scene under 1.5 s.
		bounds[i] = minSceneS*float64(i) + math.Floor(cum/timeQuantumS+1e-9)*timeQuantumS
		bounds[i] = math.Round(bounds[i]*1000) / 1000
	}
	bounds[n] = bd.Total
	return bounds
}

// plan writes the board as a koda.Plan.
func (bd *board) plan(b *brief, revision int, feedback string) *koda.Plan {
	sp := styleTable[bd.Base]
	bounds := bd.timings()
	pl := &koda.Plan{
		Title:     planTitle(b, bd),
		Style:     bd.Style,
		DurationS: bd.Total,
		Revision:  revision,
		Feedback:  feedback,
	}
	for i, roles := range bd.Scenes {
		ids := make([]string, len(roles))
		for j, r := range roles {
			ids[j] = r.String()
		}
		sc := koda.Scene{
			ID:     fmt.Sprintf("s%d-%s", i+1, strings.Join(ids, "+")),
			StartS: bounds[i],
			EndS:   bounds[i+1],
		}
		var names, descs, entries, holds, exits []string
		for _, r := range roles {
			d := describeRole(b, bd, r, sp)
			names = append(names, d.name)
			descs = append(descs, d.desc)
			entries = append(entries, d.entry)
			holds = append(holds, d.hold)
			exits = append(exits, d.exit)
			if sc.Easing == "" {
				sc.Easing = d.easing
			}
		}
		sc.Name = strings.Join(names, " + ")
		sc.Description = strings.Join(descs, " ")
		if i == 0 {
			sc.Description += " " + bd.Palette.String(b)
			if row := detectGenre(b.Prompt); row != nil {
				sc.Description += fmt.Sprintf(" Layout: a %s (%s), filled from the prompt.", row.Name, strings.Join(row.Slots, ", "))
			}
			if !readsAsEnglish(b.Prompt) {
				sc.Description += " The prompt does not read as English: I drew what I could read in it (quoted words, numbers, colours, any English words); written in English it gets the full reading."
			}
		}
		sc.Entry = strings.Join(entries, " ")
		sc.Hold = strings.Join(holds, " ")
		sc.Exit = strings.Join(exits, " ")
		pl.Scenes = append(pl.Scenes, sc)
	}
	// What a chart's reading made up because the prompt did not give it is said, never
	// drawn as if it were data.
	for _, s := range b.Subjects {
		if s.Data != nil && s.Data.Note != "" {
			pl.Notes = append(pl.Notes, "The "+dataSubjectNoun[s.Data.Kind]+": "+s.Data.Note+".")
		}
	}
	pl.Todos = append(pl.Todos, koda.Todo{ID: TodoSetup, Title: "Set up the canvas runtime and page", Status: koda.TodoPending})
	for i, sc := range pl.Scenes {
		pl.Todos = append(pl.Todos, koda.Todo{ID: fmt.Sprintf("scene-%d", i+1),
			Title: fmt.Sprintf("Create scene %d (%s) keyframes", i+1, sc.Name), Status: koda.TodoPending})
	}
	pl.Todos = append(pl.Todos,
		koda.Todo{ID: TodoPolish, Title: "Polish: shadows, background, camera and effects", Status: koda.TodoPending},
		koda.Todo{ID: TodoPreview, Title: "Render preview", Status: koda.TodoPending})
	return pl
}

// Todo IDs outside the per-scene ones.
const (
	TodoSetup  = "setup"
	TodoPolish = "polish"
	// TodoPreview is left pending by Generate: the preview render that follows it is the
	// caller's work, and the caller marks it done.
	TodoPreview = "preview"
)

func planTitle(b *brief, bd *board) string {
	var parts []string
	if s := primarySubject(b); s != nil {
		noun := s.Noun
		if name := colorName(bd.Palette.subjectColor(b, 0)); name != "" && !strings.HasPrefix(name, "#") && s.Kind != "particles" {
			noun = name + " " + noun // (a shade without a name is no word of a title)
		}
		act := ""
		if len(b.Actions) > 0 {
			act = " " + b.Actions[0]
		}
		parts = append(parts, capitalize(noun+act))
	}
	if len(bd.Texts) > 0 {
		parts = append(parts, "“"+bd.Texts[0]+"”")
	}
	if len(parts) == 0 {
		parts = append(parts, "Abstract motion")
	}
	return strings.Join(parts, " · ")
}

type roleDesc struct{ name, desc, entry, hold, exit, easing string }

func subjectPhrase(b *brief, bd *board) string {
	s := primarySubject(b)
	if s == nil {
		return "the shapes"
	}
	if s.Kind == "particles" {
		return "the " + s.Noun
	}
	if name := colorName(bd.Palette.subjectColor(b, 0)); name != "" {
		return "the " + name + " " + s.Noun
	}
	return "the " + s.Noun
}

func describeRole(b *brief, bd *board, r role, sp styleParams) roleDesc {
	subj := subjectPhrase(b, bd)
	switch r.Kind {
	case roleIntro:
		return roleDesc{
			name:   "Intro",
			desc:   fmt.Sprintf("Open on the background; %s enters (%s).", subj, sp.Motion),
			entry:  fmt.Sprintf("%s enters with %s.", capitalize(subj), sp.Entry),
			hold:   "Settles with a gentle idle motion.",
			exit:   "Hands over to the next beat without a cut.",
			easing: sp.Entry,
		}
	case roleAction:
		acts, what := actionsFor(b, r.Index), ""
		if r.Index >= 0 && r.Index < len(b.Beats) {
			what = b.Beats[r.Index].Text
		}
		if what == "" {
			what = subj + " moves (" + sp.Motion + ")"
		}
		name := "Main motion"
		if len(acts) > 0 {
			name = capitalize(acts[0])
			if r.Index >= 0 && r.Index < len(b.Beats) && b.Beats[r.Index].Across {
				name += " across"
			}
		}
		return roleDesc{
			name:   name,
			desc:   capitalize(restoreQuotes(what, bd.Texts)) + ".",
			entry:  fmt.Sprintf("%s starts to %s with %s.", capitalize(subj), orDefault(strings.Join(acts, " and "), "move"), sp.Action),
			hold:   "The motion carries through the middle of the scene.",
			exit:   "Eases out into a resting pose.",
			easing: sp.Action,
		}
	case roleText:
		text := ""
		if r.Index >= 0 && r.Index < len(bd.Texts) {
			text = bd.Texts[r.Index]
		}
		return roleDesc{
			name:   "Title reveal",
			desc:   fmt.Sprintf("The text %q appears large and centred (%s reveal).", text, sp.Reveal),
			entry:  fmt.Sprintf("Letters %s in with %s.", revealVerb(sp.Reveal), sp.Entry),
			hold:   "The title holds, breathing slightly.",
			exit:   "Stays on screen into the next scene.",
			easing: sp.Entry,
		}
	case roleDetail:
		v := detailVariants[bd.Base][r.Index%len(detailVariants[bd.Base])]
		return roleDesc{
			name:   v.name,
			desc:   fmt.Sprintf("%s: %s.", v.name, strings.ReplaceAll(v.desc, "SUBJ", subj)),
			entry:  "Starts from the previous pose.",
			hold:   strings.ReplaceAll(v.desc, "SUBJ", subj) + ".",
			exit:   "Returns to rest.",
			easing: sp.Action,
		}
	default:
		return roleDesc{
			name:   "Outro",
			desc:   fmt.Sprintf("Everything settles into the final frame; the camera eases in (%s).", sp.Exit),
			entry:  "Motion slows down.",
			hold:   "Final composition holds, still breathing slightly.",
			exit:   fmt.Sprintf("Gentle settle with %s; the last frame stays readable.", sp.Exit),
			easing: sp.Exit,
		}
	}
}

type variant struct{ name, desc string }

var detailVariants = map[koda.Style][]variant{
	koda.StylePlayful: {
		{"Squash and hop", "SUBJ hops in place with exaggerated squash and stretch"},
		{"Wiggle", "SUBJ wiggles and pops bigger with an elastic overshoot"},
		{"Spin", "SUBJ does a happy spin with easeOutBack"},
		{"Confetti", "a burst of confetti around SUBJ"},
	},
	koda.StyleSmooth: {
		{"Drift", "SUBJ drifts sideways as the camera glides"},
		{"Breathe", "SUBJ breathes: a slow scale pulse"},
		{"Float", "SUBJ floats gently up and down"},
		{"Turn", "SUBJ turns slowly on its axis"},
	},
	koda.StyleCinematic: {
		{"Camera push", "the camera pushes in slowly on SUBJ"},
		{"Orbit", "SUBJ circles as dust drifts past in depth"},
		{"Rise", "SUBJ rises while the light shifts"},
		{"Pull back", "the camera pulls back to reveal the whole frame"},
	},
}

func revealVerb(r string) string {
	switch r {
	case "pop":
		return "pop"
	case "track":
		return "fade and tighten"
	}
	return "rise"
}

func actionsFor(b *brief, beatIdx int) []string {
	if beatIdx >= 0 && beatIdx < len(b.Beats) {
		var out []string
		for _, a := range b.Beats[beatIdx].Actions {
			if a != "appear" || len(b.Beats[beatIdx].Actions) == 1 {
				out = append(out, a)
			}
		}
		return out
	}
	return nil
}

func restoreQuotes(s string, texts []string) string {
	return quotePH.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(m, "«q"), "»"))
		if n < len(texts) {
			return "“" + texts[n] + "”"
		}
		return m
	})
}

var quotePH = regexp.MustCompile(`«q[0-9]+»`)

func capitalize(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func primarySubject(b *brief) *subject {
	for i := range b.Subjects {
		if b.Subjects[i].Kind != "particles" {
			return &b.Subjects[i]
		}
	}
	if len(b.Subjects) > 0 {
		return &b.Subjects[0]
	}
	return nil
}

// colorName gives the name of a hex colour from the table, or the hex itself.
func colorName(hex string) string {
	if hex == "" {
		return ""
	}
	for _, n := range colorNameOrder {
		if namedColors[n] == hex {
			return n
		}
	}
	return hex
}

var colorNameOrder = []string{"red", "orange", "yellow", "green", "blue", "purple", "pink", "teal", "cyan",
	"white", "black", "gray", "gold", "navy", "brown", "crimson", "scarlet", "maroon", "amber", "lime", "mint",
	"emerald", "olive", "turquoise", "sky", "azure", "cobalt", "indigo", "violet", "lavender", "magenta", "rose",
	"coral", "salmon", "peach", "beige", "tan", "silver", "charcoal", "grey", "golden", "aqua", "cream", "ivory", "midnight", "mustard", "burgundy", "sage", "khaki", "blush"}

// englishWords are the words nearly every English sentence has.
var englishWords = map[string]bool{"the": true, "a": true, "an": true, "and": true, "of": true, "to": true,
	"in": true, "on": true, "with": true, "is": true, "for": true, "at": true, "from": true, "by": true,
	"it": true, "that": true, "then": true, "as": true, "while": true, "into": true, "over": true, "under": true,
	"its": true, "our": true, "my": true, "your": true, "this": true, "are": true, "up": true}

// readsAsEnglish: a prompt of five words or more has some of the words every English
// sentence uses ("Un chat saute sur la table" has none); a long one has two kinds of
// them at least, as one "a" or "on" is a word of French or Spanish too ("una a una").
func readsAsEnglish(prompt string) bool {
	ws := wordRE.FindAllString(strings.ToLower(quoteRE.ReplaceAllString(prompt, " ")), -1)
	if len(ws) < 5 {
		return true
	}
	seen := map[string]bool{}
	for _, w := range ws {
		if englishWords[w] {
			seen[w] = true
		}
	}
	return len(seen) >= 2 || len(seen) == 1 && len(ws) < 12
}
