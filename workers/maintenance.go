package workers

import (
	"context"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/jobs"
)

// Maintenance configures the periodic jobs. Each runs on the maintenance pool,
// enqueued by the single elected scheduler.
type Maintenance struct {
	// PreviewTTL is how long preview videos are kept; default 24 h. Final videos stay.
	PreviewTTL time.Duration
}

func (h *Handlers) maintenanceHandlers(mux *asynq.ServeMux) {
	mux.HandleFunc(jobs.KindCleanPreviews, handle(h.cleanPreviews))
	mux.HandleFunc(jobs.KindDailyCleanup, handle(h.dailyCleanup))
	mux.HandleFunc(jobs.KindIdempotency, handle(h.purgeIdempotency))
	mux.HandleFunc(jobs.KindUsage, handle(h.aggregateUsage))
}

// aggregateUsage rolls usage records up into hourly aggregates
// (lifecycle.Service.AggregateUsage), which GET /v1/usage reads.
func (h *Handlers) aggregateUsage(ctx context.Context, _ *asynq.Task, _ jobs.UsageArgs) error {
	n, err := h.Lifecycle.AggregateUsage(ctx)
	if err != nil {
		return fmt.Errorf("aggregate usage: %w", err)
	}
	h.log().Info("usage rolled up", "tenant_hours", n)
	return nil
}

// purgeIdempotency deletes idempotency records past koda.IdempotencyWindow.
func (h *Handlers) purgeIdempotency(ctx context.Context, _ *asynq.Task, _ jobs.PurgeIdempotencyArgs) error {
	n, err := h.Lifecycle.PurgeIdempotency(ctx)
	if err != nil {
		return err
	}
	h.log().Info("idempotency records purged", "count", n, "older_than", koda.IdempotencyWindow)
	return nil
}

// cleanPreviews deletes the videos of preview renders older than PreviewTTL
// (lifecycle.Service.ExpirePreviews).
func (h *Handlers) cleanPreviews(ctx context.Context, _ *asynq.Task, _ jobs.CleanPreviewsArgs) error {
	ttl := h.Maintenance.PreviewTTL
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	n, err := h.Lifecycle.ExpirePreviews(ctx, ttl)
	if n > 0 || err == nil {
		h.log().Info("old preview videos deleted", "count", n, "older_than", ttl)
	}
	return err
}

// dailyCleanup deletes stored files nothing refers to (lifecycle.Service.CleanOrphans).
// Sandboxes are not its business: they live on one node each, and every process
// reaps its own (sandbox.Pool.RunReaper) and sweeps those of its earlier runs at start.
func (h *Handlers) dailyCleanup(ctx context.Context, _ *asynq.Task, _ jobs.DailyCleanupArgs) error {
	n, err := h.Lifecycle.CleanOrphans(ctx)
	if n > 0 || err == nil {
		h.log().Info("orphaned files deleted", "count", n, "older_than", lifecycle.OrphanGrace)
	}
	if err != nil {
		return fmt.Errorf("daily clean-up: %w", err)
	}
	return nil
}
