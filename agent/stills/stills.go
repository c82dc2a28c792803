// Package stills renders a scene description's frames as stills in headless Chromium
// (the runtime the renderer records) and measures them: the prompt suite's OCR stills
// and the critic's look at every scene's hold share its browser.
package stills

import (
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"mime"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/renderer"
)

// Browser is one headless Chromium: starting it costs a second, a still a few tens of
// milliseconds.
type Browser struct {
	ctx    context.Context
	cancel func()
	// mu: one tab at a time keeps memory flat on a small machine.
	mu sync.Mutex
}

// Start launches Chromium at path. Close ends it.
func Start(ctx context.Context, path string) (*Browser, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("hide-scrollbars", true),
		// A page never needs the network (its files are answered by the tab, see Page):
		// every connection that slips past the interception (a WebSocket, which the
		// DevTools Fetch domain does not see) goes to a proxy that cannot resolve,
		// loopback included.
		chromedp.ProxyServer("http://"+host+":1"), chromedp.Flag("proxy-bypass-list", "<-loopback>"),
		chromedp.Flag("force-webrtc-ip-handling-policy", "disable_non_proxied_udp"))
	actx, cancelA := chromedp.NewExecAllocator(context.WithoutCancel(ctx), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	if err := chromedp.Run(bctx); err != nil {
		cancelB()
		cancelA()
		return nil, fmt.Errorf("start chromium for stills: %w", err)
	}
	return &Browser{ctx: bctx, cancel: func() { cancelB(); cancelA() }}, nil
}

// Close ends the browser.
func (b *Browser) Close() { b.cancel() }

// PID is the browser process's ID (0 when unknown).
func (b *Browser) PID() int {
	if c := chromedp.FromContext(b.ctx); c != nil && c.Browser != nil && c.Browser.Process() != nil {
		return c.Browser.Process().Pid
	}
	return 0
}

// alive reports whether the browser still answers DevTools: a killed or hung Chromium
// does not, and its tabs would only fail.
func (b *Browser) alive(ctx context.Context) bool {
	if b.ctx.Err() != nil {
		return false
	}
	c := chromedp.FromContext(b.ctx)
	if c == nil || c.Browser == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, _, _, _, _, err := browser.GetVersion().Do(cdp.WithExecutor(ctx, c.Browser))
	return err == nil
}

// Warm is one Browser shared by every look of a process, started at the first look
// (Chromium costs about a second to start, a look tens of milliseconds), replaced when
// it died, and ended by Close. Its zero value with Chromium set is ready.
type Warm struct {
	Chromium string

	mu     sync.Mutex
	b      *Browser
	closed bool
}

// errWarmClosed refuses looks after Close: the process is shutting down.
var errWarmClosed = errors.New("stills: the shared browser is closed")

// Browser returns the running browser, starting one when there is none or the last
// one no longer answers.
func (w *Warm) Browser(ctx context.Context) (*Browser, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, errWarmClosed
	}
	if w.b != nil {
		if w.b.alive(ctx) {
			return w.b, nil
		}
		w.b.Close()
		w.b = nil
	}
	b, err := Start(ctx, w.Chromium)
	if err != nil {
		return nil, err
	}
	w.b = b
	return b, nil
}

// Close ends the browser; later looks are refused.
func (w *Warm) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	if w.b != nil {
		w.b.Close()
		w.b = nil
	}
}

// Tab opens a tab that lives until ctx ends or done is called, holding the browser's
// one-tab lock until then.
func (b *Browser) Tab(ctx context.Context, timeout time.Duration) (tab context.Context, done func()) {
	b.mu.Lock()
	tctx, cancel := chromedp.NewContext(b.ctx)
	tctx, cancelT := context.WithTimeout(tctx, timeout)
	stop := context.AfterFunc(ctx, cancelT)
	return tctx, func() {
		stop()
		cancelT()
		cancel()
		b.mu.Unlock()
	}
}

// host is the made-up origin a tab's page is served at: one origin for the page and
// its drawings, so drawing them does not taint the canvas. ".invalid" never resolves.
const host = "koda-stills.invalid"

// Origin is the URL the page directory's root is served at in a tab opened by Page.
const Origin = "http://" + host + "/"

// maxPageFile bounds one served file: the page's own files and drawings are small.
const maxPageFile = 32 << 20

