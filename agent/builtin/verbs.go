package builtin

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Motion verbs: the phrases of a prompt that name a motion program (agent/scene's
// motions), and the counts and orders that go with them ("three times", "one by one",
// "alternately").

// verbPhrases rewrites multi-word verbs to the one word the tokenizer reads, so "circles
// around the sun" is an orbit and "turns into a circle" a morph.
var verbPhrases = strings.NewReplacer(
	"circles around", "orbits", "circle around", "orbit", "circling around", "orbiting",
	"goes around", "orbits", "revolves around", "orbits", "spins around the", "orbits the",
	"turns into", "morphs into", "transforms into", "morphs into", "changes into", "morphs into",
	"morphing into", "morphs into", "shape-shifts into", "morphs into",
	// One thing becoming another, drawn as one changing into the other ("a bud opens
	// into a rose", "an egg hatches into a chick").
	"opens into", "morphs into", "opens up into", "morphs into", "blossoms into", "morphs into", "blooms into", "morphs into",
	"grows into", "morphs into", "hatches into", "morphs into", "evolves into", "morphs into", "unfolds into", "morphs into",
	"becomes a ", "morphs into a ", "becomes an ", "morphs into an ",
	"zooms towards the camera", "slams", "zooms toward the camera", "slams", "zooms towards", "slams",
	"zooms toward", "slams", "zooms at the camera", "slams", "flies at the camera", "slams",
	"comes at the camera", "slams", "jumps out at", "slams",
	"changes colour", "recolors", "changes color", "recolors", "change colour", "recolor", "change color", "recolor",
	"changing colour", "recoloring", "changing color", "recoloring", "changes its colour", "recolors", "changes its color", "recolors",
	"speech bubbles", "chats", "speech bubble", "chat", "chat bubbles", "chats", "chat bubble", "chat",
	"in sequence", "one by one", "one after another", "one by one", "one after the other", "one by one",
	// "a plane circles it", "gears turn together", "appear letter by letter".
	"circles it", "orbits it", "circles the", "orbits the", "circling it", "orbiting it",
	"turn together", "spin together", "turning together", "spinning together",
	// "an app launch" is an event, not a rocket's flight
	"app launch", "app release", "product launch", "product release",
	"letter by letter", "typing", "blinking cursor", "blinking caret", "flashing cursor", "blinking caret", "-shaped", "",
	"in turn", "alternately", "taking turns", "alternately", "take turns", "alternately", "back and forth", "alternately",
	// Going up is rising, whatever carries it ("balloons float up into the sky").
	"floats up", "rises", "float up", "rise", "floating up", "rising", "drifts up", "rises", "drift up", "rise",
	"flies up", "flies upward", "fly up", "fly upward",
	// A bell or a phone that rings shakes; "rings" after it is no ring to draw.
	"it rings", "it chimes", "bell rings", "bell chimes", "phone rings", "phone chimes",
	// A fish tank is an aquarium, not a fish beside an armoured tank.
	"fish tanks", "aquariums", "fish tank", "aquarium", "fishtank", "aquarium",
	"blasts off", "launches", "turns on", "glows on", "switches on", "glows on", "lights up", "glows on", "light up", "glow on", "lighting up", "glowing on", "takes off", "launches",
)

// motionVerbs are the verbs of motion programs, merged into actionWords.
var motionVerbs = map[string]string{
	"bob": "bob", "bobs": "bob", "bobbing": "bob",
	"sweep": "sweep", "sweeps": "sweep", "sweeping": "sweep",
	"swing": "swing", "swings": "swing", "swinging": "swing", "sways": "swing", "sway": "swing", "dangles": "swing", "dangling": "swing",
	"pendulum": "swing",
	"morph":    "morph", "morphs": "morph", "morphing": "morph", "transforms": "morph",
	"slam": "slam", "slams": "slam", "smash": "slam", "smashes": "slam", "crashes": "slam", "punches": "slam",
	"check": "check", "checks": "check", "checked": "check", "ticks": "check", "ticked": "check",
	"fill": "fill", "fills": "fill", "filling": "fill", "filled": "fill",
	"flip": "flip", "flips": "flip", "flipping": "flip",
	"recolor": "recolor", "recolors": "recolor", "recoloring": "recolor",
	"steams": "rise", "steaming": "rise",
	"sparkle": "twinkle", "sparkles": "twinkle", "sparkling": "twinkle", "flicker": "twinkle", "flickers": "twinkle", "glitters": "twinkle",
	"orbiting": "orbit", "chats": "", // "chats" is a noun here (speech bubbles)
	"chime": "wiggle", "chimes": "wiggle", "ringing": "wiggle", "buzz": "wiggle",
	"turn": "spin", "turns": "spin", "turning": "spin", "swirl": "spin", "swirls": "spin", "swirling": "spin", "twist": "spin", "twists": "spin",
	"flutter": "fly", "flutters": "fly", "fluttering": "fly", "launch": "fly", "launches": "fly", "blows": "fly", "blow": "fly", "blowing": "fly",
	"swoops": "fly",
}

// turnsColorRE: "turns red", "goes green", "becomes pink" change colour; they are no spin.
var turnsColorRE = regexp.MustCompile(`\b(?:turns|turn|turning|goes|becomes)\s+([a-z]+)\b`)

// recolorTurns rewrites a turn into a colour as a recolour.
func recolorTurns(low string) string {
	return turnsColorRE.ReplaceAllStringFunc(low, func(m string) string {
		w := turnsColorRE.FindStringSubmatch(m)[1]
		if _, ok := colorOf(w); ok {
			return "recolors " + w
		}
		return m
	})
}

// travelVerbs go somewhere on the ground or in the water: the subject crosses the frame
// ("a car drives", "a turtle walks across the beach"), or comes in and stops ("drives in
// and stops").
var travelVerbs = map[string]bool{
	"drive": true, "drives": true, "driving": true, "ride": true, "rides": true, "riding": true,
	"walk": true, "walks": true, "walking": true, "crawl": true, "crawls": true, "crawling": true,
	"swim": true, "swims": true, "swimming": true, "chug": true, "chugs": true, "chugging": true,
	"cross": true, "crosses": true, "crossing": true, "race": true, "races": true, "racing": true,
	"sail": true, "sails": true, "sailing": true, "march": true, "marches": true, "waddle": true, "waddles": true,
	"trot": true, "trots": true, "gallop": true, "gallops": true, "scurries": true, "scurry": true, "speeds": true,
	"chases": true, "chase": true, "chasing": true, "run": true, "runs": true, "running": true, "jog": true,
	"jogs": true, "jogging": true, "sprint": true, "sprints": true, "sprinting": true, "dash": true,
	"dashes": true, "dashing": true, "hurries": true, "rushes": true, "skates": true, "skating": true,
	"cycles": true, "cycling": true, "pedals": true, "pedaling": true, "hikes": true, "hiking": true,
	"strolls": true, "strolling": true, "wanders": true, "wandering": true, "paddles": true, "rows": true,
}

// Verbs of going up: the flight leaves upwards (a rocket "launches", "flies up").
var upRE = regexp.MustCompile(`\b(?:up|upward|upwards|skyward|skywards|into (?:the )?(?:sky|space|air)|launch(?:es)?)\b`)

// enterRE: travel that ends in the frame ("drives in and stops", "rolls in").
var enterRE = regexp.MustCompile(`\b(?:in and stops?|in and parks?|pulls up|comes to a stop|stops in the (?:middle|centre|center)|drives in|rides in|rolls in|comes in|walks in|swims in)\b`)

// placePrepRE: a preposition that makes the noun after it a place, not an actor: "falls
// from a tree", "crawls along a leaf", "pops out of a bucket".
var placePrepRE = regexp.MustCompile(`\b(from|along|on|onto|in|into|inside|out of|over|under|across|through|past|near|beside|behind|above|below|toward|towards|off)\s+(?:(?:a|an|the|some|its|his|her)\s+)?(?:[a-z-]+\s+){0,2}$`)

func init() {
	for k := range travelVerbs {
		actionWords[k] = "slide"
	}
}

// withinPreps are the places an actor is drawn at: in or on it, coming out of it, or
// under or over it.
var withinPreps = map[string]bool{"in": true, "into": true, "inside": true, "on": true, "onto": true, "out of": true,
	"under": true, "below": true, "over": true, "above": true}

// readPlaces marks the subjects of a clause that are where the action happens rather
// than who does it: named after the clause's first verb, behind a place preposition.
// They stay put while the actors move.
func (b *brief) readPlaces(bt *beat) {
	verbAt := -1
	for _, loc := range wordRE.FindAllStringIndex(bt.Text, -1) {
		if _, ok := actionWords[bt.Text[loc[0]:loc[1]]]; ok {
			verbAt = loc[0]
			break
		}
	}
	if verbAt < 0 && len(bt.Subjects) > 1 {
		// No verb: "an ice cream cone under a hot sun", "an owl under a crescent moon":
		// the first subject is the actor, the places come after it.
		if at := nounAt(bt.Text, b.Subjects[bt.Subjects[0]].Noun); at >= 0 {
			verbAt = at
		}
	}
	if verbAt < 0 {
		return
	}
	var actors, places []int
	for _, si := range bt.Subjects {
		at := nounAt(bt.Text, b.Subjects[si].Noun)
		if m := placePrepRE.FindStringSubmatch(bt.Text[:max(at, 0)]); at > verbAt && m != nil {
			places = append(places, si)
			if withinPreps[m[1]] {
				if bt.Within == nil {
					bt.Within = map[int]string{}
				}
				bt.Within[si] = m[1]
			}
		} else {
			actors = append(actors, si)
		}
	}
	b.readRelations(bt)
	if len(actors) > 0 {
		bt.Places = places
	}
}

var (
	fromEndRE = regexp.MustCompile(`\bfrom\s+(?:(?:a|an|the|its|his|her|one)\s+)?(?:[a-z-]+\s+){0,2}$`)
	toEndRE   = regexp.MustCompile(`\b(?:to|into|onto|toward|towards)\s+(?:(?:a|an|the|its|his|her|another|the other)\s+)?(?:[a-z-]+\s+){0,2}$`)
)

// readPath reads "from A to B" between two subjects of the clause: both are places, the
// others travel from one to the other across the frame.
func (b *brief) readPath(bt *beat) {
	for _, a := range bt.Subjects {
		at := nounAt(bt.Text, b.Subjects[a].Noun)
		if at < 0 || !fromEndRE.MatchString(bt.Text[:at]) {
			continue
		}
		// Every "to X" after it is a stop, in the order they come; the last is the end.
		type stop struct{ subj, at int }
		var stops []stop
		for _, o := range bt.Subjects {
			ats := nounAts(bt.Text, b.Subjects[o].Noun)
			for _, ot := range ats {
				if ot > at && toEndRE.MatchString(bt.Text[:ot]) {
					if o == a {
						// "from the left building to the right building": one noun, two
						// of it; the path still runs between them.
						continue
					}
					stops = append(stops, stop{o, ot})
				}
			}
		}
		if len(stops) == 0 {
			continue
		}
		sort.Slice(stops, func(i, j int) bool { return stops[i].at < stops[j].at })
		bt.From, bt.To, bt.Via = a, stops[len(stops)-1].subj, nil
		for _, st := range stops[:len(stops)-1] {
			if st.subj != bt.To {
				bt.Via = appendInt(bt.Via, st.subj)
			}
		}
	}
	if bt.From < 0 {
		return
	}
	for _, p := range append([]int{bt.From, bt.To}, bt.Via...) {
		bt.Places = appendInt(bt.Places, p)
	}
	bt.Across = true
}

// betweenRE: "between two potted plants", "between the tree and the house".
var betweenRE = regexp.MustCompile(`\bbetween\s+(?:(?:a|an|the|two|its|his|her)\s+)?(?:[a-z-]+\s+){0,2}$`)

// readBetween binds "X between Y(s)": the actor is the noun before "between", the places
// the plural after it (two of it) or the two nouns joined by "and".
func (b *brief) readBetween(bt *beat) {
	for _, si := range bt.Subjects {
		at := nounAt(bt.Text, b.Subjects[si].Noun)
		if at < 0 || !betweenRE.MatchString(bt.Text[:at]) {
			continue
		}
		actor, actorAt := -1, -1
		for _, o := range bt.Subjects {
			if oa := nounAt(bt.Text, b.Subjects[o].Noun); o != si && oa >= 0 && oa < at && oa > actorAt {
				actor, actorAt = o, oa
			}
		}
		if actor < 0 {
			continue
		}
		second := -1
		for _, o := range bt.Subjects {
			oa := nounAt(bt.Text, b.Subjects[o].Noun)
			if o != si && o != actor && oa > at && regexp.MustCompile(`^\s+and\s+(?:(?:a|an|the)\s+)?(?:[a-z-]+\s+){0,2}$`).MatchString(bt.Text[at+len(b.Subjects[si].Noun):oa]) {
				second = o
			}
		}
		bt.Between = append(bt.Between, between{Actor: actor, A: si, B: second})
		bt.Places = appendInt(bt.Places, si)
		if second >= 0 {
			bt.Places = appendInt(bt.Places, second)
		}
	}
}

// carryActor gives a clause that acts but names no actor of its own the previous
// clause's actor: in "a leaf turns red, then detaches and drifts down onto a pond" the
// leaf drifts, and the pond, named only as where, stays put.
func (b *brief) carryActor(bt, prev *beat) {
	if len(bt.Actions) == 0 || len(bt.Places) > 0 || len(bt.Quotes) > 0 {
		return // a clause with words of its own is about them ("then 'Stay fresh' pops up")
	}
	for _, si := range bt.Subjects {
		at := nounAt(bt.Text, b.Subjects[si].Noun)
		if at < 0 || placePrepRE.FindStringSubmatch(bt.Text[:at]) == nil {
			return // an actor of its own
		}
	}
	actor := -1
	for _, si := range prev.Subjects {
		if !containsInt(prev.Places, si) && b.Subjects[si].Kind != "particles" {
			actor = si
			break
		}
	}
	if actor < 0 {
		return
	}
	bt.Places = append([]int(nil), bt.Subjects...)
	bt.Subjects = append([]int{actor}, bt.Subjects...)
}

// readRelations binds each place preposition to the noun nearest before it, at every
// mention of the place: "a cat under a table, … a lamp on the table" puts the cat under
// it and the lamp on it, not every actor of the clause in one spot.
func (b *brief) readRelations(bt *beat) {
	ms := b.mentions(bt)
	for k, m := range ms {
		pm := placePrepRE.FindStringSubmatch(bt.Text[:m.at])
		if pm == nil || !withinPreps[pm[1]] {
			continue
		}
		for j := k - 1; j >= 0; j-- {
			if ms[j].si != m.si {
				r := relation{Actor: ms[j].si, Place: m.si, Prep: pm[1]}
				if !slices.Contains(bt.Rels, r) && !containsRelActor(bt.Rels, r.Actor) {
					bt.Rels = append(bt.Rels, r)
				}
				break
			}
		}
	}
}

// mention is where subject si is named in a clause.
type mention struct{ at, si int }

// mentions are every naming of the clause's subjects, in the order written.
func (b *brief) mentions(bt *beat) []mention {
	var ms []mention
	for _, si := range bt.Subjects {
		for _, at := range nounAts(bt.Text, b.Subjects[si].Noun) {
			ms = append(ms, mention{at, si})
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].at < ms[j].at })
	return ms
}

