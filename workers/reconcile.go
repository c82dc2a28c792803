package workers

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/metrics"
	"github.com/kodahq/koda/internal/rediskey"
	"github.com/kodahq/koda/jobs"
)

// maxRevivals bounds how often the reconciler revives the archived task of one piece
// of work: a task that keeps killing its worker (out of memory, say) must end as a
// failure rather than loop forever.
const maxRevivals = 3

// reconcile re-enqueues work the database says is due but whose task Redis no longer
// runs: Redis restarted without persistence (or was flushed), an enqueue failed after
// its commit, or the task was archived while its row still waits (a lease that expired
// on the last attempt, a bug). Task IDs are derived from the work, so work whose task
// still exists is left alone, and a task that runs twice finds its work done.
func (h *Handlers) reconcile(ctx context.Context, _ *asynq.Task, _ jobs.ReconcileArgs) error {
	grace := h.ReconcileGrace
	if grace <= 0 {
		grace = 30 * time.Second
	}
	due, err := h.Lifecycle.DueWork(ctx, time.Now().UTC().Add(-grace))
	if err != nil {
		return fmt.Errorf("reconcile: %w", err)
	}
	n, checked := 0, 0
	for _, st := range due.Steps {
		p := st.Project
		if st.Err != nil {
			h.log().Warn("reconcile project", "project", p.ID, "err", st.Err)
			continue
		}
		checked++
		did, err := h.ensure(ctx, []jobs.Args{st.Task}, func(ctx context.Context) error {
			return h.Lifecycle.GiveUpStep(ctx, p, maxRevivals)
		})
		if err != nil {
			return err
		}
		n += did
	}
	for _, r := range due.Renders {
		checked++
		if split, did, err := h.reconcileSplit(ctx, r); split || err != nil {
			if err != nil {
				return err
			}
			n += did
			continue
		}
		did, err := h.ensure(ctx, renderTaskIDs(r), func(ctx context.Context) error {
			return h.Lifecycle.GiveUpRender(ctx, r.ID, "the render", maxRevivals)
		})
		if err != nil {
			return err
		}
		n += did
	}
	for _, d := range due.Deliveries {
		checked++
		did, err := h.ensure(ctx, []jobs.Args{d}, nil)
		if err != nil {
			return err
		}
		n += did
	}
	if n > 0 {
		h.log().Info("reconciled lost tasks", "checked", checked, "enqueued", n)
	}
	return nil
}

// renderTaskIDs lists the tasks a final render may have: the first, and one per user
// retry (RenderArgs.Attempt), the first of them being the one enqueued when none exists.
func renderTaskIDs(r *koda.Render) []jobs.Args {
	out := []jobs.Args{jobs.RenderArgs{RenderID: r.ID}}
	for a := 1; a <= r.Attempts; a++ {
		out = append(out, jobs.RenderArgs{RenderID: r.ID, Attempt: a})
	}
	return out
}

// taskState is what Redis knows of one task ID.
type taskState struct {
	args     jobs.Args
	id       string
	queue    string
	info     *asynq.TaskInfo // nil: Redis has no such task
	revivals int
}

func alive(info *asynq.TaskInfo) bool {
	if info == nil {
		return false
	}
	switch info.State {
	case asynq.TaskStatePending, asynq.TaskStateActive, asynq.TaskStateScheduled,
		asynq.TaskStateRetry, asynq.TaskStateAggregating:
		return true
	}
	return false
}

