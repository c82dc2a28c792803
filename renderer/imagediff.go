package renderer

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
)

// meanAbsDiff decodes two JPEGs of the same size and returns their mean absolute
// difference per RGB channel, on a 0..255 scale.
func meanAbsDiff(a, b []byte) (float64, error) {
	ia, err := jpeg.Decode(bytes.NewReader(a))
	if err != nil {
		return 0, err
	}
	ib, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	ra, rb := ia.Bounds(), ib.Bounds()
	if ra.Dx() != rb.Dx() || ra.Dy() != rb.Dy() {
		return 0, fmt.Errorf("sizes differ: %v vs %v", ra.Size(), rb.Size())
	}
	var sum, n float64
	// Every second pixel in each direction is plenty to tell noise from content.
	for y := 0; y < ra.Dy(); y += 2 {
		for x := 0; x < ra.Dx(); x += 2 {
			sum += pixelDiff(ia, ib, ra.Min.X+x, ra.Min.Y+y, rb.Min.X+x, rb.Min.Y+y)
			n += 3
		}
	}
	return sum / n, nil
}

func pixelDiff(a, b image.Image, ax, ay, bx, by int) float64 {
	r1, g1, b1, _ := a.At(ax, ay).RGBA()
	r2, g2, b2, _ := b.At(bx, by).RGBA()
	d := func(p, q uint32) float64 {
		if p > q {
			return float64(p-q) / 257
		}
		return float64(q-p) / 257
	}
	return d(r1, r2) + d(g1, g2) + d(b1, b2)
}
