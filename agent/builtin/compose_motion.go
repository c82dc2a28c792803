package builtin

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
)

// Motion verbs in the composer: each verb of the prompt becomes one of agent/scene's
// motion programs on the subject it names, with the prompt's counts and orders.

func init() {
	kindSize[scene.TypeMorph] = 0.2
}

var (
	steamRE   = regexp.MustCompile(`\b(steam|steaming|smoke|vapou?r|mist)\b`)
	dvdRE     = regexp.MustCompile(`\b(dvd|screensaver|screen saver)\b`)
	arcRE     = regexp.MustCompile(`\b(arc|arcs|loop|loops|swoops?|curves?|curving)\b`)
	waveRE    = regexp.MustCompile(`\b(wave|waves|wavy|zigzags?|zig-zags?|weaves?|weaving)\b`)
	reverseRE = regexp.MustCompile(`\bright to (?:the )?left\b|\bfrom (?:the )?right\b|\b(?:to|towards?|toward) (?:the )?left\b|\bleftwards?\b|\b(?:goes|moves|drives|runs|flies|walks|swims|rolls|heads|travels|sails|rides) left\b`)
)

// headings are the directions the drawings of flying things face when not turned
// (degrees, 0 right, -90 up), so a flyer can be turned to its travel; a drawing not
// listed is not turned.
var headings = map[string]float64{"rocket": -90, "rockets": -90, "plane": 0, "airplane": 0, "jet": 0, "arrow": 0}

// flipOverRE: a flip end over end (upside down), not about the upright axis.
var flipOverRE = regexp.MustCompile(`\b(?:flips?|flipping|turns?) (?:it )?(?:over|upside down)\b`)

// drawnRE: the subject is what gets drawn, not a pen drawing something else.
var drawnRE = regexp.MustCompile(`\b(?:draws? (?:itself|themselves|in)|is drawn|are drawn|gets drawn|being drawn|sketches itself|paints itself)\b`)

// trailColorRE finds the colour word of a trail ("a white trail", "a pink dotted line").
var trailColorRE = regexp.MustCompile(`\b([a-z]+)\s+(?:dotted\s+|dashed\s+)?(?:trail|streak|line|path)\b`)

// movable: an element that can travel as a whole (not a field of particles or a sea).
func movable(e *scene.Element) bool {
	return e.Type != scene.TypeParticles && e.Type != scene.TypeWave
}

// particlesIn reports whether the clause has a particle subject (snow, rain, confetti)
// to play its falling or rising.
func (c *composer) particlesIn(bt *beat) bool {
	if bt == nil {
		return false
	}
	for _, si := range bt.Subjects {
		if c.b.Subjects[si].Kind == "particles" {
			return true
		}
	}
	return false
}

// travel moves e along the ground during [a0, a1]: across the frame, or in from the
// side to where it stands ("drives in and stops").
func (c *composer) travel(e *scene.Element, bt *beat, clause string, a0, a1 float64) {
	if isDataType(e.Type) {
		return // "a chart from 120 users … to 140": its numbers go from one to the other, not the chart
	}
	x := value(trackOf(e), "x", e.X)
	if bt.Enter {
		// From beyond the edge to where it stands, braking as it arrives. (A track, so
		// the element is in its place for the scenes before.)
		from := -1.35
		if reverseRE.MatchString(clause) {
			from = 1.35
		}
		c.emove(e, "x", a0, a0, from, "")
		c.emove(e, "x", a0, a1, x, "easeOutCubic")
		return
	}
	if c.hops(e, bt, a0, a1) {
		return
	}
	from, to, ease := -0.62, 0.62, "easeInOutSine"
	if reverseRE.MatchString(clause) {
		from, to = -from, -to
	}
	c.motion(e, scene.Motion{Type: scene.MotionSlide, Start: a0, End: a1, FromX: round3(from - x), ToX: round3(to - x), Ease: ease})
}

// hops moves e along a path with stops ("from a pink flower to a yellow one to a blue
// one"): it flies to each stop in turn and alights on it for a moment. It reports whether
// the clause has such stops.
func (c *composer) hops(e *scene.Element, bt *beat, a0, a1 float64) bool {
	if len(bt.Via) == 0 || bt.From < 0 || bt.To < 0 {
		return false
	}
	var stops []*scene.Element
	for _, si := range append(append([]int{bt.From}, bt.Via...), bt.To) {
		if s := c.elementOf(si); s != nil && s != e {
			stops = append(stops, s)
		}
	}
	if len(stops) < 2 {
		return false
	}
	seg := (a1 - a0) / float64(len(stops))
	for k, s := range stops {
		t := a0 + seg*float64(k)
		x, y := s.X, round3(s.Y-(s.Size+e.Size)*frameK*1.05) // just above it, alighting
		if k == 0 {
			c.emove(e, "x", a0, a0, x, "")
			c.emove(e, "y", a0, a0, y, "")
			continue
		}
		c.emove(e, "x", t, t+seg*0.7, x, "easeInOutSine")
		c.emove(e, "y", t, t+seg*0.35, y-0.12, "easeOutQuad")
		c.emove(e, "y", t+seg*0.35, t+seg*0.7, y, "easeInQuad")
	}
	return true
}

// nestInPlaces draws an actor in or on the place its clause puts it ("a key turns in a
// lock", "a goldfish swims in a bowl", "a price tag swings on a hook"): at the place,
// in front of it, a hanging one below it. Only drawings are nested; a field of rain or
// snow is everywhere already.
func (c *composer) nestInPlaces() {
	for _, bt := range c.b.Beats {
		for _, rel := range bt.Rels {
			pi, prep := rel.Place, rel.Prep
			place := c.elementOf(pi)
			if place == nil || place.Type != scene.TypeAsset {
				continue
			}
			for _, si := range []int{rel.Actor} {
				actor := c.elementOf(si)
				if actor == nil || containsInt(bt.Places, si) || actor.Type != scene.TypeAsset {
					continue
				}
				k := c.indexOf(actor)
				if c.b.Subjects[pi].Scenery {
					continue // the place the others are in already sits behind them
				}
				// The pair is one group: it takes the middle of the two slots it had.
				if kp := c.indexOf(place); kp >= 0 && c.b.Subjects[si].Many < 2 {
					place.X = round3((place.X + actor.X) / 2)
					c.homes[kp] = pose{place.X, place.Y}
				}
				if prep == "under" || prep == "below" || prep == "over" || prep == "above" {
					// One above the other, a gap between: the sun up high, the ice cream
					// cone under it.
					up, down := place, actor
					if prep == "over" || prep == "above" {
						up, down = actor, place
					}
					const gap = 0.08
					up.Y, down.Y = round3(-(up.Size*frameK + gap/2)), round3(down.Size*frameK+gap/2)
					down.X = up.X
					c.homes[c.indexOf(up)] = pose{up.X, up.Y}
					c.homes[c.indexOf(down)] = pose{down.X, down.Y}
					continue
				}
				x, y := place.X, place.Y
				if prep == "out of" {
					y -= place.Size * frameK * 0.45 // coming out of its top
				} else if prep == "on" || prep == "onto" {
					if containsStr(bt.Actions, "swing") {
						y += place.Size * frameK * 1.1 // hangs from it
					} else {
						y -= place.Size * frameK * 0.55 // sits on it
					}
				} else {
					actor.Size = round3(math.Min(actor.Size, place.Size*0.7))
					if sameColours(actor, place) {
						// A golden key in a golden lock would vanish into it: it shows
						// half out of its side, as a key in a lock does.
						x += place.Size * frameK * 0.55
					}
				}
				actor.X, actor.Y = round3(x), round3(y)
				c.homes[k] = pose{actor.X, actor.Y}
				// The critic leaves the pair overlapping: the key is meant to be in the lock.
				actor.In = place.ID
				c.inFront(actor, place)
			}
		}
	}
}

// sameColours: two drawings whose main colours are alike (close in RGB), so one drawn
// on the other hardly shows.
func sameColours(a, b *scene.Element) bool {
	ca, cb := mainColorOf(a), mainColorOf(b)
	if ca == "" || cb == "" {
		return false
	}
	return colorDist(ca, cb) < 80
}

