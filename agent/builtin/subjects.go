package builtin

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
)

// Subjects from the asset library: the nouns of a prompt that are not shapes, charts or
// text are drawn as the library's illustration of them (agent/assets), multi-word
// subjects first ("paper plane", "hot air balloon"). A subject the library can only
// approximate is drawn as its nearest relative and the project is told so.

// assetSpan is a run of prompt tokens naming one library subject.
type assetSpan struct {
	end   int // one past the last token
	match assets.Match
}

// notSubjects are words that never name something to draw, though the library may
// have a keyword for them (directions, time, the frame, list and scene words).
var notSubjects = map[string]bool{"wordmark": true, "logotype": true,
	// ordinals say which one, never what ("the first three bars grey": no moon phase)
	"first": true, "last": true, "next": true, "final": true, "previous": true, "third": true, "fourth": true, "fifth": true,
	// function words
	"a": true, "an": true, "the": true, "and": true, "or": true, "but": true, "of": true, "with": true, "without": true,
	"on": true, "in": true, "into": true, "onto": true, "at": true, "to": true, "from": true, "by": true, "for": true,
	"over": true, "under": true, "above": true, "below": true, "across": true, "through": true, "around": true,
	"behind": true, "beside": true, "between": true, "near": true, "inside": true, "outside": true, "off": true,
	"out": true, "up": true, "down": true, "away": true, "back": true, "along": true, "towards": true, "toward": true,
	"is": true, "are": true, "was": true, "were": true, "be": true, "being": true, "been": true, "has": true,
	"have": true, "had": true, "it": true, "its": true, "it's": true, "they": true, "them": true, "their": true,
	"this": true, "that": true, "these": true, "those": true, "which": true, "who": true, "whose": true,
	"where": true, "when": true, "while": true, "then": true, "there": true, "here": true, "each": true,
	"hello": true, "hi": true, "bye": true, "goodbye": true, "yes": true, "no": true, "ok": true, "okay": true,
	"every": true, "all": true, "both": true, "once": true, "twice": true, "thrice": true, "past": true, "some": true, "any": true, "one": true, "ones": true, "other": true,
	// a part of another drawing, not one of its own ("a gift box with a red bow")
	"bow":     true,
	"another": true, "very": true, "so": true, "too": true, "also": true, "just": true, "only": true, "again": true,
	"get": true, "gets": true, "got": true, "make": true, "makes": true, "let": true, "lets": true, "leaving": true,
	"leave": true, "like": true, "blinking": true, "blinks": true, "flashing": true, "as": true, "if": true, "until": true, "after": true,
	"before": true, "during": true, "per": true, "same": true, "more": true, "less": true, "most": true,
	// the frame, directions and time
	"left": true, "right": true, "top": true, "bottom": true, "center": true, "centre": true, "middle": true,
	"side": true, "sides": true, "corner": true, "corners": true, "edge": true, "edges": true, "screen": true,
	"frame": true, "video": true, "animation": true, "clip": true, "scene": true, "shot": true, "view": true,
	// what the video is, not a thing in it ("Ad for Acorn Bank")
	"ad": true, "ads": true, "advert": true, "advertisement": true, "commercial": true,
	"announcement": true, "notice": true, "reminder": true,
	"end": true, "start": true, "beginning": true, "way": true, "time": true, "times": true, "second": true,
	"seconds": true, "minute": true, "minutes": true, "hour": true, "hours": true, "day": true, "days": true,
	"week": true, "weeks": true, "month": true, "months": true, "year": true, "years": true, "today": true,
	"morning": true, "evening": true, "night": true, "loop": true, "loops": true, "speed": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true, "sunday": true,
	// things other parts of the composer draw or read
	"trail": true, "path": true, "dotted": true, "dashed": true, "streak": true, "steam": true, "smoke": true,
	"sky": true, "background": true, "backdrop": true, "gradient": true, "light": true, "shadow": true,
	"color": true, "colour": true, "colors": true, "colours": true, "palette": true, "items": true,
	"label": true, "labels": true, "legend": true, "axis": true, "value": true, "values": true, "total": true,
	"percentage": true, "percentages": true,
	"style": true, "format": true, "story": true, "stories": true, "post": true, "safe": true, "area": true,
	"water": true, "surface": true, "ground": true, "floor": true, "wall": true, "walls": true,
	"hand": true, "hands": true, "face": true, "body": true, "piece": true, "pieces": true, "part": true,
	"cream": true, "ivory": true, "field": true, "meadow": true, "horizon": true,
	// collectives: "a row of tiles" draws tiles
	"row": true, "rows": true, "pile": true, "bunch": true, "group": true, "pair": true, "couple": true,
	// lines of text ("three lines stack up"), not a drawing of lines
	"lines": true,
	// clicking and tapping are what a cursor or a finger does, not things to draw
	"caret": true, "click": true, "clicks": true, "clicked": true, "tap": true, "taps": true, "tapped": true,
}

// compoundHeads are the kinds whose noun makes the word before it an adjective ("pie
// chart", "progress bar", "star logo").
var compoundHeads = map[string]bool{"chart": true, "counter": true, "countdown": true, "clock": true,
	"checklist": true, "logo": true, "card": true, "ring": true, "text": true}

// reflexives follow a verb whose subject acts on itself.
var reflexives = map[string]bool{"itself": true, "themselves": true, "himself": true, "herself": true, "yourself": true, "ourselves": true}

// possessives introduce a part of a subject, not a new one ("a clock whose hands").
var possessives = map[string]bool{"whose": true, "its": true, "their": true, "his": true, "her": true, "my": true, "our": true, "your": true}

