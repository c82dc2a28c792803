package sandbox_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/storage"
	"github.com/kodahq/koda/sandbox"
	"github.com/kodahq/koda/sandbox/local"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newPool(t *testing.T, cfg sandbox.PoolConfig) (*sandbox.Pool, *local.Provider, *storage.Local) {
	t.Helper()
	prov := local.New(local.Config{Root: t.TempDir(), CommandTimeout: 10 * time.Second, KillGrace: 500 * time.Millisecond,
		Limits: local.Limits{DiskBytes: 16 << 20}})
	st := storage.NewLocal(t.TempDir(), "http://127.0.0.1:1", []byte("secret"))
	cfg.Provider, cfg.Storage = prov, st
	p := sandbox.NewPool(cfg)
	t.Cleanup(func() {
		_ = p.Close(context.Background())
		_ = prov.Close(context.Background())
	})
	return p, prov, st
}

func TestPoolKeysLimitsAndTenants(t *testing.T) {
	ctx := context.Background()
	p, _, _ := newPool(t, sandbox.PoolConfig{MaxPerTenant: 2, MaxPerNode: 3})
	a, restored, err := p.GetOrCreate(ctx, koda.SandboxSpec{TenantID: "t1", ProjectID: "prj_a", Name: "codegen"})
	if err != nil || restored {
		t.Fatalf("create: %v restored=%v", err, restored)
	}
	again, _, err := p.GetOrCreate(ctx, koda.SandboxSpec{TenantID: "t1", ProjectID: "prj_a", Name: "codegen"})
	if err != nil || again.ID() != a.ID() {
		t.Fatalf("same key gave another sandbox: %v", err)
	}
	b, _, err := p.GetOrCreate(ctx, koda.SandboxSpec{TenantID: "t1", ProjectID: "prj_a", Name: "dev"})
	if err != nil || b.ID() == a.ID() {
		t.Fatalf("another name gave the same sandbox: %v", err)
	}
	_, _, err = p.GetOrCreate(ctx, koda.SandboxSpec{TenantID: "t1", ProjectID: "prj_b"})
	if koda.ErrorCode(err) != koda.CodeQuotaExceeded {
		t.Fatalf("third sandbox of tenant t1: %v", err)
	}
	if _, _, err = p.GetOrCreate(ctx, koda.SandboxSpec{TenantID: "t2", ProjectID: "prj_c"}); err != nil {
		t.Fatal(err)
	}
	_, _, err = p.GetOrCreate(ctx, koda.SandboxSpec{TenantID: "t3", ProjectID: "prj_d"})
	if koda.ErrorCode(err) != koda.CodeQuotaExceeded {
		t.Fatalf("fourth sandbox of the node: %v", err)
	}
	// Another tenant neither sees nor touches t1's sandboxes.
	if _, err := p.Lookup(ctx, "t2", a.ID()); koda.ErrorCode(err) != koda.CodeSandboxNotFound {
		t.Fatalf("t2 got t1's sandbox: %v", err)
	}
	if err := p.DestroyFor(ctx, "t2", a.ID(), true); koda.ErrorCode(err) != koda.CodeSandboxNotFound {
		t.Fatalf("t2 destroyed t1's sandbox: %v", err)
	}
	list, _ := p.ListFor(ctx, "t1")
	if len(list) != 2 || list[0].ID != a.ID() || list[0].State != koda.SandboxReady {
		t.Fatalf("list of t1: %+v", list)
	}
	if err := p.DestroyAll(ctx, "t1", ""); err != nil {
		t.Fatal(err)
	}
	if list, _ := p.ListFor(ctx, "t1"); len(list) != 0 {
		t.Fatalf("after destroy-all: %+v", list)
	}
	if a.State() != koda.SandboxStopped {
		t.Fatalf("state after destroy %s", a.State())
	}
}