func mainColorOf(e *scene.Element) string {
	if e.Tint != "" {
		return e.Tint
	}
	a, ok := assets.Default().Get(e.Asset)
	if !ok {
		return ""
	}
	c, _ := a.MainColor()
	return c
}

// topInPlaces puts what comes with a drawing on top of it, in front ("a cupcake
// with a candle").
func (c *composer) topInPlaces() {
	for _, bt := range c.b.Beats {
		for si, base := range bt.With {
			top, under := c.elementOf(si), c.elementOf(base)
			if top == nil || under == nil {
				continue
			}
			top.Size = round3(math.Min(top.Size, under.Size*0.6))
			top.X, top.Y = under.X, round3(under.Y-under.Size*frameK*0.75)
			c.homes[c.indexOf(top)] = pose{top.X, top.Y}
			top.In = under.ID
			c.inFront(top, under)
		}
	}
}

// withinOutOf: the clause has a place something comes out of.
func withinOutOf(bt *beat) bool {
	for _, p := range bt.Within {
		if p == "out of" {
			return true
		}
	}
	return false
}

// elementOf is the drawn element of brief subject si, nil when it is not drawn.
func (c *composer) elementOf(si int) *scene.Element {
	for k, idx := range c.index {
		if idx == si {
			return c.subjects[k]
		}
	}
	return nil
}

// inFront moves element a just after element b in the drawing order.
func (c *composer) inFront(a, b *scene.Element) {
	ia, ib := -1, -1
	for i, e := range c.d.Elements {
		if e == a {
			ia = i
		}
		if e == b {
			ib = i
		}
	}
	if ia < 0 || ib < 0 || ia > ib {
		return
	}
	els := append(c.d.Elements[:ia:ia], c.d.Elements[ia+1:]...)
	ib--
	els = append(els[:ib+1], append([]*scene.Element{a}, els[ib+1:]...)...)
	c.d.Elements = els
}

// beatOf is the clause being composed (or nil in scenes that are not a beat).
func (c *composer) beatOf() *beat {
	if c.beat >= 0 && c.beat < len(c.b.Beats) {
		return &c.b.Beats[c.beat]
	}
	return nil
}

// beatsWith lists the beats of subject i with action a (a clause naming no subject
// belongs to the primary one).
func (c *composer) beatsWith(i int, a string) []*beat {
	var out []*beat
	si := c.index[i]
	p := primarySubject(c.b)
	for k := range c.b.Beats {
		bt := &c.b.Beats[k]
		if !containsStr(bt.Actions, a) {
			continue
		}
		mine := false
		for _, s := range bt.Subjects {
			mine = mine || s == si
		}
		if len(bt.Subjects) == 0 && p != nil && &c.b.Subjects[si] == p {
			mine = true
		}
		if mine {
			out = append(out, bt)
		}
	}
	return out
}

// countedBounce: the prompt counts this subject's bounces, so no other scene adds hops.
func (c *composer) countedBounce(i int) bool {
	if i >= len(c.index) {
		return false
	}
	for _, bt := range c.beatsWith(i, "bounce") {
		if bt.Count > 0 {
			return true
		}
	}
	return false
}

// prepareMotions shapes the drawn subjects for the verbs they will play: a morph's
// outlines, a hanging element's pivot, speech bubbles for each quote, a row of tiles,
// an outline to draw, a pale shape to fill, steam above a cup.
func (c *composer) prepareMotions() {
	n := len(c.subjects)
	for i := 0; i < n; i++ {
		e := c.subjects[i]
		s := c.b.Subjects[c.index[i]]
		if e.Type == scene.TypeMorph {
			e.Shapes = append([]string(nil), s.Shapes...)
			e.Shadow = true
		}
		if len(c.beatsWith(i, "swing")) > 0 {
			// The pivot sits above where the body should hang.
			e.Y = round3(c.homes[i].Y - 1.5*e.Size*frameK)
			c.homes[i].Y = e.Y
			e.Color2 = c.bd.Palette.Text
		}
		if len(c.beatsWith(i, "draw")) > 0 {
			if p, ok := outlinePaths[e.Type]; ok {
				e.Type, e.Path, e.Variant = scene.TypePath, p, "stroke"
			}
		}
		if len(c.beatsWith(i, "fill")) > 0 && !isDataType(e.Type) && e.Type != scene.TypeRing {
			// (A ring draws its own pale track under the arc that fills.)
			fill := orDefault(c.b.FillColor, orDefault(s.Color, "#ec407a"))
			if s.Color == "" || s.Color == fill {
				// An empty vessel: a pale tone of the liquid, so the rising fill reads.
				e.Color = mixHex(fill, c.bd.Palette.Background[0], 0.72)
				if luminance(c.bd.Palette.Background[0]) < 0.4 {
					e.Color = mixHex(fill, "#ffffff", 0.7)
				}
			}
		}
		if e.Type == scene.TypeIcon && e.Variant == "chat" {
			c.bubbles(i)
		}
		if bts := c.beatsWith(i, "flip"); len(bts) > 0 && e.Type != scene.TypeAsset && (bts[0].OneByOne || strings.HasSuffix(s.Noun, "s")) {
			c.tiles(i, bts[0])
		}
	}
	if steamRE.MatchString(strings.ToLower(c.b.Prompt)) {
		c.steam()
	}
	c.prepareShapes()
}

var (
	concentricRE = regexp.MustCompile(`\b(?:concentric|ripples?|rippling)\b`)
	sleepRE      = regexp.MustCompile(`\b(?:sleep(?:s|ing|y)?|asleep|napping|naps|dozing|dozes|snoozing|snoozes)\b`)
)

// Nouns that name their own motion: a spinner spins, a pendulum swings.
var (
	spinnerNouns  = map[string]bool{"spinner": true, "loader": true}
	pendulumNouns = map[string]bool{"pendulum": true}
)

// pendulumCord is a pendulum's cord, in sizes of its bob: a long one, so the swing reads.
const pendulumCord = 2.5

// prepareShapes shapes subjects whose noun or state implies a look: a spinner is an arc
// that turns, a pendulum a bob on a long cord, concentric circles are rings sharing a
// centre, blobs are several soft outlines, a sleeping animal breathes out Zzz, and what
// grows starts small.
func (c *composer) prepareShapes() {
	low := strings.ToLower(c.b.Prompt)
	n := len(c.subjects)
	for i := 0; i < n; i++ {
		e := c.subjects[i]
		s := c.b.Subjects[c.index[i]]
		switch {
		case e.Type == scene.TypeRing && spinnerNouns[s.Noun] && e.To == 0:
			// An arc that never stops turning (a spinner has no percent to fill to).
			e.Variant = "spinner"
			c.motion(e, scene.Motion{Type: scene.MotionSpin, Start: 0, End: c.bd.Total, Count: math.Max(2, math.Round(c.bd.Total/1.1)), Ease: "linear"})
		case pendulumNouns[s.Noun]:
			// The pivot high, so bob and cord hang about the middle of the frame.
			e.Y = round3(c.homes[i].Y - (1+pendulumCord)*e.Size*frameK*0.55)
			c.homes[i].Y = e.Y
			e.Color2 = c.bd.Palette.Text
		case (e.Type == scene.TypeCircle || e.Type == scene.TypeRing) && concentricRE.MatchString(low):
			c.concentric(i)
		case e.Type == scene.TypeMorph && strings.HasSuffix(s.Noun, "s") && !strings.HasSuffix(s.Noun, "ss"):
			c.several(i, 3)
		}
		if e.Type == scene.TypeAsset && sleepRE.MatchString(low) && i == c.firstSolid() {
			c.zzz(e)
		}
		if c.grows(i) {
			// Small at first, its base where the grown one stands (it grows up, not out).
			k := 0.15
			trackOf(e)["scale"] = []scene.Keyframe{{T: 0, V: k}}
			trackOf(e)["y"] = []scene.Keyframe{{T: 0, V: round3(c.homes[i].Y + e.Size*frameK*(1-k))}}
		}
	}
}

