package scene_test

import (
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
