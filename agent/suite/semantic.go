package suite

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kodahq/koda/agent"
	"github.com/kodahq/koda/agent/assets"
)

// KeywordsFunc returns the keywords of an asset id ("fluent:paper-airplane"), or nil
// when the library does not know it.
type KeywordsFunc func(id string) []string

// IDKeywords reads keywords from an asset id alone: the words of its name
// ("fluent:paper-airplane" → paper, airplane). It is the fallback when no library is
// wired in; a library's own keywords are richer (synonyms, CLDR names).
func IDKeywords(id string) []string {
	_, name, ok := strings.Cut(id, ":")
	if !ok {
		name = id
	}
	return []string{strings.Join(words(name), " ")}
}

// LibraryKeywords are an asset's name, CLDR label and keywords from the embedded
// library (agent/assets), or what its id says when the library does not know it.
func LibraryKeywords(id string) []string {
	a, ok := assets.Default().Get(id)
	if !ok {
		return IDKeywords(id)
	}
	return append([]string{a.Name, a.Label}, a.Keywords...)
}

// CheckScene checks a scene description (scene.json) against what the prompt asked
// for, the way a person reading it would: each expected subject drawn by some element
// (an asset whose keywords name it, or a primitive that is that thing: a circle is a
// ball, not a sailboat; a label alone depicts nothing), each expected action played by a
// motion of that kind, every chart label and value in the data, every requested colour
// used, the background's colour. It returns one sentence per failed check.
func CheckScene(raw []byte, ex agent.SuiteExpect, kw KeywordsFunc) []string {
	if kw == nil {
		kw = LibraryKeywords
	}
	var d sceneDoc
	if err := json.Unmarshal(raw, &d); err != nil {
		return []string{fmt.Sprintf("scene.json unreadable: %v", err)}
	}
	var out []string
	for _, s := range ex.Subjects {
		if f := checkSubject(d.Elements, s, kw); f != "" {
			out = append(out, f)
		}
	}
	for _, a := range ex.Actions {
		if f := checkAction(&d, a); f != "" {
			out = append(out, f)
		}
	}
	if ex.Chart != nil {
		out = append(out, checkChart(d.Elements, ex.Chart)...)
	}
	for _, n := range ex.Numbers {
		if !slices.ContainsFunc(d.Elements, func(e sceneElem) bool { return e.hasNumber(n, false) }) {
			out = append(out, fmt.Sprintf("number %s is in no element's data", fmtNum(n)))
		}
	}
	used := d.colors()
	for _, c := range ex.Colors {
		if f := checkColorUsed(used, c); f != "" {
			out = append(out, f)
		}
	}
	if ex.Background != "" {
		if f := checkBackground(d.Background.Colors, ex.Background); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// sceneDoc is scene.json read loosely: elements stay as generic JSON, so fields this
// version of the suite does not know (an asset id, chart labels, new motion
// parameters) are still searched.
type sceneDoc struct {
	Background struct {
		Colors []string `json:"colors"`
		Glow   string   `json:"glow"`
	} `json:"background"`
	Camera struct {
		Tracks map[string][]keyframe `json:"tracks"`
	} `json:"camera"`
	Elements []sceneElem `json:"elements"`
}

type keyframe struct {
	T, V float64
}

type sceneElem map[string]any

func (e sceneElem) str(k string) string {
	s, _ := e[k].(string)
	return s
}

func (e sceneElem) num(k string) float64 {
	f, _ := e[k].(float64)
	return f
}

func (e sceneElem) name() string {
	if id := e.str("id"); id != "" {
		return fmt.Sprintf("%s %q", e.str("type"), id)
	}
	return e.str("type")
}

// motions are the element's procedural motions.
func (e sceneElem) motions() []map[string]any {
	arr, _ := e["motions"].([]any)
	var out []map[string]any
	for _, m := range arr {
		if mm, ok := m.(map[string]any); ok {
			out = append(out, mm)
		}
	}
	return out
}

// track returns the keyframe values of a track.
func (e sceneElem) track(name string) []float64 {
	tr, _ := e["tracks"].(map[string]any)
	arr, _ := tr[name].([]any)
	var out []float64
	for _, k := range arr {
		if km, ok := k.(map[string]any); ok {
			v, _ := km["v"].(float64)
			out = append(out, v)
		}
	}
	return out
}

// dataKeys are the fields that place or time an element rather than carry its data:
// a keyframe time of 12 s is not the value 12 of a chart.
var dataSkip = map[string]bool{"id": true, "x": true, "y": true, "size": true, "aspect": true, "start": true,
	"end": true, "seed": true, "depth": true, "weight": true, "glow": true, "tracks": true, "motions": true,
	"stagger": true, "count": true}

// leaves walks the element's data fields and calls fn on every string and number.
func (e sceneElem) leaves(fn func(key string, v any)) {
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, vv := range x {
				if !dataSkip[k] {
					walk(k, vv)
				}
			}
		case []any:
			for _, vv := range x {
				walk(key, vv)
			}
		default:
			fn(key, x)
		}
	}
	for k, v := range e {
		if !dataSkip[k] {
			walk(k, v)
		}
	}
}

