package builtin_test

import (
	"image"
	"math"
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// TestOutOfItsOwnContainerPopsPieces: "popcorn pops out of a striped bucket" is one drawing
// (the popcorn emoji is a striped bucket of popcorn), not a second bucket behind it,
// and the popping is kernels coming up out of its top, in turn, after it has appeared.
func TestOutOfItsOwnContainerPopsPieces(t *testing.T) {
	_, sb, _ := generate(t, "Popcorn pops out of a striped bucket", "", 0)
	d := readScene(t, sb)
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	assetsDrawn := elementsOf(d, scene.TypeAsset)
	if len(assetsDrawn) != 1 || assetsDrawn[0].Asset != "fluent:popcorn" {
		ids := []string{}
		for _, e := range assetsDrawn {
			ids = append(ids, e.Asset)
		}
		t.Fatalf("assets %v, want the popcorn bucket alone", ids)
	}
	bucket := assetsDrawn[0]
	var pops *scene.Element
	for _, e := range elementsOf(d, scene.TypeParticles) {
		if e.Variant == "popcorn" {
			pops = e
		}
	}
	if pops == nil {
		t.Fatal("no popping kernels")
	}
	if pops.Count < 3 || pops.End < d.Duration-0.01 || pops.Start <= bucket.Start {
		t.Errorf("kernels %d from %gs to %gs, want several popping from after the bucket (%gs) to the end (%gs)",
			pops.Count, pops.Start, pops.End, bucket.Start, d.Duration)
	}
	if pops.Y >= bucket.Y || math.Abs(pops.X-bucket.X) > 0.01 {
		t.Errorf("kernels at (%g, %g), want them at the top of the bucket at (%g, %g)", pops.X, pops.Y, bucket.X, bucket.Y)
	}
	popped := false
	for _, m := range pops.Motions {
		popped = popped || m.Type == scene.MotionPop
	}
	if !popped {
		t.Errorf("kernel motions %+v, want them to pop", pops.Motions)
	}
	if bucket.Start > 0.5 {
		t.Errorf("bucket starts at %gs, want it there from the start", bucket.Start)
	}
	for _, m := range bucket.Motions {
		if m.Type == scene.MotionPop && m.Start > 0.5 {
			t.Errorf("bucket pops in at %gs, want it there from the start", m.Start)
		}
	}

	// A drawing that does not show the container keeps it: a key turns in a lock.
	_, sb, _ = generate(t, "A golden key turns in a lock", "", 0)
	if n := len(elementsOf(readScene(t, sb), scene.TypeAsset)); n != 2 {
		t.Errorf("key in a lock: %d drawings, want the key and the lock", n)
	}
}

// TestKernelsRenderAboveTheBucketLater: on the rendered page no kernel is above the
// bucket at the start, and later there are kernels (pale puffs) in the air above it.
func TestKernelsRenderAboveTheBucketLater(t *testing.T) {
	_, sb, _ := generate(t, "Popcorn pops out of a striped bucket", "", 0)
	d := readScene(t, sb)
	var bucket, pops *scene.Element
	for _, e := range d.Elements {
		switch e.Type {
		case scene.TypeAsset:
			bucket = e
		case scene.TypeParticles:
			pops = e
		}
	}
	if bucket == nil || pops == nil {
		t.Fatal("want a bucket and its kernels")
	}
	const w, h = 640, 360
	times := []float64{0.05, d.Duration * 0.5, d.Duration * 0.7, d.Duration * 0.9}
	c := render(t, browser(t), sb.Dir(), w, h, times...)
	// The band above the drawing: from the frame's top to just over the bucket's top.
	cx := float64(w)/2 + bucket.X*float64(h)/2
	top := float64(h)/2 + (bucket.Y-bucket.Size*2*0.5)*float64(h)/2
	band := image.Rect(int(cx-0.35*float64(h)), 0, int(cx+0.35*float64(h)), int(top))
	kernels := func(img image.Image) int {
		n := 0
		for y := band.Min.Y; y < band.Max.Y; y++ {
			for x := band.Min.X; x < band.Max.X; x++ {
				if r, g, b := rgbAt(img, x, y); near(r, g, b, pops.Color, 40) {
					n++
				}
			}
		}
		return n
	}
	if n := kernels(c.frames[0]); n > 0 {
		t.Errorf("%d kernel pixels above the bucket at the start, want none", n)
	}
	later := 0
	for i, f := range c.frames[1:] {
		n := kernels(f)
		t.Logf("%.2fs: %d kernel pixels above the bucket", times[i+1], n)
		if n >= 20 {
			later++
		}
	}
	if later < 2 {
		t.Errorf("kernels above the bucket in %d of 3 later frames, want them popping again and again", later)
	}
}
