// Package builtin is Koda's offline agent: it reads a prompt with rules instead of a
// language model, plans scenes by the specification's rules, and writes a self-contained
// canvas animation (agent/scene's runtime plus a generated scene description) into the
// sandbox. It needs no network and no API key.
package builtin

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
)

// Agent is the builtin koda.Agent. It holds no per-project state: everything it needs is
// in the project (prompt, style, plan) and the sandbox (scene.json).
type Agent struct {
	log *slog.Logger
	// camera renders stills for the critic; nil checks the geometry only.
	camera critic.Camera
}

var _ koda.Agent = (*Agent)(nil)

// New returns the builtin agent; a nil logger discards logs.
func New(logger *slog.Logger) *Agent {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Agent{log: logger.With("agent", "builtin")}
}

// WithCamera makes the critic also look at rendered stills of every scene's hold before
// the preview (agent/stills renders them in Chromium), and returns a.
func (a *Agent) WithCamera(c critic.Camera) *Agent {
	a.camera = c
	return a
}

// Analyze reads the prompt: subjects, colours, quoted text, duration, aspect and style.
// It asks one style question unless the style is set on the project, already answered,
// named in the prompt, given by a reference, or the prompt is highly specific.
func (a *Agent) Analyze(ctx context.Context, p *koda.Project) (*koda.Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b := analyze(p.Prompt)
	an := &koda.Analysis{Colors: b.Colors, Texts: b.Texts, Aspect: b.Aspect}
	for _, s := range b.Subjects {
		an.Subjects = append(an.Subjects, s.Noun)
	}
	style, note, decided := resolveStyle(p, b)
	an.Style = style
	an.Explicit = decided
	if !decided {
		an.Style = b.Inferred
		an.Question = styleQuestion(b.Inferred)
	}
	an.DurationS = projectDuration(p, b, baseStyle(orStyle(style, b.Inferred), note))
	a.log.DebugContext(ctx, "analyzed prompt", "project", p.ID, "style", an.Style, "explicit", an.Explicit,
		"subjects", an.Subjects, "texts", len(an.Texts), "duration_s", an.DurationS)
	return an, nil
}

func orStyle(s, d koda.Style) koda.Style {
	if s == "" {
		return d
	}
	return s
}

// resolveStyle returns the style to plan with and whether it was decided (by the user or
// the prompt) rather than guessed.
func resolveStyle(p *koda.Project, b *brief) (koda.Style, string, bool) {
	if p.Style != "" {
		return p.Style, p.StyleNote, true
	}
	if q := p.Question; q != nil && q.Answer != nil {
		switch s := koda.Style(q.Answer.OptionID); s {
		case koda.StylePlayful, koda.StyleSmooth, koda.StyleCinematic:
			return s, "", true
		}
		if q.Answer.Text != "" || q.Answer.OptionID == string(koda.StyleCustom) {
			return koda.StyleCustom, q.Answer.Text, true
		}
	}
	if b.Explicit && b.Style != "" {
		return b.Style, "", true
	}
	return b.Style, "", false
}

func projectDuration(p *koda.Project, b *brief, base koda.Style) float64 {
	switch {
	case p.DurationS > 0:
		return p.DurationS
	case b.Duration > 0:
		return b.Duration
	}
	return b.defaultDuration(base)
}

