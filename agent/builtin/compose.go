package builtin

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
)

// composer turns a storyboard into a scene description, one todo at a time: setup makes
// the background and the elements, each scene adds its keyframes and motions, polish adds
// light, depth and effects. Every intermediate description is complete and renderable.
type composer struct {
	b      *brief
	bd     *board
	sp     styleParams
	d      *scene.Description
	bounds []float64

	subjects []*scene.Element // one per drawn subject (particles included)
	accents  []*scene.Element // backdrop shapes of a text-only animation
	assets   []string         // pictures in the project's assets/ folder a logo badge may show
	pictures []string         // the project's pictures (role image) the prompt may name
	homes    []pose
	bouncy   []bool // subject travels on the ground (bounce, roll, fall)
	index    []int  // brief subject index of each drawn subject
	texts    map[int]*scene.Element
	shown    *scene.Element // text on screen now
	aside    bool           // subjects have made room for text
	textY    float64
	sparkN   int

	beat       int              // the prompt's clause being composed, -1 outside action scenes
	group      []*scene.Element // speech bubbles that take turns
	tileRow    []*scene.Element // tiles that flip one after another
	quoteShown map[int]bool     // quotes shown inside a subject (a bubble's words)
	backdrop   bool             // the background is the subject: it shifts, nothing stands in front
	sleeper    *scene.Element   // a sleeping subject, and the Zzz it breathes out
	zzzEl      *scene.Element
	zzzOff     pose               // where the Zzz are from the sleeper
	played     map[playedWay]bool // ways already played (a clause's journey runs once)

	// genre is the genre table's row the prompt asks for (a lower third, a forecast),
	// nil when none: its layout is built whole at setup (genre.go).
	genre *genreRow
}

type pose struct{ X, Y float64 }

const maxDrawnSubjects = 3

var kindSize = map[string]float64{
	scene.TypeCircle: 0.12, scene.TypeRect: 0.11, scene.TypeStar: 0.14, scene.TypeHeart: 0.13,
	scene.TypeTriangle: 0.13, scene.TypeRing: 0.16, scene.TypeWave: 0.07, scene.TypeLogo: 0.15,
	scene.TypeChart: 0.25, scene.TypeCounter: 0.2, scene.TypeCard: 0.3, scene.TypeParticles: 0.008, scene.TypeIcon: 0.15,
	scene.TypeAsset: 0.21, scene.TypeImage: 0.21,
}

const groundY = 0.38

// backdropRE: the prompt is about the background itself.
var backdropRE = regexp.MustCompile(`\b(?:gradients?|backgrounds?|backdrops?|wallpaper)\b`)

func newComposer(b *brief, bd *board) *composer {
	sp := styleTable[bd.Base]
	if wordByWordRE.MatchString(strings.ToLower(b.Prompt)) {
		sp.Reveal = "words" // asked: "words fading in one at a time"
	}
	return &composer{b: b, bd: bd, sp: sp, bounds: bd.timings(), texts: map[int]*scene.Element{},
		beat: -1, quoteShown: map[int]bool{}, genre: detectGenre(b.Prompt)}
}

// wordByWordRE asks for words revealed one after another.
var wordByWordRE = regexp.MustCompile(`\bword[- ]by[- ]word\b|\bone word at a time\b|\bwords? (?:fad(?:e|es|ing)|appear(?:s|ing)?|pop(?:s|ping)?|slid(?:e|es|ing)) in,? one (?:at a time|by one|after (?:another|the other))\b`)

// groundActions are the actions that keep a subject on a floor line.
func groundAction(a string) bool { return a == "bounce" || a == "roll" || a == "fall" }

