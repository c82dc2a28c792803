// Package suite runs the agent quality suite: every prompt of agent/testdata/prompts.json
// goes through the builtin agent (Analyze → Plan → Generate) into a real sandbox, is
// rendered to MP4 by the real renderer, and the video is checked the way a person
// would judge it: the planned length, no blank frames, motion in every scene, the quoted
// text readable (tesseract), the requested colours on screen.
package suite

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/agent/stills"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox/local"
)

// Config configures a suite run. Zero fields take the documented defaults.
type Config struct {
	// WorkDir holds sandboxes, videos and stills. Required.
	WorkDir string
	// AgentAspect renders a prompt that expects no aspect in the one the agent read
	// ("vertical", "9:16"), as a user gets it: a first look, judged by eye.
	AgentAspect bool
	// FPS of the checked videos; default 10 (enough to see motion, cheap to capture).
	FPS int
	// Parallel is how many prompts run at once; default 2.
	Parallel int
	// Renderer renders the videos; default renderer.New with one browser per render.
	Renderer koda.Renderer
	// Chromium is the browser used for the OCR stills; default renderer.FindChromium().
	Chromium string
	// Logger receives progress; default discards.
	Logger *slog.Logger
	// Only, when non-empty, runs only the prompts whose ID is one of these or contains
	// one of them ("data-" runs every data prompt).
	Only []string
	// Keywords names an asset id's keywords for the subject checks; default LibraryKeywords.
	Keywords KeywordsFunc
	// ScenesOnly stops after the scene description: the plan, the semantic and the
	// critic's checks run, nothing is rendered (seconds for the whole suite).
	ScenesOnly bool
	// Sheet, when set, is where the contact sheet of the run is written (PNG): four
	// frames per prompt with the prompt under them.
	Sheet string
}

// Result is the verdict on one prompt.
type Result struct {
	ID     string
	Prompt string
	Aspect string
	// Failures are the automated checks on the video (length, blank frames, motion,
	// OCR, dominant colours); Semantic the checks of the scene description against
	// what was asked (subjects, actions, chart data, colours), one sentence each.
	Failures []string
	Semantic []string
	Elapsed  time.Duration
	// Measured values, for reports and threshold tuning.
	DurationS   float64
	Frames      int
	MinMotion   float64 // lowest per-scene motion energy
	Dominant    []string
	OCR         map[string]string // expected text → what tesseract read
	SceneMotion []float64
	// Stills are four frames spread over the video, for the contact sheet.
	Stills []frame
}

// Passed reports whether every check held.
func (r *Result) Passed() bool { return len(r.Failures) == 0 && len(r.Semantic) == 0 }

func (r *Result) failf(format string, args ...any) {
	r.Failures = append(r.Failures, fmt.Sprintf(format, args...))
}

// Report is the outcome of a suite run.
type Report struct {
	Results []*Result
	Elapsed time.Duration
}

// Passed counts the prompts that passed every check.
func (rp *Report) Passed() int {
	return rp.count(func(r *Result) bool { return r.Passed() })
}

// AutomatedPassed counts the prompts whose video passed the automated checks.
func (rp *Report) AutomatedPassed() int {
	return rp.count(func(r *Result) bool { return len(r.Failures) == 0 })
}

// SemanticPassed counts the prompts whose scene shows what was asked.
func (rp *Report) SemanticPassed() int {
	return rp.count(func(r *Result) bool { return len(r.Semantic) == 0 })
}

func (rp *Report) count(ok func(*Result) bool) int {
	n := 0
	for _, r := range rp.Results {
		if ok(r) {
			n++
		}
	}
	return n
}

// String is "N/M passed" with the automated and semantic counts, followed by one line
// per failed check: "FAIL id: …" for the video, "MISS id: …" for what the scene does
// not show.
func (rp *Report) String() string {
	var b strings.Builder
	m := len(rp.Results)
	fmt.Fprintf(&b, "%d/%d passed in %v (automated checks %d/%d, semantic checks %d/%d)\n", rp.Passed(), m,
		rp.Elapsed.Round(time.Second), rp.AutomatedPassed(), m, rp.SemanticPassed(), m)
	for _, r := range rp.Results {
		for _, f := range r.Failures {
			fmt.Fprintf(&b, "FAIL %s: %s\n", r.ID, f)
		}
		for _, f := range r.Semantic {
			fmt.Fprintf(&b, "MISS %s: %s\n", r.ID, f)
		}
	}
	return b.String()
}