// ensure makes one of candidates (the task IDs the work may run under) alive in Redis,
// and reports 1 when it had to enqueue or revive one. A task handed over to a copy
// (see busy) is alive while a copy is. An archived task is revived, at most
// maxRevivals times; beyond that giveUp records the work as failed. Without Inspector
// it only enqueues, which is a no-op for IDs Redis still holds.
func (h *Handlers) ensure(ctx context.Context, candidates []jobs.Args, giveUp func(context.Context) error) (int, error) {
	kind := candidates[0].Kind()
	if h.Inspector == nil {
		if err := h.Queue.Enqueue(ctx, candidates[0]); err != nil {
			return 0, err
		}
		return 0, nil
	}
	queue := jobs.Specs[kind].Queue
	var missing, archived, stuck *taskState
	for _, a := range candidates {
		st, err := h.lookup(queue, a.TaskID(), a)
		if err != nil {
			return 0, err
		}
		if alive(st.info) {
			return 0, nil
		}
		if st.info != nil && st.info.State == asynq.TaskStateCompleted {
			if prev := string(st.info.Result); len(prev) > len(handoffPrefix) && prev[:len(handoffPrefix)] == handoffPrefix {
				// Follow the hand-over: the copies alternate between two IDs.
				for _, cid := range []string{handoffID(st.id), handoffID(handoffID(st.id))} {
					cs, err := h.lookup(queue, cid, a)
					if err != nil {
						return 0, err
					}
					if alive(cs.info) {
						return 0, nil
					}
					if cs.info != nil && cs.info.State == asynq.TaskStateArchived && archived == nil {
						archived = cs
					}
				}
			}
		}
		switch {
		case st.info == nil && missing == nil:
			missing = st
		case st.info != nil && st.info.State == asynq.TaskStateArchived:
			archived = st // the latest archived candidate
		case st.info != nil && stuck == nil:
			stuck = st // completed, yet the database still waits for it
		}
	}
	switch {
	case archived != nil:
		return h.revive(ctx, archived, giveUp)
	case missing != nil:
		if err := h.Queue.Enqueue(ctx, missing.args); err != nil {
			return 0, err
		}
		h.Metrics.Add(metrics.Reconciled, kind, "missing")
		h.log().Info("re-enqueued lost task", "task", missing.id)
		return 1, nil
	case stuck != nil:
		if err := h.Inspector.DeleteTask(stuck.queue, stuck.id); err != nil && !errors.Is(err, asynq.ErrTaskNotFound) {
			return 0, fmt.Errorf("reconcile %s: %w", stuck.id, err)
		}
		if err := h.Queue.Enqueue(ctx, stuck.args); err != nil {
			return 0, err
		}
		h.Metrics.Add(metrics.Reconciled, kind, "completed")
		h.log().Warn("re-enqueued a task that completed without finishing its work", "task", stuck.id)
		return 1, nil
	}
	return 0, nil
}

func (h *Handlers) lookup(queue, id string, a jobs.Args) (*taskState, error) {
	st := &taskState{args: a, id: id, queue: queue}
	info, err := h.Inspector.GetTaskInfo(queue, id)
	switch {
	case errors.Is(err, asynq.ErrTaskNotFound), errors.Is(err, asynq.ErrQueueNotFound):
	case err != nil:
		return nil, fmt.Errorf("reconcile %s: %w", id, err)
	default:
		st.info = info
	}
	return st, nil
}

// revive moves an archived task back to pending: it runs once more, as its last
// attempt. The count of revivals is kept in Redis for a day.
func (h *Handlers) revive(ctx context.Context, st *taskState, giveUp func(context.Context) error) (int, error) {
	kind := st.args.Kind()
	n := 1
	if h.Redis != nil {
		key := rediskey.Revived(st.id)
		var err error
		if n, err = incrWithTTL(ctx, h.Redis, key, 24*time.Hour); err != nil {
			return 0, fmt.Errorf("count revivals of %s: %w", st.id, err)
		}
	}
	if n > maxRevivals && giveUp != nil {
		h.log().Error("giving up on a task archived again and again", "task", st.id, "last_error", st.info.LastErr)
		if err := giveUp(context.WithoutCancel(ctx)); err != nil {
			return 0, fmt.Errorf("give up %s: %w", st.id, err)
		}
		h.Metrics.Add(metrics.Reconciled, kind, "gave_up")
		return 0, h.Inspector.DeleteTask(st.queue, st.id)
	}
	if err := h.Inspector.RunTask(st.queue, st.id); err != nil && !errors.Is(err, asynq.ErrTaskNotFound) {
		return 0, fmt.Errorf("revive %s: %w", st.id, err)
	}
	h.Metrics.Add(metrics.Reconciled, kind, "archived")
	h.log().Warn("revived an archived task whose work is still due", "task", st.id, "last_error", st.info.LastErr, "revival", n)
	return 1, nil
}

func incrWithTTL(ctx context.Context, rdb redis.UniversalClient, key string, ttl time.Duration) (int, error) {
	pipe := rdb.TxPipeline()
	incr := pipe.Incr(ctx, key)
	pipe.Expire(ctx, key, ttl)
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, err
	}
	return int(incr.Val()), nil
}