func (c *composer) firstSolid() int {
	for i, e := range c.subjects {
		if e.Type != scene.TypeParticles {
			return i
		}
	}
	return -1
}

// grows: subject i grows in the prompt and is a drawing (a chart or counter grows by
// its own progress).
func (c *composer) grows(i int) bool {
	e := c.subjects[i]
	switch e.Type {
	case scene.TypeAsset, scene.TypeCircle, scene.TypeRect, scene.TypeStar, scene.TypeHeart, scene.TypeTriangle, scene.TypeIcon:
		return len(c.beatsWith(i, "grow")) > 0
	}
	return false
}

// popsIn reports whether subject i is named popping in or up by a clause of its own ("a
// thumbs up pops in with sparkles", "a camera pops in"): its entrance is a pop. Coming
// out of something ("pops out of a bucket"), taking turns, and words that pop are
// played by their own programs.
func (c *composer) popsIn(i int) bool {
	e := c.subjects[i]
	if e.Type == scene.TypeText || e.Type == scene.TypeParticles || len(c.group) > 1 && containsElem(c.group, e) {
		return false
	}
	for _, bt := range c.beatsWith(i, "pop") {
		if containsInt(bt.Subjects, c.index[i]) && !withinOutOf(bt) {
			return true
		}
	}
	return false
}

// concentric turns circle i into four rings around one centre; the action's stagger
// makes them pulse one after another, outwards.
func (c *composer) concentric(i int) {
	first := c.subjects[i]
	first.Type = scene.TypeRing
	rings := []*scene.Element{first}
	for k := 1; k < 4; k++ {
		rings = append(rings, c.clone(i, fmt.Sprintf("%s-%d", first.ID, k+1)))
	}
	for k, e := range rings {
		e.Size = round3(0.07 + 0.075*float64(k))
		e.X, e.Y = c.homes[i].X, c.homes[i].Y
		c.homes[c.indexOf(e)] = pose{e.X, e.Y}
	}
}

// several makes subject i n of a kind, side by side, each in its own colour of the
// palette ("soft blobs morph and drift").
func (c *composer) several(i, n int) {
	first := c.subjects[i]
	cols := []string{first.Color}
	if np, ok := namedPalettes[c.b.PaletteName]; ok {
		cols = np.Subjects
	} else {
		cols = append(cols, c.recolors(first)...)
	}
	group := []*scene.Element{first}
	for k := 1; k < n; k++ {
		group = append(group, c.clone(i, fmt.Sprintf("%s-%d", first.ID, k+1)))
	}
	size, home := first.Size, c.homes[i]
	for k, e := range group {
		e.X = round3(home.X + slotX(n, k))
		e.Y = round3(home.Y + 0.12*float64(k%2*2-1))
		e.Size = round3(size * (0.65 - 0.1*float64(k%2)))
		e.Seed = first.Seed + 13*k
		e.Color = cols[k%len(cols)]
		c.homes[c.indexOf(e)] = pose{e.X, e.Y}
	}
}

// zzz: a sleeping subject breathes out Zzz that rise and fade, from beside its head
// (the side its drawing faces), clear of the drawing so they never hide its face; not
// from above it, where a sleeper moved up for a title would push them out of frame.
func (c *composer) zzz(e *scene.Element) {
	c.sleeper = e
	side := 1.0
	if h, ok := assetHeading(e); ok && math.Cos(h*math.Pi/180) < -0.5 {
		side = -1 // an emoji animal faces left: its head is on the left
	}
	z := &scene.Element{ID: "zzz", Type: scene.TypeAsset, Asset: "fluent:zzz", Label: "zzz",
		X: round3(e.X + side*c.xUnits(e.Size)*1.1), Y: round3(e.Y - e.Size*frameK*0.85), Size: round3(e.Size * 0.35), In: e.ID,
		Motions: []*scene.Motion{{Type: scene.MotionRise, Start: 0.4, End: c.bd.Total, Count: 3, Amp: 0.35, Period: 2.4}}}
	c.d.Elements = append(c.d.Elements, z)
	c.zzzEl = z
	// Kept as set here: the sleeper's resting place may change later (making room).
	c.zzzOff = pose{z.X - e.X, z.Y - e.Y}
}

// carryZzz moves the Zzz with the sleeper when it makes room for text.
func (c *composer) carryZzz() {
	if c.zzzEl == nil || c.sleeper == nil {
		return
	}
	for _, prop := range []string{"x", "y"} {
		kfs := c.sleeper.Tracks[prop]
		if len(kfs) == 0 {
			continue
		}
		off := c.zzzOff.Y
		if prop == "x" {
			off = c.zzzOff.X
		}
		out := make([]scene.Keyframe, len(kfs))
		for k, kf := range kfs {
			out[k] = scene.Keyframe{T: kf.T, V: round3(kf.V + off), Ease: kf.Ease}
		}
		trackOf(c.zzzEl)[prop] = out
	}
}

// outlinePaths are the SVG outlines (2×2 box) a shape is drawn along when the prompt
// says it is drawn.
var outlinePaths = map[string]string{
	scene.TypeStar:     "M0,-1 L0.27,-0.37 L0.95,-0.31 L0.44,0.14 L0.59,0.81 L0,0.46 L-0.59,0.81 L-0.44,0.14 L-0.95,-0.31 L-0.27,-0.37 Z",
	scene.TypeHeart:    "M0,0.9 C-1.6,-0.1 -0.7,-1.2 0,-0.45 C0.7,-1.2 1.6,-0.1 0,0.9 Z",
	scene.TypeCircle:   "M1,0 A1,1 0 1,1 -1,0 A1,1 0 1,1 1,0 Z",
	scene.TypeRect:     "M-0.9,-0.9 H0.9 V0.9 H-0.9 Z",
	scene.TypeTriangle: "M0,-1 L0.95,0.7 L-0.95,0.7 Z",
}

func mixHex(a, b string, k float64) string {
	ar, ag, ab := rgbOf(a)
	br, bg, bb := rgbOf(b)
	f := func(x, y float64) int { return int(math.Round(x + (y-x)*k)) }
	return fmt.Sprintf("#%02x%02x%02x", f(ar, br), f(ag, bg), f(ab, bb))
}

// clone adds a copy of drawn subject i (a second speech bubble, another tile).
func (c *composer) clone(i int, id string) *scene.Element {
	e := *c.subjects[i]
	e.ID = id
	e.Tracks = map[string][]scene.Keyframe{}
	for k, v := range c.subjects[i].Tracks {
		e.Tracks[k] = append([]scene.Keyframe(nil), v...)
	}
	e.Motions = nil
	c.subjects = append(c.subjects, &e)
	c.homes = append(c.homes, c.homes[i])
	c.bouncy = append(c.bouncy, c.bouncy[i])
	c.index = append(c.index, c.index[i])
	c.d.Elements = append(c.d.Elements, &e)
	return &e
}

// bubbles gives a speech bubble the words said in its clause: one bubble per quote,
// left and right, so "two speech bubbles … saying "Hi!" and "Hello!"" is a dialogue.
func (c *composer) bubbles(i int) {
	var quotes []int
	for _, bt := range c.b.Beats {
		for _, si := range bt.Subjects {
			if si == c.index[i] {
				quotes = append(quotes, bt.Quotes...)
			}
		}
	}
	if len(quotes) == 0 {
		return
	}
	first := c.subjects[i]
	c.group = []*scene.Element{first}
	for k := 1; k < len(quotes) && k < 4; k++ {
		c.group = append(c.group, c.clone(i, fmt.Sprintf("%s-%d", first.ID, k+1)))
	}
	n := len(c.group)
	for k, e := range c.group {
		e.Text = c.b.Texts[quotes[k]]
		e.Size = math.Min(0.24, 0.5/float64(n))
		e.TextColor = "#ffffff"
		if luminance(e.Color) > 0.6 {
			e.TextColor = "#1f2937"
		}
		if n > 1 {
			e.X = round3(-0.42 + 0.84*float64(k)/float64(n-1))
			e.Y = round3(-0.12 + 0.24*float64(k%2))
			if k%2 == 1 {
				// The other speaker in another colour of the style.
				for _, col := range append(c.recolors(first)[1:], c.styleColors()...) {
					if colorDist(col, first.Color) > 120 && contrast(col, "#ffffff") > 2.5 {
						e.Color = col
						break
					}
				}
			}
		}
		c.homes[c.indexOf(e)] = pose{e.X, e.Y}
		c.quoteShown[quotes[k]] = true
	}
}

