package builtin

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// A scene's place ("on a windy beach", "in a snowy forest at night", "on the kitchen
// counter") is drawn behind its subjects from shapes: a sky or a wall, a ground, water
// or a counter top for them to stand on, and what lies far off (hills, mountains, a
// skyline). Without it a scene is drawings floating on a gradient. The place is a row
// of the settings table and the light a row of the times table; each has an example.

// setting is one kind of place.
type setting struct {
	Name string
	Cues *regexp.Regexp
	// Sky is the backdrop's gradient by day (outdoors) or the walls (indoors).
	Sky [2]string
	// Ground colours the band the subjects stand on; Floor is how high its top is
	// (frame units, 1 the bottom edge): a little above the subjects' feet.
	Ground string
	Floor  float64
	// Far is what lies behind: hills, mountains, skyline, trees, dunes, waves, reef, or "".
	Far    string
	Indoor bool
	// Counter: the ground is a counter top, whose front is drawn below it a shade darker.
	Counter bool
	Under   bool // under water: no sky, no sun, bubbles rising
	// Tint colours the far layer when the prompt names the place's colour.
	Tint    string
	Example string
}

// settings: the first row whose cue the prompt names is the place. More particular
// places come first ("underwater" before "sea", "kitchen" before "room").
var settings = []setting{
	{Name: "underwater", Cues: regexp.MustCompile(`\b(?:under\s*water|underwater|coral|reefs?|sea ?beds?|sea floor|ocean floor|deep sea|seabed|(?:under|beneath|below) the (?:sea|ocean|waves|surface))\b`),
		Sky: [2]string{"#0b6e99", "#03314f"}, Ground: "#e8d3a0", Floor: 0.55, Far: "reef", Under: true,
		Example: "an octopus on a coral reef changes colour as a shark glides past"},
	{Name: "beach", Cues: regexp.MustCompile(`\b(?:beach(?:es)?|seaside|shore|coast|sand(?:y)? (?:beach|shore))\b`),
		Sky: [2]string{"#74c0fc", "#e7f5ff"}, Ground: "#f2d59b", Floor: 0.35, Far: "sea",
		Example: "a kid flies a red kite on a windy beach"},
	{Name: "pond", Cues: regexp.MustCompile(`\b(?:ponds?|lakes?|lily ?pads?|river(?:bank)?s?|swamps?|marsh(?:es)?)\b`),
		Sky: [2]string{"#8fd3fe", "#e6f7ff"}, Ground: "#5aa9c9", Floor: 0.3, Far: "trees",
		Example: "a frog on a lily pad catches a fly"},
	{Name: "sea", Cues: regexp.MustCompile(`\b(?:ocean|open sea|at sea|the sea|harbou?r|waves crash)\b`),
		Sky: [2]string{"#74c0fc", "#e7f5ff"}, Ground: "", Floor: 0.3, Far: "sea",
		Example: "a sailboat crosses the ocean"},
	{Name: "kitchen", Cues: regexp.MustCompile(`\b(?:kitchen|counter ?tops?|worktops?|on (?:a|the) (?:\w+ )?counter)\b`),
		Sky: [2]string{"#fff4e0", "#f3dfc1"}, Ground: "#d9dee4", Floor: 0.3, Indoor: true, Counter: true, Far: "cabinets",
		Example: "a cat on a kitchen counter pushes a glass off the edge"},
	{Name: "room", Cues: regexp.MustCompile(`\b(?:living ?room|bedroom|lounge|office|classroom|indoors|inside (?:a|the) (?:house|room|home)|front door|hallway|windowsill|sofa|couch|desk)\b`),
		Sky: [2]string{"#f6ead8", "#e9d6bd"}, Ground: "#b07d52", Floor: 0.32, Indoor: true, Far: "window",
		Example: "a dog waits by the front door, then the owner walks in"},
	{Name: "city", Cues: regexp.MustCompile(`\b(?:city|street|downtown|town|avenue|road|neighbou?rhood|sidewalk|crosswalk|market)\b`),
		Sky: [2]string{"#8ec5fc", "#e0f0ff"}, Ground: "#5f6b7a", Floor: 0.35, Far: "skyline",
		Example: "early morning city street, a garbage truck comes by"},
	{Name: "forest", Cues: regexp.MustCompile(`\b(?:forest|woods|woodland|jungle|pines?)\b`),
		Sky: [2]string{"#9ad0f5", "#e3f4ff"}, Ground: "#4f8a4b", Floor: 0.32, Far: "trees",
		Example: "a fox trots through the forest"},
	{Name: "mountains", Cues: regexp.MustCompile(`\b(?:mountains?|alps|peaks?|cliffs?|canyon|valley)\b`),
		Sky: [2]string{"#8ec5fc", "#e0f0ff"}, Ground: "#6aa84f", Floor: 0.38, Far: "mountains",
		Example: "hot air balloons drift over a valley"},
	{Name: "desert", Cues: regexp.MustCompile(`\b(?:desert|dunes?|sahara)\b`),
		Sky: [2]string{"#8fd0ff", "#fff1d6"}, Ground: "#e9b872", Floor: 0.35, Far: "dunes",
		Example: "a camel walks across the desert"},
	{Name: "countryside", Cues: regexp.MustCompile(`\b(?:meadows?|fields?|hills?|hillside|countryside|farm|garden|park|lawn|backyard|yard|grass)\b`),
		Sky: [2]string{"#8fd3fe", "#e6f7ff"}, Ground: "#6cbf5a", Floor: 0.35, Far: "hills",
		Example: "a bee flies from flower to flower in a meadow"},
	{Name: "launch pad", Cues: regexp.MustCompile(`\b(?:launch ?pad|lift ?off|liftoff|blast ?off)\b`),
		Sky: [2]string{"#5aa0e6", "#cfe8ff"}, Ground: "#7a8594", Floor: 0.45, Far: "",
		Example: "a rocket lifts off from the launch pad"},
}

