package builtin

import "testing"

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
