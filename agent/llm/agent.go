package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
)

// Config configures the LLM agent. Zero fields take the documented defaults.
type Config struct {
	// Model runs the orchestrator and the planner. Required.
	Model Model
	// CodeModel runs the code generator; default Model.
	CodeModel Model
	// Renderer smoke-renders the generated project after each attempt. Required.
	Renderer koda.Renderer
	// Limiter bounds requests in flight per provider across workers; nil means none.
	Limiter Limiter
	// Logger receives diagnostics; default discards.
	Logger *slog.Logger
	// MaxTurns bounds the orchestrator's model calls per attempt; default 40.
	MaxTurns int
	// Retries is how often a build or smoke-render failure is fed back before the
	// project fails; default 3.
	Retries int
	// KeepMessages is how many recent messages stay verbatim; older ones are
	// summarised. Default 10.
	KeepMessages int
}

// Agent is the LLM koda.Agent.
type Agent struct {
	cfg     Config
	model   Model
	code    Model
	log     *slog.Logger
	builtin *builtin.Agent
}

var _ koda.Agent = (*Agent)(nil)

// New returns the LLM agent.
func New(cfg Config) (*Agent, error) {
	if cfg.Model == nil {
		return nil, errors.New("llm agent: no model configured")
	}
	if cfg.Renderer == nil {
		return nil, errors.New("llm agent: no renderer for smoke renders")
	}
	if cfg.CodeModel == nil {
		cfg.CodeModel = cfg.Model
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxTurns <= 0 {
		cfg.MaxTurns = 40
	}
	if cfg.Retries <= 0 {
		cfg.Retries = 3
	}
	if cfg.KeepMessages <= 0 {
		cfg.KeepMessages = 10
	}
	a := &Agent{cfg: cfg, model: cfg.Model, code: cfg.CodeModel, log: cfg.Logger.With("agent", cfg.Model.Provider())}
	if cfg.Limiter != nil {
		a.model = limited{Model: cfg.Model, l: cfg.Limiter}
		a.code = limited{Model: cfg.CodeModel, l: cfg.Limiter}
	}
	a.builtin = builtin.New(cfg.Logger)
	return a, nil
}

// Analyze reads the prompt with the builtin rules: whether to ask the style question is
// a decision the specification states as rules (explicit style, reference, specific
// prompt), and it costs no model call.
func (a *Agent) Analyze(ctx context.Context, p *koda.Project) (*koda.Analysis, error) {
	return a.builtin.Analyze(ctx, p)
}

// planInput is what submit_plan takes.
type planInput struct {
	Title     string  `json:"title"`
	DurationS float64 `json:"duration_s"`
	Scenes    []struct {
		Name        string  `json:"name"`
		StartS      float64 `json:"start_s"`
		EndS        float64 `json:"end_s"`
		Description string  `json:"description"`
		Entry       string  `json:"entry"`
		Hold        string  `json:"hold"`
		Exit        string  `json:"exit"`
		Easing      string  `json:"easing"`
	} `json:"scenes"`
}

var submitPlan = ToolSpec{Name: "submit_plan", Description: "Submit the animation plan.",
	Schema: obj(map[string]any{
		"title":      str("short title"),
		"duration_s": num("total seconds"),
		"scenes": map[string]any{"type": "array", "items": obj(map[string]any{
			"name": str("scene title"), "start_s": num("start"), "end_s": num("end"), "description": str("what happens"),
			"entry": str("entry animation"), "hold": str("hold"), "exit": str("exit animation"), "easing": str("main easing"),
		}, "name", "start_s", "end_s", "description", "entry", "hold", "exit", "easing")},
	}, "title", "duration_s", "scenes")}

// Plan asks the model for a plan through submit_plan, checks it against the planning
// rules and returns a broken plan to the model with the reasons, up to Retries times.
func (a *Agent) Plan(ctx context.Context, p *koda.Project, feedback string) (*koda.Plan, error) {
	an, err := a.builtin.Analyze(ctx, p)
	if err != nil {
		return nil, err
	}
	style := p.Style
	if style == "" && p.Question != nil && p.Question.Answer != nil {
		style = koda.Style(p.Question.Answer.OptionID)
	}
	if style == "" {
		style = an.Style
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Request: %q\nStyle: %s %s\n", p.Prompt, orDefault(string(style), "smooth"), p.StyleNote)
	// The model plans within the presets' limit from the start: buildPlan refuses a
	// longer plan, and each refusal costs a model call.
	if p.DurationS > 0 {
		want, shortened := koda.FitDuration(p.Presets, p.DurationS)
		fmt.Fprintf(&b, "Requested duration: %gs\n", want)
		if shortened != "" {
			fmt.Fprintf(&b, "(%s)\n", shortened)
		}
	} else {
		suggested, _ := koda.FitDuration(p.Presets, an.DurationS)
		fmt.Fprintf(&b, "Suggested duration: %gs\n", suggested)
	}
	if maxS, preset := koda.DurationLimit(p.Presets); maxS > 0 {
		fmt.Fprintf(&b, "Length limit: %s allows at most %gs; never plan longer, whatever the request or feedback says.\n", preset, maxS)
	}
	if feedback != "" && p.Plan != nil {
		pb, _ := json.Marshal(p.Plan)
		fmt.Fprintf(&b, "\nPrevious plan: %s\nThe user rejected it with this feedback: %q\n", pb, feedback)
	}
	msgs := []Message{{Role: RoleUser, Parts: []Part{{Text: b.String()}}}}
	for attempt := 0; attempt <= a.cfg.Retries; attempt++ {
		resp, err := a.model.Complete(ctx, Request{System: planInstructions, Messages: msgs, Tools: []ToolSpec{submitPlan}, MaxTokens: 4000})
		if err != nil {
			return nil, fmt.Errorf("plan %s: %w", p.ID, err)
		}
		msgs = append(msgs, Message{Role: RoleAssistant, Parts: resp.Parts})
		var reply []Part
		var pl *koda.Plan
		var problems []string
		for _, c := range resp.Calls() {
			if c.Tool != submitPlan.Name {
				reply = append(reply, Part{CallID: c.CallID, Result: `{"error":{"code":"INVALID_REQUEST","message":"only submit_plan is available"}}`, IsError: true})
				continue
			}
			var in planInput
			if err := json.Unmarshal(c.Input, &in); err != nil {
				problems = []string{"the input is not the plan object: " + err.Error()}
			} else {
				pl, problems = buildPlan(in, style, p, feedback)
			}
			if len(problems) > 0 {
				pl = nil
				reply = append(reply, Part{CallID: c.CallID, Result: "The plan breaks the rules: " + strings.Join(problems, "; ") + ". Submit a corrected plan.", IsError: true})
			} else {
				reply = append(reply, Part{CallID: c.CallID, Result: `{"success":true}`})
			}
		}
		if pl != nil {
			a.log.InfoContext(ctx, "planned", "project", p.ID, "scenes", len(pl.Scenes), "duration_s", pl.DurationS, "attempt", attempt+1)
			return pl, nil
		}
		if len(reply) == 0 {
			reply = []Part{{Text: "Call submit_plan with the plan."}}
		}
		msgs = append(msgs, Message{Role: RoleUser, Parts: reply})
	}
	return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAgentFailed, "the model did not produce a plan that keeps the planning rules after %d attempts", a.cfg.Retries+1)
}

// buildPlan turns submit_plan's input into a koda.Plan with todos, or says which rules
// it breaks.
func buildPlan(in planInput, style koda.Style, p *koda.Project, feedback string) (*koda.Plan, []string) {
	var problems []string
	n := len(in.Scenes)
	maxS, preset := koda.DurationLimit(p.Presets)
	want, shortened := koda.FitDuration(p.Presets, p.DurationS)
	switch {
	case maxS > 0 && in.DurationS > maxS+1e-6:
		problems = append(problems, fmt.Sprintf("the plan lasts %gs but %s allows at most %gs", in.DurationS, preset, maxS))
	case p.DurationS > 0 && math.Abs(in.DurationS-want) > 1e-6 && feedback == "":
		// want is the request within the limit, as the model was told it.
		problems = append(problems, fmt.Sprintf("the user asked for %gs, the plan lasts %gs", want, in.DurationS))
	}
	if in.DurationS < koda.MinDurationS || in.DurationS > koda.MaxDurationS {
		problems = append(problems, fmt.Sprintf("duration %gs outside %d–%ds", in.DurationS, koda.MinDurationS, koda.MaxDurationS))
	}
	lo, hi := 3, 7
	if in.DurationS >= 30 {
		lo, hi = 5, 12
	}
	fit := max(int(math.Floor(in.DurationS/1.5+1e-9)), 1)
	lo, hi = min(lo, fit), min(hi, fit)
	if n < lo || n > hi {
		problems = append(problems, fmt.Sprintf("%d scenes; %gs needs %d–%d", n, in.DurationS, lo, hi))
	}
	pl := &koda.Plan{Title: in.Title, Style: style, DurationS: in.DurationS, Feedback: feedback, Revision: 1}
	if shortened != "" && math.Abs(in.DurationS-want) <= 1e-6 {
		pl.Notes = append(pl.Notes, shortened)
	}
	if p.Plan != nil {
		pl.Revision = p.Plan.Revision + 1
	}
	at := 0.0
	for i, sc := range in.Scenes {
		if math.Abs(sc.StartS-at) > 0.011 {
			problems = append(problems, fmt.Sprintf("scene %d starts at %g but the previous one ends at %g", i+1, sc.StartS, at))
		}
		if sc.EndS-sc.StartS < 1.5-1e-6 && n > 1 {
			problems = append(problems, fmt.Sprintf("scene %d lasts %.2fs, under 1.5s", i+1, sc.EndS-sc.StartS))
		}
		if sc.Entry == "" || sc.Hold == "" || sc.Exit == "" {
			problems = append(problems, fmt.Sprintf("scene %d lacks an entry, hold or exit", i+1))
		}
		at = sc.EndS
		pl.Scenes = append(pl.Scenes, koda.Scene{ID: fmt.Sprintf("s%d", i+1), Name: sc.Name, StartS: sc.StartS, EndS: sc.EndS,
			Description: sc.Description, Entry: sc.Entry, Hold: sc.Hold, Exit: sc.Exit, Easing: sc.Easing})
	}
	if n > 0 && math.Abs(at-in.DurationS) > 0.011 {
		problems = append(problems, fmt.Sprintf("the scenes end at %g, not at the total %g", at, in.DurationS))
	}
	pl.Todos = append(pl.Todos, koda.Todo{ID: builtin.TodoSetup, Title: "Set up the page and runtime", Status: koda.TodoPending})
	for i, sc := range pl.Scenes {
		pl.Todos = append(pl.Todos, koda.Todo{ID: fmt.Sprintf("scene-%d", i+1), Title: fmt.Sprintf("Create scene %d (%s)", i+1, sc.Name), Status: koda.TodoPending})
	}
	pl.Todos = append(pl.Todos,
		koda.Todo{ID: builtin.TodoPolish, Title: "Polish: shadows, background, camera and effects", Status: koda.TodoPending},
		koda.Todo{ID: koda.TodoRenderPreview, Title: "Render preview", Status: koda.TodoPending})
	return pl, problems
}

// Generate runs the orchestrator over the plan's todos, then smoke-renders the result;
// a failure goes back to the orchestrator, at most Retries times.
func (a *Agent) Generate(ctx context.Context, p *koda.Project, sb koda.Sandbox, r koda.Reporter) error {
	if p.Plan == nil {
		pl, err := a.Plan(ctx, p, "")
		if err != nil {
			return err
		}
		p.Plan = pl
	}
	files, err := sb.ListFiles(ctx, ".", true)
	if err != nil {
		return fmt.Errorf("generate %s: list files: %w", p.ID, err)
	}
	s := &session{p: p, sb: sb, r: r, written: map[string]bool{},
		msgs: []Message{{Role: RoleUser, Parts: []Part{{Text: taskMessage(p, files)}}}}}
	_, err = a.work(ctx, s)
	return err
}

// work runs the orchestrator until it finishes and the project renders.
func (a *Agent) work(ctx context.Context, s *session) (string, error) {
	for attempt := 0; ; attempt++ {
		if err := a.loop(ctx, s); err != nil {
			return "", err
		}
		problem := a.smoke(ctx, s.sb, s.p)
		if problem == "" {
			return s.summary, nil
		}
		a.log.WarnContext(ctx, "smoke render failed", "project", s.p.ID, "attempt", attempt+1, "problem", problem)
		if attempt >= a.cfg.Retries {
			return "", koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAgentFailed,
				"The generated animation still does not render after %d fixes: %s", a.cfg.Retries, problem)
		}
		s.r.Thinking(ctx, fmt.Sprintf("Fixing a render failure (%d/%d)", attempt+1, a.cfg.Retries))
		s.finished = false
		s.msgs = append(s.msgs, Message{Role: RoleUser, Parts: []Part{{Text: "The smoke render of the project failed:\n" + problem +
			"\nFix the files (generate_code with the error), check with render_preview, then finish again."}}})
	}
}

