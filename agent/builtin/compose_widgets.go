package builtin

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// Interface widgets: a switch, a like, loading dots, a star rating, a download, a
// battery. Each is a small program of its own — the parts a person recognises and the
// one motion that means something for it (the knob slides and the track turns green;
// the stars light one by one) — played over the action scenes in place of the
// composer's generic verbs, which read as an arbitrary sway.

var (
	switchRE    = regexp.MustCompile(`\b(toggle|switch)\b`)
	likeRE      = regexp.MustCompile(`\b(like|favou?rite|love)\b`)
	dotsRE      = regexp.MustCompile(`\b(loading|typing)?\s*dots?\b`)
	ratingRE    = regexp.MustCompile(`\b(rating|light up|lights up|one by one)\b`)
	downloadRE  = regexp.MustCompile(`\bdownload`)
	checkRE     = regexp.MustCompile(`\b(check ?marks?|checkmarks?|ticks?)\b`)
	batteryRE   = regexp.MustCompile(`\bbattery\b`)
	chargeRE    = regexp.MustCompile(`\b(charg\w*|fill\w*)\b`)
	letterOutRE = regexp.MustCompile(`\b(letter|card|note|paper)s?\s+slid(?:es|e|ing)\s+out\b`)
	pointerRE   = regexp.MustCompile(`\b(cursor|pointer)\b`)
	clickRE     = regexp.MustCompile(`\b(click|clicks|clicking|taps|tap|presses|press)\b`)
	countNounRE = regexp.MustCompile(`\b([0-9]+|one|two|three|four|five|six|seven|eight|nine|ten)[\s-]+(?:[a-z]+\s+)?(dots|stars|star)\b`)
)

// actionSpan is when the prompt's action plays: after the intro, before the outro.
func (c *composer) actionSpan() (float64, float64) {
	n := len(c.bounds) - 1
	if n >= 3 {
		return c.bounds[1], c.bounds[n-1]
	}
	return c.bd.Total * 0.25, c.bd.Total * 0.8
}

// xUnits converts a length in sizes (fractions of the frame's shorter side) to frame
// x units (half-widths) in the project's frame shape.
func (c *composer) xUnits(size float64) float64 {
	switch c.b.Aspect {
	case "portrait", "square":
		return 2 * size
	}
	return 2 * size * 9 / 16
}

// tall reports whether the video is vertical (9:16): layouts stack there what they
// spread in a wide frame.
func (c *composer) tall() bool { return c.b.Aspect == "portrait" }

// square reports whether the video is 1:1.
func (c *composer) square() bool { return c.b.Aspect == "square" }

// yUnits converts a length in sizes to frame y units (half-heights).
func (c *composer) yUnits(size float64) float64 {
	if c.tall() {
		return 2 * size * 9 / 16
	}
	return 2 * size
}

// countOf is how many of noun the prompt asks for ("three loading dots", "5-star"), 0
// when it does not say.
func countOf(low string) int {
	for _, m := range countNounRE.FindAllStringSubmatch(low, -1) {
		if v, ok := numberWords[m[1]]; ok {
			return int(v)
		}
		var v int
		if _, err := fmt.Sscan(m[1], &v); err == nil && v > 0 && v <= 10 {
			return v
		}
	}
	return 0
}

// widgets runs the program of each interface widget the prompt names.
func (c *composer) widgets() {
	low := strings.ToLower(c.b.Prompt)
	a0, a1 := c.actionSpan()
	c.habitats()
	if checkRE.MatchString(low) && !downloadRE.MatchString(low) {
		c.checkInCircle(low, a0, a1)
	}
	for i := 0; i < len(c.subjects); i++ {
		e := c.subjects[i]
		noun := strings.ToLower(c.b.Subjects[c.index[i]].Noun)
		switch {
		case switchRE.MatchString(noun) && e.Type == scene.TypeAsset:
			c.toggleSwitch(e, a0, a1)
		case e.Type == scene.TypeHeart && likeRE.MatchString(low):
			c.likeHeart(e, a0, a1)
		case e.Type == scene.TypeCircle && strings.HasPrefix(noun, "dot") && containsStr(c.b.Actions, "bounce"):
			c.loadingDots(e, max(countOf(low), 3), a0, a1)
		case e.Type == scene.TypeStar && ratingRE.MatchString(low) && countOf(low) > 1:
			c.ratingStars(e, countOf(low), a0, a1)
		case batteryRE.MatchString(noun) && chargeRE.MatchString(low):
			c.battery(e, a0, a1)
		case downloadRE.MatchString(noun) && checkRE.MatchString(low):
			c.downloadDone(e, a0, a1)
		case e.Asset == "fluent:envelope" && letterOutRE.MatchString(low):
			c.letterOut(e, a0, a1)
		case pointerRE.MatchString(noun) && clickRE.MatchString(low):
			for k, o := range c.subjects {
				if o.Type == scene.TypeRect && strings.Contains(c.b.Subjects[c.index[k]].Noun, "button") {
					c.clickButton(e, o, a0, a1)
					break
				}
			}
		}
	}
}