// determiners introduce a noun: an unknown word after one is probably a subject.
var determiners = map[string]bool{"a": true, "an": true, "the": true, "some": true, "two": true, "three": true,
	"four": true, "five": true, "six": true, "seven": true, "eight": true, "nine": true, "ten": true, "many": true,
	"several": true, "little": true, "tiny": true, "big": true, "small": true, "giant": true, "huge": true, "cute": true,
	// one of several: "one red sock blows off its peg", "each candle", "another coin"
	"one": true, "each": true, "every": true, "another": true}

var (
	listAfterColonRE = regexp.MustCompile(`:[^.;!?]*`)
	// A colon between digits is a ratio or a time ("9:16", "1:1", "8:30"); one followed
	// by a determiner opens a sentence ("Vertical story: a shopping bag pops in").
	ratioColonRE    = regexp.MustCompile(`\d:\d`)
	sentenceAfterRE = regexp.MustCompile(`^:\s*(?:a|an|the|our|my|your|this|some|two|three)\b`)
	withThingRE     = regexp.MustCompile(`\swith\s+(?:a|an|the)\s`)
)

// itemDotRE: the dot after a list number.
var itemDotRE = regexp.MustCompile(`\b(\d{1,2})\.(?:\s)`)

// listTokens are the indexes of tokens in a list after a colon ("Plan, Build, Ship"):
// items to write, not subjects to draw.
func listTokens(low string) map[int]bool {
	out := map[int]bool{}
	// Ratios and times are not list colons: blank them so the search passes over them.
	low = ratioColonRE.ReplaceAllStringFunc(low, func(m string) string { return m[:1] + "x" + m[2:] })
	// Nor does a numbered item's dot end the list ("steps: 1. Boil noodles, 2. Melt").
	low = itemDotRE.ReplaceAllString(low, "$1)")
	for _, loc := range listAfterColonRE.FindAllStringIndex(low, -1) {
		if sentenceAfterRE.MatchString(low[loc[0]:loc[1]]) || opensOnDeterminer(low[loc[0]:loc[1]]) || movesBeforeComma(low[loc[0]:loc[1]]) {
			continue
		}
		// "story: 'New drop Friday' with a sneaker sliding in": the list ends where a
		// "with" brings in what else the scene has.
		if k := withThingRE.FindStringIndex(low[loc[0]:loc[1]]); k != nil && k[0] > 0 {
			loc[1] = loc[0] + k[0]
		}
		first := len(wordRE.FindAllString(low[:loc[0]], -1))
		n := len(wordRE.FindAllString(low[loc[0]:loc[1]], -1))
		for k := first; k < first+n; k++ {
			out[k] = true
		}
	}
	return out
}

// movesBeforeComma: the words after a colon say something moves before any comma
// ("November: gold medal with a blue ribbon drops in"): a sentence about things, not a
// list of items to write.
func movesBeforeComma(after string) bool {
	first, _, _ := strings.Cut(after, ",")
	for _, w := range wordRE.FindAllString(first, -1) {
		if _, ok := actionWords[w]; ok {
			return true
		}
	}
	return false
}

// opensOnDeterminer: the words after a colon begin a sentence about things ("Diwali
// evening: six clay diyas sit…", "a tiny robot…"), not a list of items to write.
func opensOnDeterminer(after string) bool {
	ws := wordRE.FindAllString(after, 2)
	return len(ws) > 0 && determiners[ws[0]]
}

// subjectWord reports whether a token could be (part of) a drawn subject's name.
func subjectWord(tok string) bool {
	if tok == "" || notSubjects[tok] || strings.ContainsAny(tok, "'’") || strings.HasPrefix(tok, "«q") || strings.HasPrefix(tok, "#") || isNumber(tok) || strings.HasPrefix(tok, "$") {
		return false
	}
	if _, ok := actionWords[tok]; ok {
		return false
	}
	if _, ok := styleWords[tok]; ok {
		return false
	}
	if _, ok := numberWords[tok]; ok {
		return false
	}
	if _, ok := aspectWords[tok]; ok {
		return false
	}
	if technicalWords[tok] || backgroundWords[tok] || colorSkipWords[tok] || len(tok) < 2 {
		return false
	}
	if len(tok) == 2 {
		// "a tv", "an ox": a two-letter word only when a drawing is named by it.
		_, named := assets.Default().NamedOnly(tok)
		return named
	}
	return true
}

// mannerWords are the ways a prompt names a thing only to say how something else moves
// or looks: no drawing of it belongs in the video. Each row has its example.
var mannerWords = []struct {
	Name    string
	At      func(tokens []string, i int) bool
	Example string // the word at [brackets] is not drawn
}{
	// "unfold like an accordion", "spins like a top"; but "shaped like a heart" and "looks
	// like a cat" say what the thing is drawn as.
	{"simile", func(t []string, i int) bool {
		j := i - 1
		if j >= 0 && determiners[t[j]] {
			j--
		}
		return j >= 0 && t[j] == "like" && (j == 0 || !lookWords[t[j-1]])
	}, "its two solar panels unfold like an [accordion]"},
	// "a rounded pill shape", "a heart shaped balloon": the outline of something else;
	// but in "a cloud shaped like a heart" the cloud is the thing.
	{"shape word", func(t []string, i int) bool {
		if strings.HasSuffix(t[i], "-shaped") || i+1 < len(t) && t[i+1] == "shape" {
			return true
		}
		return i+1 < len(t) && t[i+1] == "shaped" && (i+2 == len(t) || t[i+2] != "like" && t[i+2] != "as")
	}, "a rounded [pill] shape that cycles through my socials"},
}

// lookWords before "like" say what a thing is drawn as ("shaped like a heart").
var lookWords = map[string]bool{"shaped": true, "look": true, "looks": true, "looking": true, "dressed": true, "disguised": true}

