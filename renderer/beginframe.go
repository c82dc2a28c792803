package renderer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/chromedp/cdproto/headlessexperimental"
)

// Begin-frame control: Chromium's headless builds can leave the producing of frames to
// the DevTools client (HeadlessExperimental.beginFrame), which then gets the frame's
// screenshot in the same call. A page whose clock Koda holds produces a frame only when
// asked, instead of compositing one every vsync while the tab waits for a seek, and the
// screenshot needs no two animation frames of waiting before it. On 2 cores, the bench's
// 1080p DOM scene under the virtual clock: Chrome's CPU per frame 51 ms instead of 67 ms
// (a page animating in real time: 42 ms instead of 129 ms, its frames no longer drawn
// every vsync). The GPU process still composites and reads back each frame: about 28 ms.

// beginFrameFlags are the switches of a browser whose frames Koda begins itself: every
// compositor stage runs before the frame is drawn (so a screenshot shows the whole frame,
// images decoded, animations placed on the main thread) instead of on their own threads.
var beginFrameFlags = []flag{
	{"enable-begin-frame-control", ""},
	{"run-all-compositor-stages-before-draw", ""},
	{"disable-threaded-animation", ""},
	{"disable-threaded-scrolling", ""},
	{"disable-checker-imaging", ""},
}

// beginFrameVerdict caches, per Renderer, whether its browser supports begin-frame
// control: some Chromium builds dropped HeadlessExperimental. The first browser started
// with the flags finds out; a build without it is then started without them from then on.
type beginFrameVerdict struct {
	mu    sync.Mutex
	known bool
	ok    bool
}

// want says whether the next browser should start under begin-frame control.
func (v *beginFrameVerdict) want() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return !v.known || v.ok
}

// decided reports the verdict, if there is one.
func (v *beginFrameVerdict) decided() (ok, known bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.ok, v.known
}

func (v *beginFrameVerdict) set(ok bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.known {
		v.known, v.ok = true, ok
	}
}

// probeBeginFrame asks the browser's first tab (a blank page) for a frame with a
// screenshot. The first frames of a new tab may come without one while its renderer
// starts, so it tries a few times.
func probeBeginFrame(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var last error = errors.New("no screenshot")
	for range 10 {
		_, shot, err := headlessexperimental.BeginFrame().
			WithScreenshot(&headlessexperimental.ScreenshotParams{Format: headlessexperimental.ScreenshotParamsFormatPng}).Do(ctx)
		if err != nil {
			return err
		}
		if len(shot) > 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w after %v", ctx.Err(), last)
		case <-time.After(20 * time.Millisecond):
		}
	}
	return last
}

// pumpDelay is how long a seek runs before a tab under begin-frame control starts
// producing frames for it: a page's own __exportSeekTo may wait for animation frames,
// which only come when asked for. The virtual clock's seek needs none and is done sooner.
const pumpDelay = 30 * time.Millisecond

// virtualPumpDelay is pumpDelay for a page under the virtual clock, whose seek waits for
// a frame only while a new animation settles its pause. Under load its seeks often
// outlast 30 ms, and every frame pumped meanwhile is drawn for nothing (1080p DOM scene,
// load 20: 100 such frames for 300 captured; with 150 ms, 16, the video identical).
const virtualPumpDelay = 150 * time.Millisecond

// quietPumpDelay is pumpDelay for a tab whose first seek finished within firstPumpDelay
// without a frame: the page seeks without waiting for animation frames (1080p canvas
// scene, load 20: 1,339 frames pumped for nothing with 30 ms, about a millisecond of CPU
// each). A page that still waits for one now and then gets it a second later, not never.
const quietPumpDelay = time.Second

// firstPumpDelay is pumpDelay for a tab's first seek, which finds out whether the page's
// seek needs frames.
const firstPumpDelay = 250 * time.Millisecond

// seekPumpDelay is how long a seek of this tab runs before frames are pumped for it.
func (t *tab) seekPumpDelay() time.Duration {
	switch {
	case t.kind.virtual:
		return virtualPumpDelay
	case t.quietSeeks:
		return quietPumpDelay
	case !t.seeksKnown:
		return firstPumpDelay
	}
	return pumpDelay
}

// seeked records whether a seek of this tab needed frames pumped: the first one decides.
func (t *tab) seeked(pumped int) {
	if !t.seeksKnown {
		t.seeksKnown, t.quietSeeks = true, pumped == 0
	}
}

// pumpInterval paces the frames produced while a page waits for them (about 60 Hz).
const pumpInterval = 16 * time.Millisecond

// pump produces frames on a tab under begin-frame control, after delay and then every
// pumpInterval, until the returned stop is called; ctx must carry the tab's executor.
// Stop waits for a frame in flight, so the caller's next frame is its own, and returns
// how many frames were pumped.
func (t *tab) pump(ctx context.Context, delay time.Duration) (stop func() int) {
	if !t.bf {
		return func() int { return 0 }
	}
	pumped := 0
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		timer := time.NewTimer(delay)
		defer timer.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-timer.C:
			}
			t.bfMu.Lock()
			_, _, _ = headlessexperimental.BeginFrame().Do(ctx) // a failure shows in the capture itself
			t.bfMu.Unlock()
			pumped++
			timer.Reset(pumpInterval)
		}
	}()
	var once sync.Once
	return func() int { once.Do(func() { close(done); <-finished }); return pumped }
}

// beginFrameShot produces the tab's next frame and returns its screenshot: PNG, or JPEG
// of the job's quality.
func (t *tab) beginFrameShot(ctx context.Context, png bool) ([]byte, error) {
	p := &headlessexperimental.ScreenshotParams{Format: headlessexperimental.ScreenshotParamsFormatJpeg,
		Quality: int64(t.j.quality), OptimizeForSpeed: true}
	if png {
		p = &headlessexperimental.ScreenshotParams{Format: headlessexperimental.ScreenshotParamsFormatPng, OptimizeForSpeed: true}
	}
	t.bfMu.Lock()
	defer t.bfMu.Unlock()
	// A frame may come without a screenshot while the renderer is busy starting; the
	// next one has it.
	for range 5 {
		_, shot, err := headlessexperimental.BeginFrame().WithScreenshot(p).Do(ctx)
		if err != nil {
			return nil, fmt.Errorf("begin frame: %w", err)
		}
		if len(shot) > 0 {
			return shot, nil
		}
	}
	return nil, errors.New("begin frame: no screenshot in 5 frames")
}
