// Package templates turns a finished scene into a template: it finds the values a
// data row may replace (fields), names them, states their limits, and fills a copy of
// the scene with a row's values without running the agent. Text limits and the fit of
// filled text come from the critic (agent/critic), the same rules that checked the
// scene before its preview.
package templates

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
)

// Target kinds: where a field's value goes in the scene. A target is "kind:key".
const (
	targetText    = "text"    // key: element id; its Text
	targetNumber  = "number"  // key: element id; a counter's To
	targetSeries  = "series"  // key: element id; a chart's Values
	targetPalette = "palette" // key: a colour; every use of it
	targetImage   = "image"   // key: element id; its Src
	targetAudio   = "audio"   // key: the soundtrack's path in the project
)

// maxPalette bounds the colour fields: a scene's decoration can use dozens of shades,
// and a row that sets the brand's few colours needs only the most used.
const maxPalette = 8

// Frames are the frame shapes of presets, one per aspect ratio (landscape when none):
// the frames a text must fit in.
func Frames(presets []koda.PresetSpec) []critic.Frame {
	var out []critic.Frame
	for _, p := range presets {
		f := critic.Frame{Name: p.Name, W: p.Width, H: p.Height}
		if f.W <= 0 || f.H <= 0 || slices.ContainsFunc(out, func(g critic.Frame) bool { return g.W*f.H == f.W*g.H }) {
			continue
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		out = []critic.Frame{critic.Landscape}
	}
	return out
}

// Discover finds the fields of d: each text, counter target, chart series, image slot,
// the most used colours of its palette, and the soundtrack (audio: its path in the
// project, "" for none). Names are readable and unique; limits are measured in frames.
func Discover(d *scene.Description, audio string, frames []critic.Frame) []koda.TemplateField {
	var out []koda.TemplateField
	names := map[string]int{}
	add := func(name string, typ koda.FieldType, value any, target string, limit koda.FieldLimit) {
		raw, _ := json.Marshal(value)
		out = append(out, koda.TemplateField{Name: unique(names, name), Type: typ, Value: raw, Target: target, Limit: limit})
	}
	// Texts largest first, so the biggest words are the headline.
	texts := slices.DeleteFunc(slices.Clone(d.Elements), func(e *scene.Element) bool {
		return e.Type != scene.TypeText || len(e.Items) > 0 || strings.TrimSpace(e.Text) == ""
	})
	slices.SortStableFunc(texts, func(a, b *scene.Element) int { return -cmpF(a.Size, b.Size) })
	for i, e := range texts {
		name := textName(e)
		if i == 0 && name != "price" {
			name = "headline"
		}
		add(name, koda.FieldText, e.Text, targetText+":"+e.ID, koda.FieldLimit{MaxLength: critic.MaxTextLen(d, e, frames...)})
	}
	for _, e := range d.Elements {
		switch e.Type {
		case scene.TypeCounter:
			name := "count"
			if currency(e.Prefix + e.Suffix) {
				name = "price"
			} else if s := slug(orS(e.Sub, e.Label)); s != "" {
				name = s
			}
			add(name, koda.FieldNumber, e.To, targetNumber+":"+e.ID, koda.FieldLimit{})
		case scene.TypeChart:
			name := "chart"
			if s := slug(orS(e.Text, e.Label)); s != "" {
				name = s
			}
			add(name, koda.FieldSeries, e.Values, targetSeries+":"+e.ID, koda.FieldLimit{Count: len(e.Values)})
		case scene.TypeImage:
			name := "image"
			if strings.Contains(strings.ToLower(e.Label+" "+e.Src+" "+e.ID), "logo") {
				name = "logo"
			}
			add(name, koda.FieldImage, e.Src, targetImage+":"+e.ID, koda.FieldLimit{})
		}
	}
	for _, c := range palette(d) {
		add(c.name, koda.FieldColor, c.color, targetPalette+":"+c.color, koda.FieldLimit{})
	}
	if audio != "" {
		add("soundtrack", koda.FieldAudio, audio, targetAudio+":"+audio, koda.FieldLimit{})
	}
	return out
}

// Limits measures the text fields' limits again in frames (a batch's presets may be
// narrower than the frames the template was made for).
func Limits(d *scene.Description, fields []koda.TemplateField, frames []critic.Frame) []koda.TemplateField {
	out := slices.Clone(fields)
	for i, f := range out {
		kind, key, _ := strings.Cut(f.Target, ":")
		if kind == targetText {
			out[i].Limit.MaxLength = critic.MaxTextLen(d, d.Element(key), frames...)
		}
	}
	return out
}

func unique(names map[string]int, name string) string {
	names[name]++
	if n := names[name]; n > 1 {
		return fmt.Sprintf("%s_%d", name, n)
	}
	return name
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func orS(s, d string) string {
	if strings.TrimSpace(s) != "" {
		return s
	}
	return d
}

var priceRE = regexp.MustCompile(`[$€£¥₹]\s*\d|\d\s*[$€£¥₹]|\d+[.,]\d\d\b`)

// textName names a text by what it says: a price is "price", else its label or first
// words ("Only today" is only_today).
func textName(e *scene.Element) string {
	if priceRE.MatchString(e.Text) {
		return "price"
	}
	if s := slug(e.Label); s != "" && s != "text" && s != "title" {
		return s
	}
	words := strings.Fields(e.Text)
	if len(words) > 3 {
		words = words[:3]
	}
	if s := slug(strings.Join(words, " ")); s != "" {
		return s
	}
	return "text"
}

func currency(s string) bool { return strings.ContainsAny(s, "$€£¥₹") }

// slug is a name from words: lower-case letters and digits joined by underscores,
// at most 24 characters, starting with a letter; "" when nothing is left.
func slug(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
		default:
			under = true
		}
		if b.Len() >= 24 {
			break
		}
	}
	out := strings.TrimRight(b.String(), "_")
	if out == "" || !unicode.IsLetter(rune(out[0])) {
		return ""
	}
	return out
}

