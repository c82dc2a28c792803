package lifecycle_test

import (
	"context"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/jobs"
)

// TestDueWorkAndTaskTenant: what the reconciler and the resource limits ask the
// lifecycle, on a real SQLite store.
func TestDueWorkAndTaskTenant(t *testing.T) {
	ctx := context.Background()
	st := kodatest.MustOpenDB(t)
	s := &lifecycle.Service{Store: st}
	now := time.Now().UTC()
	project := func(tenant, pending string) *koda.Project {
		t.Helper()
		p := &koda.Project{ID: koda.NewID(koda.PrefixProject), TenantID: tenant, Prompt: "a ball", Phase: koda.PhaseExecuting,
			DurationS: 1, Pending: pending, Step: 3, CreatedAt: now, UpdatedAt: now}
		if err := st.CreateProject(ctx, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	render := func(p *koda.Project, kind koda.RenderKind, status koda.RenderStatus) *koda.Render {
		t.Helper()
		r := &koda.Render{ID: koda.NewID(koda.PrefixRender), TenantID: p.TenantID, ProjectID: p.ID, Kind: kind,
			Preset: koda.PresetSpec{Name: "tiny", Width: 64, Height: 36, FPS: 5, Format: "mp4"}, DurationS: 1,
			Status: status, CreatedAt: now}
		if err := st.CreateRender(ctx, r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	delivery := func(p *koda.Project, status koda.DeliveryStatus) *koda.WebhookDelivery {
		t.Helper()
		d := &koda.WebhookDelivery{ID: koda.NewID(koda.PrefixDelivery), TenantID: p.TenantID, ProjectID: p.ID,
			URL: "http://93.184.216.34/hook", EventType: koda.WebhookRenderCompleted, Payload: []byte(`{}`), Status: status, CreatedAt: now}
		if err := st.CreateDelivery(ctx, d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	planning := project("acme", jobs.KindPlan)
	previewing := project("acme", jobs.KindPreview)
	oldPreview := render(previewing, koda.RenderPreview, koda.RenderFailed)
	preview := render(previewing, koda.RenderPreview, koda.RenderQueued)
	broken := project("globex", jobs.KindPreview) // waits for a preview it has no render for
	done := project("globex", "")
	final := render(done, koda.RenderFinal, koda.RenderRunning)
	render(done, koda.RenderFinal, koda.RenderSucceeded)
	pending := delivery(done, koda.DeliveryPending)
	delivery(done, koda.DeliveryDelivered)

	due, err := s.DueWork(ctx, now.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	steps := map[string]lifecycle.DueStep{}
	for _, st := range due.Steps {
		steps[st.Project.ID] = st
	}
	if len(steps) != 3 {
		t.Fatalf("due steps %+v, want planning, previewing and broken", due.Steps)
	}
	if got := steps[planning.ID].Task; got != (jobs.PlanArgs{ProjectID: planning.ID, Step: 3}) {
		t.Errorf("planning: task %#v", got)
	}
	if got := steps[previewing.ID].Task; got != (jobs.PreviewArgs{ProjectID: previewing.ID, Step: 3, RenderID: preview.ID}) {
		t.Errorf("previewing: task %#v, want the queued preview (not %s)", got, oldPreview.ID)
	}
	if b := steps[broken.ID]; b.Task != nil || b.Err == nil {
		t.Errorf("a pending preview without its render: %+v, want an error and no task", b)
	}
	if len(due.Renders) != 1 || due.Renders[0].ID != final.ID {
		t.Errorf("due renders %v, want only the running final %s", due.Renders, final.ID)
	}
	if len(due.Deliveries) != 1 || due.Deliveries[0].DeliveryID != pending.ID {
		t.Errorf("due deliveries %v, want only %s", due.Deliveries, pending.ID)
	}
	// Work newer than the cut-off is not due yet.
	if due, err := s.DueWork(ctx, now.Add(-time.Minute)); err != nil || len(due.Steps)+len(due.Renders)+len(due.Deliveries) != 0 {
		t.Errorf("work before the cut-off: %+v, %v", due, err)
	}

	for _, tc := range []struct {
		name                            string
		project, render, delivery, want string
	}{
		{"delivery", "", "", pending.ID, "globex"},
		{"render", planning.ID, final.ID, "", "globex"},
		{"project", planning.ID, "", "", "acme"},
		{"none", "", "", "", ""},
	} {
		got, err := s.TaskTenant(ctx, tc.project, tc.render, tc.delivery)
		if err != nil || got != tc.want {
			t.Errorf("%s: tenant %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	if _, err := s.TaskTenant(ctx, "", koda.NewID(koda.PrefixRender), ""); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Errorf("a render that is gone: %v, want ENOTFOUND", err)
	}
}