// still takes an element out of the composer's generic action moves (its sideways
// sway, spins and floats), keeping its entrance and exit.
func still(e *scene.Element) {
	delete(trackOf(e), "x")
	var keep []*scene.Motion
	for _, m := range e.Motions {
		if m.Type == scene.MotionPop || m.Type == scene.MotionRecolor {
			keep = append(keep, m)
		}
	}
	e.Motions = keep
}

func (c *composer) removeElement(e *scene.Element) {
	for k, o := range c.d.Elements {
		if o == e {
			c.d.Elements = append(c.d.Elements[:k], c.d.Elements[k+1:]...)
			return
		}
	}
}

// toggleSwitch: a rounded track, grey while off, and a white knob that slides from
// the off end to the on end while the track turns the asked colour (green by default).
func (c *composer) toggleSwitch(e *scene.Element, a0, a1 float64) {
	on := orDefault(e.Color, "#43a047")
	still(e)
	e.Type, e.Asset, e.Aspect, e.Size, e.Color, e.Hue = scene.TypeRect, "", 2, 0.12, "#9ca3af", 0
	e.Depicts = "toggle switch" // the track with its knob
	t0 := a0 + (a1-a0)*0.2
	e.Motions = append(e.Motions, &scene.Motion{Type: scene.MotionRecolor, Start: t0, End: t0 + 0.6, Color: on})
	dx := c.xUnits(e.Size * 1.0)
	knob := &scene.Element{ID: e.ID + "-knob", Type: scene.TypeCircle, Label: "switch knob", In: e.ID,
		X: round3(e.X + dx), Y: e.Y, Size: round3(e.Size * 0.8), Color: "#ffffff", Shadow: true,
		Tracks: map[string][]scene.Keyframe{}}
	for k, v := range e.Tracks {
		if k != "x" {
			knob.Tracks[k] = append([]scene.Keyframe(nil), v...)
		}
	}
	// Before it starts, a slide holds the knob at its from end: off.
	knob.Motions = []*scene.Motion{{Type: scene.MotionSlide, Start: t0, End: t0 + 0.6, FromX: round3(-2 * dx), Ease: "easeInOutCubic"}}
	c.insertAfter(e, knob)
}

func (c *composer) insertAfter(e, n *scene.Element) {
	for k, o := range c.d.Elements {
		if o == e {
			c.d.Elements = append(c.d.Elements[:k+1], append([]*scene.Element{n}, c.d.Elements[k+1:]...)...)
			return
		}
	}
	c.d.Elements = append(c.d.Elements, n)
}

// likeHeart: a grey heart is tapped — it pops (a quick squeeze and burst of scale)
// and turns the asked colour (red by default), with a few sparkles. A "like button"
// is the heart itself, not a second shape beside it.
func (c *composer) likeHeart(e *scene.Element, a0, a1 float64) {
	on := orDefault(e.Color, "#e53935")
	for k := 0; k < len(c.subjects); k++ {
		if o := c.subjects[k]; o != e && o.Type == scene.TypeRect && strings.Contains(c.b.Subjects[c.index[k]].Noun, "button") {
			c.removeElement(o)
		}
	}
	still(e)
	e.X, e.Size, e.Color = 0, 0.16, "#b0b7c3"
	delete(trackOf(e), "scale")
	t0 := a0 + (a1-a0)*0.25
	if !slices.ContainsFunc(e.Motions, func(m *scene.Motion) bool { return m.Type == scene.MotionPop }) {
		e.Motions = append(e.Motions, &scene.Motion{Type: scene.MotionPop, Start: 0.1, End: c.bd.Total})
	}
	e.Motions = append(e.Motions,
		&scene.Motion{Type: scene.MotionPulse, Start: t0, End: t0 + 0.5, Amp: 0.5, Count: 1},
		&scene.Motion{Type: scene.MotionRecolor, Start: t0 + 0.1, End: t0 + 0.35, Color: on})
	c.sparkles(e.X, e.Y, t0+0.15, t0+1.2, on)
}

