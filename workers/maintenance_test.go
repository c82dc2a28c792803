package workers

import (
	"context"
	"testing"
	"time"

	"github.com/kodahq/koda/jobs"
)

// TestReapUsesTheConfiguredIdleTime: the reaper no longer substitutes its own five
// minutes; unset, it passes 0 so the pool applies KODA_SANDBOX_IDLE (sandbox.Pool's
// IdleTimeout, covered by the pool's tests).
func TestReapUsesTheConfiguredIdleTime(t *testing.T) {
	for _, idle := range []time.Duration{0, 90 * time.Second} {
		var got []time.Duration
		h := &Handlers{Maintenance: Maintenance{SandboxIdle: idle, ReapIdleSandboxes: func(_ context.Context, d time.Duration) (int, error) {
			got = append(got, d)
			return 0, nil
		}}}
		if err := h.reapSandboxes(context.Background(), nil, jobs.ReapSandboxesArgs{}); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0] != idle {
			t.Fatalf("SandboxIdle %s: reaper called with %v", idle, got)
		}
	}
}
