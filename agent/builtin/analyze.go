package builtin

import (
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
)

// subject is one thing the prompt asks to see.
type subject struct {
	Noun    string    // the word used ("ball")
	Kind    string    // element type that draws it
	Variant string    // particle look, for particle subjects
	Color   string    // requested colour (hex) or ""
	Data    *dataSpec // a data element's numbers and words (charts, counters, checklists…)
	Place   *place    // where the prompt puts it ("in the top left corner"), nil when it does not say
	// Shapes are the outlines of a morphing subject, in order; Absorbed marks a subject
	// that is only a later form of a morph and is not drawn on its own.
	Shapes   []string
	Absorbed bool
	// Asset is the library drawing of an asset subject ("fluent:sailboat"); Note says
	// what was substituted when the library has only a relative of the noun.
	Asset string
	Note  string
	// Many is how many of an asset subject to draw ("three balloons"); Scenery marks
	// a place (mountains, a city) drawn large behind the others and never acted on.
	Many    int
	Scenery bool
	// States are the colours a subject turns into, in order, after its own (Color):
	// "turns from green to orange to red" (states.go).
	States []string
	// Forms are the drawings a subject becomes, in order ("a bud opens into a rose"):
	// each cross-fades in where it stands, the one before fading out.
	Forms []string
}

// beat is one clause of the prompt: a distinct visual moment.
type beat struct {
	Text     string
	Subjects []int // indexes into brief.Subjects
	Actions  []string
	Quotes   []int // indexes into brief.Texts
	Across   bool  // "across the screen"
	// Places are the subjects where the action happens ("from a tree", "along a
	// leaf"): they stay put. Travel: a travel verb (drives, walks, swims); Enter: it comes
	// in and stops; Up: the motion goes upwards ("launches", "flies up").
	Places []int
	// Within are the places the actors are in or on ("turns in a lock", "swings on a
	// hook"), by subject: the preposition. The actors are drawn there.
	Within map[int]string
	// From and To are the two ends of a path the clause names ("flies from the left
	// building to the right one"), by subject; -1 when none.
	From, To int
	// Via are the stops between them, in order ("from a pink flower to a yellow one to
	// a blue one": the yellow).
	Via []int
	// Between: an actor set between two things ("a cat between two potted plants").
	Between []between
	// Rels bind each place to the actor its preposition follows ("a cat under a
	// table, … a lamp on the table": the cat under it, the lamp on it).
	Rels []relation
	// Ways are the journeys past a thing a verb of going names, by preposition ("jumps
	// over a fence", "rolls off a table"): Actor goes Prep Place (ways.go).
	Ways []relation
	// With: drawings that come with another, by subject: the one they sit on.
	With   map[int]int
	Travel bool
	Enter  bool
	Up     bool
	// Count is how many times the clause asks for ("twice", "three times"); OneByOne,
	// Alternate and Saying are its orders ("one by one", "alternately", "saying …").
	Count     int
	OneByOne  bool
	Alternate bool
	Saying    bool
}

// between is an actor between the copies of A (B < 0), or between A and B.
type between struct{ Actor, A, B int }

// relation is one actor placed by a preposition at a place, by subject index.
type relation struct {
	Actor, Place int
	Prep         string
}

// brief is everything the builtin agent reads from a prompt; Analysis is its public face.
type brief struct {
	Prompt    string
	Style     koda.Style // explicit, chosen or inferred; "" when none
	Explicit  bool
	Inferred  koda.Style
	Reference string
	Duration  float64 // requested seconds, 0 when not asked
	Aspect    string
	Subjects  []subject
	Actions   []string
	Texts     []string
	// Brand is the name the video is made for, written without quotes: a wordmark in
	// capitals ("the wordmark COPPERFOX"), else a proper name after "for" ("a logo
	// reveal for Copperfox Studio").
	Brand      string
	Colors     []string // every requested colour, hex, in order
	Background string   // requested background colour
	// BrandColors are the brand kit's primary and secondary colours: the first colours
	// of subjects the prompt does not colour.
	BrandColors []string
	// Background2 is a second requested background colour: the gradient's other stop.
	Background2 string
	TextColor   string // requested colour of quoted text
	// ImpliedBackground: Background came from a time of day or a named palette
	// ("at night", "pastel"), not a colour asked for the background: a drawn place
	// (compose_setting.go) may take its place.
	ImpliedBackground bool
	// GroundColor is the colour of the place's ground ("on green hills").
	GroundColor string
	// Accent is the colour the prompt calls an accent or highlight ("accent teal"):
	// a layout's highlights take it before the prompt's first colour.
	Accent string
	// TextColor2 is a second colour of the quoted text ("'Vibes' in pink and orange").
	TextColor2 string
	// Stack: the quotes stack up as lines that stay ("three lines stack up one by one").
	Stack     bool
	Beats     []beat
	Count     int       // "3 times"
	Numbers   []float64 // other numbers (chart values, counter targets)
	Price     string
	Percent   bool
	BigText   bool   // "big red text", "huge title"
	FillColor string // "fills with pink"
	// Purpose: the "for" phrases that say where the video goes or who watches it ("our
	// club's live stream"): read, and not drawn.
	Purpose []string
	// Notes are what the agent tells the person about its reading: a subject drawn as a
	// relative ("no illustration of …"), a noun it has no drawing of.
	Notes []string
	// Ink is the first colour of a colour pair ("black on cream"): text and subjects
	// without a colour of their own.
	Ink string
	// PaletteName is a named look ("pastel", "neon", "golden", "monochrome", "earthy").
	PaletteName string
	TextPlace   map[int]place // where quoted text i goes, when the prompt says
	// States are the colour changes the prompt asks for, before they are bound.
	States []stateChange
}

// labelledTextRE: words to show written after a label and a colon, without quotes
// ("Announcement: we are hiring designers, apply by 30 June"), up to the sentence's
// end: the label says the rest is the text.
var labelledTextRE = regexp.MustCompile(`(?i)(^|[.!?]\s+)((?:an?\s+|the\s+)?(?:announcement|message|notice|headline|caption|text|title|tagline|slogan|reminder|banner|sign)\s*:\s*)([^"“”'‘’«»:.!?]{3,120}[.!?]?)`)

// quoteLabelled puts the words after such a label in quotes, so they are read as the
// words to show, not as subjects ("designers") or data ("30 June").
func quoteLabelled(prompt string) string {
	return labelledTextRE.ReplaceAllStringFunc(prompt, func(m string) string {
		sub := labelledTextRE.FindStringSubmatch(m)
		text := strings.TrimSpace(sub[3])
		if len(strings.Fields(text)) > 16 {
			return m
		}
		return sub[1] + sub[2] + `"` + capitalize(text) + `"`
	})
}

