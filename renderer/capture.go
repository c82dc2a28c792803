package renderer

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda"
)

// minFramesPerBrowser keeps short renders from paying for browsers they barely use:
// starting one costs about as much as capturing a dozen small frames.
const minFramesPerBrowser = 12

// smallFrame is the frame area (pixels) below which a canvas page is captured by one
// browser only.
const smallFrame = 1280 * 720

// captureMode says how a tab turns the page into a frame.
type captureMode int

const (
	// modeScreenshot captures the compositor's output (Page.captureScreenshot, JPEG).
	modeScreenshot captureMode = iota
	// modeCanvas reads a JPEG straight from the page's only, full-frame 2D canvas, which
	// skips compositing and the screenshot path entirely.
	modeCanvas
	// modePNG is modeScreenshot losslessly, for comparing with raw canvas pixels.
	modePNG
	// modeCanvasRaw reads the canvas's pixels with VideoFrame.copyTo and sends them over
	// the tab's frame socket (sink.go): no JPEG to encode, base64 or decode.
	modeCanvasRaw
)

// pageKind records what the first tab learnt about the page, so the other tabs start
// in the right mode without probing again.
type pageKind struct {
	virtual bool // no export hooks: drive the page with the injected virtual clock
	canvas  bool // frames may be read from the page's canvas
	raw     bool // canvas frames travel as raw pixels over a frame socket
}

// frame is one captured picture: a JPEG, or with raw the job's width×height in BGRX
// pixels, in a buffer of the job's pixel pool.
type frame struct {
	data []byte
	raw  bool
}

// frameResult is one captured frame on its way to the encoder.
type frameResult struct {
	i int
	f frame
}

// capture captures frames [j.start, j.end) with up to cfg.Browsers browsers and calls
// emit for each in frame order. emit owns a raw frame's buffer: it puts it back in
// j.pixels once nothing reads it any more.
func (r *Renderer) capture(ctx context.Context, j *job, emit func(i int, f frame) error) error {
	n := r.browsers(j)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)

	// The window bounds frames held in memory: a worker takes a token before it takes a
	// frame index, and the token returns once that frame reached the encoder. Indices
	// are taken in order, so the oldest missing frame always belongs to a running
	// worker and the collector cannot starve.
	window := 3 * n
	tokens := make(chan struct{}, window)
	results := make(chan frameResult, window)
	var next atomic.Int64
	next.Store(int64(j.start))

	// The first worker probes the page; the others wait for its verdict.
	var kind pageKind
	probed := make(chan struct{})
	var probeOnce sync.Once
	setKind := func(k pageKind) { probeOnce.Do(func() { kind = k; close(probed) }) }

	var used []*browser
	var usedMu sync.Mutex
	handBack := func(b *browser) {
		usedMu.Lock()
		used = append(used, b)
		usedMu.Unlock()
	}
	var wg sync.WaitGroup
	var firstErr error
	var errOnce sync.Once
	fail := func(err error) {
		errOnce.Do(func() { firstErr = err; cancel(err) })
	}
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			// Worker 0 probes the page; the others start their browsers meanwhile and
			// wait for its verdict before opening the page.
			verdict := func() (*pageKind, bool) {
				if w == 0 {
					return nil, true
				}
				select {
				case <-probed:
					return &kind, true
				case <-ctx.Done():
					return nil, false
				}
			}
			err := r.worker(ctx, j, w, verdict, setKind, tokens, &next, results, handBack)
			if err != nil {
				fail(err)
			}
		}(w)
	}
	go func() { wg.Wait(); close(results) }()

	pending := make(map[int]frame)
	want := j.start
