package lifecycle_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/internal/semaphore"
)

// node is one process of a cluster: its own lifecycle service and sandbox leases,
// sharing the database and Redis with the others.
type node struct {
	life   *lifecycle.Service
	leases *semaphore.SandboxLeases
	stop   context.CancelFunc // stops renewing, as a SIGKILL would
}

func startNode(t *testing.T, st koda.Store, rdb redis.UniversalClient, lease time.Duration) *node {
	t.Helper()
	leases := semaphore.NewSandboxLeases(semaphore.New(rdb, ""), lease)
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); leases.Run(ctx) }()
	t.Cleanup(func() { stop(); <-done })
	return &node{life: &lifecycle.Service{Store: st, SandboxLeases: leases}, leases: leases, stop: stop}
}

// TestLiveSandboxLimitHoldsAcrossNodes: a tenant's live-sandbox limit counts the
// sandboxes of every node; a released sandbox frees its place at once, a dead node's
// only once their leases lapse, while a live node's renewed leases never do.
func TestLiveSandboxLimitHoldsAcrossNodes(t *testing.T) {
	ctx := context.Background()
	st := kodatest.MustOpenDB(t)
	opts, err := redis.ParseURL(kodatest.MustRedis(t, kodatest.DBLifecycle))
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	if err := st.CreateTenant(ctx, &koda.Tenant{ID: "acme", Limits: koda.Limits{LiveSandboxes: 2}}); err != nil {
		t.Fatal(err)
	}
	const lease = time.Second
	a, b := startNode(t, st, rdb, lease), startNode(t, st, rdb, lease)
	admit := func(n *node, tenant string) (func(), error) {
		t.Helper()
		// live is what the node holds itself: 0 here, so only the shared count can refuse.
		return n.life.AdmitSandbox(ctx, tenant, 0)
	}
	refused := func(what string, err error) {
		t.Helper()
		var e *koda.Error
		if koda.ErrorCode(err) != koda.CodeLimitSandboxes || koda.ErrorKind(err) != koda.ELIMIT {
			t.Fatalf("%s: %v, want %s", what, err, koda.CodeLimitSandboxes)
		}
		if ok := asError(err, &e); !ok || e.RetryAfter <= 0 {
			t.Errorf("%s: no Retry-After in %v", what, err)
		}
	}

	relA, err := admit(a, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admit(b, "acme"); err != nil {
		t.Fatal("the second sandbox, on another node:", err)
	}
	_, err = admit(b, "acme")
	refused("a third sandbox on node b", err)
	_, err = admit(a, "acme")
	refused("a third sandbox on node a", err)
	if _, err := admit(a, koda.DefaultTenant); err != nil {
		t.Fatal("a tenant without a limit was refused:", err)
	}

	// Node a destroys its sandbox: b may have another at once.
	relA()
	relA() // twice is harmless
	relB2, err := admit(b, "acme")
	if err != nil {
		t.Fatal("after a's sandbox was destroyed:", err)
	}
	_, err = admit(a, "acme")
	refused("b holds both", err)

	// Leases are renewed while their node lives: well past the lease, still full.
	time.Sleep(3 * lease)
	_, err = admit(a, "acme")
	refused("b's renewed leases", err)

	// Node b dies (no release, no renewal): its sandboxes stop counting when their
	// leases lapse, and not before.
	b.stop()
	if n, err := a.leases.Count(ctx, "acme"); err != nil || n != 2 {
		t.Fatalf("right after b died: %d live (%v), want 2", n, err)
	}
	deadline := time.Now().Add(5 * lease)
	for {
		n, err := a.leases.Count(ctx, "acme")
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of dead b's sandboxes still count after %v", n, 5*lease)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for i := range 2 {
		if _, err := admit(a, "acme"); err != nil {
			t.Fatalf("sandbox %d after b's leases lapsed: %v", i+1, err)
		}
	}
	_, err = admit(a, "acme")
	refused("a at the limit alone", err)
	relB2() // the dead node's late release changes nothing
	_, err = admit(a, "acme")
	refused("after a stale release", err)
}

func asError(err error, target **koda.Error) bool { return errors.As(err, target) }
