package builtin

import (
	"regexp"
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
	"zooms towards the camera", "slams", "zooms toward the camera", "slams", "zooms towards", "slams",
	"zooms toward", "slams", "zooms at the camera", "slams", "flies at the camera", "slams",
	"comes at the camera", "slams", "jumps out at", "slams",
	"changes colour", "recolors", "changes color", "recolors", "change colour", "recolor", "change color", "recolor",
	"changing colour", "recoloring", "changing color", "recoloring", "changes its colour", "recolors", "changes its color", "recolors",
	"speech bubbles", "chats", "speech bubble", "chat", "chat bubbles", "chats", "chat bubble", "chat",
	"in sequence", "one by one", "one after another", "one by one", "one after the other", "one by one",
	"in turn", "alternately", "taking turns", "alternately", "take turns", "alternately", "back and forth", "alternately",
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
	subjectKinds["planets"] = "circle"
	iconVariants["chats"] = "chat"
}

var (
	oneByOneRE  = regexp.MustCompile(`\bone by one\b`)
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
		if len(idx) < 2 {
			if len(idx) == 1 {
				// "a blob morphs": change into the next shape of a friendly cycle.
				first := morphShapes[b.Subjects[idx[0]].Kind]
				b.Subjects[idx[0]].Shapes = []string{first, map[string]string{"circle": "star", "star": "heart", "heart": "circle", "square": "circle", "triangle": "circle"}[first]}
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

func containsStr(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
