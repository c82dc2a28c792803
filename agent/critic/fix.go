package critic

import (
	"fmt"
	"math"
	"strconv"

	"github.com/kodahq/koda/agent/scene"
)

// repair changes d to cure p; ok is false when it cannot.
func repair(d *scene.Description, p Problem, frames []Frame) (Fix, bool) {
	f := frames[0]
	for _, fr := range frames {
		if fr.Name == p.Frame {
			f = fr
		}
	}
	if p.Check == "hidden" {
		return keepShown(d, p.T)
	}
	e := d.Element(p.Element)
	if e == nil {
		return Fix{}, false
	}
	switch p.Check {
	case "frame", "safe":
		return intoSafe(d, e, f, frames, p)
	case "clip":
		// Centre the text: the runtime shrinks words that sit near an edge.
		ps := place(d, e, f, p.T)
		dx := (float64(f.W)/2 - ps.box.cx()) / (float64(f.W) / 2)
		shiftAll(d, e, dx, 0)
		return Fix{p.Check, e.ID, fmt.Sprintf("centred the text %q, which was squeezed against the edge", short(e))}, true
	case "overlap":
		return unoverlap(d, e, f, frames, p, 0.08)
	case "covered":
		return unoverlap(d, e, f, frames, p, CoverShare)
	case "contrast":
		return recolour(d, e, f, p.T)
	}
	return Fix{}, false
}

func short(e *scene.Element) string {
	s := e.Text
	if s == "" && len(e.Items) > 0 {
		s = e.Items[0]
	}
	if s == "" {
		s = e.Sub
	}
	if s == "" {
		s = e.ID
	}
	if r := []rune(s); len(r) > 24 {
		s = string(r[:23]) + "…"
	}
	return s
}

func label(e *scene.Element) string {
	if e.Type == scene.TypeText || e.Type == scene.TypeCounter {
		return fmt.Sprintf("the text %q", short(e))
	}
	return fmt.Sprintf("the %s", orDefault(e.Label, e.Type))
}

// shiftAll moves e and what is in or on it (Element.In, at any depth): a name moves
// with its bar, a fish with its bowl.
func shiftAll(d *scene.Description, e *scene.Element, dx, dy float64) {
	moved := map[string]bool{}
	var walk func(*scene.Element)
	walk = func(p *scene.Element) {
		if moved[p.ID] {
			return
		}
		moved[p.ID] = true
		shift(p, dx, dy)
		for _, o := range d.Elements {
			if o != nil && o.In == p.ID && o != p {
				walk(o)
			}
		}
	}
	walk(e)
}

// shift moves an element by (dx, dy) frame units at every time: its position track
// when it has one (the track decides where it is), else its resting position.
func shift(e *scene.Element, dx, dy float64) {
	round := func(v float64) float64 { return math.Round(v*1000) / 1000 }
	move := func(name string, base *float64, dv float64) {
		if dv == 0 {
			return
		}
		if kfs := e.Tracks[name]; len(kfs) > 0 {
			for i := range kfs {
				kfs[i].V = round(kfs[i].V + dv)
			}
			return
		}
		*base = round(*base + dv)
	}
	move("x", &e.X, dx)
	move("y", &e.Y, dy)
}

// MinShrinkSize is the smallest size the critic shrinks a drawing to for the safe
// area: smaller, a thing the prompt named is no longer seen. (Words are smaller and
// shrink to fit as the text rules say.)
const MinShrinkSize = 0.05

