package workers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/internal/metrics"
	"github.com/kodahq/koda/internal/webhook"
	"github.com/kodahq/koda/jobs"
	"github.com/kodahq/koda/sandbox"
)

// Handlers holds what the task handlers work with. Fields are set by cmd/koda.
type Handlers struct {
	Lifecycle *lifecycle.Service
	Storage   koda.Storage
	Queue     koda.Queue
	Agent     koda.Agent
	Sandboxes koda.SandboxProvider
	Renderer  koda.Renderer
	Webhooks  *webhook.Sender
	// WebhookSchedule is the retry policy of deliveries (webhook.NewSchedule from
	// config); the zero value is the recommended schedule.
	WebhookSchedule webhook.Schedule
	// WorkDir holds temporary render folders.
	WorkDir string
	// CheckpointBudget bounds what restoring a checkpoint for a render may write into
	// WorkDir (apparent bytes and files); zero fields: sandbox.DefaultBudget's.
	CheckpointBudget sandbox.Budget
	Logger           *slog.Logger
	// ReconcileGrace is how long pending work may sit before the reconciler re-enqueues it.
	ReconcileGrace time.Duration

	// Limits caps shared resources across processes; nil runs tasks unlimited.
	Limits *Limits
	// Metrics records task outcomes, render speed and semaphore waits; nil records nothing.
	Metrics *metrics.Metrics
	// Enqueuer puts hand-over copies of busy tasks on the queue.
	Enqueuer Enqueuer
	// Inspector lets the reconciler see which tasks Redis still holds; Redis keeps its
	// count of revived tasks.
	Inspector *asynq.Inspector
	Redis     redis.UniversalClient
	// Maintenance holds the periodic jobs other packages provide.
	Maintenance Maintenance
	// ChunkFrames is the size of one chunk of a split final render; renders of at least
	// two chunks' worth are split (0: DefaultChunkFrames).
	ChunkFrames int
	// AgentTimeout bounds the agent's work on one request: analysing and planning one
	// plan step, writing or revising the code of one codegen step (0: DefaultAgentTimeout).
	// The bound also ends a little before the task's own deadline, so a step that runs
	// out of time fails the project with AGENT_TIMEOUT instead of being retried whole.
	AgentTimeout time.Duration
}

// DefaultAgentTimeout is Handlers.AgentTimeout's default.
const DefaultAgentTimeout = 5 * time.Minute

// agentDeadlineMargin is left between the agent's bound and the task's deadline, for
// recording the failure.
const agentDeadlineMargin = 10 * time.Second

// agentContext is ctx bounded for the agent's work on one request; done turns the
// agent's error into AGENT_TIMEOUT when the bound (not the task's end) stopped it.
func (h *Handlers) agentContext(ctx context.Context) (actx context.Context, done func(err error) error) {
	bound := h.AgentTimeout
	if bound <= 0 {
		bound = DefaultAgentTimeout
	}
	if dl, ok := ctx.Deadline(); ok {
		bound = max(min(bound, time.Until(dl)-agentDeadlineMargin), time.Second)
	}
	actx, cancel := context.WithTimeout(ctx, bound)
	return actx, func(err error) error {
		defer cancel()
		if err != nil && actx.Err() != nil && ctx.Err() == nil {
			return &koda.Error{Kind: koda.EUNPROCESSABLE, Code: koda.CodeAgentTimeout,
				Message: fmt.Sprintf("the agent's work on this request took longer than its bound of %s and was stopped", bound.Round(time.Second)),
				Err:     err}
		}
		return err
	}
}