collect:
	for want < j.end {
		var res frameResult
		var ok bool
		select {
		case res, ok = <-results:
			if !ok {
				break collect
			}
		case <-ctx.Done():
			break collect
		}
		pending[res.i] = res.f
		for {
			f, ok := pending[want]
			if !ok {
				break
			}
			delete(pending, want)
			if err := emit(want, f); err != nil {
				fail(err)
				break collect
			}
			want++
			<-tokens
		}
	}
	cancel(errors.New("capture finished"))
	for range results { // let workers finish closing their tabs
	}
	wg.Wait()
	r.release(used, firstErr == nil && want >= j.end)
	if firstErr != nil {
		return firstErr
	}
	if want < j.end {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return fmt.Errorf("capture stopped at frame %d of [%d,%d)", want, j.start, j.end)
	}
	return nil
}

// browsers is how many browsers capture j: short renders do not pay for browsers they
// barely use.
func (r *Renderer) browsers(j *job) int {
	return min(r.cfg.Browsers, max(1, j.frames()/minFramesPerBrowser))
}

// release keeps the browsers of a successful capture warm (when the pool is on) and
// closes all others, in parallel: closing one takes a few hundred milliseconds.
func (r *Renderer) release(used []*browser, ok bool) {
	var wg sync.WaitGroup
	for _, b := range used {
		if ok {
			wg.Go(func() { r.pool.put(b) })
		} else {
			wg.Go(b.close)
		}
	}
	wg.Wait()
}

// worker runs one browser, taking frame indices until none are left. A browser that
// dies under it is replaced up to cfg.Retries times and the frame is captured again.
//
// Its browser, if it has one at the end, goes to handBack with its tab closed: capture
// decides, once the render's outcome is known, whether it stays warm.
func (r *Renderer) worker(ctx context.Context, j *job, w int, verdict func() (*pageKind, bool), setKind func(pageKind),
	tokens chan struct{}, next *atomic.Int64, results chan<- frameResult, handBack func(*browser)) error {
	retries := r.cfg.Retries
	var known *pageKind
	var b *browser
	var t *tab
	defer func() {
		if t != nil {
			t.close()
		}
		if b != nil {
			handBack(b)
		}
	}()
	restart := func() {
		if t != nil {
			t.close()
			t = nil
		}
		if b != nil {
			b.close()
			b = nil
		}
	}

	// A small canvas is read fastest by one browser alone: a second one's processes
	// cost more in context switches than they add (benchmarks: 640×360 preview, 2.1 s
	// with one browser, 3.3 s with two). So the other workers wait for the probe of a
	// small page before they take a frame or a browser.
	if w > 0 && j.preset.Width*j.preset.Height < smallFrame {
		var ok bool
		if known, ok = verdict(); !ok || known.canvas {
			return nil
		}
	}

	// Raw canvas frames cost the browser so little that ffmpeg needs about as much CPU
	// as the browsers: half of them is faster (1080p60 canvas on 2 cores: 23 s with
	// one browser, 31 s with two). The surplus leaves once the probe says raw.
	surplus := func() bool { return known != nil && known.raw && w >= (r.browsers(j)+1)/2 }

	// A page whose scripts draw on a canvas most likely sends raw frames, so a worker
	// that would be surplus then waits for the probe before it starts a browser: one
	// started meanwhile would load the page, compete with the probing browser for the
	// cores, and be closed unused.
	if known == nil && j.canvas && w >= (r.browsers(j)+1)/2 {
		var ok bool
		if known, ok = verdict(); !ok || surplus() {
			return nil
		}
	}

	// i is the frame this worker is on; it takes the next once its tab is ready, so a
	// frame never waits for a browser to start or a page to load.
	i := -1
	for {
		var err error
		if b == nil {
			if b, err = r.browserFor(ctx, j); err != nil {
				if ctx.Err() != nil {
					// The capture ended (or failed elsewhere) while this browser started:
					// no error of this worker's.
					return nil
				}
				return err
			}
		}
		if t != nil && r.cfg.TabFrames > 0 && t.frames >= r.cfg.TabFrames {
			t.close()
			t = nil
		}
		if t == nil {
			if i < 0 && next.Load() >= int64(j.end) {
				return nil
			}
			// Only worker 0 probes. The others load a page with export hooks meanwhile,
			// and learn the rest (may frames come from the canvas?) once it is loaded.
			// A page for the virtual clock waits for the probe, as before: loaded in
			// parallel, a CSS animation's first frame came out 4 px off (TestVirtualClock).
			if known == nil && w > 0 && j.hooks != hooksPresent {
				var ok bool
				if known, ok = verdict(); !ok || surplus() {
					return nil
				}
			}
			probe := w == 0 && known == nil
			t, err = r.openTab(ctx, b, j, known, probe)
			if err == nil && probe {
				k := t.kind
				known = &k
				setKind(k)
			}
			if err == nil && known == nil {
				var ok bool
				if known, ok = verdict(); !ok || surplus() {
					return nil
				}
				if err = t.adopt(ctx, *known); errors.Is(err, errReload) {
					t.close()
					t = nil
					continue
				}
			}
		}
		if err == nil && i < 0 {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return nil
			}
			if i = int(next.Add(1) - 1); i >= j.end {
				return nil
			}
		}
		var f frame
		if err == nil {
			if f, err = t.frame(ctx, i); err == nil {
				b.frames++
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil // another worker failed or the caller cancelled
			}
			if retries > 0 && (errors.Is(err, errTabGone) || !b.alive()) {
				retries--
				r.log.Warn("browser died; restarting", "worker", w, "frame", i, "err", err)
				restart()
				continue
			}
			return err
		}
		select {
		case results <- frameResult{i: i, f: f}:
		case <-ctx.Done():
			return nil
		}
		i = -1
	}
}

