package workers

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda/internal/rediskey"
)

// leaderKey (rediskey.SchedulerLeader) is held by the process that runs the periodic
// scheduler. asynq's Scheduler has no election of its own: two of them would enqueue
// every periodic task twice.
const leaderKey = rediskey.SchedulerLeader

// elector keeps at most one process of the cluster leading: the leader holds a key
// with a lease it renews at a third of its length; when it dies the key expires and
// another process takes over within one lease.
type elector struct {
	rdb redis.UniversalClient
	key string
	id  string
	ttl time.Duration
	// lead runs while this process leads and returns a function that stops it.
	lead func() (stop func())
	// onChange reports leadership changes (metrics).
	onChange func(leading bool)
	log      *slog.Logger

	mu      sync.Mutex
	leading bool
	stop    func()
	cancel  context.CancelFunc
	done    chan struct{}
}

// renewLeader extends the lease only if this process still holds it.
var renewLeader = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`)

// resignLeader deletes the key only if this process holds it.
var resignLeader = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`)

func (e *elector) start() {
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel, e.done = cancel, make(chan struct{})
	go e.run(ctx)
}

func (e *elector) run(ctx context.Context) {
	defer close(e.done)
	t := time.NewTicker(e.ttl / 3)
	defer t.Stop()
	for {
		e.tick(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (e *elector) tick(ctx context.Context) {
	cctx, cancel := context.WithTimeout(ctx, e.ttl/3)
	defer cancel()
	if e.isLeading() {
		n, err := renewLeader.Run(cctx, e.rdb, []string{e.key}, e.id, e.ttl.Milliseconds()).Int()
		if err == nil && n == 1 {
			return
		}
		// Lost the key (or cannot tell): step down at once. Another process may take
		// over only after the lease ran out, so two leaders never overlap while the
		// renewals fail for less than the lease.
		e.log.Warn("scheduler leadership lost", "err", err)
		e.setLeading(false)
		return
	}
	ok, err := e.rdb.SetNX(cctx, e.key, e.id, e.ttl).Result()
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			e.log.Debug("scheduler election", "err", err)
		}
		return
	}
	if ok {
		e.log.Info("this process now runs the periodic scheduler", "id", e.id)
		e.setLeading(true)
	}
}

func (e *elector) isLeading() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.leading
}

func (e *elector) setLeading(on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if on == e.leading {
		return
	}
	e.leading = on
	if on {
		e.stop = e.lead()
	} else if e.stop != nil {
		e.stop()
		e.stop = nil
	}
	if e.onChange != nil {
		e.onChange(on)
	}
}

// shutdown stops leading and frees the key so another process takes over at once.
func (e *elector) shutdown() {
	if e.cancel == nil {
		return
	}
	e.cancel()
	<-e.done
	was := e.isLeading()
	e.setLeading(false)
	if was {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = resignLeader.Run(ctx, e.rdb, []string{e.key}, e.id).Err()
	}
}
