package semaphore_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/semaphore"
)

func newSem(t *testing.T) (*semaphore.Semaphore, redis.UniversalClient) {
	t.Helper()
	opts, err := redis.ParseURL(kodatest.MustRedis(t, kodatest.DBSemaphore))
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	return semaphore.New(rdb, "test:"+t.Name()), rdb
}

// Fifty callers compete for three slots; a sampler and every winner check that the
// number of live holders never exceeds the limit.
func TestLimitHoldsUnderContention(t *testing.T) {
	sem, _ := newSem(t)
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	const limit, workers, rounds = 3, 50, 3
	var maxSeen, grants atomic.Int64
	observe := func() {
		hs, err := sem.Holders(ctx, "browser")
		if err != nil {
			if ctx.Err() == nil {
				t.Error(err)
			}
			return
		}
		n := int64(len(hs))
		for {
			m := maxSeen.Load()
			if n <= m || maxSeen.CompareAndSwap(m, n) {
				break
			}
		}
	}
	stopSampling := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Add(1)
	go func() {
		defer sampler.Done()
		for {
			select {
			case <-stopSampling:
				return
			default:
				observe()
			}
		}
	}()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				req := semaphore.Request{Resource: "browser", Limit: limit, Holder: fmt.Sprintf("task-%d-%d", w, r),
					Tenant: fmt.Sprintf("tenant-%d", w%4), Lease: 10 * time.Second, Fair: true}
				for {
					if ctx.Err() != nil {
						return
					}
					ok, err := sem.TryAcquire(ctx, req)
					if err != nil {
						t.Error(err)
						return
					}
					if ok {
						break
					}
					time.Sleep(5 * time.Millisecond)
				}
				grants.Add(1)
				observe()
				time.Sleep(2 * time.Millisecond)
				if err := sem.Release(ctx, "browser", req.Holder); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	close(stopSampling)
	sampler.Wait()
	if ctx.Err() != nil {
		t.Fatalf("only %d of %d acquisitions before the deadline", grants.Load(), workers*rounds)
	}
	if got := grants.Load(); got != workers*rounds {
		t.Fatalf("grants = %d, want %d", got, workers*rounds)
	}
	if m := maxSeen.Load(); m > limit || m < 1 {
		t.Fatalf("max live holders seen = %d, limit %d", m, limit)
	}
	t.Logf("max live holders seen: %d (limit %d)", maxSeen.Load(), limit)
}