// Page opens a tab (as Tab) of w×h CSS pixels showing dir's index.html at Origin with
// query. The tab has no file:// access and no network: every request it makes is
// paused by DevTools and either answered from dir, read the renderer's way
// (renderer.OpenPageFS: regular files beneath dir only), or failed. The page is
// tenant-controlled, and the browser runs on the host.
func (b *Browser) Page(ctx context.Context, dir, query string, w, h int, timeout time.Duration) (tab context.Context, done func(), err error) {
	pfs, err := renderer.OpenPageFS(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("stills page: %w", err)
	}
	tab, doneTab := b.Tab(ctx, timeout)
	done = func() {
		doneTab()
		_ = pfs.Close()
	}
	// Set up before the tab's first run so the listener sits on its target from the start.
	chromedp.ListenTarget(tab, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			// Answering is a DevTools call: not from the listener, which must not block.
			go answer(tab, pfs, e)
		}
	})
	err = chromedp.Run(tab,
		fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*"}}),
		chromedp.EmulateViewport(int64(w), int64(h)),
		chromedp.Navigate(Origin+scene.FileIndex+query))
	if err != nil {
		done()
		return nil, nil, fmt.Errorf("stills page: %w", err)
	}
	return tab, done, nil
}

// answer fulfils a paused request for a file of the page from pfs, and fails anything
// else: another origin, a method other than GET, a path that is not a regular file
// beneath the directory.
func answer(tab context.Context, pfs *renderer.PageFS, e *fetch.EventRequestPaused) {
	ectx := cdp.WithExecutor(tab, chromedp.FromContext(tab).Target)
	body, ctype, ok := pageFile(pfs, e.Request)
	var err error
	if ok {
		err = fetch.FulfillRequest(e.RequestID, 200).
			WithResponseHeaders([]*fetch.HeaderEntry{{Name: "Content-Type", Value: ctype}, {Name: "Cache-Control", Value: "no-store"}}).
			WithBody(base64.StdEncoding.EncodeToString(body)).Do(ectx)
	} else {
		err = fetch.FailRequest(e.RequestID, network.ErrorReasonBlockedByClient).Do(ectx)
	}
	if err != nil && tab.Err() == nil {
		slog.Debug("stills: answer a paused request", "url", e.Request.URL, "err", err)
	}
}