func TestPoolCheckpointRestoreAndIdleReap(t *testing.T) {
	ctx := context.Background()
	clk := &clock{t: time.Now()}
	p, prov, st := newPool(t, sandbox.PoolConfig{IdleTimeout: 5 * time.Minute, Now: clk.Now})
	spec := koda.SandboxSpec{TenantID: "t1", ProjectID: "prj_ck", Name: "codegen"}
	sb, _, err := p.GetOrCreate(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.WriteFile(ctx, "src/app.js", []byte("v1"), false); err != nil {
		t.Fatal(err)
	}
	// Killed without a checkpoint: the next one starts empty, as nothing was saved.
	if err := prov.Destroy(ctx, sb.ID()); err != nil {
		t.Fatal(err)
	}
	sb2, restored, err := p.GetOrCreate(ctx, spec)
	if err != nil || restored || sb2.ID() == sb.ID() {
		t.Fatalf("after kill: %v restored=%v", err, restored)
	}
	if _, err := sb2.WriteFile(ctx, "src/app.js", []byte("v2"), false); err != nil {
		t.Fatal(err)
	}
	release := p.Acquire(sb2.ID())
	clk.Add(6 * time.Minute)
	if n, err := p.ReapIdle(ctx, 0); err != nil || n != 0 {
		t.Fatalf("reaped a sandbox in use: %d %v", n, err)
	}
	release()
	clk.Add(4 * time.Minute)
	if n, _ := p.ReapIdle(ctx, 0); n != 0 {
		t.Fatal("reaped before the idle timeout")
	}
	clk.Add(2 * time.Minute)
	if n, err := p.ReapIdle(ctx, 0); err != nil || n != 1 {
		t.Fatalf("idle reap: %d %v", n, err)
	}
	if sb2.State() != koda.SandboxStopped {
		t.Fatal("idle sandbox still alive")
	}
	sb3, restored, err := p.GetOrCreate(ctx, spec)
	if err != nil || !restored {
		t.Fatalf("resume: %v restored=%v", err, restored)
	}
	got, err := sb3.ReadFile(ctx, "src/app.js", 0, 0)
	if err != nil || string(got) != "v2" {
		t.Fatalf("restored %q %v", got, err)
	}
	// Restored files belong to the new sandbox's user: its commands can change them.
	res, err := sb3.RunCommand(ctx, koda.CommandRequest{Command: "echo v3 > src/app.js && cat src/app.js"})
	if err != nil || res.Stdout != "v3\n" {
		t.Fatalf("command on restored files: %+v %v", res, err)
	}
	if _, err := st.Open(ctx, koda.CheckpointKey(koda.ProjectFolder("prj_ck"))); err != nil {
		t.Fatal(err)
	}
}

func TestCheckpointerDebounceAndTodos(t *testing.T) {
	ctx := context.Background()
	p, _, st := newPool(t, sandbox.PoolConfig{})
	sb, _, err := p.GetOrCreate(ctx, koda.SandboxSpec{ProjectID: "prj_state"})
	if err != nil {
		t.Fatal(err)
	}
	var saves atomic.Int32
	var last sandbox.State
	var mu sync.Mutex
	ck := &sandbox.Checkpointer{Storage: st, Sandbox: sb, Prefix: koda.ProjectFolder("prj_state"),
		Debounce: 150 * time.Millisecond, OnSave: func(s sandbox.State) {
			saves.Add(1)
			mu.Lock()
			last = s
			mu.Unlock()
		}}
	defer ck.Close()
	ck.SetState(sandbox.State{Phase: koda.PhaseExecuting, Todos: []koda.Todo{
		{ID: "setup", Status: koda.TodoPending}, {ID: "scene-1", Status: koda.TodoPending}}})
	tsb := sandbox.Tracked(sb, ck)
	for i := range 5 {
		if _, err := tsb.WriteFile(ctx, "a.txt", []byte(strings.Repeat("x", i+1)), false); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond)
	}
	if saves.Load() != 0 {
		t.Fatal("saved while writes were still coming")
	}
	time.Sleep(300 * time.Millisecond)
	if saves.Load() != 1 {
		t.Fatalf("%d saves after a burst of writes, want 1", saves.Load())
	}
	r := sandbox.CheckpointingReporter(nopReporter{}, ck)
	r.TodoUpdate(ctx, "setup", koda.TodoDone)
	r.Message(ctx, "assistant", "set up")
	if saves.Load() != 2 {
		t.Fatalf("no checkpoint right after a todo was done (%d saves)", saves.Load())
	}
	stored, err := sandbox.LoadState(ctx, st, koda.ProjectFolder("prj_state"))
	if err != nil || stored == nil {
		t.Fatalf("state.json: %v", err)
	}
	if stored.Phase != koda.PhaseExecuting || stored.LastCheckpoint.TodoIndex != 1 || stored.LastCheckpoint.SandboxID != sb.ID() ||
		stored.Todos[0].Status != koda.TodoDone || !strings.HasPrefix(stored.LastCheckpoint.Reason, "todo setup") {
		t.Fatalf("state.json %+v", stored)
	}
	mu.Lock()
	defer mu.Unlock()
	if last.LastCheckpoint.Seq != 2 {
		t.Fatalf("seq %d", last.LastCheckpoint.Seq)
	}
}

