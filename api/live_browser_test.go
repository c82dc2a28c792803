package api_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda/renderer"
)

// livePage is a generated page that probes its confinement and reports to its parent.
const livePage = `<!doctype html><html><head><title>live</title>
<script src="classic.js"></script>
<script type="module" src="mod.js"></script>
</head><body><canvas id=c></canvas></body></html>`

const liveModule = `
window.__exportSeekTo = function (t) { parent.postMessage({seeked: t}, "*"); };
const report = {classic: window.classicLoaded === true, module: true};
try { report.parentKey = parent.sessionStorage.getItem("koda_key"); } catch (e) { report.parentKey = "refused"; }
try { report.ownStorage = String(localStorage.length); } catch (e) { report.ownStorage = "refused"; }
// A no-cors request needs no CORS answer: only the CSP stops it from being sent.
try { await fetch("/v1/keys", {mode: "no-cors"}); report.fetch = "sent"; } catch (e) { report.fetch = "refused"; }
try { report.cookie = document.cookie; } catch (e) { report.cookie = "refused"; }
parent.postMessage(report, "*");
`

// The live page runs in a real browser the way the Studio shows it: in an iframe with
// sandbox="allow-scripts" on the API's origin. Its own scripts (classic and module)
// load, the parent's seek reaches window.__exportSeekTo, and it can neither read the
// Studio's storage nor call the API.
func TestLivePreviewInChromium(t *testing.T) {
	b := setup(t)
	p := b.create("acme", map[string]any{"prompt": "a smooth blue ball glides", "style": "smooth", "duration_s": 1})
	b.checkpoint(p.ID, map[string]string{"index.html": livePage, "classic.js": "window.classicLoaded = true;", "mod.js": liveModule})
	u := b.liveURL("acme", p.ID)
	app := b.server.App()
	// The Studio's part, as far as this test needs it: a key in session storage and the
	// sandboxed iframe; every message from the frame is collected.
	app.Get("/studio-test", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
		return c.SendString(`<!doctype html><script>sessionStorage.setItem("koda_key", "koda_secret");
window.got = []; addEventListener("message", e => got.push(e.data));</script>
<iframe id=f sandbox="allow-scripts" src="` + u + `"></iframe>`)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = app.Listener(ln) }()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(renderer.FindChromium()), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()
	var report map[string]any
	err = chromedp.Run(ctx,
		chromedp.Navigate("http://"+ln.Addr().String()+"/studio-test"),
		chromedp.Poll(`got.find(m => "module" in m) || null`, &report, chromedp.WithPollingTimeout(20*time.Second)),
	)
	if err != nil {
		t.Fatalf("live page in chromium: %v", err)
	}
	want := map[string]any{"classic": true, "module": true, "parentKey": "refused", "ownStorage": "refused", "fetch": "refused", "cookie": "refused"}
	for k, v := range want {
		if report[k] != v {
			t.Errorf("%s = %v, want %v (report %v)", k, report[k], v, report)
		}
	}
	var seeked float64
	err = chromedp.Run(ctx,
		chromedp.Evaluate(`document.getElementById("f").contentWindow.postMessage({type: "seek", t: 1.25}, "*")`, nil),
		chromedp.Poll(`(got.find(m => "seeked" in m) || {}).seeked`, &seeked, chromedp.WithPollingTimeout(10*time.Second)),
	)
	if err != nil || seeked != 1.25 {
		t.Fatalf("seek through postMessage: %v %v", seeked, err)
	}
	// play seeks on from there every frame.
	var played bool
	err = chromedp.Run(ctx,
		chromedp.Evaluate(`document.getElementById("f").contentWindow.postMessage({type: "play"}, "*")`, nil),
		chromedp.Poll(`got.some(m => "seeked" in m && m.seeked > 1.25)`, &played, chromedp.WithPollingTimeout(10*time.Second)),
	)
	if err != nil || !played {
		t.Fatalf("play after seek: %v %v", played, err)
	}
	// Opened on its own, outside any sandboxed iframe, the page still gets an opaque
	// origin from its CSP: the API origin's storage stays out of reach.
	var origin, storage string
	err = chromedp.Run(ctx,
		chromedp.Navigate("http://"+ln.Addr().String()+u),
		chromedp.Evaluate(`self.origin`, &origin),
		chromedp.Evaluate(`(() => { try { return String(sessionStorage.length) } catch (e) { return "refused" } })()`, &storage),
	)
	if err != nil || origin != "null" || storage != "refused" {
		t.Fatalf("live page at the top: origin %q, storage %q, %v", origin, storage, err)
	}
}
