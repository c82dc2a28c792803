package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/kodahq/koda"
)

const reelsWhy = "instagram_reels allows at most 90 s"

// An explicit duration_s beyond a preset's limit is refused at submission with
// DURATION_OVER_PRESET_LIMIT and nothing is stored; a length only implied by the prompt
// is accepted, for the planner to fit.
func TestExplicitDurationOverPresetLimitRefusedAtSubmission(t *testing.T) {
	b := setup(t)
	for _, presets := range [][]string{{"instagram_reels"}, {"youtube", "tiktok", "instagram_reels"}} {
		r := b.do("acme", http.MethodPost, "/v1/projects", map[string]any{
			"prompt": "a red ball bounces", "duration_s": 120, "auto_approve": true, "presets": presets,
		})
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		r.decode(t, &e)
		if r.Status != http.StatusUnprocessableEntity || e.Error.Code != koda.CodeDurationOverLimit ||
			!strings.Contains(e.Error.Message, "instagram_reels") {
			t.Errorf("%v, duration_s 120: %d %s; want 422 %s naming the preset", presets, r.Status, r.Body, koda.CodeDurationOverLimit)
		}
	}
	ps, err := b.store.ListProjects(context.Background(), koda.ProjectFilter{})
	if err != nil || len(ps) != 0 {
		t.Fatalf("refused requests stored %d projects (%v)", len(ps), err)
	}
	for _, body := range []map[string]any{
		{"prompt": "a red ball bounces", "duration_s": 90, "presets": []string{"instagram_reels"}},
		{"prompt": "A two-minute video of a red ball bouncing", "auto_approve": true, "presets": []string{"instagram_reels"}},
	} {
		if r := b.do("acme", http.MethodPost, "/v1/projects", body); r.Status != http.StatusAccepted {
			t.Errorf("%v: %d %s, want 202", body, r.Status, r.Body)
		}
	}
}

type limitedProject struct {
	Phase     string     `json:"phase"`
	DurationS float64    `json:"duration_s"`
	Plan      *koda.Plan `json:"plan"`
	Error     *koda.Failure
	Execution struct {
		Messages []koda.Message `json:"messages"`
	} `json:"execution"`
}

func (b *bundle) getLimited(id string) limitedProject {
	b.t.Helper()
	r := b.do("acme", http.MethodGet, "/v1/projects/"+id, nil)
	if r.Status != http.StatusOK {
		b.t.Fatalf("get %s: %d %s", id, r.Status, r.Body)
	}
	var p limitedProject
	r.decode(b.t, &p)
	return p
}

func (p limitedProject) says(words string) int {
	n := 0
	for _, m := range p.Execution.Messages {
		if m.Role == "assistant" && strings.Contains(m.Content, words) {
			n++
		}
	}
	return n
}

// longPlan is a plan of totalS seconds in three scenes, as an agent that ignores the
// presets' limit might make it.
func longPlan(totalS float64) *koda.Plan {
	return &koda.Plan{Title: "long", Style: koda.StyleSmooth, DurationS: totalS, Revision: 1,
		Scenes: []koda.Scene{
			{ID: "s1", Name: "intro", StartS: 0, EndS: totalS / 4},
			{ID: "s2", Name: "body", StartS: totalS / 4, EndS: totalS * 3 / 4},
			{ID: "s3", Name: "outro", StartS: totalS * 3 / 4, EndS: totalS},
		},
		Todos: []koda.Todo{{ID: "t1", Title: "x", Status: koda.TodoPending}}}
}