// idioms are set phrases whose nouns name nothing in the picture: "NO wins by a hair"
// is a close win, not a drawing of hair. Each is matched as whole words.
var idioms = [][]string{
	strings.Fields("by a hair"), strings.Fields("by a nose"), strings.Fields("by a whisker"),
	strings.Fields("by a mile"), strings.Fields("by a landslide"), strings.Fields("neck and neck"),
	strings.Fields("hands down"), strings.Fields("head to head"), strings.Fields("in a heartbeat"),
	strings.Fields("blink of an eye"), strings.Fields("piece of cake"), strings.Fields("like a charm"),
	strings.Fields("over the moon"), strings.Fields("under the weather"), strings.Fields("on cloud nine"),
	strings.Fields("drop of a hat"), strings.Fields("arm and a leg"), strings.Fields("break a leg"),
	strings.Fields("at heart"), strings.Fields("by heart"), strings.Fields("from scratch"),
}

// idiomTokens marks the tokens of every idiom in the prompt.
func idiomTokens(tokens []string) map[int]bool {
	out := map[int]bool{}
	for i := range tokens {
		for _, id := range idioms {
			if i+len(id) <= len(tokens) && slices.Equal(tokens[i:i+len(id)], id) {
				for k := i; k < i+len(id); k++ {
					out[k] = true
				}
			}
		}
	}
	return out
}

// gazeVerbs turn a subject's face somewhere; viewerNouns, after one of them, are the
// person watching the video ("looks at the camera", "winks into the lens"): a way of
// looking, nothing to draw.
var (
	gazeVerbs = map[string]bool{"look": true, "looks": true, "looking": true, "looked": true, "stare": true, "stares": true,
		"staring": true, "glance": true, "glances": true, "gaze": true, "gazes": true, "wink": true, "winks": true,
		"smile": true, "smiles": true, "turn": true, "turns": true, "turning": true, "peek": true, "peeks": true, "talks": true, "speaks": true}
	viewerNouns = map[string]bool{"camera": true, "cameras": true, "lens": true, "viewer": true, "viewers": true, "audience": true}
)

// viewerAt: token i is the camera a subject looks at ("looks straight at the camera").
func viewerAt(tokens []string, i int) bool {
	if !viewerNouns[tokens[i]] {
		return false
	}
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		if gazeVerbs[tokens[j]] {
			return true
		}
	}
	return false
}

// linkingVerbs say what something is or becomes; degreeWords say how much ("gets a
// little rounder", "looks much happier").
var (
	linkingVerbs = map[string]bool{"gets": true, "get": true, "getting": true, "becomes": true, "become": true, "becoming": true,
		"grows": true, "growing": true, "looks": true, "looking": true, "seems": true, "feels": true, "is": true, "are": true,
		"stays": true, "goes": true, "turns": true, "and": true}
	degreeWords = map[string]bool{"a": true, "little": true, "bit": true, "much": true, "even": true, "slightly": true,
		"more": true, "so": true, "very": true, "really": true, "lot": true, "way": true, "far": true}
)

// comparativeAt: token i is an adjective's comparative after a linking verb ("the pig
// gets a little rounder and happier each time"): a change of the subject, not a thing
// (WordNet has "rounder" as a noun, a kind of man).
func comparativeAt(tokens []string, i int) bool {
	w := tokens[i]
	if !strings.HasSuffix(w, "er") || len(w) < 5 {
		return false
	}
	j := i - 1
	for j >= 0 && degreeWords[tokens[j]] {
		j--
	}
	if j < 0 || !linkingVerbs[tokens[j]] || tokens[j] == "and" && (j == 0 || !comparativeAt(tokens, j-1)) {
		return false
	}
	// "rounder and happier", "bigger than": a comparative beside it settles what it is.
	next := func(k int) string {
		if k < len(tokens) {
			return tokens[k]
		}
		return ""
	}
	return adjectiveStem(w) || next(i+1) == "than" || next(i+1) == "and" && strings.HasSuffix(next(i+2), "er") && adjectiveStem(next(i+2))
}

// materialAt: token i is what a thing is made of ("a paper boat made from newspaper",
// "a crown made out of gold foil"): the thing is drawn, not its material.
func materialAt(tokens []string, i int) bool {
	for j := i - 1; j >= 1 && j >= i-3; j-- {
		if (tokens[j] == "from" || tokens[j] == "of") && (tokens[j-1] == "made" || tokens[j-1] == "out" && j >= 2 && tokens[j-2] == "made") {
			return true
		}
		if !modifierWords[tokens[j]] && !isColorTok(tokens[j]) && !determiners[tokens[j]] {
			return false
		}
	}
	return false
}

// infinitiveAt: token i follows "to" as a verb ("waiting to pick it up", "rushes to
// catch the ball"): a word WordNet uses mostly as a verb, or one that takes an object
// or a particle after it; "goes to school" keeps the school.
func infinitiveAt(tokens []string, i int) bool {
	if i == 0 || tokens[i-1] != "to" {
		return false
	}
	return assets.MostlyOther(tokens[i]) || i+1 < len(tokens) && verbObjects[tokens[i+1]]
}

// verbObjects follow a verb, never a noun used as a place: its object or its particle.
var verbObjects = map[string]bool{"it": true, "them": true, "him": true, "her": true, "me": true, "us": true,
	"up": true, "out": true, "off": true, "down": true, "away": true, "back": true, "a": true, "an": true, "the": true}