var numRE = regexp.MustCompile(`-?\d[\d,]*(?:\.\d+)?`)

// hasNumber reports whether n is among the element's data, as a number or written in
// its text ("10,000"); percent also accepts the fraction (40 % as 0.4).
func (e sceneElem) hasNumber(n float64, percent bool) bool {
	near := func(v float64) bool {
		return math.Abs(v-n) < 1e-6 || (percent && math.Abs(v*100-n) < 1e-6)
	}
	found := false
	e.leaves(func(_ string, v any) {
		switch x := v.(type) {
		case float64:
			found = found || near(x)
		case string:
			for _, m := range numRE.FindAllString(x, -1) {
				if f, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64); err == nil {
					found = found || near(f)
				}
			}
		}
	})
	return found
}

// hasText reports whether a label is among the element's strings (whole words,
// case-insensitive).
func (e sceneElem) hasText(label string) bool {
	want := " " + strings.Join(words(label), " ") + " "
	found := false
	e.leaves(func(k string, v any) {
		if s, ok := v.(string); ok && k != "type" && !strings.HasPrefix(s, "#") {
			found = found || strings.Contains(" "+strings.Join(words(s), " ")+" ", want)
		}
	})
	return found
}

// singular is a noun's singular for matching ("waves" → "wave", "boxes" → "box",
// "berries" → "berry"); short words and -ss words keep their s.
func singular(w string) string {
	switch {
	case len(w) <= 3 || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ves") && len(w) > 4:
		if w == "waves" || w == "curves" || w == "gloves" || w == "stoves" {
			return w[:len(w)-1]
		}
		return w[:len(w)-3] + "f"
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// phrase is a noun phrase normalised for matching: singular words joined by spaces.
func phrase(s string) string {
	ws := words(s)
	for i := range ws {
		ws[i] = singular(ws[i])
	}
	return strings.Join(ws, " ")
}

// containsPhrase reports whether hay has the words of needle in a row.
func containsPhrase(hay, needle string) bool {
	return needle != "" && strings.Contains(" "+hay+" ", " "+needle+" ")
}

// primitives says which nouns a drawn primitive honestly is. A circle is a ball or a
// dot; it is not a sun, a planet or a sailboat: those need an illustration.
var primitives = map[string][]string{
	"circle":    {"ball", "circle", "dot", "sphere", "orb", "bubble", "marble"},
	"rect":      {"square", "box", "rectangle", "block", "tile", "button", "bar"},
	"star":      {"star"},
	"heart":     {"heart"},
	"triangle":  {"triangle"},
	"ring":      {"ring", "loader", "spinner", "progress ring"},
	"wave":      {"wave", "line", "squiggle", "sound wave"},
	"chart":     {"chart", "bar chart", "graph", "bar"},
	"counter":   {"counter", "number", "countdown"},
	"logo":      {"logo", "badge", "emblem"},
	"card":      {"card"},
	"text":      {"text", "word", "title", "headline", "quote"},
	"clock":     {"clock", "watch face"},
	"checklist": {"checklist", "to-do list", "list"},
	"countdown": {"countdown"},
	"progress":  {"progress bar", "loading bar"},
	"particles": nil, // by variant below
}

// iconNouns: what the runtime's pictograms (scene.Icons) draw, beyond their names.
var iconNouns = map[string][]string{
	"bolt": {"lightning", "lightning bolt"}, "check": {"check mark", "checkmark", "tick"},
	"mail": {"envelope", "letter", "email"}, "pin": {"location pin", "map pin", "round pushpin"},
	"flame": {"fire"}, "music": {"musical note", "music note", "note"}, "chat": {"speech bubble", "chat bubble"},
	"cup": {"coffee cup", "mug", "teacup"}, "car": {"automobile"}, "house": {"home"}, "cart": {"shopping cart"},
	"bell": {"notification bell"}, "gift": {"present", "gift box"}, "trophy": {"cup"},
}

// particleNouns: what a particle field of each variant honestly shows.
var particleNouns = map[string][]string{
	"stars":     {"star", "starfield", "sky full of star"},
	"confetti":  {"confetti"},
	"snow":      {"snow", "snowflake"},
	"bubbles":   {"bubble"},
	"sparkles":  {"sparkle", "glitter"},
	"dust":      {"dust", "particle"},
	"fireworks": {"firework"},
	"rain":      {"rain", "raindrop", "droplet", "drop"},
	"spiral":    {"spiral", "particle", "swirl"},
}

// depicts lists what the element draws, as normalised phrases, and whether that came
// from an illustration (asset or pictogram).
func (e sceneElem) depicts(kw KeywordsFunc) []string {
	var out []string
	add := func(ss ...string) {
		for _, s := range ss {
			out = append(out, phrase(s))
		}
	}
	typ := e.str("type")
	// Only an asset element, or a product card showing it, draws its asset: the runtime
	// draws a rect carrying an asset id (a flip tile) as a rect.
	if id := e.str("asset"); id != "" && (typ == "asset" || typ == "card") {
		add(kw(id)...)
		add(IDKeywords(id)...)
	}
	switch typ {
	case "icon":
		add(e.str("variant"))
		add(iconNouns[e.str("variant")]...)
	case "particles":
		add(particleNouns[e.str("variant")]...)
	case "morph":
		arr, _ := e["shapes"].([]any)
		for _, s := range arr {
			if str, ok := s.(string); ok {
				add(str)
				if str == "square" {
					add("rectangle")
				}
			}
		}
	default:
		add(primitives[typ]...)
	}
	return out
}

// composed lists the elements drawn from parts — another element is in them (a knob on
// its track, a terminal on its battery), or a swing hangs them on a cord (a pendulum's
// bob) — by id. Only these may say what they depict as a whole: a lone rect that says
// it is a toggle switch is still a rect.
func composed(els []sceneElem) map[string]bool {
	out := map[string]bool{}
	for _, e := range els {
		if in := e.str("in"); in != "" && in != e.str("id") {
			out[in] = true
		}
		for _, m := range e.motions() {
			if t, _ := m["type"].(string); t != "swing" {
				continue
			}
			if l, ok := m["length"].(float64); !ok || l > 0 {
				out[e.str("id")] = true
			}
		}
	}
	return out
}

// checkSubject: some element depicts one of the alternatives, by itself or, when it is
// drawn from parts, as the whole it says they make.
func checkSubject(els []sceneElem, subject string, kw KeywordsFunc) string {
	alts := strings.Split(subject, "|")
	whole := composed(els)
	for _, e := range els {
		have := e.depicts(kw)
		if w := e.str("depicts"); w != "" && whole[e.str("id")] {
			have = append(have, phrase(w))
		}
		for _, have := range have {
			for _, a := range alts {
				if containsPhrase(have, phrase(a)) {
					return ""
				}
			}
		}
	}
	// Say what stands in for it, so the failure reads like a person's complaint.
	var stand []string
	for _, e := range els {
		label := phrase(e.str("label"))
		for _, a := range alts {
			if label != "" && (containsPhrase(label, phrase(a)) || containsPhrase(phrase(a), label)) {
				what := e.str("type")
				if v := e.str("variant"); v != "" {
					what += " " + v
				}
				if id := e.str("asset"); id != "" && e.str("type") == "asset" {
					what = "asset " + id
				}
				if w := e.str("depicts"); w != "" && !whole[e.str("id")] {
					what += fmt.Sprintf(" that says it depicts a %s but has no parts", w)
				}
				stand = append(stand, what)
				break
			}
		}
	}
	if len(stand) > 0 {
		return fmt.Sprintf("subject %q is not depicted: it is drawn as a %s", alts[0], strings.Join(stand, ", a "))
	}
	return fmt.Sprintf("subject %q is not depicted: no element draws it", alts[0])
}

// checkAction: some element (or the camera) plays a motion of the action's kind (one of
// the kinds for "a|b"), as many times as the prompt counted: by one element, or by the
// elements together (three items checked off one by one).
func checkAction(d *sceneDoc, action string) string {
	alts := strings.Split(action, "|")
	first := ""
	for _, a := range alts {
		f := checkOneAction(d, strings.TrimSpace(a))
		if f == "" {
			return ""
		}
		if first == "" {
			first = f
		}
	}
	if len(alts) > 1 {
		return first + fmt.Sprintf(" (nor any of %s)", strings.Join(alts[1:], ", "))
	}
	return first
}

func checkOneAction(d *sceneDoc, action string) string {
	kind, count := action, 0.0
	if k, n, ok := strings.Cut(action, "*"); ok {
		kind = k
		count, _ = strconv.ParseFloat(n, 64)
	}
	if kind == "alternate" {
		if alternates(d.Elements) {
			return ""
		}
		return fmt.Sprintf("action %q: no two elements pop in by turns", kind)
	}
	test, ok := actionTests[kind]
	if !ok {
		return fmt.Sprintf("action %q: the suite does not know this kind of motion", kind)
	}
	if kind == "zoom" || kind == "slam" {
		if z := d.Camera.Tracks["zoom"]; len(z) > 1 && spread(kfValues(z)) >= 0.3 {
			return ""
		}
	}
	var counts []string
	total := 0.0
	for _, e := range d.Elements {
		n, ok := test(e)
		if !ok {
			continue
		}
		if count == 0 || n == count {
			return ""
		}
		total += n
		counts = append(counts, fmt.Sprintf("%s %s", e.name(), fmtNum(n)))
	}
	if len(counts) > 1 && total == count {
		return ""
	}
	if len(counts) > 0 {
		return fmt.Sprintf("action %q: asked %s times, played %s times", kind, fmtNum(count), strings.Join(counts, ", "))
	}
	return fmt.Sprintf("action %q: no element plays a %s motion (motions in the scene: %s)", kind, kind, d.motionSummary())
}

func (d *sceneDoc) motionSummary() string {
	seen := map[string]bool{}
	for _, e := range d.Elements {
		for _, m := range e.motions() {
			t, _ := m["type"].(string)
			seen[t] = true
		}
		tr, _ := e["tracks"].(map[string]any)
		for k := range tr {
			if k != "opacity" {
				seen[k+" track"] = true
			}
		}
		if r := e.str("reveal"); r != "" {
			seen[r+" reveal"] = true
		}
		if t := e.str("type"); t == "countdown" || t == "checklist" || t == "clock" || t == "progress" || t == "morph" {
			seen[t+" element"] = true
		}
	}
	if len(seen) == 0 {
		return "none"
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func kfValues(kfs []keyframe) []float64 {
	out := make([]float64, len(kfs))
	for i, k := range kfs {
		out[i] = k.V
	}
	return out
}

func spread(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	lo, hi := slices.Min(vs), slices.Max(vs)
	return hi - lo
}

// motionOf finds motions of the given types and sums their counts (a motion without a
// count counts once).
func motionOf(e sceneElem, types ...string) (float64, bool) {
	n, ok := 0.0, false
	for _, m := range e.motions() {
		t, _ := m["type"].(string)
		if slices.Contains(types, t) {
			ok = true
			c, _ := m["count"].(float64)
			n += max(c, 1)
		}
	}
	return n, ok
}

// anyKey reports whether the element or one of its motions has a truthy field named k
// (a trail on a flight).
func anyKey(e sceneElem, k string) bool {
	truthy := func(v any) bool {
		switch x := v.(type) {
		case bool:
			return x
		case float64:
			return x != 0
		case string:
			return x != ""
		case map[string]any, []any:
			return true
		}
		return false
	}
	if truthy(e[k]) {
		return true
	}
	for _, m := range e.motions() {
		if truthy(m[k]) {
			return true
		}
	}
	return false
}

// slideBy reports whether a slide starts at least |by| away on field k (from_y) in the
// sign of by and ends home: rising from below (from_y > 0) or dropping from above.
func slideBy(e sceneElem, k string, by float64) bool {
	for _, m := range e.motions() {
		if t, _ := m["type"].(string); t != "slide" {
			continue
		}
		v, _ := m[k].(float64)
		to, _ := m["to"+k[4:]].(float64)
		if (by > 0 && v-to >= by) || (by < 0 && v-to <= by) {
			return true
		}
	}
	return false
}

// travel is how far a motion moves the element (frame units), from its from/to fields.
func travel(m map[string]any) (dx, dy float64) {
	f := func(k string) float64 { v, _ := m[k].(float64); return v }
	return f("to_x") - f("from_x"), f("to_y") - f("from_y")
}

// moves reports the element's travel from its x/y tracks and travelling motions.
func moves(e sceneElem, types ...string) (dx, dy float64) {
	xs, ys := e.track("x"), e.track("y")
	if len(xs) > 1 {
		dx = xs[len(xs)-1] - xs[0]
	}
	if len(ys) > 1 {
		dy = ys[len(ys)-1] - ys[0]
	}
	for _, m := range e.motions() {
		t, _ := m["type"].(string)
		if slices.Contains(types, t) {
			mx, my := travel(m)
			dx, dy = dx+mx, dy+my
		}
	}
	return dx, dy
}

func one(ok bool) (float64, bool) { return 1, ok }

// segment is the largest move between two consecutive keyframes of a track in the
// direction sign (+1 down or right, -1 up or left): a drop from above the frame back to
// its place is a fall even when the track ends where it began.
func segment(vs []float64, sign float64) float64 {
	best := 0.0
	for i := 1; i < len(vs); i++ {
		best = math.Max(best, sign*(vs[i]-vs[i-1]))
	}
	return best
}

func motionOrTrack(e sceneElem, track string, minSpread float64, types ...string) (float64, bool) {
	if n, ok := motionOf(e, types...); ok {
		return n, true
	}
	return one(spread(e.track(track)) >= minSpread)
}

// actionTests say what in a scene element counts as playing each kind of action, and
// how many times. Named motion types come first; the older primitives count where they
// do the same thing on screen (an eased slide across the frame is a flight path; a
// progress track on a heart is a fill).
var actionTests = map[string]func(e sceneElem) (float64, bool){
	"fly": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "fly", "path"); ok {
			return n, true
		}
		dx, dy := moves(e, "slide", "drift")
		return one(math.Hypot(dx, dy) >= 0.8)
	},
	"trail": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "trail"); ok {
			return n, true
		}
		return one(anyKey(e, "trail"))
	},
	"bob":   func(e sceneElem) (float64, bool) { return motionOf(e, "bob", "float") },
	"float": func(e sceneElem) (float64, bool) { return motionOf(e, "bob", "float", "drift") },
	"orbit": func(e sceneElem) (float64, bool) { return motionOf(e, "orbit") },
	"sweep": func(e sceneElem) (float64, bool) {
		if e.str("type") == "clock" && spread(e.track("progress")) >= 0.9 {
			return max(e.num("count"), 1), true // progress turns the minute hand count times
		}
		return motionOrTrack(e, "rotation", 300, "sweep")
	},
	"swing":  func(e sceneElem) (float64, bool) { return motionOf(e, "swing", "pendulum") },
	"spin":   func(e sceneElem) (float64, bool) { return motionOrTrack(e, "rotation", 180, "spin", "sweep") },
	"wiggle": func(e sceneElem) (float64, bool) { return motionOf(e, "wiggle", "shake") },
	"morph": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "morph"); ok {
			return n, true
		}
		arr, _ := e["shapes"].([]any)
		return float64(len(arr) - 1), e.str("type") == "morph" && len(arr) >= 2 && spread(e.track("progress")) >= 0.9
	},
	"slam": func(e sceneElem) (float64, bool) {
		return motionOrTrack(e, "scale", 1.5, "slam", "zoom")
	},
	"zoom": func(e sceneElem) (float64, bool) {
		return motionOrTrack(e, "scale", 1, "slam", "zoom")
	},
	"pop": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "pop"); ok {
			return n, true
		}
		return one(e.str("reveal") == "pop" || popsIn(e))
	},
	"check": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "check", "checkoff", "check_off", "tick"); ok {
			return n, true
		}
		// A checklist checks item i off at times[i].
		times, _ := e["times"].([]any)
		return float64(len(times)), e.str("type") == "checklist" && len(times) > 0
	},
	"type": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "type", "typewriter"); ok {
			return n, true
		}
		return one(e.str("reveal") == "type")
	},
	"fill": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "fill"); ok {
			return n, true
		}
		t := e.str("type")
		return one(t != "text" && t != "counter" && t != "chart" && t != "wave" && spread(e.track("fill")) >= 0.5 ||
			(t == "ring" || t == "heart" || t == "progress" || e.str("variant") == "fill") && spread(e.track("progress")) >= 0.5)
	},
	"draw": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "draw"); ok {
			return n, true
		}
		t := e.str("type")
		return one((t == "path" || t == "wave" || t == "ring" || t == "chart" && isLine(e)) && spread(e.track("progress")) >= 0.9)
	},
	"flip": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "flip"); ok {
			return n, true
		}
		sx := e.track("sx")
		return one(len(sx) > 1 && slices.Min(sx) < 0 && slices.Max(sx) > 0)
	},
	"rise": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "rise"); ok {
			return n, true
		}
		if e.str("type") == "particles" && (e.str("variant") == "bubbles" || e.str("variant") == "steam") {
			return 1, true
		}
		_, dy := moves(e, "slide", "drift")
		return one(dy <= -0.4 || segment(e.track("y"), -1) >= 0.4 || slideBy(e, "from_y", 0.4))
	},
	"fall": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "fall", "drop"); ok {
			return n, true
		}
		if e.str("type") == "particles" && (e.str("variant") == "snow" || e.str("variant") == "confetti" || e.str("variant") == "rain") {
			return 1, true
		}
		_, dy := moves(e, "slide", "drift")
		return one(dy >= 0.4 || segment(e.track("y"), 1) >= 0.4 || slideBy(e, "from_y", -0.4))
	},
	"twinkle": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "twinkle"); ok {
			return n, true
		}
		return one(e.str("type") == "particles" && (e.str("variant") == "stars" || e.str("variant") == "sparkles"))
	},
	"burst": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "burst", "explode"); ok {
			return n, true
		}
		v := e.str("variant")
		return one(e.str("type") == "particles" && (v == "confetti" || v == "sparkles" || v == "fireworks"))
	},
	"bounce": func(e sceneElem) (float64, bool) { return motionOf(e, "bounce") },
	"beat":   func(e sceneElem) (float64, bool) { return motionOf(e, "beat", "pulse", "heartbeat") },
	"pulse":  func(e sceneElem) (float64, bool) { return motionOf(e, "beat", "pulse", "heartbeat") },
	"recolor": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "color", "colour", "recolor", "recolour", "tint"); ok {
			return n, true
		}
		// A bounce or ricochet stepping through colours at each contact or edge hit.
		for _, m := range e.motions() {
			if cs, _ := m["colors"].([]any); len(cs) > 1 {
				return 1, true
			}
		}
		return one(anyKey(e, "color_track") || anyKey(e, "colors_at") || anyKey(e, "color_change"))
	},
	"slide": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "slide", "fly"); ok {
			return n, true
		}
		dx, dy := moves(e)
		return one(math.Hypot(dx, dy) >= 0.3 || spread(e.track("x")) >= 0.6)
	},
	"count": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "count", "countdown"); ok {
			return n, true
		}
		return one(e.str("type") == "counter" && e.num("to") != e.num("from") && spread(e.track("progress")) >= 0.9)
	},
	"countdown": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "countdown"); ok {
			return n, true
		}
		if items, _ := e["items"].([]any); e.str("type") == "countdown" && len(items) > 1 {
			return float64(len(items)), true
		}
		return one(e.str("type") == "counter" && e.num("to") < e.num("from") && spread(e.track("progress")) >= 0.9)
	},
	"grow": func(e sceneElem) (float64, bool) {
		if n, ok := motionOf(e, "grow", "rise"); ok {
			return n, true
		}
		return one(e.str("type") == "chart" && spread(e.track("progress")) >= 0.9 || spread(e.track("scale")) >= 0.5)
	},
	"fade": func(e sceneElem) (float64, bool) { return one(spread(e.track("opacity")) >= 0.9) },
}

