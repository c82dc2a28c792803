package suite

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// stillsPerPrompt is how many frames of each video the contact sheet shows.
const stillsPerPrompt = 4

// SheetPageRows is how many prompts a page of the contact sheet holds: few enough that
// a page read at screen size still shows what each frame depicts.
const SheetPageRows = 8

// pickStills keeps four frames spread evenly over the video (at 1/8, 3/8, 5/8 and 7/8 of
// it), so a row of the sheet shows the entry, the holds and the exit.
func pickStills(frames []frame) []frame {
	if len(frames) == 0 {
		return nil
	}
	out := make([]frame, 0, stillsPerPrompt)
	for i := range stillsPerPrompt {
		j := min((2*i+1)*len(frames)/(2*stillsPerPrompt), len(frames)-1)
		out = append(out, frames[j])
	}
	return out
}

const (
	sheetCell   = 320 // column width: the widest frame (landscape 320×180)
	sheetGap    = 6
	sheetLineH  = 15
	sheetLines  = 4 // caption lines under a row: id and verdict, prompt (wrapped)
	sheetMargin = 8
)

var (
	sheetBG   = color.RGBA{24, 24, 27, 255}
	sheetText = color.RGBA{235, 235, 235, 255}
	sheetPass = color.RGBA{110, 231, 140, 255}
	sheetFail = color.RGBA{248, 113, 113, 255}
)

// WriteSheet writes the contact sheet of results to path (PNG): per prompt a row of its
// four stills with the prompt's id, verdict and text under it. With more than
// SheetPageRows prompts the whole-suite sheet has half-size stills (150 prompts at full
// size would be 35,000 pixels tall) and pages path-1.png, path-2.png… of SheetPageRows
// rows each have them at full size, to read at screen size.
func WriteSheet(path string, results []*Result) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("contact sheet: %w", err)
	}
	if len(results) <= SheetPageRows {
		return writePNG(path, sheet(results, 1))
	}
	if err := writePNG(path, sheet(results, 2)); err != nil {
		return err
	}
	base := strings.TrimSuffix(path, filepath.Ext(path))
	for p := 0; p*SheetPageRows < len(results); p++ {
		page := results[p*SheetPageRows : min((p+1)*SheetPageRows, len(results))]
		if err := writePNG(fmt.Sprintf("%s-%d.png", base, p+1), sheet(page, 1)); err != nil {
			return err
		}
	}
	return nil
}

// SheetPages lists the page files WriteSheet writes for n results beside path.
func SheetPages(path string, n int) []string {
	if n <= SheetPageRows {
		return nil
	}
	base := strings.TrimSuffix(path, filepath.Ext(path))
	var out []string
	for p := 0; p*SheetPageRows < n; p++ {
		out = append(out, fmt.Sprintf("%s-%d.png", base, p+1))
	}
	return out
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("contact sheet: %w", err)
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("contact sheet %s: %w", path, err)
	}
	return f.Close()
}

func rowHeight(r *Result, scale int) int {
	h := 180
	for _, f := range r.Stills {
		h = max(h, f.h)
	}
	return h / scale
}

// shrink averages scale×scale blocks of pixels.
func shrink(f frame, scale int) frame {
	if scale == 1 {
		return f
	}
	out := frame{w: f.w / scale, h: f.h / scale}
	out.pix = make([]byte, out.w*out.h*3)
	for y := range out.h {
		for x := range out.w {
			for c := range 3 {
				sum := 0
				for dy := range scale {
					for dx := range scale {
						sum += int(f.pix[((y*scale+dy)*f.w+x*scale+dx)*3+c])
					}
				}
				out.pix[(y*out.w+x)*3+c] = byte(sum / (scale * scale))
			}
		}
	}
	return out
}

func sheet(results []*Result, scale int) *image.RGBA {
	cell := sheetCell / scale
	w := sheetMargin*2 + stillsPerPrompt*cell + (stillsPerPrompt-1)*sheetGap
	h := sheetMargin
	for _, r := range results {
		h += rowHeight(r, scale) + sheetLines*sheetLineH + sheetGap*2
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), &image.Uniform{sheetBG}, image.Point{}, draw.Src)
	y := sheetMargin
	cols := (w - 2*sheetMargin) / 7
	for _, r := range results {
		rh := rowHeight(r, scale)
		for i, f := range r.Stills {
			f = shrink(f, scale)
			x0 := sheetMargin + i*(cell+sheetGap) + (cell-f.w)/2
			for py := 0; py < f.h; py++ {
				for px := 0; px < f.w; px++ {
					o := (py*f.w + px) * 3
					img.SetRGBA(x0+px, y+py, color.RGBA{f.pix[o], f.pix[o+1], f.pix[o+2], 255})
				}
			}
		}
		if len(r.Stills) == 0 {
			label(img, sheetMargin, y+rh/2, "no frames: "+firstOr(r.Failures, "not rendered"), sheetFail)
		}
		ty := y + rh + sheetLineH
		verdict, col := "PASS", sheetPass
		if !r.Passed() {
			col = sheetFail
			verdict = fmt.Sprintf("FAIL %d: %s", len(r.Failures)+len(r.Semantic), firstOr(append(append([]string(nil), r.Semantic...), r.Failures...), ""))
		}
		label(img, sheetMargin, ty, clip(r.ID+"  "+verdict, cols), col)
		for _, line := range wrap(r.Prompt, cols, sheetLines-1) {
			ty += sheetLineH
			label(img, sheetMargin, ty, line, sheetText)
		}
		y += rh + sheetLines*sheetLineH + sheetGap*2
	}
	return img
}

func firstOr(ss []string, d string) string {
	if len(ss) == 0 {
		return d
	}
	return ss[0]
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "~"
	}
	return s
}

// wrap breaks s into at most lines lines of n characters at spaces.
func wrap(s string, n, lines int) []string {
	var out []string
	cur := ""
	for _, w := range strings.Fields(s) {
		if cur != "" && len([]rune(cur))+1+len([]rune(w)) > n {
			out = append(out, cur)
			cur = ""
		}
		if cur != "" {
			cur += " "
		}
		cur += w
	}
	if cur != "" {
		out = append(out, cur)
	}
	if len(out) > lines {
		out = out[:lines]
		out[lines-1] = clip(out[lines-1]+" ...", n)
	}
	return out
}

// label draws ASCII text with the 7×13 bitmap face (no font file needed); other
// characters are replaced so quotes and dashes still read.
func label(img *image.RGBA, x, y int, s string, c color.Color) {
	s = strings.NewReplacer("“", `"`, "”", `"`, "‘", "'", "’", "'", "–", "-", "—", "-", "…", "...", "→", "->", "×", "x").Replace(s)
	d := &font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}