// adjectiveStem: w ends in -er and drops it to a word WordNet uses mostly as an
// adjective ("happier" → happy, "bigger" → big, "larger" → large).
func adjectiveStem(w string) bool {
	stem, ok := strings.CutSuffix(w, "er")
	if !ok || len(stem) < 2 {
		return false
	}
	for _, s := range []string{stem, stem + "e", strings.TrimSuffix(stem, "i") + "y", stem[:len(stem)-1]} {
		if assets.MostlyOther(s) {
			return true
		}
	}
	return false
}

// mannerWord names the mannerWords row token i is, or "".
func mannerWord(tokens []string, i int) string {
	for _, r := range mannerWords {
		if r.At(tokens, i) {
			return r.Name
		}
	}
	return ""
}

// assetSpans finds the library subjects of a prompt's tokens, keyed by the index of
// their first token. The longest phrase wins ("hot air balloon" over "balloon"); a
// phrase must name its drawing outright (a name, a CLDR label or a curated synonym),
// a single word may also be one of its keywords. Shape, chart and text nouns are left
// to subjectKinds, except as the end of a longer name ("shooting star").
func assetSpans(tokens []string, low string) (map[int]assetSpan, []string) {
	lib := assets.Default()
	spans := map[int]assetSpan{}
	var notes []string
	list := listTokens(low)
	idioms := idiomTokens(tokens)
	skip := func(i int) bool {
		return list[i] || idioms[i] || (i > 0 && possessives[tokens[i-1]]) || styleWordsAt(tokens, i) || mannerWord(tokens, i) != "" || viewerAt(tokens, i) || comparativeAt(tokens, i) || materialAt(tokens, i) || infinitiveAt(tokens, i) ||
			// "black on cream": a colour something sits on.
			(i > 1 && tokens[i-1] == "on" && isColorTok(tokens[i-2]))
	}
	for i := 0; i < len(tokens); i++ {
		if skip(i) || shadeOf(tokens, i) {
			continue
		}
		found := false
		for n := 3; n >= 2 && !found; n-- {
			if i+n > len(tokens) {
				continue
			}
			phrase := strings.Join(tokens[i:i+n], " ")
			// A phrase that is a drawing's very name wins over what its words say alone:
			// "thumbs up" (not a direction), "search bar" (not a chart), "battery icon".
			_, kindFirst := subjectKinds[tokens[i]] // "bar chart", "progress ring": the composer's own
			if !listSpan(list, i, n) && !kindFirst && (subjectWord(tokens[i]) || isColorTok(tokens[i])) && !verbAfterOne(tokens, i, n) {
				if m, hit := assets.Named(phrase); hit {
					spans[i] = assetSpan{end: i + n, match: m}
					i += n - 1
					found = true
					continue
				}
				// A water creature's home ("fish tank") is drawn from shapes by the
				// habitat program, whatever stands in for it in the library.
				if m, hit := lib.Find(phrase); hit && habitatNounRE.MatchString(phrase) {
					spans[i] = assetSpan{end: i + n, match: m}
					i += n - 1
					found = true
					continue
				}
				// A compound WordNet knows whole is that thing, drawn as its nearest
				// relative when nothing draws it ("golden retriever" a dog, "oak tree" a
				// tree), never as its first word.
				if m, hit := assets.Compound(phrase); hit && !m.Stroke {
					spans[i] = assetSpan{end: i + n, match: m}
					i += n - 1
					found = true
					continue
				}
			}
			ok, exactOnly := true, false
			for k := i; k < i+n; k++ {
				// A colour may open a name ("black cat"), nothing else that is not a noun;
				// a name the library knows outright may also open with a verb's -ing
				// ("flying saucer") or hold a word that is no subject alone ("ice cream").
				if k > i && (skip(k) || possessives[tokens[k]]) {
					ok = false // "waves her": a verb and its object's owner, no name
					break
				}
				if subjectWord(tokens[k]) || (k == i && isColorTok(tokens[k])) {
					continue
				}
				if nameWord(tokens[k], k == i) {
					exactOnly = true
					continue
				}
				ok = false
				break
			}
			head := tokens[i+n-1]
			if k, shape := subjectKinds[head]; ok && shape && (isColorTok(tokens[i]) || compoundHeads[k]) {
				ok = false // "red heart" is the heart shape in red, "bar chart" the chart
			}
			if !ok {
				continue
			}
			if m, hit := lib.Find(phrase); hit && !m.Substituted && m.Score >= 95 && (!exactOnly || m.Score >= 99) {
				spans[i] = assetSpan{end: i + n, match: m}
				i += n - 1
				found = true
			}
		}
		if found {
			continue
		}
		tok := tokens[i]
		if isColorTok(tok) && standsAsNoun(tokens, i) {
			// "an orange", "a lime and a lemon": a colour word standing alone after an
			// article names the thing of that colour, when the library draws one.
			// Not a heart, a disc or a square of that colour: those depict the colour.
			for _, m := range lib.Search(tok, 12) {
				if m.Score >= 75 && !m.Stroke && !strings.HasPrefix(m.Category, "symbols/") && !strings.HasPrefix(m.Category, "smileys-emotion/") {
					spans[i] = assetSpan{end: i + 1, match: m}
					break
				}
			}
			// A thing WordNet draws as a relative ("salmon" a fish).
			if _, ok := spans[i]; !ok {
				if m, ok := assets.NounSense(tok); ok && !m.Stroke {
					spans[i] = assetSpan{end: i + 1, match: m}
				}
			}
			continue
		}
		if _, known := subjectKinds[tok]; known || !subjectWord(tok) || isColorTok(tok) || verbBeforeObject(tokens, i, 1) {
			continue
		}
		introduced := introducedAt(tokens, i)
		if i == 0 && len(tokens) > 1 && !determiners[tokens[1]] && assets.KnownNoun(tok) {
			// A prompt that opens on its subject without an article ("Chameleon sitting
			// on a branch", "Rocket lifts off"); an opening verb takes an object
			// ("Show a…").
			introduced = true
		}
		if i > 0 && !introduced {
			_, prevKind := subjectKinds[tokens[i-1]]
			if start, ok := spanEndingAt(spans, i); ok && !prevKind && coreLen(tokens[start:i]) == 1 && !verbAfterOne(tokens, start, i+1-start) && (strongName(lib, tok) || endsPhrase(lib, tokens, i) && spans[start].match.Score < 99) {
				// A compound's head: "school bus" is a bus, "notification bell" a bell,
				// "clay diyas" diyas, "an empty glass" a glass; a loose keyword does not
				// take over a drawing's own name ("a watermelon slice" is the watermelon);
				// after "a", a word in -s is the verb ("a pencil doodles").
				delete(spans, start)
				introduced = introducedAt(tokens, start) || start == 0
			} else if (prevKind || ok) && !(prevKind && strongName(lib, tok) && assets.KnownNoun(tok)) {
				// A verb after its subject: "a limousine drives", "a bus and a taxi drive";
				// but a drawing's own name that is mostly a noun after a kind word is a
				// thing of its own ("sea turtles" are turtles by the sea).
				continue
			}
		}
		if i+1 < len(tokens) && (tokens[i+1] == "one" || tokens[i+1] == "ones") {
			continue // "a medium one", "the red ones": an adjective of a noun said before
		}
		if (modifierWords[tok] || sizeWords[tok]) && i+1 < len(tokens) && subjectWord(tokens[i+1]) {
			continue // "the old price", "a new phone": an adjective of the noun after it
		}
		if i+1 < len(tokens) && assets.MostlyOther(tok) && assets.KnownNoun(tokens[i+1]) && !assets.MostlyOther(tokens[i+1]) {
			// "an electric kettle": a word used mostly as an adjective, before a noun the
			// library cannot draw, is not drawn in its stead (a drawn noun after it takes
			// the phrase as its head below: "an empty glass" is a glass).
			if m, ok := lib.Find(tokens[i+1]); !ok || m.Score < 75 {
				continue
			}
		}
		if i+1 < len(tokens) && subjectWord(tokens[i+1]) && !isColorTok(tok) {
			if _, shape := subjectKinds[tokens[i+1]]; shape || strongName(lib, tokens[i+1]) {
				if m, hit := lib.Find(tok); !hit || m.Score < 95 {
					continue // an adjective: "a wavy line", "a hot sun"
				}
			}
		}
		if strings.HasSuffix(tok, "ing") && len(tok) > 5 && !introduced {
			continue // "dancing robot": a gerund or an adjective
		}
		if i+1 < len(tokens) {
			if k := subjectKinds[tokens[i+1]]; compoundHeads[k] {
				continue // an adjective in a compound: "pie chart", "line graph"
			}
		}
		if strings.HasSuffix(tok, "ing") && i+1 < len(tokens) && subjectWord(tokens[i+1]) {
			if n, ok := lib.Find(tokens[i+1]); ok && !n.Substituted && n.Score >= 95 {
				continue // "a sleeping cat": the cat, asleep
			}
		}
		m, hit := lib.Find(tok)
		if hit && (m.Score < 99 || m.Substituted) && assets.NotNoun(tok) {
			// "six diyas sit", "a robotic arm": a verb or adjective, whatever a drawing's
			// keywords or a near spelling ("robot") say.
			continue
		}
		if hit && !m.Substituted {
			if phrase, other := otherSense(tokens, i); other {
				notes = append(notes, "I have no illustration of "+quoteWord(phrase)+"; it is not drawn as asked.")
				continue
			}
		}
		if (!hit || m.Substituted || m.Score < 75) && standsAsNoun(tokens, i) {
			// "a remote", "the lower": a word used mostly otherwise is a noun here.
			if n, ok := assets.NounSense(tok); ok {
				m, hit = n, true
			}
		}
		switch {
		case hit && !m.Substituted && m.Score >= 95, introduced && hit && !m.Substituted && m.Score >= 75 && !m.Stroke:
			// A word on its own must name the drawing ("balloons"); after "a" or "the",
			// a CLDR keyword is enough ("a tortoise"), where a bare keyword is too often
			// a verb ("and settles").
			spans[i] = assetSpan{end: i + 1, match: m}
		case introduced && hit && !m.Substituted && m.Score >= 70:
			// "a sofa": the line icon that is named so, when no illustration is.
			spans[i] = assetSpan{end: i + 1, match: m}
		case introduced && !hit && i+1 < len(tokens) && isColorTok(tokens[i+1]):
			// "a matte black card", "a pastel blue egg": a finish before a colour
			// describes the thing after it.
		case introduced && !hit:
			notes = append(notes, "I have no illustration of "+quoteWord(tok)+" in my library; it is not drawn as asked.")
		case introduced && m.Substituted && (!m.Stroke || habitatNounRE.MatchString(tok)):
			// A word after "a"/"the" the library only knows a relative of: drawn as
			// that relative, and said.
			spans[i] = assetSpan{end: i + 1, match: m}
		}
	}
	return spans, notes
}

