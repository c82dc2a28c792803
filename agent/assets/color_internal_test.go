package assets

import (
	"strings"
	"testing"
)

// TestTintPaintsTheMainPart: a requested colour paints the drawing's main part in that
// hue, keeping its shading, and leaves the rest; a drawing already that colour keeps it.
func TestTintPaintsTheMainPart(t *testing.T) {
	l := Default()
	get := func(id string) *Asset {
		a, ok := l.Get(id)
		if !ok {
			t.Fatalf("no %s", id)
		}
		return a
	}
	// The bus's orange body turns yellow (its blue windows cover as much, but are
	// further from yellow); the windows stay blue.
	bus := get("fluent:bus")
	m, ok := bus.Tint("#fdd835")
	if !ok || m["#ffb02e"] == "" || m["#26c9fc"] != "" {
		t.Fatalf("yellow bus: %v %v", m, ok)
	}
	if h := hueOf(m["#ffb02e"]); hueDist(h, hueOf("#fdd835")) > 1 {
		t.Errorf("yellow bus body %s (hue %.0f), want the hue of #fdd835", m["#ffb02e"], h)
	}
	// The doughnut's chocolate icing turns pink, lighter as pink is; the dough stays.
	donut := get("fluent:doughnut")
	m, ok = donut.Tint("#ec407a")
	if !ok || m["#6d4534"] == "" || m["#f3ad61"] != "" {
		t.Fatalf("pink doughnut: %v %v", m, ok)
	}
	if _, _, l := hsl(m["#6d4534"]); l < 0.45 {
		t.Errorf("pink icing %s is too dark to read pink", m["#6d4534"])
	}
	svg, _ := donut.TintedSVG("#ec407a")
	if !strings.Contains(string(svg), m["#6d4534"]) || strings.Contains(string(svg), "#6d4534") {
		t.Errorf("tinted SVG keeps the old icing: %s", svg)
	}
	// A red car turned blue; a red car asked red, a gold key asked gold and a line icon
	// stay as drawn.
	if m, ok := get("fluent:automobile").Tint("#1e88e5"); !ok || len(m) == 0 {
		t.Errorf("blue car: %v %v", m, ok)
	}
	for _, c := range []struct{ id, want string }{
		{"fluent:automobile", "#e53935"}, {"fluent:key", "#ffc107"}, {"tabler:car", "#1e88e5"},
	} {
		if a, ok := l.Get(c.id); ok {
			if m, ok := a.Tint(c.want); ok {
				t.Errorf("%s asked %s was tinted: %v", c.id, c.want, m)
			}
		}
	}
	// Black, white and grey paint a coloured drawing's main part without hue, at the
	// asked lightness, its shading kept ("a black cat", "a white car", "a grey car").
	for _, c := range []struct {
		id, want string
		lo, hi   float64
	}{{"fluent:automobile", "#000000", 0, 0.3}, {"fluent:automobile", "#ffffff", 0.75, 1}, {"fluent:automobile", "#9e9e9e", 0.4, 0.8}, {"fluent:cat", "#000000", 0, 0.3}} {
		m, ok := get(c.id).Tint(c.want)
		if !ok || len(m) == 0 {
			t.Errorf("%s asked %s: not painted", c.id, c.want)
			continue
		}
		for from, to := range m {
			if _, s, l := hsl(to); s > 0.1 || l < c.lo || l > c.hi {
				t.Errorf("%s asked %s: %s painted %s (saturation %.2f, lightness %.2f)", c.id, c.want, from, to, s, l)
			}
		}
	}
	// A white cloud asked grey is grey, its shading kept.
	m, ok = get("fluent:cloud").Tint("#9e9e9e")
	if !ok || len(m) == 0 {
		t.Fatalf("grey cloud: %v %v", m, ok)
	}
	for from, to := range m {
		if _, s, l := hsl(to); s > 0.3 || l > 0.8 {
			t.Errorf("grey cloud paints %s as %s, not a grey", from, to)
		}
	}
	if got := TintFile("fluent:bus", "#FDD835"); got != "assets/lib/fluent/bus-fdd835.svg" {
		t.Errorf("TintFile %s", got)
	}
}
