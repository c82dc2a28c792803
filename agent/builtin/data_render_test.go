package builtin_test

import (
	"image"
	"math"
	"strings"
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// dataElement returns the scene's only element of the given type.
func dataElement(t *testing.T, d *scene.Description, typ string) *scene.Element {
	t.Helper()
	var found *scene.Element
	for _, e := range d.Elements {
		if e.Type == typ {
			if found != nil {
				t.Fatalf("two %s elements: %s and %s", typ, found.ID, e.ID)
			}
			found = e
		}
	}
	if found == nil {
		t.Fatalf("no %s element in %v", typ, d.Types())
	}
	return found
}

func near(r, g, b float64, hex string, tol float64) bool {
	cr, cg, cb := hexRGB(hex)
	return math.Sqrt((r-cr)*(r-cr)+(g-cg)*(g-cg)+(b-cb)*(b-cb)) < tol
}

// saturatedBright: a bar's pixel, not the dark background or white text.
func saturatedBright(r, g, b float64) bool {
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	return mx > 90 && (mx-mn)/mx > 0.3
}

// ocrHas reports the words missing from the OCR of a frame.
func ocrMissing(t *testing.T, img image.Image, words ...string) []string {
	t.Helper()
	return ocrMissingIn(t, ocr(t, img), words...)
}

// ocrMissingIn reports the words missing from an OCR'd text, reading a digit 1 as the
// letter l or I tesseract often takes it for.
func ocrMissingIn(t *testing.T, text string, words ...string) []string {
	t.Helper()
	low := strings.ToLower(text)
	var missing []string
	for _, w := range words {
		w = strings.ToLower(w)
		if !strings.Contains(low, w) && !strings.Contains(low, strings.ReplaceAll(w, "1", "l")) && !strings.Contains(low, strings.ReplaceAll(w, "1", "i")) {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		t.Logf("ocr read %q", text)
	}
	return missing
}

func TestBarChartShowsThePromptsData(t *testing.T) {
	_, sb, _ := generate(t, "Q1 12, Q2 18, Q3 25, Q4 31", "", 0)
	d := readScene(t, sb)
	ch := dataElement(t, d, scene.TypeChart)
	if strings.Join(ch.Labels, ",") != "Q1,Q2,Q3,Q4" || len(ch.Values) != 4 || ch.Values[0] != 12 || ch.Values[3] != 31 {
		t.Fatalf("chart labels %q values %v, want Q1..Q4 and 12..31", ch.Labels, ch.Values)
	}
	if ch.Variant != "" && ch.Variant != scene.ChartBar {
		t.Fatalf("variant %q, want bars", ch.Variant)
	}
	c := render(t, browser(t), sb.Dir(), 1280, 720, 0.05, d.Duration)
	// Bars grow in: at the start almost nothing is drawn, at the end four bars stand.
	bars := func(img image.Image) int {
		most := 0
		b := img.Bounds()
		for y := b.Dy() / 3; y < b.Dy()*9/10; y += 3 {
			runs, in := 0, false
			for x := 0; x < b.Dx(); x++ {
				r, g, bb := rgbAt(img, x, y)
				hit := saturatedBright(r, g, bb)
				if hit && !in {
					runs++
				}
				in = hit
			}
			most = max(most, runs)
		}
		return most
	}
	if n := bars(c.frames[1]); n != 4 {
		t.Errorf("%d bars in the last frame, want 4", n)
	}
	if n := bars(c.frames[0]); n >= 4 {
		t.Errorf("%d bars already standing at the start, want them to grow in", n)
	}
	if miss := ocrMissing(t, c.frames[1], "Q1", "Q2", "Q3", "Q4", "12", "18", "25", "31"); len(miss) > 0 {
		t.Errorf("labels and values not drawn: %v", miss)
	}
}

// pieShares measures a pie's slices in a frame: the pie is the biggest block of the
// colours' pixels; around its centre each colour's share of the angles, and where the
// first colour starts (degrees clockwise from 12 o'clock).
func pieShares(t *testing.T, img image.Image, colors []string) ([]float64, float64) {
	t.Helper()
	b := img.Bounds()
	which := func(x, y int) int {
		r, g, bb := rgbAt(img, x, y)
		for i, c := range colors {
			if near(r, g, bb, c, 40) {
				return i
			}
		}
		return -1
	}
	cols := make([]int, b.Dx())
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			if which(x, y) >= 0 {
				cols[x]++
			}
		}
	}
	peak := 0
	for _, n := range cols {
		peak = max(peak, n)
	}
	// The pie's columns: the widest run of columns holding a good part of the peak (the
	// legend's swatches are narrow and short).
	x0, x1, best := 0, 0, 0
	for x := 0; x < len(cols); {
		if cols[x] < peak/5 {
			x++
			continue
		}
		s := x
		for x < len(cols) && cols[x] >= peak/5 {
			x++
		}
		if x-s > best {
			x0, x1, best = s, x, x-s
		}
	}
	cx := float64(x0+x1) / 2
	y0, y1 := -1, -1
	for y := 0; y < b.Dy(); y++ {
		if which(int(cx), y) >= 0 || which(int(cx)-best/4, y) >= 0 || which(int(cx)+best/4, y) >= 0 {
			if y0 < 0 {
				y0 = y
			}
			y1 = y
		}
	}
	cy, rad := float64(y0+y1)/2, float64(x1-x0)/2
	if rad < 20 {
		t.Fatalf("no pie found (radius %g)", rad)
	}
	shares := make([]float64, len(colors))
	start, prev, total := -1.0, -1, 0.0
	for k := 0; k < 720; k++ {
		deg := float64(k) / 2
		a := (deg - 90) * math.Pi / 180
		i := which(int(cx+math.Cos(a)*rad*0.8), int(cy+math.Sin(a)*rad*0.8))
		if i < 0 {
			continue
		}
		shares[i]++
		total++
		if i == 0 && prev != 0 && start < 0 && k > 0 {
			start = deg
		}
		prev = i
	}
	for i := range shares {
		shares[i] = shares[i] / total * 100
	}
	return shares, start
}

