package builtin

import (
	"math"
	"regexp"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// seriesColors are the colours of a chart's values when the prompt names none: distinct
// hues that stay apart from each other on light and dark backgrounds.
var seriesColors = []string{"#6366f1", "#f43f5e", "#f59e0b", "#10b981", "#0ea5e9", "#a855f7", "#84cc16", "#ec4899", "#14b8a6", "#f97316"}

// dataColors gives n values their colours: the ones the prompt names, then the
// subject's colour, then series colours that stand apart from the background and from
// the colours already used.
func dataColors(n int, given []string, first string, bg [2]string) []string {
	out := make([]string, n)
	var used []string
	for i := 0; i < n && i < len(given); i++ {
		if given[i] != "" {
			out[i] = given[i]
			used = append(used, given[i])
		}
	}
	candidates := append([]string{first}, seriesColors...)
	next := 0
	for i := range out {
		if out[i] != "" {
			continue
		}
		for next < len(candidates) {
			c := candidates[next]
			next++
			ok := c != "" && colorDist(c, bg[0]) > 90 && colorDist(c, bg[1]) > 90
			for _, u := range used {
				ok = ok && colorDist(c, u) > 80
			}
			if ok {
				out[i] = c
				break
			}
		}
		if out[i] == "" {
			out[i] = seriesColors[i%len(seriesColors)]
		}
		used = append(used, out[i])
	}
	return out
}

// isDataType reports whether an element draws data: it keeps still while it is read
// (no spins or wiggles) and its progress track plays its data.
func isDataType(t string) bool {
	switch t {
	case scene.TypeChart, scene.TypeCounter, scene.TypeCountdown, scene.TypeChecklist, scene.TypeClock, scene.TypeProgress:
		return true
	}
	return false
}

// dataWindow is the time data elements play their data in: after the intro, before the
// outro (the whole video when the plan is too short for both).
func (c *composer) dataWindow() (float64, float64) {
	n := len(c.bounds) - 1
	a, b := c.bounds[0], c.bounds[n]
	if n >= 3 {
		a, b = c.bounds[1], c.bounds[n-1]
	}
	return a, b
}

// decorateData sets up a data element from the data the prompt gave: a chart's values,
// labels and colours, a counter's target and caption, a countdown's sequence and times,
// a checklist's items and check times, a clock's hands, a progress bar's percent.
func (c *composer) decorateData(e *scene.Element, s subject) {
	d := s.Data
	pal := c.bd.Palette
	bg := pal.Background
	e.TextColor = pal.Text
	a, b := c.dataWindow()
	switch d.Kind {
	case dataBar, dataLine, dataPie, dataDonut:
		e.Values, e.Labels, e.Prefix, e.Suffix, e.Text = d.Values, d.Labels, d.Prefix, d.Suffix, d.Title
		e.Size, e.Aspect = 0.34, 1.6
		switch d.Kind {
		case dataPie, dataDonut:
			e.Variant = map[string]string{dataPie: scene.ChartPie, dataDonut: scene.ChartDonut}[d.Kind]
			given := d.Colors
			if given == nil && d.Scale != nil {
				// Slices have no heights to scale by: the scale steps from slice to slice.
				given = make([]string, len(d.Values))
				for i := range given {
					given[i] = mixHex(d.Scale[0], d.Scale[1], float64(i)/float64(len(given)-1))
				}
			}
			e.Colors = dataColors(len(d.Values), given, e.Color, bg)
			e.Color = e.Colors[0]
			e.Color2 = mix(bg[0], bg[1]) // the thin gaps between slices
		case dataLine:
			e.Variant = scene.ChartLine
			e.Color2 = mix(bg[0], bg[1])
			e.Aspect = 1.7
		default:
			if len(d.Colors) > 0 {
				e.Colors = dataColors(len(d.Values), d.Colors, e.Color, bg)
			}
			// A scale says what the values are like (cold to hot), so it colours by
			// value, not by a bar's place in the row.
			e.ColorScale = d.Scale
			e.Color2 = darken(e.Color, 0.3)
			if d.Across {
				e.Variant = scene.ChartHBar
			}
			e.Aspect = math.Min(1.8, 1.1+0.12*float64(len(d.Values)))
		}
		key(trackOf(e), "progress", 0, 0, "")
	case dataWaterfall, dataRadar, dataHeatmap:
		e.Values, e.Labels, e.Series, e.Prefix, e.Suffix, e.Text = d.Values, d.Labels, d.Series, d.Prefix, d.Suffix, d.Title
		e.Size, e.Aspect = 0.34, 1.6
		switch d.Kind {
		case dataWaterfall:
			e.Variant = scene.ChartWaterfall
			e.Aspect = math.Min(1.8, 1.1+0.1*float64(len(d.Values)))
			// Totals take the subject's colour unless the prompt names theirs; ups and
			// downs keep the runtime's green and red unless it names others.
			e.Colors = d.Colors
			e.Color2 = pal.Text // the slashes on a total whose axis is cut
		case dataRadar:
			e.Variant, e.To = scene.ChartRadar, d.To
			e.Colors = dataColors(max(1, len(d.Values)/max(1, len(d.Labels))), d.Colors, e.Color, bg)
			e.Color = e.Colors[0]
		case dataHeatmap:
			e.Variant, e.Count, e.Items = scene.ChartHeatmap, d.Count, d.Items
			e.ColorScale = append([]string(nil), d.Scale...)
			for i, col := range e.ColorScale {
				// An end of the scale as dark (or light) as the background would draw its
				// cells as holes: it is moved towards the text's colour until it reads.
				for k := 0; k < 6 && colorDist(col, mix(bg[0], bg[1])) < 80; k++ {
					col = mixHex(col, pal.Text, 0.15)
				}
				e.ColorScale[i] = col
			}
			if len(e.ColorScale) == 0 {
				// A pale tint of the subject's colour to the colour itself, the low end
				// lifted off the background so the quiet cells still read as cells.
				e.ColorScale = []string{mixHex(e.Color, mix(bg[0], bg[1]), 0.6), e.Color}
			}
			e.Color2 = "#facc15" // the outline of the cells the prompt asks to find
			if c, ok := outlineColor(c.b.Prompt); ok {
				e.Color2 = c
			}
			e.Aspect = 1.7
		}
		key(trackOf(e), "progress", 0, 0, "")
	case dataScatter, dataTreemap, dataPyramid:
		e.Values, e.Labels, e.Prefix, e.Suffix, e.Text = d.Values, d.Labels, d.Prefix, d.Suffix, d.Title
		e.Size, e.Aspect = 0.34, 1.6
		if d.OneByOne {
			e.Reveal = "pop"
		}
		switch d.Kind {
		case dataScatter:
			e.Variant, e.Count, e.Range, e.Fit, e.Sub = scene.ChartScatter, d.Count, d.Range, d.Fit, d.Label
			if len(d.Colors) > 0 && d.Colors[0] != "" {
				e.Color = d.Colors[0]
			} else if len(d.Colors) > 1 && colorDist(e.Color, d.Colors[1]) < 80 {
				// The colour the prompt gave its line is the line's: the dots take
				// another ("a trend line in orange" over orange dots would vanish).
				e.Color = dataColors(1, nil, "", [2]string{d.Colors[1], mix(bg[0], bg[1])})[0]
			}
			// The line of best fit in the colour the prompt names, else one that
			// stands apart from the dots and the background.
			e.Color2 = dataColors(2, d.Colors, e.Color, bg)[1]
		case dataTreemap:
			e.Variant, e.To = scene.ChartTreemap, d.To
			e.Colors = dataColors(len(d.Values), d.Colors, e.Color, bg)
			for i, c := range e.Colors {
				if i >= len(d.Colors) || d.Colors[i] == "" {
					// Blocks side by side read as one whole in muted colours; a
					// colour the prompt names stays as named.
					e.Colors[i] = mixHex(c, "#808080", 0.3)
				}
			}
		case dataPyramid:
			e.Variant, e.Series, e.From, e.To, e.Items = scene.ChartPyramid, d.Series, d.From, d.To, d.Items
			e.Colors = dataColors(2, d.Colors, e.Color, bg)
			e.Aspect = 1.5
		}
		key(trackOf(e), "progress", 0, 0, "")
	case dataCounter:
		e.From, e.To, e.Prefix, e.Suffix = d.From, d.To, d.Prefix, d.Suffix
		e.Sub = orDefault(c.quoteFor(c.subjectIndex(s)), d.Label)
		if s.Color == "" {
			e.Color = pal.Text
		}
		key(trackOf(e), "progress", 0, 0, "")
	case dataCountdown:
		e.Items, e.Size = d.Items, 0.26
		e.Color2 = e.Color
		if s.Color == "" {
			e.Color = pal.Text
		}
		// One second a number, as a countdown is read; faster when the video is short.
		n := float64(len(d.Items))
		step := 1.0
		if n > 1 {
			step = math.Max(0.4, math.Min(1.0, (c.bd.Total-0.3-1.5)/(n-1)))
		}
		for i := range d.Items {
			e.Times = append(e.Times, round3(0.3+step*float64(i)))
		}
	case dataChecklist:
		e.Items, e.Size = d.Items, 0.3
		// Items are checked one by one across the video's middle.
		n := float64(len(d.Items))
		step := math.Min(1.0, (b-a)/n)
		for i := range d.Items {
			at := a + 0.2 + step*float64(i)
			if i >= len(d.Items)-d.Open {
				at = c.bd.Total + 60 // left open: its tick comes after the video
			}
			e.Times = append(e.Times, round3(at))
		}
	case dataClock:
		e.Size, e.Count, e.From = 0.34, int(math.Max(1, math.Round(d.Turns))), round3(d.Hour)
		if s.Color == "" {
			e.Color = pal.Text
		}
		// The face is a lighter tone of the background, so the ink keeps its contrast.
		face := mix(bg[0], bg[1])
		if luminance(face) > 0.5 {
			e.Color2 = lighten(face, 0.6)
		} else {
			e.Color2 = lighten(face, 0.12)
		}
		key(trackOf(e), "progress", 0, 0, "")
		key(trackOf(e), "progress", a, 0, "")
		key(trackOf(e), "progress", b, 1, "easeInOutSine")
	case dataProgress:
		e.To, e.Size, e.Aspect, e.Sub = d.To, 0.14, 3, d.Label
		key(trackOf(e), "progress", 0, 0, "")
	}
}

func (c *composer) subjectIndex(s subject) int {
	for i := range c.b.Subjects {
		if c.b.Subjects[i].Data == s.Data && c.b.Subjects[i].Noun == s.Noun {
			return i
		}
	}
	return -1
}

// outlineColorRE: the colour of the box a prompt draws around cells ("outlining the
// weekday 10–2 cells with a yellow box", "circled in white").
var outlineColorRE = regexp.MustCompile(`(?i)\b(?:outlin\w+|highlight\w*|circl\w+|box\w*|mark\w*)\b[^.]*?\b(?:with|in)\s+(?:a|an|the)?\s*((?:[a-z]+\s+)?[a-z]+)\s+(?:box|outline|border|frame|ring|stroke)\b|\b(?:outlin\w+|circl\w+|box\w*)\s+in\s+((?:[a-z]+\s+)?[a-z]+)\b`)

func outlineColor(prompt string) (string, bool) {
	for _, m := range outlineColorRE.FindAllStringSubmatch(prompt, -1) {
		for _, g := range m[1:] {
			if c, ok := colorPhrase(strings.ToLower(g)); ok && g != "" {
				return c, true
			}
		}
	}
	return "", false
}
