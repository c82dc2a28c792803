package builtin_test

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/scene"
)

// TestLogoFromAssets: a logo file the user put in the project is drawn in the badge.
func TestLogoFromAssets(t *testing.T) {
	ctx := context.Background()
	sb := newSandbox(t)
	img := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = 0xd8, 0x1b, 0x60, 0xff // magenta
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if _, err := sb.WriteFile(ctx, "assets/logo.png", buf.Bytes(), false); err != nil {
		t.Fatal(err)
	}
	a := builtin.New(nil)
	p := &koda.Project{ID: "prj_test", Prompt: "Animate our logo for 'Acme' with a smooth reveal, 5 seconds"}
	pl, err := a.Plan(ctx, p, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Plan = pl
	if err := a.Generate(ctx, p, sb, &recorder{}); err != nil {
		t.Fatal(err)
	}
	d := readScene(t, sb)
	var logo *scene.Element
	for _, e := range d.Elements {
		if e.Type == scene.TypeLogo {
			logo = e
		}
	}
	if logo == nil || logo.Src != "assets/logo.png" {
		t.Fatalf("logo element %+v does not use the project's file", logo)
	}
	// At the end the badge is fully drawn: its centre shows the file's magenta.
	c := render(t, browser(t), sb.Dir(), 640, 360, d.Duration)
	w, h := 640, 360
	x, y := int(float64(w)/2*(1+logo.X)), int(float64(h)/2*(1+logo.Y))
	r, g, b := rgbAt(c.frames[0], x, y)
	want := color.RGBA{0xd8, 0x1b, 0x60, 0xff}
	if abs(r-float64(want.R)) > 30 || abs(g-float64(want.G)) > 30 || abs(b-float64(want.B)) > 30 {
		t.Errorf("badge centre (%d,%d) is %v,%v,%v, want the logo file's %v", x, y, r, g, b, want)
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