func TestPieChartSlicesMatchThePercentages(t *testing.T) {
	_, sb, _ := generate(t, "a pie chart of 40% red, 35% blue, 25% yellow", "", 0)
	d := readScene(t, sb)
	pie := dataElement(t, d, scene.TypeChart)
	if pie.Variant != scene.ChartPie || len(pie.Values) != 3 || len(pie.Colors) != 3 {
		t.Fatalf("pie %+v", pie)
	}
	want := []float64{40, 35, 25}
	c := render(t, browser(t), sb.Dir(), 1280, 720, d.Duration*0.12, d.Duration)
	shares, _ := pieShares(t, c.frames[1], pie.Colors)
	for i, w := range want {
		if math.Abs(shares[i]-w) > 3 {
			t.Errorf("slice %d (%s) covers %.1f%% of the turn, want %g%%", i, pie.Colors[i], shares[i], w)
		}
	}
	if miss := ocrMissing(t, c.frames[1], "Red", "Blue", "Yellow", "40%", "35%", "25%"); len(miss) > 0 {
		t.Errorf("legend or percentages not drawn: %v", miss)
	}
	// Slices sweep in: early on, the last slice is not drawn yet.
	early := colorShare(c.frames[0], pie.Colors[2], 40)
	late := colorShare(c.frames[1], pie.Colors[2], 40)
	if early >= late/2 {
		t.Errorf("the yellow slice covers %.3f early and %.3f at the end: no sweep", early, late)
	}
}

func TestDonutChartLegendInPortrait(t *testing.T) {
	_, sb, _ := generate(t, "donut chart: Rent 40%, Food 35%, Fun 25%", "", 0)
	d := readScene(t, sb)
	donut := dataElement(t, d, scene.TypeChart)
	if donut.Variant != scene.ChartDonut || strings.Join(donut.Labels, ",") != "Rent,Food,Fun" {
		t.Fatalf("donut %+v", donut)
	}
	for _, size := range [][2]int{{1280, 720}, {720, 1280}} {
		c := render(t, browser(t), sb.Dir(), size[0], size[1], d.Duration)
		shares, _ := pieShares(t, c.frames[0], donut.Colors)
		for i, w := range []float64{40, 35, 25} {
			if math.Abs(shares[i]-w) > 3 {
				t.Errorf("%dx%d: slice %d covers %.1f%%, want %g%%", size[0], size[1], i, shares[i], w)
			}
		}
		if miss := ocrMissing(t, c.frames[0], "Rent", "Food", "Fun", "40%"); len(miss) > 0 {
			t.Errorf("%dx%d: legend not drawn: %v", size[0], size[1], miss)
		}
	}
}

