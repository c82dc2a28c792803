package builtin

import (
	"math"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/scene"
)

// A tenant's own media in a project (issue 25): the brand kit's colours start the
// palette, the font sets every text, the logo goes where the prompt asks (a reveal, a
// corner mark, an end card), and a picture goes where the prompt names it. The files
// are in the project folder (koda.ProjectAsset.File) before the agent runs.

// analyzeProject reads p's prompt, then fills what the prompt leaves open with p's
// brand kit: colours the prompt names win over the kit's.
func analyzeProject(p *koda.Project) *brief {
	b := analyze(p.Prompt)
	b.applyBrand(p.Brand)
	return b
}

// applyBrand starts the brief's colours from the kit: its background and text when
// the prompt names none, and its primary and secondary colours as the first colours
// of subjects the prompt does not colour. The palette's own contrast rules (and then
// the critic) still keep the text readable on the background.
func (b *brief) applyBrand(br *koda.Brand) {
	if br == nil {
		return
	}
	c := br.Colors
	if b.Background == "" && c.Background != "" {
		b.Background = c.Background
	}
	if b.TextColor == "" && c.Text != "" {
		b.TextColor = c.Text
	}
	for _, x := range []string{c.Primary, c.Secondary} {
		if x != "" {
			b.BrandColors = append(b.BrandColors, x)
		}
	}
}

// logoRow is one way of placing a project's logo file: the first row whose cue the
// prompt matches is used. A prompt that draws a logo itself ("a logo reveal") puts the
// file in that badge instead (compose.go, TypeLogo), and with no row nor badge the
// logo is a small mark in a corner (logoMark).
type logoRow struct {
	Name string
	// EndCard: the row closes the video on a card, which a kit's end-card line then
	// fills instead of adding a second one.
	EndCard bool
	Cue     *regexp.Regexp
	Example string
	place   func(c *composer, file string)
}

var logoRows = []logoRow{
	{Name: "end card", EndCard: true,
		Cue:     regexp.MustCompile(`\b(?:end(?:ing)?[- ]?(?:card|screen|slate)|clos(?:ing|e) (?:card|screen)|outro card|(?:ends?|finish(?:es)?) (?:on|with) (?:our|the|a|its) (?:logo|brand))\b`),
		Example: "Three features pop in one by one, then an end card with our logo",
		place:   func(c *composer, file string) { c.logoEndCard(file, c.endCardText()) }},
	{Name: "watermark",
		Cue:     regexp.MustCompile(`\b(?:watermark(?:ed)?|logo bug|corner logo|logo in (?:the|a) (?:\w+[- ])?corner)\b`),
		Example: "A rocket launches, with our logo as a watermark in the bottom left corner",
		place:   (*composer).logoMark},
}

// cornerRows choose the corner of a logo mark; the default is the top right, where
// no caption or platform button sits in any preset.
var cornerRows = []struct {
	Cue  *regexp.Regexp
	X, Y float64
}{
	{regexp.MustCompile(`\b(?:top|upper)[- ]left\b|\bleft[- ]top\b`), -1, -1},
	{regexp.MustCompile(`\b(?:bottom|lower)[- ]left\b|\bleft[- ]bottom\b`), -1, 1},
	{regexp.MustCompile(`\b(?:bottom|lower)[- ]right\b|\bright[- ]bottom\b`), 1, 1},
}

// The logo mark's place and size. Sizes are fractions of the content rectangle's
// shorter side, positions span it (the whole frame in landscape and square frames,
// the safe area in portrait ones), so one place fits every preset: in 16:9 and 1:1
// the mark's far edge stays inside the 5 % title-safe margin, in 9:16 it is inside the
// stories' safe area by construction.
const (
	markX    = 0.76
	markY    = 0.72
	markSize = 0.06
	markID   = "brand-logo"
)