// Thresholds of the checks.
const (
	// MinSceneMotion is the least motion energy a scene may have: the mean absolute
	// difference between consecutive frames, in 0..255 per channel, averaged over the
	// scene. Measured at 320×180: identical frames decode to exactly 0 (x264 codes
	// them as skips); the slow background drift and glow alone, with nothing else
	// moving, give 0.03–0.12; a single element easing across a sixth of the frame gives
	// ~1, a bounce 1.5–4, a text reveal 0.5–2. 0.2 is above everything that is not a
	// visible change and below every motion a viewer notices.
	MinSceneMotion = 0.2
	// BlankShare: a frame is blank when this share of its pixels is within blankTol of
	// its median colour (one flat colour: a white page, a black frame, a failed draw).
	BlankShare = 0.985
	blankTol   = 10.0
	// DominantShare is the share of the sampled pixels a colour needs to count as seen
	// (and a bucket to be listed as dominant): 0.25 % of 320×180 is 144 pixels, a dot
	// of radius 7 px, on every frame.
	DominantShare = 0.0025
)

// Run runs the suite over prompts (all of them when nil).
func Run(ctx context.Context, cfg Config, prompts []agent.SuitePrompt) (*Report, error) {
	if cfg.WorkDir == "" {
		return nil, errors.New("suite: WorkDir is required")
	}
	if cfg.FPS <= 0 {
		cfg.FPS = 10
	}
	if cfg.Parallel <= 0 {
		cfg.Parallel = 2
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Renderer == nil {
		cfg.Renderer = renderer.New(renderer.Config{Browsers: 1, Logger: cfg.Logger})
	}
	if cfg.Chromium == "" {
		cfg.Chromium = renderer.FindChromium()
	}
	if prompts == nil {
		var err error
		if prompts, err = agent.SuitePrompts(); err != nil {
			return nil, err
		}
	}
	if len(cfg.Only) > 0 {
		prompts = Select(prompts, cfg.Only)
		if len(prompts) == 0 {
			return nil, fmt.Errorf("suite: no prompt matches %q", cfg.Only)
		}
	}
	start := time.Now()
	sbs := local.New(local.Config{Root: filepath.Join(cfg.WorkDir, "sandboxes"), Logger: cfg.Logger})
	defer func() { _ = sbs.Close(context.WithoutCancel(ctx)) }()
	var br *stills.Browser
	if !cfg.ScenesOnly {
		var err error
		if br, err = stills.Start(ctx, cfg.Chromium); err != nil {
			return nil, err
		}
		defer br.Close()
	}

	agent := builtin.New(cfg.Logger)
	if br != nil {
		// The suite judges what a person would get: the critic looks at stills too.
		agent = agent.WithCamera(&stills.Camera{Browser: br})
	}
	r := &runner{cfg: cfg, sandboxes: sbs, browser: br, agent: agent}
	results := make([]*Result, len(prompts))
	sem := make(chan struct{}, cfg.Parallel)
	var wg sync.WaitGroup
	for i, p := range prompts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				results[i] = &Result{ID: p.ID, Prompt: p.Prompt, Failures: []string{ctx.Err().Error()}}
				return
			}
			defer func() { <-sem }()
			results[i] = r.run(ctx, p)
			cfg.Logger.Info("prompt checked", "id", p.ID, "passed", results[i].Passed(),
				"elapsed", results[i].Elapsed.Round(time.Millisecond), "failures", results[i].Failures)
		}()
	}
	wg.Wait()
	rep := &Report{Results: results, Elapsed: time.Since(start)}
	if cfg.Sheet != "" && !cfg.ScenesOnly && ctx.Err() == nil {
		if err := WriteSheet(cfg.Sheet, results); err != nil {
			return rep, err
		}
	}
	return rep, ctx.Err()
}

// Select keeps the prompts named by only: an exact ID names that prompt, anything else
// every prompt whose ID contains it ("data-" is every data prompt).
func Select(prompts []agent.SuitePrompt, only []string) []agent.SuitePrompt {
	exact := map[string]bool{}
	for _, p := range prompts {
		exact[p.ID] = true
	}
	var sel []agent.SuitePrompt
	for _, p := range prompts {
		for _, o := range only {
			o = strings.TrimSpace(o)
			if o != "" && (p.ID == o || !exact[o] && strings.Contains(p.ID, o)) {
				sel = append(sel, p)
				break
			}
		}
	}
	return sel
}

type runner struct {
	cfg       Config
	sandboxes *local.Provider
	browser   *stills.Browser
	agent     *builtin.Agent
}

