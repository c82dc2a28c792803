package stills_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A hostile page in the stills browser reads nothing outside its directory: not a host
// file by file://, by ".." or by a symlink out of the directory, and reaches no server
// (HTTP or WebSocket, loopback included). Its own files it does read, same-origin.
// (Chromium's private-network rules alone already refuse the WebSocket to loopback;
// the unresolvable proxy of Start is what refuses one to a public host.)
func TestStillsPageCannotReadTheHost(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, "secret")
	}))
	defer srv.Close()
	host, err := os.ReadFile("/etc/hostname")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "leak.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "own.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	page := `<!doctype html><html><body><script>
window.results = {};
async function tryFetch(name, u) {
  try { const r = await fetch(u); results[name] = r.ok ? "read: " + await r.text() : "status " + r.status; }
  catch (e) { results[name] = "failed"; }
}
function tryXHR(name, u) {
  return new Promise(done => {
    try {
      const x = new XMLHttpRequest(); x.open("GET", u);
      x.onload = () => { results[name] = x.status === 200 ? "read: " + x.responseText : "status " + x.status; done(); };
      x.onerror = () => { results[name] = "failed"; done(); };
      x.send();
    } catch (e) { results[name] = "failed"; done(); }
  });
}
function tryWS(name, u) {
  return new Promise(done => {
    try {
      const w = new WebSocket(u);
      w.onopen = () => { results[name] = "open"; done(); };
      w.onerror = () => { results[name] = "failed"; done(); };
    } catch (e) { results[name] = "failed"; done(); }
  });
}
Promise.all([
  tryFetch("own", "own.txt"),
  tryFetch("file", "file:///etc/hostname"),
  tryXHR("xhrFile", "file:///etc/hostname"),
  tryFetch("dotdot", "http://koda-stills.invalid/../../etc/hostname"),
  tryFetch("dotdotEscaped", "http://koda-stills.invalid/..%2f..%2fetc%2fhostname"),
  tryFetch("symlink", "leak.txt"),
  tryFetch("external", "@SRV@/"),
  tryXHR("xhrExternal", "@SRV@/"),
  tryWS("websocket", "@WS@/"),
]).then(() => { window.done = true; });
</script></body></html>`
	page = strings.ReplaceAll(page, "@SRV@", srv.URL)
	page = strings.ReplaceAll(page, "@WS@", "ws"+strings.TrimPrefix(srv.URL, "http"))
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}

	br := browser(t)
	tab, done, err := br.Page(context.Background(), dir, "", 320, 240, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	var results map[string]string
	err = chromedp.Run(tab, chromedp.Poll("window.done === true", nil, chromedp.WithPollingTimeout(20*time.Second)))
	if err2 := chromedp.Run(tab, chromedp.Evaluate("window.results", &results)); err2 != nil {
		t.Fatal(err2)
	}
	if err != nil {
		t.Fatalf("the page's tries did not all end: %v; %v", err, results)
	}
	t.Logf("%v", results)
	if results["own"] != "read: mine" {
		t.Errorf("the page's own file: %q, want it read", results["own"])
	}
	for _, name := range []string{"file", "xhrFile", "dotdot", "dotdotEscaped", "symlink", "external", "xhrExternal", "websocket"} {
		r, ok := results[name]
		if !ok || strings.HasPrefix(r, "read") || r == "open" || strings.Contains(r, strings.TrimSpace(string(host))) {
			t.Errorf("%s: %q, want it to fail", name, r)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the page reached a server %d times", n)
	}
}
