// Package workers executes the queue's tasks. Each pool is an asynq server with its own
// queues and concurrency, so a slow final render never holds up planning or webhooks;
// a process runs the pools it is told to (koda serve runs all of them).
package workers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/internal/webhook"
	"github.com/kodahq/koda/jobs"
)

// poolQueues maps each pool to the queues it serves.
var poolQueues = map[string][]string{
	config.PoolAgent:       {jobs.QueuePlan, jobs.QueueCodegen},
	config.PoolPreview:     {jobs.QueuePreview},
	config.PoolRender:      {jobs.QueueRender},
	config.PoolWebhooks:    {jobs.QueueWebhooks},
	config.PoolMaintenance: {jobs.QueueMaintenance},
}

// Options configures the pools of one process.
type Options struct {
	Pools           []string
	Concurrency     map[string]int
	ShutdownTimeout time.Duration
	// ReconcileEvery is how often the scheduler enqueues reconciliation; 0 = every minute.
	ReconcileEvery time.Duration
	// SchedulerConn is the scheduler's own Redis connection: it closes it on shutdown,
	// which asynq refuses to do for a shared client.
	SchedulerConn asynq.RedisConnOpt
	Logger        *slog.Logger

	// Askers is how many goroutines beyond its concurrency a pool of limited tasks
	// (agent, preview, render) runs when Handlers.Limits is set: they take the next
	// tasks off the queue only to find them busy and put their tenants in line for a
	// slot, so one tenant's backlog cannot hide another tenant's task. Default 2.
	Askers int
	// LeaderTTL is the lease of the scheduler's leadership; default 15 s.
	LeaderTTL time.Duration
	// ProcessID names this process in the leader election; default random.
	ProcessID string
	// Schedule overrides the cron spec of periodic kinds (tests).
	Schedule map[string]string
}

// Runner owns the asynq servers and the scheduler of one process.
type Runner struct {
	servers []*asynq.Server
	elector *elector
	logger  *slog.Logger

	mu        sync.Mutex
	scheduler *asynq.Scheduler
}

// Leading reports whether this process runs the periodic scheduler now.
func (r *Runner) Leading() bool { return r.elector != nil && r.elector.isLeading() }

// DefaultSchedule is when each periodic kind is enqueued (asynq cron specs).
var DefaultSchedule = map[string]string{
	jobs.KindReconcile:     "@every 1m",
	jobs.KindCleanPreviews: "@hourly",
	jobs.KindIdempotency:   "@hourly",
	jobs.KindDailyCleanup:  "@daily",
	// Often, so the records GET /v1/usage adds to the aggregates stay few.
	jobs.KindUsage: "@every 10m",
}

var periodic = []jobs.Args{jobs.ReconcileArgs{}, jobs.CleanPreviewsArgs{},
	jobs.DailyCleanupArgs{}, jobs.PurgeIdempotencyArgs{}, jobs.UsageArgs{}}

// Start starts one asynq server per pool, and the periodic scheduler when the
// maintenance pool runs here.
func Start(rdb redis.UniversalClient, h *Handlers, opts Options) (*Runner, error) {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	r := &Runner{logger: log}
	for _, pool := range opts.Pools {
		queues, ok := poolQueues[pool]
		if !ok {
			return nil, fmt.Errorf("unknown pool %q", pool)
		}
		qs := map[string]int{}
		for _, q := range queues {
			qs[q] = 1
		}
		conc := opts.Concurrency[pool]
		if conc < 1 {
			conc = config.DefaultConcurrency[pool]
		}
		workers := conc
		if h.Limits != nil && pool != config.PoolWebhooks && pool != config.PoolMaintenance {
			askers := opts.Askers
			if askers <= 0 {
				askers = 2
			}
			workers += askers
		}
		srv := asynq.NewServerFromRedisClient(rdb, asynq.Config{
			Concurrency:     workers,
			Queues:          qs,
			ShutdownTimeout: opts.ShutdownTimeout,
			RetryDelayFunc:  retryDelay(h.WebhookSchedule),
			IsFailure:       isFailure,
			Logger:          asynqLogger{log.With("pool", pool)},
			LogLevel:        asynq.WarnLevel,
			// Short polls keep a single-process deployment responsive; cost is a few
			// Redis round trips per second per pool.
			TaskCheckInterval:        200 * time.Millisecond,
			DelayedTaskCheckInterval: time.Second,
		})
		if err := srv.Start(h.mux(pool, conc)); err != nil {
			r.Shutdown()
			return nil, fmt.Errorf("start pool %s: %w", pool, err)
		}
		r.servers = append(r.servers, srv)
		log.Info("worker pool started", "pool", pool, "queues", queues, "concurrency", conc)
	}
	for _, p := range opts.Pools {
		if p != config.PoolMaintenance {
			continue
		}
		if err := r.startElection(rdb, h, opts); err != nil {
			r.Shutdown()
			return nil, err
		}
	}
	return r, nil
}