// intoSafe moves the element inside the safe area, or shrinks it (its bounce, its
// orbit) when it is larger than the area or out on both sides at different holds.
func intoSafe(d *scene.Description, e *scene.Element, f Frame, frames []Frame, p Problem) (Fix, bool) {
	safe := safeBox(d, f)
	ps := place(d, e, f, p.T)
	b := ps.box
	for _, m := range e.Motions {
		if m.Type == scene.MotionOrbit && (m.Around != "" || m.Steady) {
			// Its place is the circle's: moving the element does nothing, a smaller
			// circle does.
			m.Amp = math.Round(m.Amp*0.85*1000) / 1000
			return Fix{p.Check, e.ID, fmt.Sprintf("tightened the orbit of %s to keep it inside the %s safe area", label(e), f.Name)}, true
		}
	}
	if b.w() > safe.w()*1.001 || b.h() > safe.h()*1.001 {
		k := math.Min(0.9, 0.95*math.Min(safe.w()/b.w(), safe.h()/b.h()))
		for _, m := range e.Motions {
			if m.Type == scene.MotionBounce && b.h() > safe.h() {
				m.Amp = math.Round(orF(m.Amp, 0.5)*k*1000) / 1000
				return Fix{p.Check, e.ID, fmt.Sprintf("lowered %s's bounce to keep it inside the %s frame", label(e), f.Name)}, true
			}
		}
		if e.Type != scene.TypeText && e.Size*k < MinShrinkSize {
			return Fix{}, false
		}
		e.Size = math.Round(e.Size*k*10000) / 10000
		return Fix{p.Check, e.ID, fmt.Sprintf("shrank %s to %.0f%% so it fits the %s safe area", label(e), 100*k, f.Name)}, true
	}
	// One move that satisfies every hold in every frame shape: a move that cures this
	// hold but pushes another one out would only be undone.
	// Each hold bounds the shift (frame units): at least what brings its far side in,
	// at most what keeps its near side in.
	xlo, xhi, ylo, yhi := math.Inf(-1), math.Inf(1), math.Inf(-1), math.Inf(1)
	for _, fr := range frames {
		sb := safeBox(d, fr)
		_, _, RW, RH := d.ContentRect(float64(fr.W), float64(fr.H))
		for _, t := range holds(d) {
			q := place(d, e, fr, t)
			if !q.visible {
				continue
			}
			kx, ky := RW/2*q.zoom, RH/2*q.zoom
			xlo, xhi = math.Max(xlo, (sb.x0-q.box.x0)/kx), math.Min(xhi, (sb.x1-q.box.x1)/kx)
			ylo, yhi = math.Max(ylo, (sb.y0-q.box.y0)/ky), math.Min(yhi, (sb.y1-q.box.y1)/ky)
		}
	}
	if xlo > xhi || ylo > yhi {
		// No one place keeps it in at every hold: a smaller element fits, down to a size
		// still seen. Below it the cause is its travel, not its size (a slide from far
		// off the frame), and shrinking would only make it vanish.
		if e.Type != scene.TypeText && e.Size*0.9 < MinShrinkSize {
			return Fix{}, false
		}
		e.Size = math.Round(e.Size*0.9*10000) / 10000
		return Fix{p.Check, e.ID, fmt.Sprintf("shrank %s to 90%% so it stays in the %s safe area all along", label(e), f.Name)}, true
	}
	nearest := func(lo, hi float64) float64 { return math.Max(lo, math.Min(hi, 0)) }
	dx, dy := nearest(xlo, xhi), nearest(ylo, yhi)
	if dx == 0 && dy == 0 {
		return Fix{}, false
	}
	// A hair more than needed (within the room), so rounding never leaves it on the line.
	dx = math.Max(xlo, math.Min(xhi, dx*1.02))
	dy = math.Max(ylo, math.Min(yhi, dy*1.02))
	shiftAll(d, e, dx, dy)
	return Fix{p.Check, e.ID, fmt.Sprintf("moved %s inside the %s safe area", label(e), f.Name)}, true
}

