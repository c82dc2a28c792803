package assets_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"testing"

	"github.com/kodahq/koda/agent/assets"
)

// TestEmbeddedLibrary: the committed index loads, holds thousands of subjects from the
// three sets, and every asset is a well-formed SVG document.
func TestEmbeddedLibrary(t *testing.T) {
	l := assets.Default()
	if l.Len() < 5000 {
		t.Fatalf("library has %d assets, want thousands", l.Len())
	}
	count := map[string]int{}
	for _, s := range l.Sets() {
		if s.Version == "" || s.License == "" {
			t.Errorf("set %+v has no pinned version or licence", s)
		}
	}
	for _, id := range []string{"fluent:airplane", "fluent:sailboat", "noto:lighthouse", "tabler:settings"} {
		if _, ok := l.Get(id); !ok {
			t.Errorf("%s missing", id)
		}
	}
	idRE := regexp.MustCompile(`^[a-z0-9-]+:[a-z0-9-]+$`) // the scene schema's pattern
	for _, a := range l.All() {
		count[a.Set]++
		if !idRE.MatchString(a.ID) {
			t.Errorf("asset id %q does not match the scene schema's pattern", a.ID)
		}
		d := xml.NewDecoder(bytes.NewReader(a.SVG()))
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Errorf("%s: SVG does not parse: %v", a.ID, err)
				break
			}
		}
	}
	if count["fluent"] < 1500 || count["noto"] < 50 || count["tabler"] < 4000 {
		t.Errorf("assets per set %v, want ≥1500 fluent, ≥50 noto, ≥4000 tabler", count)
	}
	if a, _ := l.Get("tabler:settings"); !a.Stroke {
		t.Error("tabler icons should be stroke icons (tinted by the element's colour)")
	}
	if a, _ := l.Get("fluent:sailboat"); a.Stroke || a.Category != "travel-places/transport-water" {
		t.Errorf("fluent:sailboat = %+v, want an illustration in travel-places/transport-water", a)
	}
	if got := assets.File("fluent:paper-airplane"); got != "assets/lib/fluent/paper-airplane.svg" {
		t.Errorf("File = %q", got)
	}
}

func TestHeading(t *testing.T) {
	l := assets.Default()
	for id, want := range map[string]float64{"fluent:automobile": 180, "fluent:dog": 180, "fluent:bird": 0, "fluent:airplane": -45, "tabler:send": -45} {
		a, _ := l.Get(id)
		if h, ok := a.Heading(); !ok || h != want {
			t.Errorf("%s heading %v %v, want %v", id, h, ok, want)
		}
	}
	if a, _ := l.Get("fluent:house"); a != nil {
		if _, ok := a.Heading(); ok {
			t.Error("a house faces no way")
		}
	}
}

// TestMainColor: an illustration's main colour is its body's, and a requested colour
// turns it by the hue between them.
func TestMainColor(t *testing.T) {
	l := assets.Default()
	for id, hue := range map[string][2]float64{"fluent:automobile": {340, 20}, "fluent:balloon": {340, 20}, "fluent:sailboat": {30, 60}} {
		a, _ := l.Get(id)
		c, ok := a.MainColor()
		if !ok {
			t.Errorf("%s: no main colour", id)
			continue
		}
		r, g, b := hexRGB(c)
		t.Logf("%s main colour %s (%v,%v,%v)", id, c, r, g, b)
		if id != "fluent:sailboat" && !(r > 200 && g < 100 && b < 100) {
			t.Errorf("%s main colour %s, want its red body", id, c)
		}
		if id == "fluent:sailboat" && !(r > 200 && g > 150 && b < 120) {
			t.Errorf("%s main colour %s, want the yellow/orange of sail and hull", id, c)
		}
		_ = hue
	}
	car, _ := l.Get("fluent:automobile")
	if d, ok := car.HueShift("#1e88e5"); !ok || d < -180 || d > -100 && d < 100 {
		t.Errorf("red car to blue: shift %v %v, want about ±150°", d, ok)
	}
	if _, ok := car.HueShift("#e53935"); ok {
		t.Error("a red car asked to be red needs no shift")
	}
	if _, ok := car.HueShift("#111111"); ok {
		t.Error("black cannot be reached by turning hues")
	}
}

func hexRGB(h string) (int, int, int) {
	var r, g, b int
	fmt.Sscanf(h, "#%02x%02x%02x", &r, &g, &b)
	return r, g, b
}