type paletteColour struct {
	name, color string
	uses        int
}

// palette lists the scene's colours, most used first (background stops first of all:
// they are the colour of every frame), named after what they colour.
func palette(d *scene.Description) []paletteColour {
	var out []paletteColour
	see := func(c, name string) {
		c = strings.ToLower(c)
		if c == "" {
			return
		}
		for i := range out {
			if out[i].color == c {
				out[i].uses++
				return
			}
		}
		out = append(out, paletteColour{name: name, color: c, uses: 1})
	}
	for _, c := range d.Background.Colors {
		see(c, "background")
	}
	nBG := len(out)
	for _, e := range d.Elements {
		name := slug(orS(e.Label, e.ID))
		if name == "" {
			name = "accent"
		}
		eachColour(e, func(c *string) { see(*c, name+"_color") })
	}
	rest := out[nBG:]
	slices.SortStableFunc(rest, func(a, b paletteColour) int { return b.uses - a.uses })
	if len(out) > maxPalette {
		out = out[:maxPalette]
	}
	return out
}

// eachColour calls fn with every colour an element uses, motions' included, so a
// palette colour replaced is replaced everywhere.
func eachColour(e *scene.Element, fn func(*string)) {
	for _, c := range []*string{&e.Color, &e.Color2, &e.TextColor, &e.Tint} {
		if *c != "" {
			fn(c)
		}
	}
	for i := range e.Colors {
		if e.Colors[i] != "" {
			fn(&e.Colors[i])
		}
	}
	for i := range e.ColorScale {
		fn(&e.ColorScale[i])
	}
	for _, m := range e.Motions {
		if m.Color != "" {
			fn(&m.Color)
		}
		for i := range m.Colors {
			if m.Colors[i] != "" {
				fn(&m.Colors[i])
			}
		}
	}
}

var hexRE = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

// Fill returns a copy of d with values put in by field name, with the critic's fit
// rules applied in frames (text moved inside the safe area, recoloured to read; none
// when frames is empty); or the
// errors of each value that cannot be used, naming the field. A field missing from
// values keeps its current value. An image or soundtrack field keeps its own file
// here: FillRow takes assets.
func Fill(d *scene.Description, fields []koda.TemplateField, values map[string]json.RawMessage, frames []critic.Frame) (*scene.Description, []koda.FieldError) {
	c, _, errs := FillRow(d, fields, values, nil, frames)
	return c, errs
}

