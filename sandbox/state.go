package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/kodahq/koda"
)

// State is state.json: what an agent needs to resume in a new sandbox.
type State struct {
	Phase          koda.Phase     `json:"phase"`
	Todos          []koda.Todo    `json:"todos"`
	Plan           *koda.Plan     `json:"plan,omitempty"`
	Messages       []koda.Message `json:"messages"`
	LastCheckpoint LastCheckpoint `json:"last_checkpoint"`
}

// LastCheckpoint says where work stood when the checkpoint was taken.
type LastCheckpoint struct {
	// TodoIndex is the index of the first todo not done: resume from here.
	TodoIndex int       `json:"todo_index"`
	At        time.Time `json:"at"`
	SandboxID string    `json:"sandbox_id"`
	Reason    string    `json:"reason"`
	Seq       int       `json:"seq"` // checkpoints taken by this sandbox's run so far
}

// LoadState reads state.json under prefix; nil (no error) when there is none.
func LoadState(ctx context.Context, st koda.Storage, prefix string) (*State, error) {
	rc, err := st.Open(ctx, koda.StateKey(prefix))
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open state of %s: %w", prefix, err)
	}
	defer rc.Close()
	var s State
	if err := json.NewDecoder(io.LimitReader(rc, 16<<20)).Decode(&s); err != nil {
		return nil, fmt.Errorf("decode state of %s: %w", prefix, err)
	}
	return &s, nil
}

// Budgeted is implemented by sandboxes whose checkpoints have a budget of their own
// (their disk quota); others get DefaultBudget.
type Budgeted interface {
	Budget() Budget
}

// BudgetOf is the checkpoint budget of sb.
func BudgetOf(sb koda.Sandbox) Budget {
	if b, ok := sb.(Budgeted); ok {
		return b.Budget().orDefault()
	}
	return DefaultBudget
}

// SaveFiles streams the files of sb (its host folder) to storage as the checkpoint.
// A folder over its budget (apparent sizes: sparse files count in full) is refused with
// QUOTA_EXCEEDED before anything is read or stored, so the last good checkpoint stays.
func SaveFiles(ctx context.Context, st koda.Storage, prefix string, sb koda.Sandbox) error {
	b := BudgetOf(sb)
	if err := CheckFits(ctx, sb.Dir(), b); err != nil {
		return fmt.Errorf("checkpoint %s: %w", prefix, err)
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(CheckpointWithin(ctx, sb.Dir(), pw, b)) }()
	if _, err := st.Put(ctx, koda.CheckpointKey(prefix), pr); err != nil {
		pr.CloseWithError(err)
		return fmt.Errorf("checkpoint %s: %w", prefix, err)
	}
	return nil
}

// RestoreFiles extracts the checkpoint under prefix into sb; false when there is none.
func RestoreFiles(ctx context.Context, st koda.Storage, prefix string, sb koda.Sandbox) (bool, error) {
	rc, err := st.Open(ctx, koda.CheckpointKey(prefix))
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("open checkpoint of %s: %w", prefix, err)
	}
	defer rc.Close()
	if ex, ok := sb.(Exporter); ok {
		// Through the sandbox, so restored files belong to its user and count against
		// its quota.
		err = ex.Import(ctx, ".", rc)
	} else {
		err = Restore(ctx, rc, sb.Dir(), BudgetOf(sb))
	}
	if err != nil {
		return false, fmt.Errorf("restore checkpoint of %s: %w", prefix, err)
	}
	return true, nil
}

// Checkpointer saves a sandbox's files and state.json to storage: debounced after
// writes (Touch), at once after a todo is done and when asked (Save). It is safe for
// concurrent use; saves never overlap.
type Checkpointer struct {
	Storage  koda.Storage
	Sandbox  koda.Sandbox
	Prefix   string
	Debounce time.Duration // default 5 s
	Logger   *slog.Logger
	// OnSave, when set, is called after each successful save (events, tests).
	OnSave func(State)

	saveMu sync.Mutex // one save at a time

	mu       sync.Mutex
	state    State
	timer    *time.Timer
	closed   bool
	seq      int
	lastErr  error
	pending  bool
	inflight sync.WaitGroup
}

// SetState replaces the state saved with the next checkpoint.
func (c *Checkpointer) SetState(s State) {
	c.mu.Lock()
	c.state = s
	c.mu.Unlock()
}

// UpdateState changes the state under the lock.
func (c *Checkpointer) UpdateState(fn func(*State)) {
	c.mu.Lock()
	fn(&c.state)
	c.mu.Unlock()
}

