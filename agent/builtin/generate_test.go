package builtin_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/scene"
)

const demoPrompt = "A playful red ball bounces across the screen, then the text 'Hello from Koda' appears"

func readScene(t *testing.T, sb koda.Sandbox) *scene.Description {
	t.Helper()
	b, err := sb.ReadFile(context.Background(), scene.FileJSON, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	d, err := scene.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestGenerateDemo(t *testing.T) {
	p, sb, rec := generate(t, demoPrompt, "", 0)

	// Todo by todo: each goes active then done, in plan order; the preview is the caller's.
	var want []string
	for _, td := range p.Plan.Todos {
		if td.ID != builtin.TodoPreview {
			want = append(want, td.ID+":active", td.ID+":done")
		}
	}
	if !reflect.DeepEqual(rec.todos, want) {
		t.Errorf("todo updates %v, want %v", rec.todos, want)
	}
	if len(rec.thinking) < len(p.Plan.Todos)-1 {
		t.Errorf("thinking %v", rec.thinking)
	}
	for _, f := range []string{"index.html", "runtime.js", "scene.json", "scene.js"} {
		if !strings.Contains(strings.Join(rec.files, " "), f) {
			t.Errorf("%s not reported written (%v)", f, rec.files)
		}
	}
	files, err := sb.ListFiles(context.Background(), ".", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Errorf("sandbox holds %v, want the 4 files", files)
	}
	html, _ := sb.ReadFile(context.Background(), "index.html", 0, 0)
	for _, banned := range []string{"http://", "https://", "import ", "require("} {
		if strings.Contains(string(html), banned) {
			t.Errorf("index.html contains %q: not self-contained", banned)
		}
	}

	d := readScene(t, sb)
	if d.Duration != p.Plan.DurationS {
		t.Errorf("scene lasts %g s, plan %g s", d.Duration, p.Plan.DurationS)
	}
	ball, title := d.Element("ball-1"), d.Element("text-1")
	if ball == nil || ball.Type != scene.TypeCircle || ball.Color != "#e53935" {
		t.Fatalf("no red ball: %+v", ball)
	}
	if title == nil || title.Text != "Hello from Koda" || title.Reveal != "pop" {
		t.Fatalf("no title: %+v", title)
	}
	var bounce bool
	for _, m := range ball.Motions {
		bounce = bounce || (m.Type == scene.MotionBounce && m.Squash > 0.5 && m.Count >= 2)
	}
	if !bounce {
		t.Errorf("ball has no squashing bounce: %+v", ball.Motions)
	}

	ctx := browser(t)

	// The runtime knows every easing the Go side accepts.
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(320, 180),
		chromedp.Navigate("file://"+sb.Dir()+"/index.html?export=1"),
		chromedp.Poll("window.__exportReady === true", nil)); err != nil {
		t.Fatal(err)
	}
	var easings []string
	if err := chromedp.Run(ctx, chromedp.Evaluate("window.__koda.easings", &easings)); err != nil {
		t.Fatal(err)
	}
	for _, e := range scene.Easings {
		if !strings.Contains(" "+strings.Join(easings, " ")+" ", " "+e+" ") {
			t.Errorf("runtime lacks easing %s", e)
		}
	}

	// Landscape preview size: during the bounce and once the title is up.
	bounceT := (p.Plan.Scenes[1].StartS + p.Plan.Scenes[1].EndS) / 2
	titleT := p.Plan.Scenes[len(p.Plan.Scenes)-1].EndS - 0.3
	c := render(t, ctx, sb.Dir(), 640, 360, 0, bounceT, titleT)
	if c.meta["duration"] != d.Duration || c.meta["fps"] <= 0 {
		t.Errorf("__exportMeta %v", c.meta)
	}
	for i, f := range c.frames {
		if s := lumaStd(f); s < 4 {
			t.Errorf("frame %d is blank (luma std %.1f)", i, s)
		}
		// The ball is on screen in every frame, first one included.
		if share := colorShare(f, "#e53935", 60); share < 0.004 {
			t.Errorf("frame %d: red covers %.3f%% of the frame", i, share*100)
		}
	}
	if dd := diff(c.frames[1], c.frames[2]); dd < 3 {
		t.Errorf("bounce and title frames differ by only %.2f", dd)
	}
	if dd := diff(c.frames[0], c.frames[1]); dd < 1 {
		t.Errorf("first and bounce frames differ by only %.2f", dd)
	}
	// Seeking is deterministic: the same t gives the same pixels.
	again := render(t, ctx, sb.Dir(), 640, 360, bounceT)
	if dd := diff(c.frames[1], again.frames[0]); dd != 0 {
		t.Errorf("same time, different frames (diff %.3f)", dd)
	}
	if txt := ocr(t, c.frames[2]); !strings.Contains(txt, "Hello from Koda") {
		t.Errorf("landscape title not legible: OCR read %q", txt)
	}

	// Portrait 1080×1920: the title wraps inside the frame and stays legible.
	pc := renderScaled(t, ctx, sb.Dir(), 1080, 1920, 0.5, titleT)
	f := pc.frames[0]
	if txt := ocr(t, f); !strings.Contains(strings.Join(strings.Fields(txt), " "), "Hello from") || !strings.Contains(txt, "Koda") {
		t.Errorf("portrait title not legible: OCR read %q", txt)
	}
	// Nothing drawn touches the left or right edge (title colour or ball colour).
	for _, x := range []int{0, 1, 2, 537, 538, 539} {
		for y := 0; y < 960; y += 2 {
			r, g, b := rgbAt(f, x, y)
			if (r < 80 && g < 60 && b < 110) || (r > 180 && g < 90 && b < 90) {
				t.Fatalf("portrait: content touches the edge at (%d,%d) rgb(%v,%v,%v)", x, y, r, g, b)
			}
		}
	}
	if share := colorShare(f, "#e53935", 60); share < 0.003 {
		t.Errorf("portrait: ball missing (red %.3f%%)", share*100)
	}
}

// TestGenerateVocabulary renders a spread of prompts: each must load, draw non-blank,
// moving frames, and show its requested colour.
func TestGenerateVocabulary(t *testing.T) {
	ctx := browser(t)
	tests := []struct {
		prompt string
		style  koda.Style
		color  string
		types  []string
	}{
		{"A smooth product card for a sneaker 'Air Max' at $129 slides in", "", "", []string{"card"}},
		{"An epic logo reveal for 'Northwind' in gold", "", "#ffc107", []string{"logo"}},
		{"A bar chart of revenue growing in green, then a counter reaching 98%", koda.StyleSmooth, "#43a047", []string{"chart", "counter"}},
		{"Stars twinkling, then a yellow star spins, vertical", koda.StyleCinematic, "#fdd835", []string{"particles", "star"}},
		{"A pink heart pulses and confetti falls", koda.StylePlayful, "#ec407a", []string{"heart", "particles"}},
		{"Minimal: a blue ring loader draws itself, then the words 'Loading complete'", "", "#1e88e5", []string{"ring", "text"}},
	}
	for _, tc := range tests {
		t.Run(tc.prompt, func(t *testing.T) {
			p, sb, _ := generate(t, tc.prompt, tc.style, 0)
			d := readScene(t, sb)
			// A library drawing named for the thing ("noto:pink-heart") depicts it as well
			// as the runtime's own shape of that type.
			types := strings.Join(d.Types(), " ")
			for _, e := range d.Elements {
				types += " " + e.Asset
			}
			for _, ty := range tc.types {
				if !strings.Contains(types, ty) {
					t.Errorf("no %s element (types %s)", ty, types)
				}
			}
			var times []float64
			for _, s := range p.Plan.Scenes {
				times = append(times, s.StartS+0.2, (s.StartS+s.EndS)/2)
			}
			c := render(t, ctx, sb.Dir(), 320, 180, times...)
			for i := 0; i < len(c.frames); i += 2 {
				if s := lumaStd(c.frames[i+1]); s < 3 {
					t.Errorf("frame at %gs blank (std %.1f)", times[i+1], s)
				}
				// Motion inside every scene: its early and middle frames differ.
				if dd := diff(c.frames[i], c.frames[i+1]); dd < 0.5 {
					t.Errorf("scene %d: frames at %gs and %gs differ by %.2f", i/2+1, times[i], times[i+1], dd)
				}
			}
			if tc.color != "" {
				last := c.frames[len(c.frames)-1]
				if share := colorShare(last, tc.color, 70); share < 0.002 {
					t.Errorf("colour %s covers %.3f%% of the last frame", tc.color, share*100)
				}
			}
		})
	}
}
