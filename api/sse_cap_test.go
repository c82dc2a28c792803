package api_test

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda"
)

// TestEventStreamsPastTheCapAnswer429: with its cap of streams open, a tenant's next
// stream answers 429 QUOTA_EXCEEDED with Retry-After, as openapi.json describes (the
// checker in b.do holds the answer to the document); polling still works, and another
// tenant's stream opens.
func TestEventStreamsPastTheCapAnswer429(t *testing.T) {
	b := setup(t)
	b.server.MaxStreamsPerTenant = 1
	p := b.create("acme", map[string]any{"prompt": "a red ball bounces", "duration_s": 1})
	path := "/v1/projects/" + p.ID + "/events"

	// One real stream, held open over a real connection.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	app := b.server.App()
	go func() { _ = app.Listener(ln) }()
	// The held stream ends with the server (its writer only notices a gone client at
	// the next heartbeat).
	t.Cleanup(func() { _ = b.server.Shutdown(time.Second) })
	req, _ := http.NewRequest(http.MethodGet, "http://"+ln.Addr().String()+path, nil)
	req.Header.Set("Authorization", "Bearer "+b.keys["acme"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if resp.StatusCode != 200 || err != nil || !strings.HasPrefix(line, ": stream open") {
		t.Fatalf("first stream: %d %q %v", resp.StatusCode, line, err)
	}

	r := b.do("acme", http.MethodGet, path, nil)
	if r.Status != http.StatusTooManyRequests || r.code() != koda.CodeQuotaExceeded || r.Header.Get("Retry-After") == "" {
		t.Fatalf("a stream past the cap: %d %v %s, want 429 %s with Retry-After", r.Status, r.Header, r.Body, koda.CodeQuotaExceeded)
	}
	if r := b.do("acme", http.MethodGet, path+"?offset=0", nil); r.Status != 200 {
		t.Errorf("polling past the stream cap: %d %s", r.Status, r.Body)
	}
}