// loop runs the orchestrator's turns until it calls finish or stops calling tools.
func (a *Agent) loop(ctx context.Context, s *session) error {
	for turn := 0; turn < a.cfg.MaxTurns; turn++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		resp, err := a.model.Complete(ctx, Request{System: orchestratorInstructions, Messages: compact(s.msgs, a.cfg.KeepMessages),
			Tools: catalog, MaxTokens: 4000})
		if err != nil {
			return fmt.Errorf("orchestrate %s: %w", s.p.ID, err)
		}
		s.msgs = append(s.msgs, Message{Role: RoleAssistant, Parts: resp.Parts})
		calls := resp.Calls()
		if len(calls) == 0 {
			if s.summary == "" {
				s.summary = resp.Text()
			}
			return nil
		}
		var results []Part
		for _, c := range calls {
			results = append(results, a.run(ctx, s, c))
		}
		s.msgs = append(s.msgs, Message{Role: RoleUser, Parts: results})
		if s.finished {
			return nil
		}
	}
	return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAgentFailed, "the orchestrator did not finish within %d turns", a.cfg.MaxTurns)
}

// smoke renders the first frames at a small size: it proves index.html exists, loads,
// follows the export protocol and draws. It returns "" or what went wrong.
func (a *Agent) smoke(ctx context.Context, sb koda.Sandbox, p *koda.Project) string {
	if _, err := sb.ReadFile(ctx, "index.html", 0, 1); err != nil {
		return "index.html is missing: " + koda.ErrorMessage(err)
	}
	dir, err := os.MkdirTemp("", "koda-smoke-*")
	if err != nil {
		return "smoke render: " + err.Error()
	}
	defer os.RemoveAll(dir)
	d := 2.0
	if p.Plan != nil && p.Plan.DurationS > 0 {
		d = p.Plan.DurationS
	}
	preset := koda.PresetSpec{Name: "custom", Width: 160, Height: 90, FPS: 2, CRF: 30, Format: koda.FormatMP4}
	_, err = a.cfg.Renderer.Render(ctx, koda.RenderRequest{Dir: sb.Dir(), Preset: preset, DurationS: d,
		FrameStart: 0, FrameEnd: min(3, preset.Frames(d)), VideoPath: filepath.Join(dir, "smoke.mp4")}, nil)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err().Error()
		}
		return koda.ErrorMessage(err) + detail(err)
	}
	return ""
}

