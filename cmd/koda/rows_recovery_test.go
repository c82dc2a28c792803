package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
)

// recoveryRows is the size of the batch in TestTemplateBatchSurvivesKilledWorkerAndFlushedRedis:
// issue 24 asks for 300 rows.
const recoveryRows = 300

// rowsBatch is GET /v1/batches/{id} as this test reads it.
type rowsBatch struct {
	ID        string `json:"id"`
	Status    string `json:"status"`
	Total     int    `json:"total"`
	Queued    int    `json:"queued"`
	Running   int    `json:"running"`
	Succeeded int    `json:"succeeded"`
	Failed    int    `json:"failed"`
	Renders   []struct {
		ID        string `json:"id"`
		ProjectID string `json:"project_id"`
		Status    string `json:"status"`
		Attempts  int    `json:"attempts"`
		RenderMS  int64  `json:"render_ms"`
	} `json:"renders"`
	Rows []struct {
		Row       int      `json:"row"`
		ProjectID string   `json:"project_id"`
		Status    string   `json:"status"`
		Renders   []string `json:"render_ids"`
	} `json:"rows"`
}

// A 300-row batch of one template at the preview preset, rendered by a `koda worker`
// process beside a `koda api` process (one data folder, one database, one Redis). In
// the middle of the batch, while it renders a row, the worker is killed with SIGKILL and
// Redis is flushed (FLUSHDB of the test's own database): every queued task and the
// running one are gone, as after a crash of both without persistence. A new worker
// process starts; the reconciler finds the rows' renders in the database and enqueues
// them again. The batch completes with every row accounted for: 300 manifest lines, one
// per row and preset, each succeeded with its own playable video, no row twice, and no
// row with two render records.
func TestTemplateBatchSurvivesKilledWorkerAndFlushedRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("300 rows, a killed worker and a reconciler pass take several minutes")
	}
	began := time.Now()
	bin := buildKoda(t)
	redisURL := sharedRedis(t, kodatest.DBKodaRowsRecovery)
	data := t.TempDir()
	dbURL := filepath.Join(data, "koda.db")
	if os.Getenv(kodatest.PostgresEnv) != "" {
		dbURL = kodatest.PostgresURL(t)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	// The processes share one data folder, as processes of one machine do: the API
	// stores the rows' files there and serves the videos the workers put there.
	env := append(os.Environ(),
		"KODA_DATA_DIR="+data, "KODA_DATABASE_URL="+dbURL, "KODA_REDIS_URL="+redisURL,
		"KODA_ADDR="+addr, "KODA_PUBLIC_URL=http://"+addr,
		"KODA_SECRET_KEY=rows-recovery-test-secret-key-0123456789", "KODA_SIGNING_SECRET=rows-recovery-signing",
		"KODA_API_KEY="+testAPIKey, "KODA_ADMIN_KEY="+testAdminKey, "KODA_WEBHOOK_SECRET="+testSecret,
		// The default tenant's 200 renders a day would refuse a batch of 300.
		"KODA_TENANT_LIMITS=concurrent_projects=8,live_sandboxes=4,renders_per_day=1000",
		"KODA_CONCURRENCY=render=1,preview=1,agent=2", "KODA_SHUTDOWN_TIMEOUT=5s")
	start := func(name string, args ...string) *proc { return startProc(t, bin, name, env, data, args...) }
	mig := exec.Command(bin, "migrate")
	mig.Env = env
	if out, err := mig.CombinedOutput(); err != nil {
		t.Fatalf("migrate: %v\n%s", err, out)
	}
	start("api", "api")
	pools := []string{"worker", "--pools", "agent,preview,render,webhooks,maintenance"}
	w1 := start("worker1", pools...)
	c := client{t: t, base: "http://" + addr}
	waitFor(t, "the API", 30*time.Second, func() bool {
		resp, err := http.Get(c.base + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == 200
	})

	// The template: a one-second scene with one line of text.
	var p project
	if status, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "The words 'HELLO WORLD' appear in big white letters on a dark background", "duration_s": 1,
		"auto_approve": true, "presets": []string{"preview"}}, &p); status != http.StatusAccepted {
		t.Fatalf("create project: %d", status)
	}
	c.waitProject(p.ID, 3*time.Minute, "complete", func(p project) bool { return p.Phase == "complete" && finalsDone(p, 1) })
	var tpl struct {
		ID     string `json:"id"`
		Fields []struct {
			Name  string `json:"name"`
			Type  string `json:"type"`
			Value string `json:"value"`
		} `json:"fields"`
	}
	if status, _ := c.do(http.MethodPost, "/v1/templates", map[string]any{"project_id": p.ID, "name": "rows"}, &tpl); status != http.StatusCreated {
		t.Fatalf("create template: %d %+v", status, tpl)
	}
	field := ""
	for _, f := range tpl.Fields {
		if f.Type == "text" && strings.Contains(strings.ToUpper(f.Value), "HELLO") {
			field = f.Name
		}
	}
	if field == "" {
		t.Fatalf("no text field holds HELLO WORLD: %+v", tpl.Fields)
	}

	rows := make([]any, recoveryRows)
	for i := range rows {
		rows[i] = map[string]any{field: fmt.Sprintf("ROW %03d", i+1)}
	}
	batchStart := time.Now()
	var b rowsBatch
	if status, _ := c.do(http.MethodPost, "/v1/templates/"+tpl.ID+"/batches",
		map[string]any{"rows": rows, "presets": []string{"preview"}}, &b); status != http.StatusAccepted || b.Total != recoveryRows {
		t.Fatalf("create batch: %d, %d renders", status, b.Total)
	}
	get := func() rowsBatch {
		var b2 rowsBatch
		if status, _ := c.do(http.MethodGet, "/v1/batches/"+b.ID, nil, &b2); status != http.StatusOK {
			t.Fatalf("get batch: %d", status)
		}
		return b2
	}
	poll := func(what string, within time.Duration, ok func(rowsBatch) bool) rowsBatch {
		t.Helper()
		deadline := time.Now().Add(within)
		for {
			cur := get()
			if ok(cur) {
				return cur
			}
			if time.Now().After(deadline) {
				t.Fatalf("timed out after %s waiting for %s: %d queued, %d running, %d succeeded, %d failed",
					within, what, cur.Queued, cur.Running, cur.Succeeded, cur.Failed)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}

	// In the middle of the batch, with a row's render running and its browser up, the
	// worker dies without a chance to hand anything back. It is stopped (SIGSTOP) first,
	// so that what the database says it was doing cannot change before the SIGKILL: a
	// render it had just finished would leave none running; then it continues and is
	// stopped again a moment later.
	var groups []int
	var at rowsBatch // the batch as the worker left it
	var inFlight []string
	for {
		poll("a third of the rows rendered and one running", 20*time.Minute, func(cur rowsBatch) bool {
			return cur.Succeeded >= recoveryRows/3 && cur.Running > 0
		})
		if err := w1.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		at, inFlight = get(), nil
		for _, r := range at.Renders {
			if r.Status == "running" {
				inFlight = append(inFlight, r.ID)
			}
		}
		groups = childGroups(w1.cmd.Process.Pid)
		if len(inFlight) > 0 && len(groups) > 0 {
			break
		}
		if err := w1.cmd.Process.Signal(syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := w1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = w1.cmd.Wait()
	killedAt := time.Now()
	t.Logf("SIGKILLed worker1 after %s: %d rows succeeded, %d running %v, %d queued",
		killedAt.Sub(batchStart).Round(time.Second), at.Succeeded, len(inFlight), inFlight, at.Queued)
	waitFor(t, "the killed worker's chromium and ffmpeg to exit", 20*time.Second, func() bool {
		return len(groupMembers(groups)) == 0
	})

	// Redis loses everything: the pending tasks of the rows still to render, the
	// running task, the leases, the scheduler's leader key.
	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	if err := rdb.FlushDB(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := rdb.DBSize(context.Background()).Result(); err != nil || n != 0 {
		t.Fatalf("Redis after FLUSHDB: %d keys, %v", n, err)
	}

	w2 := start("worker2", pools...)
	restarted := time.Now()
	var resumed time.Time // when the first row after the crash finished
	done := poll("the batch to complete after the crash", 30*time.Minute, func(cur rowsBatch) bool {
		if resumed.IsZero() && cur.Succeeded > at.Succeeded {
			resumed = time.Now()
		}
		return cur.Status == "completed"
	})
	finished := time.Now()
	wall := finished.Sub(batchStart)
	if resumed.IsZero() {
		resumed = finished
	}
	t.Logf("batch of %d rows: %s wall (%.1f rows/min); before the kill %.1f rows/min; "+
		"rows rendered again %s after the new worker started; test %s so far",
		recoveryRows, wall.Round(time.Second), float64(recoveryRows)/wall.Minutes(),
		float64(at.Succeeded)/killedAt.Sub(batchStart).Minutes(),
		resumed.Sub(restarted).Round(100*time.Millisecond), finished.Sub(began).Round(time.Second))
	if n := strings.Count(w2.out.String(), "re-enqueued lost task"); n == 0 {
		t.Errorf("the new worker's reconciler re-enqueued nothing")
	} else {
		t.Logf("the new worker's reconciler re-enqueued %d lost tasks", n)
	}

	// Every row accounted for: one render each, succeeded, at most one extra attempt
	// (the row that was running when the worker died).
	if done.Total != recoveryRows || done.Succeeded != recoveryRows || len(done.Rows) != recoveryRows {
		t.Fatalf("batch: %d renders, %d succeeded, %d failed, %d rows; want %d succeeded",
			done.Total, done.Succeeded, done.Failed, len(done.Rows), recoveryRows)
	}
	renderOf := map[string]string{} // render → project
	attempts := map[int]int{}
	for _, r := range done.Renders {
		if _, dup := renderOf[r.ID]; dup {
			t.Errorf("render %s listed twice", r.ID)
		}
		renderOf[r.ID] = r.ProjectID
		attempts[r.Attempts]++
		if r.Status != "succeeded" || r.Attempts < 1 || r.Attempts > 2 {
			t.Errorf("render %s: %s after %d attempts", r.ID, r.Status, r.Attempts)
		}
	}
	t.Logf("renders by attempts: %v", attempts)
	var ms []int64
	for _, r := range done.Renders {
		ms = append(ms, r.RenderMS)
	}
	slices.Sort(ms)
	var sum int64
	for _, v := range ms {
		sum += v
	}
	t.Logf("a row's render (start to finish in the worker): mean %d ms, median %d ms, p95 %d ms",
		sum/int64(len(ms)), ms[len(ms)/2], ms[len(ms)*95/100])
	projects := map[string]int{}
	for i, row := range done.Rows {
		if row.Row != i+1 || row.Status != "succeeded" || len(row.Renders) != 1 || renderOf[row.Renders[0]] != row.ProjectID {
			t.Errorf("row %d of the batch: %+v", i+1, row)
			continue
		}
		if prev, dup := projects[row.ProjectID]; dup {
			t.Errorf("rows %d and %d share project %s", prev, row.Row, row.ProjectID)
		}
		projects[row.ProjectID] = row.Row
	}
	// No render record beyond the batch's: each row's project has exactly one.
	for id, row := range projects {
		var rp project
		c.do(http.MethodGet, "/v1/projects/"+id, nil, &rp)
		if len(rp.Renders) != 1 {
			t.Errorf("row %d (project %s) has %d render records: %+v", row, id, len(rp.Renders), rp.Renders)
		}
	}

	var man struct {
		Lines []koda.ManifestLine `json:"lines"`
	}
	c.do(http.MethodGet, "/v1/batches/"+b.ID+"/manifest", nil, &man)
	if len(man.Lines) != recoveryRows {
		t.Fatalf("manifest has %d lines, want %d", len(man.Lines), recoveryRows)
	}
	type key struct {
		row    int
		preset string
	}
	seen := map[key]bool{}
	videos := map[[32]byte]int{}
	sample := map[string]bool{}
	for _, id := range inFlight {
		sample[id] = true
	}
	dir := t.TempDir()
	for i, l := range man.Lines {
		k := key{l.Row, l.Preset}
		if seen[k] {
			t.Errorf("manifest line %d repeats row %d at %s", i, l.Row, l.Preset)
		}
		seen[k] = true
		if l.Row != i+1 || l.Preset != "preview" || l.Status != "succeeded" || l.VideoURL == "" || l.Error != "" {
			t.Errorf("manifest line %d: %+v", i, l)
			continue
		}
		body := fetchFile(t, l.VideoURL)
		if len(body) < 12 || string(body[4:8]) != "ftyp" {
			t.Errorf("row %d: the video is %d bytes and not an MP4", l.Row, len(body))
			continue
		}
		sum := sha256.Sum256(body)
		if prev, dup := videos[sum]; dup {
			t.Errorf("rows %d and %d have the same video", prev, l.Row)
		}
		videos[sum] = l.Row
		// ffprobe the first, the last, every tenth and the rows in flight at the kill.
		if l.Row == 1 || l.Row == recoveryRows || l.Row%10 == 0 || sample[l.RenderID] {
			path := filepath.Join(dir, fmt.Sprintf("row-%03d.mp4", l.Row))
			if err := os.WriteFile(path, body, 0o644); err != nil {
				t.Fatal(err)
			}
			if pr := ffprobe(t, path); pr.Codec != "h264" || pr.Width != 640 || pr.Height != 360 || pr.Frames != 15 {
				t.Errorf("row %d video %+v, want h264 640x360 with 15 frames", l.Row, pr)
			}
		}
	}
	t.Logf("test wall %s", time.Since(began).Round(time.Second))
}

// fetchFile downloads a file URL into memory.
func fetchFile(t *testing.T, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("download %s: %v", url, err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, resp.Body); err != nil {
		t.Fatalf("download %s: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("download %s: %s", url, resp.Status)
	}
	return buf.Bytes()
}
