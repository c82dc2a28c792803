package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/sandbox"
)

// startKodaWith is startKoda with a hook to adjust Main before it opens.
func startKodaWith(t *testing.T, adjust func(m *Main)) *Main {
	t.Helper()
	return startTuned(t, "", adjust)
}

// killingAgent is the builtin agent whose first Generate has its sandbox killed (no
// checkpoint, as a crash would) right after the second todo is done.
type killingAgent struct {
	koda.Agent
	kill func(id string)

	mu        sync.Mutex
	calls     int
	sandboxes []string
	startWith [][]string // files present when each Generate began
}

func (a *killingAgent) Generate(ctx context.Context, p *koda.Project, sb koda.Sandbox, r koda.Reporter) error {
	files, _ := sb.ListFiles(ctx, ".", true)
	var names []string
	for _, f := range files {
		names = append(names, f.Path)
	}
	a.mu.Lock()
	a.calls++
	first := a.calls == 1
	a.sandboxes = append(a.sandboxes, sb.ID())
	a.startWith = append(a.startWith, names)
	a.mu.Unlock()
	if first {
		r = &killAfter{Reporter: r, n: 2, kill: func() { a.kill(sb.ID()) }}
	}
	return a.Agent.Generate(ctx, p, sb, r)
}

type killAfter struct {
	koda.Reporter
	n    int
	done int
	kill func()
}

func (k *killAfter) TodoUpdate(ctx context.Context, id string, s koda.TodoStatus) {
	k.Reporter.TodoUpdate(ctx, id, s) // checkpoints first: a todo done is a resume point
	if s == koda.TodoDone {
		k.done++
		if k.done == k.n {
			k.kill()
		}
	}
}

// TestCodegenResumesAfterSandboxKilled kills the codegen sandbox mid-job: the task is
// retried in a new sandbox restored from the last checkpoint, and the project reaches
// its preview.
func TestCodegenResumesAfterSandboxKilled(t *testing.T) {
	agent := &killingAgent{}
	m := startKodaWith(t, func(m *Main) {
		agent.Agent = builtin.New(m.Logger)
		m.Agent = agent
	})
	agent.kill = func(id string) {
		// Straight at the provider, bypassing the pool: no checkpoint before death.
		if err := m.sandboxes.Destroy(context.Background(), id); err != nil {
			t.Errorf("kill sandbox: %v", err)
		}
	}
	c := client{t: t, base: m.PublicURL}
	var p project
	if code, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "A playful red ball bounces across the screen", "style": "playful", "duration_s": 2,
	}, &p); code != http.StatusCreated && code != http.StatusAccepted {
		t.Fatalf("create project: %d", code)
	}
	c.waitProject(p.ID, time.Minute, "a plan", func(p project) bool { return p.Phase == "plan" && p.Plan != nil })
	if code, _ := c.do(http.MethodPost, "/v1/projects/"+p.ID+"/plan/approve", nil, nil); code >= 300 {
		t.Fatalf("approve plan: %d", code)
	}
	done := c.waitProject(p.ID, 2*time.Minute, "the preview", func(p project) bool { return p.Phase == "preview" && p.Preview != nil })

	agent.mu.Lock()
	defer agent.mu.Unlock()
	t.Logf("generate calls %d in sandboxes %v; files at start %v", agent.calls, agent.sandboxes, agent.startWith)
	if agent.calls != 2 || agent.sandboxes[0] == agent.sandboxes[1] {
		t.Fatalf("want one retry in a new sandbox, got %d calls in %v", agent.calls, agent.sandboxes)
	}
	if len(agent.startWith[0]) != 0 {
		t.Fatalf("first sandbox was not empty: %v", agent.startWith[0])
	}
	if !slices.Contains(agent.startWith[1], "index.html") {
		t.Fatalf("the new sandbox did not start from the checkpoint: %v", agent.startWith[1])
	}
	st, err := sandbox.LoadState(context.Background(), m.storage, koda.ProjectFolder(p.ID))
	if err != nil || st == nil {
		t.Fatalf("state.json: %v", err)
	}
	if st.LastCheckpoint.SandboxID != agent.sandboxes[1] || st.LastCheckpoint.Reason != "before preview" || st.Plan == nil {
		t.Fatalf("state.json last checkpoint %+v", st.LastCheckpoint)
	}
	if len(done.Execution.Files) == 0 {
		t.Fatal("no files recorded for the preview")
	}
	// The codegen sandboxes are gone.
	if list, _ := m.pool.ListFor(context.Background(), ""); len(list) != 0 {
		t.Fatalf("sandboxes left: %+v", list)
	}
}

