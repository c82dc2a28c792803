package renderer_test

import (
	"context"
	"fmt"
	"github.com/kodahq/koda/internal/kodatest"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/renderer"
)

// testSandboxUID is the uid of the sandboxed browsers in these tests: any process
// left with it after a render is a leak.
const testSandboxUID = 199990

func sandboxed(c *renderer.Config) {
	c.Browsers = 1
	c.Sandbox = renderer.SandboxConfig{Enabled: true, UID: testSandboxUID}
}

// uidProcs lists live processes running as uid.
func uidProcs(uid int) []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		st, err := os.Stat(filepath.Join("/proc", e.Name()))
		if err != nil {
			continue
		}
		if fi, ok := st.Sys().(interface{ Uid() uint32 }); ok && int(fi.Uid()) != uid {
			continue
		}
		status, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil || !strings.Contains(string(status), fmt.Sprintf("Uid:\t%d\t", uid)) ||
			strings.Contains(string(status), "State:\tZ") {
			continue
		}
		comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		out = append(out, e.Name()+":"+strings.TrimSpace(string(comm)))
	}
	return out
}

func noSandboxLeftovers(t *testing.T) {
	t.Helper()
	if procs := uidProcs(testSandboxUID); len(procs) > 0 {
		t.Errorf("sandboxed processes left after the render: %v", procs)
	}
}

// escapePage tries to reach the host listener at hostAddr over fetch and WebSocket and
// the internet over fetch, and paints one band per attempt: green when blocked, red when
// it got through, blue while still pending. It is ready once all three settled.
const escapePage = `<!doctype html><html><head><style>
html,body{margin:0;width:100%%;height:100%%;background:#000}
div{height:33.33%%;background:#00f}
</style></head><body><div id="a0"></div><div id="a1"></div><div id="a2"></div><script>
const paint = (i, ok) => { document.getElementById('a'+i).style.background = ok ? '#f00' : '#0f0'; };
const timeout = (ms) => new Promise(r => setTimeout(() => r(true), ms));
const attempts = [
  Promise.race([fetch('http://%[1]s/', {mode: 'no-cors'}).then(() => true, () => false), timeout(5000)]),
  Promise.race([new Promise(r => { const s = new WebSocket('ws://%[1]s/'); s.onopen = () => r(true); s.onerror = () => r(false); }), timeout(5000)]),
  Promise.race([fetch('https://example.com/', {mode: 'no-cors'}).then(() => true, () => false), timeout(5000)]),
];
attempts.forEach((p, i) => p.then(ok => paint(i, ok)));
window.__exportSeekTo = async () => {};
Promise.all(attempts).then(() => requestAnimationFrame(() => requestAnimationFrame(() => { window.__exportReady = true; })));
</script></body></html>`

// bandColors decodes frame 0 of the video and returns the mean RGB of each band.
func bandColors(t *testing.T, video string, w, h int) [3][3]int {
	t.Helper()
	rgb := decodeFrame(t, video, 0)
	if len(rgb) != w*h*3 {
		t.Fatalf("frame is %d bytes, want %d", len(rgb), w*h*3)
	}
	var out [3][3]int
	for band := range 3 {
		o := ((band*h/3+h/6)*w + w/2) * 3
		out[band] = [3]int{int(rgb[o]), int(rgb[o+1]), int(rgb[o+2])}
	}
	return out
}