// frameSize is the checked video's size for an aspect; stillSize the OCR still's.
func frameSize(aspect string) (w, h int) {
	switch aspect {
	case "portrait":
		return 180, 320
	case "square":
		return 240, 240
	}
	return 320, 180
}

func stillSize(aspect string) (w, h int) {
	switch aspect {
	case "portrait":
		return 720, 1280
	case "square":
		return 900, 900
	}
	return 1280, 720
}

// nopReporter discards the agent's progress reports.
type nopReporter struct{}

func (nopReporter) TodoUpdate(context.Context, string, koda.TodoStatus) {}
func (nopReporter) Thinking(context.Context, string)                    {}
func (nopReporter) Message(context.Context, string, string)             {}
func (nopReporter) FileWritten(context.Context, string, int64)          {}

func (r *runner) run(ctx context.Context, sp agent.SuitePrompt) *Result {
	res := &Result{ID: sp.ID, Prompt: sp.Prompt, Aspect: orDefault(sp.Expect.Aspect, "landscape"), OCR: map[string]string{}}
	began := time.Now()
	defer func() { res.Elapsed = time.Since(began) }()

	p := &koda.Project{ID: "prj_" + strings.ReplaceAll(sp.ID, "-", "_"), Prompt: sp.Prompt}
	an, err := r.agent.Analyze(ctx, p)
	if err != nil {
		res.failf("analyze: %v", err)
		return res
	}
	wantAspect := orDefault(sp.Expect.Aspect, "landscape")
	if r.cfg.AgentAspect && sp.Expect.Aspect == "" {
		wantAspect = orDefault(an.Aspect, "landscape")
		res.Aspect = wantAspect
	}
	if got := orDefault(an.Aspect, "landscape"); got != wantAspect {
		res.failf("aspect %s, want %s", got, wantAspect)
	}
	if an.Question != nil {
		// The user picks the style the agent read in the prompt, or the calm default.
		p.Question = an.Question
		p.Question.Answer = &koda.Answer{OptionID: string(orStyle(an.Style, koda.StyleSmooth))}
	}
	pl, err := r.agent.Plan(ctx, p, "")
	if err != nil {
		res.failf("plan: %v", err)
		return res
	}
	p.Plan = pl
	res.DurationS = pl.DurationS
	if d := sp.Expect.DurationS; d > 0 && pl.DurationS != d {
		res.failf("plan lasts %gs, the prompt asked for %gs", pl.DurationS, d)
	}
	for _, f := range CheckPlan(pl) {
		res.failf("plan: %s", f)
	}

	sb, err := r.sandboxes.Create(ctx, koda.SandboxSpec{ProjectID: p.ID})
	if err != nil {
		res.failf("sandbox: %v", err)
		return res
	}
	defer func() { _ = r.sandboxes.Destroy(context.WithoutCancel(ctx), sb.ID()) }()
	if err := r.agent.Generate(ctx, p, sb, nopReporter{}); err != nil {
		res.failf("generate: %v", err)
		return res
	}
	raw, err := sb.ReadFile(ctx, scene.FileJSON, 0, 0)
	if err != nil {
		res.failf("read scene: %v", err)
		return res
	}
	res.Semantic = CheckScene(raw, sp.Expect, r.cfg.Keywords)
	d, err := scene.Parse(raw)
	if err != nil {
		res.failf("scene: %v", err)
		return res
	}
	// The agent's critic ran before the scene was written; what it could not fix shows.
	for _, pr := range critic.Check(d, critic.FrameFor(wantAspect)) {
		res.failf("critic: %s", pr)
	}
	if r.cfg.ScenesOnly {
		return res
	}

	w, h := frameSize(wantAspect)
	out := filepath.Join(r.cfg.WorkDir, "videos", sp.ID+".mp4")
	preset := koda.PresetSpec{Name: "custom", Width: w, Height: h, FPS: r.cfg.FPS, CRF: 23, Format: koda.FormatMP4}
	if _, err := r.cfg.Renderer.Render(ctx, koda.RenderRequest{Dir: sb.Dir(), Preset: preset, DurationS: pl.DurationS, VideoPath: out}, nil); err != nil {
		res.failf("render: %v", err)
		return res
	}
	want := preset.Frames(pl.DurationS)
	n, err := probeFrames(ctx, out)
	if err != nil {
		res.failf("ffprobe: %v", err)
		return res
	}
	res.Frames = n
	if n != want {
		res.failf("video has %d frames, want %d (%gs at %d fps)", n, want, pl.DurationS, r.cfg.FPS)
	}
	frames, err := decodeFrames(ctx, out, w, h)
	if err != nil {
		res.failf("decode: %v", err)
		return res
	}
	res.Stills = pickStills(frames)
	for i, f := range frames {
		if blank(f) {
			res.failf("frame %d (%.1fs) is blank", i, float64(i)/float64(r.cfg.FPS))
			break
		}
	}
	res.MinMotion = math.Inf(1)
	for _, sc := range pl.Scenes {
		e := motionEnergy(frames, sc.StartS, sc.EndS, r.cfg.FPS)
		res.SceneMotion = append(res.SceneMotion, math.Round(e*100)/100)
		res.MinMotion = math.Min(res.MinMotion, e)
		if e < MinSceneMotion {
			res.failf("scene %q (%.2f–%.2fs) barely moves: motion energy %.3f < %.2f", sc.Name, sc.StartS, sc.EndS, e, MinSceneMotion)
		}
	}
	if want := sp.Expect.Direction; want != "" {
		dx, dy, ok := framesTravel(frames)
		if got := directionOf(dx, dy); !ok || got != want {
			res.failf("what moves travels %q (%+.2f, %+.2f of the frame), the prompt says %s", got, dx, dy, want)
		}
	}
	buckets := colorBuckets(frames)
	for _, c := range dominant(buckets) {
		res.Dominant = append(res.Dominant, c.hex())
	}
	for _, name := range sp.Expect.Colors {
		if !hasColor(buckets, name) {
			res.failf("colour %s not among the dominant colours %v", name, res.Dominant)
		}
	}
	if len(sp.Expect.Texts) > 0 {
		sw, shh := stillSize(wantAspect)
		for _, text := range sp.Expect.Texts {
			got, err := r.readText(ctx, sb.Dir(), d, text, sw, shh, filepath.Join(r.cfg.WorkDir, "stills", sp.ID))
			res.OCR[text] = got
			if err != nil {
				res.failf("text %q: %v", text, err)
				continue
			}
			if !textMatches(text, got) {
				res.failf("text %q not read on screen (tesseract read %q)", text, got)
			}
		}
	}
	return res
}