// messageRE: a clause that gives what someone writes ("then the message 'On my way!'").
var messageRE = regexp.MustCompile(`\b(?:message|messages|reply|replies|answer|answers|says|saying|writes|texts)\b`)

// messageBubbleFor returns the speech bubble that quote q is written in: a chat bubble
// with no words of its own, when the quote's clause names no other subject and says it
// is a message. Nil when the quote is a title.
func (c *composer) messageBubbleFor(q int) *scene.Element {
	var bub *scene.Element
	for _, e := range c.subjects {
		if e.Type == scene.TypeIcon && e.Variant == "chat" && e.Text == "" {
			bub = e
			break
		}
	}
	if bub == nil {
		return nil
	}
	for _, bt := range c.b.Beats {
		if containsInt(bt.Quotes, q) {
			if len(bt.Subjects) > 0 || !messageRE.MatchString(bt.Text) {
				return nil
			}
			return bub
		}
	}
	return nil
}

// messageBubble shows quote q as the message the chat bubble was typing: the bubble of
// dots gives way to a bubble with the words, in the same place, at the quote's time.
func (c *composer) messageBubble(bub *scene.Element, q int, a0 float64) {
	e := *bub
	e.ID = fmt.Sprintf("message-%d", q+1)
	e.Label = "message"
	e.Text = c.b.Texts[q]
	e.Start = round3(a0)
	e.Size = math.Max(bub.Size, 0.22)
	e.Motions = nil
	e.Tracks = map[string][]scene.Keyframe{}
	e.TextColor = "#ffffff"
	if luminance(e.Color) > 0.6 {
		e.TextColor = "#1f2937"
	}
	// The words have to be read: deepen the bubble until they stand out clearly.
	for k := 0; k < 6 && contrast(e.Color, e.TextColor) < 5; k++ {
		if e.TextColor == "#ffffff" {
			e.Color = darken(e.Color, 0.12)
		} else {
			e.Color = mixHex(e.Color, "#ffffff", 0.2)
		}
	}
	key(e.Tracks, "opacity", 0, 0, "")
	c.emove(&e, "opacity", a0, a0+0.15, 1, "")
	c.emove(&e, "scale", a0, a0, 0, "")
	c.emove(&e, "scale", a0, a0+0.6, 1, "easeOutBack")
	c.motion(&e, scene.Motion{Type: scene.MotionFloat, Start: a0 + 0.6, End: c.bd.Total, Amp: 0.02, Count: math.Max(0.5, (c.bd.Total-a0)/3)})
	c.emove(bub, "opacity", a0, a0+0.25, 0, "easeInCubic")
	c.emove(bub, "scale", a0, a0+0.25, 0.6, "easeInCubic")
	bub.End = round3(a0 + 0.3)
	c.quoteShown[q] = true
	c.d.Elements = append(c.d.Elements, &e)
}

// ring puts the rank-th of n copies of a subject circling one centre on a ring of its
// own, spread around it, the outer ones smaller and slower, so they read as separate
// bodies; an illustration with no colour asked turns to another hue for each copy.
func (c *composer) ring(e *scene.Element, m *scene.Motion, rank, n int) {
	if n < 2 {
		return
	}
	r := float64(rank)
	e.Size = round3(e.Size * math.Pow(0.8, r))
	m.Amp = round3(0.3 + 0.12*r)
	m.Angle = round3(360 * r / float64(n))
	m.Count = round3(math.Max(1, m.Count*math.Pow(0.7, r)))
	if i := c.indexOf(e); rank > 0 && e.Type == scene.TypeAsset && i >= 0 && c.b.Subjects[c.index[i]].Color == "" {
		e.Hue = round3(math.Mod(150*r, 360))
	}
}

// copyRank is which copy of its subject the i-th element is (0 for the first drawn) and
// how many copies of that subject there are.
func (c *composer) copyRank(i int) (rank, n int) {
	for k := range c.subjects {
		if c.index[k] == c.index[i] {
			if k < i {
				rank++
			}
			n++
		}
	}
	return rank, n
}

func (c *composer) indexOf(e *scene.Element) int {
	for i, s := range c.subjects {
		if s == e {
			return i
		}
	}
	return -1
}

// tiles lays a flipping subject out as a row of tiles that flip one after another.
func (c *composer) tiles(i int, bt *beat) {
	n := 4
	if bt.Count > 1 {
		n = min(bt.Count, 8)
	}
	first := c.subjects[i]
	c.tileRow = []*scene.Element{first}
	for k := 1; k < n; k++ {
		c.tileRow = append(c.tileRow, c.clone(i, fmt.Sprintf("%s-%d", first.ID, k+1)))
	}
	for k, e := range c.tileRow {
		e.Type, e.Size, e.Aspect = scene.TypeRect, math.Min(0.12, 0.7/float64(n)), 0.75
		e.X = round3(-0.6 + 1.2*float64(k)/float64(n-1))
		e.Y = 0
		c.homes[c.indexOf(e)] = pose{e.X, 0}
	}
}

// steam adds an emitter of soft white puffs above the cup (or the lower middle).
func (c *composer) steam() {
	x, y := 0.0, 0.3
	for i, e := range c.subjects {
		if e.Type != scene.TypeParticles {
			x, y = c.homes[i].X, c.homes[i].Y-e.Size*frameK*1.1
			break
		}
	}
	e := &scene.Element{ID: "steam", Type: scene.TypeCircle, Label: "steam", X: x, Y: y, Size: 0.035, Color: "#f5f5f5",
		Motions: []*scene.Motion{{Type: scene.MotionRise, Start: 0.3, End: c.bd.Total, Count: 6, Amp: 0.55, Period: 2.2}}}
	c.d.Elements = append(c.d.Elements, e)
}

// popping adds the kernels that pop out of the top of drawing e from t0 to the end: a
// popcorn particle field at the top of its filling, behind it, so they come up from
// inside and fall back in.
func (c *composer) popping(e *scene.Element, t0 float64) {
	x, y := value(trackOf(e), "x", e.X), value(trackOf(e), "y", e.Y)
	p := &scene.Element{ID: e.ID + "-pops", Type: scene.TypeParticles, Variant: "popcorn", Label: "popping kernels",
		X: x, Y: round3(y - e.Size*frameK*0.3), Size: round3(e.Size * 0.25), Count: 7, Start: round3(t0), End: c.bd.Total,
		Color: "#fff8e1", Color2: "#ffc107", Seed: 41,
		// The kernels are what pops: each one bursts out of the bucket in turn.
		Motions: []*scene.Motion{{Type: scene.MotionPop, Start: round3(t0), End: c.bd.Total}}}
	at := len(c.d.Elements)
	for i, el := range c.d.Elements {
		if el == e {
			at = i
			break
		}
	}
	c.d.Elements = append(c.d.Elements[:at], append([]*scene.Element{p}, c.d.Elements[at:]...)...)
}

// carrySteam moves the steam with what it rises from: a steam train's smoke travels
// with the train.
func (c *composer) carrySteam() {
	var steam *scene.Element
	for _, e := range c.d.Elements {
		if e.ID == "steam" {
			steam = e
		}
	}
	if steam == nil {
		return
	}
	for _, e := range c.subjects {
		if e.Type == scene.TypeParticles {
			continue
		}
		for _, m := range e.Motions {
			if m.Type == scene.MotionSlide && m.FromX != m.ToX {
				cp := *m
				steam.Motions = append(steam.Motions, &cp)
				steam.X = round3(e.X + e.Size*0.25)
			}
		}
		return
	}
}

// recolors is the palette a colour change steps through: the prompt's colours, else a
// bright set.
func (c *composer) recolors(e *scene.Element) []string {
	var cols []string
	for _, col := range c.b.Colors {
		if col != c.b.Background && col != c.b.Background2 && col != c.b.TextColor {
			cols = append(cols, col)
		}
	}
	if len(cols) < 2 {
		cols = []string{e.Color, "#ffd54f", "#4dd0e1", "#ec407a", "#69f0ae", "#b388ff"}
	}
	return cols
}