// applyProjectMedia puts the project's own files into the scene, after the scenes are
// composed and before the critic looks at it.
func (c *composer) applyProjectMedia(p *koda.Project) {
	for _, a := range p.Assets {
		if a.Role == koda.RoleImage {
			c.placeImage(a, len(p.Assets))
		}
	}
	logo := p.AssetByRole(koda.RoleLogo)
	if logo != nil {
		c.logoBadges(logo.File)
	}
	low := strings.ToLower(c.b.Prompt)
	var row *logoRow
	for i := range logoRows {
		if logoRows[i].Cue.MatchString(low) {
			row = &logoRows[i]
			break
		}
	}
	endCard := p.Brand != nil && p.Brand.EndCard != ""
	switch {
	case row != nil && logo != nil:
		row.place(c, logo.File)
	case logo != nil && !c.revealsLogo(logo.File):
		c.logoMark(logo.File)
	}
	if endCard && (row == nil || !row.EndCard) {
		file := ""
		if logo != nil {
			file = logo.File
		}
		c.logoEndCard(file, p.Brand.EndCard)
	}
	if logo == nil && row != nil && row.EndCard {
		c.logoEndCard("", c.endCardText())
	}
}

// logoBadges puts the logo file in every badge of the scene that shows none (a logo
// reveal's mark draws the brand's initials otherwise): the uploaded logo is the mark,
// and revealsLogo then leaves out the corner mark, so one logo shows at the reveal.
func (c *composer) logoBadges(file string) {
	for _, e := range c.d.Elements {
		if e.Type == scene.TypeLogo && e.Src == "" {
			e.Src = file
		}
	}
}

// revealsLogo: the prompt draws a logo (a badge) and the file is in it.
func (c *composer) revealsLogo(file string) bool {
	for _, e := range c.d.Elements {
		if e.Type == scene.TypeLogo && e.Src == file {
			return true
		}
	}
	return false
}

// logoMark is the default: a small logo in a corner from the first second to the end.
func (c *composer) logoMark(file string) {
	x, y := markX, -markY
	low := strings.ToLower(c.b.Prompt)
	for _, r := range cornerRows {
		if r.Cue.MatchString(low) {
			x, y = r.X*markX, r.Y*markY
			break
		}
	}
	e := &scene.Element{ID: markID, Type: scene.TypeImage, Label: "logo", Src: file, X: x, Y: y, Size: markSize, Fixed: true}
	in := math.Min(0.6, c.bd.Total/4)
	c.emove(e, "opacity", 0, 0, 0, "")
	c.emove(e, "opacity", 0, in, 1, "easeOutCubic")
	c.d.Elements = append(c.d.Elements, e)
}

// endCardText is the line of an end card the prompt asks for without a kit's line: the
// brand the prompt names, else none (the logo alone).
func (c *composer) endCardText() string { return c.b.Brand }

// logoEndCard closes the video on the logo (file, "" for none) with text under it:
// everything else leaves as the card comes in.
func (c *composer) logoEndCard(file, text string) {
	if file == "" && text == "" {
		return
	}
	total := c.bd.Total
	span := math.Max(1.2, math.Min(2.5, total*0.2))
	at := round3(total - span)
	kept := c.d.Elements[:0]
	for _, e := range c.d.Elements {
		switch {
		case e.ID == markID:
			e.End = at // the card shows the logo itself
		case e.Start >= at-0.05:
			continue // would only appear on the card
		case e.End == 0 || e.End > at:
			c.emove(e, "opacity", round3(at-0.3), at, 0, "easeInCubic")
			e.End = at
		}
		kept = append(kept, e)
	}
	c.d.Elements = kept
	logoY := 0.0
	if text != "" && file != "" {
		logoY = -0.18
	}
	if file != "" {
		e := &scene.Element{ID: "brand-end-logo", Type: scene.TypeImage, Label: "logo", Src: file, Start: at, Y: logoY, Size: 0.17}
		c.emove(e, "opacity", at, at, 0, "")
		c.emove(e, "opacity", at, at+0.4, 1, "easeOutCubic")
		c.emove(e, "scale", at, at, 0.9, "")
		c.emove(e, "scale", at, at+0.6, 1, "easeOutBack")
		c.d.Elements = append(c.d.Elements, e)
	}
	if text != "" {
		y := 0.0
		if file != "" {
			y = 0.34
		}
		e := &scene.Element{ID: "brand-end-card", Type: scene.TypeText, Label: "end card", Text: text,
			Start: round3(at + 0.2), Y: y, Size: 0.06, Color: c.bd.Palette.Text, Reveal: "rise", Weight: 700}
		c.emove(e, "progress", e.Start, e.Start, 0, "")
		c.emove(e, "progress", e.Start, round3(math.Min(total, e.Start+0.6)), 1, "linear")
		c.d.Elements = append(c.d.Elements, e)
	}
	c.d.Scenes = append(c.d.Scenes, scene.Mark{ID: "end-card", Name: "End card", Start: at, End: total})
}