// skyTime is the light of the day a prompt names.
type skyTime struct {
	Name  string
	Cues  *regexp.Regexp
	Sky   [2]string // top and bottom of the sky outdoors
	Light string    // "sun", "moon" or ""
	// LightColor and LightGlow paint the sun or moon; Indoors darkens a room's walls by
	// this much (night through the window).
	LightColor string
	LightGlow  float64
	Indoors    float64
	LightY     float64 // how high the sun or moon stands (frame units, -1 the top)
	Stars      bool
	Dim        float64 // how far the ground and far layers darken (0..1)
	Example    string
}

var skyTimes = []skyTime{
	{Name: "night", Cues: regexp.MustCompile(`\b(?:night|midnight|moonlit|moonlight|starry|at dark|nighttime)\b`),
		Sky: [2]string{"#0b1026", "#27365f"}, Light: "moon", LightColor: "#f4f1de", LightGlow: 0.6, LightY: -0.62, Stars: true, Dim: 0.55, Indoors: 0.5,
		Example: "a snowy cabin in the forest at night, smoke curling from the chimney"},
	{Name: "sunset", Cues: regexp.MustCompile(`\b(?:sunset|sundown|dusk|evening|twilight|golden hour|sun (?:sets|is setting|goes down))\b`),
		Sky: [2]string{"#3b2a6b", "#ff9a62"}, Light: "sun", LightColor: "#ffb347", LightGlow: 0.8, LightY: 0.05, Dim: 0.3,
		Example: "wind turbines on green hills as the sun sets"},
	{Name: "sunrise", Cues: regexp.MustCompile(`\b(?:sunrise|dawn|daybreak|early morning|morning light|morning|sun (?:rises|comes up))\b`),
		Sky: [2]string{"#8ec5fc", "#ffd9b0"}, Light: "sun", LightColor: "#ffd54f", LightGlow: 0.8, LightY: -0.05, Dim: 0.1,
		Example: "early morning city street, birds fly up"},
	{Name: "day", Cues: regexp.MustCompile(`\b(?:sunny|noon|midday|daytime|summer day|sunshine)\b`),
		Sky: [2]string{"#5fb4f5", "#dff1ff"}, Light: "sun", LightColor: "#ffd54f", LightGlow: 0.8, LightY: -0.6,
		Example: "a sunny day in the park"},
}

// placeNoun: the word names a place of the settings table ("hills", "beach").
func placeNoun(w string) bool {
	for _, s := range settings {
		if s.Cues.MatchString(w) {
			return true
		}
	}
	return false
}

// settingFor is the prompt's place, if it names one: the place named first ("wind
// turbines on green hills send power to a small town" happens on the hills), and the
// light of the day it names, else day.
func settingFor(low string) (setting, skyTime, bool) {
	best, at := -1, len(low)+1
	for i, s := range settings {
		if loc := s.Cues.FindStringIndex(low); loc != nil && loc[0] < at {
			best, at = i, loc[0]
		}
	}
	if best < 0 {
		return setting{}, skyTime{}, false
	}
	s := settings[best]
	if snowyRE.MatchString(low) && !s.Indoor && !s.Under {
		s.Ground, s.Tint = "#eef3f8", "#dfe8f1" // "a snowy night", "in winter": snow lies on it
	}
	for _, t := range skyTimes {
		if t.Cues.MatchString(low) {
			return s, t, true
		}
	}
	return s, skyTime{Name: "day"}, true
}