func (c *composer) setup(title string) {
	if c.genre != nil {
		c.setupGenre(title)
		return
	}
	c.d = &scene.Description{
		Version: scene.Version, Title: title, Duration: c.bd.Total, FPS: 30, Style: string(c.bd.Style),
		Background: scene.Background{Colors: []string{c.bd.Palette.Background[0], c.bd.Palette.Background[1]},
			Angle: map[koda.Style]float64{koda.StylePlayful: 135, koda.StyleSmooth: 160, koda.StyleCinematic: 100}[c.bd.Base],
			Drift: map[koda.Style]float64{koda.StylePlayful: 40, koda.StyleSmooth: 20, koda.StyleCinematic: 25}[c.bd.Base]},
	}
	c.unnamedLogos()
	c.setting()
	// The same description plays in every preset: in vertical ones (stories, reels) the
	// runtime keeps everything inside the platform's safe area.
	sa := scene.VerticalSafeArea
	c.d.SafeArea = &sa
	for i := range c.bd.Scenes {
		c.d.Scenes = append(c.d.Scenes, scene.Mark{ID: fmt.Sprintf("s%d", i+1), Start: c.bounds[i], End: c.bounds[i+1]})
	}
	// Particles go first so they sit behind everything else.
	var drawn []int
	for i, s := range c.b.Subjects {
		if s.Kind == "particles" {
			drawn = append(drawn, i)
		}
	}
	for i, s := range c.b.Subjects {
		if s.Kind != "particles" && !s.Absorbed && len(drawn) < maxDrawnSubjects+1 {
			drawn = append(drawn, i)
		}
	}
	if len(drawn) == 0 && len(c.bd.Texts) == 0 {
		if backdropRE.MatchString(strings.ToLower(c.b.Prompt)) {
			// The background is the subject ("a slowly shifting gradient background"):
			// faint motes drift over it, and it shifts (polish); no shape stands in front.
			c.b.Subjects = append(c.b.Subjects, subject{Noun: "motes", Kind: scene.TypeParticles, Variant: "dust"})
			c.bd.Palette.Subjects = append(c.bd.Palette.Subjects, "#ffffff")
			c.backdrop = true
		} else {
			// Nothing named: an abstract composition of the style's signature shape.
			c.b.Subjects = append(c.b.Subjects, subject{Noun: "shape", Kind: scene.TypeCircle})
			c.bd.Palette.Subjects = append(c.bd.Palette.Subjects, c.styleColors()[0])
		}
		drawn = append(drawn, len(c.b.Subjects)-1)
	}
	solid := 0
	for _, i := range drawn {
		if c.b.Subjects[i].Kind != "particles" && !c.b.Subjects[i].Scenery {
			solid++
		}
	}
	slot := 0
	for _, i := range drawn {
		s := c.b.Subjects[i]
		e := &scene.Element{ID: fmt.Sprintf("%s-%d", slug(s.Noun), i+1), Type: s.Kind, Label: s.Noun,
			Size: kindSize[s.Kind], Color: c.bd.Palette.subjectColor(c.b, i), Seed: 11 + i*7}
		bouncy := false
		for _, a := range c.subjectActions(i) {
			// A chart's bars that "drop in" are its data arriving: the chart stays where
			// it is read, not on a floor line.
			bouncy = bouncy || groundAction(a) && s.Data == nil
		}
		home := pose{}
		if s.Kind == "particles" {
			e.Variant, e.Count, e.Depth = orDefault(s.Variant, "stars"), 120, 0.4
			if e.Variant == "confetti" {
				e.Count, e.Size = 80, 0.012
			}
			if e.Variant == "fireworks" {
				// Shells in flight at once, bursting one after another over the frame.
				e.Count, e.Size, e.Depth = 3, 0.012, 0.8
			}
			if e.Variant == "sparkles" {
				e.Variant, e.Count, e.Size = "stars", 90, 0.01
			}
			if e.Variant == "spiral" {
				// Two colours, inner and outer arms: the prompt's next colour, else a glow.
				e.Count, e.Size, e.Depth, e.Color2 = 220, 0.011, 0, "#b3e5fc"
				for _, col := range c.b.Colors {
					if col != e.Color && col != c.b.Background && col != c.b.Background2 {
						e.Color2 = col
						break
					}
				}
			}
		} else if s.Scenery {
			// Mountains, a city, an island: the place the others are in, large and low.
			home.Y, e.Size, e.Depth = 0.78, 0.38, 0.7
			c.decorate(e, s, i)
		} else {
			home.X = slotX(solid, slot)
			slot++
			if bouncy {
				home.Y = groundY
			}
			c.decorate(e, s, i)
		}
		if solid > 1 && s.Kind != "particles" && !s.Scenery {
			e.Size *= 0.8
		}
		c.subjects = append(c.subjects, e)
		c.homes = append(c.homes, home)
		c.bouncy = append(c.bouncy, bouncy)
		c.index = append(c.index, i)
		e.X, e.Y = home.X, home.Y
		key(trackOf(e), "opacity", 0, 0, "")
		c.d.Elements = append(c.d.Elements, e)
	}
	c.placeSubjects()
	c.arrangeAssets()
	c.nestInPlaces()
	c.topInPlaces()
	c.placeBetween()
	c.placePaths()
	for i, e := range c.subjects {
		if c.travelsAcross(i) && !isDataType(e.Type) {
			e.X = -0.62 // (a data element does not travel: it would wait at the edge)
		}
		if e.Variant == "fill" {
			c.homes[i].Y = e.Y
		}
	}
	c.prepareMotions()
	c.placeWays() // after the copies of a subject are made: each takes the way
	if c.solidCount() == 0 && len(c.bd.Texts) > 0 {
		c.addAccents()
	}
	c.textY = -0.3
	if !c.anyBouncy() {
		c.textY = 0.36
		if c.solidCount() == 0 {
			c.textY = 0
		}
	}
}

// addAccents gives a text-only animation a backdrop of two large soft shapes that
// swell in with the intro and keep circling slowly, so the words are never alone on a
// still background and every scene has some life away from the text.
func (c *composer) addAccents() {
	// The prompt's own colours first (those not taken by text or background), then the
	// style's.
	var cols []string
	for _, col := range c.b.Colors {
		if col != c.b.TextColor && col != c.b.Background && col != c.b.Background2 {
			cols = append(cols, col)
		}
	}
	cols = append(cols, c.styleColors()...)
	for i, pos := range []pose{{-0.72, -0.55}, {0.72, 0.55}} {
		col := cols[i]
		e := &scene.Element{ID: fmt.Sprintf("accent-%d", i+1), Type: scene.TypeCircle, Label: "accent",
			X: pos.X, Y: pos.Y, Size: 0.34, Color: col, Depth: 0.6}
		key(trackOf(e), "opacity", 0, 0, "")
		key(trackOf(e), "scale", 0, 0.4, "")
		c.accents = append(c.accents, e)
		c.d.Elements = append(c.d.Elements, e)
		dir := 1.0 - 2*float64(i)
		c.motion(e, scene.Motion{Type: scene.MotionOrbit, Start: 0, End: c.bd.Total, Amp: 0.07 * dir, Count: math.Max(1, c.bd.Total/3)})
	}
}

func (c *composer) solidCount() int {
	n := 0
	for _, e := range c.subjects {
		if e.Type != scene.TypeParticles {
			n++
		}
	}
	return n
}

func (c *composer) anyBouncy() bool {
	for _, v := range c.bouncy {
		if v {
			return true
		}
	}
	return false
}

func slotX(n, i int) float64 {
	switch n {
	case 2:
		return []float64{-0.4, 0.4}[i%2]
	case 3:
		return []float64{-0.55, 0, 0.55}[i%3]
	}
	return 0
}

func slug(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	var sb strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			sb.WriteRune(r)
		} else if sb.Len() > 0 {
			sb.WriteByte('-')
		}
	}
	return orDefault(strings.Trim(sb.String(), "-"), "el")
}

