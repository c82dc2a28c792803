package builtin

import (
	"regexp"

	"github.com/kodahq/koda"
)

// namedColors maps colour words to the shades the builtin agent draws: saturated enough
// to read as the named colour on screen and in a video's dominant colours.
var namedColors = map[string]string{
	"red": "#e53935", "crimson": "#c62828", "scarlet": "#e8290b", "maroon": "#7b1e2b",
	"orange": "#fb8c00", "amber": "#ffb300", "yellow": "#fdd835", "gold": "#ffc107", "golden": "#ffc107",
	"green": "#43a047", "lime": "#9ccc65", "mint": "#4ade80", "emerald": "#10b981", "olive": "#808000",
	"teal": "#00897b", "turquoise": "#26c6da", "cyan": "#00bcd4", "aqua": "#00bcd4",
	"blue": "#1e88e5", "navy": "#1a237e", "azure": "#2196f3", "cobalt": "#0047ab",
	"indigo": "#3949ab", "purple": "#8e24aa", "violet": "#7e57c2", "lavender": "#b39ddb", "magenta": "#d81b60",
	"pink": "#ec407a", "rose": "#f06292", "coral": "#ff7043", "salmon": "#fa8072", "peach": "#ffab91",
	"brown": "#6d4c41", "beige": "#d7ccc8", "tan": "#d2b48c",
	"white": "#ffffff", "black": "#111111", "gray": "#9e9e9e", "grey": "#9e9e9e", "silver": "#c0c0c0",
	"charcoal": "#36454f", "cream": "#f5efe0", "ivory": "#fffff0", "off-white": "#f8f6f0", "midnight": "#0b1026",
	"mustard": "#e1ad01", "burgundy": "#800020", "sage": "#9caf88", "khaki": "#c3b091",
	"blush": "#f4c2c2",
}

// subjectKinds maps nouns in prompts to the element type that draws them.
var subjectKinds = map[string]string{
	"ball": "circle", "balls": "circle", "sphere": "circle", "circle": "circle", "circles": "circle",
	"dot": "circle", "dots": "circle", "orb": "circle",
	"bubble": "circle", "marble": "circle",
	"square": "rect", "squares": "rect", "box": "rect", "boxes": "rect", "cube": "rect", "block": "rect",
	"blocks": "rect", "rectangle": "rect", "button": "rect", "tile": "rect", "tiles": "rect",
	"star": "star", "heart": "heart", "hearts": "heart", "triangle": "triangle", "pyramid": "triangle",
	"ring": "ring", "loader": "ring", "spinner": "ring", "progress": "ring", "rings": "ring",
	"blob": "blob", "blobs": "blob", "pendulum": "circle",
	"wave": "wave", "waves": "wave", "ocean": "wave", "sea": "wave", "tide": "wave", "surf": "wave", "line": "wave", "squiggle": "wave", "sound": "wave", "audio": "wave",
	"stars": "particles", "starfield": "particles", "galaxy": "particles", "space": "particles",
	"particles": "particles", "confetti": "particles", "snow": "particles", "snowflakes": "particles",
	"sparkles": "particles", "fireworks": "particles", "bubbles": "particles", "dust": "particles",
	"rain": "particles", "raindrops": "particles", "drizzle": "particles", "rainfall": "particles",
	"logo": "logo", "brand": "logo", "badge": "logo", "icon": "logo", "emblem": "logo",
	"chart": "chart", "graph": "chart", "bars": "chart", "bar": "chart", "data": "chart", "statistics": "chart",
	"stats": "chart", "revenue": "chart", "sales": "chart", "growth": "chart", "metrics": "chart",
	"counter": "counter", "number": "counter", "numbers": "counter", "countdown": "countdown", "timer": "countdown",
	"pie": "chart", "clock": "clock", "clocks": "clock", "stopwatch": "clock",
	"checklist": "checklist", "to-do": "checklist", "todo": "checklist",
	"percentage": "counter", "percent": "counter", "score": "counter",
	"card": "card", "product": "card", "app": "card",
	"item": "card",
	// Pictograms the runtime draws with behaviour of their own: a tick that draws itself
	// and speech bubbles holding their words. Other things are library assets (subjects.go).
	"checkmark": "icon", "chat": "icon",
	"text": "text", "title": "text", "headline": "text", "words": "text", "word": "text", "tagline": "text",
	"message": "text", "caption": "text", "quote": "text", "slogan": "text", "name": "text", "letters": "text",
}

// iconVariants names the pictogram an icon noun is drawn as.
var iconVariants = map[string]string{
	"rocket": "rocket", "rockets": "rocket", "bird": "bird", "birds": "bird", "cloud": "cloud", "clouds": "cloud",
	"lightning": "bolt", "bolt": "bolt", "checkmark": "check", "check": "check", "tick": "check", "bell": "bell",
	"notification": "bell", "envelope": "mail", "mail": "mail", "email": "mail", "pin": "pin", "location": "pin",
	"leaf": "leaf", "leaves": "leaf", "flame": "flame", "fire": "flame", "note": "music", "music": "music",
	"chat": "chat", "speech": "chat", "gift": "gift", "present": "gift", "cup": "cup", "coffee": "cup", "mug": "cup",
	"car": "car", "house": "house", "home": "house", "trophy": "trophy", "award": "trophy", "tree": "tree",
	"trees": "tree", "fish": "fish", "flower": "flower", "flowers": "flower", "camera": "camera", "cart": "cart", "basket": "cart",
}

