package builtin_test

import (
	"context"
	"image"
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/internal/kodatest"
)

// magenta is the test logo's one colour: no palette of the agent uses it.
var magenta = color.RGBA{0xff, 0x00, 0xff, 0xff}

var (
	logoAsset = koda.ProjectAsset{ID: "ast_logo", Role: koda.RoleLogo, Kind: koda.AssetImage, Format: "png",
		Name: "acme-logo.png", File: "assets/logo.png"}
	fontAsset = koda.ProjectAsset{ID: "ast_font", Role: koda.RoleFont, Kind: koda.AssetFont, Format: "ttf",
		Name: "Acme Sans.ttf", File: "assets/font.ttf"}
)

// generateMedia writes the project's asset files into a fresh sandbox, as the codegen
// worker copies them, then plans and generates p there.
func generateMedia(t *testing.T, p *koda.Project, files map[string][]byte) (*scene.Description, koda.Sandbox) {
	t.Helper()
	ctx := context.Background()
	p.ID = "prj_test"
	sb := newSandbox(t)
	for path, data := range files {
		if _, err := sb.WriteFile(ctx, path, data, false); err != nil {
			t.Fatal(err)
		}
	}
	a := builtin.New(nil)
	pl, err := a.Plan(ctx, p, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Plan = pl
	if err := a.Generate(ctx, p, sb, &recorder{}); err != nil {
		t.Fatalf("generate %q: %v", p.Prompt, err)
	}
	return readScene(t, sb), sb
}

func element(d *scene.Description, id string) *scene.Element {
	for _, e := range d.Elements {
		if e.ID == id {
			return e
		}
	}
	return nil
}

// TestLogoMarkInsideSafeArea: a logo with no word about where it goes is a small mark
// in a corner, inside the safe area of every frame the project renders in: the critic
// finds nothing wrong with it, and on rendered 16:9 and 9:16 frames its pixels lie
// inside the safe area.
func TestLogoMarkInsideSafeArea(t *testing.T) {
	p := &koda.Project{Prompt: "A rocket launches into a starry sky, 5 seconds", Style: koda.StyleSmooth,
		Assets:  []koda.ProjectAsset{logoAsset},
		Presets: []koda.PresetSpec{mustPreset(t, "youtube"), mustPreset(t, "tiktok")}}
	d, sb := generateMedia(t, p, map[string][]byte{"assets/logo.png": kodatest.LogoPNG(64, 64, magenta)})
	mark := element(d, "brand-logo")
	if mark == nil || mark.Type != scene.TypeImage || mark.Src != "assets/logo.png" {
		t.Fatalf("no logo mark showing assets/logo.png: %+v", mark)
	}
	for _, pr := range critic.Check(d, critic.Landscape, critic.Portrait, critic.Square) {
		if pr.Element == mark.ID {
			t.Errorf("critic: %s", pr)
		}
	}
	bctx := browser(t)
	for _, f := range []critic.Frame{critic.Landscape, critic.Portrait} {
		c := renderScaled(t, bctx, sb.Dir(), f.W, f.H, 0.5, d.Duration-0.5)
		box, n := kodatest.ColorBox(c.frames[0], magenta, 100) // the vignette darkens corners
		in := critic.SafeArea(d, f)
		w, h := float64(f.W)/2, float64(f.H)/2
		safe := image.Rect(int(in.Left*w), int(in.Top*h), int(w-in.Right*w)+1, int(h-in.Bottom*h)+1)
		if n < 100 {
			t.Errorf("%s: %d logo pixels, want a visible mark", f.Name, n)
			continue
		}
		if !box.In(safe) {
			t.Errorf("%s: logo pixels at %v, outside the safe area %v", f.Name, box, safe)
		}
		if box.Min.X < int(w/2) || box.Max.Y > int(h/2) {
			t.Errorf("%s: logo at %v is not in the top right corner", f.Name, box)
		}
	}
}

func mustPreset(t *testing.T, name string) koda.PresetSpec {
	t.Helper()
	p, err := koda.LookupPreset(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLogoPlacementRows: each row of the logo table, by its example prompt.
func TestLogoPlacementRows(t *testing.T) {
	logo := map[string][]byte{"assets/logo.png": kodatest.LogoPNG(64, 64, magenta)}
	for _, tc := range []struct {
		prompt string
		check  func(t *testing.T, d *scene.Description)
	}{
		{"A rocket launches, with our logo as a watermark in the bottom left corner", func(t *testing.T, d *scene.Description) {
			m := element(d, "brand-logo")
			if m == nil || m.X >= 0 || m.Y <= 0 {
				t.Errorf("mark %+v, want it bottom left", m)
			}
		}},
		{"Three features pop in one by one: 'Fast', 'Safe', 'Cheap', then an end card with our logo", func(t *testing.T, d *scene.Description) {
			e := element(d, "brand-end-logo")
			if e == nil || e.Src != "assets/logo.png" || e.Start < d.Duration-2.6 {
				t.Fatalf("end card logo %+v", e)
			}
			for _, o := range d.Elements {
				if o != e && o.ID != "brand-end-card" && (o.End == 0 || o.End > e.Start) {
					t.Errorf("%s %q stays on the end card", o.Type, o.ID)
				}
			}
		}},
		{"Animate our logo for 'Acme' with a smooth reveal", func(t *testing.T, d *scene.Description) {
			if element(d, "brand-logo") != nil {
				t.Error("a logo reveal also got a corner mark")
			}
			found := false
			for _, e := range d.Elements {
				found = found || e.Type == scene.TypeLogo && e.Src == "assets/logo.png"
			}
			if !found {
				t.Error("the revealed badge does not show the logo file")
			}
		}},
	} {
		t.Run(tc.prompt, func(t *testing.T) {
			d, _ := generateMedia(t, &koda.Project{Prompt: tc.prompt, Style: koda.StyleSmooth, DurationS: 6,
				Assets: []koda.ProjectAsset{logoAsset}}, logo)
			tc.check(t, d)
		})
	}
}

// TestBrandEndCardRendered: a brand kit's end card line closes the video under the
// logo, and the last frame shows the logo in the middle.
func TestBrandEndCardRendered(t *testing.T) {
	p := &koda.Project{Prompt: "A paper plane glides across the sky", Style: koda.StyleSmooth, DurationS: 5,
		Assets: []koda.ProjectAsset{logoAsset}, Brand: &koda.Brand{EndCard: "acme.example"}}
	d, sb := generateMedia(t, p, map[string][]byte{"assets/logo.png": kodatest.LogoPNG(64, 64, magenta)})
	txt := element(d, "brand-end-card")
	if txt == nil || txt.Text != "acme.example" {
		t.Fatalf("end card text %+v", txt)
	}
	c := render(t, browser(t), sb.Dir(), 640, 360, d.Duration)
	box, n := kodatest.ColorBox(c.frames[0], magenta, 60)
	if n < 500 || box.Min.X > 320 || box.Max.X < 320 {
		t.Errorf("last frame: %d logo pixels at %v, want the logo in the middle", n, box)
	}
}

// TestBrandFont: the project's font file sets the page's text: the scene names it,
// the page declares it with @font-face and has loaded it before the first frame, and
// the body's computed font-family starts with it.
func TestBrandFont(t *testing.T) {
	p := &koda.Project{Prompt: "The words 'Hello brand' fade in", Style: koda.StyleSmooth, DurationS: 4,
		Assets: []koda.ProjectAsset{fontAsset}}
	d, sb := generateMedia(t, p, map[string][]byte{"assets/font.ttf": goregular.TTF})
	if d.Font == nil || d.Font.Family != "Acme Sans" || d.Font.Src != "assets/font.ttf" {
		t.Fatalf("scene font %+v", d.Font)
	}
	family, status := pageFont(t, sb.Dir(), "Acme Sans")
	if !strings.HasPrefix(family, `"Acme Sans"`) {
		t.Errorf("computed font-family %q does not start with the project's font", family)
	}
	if status != "loaded" {
		t.Errorf("font face status %q, want loaded", status)
	}
}

// pageFont opens dir/index.html and returns the body's computed font-family and the
// status of the font face named family.
func pageFont(t *testing.T, dir, family string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(browser(t), 30*time.Second)
	defer cancel()
	var computed, status string
	err := chromedp.Run(ctx,
		chromedp.Navigate("file://"+dir+"/index.html"),
		chromedp.Poll("window.__exportReady === true", nil, chromedp.WithPollingTimeout(10*time.Second)),
		chromedp.Evaluate("getComputedStyle(document.body).fontFamily", &computed),
		chromedp.Evaluate(`(function () { var s = 'missing'; document.fonts.forEach(function (f) {
			if (f.family.replace(/"/g, '') === `+"`"+family+"`"+`) s = f.status; }); return s; })()`, &status))
	if err != nil {
		t.Fatal(err)
	}
	return computed, status
}

// TestBrandPalette: the kit's colours start the palette; what the prompt names wins.
func TestBrandPalette(t *testing.T) {
	br := &koda.Brand{Colors: koda.BrandColors{Primary: "#ff6600", Secondary: "#00aa88", Background: "#12355b", Text: "#ffffff"}}
	d, _ := generateMedia(t, &koda.Project{Prompt: "A circle bounces", Style: koda.StyleSmooth, DurationS: 4, Brand: br}, nil)
	if got := d.Background.Colors[0]; got != "#12355b" {
		t.Errorf("background %s, want the kit's #12355b", got)
	}
	var circle *scene.Element
	for _, e := range d.Elements {
		if e.Type == scene.TypeCircle {
			circle = e
		}
	}
	if circle == nil || circle.Color != "#ff6600" {
		t.Errorf("circle %+v, want the kit's primary #ff6600", circle)
	}
	d, _ = generateMedia(t, &koda.Project{Prompt: "A green circle bounces on a black background", Style: koda.StyleSmooth,
		DurationS: 4, Brand: br}, nil)
	if got := d.Background.Colors[0]; got == "#12355b" {
		t.Errorf("background %s: the prompt's black lost to the kit", got)
	}
}

// TestNamedPicture: a picture of the project is put where the prompt names it: the
// subject "our product photo" drew is the picture, keeping its motion.
func TestNamedPicture(t *testing.T) {
	green := color.RGBA{0x00, 0xc8, 0x50, 0xff}
	photo := koda.ProjectAsset{ID: "ast_photo", Role: koda.RoleImage, Kind: koda.AssetImage, Format: "png",
		Name: "Product Photo.png", File: "assets/product-photo.png"}
	d, sb := generateMedia(t, &koda.Project{Prompt: "Our product photo slides in from the left, then the words 'Summer sale' appear",
		Style: koda.StyleSmooth, DurationS: 5, Assets: []koda.ProjectAsset{photo}},
		map[string][]byte{"assets/product-photo.png": kodatest.LogoPNG(80, 60, green)})
	var img *scene.Element
	for _, e := range d.Elements {
		if e.Type == scene.TypeImage && e.Src == photo.File {
			img = e
		}
	}
	if img == nil {
		t.Fatal("the product photo is not in the scene")
	}
	c := render(t, browser(t), sb.Dir(), 640, 360, d.Duration-0.3)
	if _, n := kodatest.ColorBox(c.frames[0], green, 50); n < 300 {
		t.Errorf("%d pixels of the photo on the last frame", n)
	}
}