// decorate fills the details a kind of subject needs: chart values, counter target, the
// name on a logo or card.
func (c *composer) decorate(e *scene.Element, s subject, i int) {
	if s.Data != nil {
		c.decorateData(e, s)
		return
	}
	quote := c.quoteFor(i)
	switch s.Kind {
	case scene.TypeChart:
		e.Aspect, e.Values, e.Color2 = 1.5, []float64{3, 5, 4, 7, 9}, darken(e.Color, 0.3)
		var vals []float64
		for _, v := range c.b.Numbers {
			if v > 0 {
				vals = append(vals, v)
			}
		}
		if len(vals) >= 3 {
			e.Values = vals[:min(len(vals), 8)]
		}
		key(trackOf(e), "progress", 0, 0, "")
	case scene.TypeCounter:
		e.To = 100
		for _, v := range c.b.Numbers {
			if v > 0 {
				e.To = v
			}
		}
		if c.b.Percent {
			e.Suffix = "%"
		}
		if c.b.Price != "" {
			e.Prefix = c.b.Price[:1]
		}
		e.Color = c.bd.Palette.Text
		e.TextColor = c.bd.Palette.Text
		e.Sub = quote
		key(trackOf(e), "progress", 0, 0, "")
	case scene.TypeWave:
		if fillWaves[s.Noun] {
			// A sea, not a squiggle: layered swells across the lower frame.
			e.Variant, e.Size, e.Y = "fill", 0.09, 0.45
		}
		key(trackOf(e), "progress", 0, 0, "")
	case scene.TypeRing:
		// "87% customer satisfaction as a progress ring": the ring fills to the percent
		// and shows it, with what it measures under it; a loader stays a plain arc.
		if c.b.Percent {
			d := readData(dataCounter, c.b.Prompt)
			if d.Suffix == "%" && d.To > 0 && d.To <= 100 {
				e.To, e.Suffix = d.To, "%"
				e.Sub = orDefault(quote, d.Label)
				e.TextColor = c.bd.Palette.Text
				e.Size = math.Max(e.Size, 0.24)
			}
		}
		key(trackOf(e), "progress", 0, 0, "")
	case scene.TypeLogo:
		name := orDefault(quote, c.b.Brand) // a badge alone, without a name, shows none
		e.Text = initials(name)
		e.Sub = name
		e.Color2 = "#ffffff"
		e.TextColor = c.bd.Palette.Text // the name sits on the background, not on the badge
		e.Src = c.asset("logo", "brand", "icon")
		e.Shadow = true
		if luminance(c.bd.Palette.Background[0]) > 0.6 {
			e.Color2 = darken(e.Color, 0.3)
		}
		key(trackOf(e), "progress", 0, 0, "")
	case scene.TypeIcon:
		e.Variant = orDefault(s.Variant, "check")
		e.Shadow = true
	case scene.TypeAsset:
		// Illustrations keep their colours; a line icon is drawn in the subject's.
		e.Asset = s.Asset
		e.Shadow = true
		if a, ok := assets.Default().Get(s.Asset); ok && s.Color != "" {
			// "a blue car", "a pink doughnut": the illustration's main part painted the
			// asked colour, its shading and other parts kept.
			if _, ok := a.Tint(s.Color); ok {
				e.Tint = s.Color
			}
		}
	case scene.TypeCard:
		e.Text = orDefault(quote, capitalize(s.Noun))
		e.Sub = orDefault(c.b.Price, "New")
		// The product itself on the card, when the prompt names one.
		e.Asset = s.Asset
		if a, ok := assets.Default().Get(s.Asset); ok && quote == "" {
			e.Text = capitalize(orDefault(a.Label, s.Noun))
		}
	default:
		e.Shadow = true
	}
}

// asset picks the project picture whose name mentions one of the words, else the only
// picture when there is exactly one.
func (c *composer) asset(words ...string) string {
	for _, a := range c.assets {
		low := strings.ToLower(a)
		for _, w := range words {
			if strings.Contains(low, w) {
				return a
			}
		}
	}
	if len(c.assets) == 1 {
		return c.assets[0]
	}
	return ""
}

func initials(name string) string {
	f := strings.Fields(name)
	if len(name) <= 3 || len(f) == 0 {
		return name
	}
	if len(f) == 1 {
		return strings.ToUpper(name[:1])
	}
	return strings.ToUpper(f[0][:1] + f[1][:1])
}

// unnamedLogos leaves out a logo that has no name to show (no quote, no brand, no logo
// file) beside other things to draw: "brand colours are indigo" asks for colours, not
// for a badge with a made-up name. A logo alone is still drawn, as a badge.
func (c *composer) unnamedLogos() {
	others := 0
	for _, s := range c.b.Subjects {
		if s.Kind != scene.TypeLogo && s.Kind != "particles" && !s.Absorbed {
			others++
		}
	}
	if others == 0 || c.b.Brand != "" || c.asset("logo", "brand", "icon") != "" {
		return
	}
	for i, s := range c.b.Subjects {
		if s.Kind == scene.TypeLogo && c.quoteFor(i) == "" {
			c.b.Subjects[i].Absorbed = true
		}
	}
}

// quoteFor returns the quote written in the same clause as subject i when it names it.
func (c *composer) quoteFor(i int) string {
	for _, bt := range c.b.Beats {
		for _, si := range bt.Subjects {
			if si == i && quoteBelongsToSubject(c.b, bt) && len(bt.Quotes) > 0 && bt.Quotes[0] < len(c.b.Texts) {
				return c.b.Texts[bt.Quotes[0]]
			}
		}
	}
	return ""
}

func (c *composer) subjectActions(i int) []string {
	var out []string
	for _, bt := range c.b.Beats {
		for _, si := range bt.Subjects {
			if si == i {
				out = append(out, bt.Actions...)
			}
		}
	}
	if len(out) == 0 {
		// Actions in clauses that name no subject ("then it spins") belong to the first.
		if p := primarySubject(c.b); p != nil && &c.b.Subjects[i] == p {
			for _, bt := range c.b.Beats {
				if len(bt.Subjects) == 0 {
					out = append(out, bt.Actions...)
				}
			}
		}
	}
	return out
}

func (c *composer) travelsAcross(i int) bool {
	for _, bt := range c.b.Beats {
		if !bt.Across || !slices.ContainsFunc(bt.Actions, func(a string) bool { return !inPlaceActions[a] }) {
			continue // "six diyas … light up one by one from left to right": an order, no journey
		}
		for _, si := range bt.Subjects {
			if c.index[i] == si && !containsInt(bt.Places, si) {
				return true
			}
		}
	}
	return false
}

// inPlaceActions happen where a thing stands; "from left to right" with them is the
// order they play in, not a way to go.
var inPlaceActions = map[string]bool{"pulse": true, "pop": true, "appear": true, "twinkle": true, "flip": true, "fade": true,
	"grow": true, "check": true, "fill": true, "count": true, "type": true, "recolor": true, "morph": true, "wiggle": true, "spin": true}

// placeBetween sets an actor midway between the two things it is between — two copies
// of one drawing or two drawings — spreading them apart to leave it room.
func (c *composer) placeBetween() {
	for _, bt := range c.b.Beats {
		for _, bw := range bt.Between {
			actor := c.elementOf(bw.Actor)
			if actor == nil {
				continue
			}
			var sides []*scene.Element
			if bw.B >= 0 {
				sides = []*scene.Element{c.elementOf(bw.A), c.elementOf(bw.B)}
			} else if a := c.elementOf(bw.A); a != nil {
				sides = []*scene.Element{a}
				for _, e := range c.d.Elements {
					if strings.HasPrefix(e.ID, a.ID+"-") && e.Asset == a.Asset {
						sides = append(sides, e)
					}
				}
			}
			if len(sides) < 2 || sides[0] == nil || sides[1] == nil {
				continue
			}
			// The pair at either side, the actor in the middle, all on one line.
			y := actor.Y
			gap := math.Max(0.42, c.xUnits(actor.Size+sides[0].Size)*1.1)
			sides[0].X, sides[0].Y = round3(-gap), round3(y)
			sides[1].X, sides[1].Y = round3(gap), round3(y)
			actor.X = 0
			for _, e := range append(sides[:2], actor) {
				if k := c.indexOf(e); k >= 0 {
					c.homes[k] = pose{e.X, e.Y}
				}
			}
		}
	}
}

