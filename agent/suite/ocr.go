package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"time"
	"unicode"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/agent/stills"
)

// pickTimeJS finds when a text is fully on screen: among the elements that carry it, the
// longest stretch where the element is visible, opaque, fully revealed and not shrunk,
// and answers its middle (or -1 when no element carries the text).
const pickTimeJS = `(function (want) {
  var S = window.__scene, K = window.__koda, best = -1, bestLen = -1, found = false, color = '', color2 = '', on = [];
  // As runtime.js: the shapes that show their words inside, and its luma().
  var LABELLED = { circle: 1, rect: 1, star: 1, heart: 1, triangle: 1, icon: 1, asset: 1, morph: 1 };
  function luma(hex) {
    hex = hex.replace('#', '');
    if (hex.length === 3) hex = hex[0] + hex[0] + hex[1] + hex[1] + hex[2] + hex[2];
    var n = parseInt(hex, 16);
    return (0.299 * ((n >> 16) & 255) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255)) / 255;
  }
  want = want.toLowerCase();
  S.elements.forEach(function (e) {
    var hay = ((e.text || '') + ' ' + (e.sub || '') + ' ' + (e.items || []).join(' ')).toLowerCase();
    if (hay.indexOf(want) < 0) return;
    found = true;
    // A countdown shows one item at a time: only while the wanted one is up counts.
    var from = -1, until = Infinity;
    if (e.type === 'countdown' && e.times && e.items) {
      for (var k = 0; k < e.items.length; k++) {
        if (String(e.items[k]).toLowerCase().indexOf(want) >= 0 && e.times[k] !== undefined) {
          from = e.times[k] + 0.4;
          until = k + 1 < e.times.length ? e.times[k + 1] - 0.2 : Infinity;
          break;
        }
      }
    }
    var runStart = -1, n = Math.floor(S.duration / 0.05 + 1e-9);
    for (var i = 0; i <= n + 1; i++) {
      var t = Math.min(i * 0.05, S.duration), ok = false;
      if (i <= n) {
        var s = K.state(e, t), vis = t >= (e.start || 0) && (!e.end || t <= e.end);
        ok = vis && s.op >= 0.98 && s.prog >= 0.999 && s.scale * Math.min(s.sx, s.sy) >= 0.85 && t >= from && t < until;
      }
      if (ok && runStart < 0) runStart = t;
      if (!ok && runStart >= 0) {
        var end = (i - 1) * 0.05, len = end - runStart;
        if (len > bestLen) {
          best = (runStart + end) / 2; bestLen = len;
          color = e.type === 'text' ? e.color : e.type === 'card' ? '#1f2937' : (e.text_color || e.color2 || '#ffffff');
          // A text in two colours (runtime.js splits its letters between them).
          color2 = e.type === 'text' ? (e.color2 || '') : '';
          // A card's words sit on the card, not on the backdrop; a labelled shape's (a
          // speech bubble saying "Hi!") on the shape, in its text colour or the one the
          // runtime picks for the shape's lightness.
          on = e.type === 'card' ? ['#ffffff'] : S.background.colors;
          if (LABELLED[e.type] && e.text) {
            var body = e.color || '#ffffff';
            color = e.text_color || (luma(body) > 0.6 ? '#1f2937' : '#ffffff');
            on = [body];
          }
          if ((e.type === 'checklist' || e.type === 'countdown') && (e.items || []).length) {
            color = e.type === 'countdown' ? (e.color || '#ffffff') : (e.text_color || '#ffffff');
          }
        }
        runStart = -1;
      }
    }
  });
  return {t: found ? (bestLen < 0 ? -2 : best) : -1, color: color || '#ffffff',
    color2: color2, background: on};
})(%s)`

