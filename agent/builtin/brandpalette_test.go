package builtin_test

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/internal/kodatest"
)

// styleDefaults are the styles' own subject colours (palette.go, defaultSubjectColors):
// with a brand kit and no colour in the prompt, none of them is left in a scene.
var styleDefaults = []string{
	"#ff5a5f", "#ffb400", "#00a699", "#7b61ff",
	"#6366f1", "#0ea5e9", "#14b8a6", "#f43f5e",
	"#f5c518", "#e2e8f0", "#ef4444", "#38bdf8",
}

func kitRGB(t *testing.T, c string) [3]float64 {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(c, "#"), 16, 32)
	if err != nil || len(c) != 7 {
		t.Fatalf("colour %q", c)
	}
	return [3]float64{float64(v >> 16 & 255), float64(v >> 8 & 255), float64(v & 255)}
}

// fromKit: c is one of the kit's colours or a step of one towards white or black
// (lighten, darken), each channel within 3 of it.
func fromKit(t *testing.T, c string, kit ...string) bool {
	got := kitRGB(t, c)
	for _, k := range kit {
		base := kitRGB(t, k)
		for i := 0; i <= 100; i++ {
			f := float64(i) / 100
			for _, to := range []float64{255, 0} {
				ok := true
				for ch := range 3 {
					ok = ok && math.Abs(base[ch]+(to-base[ch])*f-got[ch]) <= 3
				}
				if ok {
					return true
				}
			}
		}
	}
	return false
}

// TestBrandKitPalette: with a brand kit (primary #ff6600, secondary #0aa88f, background
// #12355b, text #ffffff) and prompts that name no colour, the layouts' accents, panels
// and uncoloured subjects are the kit's colours or steps of them, none keeps a style's
// default colour, the critic finds no contrast problem, and a logo reveal's mark is
// the logo file, the one logo on screen at the reveal.
func TestBrandKitPalette(t *testing.T) {
	br := &koda.Brand{Colors: koda.BrandColors{Primary: "#ff6600", Secondary: "#0aa88f", Background: "#12355b", Text: "#ffffff"},
		EndCard: "acme.com"}
	files := map[string][]byte{"assets/logo.png": kodatest.LogoPNG(64, 64, magenta)}
	accents := []string{br.Colors.Primary, br.Colors.Secondary}
	for _, tc := range []struct {
		prompt string
		style  koda.Style
		// kinds: element types whose Color must come from the kit's accents, or with
		// panel from its background (a lighter or darker step of it).
		kinds []string
		panel bool
		check func(t *testing.T, d *scene.Description)
	}{
		{"Product teaser for the Acme X1 headphones with the line 'Hear everything'", koda.StyleSmooth,
			[]string{scene.TypeCircle}, false, nil},
		{"A KPI row: 12k customers, 98% satisfaction, 4 new cities", koda.StyleSmooth, []string{scene.TypeRect}, true, nil},
		{`Employee of the Month card: a trophy drops in, then "Top sales in March" and the name Priya Raman`, koda.StylePlayful, []string{scene.TypeRect}, false, nil},
		{"Announcement: we are opening in Berlin! A ball bounces in", koda.StylePlayful, []string{scene.TypeCircle}, false, nil},
		{"A cartoon dog chases a ball and a kite in the park", koda.StylePlayful, []string{scene.TypeCircle}, false, nil},
		{"Logo reveal for Acme with the line 'Built to last'", koda.StyleCinematic, []string{scene.TypeLogo}, false, func(t *testing.T, d *scene.Description) {
			var mark *scene.Element
			for _, e := range d.Elements {
				if e.Type == scene.TypeLogo {
					mark = e
				}
			}
			if mark == nil || mark.Src != logoAsset.File {
				t.Fatalf("the reveal's mark %+v does not show the logo file", mark)
			}
			if element(d, "brand-logo") != nil {
				t.Error("a logo reveal also got a corner mark")
			}
			at := mark.Start + 2
			n := 0
			for _, e := range d.Elements {
				if e.Src == logoAsset.File && e.Start <= at && (e.End == 0 || e.End > at) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d logos on screen at %.1f s, want 1", n, at)
			}
		}},
	} {
		t.Run(fmt.Sprintf("%s/%s", tc.style, tc.prompt), func(t *testing.T) {
			d, _ := generateMedia(t, &koda.Project{Prompt: tc.prompt, Style: tc.style, DurationS: 6, Brand: br,
				Assets: []koda.ProjectAsset{logoAsset}}, files)
			if d.Background.Colors[0] != br.Colors.Background {
				t.Errorf("background %v, want the kit's %s", d.Background.Colors, br.Colors.Background)
			}
			seen := 0
			for _, e := range d.Elements {
				for _, c := range append([]string{e.Color, e.Color2, e.Tint}, e.Colors...) {
					for _, def := range styleDefaults {
						if strings.EqualFold(c, def) {
							t.Errorf("%s %q keeps the style's colour %s", e.Type, e.ID, c)
						}
					}
				}
				for _, k := range tc.kinds {
					if e.Type != k || e.Color == "" {
						continue
					}
					seen++
					kit := accents
					if tc.panel {
						kit = []string{br.Colors.Background}
					}
					if !fromKit(t, e.Color, kit...) {
						t.Errorf("%s %q is %s, not from the kit's %v", e.Type, e.ID, e.Color, kit)
					}
				}
				if e.Type == scene.TypeText && e.ID != "" && e.Color != "" && e.Color != br.Colors.Text {
					t.Errorf("text %q is %s, want the kit's text %s", e.ID, e.Color, br.Colors.Text)
				}
			}
			if seen == 0 {
				t.Errorf("no %v element in the scene", tc.kinds)
			}
			for _, pr := range critic.Check(d, critic.Landscape, critic.Portrait, critic.Square) {
				if pr.Check == "contrast" {
					t.Errorf("critic: %s", pr)
				}
			}
			if tc.check != nil {
				tc.check(t, d)
			}
		})
	}
}