func containsRelActor(rs []relation, actor int) bool {
	for _, r := range rs {
		if r.Actor == actor {
			return true
		}
	}
	return false
}

// nounAts are the places the noun (or its singular) is mentioned in the clause.
func nounAts(clause, noun string) []int {
	for _, n := range []string{noun, strings.TrimSuffix(noun, "s")} {
		var out []int
		for _, loc := range regexp.MustCompile(`\b`+regexp.QuoteMeta(n)).FindAllStringIndex(clause, -1) {
			out = append(out, loc[0])
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// withRE: "a cupcake with a candle": the second sits on the first.
var withRE = regexp.MustCompile(`\bwith\s+(?:a|an|the|some|one|its)?\s*$`)

// readWith marks, in a clause without a verb, the drawings that come "with" another
// drawing: they are placed on it ("a birthday cupcake with a candle").
func (b *brief) readWith(bt *beat) {
	if len(bt.Actions) > 0 || len(bt.Subjects) < 2 {
		return
	}
	first := bt.Subjects[0]
	for _, si := range bt.Subjects[1:] {
		at := nounAt(bt.Text, b.Subjects[si].Noun)
		if at > 0 && withRE.MatchString(bt.Text[:at]) && b.Subjects[si].Kind == "asset" && b.Subjects[first].Kind == "asset" {
			if bt.With == nil {
				bt.With = map[int]int{}
			}
			bt.With[si] = first
		}
	}
}

// spiralNouns name the shape a particle field swirls in, not a drawing.
var spiralNouns = map[string]bool{"spiral": true, "swirl": true, "vortex": true, "whirlpool": true, "galaxy spiral": true}

// spiralParticles: "particles swirl in a spiral" is a particle field drawn as a turning
// spiral, in the colours the spiral was given; the spiral is no illustration of its own.
func (b *brief) spiralParticles() {
	field := -1
	for i, s := range b.Subjects {
		if s.Kind == "particles" {
			field = i
		}
	}
	if field < 0 {
		return
	}
	for i := 0; i < len(b.Subjects); i++ {
		if s := b.Subjects[i]; s.Kind == "asset" && spiralNouns[s.Noun] || strings.HasSuffix(s.Noun, " spiral") && s.Kind == "asset" {
			if b.Subjects[field].Color == "" {
				b.Subjects[field].Color = s.Color
			}
			b.Subjects[field].Variant = "spiral"
			b.Subjects = append(b.Subjects[:i], b.Subjects[i+1:]...)
			if i < field {
				field--
			}
			i--
		}
	}
}

// nounAt is where a subject's noun (or its singular) first appears in a clause, -1 if not.
func nounAt(clause, noun string) int {
	for _, n := range []string{noun, strings.TrimSuffix(noun, "s")} {
		if loc := regexp.MustCompile(`\b` + regexp.QuoteMeta(n)).FindStringIndex(clause); loc != nil {
			return loc[0]
		}
	}
	return -1
}

// readTravel: a travel verb crosses the frame unless the clause says it comes in and
// stops.
func readTravel(bt *beat) {
	for _, tok := range wordRE.FindAllString(bt.Text, -1) {
		if travelVerbs[tok] {
			bt.Travel = true
		}
	}
	bt.Enter = enterRE.MatchString(bt.Text)
	if bt.Travel && !bt.Enter && !bt.Alternate {
		bt.Across = true
	}
	bt.Up = upRE.MatchString(bt.Text)
}

func init() {
	for k, v := range motionVerbs {
		if v == "" {
			delete(actionWords, k)
			continue
		}
		actionWords[k] = v
	}
	// Speech bubbles are drawn as chat bubbles with their words inside.
	subjectKinds["chats"] = "icon"
	iconVariants["chats"] = "chat"
}

var (
	oneByOneRE  = regexp.MustCompile(`\bone by one\b`)
	stackRE     = regexp.MustCompile(`\b(?:stack(?:s|ed|ing)?|piles? up|piling up)\b`)
	alternateRE = regexp.MustCompile(`\b(?:alternately|alternating|alternate)\b`)
	clauseCount = regexp.MustCompile(`\b([0-9]+|one|two|three|four|five|six|seven|eight|nine|ten|once|twice|thrice)\s*(times|x\b|turns?|revolutions?|laps?|loops?|rounds?|hops?|bounces?|beats?|swings?|flips?)?`)
	trailRE     = regexp.MustCompile(`\b(dotted|dashed|dots|solid|trail|streak|line|path)\b`)
	surfaceRE   = regexp.MustCompile(`\b(water|waves?|sea|ocean|lake|pond|river|surface|bath|pool)\b`)
	sayRE       = regexp.MustCompile(`\b(saying|says|say|said|reading|reads|with the words?)\b`)
	edgeRE      = regexp.MustCompile(`\b(?:edges?|walls?|corners?|borders?)\b|\baround the (?:screen|frame)\b|\boff the sides?\b`)
	fillVerbs   = map[string]bool{"fill": true, "fills": true, "filling": true, "filled": true, "up": true}
)

// readBeatVerbs reads the counts and orders of one clause.
func readBeatVerbs(bt *beat, clause string) {
	bt.Count = verbCount(clause)
	bt.OneByOne = oneByOneRE.MatchString(clause)
	bt.Alternate = alternateRE.MatchString(clause)
	bt.Saying = sayRE.MatchString(clause)
	readTravel(bt)
}

// verbCount is the number of times a clause asks for: "twice", "three times", "3 turns",
// "once"; a bare number word counts only when "times" (or a unit of the motion) follows.
func verbCount(clause string) int {
	for _, m := range clauseCount.FindAllStringSubmatch(clause, -1) {
		switch m[1] {
		case "once":
			return 1
		case "twice":
			return 2
		case "thrice":
			return 3
		}
		if m[2] == "" {
			continue
		}
		if v, err := strconv.Atoi(m[1]); err == nil && v > 0 && v <= 50 {
			return v
		}
		if v, ok := numberWords[m[1]]; ok {
			return int(v)
		}
	}
	return 0
}

// morphShapes maps subject kinds and nouns to the outlines TypeMorph draws.
var morphShapes = map[string]string{"circle": "circle", "rect": "square", "star": "star", "heart": "heart",
	"triangle": "triangle", "blob": "blob"}

// readMorph finds a morph: a clause with "morphs" and the shapes named in it and in the
// clauses that continue it ("and then into a triangle"), in order. The first shape's
// subject becomes the one morphing outline; the others are only its later forms.
func (b *brief) readMorph() {
	for bi, bt := range b.Beats {
		if !containsStr(bt.Actions, "morph") {
			continue
		}
		var idx []int
		for j := bi; j < len(b.Beats); j++ {
			if j > bi && len(b.Beats[j].Actions) > 0 && !containsStr(b.Beats[j].Actions, "morph") {
				break
			}
			for _, si := range b.Beats[j].Subjects {
				if _, ok := morphShapes[b.Subjects[si].Kind]; ok {
					idx = appendInt(idx, si)
				}
			}
		}
		if len(idx) < 2 && b.readForms(bi) {
			return
		}
		if len(idx) < 2 {
			if len(idx) == 1 {
				// "a blob morphs": change into the next shape of a friendly cycle.
				first := morphShapes[b.Subjects[idx[0]].Kind]
				b.Subjects[idx[0]].Shapes = []string{first, map[string]string{"circle": "star", "star": "heart", "heart": "circle", "square": "circle", "triangle": "circle", "blob": "circle"}[first]}
				b.Subjects[idx[0]].Kind = "morph"
			}
			return
		}
		// Subjects are numbered in the order the prompt names them.
		sort.Ints(idx)
		first := idx[0]
		s := &b.Subjects[first]
		s.Shapes = nil
		for _, si := range idx {
			s.Shapes = append(s.Shapes, morphShapes[b.Subjects[si].Kind])
			if si != first {
				b.Subjects[si].Absorbed = true
			}
		}
		s.Kind = "morph"
		return
	}
}

// readForms reads a morph between drawings, beat bi on ("a caterpillar turns into a
// butterfly"): the first drawing becomes each later one in turn, in the same place (the
// later ones are its Forms, not subjects of their own), and "into" is no containment.
// It reports whether it found two.
func (b *brief) readForms(bi int) bool {
	var idx []int
	for j := bi; j < len(b.Beats); j++ {
		if j > bi && len(b.Beats[j].Actions) > 0 && !containsStr(b.Beats[j].Actions, "morph") {
			break
		}
		bt := b.Beats[j]
		for _, si := range bt.Subjects {
			// Not where it happens ("a tadpole in a pond grows into a frog").
			place := slices.ContainsFunc(bt.Rels, func(r relation) bool { return r.Place == si && r.Prep != "into" })
			if b.Subjects[si].Asset != "" && !b.Subjects[si].Scenery && !place {
				idx = appendInt(idx, si)
			}
		}
	}
	if len(idx) < 2 {
		return false
	}
	sort.Ints(idx)
	first := &b.Subjects[idx[0]]
	for _, si := range idx[1:] {
		first.Forms = append(first.Forms, b.Subjects[si].Asset)
		b.Subjects[si].Absorbed = true
	}
	for j := range b.Beats {
		bt := &b.Beats[j]
		bt.Rels = slices.DeleteFunc(bt.Rels, func(r relation) bool { return slices.Contains(idx, r.Actor) && slices.Contains(idx, r.Place) })
		bt.Places = slices.DeleteFunc(bt.Places, func(p int) bool { return slices.Contains(idx[1:], p) })
	}
	return true
}

// blobShapes: a blob is a soft outline that morphs (agent/scene has no still blob),
// from blob to circle and back when the prompt names no other shape.
func (b *brief) blobShapes() {
	for i := range b.Subjects {
		s := &b.Subjects[i]
		if s.Kind == "blob" {
			s.Kind, s.Shapes = "morph", []string{"blob", "circle", "blob"}
		}
		if s.Kind == "morph" && strings.Join(s.Shapes, ",") == "blob,circle" {
			s.Shapes = append(s.Shapes, "blob") // and back to a blob
		}
	}
}

func containsStr(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// wordsAct is the quote that plays the verbs of beat bi, or -1: a clause that names no
// drawing but quotes words ("'LAUNCH' slams onto the screen", "the word 'JUMP'
// bounces in"), or, in a prompt that draws nothing, a clause of verbs after quoted
// words ("The word 'Vibes' in pink, floating gently").
func (b *brief) wordsAct(bi int) int {
	if bi < 0 || bi >= len(b.Beats) {
		return -1
	}
	bt := b.Beats[bi]
	if len(bt.Subjects) > 0 || len(bt.Actions) == 0 {
		return -1
	}
	if len(bt.Quotes) > 0 {
		return bt.Quotes[0]
	}
	for _, s := range b.Subjects {
		if s.Kind != "particles" {
			return -1 // "then it spins" is the drawing's
		}
	}
	for k := bi - 1; k >= 0; k-- {
		if len(b.Beats[k].Subjects) > 0 {
			return -1
		}
		if q := b.Beats[k].Quotes; len(q) > 0 {
			return q[len(q)-1]
		}
	}
	return -1
}

// wordsActions are the verbs quote q plays itself (wordsAct).
func (b *brief) wordsActions(q int) []string {
	var out []string
	for bi, bt := range b.Beats {
		if b.wordsAct(bi) != q {
			continue
		}
		for _, a := range bt.Actions {
			out = appendUnique(out, a)
		}
	}
	return out
}
