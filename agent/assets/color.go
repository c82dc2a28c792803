package assets

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

var (
	shapeRE  = regexp.MustCompile(`<(path|circle|ellipse|rect)\b([^>]*)>`)
	attrRE   = regexp.MustCompile(`\b([a-z]+)="([^"]*)"`)
	numberRE = regexp.MustCompile(`[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?`)
	cmdRE    = regexp.MustCompile(`[MmLlHhVvCcSsQqTtAaZz][^MmLlHhVvCcSsQqTtAaZz]*`)
)

// MainColor is the colour covering most of an illustration (its body's colour: the red
// of the automobile, the yellow of the sailboat's sail), as "#rrggbb", judged by the
// bounding boxes of its filled shapes; grey, black and white only when nothing else is
// there. False for line icons and drawings filled by gradients only.
func (a *Asset) MainColor() (string, bool) {
	if a.Stroke {
		return "", false
	}
	area := a.colorAreas()
	best, bestA, grey, greyA := "", 0.0, "", 0.0
	for c, ar := range area {
		_, s, l := hsl(c)
		if s >= 0.3 && l > 0.12 && l < 0.9 {
			if ar > bestA || (ar == bestA && c < best) {
				best, bestA = c, ar
			}
		} else if ar > greyA || (ar == greyA && c < grey) {
			grey, greyA = c, ar
		}
	}
	if best != "" {
		return best, true
	}
	return grey, grey != ""
}

// colorAreas is how much of the drawing each fill colour covers ("#rrggbb" → the summed
// areas of its shapes' boxes).
func (a *Asset) colorAreas() map[string]float64 {
	area := map[string]float64{}
	for _, m := range shapeRE.FindAllStringSubmatch(a.body, -1) {
		attrs := map[string]string{}
		for _, kv := range attrRE.FindAllStringSubmatch(m[2], -1) {
			attrs[kv[1]] = kv[2]
		}
		fill := fullHex(attrs["fill"])
		if fill == "" {
			continue
		}
		f := func(k string) float64 { v, _ := strconv.ParseFloat(attrs[k], 64); return v }
		switch m[1] {
		case "path":
			area[fill] += pathArea(attrs["d"])
		case "circle":
			area[fill] += 4 * f("r") * f("r")
		case "ellipse":
			area[fill] += 4 * f("rx") * f("ry")
		case "rect":
			area[fill] += f("width") * f("height")
		}
	}
	return area
}

// fullHex is a fill's colour as lower-case "#rrggbb", "" when it is none ("none", a
// gradient's url(), a name).
func fullHex(fill string) string {
	fill = strings.ToLower(fill)
	if len(fill) == 4 && fill[0] == '#' {
		fill = "#" + string([]byte{fill[1], fill[1], fill[2], fill[2], fill[3], fill[3]})
	}
	if len(fill) != 7 || fill[0] != '#' {
		return ""
	}
	if _, err := strconv.ParseUint(fill[1:], 16, 32); err != nil {
		return ""
	}
	return fill
}

// pathArea is a cheap measure of how much of the drawing a path covers: the summed
// areas of the boxes around each of its subpaths' points and control points (a bus's
// four windows are four small boxes, not one as wide as the bus).
func pathArea(d string) float64 {
	total := 0.0
	for _, b := range pathBoxes(d) {
		total += (b[2] - b[0]) * (b[3] - b[1])
	}
	return total
}

// pathBox is the width and height of the box around a path's points and control
// points.
func pathBox(d string) (float64, float64) {
	bs := pathBoxes(d)
	if len(bs) == 0 {
		return 0, 0
	}
	u := bs[0]
	for _, b := range bs[1:] {
		u = [4]float64{math.Min(u[0], b[0]), math.Min(u[1], b[1]), math.Max(u[2], b[2]), math.Max(u[3], b[3])}
	}
	return u[2] - u[0], u[3] - u[1]
}