// TestPlanBeyondReelsLimitShortenedAtPlanTimeWithAutoApprove: whatever agent plans two
// minutes for an auto-approved instagram_reels project, the lifecycle stores a 90 s plan
// (scenes scaled in proportion) that says why, and the project reaches its final render
// at 90 s instead of failing with DURATION_OVER_PRESET_LIMIT after the preview. A
// revision that lengthens the video again is held to 90 s at the end of codegen.
func TestPlanBeyondReelsLimitShortenedAtPlanTimeWithAutoApprove(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	id := b.create("acme", map[string]any{"prompt": "A two-minute video of a red ball bouncing",
		"auto_approve": true, "presets": []string{"instagram_reels"}}).ID

	p, err := b.life.Planned(ctx, id, 1, nil, longPlan(120))
	if err != nil {
		t.Fatal(err)
	}
	got := b.getLimited(id)
	if got.Phase != string(koda.PhaseExecuting) || got.DurationS != 90 || got.Plan.DurationS != 90 {
		t.Fatalf("after planning: phase %s, project %g s, plan %g s; want executing at 90 s", got.Phase, got.DurationS, got.Plan.DurationS)
	}
	for i, want := range [][2]float64{{0, 22.5}, {22.5, 67.5}, {67.5, 90}} {
		if sc := got.Plan.Scenes[i]; sc.StartS != want[0] || sc.EndS != want[1] {
			t.Errorf("scene %d at %g–%g s, want %g–%g", i+1, sc.StartS, sc.EndS, want[0], want[1])
		}
	}
	if note := strings.Join(got.Plan.Notes, " "); !strings.Contains(note, reelsWhy) || !strings.Contains(note, "from 120 s") {
		t.Errorf("plan notes %q do not say it was shortened from 120 s and why", got.Plan.Notes)
	}
	if got.says(reelsWhy) != 1 {
		t.Errorf("the plan's message does not say why it is 90 s: %+v", got.Execution.Messages)
	}

	// Code generation whose revision made the video 120 s again.
	worked := *p
	worked.Plan, worked.DurationS = longPlan(120), 120
	if p, err = b.life.CodegenDone(ctx, id, p.Step, &worked, []koda.FileInfo{{Path: "index.html", SizeBytes: 10}}, ""); err != nil {
		t.Fatal(err)
	}
	if got := b.getLimited(id); got.DurationS != 90 || got.Plan.DurationS != 90 || got.says(reelsWhy) != 2 {
		t.Errorf("after a 120 s revision: project %g s, plan %g s, %d messages say why", got.DurationS, got.Plan.DurationS, got.says(reelsWhy))
	}
	rs, err := b.store.ListRenders(ctx, koda.RenderFilter{ProjectID: id})
	if err != nil || len(rs) != 1 || rs[0].Kind != koda.RenderPreview || rs[0].DurationS != 90 {
		t.Fatalf("renders after codegen %+v (%v), want one 90 s preview", rs, err)
	}
	b.finish(rs[0].ID, nil)
	if p, err = b.life.PreviewRendered(ctx, id, p.Step, rs[0].ID); err != nil {
		t.Fatalf("auto-approval after the preview: %v", err)
	}
	got = b.getLimited(id)
	if got.Phase != string(koda.PhaseComplete) || got.Error != nil {
		t.Fatalf("after the preview: phase %s, error %+v; want complete", got.Phase, got.Error)
	}
	rs, _ = b.store.ListRenders(ctx, koda.RenderFilter{ProjectID: id})
	var finals []*koda.Render
	for _, r := range rs {
		if r.Kind == koda.RenderFinal {
			finals = append(finals, r)
		}
	}
	if rs = finals; len(rs) != 1 || rs[0].Preset.Name != "instagram_reels" || rs[0].DurationS != 90 {
		t.Fatalf("final renders %+v, want one 90 s instagram_reels render", rs)
	}
	b.finish(rs[0].ID, nil)
}

// TestRetryOfAProjectPlannedBeyondTheLimit: a project that failed at approval for its
// length (planned before plans kept the limit) is retried with its plan shortened, so
// the retry does not repeat the failure.
func TestRetryOfAProjectPlannedBeyondTheLimit(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	id := b.create("acme", map[string]any{"prompt": "A two-minute video of a red ball bouncing",
		"auto_approve": true, "presets": []string{"tiktok", "instagram_reels"}}).ID
	p, err := b.store.GetProject(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	p.Plan, p.DurationS, p.Phase, p.Pending = longPlan(120), 120, koda.PhaseError, ""
	p.Error = &koda.Failure{Code: koda.CodeDurationOverLimit, Message: "duration 120s exceeds the 90s limit of preset instagram_reels"}
	if err := b.store.UpdateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	if r := b.do("acme", http.MethodPost, "/v1/projects/"+id+"/retry", map[string]any{}); r.Status >= 300 {
		t.Fatalf("retry: %d %s", r.Status, r.Body)
	}
	got := b.getLimited(id)
	if got.Phase != string(koda.PhaseExecuting) || got.DurationS != 90 || got.Plan.DurationS != 90 || got.says(reelsWhy) != 1 {
		t.Fatalf("retried: phase %s, project %g s, plan %g s, %d messages say why; want executing at 90 s",
			got.Phase, got.DurationS, got.Plan.DurationS, got.says(reelsWhy))
	}
	p, err = b.store.GetProject(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if p, err = b.life.CodegenDone(ctx, id, p.Step, nil, []koda.FileInfo{{Path: "index.html", SizeBytes: 10}}, ""); err != nil {
		t.Fatal(err)
	}
	rs, _ := b.store.ListRenders(ctx, koda.RenderFilter{ProjectID: id})
	b.finish(rs[0].ID, nil)
	if p, err = b.life.PreviewRendered(ctx, id, p.Step, rs[0].ID); err != nil || p.Phase != koda.PhaseComplete {
		t.Fatalf("auto-approval after the retried preview: phase %s, %v", p.Phase, err)
	}
}
