package workers

import (
	"context"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
)

// Maintenance holds the periodic jobs of packages outside workers. Each runs on the
// maintenance pool, enqueued by the single elected scheduler; a nil hook is skipped.
type Maintenance struct {
	// CleanOrphans destroys sandboxes no task owns and expires stale sessions (daily).
	// Left nil, a SandboxProvider with a CleanOrphans(ctx) (int, error) method is used.
	CleanOrphans func(ctx context.Context) (int, error)
	// AggregateUsage rolls usage records up (hourly).
	AggregateUsage func(ctx context.Context) error
	// PreviewTTL is how long preview videos are kept; default 24 h. Final videos stay.
	PreviewTTL time.Duration
}

// idleReaper and orphanCleaner are the optional methods of a sandbox provider that
// the maintenance jobs use when no hook is set.
type orphanCleaner interface {
	CleanOrphans(ctx context.Context) (int, error)
}

func (h *Handlers) maintenanceHandlers(mux *asynq.ServeMux) {
	mux.HandleFunc(jobs.KindCleanPreviews, handle(h.cleanPreviews))
	mux.HandleFunc(jobs.KindDailyCleanup, handle(h.dailyCleanup))
	mux.HandleFunc(jobs.KindUsage, handle(h.aggregateUsage))
	mux.HandleFunc(jobs.KindIdempotency, handle(h.purgeIdempotency))
}

// purgeIdempotency deletes idempotency records past koda.IdempotencyWindow.
func (h *Handlers) purgeIdempotency(ctx context.Context, _ *asynq.Task, _ jobs.PurgeIdempotencyArgs) error {
	n, err := h.Store.PurgeIdempotency(ctx, time.Now().Add(-koda.IdempotencyWindow))
	if err != nil {
		return err
	}
	h.log().Info("idempotency records purged", "count", n, "older_than", koda.IdempotencyWindow)
	return nil
}

// cleanPreviews deletes the videos of preview renders older than PreviewTTL. Their rows,
// thumbnails and every final render stay; the render keeps no video key afterwards.
func (h *Handlers) cleanPreviews(ctx context.Context, _ *asynq.Task, _ jobs.CleanPreviewsArgs) error {
	ttl := h.Maintenance.PreviewTTL
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	// RenderFilter cannot select by kind, so old finals are read and skipped.
	rs, err := h.Store.ListRenders(ctx, koda.RenderFilter{
		Statuses: []koda.RenderStatus{koda.RenderSucceeded}, CreatedBefore: time.Now().Add(-ttl),
	})
	if err != nil {
		return fmt.Errorf("list old previews: %w", err)
	}
	n := 0
	for _, r := range rs {
		if r.Kind != koda.RenderPreview || r.VideoKey == "" {
			continue
		}
		if err := h.Storage.Delete(ctx, r.VideoKey); err != nil && koda.ErrorKind(err) != koda.ENOTFOUND {
			return fmt.Errorf("delete preview video of %s: %w", r.ID, err)
		}
		r.VideoKey = ""
		if err := h.Store.UpdateRender(ctx, r); err != nil {
			return fmt.Errorf("forget preview video of %s: %w", r.ID, err)
		}
		n++
	}
	h.log().Info("old preview videos deleted", "count", n, "older_than", ttl)
	return nil
}

func (h *Handlers) dailyCleanup(ctx context.Context, _ *asynq.Task, _ jobs.DailyCleanupArgs) error {
	clean := h.Maintenance.CleanOrphans
	if clean == nil {
		c, ok := h.Sandboxes.(orphanCleaner)
		if !ok {
			return nil
		}
		clean = c.CleanOrphans
	}
	n, err := clean(ctx)
	if err != nil {
		return fmt.Errorf("daily clean-up: %w", err)
	}
	h.log().Info("daily clean-up done", "removed", n)
	return nil
}

func (h *Handlers) aggregateUsage(ctx context.Context, _ *asynq.Task, _ jobs.UsageArgs) error {
	if h.Maintenance.AggregateUsage == nil {
		return nil
	}
	if err := h.Maintenance.AggregateUsage(ctx); err != nil {
		return fmt.Errorf("aggregate usage: %w", err)
	}
	return nil
}
