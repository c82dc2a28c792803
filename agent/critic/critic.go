// Package critic looks at a scene description the way a designer looks at a frame
// before showing it: at every scene's hold, in every frame shape it will be rendered in
// (the preview's and each final preset's, vertical ones included), is every subject
// inside the frame and its safe area, is any text clipped or lying on another element,
// does text read against what is under it (WCAG contrast), is anything visible at all.
// Repair fixes what fails — moves, shrinks, recolours, keeps an element on screen — and
// says what it changed; Check only reports.
//
// The checks run on the description's geometry, mirroring the runtime's layout rules
// (sizes in the frame's shorter side, text shrunk to fit its width); CheckStill measures
// text contrast on a rendered frame, where gradients, glows and vignettes are real.
package critic

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// Frame is a frame shape the scene will be rendered in.
type Frame struct {
	Name string // "landscape", "portrait", "square" or a preset's name
	W, H int
}

// Vertical reports whether the frame is taller than wide.
func (f Frame) Vertical() bool { return f.H > f.W }

// Frames for the aspects the agent reads in prompts.
var (
	Landscape = Frame{Name: "landscape", W: 1920, H: 1080}
	Portrait  = Frame{Name: "portrait", W: 1080, H: 1920}
	Square    = Frame{Name: "square", W: 1080, H: 1080}
)

// FrameFor returns the frame of an aspect name ("" is landscape).
func FrameFor(aspect string) Frame {
	switch aspect {
	case "portrait":
		return Portrait
	case "square":
		return Square
	}
	return Landscape
}

// Insets are the margins of the safe area as fractions of the frame's width (left,
// right) and height (top, bottom).
type Insets struct{ Top, Right, Bottom, Left float64 }

// SafeArea is where subjects and text must stay in d's frame f. Vertical frames are
// shown under the apps' own overlays: their safe area is the scene's (scene.VerticalSafeArea
// unless the description sets its own). Landscape and square frames keep the broadcast
// title-safe margin of 5 %.
func SafeArea(d *scene.Description, f Frame) Insets {
	if f.Vertical() {
		sa := scene.VerticalSafeArea
		if d != nil && d.SafeArea != nil {
			sa = *d.SafeArea
		}
		return Insets{Top: sa.Top, Right: sa.Right, Bottom: sa.Bottom, Left: sa.Left}
	}
	return Insets{Top: 0.05, Right: 0.05, Bottom: 0.05, Left: 0.05}
}

// safeBox is the safe area of f in pixels, inside the letterbox bars too.
func safeBox(d *scene.Description, f Frame) box {
	W, H := float64(f.W), float64(f.H)
	in := SafeArea(d, f)
	top, bottom := in.Top*H, in.Bottom*H
	if lb := d.Effects.Letterbox; lb > 0 && W > H*1.2 {
		top, bottom = math.Max(top, lb*H*1.15), math.Max(bottom, lb*H*1.15)
	}
	return box{in.Left * W, top, W - in.Right*W, H - bottom}
}

// Contrast thresholds (WCAG 2.x): large text (at least 18 pt, here a font of 6 % of the
// frame's shorter side, ≥ 21 px even on the 640×360 preview) needs 3:1, other text 4.5:1.
const (
	MinContrastLarge  = 3.0
	MinContrastNormal = 4.5
	largeText         = 0.06
)

// CoverShare is how much of a subject another may cover before it counts as hidden.
const CoverShare = 0.4

// circles: the element orbits (around another or steadily), passing over what it circles.
func circles(e *scene.Element) bool {
	for _, m := range e.Motions {
		if m.Type == scene.MotionOrbit {
			return true
		}
	}
	return false
}

// nested: one of the two is in or on the other (Element.In: a key in its lock, a fish
// in its bowl), drawn over it on purpose; their overlap is the picture, not a fault.
// A shape drawn as part of the element the other is in (the glass of a fish's bowl)
// is one picture with it too; but two things in one place (notes rising from one
// speaker) are still parted.
func nested(a, b *scene.Element) bool {
	sameHome := a.In != "" && a.In == b.In && (a.Type == scene.TypePath || b.Type == scene.TypePath)
	return sameHome || a.In != "" && a.In == b.ID || b.In != "" && b.In == a.ID
}

