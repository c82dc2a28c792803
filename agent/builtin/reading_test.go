package builtin_test

import (
	"strings"
	"testing"
)

// TestAttribution: the one quoted is named after a dash with a capital, and a quoted
// attribution placed under the quote is part of the card, no finale.
func TestAttribution(t *testing.T) {
	d, _, _ := generateWithMessages(t, `instagram reel quote card - soft beige background, the quote "Start where you are. Use what you have." fades in word by word, then "- Arthur Ashe" underneath, 9:16`)
	var texts []string
	for _, e := range d.Elements {
		if e.Type == "text" {
			texts = append(texts, e.Text)
		}
	}
	for _, tx := range texts {
		if strings.Contains(tx, "beige") {
			t.Errorf("the card's look is shown as text: %q", texts)
		}
	}
	n := 0
	for _, tx := range texts {
		if strings.Contains(tx, "Arthur Ashe") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the attribution is shown %d times in %q, want once", n, texts)
	}
}

// TestSettingDrawn: a scene that names its place stands in it (a ground under the
// subjects, the sky of the hour), and a prompt that asks for its own background keeps it.
func TestSettingDrawn(t *testing.T) {
	d, _, _ := generateWithMessages(t, "a frog sits on a lily pad in a pond at night and catches a fly")
	var ground, moon bool
	for _, e := range d.Elements {
		ground = ground || e.ID == "setting-ground" && e.Variant == "ground" && e.Depth > 0 && e.Depth < 1
		moon = moon || e.ID == "setting-moon"
	}
	if !ground || !moon {
		t.Errorf("pond at night: ground %v, moon %v", ground, moon)
	}
	if d.Background.Colors[0] != "#0b1026" {
		t.Errorf("pond at night: sky %v, want the night's", d.Background.Colors)
	}
	d, _, _ = generateWithMessages(t, "a frog sits on a lily pad in a pond, on a plain pink background")
	for _, e := range d.Elements {
		if strings.HasPrefix(e.ID, "setting-") {
			t.Fatalf("a background asked for is replaced by the setting's %s", e.ID)
		}
	}
}