// tab is one page loaded and ready for seeking.
type tab struct {
	r      *Renderer
	ctx    context.Context
	cancel context.CancelFunc
	j      *job
	kind   pageKind
	mode   captureMode
	frames int
	sink   *frameConn // with modeCanvasRaw
	// bf: the tab's browser runs under begin-frame control; its frames are begun (and
	// screenshots taken) one at a time under bfMu (beginframe.go).
	bf   bool
	bfMu sync.Mutex
	// seeksKnown: the tab's first seek found out whether its seeks need frames pumped;
	// quietSeeks: they did not (beginframe.go).
	seeksKnown, quietSeeks bool

	crashed atomic.Bool

	mu        sync.Mutex
	exception string // first uncaught exception, for error messages
}

// errTabGone marks a frame lost because the tab or its browser died, which a fresh
// browser may retry.
var errTabGone = errors.New("browser tab gone")

// close closes the tab and waits until the browser has closed its page, so a browser
// kept warm holds none of this render's pages.
func (t *tab) close() {
	// The frame socket goes first, so the page sees it end instead of starting a closing
	// handshake nobody answers.
	if t.sink != nil {
		t.sink.close()
	}
	if c := chromedp.FromContext(t.ctx); c != nil && c.Browser != nil && c.Target != nil && !t.crashed.Load() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		_ = target.CloseTarget(c.Target.TargetID).Do(cdp.WithExecutor(ctx, c.Browser))
		cancel()
	}
	t.cancel()
}

func (t *tab) thrown() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.exception
}