// otherSense reports whether the drawn word at i is meant in a sense its drawing does
// not show, and the phrase that says so: a noun before it makes a compound WordNet
// draws otherwise ("a water tank" is a cistern) or speaks of another sense ("a canal
// lock", "a wax seal", "a sheep pen").
func otherSense(tokens []string, i int) (string, bool) {
	// Any noun before it: "water" is no subject of its own, but a water tank is one.
	if i == 0 || functionWords[tokens[i-1]] || determiners[tokens[i-1]] || isColorTok(tokens[i-1]) || !assets.KnownNoun(tokens[i-1]) {
		return "", false
	}
	phrase := tokens[i-1] + " " + tokens[i]
	if m, ok := assets.Find(phrase); ok && m.Score >= 99 && m.Message == "" || ok && m.Score > 100 {
		return "", false // the library's own name or stand-in for the whole ("fish tank")
	}
	return phrase, assets.NothingDrawn(phrase) || assets.OtherSense(tokens[i-1], tokens[i])
}

// inRowRE asks for copies on one straight line.
var inRowRE = regexp.MustCompile(`\bin (?:a|one) (?:neat )?(?:row|line)\b|\blined up\b|\bside by side\b`)

// oneDeterminers introduce one thing.
var oneDeterminers = map[string]bool{"a": true, "an": true, "one": true, "this": true, "that": true, "each": true, "every": true}