// CheckPlan checks the specification's planning rules: scenes of at least 1.5 s, 3–7
// scenes under 30 s and 5–12 from 30 s (fewer when they would not fit at 1.5 s each),
// contiguous from 0 to the total, each with entry, hold and exit, and a todo per scene.
func CheckPlan(pl *koda.Plan) []string {
	var out []string
	n := len(pl.Scenes)
	lo, hi := 3, 7
	if pl.DurationS >= 30 {
		lo, hi = 5, 12
	}
	fit := int(math.Floor(pl.DurationS/1.5 + 1e-9))
	lo, hi = min(lo, max(fit, 1)), min(hi, max(fit, 1))
	if n < lo || n > hi {
		out = append(out, fmt.Sprintf("%d scenes for %gs, want %d–%d", n, pl.DurationS, lo, hi))
	}
	at := 0.0
	for _, sc := range pl.Scenes {
		if math.Abs(sc.StartS-at) > 1e-6 {
			out = append(out, fmt.Sprintf("scene %q starts at %g, previous ended at %g", sc.Name, sc.StartS, at))
		}
		if sc.EndS-sc.StartS < 1.5-1e-6 && n > 1 {
			out = append(out, fmt.Sprintf("scene %q lasts %.2fs < 1.5s", sc.Name, sc.EndS-sc.StartS))
		}
		if sc.Entry == "" || sc.Hold == "" || sc.Exit == "" {
			out = append(out, fmt.Sprintf("scene %q lacks entry, hold or exit", sc.Name))
		}
		at = sc.EndS
	}
	if math.Abs(at-pl.DurationS) > 1e-6 {
		out = append(out, fmt.Sprintf("scenes end at %g, plan lasts %g", at, pl.DurationS))
	}
	if len(pl.Todos) < n {
		out = append(out, fmt.Sprintf("%d todos for %d scenes", len(pl.Todos), n))
	}
	return out
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func orStyle(s, d koda.Style) koda.Style {
	if s == "" || s == koda.StyleCustom {
		return d
	}
	return s
}

// saveStill keeps a still for a person to look at when a text check fails.
func saveStill(dir, name string, png []byte) {
	if err := os.MkdirAll(dir, 0o755); err == nil {
		_ = os.WriteFile(filepath.Join(dir, name), png, 0o644)
	}
}
