package renderer_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/renderer"
)

// launchCounter counts browser starts in the renderer's debug log.
type launchCounter struct{ n atomic.Int64 }

func (c *launchCounter) Enabled(context.Context, slog.Level) bool { return true }
func (c *launchCounter) Handle(_ context.Context, r slog.Record) error {
	if strings.HasSuffix(r.Message, "browser started") {
		c.n.Add(1)
	}
	return nil
}
func (c *launchCounter) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c *launchCounter) WithGroup(string) slog.Handler      { return c }

func warm(launches *launchCounter, more func(*renderer.Config)) func(*renderer.Config) {
	return func(c *renderer.Config) {
		c.KeepWarm = time.Minute
		c.Logger = slog.New(launches)
		if more != nil {
			more(c)
		}
	}
}

// TestWarmBrowsersReused: a renderer with KeepWarm starts browsers once, serves later
// renders with them (same pixels as with fresh ones), closes the browsers of a failed
// render instead of keeping them, and leaves nothing running after Close.
func TestWarmBrowsersReused(t *testing.T) {
	var launches launchCounter
	r, tmp := setup(t, warm(&launches, func(c *renderer.Config) { c.Browsers = 2 }))
	t.Cleanup(r.Close) // runs before setup's check for leftover processes
	dir := t.TempDir()
	dom := func(name string) []string {
		// Long enough that the second browser starts before the first captured every
		// frame, also on a loaded machine.
		req := koda.RenderRequest{Dir: fixture("dom"), Preset: small, DurationS: 6, VideoPath: filepath.Join(dir, name)}
		if _, _, err := render(t, r, req); err != nil {
			t.Fatalf("render %s: %v", name, err)
		}
		return frameHashes(t, req.VideoPath)
	}

	first := dom("1.mp4")
	started := launches.n.Load()
	if started != 2 || r.WarmBrowsers() != 2 {
		t.Fatalf("after the first render: %d browsers started, %d warm; want 2 and 2", started, r.WarmBrowsers())
	}
	second := dom("2.mp4")
	if n := launches.n.Load(); n != started {
		t.Errorf("second render started %d browsers; want it to use the warm ones", n-started)
	}
	if strings.Join(first, ",") != strings.Join(second, ",") {
		t.Error("frames rendered by warm browsers differ from those of fresh ones")
	}
	if len(second) != 90 {
		t.Errorf("%d frames, want 90", len(second))
	}

	// A small canvas page is read by one browser; the other stays warm and idle.
	req := koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 1, VideoPath: filepath.Join(dir, "c.mp4")}
	if _, _, err := render(t, r, req); err != nil {
		t.Fatalf("canvas render: %v", err)
	}
	if p := ffprobe(t, req.VideoPath); p.Streams[0].NbFrames != "15" {
		t.Errorf("canvas render has %s frames, want 15", p.Streams[0].NbFrames)
	}
	if n := launches.n.Load(); n != started {
		t.Errorf("canvas render started %d browsers; want the warm ones", n-started)
	}

	// A page that throws: the browser that served it is closed, not kept.
	before := r.WarmBrowsers()
	bad := koda.RenderRequest{Dir: fixture("throws"), Preset: small, DurationS: 1, VideoPath: filepath.Join(dir, "bad.mp4")}
	if _, _, err := render(t, r, bad); err == nil {
		t.Fatal("render of a throwing page succeeded")
	}
	if after := r.WarmBrowsers(); after >= before {
		t.Errorf("%d warm browsers after a failed render, %d before; want the failed render's browser closed", after, before)
	}

	r.Close()
	if n := r.WarmBrowsers(); n != 0 {
		t.Errorf("%d warm browsers after Close", n)
	}
	waitNoLeftovers(t, tmp)
}

// TestWarmBrowsersExpire: idle browsers are closed after KeepWarm.
func TestWarmBrowsersExpire(t *testing.T) {
	var launches launchCounter
	r, tmp := setup(t, warm(&launches, func(c *renderer.Config) {
		c.Browsers = 1
		c.KeepWarm = 500 * time.Millisecond
	}))
	t.Cleanup(r.Close)
	req := koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 1, VideoPath: filepath.Join(t.TempDir(), "v.mp4")}
	if _, _, err := render(t, r, req); err != nil {
		t.Fatalf("render: %v", err)
	}
	if r.WarmBrowsers() != 1 {
		t.Fatalf("%d warm browsers after the render, want 1", r.WarmBrowsers())
	}
	deadline := time.Now().Add(5 * time.Second)
	for r.WarmBrowsers() > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if r.WarmBrowsers() != 0 {
		t.Fatal("idle browser still kept after KeepWarm")
	}
	waitNoLeftovers(t, tmp)
}