func detail(err error) string {
	var ke *koda.Error
	if errors.As(err, &ke) && ke.Err != nil {
		return " (" + ke.Err.Error() + ")"
	}
	return ""
}

// Revise gives the orchestrator the feedback, the current files and the earlier
// conversation, lets it change what the feedback concerns, smoke-renders, and answers
// its summary with a diff of the changed files.
func (a *Agent) Revise(ctx context.Context, p *koda.Project, feedback string, sb koda.Sandbox, r koda.Reporter) (string, error) {
	files, err := sb.ListFiles(ctx, ".", true)
	if err != nil {
		return "", fmt.Errorf("revise %s: list files: %w", p.ID, err)
	}
	before := map[string]string{}
	var b strings.Builder
	fmt.Fprintf(&b, "The animation for %q exists. The user's feedback on the preview:\n%q\n\n", p.Prompt, feedback)
	writePlan(&b, p.Plan)
	if prefs := userWords(p.Execution.Messages); prefs != "" {
		b.WriteString("\nEarlier in this project the user said:\n" + prefs)
	}
	b.WriteString("\nCurrent files:\n")
	for _, f := range files {
		if f.IsDir {
			continue
		}
		c, err := sb.ReadFile(ctx, f.Path, 0, 0)
		if err != nil {
			continue
		}
		before[f.Path] = string(c)
		if f.Path == "runtime.js" || f.SizeBytes > 32<<10 {
			fmt.Fprintf(&b, "--- %s (%d bytes, not shown: static or large)\n", f.Path, f.SizeBytes)
			continue
		}
		fmt.Fprintf(&b, "--- %s\n%s\n", f.Path, c)
	}
	b.WriteString("\nChange only what the feedback concerns, check with render_preview, then finish with a summary of the change.")
	s := &session{p: p, sb: sb, r: r, written: map[string]bool{}, msgs: []Message{{Role: RoleUser, Parts: []Part{{Text: b.String()}}}}}
	summary, err := a.work(ctx, s)
	if err != nil {
		return "", err
	}
	var changed []string
	for path := range s.written {
		changed = append(changed, path)
	}
	sort.Strings(changed)
	var diffs []string
	for _, path := range changed {
		now, err := sb.ReadFile(ctx, path, 0, 0)
		if err != nil || string(now) == before[path] {
			continue
		}
		diffs = append(diffs, lineDiff(path, before[path], string(now)))
	}
	if len(diffs) == 0 {
		return orDefault(summary, "Nothing needed to change."), nil
	}
	return orDefault(summary, "Updated the animation.") + "\n\n" + strings.Join(diffs, "\n"), nil
}

