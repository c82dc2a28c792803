package builtin

import (
	"testing"

	"github.com/kodahq/koda"
)

// TestDrawnColour: the backdrop is scored against what a subject shows: a library
// illustration's own main colour (a gold key, whatever the palette gives it) or the
// colour it is painted, and a shape's palette colour.
func TestDrawnColour(t *testing.T) {
	if c := drawnColor(subject{Kind: "asset", Asset: "fluent:key"}, "#0ea5e9"); c != "#f9c23c" {
		t.Errorf("a key shows %s, want its gold #f9c23c", c)
	}
	if c := drawnColor(subject{Kind: "asset", Asset: "fluent:bus", Color: "#fdd835"}, "#fdd835"); c != "#fdd835" {
		t.Errorf("a yellow bus shows %s, want its yellow", c)
	}
	if c := drawnColor(subject{Kind: "circle"}, "#e53935"); c != "#e53935" {
		t.Errorf("a red ball shows %s", c)
	}
}

// TestAskedTextOnAskedBackdrop: words and backdrop both given a colour that do not read
// together keep the words' colour and deepen the backdrop, hue kept, until they do.
func TestAskedTextOnAskedBackdrop(t *testing.T) {
	for _, prompt := range []string{
		`"Breathe in" in white on a sage green background`,
		`"Sale" in black on a navy background`,
	} {
		b := analyze(prompt)
		p := choosePalette(b, koda.StyleSmooth)
		if p.Text != b.TextColor {
			t.Errorf("%q: text %s, want the asked %s", prompt, p.Text, b.TextColor)
		}
		for _, bg := range p.Background {
			if c := contrast(p.Text, bg); c < 4.5 {
				t.Errorf("%q: %s on %s has contrast %.1f, want 4.5", prompt, p.Text, bg, c)
			}
		}
	}
}

// TestAskedTextOnPaleBackdrop: a backdrop as pale as it goes ("blue on white") keeps its
// two stops and its whiteness; the words take a deeper blue that reads on it.
func TestAskedTextOnPaleBackdrop(t *testing.T) {
	b := analyze(`Blue on white: 'Clean and simple'`)
	p := choosePalette(b, koda.StyleSmooth)
	if p.Background[0] == p.Background[1] || luminance(p.Background[0]) < 0.8 {
		t.Errorf("backdrop %v, want a pale gradient", p.Background)
	}
	if c := contrast(p.Text, mix(p.Background[0], p.Background[1])); c < 4.5 {
		t.Errorf("%s on %v has contrast %.1f, want 4.5", p.Text, p.Background, c)
	}
}
