package scene_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/renderer"
)

// The motion tests play small scenes in headless Chromium and measure the rendered
// pixels: every motion is judged by what it draws, on a black background where anything
// bright is the element.

var browserOnce struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	err    error
}

func browser(t *testing.T) context.Context {
	t.Helper()
	browserOnce.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(renderer.FindChromium()), chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true), chromedp.Flag("hide-scrollbars", true))
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelC := chromedp.NewContext(actx)
		browserOnce.ctx, browserOnce.cancel = ctx, func() { cancelC(); cancelA() }
		browserOnce.err = chromedp.Run(ctx)
	})
	if browserOnce.err != nil {
		t.Fatalf("start chromium: %v", browserOnce.err)
	}
	return browserOnce.ctx
}

func TestMain(m *testing.M) {
	code := m.Run()
	if browserOnce.cancel != nil {
		browserOnce.cancel()
	}
	os.Exit(code)
}

const fw, fh = 320, 180 // frame size of the motion tests

// stage is a scene loaded in a page, ready to seek.
type stage struct {
	t   *testing.T
	ctx context.Context
}

func load(t *testing.T, d *scene.Description) *stage {
	t.Helper()
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	js, err := d.Script()
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{scene.FileIndex: scene.IndexHTML(), scene.FileRuntime: scene.RuntimeJS(), scene.FileScene: js} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := chromedp.NewContext(browser(t))
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelT)
	if err := chromedp.Run(ctx,
		chromedp.EmulateViewport(fw, fh),
		chromedp.Navigate("file://"+filepath.Join(dir, scene.FileIndex)),
		chromedp.Poll("window.__exportReady === true", nil, chromedp.WithPollingTimeout(10*time.Second)),
	); err != nil {
		t.Fatalf("load scene: %v", err)
	}
	return &stage{t: t, ctx: ctx}
}

// frame renders the scene at time tm.
func (s *stage) frame(tm float64) *image.RGBA {
	s.t.Helper()
	var buf []byte
	if err := chromedp.Run(s.ctx,
		chromedp.Evaluate(fmt.Sprintf("window.__exportSeekTo(%g)", tm), nil),
		chromedp.ActionFunc(func(ctx context.Context) error {
			var err error
			buf, err = page.CaptureScreenshot().WithFormat(page.CaptureScreenshotFormatPng).
				WithClip(&page.Viewport{Width: fw, Height: fh, Scale: 1}).Do(ctx)
			return err
		})); err != nil {
		s.t.Fatalf("frame at %gs: %v", tm, err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		s.t.Fatal(err)
	}
	if out := os.Getenv("KODA_MOTION_FRAMES"); out != "" {
		_ = os.WriteFile(filepath.Join(out, fmt.Sprintf("%s_%05.2f.png", s.t.Name(), tm)), buf, 0o644)
	}
	b := img.Bounds()
	m := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			m.Set(x, y, img.At(x, y))
		}
	}
	return m
}

// eval runs a JavaScript expression in the page (the runtime's own state function).
func (s *stage) eval(expr string, out any) {
	s.t.Helper()
	if err := chromedp.Run(s.ctx, chromedp.Evaluate(expr, out)); err != nil {
		s.t.Fatalf("eval %s: %v", expr, err)
	}
}

// blob is the set of pixels a predicate picks.
type blob struct {
	n                      int
	cx, cy                 float64
	minX, minY, maxX, maxY int
}

func (b blob) w() int { return b.maxX - b.minX + 1 }
func (b blob) h() int { return b.maxY - b.minY + 1 }

func find(img *image.RGBA, pick func(r, g, b float64) bool) blob {
	bl := blob{minX: math.MaxInt, minY: math.MaxInt, maxX: -1, maxY: -1}
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			i := img.PixOffset(x, y)
			if !pick(float64(img.Pix[i]), float64(img.Pix[i+1]), float64(img.Pix[i+2])) {
				continue
			}
			bl.n++
			bl.cx += float64(x)
			bl.cy += float64(y)
			bl.minX, bl.minY = min(bl.minX, x), min(bl.minY, y)
			bl.maxX, bl.maxY = max(bl.maxX, x), max(bl.maxY, y)
		}
	}
	if bl.n > 0 {
		bl.cx /= float64(bl.n)
		bl.cy /= float64(bl.n)
	}
	return bl
}

