package suite

import (
	"context"
	"testing"

	"github.com/kodahq/koda/agent"
)

// squareFrames draws frames of a w×h grey field with a white 8-pixel square at each
// position in turn.
func squareFrames(w, h int, pos [][2]int) []frame {
	var out []frame
	for _, p := range pos {
		f := frame{w: w, h: h, pix: make([]byte, w*h*3)}
		for i := range f.pix {
			f.pix[i] = 60
		}
		for y := p[1]; y < p[1]+8; y++ {
			for x := p[0]; x < p[0]+8; x++ {
				k := (y*w + x) * 3
				f.pix[k], f.pix[k+1], f.pix[k+2] = 255, 255, 255
			}
		}
		out = append(out, f)
	}
	return out
}

// TestFramesTravel: the direction checker reads a square moving left, right and up, and
// nothing from a still frame.
func TestFramesTravel(t *testing.T) {
	var left, up, still [][2]int
	for i := 0; i < 20; i++ {
		left = append(left, [2]int{140 - 6*i, 80})
		up = append(up, [2]int{100, 150 - 6*i})
		still = append(still, [2]int{100, 80})
	}
	right := append([][2]int(nil), left...)
	for i, j := 0, len(right)-1; i < j; i, j = i+1, j-1 {
		right[i], right[j] = right[j], right[i]
	}
	for _, c := range []struct {
		pos  [][2]int
		want string
	}{{left, "left"}, {right, "right"}, {up, "up"}} {
		dx, dy, ok := framesTravel(squareFrames(200, 180, c.pos))
		if got := directionOf(dx, dy); !ok || got != c.want {
			t.Errorf("travel %+.2f %+.2f (%v) reads %q, want %q", dx, dy, ok, got, c.want)
		}
	}
	if _, _, ok := framesTravel(squareFrames(200, 180, still)); ok {
		t.Errorf("a still square reads as travel")
	}
}

// TestMotionDirection renders prompts that say which way something goes and checks the
// direction on the frames.
func TestMotionDirection(t *testing.T) {
	if testing.Short() {
		t.Skip("renders videos; run without -short")
	}
	prompts := []agent.SuitePrompt{
		{ID: "dir-car-left", Prompt: "A car drives to the left", Expect: agent.SuiteExpect{Direction: "left"}},
		{ID: "dir-bus-right", Prompt: "A bus drives from left to right", Expect: agent.SuiteExpect{Direction: "right"}},
		{ID: "dir-balloon-up", Prompt: "A balloon floats up into the sky", Expect: agent.SuiteExpect{Direction: "up"}},
	}
	rep, err := Run(context.Background(), Config{WorkDir: t.TempDir(), Parallel: 1}, prompts)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		for _, f := range r.Failures {
			t.Errorf("%s: %s", r.ID, f)
		}
	}
}