// fillWaves are the wave nouns that mean a body of water rather than a line.
var fillWaves = map[string]bool{"waves": true, "ocean": true, "sea": true, "tide": true, "surf": true}

// particleVariants picks how a particle field looks from the noun that asked for it.
var particleVariants = map[string]string{
	"stars": "stars", "starfield": "stars", "galaxy": "stars", "space": "stars",
	"particles": "dust", "dust": "dust", "confetti": "confetti", "fireworks": "fireworks", "firework": "fireworks", "sparkles": "sparkles",
	"snow": "snow", "snowflakes": "snow", "bubbles": "bubbles",
	"rain": "rain", "raindrops": "rain", "drizzle": "rain", "rainfall": "rain",
}

// actionWords maps verbs to canonical actions.
var actionWords = map[string]string{
	"bounce": "bounce", "bounces": "bounce", "bouncing": "bounce", "bounced": "bounce",
	"hop": "bounce", "hops": "bounce", "jump": "bounce", "jumps": "bounce", "jumping": "bounce",
	"roll": "roll", "rolls": "roll", "rolling": "roll",
	"spin": "spin", "spins": "spin", "spinning": "spin", "rotate": "spin", "rotates": "spin", "rotating": "spin", "twirl": "spin",
	"fade": "fade", "fades": "fade", "fading": "fade",
	"slide": "slide", "slides": "slide", "sliding": "slide", "move": "slide", "moves": "slide", "moving": "slide",
	"glide": "slide", "glides": "slide", "travel": "slide", "travels": "slide",
	"fly": "fly", "flies": "fly", "flying": "fly", "soar": "fly", "soars": "fly",
	"float": "float", "floats": "float", "floating": "float", "hover": "float", "hovers": "float", "drift": "float", "drifts": "float",
	"grow": "grow", "grows": "grow", "growing": "grow", "scale": "grow", "scales": "grow", "expand": "grow", "expands": "grow",
	"pop": "pop", "pops": "pop", "popping": "pop",
	"appear": "appear", "appears": "appear", "reveal": "appear", "reveals": "appear", "revealed": "appear",
	"show": "appear", "shows": "appear", "emerge": "appear", "emerges": "appear",
	"zoom": "zoom", "zooms": "zoom", "push": "zoom",
	"pulse": "pulse", "pulses": "pulse", "pulsing": "pulse", "beat": "pulse", "beats": "pulse", "glow": "pulse", "glows": "pulse",
	"orbit": "orbit", "orbits": "orbit", "circle around": "orbit",
	"fall": "fall", "falls": "fall", "falling": "fall", "drop": "fall", "drops": "fall",
	"rise": "rise", "rises": "rise", "rising": "rise",
	"explode": "burst", "explodes": "burst", "burst": "burst", "bursts": "burst",
	"shake": "wiggle", "shakes": "wiggle", "wiggle": "wiggle", "wiggles": "wiggle", "wobble": "wiggle", "wobbles": "wiggle",
	"count": "count", "counts": "count", "counting": "count", "tick": "count",
	"draw": "draw", "draws": "draw", "drawn": "draw", "write": "type", "writes": "type", "type": "type", "types": "type", "typing": "type",
	"twinkle": "twinkle", "twinkles": "twinkle", "twinkling": "twinkle", "shine": "twinkle", "shines": "twinkle",
}

// styleWords are words that name a style outright.
var styleWords = map[string]koda.Style{
	"playful": koda.StylePlayful, "bouncy": koda.StylePlayful, "fun": koda.StylePlayful,
	"energetic": koda.StylePlayful, "cartoon": koda.StylePlayful, "cartoony": koda.StylePlayful,
	"whimsical": koda.StylePlayful, "elastic": koda.StylePlayful, "cheerful": koda.StylePlayful,
	"springy": koda.StylePlayful, "lively": koda.StylePlayful, "cute": koda.StylePlayful,
	"smooth": koda.StyleSmooth, "minimal": koda.StyleSmooth, "minimalist": koda.StyleSmooth,
	"elegant": koda.StyleSmooth, "subtle": koda.StyleSmooth, "clean": koda.StyleSmooth,
	"calm": koda.StyleSmooth, "sleek": koda.StyleSmooth, "gentle": koda.StyleSmooth,
	"sophisticated": koda.StyleSmooth, "corporate": koda.StyleSmooth, "flowing": koda.StyleSmooth,
	"cinematic": koda.StyleCinematic, "dramatic": koda.StyleCinematic, "epic": koda.StyleCinematic,
	"moody": koda.StyleCinematic, "intense": koda.StyleCinematic, "suspenseful": koda.StyleCinematic,
	"trailer": koda.StyleCinematic, "grand": koda.StyleCinematic, "majestic": koda.StyleCinematic,
	"mysterious": koda.StyleCinematic,
}