// verbAfterOne: the n words at i follow "a" and end in a plural form, so the last is the
// verb of a singular subject ("a bee flies", not the bee fly; "a cat walks").
func verbAfterOne(tokens []string, i, n int) bool {
	if i == 0 || !oneDeterminers[tokens[i-1]] {
		return false
	}
	last := tokens[i+n-1]
	return strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss") && !strings.HasSuffix(last, "us")
}

// verbBeforeObject: the word at i ends in a third-person -s between a noun and a
// possessive ("a girl waves her hand", "a dog shakes its coat"), so it is the verb
// that takes the object, not a thing to draw.
//
// A word a reflexive pronoun follows is a verb whatever its ending ("the laces tie
// themselves", "the box opens itself"): nothing is drawn for it.
func verbBeforeObject(tokens []string, i, n int) bool {
	if n == 1 && i > 0 && i+1 < len(tokens) && reflexives[tokens[i+1]] {
		return true
	}
	if n != 1 || i == 0 || i+1 >= len(tokens) || !possessives[tokens[i+1]] || tokens[i+1] == "whose" {
		return false
	}
	w, prev := tokens[i], tokens[i-1]
	if !strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") {
		return false
	}
	return subjectWord(prev) && !determiners[prev] && !isColorTok(prev) && !possessives[prev]
}

// styleWordsAt: the word at i names a look ("science class style", "retro look"): a
// style noun follows within two words.
func styleWordsAt(tokens []string, i int) bool {
	for k := i + 1; k < len(tokens) && k <= i+2; k++ {
		if styleNouns[tokens[k]] {
			return true
		}
		if !subjectWord(tokens[k]) {
			return false
		}
	}
	return false
}

// endsPhrase: the word at i closes a noun phrase, so it is the phrase's head: the
// library draws it, it is no verb the agent knows, and a verb, a function word, a word
// that is no noun or the end follows ("six clay diyas sit", "into an empty glass until").
func endsPhrase(lib *assets.Library, tokens []string, i int) bool {
	if _, verb := actionWords[tokens[i]]; verb || assets.MostlyOther(tokens[i]) {
		return false
	}
	if m, hit := lib.Find(tokens[i]); !hit || m.Substituted || m.Score < 75 || m.Stroke {
		return false
	}
	if i+1 == len(tokens) || functionWords[tokens[i+1]] || !assets.KnownNoun(tokens[i+1]) {
		return true
	}
	_, verb := actionWords[tokens[i+1]]
	return verb
}

// standsAsNoun: the word at i is a noun here, an article before it and a function word
// or the end after it ("an orange and a clock", "a remote."), not an adjective ("an
// orange ball", "a lower third").
func standsAsNoun(tokens []string, i int) bool {
	if i == 0 || (tokens[i-1] != "a" && tokens[i-1] != "an" && tokens[i-1] != "the") {
		return false
	}
	if i+1 == len(tokens) {
		return true
	}
	return functionWords[tokens[i+1]]
}

// shadeOf: the noun at i names the shade of the colour after it ("butter yellow
// background", "sky blue text"), no thing to draw, unless the two words name one
// ("ice cream cone").
func shadeOf(tokens []string, i int) bool {
	if i+2 >= len(tokens) || !isColorTok(tokens[i+1]) || isColorTok(tokens[i]) || functionWords[tokens[i+2]] || determiners[tokens[i]] {
		return false
	}
	_, named := assets.Named(tokens[i] + " " + tokens[i+1]) // "ice cream" is no shade of cream
	return !named
}

// spanEndingAt finds the span that ends just before token i.
func spanEndingAt(spans map[int]assetSpan, i int) (int, bool) {
	for start, sp := range spans {
		if sp.end == i {
			return start, true
		}
	}
	return 0, false
}

// coreLen counts the words of a span that are not colours ("yellow school" is one).
func coreLen(toks []string) int {
	n := 0
	for _, t := range toks {
		if !isColorTok(t) {
			n++
		}
	}
	return n
}

// strongName: the library has a drawing named by the word itself (not a keyword).
func strongName(lib *assets.Library, w string) bool {
	if !subjectWord(w) {
		return false
	}
	m, hit := lib.Find(w)
	return hit && !m.Substituted && m.Score >= 99
}

// functionWords never belong inside a subject's name.
var functionWords = map[string]bool{"a": true, "an": true, "the": true, "and": true, "or": true, "but": true,
	"of": true, "with": true, "on": true, "in": true, "into": true, "at": true, "to": true, "from": true, "by": true,
	"for": true, "is": true, "are": true, "it": true, "its": true, "then": true, "while": true, "as": true}

