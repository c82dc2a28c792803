package builtin

import (
	"math"
	"regexp"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// Text effects: a name that glitches in (an RGB split, slipping bands, noise bars over
// an old screen's scanlines) and snaps clean, as channel intros and brand stings do.
// It is a row of its own when a prompt asks for the effect on a name and no other
// layout; a title card, chapter title or logo reveal asked with the effect's words
// wears it as a look on its main words (look), as it wears a typewriter or a neon sign.

var (
	// glitchCueRE: the words of the effect.
	glitchCueRE = regexp.MustCompile(`\bglitch\w*\b|\brgb[- ]?split\b|\bchromatic aberration\b|\bvhs\b|\bdatamosh\w*\b|\bcrt\b|\bcorrupt(?:ed|ion)?\b[^.]*\b(?:text|title|logo|name)\b`)
	// glitchAlsoRE: what the effect is put on: a name, a title, an intro of a channel
	// or a brand.
	glitchAlsoRE = regexp.MustCompile(`\bintro\b|\bopener\b|\bopening\b|\bchannel\b|\bbrand\b|\bname\b|\btitle\b|\blogo\b|\btext\b|\bident\b|\bsting\b|\bwordmark\b|\btag ?line\b|\bstream\b`)
	// capsNameRE: a name in capitals ("NULLSHIFT"); effectCaps are capitals that name
	// the effect, not the channel.
	capsNameRE = regexp.MustCompile(`\b[A-Z][A-Z0-9_]{2,}(?:\s[A-Z][A-Z0-9_]{2,})?\b`)
	effectCaps = regexp.MustCompile(`^(?:RGB|VHS|CRT|HD|UHD|4K|TV|FX|YOUTUBE|TWITCH|TIKTOK|LED|CMYK|GIF|MP4|INTRO|NEW)\b`)
	// vhsRE: the words of an old screen, which the look shows as scanlines.
	vhsRE = regexp.MustCompile(`\bvhs\b|\bcrt\b|\bscan ?lines?\b|\bretro\b|\bglitch\w*\b|\brgb[- ]?split\b`)
	// typewriterRE and neonRE: the other looks of a line of words.
	typewriterRE = regexp.MustCompile(`\btypewriter\b|\btyp(?:es|ed|ing) (?:itself )?out\b|\btyped\b|\bletter by letter\b`)
	neonRE       = regexp.MustCompile(`\bneon\b`)
	// effectWordRE: nouns of the effect that the analysis may take for things to draw.
	effectWordRE = regexp.MustCompile(`\b(?:vhs|crt|tape|cassette|video ?tape|glitch\w*|noise|static|scan ?lines?|rgb|tv|television|screen|monitor)\b`)
)

// glitchName is the name an intro shows: the name the video is for, a quote, a name
// in capitals, else a proper name.
func (g *genreFill) glitchName() string {
	if g.b.Brand != "" {
		g.consume(g.b.Brand)
		return g.b.Brand
	}
	if q := g.quote(""); q != "" {
		return q
	}
	for _, m := range capsNameRE.FindAllString(g.prompt, -1) {
		if !effectCaps.MatchString(m) && !strings.Contains(m, "«") {
			return m
		}
	}
	if ns := g.names(); len(ns) > 0 {
		return ns[0]
	}
	return ""
}

// glitchIntro: on a dark screen under scanlines the name flickers in split into red
// and cyan with bands of it slipping, snaps clean and holds, twitching once midway;
// the tagline types out under it as it snaps.
func (g *genreFill) glitchIntro() {
	name := orDefault(g.glitchName(), "Your Channel")
	tagline := g.quote("")
	if tagline == "" {
		tagline = g.after(`(?:tag ?line|slogan|subtitle)`)
	}
	if g.b.Background == "" {
		// The effect lives on a dark screen whatever the style's backdrop.
		g.c.d.Background.Colors = []string{"#07070d", "#16102a"}
		g.ink = "#ffffff"
	}
	g.c.d.Effects.Scanlines = 0.5
	ink := g.ink
	if g.b.TextColor != "" {
		ink = g.b.TextColor
	}
	width := 1.5
	if g.c.tall() || g.c.square() {
		width = 0.92
	}
	size, lines := fitBold(name, width, 0.14), 1.0
	if ws := strings.Fields(name); len(ws) > 1 && size < 0.11 {
		// A long name of several words takes two lines rather than a small one.
		i := -1 // the space nearest the middle
		for k, r := range name {
			if r == ' ' && (i < 0 || math.Abs(float64(k)-float64(len(name))/2) < math.Abs(float64(i)-float64(len(name))/2)) {
				i = k
			}
		}
		size, lines = math.Min(fitBold(name[:i], width, 0.14), fitBold(name[i+1:], width, 0.14)), 2
	}
	y := -0.05 - (lines-1)*size*0.55
	e := g.text(name, 0, round3(g.yu(y)), size, ink, 900)
	e.Reveal = "fade"
	if lines > 1 {
		e.Wrap = round3(width)
	}
	// It flickers on: a few frames lit, dark, lit, while the glitch plays over it.
	at := g.t + 0.2
	tr := trackOf(e)
	key(tr, "opacity", 0, 0, "")
	for k, v := range []float64{0, 1, 0.2, 1, 0.4, 1} {
		key(tr, "opacity", at+0.07*float64(k), v, "")
	}
	snap := at + 1.8
	g.c.motion(e, scene.Motion{Type: scene.MotionGlitch, Start: at, End: snap, Amp: 1})
	parts := []*scene.Element{e}
	typed := snap
	if tagline != "" {
		col := solid(orDefault(firstColor(g.b), "#22d3ee"))
		if luminance(g.c.d.Background.Colors[0]) < 0.3 {
			col = readableOn(orDefault(firstColor(g.b), "#22d3ee"), g.c.d.Background.Colors[0])
		}
		ts := 0.045
		if g.c.tall() {
			ts = 0.052
		}
		tl := g.text(tagline, 0, round3(g.yu(y+(lines-1)*size*1.15+size*0.6+0.09)), fit(tagline, width, ts), col, 600)
		start := snap - 0.2
		typed = math.Min(g.out-0.4, start+0.06*float64(len([]rune(tagline))))
		g.enter(tl, "fade", start, 0.1)
		g.c.motion(tl, scene.Motion{Type: scene.MotionType, Start: round3(start), End: round3(typed)})
		parts = append(parts, tl)
	}
	// A twitch in the hold.
	if mid := (typed + g.out) / 2; mid+0.45 < g.out-0.5 {
		g.c.motion(e, scene.Motion{Type: scene.MotionGlitch, Start: mid, End: mid + 0.45, Amp: 0.5})
	}
	g.leave(parts...)
	// What acts behind the name is drawn; the effect's own words ("a VHS noise burst")
	// are no drawing.
	var skip []string
	for _, sj := range g.b.Subjects {
		if effectWordRE.MatchString(strings.ToLower(sj.Noun)) {
			skip = append(skip, sj.Asset)
		}
	}
	g.behind(skip...)
}

// look puts the prompt's effect on a layout's main words from at: a glitch (with
// scanlines for an old screen's words), a typewriter, or a neon sign's flicker. It
// reports whether it put one.
func (g *genreFill) look(e *scene.Element, at float64) bool {
	switch {
	case glitchCueRE.MatchString(g.low):
		g.c.motion(e, scene.Motion{Type: scene.MotionGlitch, Start: at, End: at + 1.6, Amp: 1})
		if vhsRE.MatchString(g.low) {
			// Faint on a light screen, where dark lines read as a grey raster.
			g.c.d.Effects.Scanlines = 0.4
			if luminance(g.c.d.Background.Colors[0]) > 0.6 {
				g.c.d.Effects.Scanlines = 0.15
			}
		}
	case typewriterRE.MatchString(g.low):
		g.c.motion(e, scene.Motion{Type: scene.MotionType, Start: at, End: at + math.Min(2, 0.07*float64(len([]rune(e.Text))))})
	case neonRE.MatchString(g.low):
		// A sign's tube catching: lit, dim, lit, dim, lit.
		tr := trackOf(e)
		for k, v := range []float64{1, 0.25, 1, 0.5, 1} {
			key(tr, "opacity", at+0.09*float64(k), v, "")
		}
	default:
		return false
	}
	return true
}

// effectFreeCaps is the prompt without the capitals that name the effect ("RGB", "VHS").
func effectFreeCaps(p string) string {
	return capsNameRE.ReplaceAllStringFunc(p, func(m string) string {
		if effectCaps.MatchString(m) {
			return ""
		}
		return m
	})
}