// A holder that stops renewing (its process was killed) loses its slot once its lease
// runs out, and not before.
func TestDeadHolderFreesWithinLease(t *testing.T) {
	sem, _ := newSem(t)
	ctx := context.Background()
	lease := 1500 * time.Millisecond
	dead := semaphore.Request{Resource: "encoder", Limit: 1, Holder: "killed", Lease: lease}
	if ok, err := sem.TryAcquire(ctx, dead); err != nil || !ok {
		t.Fatalf("first acquire = %v, %v", ok, err)
	}
	start := time.Now()
	next := semaphore.Request{Resource: "encoder", Limit: 1, Holder: "next", Lease: lease}
	var got time.Duration
	for time.Since(start) < 10*time.Second {
		ok, err := sem.TryAcquire(ctx, next)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			got = time.Since(start)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got == 0 {
		t.Fatal("the dead holder's slot never freed")
	}
	// The lease was counted from the first acquire, a moment before start.
	if got < lease-300*time.Millisecond {
		t.Fatalf("slot freed after %s, before the %s lease ran out", got, lease)
	}
	t.Logf("dead holder's slot freed after %s (lease %s)", got, lease)
}

// A live holder keeps its slot for longer than one lease through renewal, and takes
// it again if the keys vanish (Redis restarted without persistence).
func TestHeldRenewsAndSurvivesWipe(t *testing.T) {
	sem, rdb := newSem(t)
	ctx := context.Background()
	lease := 600 * time.Millisecond
	held, ok, err := sem.AcquireAll(ctx, []semaphore.Request{
		{Resource: "browser", Limit: 1, Holder: "long", Lease: lease},
		{Resource: "encoder", Limit: 1, Holder: "long", Lease: lease},
	})
	if err != nil || !ok {
		t.Fatalf("acquire = %v, %v", ok, err)
	}
	other := semaphore.Request{Resource: "encoder", Limit: 1, Holder: "other", Lease: lease}
	for i := 0; i < 10; i++ {
		time.Sleep(250 * time.Millisecond)
		if ok, err := sem.TryAcquire(ctx, other); err != nil || ok {
			t.Fatalf("after %d ms another caller got the held slot (%v, %v)", (i+1)*250, ok, err)
		}
	}
	select {
	case <-held.Lost():
		t.Fatal("slot reported lost while renewed")
	default:
	}
	// Wipe the semaphore's keys; the holder takes its slots back at its next renewal.
	keys, _ := rdb.Keys(ctx, "test:"+t.Name()+"*").Result()
	if len(keys) == 0 {
		t.Fatal("no semaphore keys found")
	}
	rdb.Del(ctx, keys...)
	time.Sleep(lease)
	hs, err := sem.Holders(ctx, "encoder")
	if err != nil || len(hs) != 1 || hs[0] != "long" {
		t.Fatalf("holders after wipe = %v, %v", hs, err)
	}
	held.Release(ctx)
	if ok, err := sem.TryAcquire(ctx, other); err != nil || !ok {
		t.Fatalf("acquire after release = %v, %v", ok, err)
	}
	// AcquireAll takes all or nothing.
	if _, ok, err := sem.AcquireAll(ctx, []semaphore.Request{
		{Resource: "browser", Limit: 1, Holder: "third", Lease: lease},
		{Resource: "encoder", Limit: 1, Holder: "third", Lease: lease},
	}); err != nil || ok {
		t.Fatalf("AcquireAll with a busy resource = %v, %v", ok, err)
	}
	if hs, _ := sem.Holders(ctx, "browser"); len(hs) != 0 {
		t.Fatalf("a failed AcquireAll kept %v", hs)
	}
}

// One tenant with many tasks retrying often must not starve a tenant with one task
// that retries rarely: once the lone task has asked, the next free slot is its.
func TestFairShareBetweenTenants(t *testing.T) {
	sem, _ := newSem(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const res = "browser"
	var mu sync.Mutex
	var order []string
	bAsked := make(chan struct{})
	bDone := make(chan struct{})
	var wg sync.WaitGroup
	// The busy tenant: 20 tasks, each retrying every 2 ms and holding for 20 ms.
	for w := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-bDone:
					return
				case <-ctx.Done():
					return
				default:
				}
				req := semaphore.Request{Resource: res, Limit: 1, Holder: fmt.Sprintf("a-%d-%d", w, i), Tenant: "a", Lease: 5 * time.Second, Fair: true}
				ok, err := sem.TryAcquire(ctx, req)
				if err != nil {
					return
				}
				if !ok {
					time.Sleep(2 * time.Millisecond)
					continue
				}
				mu.Lock()
				order = append(order, "a")
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
				_ = sem.Release(ctx, res, req.Holder)
			}
		}()
	}
	time.Sleep(100 * time.Millisecond) // let tenant a saturate the slot
	// The lone tenant retries every 200 ms, far less often than a's tasks.
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(bDone)
		req := semaphore.Request{Resource: res, Limit: 1, Holder: "b-1", Tenant: "b", Lease: 5 * time.Second, Fair: true}
		for first := true; ctx.Err() == nil; first = false {
			ok, err := sem.TryAcquire(ctx, req)
			if err != nil {
				t.Error(err)
				return
			}
			if first {
				mu.Lock()
				order = append(order, "b-asked")
				mu.Unlock()
				close(bAsked)
			}
			if ok {
				mu.Lock()
				order = append(order, "b")
				mu.Unlock()
				_ = sem.Release(ctx, res, req.Holder)
				return
			}
			time.Sleep(200 * time.Millisecond)
		}
	}()
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatal("tenant b never got the slot")
	}
	// Between b asking and b being served, a may finish the task it held and, at
	// worst, one that won the race before b's claim was recorded.
	mu.Lock()
	defer mu.Unlock()
	between := 0
	asked := false
	for _, e := range order {
		if e == "b" {
			break
		}
		switch e {
		case "b-asked":
			asked = true
		case "a":
			if asked {
				between++
			}
		}
	}
	if between > 1 {
		t.Fatalf("tenant a got %d slots while tenant b waited: %v", between, order[max(0, len(order)-10):])
	}
	t.Logf("tenant a was served %d times while tenant b waited", between)
}

// Holders is empty for an unknown resource and a bad limit is refused.
func TestEdges(t *testing.T) {
	sem, _ := newSem(t)
	ctx := context.Background()
	if hs, err := sem.Holders(ctx, "nothing"); err != nil || len(hs) != 0 {
		t.Fatalf("holders = %v, %v", hs, err)
	}
	if _, err := sem.TryAcquire(ctx, semaphore.Request{Resource: "x", Limit: 0, Holder: "h", Lease: time.Second}); err == nil {
		t.Fatal("limit 0 accepted")
	}
	req := semaphore.Request{Resource: "x", Limit: 1, Holder: "h", Lease: time.Second}
	for i := 0; i < 2; i++ { // taking a slot one holds again renews it
		if ok, err := sem.TryAcquire(ctx, req); err != nil || !ok {
			t.Fatalf("acquire %d = %v, %v", i, ok, err)
		}
	}
	if err := sem.Release(ctx, "x", "nobody"); err != nil {
		t.Fatal(err)
	}
}