// snowyRE: the ground is under snow.
var snowyRE = regexp.MustCompile(`\b(?:snowy|snow-covered|snowfall|winter|snow (?:falling|falls|covers|covered))\b`)

// setting draws the place of a scene of drawn subjects, unless the prompt asked for its
// own background or the background is the subject. It runs before the subjects are
// placed, so the palette's text colour already reads on the new sky.
func (c *composer) setting() {
	if c.genre != nil || c.b.Background != "" && !c.b.ImpliedBackground || !c.drawsThings() {
		return
	}
	low := strings.ToLower(c.b.Prompt)
	s, t, ok := settingFor(low)
	if !ok {
		return
	}
	sky := s.Sky
	if !s.Indoor && !s.Under && t.Sky[0] != "" {
		sky = t.Sky
	}
	if s.Indoor && t.Indoors > 0 {
		sky = [2]string{darken(s.Sky[0], t.Indoors), darken(s.Sky[1], t.Indoors)}
	}
	c.bd.Palette.Background = sky
	c.bd.Palette.Glow = ""
	c.bd.Palette.Text = "#111827"
	if luminance(mix(sky[0], sky[1])) < 0.45 {
		c.bd.Palette.Text = "#ffffff"
	}
	c.d.Background = scene.Background{Colors: []string{sky[0], sky[1]}, Angle: 180}
	dim := func(col string) string { return darken(col, t.Dim) }
	if g := c.b.GroundColor; g != "" {
		s.Ground, s.Tint = g, g // "green hills": the ground and the hills in that green
	}
	var layer []*scene.Element
	add := func(e *scene.Element) {
		e.Depth, e.Label = 0.99, orDefault(e.Label, "setting")
		layer = append(layer, e)
	}
	// The light: a sun or moon in the upper corner, away from the middle the subjects use.
	if !s.Indoor && !s.Under && t.Light != "" && !c.names(t.Light) {
		add(&scene.Element{ID: "setting-" + t.Light, Type: scene.TypeCircle, Label: t.Light, X: 0.68, Y: t.LightY, Size: 0.09, Color: t.LightColor, Glow: t.LightGlow})
	}
	if t.Stars && !s.Indoor && !c.names("stars") {
		add(&scene.Element{ID: "setting-stars", Type: scene.TypeParticles, Variant: "stars", Count: 60, Size: 0.005, Color: "#fff8e1", Seed: 7})
	}
	c.farLayer(s, dim, add)
	if s.Ground != "" {
		add(c.band("setting-ground", s.Floor, dim(s.Ground)))
	}
	if s.Counter {
		// A counter's front under its top, a shade darker: a surface, not a floor.
		add(c.band("setting-counter-front", s.Floor+0.08, darken(dim(s.Ground), 0.18)))
	}
	if s.Under {
		add(&scene.Element{ID: "setting-bubbles", Type: scene.TypeParticles, Variant: "bubbles", Count: 18, Size: 0.01, Color: "#d6f3ff", Seed: 3})
	}
	c.d.Elements = append(layer, c.d.Elements...)
}

// names: a subject of the scene is the sun, the moon or the stars the light would add.
func (c *composer) names(what string) bool {
	for _, s := range c.b.Subjects {
		if strings.EqualFold(s.Noun, what) || s.Kind == "particles" && s.Variant == what {
			return true
		}
	}
	return false
}

// drawsThings: the scene has a drawing of the library among its subjects.
func (c *composer) drawsThings() bool {
	for _, s := range c.b.Subjects {
		if s.Kind == "asset" {
			return true
		}
	}
	return false
}

// The far layers are drawn as paths in units of a tenth of the frame's shorter side,
// standing on the ground line and reaching far past both edges: the same scene plays
// in 16:9, 1:1 and 9:16, and a shape sized to one frame would float in another.
const farUnit = 0.1