var (
	// shownTextRE: a quote (quoteRE's four groups), a handle, a web address, an
	// exclamation opening the prompt, words written in capitals ("a JUST SOLD ribbon",
	// two words or more: one is often an acronym), or one capitalised word named as
	// words ("the word WIN flashes").
	shownTextRE = regexp.MustCompile(quoteRE.String() +
		`|(?:^|[\s(])(@[A-Za-z0-9_][A-Za-z0-9_.]{1,29}[A-Za-z0-9_])` +
		`|(?:^|[\s(])((?:[a-z0-9-]+\.)+(?:com|io|co|org|net|app|dev|shop|store|ai|tv|me|gg|photo|photography|studio|design|art|blog|site|online|xyz|club|live|news|tech|cafe|coffee|uk|de|fr|ca|au|nz|eu|us)(?:/[\w/-]*[\w/])?)` +
		`|^([A-Z][\w'’ ,]{1,30}!)` +
		`|(?:^|[\s(])((?:[A-Z][A-Z0-9'’&-]*[A-Z0-9]\s+)+[A-Z][A-Z0-9'’&-]*[A-Z0-9]\b!?)` +
		`|\b(?:the words?|text|reads|reading|says|saying)\s+([A-Z][A-Z0-9'’&-]*[A-Z0-9]\b!?)` +
		// A phone number or an email address, shown as written ("0412 555 019").
		`|(?:^|[\s(])((?:\+\d{1,3}[\s.-]?)?\(?\d{2,4}\)?[\s.-]\d{3,4}[\s.-]\d{3,4})\b` +
		`|(?:^|[\s(])([\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+)` +
		// A label written without quotes: "a tank labeled All of Earth's water," (to the
		// clause's end), its words shown, never drawn.
		`|\b(?:label(?:l?ed)|labled|titled|captioned)\s+([A-Z][^,.;:!?"“”()]{0,40}[^,.;:!?"“”()\s])` +
		// A name in capitals after what it names: "my gaming channel NULLSHIFT", "a
		// band called KRAKEN" (one capitalised word alone is too often an acronym).
		`|\b(?:channel|podcast|brand|band|app|company|studio|shop|store|cafe|bakery|team|club|called|named)\s+([A-Z][A-Z0-9'’&-]{2,}[A-Z0-9])\b`)
	quoteRE    = regexp.MustCompile(`“([^”]+)”|"([^"]+)"|‘([^’]+)’|(?:^|[\s(\[:,;])'([^']+?)'(?:$|[\s.,!?;:)\]])`)
	hexColorRE = regexp.MustCompile(`#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b`)
	listMarkRE = regexp.MustCompile(`\(\d{1,2}\)|\b\d{1,2}\)`)
	// wordRE: a word is letters of any script ("azúcar", "café" are one word each, never
	// "az" and "car"), a number, a hex colour or a quote's placeholder.
	wordRE     = regexp.MustCompile(`#[0-9a-f]{3,6}\b|\$?[0-9]+(?:[.,][0-9]+)?%?|\p{Ll}[\p{Ll}\p{Lo}\p{Mn}'’-]*|«q[0-9]+»`)
	durationRE = regexp.MustCompile(`\b(?:([0-9]+(?:\.[0-9]+)?)[\s-]*|([a-z]+(?:-[a-z]+)?)[\s-]+)(seconds?|secs?|s|minutes?|mins?)\b`)
	countRE    = regexp.MustCompile(`\b([0-9]+|one|two|three|four|five|six|seven|eight|nine|ten|once|twice)\s*(times|x\b)?`)
	clauseRE   = regexp.MustCompile(`\b(?:and then|then|after that|afterwards|finally|next|followed by|before|later)\b|[.;!?]+|,\s*(?:and\s+)?|\(\d{1,2}\)|\b\d{1,2}\)`)
	priceRE    = regexp.MustCompile(`[$€£][0-9]+(?:[.,][0-9]{2})?`)
	referRE    = regexp.MustCompile(`\b(?:like|in the style of|inspired by|similar to|reminiscent of|a la|à la|styled after)\s+(?:the\s+|an?\s+)?([a-z0-9][a-z0-9&.-]*(?:'s|’s)?)(?:\s+(site|website|web site|animations?|style|ads?|commercials?|intros?|trailers?|movies?|films?|apps?|landing page|homepage|brand|videos?))?`)
	daySkyRE   = regexp.MustCompile(`\b(?:sunny|daytime|sunshine|clear sky|blue sky|summer sky|daylight)\b`)
	bigTextRE  = regexp.MustCompile(`\b(?:big|huge|large|giant|massive|bold|oversized)\b(?:\s+[a-z]+){0,2}\s+(?:text|title|headline|letters|words|type|«q)`)
	easeWordRE = regexp.MustCompile(`ease(?:in|out|inout)[a-z]+|ease-in-out|cubic-bezier|bezier|elastic|spring|overshoot|squash|parallax|dolly|linear`)
)

var aspectWords = map[string]string{
	"vertical": "portrait", "portrait": "portrait", "9:16": "portrait", "tiktok": "portrait", "reels": "portrait",
	"reel": "portrait", "stories": "portrait", "story": "portrait", "shorts": "portrait",
	"square": "square", "1:1": "square",
	"landscape": "landscape", "widescreen": "landscape", "16:9": "landscape", "horizontal": "landscape",
}

// squareAloneRE: "square" set off by commas or brackets, or a sentence of its own
// ("… off the frame. Square, about 7 seconds."), qualifies the video ("quote card,
// square, for Instagram"), not a shape; so does "square for insta".
var squareAloneRE = regexp.MustCompile(`(?:^|[,(;:—–]\s*|[.!?]\s+)(?:in\s+|as\s+a\s+)?square\s*(?:[,);:—–.]|$)|\bsquare\s+for\s+(?:the\s+)?(?:instagram|insta|ig|feed|linkedin|facebook)\b`)

// storyFormatRE: "story" names the vertical format only beside a platform or a format
// word ("an Instagram story", "a 9:16 story", "story format", "a story for TikTok").
var storyFormatRE = regexp.MustCompile(`\b(?:instagram|ig|insta|facebook|fb|snapchat|whatsapp|tiktok|vertical|9:16|phone)\s+stor(?:y|ies)\b|\bstor(?:y|ies)\s+(?:format|post|ad|slide|size|frame|video)s?\b|\bstor(?:y|ies)\s+(?:for|on)\s+(?:instagram|ig|insta|facebook|snapchat|whatsapp|tiktok|our (?:feed|channel|account|page))\b|^(?:an?\s+)?stor(?:y|ies)\b`)

// "square" is an aspect only when it qualifies the video, not a shape.
var squareAspectNext = map[string]bool{"video": true, "format": true, "frame": true, "aspect": true, "ratio": true, "post": true, "clip": true, "instagram": true,
	"1": true} // "square 1:1"

// aspectContext: aspect words that name the format only in some company, one row each
// (the rest of aspectWords always do).
var aspectContext = map[string]func(tokens []string, i int, low string) bool{
	// "Square 1:1 clip", "a square video", "make something square" — not "a square spins".
	"square": func(tokens []string, i int, _ string) bool {
		return i == 0 || i+1 < len(tokens) && squareAspectNext[tokens[i+1]] || i > 0 && squareAspectPrev[tokens[i-1]]
	},
	// "An Instagram story" — not "our story so far", a history.
	"story":   func(_ []string, _ int, low string) bool { return storyFormatRE.MatchString(low) },
	"stories": func(_ []string, _ int, low string) bool { return storyFormatRE.MatchString(low) },
}

// squareAspectPrev: words before "square" that make it the video's shape ("make it
// square", "something square").
var squareAspectPrev = map[string]bool{"something": true, "it": true, "everything": true, "this": true, "all": true}

// togetherRE: lines the prompt shows together, one under another, rather than one after
// another: two quotes joined by "and" or a comma ("'AQI 162' and 'Fresno · 7 AM'"), or
// lines set "underneath", "below" or "beneath" something.
// (Quotes stand as «qN» placeholders in the text this reads.)
var togetherRE = regexp.MustCompile(`«q\d+»\s*(?:,|and|&|\+|, and)\s*«q|\b(?:underneath|beneath|below (?:it|that|them|this)|under (?:it|that|them|this))\s*[:,]?\s*«q`)

var ambiguousNouns = map[string]bool{"line": true, "number": true, "progress": true, "space": true, "item": true,
	"name": true, "sound": true, "score": true, "beat": true, "app": true, "icon": true}

// chartEvidenceRE: a prompt with figures or a word for data; a chart word without it
// names something else ("the bar" of a cage).
var chartEvidenceRE = regexp.MustCompile(`\d|\b(?:charts?|graphs?|data|statistics|stats|poll|survey|sales|revenue|results|percent|growth|metrics|pie|plot|trend|kpis?|numbers|figures)\b`)

