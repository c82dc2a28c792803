package workers

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/kodahq/koda"
)

// The agent's bound: AgentTimeout, else the default, and always before the task's own
// deadline; only a stop by the bound itself becomes AGENT_TIMEOUT.
func TestAgentContext(t *testing.T) {
	remaining := func(ctx context.Context) time.Duration {
		dl, ok := ctx.Deadline()
		if !ok {
			t.Fatal("no deadline")
		}
		return time.Until(dl)
	}
	h := &Handlers{AgentTimeout: time.Minute}
	actx, done := h.agentContext(context.Background())
	if r := remaining(actx); r < 59*time.Second || r > time.Minute {
		t.Errorf("bound %s, want the configured minute", r)
	}
	_ = done(nil)

	// A plan task's 2-minute deadline comes first: the bound ends 10 s before it.
	task, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	actx, done = (&Handlers{}).agentContext(task)
	if r := remaining(actx); r > 2*time.Minute-agentDeadlineMargin || r < 2*time.Minute-agentDeadlineMargin-time.Second {
		t.Errorf("bound %s inside a 2-minute task, want 1m50s", r)
	}
	_ = done(nil)

	// Stopped by the bound: AGENT_TIMEOUT, a permanent failure.
	h = &Handlers{AgentTimeout: 20 * time.Millisecond}
	actx, done = h.agentContext(context.Background())
	<-actx.Done()
	err := done(actx.Err())
	if koda.ErrorCode(err) != koda.CodeAgentTimeout || !permanent(err) {
		t.Errorf("stopped by the bound: %v (code %s, permanent %v)", err, koda.ErrorCode(err), permanent(err))
	}
	// Stopped because the task ended (shutdown): left as it is, for asynq to retry.
	task2, cancel2 := context.WithCancel(context.Background())
	actx, done = h.agentContext(task2)
	cancel2()
	<-actx.Done()
	if err := done(actx.Err()); koda.ErrorCode(err) == koda.CodeAgentTimeout || !errors.Is(err, context.Canceled) {
		t.Errorf("stopped by the task's end: %v", err)
	}
	// An error of its own within the bound stays the agent's.
	_, done = h.agentContext(context.Background())
	if err := done(errors.New("boom")); err == nil || koda.ErrorCode(err) == koda.CodeAgentTimeout {
		t.Errorf("the agent's own error: %v", err)
	}
}
