package builtin

import (
	"math"
	"strconv"

	"github.com/kodahq/koda/agent/scene"
	"regexp"
	"strings"
)

// Scene words: what a prompt says about the whole picture rather than its subjects —
// colour pairs ("black on cream"), named backgrounds ("night sky", "sunset"), palettes
// ("pastel", "neon") and positions ("across the bottom").

// colorModifiers change the shade of the colour word they precede ("dark navy").
var colorModifiers = map[string]func(string) string{
	"dark":   func(c string) string { return darken(c, 0.45) },
	"deep":   func(c string) string { return darken(c, 0.25) },
	"light":  func(c string) string { return lighten(c, 0.5) },
	"pale":   func(c string) string { return lighten(c, 0.6) },
	"pastel": func(c string) string { return lighten(c, 0.55) },
	"soft":   func(c string) string { return lighten(c, 0.3) },
}

// colorAt reads the colour word at tokens[i] with the modifier before it.
func colorAt(tokens []string, i int) (string, bool) {
	c, ok := colorOf(tokens[i])
	if !ok {
		return "", false
	}
	if i > 0 {
		if f, ok := colorModifiers[tokens[i-1]]; ok {
			c = f(c)
		}
	}
	return c, true
}

// namedPalette is a look a prompt names ("pastel", "neon"): colours for subjects that
// have none, and a background and text colour unless the prompt asks for its own.
type namedPalette struct {
	Subjects   []string
	Background [2]string
	Text       string
	Glow       float64 // elements glow in their colour (neon)
}

var namedPalettes = map[string]namedPalette{
	"pastel":     {[]string{"#f4a6c1", "#9ec9f0", "#a8e0c0", "#f9d98b", "#c9b3f0"}, [2]string{"#fdf2f8", "#e9e4fb"}, "#3b3355", 0},
	"golden":     {[]string{"#f6b73c", "#e8873a", "#fff1c1", "#c8553d"}, [2]string{"#f9c872", "#c96a3a"}, "#2b1608", 0},
	"neon":       {[]string{"#39ff14", "#ff2bd6", "#00f0ff", "#fff700"}, [2]string{"#07000f", "#1a0630"}, "#ffffff", 0.7},
	"monochrome": {[]string{"#1f1f1f", "#5c5c5c", "#8f8f8f", "#bdbdbd"}, [2]string{"#f4f4f4", "#d6d6d6"}, "#111111", 0},
	"earthy":     {[]string{"#8b5e3c", "#6b8e23", "#c2703d", "#a0522d", "#d4a373"}, [2]string{"#f1e6d2", "#d8c3a0"}, "#3e2c1c", 0},
}

var paletteWordsRE = regexp.MustCompile(`\b(?:(pastels?)|(golden (?:light|hour|glow|tones?)|warm golden)|(neon|synthwave|cyberpunk)|(monochrome|monochromatic|black and white|black-and-white|grayscale|greyscale)|(earthy|earth tones?|natural tones?))\b`)

// sceneries are backgrounds a prompt names as a place or a time: their gradient and,
// for a night sky, the stars that make it one.
var sceneries = []struct {
	re    *regexp.Regexp
	bg    [2]string
	stars bool
}{
	{regexp.MustCompile(`\b(?:night sky|starry (?:night|sky)|night-time sky|nighttime sky|midnight sky|under the stars|at night)\b`), [2]string{"#0b1026", "#23305e"}, true},
	{regexp.MustCompile(`\b(?:sunset|sundown|dusk)\b`), [2]string{"#ffb347", "#c0396b"}, false},
	{regexp.MustCompile(`\b(?:sunrise|dawn)\b`), [2]string{"#ffd1a1", "#8ec5fc"}, false},
	{regexp.MustCompile(`\b(?:on|against|over) (?:a |an |old |white )?paper\b|\bpaper(?:y)? (?:background|backdrop|texture|look)\b|\bon parchment\b`), [2]string{"#f6f1e7", "#e9e0cc"}, false},
	{regexp.MustCompile(`\b(?:underwater|under the sea|deep sea)\b`), [2]string{"#0a4f7a", "#042238"}, false},
}

var gradientRE = regexp.MustCompile(`\bgradient\b`)