// FillRow is Fill for a batch's row, whose image and soundtrack fields may name one of
// the tenant's assets by id: assets holds them by id, already found to be the row's
// tenant's (a URL in a row is fetched into the library, and so an id, before this).
// It returns the files the row's project needs besides the template's (RowFiles: an
// image's Src in the filled scene is its File; a soundtrack replaces the template's).
func FillRow(d *scene.Description, fields []koda.TemplateField, values map[string]json.RawMessage, assets map[string]*koda.Asset, frames []critic.Frame) (*scene.Description, []koda.ProjectAsset, []koda.FieldError) {
	c, err := clone(d)
	if err != nil {
		return nil, nil, []koda.FieldError{{Code: koda.CodeInvalidValue, Message: err.Error()}}
	}
	var errs []koda.FieldError
	var files []koda.ProjectAsset
	bad := func(field, code, format string, args ...any) {
		errs = append(errs, koda.FieldError{Field: field, Code: code, Message: fmt.Sprintf(format, args...)})
	}
	byName := map[string]koda.TemplateField{}
	for _, f := range fields {
		byName[f.Name] = f
	}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		f, ok := byName[name]
		if !ok {
			bad(name, koda.CodeUnknownField, "the template has no field %q", name)
			continue
		}
		file, err := put(c, f, values[name], assets, bad)
		if err != nil {
			return nil, nil, []koda.FieldError{{Field: name, Code: koda.CodeInvalidValue, Message: err.Error()}}
		}
		if file != nil {
			files = append(files, *file)
		}
	}
	if len(errs) > 0 {
		return nil, nil, errs
	}
	if err := c.Validate(); err != nil {
		return nil, nil, []koda.FieldError{{Code: koda.CodeInvalidValue, Message: "the filled scene is not valid: " + err.Error()}}
	}
	if len(frames) > 0 {
		critic.Repair(c, frames...)
	}
	return c, files, nil
}

// RowFile is where a row's asset goes in its project folder, the one rule for it: a
// picture at assets/rows/<field>.<format> (beside, never over, the template's own
// files, which other elements may show), a soundtrack at assets/soundtrack.<format>
// in place of the template's (Copy removes every other sound file, so the renderer
// muxes this one). It refuses an asset of the wrong kind for the field.
func RowFile(f koda.TemplateField, a *koda.Asset) (koda.ProjectAsset, *koda.FieldError) {
	role := koda.RoleImage
	if f.Type == koda.FieldAudio {
		role = koda.RoleSoundtrack
	}
	if a.Kind != role.Kind() {
		return koda.ProjectAsset{}, &koda.FieldError{Field: f.Name, Code: koda.CodeAssetRoleMismatch,
			Message: fmt.Sprintf("%s takes %s asset; %s is %s asset", f.Name, withArticle(string(role.Kind())), a.ID, withArticle(string(a.Kind)))}
	}
	pa, err := koda.ProjectAssetFor(koda.AssetRef{ID: a.ID, Role: role}, a, map[string]bool{})
	if err != nil {
		return koda.ProjectAsset{}, &koda.FieldError{Field: f.Name, Code: koda.ErrorCode(err), Message: koda.ErrorMessage(err)}
	}
	if role == koda.RoleImage {
		pa.File = "assets/rows/" + f.Name + "." + a.Format
	}
	return pa, nil
}