// play is one verb played on one subject during [a0, a1], with what its beat says: what a
// motion rule reads.
type play struct {
	e       *scene.Element
	i       int
	verb    string
	across  bool
	a0, a1  float64
	d       float64
	bt      *beat
	count   int
	clause  string
	low     string
	recolor bool
}

// actMotion plays verb a on subject i during [a0, a1] by its row in motionRules. It
// reports whether the row handled the verb; verbs it leaves fall through to the
// composer's defaults (act).
func (c *composer) actMotion(e *scene.Element, i int, a string, across bool, a0, a1 float64) bool {
	r, ok := motionByVerb[a]
	if !ok {
		return false
	}
	p := play{e: e, i: i, verb: a, across: across, a0: a0, a1: a1, d: a1 - a0, low: strings.ToLower(c.b.Prompt)}
	if p.bt = c.beatOf(); p.bt != nil {
		p.count, p.clause = p.bt.Count, p.bt.Text
	}
	p.recolor = containsStr(c.b.Actions, "recolor") || dvdRE.MatchString(p.low)
	return r.play(c, p)
}

func motionRecolor(c *composer, p play) bool {
	i := p.i
	// Played by the bounce or ricochet it belongs to.
	return len(c.beatsWith(i, "bounce")) > 0
}

func motionBounce(c *composer, p play) bool {
	e, across, a0, d, count, clause, low, recolor := p.e, p.across, p.a0, p.d, p.count, p.clause, p.low, p.recolor
	if dvdRE.MatchString(low) || (edgeRE.MatchString(clause) && !strings.Contains(clause, "ground")) {
		// Around the screen off its edges: the DVD logo, to the end of the video.
		m := scene.Motion{Type: scene.MotionRicochet, Start: a0, End: c.bd.Total, VX: 0.55, VY: 0.42}
		if recolor {
			m.Colors = c.recolors(e)
		}
		c.motion(e, m)
		return true
	}
	if count == 0 && !recolor {
		return false
	}
	sq := map[koda.Style]float64{koda.StylePlayful: 1, koda.StyleSmooth: 0.6, koda.StyleCinematic: 0.7}[c.bd.Base]
	n := float64(count)
	if n == 0 {
		n = math.Max(2, math.Min(6, math.Round(d/0.8)))
	}
	// Hops from the ground, n landings, the last with time to settle.
	m := scene.Motion{Type: scene.MotionBounce, Start: a0, End: a0 + d*0.8, Amp: 0.65, Count: n, Decay: 0.72, Squash: sq}
	if recolor {
		m.Colors = c.recolors(e)
	}
	c.motion(e, m)
	if across {
		c.emove(e, "x", a0, a0+d*0.8, 0.55, "linear")
	}
	return true
}

func motionSlide(c *composer, p play) bool {
	e, i, across, a0, a1, d, bt, clause := p.e, p.i, p.across, p.a0, p.a1, p.d, p.bt, p.clause
	if bt != nil && !(bt.Travel || bt.Enter || across) && movable(e) && slideInRE.MatchString(clause) && containsInt(bt.Subjects, c.index[i]) {
		c.slideIn(e, clause, a0, a1)
		return true
	}
	if bt == nil || !(bt.Travel || bt.Enter || across) || e.Type == scene.TypeParticles || e.Type == scene.TypeWave || bt.Alternate {
		return false
	}
	c.travel(e, bt, clause, a0, a0+d*0.85)
	return true
}

func motionRise(c *composer, p play) bool {
	e, a0, d, bt, clause := p.e, p.a0, p.d, p.bt, p.clause
	if src := c.placeElement(bt, e); src != nil && e.Type == scene.TypeAsset && strings.Contains(clause, "from") {
		// "music notes rise from a speaker": the drawings come out of it and float up,
		// fading, one after another (an emitter, like steam from a cup).
		k := 0
		for _, o := range c.subjects {
			if o == e {
				break
			}
			if o.Asset == e.Asset {
				k++
			}
		}
		e.X = round3(src.X + (float64(k%3)-1)*src.Size*0.5)
		e.Y = round3(src.Y - src.Size*frameK*0.7)
		e.In = src.ID // they come out of it: overlapping it is meant
		delete(trackOf(e), "x")
		delete(trackOf(e), "y")
		e.Motions = nil
		c.motion(e, scene.Motion{Type: scene.MotionRise, Start: a0 + float64(k)*0.45, End: c.bd.Total, Count: 3, Amp: 0.5, Period: 2.1})
		return true
	}
	if !movable(e) || steamRE.MatchString(clause) || strings.Contains(clause, "bubble") {
		return false // steam and bubbles rise from an emitter; the cup stays
	}
	// From below into its place: the sun over the horizon, balloons into the sky. A
	// thing that goes up ends in the upper part of the frame, so the rise reads as one.
	from := 0.6
	if e.Y > -0.3 && len(c.b.Subjects) == 1 {
		e.Y, from = -0.3, 0.9
	}
	c.motion(e, scene.Motion{Type: scene.MotionSlide, Start: a0, End: a0 + d*0.8, FromY: from, Ease: "easeOutCubic"})
	return true
}

func motionFall(c *composer, p play) bool {
	e, i, bt, clause := p.e, p.i, p.bt, p.clause
	if src := c.placeElement(bt, e); src != nil && e.Type == scene.TypeParticles && strings.Contains(clause, "from") {
		// "rain falling from a grey cloud": what it falls from hangs at the top of the
		// frame, so the drops fall from under it.
		if k := c.indexOf(src); k >= 0 && value(trackOf(src), "y", src.Y) > -0.2 {
			src.Y = round3(-0.62 + src.Size*frameK*0.5)
			delete(trackOf(src), "y")
			c.homes[k].Y = src.Y
		}
		return true
	}
	if !movable(e) {
		return false
	}
	if c.particlesIn(bt) || (bt != nil && !containsInt(bt.Subjects, c.index[i])) {
		// "a snowman stands in falling snow": the snow falls, the snowman stands;
		// "an umbrella in the rain, drops falling around it": the drops do.
		return true
	}
	return false // the composer's drop from above the frame
}

func motionFly(c *composer, p play) bool {
	e, i, across, a0, d, bt, clause := p.e, p.i, p.across, p.a0, p.d, p.bt, p.clause
	if bt != nil && c.hops(e, bt, a0, a0+d*0.9) {
		return true // "from a pink flower to a yellow one to a blue one"
	}
	trail := ""
	if tm := trailRE.FindAllString(clause, -1); len(tm) > 0 {
		trail = "solid"
		for _, w := range tm {
			if w == "dotted" || w == "dashed" || w == "dots" {
				trail = "dotted"
			}
		}
	}
	up := bt != nil && bt.Up && !across
	if !across && trail == "" && !up {
		return false
	}
	x := value(trackOf(e), "x", e.X)
	from, to := -0.68, 0.6
	if reverseRE.MatchString(clause) {
		from, to = 0.68, -0.6
	}
	m := scene.Motion{Type: scene.MotionFly, Start: a0, End: a0 + d*0.85, FromX: round3(from - x), ToX: round3(to - x),
		Curve: "arc", Amp: 0.12, Trail: trail, Ease: "easeInOutSine"}
	if up {
		// Upwards from where it stands to high in the frame (the critic keeps every
		// subject inside it); a launch starts slowly and speeds up.
		y := value(trackOf(e), "y", e.Y)
		top := -0.55
		if strings.Contains(clause, "launch") {
			m.Ease = "easeInQuad"
		}
		m.FromX, m.ToX, m.FromY, m.ToY, m.Amp = 0, round3(0.12), 0, round3(top-y), 0.04
	}
	if arcRE.MatchString(clause) {
		m.Amp = 0.4
	}
	if waveRE.MatchString(clause) {
		m.Curve, m.Amp, m.Count = "wave", 0.25, 2
	}
	if trail != "" {
		m.Color = c.bd.Palette.Text
		if tc := trailColorRE.FindStringSubmatch(clause); tc != nil {
			if col, ok := colorOf(tc[1]); ok {
				m.Color = col // "leaving a white trail"
			}
		}
	}
	h, ok := headings[c.b.Subjects[c.index[i]].Noun]
	if e.Type == scene.TypeAsset {
		h, ok = assetHeading(e)
		ok = ok && h != 180 // a drawing facing left is mirrored to its travel, not turned upside down (faceTravel)
	}
	if ok || e.Type == scene.TypeRect || e.Type == scene.TypeTriangle {
		m.Orient, m.Heading = true, h
		if e.Type == scene.TypeIcon && e.Variant == "rocket" {
			m.Heading = -90
		}
	}
	c.motion(e, m)
	return true
}