func bright(r, g, b float64) bool  { return r+g+b > 120 }
func reddish(r, g, b float64) bool { return r > 90 && r > g*1.6 && r > b*1.6 }
func bluish(r, g, b float64) bool  { return b > 90 && b > r*1.4 && b > g*1.1 }
func greyish(r, g, b float64) bool {
	return r > 50 && math.Abs(r-g) < 30 && math.Abs(g-b) < 30
}
func whiteish(r, g, b float64) bool {
	return r > 200 && g > 200 && b > 200
}

// components counts 4-connected groups of at least minPix picked pixels.
func components(img *image.RGBA, pick func(r, g, b float64) bool, minPix int) int {
	bd := img.Bounds()
	w, h := bd.Dx(), bd.Dy()
	seen := make([]bool, w*h)
	on := func(x, y int) bool {
		i := img.PixOffset(x, y)
		return pick(float64(img.Pix[i]), float64(img.Pix[i+1]), float64(img.Pix[i+2]))
	}
	n := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if seen[y*w+x] || !on(x, y) {
				continue
			}
			size, stack := 0, [][2]int{{x, y}}
			seen[y*w+x] = true
			for len(stack) > 0 {
				p := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				size++
				for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					qx, qy := p[0]+d[0], p[1]+d[1]
					if qx >= 0 && qy >= 0 && qx < w && qy < h && !seen[qy*w+qx] && on(qx, qy) {
						seen[qy*w+qx] = true
						stack = append(stack, [2]int{qx, qy})
					}
				}
			}
			if size >= minPix {
				n++
			}
		}
	}
	return n
}

func sceneOf(dur float64, els ...*scene.Element) *scene.Description {
	return &scene.Description{Version: scene.Version, Duration: dur, FPS: 30,
		Background: scene.Background{Colors: []string{"#000000"}}, Elements: els}
}

func f64(v float64) *float64 { return &v }

func TestMotionFlyLeavesTrailAndFacesTravel(t *testing.T) {
	plane := &scene.Element{ID: "plane", Type: scene.TypeRect, Size: 0.06, Aspect: 2, Color: "#e53935", Color2: "#ffffff",
		Motions: []*scene.Motion{{Type: scene.MotionFly, Start: 0.5, End: 3.5, FromX: -0.8, ToX: 0.8, Curve: "arc", Amp: 0.5,
			Trail: "dotted", Orient: true, Ease: "linear", Color: "#ffffff"}}}
	st := load(t, sceneOf(4, plane))
	var xs []float64
	prevTrail := -1
	for _, tm := range []float64{0.5, 1.25, 2, 2.75, 3.5} {
		img := st.frame(tm)
		b := find(img, reddish)
		if b.n == 0 {
			t.Fatalf("t=%g: the plane is not drawn", tm)
		}
		xs = append(xs, b.cx)
		trail := find(img, whiteish)
		if trail.n < prevTrail {
			t.Errorf("t=%g: trail shrank from %d to %d pixels", tm, prevTrail, trail.n)
		}
		prevTrail = trail.n
		if tm == 2 {
			// Mid-flight on the arc: at its top, the highest point of the path so far.
			if b.cy > float64(fh)*0.35 {
				t.Errorf("t=2: plane at y=%.0f, want near the top of its arc", b.cy)
			}
			// Dotted: along the trail's row of pixels, gaps separate the dots.
			if c := components(img, greyish, 2); c < 5 {
				t.Errorf("t=2: trail has %d dots, want a dotted line", c)
			}
		}
	}
	for i := 1; i < len(xs); i++ {
		if xs[i] <= xs[i-1]+20 {
			t.Errorf("plane does not travel left to right: x %v", xs)
		}
	}
	if xs[0] > fw*0.2 || xs[len(xs)-1] < fw*0.8 {
		t.Errorf("flight spans x %.0f→%.0f, want from the left edge to the right", xs[0], xs[len(xs)-1])
	}
	// Facing the travel: climbing at the start (negative angle), diving at the end.
	var rots []float64
	st.eval(`[1, 3].map(function (t) { return window.__koda.state(window.__scene.elements[0], t).rot; })`, &rots)
	if rots[0] > -20 || rots[1] < 20 {
		t.Errorf("rotation %v, want climbing then diving", rots)
	}
	// A climbing elongated shape is taller than it is when level.
	if b := find(st.frame(0.6), reddish); float64(b.h()) < 0.6*float64(b.w()) {
		t.Errorf("plane not turned up at take-off: %dx%d", b.w(), b.h())
	}
}