// filmLookRE: words that ask for a film's frame. Only these bring the letterbox bars;
// a cinematic style read from "moody" or "dramatic" keeps the whole frame. ("Dark" is
// no style word at all: it is mostly a colour, "dark purple", "dark storm clouds".)
var filmLookRE = regexp.MustCompile(`(?i)\b(?:cinematic|film|movie|trailer|widescreen|letterbox\w*|blockbuster|hollywood|netflix|anamorphic)\b`)

// hintWords suggest a style without naming it: enough to infer, not enough to skip asking.
var hintWords = map[string]koda.Style{
	"bounce": koda.StylePlayful, "pop": koda.StylePlayful, "wiggle": koda.StylePlayful, "confetti": koda.StylePlayful,
	"burst": koda.StylePlayful, "cartoon": koda.StylePlayful, "kids": koda.StylePlayful, "party": koda.StylePlayful,
	"fade": koda.StyleSmooth, "float": koda.StyleSmooth, "slide": koda.StyleSmooth, "card": koda.StyleSmooth,
	"chart": koda.StyleSmooth, "counter": koda.StyleSmooth, "wave": koda.StyleSmooth, "ring": koda.StyleSmooth,
	"zoom": koda.StyleCinematic, "particles": koda.StyleCinematic, "logo": koda.StyleCinematic,
	"fly": koda.StyleCinematic, "rise": koda.StyleCinematic,
}

// references are names people point at ("like Stripe's site") and the style they stand for.
var references = map[string]koda.Style{
	"stripe": koda.StyleSmooth, "apple": koda.StyleSmooth, "linear": koda.StyleSmooth, "notion": koda.StyleSmooth,
	"vercel": koda.StyleSmooth, "airbnb": koda.StyleSmooth, "google": koda.StyleSmooth, "material": koda.StyleSmooth,
	"pixar": koda.StylePlayful, "disney": koda.StylePlayful, "duolingo": koda.StylePlayful, "nintendo": koda.StylePlayful,
	"headspace": koda.StylePlayful, "mailchimp": koda.StylePlayful, "looney": koda.StylePlayful,
	"marvel": koda.StyleCinematic, "netflix": koda.StyleCinematic, "hbo": koda.StyleCinematic, "nolan": koda.StyleCinematic,
	"hollywood": koda.StyleCinematic, "star wars": koda.StyleCinematic, "blade runner": koda.StyleCinematic,
	"a24": koda.StyleCinematic, "imax": koda.StyleCinematic,
}

// easingStyles lets a prompt that names an easing pick the style it belongs to.
var easingStyles = map[string]koda.Style{
	"easeoutback": koda.StylePlayful, "easeoutelastic": koda.StylePlayful, "elastic": koda.StylePlayful,
	"spring": koda.StylePlayful, "overshoot": koda.StylePlayful, "squash": koda.StylePlayful,
	"easeinoutcubic": koda.StyleSmooth, "easeoutquint": koda.StyleSmooth, "ease-in-out": koda.StyleSmooth,
	"easeinoutsine": koda.StyleSmooth, "linear": koda.StyleSmooth,
	"easeinoutquart": koda.StyleCinematic, "cubic-bezier": koda.StyleCinematic, "bezier": koda.StyleCinematic,
	"parallax": koda.StyleCinematic, "dolly": koda.StyleCinematic,
}

// numberWords reads small spelled-out numbers in durations ("ten seconds").
var numberWords = map[string]float64{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
	"ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
	"forty-five": 45, "fifty": 50, "sixty": 60, "ninety": 90, "a": 1, "an": 1,
}

// styleTable is the specification's style-to-parameters table.
type styleParams struct {
	Label, Description string
	Entry, Action      string // easings
	Exit               string
	Reveal             string // text reveal mode
	Motion             string // human summary used in plans
}

var styleTable = map[koda.Style]styleParams{
	koda.StylePlayful: {
		Label: "Playful & bouncy", Description: "Overshoots, elastic motion, energetic feel",
		Entry: "easeOutBack", Action: "easeOutElastic", Exit: "easeInBack", Reveal: "pop",
		Motion: "overshoot and squash-and-stretch, fast and snappy",
	},
	koda.StyleSmooth: {
		Label: "Smooth & minimal", Description: "Subtle, flowing, sophisticated movements",
		Entry: "easeOutQuint", Action: "easeInOutCubic", Exit: "easeInOutCubic", Reveal: "rise",
		Motion: "subtle and flowing, slower and deliberate",
	},
	koda.StyleCinematic: {
		Label: "Cinematic & dramatic", Description: "Building tension, camera-like motion",
		Entry: "easeInOutQuart", Action: "cubic-bezier(0.7, 0, 0.2, 1)", Exit: "easeInOutQuart", Reveal: "track",
		Motion: "camera push and depth, building tension",
	},
}
