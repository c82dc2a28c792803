package assets

import (
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
	area := map[string]float64{}
	for _, m := range shapeRE.FindAllStringSubmatch(a.body, -1) {
		attrs := map[string]string{}
		for _, kv := range attrRE.FindAllStringSubmatch(m[2], -1) {
			attrs[kv[1]] = kv[2]
		}
		fill := strings.ToLower(attrs["fill"])
		if len(fill) == 4 && fill[0] == '#' {
			fill = "#" + string([]byte{fill[1], fill[1], fill[2], fill[2], fill[3], fill[3]})
		}
		if len(fill) != 7 || fill[0] != '#' {
			continue
		}
		f := func(k string) float64 { v, _ := strconv.ParseFloat(attrs[k], 64); return v }
		var w, h float64
		switch m[1] {
		case "path":
			w, h = pathBox(attrs["d"])
		case "circle":
			w, h = 2*f("r"), 2*f("r")
		case "ellipse":
			w, h = 2*f("rx"), 2*f("ry")
		case "rect":
			w, h = f("width"), f("height")
		}
		area[fill] += w * h
	}
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

// pathBox is the width and height of the box around a path's points and control
// points: a cheap measure of how much of the drawing the path covers.
func pathBox(d string) (float64, float64) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	var x, y, sx, sy float64
	add := func(px, py float64) {
		minX, maxX = math.Min(minX, px), math.Max(maxX, px)
		minY, maxY = math.Min(minY, py), math.Max(maxY, py)
	}
	for _, seg := range cmdRE.FindAllString(d, -1) {
		c := seg[0]
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
	if math.IsInf(minX, 0) {
		return 0, 0
	}
	return maxX - minX, maxY - minY
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
