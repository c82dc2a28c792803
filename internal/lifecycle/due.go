package lifecycle

import (
	"context"
	"fmt"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
)

// dueLimit bounds each kind of work one reconciler pass looks at; the rest waits for
// the next pass.
const dueLimit = 500

// Due is the work the database says some task should be doing: what the reconciler
// checks against the queue.
type Due struct {
	// Steps are projects waiting for the task of a step.
	Steps []DueStep
	// Renders are final renders queued or running; previews belong to their project's
	// step, and a render sharing a job that is still to finish belongs to that job.
	Renders []*koda.Render
	// Deliveries are webhook deliveries still to be sent.
	Deliveries []jobs.WebhookArgs
}

// DueStep is a project's pending step and the task that runs it. Task is nil and Err
// says why when the task cannot be rebuilt from the database (a pending preview
// without its render).
type DueStep struct {
	Project *koda.Project
	Task    jobs.Args
	Err     error
}

// DueWork lists the work waiting since before: projects with a pending step, final
// renders not yet done, and deliveries not yet sent.
func (s *Service) DueWork(ctx context.Context, before time.Time) (*Due, error) {
	var d Due
	projects, err := s.Store.ListProjects(ctx, koda.ProjectFilter{Pending: true, UpdatedBefore: before, Limit: dueLimit})
	if err != nil {
		return nil, fmt.Errorf("due projects: %w", err)
	}
	for _, p := range projects {
		task, err := s.pendingTask(ctx, p)
		if err != nil {
			d.Steps = append(d.Steps, DueStep{Project: p, Err: err})
			continue
		}
		if task != nil {
			d.Steps = append(d.Steps, DueStep{Project: p, Task: task})
		}
	}
	renders, err := s.Store.ListRenders(ctx, koda.RenderFilter{
		Statuses: []koda.RenderStatus{koda.RenderQueued, koda.RenderRunning}, CreatedBefore: before, Limit: dueLimit,
	})
	if err != nil {
		return nil, fmt.Errorf("due renders: %w", err)
	}
	for _, r := range renders {
		if r.Kind != koda.RenderFinal {
			continue
		}
		// A render whose source or capture finished without it (see RetryRender) is
		// due: its task, once enqueued, renders it on its own. While they run, their
		// job is the one to look after; a task of its own would do nothing and, done,
		// look like work lost.
		src, err := s.liveSource(ctx, s.Store, r)
		if err != nil {
			return nil, fmt.Errorf("due render %s: %w", r.ID, err)
		}
		capturer, err := s.liveCapture(ctx, s.Store, r)
		if err != nil {
			return nil, fmt.Errorf("due render %s: %w", r.ID, err)
		}
		if src == nil && capturer == nil {
			d.Renders = append(d.Renders, r)
		}
	}
	deliveries, err := s.Store.ListDeliveries(ctx, koda.DeliveryFilter{Status: koda.DeliveryPending, CreatedBefore: before, Limit: dueLimit})
	if err != nil {
		return nil, fmt.Errorf("due deliveries: %w", err)
	}
	for _, dl := range deliveries {
		d.Deliveries = append(d.Deliveries, jobs.WebhookArgs{DeliveryID: dl.ID})
	}
	return &d, nil
}

// pendingTask rebuilds the task a project waits for; nil for a step no task runs.
func (s *Service) pendingTask(ctx context.Context, p *koda.Project) (jobs.Args, error) {
	switch p.Pending {
	case jobs.KindPlan:
		return jobs.PlanArgs{ProjectID: p.ID, Step: p.Step}, nil
	case jobs.KindCodegen:
		return jobs.CodegenArgs{ProjectID: p.ID, Step: p.Step}, nil
	case jobs.KindPreview:
		rs, err := s.Store.ListRenders(ctx, koda.RenderFilter{ProjectID: p.ID,
			Statuses: []koda.RenderStatus{koda.RenderQueued, koda.RenderRunning}})
		if err != nil {
			return nil, err
		}
		for i := len(rs) - 1; i >= 0; i-- {
			if rs[i].Kind == koda.RenderPreview {
				return jobs.PreviewArgs{ProjectID: p.ID, Step: p.Step, RenderID: rs[i].ID}, nil
			}
		}
		return nil, fmt.Errorf("pending preview has no queued preview render")
	}
	return nil, nil
}

// TaskTenant names whose work a task is, from the IDs its payload carries: the
// delivery's tenant, else the render's, else the project's, else "" (tenantless work
// such as maintenance). A row that is gone is ENOTFOUND.
func (s *Service) TaskTenant(ctx context.Context, projectID, renderID, deliveryID string) (string, error) {
	switch {
	case deliveryID != "":
		d, err := s.Store.GetDelivery(ctx, deliveryID)
		if err != nil {
			return "", err
		}
		return d.TenantID, nil
	case renderID != "":
		r, err := s.Store.GetRender(ctx, renderID)
		if err != nil {
			return "", err
		}
		return r.TenantID, nil
	case projectID != "":
		p, err := s.Store.GetProject(ctx, projectID)
		if err != nil {
			return "", err
		}
		return p.TenantID, nil
	}
	return "", nil
}

// GiveUpStep fails a project whose step's task stopped its worker again and again:
// the step is not retried any more, the user sees why and may retry.
func (s *Service) GiveUpStep(ctx context.Context, p *koda.Project, times int) error {
	_, err := s.Fail(ctx, p.ID, p.Step, koda.Errorf(koda.EINTERNAL, koda.CodeAgentFailed,
		"the %s step stopped its worker %d times", p.Pending, times))
	return err
}

// GiveUpRender fails a render (whole, or one of its chunks or the stitch) whose task
// stopped its worker again and again.
func (s *Service) GiveUpRender(ctx context.Context, renderID, what string, times int) error {
	_, err := s.FinishRender(ctx, renderID, RenderOutput{}, koda.Errorf(koda.EINTERNAL, koda.CodeRenderFailed,
		"%s stopped its worker %d times", what, times))
	return err
}
