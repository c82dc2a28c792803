// Package scene defines the scene description — the data an agent produces for an
// animation (background, camera, elements, keyframes, motions, easings) — and the static
// canvas-2D runtime that plays it. The description is the source of truth: agents edit
// it and recompile scene.js; runtime.js and index.html never change per project.
//
// Coordinates: x and y run from -1 to 1 across the frame's half-width and half-height
// (y grows downwards), so "across the screen" spans any frame. Sizes are fractions of the
// frame's shorter side, so shapes keep their proportions in landscape, portrait and square
// frames; the runtime shrinks or wraps text that would not fit the width.
package scene

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/kodahq/koda/agent/assets"
)

// Files written into a sandbox for a scene-based animation.
const (
	FileIndex   = "index.html"
	FileRuntime = "runtime.js"
	FileScene   = "scene.js"
	FileJSON    = "scene.json"
)

// Version of the description format.
const Version = 1

//go:embed runtime.js
var runtimeJS []byte

//go:embed index.html
var indexHTML []byte

//go:embed schema.json
var schemaJSON []byte

// Schema returns the JSON Schema (draft 2020-12) of a description: what a language model
// is asked to produce. Parse enforces it: unknown fields are refused and Validate checks
// every range and reference the schema states.
func Schema() []byte { return append([]byte(nil), schemaJSON...) }

// RuntimeJS returns the static runtime (a copy).
func RuntimeJS() []byte { return append([]byte(nil), runtimeJS...) }

// IndexHTML returns the static page that loads runtime.js and scene.js (a copy).
func IndexHTML() []byte { return append([]byte(nil), indexHTML...) }

// Description is a whole animation.
type Description struct {
	Version    int        `json:"version"`
	Title      string     `json:"title,omitempty"`
	Duration   float64    `json:"duration"`
	FPS        int        `json:"fps"`
	Style      string     `json:"style,omitempty"`
	Background Background `json:"background"`
	Camera     Camera     `json:"camera,omitempty"`
	Scenes     []Mark     `json:"scenes,omitempty"`
	Elements   []*Element `json:"elements"`
	Effects    Effects    `json:"effects,omitempty"`
	// SafeArea keeps content clear of the edges platform UI covers in vertical frames.
	SafeArea *SafeArea `json:"safe_area,omitempty"`
	// Font is a typeface file of the project (a brand's) that every text is set in;
	// nil sets text in the runtime's own fonts.
	Font *Font `json:"font,omitempty"`
}

// Font names a typeface file of the project. The runtime declares it with @font-face
// and waits for it to load before the first frame, so every frame has it.
type Font struct {
	Family string `json:"family"`
	Src    string `json:"src"` // a relative path inside the project: assets/font.woff2
}

var (
	fontFamilyRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 _-]{0,63}$`)
	fontSrcRE    = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_./-]*\.(ttf|otf|woff|woff2)$`)
)

// SafeArea insets, as fractions of the frame's height (top, bottom) and width (left,
// right). The runtime applies them in portrait frames only (height > width): there
// element positions span the inset rectangle instead of the whole frame, and sizes
// follow its shorter side, so subjects and text stay clear of a story's or reel's
// captions, buttons and progress bars. Landscape and square frames use the whole frame.
type SafeArea struct {
	Top    float64 `json:"top"`
	Bottom float64 `json:"bottom"`
	Left   float64 `json:"left"`
	Right  float64 `json:"right"`
}

// VerticalSafeArea is the inset rectangle of 9:16 stories, reels and shorts: the top
// carries the account name and progress bar, the bottom the caption and buttons.
var VerticalSafeArea = SafeArea{Top: 0.12, Bottom: 0.2, Left: 0.07, Right: 0.07}

// ContentRect is the rectangle (x, y, width, height in pixels) that element positions
// span in a w×h frame: the whole frame, or the safe area in portrait frames. The
// runtime computes the same rectangle (contentRect in runtime.js).
func (d *Description) ContentRect(w, h float64) (x, y, cw, ch float64) {
	if d.SafeArea == nil || h <= w {
		return 0, 0, w, h
	}
	sa := d.SafeArea
	return sa.Left * w, sa.Top * h, w * (1 - sa.Left - sa.Right), h * (1 - sa.Top - sa.Bottom)
}

