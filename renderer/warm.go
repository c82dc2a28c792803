package renderer

import (
	"context"
	"sync"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// Warm browsers (Config.KeepWarm): starting Chromium costs a second or more per browser,
// which is most of a short preview's render time. A long-running worker therefore keeps
// the browsers of a finished render running for a while and hands them to the next one.
//
// Only browsers of a render that succeeded come back, after their tabs were closed; a
// failed or cancelled render closes its browsers, so a page that hung or crashed one
// never reaches the next project. Every tab is opened in a browser context of its own
// (newTab), an incognito profile disposed with the tab, so storage, cache, cookies and
// service workers never pass from one render, or tenant, to the next — not even when a
// later render's page server gets the same loopback port, hence the same origin.

// retireFrames is how many frames a browser captures, over all its renders, before it is
// closed instead of kept warm: tabs are restarted every TabFrames frames, but the
// browser process itself grows slowly too.
const retireFrames = 6000

type warmPool struct {
	keep time.Duration
	max  int

	mu     sync.Mutex
	idle   []*warmBrowser // newest last
	closed bool
}

type warmBrowser struct {
	b     *browser
	timer *time.Timer
}

func newWarmPool(keep time.Duration, max int) *warmPool {
	if keep <= 0 {
		return nil
	}
	return &warmPool{keep: keep, max: max}
}

// take returns a running idle browser, or nil. It prefers the newest one started with
// the window size asked for: a tab emulating a small viewport in a browser whose window
// is 1080p still pays for the big window (a preview took 2.3 s instead of 1.9 s).
func (p *warmPool) take(width, height int) *browser {
	if p == nil {
		return nil
	}
	for {
		p.mu.Lock()
		n := len(p.idle)
		if n == 0 {
			p.mu.Unlock()
			return nil
		}
		k := n - 1
		for i := n - 1; i >= 0; i-- {
			if b := p.idle[i].b; b.width == width && b.height == height {
				k = i
				break
			}
		}
		wb := p.idle[k]
		p.idle = append(p.idle[:k], p.idle[k+1:]...)
		p.mu.Unlock()
		wb.timer.Stop()
		if wb.b.alive() {
			return wb.b
		}
		wb.b.close()
	}
}

// put keeps b warm, or closes it when the pool is full, closed, or b is unfit.
func (p *warmPool) put(b *browser) {
	if p == nil || !b.reusable() {
		b.close()
		return
	}
	b.detach()
	p.mu.Lock()
	if p.closed || len(p.idle) >= p.max {
		p.mu.Unlock()
		b.close()
		return
	}
	if b.spare == nil {
		b.prepareSpare()
	}
	wb := &warmBrowser{b: b}
	wb.timer = time.AfterFunc(p.keep, func() { p.expire(wb) })
	p.idle = append(p.idle, wb)
	p.mu.Unlock()
}

// expire closes wb if it is still idle.
func (p *warmPool) expire(wb *warmBrowser) {
	p.mu.Lock()
	for i, x := range p.idle {
		if x == wb {
			p.idle = append(p.idle[:i], p.idle[i+1:]...)
			p.mu.Unlock()
			wb.b.close()
			return
		}
	}
	p.mu.Unlock()
}

// close closes every idle browser and makes put close browsers from now on.
func (p *warmPool) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, wb := range idle {
		wb.timer.Stop()
		wg.Go(wb.b.close)
	}
	wg.Wait()
}

// size returns the number of idle browsers.
func (p *warmPool) size() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.idle)
}

// newTab opens a tab in a new browser context, disposed when the tab detaches.
func newTab(browserCtx context.Context) (context.Context, context.CancelFunc) {
	return chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
}

// spareTab is a tab opened while its browser waits in the pool, so the next render
// does not wait for Chrome to create and attach one.
type spareTab struct {
	ctx    context.Context
	cancel context.CancelFunc
	ready  chan struct{}
	err    error
}

// prepareSpare starts opening a blank tab in the background.
func (b *browser) prepareSpare() {
	ctx, cancel := newTab(b.ctx)
	s := &spareTab{ctx: ctx, cancel: cancel, ready: make(chan struct{})}
	b.spare = s
	go func() {
		// The tab lives as long as the context its first Run gets: its own.
		timer := time.AfterFunc(30*time.Second, cancel)
		s.err = chromedp.Run(ctx)
		timer.Stop()
		close(s.ready)
	}()
}

// takeSpare returns the spare tab's context once it is open, or ok = false when there is
// none or it failed.
func (b *browser) takeSpare(ctx context.Context) (tctx context.Context, cancel context.CancelFunc, ok bool) {
	s := b.spare
	b.spare = nil
	if s == nil {
		return nil, nil, false
	}
	select {
	case <-s.ready:
	case <-ctx.Done():
		s.cancel()
		return nil, nil, false
	}
	if s.err != nil {
		s.cancel()
		return nil, nil, false
	}
	return s.ctx, s.cancel, true
}

// reusable reports whether b may serve another render: it runs, has not captured enough
// frames to be retired, and shows no more pages than it had when it started (a page that
// opened a window would otherwise leave it behind for the next project).
func (b *browser) reusable() bool {
	if !b.alive() || b.frames >= retireFrames {
		return false
	}
	// The render's tabs were just closed; the browser may take a moment to forget them.
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
	defer cancel()
	want := b.basePages
	if b.spare != nil {
		want++ // opened while idle, not used by the render that held it
	}
	for {
		pages, err := countPages(ctx)
		if err != nil {
			return false
		}
		if pages == want {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// countPages counts the page targets of the browser of ctx.
func countPages(ctx context.Context) (int, error) {
	var infos []*target.Info
	err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		infos, err = target.GetTargets().Do(ctx)
		return err
	}))
	pages := 0
	for _, in := range infos {
		if in.Type == "page" {
			pages++
		}
	}
	return pages, err
}

// Close stops the browsers kept warm. Renders still running close theirs when they end.
func (r *Renderer) Close() { r.pool.close() }

// WarmBrowsers returns how many idle browsers are kept warm right now.
func (r *Renderer) WarmBrowsers() int { return r.pool.size() }