// pathBoxes are the boxes (x0, y0, x1, y1) around each subpath's points and control
// points.
func pathBoxes(d string) [][4]float64 {
	var out [][4]float64
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	flush := func() {
		if !math.IsInf(minX, 0) {
			out = append(out, [4]float64{minX, minY, maxX, maxY})
		}
		minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	}
	var x, y, sx, sy float64
	add := func(px, py float64) {
		minX, maxX = math.Min(minX, px), math.Max(maxX, px)
		minY, maxY = math.Min(minY, py), math.Max(maxY, py)
	}
	for _, seg := range cmdRE.FindAllString(d, -1) {
		c := seg[0]
		if c|0x20 == 'm' {
			flush() // a new subpath
		}
		var n []float64
		for _, s := range numberRE.FindAllString(seg[1:], -1) {
			v, _ := strconv.ParseFloat(s, 64)
			n = append(n, v)
		}
		rel := c >= 'a'
		ox, oy := 0.0, 0.0
		if rel {
			ox, oy = x, y
		}
		switch c | 0x20 {
		case 'z':
			x, y = sx, sy
		case 'h':
			for _, v := range n {
				if rel {
					x += v
				} else {
					x = v
				}
				add(x, y)
			}
		case 'v':
			for _, v := range n {
				if rel {
					y += v
				} else {
					y = v
				}
				add(x, y)
			}
		case 'a':
			for i := 0; i+7 <= len(n); i += 7 {
				x0, y0 := x, y
				if rel {
					x, y = x+n[i+5], y+n[i+6]
				} else {
					x, y = n[i+5], n[i+6]
				}
				// The arc bulges up to its radii from the chord's middle.
				mx, my, rx, ry := (x0+x)/2, (y0+y)/2, math.Abs(n[i]), math.Abs(n[i+1])
				add(mx-rx, my-ry)
				add(mx+rx, my+ry)
				add(x, y)
			}
		default:
			// Pairs: the last pair of each group is the new point (M, L, T: groups of
			// 1; Q, S: 2; C: 3); every pair is a point or a control point.
			k := map[byte]int{'m': 1, 'l': 1, 't': 1, 'q': 2, 's': 2, 'c': 3}[c|0x20]
			if k == 0 {
				continue
			}
			for i := 0; i+2*k <= len(n); i += 2 * k {
				for j := 0; j < k; j++ {
					add(ox+n[i+2*j], oy+n[i+2*j+1])
				}
				x, y = ox+n[i+2*k-2], oy+n[i+2*k-1]
				if rel {
					ox, oy = x, y
				}
				if c|0x20 == 'm' && i == 0 {
					sx, sy = x, y
				}
			}
		}
	}
	flush()
	return out
}

// hsl returns a #rrggbb colour's hue (degrees), saturation and lightness (0..1).
func hsl(hex string) (float64, float64, float64) {
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil || len(hex) != 7 {
		return 0, 0, 0
	}
	r, g, b := float64(v>>16&0xff)/255, float64(v>>8&0xff)/255, float64(v&0xff)/255
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	l := (mx + mn) / 2
	if mx == mn {
		return 0, 0, l
	}
	d := mx - mn
	s := d / (1 - math.Abs(2*l-1))
	var h float64
	switch mx {
	case r:
		h = math.Mod((g-b)/d, 6)
	case g:
		h = (b-r)/d + 2
	default:
		h = (r-g)/d + 4
	}
	h *= 60
	if h < 0 {
		h += 360
	}
	return h, s, l
}

// HueShift is the rotation, in degrees, that turns the illustration's main colour
// towards want ("a blue car" from the red one); false when no turn is needed or none
// can give it (a grey or black request, a line icon, hues already within 25°).
func (a *Asset) HueShift(want string) (float64, bool) {
	main, ok := a.MainColor()
	if !ok {
		return 0, false
	}
	wh, ws, wl := hsl(strings.ToLower(want))
	mh, ms, _ := hsl(main)
	if ws < 0.3 || wl < 0.12 || wl > 0.9 || ms < 0.3 {
		return 0, false
	}
	d := math.Mod(wh-mh+540, 360) - 180
	if math.Abs(d) < 25 {
		return 0, false
	}
	return math.Round(d), true
}

// Thresholds of Tint: a part within sameHue degrees (and sameLight lightness) of the
// asked colour already is that colour (a gold key asked gold); a colour covering
// prominentShare of the main colour's area is a part big enough to carry the request
// (a doughnut's icing); the part's shades are the fills within shadeHue degrees and
// shadeLight lightness of it (a cone's light and dark sides).
const (
	sameHue        = 8.0
	sameLight      = 0.15
	prominentShare = 0.5
	shadeHue       = 20.0
	shadeLight     = 0.2
)

// Tint is how the illustration is painted want ("a yellow bus", "a pink doughnut"):
// its main part's fills, each taken to want's hue with its shading kept (a darker side
// stays darker), as a map from the drawing's colours to the new ones. The part painted
// is the prominent colour nearest the request: the bus's orange body for yellow, the
// doughnut's chocolate icing for pink (not the dough). False when the drawing needs no
// change or cannot take one: a line icon, a grey, black or white request, a part of
// that colour already.
func (a *Asset) Tint(want string) (map[string]string, bool) {
	if a.Stroke {
		return nil, false
	}
	wh, ws, wl := hsl(strings.ToLower(want))
	areas := a.colorAreas()
	if ws < 0.3 && wl >= 0.25 && wl <= 0.8 {
		if m, ok := greyed(areas, wh, ws, wl); ok {
			return m, true
		}
	}
	vivid := func(c string) bool { _, s, l := hsl(c); return s >= 0.3 && l > 0.12 && l < 0.9 }
	if ws < 0.12 || wl < 0.12 || wl > 0.9 {
		// Black, white or grey ("a black cat", "a white car"): the main part loses its
		// hue and takes the asked lightness, its shading kept below or above it.
		return neutral(areas, vivid, ws, wl)
	}
	if ws < 0.3 {
		return nil, false // a muted colour (brown, beige): the drawing keeps its own paint
	}
	main, mainA := largest(areas, vivid)
	if main == "" {
		return nil, false
	}
	part, near := main, hueDist(hueOf(main), wh)
	for c, ar := range areas {
		if d := hueDist(hueOf(c), wh); vivid(c) && ar >= prominentShare*mainA && (d < near || d == near && c < part) {
			part, near = c, d
		}
	}
	ph, ps, pl := hsl(part)
	if near <= sameHue && math.Abs(pl-wl) <= sameLight {
		return nil, false
	}
	out := map[string]string{}
	for c := range areas {
		h, s, l := hsl(c)
		if !vivid(c) || hueDist(h, ph) > shadeHue || math.Abs(l-pl) > shadeLight {
			continue
		}
		out[c] = hexHSL(wh, math.Min(1, ws*s/ps), math.Max(0.05, math.Min(0.95, wl+l-pl)))
	}
	return out, true
}

