package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
)

// MaxBatchProjects bounds the projects of one batch request.
const MaxBatchProjects = 100

// batchCanceller is the part of the store that cancels batches.
type batchCanceller interface {
	CancelBatch(ctx context.Context, id string, t time.Time) (bool, error)
}

// tenantOf is the caller's tenant, the default tenant for internal callers.
func tenantOf(ctx context.Context) string {
	if t := koda.TenantFromContext(ctx); t != "" {
		return t
	}
	return koda.DefaultTenant
}

// List returns a page of the caller's projects, oldest first, and the cursor of the
// next page ("" when this is the last).
func (s *Service) List(ctx context.Context, q koda.ProjectQuery) ([]*koda.Project, string, error) {
	size := koda.PageSize(q.Limit)
	ps, err := s.Store.ListProjects(ctx, koda.ProjectFilter{TenantID: tenantOf(ctx), Phase: q.Phase,
		CreatedAfter: q.CreatedAfter, AfterID: q.Cursor, Limit: size + 1})
	if err != nil {
		return nil, "", err
	}
	ps, next := koda.Page(ps, size, func(p *koda.Project) string { return p.ID })
	return ps, next, nil
}

// taskArgs lists the tasks that may be queued or running for a project's work.
func projectTasks(p *koda.Project, renders []*koda.Render) []jobs.Args {
	var out []jobs.Args
	switch p.Pending {
	case jobs.KindPlan:
		out = append(out, jobs.PlanArgs{ProjectID: p.ID, Step: p.Step})
	case jobs.KindCodegen:
		out = append(out, jobs.CodegenArgs{ProjectID: p.ID, Step: p.Step})
	case jobs.KindPreview:
		out = append(out, jobs.PreviewArgs{ProjectID: p.ID, Step: p.Step})
	}
	for _, r := range renders {
		out = append(out, renderTasks(r)...)
	}
	return out
}

// renderTasks lists the task IDs a final render may have had: one per user retry.
func renderTasks(r *koda.Render) []jobs.Args {
	if r.Kind != koda.RenderFinal || r.Status.Done() {
		return nil
	}
	out := []jobs.Args{jobs.RenderArgs{RenderID: r.ID}}
	for a := 1; a <= r.Attempts; a++ {
		out = append(out, jobs.RenderArgs{RenderID: r.ID, Attempt: a})
	}
	return out
}