// placePaths lays out "from A to B": A at the left end of the path, B at the right, on
// the traveller's line, and the traveller crosses from one to the other.
func (c *composer) placePaths() {
	for _, bt := range c.b.Beats {
		if bt.From < 0 || bt.To < 0 {
			continue
		}
		a, b := c.elementOf(bt.From), c.elementOf(bt.To)
		if a == nil || b == nil {
			continue
		}
		y := 0.1
		for _, si := range bt.Subjects {
			if e := c.elementOf(si); e != nil && si != bt.From && si != bt.To && !containsInt(bt.Places, si) {
				y = e.Y
			}
		}
		a.X, a.Y, b.X, b.Y = -0.62, round3(y), 0.62, round3(y)
		c.homes[c.indexOf(a)] = pose{a.X, a.Y}
		c.homes[c.indexOf(b)] = pose{b.X, b.Y}
		// The stops between stand evenly along the way.
		for k, si := range bt.Via {
			if v := c.elementOf(si); v != nil {
				v.X, v.Y = round3(-0.62+1.24*float64(k+1)/float64(len(bt.Via)+1)), round3(y)
				c.homes[c.indexOf(v)] = pose{v.X, v.Y}
			}
		}
	}
}

// ---- keyframe helpers -------------------------------------------------------------------

func trackOf(e *scene.Element) map[string][]scene.Keyframe {
	if e.Tracks == nil {
		e.Tracks = map[string][]scene.Keyframe{}
	}
	return e.Tracks
}

var propDefault = map[string]float64{"scale": 1, "sx": 1, "sy": 1, "opacity": 1, "progress": 1, "zoom": 1}

// value is the property's value at the end of what has been keyframed so far.
func value(tr map[string][]scene.Keyframe, prop string, base float64) float64 {
	if k := tr[prop]; len(k) > 0 {
		return k[len(k)-1].V
	}
	return base
}

// key appends a keyframe, keeping times ordered (a later move never rewrites the past).
func key(tr map[string][]scene.Keyframe, prop string, t, v float64, ease string) {
	k := tr[prop]
	if n := len(k); n > 0 && t < k[n-1].T {
		t = k[n-1].T
	}
	t = math.Round(t*1000) / 1000
	tr[prop] = append(k, scene.Keyframe{T: t, V: round3(v), Ease: ease})
}

// move animates prop from its current value to v during [t0, t1].
func move(tr map[string][]scene.Keyframe, prop string, base, t0, t1, v float64, ease string) {
	cur := value(tr, prop, base)
	key(tr, prop, t0, cur, "")
	if t1 <= t0 {
		t1 = t0 + 0.01
	}
	key(tr, prop, t1, v, ease)
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func baseOf(e *scene.Element, prop string) float64 {
	switch prop {
	case "x":
		return e.X
	case "y":
		return e.Y
	}
	if v, ok := propDefault[prop]; ok {
		return v
	}
	return 0
}

func (c *composer) emove(e *scene.Element, prop string, t0, t1, v float64, ease string) {
	move(trackOf(e), prop, baseOf(e, prop), t0, t1, v, ease)
}

func (c *composer) cmove(prop string, t0, t1, v float64, ease string) {
	if c.d.Camera.Tracks == nil {
		c.d.Camera.Tracks = map[string][]scene.Keyframe{}
	}
	move(c.d.Camera.Tracks, prop, propDefault[prop], t0, t1, v, ease)
}

func (c *composer) motion(e *scene.Element, m scene.Motion) {
	m.Start, m.End = round3(m.Start), round3(m.End)
	if m.End-m.Start < 0.05 {
		return
	}
	e.Motions = append(e.Motions, &m)
}

// ---- scenes ------------------------------------------------------------------------------

// addScene keyframes scene i; a scene with several roles splits its time between them.
func (c *composer) addScene(i int) {
	if c.genre != nil {
		return // the layout keyframed its entry, hold and exit at setup
	}
	a0, a1 := c.bounds[i], c.bounds[i+1]
	roles := c.bd.Scenes[i]
	step := (a1 - a0) / float64(len(roles))
	for k, r := range roles {
		t0, t1 := a0+step*float64(k), a0+step*float64(k+1)
		switch r.Kind {
		case roleIntro:
			c.intro(t0, t1)
		case roleAction:
			c.action(r.Index, t0, t1)
		case roleText:
			c.text(r.Index, t0, t1)
		case roleDetail:
			c.detail(r.Index, t0, t1)
		case roleOutro:
			c.outro(t0, t1)
		}
	}
}

func (c *composer) intro(a0, a1 float64) {
	d := a1 - a0
	for i, e := range c.subjects {
		t0 := a0 + 0.15*float64(i)
		if e.Type == scene.TypeParticles {
			c.emove(e, "opacity", a0, a0+d*0.6, 1, "easeOutCubic")
			continue
		}
		in := math.Min(1.0, d*0.6)
		if c.grows(i) {
			// Fades in small, as prepareShapes set it, and starts growing; its own verb
			// grows it the rest of the way (its base stays put).
			c.emove(e, "opacity", t0, t0+in, 1, "easeOutCubic")
			c.emove(e, "scale", t0, a1, 0.55, "easeInOutSine")
			c.emove(e, "y", t0, a1, round3(c.homes[i].Y+e.Size*frameK*0.45), "easeInOutSine")
			continue
		}
		if c.popsIn(i) {
			// "A thumbs up pops in": from nothing to full size with an overshoot, in any style.
			c.emove(e, "opacity", t0, t0+0.01, 1, "")
			c.motion(e, scene.Motion{Type: scene.MotionPop, Start: round3(t0), End: c.bd.Total})
			c.progressOn(e, a0+d*0.2, a1, "intro")
			continue
		}
		switch c.bd.Base {
		case koda.StylePlayful:
			if c.bouncy[i] && !c.countedBounce(i) {
				// Drop in from above the frame and land with a squash.
				if t0 == 0 {
					// On screen from the first frame, falling from the top.
					trackOf(e)["opacity"] = []scene.Keyframe{{T: 0, V: 1}}
				} else {
					c.emove(e, "opacity", t0, t0+0.01, 1, "")
				}
				c.motion(e, scene.Motion{Type: scene.MotionBounce, Start: t0, End: a1, Amp: e.Y + 0.72, Count: 1.5, Decay: 0.3, Squash: 1})
			} else {
				c.emove(e, "opacity", t0, t0+0.15, 1, "")
				c.emove(e, "scale", t0, t0, 0, "")
				c.emove(e, "scale", t0, t0+in, 1, "easeOutBack")
				c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: t0 + in, End: a1, Amp: 0.06, Count: math.Max(1, (a1-t0-in)/0.8)})
			}
		case koda.StyleSmooth:
			c.emove(e, "opacity", t0, t0+in, 1, "easeOutQuint")
			c.emove(e, "y", t0, t0, e.Y+0.15, "")
			c.emove(e, "y", t0, t0+in, e.Y, "easeOutQuint")
			c.motion(e, scene.Motion{Type: scene.MotionFloat, Start: t0 + in*0.8, End: a1 + 0.5, Amp: 0.02, Count: math.Max(0.5, (a1-t0)/3)})
		default:
			c.emove(e, "opacity", t0, t0+d*0.8, 1, "easeInOutQuart")
			c.emove(e, "scale", t0, t0, 0.6, "")
			c.emove(e, "scale", t0, a1, 1, "easeInOutQuart")
		}
		c.progressOn(e, a0+d*0.2, a1, "intro")
	}
	for _, e := range c.accents {
		in := math.Min(1.2, d*0.8)
		c.emove(e, "opacity", a0, a0+in, 0.4, c.sp.Entry)
		c.emove(e, "scale", a0, a0+in, 1, c.sp.Entry)
	}
	if c.bd.Base == koda.StyleCinematic {
		// A pull-back reveal: the camera starts close and eases out.
		c.cmove("zoom", a0, a0, 1.25, "")
		c.cmove("zoom", a0, a1, 1.0, "easeInOutQuart")
	}
}

