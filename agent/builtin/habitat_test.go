package builtin_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// swimmerIn is the water creature of a generated scene and the container it is in.
func swimmerIn(t *testing.T, d *scene.Description, noun string) (fish, bowl *scene.Element) {
	t.Helper()
	for _, e := range d.Elements {
		if e.Label == noun {
			fish = e
		}
	}
	if fish == nil {
		t.Fatalf("no %s among %v", noun, d.Types())
	}
	bowl = d.Element(fish.In)
	if bowl == nil {
		t.Fatalf("%s is in %q, which is no element", noun, fish.In)
	}
	return fish, bowl
}

// swimX is the fish's x offset from its base at time tm: its slides add up, each
// easing from where the last left it.
func swimX(f *scene.Element, tm float64) float64 {
	x := f.X
	for _, m := range f.Motions {
		if m.Type != scene.MotionSlide {
			continue
		}
		p := math.Max(0, math.Min(1, (tm-m.Start)/(m.End-m.Start)))
		u := 0.5 - 0.5*math.Cos(math.Pi*p) // easeInOutSine
		x += m.FromX + (m.ToX-m.FromX)*u
	}
	return x
}

// TestFishSwimInTheirBowl: a fish in a bowl or tank is drawn in a glass container of
// water made of shapes (the library's bowl is a cereal bowl, its tank a vehicle), the
// fish inside the water crossing it both ways and turning to face its way, never
// leaving it. A key in a lock keeps its asset lock.
func TestFishSwimInTheirBowl(t *testing.T) {
	for _, tc := range []struct{ prompt, noun, depicts string }{
		{"A goldfish swims back and forth in a bowl", "goldfish", "fishbowl"},
		{"A shark swims in a tank", "shark", "fish tank"},
		{"A fish swims in a fish tank", "fish", "fish tank"},
		{"A goldfish swims in an aquarium", "goldfish", "fish tank"},
		{"A goldfish in a fishbowl", "goldfish", "fishbowl"},
		{"A turtle swims in a bowl", "turtle", "fishbowl"},
	} {
		t.Run(tc.prompt, func(t *testing.T) {
			d, _, msgs := generateWithMessages(t, tc.prompt)
			for _, m := range msgs {
				if strings.Contains(m, "illustration") {
					t.Errorf("said %q: the container is drawn as asked", m)
				}
			}
			fish, bowl := swimmerIn(t, d, tc.noun)
			for _, e := range d.Elements {
				if strings.Contains(e.Asset, "bowl") || e.Asset == "tabler:tank" || e.Asset == "fluent:jellyfish" {
					t.Errorf("the container is drawn as %s, want a glass container of water", e.Asset)
				}
			}
			if bowl.Type != scene.TypePath || bowl.Depicts != tc.depicts {
				t.Fatalf("container is a %s depicting %q, want a path depicting %q", bowl.Type, bowl.Depicts, tc.depicts)
			}
			parts := map[string]bool{}
			order := map[string]int{}
			for k, e := range d.Elements {
				order[e.ID] = k
				if e.In == bowl.ID && e != fish {
					parts[e.Label] = e.X == bowl.X && e.Y == bowl.Y && e.Size == bowl.Size
				}
			}
			if !parts["glass"] || !parts["gravel"] {
				t.Errorf("parts %v: want glass and gravel centred on the water, its size", parts)
			}
			if !(order[bowl.ID] < order[fish.ID] && order[fish.ID] < order[bowl.ID+"-glass"]) {
				t.Errorf("drawing order %v: want the water, then the fish, then the glass over it", order)
			}
			// Inside the water: the fish's reach sideways and its own half-width stay
			// within the water's half-width, 0.91 of the box at most (landscape frame).
			xu := func(size float64) float64 { return 2 * size * 9 / 16 }
			lo, hi := math.Inf(1), math.Inf(-1)
			var turns []float64
			prev, dir := swimX(fish, 0), 0.0
			for tm := 0.0; tm <= d.Duration; tm += 0.05 {
				x := swimX(fish, tm)
				lo, hi = math.Min(lo, x), math.Max(hi, x)
				if dx := x - prev; math.Abs(dx) > 1e-4 {
					if dir != 0 && dx*dir < 0 {
						turns = append(turns, tm)
					}
					dir = math.Copysign(1, dx)
				}
				prev = x
			}
			water := 0.91 * xu(bowl.Size)
			if lo-xu(fish.Size) < bowl.X-water || hi+xu(fish.Size) > bowl.X+water {
				t.Errorf("fish swims x %.3f..%.3f (half-width %.3f): leaves the water %.3f±%.3f", lo, hi, xu(fish.Size), bowl.X, water)
			}
			if hi-lo < 0.5*water {
				t.Errorf("fish crosses only %.3f of the water's %.3f width", hi-lo, 2*water)
			}
			if !strings.Contains(tc.prompt, "swim") {
				return // no verb: it is in its bowl, idling
			}
			if len(turns) < 1 {
				t.Fatalf("fish never turns back: slides %+v", fish.Motions)
			}
			// It faces its way: sx changes sign at each turn.
			sx := fish.Tracks["sx"]
			flips := 0
			for k := 1; k < len(sx); k++ {
				if sx[k].V*sx[k-1].V < 0 {
					flips++
				}
			}
			if flips < len(turns) {
				t.Errorf("fish turns back %d times but flips %d times (sx %v)", len(turns), flips, sx)
			}
		})
	}
}