// TestSandboxBlocksNetwork renders a page that tries to reach a listener on the host's
// loopback (fetch and WebSocket) and the internet: inside the sandbox every attempt
// fails and the listener sees no connection; the same page without the sandbox does
// reach it, which shows the page and the listener work.
func TestSandboxBlocksNetwork(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	// A real HTTP server, so the unsandboxed control fetch succeeds; every connection
	// counts, whatever becomes of it.
	var accepted atomic.Int64
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("reached")) }),
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				accepted.Add(1)
			}
		},
		ReadHeaderTimeout: 5 * time.Second,
	}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), fmt.Appendf(nil, escapePage, ln.Addr().String()), 0o644); err != nil {
		t.Fatal(err)
	}
	req := func() koda.RenderRequest {
		return koda.RenderRequest{Dir: dir, Preset: small, DurationS: 0.2, VideoPath: filepath.Join(t.TempDir(), "v.mp4")}
	}
	green := func(c [3]int) bool { return c[0] < 80 && c[1] > 170 && c[2] < 80 }

	r, _ := setup(t, sandboxed)
	sreq := req()
	began := time.Now()
	if _, _, err := render(t, r, sreq); err != nil {
		t.Fatalf("sandboxed render: %v", err)
	}
	t.Logf("sandboxed escape render took %s", time.Since(began))
	noSandboxLeftovers(t)
	bands := bandColors(t, sreq.VideoPath, small.Width, small.Height)
	for i, name := range []string{"fetch to the host", "WebSocket to the host", "fetch to the internet"} {
		if !green(bands[i]) {
			t.Errorf("%s was not blocked in the sandbox: band color %v", name, bands[i])
		}
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the host listener accepted %d connections from the sandboxed page", n)
	}

	plain, _ := setup(t, func(c *renderer.Config) { c.Browsers = 1 })
	preq := req()
	if _, _, err := render(t, plain, preq); err != nil {
		t.Fatalf("unsandboxed render: %v", err)
	}
	if accepted.Load() == 0 {
		t.Error("the unsandboxed page never reached the host listener: the test proves nothing")
	}
	if b := bandColors(t, preq.VideoPath, small.Width, small.Height); green(b[0]) {
		t.Errorf("unsandboxed fetch to the host painted blocked: %v", b[0])
	}
}

// TestSandboxRendersIdentically renders an export-protocol page with and without the
// sandbox: the decoded frames are identical.
func TestSandboxRendersIdentically(t *testing.T) {
	sb, _ := setup(t, sandboxed)
	plain, _ := setup(t, func(c *renderer.Config) { c.Browsers = 1 })
	a := koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 1, VideoPath: filepath.Join(t.TempDir(), "a.mp4")}
	b := a
	b.VideoPath = filepath.Join(t.TempDir(), "b.mp4")
	began := time.Now()
	if _, _, err := render(t, sb, a); err != nil {
		t.Fatalf("sandboxed render: %v", err)
	}
	took := time.Since(began)
	noSandboxLeftovers(t)
	began = time.Now()
	if _, _, err := render(t, plain, b); err != nil {
		t.Fatalf("unsandboxed render: %v", err)
	}
	t.Logf("15 frames: sandboxed %s, plain %s", took, time.Since(began))
	ha, hb := frameHashes(t, a.VideoPath), frameHashes(t, b.VideoPath)
	if len(ha) != 15 {
		t.Fatalf("sandboxed video has %d frames, want 15", len(ha))
	}
	if strings.Join(ha, ",") == strings.Join(hb, ",") {
		t.Log("frames identical (framemd5)")
	} else if db := kodatest.PSNR(t, a.VideoPath, b.VideoPath); db < 45 {
		t.Errorf("sandboxed video differs from the unsandboxed one: PSNR %.1f dB", db)
	} else {
		t.Logf("frames differ; PSNR %.1f dB", db)
	}
}

// TestSandboxNeedsBwrap fails clearly when bubblewrap is missing.
func TestSandboxNeedsBwrap(t *testing.T) {
	r, _ := setup(t, func(c *renderer.Config) {
		sandboxed(c)
		c.Sandbox.Bwrap = "/nonexistent/bwrap"
	})
	req := koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 0.2, VideoPath: filepath.Join(t.TempDir(), "v.mp4")}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := r.Render(ctx, req, nil)
	wantCode(t, err, koda.CodeRenderFailed)
	if err == nil || !strings.Contains(err.Error(), "bubblewrap") {
		t.Errorf("error %v does not say bubblewrap is missing", err)
	}
	if _, err := os.Stat(req.VideoPath); err == nil {
		t.Error("a video was left behind")
	}
}