func TestMotionBobFloatsAndRocks(t *testing.T) {
	boat := &scene.Element{ID: "boat", Type: scene.TypeRect, Size: 0.1, Aspect: 1.6, Color: "#e53935",
		Motions: []*scene.Motion{{Type: scene.MotionBob, Start: 0, End: 4, Amp: 0.15, Count: 2}}}
	st := load(t, sceneOf(4, boat))
	var ys []float64
	for _, tm := range []float64{1, 0.5, 1.5} { // rest, crest, trough of the first cycle (period 2 s)
		ys = append(ys, find(st.frame(tm), reddish).cy)
	}
	if !(ys[1] > ys[0]+5 && ys[2] < ys[0]-5) {
		t.Errorf("bob centres %v: want down at a quarter cycle and up at three quarters", ys)
	}
	var rot float64
	st.eval(`window.__koda.state(window.__scene.elements[0], 1).rot`, &rot)
	if math.Abs(rot) < 3 {
		t.Errorf("no rock at mid-cycle: rotation %g", rot)
	}
}

func TestMotionOrbitCirclesAnotherElement(t *testing.T) {
	sun := &scene.Element{ID: "sun", Type: scene.TypeCircle, Size: 0.08, Color: "#1e88e5", X: 0.1, Y: 0}
	moon := &scene.Element{ID: "moon", Type: scene.TypeCircle, Size: 0.035, Color: "#e53935",
		Motions: []*scene.Motion{{Type: scene.MotionOrbit, Start: 0, End: 4, Amp: 0.3, Count: 1, Around: "sun", Steady: true}}}
	st := load(t, sceneOf(4, sun, moon))
	var angles []float64
	for _, tm := range []float64{0, 0.5, 1, 1.5, 2, 3} {
		img := st.frame(tm)
		c, m := find(img, bluish), find(img, reddish)
		if c.n == 0 || m.n == 0 {
			t.Fatalf("t=%g: sun %d px, moon %d px", tm, c.n, m.n)
		}
		dist := math.Hypot(m.cx-c.cx, m.cy-c.cy)
		if want := 0.3 * fh; math.Abs(dist-want) > 4 {
			t.Errorf("t=%g: moon %.1f px from the sun, want %.1f (a circle)", tm, dist, want)
		}
		angles = append(angles, math.Atan2(m.cy-c.cy, m.cx-c.cx)*180/math.Pi)
	}
	// A quarter turn per second: 0°, 45°, 90°, 135°, 180°, 270° (= -90°).
	want := []float64{0, 45, 90, 135, 180, -90}
	for i, a := range angles {
		d := math.Mod(math.Abs(a-want[i])+360, 360)
		if d > 8 && d < 352 {
			t.Errorf("angle %d: %.0f°, want %.0f°", i, a, want[i])
		}
	}
}

func TestMotionSweepTurnsClockHandAboutItsEnd(t *testing.T) {
	hand := &scene.Element{ID: "hand", Type: scene.TypeRect, Size: 0.2, Aspect: 0.06, Color: "#e53935",
		Motions: []*scene.Motion{{Type: scene.MotionSweep, Start: 0, End: 4, Count: 1}}}
	st := load(t, sceneOf(4, hand))
	pivotX, pivotY := fw/2.0, fh/2.0
	for i, tm := range []float64{0, 1, 2, 3, 4} {
		b := find(st.frame(tm), bright)
		a := math.Atan2(b.cx-pivotX, -(b.cy-pivotY)) * 180 / math.Pi // clockwise from 12 o'clock
		want := []float64{0, 90, 180, -90, 0}[i]
		if d := math.Abs(math.Mod(a-want+540, 360) - 180); d > 6 {
			t.Errorf("t=%g: hand points at %.0f°, want %.0f°", tm, a, want)
		}
		if dist := math.Hypot(b.cx-pivotX, b.cy-pivotY); math.Abs(dist-0.2*fh) > 4 {
			t.Errorf("t=%g: hand's middle %.0f px from the pivot, want %.0f (turning about its end)", tm, dist, 0.2*fh)
		}
	}
	var rot float64
	st.eval(`window.__koda.state(window.__scene.elements[0], 4).rot`, &rot)
	if rot != 360 {
		t.Errorf("hand turned %g° by the end, want 360", rot)
	}
}

