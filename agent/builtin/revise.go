package builtin

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
)

// Easing swaps for "smoother" and "bouncier" feedback.
var (
	toSmooth = map[string]string{
		"easeOutBack": "easeOutQuint", "easeOutElastic": "easeInOutCubic", "easeInBack": "easeInOutCubic",
		"easeInOutBack": "easeInOutCubic", "easeOutBounce": "easeOutQuint", "linear": "easeInOutSine",
		"easeInOutQuart": "easeInOutCubic", "cubic-bezier(0.7, 0, 0.2, 1)": "easeInOutCubic",
	}
	toBouncy = map[string]string{
		"easeOutQuint": "easeOutBack", "easeInOutCubic": "easeOutElastic", "easeOutCubic": "easeOutBack",
		"easeInOutQuart": "easeOutBack", "easeInOutSine": "easeOutBack", "cubic-bezier(0.7, 0, 0.2, 1)": "easeOutElastic",
	}
)

type revision struct {
	d       *scene.Description
	notes   []string
	conflit string
	// presets bound the length a revision may give the video; shortened says why it
	// got less than was asked.
	presets   []koda.PresetSpec
	shortened string
}

// Revise applies feedback to scene.json and regenerates scene.js; runtime.js and
// index.html are never touched. When timing or colours change it also updates p.Plan
// and p.DurationS so the caller renders the right length; the caller persists p. The
// returned message says what changed, with the parameter diff.
func (a *Agent) Revise(ctx context.Context, p *koda.Project, feedback string, sb koda.Sandbox, r koda.Reporter) (string, error) {
	raw, err := sb.ReadFile(ctx, scene.FileJSON, 0, 0)
	if err != nil {
		if koda.ErrorCode(err) == koda.CodeFileNotFound {
			// Not ours (or lost): generate afresh with the feedback folded into the plan.
			r.Thinking(ctx, "No scene.json: regenerating")
			if p.Plan != nil {
				pl, perr := a.Plan(ctx, p, feedback)
				if perr != nil {
					return "", perr
				}
				p.Plan = pl
			}
			if gerr := a.Generate(ctx, p, sb, r); gerr != nil {
				return "", gerr
			}
			return "I rebuilt the animation with your feedback, as its scene description was missing.", nil
		}
		return "", fmt.Errorf("revise %s: read scene: %w", p.ID, err)
	}
	d, err := scene.Parse(raw)
	if err != nil {
		return "", &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeAgentFailed, Message: "The scene description in the sandbox is invalid.", Err: err}
	}
	r.Thinking(ctx, "Reading your feedback")
	rv := &revision{d: d, presets: p.Presets}
	oldDur := d.Duration
	colorChanged := rv.apply(analyzeProject(p), feedback)
	if len(rv.notes) == 0 {
		if rv.shortened != "" {
			return rv.shortened + " The animation is unchanged.", nil
		}
		return fmt.Sprintf("I could not tie %q to a parameter I can change (timing, bounce height, size, colours, easing, text), so the animation is unchanged. Try e.g. \"make the bounce higher\", \"slower\", \"the ball should be red\" or \"add the text 'Launch day'\".", feedback), nil
	}
	// A revision can push a subject out of frame or text onto another element (bigger,
	// higher bounce, new words): the critic looks again before the new preview.
	fixes, err := a.critique(ctx, d, projectFrames(analyzeProject(p), p), p.ID, sb.Dir())
	if err != nil {
		return "", err
	}
	if err := d.Validate(); err != nil {
		return "", &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeAgentFailed, Message: "The revised scene is invalid.", Err: err}
	}
	js, err := d.JSON()
	if err != nil {
		return "", err
	}
	script, err := d.Script()
	if err != nil {
		return "", err
	}
	r.Thinking(ctx, truncate("Updating "+strings.Join(rv.notes, ", "), 50))
	for _, f := range []struct {
		path string
		data []byte
	}{{scene.FileJSON, js}, {scene.FileScene, script}} {
		n, err := sb.WriteFile(ctx, f.path, f.data, false)
		if err != nil {
			return "", fmt.Errorf("revise %s: write %s: %w", p.ID, f.path, err)
		}
		r.FileWritten(ctx, f.path, n)
	}
	if d.Duration != oldDur {
		syncPlanDuration(p, d.Duration)
	}
	if rv.shortened != "" && p.Plan != nil {
		p.Plan.Notes = append(p.Plan.Notes, rv.shortened)
	}
	if colorChanged && p.Plan != nil && len(p.Plan.Scenes) > 0 {
		syncPlanPalette(p, feedback)
	}
	msg := "Changed " + strings.Join(rv.notes, "; ") + "."
	if note := critic.FixNotes(fixes); note != "" {
		msg += " " + note
	}
	if rv.conflit != "" {
		msg = rv.conflit + " " + msg
	}
	if rv.shortened != "" {
		msg = rv.shortened + " " + msg
	}
	msg += " Only scene.json and scene.js changed:\n" + lineDiff(string(raw), string(js), 24)
	a.log.InfoContext(ctx, "revised", "project", p.ID, "changes", rv.notes)
	return msg, nil
}