func motionFloat(c *composer, p play) bool {
	e, a, a0, low := p.e, p.verb, p.a0, p.low
	if e.Type == scene.TypeParticles || e.Type == scene.TypeWave || (a == "float" && !surfaceRE.MatchString(low)) {
		return false
	}
	c.motion(e, scene.Motion{Type: scene.MotionBob, Start: a0, End: c.bd.Total, Amp: 0.035, Count: math.Max(1, math.Round((c.bd.Total-a0)/1.8)), Angle: 7})
	return true
}

func motionOrbit(c *composer, p play) bool {
	e, i, a0, d, bt, count, clause := p.e, p.i, p.a0, p.d, p.bt, p.count, p.clause
	// The centre is another subject of the clause: a copy of this one ("two planets")
	// circles with it, not around it.
	var centre *scene.Element
	if bt != nil {
		for _, si := range bt.Subjects {
			for k, s := range c.subjects {
				if c.index[k] == si && si != c.index[i] && s.Type != scene.TypeParticles && centre == nil {
					centre = s
				}
			}
		}
	}
	turns := float64(count)
	if turns == 0 {
		turns = math.Max(1, math.Round((c.bd.Total-a0)/3.5))
	}
	m := scene.Motion{Type: scene.MotionOrbit, Start: a0, End: c.bd.Total, Amp: 0.3, Count: turns, Steady: true}
	if count > 0 {
		m.End = a0 + d*0.9
	}
	if centre != nil {
		if !c.orbits(e, centre, clause) {
			// Only one of a pair moves: the centre stays put and keeps its size.
			return true
		}
		m.Around = centre.ID
		c.emove(centre, "x", a0-0.01, a0, 0, "")
		e.Size = math.Min(e.Size, centre.Size*0.6)
		rank, n := c.copyRank(i)
		if noun := c.b.Subjects[c.index[i]].Noun; n == 1 && strings.HasSuffix(noun, "s") && !strings.HasSuffix(noun, "ss") {
			// "planets orbit the sun", drawn once: a second one circles with it.
			o := c.clone(i, e.ID+"-2")
			om := m
			c.ring(o, &om, 1, 2)
			c.motion(o, om)
			n = 2
		}
		c.ring(e, &m, rank, n)
	} else {
		m.Amp = 0.2
	}
	c.motion(e, m)
	return true
}

func motionGrow(c *composer, p play) bool {
	e, i, a0, d := p.e, p.i, p.a0, p.d
	if !c.grows(i) {
		return false
	}
	// From the small start (prepareShapes) to full size, its base staying put.
	c.emove(e, "scale", a0, a0+d*0.8, 1, "easeOutBack")
	c.emove(e, "y", a0, a0+d*0.8, c.homes[i].Y, "easeOutBack")
	return true
}

func motionSweep(c *composer, p play) bool {
	e, i, a0, d, count := p.e, p.i, p.a0, p.d, p.count
	if e.Type == "clock" {
		return false
	}
	turns := float64(max(count, 1))
	hand := &scene.Element{ID: fmt.Sprintf("hand-%d", i+1), Type: scene.TypeRect, Label: "hand", X: e.X, Y: e.Y,
		Size: e.Size * 0.9, Aspect: 0.07, Color: c.bd.Palette.Text,
		Motions: []*scene.Motion{{Type: scene.MotionSweep, Start: a0, End: a0 + d*0.9, Count: turns, Ease: "easeInOutSine"}}}
	c.d.Elements = append(c.d.Elements, hand)
	return true
}

func motionSwing(c *composer, p play) bool {
	e, i, a0, a1, d, count := p.e, p.i, p.a0, p.a1, p.d, p.count
	n := float64(count)
	if n == 0 {
		n = math.Max(2, math.Round(d/1.1))
	}
	m := scene.Motion{Type: scene.MotionSwing, Start: a0, End: a1, Amp: 32, Count: n, Decay: 0.3}
	if pendulumNouns[c.b.Subjects[c.index[i]].Noun] {
		// A pendulum keeps swinging, on its long cord, from the first frame to the last.
		cord := pendulumCord
		m = scene.Motion{Type: scene.MotionSwing, Start: 0, End: c.bd.Total, Amp: 30, Count: math.Max(2, math.Round(c.bd.Total/1.4)), Decay: 0.75, Length: &cord}
		e.Depicts = "pendulum" // the bob on its cord
		for _, o := range e.Motions {
			if o.Type == scene.MotionSwing {
				return true
			}
		}
	}
	c.motion(e, m)
	return true
}

func motionMorph(c *composer, p play) bool {
	e, a0, d := p.e, p.a0, p.d
	if e.Type != scene.TypeMorph || len(e.Shapes) < 2 {
		return false
	}
	c.motion(e, scene.Motion{Type: scene.MotionMorph, Start: a0, End: a0 + d*0.95, Count: float64(len(e.Shapes) - 1)})
	return true
}

func motionSlam(c *composer, p play) bool {
	e, a, a0, d, clause := p.e, p.verb, p.a0, p.d, p.clause
	if a == "zoom" && !strings.Contains(clause, "camera") && !strings.Contains(clause, "toward") {
		return false
	}
	c.motion(e, scene.Motion{Type: scene.MotionSlam, Start: a0, End: a0 + math.Min(d, 1.6), Shake: 0.02})
	return true
}

func motionPop(c *composer, p play) bool {
	e, a, a0, a1, d, bt := p.e, p.verb, p.a0, p.a1, p.d, p.bt
	if bt != nil && a == "pop" && e.Type == scene.TypeAsset && withinOutOf(bt) && c.b.ownContainer(bt) {
		// "Popcorn pops out of a bucket" when the drawing is that bucket of popcorn:
		// the bucket stays as it came in, and kernels pop up out of its top, again
		// and again.
		c.popping(e, a0+0.1)
		return true
	}
	if bt != nil && a == "pop" && e.Type == scene.TypeAsset && withinOutOf(bt) {
		// "pops out of a bucket": up out of it with a pop.
		c.motion(e, scene.Motion{Type: scene.MotionSlide, Start: a0, End: a0 + math.Min(d*0.5, 0.8), FromY: 0.25, Ease: "easeOutBack"})
		c.motion(e, scene.Motion{Type: scene.MotionPop, Start: a0, End: c.bd.Total})
		return true
	}
	if len(c.group) > 1 && c.group[0] == e {
		c.alternate(a0, a1)
		return true
	}
	return len(c.group) > 1 && containsElem(c.group, e)
}

func motionFill(c *composer, p play) bool {
	e, a0, d := p.e, p.a0, p.d
	if isDataType(e.Type) {
		return false // a progress bar's, chart's or counter's own progress is the filling
	}
	switch e.Type {
	case scene.TypeRing, scene.TypeChart, scene.TypeCounter, scene.TypeWave, scene.TypeParticles, scene.TypeText:
		return false // their own progress is the filling
	}
	col := orDefault(c.b.FillColor, "#ec407a")
	c.motion(e, scene.Motion{Type: scene.MotionFill, Start: a0, End: a0 + d*0.8, Color: col})
	// Filling up swells the shape a little, so the fill reads as a beat, not a tint.
	c.emove(e, "scale", a0, a0+d*0.8, 1.15*value(trackOf(e), "scale", 1), "easeInOutSine")
	return true
}