// popsIn: the element's scale starts at (nearly) nothing and grows past full size.
func popsIn(e sceneElem) bool {
	s := e.track("scale")
	return len(s) > 1 && s[0] <= 0.3 && slices.Max(s) >= 1
}

func isLine(e sceneElem) bool {
	for _, k := range []string{"variant", "kind", "chart"} {
		if v := e.str(k); v == "line" || v == "area" {
			return true
		}
	}
	return false
}

// alternates: two or more elements pop in at different times (speech bubbles taking
// turns). It is a relation between elements, so no per-element test can see it.
func alternates(els []sceneElem) bool {
	var starts []float64
	for _, e := range els {
		// When it pops: its first pop motion, else its own start.
		at, popped := math.Inf(1), false
		for _, m := range e.motions() {
			if t, _ := m["type"].(string); t == "pop" || t == "alternate" {
				st, _ := m["start"].(float64)
				at, popped = math.Min(at, st), true
			}
		}
		if !popped && (e.str("reveal") == "pop" || popsIn(e)) {
			at, popped = e.num("start"), true
		}
		if popped {
			starts = append(starts, at)
		}
	}
	sort.Float64s(starts)
	distinct := 0
	for i, s := range starts {
		if i == 0 || s-starts[i-1] >= 0.2 {
			distinct++
		}
	}
	return distinct >= 2
}