func TestMotionSwingHangsFromPivotAndDampens(t *testing.T) {
	tag := &scene.Element{ID: "tag", Type: scene.TypeRect, Size: 0.1, Color: "#e53935", Y: -0.6, Color2: "#ffffff",
		Motions: []*scene.Motion{{Type: scene.MotionSwing, Start: 0, End: 4, Amp: 35, Count: 2, Decay: 0.2, Length: f64(1.5)}}}
	st := load(t, sceneOf(4, tag))
	pivotY := fh/2.0 - 0.6*fh/2
	var amps []float64
	for _, tm := range []float64{0.5, 1.5, 2.5, 3.5} { // the four extremes of two swings
		b := find(st.frame(tm), reddish)
		if b.cy <= pivotY+0.1*fh {
			t.Errorf("t=%g: tag at y=%.0f is not hanging below the pivot at %.0f", tm, b.cy, pivotY)
		}
		amps = append(amps, b.cx-fw/2.0)
	}
	for i := 1; i < len(amps); i++ {
		if amps[i]*amps[i-1] >= 0 {
			t.Errorf("swing does not alternate sides: x offsets %v", amps)
		}
		if math.Abs(amps[i]) >= math.Abs(amps[i-1]) {
			t.Errorf("swing is not damped: x offsets %v", amps)
		}
	}
}

func TestMotionMorphIsOneShapeChanging(t *testing.T) {
	m := &scene.Element{ID: "m", Type: scene.TypeMorph, Size: 0.3, Color: "#e53935", Shapes: []string{"square", "circle", "triangle"},
		Motions: []*scene.Motion{{Type: scene.MotionMorph, Start: 0, End: 6, Count: 2}}}
	st := load(t, sceneOf(6, m))
	fill := func(tm float64) float64 {
		img := st.frame(tm)
		if n := components(img, bright, 30); n != 1 {
			t.Errorf("t=%g: %d shapes on screen, want one", tm, n)
		}
		b := find(img, bright)
		return float64(b.n) / float64(b.w()*b.h())
	}
	sq, ci, tr := fill(0.2), fill(2.9), fill(5.8)
	if sq < 0.93 || math.Abs(ci-math.Pi/4) > 0.05 || tr > 0.6 {
		t.Errorf("bounding-box fill %.2f, %.2f, %.2f: want a square (1), a circle (0.79), a triangle (0.5)", sq, ci, tr)
	}
	if mid := fill(1.5); mid <= ci+0.02 || mid >= sq-0.02 {
		t.Errorf("half-way from square to circle the fill is %.2f, want between %.2f and %.2f", mid, ci, sq)
	}
}

func TestMotionSlamOvershootsAndShakes(t *testing.T) {
	e := &scene.Element{ID: "s", Type: scene.TypeCircle, Size: 0.2, Color: "#e53935",
		Motions: []*scene.Motion{{Type: scene.MotionSlam, Start: 1, End: 3, Shake: 0.03}}}
	st := load(t, sceneOf(4, e))
	before, early, peak, shake, end := find(st.frame(0.9), reddish), find(st.frame(1.05), func(r, g, b float64) bool { return r > 30 && r > 1.5*g }), find(st.frame(1.55), reddish), find(st.frame(1.9), reddish), find(st.frame(3.5), reddish)
	if before.n != 0 {
		t.Errorf("visible before the slam: %d px", before.n)
	}
	if !(early.n > 0 && early.w() < end.w()/2) {
		t.Errorf("starts at width %d, want far away (under half of %d)", early.w(), end.w())
	}
	if peak.w() <= end.w()+3 {
		t.Errorf("no overshoot: width %d at the peak, %d at rest", peak.w(), end.w())
	}
	if math.Hypot(shake.cx-end.cx, shake.cy-end.cy) < 1 {
		t.Errorf("no shake after impact: centre (%.1f,%.1f) vs rest (%.1f,%.1f)", shake.cx, shake.cy, end.cx, end.cy)
	}
}

func TestMotionPopAlternatesBubblesWithText(t *testing.T) {
	a := &scene.Element{ID: "a", Type: scene.TypeIcon, Variant: "chat", Size: 0.18, X: -0.4, Color: "#e53935", Text: "Hi!", TextColor: "#ffffff",
		Motions: []*scene.Motion{{Type: scene.MotionPop, Start: 0.2, End: 1.6}, {Type: scene.MotionPop, Start: 3, End: 4}}}
	b := &scene.Element{ID: "b", Type: scene.TypeIcon, Variant: "chat", Size: 0.18, X: 0.4, Color: "#1e88e5", Text: "Hello!", TextColor: "#ffffff",
		Motions: []*scene.Motion{{Type: scene.MotionPop, Start: 1.6, End: 3}}}
	st := load(t, sceneOf(4, a, b))
	for _, c := range []struct {
		tm         float64
		red, blue  bool
		wordsInRed bool
	}{{0.1, false, false, false}, {1, true, false, true}, {2.3, false, true, false}, {3.6, true, false, true}} {
		img := st.frame(c.tm)
		r, bl := find(img, reddish), find(img, bluish)
		if (r.n > 100) != c.red || (bl.n > 100) != c.blue {
			t.Errorf("t=%g: red bubble %d px, blue %d px; want red %v, blue %v", c.tm, r.n, bl.n, c.red, c.blue)
		}
		if c.red {
			// The words are drawn inside the bubble: white pixels within its box.
			words := find(img, func(R, G, B float64) bool { return whiteish(R, G, B) })
			if words.n < 20 || words.minX < r.minX || words.maxX > r.maxX {
				t.Errorf("t=%g: %d white pixels at x %d..%d, want the words inside the bubble (x %d..%d)", c.tm, words.n, words.minX, words.maxX, r.minX, r.maxX)
			}
		}
	}
}