// startElection makes this process a candidate to run the periodic scheduler; the
// one leader of the cluster enqueues reconciliation and the maintenance jobs.
func (r *Runner) startElection(rdb redis.UniversalClient, h *Handlers, opts Options) error {
	schedule := map[string]string{}
	for k, v := range DefaultSchedule {
		schedule[k] = v
	}
	if opts.ReconcileEvery > 0 {
		schedule[jobs.KindReconcile] = fmt.Sprintf("@every %s", opts.ReconcileEvery)
	}
	for k, v := range opts.Schedule {
		schedule[k] = v
	}
	tasks := make(map[string]*asynq.Task, len(periodic))
	for _, a := range periodic {
		t, err := jobs.NewTask(a)
		if err != nil {
			return err
		}
		tasks[a.Kind()] = t
	}
	ttl := opts.LeaderTTL
	if ttl <= 0 {
		ttl = 15 * time.Second
	}
	id := opts.ProcessID
	if id == "" {
		id = nonce()
	}
	log := r.logger.With("component", "scheduler")
	r.elector = &elector{
		rdb: rdb, key: leaderKey, id: id, ttl: ttl, log: log,
		onChange: h.Metrics.SetLeader,
		lead: func() func() {
			sopts := &asynq.SchedulerOpts{Logger: asynqLogger{log}, LogLevel: asynq.WarnLevel}
			var s *asynq.Scheduler
			if opts.SchedulerConn != nil {
				s = asynq.NewScheduler(opts.SchedulerConn, sopts)
			} else {
				s = asynq.NewSchedulerFromRedisClient(rdb, sopts)
			}
			for kind, t := range tasks {
				if spec := schedule[kind]; spec != "" {
					if _, err := s.Register(spec, t); err != nil {
						log.Error("register periodic task", "kind", kind, "spec", spec, "err", err)
					}
				}
			}
			if err := s.Start(); err != nil {
				log.Error("start scheduler", "err", err)
				return func() {}
			}
			r.mu.Lock()
			r.scheduler = s
			r.mu.Unlock()
			// A new leader reconciles at once rather than one interval later: leadership
			// changes hands when the leader died or Redis lost its key (restarted or
			// flushed), which are the times tasks are lost.
			if schedule[jobs.KindReconcile] != "" && h.Queue != nil {
				ctx, cancel := context.WithTimeout(context.Background(), ttl/3)
				if err := h.Queue.Enqueue(ctx, jobs.ReconcileArgs{}); err != nil {
					log.Warn("enqueue the first reconciliation", "err", err)
				}
				cancel()
			}
			return func() {
				s.Shutdown()
				r.mu.Lock()
				r.scheduler = nil
				r.mu.Unlock()
			}
		},
	}
	r.elector.start()
	return nil
}

// Shutdown stops taking tasks and waits up to the shutdown timeout for running ones;
// unfinished tasks go back to their queue.
func (r *Runner) Shutdown() {
	if r.elector != nil {
		r.elector.shutdown()
	}
	// Servers stop together: each stops fetching at once and then waits for its
	// running tasks, so the drain takes one shutdown timeout, not one per pool.
	var wg sync.WaitGroup
	for _, s := range r.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Shutdown()
		}()
	}
	wg.Wait()
}

// errBusy means a resource is taken; the task waits without counting a failure.
type errBusy struct{ delay time.Duration }

func (e *errBusy) Error() string { return fmt.Sprintf("resource busy, retry in %s", e.delay) }

func isFailure(err error) bool {
	var b *errBusy
	return !errors.As(err, &b)
}

// Default retry delays for project and render tasks: quick, because most failures
// worth retrying (a crashed browser, a lost lease) clear at once.
var taskRetry = []time.Duration{2 * time.Second, 10 * time.Second, 30 * time.Second}

func retryDelay(schedule webhook.Schedule) asynq.RetryDelayFunc {
	return func(n int, err error, t *asynq.Task) time.Duration {
		var b *errBusy
		if errors.As(err, &b) {
			return b.delay
		}
		if t.Type() == jobs.KindWebhook {
			return schedule.RetryDelay(n, err)
		}
		return pick(taskRetry, n)
	}
}

func pick(ds []time.Duration, n int) time.Duration {
	if n < len(ds) {
		return ds[n]
	}
	return ds[len(ds)-1]
}

// asynqLogger routes asynq's logs into slog.
type asynqLogger struct{ l *slog.Logger }

func (a asynqLogger) Debug(args ...any) { a.l.Debug(fmt.Sprint(args...)) }
func (a asynqLogger) Info(args ...any)  { a.l.Info(fmt.Sprint(args...)) }
func (a asynqLogger) Warn(args ...any)  { a.l.Warn(fmt.Sprint(args...)) }
func (a asynqLogger) Error(args ...any) { a.l.Error(fmt.Sprint(args...)) }
func (a asynqLogger) Fatal(args ...any) { a.l.Error(fmt.Sprint(args...)) }

// lastAttempt reports whether the running task has no retries left.
func lastAttempt(ctx context.Context) bool {
	n, ok1 := asynq.GetRetryCount(ctx)
	max, ok2 := asynq.GetMaxRetry(ctx)
	return ok1 && ok2 && n >= max
}
