package scene_test

import (
	"image"
	"math"
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// The chart tests play one chart whose progress runs 0→1 over its first three seconds
// and judge what is drawn: the bars, polygons and cells by their colours.

func chartOf(variant string, set func(e *scene.Element)) *scene.Description {
	e := &scene.Element{ID: "c", Type: scene.TypeChart, Variant: variant, Size: 0.3, Aspect: 1.6, Color: "#64748b",
		Tracks: map[string][]scene.Keyframe{"progress": {{T: 0, V: 0}, {T: 3, V: 1}}}}
	set(e)
	return sceneOf(4, e)
}

func greenish(r, g, b float64) bool { return g > 90 && g > r*1.4 && g > b*1.2 }
func yellowish(r, g, b float64) bool {
	return r > 150 && g > 130 && b < 90
}

func TestChartWaterfallStepsFromTotalToTotal(t *testing.T) {
	d := chartOf(scene.ChartWaterfall, func(e *scene.Element) {
		e.Values = []float64{12.4, 1.8, -0.9, 0.6, -0.3, 13.6}
		e.Labels = []string{"Last year", "New", "Lost", "Price", "Costs", "This year"}
	})
	s := load(t, d)
	early, end := s.frame(0.9), s.frame(3.5)
	if n := components(early, greenish, 60); n != 1 {
		t.Errorf("%d green (up) bars early on, want the first change only", n)
	}
	if n := components(early, reddish, 60); n != 0 {
		t.Errorf("%d red (down) bars early on, want none yet: bars come one after another", n)
	}
	if n := components(end, greenish, 60); n != 2 {
		t.Errorf("%d green bars at the end, want 2 (+1.8, +0.6)", n)
	}
	if n := components(end, reddish, 60); n != 2 {
		t.Errorf("%d red bars at the end, want 2 (−0.9, −0.3)", n)
	}
	// A rise floats on the start total: its foot is above the axis, and a fall hangs
	// below the rise's top.
	up, down := find(end, greenish), find(end, reddish)
	tot := find(end, greyish)
	if up.maxY >= tot.maxY-5 {
		t.Errorf("the first rise reaches down to y=%d, the axis is at %d: it should float", up.maxY, tot.maxY)
	}
	if down.minY < up.minY {
		t.Errorf("a fall (top y=%d) stands above the rise before it (top y=%d)", down.minY, up.minY)
	}
	if up.minX < 0 || tot.maxX >= fw || tot.minX < 0 {
		t.Errorf("bars spill out of the frame: %+v %+v", up, tot)
	}
}

func TestChartRadarGrowsFromTheCentre(t *testing.T) {
	d := chartOf(scene.ChartRadar, func(e *scene.Element) {
		e.Labels = []string{"Speed", "Price", "Battery", "Design", "Camera", "Support"}
		e.Values = []float64{8, 5, 7, 9, 6, 7, 6, 9, 8, 6, 7, 5}
		e.Series = []string{"Product A", "Product B"}
		e.Colors = []string{"#ef4444", "#3b82f6"}
		e.To = 10
		e.Color = ""
	})
	s := load(t, d)
	a, b, end := s.frame(0.8), s.frame(1.3), s.frame(3.5)
	if find(a, reddish).n >= find(b, reddish).n {
		t.Errorf("the first polygon does not grow: %d then %d pixels", find(a, reddish).n, find(b, reddish).n)
	}
	if find(b, bluish).n > find(end, bluish).n/4 {
		t.Errorf("the second series is drawn with the first (%d of %d pixels)", find(b, bluish).n, find(end, bluish).n)
	}
	red, blue := find(end, reddish), find(end, bluish)
	if red.n == 0 || blue.n == 0 {
		t.Fatalf("series missing at the end: red %d, blue %d pixels", red.n, blue.n)
	}
	// Both polygons grow from one centre: each one's middle lies inside the other.
	in := func(p, q blob) bool {
		return p.cx > float64(q.minX) && p.cx < float64(q.maxX) && p.cy > float64(q.minY) && p.cy < float64(q.maxY)
	}
	if !in(red, blue) || !in(blue, red) {
		t.Errorf("the polygons do not share a centre: %+v and %+v", red, blue)
	}
}

func TestChartHeatmapFillsAndOutlinesTheBest(t *testing.T) {
	d := chartOf(scene.ChartHeatmap, func(e *scene.Element) {
		e.Series = []string{"Mon", "Tue", "Wed"}
		e.Labels = []string{"8am", "12pm", "4pm", "8pm"}
		e.Values = []float64{2, 9, 4, 1, 3, 8, 5, 2, 2, 7, 6, 1}
		e.ColorScale = []string{"#1e3a8a", "#ef4444"}
		e.Count = 1
		e.Color2 = "#facc15"
	})
	s := load(t, d)
	mid, end := s.frame(1.2), s.frame(3.9)
	if components(mid, reddish, 4) >= components(end, reddish, 4) && find(mid, bright).n >= find(end, bright).n {
		t.Errorf("cells do not fill in over time")
	}
	if find(mid, yellowish).n > 0 {
		t.Errorf("the best cell is outlined before the grid is full")
	}
	ring, hot := find(end, yellowish), find(end, reddish)
	if ring.n == 0 {
		t.Fatalf("no outline around the highest cell")
	}
	// The outline is around the reddest (highest) cell: Mon 12pm.
	if hot.n == 0 || ring.cx < float64(hot.minX)-20 || ring.cx > float64(hot.maxX)+20 {
		t.Errorf("outline at x=%.0f, the hottest cells span x=%d..%d", ring.cx, hot.minX, hot.maxX)
	}
}

func TestChartScatterDotsThenLine(t *testing.T) {
	d := chartOf(scene.ChartScatter, func(e *scene.Element) {
		e.Size = 0.4
		e.Values = []float64{1, 52, 2, 55, 3, 61, 5, 70, 6, 74, 8, 85, 9, 91}
		e.Labels = []string{"Hours", "Score"}
		e.Range = []float64{0, 10, 0, 100}
		e.Fit = []float64{4.88, 46.01}
		e.Color, e.Color2 = "#ef4444", "#3b82f6"
		e.Reveal = "pop"
	})
	s := load(t, d)
	early, mid, end := s.frame(0.7), s.frame(1.8), s.frame(3.5)
	// Counted before the line crosses (and so splits) them.
	if a, b := components(early, reddish, 3), components(mid, reddish, 3); a >= b || b != 7 {
		t.Errorf("%d dots early, %d at the end: want them popping in one by one to all 7", a, b)
	}
	if find(mid, bluish).n > 0 {
		t.Errorf("the line of best fit is drawn before the dots are all in")
	}
	line := find(end, bluish)
	if line.n == 0 || line.w() < fw/4 {
		t.Fatalf("no line of best fit across the plot at the end: %+v", line)
	}
	// A rising line: its left end is lower (larger y) than its right.
	var ly, ry, ln, rn float64
	for y := line.minY; y <= line.maxY; y++ {
		for x := line.minX; x <= line.maxX; x++ {
			c := end.RGBAAt(x, y)
			if !bluish(float64(c.R), float64(c.G), float64(c.B)) {
				continue
			}
			if x < (line.minX+line.maxX)/2 {
				ly, ln = ly+float64(y), ln+1
			} else {
				ry, rn = ry+float64(y), rn+1
			}
		}
	}
	if ln == 0 || rn == 0 || ly/ln <= ry/rn {
		t.Errorf("the line does not rise left to right: left y %.1f, right y %.1f", ly/ln, ry/rn)
	}
}

func TestChartTreemapBlocksByArea(t *testing.T) {
	d := chartOf(scene.ChartTreemap, func(e *scene.Element) {
		e.Size = 0.4
		e.Values = []float64{30, 50, 15, 5}
		e.Colors = []string{"#3b82f6", "#ef4444", "#22c55e", "#9ca3af"}
		e.Reveal = "pop"
	})
	s := load(t, d)
	early, end := s.frame(0.5), s.frame(3.5)
	if find(early, reddish).n == 0 || find(early, bluish).n > 0 {
		t.Errorf("blocks do not come in largest first: red %d, blue %d pixels early", find(early, reddish).n, find(early, bluish).n)
	}
	red, blue, green := find(end, reddish), find(end, bluish), find(end, greenish)
	if red.n == 0 || blue.n == 0 || green.n == 0 {
		t.Fatalf("blocks missing: red %d blue %d green %d", red.n, blue.n, green.n)
	}
	// Areas follow the values (50 : 30 : 15), and no block is a sliver.
	if k := float64(red.n) / float64(blue.n); k < 50.0/30*0.75 || k > 50.0/30*1.25 {
		t.Errorf("red/blue area %.2f, want about %.2f", k, 50.0/30)
	}
	if k := float64(blue.n) / float64(green.n); k < 2*0.7 || k > 2*1.3 {
		t.Errorf("blue/green area %.2f, want about 2", k)
	}
	for _, b := range []blob{red, blue, green} {
		if r := float64(b.w()) / float64(b.h()); r < 1.0/3.5 || r > 3.5 {
			t.Errorf("a block %d×%d is far from square", b.w(), b.h())
		}
	}
	if red.minX > blue.minX && red.minY > blue.minY {
		t.Errorf("the largest block is not first (top left): red at %d,%d, blue at %d,%d", red.minX, red.minY, blue.minX, blue.minY)
	}
}

func TestChartPyramidSidesAndMorph(t *testing.T) {
	d := chartOf(scene.ChartPyramid, func(e *scene.Element) {
		e.Size = 0.4
		e.Labels = []string{"60+", "30–59", "0–29"}
		e.Series = []string{"Men", "Women"}
		// First period: a wide base; second: a column.
		e.Values = []float64{1, 2, 4, 1, 2, 4, 3, 3, 3, 3, 3, 3}
		e.Colors = []string{"#ef4444", "#3b82f6"}
		e.From, e.To = 1970, 2024
	})
	s := load(t, d)
	first, end := s.frame(1.3), s.frame(3.9)
	l, r := find(first, reddish), find(first, bluish)
	if l.n == 0 || r.n == 0 || l.cx >= r.cx || l.maxX >= r.minX {
		t.Fatalf("the sides do not go left and right of a centre: men %+v women %+v", l, r)
	}
	// A wide base: the men's bars reach further left at the bottom than at the top.
	reach := func(img *image.RGBA, y0, y1 int) int {
		minX := fw
		for y := y0; y <= y1; y++ {
			for x := 0; x < fw; x++ {
				c := img.RGBAAt(x, y)
				if reddish(float64(c.R), float64(c.G), float64(c.B)) && x < minX {
					minX = x
				}
			}
		}
		return minX
	}
	h := (l.maxY - l.minY) / 3
	if top, bottom := reach(first, l.minY, l.minY+h/2), reach(first, l.maxY-h/2, l.maxY); bottom >= top {
		t.Errorf("the first period is no wide base: the top bar reaches x=%d, the bottom x=%d", top, bottom)
	}
	// After the morph every band is as wide as the others.
	l2 := find(end, reddish)
	h2 := (l2.maxY - l2.minY) / 3
	if top, bottom := reach(end, l2.minY, l2.minY+h2/2), reach(end, l2.maxY-h2/2, l2.maxY); math.Abs(float64(top-bottom)) > 3 {
		t.Errorf("the second period is no column: the top bar reaches x=%d, the bottom x=%d", top, bottom)
	}
}