type nopReporter struct{}

func (nopReporter) TodoUpdate(context.Context, string, koda.TodoStatus) {}
func (nopReporter) Thinking(context.Context, string)                    {}
func (nopReporter) Message(context.Context, string, string)             {}
func (nopReporter) FileWritten(context.Context, string, int64)          {}

func call(t *testing.T, p *sandbox.Pool, id, tool string, in any) (map[string]any, error) {
	t.Helper()
	raw, _ := json.Marshal(in)
	v, err := p.Call(context.Background(), "t1", id, tool, raw, nil)
	if err != nil {
		return nil, err
	}
	b, _ := json.Marshal(v)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out, nil
}

func TestToolsOverJSON(t *testing.T) {
	p, _, _ := newPool(t, sandbox.PoolConfig{})
	info, err := p.CreateFor(context.Background(), "t1", "agent-session-1", "")
	if err != nil {
		t.Fatal(err)
	}
	id := info.ID
	must := func(out map[string]any, err error) map[string]any {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	out := must(call(t, p, id, "write_file", map[string]any{"path": "src/a.js", "content": "const a = 1;\n"}))
	if out["size_bytes"].(float64) != 13 {
		t.Fatalf("write_file %v", out)
	}
	must(call(t, p, id, "write_file", map[string]any{"path": "src/a.js", "content": "const b = 2;\n", "append": true}))
	out = must(call(t, p, id, "read_file", map[string]any{"path": "src/a.js", "offset": 13, "limit": 5}))
	if out["content"] != "const" || out["encoding"] != "utf8" {
		t.Fatalf("read_file %v", out)
	}
	must(call(t, p, id, "write_file", map[string]any{"path": "bin.dat", "content": base64.StdEncoding.EncodeToString([]byte{0, 0xff, 1}), "encoding": "base64"}))
	out = must(call(t, p, id, "read_file", map[string]any{"path": "bin.dat"}))
	if out["encoding"] != "base64" || out["content"] != "AP8B" {
		t.Fatalf("binary read_file %v", out)
	}
	out = must(call(t, p, id, "replace", map[string]any{"path": "src/a.js", "old_string": "const", "new_string": "let", "expected_replacements": 2}))
	if out["replacements"].(float64) != 2 {
		t.Fatalf("replace %v", out)
	}
	out = must(call(t, p, id, "search_file_content", map[string]any{"pattern": "let [ab]", "include": "*.js"}))
	if len(out["matches"].([]any)) != 2 {
		t.Fatalf("search %v", out)
	}
	out = must(call(t, p, id, "glob", map[string]any{"pattern": "**/*.js"}))
	if len(out["files"].([]any)) != 1 {
		t.Fatalf("glob %v", out)
	}
	out = must(call(t, p, id, "list_files", map[string]any{"path": ".", "recursive": true}))
	if len(out["files"].([]any)) != 3 {
		t.Fatalf("list_files %v", out)
	}
	// File bindings: inputs written before, outputs read after.
	out = must(call(t, p, id, "run_command", map[string]any{
		"command": "cat in.txt > out.txt; echo '{\"n\": 3}' > out.json; wc -c < cfg.json",
		"files":   map[string]any{"in.txt": "hello", "cfg.json": map[string]any{"k": 1}, "out.txt": "text", "out.json": "json", "never.txt": "text"},
	}))
	files := out["files"].(map[string]any)
	if out["exit_code"].(float64) != 0 || files["out.txt"] != "hello" || files["out.json"].(map[string]any)["n"].(float64) != 3 ||
		files["never.txt"] != nil || strings.TrimSpace(out["stdout"].(string)) != "7" {
		t.Fatalf("run_command with bindings %v", out)
	}
	// A background command tracked by pid, stopped by pid.
	out = must(call(t, p, id, "run_command", map[string]any{"command": "sleep 100", "background": true}))
	pid := out["pid"].(float64)
	must(call(t, p, id, "stop_command", map[string]any{"pid": pid}))
	if _, err := call(t, p, id, "stop_command", map[string]any{"pid": pid}); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Fatalf("stopping a stopped command: %v", err)
	}
	// Transfer: a folder out as tar.gz, back in elsewhere; a single file in and out.
	out = must(call(t, p, id, "transfer", map[string]any{"direction": "out", "path": "src", "recursive": true}))
	tgz, _ := base64.StdEncoding.DecodeString(out["content"].(string))
	if names := tarNames(t, tgz); strings.Join(names, ",") != "a.js" {
		t.Fatalf("exported %v", names)
	}
	must(call(t, p, id, "transfer", map[string]any{"direction": "in", "path": "copy", "recursive": true, "content": out["content"]}))
	out = must(call(t, p, id, "read_file", map[string]any{"path": "copy/a.js"}))
	if out["content"] != "let a = 1;\nlet b = 2;\n" {
		t.Fatalf("transferred folder: %v", out)
	}
	must(call(t, p, id, "transfer", map[string]any{"direction": "in", "path": "img.png", "content": "iVBORw=="}))
	out = must(call(t, p, id, "transfer", map[string]any{"direction": "out", "path": "img.png"}))
	if out["content"] != "iVBORw==" {
		t.Fatalf("single file transfer %v", out)
	}

	// Errors carry the §3.7 codes.
	for _, c := range []struct {
		tool string
		in   any
		code string
	}{
		{"read_file", map[string]any{"path": "../etc/passwd"}, koda.CodeInvalidPath},
		{"read_file", map[string]any{"path": "/etc/passwd"}, koda.CodeInvalidPath},
		{"read_file", map[string]any{"path": "nope.txt"}, koda.CodeFileNotFound},
		{"write_file", map[string]any{"path": "big.bin", "content": strings.Repeat("x", 17<<20)}, koda.CodeQuotaExceeded},
		{"run_command", map[string]any{"command": "sleep 5", "timeout_ms": 200}, koda.CodeTimeout},
		{"transfer", map[string]any{"direction": "in", "path": "x", "recursive": true, "content": "bm90IGEgdGFy"}, koda.CodeInvalidRequest},
		{"write_file", map[string]any{"path": "a", "content": "x", "bogus": 1}, koda.CodeInvalidRequest},
		{"format_disk", map[string]any{}, sandbox.CodeUnknownTool},
	} {
		_, err := call(t, p, id, c.tool, c.in)
		if koda.ErrorCode(err) != c.code {
			t.Errorf("%s %v: got %v, want %s", c.tool, c.in, err, c.code)
		}
	}
	if _, err := p.Call(context.Background(), "t2", id, "read_file", []byte(`{"path":"src/a.js"}`), nil); koda.ErrorCode(err) != koda.CodeSandboxNotFound {
		t.Fatalf("another tenant's call: %v", err)
	}
	if _, err := p.CreateFor(context.Background(), "t1", "../../projects/x", ""); koda.ErrorCode(err) != koda.CodeInvalidRequest {
		t.Fatalf("project id with a path: %v", err)
	}
}

