package semaphore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/rediskey"
)

// SandboxLeases is the koda.SandboxLeases of one process: each live sandbox of a tenant
// holds a slot of the tenant's resource (rediskey.LiveSandboxes), and Run renews the
// slots this process holds. A process that dies stops renewing, and its slots lapse
// after Lease.
type SandboxLeases struct {
	sem *Semaphore
	// Lease is how long a slot outlives its last renewal; Run renews at a third of it.
	Lease  time.Duration
	Logger *slog.Logger

	mu   sync.Mutex
	held map[string]string // holder → resource
}

var _ koda.SandboxLeases = (*SandboxLeases)(nil)

// NewSandboxLeases returns the leases of this process in sem's Redis; lease ≤ 0 means
// 30 seconds.
func NewSandboxLeases(sem *Semaphore, lease time.Duration) *SandboxLeases {
	if lease <= 0 {
		lease = 30 * time.Second
	}
	return &SandboxLeases{sem: sem, Lease: lease, held: map[string]string{}}
}

// TakeSandbox implements koda.SandboxLeases.
func (l *SandboxLeases) TakeSandbox(ctx context.Context, tenant string, limit int) (func(), int, bool, error) {
	resource := rediskey.LiveSandboxes(tenant)
	var b [12]byte
	_, _ = rand.Read(b[:])
	holder := hex.EncodeToString(b[:])
	ok, err := l.sem.TryAcquire(ctx, Request{Resource: resource, Limit: limit, Holder: holder, Tenant: tenant, Lease: l.Lease})
	if err != nil {
		return nil, 0, false, err
	}
	if !ok {
		hs, err := l.sem.Holders(ctx, resource)
		return nil, len(hs), false, err
	}
	l.mu.Lock()
	l.held[holder] = resource
	l.mu.Unlock()
	var once sync.Once
	release := func() {
		once.Do(func() {
			l.mu.Lock()
			delete(l.held, holder)
			l.mu.Unlock()
			// Not the caller's context: the sandbox is gone whatever the caller's fate,
			// and a slot not released lapses only after Lease.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := l.sem.Release(ctx, resource, holder); err != nil {
				l.log().Warn("release sandbox lease; it lapses by itself", "resource", resource, "err", err)
			}
		})
	}
	return release, 0, true, nil
}

// Count returns how many sandboxes of tenant hold a live lease anywhere.
func (l *SandboxLeases) Count(ctx context.Context, tenant string) (int, error) {
	hs, err := l.sem.Holders(ctx, rediskey.LiveSandboxes(tenant))
	return len(hs), err
}

// Run renews the leases of this process every third of Lease until ctx ends. A lease
// found lost (Redis restarted, or this process stalled past Lease) is taken again
// whatever the limit: its sandbox still lives and must count.
func (l *SandboxLeases) Run(ctx context.Context) {
	t := time.NewTicker(l.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		l.renew(ctx)
	}
}

// renew holds mu throughout, so a release waits: a lease released between its renewal
// and its retaking would otherwise be taken again and counted until it lapsed.
func (l *SandboxLeases) renew(ctx context.Context) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for holder, resource := range l.held {
		ok, err := l.sem.Renew(ctx, resource, holder, l.Lease)
		if err == nil && !ok {
			_, err = l.sem.TryAcquire(ctx, Request{Resource: resource, Limit: 1 << 30, Holder: holder, Lease: l.Lease})
		}
		if err != nil && ctx.Err() == nil {
			l.log().Warn("renew sandbox lease", "resource", resource, "err", err)
		}
	}
}

func (l *SandboxLeases) log() *slog.Logger {
	if l.Logger != nil {
		return l.Logger
	}
	return slog.Default()
}
