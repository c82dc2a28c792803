package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/kodahq/koda"
)

// tinyProject is a project that renders in a moment: 1 s, one 160×90@5 final.
func tinyProject(callback string) map[string]any {
	body := map[string]any{
		"prompt":       "A playful red ball bounces across the screen",
		"duration_s":   1,
		"auto_approve": true,
		"presets":      []any{map[string]any{"width": 160, "height": 90, "fps": 5}},
	}
	if callback != "" {
		body["callback_url"] = callback
	}
	return body
}

type streamEvent struct {
	ID   int64
	Type string
	Data string
}

// streamEvents streams events from url (resuming after lastID) into out until ctx ends.
func streamEvents(ctx context.Context, t *testing.T, url string, lastID int64, out chan<- streamEvent) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+testAPIKey)
	req.Header.Set("Accept", "text/event-stream")
	if lastID > 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatInt(lastID, 10))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("SSE %s: %d %s", url, resp.StatusCode, b)
	}
	sc := bufio.NewScanner(resp.Body)
	var ev streamEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			ev.ID, _ = strconv.ParseInt(strings.TrimPrefix(line, "id: "), 10, 64)
		case strings.HasPrefix(line, "event: "):
			ev.Type = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			ev.Data = strings.TrimPrefix(line, "data: ")
		case line == "" && ev.Type != "":
			select {
			case out <- ev:
			case <-ctx.Done():
				return nil
			}
			ev = streamEvent{}
		}
	}
	return nil
}

