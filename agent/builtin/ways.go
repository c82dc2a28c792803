package builtin

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
)

// Ways: a verb of going followed by a preposition and a thing names the way the journey
// takes past that thing — a dog jumps over a fence, a boat floats across a pond, a train
// goes through a tunnel, a ball rolls off a table. The preposition fixes the geometry
// relative to the landmark; the verb only says how the mover goes (hops, flies, rolls).
// Each preposition is a row of wayRows with an example; the analysis binds a way to the
// noun before its preposition (readWays), the composer lays the landmark out and plays
// the journey (placeWays, playWay).

// The verbs of going WordNet knows beyond the hand-made vocabulary ("climbs",
// "glides", "wanders"), played in their manner; a word the vocabulary has keeps its
// meaning there.
func init() {
	for form, act := range assets.GoingVerbs() {
		if _, known := actionWords[form]; known || !goingActions[act] {
			continue
		}
		actionWords[form] = act
		if act == "slide" {
			travelVerbs[form] = true
		}
	}
}

// wayRow is one preposition of going.
type wayRow struct {
	Prep    string
	Example string
	// Manners, when set, are the only verbs of going the row plays.
	Manners []string
	// On: the mover is on or in the landmark for part of the way (up a tree, off a
	// table), so the landmark is drawn large and the mover at most half its size.
	On bool
	// path gives the mover's start and end and what happens between, from the landmark's
	// box and the mover's: see wayPlay.
	path func(w *wayPlay)
}

var wayRows = []wayRow{
	{Prep: "over", Example: "a dog jumps over a fence", path: (*wayPlay).over},
	{Prep: "across", Example: "a paper boat floats across a pond", path: (*wayPlay).across},
	{Prep: "through", Example: "a cat walks through a door", path: (*wayPlay).through},
	{Prep: "past", Example: "a cyclist rides past a lighthouse", path: (*wayPlay).past},
	{Prep: "under", Example: "a cat crawls under a fence", path: (*wayPlay).under},
	{Prep: "beneath", Example: "a submarine glides beneath an iceberg", path: (*wayPlay).under},
	{Prep: "into", Example: "a frog jumps into a pond", path: (*wayPlay).into, On: true},
	{Prep: "onto", Example: "a frog hops onto a lily pad", path: (*wayPlay).onto, On: true},
	{Prep: "off", Example: "a ball rolls off a table", path: (*wayPlay).off, On: true},
	{Prep: "out of", Example: "a rabbit jumps out of a hat", path: (*wayPlay).outOf, On: true},
	{Prep: "up", Example: "a squirrel climbs up a tree", path: (*wayPlay).up, On: true},
	{Prep: "down", Example: "a ladybug crawls down a leaf", path: (*wayPlay).down, On: true},
	{Prep: "toward", Example: "a puppy runs toward a ball", path: (*wayPlay).toward},
	{Prep: "towards", Example: "a turtle crawls towards the sea", path: (*wayPlay).toward},
	// A fall or a leap from a thing; what rises from one comes out of it (an emitter:
	// notes from a speaker), and a flight round a thing is an orbit (motionOrbit).
	{Prep: "from", Example: "an apple falls from a tree", path: (*wayPlay).from, On: true, Manners: []string{"fall", "bounce", "fly"}},
}

// wayPrepRE finds a way's preposition just before a noun phrase (the place's noun is
// what follows): "over a fence", "out of the top hat".
var wayPrepRE = func() *regexp.Regexp {
	var alts []string
	for _, r := range wayRows {
		alts = append(alts, regexp.QuoteMeta(r.Prep))
	}
	sort.Slice(alts, func(i, j int) bool { return len(alts[i]) > len(alts[j]) }) // "out of" before "of"
	return regexp.MustCompile(`\b(` + strings.Join(alts, "|") + `)\s+(?:(?:a|an|the|some|its|his|her|their|two|three)\s+)?(?:[a-z-]+\s+){0,2}$`)
}()

// plays reports whether the row plays one of a clause's actions.
func (r *wayRow) plays(actions []string) bool {
	return slices.ContainsFunc(actions, func(a string) bool {
		return goingActions[a] && (len(r.Manners) == 0 || slices.Contains(r.Manners, a))
	})
}

func wayRowOf(prep string) *wayRow {
	for i := range wayRows {
		if wayRows[i].Prep == prep {
			return &wayRows[i]
		}
	}
	return nil
}

