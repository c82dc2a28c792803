package builtin_test

import (
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// TestNounsAndStatesShapeTheScene: a noun or state implies a look and a motion — a
// spinner spins from the first frame, a pendulum swings on a long cord to the end,
// concentric circles are rings around one centre, blobs are several morphing outlines,
// a plant that grows starts small, a sleeping cat breathes out Zzz, a holiday card is
// the video and not a product card, a gradient background has no stray shape.
func TestNounsAndStatesShapeTheScene(t *testing.T) {
	gen := func(t *testing.T, prompt string) *scene.Description {
		_, sb, _ := generate(t, prompt, "", 0)
		return readScene(t, sb)
	}
	t.Run("spinner", func(t *testing.T) {
		d := gen(t, "A loading spinner in indigo, minimal")
		r := elementsOf(d, scene.TypeRing)
		if len(r) != 1 || r[0].Variant != "spinner" {
			t.Fatalf("rings %+v, want one spinner", r)
		}
		sp := motionsOf(d)[scene.MotionSpin]
		if len(sp) == 0 || sp[0].Start != 0 || sp[0].End != d.Duration || sp[0].Count < 2 {
			t.Errorf("spins %+v, want turning from the first frame to the last", sp)
		}
	})
	t.Run("pendulum", func(t *testing.T) {
		d := gen(t, "A pendulum swings back and forth")
		sw := motionsOf(d)[scene.MotionSwing]
		if len(sw) != 1 || sw[0].End != d.Duration || sw[0].Length == nil || *sw[0].Length < 2 {
			t.Fatalf("swings %+v, want one on a long cord to the end", sw)
		}
	})
	t.Run("concentric", func(t *testing.T) {
		d := gen(t, "Concentric circles pulse outward in teal")
		r := elementsOf(d, scene.TypeRing)
		if len(r) < 3 {
			t.Fatalf("%d rings, want several", len(r))
		}
		for k, e := range r {
			if e.X != r[0].X || e.Y != r[0].Y || (k > 0 && e.Size <= r[k-1].Size) {
				t.Errorf("ring %s at %g,%g size %g: want one centre, growing sizes", e.ID, e.X, e.Y, e.Size)
			}
		}
		if p := motionsOf(d)[scene.MotionPulse]; len(p) < len(r) || p[0].Start == p[1].Start {
			t.Errorf("pulses %+v, want every ring pulsing, one after another", p)
		}
	})
	t.Run("blobs", func(t *testing.T) {
		d := gen(t, "Soft blobs morph and drift in pastel colours")
		m := elementsOf(d, scene.TypeMorph)
		if len(m) != 3 || m[0].Shapes[0] != "blob" || m[0].Color == m[1].Color {
			t.Fatalf("morphs %+v, want three blobs in different colours", m)
		}
		if len(motionsOf(d)[scene.MotionMorph]) != 3 {
			t.Errorf("morph motions %+v, want every blob morphing", motionsOf(d)[scene.MotionMorph])
		}
	})
	t.Run("grow", func(t *testing.T) {
		d := gen(t, "Square 1:1: a potted plant grows, then 'Grow with us'")
		a := elementsOf(d, scene.TypeAsset)
		if len(a) != 1 {
			t.Fatalf("assets %+v, want the plant", a)
		}
		sc := a[0].Tracks["scale"]
		if len(sc) < 2 || sc[0].V > 0.3 || sc[len(sc)-1].V < 0.9 {
			t.Errorf("plant scale %v, want small growing to full size", sc)
		}
	})
	t.Run("sleeping", func(t *testing.T) {
		d := gen(t, "Square 1:1 post: a sleeping cat, then 'Lazy Sunday'")
		var z, cat *scene.Element
		for _, e := range d.Elements {
			switch e.Asset {
			case "fluent:zzz":
				z = e
			case "fluent:cat":
				cat = e
			}
		}
		if z == nil || len(z.Motions) == 0 || z.Motions[0].Type != scene.MotionRise || z.In == "" || cat == nil {
			t.Fatalf("zzz %+v, want Zzz rising from the cat", z)
		}
		// Beside the cat's head (the emoji cat faces left; a square frame's x unit is
		// two sizes), clear of the drawing, not over its body.
		if z.X > cat.X-2*cat.Size || z.Y > cat.Y-cat.Size {
			t.Errorf("zzz at (%v, %v) size %v, cat at (%v, %v) size %v: want the Zzz beside the cat's head, clear of it", z.X, z.Y, z.Size, cat.X, cat.Y, cat.Size)
		}
	})
	t.Run("holiday card", func(t *testing.T) {
		d := gen(t, "Square 1:1 holiday card: a gift box with a red bow bounces, 'Happy Holidays'")
		if c := elementsOf(d, scene.TypeCard); len(c) != 0 {
			t.Errorf("cards %+v: a holiday card is the video, not a card in it", c)
		}
		a := elementsOf(d, scene.TypeAsset)
		if len(a) != 1 || a[0].Asset != "fluent:wrapped-gift" {
			t.Errorf("assets %+v, want only the gift (the bow is part of it)", a)
		}
	})
	t.Run("gradient", func(t *testing.T) {
		d := gen(t, "A beautiful slowly shifting gradient background in orange and pink")
		for _, e := range d.Elements {
			if e.Type != scene.TypeParticles {
				t.Errorf("element %s (%s) stands in front of a gradient asked for alone", e.ID, e.Type)
			}
		}
		if d.Background.Drift < 90 {
			t.Errorf("background drifts %g°, want a visible shift", d.Background.Drift)
		}
	})
}