// Delete removes a project with its renders, batches of its own and events, cancels
// its queued and running tasks, and deletes its files and videos. Webhook deliveries
// already owed are still sent.
func (s *Service) Delete(ctx context.Context, id string) error {
	var cancel []jobs.Args
	err := s.inTx(ctx, func(tx koda.Store, c *change) error {
		p, err := s.load(ctx, tx, id)
		if err != nil {
			return err
		}
		renders, err := tx.ListRenders(ctx, koda.RenderFilter{ProjectID: id})
		if err != nil {
			return err
		}
		cancel = projectTasks(p, renders)
		if err := tx.DeleteProject(ctx, id); err != nil {
			return err
		}
		// A batch spanning projects may now have only finished renders left.
		seen := map[string]bool{}
		for _, r := range renders {
			if r.BatchID == "" || seen[r.BatchID] || r.Status.Done() {
				continue
			}
			seen[r.BatchID] = true
			b, err := tx.GetBatch(ctx, r.BatchID)
			if koda.ErrorKind(err) == koda.ENOTFOUND {
				continue // the project's own batch went with it
			}
			if err != nil {
				return err
			}
			if err := s.maybeCompleteBatch(ctx, tx, nil, b.ID, c); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.cancelTasks(ctx, cancel)
	if s.Storage != nil {
		if err := s.Storage.DeletePrefix(ctx, koda.ProjectFolder(id)+"/"); err != nil {
			// The rows are gone; leftover files are only disk space, so report success.
			s.log().Warn("delete project files", "project", id, "err", err)
		}
	}
	if s.Notify != nil {
		s.Notify(id)
	}
	return nil
}

func (s *Service) cancelTasks(ctx context.Context, args []jobs.Args) {
	if s.Tasks == nil {
		return
	}
	for _, a := range args {
		if err := s.Tasks.Cancel(context.WithoutCancel(ctx), a); err != nil {
			s.log().Warn("cancel task", "task", a.TaskID(), "err", err)
		}
	}
}

// CreateBatch renders every selected project for every preset as one batch;
// batch.completed goes to the request's callback URL once all renders finished.
func (s *Service) CreateBatch(ctx context.Context, req koda.BatchRequest) (*koda.Batch, error) {
	if len(req.Presets) == 0 {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidPreset, "presets must name at least one preset")
	}
	if err := koda.ValidateCallbackURL(req.CallbackURL); err != nil {
		return nil, err
	}
	if err := s.checkCallback(ctx, req.CallbackURL); err != nil {
		return nil, err
	}
	tenant := tenantOf(ctx)
	ids := req.ProjectIDs
	if len(ids) == 0 {
		phase := req.Phase
		if phase == "" {
			phase = koda.PhaseComplete
		}
		ps, err := s.Store.ListProjects(ctx, koda.ProjectFilter{TenantID: tenant, Phase: phase,
			CreatedAfter: req.CreatedAfter, Limit: MaxBatchProjects + 1})
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
		if len(ids) == 0 {
			return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeInvalidRequest, "the filter selects no projects")
		}
	}
	if len(ids) > MaxBatchProjects {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "a batch takes at most %d projects", MaxBatchProjects)
	}
	var b *koda.Batch
	err := s.inTx(ctx, func(tx koda.Store, c *change) error {
		seen := map[string]bool{}
		var projects []*koda.Project
		for _, id := range ids {
			if seen[id] {
				return koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "project %s is listed twice", id)
			}
			seen[id] = true
			p, err := s.load(ctx, tx, id)
			if err != nil {
				return err
			}
			if p.Phase != koda.PhaseComplete {
				return &koda.Error{Kind: koda.ECONFLICT, Code: koda.CodePhaseConflict, Phase: p.Phase,
					Message: fmt.Sprintf("project %s is in phase %s; only complete projects can be re-rendered", p.ID, p.Phase)}
			}
			if err := koda.CheckPresetDurations(req.Presets, p.DurationS); err != nil {
				return fmt.Errorf("project %s: %w", p.ID, err)
			}
			projects = append(projects, p)
		}
		if err := s.checkRenderLimits(ctx, tx, tenant, len(projects)*len(req.Presets)); err != nil {
			return err
		}
		now := s.now()
		b = &koda.Batch{ID: koda.NewID(koda.PrefixBatch), TenantID: tenant, CallbackURL: req.CallbackURL, CreatedAt: now}
		var renders []*koda.Render
		for _, p := range projects {
			for _, preset := range req.Presets {
				r := newFinalRender(p, b.ID, preset, now)
				renders = append(renders, r)
				b.RenderIDs = append(b.RenderIDs, r.ID)
			}
		}
		return s.storeBatch(ctx, tx, b, renders, c)
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

func newFinalRender(p *koda.Project, batchID string, preset koda.PresetSpec, now time.Time) *koda.Render {
	return &koda.Render{
		ID: koda.NewID(koda.PrefixRender), TenantID: p.TenantID, ProjectID: p.ID, BatchID: batchID,
		Kind: koda.RenderFinal, Preset: preset, DurationS: p.DurationS, Status: koda.RenderQueued,
		Progress:  koda.RenderProgress{Stage: koda.StageQueued, FramesTotal: preset.Frames(p.DurationS)},
		CreatedAt: now,
	}
}

// loadBatch returns a batch the caller may see.
func (s *Service) loadBatch(ctx context.Context, st koda.Store, id string) (*koda.Batch, error) {
	b, err := st.GetBatch(ctx, id)
	if err != nil {
		return nil, err
	}
	if t := koda.TenantFromContext(ctx); t != "" && t != b.TenantID {
		return nil, koda.NotFound("batch", id)
	}
	return b, nil
}

// CancelBatch stops a batch: its unfinished renders fail with CANCELLED and their
// tasks are cancelled; batch.completed reports the cancellation. Cancelling a
// finished batch changes nothing.
func (s *Service) CancelBatch(ctx context.Context, id string) error {
	var cancel []jobs.Args
	err := s.inTx(ctx, func(tx koda.Store, c *change) error {
		b, err := s.loadBatch(ctx, tx, id)
		if err != nil {
			return err
		}
		bc, ok := tx.(batchCanceller)
		if !ok {
			return errors.New("cancel batch: the store cannot cancel batches")
		}
		// Lock the batch's projects, in one order, before any of its rows: FinishRender
		// holds a project's lock while it finishes the renders sharing a job and
		// completes their batch.
		rs, err := tx.ListRenders(ctx, koda.RenderFilter{BatchID: id})
		if err != nil {
			return err
		}
		projects := map[string]*koda.Project{}
		for _, r := range rs {
			projects[r.ProjectID] = nil
		}
		if b.ProjectID != "" {
			projects[b.ProjectID] = nil
		}
		for _, pid := range slices.Sorted(maps.Keys(projects)) {
			p, err := tx.GetProject(ctx, pid)
			if err != nil && koda.ErrorKind(err) != koda.ENOTFOUND {
				return fmt.Errorf("cancel batch %s: lock project %s: %w", id, pid, err)
			}
			projects[pid] = p
		}
		if _, err := bc.CancelBatch(ctx, id, s.now()); err != nil {
			return err
		}
		if rs, err = tx.ListRenders(ctx, koda.RenderFilter{BatchID: id}); err != nil {
			return err
		}
		now := s.now()
		for _, r := range rs {
			if r.Status.Done() {
				continue
			}
			cancel = append(cancel, renderTasks(r)...)
			r.Status = koda.RenderFailed
			r.FinishedAt = &now
			r.Error = &koda.Failure{Code: koda.CodeCancelled, Message: "the batch was cancelled", At: now}
			if err := tx.UpdateRender(ctx, r); err != nil {
				return err
			}
			if err := s.recordUsage(ctx, tx, r, r.Progress.FramesDone); err != nil {
				return err
			}
			if _, err := tx.AppendEvent(ctx, r.ProjectID, koda.EventError, koda.ErrorData{
				RenderID: r.ID, Code: koda.CodeCancelled, Message: "the batch was cancelled",
			}); err != nil {
				return err
			}
			c.touched(r.ProjectID)
		}
		var project *koda.Project
		if b.ProjectID != "" {
			if project = projects[b.ProjectID]; project == nil {
				return koda.NotFound("project", b.ProjectID)
			}
		}
		return s.maybeCompleteBatch(ctx, tx, project, id, c)
	})
	if err != nil {
		return err
	}
	s.cancelTasks(ctx, cancel)
	return nil
}

// RetryRender queues a failed final render again, leaving the rest of its batch
// alone. The new task has its own ID (Attempt), so it is not mistaken for the old one.
// A render that shared another's job re-renders on its own, unless that job is being
// retried too: then it joins it again rather than render the same video twice.
func (s *Service) RetryRender(ctx context.Context, id string) (*koda.Render, error) {
	var out *koda.Render
	err := s.inTx(ctx, func(tx koda.Store, c *change) error {
		r, _, err := lockRender(ctx, tx, id)
		if err != nil {
			return err
		}
		if t := koda.TenantFromContext(ctx); t != "" && t != r.TenantID {
			return koda.NotFound("render", id)
		}
		if r.Kind != koda.RenderFinal || r.Status != koda.RenderFailed {
			return koda.Errorf(koda.ECONFLICT, koda.CodeNothingToRetry, "render %s is %s; only failed final renders can be retried", id, r.Status)
		}
		if r.BatchID != "" {
			b, err := tx.GetBatch(ctx, r.BatchID)
			if err == nil && b.CancelledAt != nil {
				return koda.Errorf(koda.ECONFLICT, koda.CodeNothingToRetry, "batch %s was cancelled", b.ID)
			}
		}
		r.Status = koda.RenderQueued
		r.Error, r.StartedAt, r.FinishedAt = nil, nil, nil
		r.Progress = koda.RenderProgress{Stage: koda.StageQueued, FramesTotal: r.Preset.Frames(r.DurationS)}
		out = r
		if r.OutputOf != "" {
			// The project's lock (lockRender) orders this with the source's FinishRender:
			// either it sees r joined and finishes it, or r sees the source done.
			src, err := s.liveSource(ctx, tx, r)
			if err != nil {
				return err
			}
			if src != nil {
				r.Status, r.Progress, r.StartedAt = src.Status, src.Progress, src.StartedAt
				if err := tx.UpdateRender(ctx, r); err != nil {
					return fmt.Errorf("retry render %s with %s: %w", r.ID, src.ID, err)
				}
				return nil
			}
			r.OutputOf = ""
		}
		// A retried render captures its own frames: its capture's job, even if it runs
		// again, has already chosen the videos it encodes.
		r.CaptureOf = ""
		if err := tx.UpdateRender(ctx, r); err != nil {
			return err
		}
		c.enqueue(jobs.RenderArgs{RenderID: r.ID, Attempt: max(r.Attempts, 1)})
		return nil
	})
	return out, err
}

// ListDeliveries returns a page of the caller's webhook deliveries, oldest first, and
// the next page's cursor.
func (s *Service) ListDeliveries(ctx context.Context, q koda.DeliveryQuery) ([]*koda.WebhookDelivery, string, error) {
	size := koda.PageSize(q.Limit)
	ds, err := s.Store.ListDeliveries(ctx, koda.DeliveryFilter{TenantID: tenantOf(ctx), ProjectID: q.ProjectID,
		Status: q.Status, AfterID: q.Cursor, Limit: size + 1})
	if err != nil {
		return nil, "", err
	}
	ds, next := koda.Page(ds, size, func(d *koda.WebhookDelivery) string { return d.ID })
	return ds, next, nil
}

// GetDelivery returns one of the caller's deliveries with its attempts.
func (s *Service) GetDelivery(ctx context.Context, id string) (*koda.WebhookDelivery, []*koda.WebhookAttempt, error) {
	d, err := s.Store.GetDelivery(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if d.TenantID != tenantOf(ctx) && koda.TenantFromContext(ctx) != "" {
		return nil, nil, koda.NotFound("webhook delivery", id)
	}
	as, err := s.Store.ListAttempts(ctx, id)
	return d, as, err
}

// Redeliver sends a delivery again with the same webhook-id and body, whatever its
// state, and re-enables its endpoint if a 410 had disabled it.
func (s *Service) Redeliver(ctx context.Context, id string) (*koda.WebhookDelivery, error) {
	d, _, err := s.GetDelivery(ctx, id)
	if err != nil {
		return nil, err
	}
	if s.Tasks != nil {
		// The old task keeps the task ID taken while it is retained; free it.
		if f, ok := s.Tasks.(interface {
			Forget(ctx context.Context, args jobs.Args) error
		}); ok {
			if err := f.Forget(ctx, jobs.WebhookArgs{DeliveryID: id}); err != nil {
				return nil, err
			}
		}
	}
	err = s.inTx(ctx, func(tx koda.Store, c *change) error {
		if es, ok := tx.(koda.EndpointStore); ok {
			if err := es.EnableEndpoint(ctx, d.TenantID, d.URL); err != nil {
				return err
			}
		}
		d.Status, d.LastError, d.DeliveredAt = koda.DeliveryPending, "", nil
		if err := tx.UpdateDelivery(ctx, d); err != nil {
			return err
		}
		c.enqueue(jobs.WebhookArgs{DeliveryID: id})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}
