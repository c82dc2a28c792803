package api_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/live"
	"github.com/kodahq/koda/sandbox"
)

const wantLiveCSP = "sandbox allow-scripts; default-src 'self' 'unsafe-inline' data: blob:; connect-src 'none'; " +
	"form-action 'none'; base-uri 'self'; frame-ancestors 'self'"

// raw sends an unauthenticated GET the way a browser's iframe would.
func (b *bundle) raw(path string) response {
	b.t.Helper()
	resp, err := b.server.App().Test(httptest.NewRequest("GET", path, nil), -1)
	if err != nil {
		b.t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return response{Status: resp.StatusCode, Header: resp.Header, Body: out}
}

// checkpoint stores files as the project's checkpoint, as the codegen step does.
func (b *bundle) checkpoint(projectID string, files map[string]string) {
	b.t.Helper()
	dir := b.t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := sandbox.Checkpoint(context.Background(), dir, &buf); err != nil {
		b.t.Fatal(err)
	}
	if _, err := b.storage.Put(context.Background(), koda.CheckpointKey(koda.ProjectFolder(projectID)), &buf); err != nil {
		b.t.Fatal(err)
	}
}

func (b *bundle) liveURL(who, projectID string) string {
	b.t.Helper()
	r := b.do(who, "POST", "/v1/projects/"+projectID+"/live", nil)
	if r.Status != 201 {
		b.t.Fatalf("live: %d %s", r.Status, r.Body)
	}
	var out struct {
		URL       string `json:"url"`
		ExpiresAt string `json:"expires_at"`
	}
	r.decode(b.t, &out)
	exp, err := time.Parse(time.RFC3339, out.ExpiresAt)
	if err != nil || time.Until(exp) < 9*time.Minute || time.Until(exp) > 11*time.Minute || !strings.HasPrefix(out.URL, "/live/") || !strings.HasSuffix(out.URL, "/") {
		b.t.Fatalf("live answer %s", r.Body)
	}
	return out.URL
}

func checkLiveHeaders(t *testing.T, what string, r response) {
	t.Helper()
	if got := r.Header.Get("Content-Security-Policy"); got != wantLiveCSP {
		t.Errorf("%s: CSP %q", what, got)
	}
	if r.Header.Get("X-Content-Type-Options") != "nosniff" || r.Header.Get("Referrer-Policy") != "no-referrer" || r.Header.Get("Set-Cookie") != "" {
		t.Errorf("%s: headers %v", what, r.Header)
	}
}

func TestLivePreviewServesTheProjectsFilesConfined(t *testing.T) {
	b := setup(t)
	p := b.create("acme", map[string]any{"prompt": "a smooth blue ball glides", "style": "smooth", "duration_s": 1})
	u := b.liveURL("acme", p.ID)
	// Nothing written yet.
	if r := b.raw(u); r.Status != 404 {
		t.Errorf("before any checkpoint: %d %s", r.Status, r.Body)
	}
	b.checkpoint(p.ID, map[string]string{
		"index.html":     "<!doctype html><html><HEAD lang=en><title>x</title></head><body><script src=app.js></script></body></html>",
		"app.js":         "window.__exportSeekTo = function (t) {};",
		"sub/index.html": "<p>no head here</p>",
	})
	r := b.raw(u)
	if r.Status != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("index: %d %v %s", r.Status, r.Header, r.Body)
	}
	checkLiveHeaders(t, "index", r)
	body := string(r.Body)
	if !strings.HasPrefix(body, "<!doctype html><html><HEAD lang=en><script>/* koda live preview */") ||
		!strings.Contains(body, "__exportSeekTo") || !strings.Contains(body, `"seek"`) || !strings.Contains(body, `"play"`) {
		t.Errorf("hook not injected after <head>: %s", body)
	}
	if r := b.raw(u + "app.js"); r.Status != 200 || !strings.Contains(r.Header.Get("Content-Type"), "javascript") || string(r.Body) != "window.__exportSeekTo = function (t) {};" {
		t.Errorf("app.js: %d %v %s", r.Status, r.Header, r.Body)
	}
	if r := b.raw(u + "sub/"); r.Status != 200 || !strings.HasPrefix(string(r.Body), "<script>/* koda live preview */") {
		t.Errorf("sub/: %d %s", r.Status, r.Body)
	}
	if r := b.raw(u + "sub"); r.Status != 302 || r.Header.Get("Location") != u+"sub/" {
		t.Errorf("sub: %d %v", r.Status, r.Header)
	}
	if r := b.raw(strings.TrimSuffix(u, "/")); r.Status != 302 || !strings.HasSuffix(r.Header.Get("Location"), "/") {
		t.Errorf("without slash: %d %v", r.Status, r.Header)
	}
	// Paths that leave the folder.
	for _, path := range []string{"%2e%2e/%2e%2e/etc/passwd", "..%2f..%2f..%2fetc%2fpasswd", "%2fetc%2fpasswd", "sub/%2e%2e/%2e%2e/x", "a%00b", "missing.js"} {
		r := b.raw(u + path)
		if r.Status != 404 || bytes.Contains(r.Body, []byte("root:")) {
			t.Errorf("%s: %d %s", path, r.Status, r.Body)
		}
		checkLiveHeaders(t, path, r)
	}
	// Another tenant gets no URL for the project.
	if r := b.do("globex", "POST", "/v1/projects/"+p.ID+"/live", nil); r.Status != 404 {
		t.Errorf("globex: %d %s", r.Status, r.Body)
	}
}