func motionDraw(c *composer, p play) bool {
	e, across, a0, d, bt, clause := p.e, p.across, p.a0, p.d, p.bt, p.clause
	if e.Type == scene.TypeAsset && drawnRE.MatchString(clause) {
		// "a rainbow draws itself": the drawing is revealed as a pen would lay it down.
		c.motion(e, scene.Motion{Type: scene.MotionDraw, Start: a0, End: a0 + d*0.8})
		return true
	}
	if e.Type == scene.TypeAsset && across && bt != nil {
		// The pen that draws goes along the line it draws.
		c.travel(e, bt, clause, a0, a0+d*0.8)
		return true
	}
	switch e.Type {
	case scene.TypePath, scene.TypeWave, scene.TypeRing:
		c.motion(e, scene.Motion{Type: scene.MotionDraw, Start: a0, End: a0 + d*0.8})
		if tr := trackOf(e); len(tr["progress"]) > 0 {
			delete(tr, "progress")
		}
		return true
	}
	return false
}

func motionFlip(c *composer, p play) bool {
	e, a0, d, bt, count, clause := p.e, p.a0, p.d, p.bt, p.count, p.clause
	if len(c.tileRow) > 1 {
		if c.tileRow[0] == e {
			span := d * 0.9
			step := span / float64(len(c.tileRow)+1)
			back := darken(e.Color, 0.45)
			for _, col := range c.recolors(e)[1:] {
				if colorDist(col, e.Color) > 120 {
					back = col
					break
				}
			}
			for k, t := range c.tileRow {
				c.motion(t, scene.Motion{Type: scene.MotionFlip, Start: a0 + step*float64(k), End: a0 + step*float64(k+2), Count: 1, Color: back})
			}
		}
		return true
	}
	n := float64(max(count, 1))
	if e.Type == scene.TypeAsset {
		// A drawing turns itself: "flips over" end over end (an hourglass), else
		// about its upright axis, once per page when they flip one by one.
		m := scene.Motion{Type: scene.MotionFlip, Start: a0, End: a0 + math.Min(d*0.8, 0.9*n), Count: n}
		if bt != nil && bt.OneByOne && count == 0 {
			m.Count, m.End = 3, a0+d*0.85
		}
		if flipOverRE.MatchString(clause) {
			m.Angle = 90
		}
		c.motion(e, m)
		return true
	}
	back := darken(e.Color, 0.4)
	c.motion(e, scene.Motion{Type: scene.MotionFlip, Start: a0, End: a0 + math.Min(d*0.8, 0.8*n), Count: n, Color: back})
	return true
}

func motionTwinkle(c *composer, p play) bool {
	e, a0, a1, d, bt, count := p.e, p.a0, p.a1, p.d, p.bt, p.count
	if e.Type == scene.TypeParticles {
		return false
	}
	if e.Type != scene.TypeStar && bt != nil && len(bt.Subjects) > 1 {
		return true // "stars twinkle while the moon rises": the stars do, not the moon
	}
	n := float64(count)
	if n == 0 {
		n = math.Max(2, math.Round(d/0.7))
	}
	c.motion(e, scene.Motion{Type: scene.MotionTwinkle, Start: a0, End: a1, Count: n, Amp: 0.6})
	return true
}

func motionPulse(c *composer, p play) bool {
	e, a0, d, count := p.e, p.a0, p.d, p.count
	if count == 0 {
		return false
	}
	c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: a0, End: a0 + math.Min(d*0.9, 0.75*float64(count)), Amp: 0.2, Count: float64(count)})
	return true
}

func motionSpin(c *composer, p play) bool {
	e, across, a0, d, bt, count, clause := p.e, p.across, p.a0, p.d, p.bt, p.count, p.clause
	if e.Variant == "spinner" {
		return true // spinning from the first frame (prepareShapes)
	}
	if bt != nil && containsStr(bt.Actions, "orbit") {
		for _, o := range c.subjects {
			if o != e && o.Type != scene.TypeParticles && c.orbits(e, o, clause) {
				return true // "a globe spins while a plane circles it": the plane flies round, unturned
			}
		}
	}
	if across && bt != nil && movable(e) {
		c.travel(e, bt, clause, a0, a0+d*0.9) // "a tornado spins across a field"
	}
	if count == 0 {
		return false
	}
	c.motion(e, scene.Motion{Type: scene.MotionSpin, Start: a0, End: a0 + d*0.85, Count: float64(count), Ease: c.sp.Action})
	return true

}

// slideInRE: a slide that brings something into the frame ("slides in", "slides down
// from the top").
var slideInRE = regexp.MustCompile(`\bslid(?:es|e|ing)\s+(?:in|into|down|up|from)\b`)

// slideIn is an entrance: the element slides into its place from beyond the edge the
// clause names (down from the top, up from the bottom, from the right; else from the
// left), starting as the video opens and gliding on into the action's first half, so
// the slide is what one sees (a slide over before the first second reads as a still
// card); then it settles with a small ping.
func (c *composer) slideIn(e *scene.Element, clause string, a0, a1 float64) {
	x, y := value(trackOf(e), "x", e.X), value(trackOf(e), "y", e.Y)
	m := scene.Motion{Type: scene.MotionSlide, Start: 0.1, End: round3(math.Max(1.2, a0+(a1-a0)*0.5)), Ease: "easeOutCubic"}
	switch {
	case strings.Contains(clause, "top") || strings.Contains(clause, "down") || strings.Contains(clause, "above"):
		m.FromY = round3(-1.5 - y)
	case strings.Contains(clause, "bottom") || strings.Contains(clause, " up") || strings.Contains(clause, "below"):
		m.FromY = round3(1.5 - y)
	case strings.Contains(clause, "right"):
		m.FromX = round3(1.6 - x)
	default:
		m.FromX = round3(-1.6 - x)
	}
	c.motion(e, m)
	c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: m.End, End: math.Min(a1, m.End+0.8), Amp: 0.08, Count: 1})
}

// placeElement is the drawn subject of the clause that e acts at ("from a speaker"), or nil.
func (c *composer) placeElement(bt *beat, e *scene.Element) *scene.Element {
	if bt == nil {
		return nil
	}
	for k, o := range c.subjects {
		if o != e && o.Type != scene.TypeParticles && containsInt(bt.Places, c.index[k]) {
			return o
		}
	}
	return nil
}

// orbitRE finds the verb of circling in a clause.
var orbitRE = regexp.MustCompile(`\borbit`)

// orbits reports whether e is the one of the pair e, other that circles: the subject
// named last before the verb ("a globe spins while a plane orbits it", "planets orbit
// the sun"); when the clause does not say, the first drawn circles the second.
func (c *composer) orbits(e, other *scene.Element, clause string) bool {
	v := orbitRE.FindStringIndex(clause)
	pe, po := nounAt(clause, c.b.Subjects[c.index[c.indexOf(e)]].Noun), nounAt(clause, c.b.Subjects[c.index[c.indexOf(other)]].Noun)
	if v != nil && pe >= 0 && po >= 0 {
		before := func(p int) bool { return p < v[0] }
		switch {
		case before(pe) && !before(po):
			return true
		case before(po) && !before(pe):
			return false
		case before(pe) && before(po):
			return pe > po
		}
	}
	return c.indexOf(e) < c.indexOf(other)
}

func containsElem(list []*scene.Element, e *scene.Element) bool {
	for _, v := range list {
		if v == e {
			return true
		}
	}
	return false
}

// alternate pops the bubbles of a dialogue in turn: each pops in as the previous pops
// out, twice round when there is time, and the last round stays so the final frame
// shows the whole exchange.
func (c *composer) alternate(a0, a1 float64) {
	n := len(c.group)
	d := a1 - a0
	rounds := 1
	if d/float64(2*n) >= 0.8 {
		rounds = 2
	}
	slot := d / float64(rounds*n)
	for r := 0; r < rounds; r++ {
		for k, e := range c.group {
			t0 := a0 + slot*float64(r*n+k)
			end := t0 + slot
			if r == rounds-1 {
				end = c.bd.Total
			}
			c.motion(e, scene.Motion{Type: scene.MotionPop, Start: t0, End: end})
		}
	}
}

