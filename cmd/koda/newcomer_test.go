package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda/jobs"
	"github.com/kodahq/koda/renderer"
)

// TestDashboardOnDefaults: koda serve on an empty data dir and no KODA_ADMIN_KEY makes
// an admin key (kept 0600 in the data dir), and the dashboard opens with it: refused
// without it, refused for writes from another site, and in real Chromium, answering
// the browser's login prompt, Asynqmon lists Koda's queues and a running render's
// chunk tasks.
func TestDashboardOnDefaults(t *testing.T) {
	m := startTuned(t, "", func(m *Main) { m.Config.AdminKey = ""; m.ChunkFrames = 12 })
	keyFile := filepath.Join(m.Config.DataDir, "admin_key")
	fi, err := os.Stat(keyFile)
	if err != nil {
		t.Fatalf("no admin key kept in the data dir: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("%s is %v, want 0600", keyFile, fi.Mode().Perm())
	}
	raw, _ := os.ReadFile(keyFile)
	key := strings.TrimSpace(string(raw))
	if key != m.AdminKey || !strings.HasPrefix(key, adminKeyPrefix) {
		t.Fatalf("kept key %q, serving %q", key, m.AdminKey)
	}
	if help := dashboardHelp(m.PublicURL, m.AdminKey, true, m.Config.DataDir); !strings.Contains(help, m.PublicURL+"/monitoring/") || !strings.Contains(help, key) {
		t.Errorf("the printed help does not say how to open the dashboard: %q", help)
	}
	if help := dashboardHelp(m.PublicURL, testAdminKey, false, m.Config.DataDir); strings.Contains(help, testAdminKey) {
		t.Errorf("the help prints a configured admin key: %q", help)
	}

	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("admin:"+key))
	get := func(method, path string, header map[string]string) int {
		req, _ := http.NewRequest(method, m.PublicURL+path, nil)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := get(http.MethodGet, "/monitoring/", nil); s != http.StatusUnauthorized {
		t.Errorf("dashboard without the key: %d, want 401", s)
	}
	if s := get(http.MethodGet, "/monitoring/", map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte("admin:wrong-key-wrong-key"))}); s != http.StatusUnauthorized {
		t.Errorf("dashboard with a wrong key: %d, want 401", s)
	}
	if s := get(http.MethodGet, "/monitoring/", map[string]string{"Authorization": basic}); s != http.StatusOK {
		t.Errorf("dashboard with the generated key: %d, want 200", s)
	}
	// A page on another site posting to the dashboard rides on the browser's Basic
	// credentials: refused, whichever header tells where it came from.
	for _, h := range []map[string]string{
		{"Authorization": basic, "Origin": "http://evil.example"},
		{"Authorization": basic, "Sec-Fetch-Site": "cross-site"},
		{"Authorization": basic, "Sec-Fetch-Site": "same-site", "Origin": m.PublicURL},
		{"Authorization": basic},
	} {
		if s := get(http.MethodPost, "/monitoring/api/queues/plan:pause", h); s != http.StatusForbidden {
			t.Errorf("cross-site write %v: %d, want 403", h, s)
		}
	}

	// A final render long enough to be split into chunk tasks that wait their turn.
	c := client{t: t, base: m.PublicURL}
	var created project
	if status, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "A red ball bounces across the screen", "duration_s": 8, "auto_approve": true,
		"presets": []any{map[string]any{"name": "tiny", "width": 320, "height": 180, "fps": 15}},
	}, &created); status != http.StatusAccepted {
		t.Fatalf("create: %d", status)
	}
	c.waitProject(created.ID, 4*time.Minute, "a running final render", func(p project) bool {
		for _, r := range p.Renders {
			if r.Kind == "final" && r.Status == "running" {
				return true
			}
		}
		return false
	})

	ctx := dashboardBrowser(t, key)
	var text string
	// read loads the pages in turn until one shows want: a chunk may be pending, or
	// already taken by a worker on a busy machine, when the page loads.
	read := func(want string, urls ...string) {
		t.Helper()
		deadline := time.Now().Add(45 * time.Second)
		for i := 0; ; i++ {
			url := urls[i%len(urls)]
			err := chromedp.Run(ctx, chromedp.Navigate(url), chromedp.Sleep(1500*time.Millisecond),
				chromedp.Text("body", &text, chromedp.ByQuery))
			if err == nil && strings.Contains(text, want) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%v never showed %q (err %v):\n%.1500s", urls, want, err, text)
			}
		}
	}
	read(jobs.QueueRender, m.PublicURL+"/monitoring/")
	for _, q := range []string{jobs.QueuePlan, jobs.QueueCodegen, jobs.QueuePreview, jobs.QueueRender} {
		if !strings.Contains(text, q) {
			t.Errorf("the dashboard does not list queue %q:\n%.1500s", q, text)
		}
	}
	read(jobs.KindRenderChunk, m.PublicURL+"/monitoring/queues/render?status=pending",
		m.PublicURL+"/monitoring/queues/render?status=active")
}