// apply edits the description; it reports whether colours changed.
func (rv *revision) apply(pb *brief, feedback string) bool {
	low := strings.ToLower(feedback)
	fb := analyze(feedback)
	d := rv.d

	faster := indexAny(low, "faster", "quicker", "speed up", "snappier", "shorter", "too slow")
	slower := indexAny(low, "slower", "slow down", "longer", "too fast", "more time")
	smoother := indexAny(low, "smoother", "smooth", "gentler", "softer", "less bouncy", "calmer", "subtle")
	bouncier := indexAny(low, "bouncier", "more bouncy", "more playful", "more energetic", "springier", "more bounce")
	if faster >= 0 && slower >= 0 {
		// Opposites: the later one is the user's last word.
		if faster > slower {
			slower = -1
		} else {
			faster = -1
		}
		rv.conflit = "“Faster” and “slower” pull in opposite directions; I went with the one you said last."
	}

	// Timing.
	switch {
	case fb.Duration > 0 && math.Abs(fb.Duration-d.Duration) > 1e-6:
		rv.scaleTo(fb.Duration)
	case faster >= 0:
		rv.scaleTo(math.Max(1, math.Round(d.Duration*0.75*10)/10))
	case slower >= 0:
		rv.scaleTo(math.Min(koda.MaxDurationS, math.Round(d.Duration*1.33*10)/10))
	}
	if faster >= 0 && smoother >= 0 && bouncier < 0 {
		rv.conflit = "“Faster” and “smoother” pull in different directions: I made the whole animation faster and " +
			"switched to gentler easing curves, so it moves quickly without abrupt changes. Tell me if you'd rather keep the length and only soften it."
	}

	// Bounce height.
	if higher, lower := indexAny(low, "higher", "taller", "bigger bounce", "more height", "bounce more"), indexAny(low, "lower bounce", "bounce lower", "less high", "smaller bounce", "bounce less", "not so high"); higher >= 0 || lower >= 0 {
		f := 1.5
		if lower > higher {
			f = 1 / 1.5
		}
		rv.scaleBounce(f)
	}

	// Easing character.
	if smoother >= 0 && smoother > bouncier {
		rv.swapEasing(toSmooth, 0.5, "rise", "smoother easing (easeInOutCubic/easeOutQuint), softer squash")
	} else if bouncier >= 0 {
		rv.swapEasing(toBouncy, 1.6, "pop", "bouncier easing (easeOutBack/easeOutElastic), stronger squash")
	}

	// Size.
	if !strings.Contains(low, "bounce") {
		if big, small := indexAny(low, "bigger", "larger", "huge", "enlarge"), indexAny(low, "smaller", "tinier", "shrink"); big >= 0 || small >= 0 {
			f := 1.3
			if small > big {
				f = 1 / 1.3
			}
			rv.scaleSize(fb, f)
		}
	}

	// Text.
	if len(fb.Texts) > 0 {
		rv.texts(low, fb.Texts)
	}

	// Colours.
	return rv.colors(pb, fb)
}