// progressOn animates the drawing progress of elements that have one (logo ring, chart,
// counter, ring, wave) the first time a scene gives them the stage.
//
// The intro draws a logo or card completely, and starts the others (a third of the
// bars, the first numbers, the start of the ring): an intro where the subject is only
// an empty axis would be a still frame. Their own action finishes the drawing.
func (c *composer) progressOn(e *scene.Element, t0, t1 float64, when string) {
	tr := trackOf(e)
	k, ok := tr["progress"]
	if !ok || len(k) == 0 || k[len(k)-1].V >= 1 {
		return
	}
	to := 1.0
	if when == "intro" && e.Type != scene.TypeLogo && e.Type != scene.TypeCard {
		to = 0.3
	}
	c.emove(e, "progress", t0, t1, to, orDefault(map[string]string{scene.TypeLogo: "easeInOutCubic"}[e.Type], "linear"))
}

func (c *composer) targets(beatIdx int) []int {
	var out []int
	if beatIdx >= 0 && beatIdx < len(c.b.Beats) {
		for _, si := range c.b.Beats[beatIdx].Subjects {
			if containsInt(c.b.Beats[beatIdx].Places, si) {
				continue // the tree an apple falls from stays where it is
			}
			for i := range c.subjects {
				if c.index[i] == si {
					out = append(out, i)
				}
			}
		}
	}
	if len(out) == 0 {
		for i, e := range c.subjects {
			if e.Type != scene.TypeParticles {
				out = append(out, i)
			}
		}
	}
	if len(out) == 0 && len(c.subjects) > 0 {
		out = append(out, 0)
	}
	return out
}

func (c *composer) action(beatIdx int, a0, a1 float64) {
	acts := actionsFor(c.b, beatIdx)
	across := beatIdx >= 0 && beatIdx < len(c.b.Beats) && c.b.Beats[beatIdx].Across
	d := a1 - a0
	moved := false
	c.beat = beatIdx
	defer func() { c.beat = -1 }()
	for n, i := range c.targets(beatIdx) {
		e := c.subjects[i]
		t0 := a0 + 0.12*float64(n)
		if len(acts) == 0 {
			acts = c.signature(e)
		}
		for _, a := range acts {
			moved = c.act(e, i, a, across, t0, a1) || moved
		}
		c.progressOn(e, t0, t0+d*0.8, "action")
	}
	if !moved {
		c.cmove("zoom", a0, a1, value(c.d.Camera.Tracks, "zoom", 1)+0.08, c.sp.Action)
	}
}

// signature is what a subject does when the prompt gives no verb: the style's motion.
func (c *composer) signature(e *scene.Element) []string {
	if e.Variant == "spinner" {
		return []string{"spin"}
	}
	if pendulumNouns[e.Label] {
		return []string{"swing"}
	}
	switch e.Type {
	case scene.TypeChart, scene.TypeCounter, scene.TypeRing, scene.TypeWave, scene.TypeCountdown, scene.TypeChecklist,
		scene.TypeClock, scene.TypeProgress:
		return []string{"count"}
	case scene.TypeParticles:
		return []string{"twinkle"}
	}
	switch c.bd.Base {
	case koda.StylePlayful:
		return []string{"pop"}
	case koda.StyleSmooth:
		return []string{"float"}
	}
	return []string{"zoom"}
}

// dataActions are what an action means when a data element does it: "each step drops
// in", "dots going up" are the data arriving (count), not the chart falling from the sky
// or travelling.
var dataActions = map[string]string{"fall": "count", "slide": "count"}

