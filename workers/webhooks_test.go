package workers

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/internal/rediskey"
	"github.com/kodahq/koda/internal/semaphore"
	"github.com/kodahq/koda/internal/webhook"
	"github.com/kodahq/koda/jobs"
)

// TestWebhookTenantsShareThePool: tenant A floods the webhooks pool with hundreds of
// deliveries to a receiver that answers 500 after 1.5 s; tenant B's one
// delivery, queued behind all of them, still arrives within seconds, and A never has
// more deliveries in flight than its share. Without the per-tenant share every worker
// waits on A's receiver and B's webhook waits its turn behind A's backlog (here about
// 300 / 6 × 1.5 s, over a minute).
func TestWebhookTenantsShareThePool(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	const share, workers, flood = 2, 6, 300
	b.h.Limits = &Limits{Sem: semaphore.New(b.rdb, rediskey.Semaphore), Node: "n1",
		Max: map[string]int{ResWebhookTenant: share}, BusyDelay: 500 * time.Millisecond, Lease: 5 * time.Second}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	sender, err := webhook.NewSender(webhook.GenerateSecret(), nil, log)
	if err != nil {
		t.Fatal(err)
	}
	sender.Timeout = 2 * time.Second
	b.h.Webhooks = sender

	// A's receiver is slow and failing: it answers 500 after 1.5 s, so a request has
	// left the count below before its worker can take another of A's.
	stop := make(chan struct{})
	var inFlight, maxInFlight, hitsA atomic.Int64
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		hitsA.Add(1)
		for m := maxInFlight.Load(); n > m && !maxInFlight.CompareAndSwap(m, n); m = maxInFlight.Load() {
		}
		select {
		case <-time.After(1500 * time.Millisecond):
		case <-r.Context().Done():
		case <-stop:
		}
		inFlight.Add(-1)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer slow.Close()
	defer close(stop)
	var (
		mu      sync.Mutex
		arrived = map[string]time.Time{}
	)
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrived[r.Header.Get("webhook-id")] = time.Now()
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer fast.Close()

	deliver := func(tenant, url string) *koda.WebhookDelivery {
		t.Helper()
		p, _ := b.project(t, tenant, 0)
		d := &koda.WebhookDelivery{ID: koda.NewID(koda.PrefixDelivery), TenantID: tenant, ProjectID: p.ID, URL: url,
			EventType: "project.phase_changed", Payload: []byte(`{"type":"project.phase_changed"}`),
			Status: koda.DeliveryPending, CreatedAt: time.Now().UTC()}
		if err := b.store.CreateDelivery(ctx, d); err != nil {
			t.Fatal(err)
		}
		if err := b.h.Queue.Enqueue(ctx, jobs.WebhookArgs{DeliveryID: d.ID}); err != nil {
			t.Fatal(err)
		}
		return d
	}
	for range flood {
		deliver("tenant-a", slow.URL)
	}

	runner, err := Start(b.rdb, b.h, Options{Pools: []string{config.PoolWebhooks},
		Concurrency: map[string]int{config.PoolWebhooks: workers}, ShutdownTimeout: 3 * time.Second, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer runner.Shutdown()
	waitFor(t, "tenant A's receiver to hang on its share of deliveries", 30*time.Second, func() bool {
		return inFlight.Load() >= share
	})

	queued := time.Now()
	d := deliver("tenant-b", fast.URL)
	const bound = 15 * time.Second
	waitFor(t, "tenant B's webhook behind tenant A's backlog", bound, func() bool {
		mu.Lock()
		defer mu.Unlock()
		_, ok := arrived[d.ID]
		return ok
	})
	mu.Lock()
	took := arrived[d.ID].Sub(queued)
	mu.Unlock()
	t.Logf("tenant B's webhook arrived %s after it was queued behind %d of tenant A's; A had at most %d in flight, %d attempts",
		took.Round(time.Millisecond), flood, maxInFlight.Load(), hitsA.Load())
	if m := maxInFlight.Load(); m > share {
		t.Errorf("tenant A had %d deliveries in flight, its share is %d", m, share)
	}
	waitFor(t, "B's delivery recorded as delivered", 10*time.Second, func() bool {
		got, err := b.store.GetDelivery(ctx, d.ID)
		return err == nil && got.Status == koda.DeliveryDelivered
	})
	if got, _ := b.store.GetDelivery(ctx, d.ID); got.Attempts != 1 {
		t.Errorf("B's delivery took %d attempts, want 1", got.Attempts)
	}
}