// Touch notes a write; a checkpoint follows once writes pause for Debounce.
func (c *Checkpointer) Touch() {
	d := c.Debounce
	if d <= 0 {
		d = 5 * time.Second
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.pending = true
	if c.timer != nil {
		c.timer.Reset(d)
		return
	}
	c.timer = time.AfterFunc(d, func() {
		c.inflight.Add(1)
		defer c.inflight.Done()
		if err := c.Save(context.Background(), "after writes"); err != nil {
			c.log().Warn("debounced checkpoint", "prefix", c.Prefix, "err", err)
		}
	})
}

// Save takes a checkpoint now: the files, then state.json pointing at them.
func (c *Checkpointer) Save(ctx context.Context, reason string) error {
	c.saveMu.Lock()
	defer c.saveMu.Unlock()
	c.mu.Lock()
	c.pending = false
	c.seq++
	s := c.state
	s.Todos = append([]koda.Todo(nil), c.state.Todos...)
	s.Messages = append([]koda.Message(nil), c.state.Messages...)
	seq := c.seq
	c.mu.Unlock()

	if err := SaveFiles(ctx, c.Storage, c.Prefix, c.Sandbox); err != nil {
		c.setErr(err)
		return err
	}
	s.LastCheckpoint = LastCheckpoint{TodoIndex: firstOpen(s.Todos), At: time.Now().UTC(),
		SandboxID: c.Sandbox.ID(), Reason: reason, Seq: seq}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if _, err := c.Storage.Put(ctx, koda.StateKey(c.Prefix), bytes.NewReader(b)); err != nil {
		err = fmt.Errorf("save state of %s: %w", c.Prefix, err)
		c.setErr(err)
		return err
	}
	c.log().Debug("checkpoint saved", "prefix", c.Prefix, "reason", reason, "todo_index", s.LastCheckpoint.TodoIndex)
	if c.OnSave != nil {
		c.OnSave(s)
	}
	return nil
}

func (c *Checkpointer) setErr(err error) {
	c.mu.Lock()
	c.lastErr = err
	c.mu.Unlock()
}

// Close stops the debounce timer without saving and waits for a save in flight.
func (c *Checkpointer) Close() {
	c.mu.Lock()
	c.closed = true
	if c.timer != nil {
		c.timer.Stop()
	}
	c.mu.Unlock()
	c.inflight.Wait()
}

func (c *Checkpointer) log() *slog.Logger {
	if c.Logger != nil {
		return c.Logger
	}
	return slog.New(slog.DiscardHandler)
}

func firstOpen(todos []koda.Todo) int {
	for i, t := range todos {
		if t.Status != koda.TodoDone {
			return i
		}
	}
	return len(todos)
}

// Tracked wraps a sandbox so that file writes schedule a debounced checkpoint.
func Tracked(sb koda.Sandbox, c *Checkpointer) koda.Sandbox { return &tracked{Sandbox: sb, c: c} }

type tracked struct {
	koda.Sandbox
	c *Checkpointer
}

func (t *tracked) WriteFile(ctx context.Context, path string, data []byte, append bool) (int64, error) {
	n, err := t.Sandbox.WriteFile(ctx, path, data, append)
	if err == nil {
		t.c.Touch()
	}
	return n, err
}

func (t *tracked) Replace(ctx context.Context, path, old, new string, expected int) (int, error) {
	n, err := t.Sandbox.Replace(ctx, path, old, new, expected)
	if err == nil {
		t.c.Touch()
	}
	return n, err
}

func (t *tracked) RunCommand(ctx context.Context, req koda.CommandRequest) (*koda.CommandResult, error) {
	res, err := t.Sandbox.RunCommand(ctx, req)
	if err == nil {
		t.c.Touch() // a command may have written files too
	}
	return res, err
}

// CheckpointingReporter forwards to r and keeps the checkpointer's state in step:
// todos and messages are recorded, and a todo marked done triggers a checkpoint at once
// (a safe resume point). A failed checkpoint is logged, not fatal: the work goes on and
// the next checkpoint catches up.
func CheckpointingReporter(r koda.Reporter, c *Checkpointer) koda.Reporter {
	return &ckReporter{Reporter: r, c: c}
}

type ckReporter struct {
	koda.Reporter
	c *Checkpointer
}

func (r *ckReporter) TodoUpdate(ctx context.Context, todoID string, status koda.TodoStatus) {
	r.Reporter.TodoUpdate(ctx, todoID, status)
	r.c.UpdateState(func(s *State) {
		for i := range s.Todos {
			if s.Todos[i].ID == todoID {
				s.Todos[i].Status = status
				return
			}
		}
		s.Todos = append(s.Todos, koda.Todo{ID: todoID, Status: status})
	})
	if status == koda.TodoDone {
		if err := r.c.Save(ctx, "todo "+todoID+" done"); err != nil && !errors.Is(err, context.Canceled) {
			r.c.log().Warn("checkpoint after todo", "todo", todoID, "err", err)
		}
	}
}

func (r *ckReporter) Message(ctx context.Context, role, content string) {
	r.Reporter.Message(ctx, role, content)
	r.c.UpdateState(func(s *State) {
		s.Messages = append(s.Messages, koda.Message{Role: role, Content: content, At: time.Now().UTC()})
	})
}

// Exporter is implemented by sandboxes that can stream a folder out as a tar.gz and
// extract one in (transfer, checkpoints through the provider).
type Exporter interface {
	Export(ctx context.Context, path string, w io.Writer) error
	Import(ctx context.Context, path string, r io.Reader) error
}

// BackgroundStopper is implemented by sandboxes that can stop one background command.
type BackgroundStopper interface {
	StopBackground(pid int) error
}
