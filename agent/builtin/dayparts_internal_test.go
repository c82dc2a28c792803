package builtin

import "testing"

// TestDayParts: each part of the day a grid's words may name reads as its row's hours,
// from its example.
func TestDayParts(t *testing.T) {
	for _, p := range dayParts {
		from, to, ok := hourSpan(p.Example)
		if !ok || from != p.From || to != p.To {
			t.Errorf("%q: %d–%d %v, want %d–%d", p.Example, from, to, ok, p.From, p.To)
		}
	}
}
