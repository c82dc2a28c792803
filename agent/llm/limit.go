package llm

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/kodahq/koda/internal/semaphore"
)

// SemaphoreLimiter is the Limiter shared by every worker: the Redis semaphore holds at
// most Limit requests in flight per provider ("llm-requests:<provider>") across the
// cluster. A slot's lease is renewed while the request runs, so a worker killed
// mid-request frees its slot within Lease.
//
// Workers also hold an "llm:<provider>" slot per plan or codegen task (workers.Limits);
// this limit is per request, so a task's many calls interleave fairly with other tasks.
type SemaphoreLimiter struct {
	Sem   *semaphore.Semaphore
	Limit int           // requests in flight per provider; default 4
	Lease time.Duration // default 30 s
	Poll  time.Duration // wait between attempts when busy; default 200 ms (jittered)
	Node  string        // names the holder, for operators reading the semaphore
}

// Acquire waits for a slot of provider's limit.
func (l *SemaphoreLimiter) Acquire(ctx context.Context, provider string) (func(), error) {
	limit, lease, poll := l.Limit, l.Lease, l.Poll
	if limit <= 0 {
		limit = 4
	}
	if lease <= 0 {
		lease = 30 * time.Second
	}
	if poll <= 0 {
		poll = 200 * time.Millisecond
	}
	b := make([]byte, 6)
	_, _ = crand.Read(b)
	req := semaphore.Request{Resource: "llm-requests:" + provider, Limit: limit, Lease: lease,
		Holder: l.Node + "#" + hex.EncodeToString(b)}
	for {
		held, ok, err := l.Sem.AcquireAll(ctx, []semaphore.Request{req})
		if err != nil {
			return nil, fmt.Errorf("llm limit %s: %w", provider, err)
		}
		if ok {
			return func() { held.Release(context.WithoutCancel(ctx)) }, nil
		}
		t := time.NewTimer(poll/2 + time.Duration(rand.Int64N(int64(poll))))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}