// unoverlap moves text (or a subject hiding another) off the element it lies on: to
// the nearest side of it with room, or shrinks them when no side has room.
func unoverlap(d *scene.Description, e *scene.Element, f Frame, frames []Frame, p Problem, share float64) (Fix, bool) {
	H := float64(f.H)
	_, _, _, RH := d.ContentRect(float64(f.W), H)
	a := place(d, e, f, p.T)
	var other pose
	for _, o := range d.Elements {
		if o == e || skipped(o) || nestedIn(d, e, o) {
			continue
		}
		op := place(d, o, f, p.T)
		if op.visible && (p.Check == "overlap" || !op.text) && a.box.inter(op.box).area() > share*math.Min(a.box.area(), op.box.area()) {
			other = op
			break
		}
	}
	if other.e == nil {
		return Fix{}, false
	}
	// The nearest free side of the other element that lies in the safe area; a move
	// keeps the text's other holds in mind only through the next round of checks.
	gap := 0.03 * H
	type move struct {
		dx, dy float64
		where  string
	}
	var best *move
	_, _, RW, _ := d.ContentRect(float64(f.W), H)
	for _, m := range []move{
		{0, other.box.y1 + gap - a.box.y0, "below"},
		{0, other.box.y0 - gap - a.box.y1, "above"},
		{other.box.x1 + gap - a.box.x0, 0, "beside"},
		{other.box.x0 - gap - a.box.x1, 0, "beside"},
	} {
		// The move must keep the element in the safe area at every hold: elements that
		// travel together are parted across their path, not along it.
		ux, uy := m.dx/(RW/2*a.zoom), m.dy/(RH/2*a.zoom)
		if !fitsEverywhere(d, e, frames, ux, uy, share) {
			continue
		}
		if best == nil || math.Hypot(m.dx, m.dy) < math.Hypot(best.dx, best.dy) {
			best = &m
		}
	}
	if best == nil {
		e.Size = math.Round(e.Size*0.85*10000) / 10000
		if other.text {
			return Fix{p.Check, e.ID, fmt.Sprintf("made %s smaller so it stops covering %s", label(e), label(other.e))}, true
		}
		other.e.Size = math.Round(other.e.Size*0.85*10000) / 10000
		return Fix{p.Check, e.ID, fmt.Sprintf("made %s and %s smaller so they stop overlapping", label(e), label(other.e))}, true
	}
	shiftAll(d, e, best.dx/(RW/2*a.zoom), best.dy/(RH/2*a.zoom))
	if p.Check == "covered" {
		return Fix{p.Check, e.ID, fmt.Sprintf("moved %s %s %s, which it hid", label(e), best.where, label(other.e))}, true
	}
	return Fix{p.Check, e.ID, fmt.Sprintf("moved %s %s %s, which it covered", label(e), best.where, label(other.e))}, true
}

// fitsEverywhere tries moving e by (ux, uy) frame units: does it then stay inside the
// safe area at every hold in every frame, clear of the other subjects (by share of the
// smaller; 0 skips that)? e is left as it was.
func fitsEverywhere(d *scene.Description, e *scene.Element, frames []Frame, ux, uy, share float64) bool {
	x, y := e.X, e.Y
	xs := append([]scene.Keyframe(nil), e.Tracks["x"]...)
	ys := append([]scene.Keyframe(nil), e.Tracks["y"]...)
	defer func() {
		e.X, e.Y = x, y
		if len(xs) > 0 {
			copy(e.Tracks["x"], xs)
		}
		if len(ys) > 0 {
			copy(e.Tracks["y"], ys)
		}
	}()
	shift(e, ux, uy)
	for _, fr := range frames {
		sb := safeBox(d, fr)
		for _, t := range holds(d) {
			q := place(d, e, fr, t)
			if !q.visible {
				continue
			}
			if q.box.inter(sb).area() < q.box.area()*0.995 {
				return false
			}
			for _, o := range d.Elements {
				if share == 0 || o == e || skipped(o) || circles(o) || nestedIn(d, e, o) {
					continue
				}
				op := place(d, o, fr, t)
				if op.visible && q.box.inter(op.box).area() > share*math.Min(q.box.area(), op.box.area()) {
					return false
				}
			}
		}
	}
	return true
}

// recolour gives text the colour that reads best on what is under it in every frame:
// white or near-black.
func recolour(d *scene.Description, e *scene.Element, f Frame, t float64) (Fix, bool) {
	if labelled(e) {
		body := orDefault(e.Color, "#ffffff")
		best := "#ffffff"
		if Contrast("#1f2937", body) > Contrast("#ffffff", body) {
			best = "#1f2937"
		}
		if e.TextColor == best {
			return Fix{}, false
		}
		e.TextColor = best
		what := "white"
		if best != "#ffffff" {
			what = "dark"
		}
		return Fix{"contrast", e.ID, fmt.Sprintf("made the words %q on %s %s so they read on it", short(e), label(e), what)}, true
	}
	ps := place(d, e, f, t)
	var behind []pose
	for _, o := range d.Elements {
		if backdrop(o) && o.Color != "" {
			if op := place(d, o, f, t); op.visible {
				behind = append(behind, op)
			}
		}
	}
	unders := underText(d, f, t, ps, behind)
	under := unders[len(unders)-1]
	// The colour whose worst contrast over everything under the words is best.
	worst := func(c string) float64 {
		w := 21.0
		for _, u := range unders {
			w = math.Min(w, Contrast(c, u))
		}
		return w
	}
	best := "#ffffff"
	if worst("#111111") > worst("#ffffff") {
		best = "#111111"
	}
	what := "white"
	if best != "#ffffff" {
		what = "near-black"
	}
	need := MinContrastNormal
	if ps.asked/float64(min(f.W, f.H)) >= largeText {
		need = MinContrastLarge
	}
	// Words in a colour of their own (asked for, or the palette's accent) keep its hue
	// when a lighter or darker shade of it reads: "big red text" stays red.
	field := &e.TextColor
	if e.Type == scene.TypeText {
		field = &e.Color
	}
	if c, ok := keepHue(*field, func(c string) bool { return worst(c) >= need }); ok {
		best, what = c, "a shade of "+*field
	}
	switch e.Type {
	case scene.TypeText:
		if e.Color == best {
			return Fix{}, false
		}
		e.Color = best
	case scene.TypeCounter:
		if Contrast(orDefault(e.Color, "#ffffff"), under) < MinContrastLarge && e.Color != best {
			e.Color = best
		} else if e.TextColor != best {
			e.TextColor = best
		} else {
			return Fix{}, false
		}
	default:
		if e.TextColor == best {
			return Fix{}, false
		}
		e.TextColor = best
	}
	return Fix{"contrast", e.ID, fmt.Sprintf("made %s %s so it reads on %s", label(e), what, under)}, true
}