func TestMotionStepsRevealOneByOne(t *testing.T) {
	list := &scene.Element{ID: "l", Type: scene.TypeText, Size: 0.09, Color: "#ffffff", Items: []string{"Plan", "Build", "Ship"},
		Motions: []*scene.Motion{{Type: scene.MotionSteps, Start: 0, End: 3, Count: 3}}}
	st := load(t, sceneOf(4, list))
	var got []int
	for _, tm := range []float64{0.7, 1.7, 2.7} {
		got = append(got, components(st.frame(tm), whiteish, 15))
	}
	if !(got[0] > 0 && got[1] > got[0] && got[2] > got[1]) {
		t.Errorf("glyphs shown at the three steps: %v, want more at each step", got)
	}
	var progs []float64
	st.eval(`[0.5, 1.5, 2.5, 3.5].map(function (t) { return window.__koda.state(window.__scene.elements[0], t).prog; })`, &progs)
	for i, p := range progs {
		if want := math.Min(1, float64(i+1)/3); math.Abs(p-want) > 0.01 {
			t.Errorf("progress %v, want one more third at each step", progs)
			break
		}
	}
}

func TestMotionTypeGrowsWithBlinkingCaret(t *testing.T) {
	e := &scene.Element{ID: "t", Type: scene.TypeText, Size: 0.1, Color: "#ffffff", Text: "Hello world",
		Motions: []*scene.Motion{{Type: scene.MotionType, Start: 0, End: 2}}}
	st := load(t, sceneOf(4, e))
	prev := 0
	for _, tm := range []float64{0.3, 0.9, 1.5, 2.1} {
		n := find(st.frame(tm), whiteish).n
		if n <= prev {
			t.Errorf("t=%g: %d text pixels, not more than %d: typing does not grow", tm, n, prev)
		}
		prev = n
	}
	// After typing, the caret blinks at 2.5 Hz: off at 2.8 s (floor 7), on at 3.2 s (8).
	off, on := find(st.frame(2.8), whiteish), find(st.frame(3.2), whiteish)
	if on.n <= off.n || on.maxX <= off.maxX {
		t.Errorf("caret does not blink after the text: %d px to x=%d, then %d px to x=%d", on.n, on.maxX, off.n, off.maxX)
	}
}

// TestTextDrawsEmojiWhole: an emoji in a text is one letter, drawn in colour by the
// emoji font; cut into its two UTF-16 halves it would be two white boxes.
func TestTextDrawsEmojiWhole(t *testing.T) {
	e := &scene.Element{ID: "t", Type: scene.TypeText, Size: 0.16, Color: "#ffffff", Text: "bake 🍞🍓"}
	img := load(t, sceneOf(2, e)).frame(1.5)
	colour := func(r, g, b float64) bool { return max(r, g, b)-min(r, g, b) > 90 }
	if n := find(img, colour).n; n < 400 {
		t.Errorf("%d coloured pixels: the emoji are not drawn as emoji", n)
	}
}

func TestMotionFillRisesFromTheBottom(t *testing.T) {
	heart := &scene.Element{ID: "h", Type: scene.TypeHeart, Size: 0.3, Color: "#1e88e5",
		Motions: []*scene.Motion{{Type: scene.MotionFill, Start: 1, End: 3, Color: "#e53935", Ease: "linear"}}}
	st := load(t, sceneOf(4, heart))
	prev := -1.0
	var outline blob
	for _, tm := range []float64{0.5, 1.5, 2, 2.5, 3.5} {
		img := st.frame(tm)
		f, e := find(img, reddish), find(img, bluish)
		frac := float64(f.n) / float64(f.n+e.n)
		if tm == 0.5 {
			outline = e
			if f.n != 0 {
				t.Errorf("filled before the fill starts: %d px", f.n)
			}
		}
		if frac <= prev && tm < 3.5 {
			t.Errorf("t=%g: filled fraction %.2f, not above %.2f", tm, frac, prev)
		}
		if tm == 2 && f.minY < int(outline.cy) {
			t.Errorf("t=2: the fill reaches y=%d, above the heart's middle %d: not rising from the bottom", f.minY, int(outline.cy))
		}
		if tm == 3.5 && frac < 0.97 {
			t.Errorf("full at the end? fraction %.2f", frac)
		}
		prev = frac
	}
}

