package builtin_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox/local"
)

// recorder is a koda.Reporter that keeps what the agent reported.
type recorder struct {
	mu       sync.Mutex
	todos    []string // "id:status" in order
	thinking []string
	files    []string
	messages []string
}

func (r *recorder) TodoUpdate(_ context.Context, id string, s koda.TodoStatus) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.todos = append(r.todos, id+":"+string(s))
}
func (r *recorder) Thinking(_ context.Context, m string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.thinking = append(r.thinking, m)
}
func (r *recorder) Message(_ context.Context, _, content string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.messages = append(r.messages, content)
}
func (r *recorder) FileWritten(_ context.Context, path string, _ int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files = append(r.files, path)
}

func newSandbox(t *testing.T) koda.Sandbox {
	t.Helper()
	p := local.New(local.Config{Root: t.TempDir()})
	t.Cleanup(func() { _ = p.Close(context.Background()) })
	sb, err := p.Create(context.Background(), koda.SandboxSpec{ProjectID: "prj_test"})
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

// generate plans and generates a project from a prompt into a fresh sandbox.
func generate(t *testing.T, prompt string, style koda.Style, durationS float64) (*koda.Project, koda.Sandbox, *recorder) {
	t.Helper()
	return generateWith(t, &koda.Project{Prompt: prompt, Style: style, DurationS: durationS})
}

// generateWith plans and generates project p (its prompt, style, duration, presets).
func generateWith(t *testing.T, p *koda.Project) (*koda.Project, koda.Sandbox, *recorder) {
	t.Helper()
	ctx := context.Background()
	a := builtin.New(nil)
	p.ID = "prj_test"
	prompt := p.Prompt
	pl, err := a.Plan(ctx, p, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Plan = pl
	sb := newSandbox(t)
	rec := &recorder{}
	if err := a.Generate(ctx, p, sb, rec); err != nil {
		t.Fatalf("generate %q: %v", prompt, err)
	}
	return p, sb, rec
}

var shared struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	err    error
}

// browser returns the package's headless chromium, started on first use and stopped in
// TestMain: starting it costs seconds, and every test only opens pages in it.
func browser(t *testing.T) context.Context {
	t.Helper()
	shared.once.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(renderer.FindChromium()), chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true), chromedp.Flag("hide-scrollbars", true))
		actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelC := chromedp.NewContext(actx)
		shared.ctx, shared.cancel = ctx, func() { cancelC(); cancelA() }
		shared.err = chromedp.Run(ctx)
	})
	if shared.err != nil {
		t.Fatalf("start chromium: %v", shared.err)
	}
	return shared.ctx
}

type capture struct {
	meta   map[string]float64
	frames []image.Image
}

// render loads dir/index.html at w×h through the export protocol and captures the
// frames at the given times.
func render(t *testing.T, bctx context.Context, dir string, w, h int, times ...float64) capture {
	t.Helper()
	return renderScaled(t, bctx, dir, w, h, 1, times...)
}