// loadingDots: n dots in a row hopping in a wave, each a beat after the one before.
func (c *composer) loadingDots(e *scene.Element, n int, a0, a1 float64) {
	still(e)
	e.X, e.Y, e.Size = 0, 0.1, 0.07
	gap := c.xUnits(e.Size * 2.8)
	for k := 0; k < n; k++ {
		d := e
		if k > 0 {
			cp := *e
			cp.ID, cp.Tracks, cp.Motions = fmt.Sprintf("%s-%d", e.ID, k+1), map[string][]scene.Keyframe{}, nil
			for key, v := range e.Tracks {
				cp.Tracks[key] = append([]scene.Keyframe(nil), v...)
			}
			d = &cp
			c.insertAfter(e, d)
		}
		d.X = round3((float64(k) - float64(n-1)/2) * gap)
		start := a0 + 0.18*float64(k)
		hops := math.Max(2, math.Round((a1-a0)/0.9))
		d.Motions = []*scene.Motion{{Type: scene.MotionBounce, Start: start, End: start + hops*0.9, Amp: 0.18, Count: hops, Decay: 1, Squash: 0.4}}
	}
}

// ratingStars: n dim stars in a row; a lit star pops onto each in turn.
func (c *composer) ratingStars(e *scene.Element, n int, a0, a1 float64) {
	for k := 0; k < len(c.subjects); k++ {
		if o := c.subjects[k]; o.Type == scene.TypeParticles && o.Variant == "stars" {
			c.removeElement(o) // the stars are the rating's, not a night sky
		}
	}
	lit := orDefault(c.b.Subjects[c.index[c.indexOf(e)]].Color, "#fbbf24")
	still(e)
	delete(trackOf(e), "scale")
	size := math.Min(0.09, 1.6/(float64(n)*c.xUnits(2.5)/1))
	gap := c.xUnits(size * 2.5)
	step := (a1 - a0) * 0.8 / float64(n)
	e.Size, e.Color, e.Y = round3(size), "#64748b", 0
	for k := 0; k < n; k++ {
		d := e
		if k > 0 {
			cp := *e
			cp.ID, cp.Motions = fmt.Sprintf("%s-%d", e.ID, k+1), nil
			cp.Tracks = map[string][]scene.Keyframe{}
			for key, v := range e.Tracks {
				cp.Tracks[key] = append([]scene.Keyframe(nil), v...)
			}
			d = &cp
			c.d.Elements = append(c.d.Elements, d)
		}
		d.X = round3((float64(k) - float64(n-1)/2) * gap)
		on := &scene.Element{ID: fmt.Sprintf("%s-lit-%d", e.ID, k+1), Type: scene.TypeStar, Label: "star", In: d.ID,
			X: d.X, Y: d.Y, Size: round3(size * 1.05), Color: lit, Glow: 0.4}
		t := a0 + step*float64(k)
		on.Motions = []*scene.Motion{{Type: scene.MotionPop, Start: t, End: c.bd.Total}}
		c.d.Elements = append(c.d.Elements, on)
	}
}

// battery: an upright battery (a dark body and its terminal) charging: a liquid level
// rises from empty to full in the asked colour (green by default).
func (c *composer) battery(e *scene.Element, a0, a1 float64) {
	col := orDefault(e.Color, "#43a047")
	still(e)
	e.Type, e.Asset, e.Hue, e.Aspect, e.Size, e.Color, e.Color2 = scene.TypeRect, "", 0, 0.55, 0.2, "#374151", ""
	e.Depicts = "battery" // the body with its terminal
	e.Motions = append(e.Motions, &scene.Motion{Type: scene.MotionFill, Start: a0, End: a0 + (a1-a0)*0.85, Color: col, Ease: "linear"})
	cap := &scene.Element{ID: e.ID + "-cap", Type: scene.TypeRect, Label: "battery terminal", In: e.ID,
		X: e.X, Y: round3(e.Y - c.yUnits(e.Size*1.05)), Size: round3(e.Size * 0.12), Aspect: 1.8, Color: "#374151",
		Tracks: map[string][]scene.Keyframe{}}
	for k, v := range e.Tracks {
		cap.Tracks[k] = append([]scene.Keyframe(nil), v...)
	}
	c.insertAfter(e, cap)
	c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: a0 + (a1-a0)*0.85, End: a0 + (a1-a0)*0.85 + 0.6, Amp: 0.12, Count: 1})
}

// downloadDone: the arrow drops in; when it lands, it gives way to a check mark that
// pops in where it stood.
func (c *composer) downloadDone(e *scene.Element, a0, a1 float64) {
	for _, o := range c.d.Elements {
		if o.Label == "check mark" {
			return
		}
	}
	t := a0 + (a1-a0)*0.6
	key(trackOf(e), "opacity", t, 1, "")
	key(trackOf(e), "opacity", t+0.3, 0, "easeInQuad")
	check := &scene.Element{ID: e.ID + "-done", Type: scene.TypeIcon, Variant: "check", Label: "check mark", In: e.ID,
		X: e.X, Y: e.Y, Size: round3(e.Size * 0.9), Color: "#22c55e", Shadow: true,
		Motions: []*scene.Motion{{Type: scene.MotionPop, Start: t + 0.2, End: c.bd.Total}}}
	if y := trackOf(e)["y"]; len(y) > 0 {
		check.Y = y[len(y)-1].V
	}
	c.d.Elements = append(c.d.Elements, check)
}