// act applies one action to element e during [a0, a1]; it reports whether e moved.
func (c *composer) act(e *scene.Element, i int, a string, across bool, a0, a1 float64) bool {
	if da, ok := dataActions[a]; ok && isDataType(e.Type) {
		a = da
	}
	if c.playWay(e, i, a0, a1) {
		return true
	}
	if c.actMotion(e, i, a, across, a0, a1) {
		return true
	}
	d := a1 - a0
	playful := c.bd.Base == koda.StylePlayful
	switch a {
	case "bounce":
		hop := map[koda.Style]float64{koda.StylePlayful: 0.7, koda.StyleSmooth: 1.0, koda.StyleCinematic: 1.1}[c.bd.Base]
		count := math.Max(2, math.Min(6, math.Round(d/hop)))
		if c.b.Count > 0 {
			count = float64(c.b.Count)
		}
		sq := map[koda.Style]float64{koda.StylePlayful: 1, koda.StyleSmooth: 0.35, koda.StyleCinematic: 0.6}[c.bd.Base]
		c.motion(e, scene.Motion{Type: scene.MotionBounce, Start: a0, End: a1, Amp: 0.6, Count: count, Decay: 0.82, Squash: sq})
		if across {
			c.emove(e, "x", a0, a1, 0.62, "linear")
		}
	case "roll":
		to := 0.62
		if !across {
			to = value(trackOf(e), "x", e.X) + 0.4
		}
		c.emove(e, "x", a0, a1, to, c.sp.Action)
		c.emove(e, "rotation", a0, a1, value(trackOf(e), "rotation", 0)+540, c.sp.Action)
	case "slide", "fly":
		x := value(trackOf(e), "x", e.X)
		if across {
			c.emove(e, "x", a0, a0, -0.62, "")
			c.emove(e, "x", a0, a0+d*0.8, 0.62, c.sp.Action)
		} else {
			// A sway out and back, so the composition ends centred where it started.
			c.emove(e, "x", a0, a0+d*0.45, x+0.3, c.sp.Action)
			c.emove(e, "x", a0+d*0.45, a0+d*0.9, x, c.sp.Action)
		}
		if a == "fly" {
			y := value(trackOf(e), "y", e.Y)
			c.emove(e, "y", a0, a0+d*0.4, y-0.25, "easeOutQuad")
			c.emove(e, "y", a0+d*0.4, a0+d*0.8, y, "easeInOutQuad")
		}
	case "spin":
		c.motion(e, scene.Motion{Type: scene.MotionSpin, Start: a0, End: a0 + d*0.85, Count: map[bool]float64{true: 2, false: 1}[playful], Ease: c.sp.Action})
	case "float", "twinkle":
		if e.Type == scene.TypeParticles {
			c.cmove("x", a0, a1, value(c.d.Camera.Tracks, "x", 0)+0.06, "easeInOutSine")
			c.cmove("zoom", a0, a1, value(c.d.Camera.Tracks, "zoom", 1)+0.06, "easeInOutSine")
			return true
		}
		c.motion(e, scene.Motion{Type: scene.MotionFloat, Start: a0, End: a1, Amp: 0.06, Count: math.Max(1, d/2)})
	case "grow", "pop", "appear", "fade", "type", "draw", "count":
		if a == "count" || a == "draw" {
			if _, ok := trackOf(e)["progress"]; ok {
				c.progressOn(e, a0, a0+d*0.8, "action")
				c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: a0 + d*0.8, End: a1 + 1, Amp: 0.03, Count: 1})
				return true
			}
		}
		s := value(trackOf(e), "scale", 1)
		peak := map[bool]float64{true: 1.35, false: 1.15}[playful]
		c.emove(e, "scale", a0, a0+d*0.4, s*peak, c.sp.Action)
		c.emove(e, "scale", a0+d*0.4, a1, s, c.sp.Entry)
	case "pulse":
		c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: a0, End: a1, Amp: 0.14, Count: math.Max(2, math.Round(d/0.8))})
	case "orbit":
		c.motion(e, scene.Motion{Type: scene.MotionOrbit, Start: a0, End: a1, Amp: 0.18, Count: 1})
	case "fall":
		y := value(trackOf(e), "y", e.Y)
		c.emove(e, "y", a0, a0, -1.3, "")
		c.emove(e, "y", a0, a0+d*0.75, y, "easeOutBounce")
	case "rise":
		y := value(trackOf(e), "y", e.Y)
		c.emove(e, "y", a0, a0+d*0.8, y-0.25, c.sp.Action)
	case "burst":
		s := value(trackOf(e), "scale", 1)
		c.emove(e, "scale", a0, a0+d*0.25, s*1.3, "easeOutBack")
		c.emove(e, "scale", a0+d*0.25, a0+d*0.6, s, c.sp.Entry)
		c.sparkles(value(trackOf(e), "x", e.X), value(trackOf(e), "y", e.Y), a0, a1, e.Color)
	case "wiggle":
		c.motion(e, scene.Motion{Type: scene.MotionWiggle, Start: a0, End: a1, Amp: 14, Count: math.Max(2, math.Round(d/0.4))})
	case "zoom":
		c.cmove("zoom", a0, a1, value(c.d.Camera.Tracks, "zoom", 1)+0.18, c.sp.Action)
	default:
		return false
	}
	return true
}

func (c *composer) sparkles(x, y, a0, a1 float64, color string) {
	c.sparkN++
	e := &scene.Element{ID: fmt.Sprintf("sparkles-%d", c.sparkN), Type: scene.TypeParticles, Variant: "sparkles",
		Count: 28, Size: 0.012, X: x, Y: y, Start: a0, End: math.Min(a1+0.6, c.bd.Total), Color: color, Color2: "#ffd54f", Seed: 97 + c.sparkN}
	c.emove(e, "progress", a0, a0, 0, "")
	c.emove(e, "progress", a0, a0+math.Min(1.2, (a1-a0)*0.8), 1, "linear")
	c.emove(e, "opacity", a1-0.01, e.End, 0, "easeInQuad")
	// Behind any text, so sparkles never cover a letter.
	at := len(c.d.Elements)
	for i, el := range c.d.Elements {
		if el.Type == scene.TypeText {
			at = i
			break
		}
	}
	c.d.Elements = append(c.d.Elements[:at], append([]*scene.Element{e}, c.d.Elements[at:]...)...)
}

// textSize is textSize, larger when the prompt asks for big text and the words are few
// enough to stay on one line at the larger size.
func (c *composer) textSize(s string) float64 {
	sz := textSize(s)
	if c.b.BigText && len([]rune(s)) <= 20 {
		sz *= 1.35
	}
	// A lone word with nothing else drawn is the video's subject ("the word 'Vibes' in
	// pink and orange", a neon 'OPEN'): it fills the frame like one, not a caption.
	if len(c.b.Subjects) == 0 && len(c.bd.Texts) == 1 && !strings.ContainsAny(s, " \n") && len([]rune(s)) <= 10 {
		sz = math.Max(sz, 0.22)
	}
	return sz
}

func textSize(s string) float64 {
	switch n := len([]rune(s)); {
	case n <= 16:
		return 0.13
	case n <= 28:
		return 0.11
	case n <= 48:
		return 0.085
	}
	return 0.065
}

