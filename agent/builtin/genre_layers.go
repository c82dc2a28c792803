package builtin

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// Layers: a diagram of stacked layers with their ranges — the atmosphere's, the ocean's
// zones, soil horizons, rock strata — bands one above the other, each named with its
// range and what is in it, coming in one by one from the ground up (or from the surface
// down), with a scale of the ranges' edges at the side.

// stratum is one layer: its name, its range as written ("0–12 km") and the range's
// numbers, and what the prompt says is in it ("clouds, a plane").
type stratum struct {
	Name, Range, Note string
	From, To          float64 // To is From for an open range ("700 km+")
	FromText          string  // the range's start as written ("1,000")
	Unit              string
}

var (
	// stratumRE: a capitalised name (up to three words, "Midnight zone") followed by a
	// range with a unit, in brackets or not, and what is in it in brackets after.
	stratumRE = regexp.MustCompile(`\b([A-Z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*){0,2}?)\s*[:—–-]?\s*\(?\s*(\d[\d,.]*)\s*(?:(?:[–-]|to)\s*(\d[\d,.]*))?\s*(km|m|mi|ft|cm|mm|metres|meters|miles|feet)\b\s*(\+)?\s*\)?(?:\s*\(([^)]{1,60})\))?`)
	// depthWordsRE and heightWordsRE say which way the layers go: down from a surface
	// (the sea, the soil) or up from the ground (the sky).
	depthWordsRE  = regexp.MustCompile(`\b(?:deep|depths?|below|beneath|underground|under the|ocean|sea|soil|crust|dive|dives|descend\w*|sinks?|down to|top to bottom|surface down)\b`)
	heightWordsRE = regexp.MustCompile(`\b(?:atmosphere|altitude|sky|above|ground up|bottom to top|height|high|up to|climbs?|rises?)\b`)
)

// strata reads the prompt's layers, in the order written; nil when fewer than three.
func strata(prompt string) []stratum {
	var out []stratum
	for _, m := range stratumRE.FindAllStringSubmatch(prompt, -1) {
		from, err := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
		if err != nil {
			continue
		}
		to := from
		if m[3] != "" {
			if v, err := strconv.ParseFloat(strings.ReplaceAll(m[3], ",", ""), 64); err == nil {
				to = v
			}
		}
		rng := m[2] + "–" + m[3] + " " + m[4]
		switch {
		case m[3] == "" && m[5] != "":
			rng = m[2] + " " + m[4] + "+"
		case m[3] == "":
			rng = m[2] + " " + m[4]
		}
		out = append(out, stratum{Name: m[1], Range: rng, From: from, To: to, FromText: m[2], Unit: m[4], Note: strings.TrimSpace(m[6])})
	}
	if len(out) < 3 {
		return nil
	}
	return out
}

// upward: the layers are stacked from the ground up (the sky's), not down from a
// surface (the sea's): the prompt's words of height outnumber those of depth.
func upward(low string) bool {
	return len(heightWordsRE.FindAllString(low, -1)) > len(depthWordsRE.FindAllString(low, -1))
}

func (g *genreFill) layers() {
	ls := strata(g.prompt)
	if len(ls) > 7 {
		ls = ls[:7]
	}
	n := len(ls)
	up := upward(g.low)
	title := g.quote("")
	// The strip, in frame units: most of the frame's height, a scale's column on its
	// left. xu and yu turn sizes (fractions of the frame's shorter side) into them.
	xu, yu := g.c.xUnits(1), g.c.yUnits(1)
	H, W, scaleW := 1.56, 1.2, 0.22
	switch {
	case g.c.tall():
		H, W, scaleW = 1.4, 1.4, 0.4
	case g.c.square():
		H, W, scaleW = 1.5, 1.3, 0.3
	}
	if title != "" {
		H -= 0.2
	}
	cx := scaleW / 2
	bandH := H / float64(n)
	top := -H / 2
	if title != "" {
		top += 0.1
	}
	// Light near the ground or the surface, darker the farther away: the sky darkens
	// towards space, the sea towards the deep.
	near, far := "#93c5fd", "#1e1b4b"
	if !up {
		near, far = "#38bdf8", "#0b1226"
	}
	if cs := g.b.Colors; len(cs) >= 2 {
		near, far = cs[0], cs[1]
	}
	// Words fit the band: its height and the room the name and range share.
	nameSize := math.Min(0.05, bandH/yu*0.34)
	// One size for every layer's words, the longest fitting its band.
	size := nameSize
	for _, l := range ls {
		size = math.Min(size, fitBold(l.Name+l.Range+"    ", W/xu*0.9, nameSize))
	}
	var parts []*scene.Element
	for k, l := range ls {
		// Row r from the top of the strip: the first layer at the bottom when they go up.
		r := k
		if up {
			r = n - 1 - k
		}
		y := top + bandH*(float64(r)+0.5)
		col := readable(mixHex(near, far, float64(k)/float64(max(n-1, 1))))
		hS, wS := bandH/yu*0.97, W/xu
		band := g.add(&scene.Element{ID: g.id("layer"), Type: scene.TypeRect, Label: l.Name,
			X: round3(cx), Y: round3(y), Size: round3(hS / 2), Aspect: round3(wS / hS), Color: col})
		at := g.stagger(k, n)
		// From the side: a band sliding up or down would pass over its neighbour.
		g.enter(band, "left", at, 0.6)
		ink := inkOn(col)
		left, right := cx-W/2+0.04, cx+W/2-0.04
		nameY := y
		if l.Note != "" && bandH/yu > 0.16 {
			nameY = y - bandH*0.14
			note := g.alignedText(l.Note, left, y+bandH*0.16, size*0.66, ink, 500, -1)
			note.In = band.ID
			g.enter(note, "fade", at+0.4, 0.4)
			parts = append(parts, note)
		}
		name := g.alignedText(l.Name, left, nameY, size, ink, 800, -1)
		name.In = band.ID
		g.enter(name, "fade", at+0.2, 0.4)
		rng := g.alignedText(l.Range, right, nameY, size*0.85, ink, 600, 1)
		rng.In = band.ID
		g.enter(rng, "fade", at+0.3, 0.4)
		parts = append(parts, band, name, rng)
		// The scale: the layer's near edge, left of the strip, level with it.
		edge := y + bandH/2
		if !up {
			edge = y - bandH/2
		}
		tick := g.alignedText(l.FromText+" "+l.Unit, cx-W/2-0.03, edge, math.Min(size*0.8, 0.036), g.ink, 600, 1)
		g.enter(tick, "fade", at+0.2, 0.4)
		parts = append(parts, tick)
	}
	if title != "" {
		parts = append(parts, g.headline(title, -0.86, -0.84, 0.05))
	}
	g.leave(parts...)
}

// alignedText is a line of words whose left (side -1) or right (side 1) end is at x,
// measured as the critic measures bold words.
func (g *genreFill) alignedText(s string, x, y, size float64, color string, weight int, side float64) *scene.Element {
	half := g.c.xUnits(0.66*float64(len([]rune(s)))*size) / 2
	return g.text(s, x-side*half, y, size, color, weight)
}