// Mark names a time range of the plan, kept for readers and editors of the description.
type Mark struct {
	ID    string  `json:"id"`
	Name  string  `json:"name"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
}

// Background is always drawn first, so no frame is ever blank. Its gradient angle drifts
// with time so even a still composition keeps a little life.
type Background struct {
	Colors []string `json:"colors"`          // 1–3 gradient stops
	Angle  float64  `json:"angle"`           // degrees
	Drift  float64  `json:"drift,omitempty"` // degrees of rotation over the whole duration
	Glow   string   `json:"glow,omitempty"`  // colour of a soft radial glow that wanders slowly
}

// Camera moves the whole composition (the background follows at a fraction: parallax).
// Tracks: "zoom" (1 = none), "x", "y" (frame units), "rotation" (degrees).
type Camera struct {
	Tracks map[string][]Keyframe `json:"tracks,omitempty"`
}

// Effects are drawn over everything.
type Effects struct {
	Vignette  float64 `json:"vignette,omitempty"`  // 0..1 darkening of the corners
	Letterbox float64 `json:"letterbox,omitempty"` // bar height as a fraction of the frame, landscape only
	// LetterboxIn is when the bars finish sliding in (seconds).
	LetterboxIn float64 `json:"letterbox_in,omitempty"`
	// Scanlines is the strength (0..1) of thin dark lines rolling slowly down the whole
	// frame: the raster of an old screen, for a VHS or glitch look.
	Scanlines float64 `json:"scanlines,omitempty"`
}

// Element types the runtime draws.
const (
	TypeCircle    = "circle"
	TypeRect      = "rect"
	TypeStar      = "star"
	TypeHeart     = "heart"
	TypeTriangle  = "triangle"
	TypeRing      = "ring"
	TypeWave      = "wave"
	TypeText      = "text"
	TypeParticles = "particles"
	TypeChart     = "chart"
	TypeCounter   = "counter"
	TypeLogo      = "logo"
	TypeCard      = "card"
	TypeIcon      = "icon"  // a named pictogram (Variant: rocket, bird, cloud…)
	TypeImage     = "image" // a picture from the project's files (Src)
	TypePath      = "path"  // custom SVG path data (Path), drawn with progress
	TypeMorph     = "morph" // an outline morphing through Shapes as progress goes 0→1
	// TypeAsset draws an illustration or icon of the embedded library (Asset holds its
	// id, "fluent:airplane"); its SVG is written to the project at assets.File(id).
	TypeAsset = "asset"
	// Data elements: their data comes from the prompt (Values, Labels, Items, To).
	TypeCountdown = "countdown" // Items shown one at a time, item i from Times[i]
	TypeChecklist = "checklist" // Items in boxes, item i checked at Times[i]
	TypeClock     = "clock"     // a face with ticks; progress 0→1 turns the minute hand Count times from From o'clock
	TypeProgress  = "progress"  // a bar filling to To percent as progress goes 0→1, with its percent label
)

// Chart variants (Variant of a TypeChart element).
const (
	ChartBar   = "bar" // the default
	ChartPie   = "pie"
	ChartDonut = "donut"
	ChartLine  = "line"
	ChartHBar  = "hbar" // bars lying down, growing from a left axis: a poll, a ranking
	// ChartWaterfall is a bridge from one total to another: the first and last values
	// are totals standing on the axis, those between are signed changes floating from
	// the running total (up in the first colour of Colors or green, down in red).
	ChartWaterfall = "waterfall"
	// ChartRadar is a spider chart: Labels name its 3–8 axes, Values hold one run of
	// len(Labels) scores per series (Series names them), To is the scale's top (0: the
	// highest value, rounded up).
	ChartRadar = "radar"
	// ChartHeatmap is a grid coloured by value: Series name its rows, Labels its
	// columns, Values run row by row; ColorScale goes from low to high; Count outlines
	// the Count highest cells, a negative Count the lowest ("the best time" of a
	// busyness grid is its quietest); Items, when given, are the words of the scale's
	// ends (quiet, packed): the values are levels told in words, so no cell prints one.
	ChartHeatmap = "heatmap"
	// ChartScatter is dots on two value axes: Values hold x, y pairs, or x, y, size
	// triples when Count is 3 (a bubble chart); Labels name the x and y axes (and what a
	// bubble's size is); Range, when given, is the axes' extent; Fit is the line of best
	// fit drawn after the dots in Color2, Sub its label ("r = 0.82"). Reveal "pop" pops
	// the dots in one by one instead of all growing together.
	ChartScatter = "scatter"
	// ChartTreemap is a rectangle split into blocks whose areas are the values
	// (squarified, largest first); Labels name the blocks, Colors colour them, To > 0
	// is a total written under them. Reveal "pop" brings the blocks in one by one,
	// largest first.
	ChartTreemap = "treemap"
	// ChartPyramid is two series of bars going left and right from a centre column of
	// band names (a population pyramid, a butterfly or tornado chart): Labels name the
	// bands top to bottom, Series the left and right sides, Values hold the left run
	// then the right run; two more runs (the left and right of a second period) make
	// the bars morph from the first period to the second while a counter goes From one
	// year To the other.
	ChartPyramid = "pyramid"
)

var chartVariants = []string{"", ChartBar, ChartPie, ChartDonut, ChartLine, ChartHBar, ChartWaterfall, ChartRadar, ChartHeatmap, ChartScatter, ChartTreemap, ChartPyramid}

var elementTypes = []string{TypeCircle, TypeRect, TypeStar, TypeHeart, TypeTriangle, TypeRing,
	TypeWave, TypeText, TypeParticles, TypeChart, TypeCounter, TypeLogo, TypeCard, TypeIcon, TypeImage,
	TypePath, TypeMorph, TypeAsset, TypeCountdown, TypeChecklist, TypeClock, TypeProgress}

// Icons the runtime draws for TypeIcon.
var Icons = []string{"rocket", "bird", "cloud", "bolt", "check", "bell", "mail", "pin", "leaf", "flame",
	"music", "chat", "gift", "cup", "car", "house", "trophy", "tree", "fish", "flower", "sun", "moon", "camera", "cart"}

// MorphShapes are the outlines TypeMorph can pass through.
var MorphShapes = []string{"circle", "square", "star", "heart", "triangle", "blob"}

// Element is one thing on screen. Base fields give its resting state; Tracks animate
// properties with keyframes and Motions add procedural movement (bounces, floats…)
// that is still a pure function of time.
type Element struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Label string `json:"label,omitempty"` // the word from the prompt ("ball"), for editors

	// Visible from Start to End seconds (End 0 means to the end).
	Start float64 `json:"start"`
	End   float64 `json:"end,omitempty"`

	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Size   float64 `json:"size"` // fraction of the frame's shorter side (radius, half-size or font size)
	Aspect float64 `json:"aspect,omitempty"`
	Color  string  `json:"color,omitempty"`
	Color2 string  `json:"color2,omitempty"` // secondary colour: gradient, stroke or detail
	// TextColor colours an element's own words (a logo's name, a counter's caption), so
	// they read on the background rather than on the element.
	TextColor string  `json:"text_color,omitempty"`
	Shadow    bool    `json:"shadow,omitempty"` // soft drop shadow; a bouncing element also gets a ground shadow
	Glow      float64 `json:"glow,omitempty"`   // 0..1 outer glow in the element's colour

	Text   string `json:"text,omitempty"`
	Sub    string `json:"sub,omitempty"` // secondary line (cards, logos, counters)
	Weight int    `json:"weight,omitempty"`
	Reveal string `json:"reveal,omitempty"` // text reveal: "pop", "rise", "fade", "track", "type", "words" (one word after another), "karaoke" (shown whole, Color2 sweeping across it with progress)
	// Wrap is the widest a text's line may be, in sizes, for words that sit inside a
	// shape (a circle of a Venn diagram, a box of an org chart); 0 wraps at the frame.
	Wrap   float64   `json:"wrap,omitempty"`
	Count  int       `json:"count,omitempty"`  // particles, star points, bars, clock turns
	Values []float64 `json:"values,omitempty"` // chart values: bars, slices, points
	// Labels name the chart's values (categories, slices, points), in order.
	Labels []string `json:"labels,omitempty"`
	// Colors colour the chart's values one by one ("40% red"); "" or missing entries
	// take the element's palette.
	Colors []string `json:"colors,omitempty"`
	// ColorScale colours a bar chart by value ("blue to red" temperatures): the lowest
	// bar takes the first colour, the highest the last, those between their place on
	// the scale, so colour and height tell the same thing whatever the bars' order.
	ColorScale []string `json:"color_scale,omitempty"`
	// Series name the runs of a chart whose values form a grid: a radar's polygons (two
	// products), a heatmap's rows (weekdays). Values hold len(Labels) values per series,
	// one series after another.
	Series []string `json:"series,omitempty"`
	// Range is a scatter's axes as the prompt gives them: x from, x to, y from, y to.
	Range []float64 `json:"range,omitempty"`
	// Fit is a scatter's line of best fit, y = Fit[0]·x + Fit[1], worked out from its
	// points by least squares where the scene is written, so the drawing only draws it.
	Fit    []float64 `json:"fit,omitempty"`
	From   float64   `json:"from,omitempty"` // counter
	To     float64   `json:"to,omitempty"`
	Prefix string    `json:"prefix,omitempty"`
	// Decimals a counter shows when its figure was written with more than its value
	// keeps ("$1.70" is 1.7 written with two).
	Decimals int     `json:"decimals,omitempty"`
	Suffix   string  `json:"suffix,omitempty"`
	Variant  string  `json:"variant,omitempty"` // particles: stars, confetti, bubbles, sparkles, snow, rain, spiral, dust, fireworks, popcorn (kernels popping out of x, y); wave: line (default) or fill; ring: spinner (an open arc)
	Seed     int     `json:"seed,omitempty"`
	Depth    float64 `json:"depth,omitempty"` // camera parallax factor; 0 means 1 (moves with the camera)
	// Fixed keeps the element where it is on screen whatever the camera does: a logo
	// mark placed inside every frame's safe area stays there through zooms and pans.
	Fixed bool `json:"fixed,omitempty"`
	// In is the id of the element this one is in or on (a key in its lock, a fish in
	// its bowl, a tag on its hook): drawn over it on purpose, so the pair may overlap.
	In string `json:"in,omitempty"`
	// Depicts names what the element depicts together with its parts when no part alone
	// is that thing: a track and its knob are a toggle switch, a body and its terminal a
	// battery, a bob on its swing's cord a pendulum. Only a composed element may say it:
	// one that another element is In, or that hangs on the cord of a swing.
	Depicts string `json:"depicts,omitempty"`

	Src   string `json:"src,omitempty"`   // image: a file of the project ("assets/logo.png")
	Asset string `json:"asset,omitempty"` // asset: a library id ("fluent:airplane", "tabler:settings")
	// Hue turns an asset illustration's colours by this many degrees (a red car drawn
	// blue: assets.Asset.HueShift); line icons take Color instead.
	Hue float64 `json:"hue,omitempty"`
	// Tint paints an asset illustration's main part this colour, its shading kept (a
	// yellow bus, a pink doughnut: assets.Asset.Tint); its SVG is written at
	// assets.TintFile.
	Tint   string   `json:"tint,omitempty"`
	Path   string   `json:"path,omitempty"`   // path: SVG path data in a 2×2 box centred on 0,0
	Shapes []string `json:"shapes,omitempty"` // morph: outlines passed through as progress goes 0→1
	// Items are lines of a staggered list (text elements): each is revealed Stagger
	// seconds after the previous one.
	Items   []string `json:"items,omitempty"`
	Stagger float64  `json:"stagger,omitempty"`
	// Times are when each item happens, in seconds: a countdown shows item i from
	// Times[i], a checklist checks item i at Times[i]. Motions that act "one by one"
	// set them; missing times spread the items over the element's progress.
	Times []float64 `json:"times,omitempty"`

	// Tracks: "x", "y", "scale", "sx", "sy", "rotation" (degrees), "opacity", "progress"
	// (0..1: text reveal, chart growth, counter, ring/wave drawing).
	Tracks  map[string][]Keyframe `json:"tracks,omitempty"`
	Motions []*Motion             `json:"motions,omitempty"`
}

// Keyframe sets a property's value at time T; Ease shapes the segment arriving at it.
type Keyframe struct {
	T    float64 `json:"t"`
	V    float64 `json:"v"`
	Ease string  `json:"ease,omitempty"`
}

// Motion types.
const (
	MotionBounce = "bounce" // parabolic hops with squash and stretch, travelling FromX→ToX
	MotionFloat  = "float"  // gentle vertical bob
	MotionSpin   = "spin"   // continuous rotation
	MotionPulse  = "pulse"  // breathing scale
	MotionOrbit  = "orbit"  // circles around the base position, or Around another element
	MotionWiggle = "wiggle" // playful rotation shake
	MotionDrift  = "drift"  // slow sideways travel FromX→ToX
	MotionSlide  = "slide"  // eased travel FromX→ToX, FromY→ToY

	MotionFly      = "fly"      // travel along a Curve (straight, arc, wave) with an optional Trail, Orient-ed to the direction
	MotionBob      = "bob"      // floating on a surface: bob up and down with a rock
	MotionSweep    = "sweep"    // a clock hand: Count turns about the element's lower end
	MotionSwing    = "swing"    // a pendulum or hanging tag: pivot at (x, y), damped swing of Amp degrees
	MotionSlam     = "slam"     // comes at the camera: from far away to full size with overshoot, optional Shake
	MotionPop      = "pop"      // pops in at Start, pops out at End (unless End is the end of the video)
	MotionSteps    = "steps"    // progress in Count discrete steps: check off, flip or reveal one by one
	MotionType     = "type"     // progress as typing (text), with a blinking caret
	MotionDraw     = "draw"     // progress as a pen drawing (path stroke, ring, wave line; an asset is revealed left to right)
	MotionMorph    = "morph"    // progress through a morph element's shapes, holding each (Count changes)
	MotionFill     = "fill"     // a liquid Color rising inside the shape from the bottom
	MotionFlip     = "flip"     // Count half-turns about the vertical axis; the back shows Color
	MotionRise     = "rise"     // emitter: Count copies rising Amp and fading (steam, bubbles)
	MotionTwinkle  = "twinkle"  // Count flickers of brightness and size
	MotionRicochet = "ricochet" // straight travel at VX, VY reflected by the frame's edges (DVD logo)
	MotionRecolor  = "recolor"  // the element's colour turns into Color over [Start, End]
	// MotionGlitch: bursts of an RGB split (red and cyan copies pushed apart), bands of the
	// element slipping sideways and noise bars, of strength Amp (default 1), fading; the
	// last fifth of [Start, End] is clean, so the element snaps still.
	MotionGlitch = "glitch"
)

var motionTypes = []string{MotionBounce, MotionFloat, MotionSpin, MotionPulse, MotionOrbit,
	MotionWiggle, MotionDrift, MotionSlide, MotionFly, MotionBob, MotionSweep, MotionSwing, MotionSlam,
	MotionPop, MotionSteps, MotionType, MotionDraw, MotionMorph, MotionFill, MotionFlip, MotionRise,
	MotionTwinkle, MotionRicochet, MotionRecolor, MotionGlitch}

// MotionTypes lists the motion types the runtime plays.
func MotionTypes() []string { return append([]string(nil), motionTypes...) }

// Fly curves and trails.
var (
	Curves = []string{"straight", "arc", "wave"}
	Trails = []string{"dotted", "solid"}
)

// Motion is procedural movement during [Start, End].
type Motion struct {
	Type   string  `json:"type"`
	Start  float64 `json:"start"`
	End    float64 `json:"end"`
	Amp    float64 `json:"amp,omitempty"`    // height / amplitude in frame units; degrees for wiggle and swing; scale for pulse and slam; radius for orbit
	Count  float64 `json:"count,omitempty"`  // hops, cycles, turns, steps, flips or copies
	Decay  float64 `json:"decay,omitempty"`  // bounce: each hop's height relative to the previous (0..1]; swing: amplitude left at the end
	Squash float64 `json:"squash,omitempty"` // bounce: squash-and-stretch strength (0..1)
	FromX  float64 `json:"from_x,omitempty"`
	ToX    float64 `json:"to_x,omitempty"`
	FromY  float64 `json:"from_y,omitempty"`
	ToY    float64 `json:"to_y,omitempty"`
	Ease   string  `json:"ease,omitempty"` // travel easing

	Curve   string   `json:"curve,omitempty"`   // fly: straight (default), arc or wave
	Trail   string   `json:"trail,omitempty"`   // fly: dotted or solid line left behind
	Orient  bool     `json:"orient,omitempty"`  // fly: turn to face the direction of travel
	Heading float64  `json:"heading,omitempty"` // fly: the direction the drawing faces unturned, degrees (0 right, -90 up)
	Around  string   `json:"around,omitempty"`  // orbit: id of the element circled
	Steady  bool     `json:"steady,omitempty"`  // orbit: constant radius from the first frame (no ease in and out)
	Angle   float64  `json:"angle,omitempty"`   // orbit: starting angle (degrees, 0 right, 90 below); bob: rock in degrees; flip: 90 turns end over end (about the horizontal axis)
	Length  *float64 `json:"length,omitempty"`  // swing: cord from pivot to element, in element sizes (default 0.5)
	Shake   float64  `json:"shake,omitempty"`   // slam: shake after impact, fraction of the shorter side
	Color   string   `json:"color,omitempty"`   // fill: the liquid; flip: the back; fly: the trail; recolor: the new colour
	Colors  []string `json:"colors,omitempty"`  // bounce, ricochet: colour after each ground contact or edge hit, in turn
	Period  float64  `json:"period,omitempty"`  // rise: seconds each copy takes to rise
	VX      float64  `json:"vx,omitempty"`      // ricochet: speed in frame units (half-widths) per second
	VY      float64  `json:"vy,omitempty"`      // ricochet: speed in half-heights per second
}

// Easings the runtime knows; "cubic-bezier(x1,y1,x2,y2)" is accepted as well.
var Easings = []string{
	"linear", "easeInSine", "easeOutSine", "easeInOutSine",
	"easeInQuad", "easeOutQuad", "easeInOutQuad",
	"easeInCubic", "easeOutCubic", "easeInOutCubic",
	"easeInQuart", "easeOutQuart", "easeInOutQuart",
	"easeInQuint", "easeOutQuint", "easeInOutQuint",
	"easeInExpo", "easeOutExpo", "easeInOutExpo",
	"easeInBack", "easeOutBack", "easeInOutBack",
	"easeOutElastic", "easeOutBounce",
}

var bezierRE = regexp.MustCompile(`^cubic-bezier\(\s*(-?[0-9.]+)\s*,\s*(-?[0-9.]+)\s*,\s*(-?[0-9.]+)\s*,\s*(-?[0-9.]+)\s*\)$`)

// ValidEasing reports whether the runtime can play the named easing ("" means linear).
func ValidEasing(name string) bool {
	if name == "" || bezierRE.MatchString(name) {
		return true
	}
	for _, e := range Easings {
		if e == name {
			return true
		}
	}
	return false
}

var (
	svgPathRE   = regexp.MustCompile(`^[MmLlHhVvCcSsQqTtAaZz0-9eE.,+\-\s]+$`)
	hexRE       = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	trackNames  = []string{"x", "y", "scale", "sx", "sy", "rotation", "opacity", "progress"}
	cameraNames = []string{"zoom", "x", "y", "rotation"}
)

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Validate checks a description the way the runtime will read it, so a bad description
// (from a model, or a bug) fails before anything is rendered. Errors name the field.
func (d *Description) Validate() error {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	if d.Version != Version {
		bad("version %d unsupported (want %d)", d.Version, Version)
	}
	if !finite(d.Duration) || d.Duration <= 0 || d.Duration > 600 {
		bad("duration %g out of range (0, 600]", d.Duration)
	}
	if d.FPS < 1 || d.FPS > 120 {
		bad("fps %d out of range 1..120", d.FPS)
	}
	if len(d.Background.Colors) == 0 || len(d.Background.Colors) > 3 {
		bad("background needs 1–3 colours, has %d", len(d.Background.Colors))
	}
	for i, c := range d.Background.Colors {
		if !hexRE.MatchString(c) {
			bad("background.colors[%d] %q is not a #rgb or #rrggbb colour", i, c)
		}
	}
	if g := d.Background.Glow; g != "" && !hexRE.MatchString(g) {
		bad("background.glow %q is not a colour", g)
	}
	checkTracks := func(where string, tracks map[string][]Keyframe, names []string) {
		for name, kfs := range tracks {
			if !contains(names, name) {
				bad("%s: unknown track %q", where, name)
			}
			if len(kfs) == 0 {
				bad("%s.%s: no keyframes", where, name)
			}
			for i, k := range kfs {
				if !finite(k.T) || !finite(k.V) {
					bad("%s.%s[%d]: not a finite number", where, name, i)
				}
				if i > 0 && k.T < kfs[i-1].T {
					bad("%s.%s[%d]: keyframes out of order (%g after %g)", where, name, i, k.T, kfs[i-1].T)
				}
				if !ValidEasing(k.Ease) {
					bad("%s.%s[%d]: unknown easing %q", where, name, i, k.Ease)
				}
			}
		}
	}
	if f := d.Font; f != nil {
		if !fontFamilyRE.MatchString(f.Family) {
			bad("font.family %q must be 1–64 letters, digits, spaces, _ or -", f.Family)
		}
		if !fontSrcRE.MatchString(f.Src) || strings.Contains(f.Src, "..") {
			bad("font.src %q must be a relative path inside the project to a .ttf, .otf, .woff or .woff2 file", f.Src)
		}
	}
	checkTracks("camera", d.Camera.Tracks, cameraNames)
	all := map[string]bool{}
	for _, e := range d.Elements {
		if e != nil {
			all[e.ID] = true
		}
	}
	if len(d.Elements) == 0 {
		bad("no elements")
	}
	ids := map[string]bool{}
	for i, e := range d.Elements {
		where := fmt.Sprintf("elements[%d]", i)
		if e == nil {
			bad("%s: null", where)
			continue
		}
		if e.ID == "" || ids[e.ID] {
			bad("%s: id %q empty or repeated", where, e.ID)
		}
		ids[e.ID] = true
		where = fmt.Sprintf("element %q", e.ID)
		if !contains(elementTypes, e.Type) {
			bad("%s: unknown type %q (known: %s)", where, e.Type, strings.Join(elementTypes, ", "))
		}
		if e.Size <= 0 || e.Size > 2 || !finite(e.Size) {
			bad("%s: size %g out of range (0, 2]", where, e.Size)
		}
		if e.Wrap < 0 || e.Wrap > 2 || !finite(e.Wrap) {
			bad("%s: wrap %g out of range [0, 2]", where, e.Wrap)
		}
		if e.End != 0 && e.End <= e.Start {
			bad("%s: ends (%g) before it starts (%g)", where, e.End, e.Start)
		}
		for _, c := range []string{e.Color, e.Color2, e.TextColor, e.Tint} {
			if c != "" && !hexRE.MatchString(c) {
				bad("%s: %q is not a colour", where, c)
			}
		}
		if e.Type == TypeText && strings.TrimSpace(e.Text) == "" && len(e.Items) == 0 {
			bad("%s: text is empty", where)
		}
		if e.Type == TypeIcon && !contains(Icons, e.Variant) {
			bad("%s: unknown icon %q (known: %s)", where, e.Variant, strings.Join(Icons, ", "))
		}
		if e.Type == TypeImage && (e.Src == "" || strings.HasPrefix(e.Src, "/") || strings.Contains(e.Src, "..") || strings.Contains(e.Src, "://")) {
			bad("%s: image src %q must be a relative path inside the project", where, e.Src)
		}
		if e.Type == TypeAsset || (e.Type == TypeCard && e.Asset != "") {
			if _, ok := assets.Default().Get(e.Asset); !ok {
				bad("%s: asset %q is not in the library (search it by keywords)", where, e.Asset)
			}
		}
		if e.In != "" && (e.In == e.ID || !all[e.In]) {
			bad("%s: in %q is not another element's id", where, e.In)
		}
		if e.Depicts != "" {
			if !depictsRE.MatchString(e.Depicts) {
				bad("%s: depicts %q is not a short noun phrase (lower-case words)", where, e.Depicts)
			} else if !d.composed(e) {
				bad("%s: depicts %q but has no parts: no element is in it and it hangs on no cord", where, e.Depicts)
			}
		}
		if !finite(e.Hue) || e.Hue < -360 || e.Hue > 360 {
			bad("%s: hue %g out of range -360..360", where, e.Hue)
		}
		if e.Type == TypePath && (len(e.Path) > 20000 || !svgPathRE.MatchString(e.Path)) {
			bad("%s: path %q is not SVG path data", where, e.Path)
		}
		if e.Type == TypeMorph {
			if len(e.Shapes) < 2 {
				bad("%s: morph needs at least 2 shapes", where)
			}
			for _, sh := range e.Shapes {
				if !contains(MorphShapes, sh) {
					bad("%s: unknown morph shape %q (known: %s)", where, sh, strings.Join(MorphShapes, ", "))
				}
			}
		}
		if e.Type == TypeChart {
			if len(e.Values) == 0 {
				bad("%s: chart has no values", where)
			}
			if !contains(chartVariants, e.Variant) {
				bad("%s: unknown chart variant %q (known: %s)", where, e.Variant, strings.Join(chartVariants[1:], ", "))
			}
			if len(e.ColorScale) > 0 && (len(e.ColorScale) != 2 || e.Variant != "" && e.Variant != ChartBar && e.Variant != ChartHeatmap) {
				bad("%s: a colour scale is two colours on a bar chart or heatmap, has %d on a %q chart", where, len(e.ColorScale), e.Variant)
			}
			if len(e.Labels) > len(e.Values) || len(e.Colors) > len(e.Values) {
				bad("%s: %d labels and %d colours for %d values", where, len(e.Labels), len(e.Colors), len(e.Values))
			}
			gridChart(e, where, bad)
			for _, v := range e.Values {
				if !finite(v) || ((e.Variant == ChartPie || e.Variant == ChartDonut) && v < 0) {
					bad("%s: value %g is not a finite number (or negative in a pie)", where, v)
				}
			}
		}
		for _, c := range e.Colors {
			if c != "" && !hexRE.MatchString(c) {
				bad("%s: %q is not a colour", where, c)
			}
		}
		for _, c := range e.ColorScale {
			if !hexRE.MatchString(c) {
				bad("%s: %q in the colour scale is not a colour", where, c)
			}
		}
		if (e.Type == TypeCountdown || e.Type == TypeChecklist) && len(e.Items) == 0 {
			bad("%s: %s has no items", where, e.Type)
		}
		if len(e.Times) > len(e.Items) {
			bad("%s: %d times for %d items", where, len(e.Times), len(e.Items))
		}
		for j, tm := range e.Times {
			if !finite(tm) || (j > 0 && tm < e.Times[j-1]) {
				bad("%s: times[%d] %g not finite or out of order", where, j, tm)
			}
		}
		checkTracks(where, e.Tracks, trackNames)
		for j, m := range e.Motions {
			if m == nil || !contains(motionTypes, m.Type) {
				bad("%s: motions[%d]: unknown type", where, j)
				continue
			}
			if m.End <= m.Start {
				bad("%s: motions[%d] (%s) ends before it starts", where, j, m.Type)
			}
			if !ValidEasing(m.Ease) {
				bad("%s: motions[%d]: unknown easing %q", where, j, m.Ease)
			}
			checkMotion(bad, where, j, e, m)
		}
	}
	for _, e := range d.Elements {
		if e == nil {
			continue
		}
		for j, m := range e.Motions {
			if m != nil && m.Around != "" && (m.Around == e.ID || d.Element(m.Around) == nil) {
				bad("element %q: motions[%d] orbits %q, which is not another element", e.ID, j, m.Around)
			}
		}
	}
	if sa := d.SafeArea; sa != nil {
		for _, v := range []float64{sa.Top, sa.Bottom, sa.Left, sa.Right} {
			if !finite(v) || v < 0 || v > 0.4 {
				bad("safe_area insets must be within 0..0.4, got %+v", *sa)
				break
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("invalid scene description: %s", strings.Join(errs, "; "))
	}
	return nil
}

var depictsRE = regexp.MustCompile(`^[a-z]+(?:[ -][a-z]+){0,3}$`)

// composed reports whether e is drawn from parts: another element is in it (a knob on
// its track), or a swing hangs it on a cord (a length of 0 hangs it on none).
func (d *Description) composed(e *Element) bool {
	for _, o := range d.Elements {
		if o != nil && o != e && o.In == e.ID {
			return true
		}
	}
	for _, m := range e.Motions {
		if m != nil && m.Type == MotionSwing && (m.Length == nil || *m.Length > 0) {
			return true
		}
	}
	return false
}

// checkMotion checks the fields of one motion that its type reads.
func checkMotion(bad func(string, ...any), where string, j int, e *Element, m *Motion) {
	finite := func(vs ...float64) bool {
		for _, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
		return true
	}
	if !finite(m.Start, m.End, m.Amp, m.Count, m.Decay, m.Squash, m.FromX, m.ToX, m.FromY, m.ToY, m.Heading, m.Angle, m.Shake, m.Period, m.VX, m.VY) {
		bad("%s: motions[%d] (%s): not a finite number", where, j, m.Type)
	}
	if m.Count < 0 || m.Count > 1000 {
		bad("%s: motions[%d] (%s): count %g out of range 0..1000", where, j, m.Type, m.Count)
	}
	if m.Curve != "" && !contains(Curves, m.Curve) {
		bad("%s: motions[%d]: unknown curve %q (known: %s)", where, j, m.Curve, strings.Join(Curves, ", "))
	}
	if m.Trail != "" && !contains(Trails, m.Trail) {
		bad("%s: motions[%d]: unknown trail %q (known: %s)", where, j, m.Trail, strings.Join(Trails, ", "))
	}
	if m.Color != "" && !hexRE.MatchString(m.Color) {
		bad("%s: motions[%d]: %q is not a colour", where, j, m.Color)
	}
	for _, c := range m.Colors {
		if !hexRE.MatchString(c) {
			bad("%s: motions[%d]: %q is not a colour", where, j, c)
		}
	}
	if m.Length != nil && (*m.Length < 0 || *m.Length > 20 || !finite(*m.Length)) {
		bad("%s: motions[%d]: length %g out of range 0..20", where, j, *m.Length)
	}
	if m.Period < 0 || m.Shake < 0 || m.Shake > 0.5 {
		bad("%s: motions[%d] (%s): period or shake out of range", where, j, m.Type)
	}
	if m.Decay < 0 || m.Decay > 1 {
		bad("%s: motions[%d] (%s): decay %g out of range 0..1", where, j, m.Type, m.Decay)
	}
	switch m.Type {
	case MotionMorph:
		if e.Type != TypeMorph {
			bad("%s: motions[%d]: a morph motion needs a morph element", where, j)
		} else if int(math.Round(m.Count)) > len(e.Shapes)-1 {
			bad("%s: motions[%d]: %g morphs but only %d shapes", where, j, m.Count, len(e.Shapes))
		}
	case MotionType:
		if e.Type != TypeText {
			bad("%s: motions[%d]: only text can be typed", where, j)
		}
	case MotionRecolor:
		if m.Color == "" {
			bad("%s: motions[%d]: a recolor needs the colour it turns into", where, j)
		}
	case MotionSteps, MotionFlip:
		if m.Count < 1 {
			bad("%s: motions[%d] (%s): count must be at least 1", where, j, m.Type)
		}
	}
}

// File is a file of the project a description needs besides the static runtime.
type File struct {
	Path string
	Data []byte
}

// AssetFiles are the SVG files of the library assets the description draws, at the
// paths the runtime loads them from; writers put them in the project with scene.js.
func (d *Description) AssetFiles() []File {
	seen := map[string]bool{}
	var out []File
	for _, e := range d.Elements {
		if e == nil || (e.Type != TypeAsset && e.Type != TypeCard) || e.Asset == "" {
			continue
		}
		a, ok := assets.Default().Get(e.Asset)
		if !ok {
			continue
		}
		if e.Type == TypeAsset && e.Tint != "" && !a.Stroke {
			// The runtime loads the painted drawing; one needing no change is the drawing.
			p := assets.TintFile(e.Asset, e.Tint)
			if !seen[p] {
				seen[p] = true
				svg, ok := a.TintedSVG(e.Tint)
				if !ok {
					svg = a.SVG()
				}
				out = append(out, File{Path: p, Data: svg})
			}
			continue
		}
		if p := assets.File(e.Asset); !seen[p] {
			seen[p] = true
			out = append(out, File{Path: p, Data: a.SVG()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Element returns the element with the given id, or nil.
func (d *Description) Element(id string) *Element {
	for _, e := range d.Elements {
		if e.ID == id {
			return e
		}
	}
	return nil
}

// JSON returns the description as indented JSON (scene.json).
func (d *Description) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode scene description: %w", err)
	}
	return append(b, '\n'), nil
}

// Script returns scene.js: the description assigned to window.__scene.
func (d *Description) Script() ([]byte, error) {
	b, err := d.JSON()
	if err != nil {
		return nil, err
	}
	out := []byte("// Generated by Koda from scene.json: edit the description, not this file.\nwindow.__scene = ")
	out = append(out, b[:len(b)-1]...)
	return append(out, ";\n"...), nil
}

// Parse reads scene.json and validates it against the schema: unknown fields (a
// misspelt property a model invented) are errors, not silently dropped.
func Parse(b []byte) (*Description, error) {
	var d Description
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("decode scene description: %w", err)
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	return &d, nil
}

// ScaleTime stretches every time in the description by f (durations, keyframes, motions,
// marks), which is how "faster", "slower" and "make it N seconds" keep all relative timing.
func (d *Description) ScaleTime(f float64) {
	r := func(v float64) float64 { return math.Round(v*f*1000) / 1000 }
	d.Duration = r(d.Duration)
	for i := range d.Scenes {
		d.Scenes[i].Start = r(d.Scenes[i].Start)
		d.Scenes[i].End = r(d.Scenes[i].End)
	}
	d.Effects.LetterboxIn = r(d.Effects.LetterboxIn)
	scaleTracks := func(tr map[string][]Keyframe) {
		for _, kfs := range tr {
			for i := range kfs {
				kfs[i].T = r(kfs[i].T)
			}
		}
	}
	scaleTracks(d.Camera.Tracks)
	for _, e := range d.Elements {
		e.Start = r(e.Start)
		e.End = r(e.End)
		for i := range e.Times {
			e.Times[i] = r(e.Times[i])
		}
		scaleTracks(e.Tracks)
		for _, m := range e.Motions {
			m.Start = r(m.Start)
			m.End = r(m.End)
			m.Period = r(m.Period)
			if f > 0 {
				m.VX, m.VY = round3(m.VX/f), round3(m.VY/f)
			}
		}
	}
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// Types lists the element types in use, sorted (for messages and tests).
func (d *Description) Types() []string {
	seen := map[string]bool{}
	for _, e := range d.Elements {
		seen[e.Type] = true
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Repair simplifies what would make the description invalid but has an obvious lesser
// reading, so a valid prompt never ends in an error: a reference to itself or to no
// element (in, an orbit's centre) is dropped, a part-less "depicts" is dropped, a size
// is brought into range, an end before the start means to the end, keyframes and times
// are put in order, surplus chart labels and colours go, a repeated id is renumbered, a
// motion that ends before it starts goes. It returns one sentence a simplification, for
// the user; what it cannot mend (an unknown type, a missing asset) is left to Validate.
func (d *Description) Repair() []string {
	var notes []string
	say := func(format string, args ...any) { notes = append(notes, fmt.Sprintf(format, args...)) }
	d.Elements = slices.DeleteFunc(d.Elements, func(e *Element) bool { return e == nil })
	ids := map[string]bool{}
	for _, e := range d.Elements {
		if e.ID == "" || ids[e.ID] {
			old := e.ID
			for n := 2; ; n++ {
				if id := fmt.Sprintf("%s-%d", orText(old, e.Type), n); !ids[id] {
					e.ID = id
					break
				}
			}
			say("element %q was renamed %q: its id was empty or repeated", old, e.ID)
		}
		ids[e.ID] = true
	}
	sortKeys := func(kfs []Keyframe) {
		sort.SliceStable(kfs, func(i, j int) bool { return kfs[i].T < kfs[j].T })
	}
	for _, tr := range d.Camera.Tracks {
		sortKeys(tr)
	}
	for _, e := range d.Elements {
		if e.In != "" && (e.In == e.ID || !ids[e.In]) {
			say("%s is no longer placed in %q, which is not another element", e.ID, e.In)
			e.In = ""
		}
		if e.Size <= 0 || math.IsNaN(e.Size) {
			e.Size = 0.1
			say("%s had no size; it is drawn at a tenth of the frame", e.ID)
		} else if e.Size > 2 {
			e.Size = 2
		}
		if e.End != 0 && e.End <= e.Start {
			e.End = 0
			say("%s ended before it started; it stays to the end", e.ID)
		}
		for _, tr := range e.Tracks {
			sortKeys(tr)
		}
		sort.Float64s(e.Times)
		if len(e.Times) > len(e.Items) {
			e.Times = e.Times[:len(e.Items)]
		}
		if e.Type == TypeChart && e.Variant != ChartRadar && e.Variant != ChartHeatmap && e.Variant != ChartScatter && e.Variant != ChartPyramid {
			if len(e.Labels) > len(e.Values) {
				e.Labels = e.Labels[:len(e.Values)]
			}
			if len(e.Colors) > len(e.Values) {
				e.Colors = e.Colors[:len(e.Values)]
			}
		}
		e.Motions = slices.DeleteFunc(e.Motions, func(m *Motion) bool {
			switch {
			case m == nil:
				return true
			case m.End <= m.Start:
				say("%s: a %s that ended before it started was dropped", e.ID, m.Type)
				return true
			case m.Around != "" && (m.Around == e.ID || !ids[m.Around]):
				say("%s: an orbit around %q, which is not another element, was dropped", e.ID, m.Around)
				return true
			}
			return false
		})
	}
	for _, e := range d.Elements {
		if e.Depicts != "" && (!depictsRE.MatchString(e.Depicts) || !d.composed(e)) {
			say("%s no longer says it depicts %q: it is not drawn from parts", e.ID, e.Depicts)
			e.Depicts = ""
		}
	}
	return notes
}

// gridChart checks the shape of the variants whose values are more than one row: a
// waterfall's totals and changes, a radar's axes and series, a heatmap's rows and
// columns. A mismatch would draw values against the wrong names, so it is an error.
func gridChart(e *Element, where string, bad func(string, ...any)) {
	switch e.Variant {
	case ChartWaterfall:
		if len(e.Values) < 3 {
			bad("%s: a waterfall is a start total, changes and an end total: %d values", where, len(e.Values))
		}
	case ChartRadar:
		k := len(e.Labels)
		if k < 3 || k > 8 || len(e.Values)%k != 0 || len(e.Values)/k > 4 {
			bad("%s: a radar has 3–8 axes (labels) and one to four series of a value each: %d labels, %d values", where, k, len(e.Values))
		} else if len(e.Series) > len(e.Values)/k {
			bad("%s: %d series names for %d series", where, len(e.Series), len(e.Values)/k)
		}
		for _, v := range e.Values {
			if v < 0 {
				bad("%s: a radar's value %g is below its centre", where, v)
				break
			}
		}
		if math.IsNaN(e.To) || math.IsInf(e.To, 0) || e.To < 0 {
			bad("%s: a radar's scale top %g is not a positive number", where, e.To)
		}
	case ChartHeatmap:
		if len(e.Labels) == 0 || len(e.Series) == 0 || len(e.Values) != len(e.Labels)*len(e.Series) {
			bad("%s: a heatmap is rows (series) × columns (labels): %d × %d, %d values", where, len(e.Series), len(e.Labels), len(e.Values))
		}
		if abs := max(e.Count, -e.Count); abs > len(e.Values) {
			bad("%s: %d cells outlined of %d", where, abs, len(e.Values))
		}
	case ChartScatter:
		stride := 2
		if e.Count == 3 {
			stride = 3
		} else if e.Count != 0 && e.Count != 2 {
			bad("%s: a scatter's points are pairs or triples (count 2 or 3), not %d", where, e.Count)
		}
		if len(e.Values) < stride*2 || len(e.Values)%stride != 0 {
			bad("%s: a scatter has two points or more of %d values each: %d values", where, stride, len(e.Values))
		}
		if len(e.Labels) > 3 {
			bad("%s: a scatter's labels name its two axes and its bubbles' size: %d labels", where, len(e.Labels))
		}
		if len(e.Range) != 0 && (len(e.Range) != 4 || !(e.Range[0] < e.Range[1]) || !(e.Range[2] < e.Range[3])) {
			bad("%s: a scatter's range is x from < x to, y from < y to: %v", where, e.Range)
		}
		if len(e.Fit) != 0 && (len(e.Fit) != 2 || math.IsNaN(e.Fit[0]+e.Fit[1]) || math.IsInf(e.Fit[0]+e.Fit[1], 0)) {
			bad("%s: a line of best fit is a slope and an intercept: %v", where, e.Fit)
		}
		for i := 2; stride == 3 && i < len(e.Values); i += 3 {
			if e.Values[i] < 0 {
				bad("%s: a bubble's size %g is below zero", where, e.Values[i])
				break
			}
		}
	case ChartTreemap:
		if len(e.Values) < 2 {
			bad("%s: a treemap splits its whole into two blocks or more: %d values", where, len(e.Values))
		}
		for _, v := range e.Values {
			if !(v > 0) {
				bad("%s: a treemap's block of %g has no area", where, v)
				break
			}
		}
	case ChartPyramid:
		k := len(e.Labels)
		if k < 2 || (len(e.Values) != 2*k && len(e.Values) != 4*k) {
			bad("%s: a pyramid has two bands or more and a left and a right value per band (for one period or two): %d labels, %d values", where, k, len(e.Values))
		}
		if len(e.Series) > 2 {
			bad("%s: a pyramid has two sides, %d series names", where, len(e.Series))
		}
		for _, v := range e.Values {
			if v < 0 {
				bad("%s: a pyramid's bar of %g is shorter than nothing", where, v)
				break
			}
		}
	}
	if len(e.Series) > 0 && e.Variant != ChartRadar && e.Variant != ChartHeatmap && e.Variant != ChartPyramid {
		bad("%s: series are a radar's, a heatmap's or a pyramid's, not a %q chart's", where, e.Variant)
	}
	if (len(e.Range) > 0 || len(e.Fit) > 0) && e.Variant != ChartScatter {
		bad("%s: a range and a line of best fit are a scatter's, not a %q chart's", where, e.Variant)
	}
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