// TestSandboxHTTPAPI drives the sandbox tool API over HTTP.
func TestSandboxHTTPAPI(t *testing.T) {
	m := startKodaWith(t, func(*Main) {})
	c := client{t: t, base: m.PublicURL}
	var info struct {
		ID        string `json:"id"`
		State     string `json:"state"`
		ProjectID string `json:"project_id"`
	}
	code, hdr := c.do(http.MethodPost, "/v1/sandboxes", map[string]any{"project_id": "session-1", "name": "main"}, &info)
	if code != http.StatusCreated || info.State != "ready" || hdr.Get("Location") != "/v1/sandboxes/"+info.ID {
		t.Fatalf("create: %d %+v", code, info)
	}
	var again struct{ ID string }
	c.do(http.MethodPost, "/v1/sandboxes", map[string]any{"project_id": "session-1", "name": "main"}, &again)
	if again.ID != info.ID {
		t.Fatal("the same project and name gave another sandbox")
	}
	tool := func(name string, in any, out any) int {
		code, _ := c.do(http.MethodPost, "/v1/sandboxes/"+info.ID+"/tools/"+name, in, out)
		return code
	}
	var w struct {
		SizeBytes int64 `json:"size_bytes"`
	}
	if code := tool("write_file", map[string]any{"path": "hello.sh", "content": "echo hello from $(pwd)"}, &w); code != 200 || w.SizeBytes != 22 {
		t.Fatalf("write_file %d %+v", code, w)
	}
	var run struct {
		Stdout   string `json:"stdout"`
		ExitCode int    `json:"exit_code"`
	}
	if code := tool("run_command", map[string]any{"command": "sh hello.sh"}, &run); code != 200 || run.Stdout != "hello from /work\n" {
		t.Fatalf("run_command %d %+v", code, run)
	}
	var e apiError
	if code := tool("read_file", map[string]any{"path": "../../etc/passwd"}, &e); code != 400 || e.Error.Code != koda.CodeInvalidPath {
		t.Fatalf("escape: %d %+v", code, e)
	}
	if code := tool("run_command", map[string]any{"command": "sleep 3", "timeout_ms": 100}, &e); code != http.StatusGatewayTimeout || e.Error.Code != koda.CodeTimeout {
		t.Fatalf("timeout: %d %+v", code, e)
	}

	// Streaming: output events while it runs, then the result.
	req, _ := http.NewRequest(http.MethodPost, m.PublicURL+"/v1/sandboxes/"+info.ID+"/tools/run_command",
		strings.NewReader(`{"command":"echo one; sleep 0.3; echo two"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	c.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if ev, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			events = append(events, ev)
		}
	}
	resp.Body.Close()
	if len(events) < 3 || events[0] != "output" || events[len(events)-1] != "result" {
		t.Fatalf("stream events %v", events)
	}

	var list struct {
		Sandboxes []json.RawMessage `json:"sandboxes"`
	}
	if c.do(http.MethodGet, "/v1/sandboxes", nil, &list); len(list.Sandboxes) != 1 {
		t.Fatalf("list %s", list.Sandboxes)
	}
	if code, _ := c.do(http.MethodDelete, "/v1/sandboxes/"+info.ID, nil, nil); code != http.StatusNoContent {
		t.Fatalf("delete %d", code)
	}
	if code, _ := c.do(http.MethodGet, "/v1/sandboxes/"+info.ID, nil, &e); code != 404 || e.Error.Code != koda.CodeSandboxNotFound {
		t.Fatalf("after delete: %d %+v", code, e)
	}
	// Deleting checkpointed it: a new sandbox for the same session starts with its files.
	c.do(http.MethodPost, "/v1/sandboxes", map[string]any{"project_id": "session-1", "name": "main"}, &info)
	var rf struct {
		Content string `json:"content"`
	}
	if code := tool("read_file", map[string]any{"path": "hello.sh"}, &rf); code != 200 || !strings.HasPrefix(rf.Content, "echo hello") {
		t.Fatalf("restored session: %d %+v", code, rf)
	}
	// Without a key there is no tenant and no sandbox.
	anon := client{t: t, base: m.PublicURL, key: "-"}
	if code, _ := anon.do(http.MethodGet, "/v1/sandboxes", nil, nil); code != http.StatusUnauthorized {
		t.Fatalf("anonymous list: %d", code)
	}
}

// TestSandboxLiveLimit429: a tenant whose limits allow one live sandbox gets 429
// LIMIT_LIVE_SANDBOXES with a Retry-After for a second one, and may create one again
// once the first is destroyed.
func TestSandboxLiveLimit429(t *testing.T) {
	m := startKodaWith(t, func(*Main) {})
	admin := client{t: t, base: m.PublicURL, key: testAdminKey}
	if code, _ := admin.do(http.MethodPost, "/admin/tenants", map[string]any{"id": "t_one", "name": "one",
		"limits": map[string]int{"live_sandboxes": 1}}, nil); code != http.StatusCreated {
		t.Fatalf("create tenant: %d", code)
	}
	var key struct {
		Key string `json:"key"`
	}
	if code, _ := admin.do(http.MethodPost, "/admin/tenants/t_one/keys", map[string]string{"name": "ci"}, &key); code != http.StatusCreated {
		t.Fatalf("create key: %d", code)
	}
	c := client{t: t, base: m.PublicURL, key: key.Key}
	var first struct {
		ID string `json:"id"`
	}
	if code, _ := c.do(http.MethodPost, "/v1/sandboxes", map[string]any{"project_id": "a"}, &first); code != http.StatusCreated {
		t.Fatalf("first sandbox: %d", code)
	}
	var e apiError
	code, hdr := c.do(http.MethodPost, "/v1/sandboxes", map[string]any{"project_id": "b"}, &e)
	if code != http.StatusTooManyRequests || e.Error.Code != koda.CodeLimitSandboxes || e.Error.Message == "" || hdr.Get("Retry-After") == "" {
		t.Fatalf("second sandbox: %d %+v %v", code, e, hdr)
	}
	if code, _ := c.do(http.MethodDelete, "/v1/sandboxes/"+first.ID, nil, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	if code, _ := c.do(http.MethodPost, "/v1/sandboxes", map[string]any{"project_id": "b"}, nil); code != http.StatusCreated {
		t.Fatalf("after destroying the first: %d", code)
	}
}

// TestIdleSandboxesReapedOnEveryNode: two processes sharing Redis — one running every
// pool (and so the elected scheduler), one serving only the API — each hold a sandbox;
// both are checkpointed and destroyed once idle past KODA_SANDBOX_IDLE, each by its
// own node, and the checkpoint brings the files back.
func TestIdleSandboxesReapedOnEveryNode(t *testing.T) {
	idle := func(m *Main) { m.Config.Sandbox.Idle = time.Second }
	leader := startTuned(t, "", idle)
	apiOnly := startTuned(t, leader.embedded.URL(), func(m *Main) { idle(m); m.Pools = nil })
	type held struct {
		c  client
		id string
	}
	var sbs []held
	for _, m := range []*Main{leader, apiOnly} {
		c := client{t: t, base: m.PublicURL}
		var info struct {
			ID string `json:"id"`
		}
		if code, _ := c.do(http.MethodPost, "/v1/sandboxes", map[string]any{"project_id": "s1"}, &info); code != http.StatusCreated {
			t.Fatalf("create on %s: %d", m.PublicURL, code)
		}
		if code, _ := c.do(http.MethodPost, "/v1/sandboxes/"+info.ID+"/tools/write_file",
			map[string]any{"path": "kept.txt", "content": "kept"}, nil); code != 200 {
			t.Fatalf("write: %d", code)
		}
		sbs = append(sbs, held{c, info.ID})
	}
	for _, s := range sbs {
		deadline := time.Now().Add(30 * time.Second)
		for {
			code, _ := s.c.do(http.MethodGet, "/v1/sandboxes/"+s.id, nil, nil)
			if code == http.StatusNotFound {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("sandbox %s on %s still live (%d) long after its idle time", s.id, s.c.base, code)
			}
			time.Sleep(200 * time.Millisecond)
		}
		var info struct {
			ID string `json:"id"`
		}
		s.c.do(http.MethodPost, "/v1/sandboxes", map[string]any{"project_id": "s1"}, &info)
		var rf struct {
			Content string `json:"content"`
		}
		if code, _ := s.c.do(http.MethodPost, "/v1/sandboxes/"+info.ID+"/tools/read_file", map[string]any{"path": "kept.txt"}, &rf); code != 200 || rf.Content != "kept" {
			t.Fatalf("reaped sandbox on %s was not checkpointed: %d %+v", s.c.base, code, rf)
		}
	}
}
