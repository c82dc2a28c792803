package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/embedredis"
	"github.com/kodahq/koda/internal/kodatest"
)

// tinyPresets are final presets small enough to render in a second or two.
var tinyPresets = []any{
	map[string]any{"width": 160, "height": 90, "fps": 10},
	map[string]any{"width": 192, "height": 108, "fps": 10},
	map[string]any{"width": 224, "height": 126, "fps": 10},
	map[string]any{"width": 256, "height": 144, "fps": 10},
}

// Redis is wiped (FLUSHDB: the test's own database, as a restart without persistence
// would) while a batch renders. The database is the source of truth: every render
// still completes, and each announces render.completed exactly once.
func TestRedisWipedMidBatch(t *testing.T) {
	redisURL := ""
	if kodatest.RedisKind() == "real" {
		redisURL = kodatest.MustRedis(t, kodatest.DBKodaOps)
	}
	m := startKoda(t, redisURL)
	hooks := newWebhookReceiver(t)
	c := client{t: t, base: m.PublicURL}
	var created project
	if status, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "a playful blue square spins", "duration_s": 1, "auto_approve": true,
		"presets": tinyPresets[:1], "callback_url": hooks.srv.URL + "/hooks",
	}, &created); status != http.StatusAccepted {
		t.Fatalf("create: %d", status)
	}
	c.waitProject(created.ID, 3*time.Minute, "complete", func(p project) bool { return p.Phase == "complete" && finalsDone(p, 1) })
	var batch struct {
		ID      string   `json:"id"`
		Renders []render `json:"renders"`
	}
	if status, _ := c.do(http.MethodPost, "/v1/projects/"+created.ID+"/renders", map[string]any{"presets": tinyPresets}, &batch); status != http.StatusAccepted {
		t.Fatalf("batch: %d", status)
	}
	// Wipe Redis while the batch is under way.
	c.waitProject(created.ID, time.Minute, "a running batch render", func(p project) bool {
		for _, r := range p.Renders {
			if r.BatchID == batch.ID && r.Status == "running" {
				return true
			}
		}
		return false
	})
	if err := m.rdb.FlushDB(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	p := c.waitProject(created.ID, 3*time.Minute, "every batch render done", func(p project) bool { return finalsDone(p, 1+len(tinyPresets)) })
	for _, r := range p.Renders {
		if r.Status != "succeeded" {
			t.Errorf("render %s is %s: %+v", r.ID, r.Status, r.Error)
		}
	}
	// Each render.completed is one webhook-id (receivers dedupe by it); there must be
	// exactly one per render, and batch.completed once.
	deadline := time.Now().Add(90 * time.Second)
	for {
		perRender := map[string]int{}
		for _, body := range hooks.payloads("render.completed") {
			var ev struct {
				Data koda.RenderView `json:"data"`
			}
			if err := json.Unmarshal(body, &ev); err != nil {
				t.Fatal(err)
			}
			perRender[ev.Data.ID]++
		}
		done := hooks.delivered()
		if len(perRender) == len(p.Renders)-1 && done["render.completed"] == len(perRender) && done["batch.completed"] >= 2 {
			for id, n := range perRender {
				if n != 1 {
					t.Errorf("render %s announced %d times", id, n)
				}
			}
			if done["batch.completed"] != 2 {
				t.Errorf("batch.completed delivered %d times", done["batch.completed"])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("webhooks after the wipe: %v, render.completed per render %v, renders %d", done, perRender, len(p.Renders))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// While Redis is down the API answers from the database and stores new work; when
// Redis returns, the reconciler enqueues that work and it completes.
func TestAPIAnswersWhileRedisIsDown(t *testing.T) {
	rs, err := embedredis.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := rs.Addr()
	m := startKoda(t, rs.URL())
	c := client{t: t, base: m.PublicURL}
	var before project
	if status, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{"prompt": "a calm green dot", "duration_s": 1}, &before); status != http.StatusAccepted {
		t.Fatalf("create: %d", status)
	}
	rs.Close()

	start := time.Now()
	var got project
	if status, _ := c.do(http.MethodGet, "/v1/projects/"+before.ID, nil, &got); status != 200 || got.ID != before.ID {
		t.Fatalf("read while Redis is down: %d %+v", status, got)
	}
	var created project
	status, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "a playful orange triangle", "duration_s": 1, "auto_approve": true, "presets": tinyPresets[:1],
	}, &created)
	if status != http.StatusAccepted || created.ID == "" {
		t.Fatalf("create while Redis is down: %d %+v", status, created)
	}
	took := time.Since(start)
	var ready struct {
		Ready bool `json:"ready"`
	}
	if status, _ := c.do(http.MethodGet, "/readyz", nil, &ready); status == 200 || ready.Ready {
		t.Errorf("/readyz while Redis is down: %d %+v", status, ready)
	}
	t.Logf("read and write while Redis was down took %s", took)

	// Redis comes back empty, on the same address.
	back, err := embedredis.Start(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(back.Close)
	c.waitProject(created.ID, 3*time.Minute, "complete after Redis returned", func(p project) bool {
		return p.Phase == "complete" && finalsDone(p, 1)
	})
}

// /metrics serves Prometheus text with the queue gauges and task counters, and
// Asynqmon refuses requests without the admin key.
func TestMetricsAndMonitoringAuth(t *testing.T) {
	m := startKoda(t, "")
	c := client{t: t, base: m.PublicURL}
	c.do(http.MethodPost, "/v1/projects", map[string]any{"prompt": "a smooth, minimal line draws itself"}, nil)
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(m.PublicURL + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		text := string(body)
		if resp.StatusCode == 200 && strings.Contains(text, `koda_queue_tasks{queue="plan"`) &&
			strings.Contains(text, `koda_tasks_total{outcome="success",type="plan"}`) &&
			strings.Contains(text, "koda_queue_latency_seconds") && strings.Contains(text, "koda_scheduler_leader 1") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/metrics: %d\n%.3000s", resp.StatusCode, text)
		}
		time.Sleep(300 * time.Millisecond)
	}
	for _, key := range []string{"-", testAPIKey} {
		if status, _ := (client{t: t, base: m.PublicURL, key: key}).do(http.MethodGet, "/monitoring/api/queues", nil, nil); status != http.StatusUnauthorized {
			t.Errorf("Asynqmon with key %q: %d, want 401", key, status)
		}
	}
	var tasks struct {
		Tasks []struct {
			Payload string `json:"payload"`
		} `json:"tasks"`
	}
	admin := client{t: t, base: m.PublicURL, key: testAdminKey}
	if status, _ := admin.do(http.MethodGet, "/monitoring/api/queues/plan/completed_tasks", nil, &tasks); status != 200 {
		t.Fatalf("Asynqmon with the admin key: %d", status)
	}
	if len(tasks.Tasks) == 0 || !strings.Contains(tasks.Tasks[0].Payload, "project prj_") || !strings.Contains(tasks.Tasks[0].Payload, "phase ") {
		t.Errorf("Asynqmon payloads are not described: %+v", tasks)
	}
}