// styleNouns follow the words that say how a video looks ("science class style",
// "retro arcade look").
var styleNouns = map[string]bool{"style": true, "styled": true, "look": true, "theme": true, "themed": true, "aesthetic": true, "vibe": true, "vibes": true}

// greetingWords make a card the video's occasion ("holiday card", "birthday card").
var greetingWords = map[string]bool{"holiday": true, "holidays": true, "greeting": true, "greetings": true, "birthday": true,
	"christmas": true, "xmas": true, "valentine": true, "valentine's": true, "wedding": true, "thank-you": true, "anniversary": true,
	"invitation": true, "festive": true, "season's": true}

// sizeWords between an article and an ambiguous noun still introduce it ("a big number").
var sizeWords = map[string]bool{"big": true, "huge": true, "large": true, "giant": true, "bold": true, "small": true, "single": true}

// lineShapes introduce a line as a thing to draw ("a pencil draws a wavy line").
var lineShapes = map[string]bool{"wavy": true, "curvy": true, "squiggly": true, "zigzag": true, "straight": true,
	"dotted": true, "dashed": true, "thin": true, "thick": true, "long": true, "curved": true}

// singular kinds are drawn once however many words name them ("a chart of revenue growth").
var singular = map[string]bool{"chart": true, "counter": true, "logo": true, "card": true,
	"countdown": true, "checklist": true, "clock": true, "progress": true}

var backgroundWords = map[string]bool{"background": true, "backdrop": true, "bg": true, "sky": true, "scene": true}

var technicalWords = map[string]bool{
	"squash": true, "stretch": true, "overshoot": true, "keyframe": true, "keyframes": true, "fps": true,
	"loop": true, "loops": true, "stagger": true, "staggered": true, "easing": true, "ease": true, "parallax": true,
	"timing": true, "frames": true, "seamless": true,
}

// analyze reads a prompt. It never fails: an odd prompt still yields a brief with defaults.
func analyze(prompt string) *brief {
	b := &brief{Prompt: prompt}
	prompt = quoteLabelled(prompt)
	data := readAllData(prompt)
	prompt = unquoteData(prompt, data)

	// Quoted text first, replaced by placeholders so its words are never read as subjects
	// or colours ("Red Alert" is a title, not a colour).
	// So are the words a user writes to be shown without quoting them: a handle, a web
	// address, an opening exclamation ("We're hiring!").
	// Capitals after "wordmark" or "name" are the brand's name (readBrand), not a line.
	named := map[string]bool{}
	for _, m := range wordmarkRE.FindAllStringSubmatch(prompt, -1) {
		named[m[1]] = true
	}
	work := shownTextRE.ReplaceAllStringFunc(prompt, func(m string) string {
		sub := shownTextRE.FindStringSubmatch(m)
		if sub[8] != "" && named[sub[8]] {
			return m
		}
		text := ""
		for _, s := range sub[1:] {
			if s != "" {
				text = s
				break
			}
		}
		text = strings.TrimSpace(text)
		if text == "" || sub[7] != "" && !exclamation(text) {
			return m
		}
		lead, trail := "", ""
		if strings.HasPrefix(m, " ") || strings.HasPrefix(m, "(") || strings.HasPrefix(m, ":") || strings.HasPrefix(m, ",") {
			lead = m[:1]
		}
		if last := m[len(m)-1]; strings.ContainsRune(" .,!?;:)]", rune(last)) && !strings.HasSuffix(m, "'"+string(last)) {
			trail = string(last)
		} else if strings.ContainsRune(".,!?;:)]", rune(last)) {
			trail = string(last)
		}
		b.Texts = append(b.Texts, text)
		return lead + " «q" + strconv.Itoa(len(b.Texts)-1) + "» " + trail
	})
	low := recolorTurns(b.readStates(verbPhrases.Replace(strings.ToLower(work))))

	b.Brand = readBrand(work)
	b.Duration = parseDuration(low)
	b.Count = parseCount(low)
	if m := priceRE.FindString(work); m != "" {
		b.Price = m
	}
	b.Percent = strings.Contains(low, "%") || strings.Contains(low, "percent")
	b.BigText = bigTextRE.MatchString(low)
	if b.Background == "" && daySkyRE.MatchString(low) {
		// "a sunny sky": daylight, whatever the style's usual backdrop.
		b.Background, b.Background2 = "#7cc4fa", "#e3f2fd"
	}

	// "square" set off by commas is the format, and the words of the name the video is
	// for ("Harbor Coffee Co.") are a name: no shape or drawing to draw. Each becomes a
	// word that is no subject ("x"), so token positions stay those of low.
	masked := squareAloneRE.ReplaceAllStringFunc(low, func(m string) string {
		b.Aspect = "square"
		return strings.Replace(m, "square", "x", 1)
	})
	if b.Brand != "" {
		brand := strings.ToLower(b.Brand)
		end := `\b` // whole words, never inside another ("Ann" in "announcement")
		if strings.HasSuffix(brand, ".") {
			end = "" // "Co."
		}
		masked = regexp.MustCompile(`\b`+regexp.QuoteMeta(brand)+end).ReplaceAllLiteralString(masked, wordRE.ReplaceAllString(brand, "x"))
	}
	// A list's marks ("(1) a dog sits…", "3) water drains") count nothing in it.
	masked = listMarkRE.ReplaceAllStringFunc(masked, func(m string) string { return wordRE.ReplaceAllString(m, "x") })
	// Where the video is shown or who watches it ("for our club's live stream") is not
	// in the picture.
	masked, b.Purpose = maskPurpose(masked)
	tokens := wordRE.FindAllString(masked, -1)
	// Which sentence each token is in: a colour never reaches across a full stop ("…
	// lights up gold. White background": the gold is not the background's).
	sentence := make([]int, len(tokens))
	locs := wordRE.FindAllStringIndex(masked, -1)
	for i := 1; i < len(locs); i++ {
		sentence[i] = sentence[i-1]
		if strings.ContainsAny(masked[locs[i-1][1]:locs[i][0]], ".!?;") {
			sentence[i]++
		}
	}
	b.readSubjectsAndColors(tokens, sentence, low)
	b.bindStates()
	b.spiralParticles()
	b.productOnCard(tokens)
	b.dotsInBubble(low)
	b.partsOfOthers()
	b.attachData(data)
	b.readStyle(low, tokens)
	b.readBeats(low)
	b.wornBy()
	b.containersDrawn()
	b.Stack = len(b.Texts) >= 2 && (stackRE.MatchString(low) || togetherRE.MatchString(low))
	b.readMorph()
	b.blobShapes()
	b.nameTheLogo()
	b.stillScenery()
	b.readSceneWords(low)
	b.readPositions()

	for i, tok := range tokens {
		if a, ok := aspectWords[tok]; ok && b.Aspect == "" {
			if needs := aspectContext[tok]; needs == nil || needs(tokens, i, low) {
				b.Aspect = a
			}
		}
		if strings.HasPrefix(tok, "$") || isNumber(tok) {
			v, err := strconv.ParseFloat(strings.NewReplacer("$", "", "%", "", ",", "").Replace(tok), 64)
			if err == nil && v != b.Duration && v != float64(b.Count) {
				b.Numbers = append(b.Numbers, v)
			}
		}
	}
	// A ratio or a pixel size is the frame's shape as the user measured it; it beats a
	// word that may name something else ("five vertical swatches …, 16:9").
	if a := ratioAspect(low); a != "" {
		b.Aspect = a
	} else if a := pixelAspect(low); a != "" {
		b.Aspect = a // "1080x1080", "1080 × 1920": the frame's size says its shape
	}
	return b
}