// pageFile reads the file req asks for, if it is one of the page's.
func pageFile(pfs *renderer.PageFS, req *network.Request) (body []byte, ctype string, ok bool) {
	if req == nil || req.Method != "GET" {
		return nil, "", false
	}
	u, err := url.Parse(req.URL)
	if err != nil || u.Scheme != "http" || u.Host != host || u.User != nil {
		return nil, "", false
	}
	name := strings.TrimPrefix(u.Path, "/")
	if !fs.ValidPath(name) || name == "." {
		return nil, "", false
	}
	f, err := pfs.Open(name)
	if err != nil {
		return nil, "", false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() > maxPageFile {
		return nil, "", false
	}
	body, err = io.ReadAll(io.LimitReader(f, maxPageFile+1))
	if err != nil || len(body) > maxPageFile {
		return nil, "", false
	}
	ctype = mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	return body, ctype, true
}

//go:embed measure.js
var measureJS string

// Camera is the critic's eye (critic.Camera): it writes the scene's page to a temporary
// directory and measures its elements at the times asked, in a shared browser (Browser,
// or Warm's, kept running between looks) or one of its own started per look (Chromium).
type Camera struct {
	Chromium string
	Browser  *Browser
	Warm     *Warm
	// Long is the longer side of a still in pixels (default 480): enough to see a
	// subject and words, cheap to draw a dozen times per hold.
	Long int
	// Folder is the project folder whose files the description names (a logo, a
	// picture, a font); "" shows none of them.
	Folder string
}

var _ critic.FilesCamera = (*Camera)(nil)

// InFolder returns a copy of c that shows the project files of dir in its stills, so
// the critic sees a logo where it is drawn and measures words in the project's font.
func (c *Camera) InFolder(dir string) critic.Camera {
	cc := *c
	cc.Folder = dir
	return &cc
}

// Look measures d's elements at times in frame shape f.
func (c *Camera) Look(ctx context.Context, d *scene.Description, f critic.Frame, times []float64) ([]critic.Still, error) {
	switch {
	case c.Browser != nil:
		return c.look(ctx, c.Browser, d, f, times)
	case c.Warm != nil:
		br, err := c.Warm.Browser(ctx)
		if err != nil {
			return nil, err
		}
		out, err := c.look(ctx, br, d, f, times)
		if err != nil && ctx.Err() == nil && !br.alive(ctx) {
			// The browser died under this look: once more in its replacement.
			if br, err = c.Warm.Browser(ctx); err != nil {
				return nil, err
			}
			return c.look(ctx, br, d, f, times)
		}
		return out, err
	default:
		br, err := Start(ctx, c.Chromium)
		if err != nil {
			return nil, err
		}
		defer br.Close()
		return c.look(ctx, br, d, f, times)
	}
}

func (c *Camera) look(ctx context.Context, br *Browser, d *scene.Description, f critic.Frame, times []float64) ([]critic.Still, error) {
	dir, err := os.MkdirTemp("", "koda-critic-*")
	if err != nil {
		return nil, fmt.Errorf("stills: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := WritePage(dir, d); err != nil {
		return nil, err
	}
	if err := copyProjectFiles(c.Folder, dir, d); err != nil {
		return nil, err
	}
	long := c.Long
	if long <= 0 {
		long = 480
	}
	k := float64(long) / math.Max(float64(f.W), float64(f.H))
	w, h := max(1, int(math.Round(float64(f.W)*k))), max(1, int(math.Round(float64(f.H)*k)))
	ts, _ := json.Marshal(times)
	tab, done, err := br.Page(ctx, dir, "?t=0", w, h, time.Minute)
	if err != nil {
		return nil, fmt.Errorf("stills of %s frame: %w", f.Name, err)
	}
	defer done()
	var out []critic.Still
	err = chromedp.Run(tab,
		chromedp.Poll("window.__exportReady === true", nil, chromedp.WithPollingTimeout(20*time.Second)),
		chromedp.Evaluate(strings.Replace(measureJS, "%s", string(ts), 1), &out),
	)
	if err != nil {
		return nil, fmt.Errorf("stills of %s frame: %w", f.Name, err)
	}
	return out, nil
}

// WritePage writes the files that play d (index.html, runtime.js, scene.json, scene.js
// and the library drawings it names) into dir.
func WritePage(dir string, d *scene.Description) error {
	js, err := d.JSON()
	if err != nil {
		return fmt.Errorf("stills: %w", err)
	}
	script, err := d.Script()
	if err != nil {
		return fmt.Errorf("stills: %w", err)
	}
	files := []scene.File{
		{Path: scene.FileIndex, Data: []byte(scene.IndexHTML())},
		{Path: scene.FileRuntime, Data: []byte(scene.RuntimeJS())},
		{Path: scene.FileJSON, Data: js},
		{Path: scene.FileScene, Data: script},
	}
	files = append(files, d.AssetFiles()...)
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if !strings.HasPrefix(p, filepath.Clean(dir)+string(filepath.Separator)) {
			return fmt.Errorf("stills: file %q leaves the page directory", f.Path)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("stills: %w", err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			return fmt.Errorf("stills: %w", err)
		}
	}
	return nil
}

// copyProjectFiles copies the project files d names (image and logo sources, its font)
// from the folder from into the page directory to, confined to from: a name that
// leaves it, or a file missing there, is skipped (the still then shows what the
// renderer would: nothing).
func copyProjectFiles(from, to string, d *scene.Description) error {
	if from == "" {
		return nil
	}
	var names []string
	for _, e := range d.Elements {
		if (e.Type == scene.TypeImage || e.Type == scene.TypeLogo) && e.Src != "" {
			names = append(names, e.Src)
		}
	}
	if d.Font != nil {
		names = append(names, d.Font.Src)
	}
	if len(names) == 0 {
		return nil
	}
	root, err := os.OpenRoot(from)
	if err != nil {
		return fmt.Errorf("stills: open project folder: %w", err)
	}
	defer root.Close()
	for _, name := range names {
		data, err := root.ReadFile(filepath.FromSlash(name))
		if err != nil {
			continue
		}
		p := filepath.Join(to, filepath.FromSlash(name))
		if !strings.HasPrefix(p, filepath.Clean(to)+string(filepath.Separator)) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("stills: %w", err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return fmt.Errorf("stills: %w", err)
		}
	}
	return nil
}