func TestRunCommandStreamsOutput(t *testing.T) {
	p, _, _ := newPool(t, sandbox.PoolConfig{})
	info, err := p.CreateFor(context.Background(), "t1", "", "")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var chunks []string
	var firstAt time.Time
	began := time.Now()
	_, err = p.Call(context.Background(), "t1", info.ID, "run_command",
		[]byte(`{"command":"echo one; sleep 0.5; echo two >&2; echo three"}`), func(stream string, b []byte) {
			mu.Lock()
			defer mu.Unlock()
			if firstAt.IsZero() {
				firstAt = time.Now()
			}
			chunks = append(chunks, stream+":"+string(b))
		})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	joined := strings.Join(chunks, "")
	if !strings.Contains(joined, "stdout:one\n") || !strings.Contains(joined, "stderr:two\n") || !strings.Contains(joined, "stdout:three\n") {
		t.Fatalf("chunks %q", chunks)
	}
	if d := firstAt.Sub(began); d > 400*time.Millisecond {
		t.Fatalf("first output arrived after %s, not while the command ran", d)
	}
}

func tarNames(t *testing.T, tgz []byte) []string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
}

// TestPoolAdmitGuardsEveryCreation: the admission check (the tenant's live-sandbox
// limit in production) is asked before the API's and Koda's own creations, with the
// tenant's live count, and its refusal is returned unchanged.
func TestPoolAdmitGuardsEveryCreation(t *testing.T) {
	ctx := context.Background()
	var asked []int
	var released atomic.Int32
	p, _, _ := newPool(t, sandbox.PoolConfig{Admit: func(_ context.Context, tenant string, live int) (func(), error) {
		if tenant == "t1" {
			asked = append(asked, live)
			if live >= 2 {
				return nil, koda.Errorf(koda.ELIMIT, koda.CodeLimitSandboxes, "limit")
			}
		}
		return func() { released.Add(1) }, nil
	}})
	if _, err := p.CreateFor(ctx, "t1", "session", "main"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.CreateFor(ctx, "t1", "session", "main"); err != nil {
		t.Fatal("the live sandbox of the same key was refused:", err)
	}
	if _, _, err := p.CreateRestored(ctx, koda.SandboxSpec{TenantID: "t1", ProjectID: "prj_a", Name: "codegen"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.CreateRestored(ctx, koda.SandboxSpec{TenantID: "t1", ProjectID: "prj_b", Name: "codegen"}); koda.ErrorCode(err) != koda.CodeLimitSandboxes {
		t.Fatalf("agent's sandbox over the limit: %v", err)
	}
	if _, err := p.CreateFor(ctx, "t1", "other", "main"); koda.ErrorCode(err) != koda.CodeLimitSandboxes {
		t.Fatalf("API sandbox over the limit: %v", err)
	}
	if _, err := p.CreateFor(ctx, "t2", "other", "main"); err != nil {
		t.Fatal("another tenant was refused:", err)
	}
	if want := []int{0, 1, 2, 2}; !slices.Equal(asked, want) {
		t.Fatalf("admission asked with live counts %v, want %v", asked, want)
	}
	// Each admission is given back, once, when its sandbox is destroyed.
	if n := released.Load(); n != 0 {
		t.Fatalf("%d admissions released while their sandboxes live", n)
	}
	if err := p.DestroyAll(ctx, "t1", ""); err != nil {
		t.Fatal(err)
	}
	if n := released.Load(); n != 2 {
		t.Fatalf("%d admissions released after destroying t1's two sandboxes, want 2", n)
	}
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if n := released.Load(); n != 3 {
		t.Fatalf("%d admissions released after closing the pool, want 3 (t2's too)", n)
	}
}

// TestPoolTenantShareLeavesKodaItsOwn: tenants' API sandboxes together stop at the
// tenants' share of the node, and Koda's own (codegen) still get the rest.
func TestPoolTenantShareLeavesKodaItsOwn(t *testing.T) {
	ctx := context.Background()
	p, _, _ := newPool(t, sandbox.PoolConfig{MaxPerTenant: 2, MaxPerNode: 4, TenantShare: 2})
	for _, tenant := range []string{"t1", "t2"} {
		info, err := p.CreateFor(ctx, tenant, "s", "main")
		if err != nil {
			t.Fatal(err)
		}
		// The provider is told it is a tenant's (the local one holds it under the
		// tenants' ceiling).
		if sb, err := p.Get(ctx, info.ID); err != nil || sb.(*local.Sandbox).Spec().Internal {
			t.Fatalf("%s's API sandbox made as Koda's own: %v", tenant, err)
		}
	}
	for _, tenant := range []string{"t1", "t3"} {
		if _, err := p.CreateFor(ctx, tenant, "s2", "main"); koda.ErrorCode(err) != koda.CodeQuotaExceeded || koda.ErrorKind(err) != koda.ELIMIT {
			t.Fatalf("%s's API sandbox past the tenants' share: %v", tenant, err)
		}
	}
	for _, project := range []string{"prj_a", "prj_b"} {
		sb, _, err := p.CreateRestored(ctx, koda.SandboxSpec{TenantID: "t3", ProjectID: project, Name: "codegen"})
		if err != nil {
			t.Fatalf("Koda's codegen sandbox with the tenants' share full: %v", err)
		}
		if !sb.(*local.Sandbox).Spec().Internal {
			t.Fatalf("Koda's codegen sandbox made as a tenant's")
		}
	}
	// The node cap still holds for everything.
	if _, _, err := p.CreateRestored(ctx, koda.SandboxSpec{TenantID: "t4", ProjectID: "prj_c", Name: "codegen"}); koda.ErrorCode(err) != koda.CodeQuotaExceeded {
		t.Fatalf("a fifth sandbox on a node of four: %v", err)
	}
	// A destroyed API sandbox gives its place back.
	if err := p.DestroyAll(ctx, "t1", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := p.CreateFor(ctx, "t5", "s", "main"); err != nil {
		t.Fatalf("after t1 left: %v", err)
	}
}

// TestPoolMaxLifetime: a tenant's API sandbox is checkpointed and destroyed at its
// lifetime however active it keeps itself; Koda's own are not.
func TestPoolMaxLifetime(t *testing.T) {
	ctx := context.Background()
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	p, _, _ := newPool(t, sandbox.PoolConfig{IdleTimeout: 5 * time.Minute, MaxLifetime: time.Hour, Now: clk.Now})
	info, err := p.CreateFor(ctx, "t1", "s", "main")
	if err != nil {
		t.Fatal(err)
	}
	own, _, err := p.CreateRestored(ctx, koda.SandboxSpec{TenantID: "t1", ProjectID: "prj_a", Name: "codegen"})
	if err != nil {
		t.Fatal(err)
	}
	// Busy every four minutes: never idle.
	for range 14 {
		clk.Add(4 * time.Minute)
		if _, err := p.Call(ctx, "t1", info.ID, sandbox.ToolWriteFile, []byte(`{"path":"a.txt","content":"x"}`), nil); err != nil {
			t.Fatal(err)
		}
		if _, err := own.WriteFile(ctx, "a.txt", []byte("x"), false); err != nil {
			t.Fatal(err)
		}
		p.Touch(own.ID())
		if n, err := p.ReapIdle(ctx, 0); err != nil || n != 0 {
			t.Fatalf("reaped %d at %s: %v", n, clk.Now().Format("15:04"), err)
		}
	}
	clk.Add(4 * time.Minute) // 60 minutes
	if n, err := p.ReapIdle(ctx, 0); err != nil || n != 1 {
		t.Fatalf("at its lifetime: reaped %d, %v; want the tenant's sandbox", n, err)
	}
	if _, err := p.Info(ctx, "t1", info.ID); koda.ErrorCode(err) != koda.CodeSandboxNotFound {
		t.Errorf("the tenant's sandbox outlived its lifetime: %v", err)
	}
	if own.State() == koda.SandboxStopped {
		t.Error("Koda's own sandbox was ended by the tenants' lifetime")
	}
}

// TestPoolDiscardTenant (issue 26): a deleted tenant's sandboxes, Koda's own for its
// projects included, are destroyed without a checkpoint; another tenant's stay.
func TestPoolDiscardTenant(t *testing.T) {
	ctx := context.Background()
	p, _, st := newPool(t, sandbox.PoolConfig{})
	own, err := p.Create(ctx, koda.SandboxSpec{TenantID: "t_gone", ProjectID: "prj_gone", Name: "codegen"})
	if err != nil {
		t.Fatal(err)
	}
	api, err := p.CreateFor(ctx, "t_gone", "mine", "idle")
	if err != nil {
		t.Fatal(err)
	}
	other, err := p.CreateFor(ctx, "t_kept", "mine", "idle")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := own.WriteFile(ctx, "index.html", []byte("x"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := p.DiscardTenant(ctx, ""); err == nil {
		t.Fatal("discarding the sandboxes of no tenant")
	}
	n, err := p.DiscardTenant(ctx, "t_gone")
	if err != nil || n != 2 {
		t.Fatalf("discard: %d %v, want 2", n, err)
	}
	if own.State() != koda.SandboxStopped {
		t.Errorf("Koda's own sandbox of the tenant: %s", own.State())
	}
	if _, err := p.Lookup(ctx, "t_gone", api.ID); koda.ErrorCode(err) != koda.CodeSandboxNotFound {
		t.Errorf("the tenant's API sandbox: %v", err)
	}
	if _, err := p.Lookup(ctx, "t_kept", other.ID); err != nil {
		t.Errorf("another tenant's sandbox: %v", err)
	}
	for _, folder := range []string{koda.ProjectFolder("prj_gone"), koda.TenantSandboxFolder("t_gone", "mine")} {
		if _, err := st.Open(ctx, koda.CheckpointKey(folder)); koda.ErrorKind(err) != koda.ENOTFOUND {
			t.Errorf("checkpoint %s: %v, want none", folder, err)
		}
	}
}
