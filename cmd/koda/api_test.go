package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

type sseEvent struct {
	ID   int64
	Type string
	Data string
}

// readSSE reads n events from the project's stream, resuming after lastID when > 0.
func readSSE(t *testing.T, base, projectID string, lastID int64, n int) []sseEvent {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+"/v1/projects/"+projectID+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+testAPIKey)
	if lastID > 0 {
		req.Header.Set("Last-Event-ID", strconv.FormatInt(lastID, 10))
	}
	client := &http.Client{Timeout: 30 * time.Second}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("events Content-Type = %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	var out []sseEvent
	var cur sseEvent
	for len(out) < n && sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			cur.ID, _ = strconv.ParseInt(strings.TrimPrefix(line, "id: "), 10, 64)
		case strings.HasPrefix(line, "event: "):
			cur.Type = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.Data = strings.TrimPrefix(line, "data: ")
		case line == "" && cur.Type != "":
			out = append(out, cur)
			cur = sseEvent{}
		}
	}
	if len(out) < n {
		t.Fatalf("stream ended after %d events, want %d (%v)", len(out), n, sc.Err())
	}
	return out
}

// TestEventStreamResumes checks that SSE delivers stored events in order with their
// ids, that Last-Event-ID resumes right after the given event, and that offset
// polling returns the same events as JSON.
func TestEventStreamResumes(t *testing.T) {
	m := startKoda(t, "")
	c := client{t: t, base: m.PublicURL}
	var p project
	c.do(http.MethodPost, "/v1/projects", map[string]any{"prompt": "a ball moving around", "duration_s": 2}, &p)
	c.waitProject(p.ID, time.Minute, "question", func(p project) bool { return p.Phase == "question" })

	all := readSSE(t, m.PublicURL, p.ID, 0, 3)
	for i, e := range all {
		if e.ID != int64(i+1) {
			t.Fatalf("event %d has id %d", i, e.ID)
		}
		if !json.Valid([]byte(e.Data)) {
			t.Fatalf("event %d data is not JSON: %q", e.ID, e.Data)
		}
	}
	if all[0].Type != "STATE_CHANGE" || !strings.Contains(all[1].Data, `"question"`) {
		t.Fatalf("first events: %+v", all)
	}
	resumed := readSSE(t, m.PublicURL, p.ID, 2, 1)
	if resumed[0].ID != 3 || resumed[0].Type != all[2].Type || resumed[0].Data != all[2].Data {
		t.Fatalf("resume after 2 gave %+v, want %+v", resumed[0], all[2])
	}

	// A live event arrives on an open stream: answering produces new events.
	done := make(chan []sseEvent, 1)
	go func() { done <- readSSE(t, m.PublicURL, p.ID, 3, 1) }()
	time.Sleep(300 * time.Millisecond)
	c.do(http.MethodPost, "/v1/projects/"+p.ID+"/answer", map[string]any{"option_id": "playful"}, nil)
	select {
	case evs := <-done:
		if evs[0].ID != 4 {
			t.Fatalf("live event id %d, want 4", evs[0].ID)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no live event within 20 s of answering")
	}

	var page struct {
		Events []struct {
			ID   int64  `json:"id"`
			Type string `json:"type"`
		} `json:"events"`
		NextOffset int64 `json:"next_offset"`
	}
	c.do(http.MethodGet, "/v1/projects/"+p.ID+"/events?offset=1", nil, &page)
	if len(page.Events) < 3 || page.Events[0].ID != 2 || page.NextOffset != page.Events[len(page.Events)-1].ID {
		t.Fatalf("offset polling: %+v", page)
	}
	var e apiError
	if status, _ := c.do(http.MethodGet, "/v1/projects/"+p.ID+"/events?offset=-4", nil, &e); status != 400 {
		t.Errorf("negative offset: %d %+v", status, e)
	}
}

// TestMonitoringAndHealth checks Asynqmon's UI and API under /monitoring/, and the
// health endpoints.
func TestMonitoringAndHealth(t *testing.T) {
	m := startKoda(t, "")
	c := client{t: t, base: m.PublicURL}
	// Put a task on a queue so Asynqmon has something to list.
	c.do(http.MethodPost, "/v1/projects", map[string]any{"prompt": "a smooth, minimal line draws itself"}, nil)

	// Asynqmon is behind the admin key; a browser sends it as the Basic password.
	req, _ := http.NewRequest(http.MethodGet, m.PublicURL+"/monitoring/", nil)
	req.SetBasicAuth("admin", testAdminKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<html") {
		t.Fatalf("/monitoring/: %d %.200s", resp.StatusCode, body)
	}
	var queues struct {
		Queues []struct {
			Queue string `json:"queue"`
		} `json:"queues"`
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		admin := client{t: t, base: m.PublicURL, key: testAdminKey}
		if status, _ := admin.do(http.MethodGet, "/monitoring/api/queues", nil, &queues); status != 200 {
			t.Fatalf("/monitoring/api/queues: %d", status)
		}
		found := false
		for _, q := range queues.Queues {
			found = found || q.Queue == "plan"
		}
		if found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Asynqmon does not list the plan queue: %+v", queues)
		}
		time.Sleep(200 * time.Millisecond)
	}

	var health struct {
		Status string `json:"status"`
	}
	if status, _ := c.do(http.MethodGet, "/healthz", nil, &health); status != 200 || health.Status != "ok" {
		t.Errorf("/healthz: %d %+v", status, health)
	}
	var ready struct {
		Ready  bool              `json:"ready"`
		Checks map[string]string `json:"checks"`
	}
	if status, _ := c.do(http.MethodGet, "/readyz", nil, &ready); status != 200 || !ready.Ready || len(ready.Checks) != 3 {
		t.Errorf("/readyz: %d %+v", status, ready)
	}
}