// checkChart: a chart of the kind carries every value; every label is in the scene.
func checkChart(els []sceneElem, want *agent.SuiteChart) []string {
	var charts []sceneElem
	for _, e := range els {
		if e.str("type") == "chart" || e.str("type") == "pie" || e.str("type") == "donut" {
			charts = append(charts, e)
		}
	}
	if len(charts) == 0 {
		return []string{"chart: no chart element in the scene"}
	}
	var out []string
	kind := orDefault(want.Kind, "bar")
	kindOK := false
	for _, c := range charts {
		got := "bar"
		for _, k := range []string{"variant", "kind", "chart", "style"} {
			if v := c.str(k); v != "" && v != "fill" {
				got = v
				break
			}
		}
		if c.str("type") != "chart" {
			got = c.str("type")
		}
		if got == kind || kind == "pie" && got == "donut" || kind == "donut" && got == "pie" || kind == "bar" && got == "hbar" {
			kindOK = true
		}
	}
	if !kindOK {
		out = append(out, fmt.Sprintf("chart: a %s chart was asked for, the scene has %s", kind, chartKinds(charts)))
	}
	percent := kind == "pie" || kind == "donut"
	for _, v := range want.Values {
		if !slices.ContainsFunc(charts, func(c sceneElem) bool { return c.hasNumber(v, percent) }) {
			out = append(out, fmt.Sprintf("chart: value %s is not in the chart's data (%s)", fmtNum(v), chartValues(charts)))
		}
	}
	for _, l := range want.Labels {
		if !slices.ContainsFunc(els, func(e sceneElem) bool { return e.hasText(l) }) {
			out = append(out, fmt.Sprintf("chart: label %q is in no element", l))
		}
	}
	return out
}