// dashboardBrowser starts headless Chromium and answers its HTTP login prompts with
// the admin key, as a person would type it.
func dashboardBrowser(t *testing.T, key string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(renderer.FindChromium()), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	chromedp.ListenTarget(ctx, func(ev any) {
		exec := func(a chromedp.Action) {
			go func() { _ = a.Do(cdp.WithExecutor(ctx, chromedp.FromContext(ctx).Target)) }()
		}
		switch ev := ev.(type) {
		case *fetch.EventAuthRequired:
			exec(fetch.ContinueWithAuth(ev.RequestID, &fetch.AuthChallengeResponse{
				Response: fetch.AuthChallengeResponseResponseProvideCredentials, Username: "admin", Password: key}))
		case *fetch.EventRequestPaused:
			exec(fetch.ContinueRequest(ev.RequestID))
		}
	})
	if err := chromedp.Run(ctx, fetch.Enable().WithHandleAuthRequests(true)); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// TestFirstScrape: /metrics answers every queue Koda owns, with zeros, before any task
// was ever enqueued.
func TestFirstScrape(t *testing.T) {
	m := startKoda(t, "")
	resp, err := http.Get(m.PublicURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	text := string(body)
	for _, q := range jobs.Queues {
		for _, series := range []string{
			`koda_queue_tasks{queue="` + q + `",state="active"} 0`,
			`koda_queue_tasks{queue="` + q + `",state="archived"} 0`,
			`koda_queue_failed_total{queue="` + q + `"} 0`,
			`koda_queue_paused{queue="` + q + `"} 0`,
		} {
			if !strings.Contains(text, series) {
				t.Errorf("first scrape lacks %s", series)
			}
		}
	}
	if !strings.Contains(text, "koda_queue_up 1") {
		t.Errorf("first scrape: queues not read")
	}
	if t.Failed() {
		t.Logf("/metrics:\n%.4000s", text)
	}
}

// TestMeterLines: where nobody watches a terminal, progress is a line per tenth (or
// every few seconds while it moves), with stage, frames and rate, and never a
// carriage-return redraw.
func TestMeterLines(t *testing.T) {
	var out bytes.Buffer
	m := newMeter(&out, "rendering v.mp4", false)
	clock := m.start
	m.now = func() time.Time { return clock }
	for f := 0; f <= 300; f++ {
		clock = clock.Add(10 * time.Millisecond)
		m.Set(float64(f)/3, "capture", f, 300)
	}
	m.Finish()
	s := out.String()
	if strings.Contains(s, "\r") {
		t.Fatalf("carriage returns in non-terminal output: %q", s)
	}
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) < 10 || len(lines) > 13 {
		t.Errorf("%d lines for 300 frames, want one per tenth:\n%s", len(lines), s)
	}
	if !strings.Contains(lines[5], "capture") || !strings.Contains(lines[5], "/300 frames") || !strings.Contains(lines[5], "frames/s") {
		t.Errorf("a line does not say stage, frames and rate: %q", lines[5])
	}
	// Slow progress still shows it is alive every few seconds.
	out.Reset()
	m = newMeter(&out, "slow", false)
	clock = m.start
	m.now = func() time.Time { return clock }
	for f := 1; f <= 20; f++ {
		clock = clock.Add(time.Second)
		m.Set(1+float64(f)/10, "capture", f, 1000)
	}
	if n := strings.Count(out.String(), "\n"); n < 3 || n > 6 {
		t.Errorf("%d lines in 20 s of slow progress, want one every %s:\n%s", n, meterEvery, out.String())
	}
}
