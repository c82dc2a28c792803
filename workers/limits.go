package workers

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/metrics"
	"github.com/kodahq/koda/internal/semaphore"
	"github.com/kodahq/koda/jobs"
)

// Resource classes a task may need. Browser, encoder and sandbox slots belong to a
// node (one machine's CPU and memory); llm slots to a provider across the cluster;
// sandbox_tenant caps one tenant's sandboxes and webhook_tenant one tenant's webhook
// deliveries in flight across the cluster.
const (
	ResBrowser       = "browser"
	ResEncoder       = "encoder"
	ResLLM           = "llm"
	ResSandbox       = "sandbox"
	ResSandboxTenant = "sandbox_tenant"
	ResWebhookTenant = "webhook_tenant"
)

// DefaultLimits are the slots of each resource class unless configured. webhook_tenant
// stays below the webhooks pool's default concurrency (10), so a tenant whose
// receivers hang leaves workers free for everyone else's deliveries.
var DefaultLimits = map[string]int{
	ResBrowser: 2, ResEncoder: 2, ResLLM: 8, ResSandbox: 8, ResSandboxTenant: 4, ResWebhookTenant: 4,
}

// perTenant reports whether a class is one tenant's own cap rather than a resource
// tenants share: its slots need no fair sharing, and a task refused one has nothing
// to wait for that another tenant's release could give it.
func perTenant(class string) bool { return class == ResSandboxTenant || class == ResWebhookTenant }

// Limits caps named resources with the Redis semaphore. A task that cannot get every
// slot it needs goes back to its queue without counting as a failure and tries again
// after BusyDelay; meanwhile its tenant waits in line for the next free slot, so a
// tenant with a thousand tasks cannot starve one with a single task.
type Limits struct {
	Sem *semaphore.Semaphore
	// Node names this machine; two processes on one machine share its node slots.
	Node string
	// Max holds the slots per resource class; missing classes use DefaultLimits.
	Max map[string]int
	// LLMProvider names the agent's provider; its calls share one cluster-wide limit.
	LLMProvider string
	// Lease is how long a slot outlives a holder that stopped renewing it; default 30 s.
	Lease time.Duration
	// BusyDelay is the mean wait before a busy task tries again, jittered ±50 %;
	// default 3 s. It must stay below the semaphore's WaitWindow, or a waiting tenant
	// loses its place in line between attempts.
	BusyDelay time.Duration
	// BusyWait is how long a task polls for a slot before it is handed back; default 1 s.
	BusyWait time.Duration
}

func (l *Limits) max(class string) int {
	if n, ok := l.Max[class]; ok && n > 0 {
		return n
	}
	return DefaultLimits[class]
}

func (l *Limits) lease() time.Duration {
	if l.Lease > 0 {
		return l.Lease
	}
	return 30 * time.Second
}

func (l *Limits) busyWait() time.Duration {
	if l.BusyWait > 0 {
		return l.BusyWait
	}
	return time.Second
}

func (l *Limits) busyDelay() time.Duration {
	d := l.BusyDelay
	if d <= 0 {
		d = 3 * time.Second
	}
	return d/2 + time.Duration(rand.Int64N(int64(d)))
}

// needs lists the resource classes of a task type.
func needs(typ string) []string {
	switch typ {
	case jobs.KindPlan:
		return []string{ResLLM}
	case jobs.KindCodegen:
		return []string{ResLLM, ResSandbox, ResSandboxTenant}
	case jobs.KindPreview, jobs.KindRender, jobs.KindRenderChunk:
		return []string{ResBrowser, ResEncoder}
	case jobs.KindStitch:
		return []string{ResEncoder}
	case jobs.KindWebhook:
		// One slot of the tenant's own share: thousands of deliveries to slow or failing
		// receivers then hold a few workers, and the rest go to other tenants' webhooks.
		return []string{ResWebhookTenant}
	}
	return nil
}

// resourceName is the semaphore key of a class for a task of tenant.
func (l *Limits) resourceName(class, tenant string) string {
	switch class {
	case ResLLM:
		p := l.LLMProvider
		if p == "" {
			p = "builtin"
		}
		return "llm:" + p
	case ResSandboxTenant, ResWebhookTenant:
		return class + ":" + tenant
	default:
		return class + ":" + l.Node
	}
}

// refs are the IDs a task's payload may carry; payloads hold IDs only.
type refs struct {
	ProjectID  string `json:"project_id"`
	RenderID   string `json:"render_id"`
	DeliveryID string `json:"delivery_id"`
}

// tenantOf finds whose work a task is, for fair sharing.
func (h *Handlers) tenantOf(ctx context.Context, t *asynq.Task) (string, error) {
	var r refs
	if err := json.Unmarshal(t.Payload(), &r); err != nil {
		return "", err
	}
	return h.Lifecycle.TaskTenant(ctx, r.ProjectID, r.RenderID, r.DeliveryID)
}

// errSlotLost ends a task whose resource slot could not be kept.
var errSlotLost = errors.New("resource slot lost: its lease could not be renewed")

