package lifecycle

import (
	"context"
	"fmt"

	"github.com/kodahq/koda"
)

// GetRender returns a render the caller may see.
func (s *Service) GetRender(ctx context.Context, id string) (*koda.Render, error) {
	r, err := s.Store.GetRender(ctx, id)
	if err != nil {
		return nil, err
	}
	if t := koda.TenantFromContext(ctx); t != "" && t != r.TenantID {
		return nil, koda.NotFound("render", id)
	}
	return r, nil
}

// ListRenders returns a project's renders, oldest first.
func (s *Service) ListRenders(ctx context.Context, projectID string) ([]*koda.Render, error) {
	if _, err := s.Get(ctx, projectID); err != nil {
		return nil, err
	}
	return s.Store.ListRenders(ctx, koda.RenderFilter{ProjectID: projectID})
}

// GetBatch returns a batch the caller may see with its renders.
func (s *Service) GetBatch(ctx context.Context, id string) (*koda.Batch, []*koda.Render, error) {
	b, err := s.Store.GetBatch(ctx, id)
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return nil, nil, koda.NotFound("batch", id)
	}
	if err != nil {
		return nil, nil, err
	}
	if t := koda.TenantFromContext(ctx); t != "" && t != b.TenantID {
		return nil, nil, koda.NotFound("batch", id)
	}
	rs, err := s.Store.ListRenders(ctx, koda.RenderFilter{BatchID: id})
	return b, rs, err
}