// Enqueuer enqueues raw tasks (an *asynq.Client).
type Enqueuer interface {
	EnqueueContext(ctx context.Context, t *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// Mux returns the handlers of one pool, running at most the pool's default
// concurrency of limited tasks at once.
func (h *Handlers) Mux(pool string) *asynq.ServeMux {
	return h.mux(pool, config.DefaultConcurrency[pool])
}

// mux returns the handlers of one pool; slots caps its tasks that need limited
// resources in this process.
func (h *Handlers) mux(pool string, slots int) *asynq.ServeMux {
	mux := asynq.NewServeMux()
	mux.Use(h.recoverAndLog, h.limit(make(chan struct{}, max(1, slots))))
	switch pool {
	case config.PoolAgent:
		mux.HandleFunc(jobs.KindPlan, handle(h.plan))
		mux.HandleFunc(jobs.KindCodegen, handle(h.codegen))
	case config.PoolPreview:
		mux.HandleFunc(jobs.KindPreview, handle(h.preview))
	case config.PoolRender:
		mux.HandleFunc(jobs.KindRender, handle(h.render))
		mux.HandleFunc(jobs.KindRenderChunk, handle(h.renderChunk))
		mux.HandleFunc(jobs.KindStitch, handle(h.stitch))
	case config.PoolWebhooks:
		mux.HandleFunc(jobs.KindWebhook, h.countDeliveries(handle(h.deliver)))
	case config.PoolMaintenance:
		mux.HandleFunc(jobs.KindReconcile, handle(h.reconcile))
		h.maintenanceHandlers(mux)
	}
	return mux
}

// handle decodes a task's payload into its typed args; a payload that cannot be
// decoded will never succeed, so it is not retried.
func handle[T any](fn func(ctx context.Context, t *asynq.Task, args T) error) asynq.HandlerFunc {
	return func(ctx context.Context, t *asynq.Task) error {
		args, err := jobs.Decode[T](t)
		if err != nil {
			return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
		}
		return fn(ctx, t, args)
	}
}

func (h *Handlers) log() *slog.Logger {
	if h.Logger != nil {
		return h.Logger
	}
	return slog.Default()
}

// recoverAndLog turns a panicking handler into a failed attempt, logs and counts each
// outcome, and completes an attempt that handed its task over to a copy.
func (h *Handlers) recoverAndLog(next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) (err error) {
		id, _ := asynq.GetTaskID(ctx)
		start := time.Now()
		defer func() {
			if v := recover(); v != nil {
				err = fmt.Errorf("panic in %s: %v", t.Type(), v)
				h.log().Error("task panicked", "task", id, "panic", v, "stack", string(debug.Stack()))
			}
			took := time.Since(start)
			l := h.log().With("task", id, "type", t.Type(), "took", took.Round(time.Millisecond))
			var busy *errBusy
			outcome := "success"
			switch {
			case err == nil:
				l.Debug("task done")
			case errors.Is(err, errHandedOff):
				outcome, err = "handoff", nil
				l.Debug("busy task handed over to a copy")
			case errors.As(err, &busy):
				outcome = "busy"
				l.Debug("task waits for a resource", "retry_in", busy.delay.Round(time.Millisecond))
			case errors.Is(err, asynq.SkipRetry):
				outcome = "failed"
				l.Warn("task failed for good", "err", err)
			default:
				outcome = "failure"
				l.Warn("task failed", "err", err)
			}
			h.Metrics.ObserveTask(t.Type(), outcome, took)
		}()
		return next.ProcessTask(ctx, t)
	})
}

// projectStep runs the work of a project task. A stale task is dropped; a failure on
// the last attempt, or one that retrying cannot fix, moves the project to error.
func (h *Handlers) projectStep(ctx context.Context, projectID string, step int, work func() error) error {
	err := work()
	if err == nil || errors.Is(err, lifecycle.ErrStale) {
		if err != nil {
			h.log().Info("dropped stale task", "project", projectID, "step", step)
		}
		return nil
	}
	if ctx.Err() != nil {
		return err // shutting down or timed out: asynq retries it
	}
	var busy *errBusy
	if errors.As(err, &busy) || errors.Is(err, errHandedOff) {
		return err // waits for a resource: not a failure of the project
	}
	if lastAttempt(ctx) || permanent(err) {
		if _, ferr := h.Lifecycle.Fail(context.WithoutCancel(ctx), projectID, step, err); ferr != nil && !errors.Is(ferr, lifecycle.ErrStale) {
			return fmt.Errorf("%w (and recording the failure: %v)", err, ferr)
		}
		return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
	}
	return err
}

// permanent reports errors that a retry would repeat.
func permanent(err error) bool {
	switch koda.ErrorKind(err) {
	case koda.EINVALID, koda.EUNPROCESSABLE, koda.ENOTFOUND:
		return true
	}
	return false
}

// countDeliveries records the outcome of each webhook attempt by event type.
func (h *Handlers) countDeliveries(next asynq.HandlerFunc) asynq.HandlerFunc {
	return func(ctx context.Context, t *asynq.Task) error {
		err := next(ctx, t)
		if h.Metrics == nil {
			return err
		}
		a, derr := jobs.Decode[jobs.WebhookArgs](t)
		if derr != nil {
			return err
		}
		d, _, gerr := h.Lifecycle.GetDelivery(context.WithoutCancel(ctx), a.DeliveryID)
		if gerr != nil {
			return err
		}
		outcome := "retry"
		switch d.Status {
		case koda.DeliveryDelivered:
			outcome = "delivered"
		case koda.DeliveryFailed:
			outcome = "failed"
		}
		h.Metrics.Add(metrics.Webhooks, d.EventType, outcome)
		return err
	}
}