func (c *composer) text(q int, a0, a1 float64) {
	if q < 0 || q >= len(c.bd.Texts) {
		return
	}
	if bub := c.messageBubbleFor(q); bub != nil {
		c.messageBubble(bub, q, a0)
		return
	}
	d := a1 - a0
	e := &scene.Element{ID: fmt.Sprintf("text-%d", q+1), Type: scene.TypeText, Label: "text", Text: c.bd.Texts[q],
		Start: a0, Y: c.textY, Size: c.textSize(c.bd.Texts[q]), Color: c.bd.Palette.Text, Reveal: c.sp.Reveal,
		Weight: map[koda.Style]int{koda.StyleSmooth: 700}[c.bd.Base]}
	c.placeText(e, q)
	if c.b.TextColor2 != "" && e.Color == c.b.TextColor {
		e.Color2 = c.b.TextColor2 // "the word 'Vibes' in pink and orange": a blend of both
	}
	if c.b.Stack {
		c.stackText(e, q, a0, a1)
	}
	reveal := math.Min(1.4, d*0.6)
	c.emove(e, "progress", a0, a0, 0, "")
	c.emove(e, "progress", a0, a0+reveal, 1, "linear")
	// A slow breath keeps the held title alive.
	c.emove(e, "scale", a0+reveal, a0+reveal, 0.97, "")
	c.emove(e, "scale", a0+reveal, c.bd.Total, 1.02, "easeInOutSine")
	if prev := c.shown; prev != nil && !c.b.Stack {
		c.emove(prev, "opacity", a0, a0+0.4, 0, "easeInCubic")
		c.emove(prev, "y", a0, a0+0.4, prev.Y-0.12, "easeInCubic")
		prev.End = round3(a0 + 0.45)
	}
	c.textMotion(e, q, a0, a1)
	c.shown = e
	c.texts[q] = e
	c.d.Elements = append(c.d.Elements, e)
	if !c.aside {
		c.aside = true
		for i, s := range c.subjects {
			if s.Type == scene.TypeParticles || s.Variant == "fill" {
				continue
			}
			if c.bouncy[i] {
				// Hop back home, under the title.
				if x := value(trackOf(s), "x", s.X); math.Abs(x-c.homes[i].X) > 0.05 {
					c.emove(s, "x", a0, a0+d*0.5, c.homes[i].X, "easeInOutQuad")
					c.motion(s, scene.Motion{Type: scene.MotionBounce, Start: a0, End: a0 + d*0.5, Amp: 0.35, Count: 1, Squash: 0.8})
				}
			}
		}
	}
	c.makeRoom(e, a0, a0+math.Min(0.9, d*0.5))
	switch c.bd.Base {
	case koda.StylePlayful:
		c.sparkles(0, c.textY, a0+reveal*0.5, a1, c.bd.Palette.subjectColor(c.b, 0))
	case koda.StyleCinematic:
		c.cmove("zoom", a0, a1, value(c.d.Camera.Tracks, "zoom", 1)+0.05, "easeInOutQuart")
	}
}

// Vertical extent of an element, in multiples of its size above and below its centre
// (a logo's name hangs under the badge, a counter's caption under the number).
var extentUp = map[string]float64{scene.TypeLogo: 1.2, scene.TypeCounter: 0.5, scene.TypeRing: 1.1}
var extentDown = map[string]float64{scene.TypeLogo: 2.0, scene.TypeCounter: 1.1, scene.TypeRing: 1.1}

// frameK converts a size (fraction of the shorter side) to frame y units (half-heights)
// in the flattest frame we lay out for, landscape 16:9; taller frames only have more
// room, so a layout that fits here fits everywhere.
const frameK = 2.0

// makeRoom moves and, when it must, shrinks the subjects during [t0, t1] so none
// overlaps the text: the text keeps its place and size, because it has to be read.
func (c *composer) makeRoom(text *scene.Element, t0, t1 float64) {
	lines := 1.0
	if n := len([]rune(text.Text)); n > 18 {
		lines = 2
	}
	half := text.Size * frameK * 0.62 * lines
	gap := 0.06
	top, bottom := text.Y-half-gap, text.Y+half+gap
	for i, s := range c.subjects {
		if s.Type == scene.TypeParticles || s.Variant == "fill" {
			continue
		}
		up, down := extentUp[s.Type], extentDown[s.Type]
		if up == 0 {
			up, down = 1, 1
		}
		lift := 0.0
		if c.bouncy[i] {
			lift = 0.2 // the outro's last hop must not reach the words either
		}
		sc := value(trackOf(s), "scale", 1)
		y := value(trackOf(s), "y", s.Y)
		h := s.Size * frameK * sc
		if y+down*h <= top || y-up*h-lift >= bottom {
			continue // already clear
		}
		var ny, ns float64
		if text.Y <= 0 {
			// Text above: the subject goes below it, shrunk to fit above the frame's edge.
			room := 0.95 - bottom - lift
			ns = math.Min(sc, room/((up+down)*s.Size*frameK))
			ny = bottom + lift + up*s.Size*frameK*ns
		} else {
			room := top + 0.95
			ns = math.Min(sc, room/((up+down)*s.Size*frameK))
			ny = top - down*s.Size*frameK*ns
		}
		if ns <= 0.05 {
			continue
		}
		c.emove(s, "y", t0, t1, ny, c.sp.Entry)
		if math.Abs(ns-sc) > 0.01 {
			c.emove(s, "scale", t0, t1, ns, c.sp.Entry)
		}
	}
}

