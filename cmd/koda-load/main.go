// Command koda-load prints the load figures `make bench` reports: project submissions
// per second with p50/p99 latency of POST /v1/projects on loopback (a `koda api`
// process), and the time a `koda serve` process takes to drain N queued renders of a
// tiny project at the preview preset with its resource limits in place.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sync"
	"syscall"
	"time"
)

const apiKey = "koda_loadtestkey000000000000000000"

func main() {
	bin := flag.String("koda", "bin/koda", "the koda binary")
	submissions := flag.Int("submissions", 500, "POST /v1/projects requests")
	clients := flag.Int("clients", 8, "concurrent clients")
	renders := flag.Int("renders", 1000, "queued preview renders to drain")
	limits := flag.String("limits", "browser=2,encoder=2", "KODA_LIMITS of the draining process")
	flag.Parse()
	if err := run(*bin, *submissions, *clients, *renders, *limits); err != nil {
		fmt.Fprintln(os.Stderr, "koda-load:", err)
		os.Exit(1)
	}
}

func run(bin string, submissions, clients, renders int, limits string) error {
	fmt.Printf("Load figures (%s)\n", bin)
	api, err := startKoda(bin, "", "api")
	if err != nil {
		return err
	}
	rate, p50, p99, err := submit(api.base, submissions, clients)
	api.stop()
	if err != nil {
		return err
	}
	fmt.Printf("  POST /v1/projects: %d requests, %d clients: %.0f submissions/s, p50 %s, p99 %s\n",
		submissions, clients, rate, p50.Round(10*time.Microsecond), p99.Round(10*time.Microsecond))

	srv, err := startKoda(bin, limits, "serve")
	if err != nil {
		return err
	}
	defer srv.stop()
	took, err := drain(srv.base, renders)
	if err != nil {
		return fmt.Errorf("%w\n%s", err, srv.logTail())
	}
	fmt.Printf("  drain %d queued preview renders (1 s, 640x360 @ 15 fps; KODA_LIMITS=%s): %s, %.2f renders/s\n",
		renders, limits, took.Round(time.Second), float64(renders)/took.Seconds())
	return nil
}

type kodaProc struct {
	cmd  *exec.Cmd
	base string
	dir  string
	log  *bytes.Buffer
	mu   *sync.Mutex
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// startKoda runs `koda <sub>` on a free loopback port with a fresh data dir, on the
// embedded Redis and SQLite unless KODA_REDIS_URL / KODA_DATABASE_URL are set.
func startKoda(bin, limits, sub string) (*kodaProc, error) {
	dir, err := os.MkdirTemp("", "koda-load-")
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	p := &kodaProc{base: "http://" + addr, dir: dir, log: &bytes.Buffer{}, mu: &sync.Mutex{}}
	p.cmd = exec.Command(bin, sub)
	p.cmd.Env = append(os.Environ(), "KODA_ADDR="+addr, "KODA_DATA_DIR="+dir, "KODA_API_KEY="+apiKey,
		"KODA_LOG_LEVEL=warn", "KODA_LIMITS="+limits, "KODA_CONCURRENCY=preview=1,render=2")
	p.cmd.Stdout, p.cmd.Stderr = lockedWriter{p.mu, p.log}, lockedWriter{p.mu, p.log}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start koda %s: %w", sub, err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(p.base + "/healthz")
		if err == nil {
			resp.Body.Close()
			return p, nil
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("koda %s did not answer: %s", sub, p.logTail())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (p *kodaProc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
	os.RemoveAll(p.dir)
}

func (p *kodaProc) logTail() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.log.String()
	if len(s) > 3000 {
		s = s[len(s)-3000:]
	}
	return s
}

var httpClient = &http.Client{Timeout: time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

func call(method, url string, body any, out any) (int, error) {
	raw, _ := json.Marshal(body)
	req, err := http.NewRequest(method, url, bytes.NewReader(raw))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+apiKey)
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && resp.StatusCode < 300 {
		if err := json.Unmarshal(b, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: %w", method, url, err)
		}
	}
	if resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	return resp.StatusCode, nil
}

// submit posts n projects from clients goroutines and reports the rate and latencies.
func submit(base string, n, clients int) (float64, time.Duration, time.Duration, error) {
	lat := make([]time.Duration, n)
	errs := make(chan error, clients)
	var next sync.Mutex
	i := 0
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				next.Lock()
				k := i
				i++
				next.Unlock()
				if k >= n {
					return
				}
				t0 := time.Now()
				if _, err := call(http.MethodPost, base+"/v1/projects", map[string]any{
					"prompt": fmt.Sprintf("a playful ball number %d bounces", k), "duration_s": 2,
				}, nil); err != nil {
					errs <- err
					return
				}
				lat[k] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	total := time.Since(start)
	close(errs)
	if err := <-errs; err != nil {
		return 0, 0, 0, err
	}
	slices.Sort(lat)
	return float64(n) / total.Seconds(), lat[n/2], lat[min(n-1, n*99/100)], nil
}

type renderView struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Status string `json:"status"`
}

type projectView struct {
	ID      string       `json:"id"`
	Phase   string       `json:"phase"`
	Renders []renderView `json:"renders"`
}

// drain makes one tiny project, queues n renders of it at the preview preset and
// times how long the workers take to finish them all.
func drain(base string, n int) (time.Duration, error) {
	var p projectView
	if _, err := call(http.MethodPost, base+"/v1/projects", map[string]any{
		"prompt": "a playful red dot", "duration_s": 1, "auto_approve": true, "presets": []string{"preview"},
	}, &p); err != nil {
		return 0, err
	}
	if err := waitFinals(base, p.ID, 1, 5*time.Minute); err != nil {
		return 0, err
	}
	start := time.Now()
	const perBatch = 20
	for queued := 0; queued < n; queued += perBatch {
		presets := make([]string, min(perBatch, n-queued))
		for i := range presets {
			presets[i] = "preview"
		}
		if _, err := call(http.MethodPost, base+"/v1/projects/"+p.ID+"/renders", map[string]any{"presets": presets}, nil); err != nil {
			return 0, err
		}
	}
	if err := waitFinals(base, p.ID, 1+n, 6*time.Hour); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

func waitFinals(base, id string, n int, within time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	for {
		var p projectView
		if _, err := call(http.MethodGet, base+"/v1/projects/"+id, nil, &p); err != nil {
			return err
		}
		if p.Phase == "error" {
			return errors.New("the project failed")
		}
		done := 0
		for _, r := range p.Renders {
			if r.Kind == "final" && (r.Status == "succeeded" || r.Status == "failed") {
				done++
			}
		}
		if done >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d of %d renders done after %s", done, n, within)
		case <-time.After(time.Second):
		}
	}
}