// openTab opens the page in a new tab of b and waits until it is ready. With probe it
// also finds out whether the page has export hooks and a canvas to read from; with
// neither probe nor known, the caller learns that later and calls adopt.
func (r *Renderer) openTab(ctx context.Context, b *browser, j *job, known *pageKind, probe bool) (*tab, error) {
	began := time.Now()
	tctx, cancel, spare := b.takeSpare(ctx)
	if !spare {
		tctx, cancel = newTab(b.ctx)
	}
	t := &tab{r: r, ctx: tctx, cancel: cancel, j: j, bf: b.beginFrame}
	chromedp.ListenTarget(tctx, func(ev any) {
		switch e := ev.(type) {
		case *cdpruntime.EventExceptionThrown:
			t.mu.Lock()
			if t.exception == "" {
				t.exception = exceptionText(e.ExceptionDetails)
			}
			t.mu.Unlock()
		case *inspector.EventTargetCrashed:
			// The renderer process died; nothing will answer on this tab again.
			t.crashed.Store(true)
			go cancel()
		}
	})
	stop := context.AfterFunc(ctx, cancel)
	defer stop()

	// The first Run creates the tab, whose event loop lives as long as the context
	// given to that Run; so it gets the tab's own context, bounded by a timer instead.
	var err error
	if !spare {
		timer := time.AfterFunc(r.cfg.ReadyTimeout, cancel)
		err = chromedp.Run(tctx)
		timer.Stop()
	}
	rctx, rcancel := context.WithTimeout(tctx, r.cfg.ReadyTimeout)
	defer rcancel()
	virtual := j.hooks == hooksAbsent
	if known != nil {
		virtual = known.virtual
	}
	if err == nil {
		err = chromedp.Run(rctx,
			// chromedp enables the Network domain, which would copy every frame sent
			// over the frame socket into a DevTools event.
			network.Disable(),
			emulation.SetDeviceMetricsOverride(int64(j.preset.Width), int64(j.preset.Height), 1, false),
			emulation.SetScrollbarsHidden(true),
			// A tab Chrome considers hidden produces no frames, and screenshots wait forever.
			page.BringToFront(),
			emulation.SetFocusEmulationEnabled(true),
		)
	}
	// Under begin-frame control the page draws nothing unless asked: frames are produced
	// while it loads, for pages that wait for an animation frame before they are ready.
	stopPump := func() int { return 0 }
	if err == nil {
		if c := chromedp.FromContext(tctx); c != nil && c.Target != nil {
			stopPump = t.pump(cdp.WithExecutor(rctx, c.Target), 0)
		}
	}
	defer func() { stopPump() }()
	if err == nil {
		err = t.load(rctx, virtual)
	}
	var bare bool
	if err == nil {
		bare, err = t.waitReady(rctx, probe && j.hooks == hooksUnknown)
	}
	if err == nil && bare {
		// No hooks after the load event: load it again under the virtual clock.
		virtual = true
		if err = t.load(rctx, true); err == nil {
			_, err = t.waitReady(rctx, false)
		}
	}
	if err == nil {
		if known != nil {
			t.kind = *known
			if t.kind.canvas {
				var single bool
				if err = chromedp.Run(rctx, chromedp.Evaluate(canvasProbeJS, &single)); err == nil && !single {
					t.kind.canvas = false // the page differs between loads; play safe
				}
			}
			if err == nil && t.kind.canvas && t.kind.raw {
				err = t.openSink(rctx)
			}
		} else if probe {
			t.kind, err = t.probe(rctx)
			t.kind.virtual = virtual
		} else {
			t.kind.virtual = virtual
		}
	}
	if err != nil {
		cancel()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ke *koda.Error
		if errors.As(err, &ke) {
			return nil, err
		}
		if rctx.Err() != nil {
			if ex := t.thrown(); ex != "" {
				return nil, renderFailed(err, "page threw before it was ready: %s", ex)
			}
			return nil, renderTimeout(err, "page did not set window.__exportReady within %s", r.cfg.ReadyTimeout)
		}
		return nil, fmt.Errorf("open page: %w", err)
	}
	stopPump()
	t.setMode()
	if err := t.hideCanvas(ctx); err != nil {
		cancel()
		return nil, err
	}
	r.log.Debug("page ready", "url", j.url, "virtual", t.kind.virtual, "canvas", t.kind.canvas, "took", time.Since(began))
	return t, nil
}

// errReload says a tab loaded before the probe's verdict must be loaded again.
var errReload = errors.New("tab must be reloaded")