func (c *composer) detail(v int, a0, a1 float64) {
	d := a1 - a0
	targets := c.targets(-1)
	for n, i := range targets {
		e := c.subjects[i]
		t0 := a0 + 0.1*float64(n)
		if isDataType(e.Type) {
			// Data is read, not tossed about: a slow breath keeps it alive.
			c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: t0, End: a1, Amp: 0.03, Count: 1})
			continue
		}
		switch c.bd.Base {
		case koda.StylePlayful:
			switch v % 4 {
			case 0:
				c.motion(e, scene.Motion{Type: scene.MotionBounce, Start: t0, End: a1, Amp: 0.3, Count: math.Max(2, math.Round(d/0.6)), Decay: 0.9, Squash: 1})
			case 1:
				c.act(e, i, "wiggle", false, t0, a1)
				c.act(e, i, "pop", false, t0, a1)
			case 2:
				c.motion(e, scene.Motion{Type: scene.MotionSpin, Start: t0, End: a1, Count: 1, Ease: "easeOutBack"})
			default:
				c.act(e, i, "burst", false, t0, a1)
			}
		case koda.StyleSmooth:
			switch v % 4 {
			case 0:
				x := value(trackOf(e), "x", e.X)
				c.emove(e, "x", t0, a1, x+0.12, "easeInOutCubic")
				c.cmove("x", a0, a1, value(c.d.Camera.Tracks, "x", 0)+0.04, "easeInOutCubic")
			case 1:
				c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: t0, End: a1, Amp: 0.1, Count: 1})
			case 2:
				c.motion(e, scene.Motion{Type: scene.MotionFloat, Start: t0, End: a1, Amp: 0.06, Count: math.Max(1, d/2)})
			default:
				c.motion(e, scene.Motion{Type: scene.MotionSpin, Start: t0, End: a1, Count: 1, Ease: "easeInOutCubic"})
			}
		default:
			switch v % 4 {
			case 0:
				if n == 0 {
					c.cmove("zoom", a0, a1, value(c.d.Camera.Tracks, "zoom", 1)+0.15, "easeInOutQuart")
				}
				c.motion(e, scene.Motion{Type: scene.MotionFloat, Start: t0, End: a1, Amp: 0.03, Count: 0.5})
			case 1:
				c.motion(e, scene.Motion{Type: scene.MotionOrbit, Start: t0, End: a1, Amp: 0.12, Count: 1})
			case 2:
				y := value(trackOf(e), "y", e.Y)
				c.emove(e, "y", t0, a1-d*0.2, y-0.12, "easeInOutQuart")
				c.emove(e, "y", a1-d*0.2, a1, y, "easeInOutQuart")
			default:
				if n == 0 {
					c.cmove("zoom", a0, a1, math.Max(1, value(c.d.Camera.Tracks, "zoom", 1)-0.15), "easeInOutQuart")
				}
				c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: t0, End: a1, Amp: 0.05, Count: 1})
			}
		}
	}
}

// carryOngoing starts what a subject keeps doing (a flame's flicker) at its entrance:
// a state, unlike a counted action, does not wait for the action scene, and an intro
// without it holds still. It still ends with the action (the last frame shows it whole).
func (c *composer) carryOngoing(e *scene.Element, i int) {
	for _, m := range e.Motions {
		if m.Type != scene.MotionTwinkle {
			continue
		}
		rate := m.Count / math.Max(0.05, m.End-m.Start)
		m.Start = round3(math.Min(m.Start, c.bounds[0]+0.15*float64(i)))
		m.Count = math.Round(rate * (m.End - m.Start))
	}
}

func (c *composer) outro(a0, a1 float64) {
	d := a1 - a0
	c.cmove("zoom", a0, a1, value(c.d.Camera.Tracks, "zoom", 1)+0.06, c.sp.Exit)
	for i, e := range c.subjects {
		if e.Type == scene.TypeParticles {
			continue
		}
		if c.bouncy[i] && c.bd.Base == koda.StylePlayful && !c.countedBounce(i) {
			c.motion(e, scene.Motion{Type: scene.MotionBounce, Start: a0, End: a0 + d*0.6, Amp: 0.18, Count: 1, Squash: 1})
		} else {
			// Enough drift to read as alive: a still last scene looks like a frozen frame.
			// A chart or counter is read, not watched: it keeps the gentle drift.
			amp, n := 0.04, math.Max(1, d/1.8)
			if isDataType(e.Type) {
				amp, n = 0.025, math.Max(0.5, d/2.5)
			}
			c.motion(e, scene.Motion{Type: scene.MotionFloat, Start: a0, End: a1 + 0.5, Amp: amp, Count: n})
		}
		c.carryOngoing(e, i)
		// The settle: a small scale-down so the exit reads, while the last frame stays full.
		s := value(trackOf(e), "scale", 1)
		c.emove(e, "scale", a1-d*0.35, a1, s*0.94, c.sp.Exit)
	}
}

// finishCharts draws to the end a chart the intro started but no action of its own
// finished ("each one grows up" said of the things, not of the chart): a chart left a
// third drawn shows wrong values.
func (c *composer) finishCharts() {
	for _, e := range c.d.Elements {
		k := trackOf(e)["progress"]
		if e.Type != scene.TypeChart || len(k) == 0 || k[len(k)-1].V >= 1 {
			continue
		}
		last := k[len(k)-1].T
		c.emove(e, "progress", last, math.Min(last+1.5, c.bd.Total*0.75), 1, "easeInOutSine")
	}
}

// polish adds light, depth and effects by style.
func (c *composer) polish() {
	c.finishCharts()
	if c.genre == nil {
		c.widgets()
	}
	bg := &c.d.Background
	bg.Glow = c.bd.Palette.Glow
	if c.backdrop {
		// A shifting gradient: its angle turns half round and a glow of its second
		// colour wanders over it.
		bg.Drift = 180
		bg.Glow = c.bd.Palette.Background[1]
	}
	switch c.bd.Base {
	case koda.StyleCinematic:
		c.d.Effects = scene.Effects{Vignette: 0.55}
		if filmLookRE.MatchString(c.b.Prompt + " " + c.bd.StyleNote) {
			c.d.Effects.Letterbox, c.d.Effects.LetterboxIn = 0.075, math.Min(1.2, c.bd.Total/4)
		}
		dust := &scene.Element{ID: "dust", Type: scene.TypeParticles, Variant: "dust", Count: 70, Size: 0.007,
			Color: "#fff7e6", Depth: 0.5, Seed: 5}
		c.d.Elements = append([]*scene.Element{dust}, c.d.Elements...)
	case koda.StyleSmooth:
		if luminance(c.bd.Palette.Background[0]) < 0.4 {
			c.d.Effects.Vignette = 0.3
		}
	case koda.StylePlayful:
		c.d.Effects.Vignette = 0.08
	}
	if c.genre != nil {
		return
	}
	c.playStates()
	c.celebrate()
	c.polishSceneWords()
	c.carrySteam()
	c.carryZzz()
	c.faceTravel()
	for _, e := range c.subjects {
		if e.Type != scene.TypeParticles && e.Type != scene.TypeCounter {
			e.Shadow = true
		}
		if c.bd.Base == koda.StyleCinematic && e.Type != scene.TypeParticles && e.Type != scene.TypeCard {
			e.Glow = 0.35
		}
	}
	// Every element fully shown by its last keyframe is kept shown: the final frame is
	// the composition, never an empty background.
}