func TestLineGraphDrawsProgressively(t *testing.T) {
	_, sb, _ := generate(t, "A line graph of visitors over the week: Mon 120, Tue 150, Wed 90, Thu 200, Fri 170, Sat 240, Sun 260", "", 0)
	d := readScene(t, sb)
	line := dataElement(t, d, scene.TypeChart)
	if line.Variant != scene.ChartLine || len(line.Labels) != 7 || line.Labels[6] != "Sun" || line.Values[6] != 260 {
		t.Fatalf("line %+v", line)
	}
	if len(d.Elements) > 2 {
		t.Errorf("elements %v: the days' words drew subjects", d.Types())
	}
	mid := d.Scenes[1].End
	c := render(t, browser(t), sb.Dir(), 1280, 720, mid-0.5, d.Duration)
	extent := func(img image.Image) int {
		b := img.Bounds()
		right := 0
		for y := 0; y < b.Dy(); y += 2 {
			for x := 0; x < b.Dx(); x++ {
				r, g, bb := rgbAt(img, x, y)
				if near(r, g, bb, line.Color, 30) {
					right = max(right, x)
				}
			}
		}
		return right
	}
	if a, b := extent(c.frames[0]), extent(c.frames[1]); a >= b-20 {
		t.Errorf("the line reaches x=%d mid-way and x=%d at the end: not drawn progressively", a, b)
	}
	if miss := ocrMissing(t, c.frames[1], "Mon", "Wed", "Sun", "260", "Visitors"); len(miss) > 0 {
		t.Errorf("axis labels, values or title not drawn: %v", miss)
	}
}

func TestChecklistChecksItemsOneByOne(t *testing.T) {
	_, sb, _ := generate(t, "Checklist where three items get checked off one by one: Plan, Build, Ship", "", 0)
	d := readScene(t, sb)
	cl := dataElement(t, d, scene.TypeChecklist)
	if strings.Join(cl.Items, ",") != "Plan,Build,Ship" || len(cl.Times) != 3 {
		t.Fatalf("checklist items %q times %v", cl.Items, cl.Times)
	}
	times := []float64{cl.Times[0] - 0.1}
	for _, tm := range cl.Times {
		times = append(times, tm+0.6)
	}
	c := render(t, browser(t), sb.Dir(), 1280, 720, times...)
	prev := -1.0
	for i, f := range c.frames {
		share := colorShare(f, cl.Color, 30)
		if share <= prev*1.3 {
			t.Errorf("after check %d the accent covers %.4f, before it %.4f: no new check", i, share, prev)
		}
		prev = share
	}
	if miss := ocrMissing(t, c.frames[0], "Plan", "Build", "Ship"); len(miss) > 0 {
		t.Errorf("items not drawn: %v", miss)
	}
}

func TestCountdownShowsTheStatedNumbers(t *testing.T) {
	_, sb, _ := generate(t, "3, 2, 1, Go!", "", 0)
	d := readScene(t, sb)
	cd := dataElement(t, d, scene.TypeCountdown)
	if strings.Join(cd.Items, ",") != "3,2,1,Go!" || len(cd.Times) != 4 {
		t.Fatalf("countdown items %q times %v", cd.Items, cd.Times)
	}
	for _, e := range d.Elements {
		if e.Type == scene.TypeText {
			t.Errorf("the countdown's words are also a title: %+v", e)
		}
	}
	var times []float64
	for _, tm := range cd.Times {
		times = append(times, tm+0.45)
	}
	c := render(t, browser(t), sb.Dir(), 1280, 720, times...)
	for i, f := range c.frames {
		// Shrunk: tesseract reads glyphs a few dozen pixels high, not a screen-high one.
		if miss := ocrMissing(t, shrink(f, 4), strings.TrimSuffix(cd.Items[i], "!")); len(miss) > 0 {
			t.Errorf("at %gs: %q not shown", times[i], cd.Items[i])
		}
	}
}

