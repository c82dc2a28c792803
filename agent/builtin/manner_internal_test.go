package builtin

import (
	"slices"
	"strings"
	"testing"
)

// TestMannerWords feeds each row its example: the word in brackets only says how
// something moves or looks, so no drawing of it is in the brief; the same word said as
// a thing of its own is drawn.
func TestMannerWords(t *testing.T) {
	drawn := func(prompt, word string) bool {
		return slices.ContainsFunc(analyze(prompt).Subjects, func(s subject) bool { return strings.Contains(s.Noun, word) })
	}
	for _, row := range mannerWords {
		i, j := strings.Index(row.Example, "["), strings.Index(row.Example, "]")
		word := row.Example[i+1 : j]
		prompt := strings.NewReplacer("[", "", "]", "").Replace(row.Example)
		if drawn(prompt, word) {
			t.Errorf("%s: %q draws the %s", row.Name, prompt, word)
		}
		if !drawn("a "+word+" on a table", word) {
			t.Errorf("%s: the library has no %s to leave out; pick an example it draws", row.Name, word)
		}
	}
	if !drawn("a cloud shaped like a heart floats by", "cloud") {
		t.Error("in 'a cloud shaped like a heart' the cloud is the thing")
	}
}

// TestUnquotedLabels: words after "labeled" that start with a capital are shown as the
// label, up to the clause's end, and none of them is drawn.
func TestUnquotedLabels(t *testing.T) {
	b := analyze("a big tank labeled All of Earth's water, 97% drains off into a sea labeled Salt water, and a small glass labled Usable fresh water - 1%")
	for _, want := range []string{"All of Earth's water", "Salt water", "Usable fresh water - 1%"} {
		if !slices.Contains(b.Texts, want) {
			t.Errorf("label %q not shown; texts %q", want, b.Texts)
		}
	}
	for _, s := range b.Subjects {
		if s.Noun == "salt" {
			t.Errorf("the label's salt is drawn: %+v", b.Subjects)
		}
	}
	if b := analyze("a jar labeled with the price"); len(b.Texts) != 0 {
		t.Errorf("'labeled with the price' names no label: %q", b.Texts)
	}
}

// TestContactLinesAreShown: a phone number, an email address and a web address (new
// domains too) are words to show as written, not numbers or things to draw.
func TestContactLinesAreShown(t *testing.T) {
	b := analyze("the back, where 0412 555 019, hello@juno.studio, junoreyes.photo and (555) 123-4567 fade in; a matte black card")
	for _, want := range []string{"0412 555 019", "hello@juno.studio", "junoreyes.photo", "(555) 123-4567"} {
		if !slices.Contains(b.Texts, want) {
			t.Errorf("%q is not shown; texts %q", want, b.Texts)
		}
	}
	for _, n := range b.Notes {
		if strings.Contains(n, "matte") {
			t.Errorf("a finish before a colour is reported as a missing drawing: %q", n)
		}
	}
	if b := analyze("born on 2026-11-27 at 4:12 am, 3.2 kg"); len(b.Texts) != 0 {
		t.Errorf("a date, a time and a weight are no phone numbers: %q", b.Texts)
	}
}

// TestColourStaysInItsSentence: a colour is never bound across a full stop, and a
// thing that "lights up gold" turns gold rather than standing on a gold background.
func TestColourStaysInItsSentence(t *testing.T) {
	for prompt, want := range map[string]string{
		"the overlap lights up gold. white background, navy circles": namedColors["white"],
		"a navy card. The background is white":                       namedColors["white"],
		"gold text on black":                                         "#111111",
	} {
		if b := analyze(prompt); b.Background != want || b.Background2 != "" {
			t.Errorf("%q: background %s/%s, want %s", prompt, b.Background, b.Background2, want)
		}
	}
}
