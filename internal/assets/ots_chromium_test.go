package assets

import (
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/renderer"
)

// TestChromiumRefusesTheSameFonts loads each font the OTS checks refuse into headless
// Chromium with the FontFace API and confirms Chromium refuses it too (its sanitizer
// rejects the font and load() fails), and that it loads the unbroken DejaVuSans: so a
// refusal at upload is one the browser would have made at render time, not a stricter
// rule of ours. make test installs Chromium; without it the test fails.
func TestChromiumRefusesTheSameFonts(t *testing.T) {
	bin := renderer.FindChromium()
	if _, err := exec.LookPath(bin); err != nil {
		t.Fatalf("no Chromium (%s): %v; make deps-test (scripts/install-deps.sh test) installs it", bin, err)
	}
	bad := badFonts(t)
	good, _ := os.ReadFile(dejaVu)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()
	if err := chromedp.Run(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	// loads returns "" when the font loads, else the error FontFace.load gave.
	loads := func(font []byte) string {
		t.Helper()
		var res string
		js := `(async () => {
			const b = Uint8Array.from(atob("` + base64.StdEncoding.EncodeToString(font) + `"), c => c.charCodeAt(0));
			try { await new FontFace("probe", b.buffer).load(); return ""; } catch (e) { return String(e) || "refused"; }
		})()`
		if err := chromedp.Run(ctx, chromedp.Evaluate(js, &res, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
			return p.WithAwaitPromise(true)
		})); err != nil {
			t.Fatalf("evaluate: %v", err)
		}
		return res
	}
	if msg := loads(good); msg != "" {
		t.Fatalf("Chromium refuses the unbroken DejaVuSans: %s", msg)
	}
	if msg := loads(kodatest.WOFF2(good)); msg != "" {
		t.Fatalf("Chromium refuses the unbroken DejaVuSans as WOFF2: %s", msg)
	}
	for name, c := range bad {
		if msg := loads(c.font); msg == "" {
			t.Errorf("%s: Chromium loads the font we refuse", name)
		} else {
			t.Logf("%s: Chromium: %s", name, msg)
		}
		if msg := loads(kodatest.WOFF2(c.font)); msg == "" {
			t.Errorf("%s (WOFF2): Chromium loads the font we refuse", name)
		}
	}
	// And the other way: every system font the checks accept (the upload limit of
	// 10 MB aside), Chromium loads; so they are not stricter than the browser.
	_ = filepath.WalkDir("/usr/share/fonts", func(p string, d os.DirEntry, err error) error {
		ext := strings.ToLower(filepath.Ext(p))
		if err != nil || d.IsDir() || ext != ".ttf" && ext != ".otf" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 10<<20 {
			return nil
		}
		tables, ok := sfntTables(b)
		if !ok || otsCheck("ttf", tables, nil) != nil {
			return nil
		}
		if msg := loads(b); msg != "" {
			t.Errorf("%s: accepted by the checks, refused by Chromium: %s", p, msg)
		}
		return nil
	})
	if k, err := os.ReadFile("/tmp/bk/kenpixel.ttf"); err == nil {
		if loads(k) == "" {
			t.Errorf("kenpixel.ttf: Chromium loads it")
		}
	}
}