// nameWord: a word that is no subject on its own but may be part of a name the library
// knows outright: an -ing verb opening it ("flying saucer"), a scene word inside it
// ("ice cream", "light bulb").
func nameWord(w string, first bool) bool {
	if functionWords[w] || placePreps[w] || strings.HasPrefix(w, "«q") || isNumber(w) || len(w) < 3 {
		return false
	}
	if _, act := actionWords[w]; act {
		return first && strings.HasSuffix(w, "ing")
	}
	return notSubjects[w]
}

// placePreps never belong inside a subject's name: "a coffee mug beside them" is a mug.
var placePreps = map[string]bool{"beside": true, "between": true, "behind": true, "under": true, "over": true,
	"near": true, "around": true, "inside": true, "onto": true, "into": true, "across": true, "through": true,
	"along": true, "toward": true, "towards": true, "above": true, "below": true, "past": true, "off": true,
	"next": true, "against": true, "atop": true, "beneath": true}

// listSpan reports whether any of tokens i..i+n-1 is in a list after a colon.
func listSpan(list map[int]bool, i, n int) bool {
	for k := i; k < i+n; k++ {
		if list[k] {
			return true
		}
	}
	return false
}

// modifierWords describe what a thing is made of or how it looks: "a blue water
// bottle", "a sleek glass vase" still introduce the noun after them.
var modifierWords = map[string]bool{"water": true, "glass": true, "paper": true, "wooden": true, "metal": true,
	"plastic": true, "new": true, "sleek": true, "shiny": true, "gold": true, "golden": true, "silver": true,
	"leather": true, "old": true, "modern": true, "classic": true, "premium": true, "luxury": true}

// introducedAt reports whether token i follows a determiner, perhaps across colour and
// modifier words ("a blue water bottle"): an unknown word there is probably a subject.
func introducedAt(tokens []string, i int) bool {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if determiners[tokens[k]] {
			return true
		}
		if !isColorTok(tokens[k]) && !modifierWords[tokens[k]] {
			return false
		}
	}
	return false
}

// spanEnds reports whether a span ends just before token i.
func spanEnds(spans map[int]assetSpan, i int) bool {
	for _, sp := range spans {
		if sp.end == i {
			return true
		}
	}
	return false
}

func quoteWord(s string) string { return "“" + s + "”" }

// assetSubjectIn reports whether a clause names the asset subject s.
func assetSubjectIn(clause string, s subject) bool {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(s.Noun) + `\b`).MatchString(clause)
}

// assetHeading is the direction an asset element's drawing faces (see assets.Heading).
func assetHeading(e *scene.Element) (float64, bool) {
	a, ok := assets.Default().Get(e.Asset)
	if !ok {
		return 0, false
	}
	return a.Heading()
}

// faceTravel keeps scenery still and mirrors a drawing that faces sideways when it travels the other way: an
// emoji car faces left, and "drives from left to right" must not drive backwards.
func (c *composer) faceTravel() {
	for i, e := range c.subjects {
		if c.b.Subjects[c.index[i]].Scenery {
			// The place stays put: no intro pulse or idle float on a mountain range.
			e.Motions = nil
		}
	}
	for _, e := range c.d.Elements {
		if e.Type != scene.TypeAsset {
			continue
		}
		h, ok := assetHeading(e)
		if !ok || (h != 0 && h != 180) || turnsItself(e) {
			continue
		}
		dx := 0.0
		for _, m := range e.Motions {
			if m.Orient {
				dx = 0
				break
			}
			dx += m.ToX - m.FromX
		}
		if kfs := e.Tracks["x"]; len(kfs) > 1 {
			dx += kfs[len(kfs)-1].V - kfs[0].V
		}
		if (h == 180 && dx > 0.05) || (h == 0 && dx < -0.05) {
			if kfs, ok := e.Tracks["sx"]; ok {
				for k := range kfs {
					kfs[k].V = -kfs[k].V
				}
			} else {
				trackOf(e)["sx"] = []scene.Keyframe{{T: 0, V: -1}}
			}
		}
	}
}

// scenery are the categories and assets that are places rather than actors.
var scenery = map[string]bool{"travel-places/place-geographic": true, "fluent:cityscape": true,
	"fluent:cityscape-at-dusk": true, "fluent:night-with-stars": true, "fluent:sunset": true, "fluent:sunrise": true,
	"fluent:sunrise-over-mountains": true, "fluent:stadium": true, "fluent:milky-way": true}

// howMany reads how many of a subject the prompt asks for: a number before it ("three
// balloons", "5 stars"), else three for a plural ("leaves falling"), else one.
// partsOfVideo are what a count before them divides the video into ("a story in 3
// beats: (1) a dog…"), never a count of the thing named next.
var partsOfVideo = map[string]bool{"beats": true, "steps": true, "scenes": true, "parts": true, "stages": true,
	"acts": true, "panels": true, "shots": true, "slides": true, "chapters": true, "phases": true, "seconds": true, "sec": true, "s": true}

func howMany(tokens []string, i int, sp assetSpan) int {
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		t := tokens[k]
		if v, ok := numberWords[t]; ok && v >= 1 {
			return min(int(v), 8)
		}
		if n, err := strconv.Atoi(t); err == nil && n >= 1 {
			if k > 0 && isNumber(tokens[k-1]) {
				break // "9:16 phone": a frame's ratio, no count
			}
			return min(n, 8)
		}
		if _, verb := actionWords[t]; verb || functionWords[t] && !determiners[t] || assets.MostlyOther(t) && !isColorTok(t) && !colorSkipWords[t] && !determiners[t] || partsOfVideo[t] {
			break // a count stands before the noun's modifiers ("six clay diyas"), not before a verb
		}
	}
	last := tokens[sp.end-1]
	name := sp.match.Name
	if strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss") && !strings.HasSuffix(name, "s") {
		return 3
	}
	return 1
}