// TestSandboxWarmBrowserFollowsPage: a sandboxed browser kept warm reaches the next
// render's page server (another port) through a new forwarded port, and nothing of it
// runs after Close.
func TestSandboxWarmBrowserFollowsPage(t *testing.T) {
	var launches launchCounter
	r, _ := setup(t, warm(&launches, sandboxed))
	t.Cleanup(r.Close)
	var hashes [2]string
	for k := range hashes {
		req := koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 1,
			VideoPath: filepath.Join(t.TempDir(), "v.mp4")}
		if _, _, err := render(t, r, req); err != nil {
			t.Fatalf("sandboxed render %d: %v", k, err)
		}
		hashes[k] = strings.Join(frameHashes(t, req.VideoPath), ",")
	}
	if n := launches.n.Load(); n != 1 {
		t.Errorf("%d sandboxed browsers started for two renders, want 1", n)
	}
	if hashes[0] != hashes[1] {
		t.Error("the warm sandboxed browser rendered different frames")
	}
	r.Close()
	noSandboxLeftovers(t)
}

// TestWarmBrowsersForgetPages: what one render's page leaves in a warm browser —
// a cookie (per host, so any later loopback page would see it), localStorage,
// IndexedDB — is gone for the next render, which may be another tenant's.
func TestWarmBrowsersForgetPages(t *testing.T) {
	var launches launchCounter
	r, _ := setup(t, warm(&launches, func(c *renderer.Config) { c.Browsers = 1 }))
	t.Cleanup(r.Close)
	page := func(script string) string {
		dir := t.TempDir()
		html := `<!doctype html><canvas id=c width=64 height=36></canvas><script>
let found = "";
` + script + `
window.__exportSeekTo = t => {
  if (found) throw new Error("CARRIED OVER: " + found);
  const g = document.getElementById("c").getContext("2d"); g.fillStyle = "#36c"; g.fillRect(0, 0, 64, 36);
};
</script>`
		if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	writer := page(`document.cookie = "tenant=a; max-age=3600; path=/";
localStorage.setItem("tenant", "a");
const rq = indexedDB.open("koda", 1);
rq.onupgradeneeded = () => rq.result.createObjectStore("s");
rq.onsuccess = () => { const tx = rq.result.transaction("s", "readwrite"); tx.objectStore("s").put("a", "tenant"); tx.oncomplete = () => { window.__exportReady = true; }; };`)
	reader := page(`if (document.cookie.includes("tenant=")) found += "cookie ";
if (localStorage.length) found += "localStorage ";
indexedDB.databases().then(dbs => { if (dbs.length) found += "indexedDB "; window.__exportReady = true; });`)
	dir := t.TempDir()
	for i, d := range []string{writer, reader} {
		req := koda.RenderRequest{Dir: d, Preset: small, DurationS: 0.4, VideoPath: filepath.Join(dir, fmt.Sprintf("%d.mp4", i))}
		if _, _, err := render(t, r, req); err != nil {
			t.Fatalf("render %d: %v", i, err)
		}
	}
	if n := launches.n.Load(); n != 1 {
		t.Fatalf("%d browsers started; the second render must use the warm one", n)
	}
}

// TestCanvasPageStartsOneBrowser: a page whose scripts draw on a canvas is captured
// raw by one browser, so a cold render does not start a second one while the first
// probes, only to close it unused. (DOM pages still get two: TestWarmBrowsersReused.)
func TestCanvasPageStartsOneBrowser(t *testing.T) {
	var launches launchCounter
	r, _ := setup(t, func(c *renderer.Config) { c.Browsers, c.Logger = 2, slog.New(&launches) })
	// Above the small-frame size, where a canvas page alone would not say one browser.
	hd := koda.PresetSpec{Name: "test", Width: 1280, Height: 720, FPS: 15, CRF: 28, Format: koda.FormatMP4}
	req := koda.RenderRequest{Dir: fixture("canvas"), Preset: hd, DurationS: 2, VideoPath: filepath.Join(t.TempDir(), "c.mp4")}
	if _, _, err := render(t, r, req); err != nil {
		t.Fatal(err)
	}
	if n := launches.n.Load(); n != 1 {
		t.Errorf("%d browsers started, want 1", n)
	}
	if s := ffprobe(t, req.VideoPath).Streams[0]; s.NbFrames != "30" {
		t.Errorf("%s frames, want 30", s.NbFrames)
	}
}