// ratioAspect is the shape the first aspect ratio of the prompt (ratioRE) names, or "".
func ratioAspect(low string) string {
	w, h, ok := strings.Cut(ratioRE.FindString(low), ":")
	if !ok {
		return ""
	}
	x, _ := strconv.ParseFloat(w, 64)
	y, _ := strconv.ParseFloat(h, 64)
	switch {
	case x > y:
		return "landscape"
	case x < y:
		return "portrait"
	}
	return "square"
}

// purposeRE: a phrase "for …" up to where it ends (a mark, or a word that starts
// something else); group 2 is its last word, the head that says what it is.
var purposeRE = regexp.MustCompile(`\bfor\s+((?:[^\s,.;:!?()«»]+\s+){0,5}?([a-z]+))(?:\s*(?:[,.;:!?()—–]|$)|\s+(?:with|and|where|while|that|which|to|in|on|at|from|by)\b)`)

// purposeHeads are media and audiences, singular: a "for" phrase ending in one says
// where the video goes or who it is for ("a scoreboard for our club's live stream",
// "a poster for the neighbourhood WhatsApp group", "release notes for our update
// email"), never a thing to draw. A thing the video is for stays ("a bowl for the dog").
var purposeHeads = map[string]bool{
	"stream": true, "livestream": true, "broadcast": true, "channel": true, "video": true, "vlog": true, "podcast": true,
	"show": true, "email": true, "e-mail": true, "newsletter": true, "presentation": true, "deck": true, "slide": true,
	"slideshow": true, "webinar": true, "class": true, "lesson": true, "course": true, "school": true, "group": true,
	"community": true, "audience": true, "follower": true, "subscriber": true, "viewer": true, "customer": true,
	"client": true, "student": true, "feed": true, "page": true, "account": true, "website": true, "site": true,
	"story": true, "reel": true, "post": true, "social": true, "instagram": true, "tiktok": true,
	"youtube": true, "linkedin": true, "twitter": true, "facebook": true, "whatsapp": true, "profile": true, "blog": true,
	"campaign": true, "screen": true, "display": true, "meeting": true, "pitch": true, "report": true, "intro": true,
	"outro": true, "server": true, "discord": true, "twitch": true, "team": true, "staff": true, "office": true,
}

// maskPurpose turns each word of the "for" phrases that say where the video goes or
// who watches it into "x" (token positions stay), and returns those phrases: no
// subject is drawn from them and no layout is chosen by them ("a LOST CAT poster for
// our WhatsApp group" is no chat).
func maskPurpose(low string) (string, []string) {
	var found []string
	out := purposeRE.ReplaceAllStringFunc(low, func(m string) string {
		sub := purposeRE.FindStringSubmatch(m)
		if !purposeHead(sub[2]) {
			return m
		}
		found = append(found, strings.TrimSpace(sub[1]))
		return strings.Replace(m, sub[1], wordRE.ReplaceAllString(sub[1], "x"), 1)
	})
	return out, found
}

// purposeHead: w, singular or plural, is one of purposeHeads.
func purposeHead(w string) bool {
	if y, ok := strings.CutSuffix(w, "ies"); ok && purposeHeads[y+"y"] {
		return true
	}
	return purposeHeads[w] || purposeHeads[strings.TrimSuffix(w, "s")]
}

// pixelSizeRE: a frame's size in pixels, width by height.
var pixelSizeRE = regexp.MustCompile(`\b(\d{3,4})\s*(?:x|×|by)\s*(\d{3,4})(?:\s*px)?\b`)

// pixelAspect is the shape a frame size in pixels names: square, portrait or
// landscape, or "" when the prompt gives none.
func pixelAspect(low string) string {
	m := pixelSizeRE.FindStringSubmatch(low)
	if m == nil {
		return ""
	}
	w, _ := strconv.ParseFloat(m[1], 64)
	h, _ := strconv.ParseFloat(m[2], 64)
	switch r := w / h; {
	case r > 0.9 && r < 1.1:
		return "square"
	case r < 0.9:
		return "portrait"
	}
	return "landscape"
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSuffix(strings.ReplaceAll(s, ",", ""), "%"), 64)
	return err == nil
}

// ordinalNextRE: a noun right after "a second" makes it an ordinal ("a second pin").
var ordinalNextRE = regexp.MustCompile(`^\s+[a-z]{3,}`)

// timedThingRE: what follows a length of time that belongs to a thing in the video
// ("a 5-second timer bar", "a 30 second rest").
var timedThingRE = regexp.MustCompile(`^[\s-]*(?:\w+\s+)?(?:timer|countdown|clock|stopwatch|break|pause|delay|rest|interval|wait)\b`)

// perItemRE: what follows a length of time that is each item's, not the video's
// ("about 3 seconds per line", "2 s each", "5 seconds for every slide").
var perItemRE = regexp.MustCompile(`^\s*(?:per|each|apiece|for\s+(?:each|every)|every)\b`)

func parseDuration(low string) float64 {
	for _, loc := range durationRE.FindAllStringSubmatchIndex(low, -1) {
		m := make([]string, 4)
		for k := 1; k < 4; k++ {
			if loc[2*k] >= 0 {
				m[k] = low[loc[2*k]:loc[2*k+1]]
			}
		}
		unit := m[3]
		v, err := strconv.ParseFloat(m[1], 64)
		if m[1] == "" {
			w, ok := numberWords[m[2]]
			if !ok || unit == "s" {
				continue
			}
			// "a two-minute video": a hyphen joins a length, never an ordinal or "tiny".
			hyphened := strings.Contains(low[loc[5]:loc[6]], "-")
			if (unit == "second" || unit == "minute") && !hyphened && ordinalNextRE.MatchString(low[loc[1]:]) {
				continue // "a second pin lands": the ordinal, not a length of time
			}
			v, err = w, nil
		}
		if err != nil {
			continue
		}
		if !saysLength(low[:loc[0]]) {
			continue // "boil noodles 4 min": how long a step of the story takes
		}
		if timedThingRE.MatchString(low[loc[1]:]) {
			continue // "a 5-second timer": a thing shown, not the video's length
		}
		if perItemRE.MatchString(low[loc[1]:]) {
			continue // "3 seconds per line": each line's share, the whole said elsewhere or summed
		}
		if strings.HasPrefix(unit, "m") {
			v *= 60
		}
		if v <= 0 {
			continue
		}
		return math.Min(math.Max(v, koda.MinDurationS), koda.MaxDurationS)
	}
	return 0
}

var (
	wordmarkRE = regexp.MustCompile(`\b(?:wordmark|logotype|brand name|company name|name)\s+([A-Z][A-Z0-9&]{2,}(?:\s+[A-Z][A-Z0-9&]+)?)\b`)
	brandForRE = regexp.MustCompile(`\b(?:for|from|by|called|named)\s+((?:[A-Z][\w&'’-]*)(?:\s+(?:&\s+)?(?:(?:Co|Inc|Ltd|Corp|Bros)\.|[A-Z][\w&'’-]*)){0,3})`)
)

// notBrands are capitalised words after "for" that name a platform, a day or a month,
// not whom the video is for.
var notBrands = regexp.MustCompile(`^(?i:instagram|tiktok|youtube|reels?|twitter|x|facebook|linkedin|stories|shorts|` + weekdayW + `|` + monthW + `|christmas|diwali|easter|halloween|eid|hanukkah|new year)\b`)

// readBrand finds the name a video is for (Brand) in a prompt whose quotes are
// placeholders.
func readBrand(work string) string {
	if m := wordmarkRE.FindStringSubmatch(work); m != nil {
		return m[1]
	}
	for _, m := range brandForRE.FindAllStringSubmatch(work, -1) {
		if !notBrands.MatchString(m[1]) {
			return m[1]
		}
	}
	return ""
}

