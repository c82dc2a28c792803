// Package stills renders a scene description's frames as stills in headless Chromium
// (the runtime the renderer records) and measures them: the prompt suite's OCR stills
// and the critic's look at every scene's hold share its browser.
package stills

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
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
		// The page's library drawings are files beside it: without this, drawing them
		// taints the canvas and its pixels cannot be read back.
		chromedp.Flag("allow-file-access-from-files", true))
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

//go:embed measure.js
var measureJS string

// Camera is the critic's eye (critic.Camera): it writes the scene's page to a temporary
// directory and measures its elements at the times asked, in a browser of its own
// started per look (Chromium) or a shared one (Browser).
type Camera struct {
	Chromium string
	Browser  *Browser
	// Long is the longer side of a still in pixels (default 480): enough to see a
	// subject and words, cheap to draw a dozen times per hold.
	Long int
}

var _ critic.Camera = (*Camera)(nil)

// Look measures d's elements at times in frame shape f.
func (c *Camera) Look(ctx context.Context, d *scene.Description, f critic.Frame, times []float64) ([]critic.Still, error) {
	br := c.Browser
	if br == nil {
		var err error
		if br, err = Start(ctx, c.Chromium); err != nil {
			return nil, err
		}
		defer br.Close()
	}
	dir, err := os.MkdirTemp("", "koda-critic-*")
	if err != nil {
		return nil, fmt.Errorf("stills: %w", err)
	}
	defer os.RemoveAll(dir)
	if err := WritePage(dir, d); err != nil {
		return nil, err
	}
	long := c.Long
	if long <= 0 {
		long = 480
	}
	k := float64(long) / math.Max(float64(f.W), float64(f.H))
	w, h := max(1, int(math.Round(float64(f.W)*k))), max(1, int(math.Round(float64(f.H)*k)))
	ts, _ := json.Marshal(times)
	tab, done := br.Tab(ctx, time.Minute)
	defer done()
	var out []critic.Still
	err = chromedp.Run(tab,
		chromedp.EmulateViewport(int64(w), int64(h)),
		chromedp.Navigate("file://"+filepath.Join(dir, scene.FileIndex)+"?t=0"),
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