// adopt applies the probe's verdict to a tab that loaded the page without it.
func (t *tab) adopt(ctx context.Context, k pageKind) error {
	if k.virtual != t.kind.virtual {
		return errReload
	}
	if k.canvas {
		rctx, cancel := context.WithTimeout(t.ctx, t.r.cfg.ReadyTimeout)
		defer cancel()
		stop := context.AfterFunc(ctx, cancel)
		defer stop()
		var single bool
		if err := chromedp.Run(rctx, chromedp.Evaluate(canvasProbeJS, &single)); err != nil {
			return fmt.Errorf("canvas check: %w", err)
		}
		// A page that differs between loads gets screenshots; play safe.
		k.canvas = single
		if k.canvas && k.raw {
			if err := t.openSink(rctx); err != nil {
				return err
			}
		}
	}
	t.kind = k
	t.setMode()
	return t.hideCanvas(ctx)
}

// hideCanvasJS takes the canvas a tab reads its frames from out of the page's painting.
// Its pixels stay what the page draws, and are read from the canvas itself; but shown,
// every frame would also be painted and composited into a picture nobody looks at (on 2
// cores, 1080p60: a fifth of the browser's CPU).
const hideCanvasJS = `window.__kodaCanvas.style.setProperty('visibility', 'hidden', 'important'); true`

// hideCanvas hides the canvas of a tab that reads frames from it; the canvas check and
// the probe's comparison with a screenshot came first.
func (t *tab) hideCanvas(ctx context.Context) error {
	if t.mode != modeCanvas && t.mode != modeCanvasRaw {
		return nil
	}
	rctx, cancel := context.WithTimeout(t.ctx, t.r.cfg.ReadyTimeout)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	if err := chromedp.Run(rctx, chromedp.Evaluate(hideCanvasJS, nil)); err != nil {
		return fmt.Errorf("hide canvas: %w", err)
	}
	return nil
}

// setMode picks the capture mode the page's kind allows.
func (t *tab) setMode() {
	switch {
	case t.kind.canvas && t.kind.raw:
		t.mode = modeCanvasRaw
	case t.kind.canvas:
		t.mode = modeCanvas
	default:
		t.mode = modeScreenshot
	}
}

// sinkJS opens the tab's frame socket on the page's own origin. It resolves to "" once
// the socket is open, or to the reason it could not be.
const sinkJS = `(path) => new Promise(resolve => {
  if (typeof VideoFrame !== 'function') return resolve('this browser has no VideoFrame');
  let ws;
  try { ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + path); }
  catch (e) { return resolve(String(e)); }
  ws.binaryType = 'arraybuffer';
  ws.onopen = () => { window.__kodaSink = ws; resolve(''); };
  ws.onerror = () => resolve('the frame socket did not open');
})`