// inside: text written on the element it is in (a name on its bar, a price on its tag),
// or on an element that is in that one; the words are meant to lie on it.
func inside(d *scene.Description, text, on *scene.Element) bool {
	for in, n := text.In, 0; in != "" && n < 8; n++ {
		if in == on.ID {
			return true
		}
		p := d.Element(in)
		if p == nil {
			return false
		}
		in = p.In
	}
	return false
}

// nestedIn is nested, or one is in the other through elements in between (a lit star
// in its empty star on a card).
func nestedIn(d *scene.Description, a, b *scene.Element) bool {
	return nested(a, b) || inside(d, a, b) || inside(d, b, a)
}

// concentric: two rings around one centre (ripples, a target) are hollow, so neither
// hides the other.
func concentric(a, b *scene.Element) bool {
	return a.Type == scene.TypeRing && b.Type == scene.TypeRing && math.Abs(a.X-b.X) < 0.01 && math.Abs(a.Y-b.Y) < 0.01 && a.Size != b.Size
}

// Problem is one failed check.
type Problem struct {
	Check   string // "frame", "safe", "clip", "overlap", "covered", "contrast", "hidden"
	Element string // element id ("" for a whole scene)
	Frame   string
	T       float64 // the time looked at
	Msg     string
	// Box is the element as a still showed it (frame pixels), Other the element it lies
	// on, Behind the colour measured behind its words; nil and "" for geometry checks.
	Box, Other *box
	Behind     string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s at %.1fs in %s: %s", p.Check, p.T, p.Frame, p.Msg)
}

// Fix is one change the critic made.
type Fix struct {
	Check   string
	Element string
	What    string
}

func (f Fix) String() string { return f.What }

// box is an axis-aligned rectangle in pixels of a frame.
type box struct{ x0, y0, x1, y1 float64 }

func (b box) w() float64 { return b.x1 - b.x0 }
func (b box) h() float64 { return b.y1 - b.y0 }
func (b box) area() float64 {
	return math.Max(0, b.w()) * math.Max(0, b.h())
}
func (b box) cx() float64 { return (b.x0 + b.x1) / 2 }
func (b box) cy() float64 { return (b.y0 + b.y1) / 2 }
func (b box) inter(o box) box {
	return box{math.Max(b.x0, o.x0), math.Max(b.y0, o.y0), math.Min(b.x1, o.x1), math.Min(b.y1, o.y1)}
}

// pose is an element at a time: where, how big, how visible.
type pose struct {
	e       *scene.Element
	visible bool
	op      float64
	box     box
	text    bool
	// font is the text's drawn font size in pixels after the runtime's shrink-to-fit;
	// asked the size it was given.
	font, asked float64
	// zoom is the camera's magnification of the element (1: none): a move of the
	// element's own position shows zoom times larger on screen.
	zoom float64
}

// holds are the times a viewer looks at: the hold of each scene (a little past its
// middle, after the entry settles), or of the whole piece when it has no scenes.
func holds(d *scene.Description) []float64 {
	if len(d.Scenes) == 0 {
		return []float64{d.Duration * 0.55}
	}
	var out []float64
	for _, m := range d.Scenes {
		out = append(out, m.Start+0.55*(m.End-m.Start))
	}
	return out
}

// Check reports every problem of d in the given frames (landscape when none).
func Check(d *scene.Description, frames ...Frame) []Problem {
	if len(frames) == 0 {
		frames = []Frame{Landscape}
	}
	var out []Problem
	for _, f := range frames {
		for _, t := range holds(d) {
			out = append(out, checkAt(d, f, t)...)
		}
	}
	return out
}

// skipped elements are not placed subjects: they fill the frame on purpose (particles,
// full-width waves) or are a parallax backdrop layer (0 < depth < 1: the accents and
// glows that bleed off the edges behind the composition).
func skipped(e *scene.Element) bool {
	return e.Type == scene.TypeParticles || e.Type == scene.TypeWave || backdrop(e) || ricochets(e)
}

// ricochets: the runtime keeps a ricocheting element inside the frame itself.
func ricochets(e *scene.Element) bool {
	for _, m := range e.Motions {
		if m.Type == scene.MotionRicochet {
			return true
		}
	}
	return false
}

func backdrop(e *scene.Element) bool { return e.Depth > 0 && e.Depth < 1 }