// limit runs a task only while it holds a slot of every resource it needs. local caps
// the pool's running tasks in this process: the asynq server runs a few more
// goroutines than that, so that tasks further down the queue get to ask for a slot
// (and put their tenant in line) instead of waiting behind one tenant's backlog.
func (h *Handlers) limit(local chan struct{}) asynq.MiddlewareFunc {
	return func(next asynq.Handler) asynq.Handler {
		return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
			classes := needs(t.Type())
			if h.Limits == nil || h.Limits.Sem == nil || len(classes) == 0 {
				return next.ProcessTask(ctx, t)
			}
			l := h.Limits
			tenant, err := h.tenantOf(ctx, t)
			if err != nil {
				if koda.ErrorKind(err) == koda.ENOTFOUND {
					return next.ProcessTask(ctx, t) // the handler reports it
				}
				return fmt.Errorf("limits of %s: %w", t.Type(), err)
			}
			id, _ := asynq.GetTaskID(ctx)
			holder := id + "#" + nonce()
			reqs := make([]semaphore.Request, 0, len(classes))
			for _, c := range classes {
				reqs = append(reqs, semaphore.Request{
					Resource: l.resourceName(c, tenant), Limit: l.max(c), Holder: holder,
					Tenant: tenant, Lease: l.lease(), Fair: !perTenant(c),
				})
			}
			// Wait a little for a slot before handing the task back: a slot freed
			// meanwhile is taken at once instead of idling until a retry comes due.
			// A task held back only by its tenant's own cap is handed back at once:
			// the worker is worth more to the other tenants' tasks queued behind it.
			var held *semaphore.Held
			wait := time.Now().Add(l.busyWait())
			if slices.IndexFunc(classes, func(c string) bool { return !perTenant(c) }) < 0 {
				wait = time.Now()
			}
			waited := false
			for {
				res := "local"
				select {
				case local <- struct{}{}:
					var ok bool
					held, ok, err = l.Sem.AcquireAll(ctx, reqs)
					if err != nil {
						<-local
						return fmt.Errorf("limits of %s: %w", t.Type(), err)
					}
					if !ok {
						<-local
						res = strings.Join(classes, "+")
					}
				default:
				}
				if held != nil {
					break
				}
				if !waited {
					waited = true
					h.Metrics.Add(metrics.SemaphoreWaits, res)
				}
				if time.Now().After(wait) {
					return h.busy(ctx, t, res)
				}
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(100 * time.Millisecond):
				}
			}
			defer func() { <-local }()
			for _, c := range classes {
				h.Metrics.Add(metrics.SemaphoreAcquired, c)
			}
			defer held.Release(context.WithoutCancel(ctx))
			ctx, cancel := context.WithCancelCause(ctx)
			defer cancel(nil)
			go func() {
				select {
				case <-held.Lost():
					h.Metrics.Add(metrics.SemaphoreLost, classes[0])
					h.log().Warn("resource slot lost; stopping the task", "task", id, "type", t.Type())
					cancel(errSlotLost)
				case <-ctx.Done():
				}
			}()
			err = next.ProcessTask(ctx, t)
			if err != nil && context.Cause(ctx) == errSlotLost {
				return fmt.Errorf("%w: %w", err, errSlotLost)
			}
			return err
		})
	}
}

// busy hands a task that got no slot back to its queue without counting a failure.
//
// asynq archives a task whose retry count reached MaxRetry before it asks IsFailure,
// so on the last allowed attempt errBusy would archive it. There the task is handed
// over instead: a copy with the remaining retry budget (none) is enqueued to run after
// the delay, and this attempt completes with a result naming the copy, which is how
// the reconciler tells a handed-over task from a lost one.
func (h *Handlers) busy(ctx context.Context, t *asynq.Task, _ string) error {
	delay := h.Limits.busyDelay()
	if !lastAttempt(ctx) || h.Enqueuer == nil {
		return &errBusy{delay: delay}
	}
	id, _ := asynq.GetTaskID(ctx)
	queue, _ := asynq.GetQueueName(ctx)
	copyID := handoffID(id)
	opts := []asynq.Option{asynq.Queue(queue), asynq.TaskID(copyID), asynq.MaxRetry(0), asynq.ProcessIn(delay)}
	if spec, ok := jobs.Specs[t.Type()]; ok {
		opts = append(opts, asynq.Timeout(spec.Timeout))
	}
	if _, err := h.Enqueuer.EnqueueContext(ctx, asynq.NewTask(t.Type(), t.Payload()), opts...); err != nil {
		// The other copy is still finishing (rare): retrying as busy may archive this
		// task, and the reconciler revives archived work the database still waits for.
		h.log().Warn("hand over busy task", "task", id, "copy", copyID, "err", err)
		return &errBusy{delay: delay}
	}
	if _, err := t.ResultWriter().Write([]byte(handoffPrefix + copyID)); err != nil {
		h.log().Debug("write handoff result", "task", id, "err", err)
	}
	return errHandedOff
}

// errHandedOff marks an attempt that completed by handing its task to a copy; the
// outer middleware turns it into success.
var errHandedOff = errors.New("handed over to a copy")

const handoffPrefix = "handoff:"

// handoffID alternates between two copy IDs per task: a copy that is handed over again
// names the other one, whose previous holder has completed (copies keep no retention,
// so their IDs are free again), and the reconciler has two IDs to look at.
func handoffID(id string) string {
	switch {
	case strings.HasSuffix(id, "~a"):
		return strings.TrimSuffix(id, "~a") + "~b"
	case strings.HasSuffix(id, "~b"):
		return strings.TrimSuffix(id, "~b") + "~a"
	}
	return id + "~a"
}

func nonce() string {
	b := make([]byte, 6)
	_, _ = crand.Read(b)
	return hex.EncodeToString(b)
}
