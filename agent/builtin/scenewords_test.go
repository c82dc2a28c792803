package builtin

import (
	"testing"
)

func TestColourPairsAndModifiers(t *testing.T) {
	tests := []struct {
		prompt, ink, text, bg string
	}{
		{"Minimal clock whose hands sweep around once, black on cream", namedColors["black"], namedColors["black"], namedColors["cream"]},
		{"A logo reveal, blue on white", namedColors["blue"], namedColors["blue"], namedColors["white"]},
		{`"Launch day" in white text on dark navy`, namedColors["white"], namedColors["white"], darken(namedColors["navy"], 0.45)},
		{"a star on a light pink background", "", "", lighten(namedColors["pink"], 0.5)},
	}
	for _, tc := range tests {
		b := analyze(tc.prompt)
		if b.Ink != tc.ink || b.TextColor != tc.text || b.Background != tc.bg {
			t.Errorf("%q: ink %q text %q background %q, want %q %q %q", tc.prompt, b.Ink, b.TextColor, b.Background, tc.ink, tc.text, tc.bg)
		}
	}
	// The ink colours the subject that has no colour of its own.
	b := analyze("Minimal clock whose hands sweep around once, black on cream")
	p := choosePalette(b, b.Style)
	for i, s := range b.Subjects {
		if s.Kind == "clock" && p.Subjects[i] != namedColors["black"] {
			t.Errorf("clock drawn in %s, want black", p.Subjects[i])
		}
	}
	if p.Background[0] != namedColors["cream"] || luminance(p.Background[1]) < 0.75 {
		t.Errorf("cream background became %v", p.Background)
	}
	// Words that do not read on a dark backdrop lighten; the backdrop stays dark.
	b = analyze(`"Doors open" in purple on black`)
	p = choosePalette(b, b.Style)
	if luminance(mix(p.Background[0], p.Background[1])) > 0.05 || contrast(p.Text, p.Background[0]) < 4.5 {
		t.Errorf("purple on black became %s on %v", p.Text, p.Background)
	}
}

func TestNamedBackgroundsAndPalettes(t *testing.T) {
	night := analyze("A rocket flies across a night sky")
	if luminance(night.Background) > 0.15 {
		t.Errorf("night sky background %s is not dark", night.Background)
	}
	stars := false
	for _, s := range night.Subjects {
		stars = stars || (s.Kind == "particles" && s.Variant == "stars")
	}
	if !stars {
		t.Errorf("a night sky without stars: %+v", night.Subjects)
	}
	for prompt, want := range map[string][2]string{
		"A ball bounces at sunset":         {"#ffb347", "#c0396b"},
		"A gradient background":            {"#6366f1", "#ec4899"},
		"handwritten words on paper":       {"#f6f1e7", "#e9e0cc"},
		"A neon heart pulses":              namedPalettes["neon"].Background,
		"Pastel bubbles float up":          namedPalettes["pastel"].Background,
		"golden light on a logo":           namedPalettes["golden"].Background,
		"earthy leaves fall":               namedPalettes["earthy"].Background,
		"a monochrome square spins slowly": namedPalettes["monochrome"].Background,
	} {
		b := analyze(prompt)
		if b.Background != want[0] || b.Background2 != want[1] {
			t.Errorf("%q: background %s → %s, want %v", prompt, b.Background, b.Background2, want)
		}
	}
	b := analyze("A neon heart pulses")
	p := choosePalette(b, b.Style)
	if p.Subjects[0] != namedPalettes["neon"].Subjects[0] {
		t.Errorf("neon heart drawn in %s", p.Subjects[0])
	}
	// A colour the prompt names wins over the palette's.
	b = analyze("A pastel scene with a red ball")
	p = choosePalette(b, b.Style)
	if p.Subjects[0] != namedColors["red"] {
		t.Errorf("red ball in a pastel scene drawn in %s", p.Subjects[0])
	}
}

func TestPositions(t *testing.T) {
	b := analyze(`The words "Swipe up" across the bottom and a chart: Q1 12, Q2 18, Q3 25`)
	if p, ok := b.TextPlace[0]; !ok || p.Y < 0.5 || !p.Across {
		t.Errorf("text place %+v, want across the bottom", b.TextPlace)
	}
	for _, s := range b.Subjects {
		if s.Place != nil {
			t.Errorf("%s placed at %+v: the position was the text's", s.Noun, *s.Place)
		}
	}
	b = analyze("A logo in the top left corner")
	if len(b.Subjects) == 0 || b.Subjects[0].Place == nil || b.Subjects[0].Place.X >= 0 || b.Subjects[0].Place.Y >= 0 {
		t.Fatalf("logo not placed top left: %+v", b.Subjects)
	}
	b = analyze(`A big "SALE" centered, a star on the right`)
	if p := b.TextPlace[0]; p.X != 0 || p.Y != 0 {
		t.Errorf("centred text at %+v", p)
	}
	for _, s := range b.Subjects {
		if s.Noun == "star" && (s.Place == nil || s.Place.X <= 0) {
			t.Errorf("star not on the right: %+v", s.Place)
		}
	}
}