func TestMotionDrawStrokesProgressively(t *testing.T) {
	e := &scene.Element{ID: "p", Type: scene.TypePath, Variant: "stroke", Size: 0.4, Color: "#ffffff", Path: "M-1,0.5 L-0.3,-0.5 L0.3,0.5 L1,-0.5",
		Motions: []*scene.Motion{{Type: scene.MotionDraw, Start: 0.5, End: 2.5, Ease: "linear"}}}
	st := load(t, sceneOf(3, e))
	var ns []int
	var right []int
	for _, tm := range []float64{0.4, 1, 1.5, 2, 2.8} {
		b := find(st.frame(tm), whiteish)
		ns = append(ns, b.n)
		right = append(right, b.maxX)
	}
	if ns[0] != 0 {
		t.Errorf("drawn before it starts: %d px", ns[0])
	}
	for i := 2; i < len(ns); i++ {
		if ns[i] <= ns[i-1] || right[i] < right[i-1] {
			t.Errorf("stroke does not grow from its start: pixels %v, right ends %v", ns, right)
			break
		}
	}
}

func TestMotionFlipTurnsTilesInSequence(t *testing.T) {
	var els []*scene.Element
	for i := 0; i < 3; i++ {
		s := 0.5 + 0.8*float64(i)
		els = append(els, &scene.Element{ID: fmt.Sprintf("tile%d", i), Type: scene.TypeRect, Size: 0.12, X: -0.5 + 0.5*float64(i), Color: "#e53935",
			Motions: []*scene.Motion{{Type: scene.MotionFlip, Start: s, End: s + 0.8, Count: 1, Color: "#1e88e5"}}})
	}
	st := load(t, sceneOf(4, els...))
	// At 1.7 s the first tile has flipped (blue), the second is edge-on, the third untouched.
	img := st.frame(1.7)
	third := func(i int, pick func(r, g, b float64) bool) blob {
		return find(cropX(img, i*fw/3, (i+1)*fw/3), pick)
	}
	if third(0, bluish).n < 300 || third(0, reddish).n > 20 {
		t.Errorf("first tile not flipped to its blue back")
	}
	if w := max(third(1, bluish).w(), third(1, reddish).w()); w > 12 {
		t.Errorf("second tile is %d px wide mid-flip, want edge-on", w)
	}
	if third(2, reddish).n < 300 {
		t.Errorf("third tile should still show its red face")
	}
	end := st.frame(3.8)
	if find(end, reddish).n > 20 || find(end, bluish).n < 900 {
		t.Errorf("after the sequence every tile should show its back")
	}
}

func cropX(img *image.RGBA, x0, x1 int) *image.RGBA {
	return img.SubImage(image.Rect(x0, 0, x1, fh)).(*image.RGBA)
}

func TestMotionRiseEmitsFadingCopies(t *testing.T) {
	e := &scene.Element{ID: "steam", Type: scene.TypeCircle, Size: 0.04, Color: "#ffffff", Y: 0.6,
		Motions: []*scene.Motion{{Type: scene.MotionRise, Start: 0, End: 4, Count: 4, Amp: 1, Period: 2}}}
	st := load(t, sceneOf(4, e))
	img := st.frame(2.9)
	if n := components(img, bright, 8); n < 3 {
		t.Errorf("%d rising copies at once, want several", n)
	}
	b := find(img, bright)
	if float64(b.maxY) > fh/2.0+0.6*fh/2+0.04*fh*1.5 || b.minY > fh/2 {
		t.Errorf("copies span y %d..%d, want from the emitter at %.0f upwards past the middle", b.minY, b.maxY, fh/2.0+0.6*fh/2)
	}
	// Higher copies are fainter: they fade as they rise.
	top, low := 0.0, 0.0
	for x := 0; x < fw; x++ {
		for y := 0; y < fh; y++ {
			i := img.PixOffset(x, y)
			v := float64(img.Pix[i])
			if y < fh/3 {
				top = math.Max(top, v)
			} else if y > fh/2 {
				low = math.Max(low, v)
			}
		}
	}
	if top >= low {
		t.Errorf("the top copies (max %.0f) should be fainter than the low ones (%.0f)", top, low)
	}
}