// TestEventsResumeOnAnotherAPIProcess reads a project's stream from one API process,
// drops the connection mid-stream and resumes with Last-Event-ID on a second API
// process sharing Redis and the database: every event arrives exactly once, in order.
// Database polling is slowed to a minute on both, so the second process can only keep
// up through the wake-ups published in Redis.
func TestEventsResumeOnAnotherAPIProcess(t *testing.T) {
	a := startTuned(t, "", func(m *Main) { m.EventPoll = time.Minute })
	b := startTuned(t, a.embedded.URL(), func(m *Main) {
		m.Pools = nil
		m.EventPoll = time.Minute
		m.Config.DatabaseURL = filepath.Join(a.Config.DataDir, "koda.db")
	})
	c := client{t: t, base: a.PublicURL}
	var p project
	if status, _ := c.do(http.MethodPost, "/v1/projects", tinyProject(""), &p); status != 202 {
		t.Fatalf("create: %d", status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	events := make(chan streamEvent, 1000)
	var got []streamEvent

	first, stopFirst := context.WithCancel(ctx)
	go func() { _ = streamEvents(first, t, a.PublicURL+"/v1/projects/"+p.ID+"/events", 0, events) }()
	for len(got) < 3 {
		select {
		case ev := <-events:
			got = append(got, ev)
		case <-ctx.Done():
			t.Fatalf("first stream: only %d events", len(got))
		}
	}
	stopFirst()
	// Drain what the first stream may have pushed before it stopped: a client saw those.
	time.Sleep(100 * time.Millisecond)
	for drained := false; !drained; {
		select {
		case ev := <-events:
			got = append(got, ev)
		default:
			drained = true
		}
	}
	second := make(chan streamEvent, 1000)
	go func() {
		if err := streamEvents(ctx, t, b.PublicURL+"/v1/projects/"+p.ID+"/events", got[len(got)-1].ID, second); err != nil {
			t.Error(err)
		}
	}()
	c.waitProject(p.ID, 2*time.Minute, "complete with its final render", func(p project) bool {
		return p.Phase == "complete" && finalsDone(p, 1)
	})
	var stored struct {
		Events []struct {
			ID int64 `json:"id"`
		} `json:"events"`
	}
	cb := client{t: t, base: b.PublicURL}
	cb.do(http.MethodGet, "/v1/projects/"+p.ID+"/events?offset=0", nil, &stored)
	last := stored.Events[len(stored.Events)-1].ID
	deadline := time.After(10 * time.Second)
	for got[len(got)-1].ID < last {
		select {
		case ev := <-second:
			got = append(got, ev)
		case <-deadline:
			t.Fatalf("second process streamed up to %d of %d events within 10 s (Redis wake-ups missing?)", got[len(got)-1].ID, last)
		}
	}
	for i, ev := range got {
		if ev.ID != int64(i+1) {
			t.Fatalf("event %d has id %d: events were lost or repeated across the reconnect: %v", i, ev.ID, ids(got))
		}
	}
	if int64(len(got)) != last {
		t.Fatalf("received %d events, stored %d", len(got), last)
	}
}

func ids(evs []streamEvent) []int64 {
	out := make([]int64, len(evs))
	for i, e := range evs {
		out[i] = e.ID
	}
	return out
}

// flakyReceiver fails each event's first attempts in three ways — a 500, no answer
// within the sender's timeout, a 503 asking to retry after 2 s — then accepts it.
type flakyReceiver struct {
	t       *testing.T
	srv     *httptest.Server
	verify  []*standardwebhooks.Webhook
	mu      sync.Mutex
	tries   map[string][]time.Time
	bodies  map[string]string
	types   map[string]string
	badSigs int
	gone    bool // answer 410 to everything
	hits    int
}

func newFlakyReceiver(t *testing.T, secrets ...string) *flakyReceiver {
	r := &flakyReceiver{t: t, tries: map[string][]time.Time{}, bodies: map[string]string{}, types: map[string]string{}}
	for _, s := range secrets {
		wh, err := standardwebhooks.NewWebhook(s)
		if err != nil {
			t.Fatal(err)
		}
		r.verify = append(r.verify, wh)
	}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *flakyReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	r.hits++
	if r.gone {
		r.mu.Unlock()
		w.WriteHeader(http.StatusGone)
		return
	}
	// Every secret the receiver knows must verify: during a rotation both sign.
	for _, wh := range r.verify {
		if err := wh.Verify(body, req.Header); err != nil {
			r.badSigs++
			r.mu.Unlock()
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
	}
	id := req.Header.Get("webhook-id")
	r.tries[id] = append(r.tries[id], time.Now())
	if prev, ok := r.bodies[id]; ok && prev != string(body) {
		r.t.Errorf("webhook %s retried with another body", id)
	}
	r.bodies[id] = string(body)
	var ev struct{ Type string }
	_ = json.Unmarshal(body, &ev)
	r.types[id] = ev.Type
	n := len(r.tries[id])
	r.mu.Unlock()
	switch n {
	case 1:
		http.Error(w, "boom", http.StatusInternalServerError)
	case 2:
		time.Sleep(1500 * time.Millisecond) // past the sender's 500 ms timeout
		w.WriteHeader(http.StatusNoContent)
	case 3:
		w.Header().Set("Retry-After", "2")
		http.Error(w, "busy", http.StatusServiceUnavailable)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// TestWebhooksSurviveAFlakyReceiver delivers every event of a project to a receiver
// that fails, times out and answers 503 with Retry-After before it recovers: each
// event arrives with one webhook-id and one body on every attempt, signed with both
// secrets of a rotation; a 410 disables an endpoint until a redelivery.
func TestWebhooksSurviveAFlakyReceiver(t *testing.T) {
	m := startTuned(t, "", func(m *Main) {
		m.WebhookTimeout = 500 * time.Millisecond
		m.Config.WebhookRetry = []time.Duration{200 * time.Millisecond}
	})
	c := client{t: t, base: m.PublicURL}
	var secret struct {
		Secret string `json:"secret"`
	}
	if status, _ := c.do(http.MethodPost, "/v1/webhook-secret/rotate", map[string]any{"grace_s": 3600}, &secret); status != 200 || secret.Secret == testSecret {
		t.Fatalf("rotate: %d %+v", status, secret)
	}
	hooks := newFlakyReceiver(t, testSecret, secret.Secret)
	var p project
	c.do(http.MethodPost, "/v1/projects", tinyProject(hooks.srv.URL+"/hooks"), &p)
	c.waitProject(p.ID, 2*time.Minute, "complete", func(p project) bool { return p.Phase == "complete" && finalsDone(p, 1) })

	// 4 phase changes, render.completed, batch.completed; each needs 4 attempts.
	deadline := time.Now().Add(time.Minute)
	for {
		hooks.mu.Lock()
		done := 0
		for _, ts := range hooks.tries {
			if len(ts) >= 4 {
				done++
			}
		}
		hooks.mu.Unlock()
		if done >= 6 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d of 6 events delivered: %v", done, hooks.types)
		}
		time.Sleep(200 * time.Millisecond)
	}
	hooks.mu.Lock()
	for id, ts := range hooks.tries {
		if len(ts) != 4 {
			t.Errorf("event %s (%s) reached the receiver %d times, want 4", id, hooks.types[id], len(ts))
		}
		// asynq schedules retries to the second, so 2 s may shrink to just over 1 s;
		// the configured schedule would have retried after 200 ms.
		if gap := ts[3].Sub(ts[2]); gap < time.Second {
			t.Errorf("event %s: attempt after Retry-After: 2 came %s later", id, gap)
		}
	}
	if hooks.badSigs != 0 {
		t.Errorf("%d deliveries did not verify with both the old and the new secret", hooks.badSigs)
	}
	hooks.mu.Unlock()
	var list struct {
		Deliveries []struct {
			ID       string `json:"id"`
			Status   string `json:"status"`
			Attempts int    `json:"attempts"`
		} `json:"deliveries"`
	}
	c.do(http.MethodGet, "/v1/webhook-deliveries?project_id="+p.ID, nil, &list)
	if len(list.Deliveries) != 6 {
		t.Fatalf("deliveries: %+v", list)
	}
	for _, d := range list.Deliveries {
		if d.Status != "delivered" || d.Attempts != 4 {
			t.Errorf("delivery %+v, want delivered after 4 attempts", d)
		}
	}

	// 410 Gone disables the endpoint: later events are not sent until a redelivery.
	gone := newFlakyReceiver(t)
	gone.gone = true
	var q project
	c.do(http.MethodPost, "/v1/projects", tinyProject(gone.srv.URL+"/hooks"), &q)
	c.waitProject(q.ID, 2*time.Minute, "complete", func(p project) bool { return p.Phase == "complete" && finalsDone(p, 1) })
	var failed struct {
		Deliveries []struct {
			ID        string `json:"id"`
			Status    string `json:"status"`
			LastError string `json:"last_error"`
		} `json:"deliveries"`
	}
	waitFor(t, "all deliveries of the 410 endpoint failed", 20*time.Second, func() bool {
		c.do(http.MethodGet, "/v1/webhook-deliveries?project_id="+q.ID+"&status=failed", nil, &failed)
		return len(failed.Deliveries) == 6
	})
	gone.mu.Lock()
	hits := gone.hits
	gone.gone = false
	gone.mu.Unlock()
	// Deliveries already in flight when the first 410 came may still reach it; the
	// ones made later must not.
	if hits >= 6 {
		t.Errorf("the 410 endpoint was called %d times for 6 events; it should be disabled after the first 410", hits)
	}
	if !strings.Contains(failed.Deliveries[5].LastError, koda.CodeEndpointDisabled) {
		t.Errorf("a later delivery failed with %q, want %s", failed.Deliveries[5].LastError, koda.CodeEndpointDisabled)
	}
	id := failed.Deliveries[5].ID
	if status, _ := c.do(http.MethodPost, "/v1/webhook-deliveries/"+id+"/redeliver", nil, nil); status != 202 {
		t.Fatalf("redeliver: %d", status)
	}
	waitFor(t, "the redelivered event arrives", 20*time.Second, func() bool {
		gone.mu.Lock()
		defer gone.mu.Unlock()
		return len(gone.tries[id]) >= 4
	})
}

// TestBatchOfThreeProjectsByFourPresets re-renders three finished projects for four
// presets as one batch: twelve renders, per-item status, one batch.completed.
func TestBatchOfThreeProjectsByFourPresets(t *testing.T) {
	m := startKoda(t, "")
	c := client{t: t, base: m.PublicURL}
	hooks := newWebhookReceiver(t)
	var ids []string
	for range 3 {
		var p project
		c.do(http.MethodPost, "/v1/projects", tinyProject(""), &p)
		ids = append(ids, p.ID)
	}
	for _, id := range ids {
		c.waitProject(id, 3*time.Minute, "complete", func(p project) bool { return p.Phase == "complete" && finalsDone(p, 1) })
	}
	presets := []any{
		map[string]any{"width": 160, "height": 90, "fps": 5},
		map[string]any{"width": 96, "height": 54, "fps": 5},
		map[string]any{"width": 90, "height": 160, "fps": 5},
		map[string]any{"width": 160, "height": 90, "fps": 5, "format": "webm"},
	}
	var batch struct {
		ID        string   `json:"id"`
		Status    string   `json:"status"`
		Total     int      `json:"total"`
		Succeeded int      `json:"succeeded"`
		Renders   []render `json:"renders"`
	}
	status, _ := c.do(http.MethodPost, "/v1/batches", map[string]any{"project_ids": ids, "presets": presets,
		"callback_url": hooks.srv.URL + "/batches"}, &batch)
	if status != 202 || batch.Total != 12 {
		t.Fatalf("create batch: %d %+v", status, batch)
	}
	waitFor(t, "batch completed", 6*time.Minute, func() bool {
		c.do(http.MethodGet, "/v1/batches/"+batch.ID, nil, &batch)
		return batch.Status == "completed"
	})
	if batch.Succeeded != 12 {
		for _, r := range batch.Renders {
			if r.Error != nil {
				t.Errorf("render %s (%dx%d) failed: %s: %s", r.ID, r.Preset.Width, r.Preset.Height, r.Error.Code, r.Error.Message)
			}
		}
		t.Fatalf("batch: %d of 12 succeeded", batch.Succeeded)
	}
	count := func() int {
		n := 0
		for _, raw := range hooks.payloads(koda.WebhookBatchCompleted) {
			var ev struct {
				Data koda.BatchCompletedData `json:"data"`
			}
			_ = json.Unmarshal(raw, &ev)
			if ev.Data.BatchID == batch.ID && ev.Data.Succeeded == 12 {
				n++
			}
		}
		return n
	}
	waitFor(t, "batch.completed delivered", 20*time.Second, func() bool { return hooks.delivered()[koda.WebhookBatchCompleted] >= 1 && count() >= 1 })
	time.Sleep(time.Second) // let a duplicate arrive, if one were sent
	if n := count(); n != 1 {
		t.Errorf("%d batch.completed events for batch %s, want 1", n, batch.ID)
	}
}