// exclamation: an opening "We're hiring!" or "Happy birthday, Sam!" is words to show;
// "A ball bounces!" (an article) describes the scene.
func exclamation(s string) bool {
	ws := strings.Fields(strings.ToLower(s))
	if len(ws) > 4 {
		return false
	}
	for _, w := range ws {
		if w == "a" || w == "an" || w == "the" {
			return false
		}
	}
	return true
}

// lengthLeads are the words a video's own length follows ("lasting 8 seconds", "a 30
// second scene", "for 10 seconds"); after any other word a length of time belongs to the
// content ("boil noodles 4 min", "simmer 10 minutes").
var lengthLeads = map[string]bool{
	"a": true, "an": true, "the": true, "for": true, "about": true, "around": true, "roughly": true, "approximately": true,
	"lasting": true, "is": true, "be": true, "it": true, "of": true, "under": true, "max": true, "maximum": true,
	"exactly": true, "just": true, "only": true, "short": true, "quick": true, "long": true, "calm": true, "whole": true,
	"total": true, "than": true, "most": true, "least": true, "over": true,
	// spoken hedges: "like 4 seconds", "say 6 seconds", "maybe 10 seconds"
	"like": true, "say": true, "maybe": true, "approx": true, "tops": true,
}

// saysLength: the text before a length of time leaves it the video's length: the
// prompt's start, a punctuation mark or a word in lengthLeads.
func saysLength(before string) bool {
	before = strings.TrimRight(before, " ")
	if before == "" || strings.ContainsAny(before[len(before)-1:], ",.:;(—–-!?~") {
		return true
	}
	words := strings.Fields(before)
	return lengthLeads[words[len(words)-1]]
}

func parseCount(low string) int {
	for _, m := range countRE.FindAllStringSubmatch(low, -1) {
		if m[1] == "once" {
			return 1
		}
		if m[1] == "twice" {
			return 2
		}
		if m[2] == "" {
			continue
		}
		if v, err := strconv.Atoi(m[1]); err == nil {
			return v
		}
		if v, ok := numberWords[m[1]]; ok {
			return int(v)
		}
	}
	return 0
}

func colorOf(tok string) (string, bool) {
	if hexColorRE.MatchString(tok) {
		return normalizeHex(tok), true
	}
	c, ok := namedColors[tok]
	return c, ok
}

func normalizeHex(h string) string {
	h = strings.ToLower(h)
	if len(h) == 4 {
		return "#" + string([]byte{h[1], h[1], h[2], h[2], h[3], h[3]})
	}
	return h
}

// typingDotsRE: dots that say someone is typing, which a chat bubble draws inside itself.
var typingDotsRE = regexp.MustCompile(`\btyping\s+dots?\b|\bdots?\s+(?:of\s+)?typing\b`)

// dotsInBubble: "a chat bubble shows three typing dots" is one bubble with its dots
// inside (the chat drawing has them), not a bubble beside a separate dot.
func (b *brief) dotsInBubble(low string) {
	if !typingDotsRE.MatchString(low) {
		return
	}
	chat := false
	for _, s := range b.Subjects {
		chat = chat || s.Kind == scene.TypeIcon && s.Variant == "chat"
	}
	if !chat {
		return
	}
	for i, s := range b.Subjects {
		if s.Kind == scene.TypeCircle && (s.Noun == "dots" || s.Noun == "dot") {
			b.Subjects[i].Absorbed = true
		}
	}
}

// partsOfOthers leaves undrawn a part of a living thing the prompt draws ("a fox dives
// in so only its back legs and tail stick out", "a giraffe bends its neck"): the part
// is the fox's or the giraffe's, not a drawing of legs or a neck beside it. A part with
// no owner in the prompt ("a hand waves") is drawn.
func (b *brief) partsOfOthers() {
	lib := assets.Default()
	living := map[string]bool{}
	for _, s := range b.Subjects {
		if a, ok := lib.Get(s.Asset); ok && s.Kind == scene.TypeAsset && !s.Absorbed && assets.PartOf(s.Noun) == nil {
			living[a.Living()] = true
		}
	}
	for i, s := range b.Subjects {
		if s.Kind != scene.TypeAsset || s.Absorbed {
			continue
		}
		for _, c := range assets.PartOf(s.Noun) {
			if living[c] {
				b.Subjects[i].Absorbed = true
			}
		}
	}
}

// wornBy: clothes a drawn person or animal is "in" or "wearing" ("a runner in a yellow
// vest", "a dog wearing a red coat") are theirs to wear, not a drawing beside them or
// around them: the wearer takes the clothes' colour. A garment alone is drawn.
func (b *brief) wornBy() {
	lib := assets.Default()
	livingSubject := func(si int) bool {
		a, ok := lib.Get(b.Subjects[si].Asset)
		return ok && a.Living() != "" && a.Living() != "plant"
	}
	for k := range b.Beats {
		bt := &b.Beats[k]
		bt.Rels = slices.DeleteFunc(bt.Rels, func(r relation) bool {
			g, ok := lib.Get(b.Subjects[r.Place].Asset)
			if r.Prep != "in" || !ok || !g.Clothing() || !livingSubject(r.Actor) {
				return false
			}
			b.Subjects[r.Place].Absorbed = true
			if c := b.Subjects[r.Place].Color; c != "" && b.Subjects[r.Actor].Color == "" {
				b.Subjects[r.Actor].Color = c
			}
			bt.Places = slices.DeleteFunc(bt.Places, func(p int) bool { return p == r.Place })
			delete(bt.Within, r.Place)
			return true
		})
	}
}

// cardDevices are what a card about software shows: the device it runs on.
var cardDevices = map[string]string{"app": "mobile phone", "apps": "mobile phone", "phone": "mobile phone",
	"smartphone": "mobile phone", "mobile": "mobile phone"}

// productOnCard puts the product a prompt names on its product card: "a product reveal
// for our new running shoe" is one card showing the shoe, and "Headphones product
// teaser" one showing headphones, not a generic card beside (or without) the thing.
func (b *brief) productOnCard(tokens []string) {
	card := -1
	for i, s := range b.Subjects {
		if s.Kind == scene.TypeCard && s.Asset == "" {
			card = i
			break
		}
	}
	if card < 0 {
		return
	}
	for i, s := range b.Subjects {
		if s.Kind == scene.TypeAsset && !s.Scenery && s.Many <= 1 {
			b.Subjects[card].Asset, b.Subjects[card].Note = s.Asset, s.Note
			if b.Subjects[card].Color == "" {
				b.Subjects[card].Color = s.Color
			}
			b.Subjects = append(b.Subjects[:i], b.Subjects[i+1:]...)
			return
		}
	}
	// "the app card slides in", "the app launches": an app is shown by a phone, not
	// by an empty badge.
	for i, tok := range tokens {
		if d, ok := cardDevices[tok]; ok && (tok == b.Subjects[card].Noun || i+1 < len(tokens) && tokens[i+1] == b.Subjects[card].Noun) {
			if m, ok := assets.Find(d); ok && !m.Substituted {
				b.Subjects[card].Asset = m.ID
				return
			}
		}
	}
	// "Headphones product teaser": the word before the card's noun names the product.
	for i := 1; i < len(tokens); i++ {
		if tokens[i] != b.Subjects[card].Noun || notSubjects[tokens[i-1]] {
			continue
		}
		if m, ok := assets.Find(tokens[i-1]); ok && !m.Substituted && m.Score >= 95 {
			b.Subjects[card].Asset = m.ID
			return
		}
	}
}

