package workers

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/internal/storage"
	"github.com/kodahq/koda/jobs"
)

// TestDurationBeyondReelsLimitShortenedAtPlanTimeWithAutoApprove: a prompt implying two
// minutes for instagram_reels (at most 90 s), auto-approved, is planned at 90 s by the
// real plan handler and builtin agent, the plan and the conversation say why, and the
// project reaches its final render instead of failing with DURATION_OVER_PRESET_LIMIT
// after the preview.
func TestDurationBeyondReelsLimitShortenedAtPlanTimeWithAutoApprove(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	life := b.h.Lifecycle
	life.Storage = storage.NewLocal(filepath.Join(t.TempDir(), "storage"), "http://files.test", []byte("signing"))
	b.h.Agent = builtin.New(nil)
	reels, err := koda.LookupPreset("instagram_reels")
	if err != nil {
		t.Fatal(err)
	}
	p, err := life.Create(ctx, koda.NewProject{TenantID: "t1", AutoApprove: true, Presets: []koda.PresetSpec{reels},
		Prompt: "A two-minute video: a red ball bounces across the screen, then the text 'Hello' appears"})
	if err != nil {
		t.Fatalf("a prompt implying a length is not refused at submission: %v", err)
	}

	if err := b.h.plan(ctx, nil, jobs.PlanArgs{ProjectID: p.ID, Step: p.Step}); err != nil {
		t.Fatal(err)
	}
	p, err = b.store.GetProject(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Phase != koda.PhaseExecuting || p.Plan == nil {
		t.Fatalf("auto-approved project after planning: phase %s, plan %v, error %+v", p.Phase, p.Plan != nil, p.Error)
	}
	if p.Plan.DurationS != 90 || p.DurationS != 90 {
		t.Fatalf("plan lasts %g s, project %g s; want both at the 90 s limit of instagram_reels", p.Plan.DurationS, p.DurationS)
	}
	if last := p.Plan.Scenes[len(p.Plan.Scenes)-1]; last.EndS != 90 {
		t.Errorf("the last scene ends at %g s, want 90", last.EndS)
	}
	if note := strings.Join(p.Plan.Notes, " "); !strings.Contains(note, "instagram_reels") || !strings.Contains(note, "90 s") || !strings.Contains(note, "120 s") {
		t.Errorf("plan notes %q do not say it was shortened from 120 s and why", p.Plan.Notes)
	}
	if !said(p, "instagram_reels allows at most 90 s") {
		t.Errorf("no message tells the user why the plan is shorter: %+v", p.Execution.Messages)
	}

	// Code generation and the preview as the workers would report them.
	if p, err = life.CodegenDone(ctx, p.ID, p.Step, nil, []koda.FileInfo{{Path: "index.html", SizeBytes: 10}}, ""); err != nil {
		t.Fatal(err)
	}
	preview := onlyRender(t, b, p.ID, koda.RenderPreview)
	if preview.DurationS != 90 {
		t.Errorf("preview renders %g s, want 90", preview.DurationS)
	}
	if _, _, err := life.StartRender(ctx, preview.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := life.FinishRender(ctx, preview.ID, lifecycle.RenderOutput{VideoKey: "projects/x/p.mp4", ThumbKey: "projects/x/p.jpg", Frames: 1350}, nil); err != nil {
		t.Fatal(err)
	}
	if p, err = life.PreviewRendered(ctx, p.ID, p.Step, preview.ID); err != nil {
		t.Fatalf("auto-approval after the preview: %v", err)
	}
	if p.Phase != koda.PhaseComplete || p.Error != nil {
		t.Fatalf("after the preview: phase %s, error %+v; want complete", p.Phase, p.Error)
	}
	final := onlyRender(t, b, p.ID, koda.RenderFinal)
	if final.Preset.Name != "instagram_reels" || final.DurationS != 90 || final.Status != koda.RenderQueued {
		t.Errorf("final render %s %g s %s, want a queued 90 s instagram_reels render", final.Preset.Name, final.DurationS, final.Status)
	}
}

func said(p *koda.Project, words string) bool {
	for _, m := range p.Execution.Messages {
		if m.Role == "assistant" && strings.Contains(m.Content, words) {
			return true
		}
	}
	return false
}

func onlyRender(t *testing.T, b *bundle, projectID string, kind koda.RenderKind) *koda.Render {
	t.Helper()
	rs, err := b.store.ListRenders(context.Background(), koda.RenderFilter{ProjectID: projectID})
	if err != nil {
		t.Fatal(err)
	}
	var out []*koda.Render
	for _, r := range rs {
		if r.Kind == kind {
			out = append(out, r)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%d %s renders, want 1", len(out), kind)
	}
	return out[0]
}