// TestFishSwimInsideTheBowlRendered: on screen, the goldfish's orange pixels stay
// inside the bowl's glass circle at every moment looked at, and it moves both ways.
func TestFishSwimInsideTheBowlRendered(t *testing.T) {
	d, sb, _ := generateWithMessages(t, "A goldfish swims back and forth in a bowl")
	fish, bowl := swimmerIn(t, d, "goldfish")
	const W, H = 640, 360
	var times []float64
	for tm := 1.2; tm < d.Duration-0.3; tm += 0.35 {
		times = append(times, tm)
	}
	c := render(t, browser(t), sb.Dir(), W, H, times...)
	// The glass circle in pixels: centred 0.1 of the bowl's size below its centre,
	// radius 0.88 of it (the outline's arc).
	r := bowl.Size * H
	cx, cy := W/2*(1+bowl.X), H/2*(1+bowl.Y)+0.1*r
	var xs []float64
	edgeOn := 0
	for k, img := range c.frames {
		var n, sum, out float64
		for y := 0; y < H; y++ {
			for x := 0; x < W; x++ {
				rr, g, b := rgbAt(img, x, y)
				// The tint #ff8a1c and its shading: red high, green middling, blue low.
				if rr > 180 && g > 60 && g < 170 && b < 90 && rr-g > 70 {
					n++
					sum += float64(x)
					if math.Hypot(float64(x)-cx, float64(y)-cy) > 0.88*r || float64(y) < cy-0.6*r-0.1*r {
						out++
					}
				}
			}
		}
		if n < 30 {
			// Mid-turn the fish is edge-on for an instant; more than one such frame is
			// a fish that is not there.
			if edgeOn++; edgeOn > 1 {
				t.Fatalf("at %.2fs only %.0f orange pixels: no goldfish on screen (fish %s %s)", times[k], n, fish.Asset, fish.Tint)
			}
			continue
		}
		if out > 0.01*n {
			t.Errorf("at %.2fs %.0f of %.0f goldfish pixels lie outside the bowl", times[k], out, n)
		}
		xs = append(xs, sum/n)
	}
	var right, left float64
	for k := 1; k < len(xs); k++ {
		if dx := xs[k] - xs[k-1]; dx > 0 {
			right += dx
		} else {
			left -= dx
		}
	}
	if right < 0.3*r || left < 0.3*r {
		t.Errorf("goldfish centres %v: moves %.0f px right and %.0f px left, want both ways across the bowl (r %.0f)", xs, right, left, r)
	}
}

// TestSeveralFishAndDrySubjectsInBowls: "two fish" are both in the tank, one above the
// other, swimming opposite ways; a cat sitting in a bowl is no swimmer and keeps the
// library's bowl.
func TestSeveralFishAndDrySubjectsInBowls(t *testing.T) {
	d, _, _ := generateWithMessages(t, "Two fish swim in a tank")
	var fish []*scene.Element
	for _, e := range d.Elements {
		if e.Label == "fish" {
			fish = append(fish, e)
		}
	}
	if len(fish) != 2 || fish[0].In == "" || fish[0].In != fish[1].In {
		t.Fatalf("fish %v: want two, in the same tank", fish)
	}
	if fish[0].Y == fish[1].Y || swimX(fish[0], 2)-swimX(fish[0], 1.5) > 0 == (swimX(fish[1], 2)-swimX(fish[1], 1.5) > 0) {
		t.Errorf("two fish at y %g and %g swim the same way: want them at two depths, crossing", fish[0].Y, fish[1].Y)
	}
	d, _, _ = generateWithMessages(t, "A cat sits in a bowl")
	if a := assetsOf(d); !slices.Contains(a, "fluent:bowl-with-spoon") {
		t.Errorf("a cat in a bowl draws %v: want the library's bowl, no water", a)
	}
}