func withArticle(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// put sets one field's value in d; a value that cannot be used is reported by bad, a
// target the scene no longer has is an error. A media field given an asset returns the
// file the row's project needs.
func put(d *scene.Description, f koda.TemplateField, raw json.RawMessage, assets map[string]*koda.Asset, bad func(field, code, format string, args ...any)) (*koda.ProjectAsset, error) {
	kind, key, _ := strings.Cut(f.Target, ":")
	el := func() (*scene.Element, error) {
		e := d.Element(key)
		if e == nil {
			return nil, fmt.Errorf("field %s: the scene has no element %q", f.Name, key)
		}
		return e, nil
	}
	switch kind {
	case targetText:
		s, ok := str(raw)
		s = strings.TrimSpace(s)
		switch {
		case !ok || s == "":
			bad(f.Name, koda.CodeInvalidValue, "%s takes non-empty text", f.Name)
			return nil, nil
		case strings.ContainsFunc(s, func(r rune) bool { return r < ' ' }):
			bad(f.Name, koda.CodeInvalidValue, "%s takes one line of text without control characters", f.Name)
			return nil, nil
		case f.Limit.MaxLength > 0 && len([]rune(s)) > f.Limit.MaxLength:
			bad(f.Name, koda.CodeTextTooLong, "%s is %d characters; at most %d fit where it stands", f.Name, len([]rune(s)), f.Limit.MaxLength)
			return nil, nil
		}
		e, err := el()
		if err != nil {
			return nil, err
		}
		e.Text = s
	case targetNumber:
		v, ok := number(raw)
		if !ok || math.Abs(v) > 1e12 {
			bad(f.Name, koda.CodeInvalidValue, "%s takes a number", f.Name)
			return nil, nil
		}
		e, err := el()
		if err != nil {
			return nil, err
		}
		e.To = v
	case targetSeries:
		vs, ok := series(raw)
		switch {
		case !ok:
			bad(f.Name, koda.CodeInvalidValue, "%s takes numbers: a JSON array, or a text of numbers separated by ';'", f.Name)
			return nil, nil
		case f.Limit.Count > 0 && len(vs) != f.Limit.Count:
			bad(f.Name, koda.CodeInvalidValue, "%s takes %d values (the chart's), not %d", f.Name, f.Limit.Count, len(vs))
			return nil, nil
		}
		e, err := el()
		if err != nil {
			return nil, err
		}
		e.Values = vs
	case targetPalette:
		s, ok := str(raw)
		if !ok || !hexRE.MatchString(strings.TrimSpace(s)) {
			bad(f.Name, koda.CodeInvalidColor, "%s takes a colour written #rgb or #rrggbb", f.Name)
			return nil, nil
		}
		recolour(d, key, strings.ToLower(strings.TrimSpace(s)))
	case targetImage, targetAudio:
		s, _ := str(raw)
		var cur string
		_ = json.Unmarshal(f.Value, &cur)
		if strings.TrimSpace(s) == cur {
			return nil, nil // the template's own file
		}
		id, url := koda.MediaValue(raw)
		a := assets[id]
		switch {
		case id != "" && a == nil && assets == nil:
			bad(f.Name, koda.CodeAssetUnsupported, "%s keeps the template's own file here; an asset id is taken in a batch's rows", f.Name)
			return nil, nil
		case id != "" && a == nil:
			bad(f.Name, koda.CodeProjectAssetNotFound, "%s: asset %s not found", f.Name, id)
			return nil, nil
		case url != "":
			bad(f.Name, koda.CodeAssetUnsupported, "%s keeps the template's own file here; a URL is fetched only for a batch's rows", f.Name)
			return nil, nil
		case a == nil:
			bad(f.Name, koda.CodeAssetUnsupported, "%s takes the id of an uploaded %s asset (ast_…) or an http(s) URL to fetch it from", f.Name, map[string]string{targetImage: "image", targetAudio: "audio"}[kind])
			return nil, nil
		}
		file, ferr := RowFile(f, a)
		if ferr != nil {
			bad(ferr.Field, ferr.Code, "%s", ferr.Message)
			return nil, nil
		}
		if kind == targetImage {
			e, err := el()
			if err != nil {
				return nil, err
			}
			e.Src = file.File
		}
		return &file, nil
	default:
		return nil, fmt.Errorf("field %s: unknown target %q", f.Name, f.Target)
	}
	return nil, nil
}

// recolour replaces colour from with to wherever the scene uses it.
func recolour(d *scene.Description, from, to string) {
	swap := func(c *string) {
		if strings.EqualFold(*c, from) {
			*c = to
		}
	}
	for i := range d.Background.Colors {
		swap(&d.Background.Colors[i])
	}
	if d.Background.Glow != "" {
		swap(&d.Background.Glow)
	}
	for _, e := range d.Elements {
		eachColour(e, swap)
	}
}

func str(raw json.RawMessage) (string, bool) {
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err == nil
}

// number reads a JSON number, or a text of one ("1,299.50" as a CSV cell has it).
func number(raw json.RawMessage) (float64, bool) {
	var v float64
	if err := json.Unmarshal(raw, &v); err == nil {
		return v, !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	s, ok := str(raw)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// series reads a JSON array of numbers, or a text of numbers separated by ';'.
func series(raw json.RawMessage) ([]float64, bool) {
	var vs []float64
	if err := json.Unmarshal(raw, &vs); err != nil {
		s, ok := str(raw)
		if !ok {
			return nil, false
		}
		vs = nil
		for _, part := range strings.Split(s, ";") {
			v, ok := number(json.RawMessage(strconv.Quote(part)))
			if !ok {
				return nil, false
			}
			vs = append(vs, v)
		}
	}
	for _, v := range vs {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
	}
	return vs, len(vs) > 0
}

func clone(d *scene.Description) (*scene.Description, error) {
	b, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	var c scene.Description
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	return &c, nil
}