// Plan makes the plan, or with feedback revises p.Plan to reflect it.
func (a *Agent) Plan(ctx context.Context, p *koda.Project, feedback string) (*koda.Plan, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b := analyzeProject(p)
	feedback = strings.TrimSpace(feedback)
	if feedback == "" || p.Plan == nil {
		style, note, _ := resolveStyle(p, b)
		if style == "" {
			style = koda.StyleSmooth // nothing to go on: the calmest style reads best
		}
		// The scenes are laid out for the length the presets allow, not squeezed into it later.
		total, shortened := koda.FitDuration(p.Presets, projectDuration(p, b, baseStyle(style, note)))
		bd := newBoard(b, style, note, total)
		rev := 1
		if p.Plan != nil {
			rev = p.Plan.Revision + 1
		}
		pl := bd.plan(b, rev, "")
		if shortened != "" {
			pl.Notes = append(pl.Notes, shortened)
		}
		a.log.InfoContext(ctx, "planned", "project", p.ID, "scenes", len(pl.Scenes), "duration_s", pl.DurationS, "style", pl.Style, "notes", pl.Notes)
		return pl, nil
	}
	bd := boardFromPlan(b, p)
	notes, shortened := bd.applyFeedback(b, feedback, p.Presets)
	pl := bd.plan(b, p.Plan.Revision+1, feedback)
	if shortened != "" {
		notes = append(notes, shortened)
		pl.Notes = append(pl.Notes, shortened)
	}
	pl.Scenes[0].Description = "Revision " + strconv.Itoa(pl.Revision) + ": " + strings.Join(notes, "; ") + ". " + pl.Scenes[0].Description
	a.log.InfoContext(ctx, "revised plan", "project", p.ID, "revision", pl.Revision, "changes", notes)
	return pl, nil
}

var (
	sceneIDRE = regexp.MustCompile(`^s[0-9]+-(.+)$`)
	planTexRE = regexp.MustCompile(`The text ("(?:[^"\\]|\\.)*")`)
)

// boardFromPlan reads a plan back into a storyboard: roles from scene IDs, texts from the
// scene descriptions, colours from the palette sentence. It falls back to planning afresh
// for a plan it did not write.
func boardFromPlan(b *brief, p *koda.Project) *board {
	pl := p.Plan
	style := orStyle(p.Style, pl.Style)
	note := p.StyleNote
	if p.Question != nil && p.Question.Answer != nil && style == koda.StyleCustom && note == "" {
		note = p.Question.Answer.Text
	}
	bd := &board{Style: style, Base: baseStyle(style, note), StyleNote: note, Total: pl.DurationS}
	texts := map[int]string{}
	maxText := -1
	for _, sc := range pl.Scenes {
		m := sceneIDRE.FindStringSubmatch(sc.ID)
		if m == nil {
			return newBoard(b, style, note, pl.DurationS)
		}
		var roles []role
		quotes := planTexRE.FindAllStringSubmatch(sc.Description, -1)
		for _, part := range strings.Split(m[1], "+") {
			kind, idx, _ := strings.Cut(part, ".")
			n, _ := strconv.Atoi(idx)
			if _, ok := roleWeight[kind]; !ok {
				return newBoard(b, style, note, pl.DurationS)
			}
			if kind == roleText && len(quotes) > 0 {
				if s, err := strconv.Unquote(quotes[0][1]); err == nil {
					texts[n] = s
					maxText = max(maxText, n)
				}
				quotes = quotes[1:]
			}
			roles = append(roles, role{Kind: kind, Index: n})
		}
		bd.Scenes = append(bd.Scenes, roles)
	}
	bd.Texts = append([]string(nil), b.Texts...)
	for len(bd.Texts) <= maxText {
		bd.Texts = append(bd.Texts, "")
	}
	for i, s := range texts {
		bd.Texts[i] = s
	}
	if len(pl.Scenes) == 0 {
		return newBoard(b, style, note, pl.DurationS)
	}
	pal, ok := parsePalette(pl.Scenes[0].Description, b)
	if !ok {
		pal = choosePalette(b, bd.Base)
	}
	bd.Palette = pal
	return bd
}