// largest is the colour covering most of the drawing among those keep accepts, with its
// area ("" when none); ties go to the smaller hex, so the choice never varies.
func largest(areas map[string]float64, keep func(string) bool) (string, float64) {
	best, bestA := "", 0.0
	for c, ar := range areas {
		if keep(c) && (ar > bestA || ar == bestA && c < best) {
			best, bestA = c, ar
		}
	}
	return best, bestA
}

// neutral paints the main coloured part of a drawing black, white or grey, keeping
// each fill's distance in lightness from the part's own, so its shading still reads.
// False for a drawing without a coloured part (a white cloud asked white).
func neutral(areas map[string]float64, vivid func(string) bool, ws, wl float64) (map[string]string, bool) {
	main, _ := largest(areas, vivid)
	if main == "" {
		return nil, false
	}
	ph, _, pl := hsl(main)
	// Black is drawn as a very dark grey and white as a very light one: a true black
	// or white part would lose the shading that shows its form.
	target := math.Max(0.13, math.Min(0.92, wl))
	out := map[string]string{}
	for c := range areas {
		h, _, l := hsl(c)
		if !vivid(c) || hueDist(h, ph) > shadeHue || math.Abs(l-pl) > shadeLight {
			continue
		}
		out[c] = hexHSL(ph, math.Min(ws, 0.08), math.Max(0.04, math.Min(0.97, target+(l-pl)*0.8)))
	}
	return out, len(out) > 0
}

// greyed paints a pale drawing a grey ("a grey cloud" of a white one): its lightest
// fill becomes the grey and the others keep their distance below it (the shading).
// False for a drawing with colour in it (a grey car keeps its own paint).
func greyed(areas map[string]float64, wh, ws, wl float64) (map[string]string, bool) {
	top := 0.0
	for c := range areas {
		_, s, l := hsl(c)
		if s >= 0.3 && l <= 0.85 {
			return nil, false
		}
		top = math.Max(top, l)
	}
	if top < 0.75 {
		return nil, false
	}
	out := map[string]string{}
	for c := range areas {
		_, _, l := hsl(c)
		out[c] = hexHSL(wh, ws, math.Max(0.05, wl+l-top))
	}
	return out, len(out) > 0
}

// TintedSVG is the asset's SVG document painted want (see Tint); false when Tint is.
func (a *Asset) TintedSVG(want string) ([]byte, bool) {
	m, ok := a.Tint(want)
	if !ok {
		return nil, false
	}
	svg := fillRE.ReplaceAllStringFunc(string(a.SVG()), func(attr string) string {
		k := strings.Index(attr, `"`)
		if to, ok := m[fullHex(attr[k+1:len(attr)-1])]; ok {
			return attr[:k+1] + to + `"`
		}
		return attr
	})
	return []byte(svg), true
}

var fillRE = regexp.MustCompile(`\b(?:fill|stop-color)="#[0-9a-fA-F]{3,6}"`)

func hueOf(hex string) float64 { h, _, _ := hsl(hex); return h }

// hueDist is the angle between two hues, 0..180.
func hueDist(a, b float64) float64 { return math.Abs(math.Mod(a-b+540, 360) - 180) }

// hexHSL is the "#rrggbb" of a hue (degrees), saturation and lightness (0..1).
func hexHSL(h, s, l float64) string {
	c := (1 - math.Abs(2*l-1)) * s
	hp := math.Mod(h, 360) / 60
	x := c * (1 - math.Abs(math.Mod(hp, 2)-1))
	var r, g, b float64
	switch {
	case hp < 1:
		r, g = c, x
	case hp < 2:
		r, g = x, c
	case hp < 3:
		g, b = c, x
	case hp < 4:
		g, b = x, c
	case hp < 5:
		r, b = x, c
	default:
		r, b = c, x
	}
	m := l - c/2
	to := func(v float64) int { return int(math.Round(math.Max(0, math.Min(1, v+m)) * 255)) }
	return fmt.Sprintf("#%02x%02x%02x", to(r), to(g), to(b))
}

// TintFile is where a scene's asset painted a colour is written in a project:
// assets/lib/<set>/<name>-<rrggbb>.svg (the runtime builds the same path).
func TintFile(id, color string) string {
	f := File(id)
	return strings.TrimSuffix(f, ".svg") + "-" + strings.TrimPrefix(strings.ToLower(color), "#") + ".svg"
}