// skylinePath, hillPath, ridgePath, dunePath are outlines in farUnit units, y up
// negative, from x = -18 to 18, closed below the ground line.
var (
	skylinePath = func() string {
		var b strings.Builder
		b.WriteString("M-18,4 L-18,-3")
		x := -18.0
		widths := []float64{1.6, 1.1, 2.0, 1.3, 1.7, 1.0, 1.9, 1.4, 1.2, 2.1, 1.5}
		heights := []float64{3.2, 4.6, 2.4, 5.4, 3.6, 2.8, 4.3, 3.0, 5.0, 2.6, 3.8}
		for i := 0; x < 18; i++ {
			h := heights[i%len(heights)]
			fmt.Fprintf(&b, " L%.1f,%.1f", x, -h)
			x += widths[i%len(widths)]
			fmt.Fprintf(&b, " L%.1f,%.1f", math.Min(x, 18), -h)
		}
		b.WriteString(" L18,4 Z")
		return b.String()
	}()
	hillPath  = "M-18,4 L-18,-0.6 Q-14,-3.6 -10,-1.2 Q-6,0.8 -2,-2.4 Q2,-4.2 6,-1.4 Q10,0.6 14,-2.6 Q16,-3.4 18,-1.2 L18,4 Z"
	ridgePath = "M-18,4 L-18,-1 L-15,-4.4 L-12,-2 L-8,-6.2 L-4,-2.6 L0,-7.2 L4,-3 L8,-5.6 L12,-2.2 L15,-4.8 L18,-1.6 L18,4 Z"
	dunePath  = "M-18,4 L-18,-1 Q-12,-3.4 -6,-1.2 Q0,0.6 6,-2.6 Q12,-4 18,-1.4 L18,4 Z"
	treesPath = func() string {
		var b strings.Builder
		for i, x := 0, -18.0; x <= 18; i, x = i+1, x+1.9 {
			h := []float64{2.6, 3.4, 2.2, 3.0}[i%4]
			fmt.Fprintf(&b, "M%.1f,0.6 L%.1f,%.1f L%.1f,0.6 Z ", x-1, x, -h, x+1)
		}
		return strings.TrimSpace(b.String())
	}()
)

// band is the ground: from top (frame units) down past the bottom edge, frame-wide.
func (c *composer) band(id string, top float64, color string) *scene.Element {
	return &scene.Element{ID: id, Type: scene.TypeRect, Variant: "ground", X: 0, Y: round3(top), Size: 0.05, Color: color}
}

// far is an outline standing on the ground line y.
func (c *composer) far(id, path string, y float64, color string) *scene.Element {
	return &scene.Element{ID: id, Type: scene.TypePath, Path: path, X: 0, Y: round3(y), Size: farUnit, Color: color}
}

// farLayer adds what lies behind the subjects, resting on the ground's top edge.
func (c *composer) farLayer(s setting, dim func(string) string, add func(*scene.Element)) {
	y := s.Floor
	switch s.Far {
	case "hills":
		base := orDefault(s.Tint, "#7cc96b")
		add(c.far("setting-hills-far", ridgePathSoft, y, dim(lighten(base, 0.25))))
		add(c.far("setting-hills", hillPath, y, dim(base)))
	case "mountains":
		add(c.far("setting-mountains", ridgePath, y, dim(orDefault(s.Tint, "#7d8fa6"))))
	case "dunes":
		add(c.far("setting-dunes", dunePath, y, dim("#f0c987")))
	case "trees":
		add(c.far("setting-trees", treesPath, y, dim("#2f6b3a")))
	case "skyline":
		add(c.far("setting-skyline", skylinePath, y, dim("#9aa7b8")))
	case "sea":
		add(&scene.Element{ID: "setting-sea", Type: scene.TypeWave, Variant: "fill", Label: "sea", X: 0, Y: round3(y - 0.1), Size: 0.04, Color: dim("#3a8fd6")})
	case "reef":
		for i := 0; i < 5; i++ {
			add(&scene.Element{ID: c.settingID("coral", i), Type: scene.TypeCircle, X: round3(-0.9 + float64(i)*0.45), Y: round3(y),
				Size: 0.06 + 0.02*float64(i%2), Color: []string{"#ff7f6e", "#ffb86b", "#e56bb5"}[i%3]})
		}
	case "cabinets":
		// Upper cabinets along the top of the wall: a kitchen before anything moves.
		add(c.far("setting-cabinets", "M-18,-1 L18,-1 L18,2.6 L-18,2.6 Z", -1.05, "#c9a27e"))
	case "window":
		add(c.far("setting-window-frame", "M-3,-2.4 L3,-2.4 L3,2.4 L-3,2.4 Z", -0.45, "#ffffff"))
		add(c.far("setting-window", "M-2.7,-2.1 L-0.1,-2.1 L-0.1,2.1 L-2.7,2.1 Z M0.1,-2.1 L2.7,-2.1 L2.7,2.1 L0.1,2.1 Z", -0.45, "#a9d8ff"))
	}
}

// ridgePathSoft is a farther, rounder ridge behind the hills.
const ridgePathSoft = "M-18,4 L-18,-2 Q-13,-5 -8,-2.6 Q-3,-0.6 2,-4 Q7,-6 12,-3 Q15,-1.6 18,-3 L18,4 Z"

func (c *composer) settingID(what string, i int) string {
	return "setting-" + what + "-" + string(rune('1'+i))
}