func checkAt(d *scene.Description, f Frame, t float64) []Problem {
	var out []Problem
	add := func(check, id, format string, args ...any) {
		out = append(out, Problem{Check: check, Element: id, Frame: f.Name, T: t, Msg: fmt.Sprintf(format, args...)})
	}
	W, H := float64(f.W), float64(f.H)
	safe := safeBox(d, f)
	frame := box{0, 0, W, H}
	var poses []pose
	anyShown := false
	var behind []pose
	for _, e := range d.Elements {
		p := place(d, e, f, t)
		if !p.visible {
			continue
		}
		if skipped(e) {
			// A particle field, waves or a backdrop shape are something on screen, and a
			// backdrop shape can be what lies under the words.
			anyShown = anyShown || p.op >= 0.3
			if backdrop(e) && e.Color != "" {
				behind = append(behind, p)
			}
			continue
		}
		poses = append(poses, p)
		vis := p.box.inter(frame).area() / math.Max(p.box.area(), 1)
		if vis >= 0.5 && p.op >= 0.5 {
			anyShown = true
		}
		switch {
		case vis < 0.98:
			add("frame", e.ID, "%s %q is %.0f%% outside the frame", e.Type, e.ID, 100*(1-vis))
		case p.box.inter(safe).area() < p.box.area()*0.995:
			add("safe", e.ID, "%s %q crosses the safe area (%s)", e.Type, e.ID, sides(p.box, safe))
		}
		if p.text && p.font < p.asked*MinTextScale {
			add("clip", e.ID, "text %q is shrunk to %.0f%% to fit beside the edge", e.ID, 100*p.font/p.asked)
		}
	}
	if !anyShown {
		add("hidden", "", "nothing is visible at the hold")
	}
	// A subject drawn over another one hides it (two illustrations placed on the same
	// spot): the one on top covers more than 40 % of the one under it. Circling
	// another element is meant to pass over it, and one in another is meant to be there.
	for i, a := range poses {
		for j := i + 1; j < len(poses); j++ {
			b := poses[j]
			if a.text || b.text || circles(a.e) || circles(b.e) || nestedIn(d, a.e, b.e) || concentric(a.e, b.e) {
				continue
			}
			if a.box.inter(b.box).area() > CoverShare*math.Min(a.box.area(), b.box.area()) {
				add("covered", b.e.ID, "%s %q hides %s %q", b.e.Type, b.e.ID, a.e.Type, a.e.ID)
			}
		}
	}
	for i, a := range poses {
		if a.text {
			for j, b := range poses {
				if i == j || b.text && j < i || inside(d, a.e, b.e) {
					continue
				}
				if ov := a.box.inter(b.box).area(); ov > 0.08*math.Min(a.box.area(), b.box.area()) {
					add("overlap", a.e.ID, "text %q overlaps %s %q", a.e.ID, b.e.Type, b.e.ID)
				}
			}
		}
		need := MinContrastNormal
		if a.asked/math.Min(W, H) >= largeText {
			need = MinContrastLarge
		}
		unders := underText(d, f, t, a, behind)
		if labelled(a.e) {
			unders = []string{orDefault(a.e.Color, "#ffffff")} // its words sit on itself
		}
	contrast:
		for _, c := range textColors(a.e) {
			for _, under := range unders {
				if r := Contrast(c, under); r < need {
					add("contrast", a.e.ID, "text of %q in %s on %s has contrast %.1f:1, below %.1f:1", a.e.ID, c, under, r, need)
					break contrast
				}
			}
		}
	}
	return out
}

func sides(b, safe box) string {
	var s []string
	if b.x0 < safe.x0 {
		s = append(s, "left")
	}
	if b.x1 > safe.x1 {
		s = append(s, "right")
	}
	if b.y0 < safe.y0 {
		s = append(s, "top")
	}
	if b.y1 > safe.y1 {
		s = append(s, "bottom")
	}
	return strings.Join(s, ", ")
}

// labelled shapes show their text inside (a speech bubble saying "Hi!"), as runtime.js
// LABELLED.
func labelled(e *scene.Element) bool {
	switch e.Type {
	case scene.TypeCircle, scene.TypeRect, scene.TypeStar, scene.TypeHeart, scene.TypeTriangle,
		scene.TypeIcon, scene.TypeAsset, scene.TypeMorph:
		return e.Text != ""
	}
	return false
}

// labelColor is the colour the runtime gives a labelled shape's words: its text colour,
// or dark on a light body and white on a dark one (runtime.js drawLabel, luma).
func labelColor(e *scene.Element) string {
	if e.TextColor != "" {
		return e.TextColor
	}
	r, g, b := parse(orDefault(e.Color, "#ffffff"))
	if (0.299*r+0.587*g+0.114*b)/255 > 0.6 {
		return "#1f2937"
	}
	return "#ffffff"
}