// goingActions are the actions that take a mover somewhere; the others happen where a
// thing stands ("spins on a plate" is no journey).
var goingActions = map[string]bool{"slide": true, "fly": true, "bounce": true, "roll": true, "fall": true, "rise": true, "float": true, "bob": true, "orbit": true}

// readWays binds each preposition of going to the thing it names and the mover before
// it: in "a cat pushes a ball off a table" the ball goes off the table. Only a clause
// with a verb of going has ways; a path from one thing to another (readPath) is its
// own layout.
func (b *brief) readWays(bt *beat) {
	if bt.From >= 0 || !slices.ContainsFunc(bt.Actions, func(a string) bool { return goingActions[a] }) {
		return
	}
	ms := b.mentions(bt)
	for k, m := range ms {
		pm := wayPrepRE.FindStringSubmatch(bt.Text[:m.at])
		if pm == nil || (pm[1] == "from" && bt.To >= 0) || b.Subjects[m.si].Scenery || !wayRowOf(pm[1]).plays(bt.Actions) {
			continue // scenery (mountains, a city) is where it all happens, not a landmark
		}
		if ws := strings.Fields(pm[0][len(pm[1]):]); len(ws) > 0 && ws[0] == "to" {
			continue // "walks over to a waterhole", "runs up to the door": to it, not over it
		}
		for j := k - 1; j >= 0; j-- {
			mover := ms[j].si
			if mover == m.si || b.Subjects[mover].Kind == "particles" || slices.ContainsFunc(bt.Ways, func(r relation) bool { return r.Actor == mover }) {
				continue
			}
			bt.Ways = append(bt.Ways, relation{Actor: mover, Place: m.si, Prep: pm[1]})
			bt.Places = appendInt(bt.Places, m.si)
			break
		}
	}
}

// wayFor is the way mover i of the current clause takes, nil when none.
func (c *composer) wayFor(i int) (*relation, *beat) {
	bt := c.beatOf()
	if bt == nil {
		return nil, nil
	}
	for k := range bt.Ways {
		if bt.Ways[k].Actor == c.index[i] {
			return &bt.Ways[k], bt
		}
	}
	return nil, nil
}

// box is an element's half extents in frame units.
type box struct{ x, y, hx, hy float64 }

func (c *composer) boxOf(e *scene.Element) box {
	return box{e.X, e.Y, c.xUnits(e.Size), c.yUnits(e.Size)}
}

// placeWays stands each way's landmark in the middle of the frame, on the ground, with
// room above it for a leap and beside it for a start, and the mover where its journey
// begins; several of a mover (three sheep over a fence) queue behind one another.
func (c *composer) placeWays() {
	for bi := range c.b.Beats {
		bt := &c.b.Beats[bi]
		for _, w := range bt.Ways {
			place := c.elementOf(w.Place)
			row := wayRowOf(w.Prep)
			if place == nil || row == nil || place.Type == scene.TypeParticles {
				continue
			}
			place.X, place.Y = 0, 0.22
			switch w.Prep {
			case "up", "down", "from":
				place.Y = 0.1 // a tree to climb, a hill to slide down: tall, in the middle
			case "toward", "towards":
				// On the far side, so there is a way to come.
				place.X = 0.4
				if reverseRE.MatchString(bt.Text) {
					place.X = -0.4
				}
			}
			if k := c.indexOf(place); k >= 0 {
				c.homes[k] = pose{place.X, place.Y}
			}
			movers := c.moversOf(w.Actor)
			if row.On {
				place.Size = round3(math.Max(place.Size, 0.26))
				for _, m := range movers {
					m.Size = round3(math.Min(m.Size, place.Size*0.5))
				}
			}
			for n, mover := range movers {
				wp := c.newWayPlay(mover, place, bt, n, len(movers), 0, 0)
				wp.dry = true
				row.path(wp)
				mover.X, mover.Y = round3(wp.startX), round3(wp.startY)
				if wp.behind {
					c.inFront(place, mover)
				} else {
					c.inFront(mover, place)
				}
				// The journey passes over, through or into the landmark: their overlap
				// is the picture (the critic's nested pairs).
				mover.In = place.ID
				if k := c.indexOf(mover); k >= 0 {
					c.homes[k] = pose{mover.X, mover.Y}
				}
			}
		}
	}
}

