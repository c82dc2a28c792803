package workers

import "testing"

// TestChunkRanges: chunks cover every frame exactly once, in order, and short renders
// stay whole.
func TestChunkRanges(t *testing.T) {
	if r := chunkRanges(2399, 1200); r != nil {
		t.Errorf("2399 frames split into %v, want whole (under two chunks' worth)", r)
	}
	for _, c := range []struct{ total, size, n int }{{2400, 1200, 2}, {45, 12, 3}, {3601, 1200, 3}, {18000, 1200, 15}} {
		r := chunkRanges(c.total, c.size)
		if len(r) != c.n {
			t.Fatalf("chunkRanges(%d, %d) = %d chunks, want %d", c.total, c.size, len(r), c.n)
		}
		next := 0
		for _, rg := range r {
			if rg[0] != next || rg[1] <= rg[0] || rg[1]-rg[0] < c.size {
				t.Fatalf("chunkRanges(%d, %d) = %v: gap, overlap or short chunk at %v", c.total, c.size, r, rg)
			}
			next = rg[1]
		}
		if next != c.total {
			t.Errorf("chunkRanges(%d, %d) ends at %d", c.total, c.size, next)
		}
	}
}