func chartKinds(cs []sceneElem) string {
	var ks []string
	for _, c := range cs {
		k := c.str("variant")
		if k == "" {
			k = "bar"
		}
		ks = append(ks, k+" chart")
	}
	return strings.Join(ks, ", ")
}

func chartValues(cs []sceneElem) string {
	var vs []string
	for _, c := range cs {
		arr, _ := c["values"].([]any)
		for _, v := range arr {
			if f, ok := v.(float64); ok {
				vs = append(vs, fmtNum(f))
			}
		}
	}
	if len(vs) == 0 {
		return "no values"
	}
	return "values " + strings.Join(vs, ", ")
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// colors lists every colour the scene paints with.
func (d *sceneDoc) colors() []string {
	out := append([]string(nil), d.Background.Colors...)
	if d.Background.Glow != "" {
		out = append(out, d.Background.Glow)
	}
	for _, e := range d.Elements {
		e.leaves(func(_ string, v any) {
			if s, ok := v.(string); ok && hexRE.MatchString(s) {
				out = append(out, s)
			}
		})
		// What a motion paints is on screen too: the colour a switch turns, a rising
		// liquid, a flip's back, a trail.
		for _, m := range e.motions() {
			if c, _ := m["color"].(string); hexRE.MatchString(c) {
				out = append(out, c)
			}
			cs, _ := m["colors"].([]any)
			for _, v := range cs {
				if c, _ := v.(string); hexRE.MatchString(c) {
					out = append(out, c)
				}
			}
		}
	}
	return out
}

var hexRE = regexp.MustCompile(`^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)

func checkColorUsed(used []string, name string) string {
	ref, ok := namedRef[canonColor(name)]
	if !ok {
		return fmt.Sprintf("colour %q: the suite has no reference for this name", name)
	}
	best, bestHex := math.Inf(1), ""
	for _, h := range used {
		c, ok := parseHex(h)
		if !ok {
			continue
		}
		if n, de := nearestName(c); readsAs(n, name) && de <= ColorTolerance {
			return ""
		}
		if de := deltaE(c, ref); de < best {
			best, bestHex = de, h
		}
	}
	if bestHex == "" {
		return fmt.Sprintf("colour %s is not used: the scene has no colours", name)
	}
	n, _ := nearestName(mustHex(bestHex))
	return fmt.Sprintf("colour %s is not used: the closest colour in the scene is %s, which reads as %s", name, bestHex, n)
}

func checkBackground(bg []string, name string) string {
	var got []string
	for _, h := range bg {
		c, ok := parseHex(h)
		if !ok {
			continue
		}
		n, de := nearestName(c)
		if readsAs(n, name) && de <= ColorTolerance {
			return ""
		}
		got = append(got, fmt.Sprintf("%s (%s)", h, n))
	}
	return fmt.Sprintf("background should read as %s; it is %s", name, strings.Join(got, ", "))
}

// ColorTolerance is the largest CIELAB ΔE (1976) between a used colour and the
// reference of the name it is nearest to: past 30 a person names the colour differently
// even if no other name in the table is closer.
const ColorTolerance = 30.0

// namedRef are reference shades for the colour names prompts use (CSS where CSS has
// the name, otherwise the shade a palette would pick). Nearest-name matching runs over
// all of them, so "gold" and "yellow", "navy" and "blue" are told apart.
var namedRef = map[string]rgb{
	"red": {229, 57, 53}, "orange": {251, 140, 0}, "gold": {255, 193, 7}, "yellow": {253, 216, 53},
	"green": {67, 160, 71}, "lime": {156, 204, 101}, "teal": {0, 137, 123}, "cyan": {0, 188, 212},
	"blue": {30, 136, 229}, "sky blue": {135, 206, 235}, "navy": {26, 35, 126}, "indigo": {57, 73, 171}, "purple": {142, 36, 170},
	"violet": {126, 87, 194}, "lavender": {179, 157, 219}, "pink": {236, 64, 122}, "magenta": {216, 27, 96},
	"coral": {255, 112, 67}, "brown": {109, 76, 65}, "beige": {215, 204, 200}, "cream": {255, 248, 225},
	"white": {255, 255, 255}, "black": {17, 17, 17}, "grey": {158, 158, 158}, "silver": {192, 192, 192},
	"mint": {74, 222, 128}, "peach": {255, 171, 145}, "charcoal": {54, 69, 79},
	// Light and dark shades of a hue a person still names by the hue (see shadeOf):
	// without them a pale pink is nearest beige and a deep purple nearest navy.
	"light pink": {248, 187, 208}, "dark purple": {90, 24, 110},
}

// shadeOf names the colour each shade is a kind of: a sky blue is a blue, so it
// answers a prompt's "blue", but a plain blue does not answer "sky blue". Navy stays
// its own name: a prompt asking for blue and getting navy reads as dark, not blue.
var shadeOf = map[string]string{"sky blue": "blue", "light pink": "pink", "dark purple": "purple"}

// readsAs reports whether a colour whose nearest reference is nearest answers a
// prompt's colour name: the same name, or a shade of it.
func readsAs(nearest, asked string) bool {
	asked = canonColor(asked)
	return nearest == asked || shadeOf[nearest] == asked
}

var colorAliases = map[string]string{"golden": "gold", "gray": "grey", "aqua": "cyan", "turquoise": "cyan",
	"crimson": "red", "scarlet": "red", "amber": "orange", "ivory": "cream", "off-white": "cream"}

func canonColor(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if a, ok := colorAliases[name]; ok {
		return a
	}
	return name
}

type rgb struct{ r, g, b float64 }

func parseHex(h string) (rgb, bool) {
	if !hexRE.MatchString(h) {
		return rgb{}, false
	}
	h = h[1:]
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return rgb{}, false
	}
	return rgb{float64(v >> 16 & 255), float64(v >> 8 & 255), float64(v & 255)}, true
}

func mustHex(h string) rgb { c, _ := parseHex(h); return c }

// nearestName is the reference name closest to c in CIELAB, with the distance.
func nearestName(c rgb) (string, float64) {
	best, bestD := "", math.Inf(1)
	names := make([]string, 0, len(namedRef))
	for n := range namedRef {
		names = append(names, n)
	}
	sort.Strings(names) // ties resolve the same way every run
	for _, n := range names {
		if d := deltaE(c, namedRef[n]); d < bestD {
			best, bestD = n, d
		}
	}
	return best, bestD
}

func deltaE(a, b rgb) float64 {
	l1, a1, b1 := lab(a)
	l2, a2, b2 := lab(b)
	return math.Sqrt((l1-l2)*(l1-l2) + (a1-a2)*(a1-a2) + (b1-b2)*(b1-b2))
}

// lab converts sRGB to CIELAB (D65).
func lab(c rgb) (l, a, b float64) {
	lin := func(v float64) float64 {
		v /= 255
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	r, g, bl := lin(c.r), lin(c.g), lin(c.b)
	x := (0.4124*r + 0.3576*g + 0.1805*bl) / 0.95047
	y := 0.2126*r + 0.7152*g + 0.0722*bl
	z := (0.0193*r + 0.1192*g + 0.9505*bl) / 1.08883
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(x), f(y), f(z)
	return 116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)
}
