package builtin_test

import "testing"

// TestLetterboxOnlyForAFilmLook: the bars are a film's frame, brought by words that ask
// for one; a mood ("moody") or a colour ("dark purple") keeps the whole frame.
func TestLetterboxOnlyForAFilmLook(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		bars   bool
	}{
		{"Cinematic trailer shot: a lone ship sails towards a lighthouse at dusk", true},
		{"A moody reveal of a book cover coming out of the darkness", false},
		{"Starting soon screen on a dark purple background", false},
		{"Dark storm clouds roll in over a small white farmhouse", false},
	} {
		_, sb, _ := generate(t, tc.prompt, "", 0)
		d := readScene(t, sb)
		if got := d.Effects.Letterbox > 0; got != tc.bars {
			t.Errorf("%q: letterbox %v, want bars %v", tc.prompt, d.Effects.Letterbox, tc.bars)
		}
	}
}