// renderScaled lays the page out at w×h but captures it scaled down, for big frames
// whose layout matters more than their pixels.
func renderScaled(t *testing.T, bctx context.Context, dir string, w, h int, scale float64, times ...float64) capture {
	t.Helper()
	ctx, cancel := context.WithTimeout(bctx, 60*time.Second)
	defer cancel()
	var c capture
	err := chromedp.Run(ctx,
		chromedp.EmulateViewport(int64(w), int64(h)),
		chromedp.Navigate("file://"+filepath.Join(dir, "index.html")),
		chromedp.Poll("window.__exportReady === true && typeof window.__exportSeekTo === 'function'", nil,
			chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Evaluate("window.__exportMeta", &c.meta),
	)
	if err != nil {
		t.Fatalf("load %s: %v", dir, err)
	}
	start := time.Now()
	defer func() { t.Logf("%dx%d: %d frames in %v", w, h, len(times), time.Since(start).Round(time.Millisecond)) }()
	for _, tm := range times {
		var buf []byte
		if err := chromedp.Run(ctx,
			chromedp.Evaluate(fmt.Sprintf("window.__exportSeekTo(%g)", tm), nil),
			chromedp.ActionFunc(func(ctx context.Context) error {
				var err error
				buf, err = page.CaptureScreenshot().WithFormat(page.CaptureScreenshotFormatPng).
					WithClip(&page.Viewport{Width: float64(w), Height: float64(h), Scale: scale}).Do(ctx)
				return err
			})); err != nil {
			t.Fatalf("frame at %gs: %v", tm, err)
		}
		img, err := png.Decode(bytes.NewReader(buf))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != int(float64(w)*scale) || b.Dy() != int(float64(h)*scale) {
			t.Fatalf("frame is %dx%d, want %dx%d at scale %g", b.Dx(), b.Dy(), w, h, scale)
		}
		if out := os.Getenv("KODA_AGENT_FRAMES"); out != "" {
			name := fmt.Sprintf("%s_%dx%d_%05.2f.png", strings.ReplaceAll(t.Name(), "/", "_"), w, h, tm)
			_ = os.WriteFile(filepath.Join(out, name), buf, 0o644)
		}
		c.frames = append(c.frames, toRGBA(img))
	}
	return c
}

func rgbAt(img image.Image, x, y int) (float64, float64, float64) {
	if m, ok := img.(*image.RGBA); ok {
		// Direct access: img.At through interfaces is slow under -race on 2-Mpixel frames.
		i := m.PixOffset(x, y)
		return float64(m.Pix[i]), float64(m.Pix[i+1]), float64(m.Pix[i+2])
	}
	r, g, b, _ := img.At(x, y).RGBA()
	return float64(r >> 8), float64(g >> 8), float64(b >> 8)
}

// toRGBA converts a decoded frame once (screenshots are opaque, so NRGBA equals RGBA).
func toRGBA(img image.Image) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok {
		return m
	}
	b := img.Bounds()
	out := image.NewRGBA(b)
	if n, ok := img.(*image.NRGBA); ok && n.Stride == out.Stride {
		copy(out.Pix, n.Pix)
		return out
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}

// lumaStd is the standard deviation of brightness: a blank frame has ~0.
func lumaStd(img image.Image) float64 {
	b := img.Bounds()
	var sum, sq, n float64
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bb := rgbAt(img, x, y)
			l := 0.299*r + 0.587*g + 0.114*bb
			sum += l
			sq += l * l
			n++
		}
	}
	m := sum / n
	return math.Sqrt(sq/n - m*m)
}

// diff is the mean absolute per-channel difference of two frames (0..255).
func diff(a, b image.Image) float64 {
	bd := a.Bounds()
	var s, n float64
	for y := bd.Min.Y; y < bd.Max.Y; y += 2 {
		for x := bd.Min.X; x < bd.Max.X; x += 2 {
			r1, g1, b1 := rgbAt(a, x, y)
			r2, g2, b2 := rgbAt(b, x, y)
			s += math.Abs(r1-r2) + math.Abs(g1-g2) + math.Abs(b1-b2)
			n += 3
		}
	}
	return s / n
}

func hexRGB(hex string) (float64, float64, float64) {
	var r, g, b int
	fmt.Sscanf(strings.TrimPrefix(hex, "#"), "%02x%02x%02x", &r, &g, &b)
	return float64(r), float64(g), float64(b)
}

// colorShare is the fraction of pixels within tol of a colour.
func colorShare(img image.Image, hex string, tol float64) float64 {
	cr, cg, cb := hexRGB(hex)
	bd := img.Bounds()
	var hit, n float64
	for y := bd.Min.Y; y < bd.Max.Y; y += 2 {
		for x := bd.Min.X; x < bd.Max.X; x += 2 {
			r, g, b := rgbAt(img, x, y)
			if math.Sqrt((r-cr)*(r-cr)+(g-cg)*(g-cg)+(b-cb)*(b-cb)) < tol {
				hit++
			}
			n++
		}
	}
	return hit / n
}

// ocr reads the text in a frame with tesseract.
func ocr(t *testing.T, img image.Image) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "frame.png")
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	out, err := exec.CommandContext(ctx, "tesseract", f, "-", "--psm", "11").Output()
	t.Logf("ocr %v", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("tesseract: %v", err)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.cancel != nil {
		shared.cancel()
	}
	os.Exit(code)
}