// pairRE is a colour pair "black on cream", "white text on dark navy": the first colour
// is the ink (text and uncoloured subjects), the second the background.
var pairRE = regexp.MustCompile(`\b((?:dark|deep|light|pale|soft|pastel) )?([a-z]+)(?: (?:text|type|letters|lettering|ink|lines?))? (?:on|against|over) (?:an? )?((?:dark|deep|light|pale|soft|pastel) )?([a-z]+)(?: (?:background|backdrop|bg|paper))?\b`)

// readSceneWords reads colour pairs, named backgrounds and palettes from the prompt
// (lower case, quotes replaced) after subjects and colours are known.
func (b *brief) readSceneWords(low string) {
	for _, m := range pairRE.FindAllStringSubmatch(low, -1) {
		ink, ok1 := colorOf(m[2])
		bg, ok2 := colorOf(m[4])
		if !ok1 || !ok2 {
			continue
		}
		if f := colorModifiers[strings.TrimSpace(m[1])]; f != nil {
			ink = f(ink)
		}
		if f := colorModifiers[strings.TrimSpace(m[3])]; f != nil {
			bg = f(bg)
		}
		if b.TextColor == "" {
			b.TextColor = ink
		}
		b.Ink = ink
		b.Background, b.Background2 = bg, ""
		break
	}
	for _, sc := range sceneries {
		if sc.re.MatchString(low) {
			if b.Background == "" {
				b.Background, b.Background2, b.ImpliedBackground = sc.bg[0], sc.bg[1], true
			}
			if sc.stars {
				b.addStars()
			}
			break
		}
	}
	if m := paletteWordsRE.FindStringSubmatch(low); m != nil {
		for i, name := range []string{"pastel", "golden", "neon", "monochrome", "earthy"} {
			if m[i+1] != "" {
				b.PaletteName = name
			}
		}
		np := namedPalettes[b.PaletteName]
		if b.Background == "" {
			b.Background, b.Background2, b.ImpliedBackground = np.Background[0], np.Background[1], true
		}
	}
	if b.Background == "" && gradientRE.MatchString(low) {
		// "a gradient background" with no colours: a vivid two-colour sweep.
		b.Background, b.Background2 = "#6366f1", "#ec4899"
	}
	if b.Background != "" && b.Background2 == "" && gradientRE.MatchString(low) {
		b.Background2 = lighten(b.Background, 0.45)
	}
}

// addStars puts a star field in a night sky that has none.
func (b *brief) addStars() {
	for _, s := range b.Subjects {
		if s.Kind == "particles" && (s.Variant == "stars" || s.Variant == "sparkles") {
			return
		}
	}
	b.Subjects = append(b.Subjects, subject{Noun: "stars", Kind: "particles", Variant: "stars"})
}

// defaultColors are the colours subjects without a requested one take: the ink of a
// colour pair, the named palette's, else the style's.
func (b *brief) defaultColors(style []string) []string {
	if b.Ink != "" {
		return []string{b.Ink}
	}
	if np, ok := namedPalettes[b.PaletteName]; ok {
		return np.Subjects
	}
	if len(b.BrandColors) > 0 {
		return append(append([]string(nil), b.BrandColors...), style...)
	}
	return style
}

// place is where a prompt puts something: frame coordinates (-1..1, y down).
type place struct {
	X, Y   float64
	Across bool // spans the frame's width ("across the bottom")
}

var positionRE = regexp.MustCompile(`\b(?:(?:in|at|on|to|into|from) (?:the )?)?(?:(top|upper|bottom|lower)[ -](left|right)(?: corner)?|(left|right)[ -](top|bottom)(?: corner)?|(?:(across|along|at|on|in) (?:the )?(top|bottom|left|right)(?: (?:edge|side|of the (?:screen|frame)))?)|(cent(?:er|re)d?|in the middle|in the cent(?:er|re)|middle of the (?:screen|frame)))\b`)