// readSubjectsAndColors finds the nouns the prompt is about and attaches each colour word
// to the noun it describes: the next noun ("red ball"), else the previous one ("the ball
// is red"), else the first subject still without a colour.
func (b *brief) readSubjectsAndColors(tokens []string, sentence []int, low string) {
	subjectAt := map[int]int{} // token index → subject index
	spans, notes := assetSpans(tokens, low)
	b.Notes = append(b.Notes, notes...)
	inSpan := map[int]bool{}
	for i, tok := range tokens {
		if sp, ok := spans[i]; ok {
			noun := strings.Join(tokens[i:sp.end], " ")
			idx := -1
			for j, s := range b.Subjects {
				if s.Kind == "asset" && s.Asset == sp.match.ID && !otherColour(tokens[i], s.Noun) {
					idx = j
				}
			}
			if idx < 0 {
				b.Subjects = append(b.Subjects, subject{Noun: noun, Kind: "asset", Asset: sp.match.ID, Note: sp.match.Message,
					Many: howMany(tokens, i, sp), Scenery: scenery[sp.match.Category] || scenery[sp.match.ID]})
				idx = len(b.Subjects) - 1
				// A fish bowl or aquarium is drawn from shapes (the habitat program), not
				// as the relative the library offers.
				if sp.match.Message != "" && !habitatNounRE.MatchString(noun) {
					b.Notes = append(b.Notes, sp.match.Message)
				}
			}
			for k := i; k < sp.end; k++ {
				subjectAt[k], inSpan[k] = idx, true
			}
		}
		if inSpan[i] {
			continue
		}
		kind, ok := subjectKinds[tok]
		if !ok {
			continue
		}
		if spanEnds(spans, i) && strings.HasSuffix(tok, "s") && (kind == "wave" || kind == "ring") {
			continue // a verb after its subject: "a snowman waves"
		}
		if kind == "text" {
			continue // text nouns describe quotes or titles, handled with Texts
		}
		if kind == "card" && i > 0 && greetingWords[tokens[i-1]] {
			continue // "a holiday card" is what the video is, not a product card in it
		}
		if kind == "counter" && placeObject(tokens, i) {
			continue // "on a kitchen counter", "behind the counter": a surface, no number counting
		}
		if kind == "chart" && !chartEvidenceRE.MatchString(low) {
			continue // "the bottle hanging on the bar": no figures, no word for data, no chart
		}
		if styleWordsAt(tokens, i) {
			continue // "science class style": how it looks, not a thing in it
		}
		if i+1 < len(tokens) {
			if _, next := subjectKinds[tokens[i+1]]; next || (tok == "square" && squareAspectNext[tokens[i+1]]) {
				continue // an adjective in a compound: "bar chart", "square logo"
			}
		}
		if ambiguousNouns[tok] && (i == 0 || !(tokens[i-1] == "a" || tokens[i-1] == "the" || isColorTok(tokens[i-1]) || lineShapes[tokens[i-1]] ||
			sizeWords[tokens[i-1]] && i >= 2 && (tokens[i-2] == "a" || tokens[i-2] == "the"))) {
			continue // common words that are only subjects when introduced as one ("a line")
		}
		idx := -1
		for j, s := range b.Subjects {
			if s.Kind == kind && (s.Noun == tok || strings.TrimSuffix(s.Noun, "s") == strings.TrimSuffix(tok, "s") || singular[kind]) {
				idx = j
			}
		}
		if idx < 0 {
			s := subject{Noun: tok, Kind: kind}
			switch kind {
			case "particles":
				s.Variant = particleVariants[tok]
			case "icon":
				s.Variant = iconVariants[tok]
			}
			b.Subjects = append(b.Subjects, s)
			idx = len(b.Subjects) - 1
		}
		subjectAt[i] = idx
	}
	exact := preciseColors(tokens, sentence)
	for i := range tokens {
		if sp, ok := spans[i]; ok && sp.end == i+1 {
			continue // "an orange": the fruit, not a colour
		}
		c, ok := colorAt(tokens, i)
		if !ok {
			continue
		}
		if h, ok := exact[i]; ok {
			if h == "" {
				continue // the code of the colour named just before: said once already
			}
			c = h
		}
		if accentAt(tokens, i) && b.Accent == "" {
			b.Accent = c // "accent teal": the layout's highlight, wherever it is placed
		}
		b.Colors = appendUnique(b.Colors, c)
		attached := false
		if i >= 2 && (tokens[i-1] == "with" || tokens[i-1] == "in") && fillVerbs[tokens[i-2]] && b.FillColor == "" {
			b.FillColor, attached = c, true // "fills with pink": the liquid, not the shape
		}
		if i+1 < len(tokens) && placeNoun(tokens[i+1]) && !placeNoun(tokens[i]) && b.GroundColor == "" {
			// "on green hills", "white sand": the colour of the place drawn behind.
			b.GroundColor, attached = c, true
		}
		if !attached && i > 1 && tokens[i-1] == "in" && !backgroundWords[tokens[i-2]] && subjectKinds[tokens[i-2]] != "text" &&
			!strings.HasPrefix(tokens[i-2], "«q") && !functionWords[tokens[i-2]] && assets.KnownNoun(tokens[i-2]) && !assets.MostlyOther(tokens[i-2]) &&
			!strings.HasSuffix(tokens[i-2], "ing") && !strings.HasSuffix(tokens[i-2], "ed") {
			if _, subj := subjectAt[i-2]; !subj {
				// "cards in white": the colour of a thing the layout draws, never the
				// background's, whatever colour word came before.
				attached = true
			}
		}
		if !attached && i > 0 && (tokens[i-1] == "on" || tokens[i-1] == "against") && (i+1 >= len(tokens) || !backgroundWords[tokens[i+1]]) &&
			!(i > 1 && lightVerbs[tokens[i-2]]) {
			// "gold text on black": a colour something sits on is the background.
			if _, subj := subjectAt[i+1]; !subj {
				b.setBackground(c)
				attached = true
			}
		}
		for j := i + 1; j < len(tokens) && j <= i+3 && !attached && sentence[j] == sentence[i]; j++ {
			t := tokens[j]
			switch {
			case backgroundWords[t]:
				b.setBackground(c)
				attached = true
			case strings.HasPrefix(t, "«q") || subjectKinds[t] == "text":
				b.setTextColor(c)
				attached = true
			default:
				if si, ok := subjectAt[j]; ok {
					if b.Subjects[si].Color == "" {
						b.Subjects[si].Color = c
					}
					attached = true
				} else if j == i+1 && subjectWord(t) && !isColorTok(t) && !colorSkipWords[t] && i > 0 && determiners[tokens[i-1]] && !nounFollows(tokens, subjectAt, j+1) {
					// "a red frisbee" the library cannot draw: the red is the frisbee's,
					// never the dog's beside it.
					attached = true
				}
			}
			if !attached && !isColorTok(t) && !colorSkipWords[t] {
				break
			}
		}
		for j := i - 1; j >= 0 && j >= i-4 && !attached && sentence[j] == sentence[i]; j-- {
			t := tokens[j]
			switch {
			case backgroundWords[t]:
				b.setBackground(c)
				attached = true
			case strings.HasPrefix(t, "«q") || subjectKinds[t] == "text":
				attached = b.setTextColor(c)
			default:
				// "dots in orange and teal": the second colour goes to the next subject
				// still without one rather than overwriting the first.
				if si, ok := subjectAt[j]; ok && b.Subjects[si].Color == "" {
					b.Subjects[si].Color = c
					attached = true
				}
			}
		}
		if !attached {
			for si := range b.Subjects {
				if b.Subjects[si].Color == "" && b.Subjects[si].Kind != "particles" {
					b.Subjects[si].Color, attached = c, true
					break
				}
			}
		}
	}
}