// textMotion types a quote the prompt says is typed, and plays the verbs the words do
// themselves (wordsAct): a slam at the camera, a bounce in, a float.
func (c *composer) textMotion(e *scene.Element, q int, a0, a1 float64) {
	c.wordsMotion(e, q, a0, a1)
	for _, bt := range c.b.Beats {
		if !containsStr(bt.Actions, "type") {
			continue
		}
		for _, bq := range bt.Quotes {
			if bq != q {
				continue
			}
			e.Reveal = "type"
			dur := math.Min((a1-a0)*0.75, 0.09*float64(len([]rune(e.Text)))+0.2)
			delete(e.Tracks, "progress")
			c.motion(e, scene.Motion{Type: scene.MotionType, Start: a0, End: a0 + math.Max(0.3, dur)})
			return
		}
	}
}

// wordsMotion plays the verbs quote q does itself on its text element e, shown from a0
// in a scene ending at a1.
func (c *composer) wordsMotion(e *scene.Element, q int, a0, a1 float64) {
	d := a1 - a0
	rest := c.bd.Total - a0
	for _, a := range c.b.wordsActions(q) {
		switch a {
		case "slam", "zoom":
			// The whole word at once, coming at the camera and landing with a jolt.
			e.Reveal = "fade"
			c.setProgress(e, a0, a0+0.05)
			c.motion(e, scene.Motion{Type: scene.MotionSlam, Start: a0, End: a0 + math.Min(d, 1.6), Shake: 0.03})
		case "bounce":
			// Drops in from the top of a hop and bounces to rest (a fractional count
			// starts the first arc at its top).
			e.Reveal = "fade"
			c.setProgress(e, a0, a0+0.05)
			c.motion(e, scene.Motion{Type: scene.MotionBounce, Start: a0, End: a0 + math.Min(d*0.85, 2.4), Amp: 0.55, Count: 3.5, Decay: 0.5, Squash: 0.7})
		case "float", "bob":
			c.motion(e, scene.Motion{Type: scene.MotionFloat, Start: a0, End: c.bd.Total, Amp: 0.05, Count: math.Max(1, math.Round(rest/2.5))})
		case "spin":
			c.motion(e, scene.Motion{Type: scene.MotionSpin, Start: a0, End: a0 + d*0.8, Count: 1, Ease: "easeInOutCubic"})
		case "pulse":
			c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: a0, End: c.bd.Total, Amp: 0.08, Count: math.Max(2, math.Round(rest/0.9))})
		case "wiggle":
			c.motion(e, scene.Motion{Type: scene.MotionWiggle, Start: a0, End: a1, Amp: 8, Count: math.Max(2, math.Round(d/0.4))})
		case "twinkle":
			c.motion(e, scene.Motion{Type: scene.MotionTwinkle, Start: a0, End: a1, Count: math.Max(2, math.Round(d/0.7)), Amp: 0.6})
		case "pop":
			e.Reveal = "pop"
		case "fade":
			e.Reveal = "fade"
		case "rise":
			c.motion(e, scene.Motion{Type: scene.MotionSlide, Start: a0, End: a0 + math.Min(d*0.7, 1.2), FromY: 0.6, Ease: "easeOutCubic"})
		case "fall":
			c.motion(e, scene.Motion{Type: scene.MotionSlide, Start: a0, End: a0 + math.Min(d*0.8, 1.4), FromY: -1.3, Ease: "easeOutBounce"})
		case "slide", "fly":
			c.motion(e, scene.Motion{Type: scene.MotionSlide, Start: a0, End: a0 + math.Min(d*0.7, 1.2), FromX: -1.5, Ease: "easeOutCubic"})
		}
	}
}

// setProgress replaces a text's reveal with one over [t0, t1].
func (c *composer) setProgress(e *scene.Element, t0, t1 float64) {
	tr := trackOf(e)
	tr["progress"] = []scene.Keyframe{{T: round3(t0), V: 0}, {T: round3(t1), V: 1}}
}

// stackText places quote q as a line of a stack: every quote keeps its line, centred as
// a block, and each rises into place as it comes ("three lines stack up one by one").
func (c *composer) stackText(e *scene.Element, q int, a0, a1 float64) {
	n := len(c.bd.Texts)
	size := 0.11
	for _, t := range c.bd.Texts {
		size = math.Min(size, textSize(t))
	}
	// The block fits the frame's height: n lines 1.3 sizes apart.
	size = math.Min(size, 1.5/(float64(n)*frameK*1.3))
	e.Size = round3(size)
	e.Y = round3(c.textY + (float64(q)-float64(n-1)/2)*size*frameK*1.3)
	c.motion(e, scene.Motion{Type: scene.MotionSlide, Start: a0, End: a0 + math.Min((a1-a0)*0.6, 0.8), FromY: 0.35, Ease: "easeOutBack"})
}

// motionRule is one verb's motion program: the verbs that name it, an example prompt
// whose scene must show the motion, and the program. A new motion is a new row with
// its example (TestMotionRules feeds every row its own).
type motionRule struct {
	Verbs   []string
	Example string
	Motion  string // the scene motion the example's video must play
	play    func(c *composer, p play) bool
}

// motionRules: a program returns false to leave the verb to the composer's default for
// it (act), e.g. a bounce with no count and no colour change.
var motionRules = []motionRule{
	{[]string{"recolor"}, "A ball bounces off the edges of the screen, changing colour at every hit", scene.MotionRicochet, motionRecolor},
	{[]string{"bounce"}, "A green ball bounces four times", scene.MotionBounce, motionBounce},
	{[]string{"slide"}, "A yellow card slides in from the right", scene.MotionSlide, motionSlide},
	{[]string{"rise"}, "Music notes rise from a speaker", scene.MotionRise, motionRise},
	{[]string{"fall"}, "An apple falls from a branch", "track:y", motionFall},
	{[]string{"fly"}, "A paper plane flies from left to right leaving a dashed trail", scene.MotionFly, motionFly},
	{[]string{"float", "bob"}, "A rubber duck bobs on the water", scene.MotionBob, motionFloat},
	{[]string{"orbit"}, "A moon orbits a blue planet", scene.MotionOrbit, motionOrbit},
	{[]string{"grow"}, "A small tree grows tall", "track:scale", motionGrow},
	{[]string{"sweep"}, "A radar screen whose hand sweeps around twice", scene.MotionSweep, motionSweep},
	{[]string{"swing"}, "A lantern swings on a hook", scene.MotionSwing, motionSwing},
	{[]string{"morph"}, "A circle morphs into a star", scene.MotionMorph, motionMorph},
	{[]string{"slam", "zoom"}, "The word 'GOAL' slams onto the screen", scene.MotionSlam, motionSlam},
	{[]string{"pop", "appear"}, "Popcorn pops out of a bucket", scene.MotionPop, motionPop},
	{[]string{"fill"}, "A star fills with gold", scene.MotionFill, motionFill},
	{[]string{"draw"}, "A rainbow draws itself in the sky", scene.MotionDraw, motionDraw},
	{[]string{"flip"}, "A coin flips three times", scene.MotionFlip, motionFlip},
	{[]string{"twinkle"}, "A single star twinkles on a dark sky", scene.MotionTwinkle, motionTwinkle},
	{[]string{"pulse"}, "A red heart pulses three times", scene.MotionPulse, motionPulse},
	{[]string{"spin"}, "A gear spins twice", scene.MotionSpin, motionSpin},
}

// motionByVerb indexes motionRules by verb.
var motionByVerb = func() map[string]motionRule {
	m := map[string]motionRule{}
	for _, r := range motionRules {
		for _, v := range r.Verbs {
			m[v] = r
		}
	}
	return m
}()

// MotionRule is a row of the motion table as tests and explain see it.
type MotionRule struct {
	Verbs   []string
	Example string
	Motion  string
}

// MotionRules lists the motion table's rows.
func MotionRules() []MotionRule {
	out := make([]MotionRule, len(motionRules))
	for i, r := range motionRules {
		out[i] = MotionRule{Verbs: r.Verbs, Example: r.Example, Motion: r.Motion}
	}
	return out
}
