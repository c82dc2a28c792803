package workers

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/internal/metrics"
	"github.com/kodahq/koda/internal/rediskey"
	"github.com/kodahq/koda/internal/semaphore"
	"github.com/kodahq/koda/internal/store"
	"github.com/kodahq/koda/internal/webhook"
	"github.com/kodahq/koda/jobs"
)

// bundle is what the operations tests work with: one Redis DB, a SQLite store and
// handlers wired to both.
type bundle struct {
	rdb   redis.UniversalClient
	conn  asynq.RedisConnOpt
	store *store.Store
	h     *Handlers
	cli   *asynq.Client
}

func setup(t *testing.T) *bundle {
	t.Helper()
	url := kodatest.MustRedis(t, kodatest.DBWorkers)
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	conn, err := asynq.ParseRedisURI(url)
	if err != nil {
		t.Fatal(err)
	}
	st := kodatest.MustOpenDB(t)
	cli := asynq.NewClientFromRedisClient(rdb)
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	q := jobs.NewClient(cli)
	h := &Handlers{
		Lifecycle: &lifecycle.Service{Store: st, Queue: q, Logger: log, Chunks: rediskey.Chunks{Client: rdb}},
		Queue:     q, Logger: log, Metrics: metrics.New(),
		Enqueuer: cli, Inspector: asynq.NewInspectorFromRedisClient(rdb), Redis: rdb,
	}
	return &bundle{rdb: rdb, conn: conn, store: st, h: h, cli: cli}
}