// letterOut: a letter comes out of the envelope: a sheet of paper behind it slides up
// out of its top.
func (c *composer) letterOut(e *scene.Element, a0, a1 float64) {
	still(e)
	paper := &scene.Element{ID: e.ID + "-letter", Type: scene.TypeRect, Label: "letter", In: e.ID,
		X: e.X, Y: round3(e.Y - c.yUnits(e.Size*0.75)), Size: round3(e.Size * 0.55), Aspect: 1.3, Color: "#fffdf7",
		Motions: []*scene.Motion{{Type: scene.MotionSlide, Start: a0 + (a1-a0)*0.2, End: a0 + (a1-a0)*0.7,
			FromY: round3(c.yUnits(e.Size * 0.75)), Ease: "easeOutCubic"}}}
	// Drawn first, so the envelope's front hides the letter until it is out.
	for k, o := range c.d.Elements {
		if o == e {
			c.d.Elements = append(c.d.Elements[:k], append([]*scene.Element{paper}, c.d.Elements[k:]...)...)
			break
		}
	}
	c.motion(e, scene.Motion{Type: scene.MotionWiggle, Start: a0, End: a0 + (a1-a0)*0.2, Amp: 6, Count: 2})
}

// clickButton: the pointer glides onto the button, and the button clicks — pressed
// in and back — with a burst where it was clicked.
func (c *composer) clickButton(p, btn *scene.Element, a0, a1 float64) {
	still(p)
	still(btn)
	bx, by := value(trackOf(btn), "x", btn.X), value(trackOf(btn), "y", btn.Y)
	px, py := value(trackOf(p), "x", p.X), value(trackOf(p), "y", p.Y)
	t1 := a0 + (a1-a0)*0.5
	// The arrow's tip is its top left: it ends with the tip on the button's middle.
	tipX, tipY := c.xUnits(p.Size*0.45), c.yUnits(p.Size*0.45)
	c.motion(p, scene.Motion{Type: scene.MotionSlide, Start: a0, End: t1, ToX: round3(bx + tipX - px), ToY: round3(by + tipY - py), Ease: "easeInOutCubic"})
	p.In = btn.ID
	c.motion(btn, scene.Motion{Type: scene.MotionPulse, Start: t1, End: t1 + 0.35, Amp: -0.25, Count: 1})
	c.motion(p, scene.Motion{Type: scene.MotionPulse, Start: t1, End: t1 + 0.35, Amp: -0.2, Count: 1})
	c.sparkles(bx, by, t1, t1+1, btn.Color)
}

// checkInCircle: "a check mark draws itself inside a circle" — the circle (filled in
// the asked colour) pops in, then a white check mark is drawn on it stroke by stroke.
// A checklist's ticks are its own; a check mark already drawn is left alone.
func (c *composer) checkInCircle(low string, a0, a1 float64) {
	var circle *scene.Element
	for k, e := range c.subjects {
		switch {
		case e.Type == scene.TypeChecklist, e.Type == scene.TypeIcon && e.Variant == "check":
			return
		case circle == nil && c.b.Subjects[c.index[k]].Noun == "circle" && (e.Type == scene.TypePath || e.Type == scene.TypeCircle || e.Type == scene.TypeRing):
			circle = e
		}
	}
	if circle == nil {
		return
	}
	col := orDefault(circle.Color, "#43a047")
	still(circle)
	delete(trackOf(circle), "progress") // a filled circle, not a drawn ring
	circle.Type, circle.Variant, circle.Path, circle.Color, circle.Size = scene.TypeCircle, "", "", col, math.Max(circle.Size, 0.2)
	circle.Motions = append(circle.Motions, &scene.Motion{Type: scene.MotionPop, Start: 0.2, End: c.bd.Total})
	t0, t1 := a0+(a1-a0)*0.1, a0+(a1-a0)*0.6
	check := &scene.Element{ID: circle.ID + "-check", Type: scene.TypeIcon, Variant: "check", Label: "check mark", In: circle.ID,
		X: circle.X, Y: circle.Y, Size: circle.Size, Color: col, Color2: "#ffffff", Start: t0,
		Tracks: map[string][]scene.Keyframe{}, Motions: []*scene.Motion{{Type: scene.MotionDraw, Start: t0, End: t1}}}
	for k, v := range circle.Tracks {
		if k != "opacity" {
			check.Tracks[k] = append([]scene.Keyframe(nil), v...)
		}
	}
	c.insertAfter(circle, check)
	c.motion(circle, scene.Motion{Type: scene.MotionPulse, Start: t1, End: t1 + 0.5, Amp: 0.15, Count: 1})
	c.motion(check, scene.Motion{Type: scene.MotionPulse, Start: t1, End: t1 + 0.5, Amp: 0.15, Count: 1})
}