// applyFeedback changes the storyboard as plan feedback asks and says what changed,
// and, when a longer video than presets allow was asked for, why it is shorter.
func (bd *board) applyFeedback(b *brief, feedback string, presets []koda.PresetSpec) (notes []string, shortened string) {
	low := strings.ToLower(feedback)
	fb := analyze(feedback)
	want := 0
	fitLimit := func() {
		if t, note := koda.FitDuration(presets, bd.Total); note != "" {
			bd.Total, shortened = t, note
		}
	}

	if fb.Style != "" && fb.Explicit && fb.Style != bd.Base {
		notes = append(notes, fmt.Sprintf("style %s → %s", bd.Style, fb.Style))
		bd.Style, bd.Base, bd.StyleNote = fb.Style, fb.Style, ""
		bd.Palette = choosePalette(b, bd.Base)
	}
	old := bd.Total
	switch {
	case fb.Duration > 0:
		bd.Total = fb.Duration
	case hasAny(low, "shorter", "faster", "quicker", "snappier", "speed up", "too long"):
		bd.Total = math.Max(koda.MinDurationS, math.Round(bd.Total*0.75*2)/2)
	case hasAny(low, "longer", "slower", "slow down", "too short", "more time"):
		bd.Total = math.Min(koda.MaxDurationS, math.Round(bd.Total*1.3*2)/2)
	}
	fitLimit()
	if bd.Total != old {
		notes = append(notes, fmt.Sprintf("duration %gs → %gs", old, bd.Total))
	}
	if m := regexp.MustCompile(`\b([0-9]+|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+scenes?\b`).FindStringSubmatch(low); m != nil {
		if v, err := strconv.Atoi(m[1]); err == nil {
			want = v
		} else {
			want = int(numberWords[m[1]])
		}
	} else if hasAny(low, "more scenes", "add a scene", "another scene", "more beats", "more detail") {
		want = len(bd.Scenes) + 2
	} else if hasAny(low, "fewer scenes", "less scenes", "fewer beats", "simpler", "remove a scene", "too many scenes") {
		want = len(bd.Scenes) - 1
	}
	if want > 0 && float64(want)*minSceneS > bd.Total && fb.Duration == 0 {
		// More scenes than fit at 1.5 s each: lengthen rather than refuse.
		before := bd.Total
		bd.Total = math.Min(koda.MaxDurationS, float64(want)*2)
		fitLimit()
		notes = append(notes, fmt.Sprintf("duration %gs → %gs to fit %d scenes", before, bd.Total, want))
	}
	if len(fb.Texts) > 0 {
		replace := hasAny(low, "change the", "replace", "instead", "rename", "should say", "should read")
		for _, t := range fb.Texts {
			if replace && len(bd.Texts) > 0 {
				notes = append(notes, fmt.Sprintf("text %q → %q", bd.Texts[len(bd.Texts)-1], t))
				bd.Texts[len(bd.Texts)-1] = t
				replace = false
				continue
			}
			bd.Texts = append(bd.Texts, t)
			at := len(bd.Scenes) - 1
			bd.Scenes = append(bd.Scenes[:at], append([][]role{{{Kind: roleText, Index: len(bd.Texts) - 1}}}, bd.Scenes[at:]...)...)
			notes = append(notes, fmt.Sprintf("added the text %q", t))
			if want > 0 {
				want++
			}
		}
	}
	notes = append(notes, bd.Palette.applyColors(b, fb)...)
	before := len(bd.Scenes)
	bd.fitCount(want)
	if len(bd.Scenes) != before || want > 0 {
		notes = append(notes, fmt.Sprintf("%d scenes", len(bd.Scenes)))
	}
	if len(notes) == 0 && shortened == "" {
		notes = append(notes, fmt.Sprintf("no parameter matched %q, so the plan keeps its scenes; say what to change (duration, style, colours, text, number of scenes)", feedback))
	}
	return notes, shortened
}

