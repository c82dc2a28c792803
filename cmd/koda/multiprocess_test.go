package main

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kodahq/koda/internal/embedredis"
	"github.com/kodahq/koda/internal/kodatest"
)

// proc is one koda process of the deployment under test.
type proc struct {
	name string
	cmd  *exec.Cmd
	out  *kodatest.SyncBuffer
	// dataDir is this process's own KODA_DATA_DIR.
	dataDir string
}

// buildKoda builds this command into a temporary folder, for tests that run it as
// separate processes.
func buildKoda(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "koda")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build koda: %v\n%s", err, out)
	}
	return bin
}

// sharedRedis is a Redis several processes of a test share: the real one's database
// db when the test environment has one, else an embedded server of the test's own.
func sharedRedis(t *testing.T, db kodatest.RedisDB) string {
	t.Helper()
	if kodatest.RedisKind() == "real" {
		return kodatest.MustRedis(t, db)
	}
	rs, err := embedredis.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rs.Close)
	return rs.URL()
}

// startProc starts `bin args…` as the named process of a test with env, its output
// kept (and logged when the test fails); the test's end stops it with SIGTERM, then
// SIGKILL after 20 s.
func startProc(t *testing.T, bin, name string, env []string, dataDir string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, out: &kodatest.SyncBuffer{}, dataDir: dataDir}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan struct{})
			go func() { _ = p.cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				_ = p.cmd.Process.Kill()
				<-done
			}
		}
		if t.Failed() {
			t.Logf("%s log:\n%s", name, tail(p.out.String(), 40))
		}
	})
	return p
}

// One deployment of three processes — `koda api` and two `koda worker` — sharing Redis,
// the database (PostgreSQL when KODA_TEST_DATABASE_URL is set, else one SQLite file)
// and an S3 bucket of a real S3 server process; each process has a data folder of its
// own, so no file travels through a shared folder. A batch renders with its renders split into chunk tasks spread over both
// workers (some render has chunks captured by each); one worker
// is SIGKILLed in the middle of a render, which then completes on the other worker
// with at most one extra attempt, and no chromium or ffmpeg of the killed worker
// survives it.
func TestSeveralProcessesAndAKilledWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("several processes and asynq's crash recovery take about two minutes")
	}
	bin := buildKoda(t)
	redisURL := sharedRedis(t, kodatest.DBKodaMultiprocess)
	s3srv := kodatest.MustS3(t)
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
	env := append(os.Environ(), s3srv.Env("deploy")...)
	env = append(env,
		// Secrets are shared by configuration, not through a data folder.
		"KODA_SECRET_KEY=multiprocess-test-secret-key-0123456789", "KODA_SIGNING_SECRET=multiprocess-signing",
		"KODA_DATABASE_URL="+dbURL, "KODA_REDIS_URL="+redisURL, "KODA_ADDR="+addr,
		"KODA_PUBLIC_URL=http://"+addr, "KODA_API_KEY="+testAPIKey, "KODA_ADMIN_KEY="+testAdminKey,
		"KODA_WEBHOOK_SECRET="+testSecret, "KODA_BROWSERS=1", "KODA_LOG_LEVEL=debug",
		"KODA_CONCURRENCY=render=1,preview=1,agent=2", "KODA_SHUTDOWN_TIMEOUT=5s",
		// 3 s at 30 fps is 90 frames: every final render splits into six chunk tasks.
		// No browser stays warm, so a worker runs chromium only while it renders.
		"KODA_CHUNK_FRAMES=15", "KODA_RENDER_KEEP_WARM=0")
	start := func(name string, args ...string) *proc {
		dir := t.TempDir()
		return startProc(t, bin, name, append(env[:len(env):len(env)], "KODA_DATA_DIR="+dir), dir, args...)
	}
	// Migrate first, so the three processes do not race to create the schema.
	mig := exec.Command(bin, "migrate")
	mig.Env = append(env[:len(env):len(env)], "KODA_DATA_DIR="+data)
	if out, err := mig.CombinedOutput(); err != nil {
		t.Fatalf("migrate: %v\n%s", err, out)
	}
	api := start("api", "api")
	w1 := start("worker1", "worker", "--pools", "agent,preview,render,webhooks,maintenance")
	w2 := start("worker2", "worker", "--pools", "agent,preview,render,webhooks,maintenance")
	c := client{t: t, base: "http://" + addr}
	waitFor(t, "the API", 30*time.Second, func() bool {
		resp, err := http.Get(c.base + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == 200
	})

	var created project
	if status, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "a playful purple circle bounces", "duration_s": 3, "auto_approve": true, "presets": tinyPresets[:1],
	}, &created); status != http.StatusAccepted {
		t.Fatalf("create: %d", status)
	}
	c.waitProject(created.ID, 3*time.Minute, "complete", func(p project) bool { return p.Phase == "complete" && finalsDone(p, 1) })
	// A batch with bigger frames, so a render is still under way when its worker dies.
	presets := []any{}
	for i := range 6 {
		presets = append(presets, map[string]any{"width": 640 + 32*i, "height": 360, "fps": 30})
	}
	var batch struct {
		ID string `json:"id"`
	}
	if status, _ := c.do(http.MethodPost, "/v1/projects/"+created.ID+"/renders", map[string]any{"presets": presets}, &batch); status != http.StatusAccepted {
		t.Fatalf("batch: %d", status)
	}
	// Once chunks of one render were captured by both workers, kill one that is running
	// a browser for another chunk, mid-render.
	waitFor(t, "chunks of one render captured by both workers", 3*time.Minute, func() bool {
		return len(sharedChunks(w1, w2)) > 0
	})
	t.Logf("renders whose chunks ran on both workers: %v", sharedChunks(w1, w2))
	var victim *proc
	var groups []int
	waitFor(t, "a worker running chromium", 2*time.Minute, func() bool {
		for _, w := range []*proc{w1, w2} {
			if gs := childGroups(w.cmd.Process.Pid); len(gs) > 0 {
				victim, groups = w, gs
				return true
			}
		}
		return false
	})
	time.Sleep(500 * time.Millisecond)
	groups = append(groups, childGroups(victim.cmd.Process.Pid)...)
	if err := victim.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = victim.cmd.Wait()
	t.Logf("SIGKILLed %s with child process groups %v", victim.name, groups)
	waitFor(t, "the killed worker's chromium and ffmpeg to exit", 20*time.Second, func() bool {
		return len(groupMembers(groups)) == 0
	})

	p := c.waitProject(created.ID, 4*time.Minute, "every batch render done", func(p project) bool { return finalsDone(p, 1+len(presets)) })
	for _, r := range p.Renders {
		var got struct {
			Status   string `json:"status"`
			Attempts int    `json:"attempts"`
		}
		c.do(http.MethodGet, "/v1/renders/"+r.ID, nil, &got)
		if got.Status != "succeeded" || got.Attempts > 2 {
			t.Errorf("render %s: %s after %d attempts", r.ID, got.Status, got.Attempts)
		}
	}
	t.Logf("renders completed: %s %d, %s %d", w1.name, rendersDone(w1), w2.name, rendersDone(w2))

	// Every video lives in the bucket and downloads through a presigned URL from the
	// S3 server itself; no process kept a file in its data folder.
	last := p.Renders[len(p.Renders)-1]
	if !strings.HasPrefix(last.VideoURL, s3srv.Endpoint+"/"+s3srv.Bucket+"/deploy/") || !strings.Contains(last.VideoURL, "X-Amz-Signature=") {
		t.Fatalf("video URL %s is not a presigned URL of the bucket", last.VideoURL)
	}
	video := download(t, last.VideoURL, t.TempDir(), "final.mp4")
	if got := ffprobe(t, video); got.Width == 0 {
		t.Fatalf("downloaded video: %+v", got)
	}
	for _, pr := range []*proc{api, w1, w2} {
		if _, err := os.Stat(filepath.Join(pr.dataDir, "storage")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s kept files in its data folder: %v", pr.name, err)
		}
	}
}