func TestMotionTwinkleFlickers(t *testing.T) {
	e := &scene.Element{ID: "s", Type: scene.TypeStar, Size: 0.2, Color: "#ffffff",
		Motions: []*scene.Motion{{Type: scene.MotionTwinkle, Start: 0, End: 4, Count: 4}}}
	st := load(t, sceneOf(4, e))
	bright1, dim, bright2 := find(st.frame(1), whiteish).n, find(st.frame(1.5), whiteish).n, find(st.frame(2), whiteish).n
	if !(dim < bright1/3 && dim < bright2/3) {
		t.Errorf("bright pixels %d, %d, %d: want a flicker down and back", bright1, dim, bright2)
	}
}

func TestMotionBounceThreeTimesAndSettle(t *testing.T) {
	ball := &scene.Element{ID: "ball", Type: scene.TypeCircle, Size: 0.08, Color: "#e53935", Y: 0.5,
		Motions: []*scene.Motion{{Type: scene.MotionBounce, Start: 0, End: 3, Amp: 1.2, Count: 2.5, Decay: 0.5, Squash: 1}}}
	st := load(t, sceneOf(4, ball))
	var lifts []float64
	st.eval(`(function () { var out = []; for (var i = 0; i <= 400; i++) out.push(window.__koda.state(window.__scene.elements[0], i * 0.01).lift); return out; })()`, &lifts)
	var contacts []float64
	for i := 1; i < len(lifts)-1; i++ {
		if lifts[i] < 0.01 && lifts[i] <= lifts[i-1] && lifts[i] < lifts[i+1] {
			contacts = append(contacts, float64(i)*0.01)
		}
	}
	if lifts[len(lifts)-1] != 0 {
		t.Errorf("not resting at the end: lift %g", lifts[len(lifts)-1])
	}
	if lifts[0] < 1 {
		t.Errorf("does not drop in from the top: lift %g at t=0", lifts[0])
	}
	// Contacts: two inside and the last at the end (lift stays 0 from then on).
	if len(contacts) != 2 || math.Abs(lastZero(lifts)*0.01-3) > 0.02 {
		t.Errorf("ground contacts at %v and rest from %v s, want 3 contacts, the last at 3 s", contacts, lastZero(lifts)*0.01)
	}
	// Squash at a contact, round in flight, and the settle rings down after.
	at := find(st.frame(contacts[0]), reddish)
	air := find(st.frame(contacts[0]+0.25), reddish)
	rest := find(st.frame(3.9), reddish)
	if float64(at.w())/float64(at.h()) < 1.3 {
		t.Errorf("no squash at contact: %dx%d", at.w(), at.h())
	}
	if air.cy >= at.cy-10 {
		t.Errorf("not in the air after the contact: y %.0f vs %.0f", air.cy, at.cy)
	}
	if math.Abs(float64(rest.w())/float64(rest.h())-1) > 0.1 || abs(rest.maxY-at.maxY) > 2 {
		t.Errorf("not settled round on the ground: %dx%d at y %.0f", rest.w(), rest.h(), rest.cy)
	}
}

// lastZero is the index from which the series stays at zero.
func lastZero(v []float64) float64 {
	i := len(v) - 1
	for i > 0 && v[i-1] == 0 {
		i--
	}
	return float64(i)
}

