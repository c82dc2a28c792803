package builtin

import (
	"math"
	"regexp"
	"strings"

	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
)

// A water creature in a container ("a goldfish swims in a bowl", "a shark in a tank"):
// the library's bowls are cereal bowls with spoons and its tanks are armoured vehicles,
// so the container is drawn from shapes as a glass bowl or tank of water, and the
// creature swims from one side of the water to the other, turning at each end.

// habitatRE: nouns of containers that hold a water creature when one is in them.
var habitatRE = regexp.MustCompile(`^(?:fish\s*)?(?:bowls?|tanks?|aquariums?|aquaria|jars?|globes?|vases?)$`)

// tankRE: containers drawn as a rectangular tank rather than a round bowl.
var tankRE = regexp.MustCompile(`\b(?:tanks?|aquariums?|aquaria)\b`)

// Outlines of the parts, in the path element's 2×2 box. The round bowl is a circle
// centred a little low, cut open at the top with a flared lip; the tank is a box
// open at the top. Each has the water inside its glass up to a level below the rim,
// and gravel on its floor.
var (
	bowlShape = habitatShape{
		glass:  "M-0.7,-0.7 Q-0.55,-0.68 -0.533,-0.6 A0.88,0.88 0 1,0 0.533,-0.6 Q0.55,-0.68 0.7,-0.7",
		water:  "M-0.709,-0.35 A0.84,0.84 0 1,0 0.709,-0.35 Z",
		gravel: "M-0.567,0.72 Q-0.28,0.6 0,0.68 Q0.28,0.6 0.567,0.72 A0.84,0.84 0 0,1 -0.567,0.72 Z",
		shine:  "M-0.62,-0.05 A0.66,0.66 0 0,1 -0.3,-0.5",
		// Half-widths of the water, in the box, at the height the creature swims.
		swimY: 0.17, swimHalf: 0.83,
	}
	tankShape = habitatShape{
		glass:  "M-0.95,-0.62 L-0.95,0.72 L0.95,0.72 L0.95,-0.62",
		water:  "M-0.91,-0.4 L0.91,-0.4 L0.91,0.68 L-0.91,0.68 Z",
		gravel: "M-0.91,0.52 Q-0.45,0.42 0,0.5 Q0.45,0.42 0.91,0.52 L0.91,0.68 L-0.91,0.68 Z",
		shine:  "M-0.8,0.3 L-0.8,-0.25",
		swimY:  0.06, swimHalf: 0.91,
	}
)

type habitatShape struct {
	glass, water, gravel, shine string
	swimY, swimHalf             float64
}

// swimLap is how long a creature takes to cross its water once, seconds.
const swimLap = 1.7

// habitatNounRE: containers that are a water creature's home whatever is in them.
var habitatNounRE = regexp.MustCompile(`^(?:fish\s*bowls?|goldfish\s*bowls?|fish\s*tanks?|aquariums?|aquaria)$`)

// swimRE: a clause whose creature swims, so the container it is in holds water.
var swimRE = regexp.MustCompile(`\bswim`)

// habitats runs the water-container program for every container a water creature is
// drawn in, and for a fish bowl or aquarium named outright.
func (c *composer) habitats() {
	for i, place := range c.subjects {
		noun := strings.ToLower(c.b.Subjects[c.index[i]].Noun)
		if !habitatRE.MatchString(noun) && !habitatNounRE.MatchString(noun) {
			continue
		}
		// Every drawing of a subject in it swims: "two fish" are two drawings.
		in := map[int]bool{}
		for k, o := range c.subjects {
			if o.In == place.ID && c.aquatic(o, c.index[k]) {
				in[c.index[k]] = true
			}
		}
		var swimmers []*scene.Element
		for k, o := range c.subjects {
			if in[c.index[k]] && o != place {
				o.In = place.ID
				swimmers = append(swimmers, o)
			}
		}
		if len(swimmers) > 0 || habitatNounRE.MatchString(noun) {
			c.habitat(place, noun, swimmers)
		}
	}
}

// aquatic: drawing e of brief subject si is a creature that lives in water (a fish, a
// shark) or that the prompt has swim.
func (c *composer) aquatic(e *scene.Element, si int) bool {
	if e.Type != scene.TypeAsset {
		return false
	}
	if a, ok := assets.Default().Get(e.Asset); ok && a.Category == "animals-nature/animal-marine" {
		return true
	}
	if strings.HasSuffix(strings.ToLower(c.b.Subjects[si].Noun), "fish") {
		return true
	}
	for _, bt := range c.b.Beats {
		if containsInt(bt.Subjects, si) && swimRE.MatchString(bt.Text) {
			return true
		}
	}
	return false
}