// moversOf are the drawn elements of subject si that can go somewhere: one, or each of
// several.
func (c *composer) moversOf(si int) []*scene.Element {
	var out []*scene.Element
	for k, e := range c.subjects {
		if c.index[k] == si && movable(e) {
			out = append(out, e)
		}
	}
	return out
}

// wayPlay is one journey being laid out: the landmark's box, the mover's, and the
// journey's start, with the keyframes it writes.
type wayPlay struct {
	c      *composer
	e      *scene.Element
	l, m   box // landmark, mover
	a0, a1 float64
	dir    float64 // 1 left to right, -1 right to left
	manner string  // the clause's verb of going: bounce, fly, roll, fall…
	startX float64
	startY float64
	// Several movers go one after another: the n-th of N starts later (out of sight
	// until then) and, on a way past the landmark, all leave by the far side of the
	// frame; on a way that ends on or in it they end side by side (dx, dxEnd).
	n, N          int
	dx, dxEnd     float64
	behind        bool // the mover passes behind the landmark (a tunnel)
	dry           bool // placing only: no keyframes
	ground        float64
	top           float64 // the mover's y when it stands on the landmark
	beside, after float64 // x where it stands just before and just after the landmark
}

func (c *composer) newWayPlay(mover, place *scene.Element, bt *beat, n, N int, a0, a1 float64) *wayPlay {
	l, m := c.boxOf(place), c.boxOf(mover)
	w := &wayPlay{c: c, e: mover, l: l, m: m, a0: a0, a1: a1, dir: 1, n: n, N: N}
	if reverseRE.MatchString(bt.Text) {
		w.dir = -1
	}
	if N > 1 {
		// Each starts when the one before has gone most of a body's length.
		lag := (a1 - a0) * 0.45 / float64(N-1)
		w.a0, w.a1 = a0+lag*float64(n), a1-lag*float64(N-1-n)
	}
	for _, a := range bt.Actions {
		if goingActions[a] {
			w.manner = a
			break
		}
	}
	w.ground = l.y + l.hy - m.hy // bottoms level
	w.top = l.y - l.hy - m.hy*0.85
	gap := 0.12
	w.beside = l.x - w.dir*(l.hx+m.hx+gap)
	w.after = l.x + w.dir*(l.hx+m.hx+gap)
	return w
}

// edge is the x just inside the frame's side the journey starts from (s=-1) or ends at.
func (w *wayPlay) edge(s float64) float64 {
	return s * w.dir * math.Max(0.72-w.m.hx, 0.3)
}

func (w *wayPlay) start(x, y float64) {
	w.startX, w.startY = x+w.dx, y
}

// endShift is where this mover's last stretch (from 0.85 of the journey on) ends
// beside the first's, on a landmark several end on.
func (w *wayPlay) endShift(f float64) float64 {
	if f >= 0.85 {
		return w.dxEnd
	}
	return 0
}

// leave: several movers on a way past the landmark go on out of the far side of the
// frame, one after another, so none stops on another.
func (w *wayPlay) leave() {
	if w.N < 2 || w.dry {
		return
	}
	// Fading as it nears the edge: the critic keeps what is seen inside the frame.
	t0 := w.a0 + (w.a1-w.a0)*0.9
	w.c.emove(w.e, "x", t0, w.a1, w.edge(1)+w.dir*w.m.hx*0.6, "easeInQuad")
	w.c.emove(w.e, "opacity", t0, w.a1, 0, "easeInQuad")
}

// to moves the mover's x and y to (x, y) over the share [f0, f1] of the journey.
func (w *wayPlay) to(f0, f1, x, y float64, easeX, easeY string) {
	if w.dry {
		return
	}
	t0, t1 := w.a0+(w.a1-w.a0)*f0, w.a0+(w.a1-w.a0)*f1
	w.c.emove(w.e, "x", t0, t1, x+w.endShift(f1), easeX)
	w.c.emove(w.e, "y", t0, t1, y, easeY)
}

// leap arcs from where the mover is to (x, y) over [f0, f1], peaking at apex.
func (w *wayPlay) leap(f0, f1, x, y, apex float64) {
	if w.dry {
		return
	}
	t0, t1 := w.a0+(w.a1-w.a0)*f0, w.a0+(w.a1-w.a0)*f1
	mid := (t0 + t1) / 2
	w.c.emove(w.e, "x", t0, t1, x+w.endShift(f1), "linear")
	w.c.emove(w.e, "y", t0, mid, apex, "easeOutQuad")
	w.c.emove(w.e, "y", mid, t1, y, "easeInQuad")
}