// otherColour: a drawing named again in another colour is another of it ("from a pink
// flower to a yellow one"): the word opening the new name is a colour, and the earlier
// name opens with a different one.
func otherColour(first, earlier string) bool {
	c, ok := colorOf(first)
	if !ok {
		return false
	}
	prev, ok := colorOf(strings.Fields(earlier)[0])
	return ok && prev != c
}

func isColorTok(t string) bool { _, ok := colorOf(t); return ok }

// surfacePreps point at where something is or is seen from: a counter after one is a
// surface of the place. One list for the word reading (placeObject) and the data
// reading (surfaceCounterRE).
var surfacePreps = func() map[string]bool {
	m := maps.Clone(placePreps)
	for _, w := range []string{"on", "at", "in", "from", "by"} {
		m[w] = true
	}
	return m
}()

// placeObject: the noun at i is what a place preposition points at ("on a kitchen
// counter", "behind the counter", "seen from the counter"), with at most two words between (a determiner, a
// modifier): the thing where something is, not a widget of the video.
func placeObject(tokens []string, i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		t := tokens[j]
		if surfacePreps[t] {
			return true
		}
		if isNumber(t) || strings.HasPrefix(t, "«q") {
			return false
		}
	}
	return false
}

// preciseColors pairs a colour's name with the code written right after it ("navy
// background #0B1F3A", "orange #FF6B00"): one colour, whose value is the code. The name's
// token maps to the code, the code's token to "" (already said).
func preciseColors(tokens []string, sentence []int) map[int]string {
	out := map[int]string{}
	for i, t := range tokens {
		if _, named := namedColors[t]; !named {
			continue
		}
		for j := i + 1; j < len(tokens) && j <= i+2 && sentence[j] == sentence[i]; j++ {
			if hexColorRE.MatchString(tokens[j]) {
				out[i], out[j] = normalizeHex(tokens[j]), ""
				break
			}
			if isColorTok(tokens[j]) {
				break // "red and blue": two colours
			}
		}
	}
	return out
}

// accentWords name the colour a layout highlights with rather than fills.
var accentWords = map[string]bool{"accent": true, "accents": true, "highlight": true, "highlights": true}

// accentAt: the colour at i is called an accent ("accent teal", "teal accents").
// "Cards in white, accent teal": the accent is teal's, the word before it.
func accentAt(tokens []string, i int) bool {
	return i > 0 && accentWords[tokens[i-1]] ||
		i+1 < len(tokens) && accentWords[tokens[i+1]] && (i+2 >= len(tokens) || !isColorTok(tokens[i+2])) ||
		i > 1 && accentWords[tokens[i-2]] && hexColorRE.MatchString(tokens[i])
}

// nounFollows: token k is (part of) a drawn subject or a kind the composer draws, so the
// word before it is its modifier ("a yellow school bus", "a blue progress ring").
func nounFollows(tokens []string, subjectAt map[int]int, k int) bool {
	if k >= len(tokens) {
		return false
	}
	if _, ok := subjectAt[k]; ok {
		return true
	}
	_, kind := subjectKinds[tokens[k]]
	return kind
}

// colorSkipWords may stand between a colour and the noun it colours ("purple night sky",
// "red and shiny ball").
var colorSkipWords = map[string]bool{
	"and": true, "colored": true, "coloured": true, "-": true, "glowing": true, "shiny": true, "big": true,
	"small": true, "little": true, "bright": true, "dark": true, "light": true, "tiny": true, "giant": true,
	"large": true, "night": true, "starry": true, "clear": true, "evening": true, "morning": true, "summer": true,
	"winter": true, "sunny": true, "cloudy": true, "deep": true, "pale": true, "soft": true, "warm": true,
	"cool": true, "vivid": true, "pastel": true, "neon": true, "quiet": true, "calm": true, "solid": true,
	"plain": true, "gradient": true, "shifting": true, "moving": true, "animated": true,
}

// setTextColor takes the first colour named for the text; a second one ("'Vibes' in
// pink and orange") blends into it. It reports whether it kept c.
func (b *brief) setTextColor(c string) bool {
	switch {
	case b.TextColor == "":
		b.TextColor = c
	case b.TextColor2 == "" && c != b.TextColor:
		b.TextColor2 = c
	default:
		return false
	}
	return true
}

// setBackground takes the first background colour named; a second one ("gradient
// background in orange and pink") becomes the gradient's other stop.
// lightVerbs before "on" and a colour say the colour the thing turns, not one it sits
// on: "lights up gold" reads "glows on gold" after verbPhrases.
var lightVerbs = map[string]bool{"glow": true, "glows": true, "glowing": true, "switches": true, "turns": true}

func (b *brief) setBackground(c string) {
	switch {
	case b.Background == "":
		b.Background = c
	case b.Background2 == "" && c != b.Background:
		b.Background2 = c
	}
}

func appendUnique(list []string, s string) []string {
	for _, v := range list {
		if v == s {
			return list
		}
	}
	return append(list, s)
}

// readStyle decides the style and whether it was given: a style word, a reference
// ("like Stripe's site"), a named easing, or a prompt specific enough to need no question.
func (b *brief) readStyle(low string, tokens []string) {
	votes := map[koda.Style]int{}
	for _, tok := range tokens {
		if s, ok := styleWords[tok]; ok && b.Style == "" {
			b.Style, b.Explicit = s, true
		}
		if a, ok := actionWords[tok]; ok {
			if s, ok := hintWords[a]; ok {
				votes[s]++
			}
		}
		if k, ok := subjectKinds[tok]; ok {
			if s, ok := hintWords[k]; ok {
				votes[s]++
			}
			if s, ok := hintWords[tok]; ok {
				votes[s]++
			}
		}
	}
	if m := referRE.FindStringSubmatch(low); m != nil {
		name := strings.TrimSuffix(strings.TrimSuffix(m[1], "'s"), "’s")
		known, isKnown := references[name]
		for ref, s := range references {
			if strings.Contains(low, ref) && strings.Contains(m[0], strings.Fields(ref)[0]) {
				known, isKnown = s, true
			}
		}
		if isKnown || m[2] != "" || strings.HasSuffix(m[1], "'s") || strings.HasSuffix(m[1], "’s") {
			b.Reference = strings.TrimSpace(m[0])
			if b.Style == "" {
				if isKnown {
					b.Style = known
				} else {
					b.Style = koda.StyleSmooth
				}
			}
			b.Explicit = true
		}
	}
	if m := easeWordRE.FindString(low); m != "" {
		if s, ok := easingStyles[strings.ReplaceAll(m, "-", "")]; ok || easingStyles[m] != "" {
			if !ok {
				s = easingStyles[m]
			}
			if b.Style == "" {
				b.Style = s
			}
			if strings.HasPrefix(m, "ease") || strings.Contains(m, "bezier") {
				b.Explicit = true // a named easing is as specific as a prompt gets
			}
		}
	}
	best := 0
	for _, s := range []koda.Style{koda.StylePlayful, koda.StyleSmooth, koda.StyleCinematic} {
		if votes[s] > best {
			b.Inferred, best = s, votes[s]
		}
	}
	if !b.Explicit {
		// "Highly specific": enough concrete choices that a style question adds nothing.
		score := 0
		if b.Count > 0 {
			score++
		}
		if b.Duration > 0 {
			score++
		}
		if len(b.Colors) > 0 {
			score++
		}
		if len(b.Texts) > 0 {
			score++
		}
		tech := 0
		for _, tok := range tokens {
			if technicalWords[tok] {
				tech++
			}
		}
		score += min(tech, 2)
		if score >= 4 {
			b.Explicit = true
			if b.Style == "" {
				b.Style = b.Inferred
			}
			if b.Style == "" {
				b.Style = koda.StyleSmooth
			}
		}
	}
	if b.Style == "" {
		b.Style = b.Inferred
	}
}