// sharedChunks lists the renders of which both workers completed chunk tasks.
func sharedChunks(w1, w2 *proc) []string {
	c1, c2 := chunksDone(w1), chunksDone(w2)
	var shared []string
	for id := range c1 {
		if c2[id] {
			shared = append(shared, id)
		}
	}
	return shared
}

// chunksDone lists the renders of which a worker completed at least one chunk task,
// from its debug log (task ids are render_chunk:<render>:<attempt>:<index>).
func chunksDone(w *proc) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(w.out.String(), "\n") {
		if !strings.Contains(line, `msg="task done"`) || !strings.Contains(line, "type=render_chunk ") {
			continue
		}
		_, rest, ok := strings.Cut(line, "task=render_chunk:")
		if id, _, ok2 := strings.Cut(rest, ":"); ok && ok2 {
			out[id] = true
		}
	}
	return out
}

// rendersDone counts the render tasks a worker completed, from its debug log.
func rendersDone(w *proc) int {
	n := 0
	for _, line := range strings.Split(w.out.String(), "\n") {
		if strings.Contains(line, `msg="task done"`) && strings.Contains(line, "type=render ") {
			n++
		}
	}
	return n
}

// childGroups lists the process groups of pid's children other than pid's own:
// chromium and ffmpeg run in groups of their own.
func childGroups(pid int) []int {
	own, _ := syscall.Getpgid(pid)
	seen := map[int]bool{}
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", child))
		if err != nil {
			continue
		}
		// Fields after the command name: state ppid pgrp …
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		pgrp, _ := strconv.Atoi(fields[2])
		if ppid == pid && pgrp != own && !seen[pgrp] {
			seen[pgrp] = true
			out = append(out, pgrp)
		}
	}
	return out
}

// groupMembers lists live processes in any of groups.
func groupMembers(groups []int) []int {
	want := map[int]bool{}
	for _, g := range groups {
		want[g] = true
	}
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		s := string(stat)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 3 || fields[0] == "Z" {
			continue
		}
		if pgrp, _ := strconv.Atoi(fields[2]); want[pgrp] {
			out = append(out, pid)
		}
	}
	return out
}

func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