// goes moves along level ground or water in the verb's manner: in hops for a bounce, a
// turn for a roll, gliding otherwise.
func (w *wayPlay) goes(f0, f1, x, y float64) {
	if w.dry {
		return
	}
	t0, t1 := w.a0+(w.a1-w.a0)*f0, w.a0+(w.a1-w.a0)*f1
	switch w.manner {
	case "bounce":
		w.c.motion(w.e, scene.Motion{Type: scene.MotionBounce, Start: t0, End: t1, Amp: 0.35, Count: math.Max(2, math.Round((t1-t0)/0.6)), Decay: 0.9, Squash: 0.6})
	case "roll":
		w.c.emove(w.e, "rotation", t0, t1, value(trackOf(w.e), "rotation", 0)+w.dir*360*math.Max(1, math.Round(math.Abs(x-w.startX)*2)), "easeInOutSine")
	case "float", "bob":
		w.c.motion(w.e, scene.Motion{Type: scene.MotionBob, Start: t0, End: t1, Amp: 0.03, Count: math.Max(1, math.Round(t1-t0))})
	}
	w.to(f0, f1, x, y, "easeInOutSine", "easeInOutSine")
}

// over: from beside the landmark, up over its top and down beyond it.
func (w *wayPlay) over() {
	w.start(w.beside-w.dir*0.12, w.ground)
	apex := w.l.y - w.l.hy - w.m.hy - 0.12
	w.to(0, 0.2, w.beside, w.ground, "easeOutQuad", "linear")
	w.leap(0.2, 0.75, w.after, w.ground, apex)
	w.to(0.75, 0.9, w.after+w.dir*0.1, w.ground, "easeOutQuad", "linear")
	w.leave()
}

// across: from one side of the frame to the other, on the landmark's surface.
func (w *wayPlay) across() {
	y := w.l.y - w.l.hy*0.5 - w.m.hy*0.6
	w.start(w.edge(-1), y)
	w.goes(0, 0.9, w.edge(1), y)
	w.leave()
}

// through: level with the landmark's middle, behind it for a moment (into the tunnel,
// out the other side).
func (w *wayPlay) through() {
	y := math.Min(w.ground, w.l.y)
	w.behind = true
	w.start(w.edge(-1), y)
	w.goes(0, 0.9, w.edge(1), y)
	w.leave()
}

// past: on the ground in front of the landmark, from one side to the other.
func (w *wayPlay) past() {
	y := w.ground + 0.06
	w.start(w.edge(-1), y)
	w.goes(0, 0.9, w.edge(1), y)
	w.leave()
}

// under: low, beneath the landmark's top, in front of its foot.
func (w *wayPlay) under() {
	y := w.ground + 0.04
	w.start(w.edge(-1), y)
	w.goes(0, 0.9, w.edge(1), y)
	w.leave()
}

// spread sets several movers that end in or on the landmark side by side across it.
func (w *wayPlay) spread() {
	if w.n == 0 {
		return
	}
	n := float64(w.n)
	side := 1.0
	if w.n%2 == 0 {
		side = -1
	}
	w.dxEnd = side * math.Ceil(n/2) * math.Min(w.l.hx*0.5, 2*w.m.hx)
}

// into: from up beside it, an arc down into the landmark's middle, smaller as it goes in.
func (w *wayPlay) into() {
	w.spread()
	w.start(w.beside-w.dir*0.15, w.ground)
	if w.manner == "fall" {
		w.start(w.l.x, -0.8)
		w.to(0, 0.7, w.l.x, w.l.y, "linear", "easeInQuad")
	} else {
		w.leap(0, 0.7, w.l.x, w.l.y, w.l.y-w.l.hy-w.m.hy-0.1)
	}
	if !w.dry {
		t := w.a0 + (w.a1-w.a0)*0.7
		s := value(trackOf(w.e), "scale", 1)
		w.c.emove(w.e, "scale", t, t+(w.a1-w.a0)*0.2, s*0.6, "easeOutQuad")
	}
}

// onto: from beside it, an arc up onto the landmark's top, where it stays.
func (w *wayPlay) onto() {
	w.spread()
	w.start(w.beside-w.dir*0.1, w.ground)
	w.leap(0.1, 0.7, w.l.x, w.top, w.top-0.18)
}