// genericPictureRE refers to the one picture of a project without its name ("our
// photo", "the product shot").
var genericPictureRE = regexp.MustCompile(`\b(?:our|the|my|this|a) (?:\w+ )?(?:photo|picture|image|screenshot|shot|pic)\b`)

// pictureWords are the words of a picture's name that may name it in a prompt: its
// file name without extension, split, short and number-only words left out.
func pictureWords(file string) []string {
	base := strings.TrimSuffix(path.Base(file), path.Ext(file))
	var out []string
	for _, w := range strings.Split(base, "-") {
		if len(w) >= 3 && strings.Trim(w, "0123456789") != "" && w != "img" && w != "image" {
			out = append(out, w)
		}
	}
	return out
}

// placeImage shows a picture of the project where the prompt refers to it: a subject
// the prompt draws under its name ("our product photo" drew a product card) becomes the
// picture, keeping its place and motion; else the picture stands in the middle.
func (c *composer) placeImage(a koda.ProjectAsset, assets int) {
	low := strings.ToLower(c.b.Prompt)
	words := pictureWords(a.File)
	named := len(words) > 0 && strings.Contains(low, strings.Join(words, " "))
	if !named && !(assets > 0 && c.onlyPicture(a) && genericPictureRE.MatchString(low)) {
		return
	}
	for _, e := range c.subjects {
		if e.Type == scene.TypeParticles || e.Label == "" {
			continue
		}
		noun := strings.ToLower(e.Label)
		if slices.Contains(words, noun) || genericPictureRE.MatchString(low) && strings.Contains(low, noun+" ") {
			e.Type, e.Src = scene.TypeImage, a.File
			e.Asset, e.Tint, e.Hue, e.Text, e.Sub, e.Variant = "", "", 0, "", "", ""
			e.Size = math.Max(e.Size, kindSize[scene.TypeImage])
			return
		}
	}
	e := &scene.Element{ID: "image-" + slug(strings.Join(words, " ")), Type: scene.TypeImage, Label: strings.Join(words, " "),
		Src: a.File, Y: -0.12, Size: kindSize[scene.TypeImage], Shadow: true}
	c.emove(e, "opacity", 0, 0, 0, "")
	c.emove(e, "opacity", 0, math.Min(0.8, c.bd.Total/5), 1, "easeOutCubic")
	c.d.Elements = append(c.d.Elements, e)
}

// onlyPicture: a is the project's one picture (the logo aside).
func (c *composer) onlyPicture(a koda.ProjectAsset) bool {
	return len(c.pictures) == 1 && c.pictures[0] == a.File
}

// projectFont is the project's font file as the scene names it: a family from the
// upload's name (letters, digits, spaces), so the page's computed font says which.
func projectFont(p *koda.Project) *scene.Font {
	f := p.AssetByRole(koda.RoleFont)
	if f == nil {
		return nil
	}
	name := strings.TrimSuffix(path.Base(f.Name), path.Ext(f.Name))
	var sb strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == ' ', r == '_', r == '-':
			sb.WriteRune(r)
		}
	}
	family := strings.TrimLeft(sb.String(), " _-")
	if len(family) > 48 {
		family = family[:48]
	}
	if family == "" {
		family = "Brand Font"
	}
	return &scene.Font{Family: family, Src: f.File}
}