// readPositions reads where each clause puts its subjects and text: a position phrase
// belongs to the nearest subject or quote before it ("the words «Swipe up» across the
// bottom and a chart"), else the first one after it.
func (b *brief) readPositions() {
	for bi := range b.Beats {
		bt := &b.Beats[bi]
		loc := positionRE.FindStringSubmatchIndex(bt.Text)
		if loc == nil {
			continue
		}
		m := positionRE.FindStringSubmatch(bt.Text)
		var p place
		switch {
		case m[1] != "":
			// Far enough in that a badge's ring, a letterbox and the camera's last push
			// all leave it whole.
			p = place{X: side(m[2]) * 0.6, Y: vert(m[1]) * 0.44}
		case m[3] != "":
			p = place{X: side(m[3]) * 0.6, Y: vert(m[4]) * 0.44}
		case m[6] != "":
			across := m[5] == "across" || m[5] == "along"
			switch m[6] {
			case "top", "bottom":
				p = place{Y: vert(m[6]) * 0.66, Across: across}
			default:
				p = place{X: side(m[6]) * 0.6}
			}
		}
		// Candidates: where each subject noun and quote sits in the clause.
		type cand struct {
			at, subj, quote int
		}
		var cands []cand
		for _, si := range bt.Subjects {
			if d := b.Subjects[si].Data; d != nil && d.Kind == dataPyramid && len(d.Series) > 0 {
				continue // "men on the left, women on the right" places a pyramid's sides, not the chart
			}
			if i := wordIndex(bt.Text, b.Subjects[si].Noun); i >= 0 {
				cands = append(cands, cand{i, si, -1})
			}
		}
		for _, q := range bt.Quotes {
			if i := strings.Index(bt.Text, "«q"+strconv.Itoa(q)+"»"); i >= 0 {
				cands = append(cands, cand{i, -1, q})
			}
		}
		best := -1
		for i, c := range cands { // the nearest before the phrase
			if c.at < loc[0] && (best < 0 || c.at > cands[best].at) {
				best = i
			}
		}
		if best < 0 {
			for i, c := range cands { // else the nearest after it
				if c.at > loc[1] && (best < 0 || c.at < cands[best].at) {
					best = i
				}
			}
		}
		if best < 0 {
			continue
		}
		if c := cands[best]; c.subj >= 0 {
			pp := p
			b.Subjects[c.subj].Place = &pp
		} else {
			if b.TextPlace == nil {
				b.TextPlace = map[int]place{}
			}
			b.TextPlace[c.quote] = p
			if p.Across && strings.Count(bt.Text, "across") == 1 {
				bt.Across = false // text across the bottom spans it; nothing travels
			}
		}
	}
}

func wordIndex(s, w string) int {
	loc := regexp.MustCompile(`\b` + regexp.QuoteMeta(strings.ToLower(w)) + `\b`).FindStringIndex(s)
	if loc == nil {
		return -1
	}
	return loc[0]
}

func side(s string) float64 {
	if s == "left" {
		return -1
	}
	return 1
}

func vert(s string) float64 {
	if s == "top" || s == "upper" {
		return -1
	}
	return 1
}

// placeSubjects moves subjects to where the prompt put them.
func (c *composer) placeSubjects() {
	for i, e := range c.subjects {
		p := c.b.Subjects[c.index[i]].Place
		if p == nil || e.Type == scene.TypeParticles {
			continue
		}
		c.homes[i] = pose{X: p.X, Y: p.Y}
		e.X, e.Y = p.X, p.Y
		if p.Across {
			e.X = 0
		}
		if math.Abs(p.X) > 0.3 || math.Abs(p.Y) > 0.5 {
			// A corner or an edge leaves less room: the subject is smaller there.
			e.Size *= 0.6
		}
	}
}

// placeText puts quoted text where the prompt said ("across the bottom").
func (c *composer) placeText(e *scene.Element, q int) {
	p, ok := c.b.TextPlace[q]
	if !ok {
		return
	}
	e.X, e.Y = p.X, p.Y
	if p.X != 0 || p.Y != 0 {
		e.Size = math.Min(e.Size, 0.085)
	}
}

// polishSceneWords adds what a named palette implies beyond colours: neon glows.
func (c *composer) polishSceneWords() {
	np, ok := namedPalettes[c.b.PaletteName]
	if !ok || np.Glow == 0 {
		return
	}
	for _, e := range c.d.Elements {
		if e.Type != scene.TypeParticles {
			e.Glow = np.Glow
		}
	}
}