// openSink connects the tab to the render's frame sink.
func (t *tab) openSink(ctx context.Context) error {
	if t.j.sink == nil {
		return errors.New("frame socket: the page is not served by the renderer")
	}
	path, conns, forget := t.j.sink.expect()
	defer forget()
	var why string
	err := chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		var err error
		why, err = t.eval(ctx, "("+sinkJS+")("+strconv.Quote(path)+")")
		return err
	}))
	if err != nil {
		return fmt.Errorf("frame socket: %w", err)
	}
	if why != "" {
		return fmt.Errorf("frame socket: %s", why)
	}
	select {
	case c := <-conns:
		t.sink = newFrameConn(c)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// rawFrameJS seeks the page and sends the canvas's pixels as one binary message of
// exactly width×height×4 bytes, BGRX, reusing one buffer. It resolves to "" when sent,
// or to what is wrong with the canvas.
func rawFrameJS(sec string, w, h int) string {
	ws, hs := strconv.Itoa(w), strconv.Itoa(h)
	return `(async () => {
  await window.__exportSeekTo(` + sec + `);
  const f = new VideoFrame(window.__kodaCanvas, {timestamp: 0, alpha: 'discard'});
  try {
    if (f.visibleRect.width !== ` + ws + ` || f.visibleRect.height !== ` + hs + `)
      return 'the canvas is ' + f.visibleRect.width + 'x' + f.visibleRect.height + ', not ` + ws + `x` + hs + `';
    let b = window.__kodaPixels;
    if (!b || b.length !== ` + ws + ` * ` + hs + ` * 4) b = window.__kodaPixels = new Uint8Array(` + ws + ` * ` + hs + ` * 4);
    await f.copyTo(b, {format: 'BGRX', layout: [{offset: 0, stride: ` + ws + ` * 4}]});
    window.__kodaSink.send(b);
  } finally { f.close(); }
  return '';
})()`
}

// load navigates the tab to the page, first installing the virtual clock if asked.
// It does not wait for the load event: a page may be ready (or hang) before it, and
// readiness is what counts.
func (t *tab) load(ctx context.Context, virtual bool) error {
	return chromedp.Run(ctx, chromedp.ActionFunc(func(ctx context.Context) error {
		if virtual {
			if _, err := page.AddScriptToEvaluateOnNewDocument(virtualClockScript(t.j.preset.FPS, t.r.cfg.RandomSeed)).Do(ctx); err != nil {
				return fmt.Errorf("install virtual clock: %w", err)
			}
		}
		_, _, errText, _, err := page.Navigate(t.j.url).Do(ctx)
		if err != nil {
			return err
		}
		if errText != "" {
			return renderFailed(nil, "load %s: %s", t.j.url, errText)
		}
		return nil
	}))
}

// bareGrace is how long a loaded page without any export hook is given to define one
// before it is treated as a page for the virtual clock.
const bareGrace = time.Second

// readyStateJS tells a ready page from one still loading and from a loaded page that
// shows no sign of the export protocol.
const readyStateJS = `window.__exportReady === true ? 'ready' :
  (document.readyState === 'complete' && typeof window.__exportSeekTo === 'undefined' &&
   typeof window.__exportReady === 'undefined') ? 'bare' : 'wait'`

// waitReady polls window.__exportReady and then waits for web fonts, so the first frame
// never shows fallback glyphs. With detect, it instead reports bare = true for a page
// that stays loaded without hooks for bareGrace.
func (t *tab) waitReady(ctx context.Context, detect bool) (bare bool, err error) {
	var bareSince time.Time
	for {
		var state string
		if err := chromedp.Run(ctx, chromedp.Evaluate(readyStateJS, &state)); err != nil {
			return false, err
		}
		if state == "ready" {
			break
		}
		if detect && state == "bare" {
			if bareSince.IsZero() {
				bareSince = time.Now()
			} else if time.Since(bareSince) >= bareGrace {
				return true, nil
			}
		} else {
			bareSince = time.Time{}
		}
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
	var hooks bool
	if err := chromedp.Run(ctx, chromedp.Evaluate(`typeof window.__exportSeekTo === 'function'`, &hooks)); err != nil {
		return false, err
	}
	if !hooks {
		return false, renderFailed(nil, "page set __exportReady but defines no window.__exportSeekTo(t)")
	}
	return false, chromedp.Run(ctx, chromedp.Evaluate(`document.fonts ? document.fonts.ready.then(() => true) : true`, nil,
		func(p *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return p.WithAwaitPromise(true) }))
}

// canvasProbeJS finds a page whose picture is exactly one 2D canvas: the canvas's
// backing store has the viewport's size and covers it, and no other element has a
// visible box. It remembers the canvas as window.__kodaCanvas.
const canvasProbeJS = `(() => {
  const cs = document.getElementsByTagName('canvas');
  if (cs.length !== 1) return false;
  const c = cs[0], W = innerWidth, H = innerHeight;
  if (c.width !== W || c.height !== H) return false;
  const r = c.getBoundingClientRect();
  if (Math.abs(r.left) > 0.5 || Math.abs(r.top) > 0.5 || Math.abs(r.width - W) > 0.5 || Math.abs(r.height - H) > 0.5) return false;
  let g = null;
  try { g = c.getContext('2d'); } catch (e) { return false; }
  if (!g) return false;
  const chain = new Set();
  for (let e = c; e; e = e.parentElement) {
    chain.add(e);
    const s = getComputedStyle(e);
    if (s.opacity !== '1' || s.filter !== 'none' || (e === c && s.transform !== 'none') || s.mixBlendMode !== 'normal') return false;
  }
  const skip = new Set(['SCRIPT', 'STYLE', 'LINK', 'META', 'TEMPLATE', 'NOSCRIPT', 'TITLE']);
  for (const e of document.body.getElementsByTagName('*')) {
    if (chain.has(e) || skip.has(e.tagName)) continue;
    const b = e.getBoundingClientRect();
    if (b.width > 0 && b.height > 0 && getComputedStyle(e).visibility !== 'hidden') return false;
  }
  window.__kodaCanvas = c;
  return true;
})()`

// canvasTolerance is the mean absolute difference per channel (0..255) allowed between
// a canvas frame and a screenshot of the same frame: JPEG noise stays well below it, a
// missing background or overlay does not.
const canvasTolerance = 2.5

// probe looks at the ready page once: may frames be read from its canvas? The cheap
// structural test is confirmed by capturing the first frame both ways, which catches
// what it cannot see (transparent pixels over a page background, pseudo-elements).
func (t *tab) probe(ctx context.Context) (pageKind, error) {
	var k pageKind
	if t.r.cfg.DisableCanvasCapture {
		return k, nil
	}
	var single bool
	if err := chromedp.Run(ctx, chromedp.Evaluate(canvasProbeJS, &single)); err != nil {
		return k, err
	}
	if !single {
		return k, nil
	}
	// Raw pixels when the page is ours to serve and the browser can send them, compared
	// with a lossless screenshot; a JPEG from the canvas otherwise, compared with a
	// JPEG screenshot of the same quality.
	mode, shotMode := modeCanvas, modeScreenshot
	if t.j.sink != nil {
		if err := t.openSink(ctx); err != nil {
			t.r.log.Debug("canvas frames go as JPEG", "err", err)
		} else {
			mode, shotMode = modeCanvasRaw, modePNG
		}
	}
	shot, err := t.captureAs(ctx, t.j.start, shotMode)
	if err != nil {
		return k, err
	}
	fromCanvas, err := t.captureAs(ctx, t.j.start, mode)
	if err != nil {
		return k, err
	}
	diff, err := meanAbsDiff(shot, fromCanvas, t.j.preset.Width, t.j.preset.Height)
	if fromCanvas.raw {
		t.j.pixels.put(fromCanvas.data)
	}
	if err != nil {
		return k, fmt.Errorf("compare capture paths: %w", err)
	}
	k.canvas = diff <= canvasTolerance
	k.raw = k.canvas && mode == modeCanvasRaw
	t.r.log.Debug("canvas capture probe", "diff", diff, "canvas", k.canvas, "raw", k.raw)
	return k, nil
}

// frame seeks the page to frame i and captures it.
func (t *tab) frame(ctx context.Context, i int) (frame, error) {
	f, err := t.captureAs(ctx, i, t.mode)
	if err == nil {
		t.frames++
	}
	return f, err
}

func (t *tab) captureAs(ctx context.Context, i int, mode captureMode) (frame, error) {
	fctx, cancel := context.WithTimeout(t.ctx, t.r.cfg.FrameTimeout)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()

	sec := strconv.FormatFloat(float64(i)/float64(t.j.preset.FPS), 'g', -1, 64)
	var f frame
	err := chromedp.Run(fctx, chromedp.ActionFunc(func(ctx context.Context) error {
		// A seek that waits for animation frames gets them under begin-frame control.
		stopPump := t.pump(ctx, t.seekPumpDelay())
		defer func() { t.seeked(stopPump()) }()
		switch mode {
		case modeCanvasRaw:
			why, err := t.eval(ctx, rawFrameJS(sec, t.j.preset.Width, t.j.preset.Height))
			if err != nil {
				return err
			}
			if why != "" {
				return renderFailed(nil, "frame %d: %s", i, why)
			}
			// The read must end when the frame's time is up or the render is cancelled.
			dl, _ := ctx.Deadline()
			unblock := context.AfterFunc(ctx, func() { _ = t.sink.c.SetReadDeadline(time.Now()) })
			defer unblock()
			buf := t.j.pixels.get()
			if err := t.sink.read(buf, dl); err != nil {
				t.j.pixels.put(buf)
				return err
			}
			f = frame{data: buf, raw: true}
			return nil
		case modeCanvas:
			expr := `(async () => { await window.__exportSeekTo(` + sec + `); return window.__kodaCanvas.toDataURL('image/jpeg', ` +
				strconv.FormatFloat(float64(t.j.quality)/100, 'f', 2, 64) + `); })()`
			url, err := t.eval(ctx, expr)
			if err != nil {
				return err
			}
			b64, ok := strings.CutPrefix(url, "data:image/jpeg;base64,")
			if !ok {
				return renderFailed(nil, "canvas returned no JPEG at frame %d", i)
			}
			data, err := base64.StdEncoding.DecodeString(b64)
			f.data = data
			return err
		default:
			if t.bf {
				// The frame begun after the seek runs the page's animation frame
				// callbacks, style, layout, paint and compositing, and is what the
				// screenshot shows.
				if _, err := t.eval(ctx, `(async () => { await window.__exportSeekTo(`+sec+`); })()`); err != nil {
					return err
				}
				stopPump()
				data, err := t.beginFrameShot(ctx, mode == modePNG)
				f.data = data
				return err
			}
			// Two animation frames after the seek, the new style has been committed and
			// painted; a screenshot taken earlier may mix tiles of the previous frame.
			if _, err := t.eval(ctx, `(async () => { await window.__exportSeekTo(`+sec+`); `+
				`const raf = window.__kodaRAF || requestAnimationFrame; `+
				`await new Promise(r => raf(() => raf(r))); })()`); err != nil {
				return err
			}
			shot := page.CaptureScreenshot().WithOptimizeForSpeed(true)
			if mode == modePNG {
				shot = shot.WithFormat(page.CaptureScreenshotFormatPng)
			} else {
				shot = shot.WithFormat(page.CaptureScreenshotFormatJpeg).WithQuality(int64(t.j.quality))
			}
			data, err := shot.Do(ctx)
			f.data = data
			return err
		}
	}))
	if err != nil {
		var ke *koda.Error
		switch {
		case errors.As(err, &ke):
			return frame{}, err
		case ctx.Err() != nil:
			return frame{}, ctx.Err()
		case t.ctx.Err() != nil || t.crashed.Load():
			return frame{}, fmt.Errorf("frame %d: browser tab gone: %w", i, errTabGone)
		case errors.Is(fctx.Err(), context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded):
			return frame{}, renderTimeout(err, "frame %d (t=%ss) took longer than %s", i, sec, t.r.cfg.FrameTimeout)
		}
		return frame{}, fmt.Errorf("frame %d: %w", i, err)
	}
	return f, nil
}

// eval evaluates a (possibly async) expression and returns its string value; a thrown
// exception becomes RENDER_FAILED.
func (t *tab) eval(ctx context.Context, expr string) (string, error) {
	res, exc, err := cdpruntime.Evaluate(expr).WithAwaitPromise(true).WithReturnByValue(true).Do(ctx)
	if err != nil {
		return "", err
	}
	if exc != nil {
		return "", renderFailed(nil, "page threw while seeking: %s", exceptionText(exc))
	}
	if res == nil || res.Type != cdpruntime.TypeString {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(res.Value, &s); err != nil {
		return "", fmt.Errorf("decode evaluation result: %w", err)
	}
	return s, nil
}

func exceptionText(d *cdpruntime.ExceptionDetails) string {
	if d == nil {
		return ""
	}
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg = d.Exception.Description
	}
	if i := strings.IndexByte(msg, '\n'); i > 0 && len(msg) > 300 {
		msg = msg[:i]
	}
	if len(msg) > 500 {
		msg = msg[:500]
	}
	return msg
}
