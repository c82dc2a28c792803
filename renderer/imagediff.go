package renderer

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	_ "image/png"
)

// decodeFrame turns a captured frame of w×h pixels into an image.
func decodeFrame(f frame, w, h int) (image.Image, error) {
	if f.raw {
		return bgrxImage(f.data, w, h)
	}
	img, _, err := image.Decode(bytes.NewReader(f.data)) // JPEG, or PNG from the probe
	return img, err
}

// meanAbsDiff decodes two frames of the same size and returns their mean absolute
// difference per RGB channel, on a 0..255 scale.
func meanAbsDiff(a, b frame, w, h int) (float64, error) {
	ia, err := decodeFrame(a, w, h)
	if err != nil {
		return 0, err
	}
	ib, err := decodeFrame(b, w, h)
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

// thumbnailQuality is the JPEG quality of thumbnails made from raw frames.
const thumbnailQuality = 90

// encodeJPEG encodes a raw frame of w×h pixels as a JPEG.
func encodeJPEG(f frame, w, h int) ([]byte, error) {
	img, err := decodeFrame(f, w, h)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: thumbnailQuality}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// convertFrame turns a raw frame into a JPEG and a JPEG into raw pixels of w×h.
func convertFrame(f frame, w, h int) (frame, error) {
	if f.raw {
		data, err := encodeJPEG(f, w, h)
		return frame{data: data}, err
	}
	img, err := decodeFrame(f, w, h)
	if err != nil {
		return frame{}, err
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		return frame{}, fmt.Errorf("screenshot is %dx%d, not %dx%d", b.Dx(), b.Dy(), w, h)
	}
	pix := make([]byte, 0, w*h*4)
	o := img.Bounds().Min
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r, g, b, _ := img.At(o.X+x, o.Y+y).RGBA()
			pix = append(pix, byte(b>>8), byte(g>>8), byte(r>>8), 0xff)
		}
	}
	return frame{data: pix, raw: true}, nil
}