// applyColors sets the colours feedback names on the subjects, text or background it names.
func (p *palette) applyColors(b *brief, fb *brief) []string {
	var notes []string
	used := false
	for _, s := range fb.Subjects {
		if s.Color == "" {
			continue
		}
		for i, bs := range b.Subjects {
			if (bs.Noun == s.Noun || bs.Kind == s.Kind) && i < len(p.Subjects) {
				notes = append(notes, fmt.Sprintf("%s colour %s → %s", bs.Noun, colorName(p.Subjects[i]), colorName(s.Color)))
				p.Subjects[i], used = s.Color, true
			}
		}
	}
	if fb.Background != "" {
		p.Background = backgroundPair(fb.Background, fb.Background2)
		notes = append(notes, "background "+colorName(fb.Background))
		used = true
	}
	if fb.TextColor != "" {
		p.Text, used = fb.TextColor, true
		notes = append(notes, "text colour "+colorName(fb.TextColor))
	}
	if !used && len(fb.Colors) > 0 && len(p.Subjects) > 0 {
		// "make it blue": the main subject.
		i := 0
		for j, s := range b.Subjects {
			if s.Kind != "particles" {
				i = j
				break
			}
		}
		notes = append(notes, fmt.Sprintf("%s colour %s → %s", b.Subjects[i].Noun, colorName(p.Subjects[i]), colorName(fb.Colors[0])))
		p.Subjects[i] = fb.Colors[0]
	}
	return notes
}

func hasAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// Generate writes index.html, runtime.js, scene.json and scene.js into sb, todo by todo.
// The scene files are rewritten after each scene todo, each time a complete animation.
// The TodoPreview todo is left for the caller, who renders the preview.
func (a *Agent) Generate(ctx context.Context, p *koda.Project, sb koda.Sandbox, r koda.Reporter) error {
	pl := p.Plan
	if pl == nil {
		var err error
		if pl, err = a.Plan(ctx, p, ""); err != nil {
			return err
		}
	}
	b := analyzeProject(p)
	pp := *p
	pp.Plan = pl
	bd := boardFromPlan(b, &pp)
	c := newComposer(b, bd)
	c.assets = projectAssets(ctx, sb)
	for _, a := range p.Assets {
		if a.Role == koda.RoleImage {
			// A product photo is no logo: a badge shows the logo file, or none.
			c.pictures = append(c.pictures, a.File)
			c.assets = slices.DeleteFunc(c.assets, func(f string) bool { return f == a.File })
		}
	}

	step := func(todo, thinking string, fn func() error) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		r.TodoUpdate(ctx, todo, koda.TodoActive)
		r.Thinking(ctx, thinking)
		if err := fn(); err != nil {
			return err
		}
		r.TodoUpdate(ctx, todo, koda.TodoDone)
		return nil
	}
	write := func(path string, data []byte) error {
		n, err := sb.WriteFile(ctx, path, data, false)
		if err != nil {
			return fmt.Errorf("generate %s: write %s: %w", p.ID, path, err)
		}
		r.FileWritten(ctx, path, n)
		return nil
	}
	assetWritten := map[string]bool{}
	writeScene := func() error {
		// A valid prompt never ends in an error: what the composer left inconsistent
		// is simplified, and the user is told what.
		for _, note := range c.d.Repair() {
			a.log.WarnContext(ctx, "scene repaired", "project", p.ID, "note", note)
			r.Message(ctx, "assistant", "I simplified the scene: "+note+".")
		}
		if err := c.d.Validate(); err != nil {
			return &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeAgentFailed, Message: "The builtin agent produced an invalid scene.", Err: err}
		}
		js, err := c.d.JSON()
		if err != nil {
			return err
		}
		script, err := c.d.Script()
		if err != nil {
			return err
		}
		// The library drawings come first, so scene.js never names a missing file.
		for _, f := range c.d.AssetFiles() {
			if assetWritten[f.Path] {
				continue
			}
			if err := write(f.Path, f.Data); err != nil {
				return err
			}
			assetWritten[f.Path] = true
		}
		if err := write(scene.FileJSON, js); err != nil {
			return err
		}
		return write(scene.FileScene, script)
	}

	if err := step(TodoSetup, "Setting up the canvas runtime", func() error {
		c.setup(pl.Title)
		c.d.Font = projectFont(p)
		// What the library could not draw as asked is said, never silently replaced.
		for _, n := range b.Notes {
			if c.genre != nil && c.genre.layoutWord(n, b.Prompt) {
				continue // "no illustration of 'flashcard'": the layout is the flashcard
			}
			r.Message(ctx, "assistant", capitalize(n))
		}
		if err := write(scene.FileIndex, scene.IndexHTML()); err != nil {
			return err
		}
		if err := write(scene.FileRuntime, scene.RuntimeJS()); err != nil {
			return err
		}
		return writeScene()
	}); err != nil {
		return err
	}
	for i := range bd.Scenes {
		name := fmt.Sprintf("scene %d", i+1)
		if i < len(pl.Scenes) {
			name = pl.Scenes[i].Name
		}
		if err := step(fmt.Sprintf("scene-%d", i+1), truncate("Keyframing "+name, 50), func() error {
			c.addScene(i)
			return writeScene()
		}); err != nil {
			return err
		}
	}
	var fixes []critic.Fix
	if err := step(TodoPolish, "Adding light, depth and shadows", func() error {
		c.polish()
		c.applyProjectMedia(p)
		// The critic looks at the frames before anyone else does: subjects inside the
		// safe area of every frame shape the project renders in, text unclipped, apart
		// from other elements and readable, something on screen at every hold.
		var err error
		if fixes, err = a.critique(ctx, c.d, projectFrames(b, p), p.ID, sb.Dir()); err != nil {
			return err
		}
		return writeScene()
	}); err != nil {
		return err
	}
	if note := critic.FixNotes(fixes); note != "" {
		r.Message(ctx, "assistant", note)
		a.log.InfoContext(ctx, "critic fixed", "project", p.ID, "fixes", len(fixes))
	}
	a.log.InfoContext(ctx, "generated", "project", p.ID, "elements", len(c.d.Elements), "duration_s", c.d.Duration)
	return nil
}