func TestClockBlackOnCream(t *testing.T) {
	_, sb, _ := generate(t, "Minimal clock whose hands sweep around once, black on cream", "", 0)
	d := readScene(t, sb)
	clock := dataElement(t, d, scene.TypeClock)
	if clock.Color != "#111111" || d.Background.Colors[0] != "#f5efe0" {
		t.Fatalf("clock ink %s on %v, want black on cream", clock.Color, d.Background.Colors)
	}
	if clock.Count != 1 {
		t.Errorf("minute hand turns %d times, want once", clock.Count)
	}
	kf := clock.Tracks["progress"]
	a, b := kf[0].T, kf[len(kf)-1].T
	for _, k := range kf {
		if k.V == 0 {
			a = k.T
		}
	}
	c := render(t, browser(t), sb.Dir(), 640, 360, a, (a+b)/2, b)
	// The corners show the cream background; the hands move between frames.
	r, g, bb := rgbAt(c.frames[2], 630, 350)
	if !near(r, g, bb, "#f5efe0", 45) {
		t.Errorf("corner is rgb(%g,%g,%g), want cream", r, g, bb)
	}
	if dd := diff(c.frames[0], c.frames[1]); dd < 0.2 {
		t.Errorf("hands did not move (frame difference %.3f)", dd)
	}
	if dark := colorShare(c.frames[2], "#111111", 60); dark < 0.01 {
		t.Errorf("black ink covers %.4f of the frame: no clock face drawn", dark)
	}
}

func TestProgressBarAndCounterLabels(t *testing.T) {
	_, sb, _ := generate(t, "progress bar fills to 75%", "", 0)
	d := readScene(t, sb)
	pb := dataElement(t, d, scene.TypeProgress)
	if pb.To != 75 {
		t.Fatalf("progress to %g, want 75", pb.To)
	}
	c := render(t, browser(t), sb.Dir(), 1280, 720, d.Duration)
	// The filled part is three quarters of the track: measure the fill colour's run.
	bd := c.frames[0].Bounds()
	best := 0
	minX, maxX := bd.Dx(), 0
	for y := 0; y < bd.Dy(); y += 2 {
		n := 0
		lo, hi := bd.Dx(), 0
		for x := 0; x < bd.Dx(); x++ {
			r, g, b := rgbAt(c.frames[0], x, y)
			if saturatedBright(r, g, b) {
				n++
				lo, hi = min(lo, x), max(hi, x)
			}
		}
		if n > best {
			best, minX, maxX = n, lo, hi
		}
	}
	track := 2 * pb.Size * pb.Aspect * 720 // the track's width at scale 1, in pixels
	if ratio := float64(maxX-minX) / track; ratio < 0.62 || ratio > 0.85 {
		t.Errorf("fill spans %d px of a %.0f px track (%.2f), want about 0.75", maxX-minX, track, ratio)
	}
	if miss := ocrMissing(t, c.frames[0], "75%"); len(miss) > 0 {
		t.Errorf("percent label not drawn")
	}

	_, sb, _ = generate(t, "counter to 10,000 subscribers", "", 0)
	d = readScene(t, sb)
	ct := dataElement(t, d, scene.TypeCounter)
	if ct.To != 10000 || ct.Sub != "subscribers" {
		t.Fatalf("counter to %g %q", ct.To, ct.Sub)
	}
	c = render(t, browser(t), sb.Dir(), 1280, 720, d.Duration)
	if miss := ocrMissing(t, c.frames[0], "10,000", "subscribers"); len(miss) > 0 {
		t.Errorf("counter not drawn: %v", miss)
	}
}

// In a vertical story everything stays inside the safe area: nothing but the background
// in the bands platform UI covers.
func TestVerticalSafeArea(t *testing.T) {
	_, sb, _ := generate(t, `A vertical story with the words "Swipe up" across the bottom and a chart: Q1 12, Q2 18, Q3 25`, "", 0)
	d := readScene(t, sb)
	if d.SafeArea == nil {
		t.Fatal("no safe area in the description")
	}
	w, h := 540, 960
	c := render(t, browser(t), sb.Dir(), w, h, d.Duration)
	f := c.frames[0]
	x0, y0, cw, ch := d.ContentRect(float64(w), float64(h))
	// Text and bars are far from the background's gradient: find their pixels.
	bgAt := func(y int) (float64, float64, float64) { return rgbAt(f, 2, y) }
	var outside int
	for y := 0; y < h; y++ {
		br, bgc, bb := bgAt(y)
		for x := 4; x < w-4; x++ {
			r, g, b := rgbAt(f, x, y)
			if math.Abs(r-br)+math.Abs(g-bgc)+math.Abs(b-bb) < 120 {
				continue
			}
			if float64(y) < y0 || float64(y) > y0+ch || float64(x) < x0-2 || float64(x) > x0+cw+2 {
				outside++
			}
		}
	}
	if outside > 0 {
		t.Errorf("%d content pixels outside the safe area %.0f,%.0f %.0fx%.0f", outside, x0, y0, cw, ch)
	}
	if miss := ocrMissing(t, f, "Swipe", "Q3"); len(miss) > 0 {
		t.Errorf("not drawn in the story: %v", miss)
	}
}