// nounAfter are the words after which an action word is a noun ("where the drop
// starts", "its spin"); "a" is left out: "does a flip" asks for the flip.
var nounAfter = map[string]bool{"the": true, "its": true, "their": true, "this": true, "that": true, "his": true, "her": true}

// readBeats splits the prompt into clauses, each a visual moment of the plan.
func (b *brief) readBeats(low string) {
	var beats []beat
	for _, clause := range clauseRE.Split(low, -1) {
		clause = strings.TrimSpace(clause)
		if clause == "" {
			continue
		}
		bt := beat{Text: clause, From: -1, To: -1, Across: strings.Contains(clause, "across") || strings.Contains(clause, "from left") || strings.Contains(clause, "left to right")}
		readBeatVerbs(&bt, clause)
		toks := wordRE.FindAllString(clause, -1)
		for k, tok := range toks {
			if a, ok := actionWords[tok]; ok && !(k > 0 && nounAfter[toks[k-1]]) {
				bt.Actions = appendUnique(bt.Actions, a)
				b.Actions = appendUnique(b.Actions, a)
			}
			if strings.HasPrefix(tok, "«q") {
				n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(tok, "«q"), "»"))
				bt.Quotes = append(bt.Quotes, n)
			}
			if kind, ok := subjectKinds[tok]; ok && kind != "text" {
				for si, s := range b.Subjects {
					if s.Kind == "asset" {
						continue
					}
					if s.Noun == tok || strings.TrimSuffix(s.Noun, "s") == strings.TrimSuffix(tok, "s") {
						bt.Subjects = appendInt(bt.Subjects, si)
					}
				}
			}
		}
		for si, s := range b.Subjects {
			if s.Kind == "asset" && assetSubjectIn(clause, s) {
				bt.Subjects = appendInt(bt.Subjects, si)
			}
		}
		if len(bt.Actions) == 0 && len(bt.Quotes) == 0 && len(bt.Subjects) == 0 {
			if len(beats) > 0 {
				beats[len(beats)-1].Text += ", " + clause
			}
			continue
		}
		// A clause that only adds detail to the previous subject ("red, shiny") joins it.
		if len(bt.Actions) == 0 && len(bt.Quotes) == 0 && len(beats) > 0 {
			prev := &beats[len(beats)-1]
			for _, s := range bt.Subjects {
				prev.Subjects = appendInt(prev.Subjects, s)
			}
			prev.Text += ", " + clause
			continue
		}
		b.readPlaces(&bt)
		b.readBetween(&bt)
		b.readPath(&bt)
		b.readWays(&bt)
		if len(beats) > 0 {
			b.carryActor(&bt, &beats[len(beats)-1])
		}
		b.readWith(&bt)
		beats = append(beats, bt)
	}
	b.Beats = beats
}

func appendInt(list []int, v int) []int {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

// defaultDuration is the specification's "5–10 s for simple" default, longer for prompts
// with more moments, subjects and text, and for slower styles.
func (b *brief) defaultDuration(style koda.Style) float64 {
	d := 5.0
	if n := len(b.Beats); n > 1 {
		d += float64(n-1) * 1.0
	}
	if n := len(b.Subjects); n > 1 {
		d += float64(n-1) * 0.5
	}
	d += 0.5 * float64(len(b.Texts))
	switch style {
	case koda.StyleSmooth:
		d += 0.5
	case koda.StyleCinematic:
		d += 1
	}
	d = math.Round(d*2) / 2
	d = math.Min(math.Max(d, 5), 10)
	if loc := durationRE.FindStringSubmatchIndex(strings.ToLower(b.Prompt)); loc != nil && loc[2] >= 0 {
		low := strings.ToLower(b.Prompt)
		if v, err := strconv.ParseFloat(low[loc[2]:loc[3]], 64); err == nil && timedThingRE.MatchString(low[loc[1]:]) && v < 60 {
			// A timer shown in the video runs its time, with room to enter and to end.
			d = math.Max(d, math.Min(koda.MaxDurationS, v+3.5))
		}
	}
	return d
}

// baseStyle is the table row a style plays with; a custom style reads its note.
func baseStyle(s koda.Style, note string) koda.Style {
	switch s {
	case koda.StylePlayful, koda.StyleSmooth, koda.StyleCinematic:
		return s
	}
	if note != "" {
		nb := analyze(note)
		if nb.Style != "" {
			return nb.Style
		}
	}
	return koda.StyleSmooth
}

func styleQuestion(inferred koda.Style) *koda.Question {
	text := "What animation style fits your vision?"
	if inferred != "" {
		text = "What animation style fits your vision? (Your description reads " + string(inferred) + " to me.)"
	}
	q := &koda.Question{ID: "style", Text: text}
	for _, s := range []koda.Style{koda.StylePlayful, koda.StyleSmooth, koda.StyleCinematic} {
		p := styleTable[s]
		q.Options = append(q.Options, koda.QuestionOption{ID: string(s), Label: p.Label, Description: p.Description})
	}
	q.Options = append(q.Options, koda.QuestionOption{ID: string(koda.StyleCustom), Label: "Custom",
		Description: "Describe your own style", FreeText: true})
	return q
}

// nameTheLogo gives a logo whose clause quotes no name the prompt's first quote that
// no other subject claims: "a logo reveal in pink, with the text 'Glow Studio'" and "a
// green badge that says 'Fresh Farm'" are the brand's name on the logo, not a second
// title beside a logo of some other name.
func (b *brief) nameTheLogo() {
	logo := -1
	for i, s := range b.Subjects {
		if s.Kind == "logo" {
			logo = i
			break
		}
	}
	if logo < 0 || len(b.Texts) == 0 {
		return
	}
	home := -1
	for k, bt := range b.Beats {
		if containsInt(bt.Subjects, logo) {
			if len(bt.Quotes) > 0 {
				return
			}
			if home < 0 {
				home = k
			}
		}
	}
	if home < 0 {
		return
	}
	for k := range b.Beats {
		bt := &b.Beats[k]
		if k == home || len(bt.Quotes) == 0 || quoteBelongsToSubject(b, *bt) {
			continue
		}
		q := bt.Quotes[0]
		bt.Quotes = bt.Quotes[1:]
		b.Beats[home].Quotes = append(b.Beats[home].Quotes, q)
		return
	}
}

func containsInt(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// containersDrawn drops the container a clause puts a drawing in when the drawing
// already shows it: "popcorn pops out of a striped bucket" is the popcorn emoji, which
// is a striped bucket of popcorn, not a second bucket behind it; the same for coffee in
// a cup or a bouquet in a vase. The place stays in the clause (Within), so the actor is
// still known to come out of it.
func (b *brief) containersDrawn() {
	for _, bt := range b.Beats {
		for pi, prep := range bt.Within {
			if prep != "in" && prep != "into" && prep != "inside" && prep != "out of" {
				continue
			}
			place := b.Subjects[pi]
			if place.Kind != scene.TypeAsset || place.Scenery || place.Many > 1 {
				continue
			}
			for _, si := range bt.Subjects {
				s := b.Subjects[si]
				if si == pi || containsInt(bt.Places, si) || s.Kind != scene.TypeAsset || s.Absorbed {
					continue
				}
				if a, ok := assets.Default().Get(s.Asset); ok && a.ShowsContainer(place.Noun) {
					b.Subjects[pi].Absorbed = true
					break
				}
			}
		}
	}
}

// ownContainer: the clause has its actor come out of a container its own drawing
// shows (containersDrawn), so what comes out are pieces of it, not the drawing.
func (b *brief) ownContainer(bt *beat) bool {
	for pi, prep := range bt.Within {
		if prep == "out of" && b.Subjects[pi].Absorbed {
			return true
		}
	}
	return false
}