// stillScenery takes scenery out of the clauses that also name an actor: in "a balloon
// rises over the mountains" the balloon rises, the mountains stay.
func (b *brief) stillScenery() {
	actor := false
	for _, s := range b.Subjects {
		actor = actor || (!s.Scenery && s.Kind != "particles" && !s.Absorbed)
	}
	if !actor {
		// "A volcano erupts": a place alone is the subject.
		for i := range b.Subjects {
			b.Subjects[i].Scenery = false
		}
		return
	}
	for bi := range b.Beats {
		bt := &b.Beats[bi]
		var actors, kept []int
		for _, si := range bt.Subjects {
			if !b.Subjects[si].Scenery {
				actors = append(actors, si)
			}
		}
		if len(actors) == 0 {
			continue
		}
		kept = append(kept, actors...)
		bt.Subjects = kept
	}
}

// manyColoursRE: copies asked in several colours.
var manyColoursRE = regexp.MustCompile(`(?i)\b(?:colou?rful|multi-?colou?red|rainbow|assorted|different colou?rs|all colou?rs)\b`)

// paintEach paints each copy another bright colour its drawing can take.
func (c *composer) paintEach(group []*scene.Element) {
	cols := []string{"#e53935", "#fdd835", "#1e88e5", "#43a047", "#8e24aa", "#fb8c00", "#ec407a", "#00897b"}
	for k, g := range group {
		a, ok := assets.Default().Get(g.Asset)
		if !ok {
			continue
		}
		col := cols[k%len(cols)]
		if _, ok := a.Tint(col); ok {
			g.Tint = col
		}
	}
}

// stackedRE: copies of a thing piled up rather than side by side.
var stackedRE = regexp.MustCompile(`\b(?:stack(?:ed|s|ing)?|pil(?:e|ed|es|ing)(?: up)?|on top of (?:each other|one another)|tower of)\b`)

// stacked reports whether a clause that names subject si piles its copies up.
func (c *composer) stacked(si int) bool {
	for _, bt := range c.b.Beats {
		if containsInt(bt.Subjects, si) && stackedRE.MatchString(bt.Text) {
			return true
		}
	}
	return false
}

// arrangeAssets lays out what setup drew once: several of a plural subject side by side
// (each a little smaller, at staggered heights), and scenery behind everything else.
func (c *composer) arrangeAssets() {
	n := len(c.subjects)
	hasScenery, actors := false, 0
	for i, e := range c.subjects {
		if c.b.Subjects[c.index[i]].Scenery {
			hasScenery = true
		} else if e.Type != scene.TypeParticles {
			actors++
		}
	}
	if hasScenery {
		// Actors above the place they are in: the balloon over the mountains.
		for i, e := range c.subjects {
			if !c.b.Subjects[c.index[i]].Scenery && e.Type != scene.TypeParticles && !c.bouncy[i] && c.homes[i].Y > -0.1 {
				e.Y = -0.32
				c.homes[i].Y = e.Y
			}
		}
	}
	for i := 0; i < n; i++ {
		e := c.subjects[i]
		s := c.b.Subjects[c.index[i]]
		if e.Type != scene.TypeAsset || s.Many < 2 || s.Scenery {
			continue
		}
		group := []*scene.Element{e}
		for k := 1; k < s.Many; k++ {
			cl := c.clone(i, fmt.Sprintf("%s-%d", e.ID, k+1))
			cl.Seed = e.Seed + 13*k
			group = append(group, cl)
		}
		// Spread around the subject's home: across the frame when it is alone.
		width := 0.36
		if actors == 1 {
			width = 1.1
		}
		m, home, size := len(group), c.homes[i], e.Size
		if c.stacked(c.index[i]) {
			// "three books stacked on top of each other": one column, each resting on
			// the one below, the first at the bottom.
			sz := round3(size * math.Max(0.5, 1-0.1*float64(m)))
			step := c.yUnits(sz * 1.7)
			for k, g := range group {
				g.Size, g.X = sz, home.X
				bottom := math.Max(-0.65+step*float64(m-1), math.Min(0.6, home.Y+step*float64(m-1)/2))
				g.Y = round3(bottom - step*float64(k))
				if k > 0 {
					g.In = group[k-1].ID // resting on it, overlapping on purpose
				}
				c.homes[c.indexOf(g)] = pose{g.X, g.Y}
			}
			continue
		}
		inRow := inRowRE.MatchString(strings.ToLower(c.b.Prompt))
		for k, g := range group {
			g.Size = round3(size * math.Max(0.55, 1-0.08*float64(m)))
			g.X = round3(home.X + width*(float64(k)/float64(m-1)-0.5))
			g.Y = round3(home.Y + 0.1*float64(k%2) - 0.05)
			if inRow {
				g.Y = home.Y // "in a row": one straight line
			}
			c.homes[c.indexOf(g)] = pose{g.X, g.Y}
		}
		if manyColoursRE.MatchString(s.Noun) || manyColoursRE.MatchString(c.b.Prompt) && s.Color == "" {
			// "five colourful balloons": each in its own colour of the palette.
			c.paintEach(group)
		}
	}
	// Scenery is drawn first, behind the actors.
	isBack := map[*scene.Element]bool{}
	for i, e := range c.subjects {
		isBack[e] = c.b.Subjects[c.index[i]].Scenery
	}
	var back, rest []*scene.Element
	for _, e := range c.d.Elements {
		if isBack[e] {
			back = append(back, e)
		} else {
			rest = append(rest, e)
		}
	}
	if len(back) > 0 {
		c.d.Elements = append(back, rest...)
	}
}