// shrink averages k×k blocks of pixels: a smooth downscale.
func shrink(img image.Image, k int) image.Image {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx()/k, b.Dy()/k))
	for y := 0; y < b.Dy()/k; y++ {
		for x := 0; x < b.Dx()/k; x++ {
			var sr, sg, sb float64
			for dy := 0; dy < k; dy++ {
				for dx := 0; dx < k; dx++ {
					r, g, bb := rgbAt(img, x*k+dx, y*k+dy)
					sr, sg, sb = sr+r, sg+g, sb+bb
				}
			}
			n := float64(k * k)
			i := out.PixOffset(x, y)
			out.Pix[i], out.Pix[i+1], out.Pix[i+2], out.Pix[i+3] = uint8(sr/n), uint8(sg/n), uint8(sb/n), 255
		}
	}
	return out
}

// TestBarChartColourScale: "blue to red" over temperatures colours by value, whatever
// the bars' order: the coldest month's bar is blue, the hottest's red, and the months
// between stop on the way, the milder further along.
func TestBarChartColourScale(t *testing.T) {
	_, sb, _ := generate(t, "Bar chart of temperatures: Jan 5, Apr 14, Jul 28, Oct 16, blue to red", "", 0)
	d := readScene(t, sb)
	ch := dataElement(t, d, scene.TypeChart)
	if len(ch.ColorScale) != 2 || len(ch.Colors) != 0 {
		t.Fatalf("colour scale %v and colours %v, want a scale of two and no colour per bar", ch.ColorScale, ch.Colors)
	}
	img := render(t, browser(t), sb.Dir(), 1280, 720, d.Duration).frames[0]
	b := img.Bounds()
	hue := func(x, y int) (float64, bool) {
		r, g, bb := rgbAt(img, x, y)
		if !saturatedBright(r, g, bb) {
			return 0, false
		}
		mx, mn := math.Max(r, math.Max(g, bb)), math.Min(r, math.Min(g, bb))
		switch mx {
		case r:
			return 60 * math.Mod((g-bb)/(mx-mn)+6, 6), true
		case g:
			return 60 * ((bb-r)/(mx-mn) + 2), true
		}
		return 60 * ((r-g)/(mx-mn) + 4), true
	}
	// The bars: runs of bar pixels along the lowest row that has four; each bar's
	// colour is read a few pixels above the baseline, in the middle of its run.
	var hues []float64
	for y := b.Dy() * 9 / 10; y > b.Dy()/3 && len(hues) != 4; y-- {
		hues = hues[:0]
		start := -1
		for x := 0; x <= b.Dx(); x++ {
			_, ok := hue(x, y)
			if ok && x < b.Dx() && start < 0 {
				start = x
			}
			if (!ok || x == b.Dx()) && start >= 0 {
				if x-start > 8 {
					h, _ := hue((start+x)/2, y-4)
					hues = append(hues, h)
				}
				start = -1
			}
		}
	}
	if len(hues) != 4 {
		t.Fatalf("found %d bars, want 4", len(hues))
	}
	// Hue from blue (about 210°) on towards red (360°) through violet.
	along := func(h float64) float64 {
		if h < 90 {
			h += 360
		}
		return h
	}
	if h := along(hues[0]); h < 190 || h > 235 {
		t.Errorf("Jan (5, the coldest) is hue %.0f°, want blue", hues[0])
	}
	if h := along(hues[2]); h < 345 || h > 375 {
		t.Errorf("Jul (28, the hottest) is hue %.0f°, want red", hues[2])
	}
	apr, oct := along(hues[1]), along(hues[3])
	if apr <= 240 || oct >= 345 || apr >= oct {
		t.Errorf("Apr (14) is hue %.0f° and Oct (16) %.0f°, want both between blue and red, Oct further along", hues[1], hues[3])
	}
}