// readText renders the moment text is fully shown as a w×h still and reads it with
// tesseract. Stills go to keep (for people looking at failures).
func (r *runner) readText(ctx context.Context, dir string, _ *scene.Description, text string, w, h int, keep string) (string, error) {
	// Generous: a loaded CI machine can take many seconds per 2× still.
	// The page is served to the tab from dir without file:// access (stills.Browser.Page).
	tctx, done, err := r.browser.Page(ctx, dir, "?t=0", w, h, 2*time.Minute)
	if err != nil {
		return "", fmt.Errorf("load page: %w", err)
	}
	defer done()

	q, _ := json.Marshal(text)
	base := stills.Origin + scene.FileIndex
	var pick struct {
		T          float64  `json:"t"`
		Color      string   `json:"color"`
		Color2     string   `json:"color2"`
		Background []string `json:"background"`
	}
	if err := chromedp.Run(tctx,
		chromedp.Poll("window.__exportReady === true", nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Evaluate(fmt.Sprintf(pickTimeJS, q), &pick),
	); err != nil {
		return "", fmt.Errorf("load page: %w", err)
	}
	at := pick.T
	switch {
	case at == -1:
		return "", fmt.Errorf("no element of the scene carries it")
	case at < 0:
		return "", fmt.Errorf("it is never fully shown (hidden, transparent, unrevealed or shrunk the whole time)")
	}
	// Legibility first: WCAG's 3:1 for large text against every background stop.
	// A text in two colours is masked by both, and both must be legible.
	inks := []string{pick.Color}
	if pick.Color2 != "" {
		inks = append(inks, pick.Color2)
	}
	for _, ink := range inks {
		for _, bg := range pick.Background {
			if c := contrastRatio(ink, bg); c < MinTextContrast {
				return "", fmt.Errorf("its colour %s has contrast %.1f:1 with the background %s, below %.0f:1", ink, c, bg, MinTextContrast)
			}
		}
	}
	mask := strings.Join(inks, ",")
	got, err := r.ocrAt(ctx, tctx, base, at, w, h, 1, text, keep, "")
	if err != nil || textMatches(text, got) {
		return got, err
	}
	// Tesseract loses light words on dark, busy backdrops that a person reads at a
	// glance; having passed the contrast check, the words are read again from a mask
	// of the pixels in the text's colour, at twice the size.
	got2, err := r.ocrAt(ctx, tctx, base, at, w, h, 2, text, keep, mask)
	if err != nil || textMatches(text, got2) {
		return got + " | " + got2, err
	}
	// Doubled, a title's glyphs grow past the sizes tesseract was trained on (a bold
	// "50%" 200 px high reads as "590%", and still does at 1×): at half size it reads.
	got3, err := r.ocrAt(ctx, tctx, base, at, w, h, 0.5, text, keep, mask)
	return got + " | " + got2 + " | " + got3, err
}

func (r *runner) ocrAt(ctx, tctx context.Context, base string, at float64, w, h int, scale float64, text, keep, mask string) (string, error) {
	var png []byte
	still := func() error {
		return chromedp.Run(tctx,
			chromedp.EmulateViewport(int64(w), int64(h), chromedp.EmulateScale(scale)),
			chromedp.Navigate(base+"?t="+url.QueryEscape(fmt.Sprintf("%.3f", at))),
			chromedp.Poll("window.__exportReady === true", nil, chromedp.WithPollingTimeout(10*time.Second)),
			chromedp.ActionFunc(func(ctx context.Context) error {
				var err error
				png, err = page.CaptureScreenshot().WithFormat(page.CaptureScreenshotFormatPng).Do(ctx)
				return err
			}),
		)
	}
	err := still()
	// Navigating the same tab again races chromedp's record of the page's execution
	// context: now and then its poll names the context the navigation just destroyed
	// (seen once in a full make test). Loading the still again is then enough.
	if err != nil && strings.Contains(err.Error(), "Cannot find context with specified id") {
		err = still()
	}
	if err != nil {
		return "", fmt.Errorf("still at %.2fs: %w", at, err)
	}
	if mask != "" {
		var err error
		if png, err = maskColor(png, mask); err != nil {
			return "", err
		}
	}
	name := fmt.Sprintf("%s_%.2fs_x%g.png", slug(text), at, scale)
	if mask != "" {
		name = fmt.Sprintf("%s_%.2fs_x%g_mask.png", slug(text), at, scale)
	}
	saveStill(keep, name, png)
	f, err := os.CreateTemp("", "koda-still-*.png")
	if err != nil {
		return "", err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(png); err != nil {
		f.Close()
		return "", err
	}
	f.Close()
	// Sparse-text mode first (titles among shapes); uniform-block mode reads a long
	// wrapped quote better. Either reading counts.
	var all []string
	for _, psm := range []string{"11", "6"} {
		out, err := exec.CommandContext(ctx, "tesseract", f.Name(), "-", "--psm", psm).Output()
		if err != nil {
			return "", fmt.Errorf("tesseract: %w", err)
		}
		got := strings.Join(strings.Fields(string(out)), " ")
		all = append(all, got)
		if textMatches(text, got) {
			return got, nil
		}
	}
	return strings.Join(all, " | "), nil
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		} else if b.Len() > 0 {
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// textMatches reports whether every word of want was read, allowing one misread letter
// in four (tesseract confuses rn/m, l/1 on stylised letters) but none in short words.
func textMatches(want, got string) bool {
	read := words(got)
	joined := strings.Join(read, "")
	for _, w := range words(want) {
		ok := strings.Contains(joined, w) && len(w) >= 4
		for _, r := range read {
			if ok || editDistance(w, r) <= len([]rune(w))/4 {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// MinTextContrast is WCAG 2's minimum contrast for large text (AA).
const MinTextContrast = 3.0

func hexToRGB(hex string) (float64, float64, float64) {
	var r, g, b int
	hex = strings.TrimPrefix(hex, "#")
	if len(hex) == 3 {
		hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
	}
	fmt.Sscanf(hex, "%02x%02x%02x", &r, &g, &b)
	return float64(r), float64(g), float64(b)
}

func relLum(hex string) float64 {
	r, g, b := hexToRGB(hex)
	lin := func(c float64) float64 {
		c /= 255
		if c <= 0.03928 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrastRatio is the WCAG contrast ratio of two colours (1..21).
func contrastRatio(a, b string) float64 {
	la, lb := relLum(a), relLum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// maskColor turns a still into black text on white: pixels near a text colour (hexes,
// comma-separated) black, everything else white.
func maskColor(data []byte, hexes string) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("decode still: %w", err)
	}
	var inks [][3]float64
	for _, h := range strings.Split(hexes, ",") {
		r, g, b := hexToRGB(h)
		inks = append(inks, [3]float64{r, g, b})
	}
	b := img.Bounds()
	out := image.NewGray(b)
	// Screenshots decode as NRGBA (opaque); reading Pix directly is ~50× faster than At.
	nrgba, fast := img.(*image.NRGBA)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			var r, g, bb uint32
			if fast {
				i := nrgba.PixOffset(x, y)
				r, g, bb = uint32(nrgba.Pix[i])<<8, uint32(nrgba.Pix[i+1])<<8, uint32(nrgba.Pix[i+2])<<8
			} else {
				r, g, bb, _ = img.At(x, y).RGBA()
			}
			v := uint8(255)
			for _, c := range inks {
				dr, dg, db := float64(r>>8)-c[0], float64(g>>8)-c[1], float64(bb>>8)-c[2]
				if dr*dr+dg*dg+db*db < 70*70 {
					v = 0
				}
			}
			out.Pix[(y-b.Min.Y)*out.Stride+(x-b.Min.X)] = v
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