// keepShown: nothing is visible at the hold at t, so the element that left last before
// it stays until the scene ends.
func keepShown(d *scene.Description, t float64) (Fix, bool) {
	end := d.Duration
	for _, m := range d.Scenes {
		if t >= m.Start && t <= m.End {
			end = m.End
		}
	}
	var last *scene.Element
	for _, e := range d.Elements {
		if skipped(e) || e.End == 0 || e.End >= t || e.Start > t {
			continue
		}
		if last == nil || e.End > last.End {
			last = e
		}
	}
	if last == nil {
		return Fix{}, false
	}
	last.End = end
	return Fix{"hidden", last.ID, fmt.Sprintf("kept %s on screen until %.1fs, as nothing was visible at %.1fs", label(last), end, t)}, true
}

// Contrast is the WCAG 2.x contrast ratio of two colours (1 to 21).
func Contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func parse(h string) (r, g, b float64) {
	if len(h) == 4 {
		h = "#" + string([]byte{h[1], h[1], h[2], h[2], h[3], h[3]})
	}
	if len(h) != 7 {
		return 0, 0, 0
	}
	v, err := strconv.ParseUint(h[1:], 16, 32)
	if err != nil {
		return 0, 0, 0
	}
	return float64(v >> 16 & 255), float64(v >> 8 & 255), float64(v & 255)
}

func hex(r, g, b float64) string {
	c := func(v float64) int { return int(math.Max(0, math.Min(255, math.Round(v)))) }
	return fmt.Sprintf("#%02x%02x%02x", c(r), c(g), c(b))
}

// luminance is WCAG relative luminance.
func luminance(h string) float64 {
	r, g, b := parse(h)
	lin := func(v float64) float64 {
		v /= 255
		if v <= 0.03928 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

func mix(a, b string, u float64) string {
	ar, ag, ab := parse(a)
	br, bg, bb := parse(b)
	return hex(ar+(br-ar)*u, ag+(bg-ag)*u, ab+(bb-ab)*u)
}

// keepHue finds the shade of a coloured c nearest to it that reads (darker first, then
// lighter, at most 30 % of the way to black or white: further, gold reads as brown and
// pink as beige); white, black and greys have no hue to keep, so the caller's white or
// near-black serves them.
func keepHue(c string, reads func(string) bool) (string, bool) {
	if c == "" || saturation(c) < 0.25 {
		return "", false
	}
	for _, amt := range []float64{-0.15, 0.15, -0.3, 0.3} {
		if s := shade(c, amt); reads(s) {
			return s, true
		}
	}
	return "", false
}

// saturation is the HSL saturation of a colour, 0 for greys.
func saturation(h string) float64 {
	r, g, b := parse(h)
	hi, lo := math.Max(r, math.Max(g, b))/255, math.Min(r, math.Min(g, b))/255
	if hi == lo {
		return 0
	}
	l := (hi + lo) / 2
	if l > 0.5 {
		return (hi - lo) / (2 - hi - lo)
	}
	return (hi - lo) / (hi + lo)
}

// shade lightens (amt > 0) or darkens a colour, as runtime.js shade() does.
func shade(h string, amt float64) string {
	r, g, b := parse(h)
	f := func(v float64) float64 {
		if amt < 0 {
			return v * (1 + amt)
		}
		return v + (255-v)*amt
	}
	return hex(f(r), f(g), f(b))
}