func TestMotionColourChangesOnEdgeHits(t *testing.T) {
	logo := &scene.Element{ID: "dvd", Type: scene.TypeRect, Size: 0.1, Aspect: 1.5, Color: "#e53935", X: 0.5,
		Motions: []*scene.Motion{{Type: scene.MotionRicochet, Start: 0, End: 4, VX: 0.8, VY: 0.5, Colors: []string{"#e53935", "#1e88e5"}}}}
	st := load(t, sceneOf(4, logo))
	var ev []struct {
		Events float64 `json:"events"`
		Color  string  `json:"color"`
	}
	st.eval(`[0.1, 0.6, 1.5].map(function (t) { var s = window.__koda.state(window.__scene.elements[0], t); return {events: s.events, color: s.color}; })`, &ev)
	if ev[0].Events != 0 || ev[1].Events != 1 || ev[0].Color == ev[1].Color {
		t.Errorf("events %+v: want the first edge hit near 0.5 s to change the colour", ev)
	}
	for _, tm := range []float64{0.1, 0.6, 1.5, 2.5, 3.9} {
		img := st.frame(tm)
		r, b := find(img, reddish), find(img, bluish)
		got := r
		if b.n > r.n {
			got = b
		}
		if got.n < 200 || got.minX < 0 || got.maxX >= fw-1 && got.minX == 0 {
			t.Errorf("t=%g: logo %d px at x %d..%d, want whole and inside the frame", tm, got.n, got.minX, got.maxX)
		}
	}
	if r, b := find(st.frame(0.1), reddish), find(st.frame(0.6), bluish); r.n < 200 || b.n < 200 {
		t.Errorf("colour on the frame: red %d px before the hit, blue %d px after", r.n, b.n)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func TestMotionRecolorTurnsIntoItsColour(t *testing.T) {
	knob := &scene.Element{ID: "switch", Type: scene.TypeRect, Size: 0.15, Aspect: 2, Color: "#e53935",
		Motions: []*scene.Motion{{Type: scene.MotionRecolor, Start: 1, End: 2, Color: "#1e88e5"}}}
	st := load(t, sceneOf(3, knob))
	if r, b := find(st.frame(0.5), reddish), find(st.frame(0.5), bluish); r.n < 200 || b.n > 0 {
		t.Errorf("before the recolor: red %d px, blue %d px; want red only", r.n, b.n)
	}
	if r, b := find(st.frame(2.5), reddish), find(st.frame(2.5), bluish); b.n < 200 || r.n > 0 {
		t.Errorf("after the recolor: red %d px, blue %d px; want blue only", r.n, b.n)
	}
	bad := sceneOf(3, &scene.Element{ID: "x", Type: scene.TypeCircle, Size: 0.1,
		Motions: []*scene.Motion{{Type: scene.MotionRecolor, Start: 0, End: 1}}})
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "recolor needs") {
		t.Errorf("a recolor without a colour validated: %v", err)
	}
}

// TestMotionGlitchSplitsThenSnapsClean: a white bar glitching shows red and cyan copies
// pushed out either side as it starts, none before it starts, and is whole and clean
// (white only, where it stands) once the glitch is over; a frame sought twice is the
// same frame. Scanlines darken rows of the frame without touching its columns.
func TestMotionGlitchSplitsThenSnapsClean(t *testing.T) {
	bar := &scene.Element{ID: "name", Type: scene.TypeRect, Size: 0.12, Aspect: 3, Color: "#ffffff",
		Motions: []*scene.Motion{{Type: scene.MotionGlitch, Start: 0.5, End: 2.5}}}
	d := sceneOf(3, bar)
	st := load(t, d)
	cyanish := func(r, g, b float64) bool { return g > 150 && b > 150 && r < 90 }
	before := st.frame(0.3)
	if find(before, reddish).n > 0 || find(before, cyanish).n > 0 {
		t.Errorf("glitching before it starts")
	}
	white := find(before, whiteish)
	burst := st.frame(0.55)
	r, c := find(burst, reddish), find(burst, cyanish)
	if r.n < 30 || c.n < 30 {
		t.Errorf("no RGB split at the start: red %d px, cyan %d px", r.n, c.n)
	}
	if r.minX >= white.minX || c.maxX <= white.maxX {
		t.Errorf("the red copy should stick out left of the bar (x %d, bar from %d) and the cyan one right (x %d, bar to %d)", r.minX, white.minX, c.maxX, white.maxX)
	}
	if again := st.frame(0.55); find(again, reddish).n != r.n || find(again, cyanish).n != c.n {
		t.Errorf("the same time drew a different glitch")
	}
	after := st.frame(2.4)
	if find(after, reddish).n > 0 || find(after, cyanish).n > 0 {
		t.Errorf("still glitching in the last fifth")
	}
	if w := find(after, whiteish); abs(w.n-white.n) > white.n/50 || w.minX != white.minX {
		t.Errorf("not clean after the glitch: %d px from x %d, want %d px from x %d", w.n, w.minX, white.n, white.minX)
	}

	d.Effects.Scanlines = 1
	lined := load(t, d).frame(0.3)
	dark := 0
	for y := white.minY; y <= white.maxY; y++ {
		if i := lined.PixOffset(int(white.cx), y); lined.Pix[i] < 200 {
			dark++
		}
	}
	if dark == 0 || dark == white.h() {
		t.Errorf("scanlines: %d of %d rows of the bar darkened, want some", dark, white.h())
	}
}