// userWords keeps the user's own messages: preferences survive any summarising.
func userWords(ms []koda.Message) string {
	var b strings.Builder
	for _, m := range ms {
		if m.Role == RoleUser {
			fmt.Fprintf(&b, "- %s\n", truncate(m.Content, 300))
		}
	}
	return b.String()
}

// lineDiff is a compact diff of one file: the lines removed and added (at most 20).
func lineDiff(path, before, after string) string {
	bl, al := strings.Split(before, "\n"), strings.Split(after, "\n")
	inB, inA := map[string]int{}, map[string]int{}
	for _, l := range bl {
		inB[l]++
	}
	for _, l := range al {
		inA[l]++
	}
	var out []string
	for _, l := range bl {
		if inA[l] == 0 {
			out = append(out, "- "+l)
		} else {
			inA[l]--
		}
	}
	for _, l := range al {
		if inB[l] == 0 {
			out = append(out, "+ "+l)
		} else {
			inB[l]--
		}
	}
	if len(out) > 20 {
		out = append(out[:20], fmt.Sprintf("… %d more changed lines", len(out)-20))
	}
	return "--- " + path + "\n" + strings.Join(out, "\n")
}

// compact keeps the task and the last keep messages verbatim and summarises the ones
// between (specification §1.4): tool call details are dropped after completion, what
// was done is kept as one line per call, and the user's words are kept whole.
func compact(msgs []Message, keep int) []Message {
	if len(msgs) <= keep+2 {
		return msgs
	}
	cut := len(msgs) - keep
	// The kept tail must start with an assistant turn, so no tool result is separated
	// from its call.
	for cut < len(msgs) && msgs[cut].Role != RoleAssistant {
		cut++
	}
	if cut <= 1 || cut >= len(msgs) {
		return msgs
	}
	calls := map[string]string{}
	var lines []string
	for _, m := range msgs[1:cut] {
		for _, p := range m.Parts {
			switch {
			case p.IsCall():
				calls[p.CallID] = p.Tool + summariseInput(p.Input)
			case p.IsResult():
				status := "ok"
				if p.IsError {
					status = "failed: " + truncate(p.Result, 160)
				}
				lines = append(lines, fmt.Sprintf("- %s → %s", calls[p.CallID], status))
			case p.Text != "" && m.Role == RoleUser:
				lines = append(lines, "- the user said: "+p.Text)
			case p.Text != "":
				lines = append(lines, "- you said: "+truncate(p.Text, 200))
			}
		}
	}
	summary := Message{Role: RoleUser, Parts: []Part{{Text: "Summary of the earlier work (older messages were summarised):\n" + strings.Join(lines, "\n")}}}
	out := make([]Message, 0, len(msgs)-cut+2)
	out = append(out, msgs[0], summary)
	return append(out, msgs[cut:]...)
}

// summariseInput names a call's target (its path, todo or message) without its content.
func summariseInput(in json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(in, &m) != nil {
		return ""
	}
	for _, k := range []string{"path", "todo_id", "status", "message", "task", "pattern", "command"} {
		if v, ok := m[k].(string); ok && v != "" {
			return fmt.Sprintf("(%s=%s)", k, truncate(v, 60))
		}
	}
	return ""
}
