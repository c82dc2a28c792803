package builtin

import (
	"fmt"
	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/kodahq/koda"
)

// palette is the colours of a plan. It is written into the first scene's description
// ("Palette: …") so a revised plan and the generated code read the same colours.
type palette struct {
	Subjects   []string // per brief subject
	Background [2]string
	Text       string
	Glow       string
}

type bgSet struct {
	colors [2]string
	text   string
	glow   string
}

var backgrounds = map[koda.Style][]bgSet{
	koda.StylePlayful: {
		{[2]string{"#8ec5ff", "#e0c3fc"}, "#1f1147", "#ffffff"},
		{[2]string{"#fff1a8", "#ffc3a0"}, "#3b1d0f", "#ffffff"},
		{[2]string{"#a8f0c6", "#8fd3f4"}, "#0b3142", "#ffffff"},
		{[2]string{"#2b1055", "#7597de"}, "#ffffff", "#ffd6ff"},
	},
	koda.StyleSmooth: {
		{[2]string{"#f8fafc", "#dbe4f0"}, "#0f172a", ""},
		{[2]string{"#0f172a", "#1e293b"}, "#f8fafc", "#334155"},
		{[2]string{"#eef2ff", "#c7d2fe"}, "#1e1b4b", ""},
	},
	koda.StyleCinematic: {
		{[2]string{"#05070f", "#1b2240"}, "#ffffff", ""},
		{[2]string{"#0b0b0b", "#3a1c0e"}, "#fff7e6", ""},
		{[2]string{"#020617", "#2e1065"}, "#ffffff", ""},
	},
}

var defaultSubjectColors = map[koda.Style][]string{
	koda.StylePlayful:   {"#ff5a5f", "#ffb400", "#00a699", "#7b61ff"},
	koda.StyleSmooth:    {"#6366f1", "#0ea5e9", "#14b8a6", "#f43f5e"},
	koda.StyleCinematic: {"#f5c518", "#e2e8f0", "#ef4444", "#38bdf8"},
}

func rgbOf(hex string) (float64, float64, float64) {
	hex = strings.TrimPrefix(normalizeHex(hex), "#")
	v, _ := strconv.ParseUint(hex, 16, 32)
	return float64(v >> 16 & 255), float64(v >> 8 & 255), float64(v & 255)
}

func colorDist(a, b string) float64 {
	r1, g1, b1 := rgbOf(a)
	r2, g2, b2 := rgbOf(b)
	return math.Sqrt((r1-r2)*(r1-r2) + (g1-g2)*(g1-g2) + (b1-b2)*(b1-b2))
}

func luminance(hex string) float64 {
	r, g, b := rgbOf(hex)
	return (0.2126*r + 0.7152*g + 0.0722*b) / 255
}

func mix(a, b string) string {
	r1, g1, b1 := rgbOf(a)
	r2, g2, b2 := rgbOf(b)
	return fmt.Sprintf("#%02x%02x%02x", int((r1+r2)/2), int((g1+g2)/2), int((b1+b2)/2))
}

// lighten mixes a colour towards white by k.
func lighten(hex string, k float64) string {
	r, g, b := rgbOf(hex)
	return fmt.Sprintf("#%02x%02x%02x", int(r+(255-r)*k), int(g+(255-g)*k), int(b+(255-b)*k))
}

// backgroundPair is the gradient for a requested background: the two colours asked for,
// or the colour and a shade of it, lighter for very dark colours so black still has depth.
func backgroundPair(c, c2 string) [2]string {
	switch {
	case c2 != "":
		return [2]string{c, c2}
	case luminance(c) < 0.15:
		return [2]string{c, lighten(c, 0.16)}
	case luminance(c) > 0.8:
		// Cream, white, paper: a light colour keeps its character, only a touch deeper.
		return [2]string{c, darken(c, 0.07)}
	}
	return [2]string{c, darken(c, 0.35)}
}