// critique runs the critic on d in the frames: on its geometry, then (with a camera) on
// stills of every hold, fixing what fails. Only a cancelled ctx is an error: what cannot
// be fixed is logged, and failed stills leave the geometry's judgement standing.
func (a *Agent) critique(ctx context.Context, d *scene.Description, frames []critic.Frame, project, folder string) ([]critic.Fix, error) {
	fixes, left := critic.Repair(d, frames...)
	if a.camera != nil {
		// What the pixels show: drawings' real extents, words on what is really
		// behind them, subjects lost in it; the project's own logo, pictures and
		// font as the renderer will show them.
		camera := a.camera
		if fc, ok := camera.(critic.FilesCamera); ok && folder != "" {
			camera = fc.InFolder(folder)
		}
		seen, leftSeen, err := critic.RepairStills(ctx, camera, d, frames...)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			a.log.WarnContext(ctx, "critic stills failed", "project", project, "err", err)
		}
		fixes = append(fixes, seen...)
		left = append(critic.Check(d, frames...), leftSeen...)
	}
	for _, pr := range left {
		a.log.WarnContext(ctx, "critic could not fix", "project", project, "problem", pr.String())
	}
	return fixes, nil
}

// projectFrames are the frame shapes the scene will be rendered in: the prompt's
// aspect (the preview's) and each final preset's.
func projectFrames(b *brief, p *koda.Project) []critic.Frame {
	frames := []critic.Frame{critic.FrameFor(b.Aspect)}
	for _, ps := range p.Presets {
		f := critic.Frame{Name: ps.Name, W: ps.Width, H: ps.Height}
		if f.W <= 0 || f.H <= 0 {
			continue
		}
		dup := false
		for _, g := range frames {
			dup = dup || g.W*f.H == f.W*g.H
		}
		if !dup {
			frames = append(frames, f)
		}
	}
	return frames
}

// projectAssets lists the pictures the user put in the project (assets/…), which the
// composer uses instead of drawing its own (a logo file on the logo).
func projectAssets(ctx context.Context, sb koda.Sandbox) []string {
	var out []string
	for _, pat := range []string{"assets/*.png", "assets/*.jpg", "assets/*.jpeg", "assets/*.svg", "assets/*.webp"} {
		m, err := sb.Glob(ctx, pat)
		if err == nil {
			out = append(out, m...)
		}
	}
	sort.Strings(out)
	return out
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
