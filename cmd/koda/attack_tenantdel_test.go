package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
)

// holdingAgent is the builtin agent whose code generation holds its project in
// executing until its context ends; it says which projects started and stopped.
type holdingAgent struct {
	koda.Agent
	started, stopped chan string // project IDs
}

func (a *holdingAgent) Generate(ctx context.Context, p *koda.Project, sb koda.Sandbox, r koda.Reporter) error {
	a.started <- p.ID
	<-ctx.Done()
	a.stopped <- p.ID
	return ctx.Err()
}

// TestAttackDeletedTenant (issue 26): a tenant with an open event stream, a project in
// code generation and a live API sandbox is deleted with DELETE /admin/tenants/{id}:
// the stream ends within 5 s with an ERROR event UNAUTHORIZED, the key answers 401,
// the sandbox is gone, the codegen is stopped and the project is in error CANCELLED,
// its files are gone; another tenant's project, stream and key carry on.
func TestAttackDeletedTenant(t *testing.T) {
	agent := &holdingAgent{started: make(chan string, 4), stopped: make(chan string, 4)}
	m := startKodaWith(t, func(m *Main) {
		agent.Agent = builtin.New(m.Logger)
		m.Agent = agent
		m.Config.Agent.Timeout = 5 * time.Minute // nothing but the deletion stops it
	})
	admin := client{t: t, base: m.PublicURL, key: testAdminKey}
	tenantClient := func(id string) client {
		t.Helper()
		if code, _ := admin.do(http.MethodPost, "/admin/tenants", map[string]any{"id": id, "name": id, "limits": map[string]any{}}, nil); code != http.StatusCreated {
			t.Fatalf("create tenant %s: %d", id, code)
		}
		var k struct {
			Key string `json:"key"`
		}
		admin.do(http.MethodPost, "/admin/tenants/"+id+"/keys", map[string]string{"name": "k"}, &k)
		return client{t: t, base: m.PublicURL, key: k.Key}
	}
	doomed, kept := tenantClient("t_gone"), tenantClient("t_kept")
	submit := func(c client) project {
		t.Helper()
		var p project
		if code, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
			"prompt": "A red ball bounces", "style": "playful", "duration_s": 1, "auto_approve": true,
		}, &p); code != http.StatusAccepted {
			t.Fatalf("create: %d", code)
		}
		return p
	}
	gone, stays := submit(doomed), submit(kept)
	running := map[string]bool{}
	for len(running) < 2 {
		select {
		case id := <-agent.started:
			running[id] = true
		case <-time.After(time.Minute):
			t.Fatalf("codegen did not start for both projects: %v", running)
		}
	}
	var sb struct {
		ID string `json:"id"`
	}
	if code, _ := doomed.do(http.MethodPost, "/v1/sandboxes", map[string]string{"project_id": "mine", "name": "idle"}, &sb); code != http.StatusCreated {
		t.Fatalf("create sandbox: %d", code)
	}
	if _, err := m.pool.Lookup(context.Background(), "t_gone", sb.ID); err != nil {
		t.Fatalf("the sandbox before the deletion: %v", err)
	}

	type stream struct {
		ended chan time.Time
		tail  atomic.Value
	}
	open := func(c client, projectID string) *stream {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, m.PublicURL+"/v1/projects/"+projectID+"/events", nil)
		req.Header.Set("Authorization", "Bearer "+c.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 {
			t.Fatalf("stream: %d", resp.StatusCode)
		}
		s := &stream{ended: make(chan time.Time, 1)}
		go func() {
			b, _ := io.ReadAll(resp.Body) // until the server ends the stream
			s.tail.Store(string(b))
			s.ended <- time.Now()
		}()
		t.Cleanup(func() { resp.Body.Close() })
		return s
	}
	// Files the tenants keep: a checkpoint each (as codegen would save) and an asset.
	ctx := context.Background()
	for _, k := range []string{koda.CheckpointKey(koda.ProjectFolder(gone.ID)), koda.CheckpointKey(koda.ProjectFolder(stays.ID)),
		koda.AssetKey("t_gone", strings.Repeat("0", 64), "png")} {
		if _, err := m.storage.Put(ctx, k, strings.NewReader("files")); err != nil {
			t.Fatal(err)
		}
	}
	doomedStream, keptStream := open(doomed, gone.ID), open(kept, stays.ID)
	time.Sleep(500 * time.Millisecond)

	deleted := time.Now()
	if code, _ := admin.do(http.MethodDelete, "/admin/tenants/t_gone", nil, nil); code != http.StatusNoContent {
		t.Fatalf("delete tenant: %d", code)
	}
	t.Logf("DELETE answered in %s", time.Since(deleted).Round(time.Millisecond))
	select {
	case at := <-doomedStream.ended:
		t.Logf("the stream ended %s after the deletion", at.Sub(deleted).Round(time.Millisecond))
		if tail, _ := doomedStream.tail.Load().(string); !strings.Contains(tail, "event: ERROR") || !strings.Contains(tail, "UNAUTHORIZED") {
			t.Errorf("the stream ended without saying why: %q", tail)
		}
	case <-time.After(5*time.Second - time.Since(deleted)):
		t.Fatal("the deleted tenant's stream still open 5 s after the deletion")
	}
	if code, _ := doomed.do(http.MethodGet, "/v1/projects/"+gone.ID, nil, nil); code != http.StatusUnauthorized {
		t.Errorf("the deleted tenant's key: %d, want 401", code)
	}
	if _, err := m.pool.Lookup(context.Background(), "t_gone", sb.ID); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Errorf("the deleted tenant's sandbox: %v, want gone", err)
	}
	if infos, _ := m.pool.ListFor(context.Background(), "t_gone"); len(infos) != 0 {
		t.Errorf("the deleted tenant still has sandboxes: %+v", infos)
	}
	select {
	case id := <-agent.stopped:
		if id != gone.ID {
			t.Errorf("codegen of %s stopped, want only the deleted tenant's %s", id, gone.ID)
		}
		t.Logf("the deleted tenant's codegen stopped %s after the deletion", time.Since(deleted).Round(time.Millisecond))
	case <-time.After(10 * time.Second):
		t.Error("the deleted tenant's codegen still runs 10 s after the deletion")
	}
	p, err := m.store.GetProject(context.Background(), gone.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Phase != koda.PhaseError || p.Error == nil || p.Error.Code != koda.CodeCancelled || p.Pending != "" {
		t.Errorf("the deleted tenant's project: %s %+v pending %q, want error CANCELLED", p.Phase, p.Error, p.Pending)
	}
	for _, folder := range []string{koda.ProjectFolder(gone.ID), koda.AssetFolder("t_gone")} {
		if _, err := os.Stat(filepath.Join(m.Config.DataDir, "storage", folder)); !os.IsNotExist(err) {
			t.Errorf("the deleted tenant's folder %s: %v, want gone", folder, err)
		}
	}
	if _, err := os.Stat(filepath.Join(m.Config.DataDir, "storage", koda.CheckpointKey(koda.ProjectFolder(stays.ID)))); err != nil {
		t.Errorf("the other tenant's checkpoint: %v", err)
	}

	// The other tenant carries on: its codegen still runs, its stream and key work.
	time.Sleep(2 * time.Second) // past a stream's key check
	select {
	case id := <-agent.stopped:
		t.Errorf("codegen of %s stopped too", id)
	case <-keptStream.ended:
		t.Error("the other tenant lost its stream")
	default:
	}
	var got project
	if code, _ := kept.do(http.MethodGet, "/v1/projects/"+stays.ID, nil, &got); code != http.StatusOK || got.Phase != "executing" {
		t.Errorf("the other tenant's project: %d %s, want executing", code, got.Phase)
	}
	var view struct {
		Status string `json:"status"`
	}
	if code, _ := admin.do(http.MethodGet, "/admin/tenants/t_gone", nil, &view); code != http.StatusOK || view.Status != "deleted" {
		t.Errorf("GET the deleted tenant: %d %+v", code, view)
	}
}