// lockRender reads a render after locking its project. Every transition that writes
// several renders of a project (the renders sharing a job, a cancelled batch) takes the
// project's lock first, as store.AppendEvent asks, so they serialize rather than wait
// on each other's rows in opposite orders; the render is read again under the lock.
func lockRender(ctx context.Context, tx koda.Store, id string) (*koda.Render, *koda.Project, error) {
	r, err := tx.GetRender(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	p, err := tx.GetProject(ctx, r.ProjectID)
	if err != nil {
		return nil, nil, fmt.Errorf("project of render %s: %w", id, err)
	}
	if r, err = tx.GetRender(ctx, id); err != nil {
		return nil, nil, err
	}
	return r, p, nil
}

// StartRender marks a render running for a new attempt, with the renders that share
// its output. It reports false when the render already finished (a duplicate task) or
// another render's job makes its video, so the caller does nothing.
func (s *Service) StartRender(ctx context.Context, id string) (*koda.Render, bool, error) {
	var out *koda.Render
	var run bool
	err := s.inTx(ctx, func(tx koda.Store, c *change) error {
		r, _, err := lockRender(ctx, tx, id)
		if err != nil {
			return err
		}
		out = r
		if r.Status.Done() {
			return nil
		}
		src, err := s.liveSource(ctx, tx, r)
		if err != nil {
			return err
		}
		if src != nil {
			return nil // a stray task (the reconciler's, a redelivery): the source's job renders it
		}
		if r.OutputOf != "" {
			s.log().Info("render runs its own job: the one it shared is over", "render", r.ID, "source", r.OutputOf)
			r.OutputOf = ""
		}
		capturer, err := s.liveCapture(ctx, tx, r)
		if err != nil {
			return err
		}
		if capturer != nil {
			return nil // a stray task: the capture's job encodes it
		}
		if r.CaptureOf != "" {
			s.log().Info("render captures its own frames: the capture it shared is over", "render", r.ID, "capture", r.CaptureOf)
			r.CaptureOf = ""
		}
		now := s.now()
		startRunning(r, now)
		run = true
		if err := tx.UpdateRender(ctx, r); err != nil {
			return fmt.Errorf("start render %s: %w", id, err)
		}
		fs, err := sharers(ctx, tx, r)
		if err != nil {
			return err
		}
		ms, err := captured(ctx, tx, r)
		if err != nil {
			return err
		}
		for _, m := range ms {
			mfs, err := sharers(ctx, tx, m)
			if err != nil {
				return err
			}
			fs = append(fs, m)
			fs = append(fs, mfs...)
		}
		for _, f := range fs {
			startRunning(f, now)
			if err := tx.UpdateRender(ctx, f); err != nil {
				return fmt.Errorf("start render %s with %s: %w", f.ID, id, err)
			}
		}
		return nil
	})
	return out, run, err
}

// RenderProgress records progress, for the renders sharing the output too; it never
// moves backwards within an attempt.
func (s *Service) RenderProgress(ctx context.Context, id string, pr koda.RenderProgress) error {
	return s.inTx(ctx, func(tx koda.Store, c *change) error {
		r, _, err := lockRender(ctx, tx, id)
		if err != nil {
			return err
		}
		if r.Status != koda.RenderRunning || pr.Percent < r.Progress.Percent {
			return nil
		}
		if err := s.progress(ctx, tx, r, pr, c); err != nil {
			return err
		}
		fs, err := sharers(ctx, tx, r)
		if err != nil {
			return err
		}
		for _, f := range fs {
			if f.Status != koda.RenderRunning || pr.Percent < f.Progress.Percent {
				continue
			}
			if err := s.progress(ctx, tx, f, pr, c); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *Service) progress(ctx context.Context, tx koda.Store, r *koda.Render, pr koda.RenderProgress, c *change) error {
	r.Progress = pr
	if err := tx.UpdateRender(ctx, r); err != nil {
		return fmt.Errorf("progress of render %s: %w", r.ID, err)
	}
	if _, err := tx.AppendEvent(ctx, r.ProjectID, koda.EventRenderProgress, koda.RenderProgressData{RenderID: r.ID, RenderProgress: pr}); err != nil {
		return fmt.Errorf("progress event of render %s: %w", r.ID, err)
	}
	c.touched(r.ProjectID)
	return nil
}

// RenderOutput is what a successful render produced.
type RenderOutput struct {
	VideoKey  string
	ThumbKey  string
	SizeBytes int64
	Frames    int
}

// FinishRender records the outcome of a render: cause nil for success. The renders
// sharing its output take the same outcome: its file, or its error. Final renders
// send render.completed or render.failed each, and batch.completed once when the
// batch's last render finishes.
func (s *Service) FinishRender(ctx context.Context, id string, out RenderOutput, cause error) (*koda.Render, error) {
	var done *koda.Render
	err := s.inTx(ctx, func(tx koda.Store, c *change) error {
		// The project's lock also orders this with RetryRender, which may point a render
		// at r: a render that joined r's job is listed below, or saw r done and ran alone.
		r, p, err := lockRender(ctx, tx, id)
		if err != nil {
			return err
		}
		if r.Status.Done() {
			done = r
			return nil
		}
		now := s.now()
		settle(r, out, cause, now)
		if err := tx.UpdateRender(ctx, r); err != nil {
			return fmt.Errorf("finish render %s: %w", id, err)
		}
		if err := s.recordUsage(ctx, tx, r, out.Frames); err != nil {
			return err
		}
		done = r
		if err := s.renderEvents(ctx, tx, p, r, c); err != nil {
			return err
		}
		fs, err := sharers(ctx, tx, r)
		if err != nil {
			return err
		}
		batches := []string{r.BatchID}
		for _, f := range fs {
			settle(f, out, cause, now)
			if err := tx.UpdateRender(ctx, f); err != nil {
				return fmt.Errorf("finish render %s with %s: %w", f.ID, id, err)
			}
			if err := s.recordUsage(ctx, tx, f, out.Frames); err != nil {
				return err
			}
			if err := s.renderEvents(ctx, tx, p, f, c); err != nil {
				return err
			}
			batches = append(batches, f.BatchID)
		}
		seen := map[string]bool{"": true}
		for _, b := range batches {
			if seen[b] {
				continue
			}
			seen[b] = true
			if err := s.maybeCompleteBatch(ctx, tx, p, b, c); err != nil {
				return err
			}
		}
		return nil
	})
	return done, err
}

func (s *Service) renderEvents(ctx context.Context, tx koda.Store, p *koda.Project, r *koda.Render, c *change) error {
	if r.Status == koda.RenderFailed {
		if err := s.event(ctx, tx, p, koda.EventError, koda.ErrorData{
			RenderID: r.ID, Code: r.Error.Code, Message: r.Error.Message,
		}, c); err != nil {
			return err
		}
	} else if err := s.event(ctx, tx, p, koda.EventRenderProgress, koda.RenderProgressData{
		RenderID: r.ID, RenderProgress: koda.RenderProgress{Stage: koda.StageDone, Percent: 100,
			FramesDone: r.Progress.FramesDone, FramesTotal: r.Progress.FramesTotal},
	}, c); err != nil {
		return err
	}
	if r.Kind != koda.RenderFinal {
		return nil
	}
	typ := koda.WebhookRenderCompleted
	if r.Status == koda.RenderFailed {
		typ = koda.WebhookRenderFailed
	}
	// A webhook never carries an empty link: without one the transition fails and its
	// task is retried.
	view, err := koda.ViewRender(r, s.fileURL)
	if err != nil {
		return err
	}
	return s.webhook(ctx, tx, p, typ, view, c)
}

func (s *Service) maybeCompleteBatch(ctx context.Context, tx koda.Store, p *koda.Project, batchID string, c *change) error {
	rs, err := tx.ListRenders(ctx, koda.RenderFilter{BatchID: batchID})
	if err != nil {
		return err
	}
	succeeded, failed := 0, 0
	for _, r := range rs {
		switch r.Status {
		case koda.RenderSucceeded:
			succeeded++
		case koda.RenderFailed:
			failed++
		default:
			return nil
		}
	}
	first, err := tx.CompleteBatch(ctx, batchID, s.now())
	if err != nil || !first {
		return err
	}
	b, err := tx.GetBatch(ctx, batchID)
	if err != nil {
		return err
	}
	ids := make([]string, 0, len(rs))
	for _, r := range rs {
		ids = append(ids, r.ID)
	}
	data := koda.BatchCompletedData{
		ProjectID: b.ProjectID, BatchID: batchID, RenderIDs: ids,
		Succeeded: succeeded, Failed: failed, Cancelled: b.CancelledAt != nil,
	}
	if b.ProjectID == "" {
		// A template batch's shared stretch (workers/shared.go) served its rows; a row
		// rendered again later renders whole.
		c.garbage = append(c.garbage, koda.BatchSharedFolder(batchID)+"/")
		// A batch over several projects reports to its own callback URL.
		return s.webhookTo(ctx, tx, b.TenantID, "", b.CallbackURL, koda.WebhookBatchCompleted, data, c)
	}
	return s.webhook(ctx, tx, p, koda.WebhookBatchCompleted, data, c)
}