// project stores a project of tenant with n queued final renders.
func (b *bundle) project(t *testing.T, tenant string, n int) (*koda.Project, []*koda.Render) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	p := &koda.Project{ID: koda.NewID(koda.PrefixProject), TenantID: tenant, Prompt: "a ball", Phase: koda.PhaseComplete,
		DurationS: 1, CreatedAt: now, UpdatedAt: now}
	if err := b.store.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	var rs []*koda.Render
	for range n {
		r := &koda.Render{ID: koda.NewID(koda.PrefixRender), TenantID: tenant, ProjectID: p.ID, Kind: koda.RenderFinal,
			Preset: koda.PresetSpec{Name: "tiny", Width: 64, Height: 36, FPS: 5, Format: "mp4"}, DurationS: 1,
			Status: koda.RenderQueued, CreatedAt: now}
		if err := b.store.CreateRender(ctx, r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return p, rs
}

// server runs a render pool whose handler is fn behind the real middleware.
func (b *bundle) server(t *testing.T, concurrency, slots int, fn func(ctx context.Context, t *asynq.Task) error) {
	t.Helper()
	srv := asynq.NewServerFromRedisClient(b.rdb, asynq.Config{
		Concurrency: concurrency, Queues: map[string]int{jobs.QueueRender: 1},
		RetryDelayFunc: retryDelay(webhook.Schedule{}), IsFailure: isFailure, LogLevel: asynq.ErrorLevel,
		TaskCheckInterval: 50 * time.Millisecond, DelayedTaskCheckInterval: 200 * time.Millisecond,
		ShutdownTimeout: 5 * time.Second,
	})
	mux := asynq.NewServeMux()
	mux.Use(b.h.recoverAndLog, b.h.limit(make(chan struct{}, slots)))
	mux.HandleFunc(jobs.KindRender, fn)
	if err := srv.Start(mux); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
}

func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Fifty render tasks from two processes' worth of goroutines compete for two browser
// slots: sampled holders never exceed the limit, every task runs exactly once, and the
// busy waits are counted.
func TestLimitsHoldAcrossServers(t *testing.T) {
	b := setup(t)
	b.h.Limits = &Limits{Sem: semaphore.New(b.rdb, rediskey.Semaphore), Node: "n1", Max: map[string]int{ResBrowser: 2, ResEncoder: 2},
		BusyDelay: 200 * time.Millisecond, Lease: 5 * time.Second}
	_, rs := b.project(t, "t1", 50)
	var running, maxRunning, done atomic.Int64
	var mu sync.Mutex
	runs := map[string]int{}
	work := func(ctx context.Context, task *asynq.Task) error {
		a, _ := jobs.Decode[jobs.RenderArgs](task)
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := maxRunning.Load()
			if n <= m || maxRunning.CompareAndSwap(m, n) {
				break
			}
		}
		hs, err := b.h.Limits.Sem.Holders(ctx, "browser:n1")
		if err != nil || len(hs) > 2 {
			t.Errorf("holders while running: %v, %v", hs, err)
		}
		time.Sleep(20 * time.Millisecond)
		mu.Lock()
		runs[a.RenderID]++
		mu.Unlock()
		done.Add(1)
		return nil
	}
	// Two "processes": each runs up to 2 tasks and 4 goroutines that take tasks.
	b.server(t, 4, 2, work)
	b.server(t, 4, 2, work)
	for _, r := range rs {
		if err := b.h.Queue.Enqueue(context.Background(), jobs.RenderArgs{RenderID: r.ID}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "50 renders", 60*time.Second, func() bool { return done.Load() >= 50 })
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	for _, r := range rs {
		if runs[r.ID] != 1 {
			t.Errorf("render %s ran %d times", r.ID, runs[r.ID])
		}
	}
	if m := maxRunning.Load(); m > 2 {
		t.Fatalf("%d tasks ran at once with 2 browser slots", m)
	}
	if got := counter(t, b.h.Metrics, "koda_semaphore_waits_total"); got == 0 {
		t.Error("no semaphore waits were counted")
	}
	t.Logf("max concurrent: %d, busy waits: %v", maxRunning.Load(), counter(t, b.h.Metrics, "koda_semaphore_waits_total"))
}

// A task that finds its resource busy on its last allowed attempt is handed over to a
// copy instead of being archived, and the copy runs once the slot frees.
func TestBusyOnLastAttemptIsHandedOver(t *testing.T) {
	b := setup(t)
	b.h.Limits = &Limits{Sem: semaphore.New(b.rdb, rediskey.Semaphore), Node: "n1", Max: map[string]int{ResBrowser: 1, ResEncoder: 1},
		BusyDelay: 300 * time.Millisecond, Lease: 5 * time.Second}
	_, rs := b.project(t, "t1", 1)
	ctx := context.Background()
	// Someone else holds the only browser slot.
	if ok, err := b.h.Limits.Sem.TryAcquire(ctx, semaphore.Request{Resource: "browser:n1", Limit: 1, Holder: "other",
		Tenant: "t2", Lease: time.Minute}); err != nil || !ok {
		t.Fatalf("take the slot: %v %v", ok, err)
	}
	var ran atomic.Int64
	b.server(t, 2, 1, func(ctx context.Context, task *asynq.Task) error {
		ran.Add(1)
		return nil
	})
	// MaxRetry 0: the first attempt is already the last.
	task, err := jobs.NewTask(jobs.RenderArgs{RenderID: rs[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.cli.Enqueue(task, asynq.MaxRetry(0)); err != nil {
		t.Fatal(err)
	}
	id := jobs.RenderArgs{RenderID: rs[0].ID}.TaskID()
	waitFor(t, "the hand-over", 20*time.Second, func() bool {
		info, err := b.h.Inspector.GetTaskInfo(jobs.QueueRender, id)
		return err == nil && info.State == asynq.TaskStateCompleted
	})
	info, _ := b.h.Inspector.GetTaskInfo(jobs.QueueRender, id)
	if string(info.Result) != handoffPrefix+id+"~a" {
		t.Fatalf("result = %q", info.Result)
	}
	if archived, _ := b.h.Inspector.ListArchivedTasks(jobs.QueueRender); len(archived) != 0 {
		t.Fatalf("archived: %+v", archived[0])
	}
	time.Sleep(time.Second) // copies keep bouncing while the slot is taken
	if ran.Load() != 0 {
		t.Fatal("ran without the slot")
	}
	// The reconciler sees the copy and leaves the work alone.
	if n, err := b.h.ensure(ctx, renderTaskIDs(rs[0]), nil); err != nil || n != 0 {
		t.Fatalf("ensure with a live copy = %d, %v", n, err)
	}
	if err := b.h.Limits.Sem.Release(ctx, "browser:n1", "other"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the copy to run", 20*time.Second, func() bool { return ran.Load() == 1 })
	// The count is taken after the handler returns, so it can trail ran by a moment.
	waitFor(t, "both attempts counted", 5*time.Second, func() bool {
		return counter(t, b.h.Metrics, "koda_tasks_total") >= 2
	})
}

// The reconciler re-enqueues a render whose task vanished, revives one archived by a
// bug, re-enqueues one that completed without finishing, and gives up on one that was
// revived too often.
func TestReconcilerFindsLostAndArchivedRenders(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	_, rs := b.project(t, "t1", 4)
	lost, archived, completed, hopeless := rs[0], rs[1], rs[2], rs[3]
	// archived: a task archived by a bug (SkipRetry without recording the failure).
	for _, r := range []*koda.Render{archived, hopeless} {
		task, _ := jobs.NewTask(jobs.RenderArgs{RenderID: r.ID})
		if _, err := b.cli.Enqueue(task); err != nil {
			t.Fatal(err)
		}
		if err := b.h.Inspector.ArchiveTask(jobs.QueueRender, jobs.RenderArgs{RenderID: r.ID}.TaskID()); err != nil {
			t.Fatal(err)
		}
	}
	b.rdb.Set(ctx, rediskey.Revived(jobs.RenderArgs{RenderID: hopeless.ID}.TaskID()), maxRevivals, time.Hour)
	// completed: a handler that returned nil without finishing the render.
	var once sync.Once
	b.server(t, 1, 1, func(ctx context.Context, task *asynq.Task) error {
		once.Do(func() {})
		return nil
	})
	task, _ := jobs.NewTask(jobs.RenderArgs{RenderID: completed.ID})
	if _, err := b.cli.Enqueue(task); err != nil {
		t.Fatal(err)
	}
	cid := jobs.RenderArgs{RenderID: completed.ID}.TaskID()
	waitFor(t, "the task to complete", 10*time.Second, func() bool {
		info, err := b.h.Inspector.GetTaskInfo(jobs.QueueRender, cid)
		return err == nil && info.State == asynq.TaskStateCompleted
	})
	// Pause the queue so the reconciled tasks stay where the reconciler put them.
	if err := b.h.Inspector.PauseQueue(jobs.QueueRender); err != nil {
		t.Fatal(err)
	}
	b.h.ReconcileGrace = time.Millisecond
	time.Sleep(5 * time.Millisecond)
	if err := b.h.reconcile(ctx, nil, jobs.ReconcileArgs{}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []*koda.Render{lost, archived, completed} {
		info, err := b.h.Inspector.GetTaskInfo(jobs.QueueRender, jobs.RenderArgs{RenderID: r.ID}.TaskID())
		if err != nil || info.State != asynq.TaskStatePending {
			t.Errorf("render %s: task %v, %v; want pending", r.ID, info, err)
		}
	}
	got, err := b.store.GetRender(ctx, hopeless.ID)
	if err != nil || got.Status != koda.RenderFailed || got.Error == nil || got.Error.Code != koda.CodeRenderFailed {
		t.Errorf("hopeless render: %+v, %v", got, err)
	}
	// A second pass finds everything alive and enqueues nothing.
	before := counter(t, b.h.Metrics, "koda_reconciled_total")
	if err := b.h.reconcile(ctx, nil, jobs.ReconcileArgs{}); err != nil {
		t.Fatal(err)
	}
	if after := counter(t, b.h.Metrics, "koda_reconciled_total"); after != before {
		t.Errorf("second pass reconciled %v more", after-before)
	}
}

// Of several processes running the maintenance pool exactly one leads the scheduler at
// any time; when it stops, another takes over.
func TestSingleSchedulerElection(t *testing.T) {
	b := setup(t)
	var runners []*Runner
	for i := range 3 {
		r, err := Start(b.rdb, b.h, Options{Pools: []string{"maintenance"}, LeaderTTL: 900 * time.Millisecond,
			ProcessID: fmt.Sprintf("p%d", i), Logger: b.h.Logger, ShutdownTimeout: time.Second, SchedulerConn: b.conn})
		if err != nil {
			t.Fatal(err)
		}
		runners = append(runners, r)
	}
	leaders := func() (n int, who int) {
		for i, r := range runners {
			if r != nil && r.Leading() {
				n, who = n+1, i
			}
		}
		return n, who
	}
	waitFor(t, "a leader", 10*time.Second, func() bool { n, _ := leaders(); return n == 1 })
	// Sample for a while: never two leaders.
	for range 30 {
		if n, _ := leaders(); n > 1 {
			t.Fatalf("%d leaders at once", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	_, first := leaders()
	runners[first].Shutdown()
	runners[first] = nil
	waitFor(t, "a new leader", 10*time.Second, func() bool { n, _ := leaders(); return n == 1 })
	_, second := leaders()
	if second == first {
		t.Fatal("the stopped runner still leads")
	}
	// The leader's scheduler registered the periodic tasks (written at its heartbeat).
	insp := asynq.NewInspectorFromRedisClient(b.rdb)
	kinds := map[string]bool{}
	waitFor(t, "scheduler entries", 15*time.Second, func() bool {
		entries, err := insp.SchedulerEntries()
		if err != nil {
			t.Fatal(err)
		}
		clear(kinds)
		for _, e := range entries {
			kinds[e.Task.Type()] = true
		}
		return len(kinds) >= len(DefaultSchedule)
	})
	for kind := range DefaultSchedule {
		if !kinds[kind] {
			t.Errorf("periodic %s not scheduled: %v", kind, kinds)
		}
	}
	for _, r := range runners {
		if r != nil {
			r.Shutdown()
		}
	}
}

// A process that takes the lead reconciles at once, not one interval later: after a
// crash that also lost Redis (flushed, restarted without persistence) the work waiting
// in the database is enqueued again as soon as a new worker starts.
func TestNewLeaderReconcilesAtOnce(t *testing.T) {
	b := setup(t)
	_, rs := b.project(t, "t1", 1)
	// Pause the queue so the reconciled task stays where the reconciler put it.
	if err := b.h.Inspector.PauseQueue(jobs.QueueRender); err != nil {
		t.Fatal(err)
	}
	b.h.ReconcileGrace = time.Millisecond
	time.Sleep(5 * time.Millisecond)
	r, err := Start(b.rdb, b.h, Options{Pools: []string{"maintenance"}, ProcessID: "p1", Logger: b.h.Logger,
		ShutdownTimeout: time.Second, SchedulerConn: b.conn,
		// The periodic pass comes too late to be what the test sees.
		Schedule: map[string]string{jobs.KindReconcile: "@every 1h"}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Shutdown()
	id := jobs.RenderArgs{RenderID: rs[0].ID}.TaskID()
	waitFor(t, "the lost render's task enqueued again", 15*time.Second, func() bool {
		info, err := b.h.Inspector.GetTaskInfo(jobs.QueueRender, id)
		return err == nil && info.State == asynq.TaskStatePending
	})
}

// Graceful drain: a running task finishes within the shutdown timeout and nothing new
// starts after Shutdown begins.
func TestShutdownDrains(t *testing.T) {
	b := setup(t)
	_, rs := b.project(t, "t1", 3)
	started := make(chan string, 3)
	var finished atomic.Int64
	srv := asynq.NewServerFromRedisClient(b.rdb, asynq.Config{
		Concurrency: 1, Queues: map[string]int{jobs.QueueRender: 1}, ShutdownTimeout: 5 * time.Second,
		TaskCheckInterval: 50 * time.Millisecond, LogLevel: asynq.ErrorLevel,
	})
	mux := asynq.NewServeMux()
	mux.HandleFunc(jobs.KindRender, func(ctx context.Context, task *asynq.Task) error {
		id, _ := asynq.GetTaskID(ctx)
		started <- id
		select {
		case <-time.After(time.Second):
			finished.Add(1)
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	if err := srv.Start(mux); err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if err := b.h.Queue.Enqueue(context.Background(), jobs.RenderArgs{RenderID: r.ID}); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	srv.Shutdown()
	if finished.Load() != 1 {
		t.Fatalf("finished = %d, want the running task finished", finished.Load())
	}
	if len(started) != 0 {
		t.Fatalf("%d tasks started after shutdown began", len(started))
	}
	info, err := b.h.Inspector.GetQueueInfo(jobs.QueueRender)
	if err != nil || info.Pending != 2 {
		t.Fatalf("queue after drain: %+v, %v", info, err)
	}
}

// counter sums every series of a metric family.
func counter(t *testing.T, m *metrics.Metrics, name string) float64 {
	t.Helper()
	mfs, err := m.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, s := range mf.GetMetric() {
			if c := s.GetCounter(); c != nil {
				sum += c.GetValue()
			}
		}
	}
	return sum
}