// habitat redraws place as a glass container of water with gravel on its floor, and
// the swimmers inside it crossing the water back and forth, each facing the way it
// swims. Every part has the container's centre, size and entrance, so the group
// appears and leaves as one.
func (c *composer) habitat(place *scene.Element, noun string, swimmers []*scene.Element) {
	sh := bowlShape
	if tankRE.MatchString(noun) {
		sh = tankShape
	}
	still(place)
	place.Type, place.Asset, place.Tint, place.Hue = scene.TypePath, "", "", 0
	place.Path, place.Color, place.Variant = sh.water, "#4fb8ee", ""
	place.Size = round3(math.Max(place.Size, 0.3))
	place.Y = 0.04
	if c.solidCount() == len(swimmers)+1 {
		place.X = 0 // the bowl and its fish are the whole picture
	}
	place.Depicts = "fishbowl" // the water in its glass with the fish in it
	if sh == tankShape {
		place.Depicts = "fish tank"
	}
	glassColor, shineColor := "#5f9fc4", "#ffffff"
	if luminance(c.bd.Palette.Background[0]) < 0.4 {
		glassColor = "#cfeeff"
	}
	part := func(suffix, label, path, color, variant string) *scene.Element {
		p := &scene.Element{ID: place.ID + "-" + suffix, Type: scene.TypePath, Label: label, In: place.ID,
			X: place.X, Y: place.Y, Size: place.Size, Path: path, Color: color, Variant: variant,
			Start: place.Start, End: place.End, Tracks: map[string][]scene.Keyframe{}}
		for k, v := range place.Tracks {
			p.Tracks[k] = append([]scene.Keyframe(nil), v...)
		}
		return p
	}
	gravel := part("gravel", "gravel", sh.gravel, "#e8c27a", "")
	glass := part("glass", "glass", sh.glass, glassColor, "stroke")
	shine := part("shine", "glass shine", sh.shine, shineColor, "stroke")
	c.insertAfter(place, gravel)
	last := gravel
	for _, f := range swimmers {
		c.inFront(f, last)
		last = f
	}
	c.insertAfter(last, glass)
	c.insertAfter(glass, shine)

	a0, _ := c.actionSpan()
	for k, f := range swimmers {
		c.swim(f, place, sh, k, len(swimmers), a0)
	}
}

// swim keeps fish f inside the water of place: it starts at one side and crosses to the
// other and back until the video ends, slowing into each turn and flipping to face its
// way; a gentle bob keeps it alive. The k-th of n swimmers swims at its own depth, the
// other way round.
func (c *composer) swim(f, place *scene.Element, sh habitatShape, k, n int, a0 float64) {
	noun := strings.ToLower(f.Label)
	still(f)
	delete(trackOf(f), "y")
	delete(trackOf(f), "sx")
	f.Size = round3(place.Size * 0.28 / math.Sqrt(float64(n)))
	if f.Tint == "" && (strings.HasPrefix(noun, "gold") || strings.HasSuffix(noun, "fish") && colorDist(mainColorOf(f), place.Color) < 120) {
		// A goldfish is orange; so is a fish the prompt gives no colour that would be
		// lost in the blue water.
		f.Asset, f.Tint = goldfish(f.Asset)
	}
	rel := f.Size / place.Size // the fish's half-size in the box's units
	reach := math.Max(0.05, sh.swimHalf-rel-0.1)
	R := round3(reach * c.xUnits(place.Size))
	depth := sh.swimY + (float64(k)-float64(n-1)/2)*0.3
	dir := 1.0
	if k%2 == 1 {
		dir = -1
	}
	f.X = round3(place.X - dir*R)
	f.Y = round3(place.Y + depth*c.yUnits(place.Size))
	if i := c.indexOf(f); i >= 0 {
		c.homes[i] = pose{f.X, f.Y}
	}
	start := a0
	// Starts swimming once it has appeared.
	for _, kf := range f.Tracks["scale"] {
		if kf.T > 0 && kf.V >= 1 {
			start = math.Min(a0, kf.T)
			break
		}
	}
	end := c.bd.Total
	laps := math.Max(2, math.Round((end-start)/swimLap))
	lap := (end - start) / laps
	h, _ := assetHeading(f)
	face := func(d float64) float64 {
		if h == 180 {
			return -d
		}
		return d
	}
	sx := trackOf(f)
	key(sx, "sx", 0, face(dir), "")
	for l := 0; l < int(laps); l++ {
		t0 := start + float64(l)*lap
		// Slides add up: each crosses from where the last one left it.
		c.motion(f, scene.Motion{Type: scene.MotionSlide, Start: t0, End: t0 + lap, ToX: round3(2 * R * dir), Ease: "easeInOutSine"})
		if l < int(laps)-1 {
			turn := t0 + lap
			key(sx, "sx", turn-0.15, face(dir), "")
			key(sx, "sx", turn+0.15, face(-dir), "easeInOutSine")
		}
		dir = -dir
	}
	c.motion(f, scene.Motion{Type: scene.MotionFloat, Start: start, End: end, Amp: round3(0.06 * c.yUnits(place.Size)), Count: laps})
}

// goldfishColor is a goldfish's orange.
const goldfishColor = "#ff8a1c"

// goldfish paints a fish drawing orange, as a goldfish is: the drawing itself when its
// body takes the tint, else the library's plain fish (a tropical fish's tint would
// paint only its stripes and leave it blue, lost in the water).
func goldfish(id string) (string, string) {
	for _, cand := range []string{id, "fluent:fish"} {
		a, ok := assets.Default().Get(cand)
		if !ok {
			continue
		}
		main, _ := a.MainColor()
		if m, ok := a.Tint(goldfishColor); ok && m[main] != "" {
			return cand, goldfishColor
		}
	}
	return id, ""
}

// turnsItself: the element's sx track already turns it to face its way (a swimmer
// that crosses its water both ways), so no single mirroring applies.
func turnsItself(e *scene.Element) bool {
	kfs := e.Tracks["sx"]
	for k := 1; k < len(kfs); k++ {
		if kfs[k].V*kfs[k-1].V < 0 {
			return true
		}
	}
	return false
}