// textColors are the colours of the words an element draws.
func textColors(e *scene.Element) []string {
	if labelled(e) {
		return []string{labelColor(e)}
	}
	switch e.Type {
	case scene.TypeText:
		return []string{orDefault(e.Color, "#ffffff")}
	case scene.TypeCounter:
		cs := []string{orDefault(e.Color, "#ffffff")}
		if e.Sub != "" {
			cs = append(cs, orDefault(e.TextColor, orDefault(e.Color2, "#e2e8f0")))
		}
		return cs
	case scene.TypeLogo:
		if e.Sub != "" {
			return []string{orDefault(e.TextColor, "#ffffff")}
		}
	}
	return nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// hasText: the element draws words on the background.
func hasText(e *scene.Element) bool {
	return e.Type == scene.TypeText || e.Type == scene.TypeCounter || e.Type == scene.TypeLogo && e.Sub != ""
}

// value interpolates a track at t with the arriving keyframe's easing, as the runtime
// does, or returns def.
func value(kfs []scene.Keyframe, t, def float64) float64 {
	if len(kfs) == 0 {
		return def
	}
	if t <= kfs[0].T {
		return kfs[0].V
	}
	for i := 1; i < len(kfs); i++ {
		if t <= kfs[i].T {
			a, b := kfs[i-1], kfs[i]
			if b.T == a.T {
				return b.V
			}
			return a.V + (b.V-a.V)*ease(b.Ease, (t-a.T)/(b.T-a.T))
		}
	}
	return kfs[len(kfs)-1].V
}

// place computes where an element is at t in frame f, mirroring runtime.js state() and
// the shapes' extents, with the reach of periodic motions (floats, orbits, bounces)
// added so the whole movement is judged, not one instant of it.
func place(d *scene.Description, e *scene.Element, f Frame, t float64) pose {
	W, H := float64(f.W), float64(f.H)
	// Positions span the content rectangle (the safe area in portrait frames when the
	// description has one) and sizes follow its shorter side, as in the runtime.
	RX, RY, RW, RH := d.ContentRect(W, H)
	U := math.Min(RW, RH)
	p := pose{e: e}
	if t < e.Start || (e.End != 0 && t > e.End) {
		return p
	}
	tr := e.Tracks
	x, y := value(tr["x"], t, e.X), value(tr["y"], t, e.Y)
	scale := value(tr["scale"], t, 1)
	sx, sy := value(tr["sx"], t, 1), value(tr["sy"], t, 1)
	rot := value(tr["rotation"], t, 0)
	p.op = value(tr["opacity"], t, 1)
	if p.op <= 0.05 || scale <= 0.05 {
		return p
	}
	p.visible = true
	var padX, padUp, padDown, offY, orbitX, orbitY float64
	for _, m := range e.Motions {
		pr := math.Max(0, math.Min(1, (t-m.Start)/math.Max(m.End-m.Start, 1e-9)))
		inside := t >= m.Start && t <= m.End
		switch m.Type {
		case scene.MotionSlide, scene.MotionDrift, scene.MotionBounce, scene.MotionFly:
			ease := ""
			switch m.Type {
			case scene.MotionSlide:
				ease = orS(m.Ease, "easeInOutCubic")
			case scene.MotionFly:
				ease = orS(m.Ease, "easeInOutSine")
			case scene.MotionBounce:
				ease = m.Ease
			}
			u := ease01(ease, pr)
			x += m.FromX + (m.ToX-m.FromX)*u
			y += m.FromY + (m.ToY-m.FromY)*u
			if m.Type == scene.MotionFly && m.Curve == "arc" {
				y -= orF(m.Amp, 0.25) * 4 * u * (1 - u)
			}
			if m.Type == scene.MotionFly && m.Curve == "wave" && inside {
				a := orF(m.Amp, 0.25) * 0.5 * RH / 2
				padUp, padDown = math.Max(padUp, a), math.Max(padDown, a)
			}
			if m.Type == scene.MotionBounce && inside {
				padUp = math.Max(padUp, orF(m.Amp, 0.5)*RH/2)
			}
		case scene.MotionFloat, scene.MotionBob:
			if inside {
				a := orF(m.Amp, 0.03) * RH / 2
				padUp, padDown = math.Max(padUp, a), math.Max(padDown, a)
				if m.Type == scene.MotionBob {
					rot += 45 // it rocks too
				}
			}
		case scene.MotionOrbit:
			if m.Around != "" {
				if o := d.Element(m.Around); o != nil && o != e {
					x, y = value(o.Tracks["x"], t, o.X), value(o.Tracks["y"], t, o.Y)
				}
			}
			a := math.Abs(orF(m.Amp, 0.1)) * U
			if m.Around != "" || m.Steady {
				// A steady circle: where it is at t, as the runtime computes it.
				dir := 1.0
				if orF(m.Amp, 0.1) < 0 {
					dir = -1
				}
				ang := m.Angle*math.Pi/180 + 2*math.Pi*orF(m.Count, 1)*ease01(m.Ease, pr)*dir
				orbitX, orbitY = orbitX+a*math.Cos(ang), orbitY+a*math.Sin(ang)
			} else if inside {
				padX, padUp, padDown = math.Max(padX, a), math.Max(padUp, a), math.Max(padDown, a)
			}
		case scene.MotionPulse:
			if inside {
				scale *= 1 + orF(m.Amp, 0.06)
			}
		case scene.MotionSlam:
			if t >= m.Start {
				scale *= orF(m.Amp, 1)
			}
		case scene.MotionSpin, scene.MotionWiggle, scene.MotionTwinkle:
			if inside {
				rot += 45 // any angle: judge the rotated extent
			}
		case scene.MotionSweep:
			offY = -1 // a clock hand turns about its lower end: it reaches one size all round
			padX, padUp, padDown = math.Max(padX, e.Size*U), math.Max(padUp, e.Size*U), math.Max(padDown, e.Size*U)
		case scene.MotionSwing:
			cord := 0.5
			if m.Length != nil {
				cord = *m.Length
			}
			offY = 1 + cord // hangs below its pivot
			a := math.Sin(math.Min(90, math.Abs(orF(m.Amp, 30)))*math.Pi/180) * (1 + cord) * e.Size * U
			padX = math.Max(padX, a)
		case scene.MotionRise:
			padUp = math.Max(padUp, orF(m.Amp, 0.3)*RH/2)
		}
	}
	cx, cy := RX+RW/2+x*RW/2+orbitX, RY+RH/2+y*RH/2+offY*e.Size*U+orbitY
	r := e.Size * U
	hw, hh := extent(e, r, cx-RX, RW, U, t, &p)
	if e.Type == scene.TypeChart && gridChart(e.Variant) && RH > RW*1.3 {
		hh *= 1.45 // runtime.js chartBox: a tall frame's chart stands taller
	}
	hw *= math.Abs(scale * sx)
	hh *= math.Abs(scale * sy)
	if math.Mod(math.Abs(rot), 180) > 1 && !p.text {
		m := math.Max(hw, hh)
		if e.Type == scene.TypeRect || e.Type == scene.TypeCard || e.Type == scene.TypeChart {
			m = math.Hypot(hw, hh)
		}
		hw, hh = m, m
	}
	p.box = box{cx - hw - padX, cy - hh - padUp, cx + hw + padX, cy + hh + padDown}
	if e.Type == scene.TypeLogo && e.Sub != "" {
		// The logo's name sits 1.8 radii under the badge.
		sub := textBox(e.Sub, e.Size*0.5*U, cx-RX, RW, U, 0)
		p.box.y1 = math.Max(p.box.y1, cy+r*1.8*scale+sub.hh)
		p.box.x0, p.box.x1 = math.Min(p.box.x0, cx-sub.hw), math.Max(p.box.x1, cx+sub.hw)
	}
	// The camera moves and zooms everything about the frame's centre, a backdrop layer
	// by its depth (runtime.js applyCamera).
	depth := orF(e.Depth, 1)
	if e.Fixed {
		depth = 0
	}
	tr2 := d.Camera.Tracks
	z := 1 + (value(tr2["zoom"], t, 1)-1)*depth
	ox, oy := W/2+value(tr2["x"], t, 0)*depth*W/2, H/2+value(tr2["y"], t, 0)*depth*H/2
	p.box = box{(p.box.x0-ox)*z + W/2, (p.box.y0-oy)*z + H/2, (p.box.x1-ox)*z + W/2, (p.box.y1-oy)*z + H/2}
	p.zoom = z
	if p.text {
		p.font *= z
		p.asked *= z
	}
	return p
}

func orS(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

func ease01(name string, u float64) float64 { return ease(name, math.Max(0, math.Min(1, u))) }

func orF(v, d float64) float64 {
	if v == 0 {
		return d
	}
	return v
}

// gridChart reports a chart variant drawn inside runtime.js's chartBox, title, labels
// and legend included.
func gridChart(variant string) bool {
	switch variant {
	case scene.ChartWaterfall, scene.ChartRadar, scene.ChartHeatmap, scene.ChartScatter, scene.ChartTreemap, scene.ChartPyramid:
		return true
	}
	return false
}

// extent is an element's half width and height in pixels at scale 1.
func extent(e *scene.Element, r, cx, W, U, t float64, p *pose) (hw, hh float64) {
	switch e.Type {
	case scene.TypeRect:
		return r * orF(e.Aspect, 1), r
	case scene.TypeCard:
		return r * 0.78, r
	case scene.TypeChart:
		room := math.Min(cx, W-cx) * 0.94
		switch e.Variant {
		case "pie", "donut":
			if W > U*1.2 {
				return r * 1.9, r * 1.05 // legend beside the pie
			}
			return r, r * 1.3 // legend under it
		}
		if gridChart(e.Variant) {
			return math.Min(r*orF(e.Aspect, 1.6), room), r * 1.2 // runtime.js chartBox
		}
		hh = r
		if e.Text != "" || len(e.Labels) > 0 {
			hh = r * 1.25 // title above, labels under
		}
		return math.Min(r*orF(e.Aspect, 1.6), room), hh
	case scene.TypeRing:
		return r * 1.2, r * 1.2
	case scene.TypeLogo:
		return r * 1.3, r * 1.3 // the name under it is added by place
	case scene.TypeIcon:
		return r * 1.05, r * 1.05
	case scene.TypeClock, scene.TypeAsset:
		return r, r
	case scene.TypeCountdown:
		// A ring around each number; the last item (a word, often) stands alone.
		n := len(e.Items)
		if n > 0 && len(e.Times) == n && t >= e.Times[n-1] {
			txt := e.Items[n-1]
			fs := r * 0.6
			if len([]rune(txt)) <= 2 {
				fs = r * 1.25
			}
			return math.Min(textWidth(txt, fs)/2, r*1.8), fs * 0.4
		}
		return r * 1.1, r * 1.1
	case scene.TypeProgress:
		// The bar is kept inside its room by the runtime; its percent label sits over it.
		return math.Min(r*orF(e.Aspect, 3), math.Min(cx, W-cx)*0.94), r * 0.6
	case scene.TypeChecklist:
		n := math.Max(1, float64(len(e.Items)))
		lh := math.Min(r*0.62, 2.2*r/n)
		widest := 0.0
		for _, it := range e.Items {
			widest = math.Max(widest, textWidth(it, lh*0.46))
		}
		return (lh*0.56*1.6 + math.Min(widest, math.Max(r*0.8, 2*math.Min(cx, W-cx)*0.92))) / 2, n * lh / 2
	case scene.TypeTriangle:
		return r * 0.95, r * 0.85
	case scene.TypeText:
		p.text, p.asked = true, e.Size*U
		if len(e.Items) > 0 {
			var w, font float64
			font = p.asked
			for _, it := range e.Items {
				tb := textBox(it, e.Size*U, cx, W, U, e.Wrap)
				w, font = math.Max(w, tb.hw), math.Min(font, tb.font)
			}
			p.font = font
			return w, float64(len(e.Items)) * e.Size * U * 1.45 / 2
		}
		tb := textBox(e.Text, e.Size*U, cx, W, U, e.Wrap)
		p.font = tb.font
		return tb.hw, tb.hh
	case scene.TypeCounter:
		p.text, p.asked = true, e.Size*U
		label := e.Prefix + formatNum(math.Max(math.Abs(e.From), math.Abs(e.To))) + e.Suffix
		tb := textBox(label, e.Size*U, cx, W, U, 0)
		p.font = tb.font
		hh = tb.hh
		if e.Sub != "" {
			sub := textBox(e.Sub, e.Size*0.32*U, cx, W, U, 0)
			return math.Max(tb.hw, sub.hw), math.Max(hh, r*0.95+sub.hh)
		}
		return tb.hw, hh
	}
	if hasText(e) {
		p.text, p.asked, p.font = true, e.Size*0.5*U, e.Size*0.5*U
	}
	return r, r
}

func formatNum(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	// Thousands separators, as the runtime draws them.
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

type tbox struct{ hw, hh, font float64 }

// MinTextScale is the least share of its size a text may be shrunk to, to fit beside
// the frame's edges, before it reads as clipped: the critic reports smaller text, and
// a template's text field may hold no more than keeps it (MaxTextLen).
const MinTextScale = 0.7

// MaxTextLen is how many characters of ordinary words the text of element e can hold
// where the description places it, at its size, in every frame: the runtime wraps the
// words (at most three lines) and shrinks them to fit, and the longest text it never
// shrinks below MinTextScale is the limit. Items lists are measured line by line. It
// returns 0 for an element that shows no text of its own.
func MaxTextLen(d *scene.Description, e *scene.Element, frames ...Frame) int {
	if e == nil || e.Type != scene.TypeText {
		return 0
	}
	if len(frames) == 0 {
		frames = []Frame{Landscape}
	}
	times := shownAt(d, e)
	fits := func(n int) bool {
		c := *e
		c.Items, c.Text = nil, sampleText(n)
		for _, f := range frames {
			for _, t := range times {
				if p := place(d, &c, f, t); p.visible && p.font < p.asked*MinTextScale {
					return false
				}
			}
		}
		return true
	}
	// Fitting only gets harder as the text grows, so the limit is found by halving.
	lo, hi := 1, 500
	if !fits(lo) {
		return 1
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// shownAt are the hold times at which e is on screen, else the middle of its span.
func shownAt(d *scene.Description, e *scene.Element) []float64 {
	var out []float64
	for _, t := range holds(d) {
		if t >= e.Start && (e.End == 0 || t <= e.End) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		end := e.End
		if end == 0 {
			end = d.Duration
		}
		out = append(out, (e.Start+end)/2)
	}
	return out
}

// sampleText is n characters of ordinary lower-case words (five letters and a space),
// the text a limit in characters is measured with.
func sampleText(n int) string {
	var b strings.Builder
	for i := range n {
		if i%6 == 5 && i != n-1 {
			b.WriteByte(' ')
		} else {
			b.WriteByte('n')
		}
	}
	return b.String()
}

// glyph widths of DejaVu Sans Bold (the runtime's first font) in ems, by class.
func glyphW(r rune) float64 {
	switch {
	case r == ' ':
		return 0.35
	case r >= 'A' && r <= 'Z':
		return 0.76
	case r == 'i' || r == 'l' || r == 'j' || r == '.' || r == ',' || r == '\'' || r == '!' || r == ':':
		return 0.34
	case r == 'm' || r == 'w' || r == 'M' || r == 'W':
		return 1.0
	case r >= '0' && r <= '9':
		return 0.7
	}
	return 0.64
}

func textWidth(s string, font float64) float64 {
	w := 0.0
	for _, r := range s {
		w += glyphW(r)
	}
	return w * font
}

// textBox mirrors the runtime's layout(): one line if it fits 90 % of twice the distance
// to the nearer edge (or the text's own wrap width, when narrower), else wrapped lines,
// shrinking by 8 % until at most three lines fit.
func textBox(text string, size, cx, W, U, wrap float64) tbox {
	maxW := math.Max(U*0.3, 2*math.Min(cx, W-cx)*0.9)
	if wrap > 0 {
		maxW = math.Min(maxW, wrap*U)
	}
	words := strings.Fields(text)
	fs := size
	var lines []string
	for range 40 {
		if textWidth(text, fs) <= maxW {
			lines = []string{text}
			break
		}
		lines = nil
		cur := ""
		for _, w := range words {
			next := w
			if cur != "" {
				next = cur + " " + w
			}
			if cur != "" && textWidth(next, fs) > maxW {
				lines = append(lines, cur)
				cur = w
			} else {
				cur = next
			}
		}
		if cur != "" {
			lines = append(lines, cur)
		}
		ok := len(lines) <= 3
		for _, l := range lines {
			ok = ok && textWidth(l, fs) <= maxW
		}
		if ok {
			break
		}
		fs *= 0.92
	}
	w := 0.0
	for _, l := range lines {
		w = math.Max(w, textWidth(l, fs))
	}
	n := math.Max(1, float64(len(lines)))
	return tbox{hw: w / 2, hh: (fs*1.15*(n-1) + fs) / 2, font: fs}
}

// backgroundAt is the background gradient's colour at pixel (x, y) at time t, the way
// the runtime paints it (angle plus drift over the duration, stops evenly spaced, a
// single colour darkening by 30 % towards its end).
func backgroundAt(d *scene.Description, f Frame, t, x, y float64) string {
	bg := d.Background
	cols := bg.Colors
	if len(cols) == 0 {
		cols = []string{"#0f172a", "#1e293b"}
	}
	if len(cols) == 1 {
		cols = []string{cols[0], shade(cols[0], -0.3)}
	}
	W, H := float64(f.W), float64(f.H)
	ang := (bg.Angle + bg.Drift*t/math.Max(d.Duration, 1e-9)) * math.Pi / 180
	dx, dy := math.Cos(ang), math.Sin(ang)
	half := (math.Abs(W*dx) + math.Abs(H*dy)) / 2
	u := ((x-W/2)*dx + (y-H/2)*dy) / math.Max(2*half, 1e-9)
	u = math.Max(0, math.Min(1, u+0.5))
	seg := u * float64(len(cols)-1)
	i := min(int(seg), len(cols)-2)
	return mix(cols[i], cols[i+1], seg-float64(i))
}

// underText are the colours under a text's words: the background there, and each
// backdrop shape covering a quarter of the text blended over it at its opacity.
func underText(d *scene.Description, f Frame, t float64, text pose, behind []pose) []string {
	bg := backgroundAt(d, f, t, text.box.cx(), text.box.cy())
	// Words on a card, bar or badge they are in (Element.In) sit on it, not on the background.
	// A filled path (a set of a Venn diagram) is such a surface too; a stroke is not.
	surface := func(p *scene.Element) bool {
		return p.Type == scene.TypeRect || p.Type == scene.TypeCircle || p.Type == scene.TypePath && p.Variant != "stroke"
	}
	if p := d.Element(text.e.In); p != nil && p.Color != "" && surface(p) {
		// A card fading in with its words is under them as much as they are there.
		if q := place(d, p, f, t); q.visible && (q.op > 0.9 || q.op >= text.op-0.05) && text.box.inter(q.box).area() > 0.6*text.box.area() {
			return []string{p.Color}
		}
	}
	out := []string{bg}
	for _, b := range behind {
		if text.box.inter(b.box).area() > 0.25*text.box.area() {
			out = append(out, mix(bg, b.e.Color, math.Min(1, b.op)))
		}
	}
	return out
}

// Repair repairs d in place until Check finds nothing or nothing more can be done, and
// returns what it changed and the problems left.
func Repair(d *scene.Description, frames ...Frame) ([]Fix, []Problem) {
	if len(frames) == 0 {
		frames = []Frame{Landscape}
	}
	var fixes []Fix
	// Each round repairs one problem and looks again, as a move can cure or cause
	// another; a bounded number of rounds ends any back-and-forth.
	for range 80 {
		probs := Check(d, frames...)
		if len(probs) == 0 {
			return fixes, nil
		}
		sortP(probs)
		fixed := false
		for _, p := range probs {
			if fx, ok := repair(d, p, frames); ok {
				if n := len(fixes); n == 0 || fixes[n-1] != fx {
					fixes = append(fixes, fx)
				}
				fixed = true
				break
			}
		}
		if !fixed {
			return fixes, probs
		}
	}
	return fixes, Check(d, frames...)
}

// sortP orders problems for repair: centring squeezed text first saves nudging it
// along the edge; placement before overlaps before colours.
func sortP(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool { return priority[ps[i].Check] < priority[ps[j].Check] })
}

var priority = map[string]int{"hidden": 0, "clip": 1, "frame": 2, "safe": 3, "covered": 4, "overlap": 5, "faint": 6, "contrast": 7}

// FixNotes turns fixes into one sentence for the project's messages.
func FixNotes(fixes []Fix) string {
	if len(fixes) == 0 {
		return ""
	}
	seen := map[string]bool{}
	var parts []string
	for _, f := range fixes {
		if !seen[f.What] {
			seen[f.What] = true
			parts = append(parts, f.What)
		}
	}
	sort.Strings(parts)
	return NotePrefix + " and " + strings.Join(parts, "; ") + "."
}

// NotePrefix opens the critic's message, so readers can tell it from the agent's others.
const NotePrefix = "Before the preview I checked the frames"