// contrast is the WCAG contrast ratio of two colours (1..21).
func contrast(a, b string) float64 {
	la, lb := relLum(a), relLum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func relLum(hex string) float64 {
	r, g, b := rgbOf(hex)
	lin := func(c float64) float64 {
		c /= 255
		if c <= 0.03928 {
			return c / 12.92
		}
		return math.Pow((c+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

func darken(hex string, k float64) string {
	r, g, b := rgbOf(hex)
	return fmt.Sprintf("#%02x%02x%02x", int(r*(1-k)), int(g*(1-k)), int(b*(1-k)))
}

// choosePalette keeps every requested colour and picks the rest so subjects stand out:
// the background set farthest from the subjects' colours, text that contrasts with it.
func choosePalette(b *brief, style koda.Style) palette {
	var p palette
	defaults := b.defaultColors(defaultSubjectColors[style])
	if kit := kitColors(b); len(kit) > 0 {
		defaults = kit // a brand kit's colours, never the style's
	}
	for i, s := range b.Subjects {
		c := s.Color
		if c == "" {
			c = defaults[i%len(defaults)]
			if s.Kind == "particles" {
				c = "#ffffff"
				if s.Variant == "stars" || s.Variant == "snow" {
					c = "#fff8e1"
				}
				if s.Variant == "rain" {
					c = "#9ecbff"
				}
			}
		}
		p.Subjects = append(p.Subjects, c)
	}
	if b.Background != "" {
		p.Background = backgroundPair(b.Background, b.Background2)
		p.Text = "#ffffff"
		if luminance(mix(p.Background[0], p.Background[1])) > 0.55 {
			p.Text = "#111827"
		}
		// A requested backdrop still gets a soft light, so it never reads as a flat
		// (blank-looking) frame before the subjects arrive.
		p.Glow = lighten(mix(p.Background[0], p.Background[1]), 0.35)
	} else {
		sets := backgrounds[style]
		best, bestScore := sets[0], -1.0
		for _, set := range sets {
			mid := mix(set.colors[0], set.colors[1])
			score := 1000.0
			for i, c := range p.Subjects {
				if b.Subjects[i].Kind == "particles" {
					if v := b.Subjects[i].Variant; v == "stars" || v == "snow" || v == "sparkles" || v == "rain" || v == "" {
						// Stars, snow and sparkles glow on dark skies.
						score = math.Min(score, (1-luminance(mid))*400)
					}
					continue
				}
				score = math.Min(score, colorDist(drawnColor(b.Subjects[i], c), mid))
			}
			if b.TextColor == "" && len(b.Texts) > 0 {
				// The set's own text colour must read on it when there are words to show.
				if c := math.Min(contrast(set.text, set.colors[0]), contrast(set.text, set.colors[1])); c < 3 {
					score = math.Min(score, (c-1)*60)
				}
			}
			if b.TextColor != "" {
				// Text must be read: score its luminance contrast, not its hue distance
				// (red on purple is far in RGB and still unreadable).
				c := math.Min(contrast(b.TextColor, set.colors[0]), contrast(b.TextColor, set.colors[1]))
				if c < 3 {
					// Unreadable (below WCAG's 3:1 for large text) loses to any readable set.
					score = c - 1000
				} else {
					score = math.Min(score, (c-1)*60)
				}
			}
			if score > bestScore+20 { // keep the first (signature) set unless another is clearly better
				best, bestScore = set, score
			}
		}
		p.Background, p.Text, p.Glow = best.colors, best.text, best.glow
		if bestScore < 0 {
			// No styled backdrop lets the requested text colour read: fall back to the
			// neutral (near-white or near-black) that contrasts with it most.
			light, dark := [2]string{"#ffffff", "#eef2f7"}, [2]string{"#0b1020", "#1e293b"}
			p.Background, p.Glow = dark, ""
			if contrast(b.TextColor, light[1]) > contrast(b.TextColor, dark[1]) {
				p.Background = light
			}
		}
	}
	if b.TextColor != "" {
		p.Text = b.TextColor
		if b.Background != "" {
			// "White on sage green": both asked, so the words keep their colour and the
			// backdrop keeps its hue, a shade deeper (or paler) until the words read.
			reads := func() bool {
				return math.Min(contrast(p.Text, p.Background[0]), contrast(p.Text, p.Background[1])) >= 4.5
			}
			// The backdrop moves away from the words: a darker one deeper ("purple on
			// black" stays black), a paler one paler.
			bgLum := luminance(mix(p.Background[0], p.Background[1]))
			shift, room := darken, bgLum > 0.08
			if luminance(p.Text) < bgLum {
				shift, room = lighten, bgLum < 0.8
			}
			for k := 0; k < 10 && room && !reads(); k++ {
				p.Background = [2]string{shift(p.Background[0], 0.1), shift(p.Background[1], 0.1)}
			}
			if !reads() {
				// A backdrop already as pale (or dark) as it goes ("blue on white"): the
				// words take a deeper shade of their colour instead.
				p.Text = readableOn(p.Text, mix(p.Background[0], p.Background[1]))
			}
		}
	}
	if luminance(mix(p.Background[0], p.Background[1])) > 0.7 {
		// White particles vanish on a light backdrop: they take the subjects' colours.
		for i, s := range b.Subjects {
			if s.Kind == "particles" && s.Color == "" {
				p.Subjects[i] = defaults[i%len(defaults)]
			}
		}
	}
	if style == koda.StyleCinematic && len(p.Subjects) > 0 && b.Background == "" {
		p.Glow = p.Subjects[0]
	}
	return p
}

// drawnColor is the colour a subject shows: a library illustration its own main colour
// (a gold key, a gold lock, whatever colour the palette gives them), or the one it is
// painted; any other subject c.
func drawnColor(s subject, c string) string {
	if s.Kind != scene.TypeAsset {
		return c
	}
	a, ok := assets.Default().Get(s.Asset)
	if !ok || a.Stroke {
		return c
	}
	if s.Color != "" {
		if _, ok := a.Tint(s.Color); ok {
			return s.Color
		}
	}
	if m, ok := a.MainColor(); ok {
		return m
	}
	return c
}

func (p palette) subjectColor(b *brief, i int) string {
	if i < len(p.Subjects) {
		return p.Subjects[i]
	}
	return ""
}

// String is the "Palette: …" sentence of the first scene's description.
func (p palette) String(b *brief) string {
	var parts []string
	for i, c := range p.Subjects {
		if i < len(b.Subjects) {
			parts = append(parts, fmt.Sprintf("%s %s", b.Subjects[i].Noun, c))
		}
	}
	parts = append(parts, fmt.Sprintf("background %s → %s", p.Background[0], p.Background[1]))
	parts = append(parts, "text "+p.Text)
	if p.Glow != "" {
		parts = append(parts, "glow "+p.Glow)
	}
	return "Palette: " + strings.Join(parts, "; ") + "."
}

var paletteRE = regexp.MustCompile(`Palette: ([^\n]*?)\.(?:\s|$)`)
var paletteItemRE = regexp.MustCompile(`^([a-z][a-z' -]*?) (#[0-9a-f]{6})(?: → (#[0-9a-f]{6}))?$`)

// parsePalette reads the palette back from a plan; ok is false when there is none.
func parsePalette(desc string, b *brief) (palette, bool) {
	m := paletteRE.FindStringSubmatch(desc)
	if m == nil {
		return palette{}, false
	}
	p := choosePalette(b, koda.StyleSmooth)
	found := false
	for _, item := range strings.Split(m[1], "; ") {
		im := paletteItemRE.FindStringSubmatch(strings.TrimSpace(item))
		if im == nil {
			continue
		}
		found = true
		switch im[1] {
		case "background":
			p.Background = [2]string{im[2], orDefault(im[3], darken(im[2], 0.35))}
		case "text":
			p.Text = im[2]
		case "glow":
			p.Glow = im[2]
		default:
			for i, s := range b.Subjects {
				if s.Noun == im[1] {
					p.Subjects[i] = im[2]
				}
			}
		}
	}
	if !strings.Contains(m[1], "glow ") {
		p.Glow = ""
	}
	return p, found
}

// kitColors are the colours a brand kit gives every uncoloured subject and layout
// accent, in turn: the primary, the secondary, then lighter and deeper steps of them,
// so a scene with more subjects than the kit has colours stays within the brand. nil
// when the brief has no kit colours, or the prompt chose its own ("in pastels", "all
// in gold").
func kitColors(b *brief) []string {
	if len(b.BrandColors) == 0 || b.Ink != "" {
		return nil
	}
	if _, ok := namedPalettes[b.PaletteName]; ok {
		return nil
	}
	out := append([]string(nil), b.BrandColors...)
	for _, k := range []float64{0.3, -0.3} {
		for _, c := range b.BrandColors {
			if k > 0 {
				out = append(out, lighten(c, k))
			} else {
				out = append(out, darken(c, -k))
			}
		}
	}
	return out
}

// layoutColors are the accent and panel colour a genre layout draws with (genreFill:
// accent, panel). The accent is the prompt's own colour, else the kit's primary, else
// the style's first. The panel (cards, tiles, bars) is white on dark backdrops and
// slate on light ones; with a brand kit it is a step of the backdrop itself (lighter on
// a dark one, deeper on a light one), taken only as far as the palette's text still
// reads on it (WCAG 4.5:1, the critic's rule), so the kit's text colour is the cards'.
func layoutColors(b *brief, p palette, style koda.Style) (accent, panel string) {
	accent = b.Accent
	if accent == "" {
		accent = firstColor(b)
	}
	kit := kitColors(b)
	if accent == "" && len(kit) > 0 {
		accent = kit[0]
	}
	if accent == "" {
		accent = defaultSubjectColors[style][0]
	}
	panel = "#ffffff"
	if luminance(p.Background[0]) > 0.6 {
		panel = "#1f2937"
	}
	if len(kit) == 0 || p.Text == "" {
		return accent, panel
	}
	bg := p.Background[0]
	step := lighten
	if luminance(bg) > 0.5 {
		step = darken
	}
	for _, k := range []float64{0.16, 0.12, 0.08, 0.05} {
		if c := step(bg, k); contrast(p.Text, c) >= 4.5 {
			return accent, c
		}
	}
	if contrast(p.Text, bg) >= 4.5 {
		return accent, bg
	}
	return accent, panel
}

// styleColors are the colours the composer gives what the prompt does not colour (a
// shape standing in for nothing named, a text-only video's accents, a second
// speaker): the brand kit's (kitColors), else the style's own.
func (c *composer) styleColors() []string {
	if kit := kitColors(c.b); len(kit) > 0 {
		return kit
	}
	return defaultSubjectColors[c.bd.Base]
}