// off: on the landmark's top, along it to the edge, then down to the ground beyond.
func (w *wayPlay) off() {
	w.start(w.l.x-w.dir*w.l.hx*0.4, w.top)
	edge := w.l.x + w.dir*(w.l.hx+w.m.hx*0.3)
	w.goes(0, 0.4, edge, w.top)
	floor := math.Min(w.l.y+w.l.hy+0.15, 0.78-w.m.hy)
	w.to(0.4, 0.85, edge+w.dir*(w.m.hx+0.12), floor, "easeOutQuad", "easeOutBounce")
}

// outOf: from inside the landmark, up out of its top.
func (w *wayPlay) outOf() {
	w.spread()
	w.dx = w.dxEnd
	w.behind = true // the hat hides it until it comes out
	w.start(w.l.x, w.l.y)
	if !w.dry {
		t0 := w.a0
		s := value(trackOf(w.e), "scale", 1)
		w.c.emove(w.e, "scale", t0, t0, s*0.4, "")
		w.c.emove(w.e, "scale", t0, t0+(w.a1-w.a0)*0.5, s, "easeOutBack")
	}
	w.to(0, 0.5, w.l.x, w.top-0.12, "linear", "easeOutBack")
}

// up: from the landmark's foot to its top, on it.
func (w *wayPlay) up() {
	w.spread()
	w.dx = w.dxEnd
	x := w.l.x - w.dir*w.l.hx*0.15
	w.start(x, w.ground)
	w.to(0, 0.85, x, w.l.y-w.l.hy+w.m.hy*0.5, "linear", "easeInOutSine")
}

// down: from the landmark's top down its side to the ground beyond.
func (w *wayPlay) down() {
	w.start(w.l.x-w.dir*w.l.hx*0.5, w.l.y-w.l.hy+w.m.hy*0.2)
	w.to(0, 0.85, w.after, w.ground, "easeInQuad", "easeInQuad")
}

// toward: from the frame's side to just before the landmark.
func (w *wayPlay) toward() {
	w.start(w.edge(-1), w.ground)
	w.goes(0, 0.85, w.beside, w.ground)
}

// from: out of the landmark's upper part, away from it: down to the ground for a fall,
// up and off for a flight.
func (w *wayPlay) from() {
	w.spread()
	w.dx = w.dxEnd
	w.start(w.l.x+w.dir*w.l.hx*0.3, w.l.y-w.l.hy*0.4)
	switch w.manner {
	case "fly", "rise":
		w.to(0, 0.85, w.edge(1), -0.6, "easeInOutSine", "easeOutQuad")
	default:
		w.to(0, 0.85, w.startX-w.dx+w.dir*0.08, w.ground, "linear", "easeOutBounce")
	}
}

// playWay plays the journey of mover e (subject i) in the current clause during
// [a0, a1]; it reports whether the mover has one. A clause's way is played once for
// each mover, whatever verbs the clause has.
func (c *composer) playWay(e *scene.Element, i int, a0, a1 float64) bool {
	r, bt := c.wayFor(i)
	if r == nil {
		return false
	}
	place := c.elementOf(r.Place)
	row := wayRowOf(r.Prep)
	if place == nil || row == nil || e.In != place.ID {
		return false // placeWays did not lay it out
	}
	done := playedWay{r, e}
	if c.played[done] {
		return true
	}
	if c.played == nil {
		c.played = map[playedWay]bool{}
	}
	c.played[done] = true
	movers := c.moversOf(r.Actor)
	n := max(slices.Index(movers, e), 0)
	w := c.newWayPlay(e, place, bt, n, len(movers), a0, a1)
	w.startX, w.startY = value(trackOf(e), "x", e.X), value(trackOf(e), "y", e.Y)
	if n > 0 && w.dx == 0 {
		// Out of sight where the first starts until its turn comes.
		op := trackOf(e)["opacity"]
		for k := range op {
			if op[k].T < w.a0 {
				op[k].V = 0
			}
		}
		key(trackOf(e), "opacity", w.a0, 0, "")
		key(trackOf(e), "opacity", w.a0+0.15, 1, "easeOutQuad")
	}
	row.path(w)
	return true
}

// playedWay is one mover's journey in one clause.
type playedWay struct {
	r *relation
	e *scene.Element
}
