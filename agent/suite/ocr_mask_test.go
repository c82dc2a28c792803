package suite

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

// TestMaskColorTwoInks: a text in two colours is masked by both, and a backdrop colour
// near neither stays white.
func TestMaskColorTwoInks(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 1))
	img.Set(0, 0, color.NRGBA{0xec, 0x40, 0x7a, 255}) // pink letter
	img.Set(1, 0, color.NRGBA{0xfb, 0x8c, 0x00, 255}) // orange letter
	img.Set(2, 0, color.NRGBA{0x1b, 0x25, 0x37, 255}) // navy backdrop
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		inks string
		want [3]uint8
	}{
		{"#ec407a,#fb8c00", [3]uint8{0, 0, 255}},
		{"#ec407a", [3]uint8{0, 255, 255}},
	} {
		out, err := maskColor(buf.Bytes(), tc.inks)
		if err != nil {
			t.Fatal(err)
		}
		m, err := png.Decode(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		g := m.(*image.Gray)
		if got := [3]uint8{g.Pix[0], g.Pix[1], g.Pix[2]}; got != tc.want {
			t.Errorf("mask by %s: %v, want %v", tc.inks, got, tc.want)
		}
	}
}
