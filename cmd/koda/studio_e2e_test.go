package main

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

type queuedMessage struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// TestMessageWhileExecutingAndLivePreview runs the Studio's API path on a real koda
// serve: a message sent while the agent writes code is applied as an iteration after
// the preview, and the live preview URL serves the page written, confined.
func TestMessageWhileExecutingAndLivePreview(t *testing.T) {
	m := startKoda(t, "")
	c := client{t: t, base: m.PublicURL}
	var p project
	c.do(http.MethodPost, "/v1/projects", map[string]any{"prompt": "a red ball bounces", "style": "playful", "duration_s": 2}, &p)
	p = c.waitProject(p.ID, time.Minute, "plan", func(p project) bool { return p.Phase == "plan" && p.Plan != nil })
	c.do(http.MethodPost, "/v1/projects/"+p.ID+"/plan/approve", nil, &p)
	var msg queuedMessage
	if status, _ := c.do(http.MethodPost, "/v1/projects/"+p.ID+"/messages", map[string]any{"text": "make the ball blue"}, &msg); status != http.StatusAccepted {
		t.Fatalf("message: %d", status)
	}
	t.Logf("message sent right after approval: %s", msg.Status)
	// Usually the agent is still at work (queued); a fast one may already show its
	// preview, which takes the message at once (applied). Either way an iteration follows.
	if msg.Status != "queued" && msg.Status != "applied" {
		t.Fatalf("message status %q", msg.Status)
	}
	p = c.waitProject(p.ID, 3*time.Minute, "the iteration's preview", func(p project) bool {
		if p.Phase != "preview" {
			return false
		}
		previews := 0
		for _, r := range p.Renders {
			if r.Kind == "preview" && r.Status == "succeeded" {
				previews++
			}
		}
		return previews >= 2
	})
	var list struct{ Data []queuedMessage }
	c.do(http.MethodGet, "/v1/projects/"+p.ID+"/messages", nil, &list)
	if len(list.Data) != 1 || list.Data[0].ID != msg.ID || list.Data[0].Status != "applied" {
		t.Fatalf("messages: %+v", list.Data)
	}
	seen := map[string]bool{}
	for off := 0; ; {
		var page struct {
			Events     []struct{ Type string } `json:"events"`
			NextOffset int                     `json:"next_offset"`
		}
		c.do(http.MethodGet, "/v1/projects/"+p.ID+"/events?offset="+strconv.Itoa(off), nil, &page)
		for _, e := range page.Events {
			seen[e.Type] = true
		}
		if len(page.Events) == 0 {
			break
		}
		off = page.NextOffset
	}
	for _, typ := range []string{"message.queued", "message.applied", "FILE_WRITTEN"} {
		if !seen[typ] {
			t.Errorf("no %s event among %v", typ, seen)
		}
	}

	var live struct {
		URL string `json:"url"`
	}
	if status, _ := c.do(http.MethodPost, "/v1/projects/"+p.ID+"/live", nil, &live); status != http.StatusCreated {
		t.Fatalf("live: %d", status)
	}
	resp, err := http.Get(m.PublicURL + live.URL) // no API key: the token is the credential
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "koda live preview") ||
		!strings.HasPrefix(resp.Header.Get("Content-Security-Policy"), "sandbox allow-scripts;") {
		t.Fatalf("live page: %d %v %.300s", resp.StatusCode, resp.Header, body)
	}
	resp, err = http.Get(m.PublicURL + live.URL + "%2e%2e/%2e%2e/%2e%2e/etc/passwd")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 404 || strings.Contains(string(body), "root:") {
		t.Errorf("traversal: %d %.200s", resp.StatusCode, body)
	}
}