func TestLiveTokensAreBoundSignedAndShortLived(t *testing.T) {
	b := setup(t)
	acme := b.create("acme", map[string]any{"prompt": "a smooth blue ball glides", "style": "smooth", "duration_s": 1})
	other := b.create("globex", map[string]any{"prompt": "a smooth red ball glides", "style": "smooth", "duration_s": 1})
	b.checkpoint(acme.ID, map[string]string{"index.html": "acme's page"})
	b.checkpoint(other.ID, map[string]string{"index.html": "globex's page"})
	u := b.liveURL("acme", acme.ID)
	token := strings.TrimSuffix(strings.TrimPrefix(u, "/live/"), "/")
	if r := b.raw(u); r.Status != 200 || !strings.Contains(string(r.Body), "acme's page") {
		t.Fatalf("acme's live page: %d %s", r.Status, r.Body)
	}
	claims, sig, _ := strings.Cut(token, ".")
	forge := func(tenant, project string) string {
		raw, _ := base64.RawURLEncoding.DecodeString(claims)
		parts := strings.Split(string(raw), "\n")
		return base64.RawURLEncoding.EncodeToString([]byte(tenant+"\n"+project+"\n"+parts[2])) + "." + sig
	}
	flipped := []byte(sig)
	flipped[0] ^= 1
	expired, _ := (&live.Preview{Secret: []byte("signing"), Now: func() time.Time { return time.Now().Add(-time.Hour) }}).Issue("acme", acme.ID)
	otherSecret, _ := (&live.Preview{Secret: []byte("another secret")}).Issue("acme", acme.ID)
	cases := map[string]struct{ token, code string }{
		"other tenant's project":      {forge("globex", other.ID), live.CodeTokenInvalid},
		"own tenant, other's project": {forge("acme", other.ID), live.CodeTokenInvalid},
		"altered signature":           {claims + "." + string(flipped), live.CodeTokenInvalid},
		"no signature":                {claims, live.CodeTokenInvalid},
		"garbage":                     {"not-a-token", live.CodeTokenInvalid},
		"another secret":              {otherSecret, live.CodeTokenInvalid},
		"expired":                     {expired, live.CodeTokenExpired},
	}
	for name, tc := range cases {
		r := b.raw("/live/" + tc.token + "/")
		if r.Status != 403 || r.code() != tc.code || strings.Contains(string(r.Body), "page") {
			t.Errorf("%s: %d %s, want 403 %s", name, r.Status, r.Body, tc.code)
		}
		checkLiveHeaders(t, name, r)
	}
}

// projectDirs is the live preview's view of a sandbox writing a project: a real folder.
type projectDirs map[string]string

func (d projectDirs) ProjectDir(tenant, project string) (string, bool) {
	dir, ok := d[tenant+"/"+project]
	return dir, ok
}

// A live sandbox's folder is served as the agent writes it, and a symlink the
// generated code made out of it is not followed.
func TestLivePreviewReadsTheLiveSandboxAndRefusesSymlinks(t *testing.T) {
	b := setup(t)
	p := b.create("acme", map[string]any{"prompt": "a smooth blue ball glides", "style": "smooth", "duration_s": 1})
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(secret, []byte("host secret"), 0o644)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<head></head>written just now"), 0o644)
	os.Symlink(secret, filepath.Join(dir, "leak.txt"))
	os.Symlink("/etc", filepath.Join(dir, "etc"))
	b.server.Live.(*live.Preview).Dirs = projectDirs{"acme/" + p.ID: dir}
	u := b.liveURL("acme", p.ID)
	if r := b.raw(u); r.Status != 200 || !strings.Contains(string(r.Body), "written just now") {
		t.Fatalf("live sandbox: %d %s", r.Status, r.Body)
	}
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<head></head>rewritten"), 0o644)
	if r := b.raw(u); !strings.Contains(string(r.Body), "rewritten") {
		t.Errorf("after a write: %s", r.Body)
	}
	for _, path := range []string{"leak.txt", "etc/passwd", "etc/"} {
		if r := b.raw(u + path); r.Status != 404 || strings.Contains(string(r.Body), "host secret") || strings.Contains(string(r.Body), "root:") {
			t.Errorf("%s: %d %s", path, r.Status, r.Body)
		}
	}
	if r := b.raw(strings.Replace(u, "/live/", "/live/x", 1)); r.Status != 403 {
		t.Errorf("bad token on a live sandbox: %d", r.Status)
	}
	_ = http.StatusOK
}