func indexAny(s string, words ...string) int {
	best := -1
	for _, w := range words {
		if i := strings.Index(s, w); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

func (rv *revision) scaleTo(total float64) {
	old := rv.d.Duration
	total = math.Min(math.Max(total, koda.MinDurationS), koda.MaxDurationS)
	if t, note := koda.FitDuration(rv.presets, total); note != "" {
		rv.shortened = note
		if t == old {
			return // already as long as the presets allow
		}
		total = t
	}
	rv.d.ScaleTime(total / old)
	rv.d.Duration = total // exact, whatever the float product
	rv.notes = append(rv.notes, fmt.Sprintf("duration %gs → %gs (all timings scaled ×%.2f)", old, total, total/old))
}

func (rv *revision) scaleBounce(f float64) {
	n := 0
	for _, e := range rv.d.Elements {
		for _, m := range e.Motions {
			if m.Type != scene.MotionBounce || m.Count != math.Floor(m.Count) {
				continue // a drop-in (fractional count) already starts at the top of the frame
			}
			old := m.Amp
			m.Amp = round3(m.Amp * f)
			// Keep the top of a hop inside the frame (drop-ins start above it on purpose).
			// Keep the top of a hop inside the frame.
			if top := e.Y - m.Amp - e.Size*2; top < -0.95 {
				m.Amp = round3(math.Max(old, e.Y+0.95-e.Size*2))
			}
			if m.Amp != old {
				n++
			}
		}
	}
	if n == 0 {
		return
	}
	word := "higher"
	if f < 1 {
		word = "lower"
	}
	rv.notes = append(rv.notes, fmt.Sprintf("bounce %s (height ×%.2f on %d bounce motions)", word, f, n))
}

func (rv *revision) swapEasing(table map[string]string, squash float64, reveal, note string) {
	swap := func(s string) string {
		if v, ok := table[s]; ok {
			return v
		}
		return s
	}
	swapTracks := func(tr map[string][]scene.Keyframe) {
		for _, kfs := range tr {
			for i := range kfs {
				kfs[i].Ease = swap(kfs[i].Ease)
			}
		}
	}
	swapTracks(rv.d.Camera.Tracks)
	for _, e := range rv.d.Elements {
		swapTracks(e.Tracks)
		for _, m := range e.Motions {
			m.Ease = swap(m.Ease)
			if m.Type == scene.MotionBounce {
				m.Squash = round3(math.Min(1, m.Squash*squash))
			}
		}
		if e.Type == scene.TypeText && e.Reveal != "type" {
			e.Reveal = reveal
		}
	}
	rv.notes = append(rv.notes, note)
}

// targets finds the elements a feedback sentence names ("the ball", "the text"); none
// named means the main subject.
func (rv *revision) targets(fb *brief) []*scene.Element {
	var out []*scene.Element
	for _, s := range fb.Subjects {
		for _, e := range rv.d.Elements {
			if e.Label == s.Noun || (e.Type == s.Kind && e.Label != "") {
				out = append(out, e)
			}
		}
	}
	if len(out) == 0 {
		for _, e := range rv.d.Elements {
			if e.Type != scene.TypeParticles && e.Type != scene.TypeText && e.Label != "" {
				return []*scene.Element{e}
			}
		}
	}
	return out
}

func (rv *revision) scaleSize(fb *brief, f float64) {
	low := strings.ToLower(fb.Prompt)
	var els []*scene.Element
	if hasAny(low, "text", "title", "words", "font", "letters") {
		for _, e := range rv.d.Elements {
			if e.Type == scene.TypeText {
				els = append(els, e)
			}
		}
	} else {
		els = rv.targets(fb)
	}
	for _, e := range els {
		e.Size = round3(math.Min(e.Size*f, 0.5))
		rv.notes = append(rv.notes, fmt.Sprintf("%s size ×%.2f", orDefault(e.Label, e.ID), f))
	}
}

func (rv *revision) texts(low string, texts []string) {
	var existing []*scene.Element
	for _, e := range rv.d.Elements {
		if e.Type == scene.TypeText {
			existing = append(existing, e)
		}
	}
	if hasAny(low, "change the", "replace", "instead", "rename", "should say", "should read") && len(existing) > 0 {
		e := existing[len(existing)-1]
		rv.notes = append(rv.notes, fmt.Sprintf("text %q → %q", e.Text, texts[0]))
		e.Text = texts[0]
		texts = texts[1:]
	}
	for _, t := range texts {
		rv.addText(t, existing)
	}
}

// addText places a new text where it cannot collide: under the last text if there is
// one, otherwise above a bouncing subject or below any other.
func (rv *revision) addText(text string, existing []*scene.Element) {
	d := rv.d
	start := d.Duration * 0.55
	if n := len(d.Scenes); n > 1 {
		start = d.Scenes[n-1].Start
	}
	if len(existing) > 0 {
		if s := existing[len(existing)-1].Start; s < start {
			start = math.Max(s+0.6, start)
		}
	}
	start = math.Min(start, d.Duration-1)
	if start < 0 {
		start = 0
	}
	y, size := 0.36, textSize(text)
	if len(existing) > 0 {
		last := existing[len(existing)-1]
		if last.End == 0 {
			size = math.Min(size, last.Size*0.6)
			below, above := last.Y+last.Size*2+size*1.4, last.Y-last.Size*2-size*1.2
			// Below the title unless a subject bounces there (or it would leave the frame).
			y = below
			if rv.grounded() || below > 0.85 {
				y = above
			}
			if y < -0.85 {
				y = below
			}
		}
	} else {
		ground, big := false, 0.0
		for _, e := range d.Elements {
			for _, m := range e.Motions {
				ground = ground || m.Type == scene.MotionBounce
			}
			if e.Type != scene.TypeParticles && e.Type != scene.TypeText {
				big = math.Max(big, e.Size)
			}
		}
		switch {
		case ground:
			y = -0.3
		case big > 0.16:
			y, size = 0.72, math.Min(size, 0.08)
		case big == 0:
			y = 0
		}
	}
	color := "#ffffff"
	if len(existing) > 0 {
		color = existing[0].Color
	} else if len(d.Background.Colors) > 0 && luminance(d.Background.Colors[0]) > 0.55 {
		color = "#111827"
	}
	reveal := "rise"
	if d.Style == string(koda.StylePlayful) {
		reveal = "pop"
	} else if d.Style == string(koda.StyleCinematic) {
		reveal = "track"
	}
	id := 1
	for d.Element(fmt.Sprintf("text-%d", id)) != nil {
		id++
	}
	e := &scene.Element{ID: fmt.Sprintf("text-%d", id), Type: scene.TypeText, Label: "text", Text: text,
		Start: round3(start), Y: round3(y), Size: round3(size), Color: color, Reveal: reveal}
	tr := trackOf(e)
	key(tr, "progress", start, 0, "")
	key(tr, "progress", math.Min(d.Duration, start+math.Min(1.2, (d.Duration-start)*0.7)), 1, "linear")
	d.Elements = append(d.Elements, e)
	rv.notes = append(rv.notes, fmt.Sprintf("added the text %q at %.1fs", text, start))
}

func (rv *revision) grounded() bool {
	for _, e := range rv.d.Elements {
		for _, m := range e.Motions {
			if m.Type == scene.MotionBounce {
				return true
			}
		}
	}
	return false
}

func (rv *revision) colors(pb *brief, fb *brief) bool {
	changed := false
	set := func(e *scene.Element, c string) {
		if e.Color == c {
			return
		}
		rv.notes = append(rv.notes, fmt.Sprintf("%s colour %s → %s", orDefault(e.Label, e.ID), colorName(e.Color), colorName(c)))
		e.Color, changed = c, true
	}
	used := false
	for _, s := range fb.Subjects {
		if s.Color == "" {
			continue
		}
		for _, e := range rv.d.Elements {
			if e.Label == s.Noun || (e.Type == s.Kind && e.Type != scene.TypeParticles) {
				set(e, s.Color)
				used = true
			}
		}
	}
	if fb.TextColor != "" {
		for _, e := range rv.d.Elements {
			if e.Type == scene.TypeText {
				set(e, fb.TextColor)
			}
		}
		used = true
	}
	if fb.Background != "" {
		old := rv.d.Background.Colors
		bp := backgroundPair(fb.Background, fb.Background2)
		rv.d.Background.Colors = bp[:]
		rv.notes = append(rv.notes, fmt.Sprintf("background %s → %s", colorName(old[0]), colorName(fb.Background)))
		changed, used = true, true
	}
	if !used && len(fb.Colors) > 0 {
		if els := rv.targets(fb); len(els) > 0 {
			set(els[0], fb.Colors[0])
		}
	}
	return changed
}

func syncPlanDuration(p *koda.Project, total float64) {
	if p.DurationS > 0 {
		p.DurationS = total
	}
	if p.Plan != nil {
		p.Plan.ScaleTo(total)
	}
}

// syncPlanPalette rewrites the plan's palette so a later Generate keeps the new colours.
func syncPlanPalette(p *koda.Project, feedback string) {
	b := analyzeProject(p)
	desc := p.Plan.Scenes[0].Description
	pal, ok := parsePalette(desc, b)
	if !ok {
		return
	}
	pal.applyColors(b, analyze(feedback))
	p.Plan.Scenes[0].Description = paletteRE.ReplaceAllStringFunc(desc, func(string) string { return pal.String(b) + " " })
}

// lineDiff is a small LCS line diff: only the changed lines, "-" old and "+" new.
func lineDiff(a, b string, maxLines int) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	n, m := len(x), len(y)
	if n*m > 4_000_000 {
		return "(diff too large to show)\n"
	}
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, "- "+strings.TrimSpace(x[i]))
			i++
		default:
			out = append(out, "+ "+strings.TrimSpace(y[j]))
			j++
		}
	}
	if len(out) > maxLines {
		more := len(out) - maxLines
		out = append(out[:maxLines], fmt.Sprintf("… %d more changed lines", more))
	}
	return strings.Join(out, "\n") + "\n"
}
