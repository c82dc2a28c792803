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

// Genre layouts: the kinds of motion graphic people ask for by name — a lower third, a
// review with stars, a phone notification, a forecast, an end card — each with the
// layout a viewer recognises, filled from the prompt's words, numbers and colours. Which
// layout applies is a row of the genre table: the cues that select it (classes of words,
// never one word of one prompt), the slots it fills and one example prompt; the table
// test feeds every row its example. A prompt no row selects is composed as before
// (subjects, verbs, texts): the product card is one layout among the others, never the
// fallback for a genre the table does not know.

// genreRow is one row of the genre table.
type genreRow struct {
	Name string
	// Cues select the row: one of them must match the lower-cased prompt. Also, when
	// set, must match too (a forecast is a weather word and days or temperatures).
	Cues *regexp.Regexp
	Also *regexp.Regexp
	// Unless, when set, must not match: a ranking drawn "as bars" is a chart.
	Unless *regexp.Regexp
	// Fits, when set, must hold of the prompt as written (case kept): the shape the
	// layout needs is there ("A vs B" between two names).
	Fits func(prompt string) bool
	// Slots are what the layout fills from the prompt, for explain and the plan.
	Slots   []string
	Example string
	// MinQuotes is how many quoted texts the layout needs (a conversation is two).
	MinQuotes int
	// Shows are what the example's video must show: words and numbers as they read on
	// screen, "from→to" for a number that counts (the table test checks them).
	Shows []string
	// Keeps: the layout has a slot for every quote, so none is held back as a finale
	// ("then '…' appears" is the detail line of an announcement).
	Keeps bool
	// Clears: the layout fills the middle of the frame, so it leaves before a finale
	// takes the stage rather than fading back behind it.
	Clears bool
	// Backdrop: a layout of words alone gets two soft shapes circling behind it, so its
	// holds are never a still frame.
	Backdrop bool
	build    func(g *genreFill)
}

// The cue word classes, one home each.
const (
	weekdayW = `(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:mon|tue|wed|thu|fri|sat|sun)\b`
	monthW   = `jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`
)

// announceCueRE: an occasion announced with a banner (an award, a sale closed, a
// welcome).
var announceCueRE = regexp.MustCompile(`\b(?:employee|student|volunteer|player|member|team) of the (?:month|year|week|season)\b|\bjust (?:sold|listed)\b|\bsold (?:sign|banner|ribbon)\b|\bcongratulations\b|\bwinners? (?:announcement|card|reveal)\b|\bannounc\w+ (?:the|our) winners?\b|\bwelcome to the team\b|\bnew hire\b`)

// ratioRE is a frame's aspect ratio ("9:16"), no time on a clock and no score: the
// ratios of frames people ask for.
var ratioRE = regexp.MustCompile(`\b(?:9:16|16:9|1:1|4:5|5:4|4:3|3:4|21:9)\b`)

var (
	tempRE     = regexp.MustCompile(`(-?\d{1,3})\s*(?:°|º|degrees?)\s*([cf]\b)?`)
	moneyRE    = regexp.MustCompile(`(?i)[$€£¥]\s?\d[\d,]*(?:\.\d+)?[kmb]?|\d[\d,]*(?:\.\d+)?\s?(?:€|eur|euros|usd|dollars|pounds)\b`)
	percentRE  = regexp.MustCompile(`[+-]?\d+(?:\.\d+)?\s?%`)
	minSecRE   = regexp.MustCompile(`\b(\d{1,2}):(\d{2})\b`)
	timeOfDay  = regexp.MustCompile(`(?i)\b\d{1,2}(?::\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)`)
	dateRE     = regexp.MustCompile(`(?i)\b(?:(?:` + weekdayW + `),?\s+)?(?:` + monthW + `)\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:` + monthW + `)\b`)
	weekdayRE  = regexp.MustCompile(`(?i)\b(?:` + weekdayW + `)`)
	handleRE   = regexp.MustCompile(`@[A-Za-z0-9_.]{2,30}`)
	ratingRE2  = regexp.MustCompile(`\b(\d(?:\.\d)?|one|two|three|four|five)\s*(?:out of|/|of)\s*(5|five|10|ten)\b|\b(\d(?:\.\d)?|one|two|three|four|five)[\s-]*stars?\b`)
	properRE   = regexp.MustCompile(`\b(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s)?[A-Z][a-zà-ÿ'’-]+(?:\s(?:[A-Z]\.|[A-Z][a-zà-ÿ'’-]+)){1,3}`)
	numberedRE = regexp.MustCompile(`(?:^|[,;:]\s*|\s)(?:step\s*)?(\d{1,2})[.)]?\s+([A-Za-z][^,;.\d]{1,40})`)
	countUpRE  = regexp.MustCompile(`\bfrom\s+(\d[\d,]*)\s+to\s+(\d[\d,]*)`)
)

// genres is the genre table. The first row whose cues match wins, so a more specific
// layout stands before a more general one (a countdown timer before a title card).
var genres = []genreRow{
	{Name: "org chart", Cues: regexp.MustCompile(`\borg(?:ani[sz]ation(?:al)?)?\s?charts?\b|\bfamily tree\b|\bhierarchy\b|\btree diagram\b|\bteam structure\b|\breporting lines\b`),
		Slots: []string{"top box: name and role", "the row under it", "boxes under one of that row", "connecting lines"}, build: (*genreFill).orgChart,
		Example: `Org chart: Maya Chen (CEO) at the top, lines down to three boxes - Leo Park, Design; Sara Diaz, Engineering; Omar Aziz, Sales. Then two boxes under Engineering: Web and Mobile.`,
		Shows:   []string{"Maya Chen", "CEO", "Leo Park", "Design", "Sara Diaz", "Engineering", "Omar Aziz", "Sales", "Web", "Mobile"}},
	{Name: "team grid", Cues: regexp.MustCompile(`\bmeet (?:the|our) (?:team|crew|staff|people)\b|\bteam (?:members?|intro|grid|page|photos?)\b|\bour (?:team|staff|crew)\b|\bstaff (?:intro|photos?|profiles?)\b`),
		Fits: func(p string) bool { return len(teamMembers(p)) >= 2 }, Keeps: true, Clears: true,
		Slots: []string{"title", "names", "roles"}, build: (*genreFill).team,
		Example: `Meet the team for our bakery: Rosa - owner & head baker, Jimmy - pastry, Mei - front of house, Dan - deliveries`,
		Shows:   []string{"Rosa", "owner & head baker", "Jimmy", "pastry", "Mei", "front of house", "Dan", "deliveries"}},
	// A funnel is a list of three stages or more: a funnel cloud, or one in a kitchen, is
	// no funnel chart.
	{Name: "funnel", Cues: regexp.MustCompile(`\b(?:conversion|sales|marketing|purchase|checkout|sign-?up|acquisition|hiring|recruit\w*|lead|customer|user|onboarding|growth|e-?commerce|pipeline|aarrr)\s+funnels?\b|\bfunnel (?:chart|diagram|graph|graphic|visuali[sz]ation|animation|stages|steps|layers)\b|\bfunnels?\b[^.]*\b(?:stages?|conversions?|convert\w*|drop-?offs?|leads|sign-?ups|visitors|customers|layers|pipeline)\b`),
		Unless: regexp.MustCompile(`\bfunnel[- ]clouds?\b|\btornado\w*\b|\bkitchen\b|\bthrough (?:a|the) (?:\w+ )?funnel\b|\bfunnel\b[^.]*\binto (?:a|the) (?:bottle|jar|jug|tank)\b`),
		Fits:   func(p string) bool { return len(funnelStages(p)) >= 3 },
		Slots:  []string{"stages top to bottom: name and count", "step conversion rates", "colours", "title"}, build: (*genreFill).funnel,
		Example: `Sales funnel for Q3 in indigo and mint: Visitors 48,000 → Sign-ups 6,200 → Trials 1,900 → Paid 540, each layer landing from the top with its number counting up`,
		Shows:   []string{"Visitors", "0→48,000", "Sign-ups", "0→6,200", "Trials", "0→1,900", "Paid", "0→540", "13%", "31%", "28%"}},
	{Name: "layers", Cues: regexp.MustCompile(`\blayers? of (?:the )?(?:atmosphere|earth|ocean|sea|soil|rock|skin|forest|rainforest)\b|\b(?:atmospheric|atmosphere|ocean|sea|soil|rock|forest) (?:layers|zones|horizons|strata)\b|\bstrata\b|\bzones of the (?:ocean|sea)\b`),
		Fits:  func(p string) bool { return len(strata(p)) >= 3 },
		Slots: []string{"layers in order: name, range, what is in each", "which way they stack (up from the ground, down from the surface)", "colours", "title"}, Keeps: true, build: (*genreFill).layers,
		Example: `The layers of the ocean: Sunlight zone 0–200 m (fish, sea turtles), Twilight zone 200–1,000 m, Midnight zone 1,000–4,000 m (anglerfish), Abyss 4,000–6,000 m, each sliding in from the surface down`,
		Shows:   []string{"Sunlight zone", "0–200 m", "Twilight zone", "200–1,000 m", "Midnight zone", "Abyss", "4,000–6,000 m"}},
	{Name: "mind map", Cues: regexp.MustCompile(`\bmind ?maps?\b|\bspider (?:diagram|map)s?\b|\bconcept maps?\b|\bbrainstorm(?:ing)? (?:map|diagram|web)s?\b`),
		Slots: []string{"topic in the centre", "main ideas, each in a pill", "sub-points off each idea", "colours"}, Keeps: true, build: (*genreFill).mindMapLayout,
		Example: `Mind map: "Healthy Habits" in a circle in the middle, branches drawing out one by one — Sleep: 8 hours, no screens / Food: more veg, water / Exercise: daily walk, stretch / Mind: journal, breathe`,
		Shows:   []string{"Healthy Habits", "Sleep", "8 hours", "No screens", "Food", "More veg", "Water", "Exercise", "Daily walk", "Stretch", "Mind", "Journal", "Breathe"}},
	// A player card stands before the rows its words would reach ("rating 91" is a
	// review's word): it is chosen only for a card with three labelled stats or more.
	{Name: "player card", Cues: playerCardCueRE,
		Fits:  func(p string) bool { return len(cardStats(p)) >= 3 },
		Slots: []string{"name", "overall rating and position", "portrait: the sport's or role's drawing, else initials", "labelled stats", "club or team", "tier colour (gold, silver, bronze or named)"},
		Keeps: true, build: (*genreFill).playerCardLayout,
		Example: `FIFA-style player card for Lena Okafor: 91 overall, ST, PAC 88, SHO 91, PAS 79, DRI 86, DEF 41, PHY 77, club Harbour City FC. A gold card that spins in, then a shimmer passes across it`,
		Shows:   []string{"LENA OKAFOR", "91", "ST", "PAC", "0→88", "SHO", "0→91", "PHY", "0→77", "Harbour City FC"}},
	{Name: "recipe card", Cues: recipeCueRE,
		Fits:  func(p string) bool { return len(readRecipe(p, nil).Ingredients) >= 2 },
		Slots: []string{"dish title", "the dish's drawing", "time and servings chips", "ingredients with quantities, one by one", "numbered method steps"},
		Keeps: true, build: (*genreFill).recipeCard,
		Example: `Recipe card for "Lemon Pancakes": ingredients 200 g flour, 2 eggs, 300 ml milk, 1 tbsp sugar and a pinch of salt. Method: 1. Whisk the eggs and milk 2. Fold in the flour and sugar 3. Fry a ladle at a time until golden. Prep 10 min, cook 15 min, serves 4`,
		Shows:   []string{"Lemon Pancakes", "200 g  Flour", "2  Eggs", "300 ml  Milk", "1 tbsp  Sugar", "A pinch of salt", "Whisk the eggs and milk", "Fold in the flour and sugar", "Fry a ladle at a time until golden", "Prep 10 min", "Cook 15 min", "Serves 4"}},
	// A leaderboard asks for more than rows of names and figures (those are the board's):
	// places written, the viewer's row, a row highlighted or moving up, points.
	{Name: "leaderboard", Cues: leaderCueRE, Fits: leaderFits, Unless: regexp.MustCompile(`\bpodium\b|\bmedals?\b|\bbars?\b|\bcharts?\b|\bgraph\b`),
		Slots: []string{"rows in place order: name, score, unit", "the viewer's or highlighted row", "a row moving up and its new score", "title"}, build: (*genreFill).leaderboard,
		Example: `Weekly step challenge leaderboard: 1. Priya 84,200 steps, 2. Marco 79,950 steps, 3. Sam (you) 77,400 steps, 4. Jules 70,120 steps, 5. Omar 66,300 steps; rows slide in, then Sam's score jumps to 81,000 and he overtakes Marco`,
		Shows:   []string{"Weekly step challenge leaderboard", "Priya", "0→84,200 steps", "Marco", "Sam (you)", "0→81,000 steps", "Jules", "Omar", "1", "5"}},
	{Name: "podium", Cues: regexp.MustCompile(`\bpodium\b|\b(?:gold|silver|bronze)\b[^.]*\b(?:gold|silver|bronze)\b[^.]*\bmedals?\b|\b1st\b[^.]*\b2nd\b[^.]*\b3rd\b`),
		Fits: func(p string) bool {
			return podiumPlaces(p)[0].Name != "" || strings.Contains(strings.ToLower(p), "podium")
		},
		Slots: []string{"three places: name and figure", "steps", "medals", "title"}, build: (*genreFill).podium,
		Example: `Race results podium: 1st Hana Sato 17:42, 2nd Ben Whitfield 18:05, 3rd Clara Ruiz 18:31, medals drop on at the end`,
		Shows:   []string{"Hana Sato", "17:42", "Ben Whitfield", "18:05", "Clara Ruiz", "18:31", "1", "2", "3"}},
	// A bracket needs four sides or more: "the cup final" between two is a matchup.
	{Name: "tournament bracket", Cues: bracketCueRE, Fits: bracketFits,
		Slots: []string{"entrants in bracket order (4 or 8)", "results: winners and scores", "champion", "title"}, Keeps: true, build: (*genreFill).tournament,
		Example: `Knockout bracket for the office ping-pong cup: Ana vs Ben, Cleo vs Dev, Eli vs Fay, Gus vs Hana. Ana beats Ben 11-5, Cleo beats Dev 11-9, Fay beats Eli 11-7, Hana beats Gus 11-6; in the semis Cleo beats Ana 11-8 and Hana beats Fay 11-4; Cleo wins the final 11-9 and is crowned champion`,
		Shows:   []string{"Office ping-pong cup", "Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "11", "5", "CHAMPION"}},
	{Name: "seat chart", Cues: regexp.MustCompile(`\bparliament\w*\b[^.]*\b(?:chart|seats?)\b|\bhemicycle\b|\bseat (?:chart|map|projection|count)\b|\bseats?\b[^.]*\bmajority\b|\bsemi-?circle\b[^.]*\bseats?\b|\bseats?\b[^.]*\bsemi-?circle\b`),
		Fits:  func(p string) bool { ps, _, _ := chamber(p); return len(ps) >= 2 },
		Slots: []string{"parties: names, seats and colours", "seats in all", "majority line", "headline"}, build: (*genreFill).seatChart,
		Example: `Election night semicircle seat chart, 120 seats: Harbour Party 48 (blue), Union Left 41 (red), Greens 17 (green), Others 14 (grey), 61 for a majority, headline "Hung parliament"`,
		Shows:   []string{"Harbour Party", "0→48", "Union Left", "0→41", "Greens", "0→17", "Others", "0→14", "61 for a majority", "Hung parliament"}},
	{Name: "kanban board", Cues: regexp.MustCompile(`\bkanban\b|\btask board\b|\b(?:trello|jira|asana)\b[^.]*\b(?:board|card)\b|\bto[ -]?do\b[^.]*\bin progress\b[^.]*\bdone\b|\bcolumns?\b[^.]*\bin progress\b`),
		Slots: []string{"columns", "the card that moves", "the columns it moves from and to"}, build: (*genreFill).kanban,
		Example: `Kanban board with columns To Do, In Progress, Done: the card "Ship v2.1" is dragged from In Progress to Done`,
		Shows:   []string{"TO DO", "IN PROGRESS", "DONE", "Ship v2.1"}},
	// A Gantt chart lists two tasks with their periods, one a span: a "project timeline"
	// of dated steps alone is the steps timeline's.
	{Name: "gantt chart", Cues: ganttCueRE, Fits: ganttFits, Unless: regexp.MustCompile(`\bbar (?:chart|graph)s?\b`),
		Slots: []string{"tasks: name, first and last period", "time axis (weeks, months, days, dates, quarters)", "milestones", "today line", "title", "colours"}, Keeps: true, build: (*genreFill).gantt,
		Example: `Gantt chart for the app launch, in weeks: Discovery 1–2, Wireframes 2–4, Design 3–6, Build 5–9, Testing 8–10, bars growing in order; a today line at week 5 and a Launch milestone at week 10`,
		Shows:   []string{"App launch", "Discovery", "Wireframes", "Design", "Build", "Testing", "W1", "W5", "Today", "Launch"}},
	{Name: "gauge", Cues: regexp.MustCompile(`\bgauges?\b|\bspeedometer\b|\bdial\b[^.]*\bneedle\b|\bneedle\b[^.]*\b(?:swings?|settles?|points?|moves?|sweeps?)\b`), Keeps: true,
		Slots: []string{"reading and unit", "scale", "bands' colours", "lines under it"}, build: (*genreFill).gauge,
		Example: `A half-circle gauge running green, yellow and red; the needle swings up and settles at 72%. Underneath: "Battery health" and "Checked today"`,
		Shows:   []string{"0→72%", "Battery health", "Checked today"}},
	{Name: "social post", Cues: regexp.MustCompile(`\btweets?\b|\b(?:post|tweet) (?:card|screenshot|mockup)\b|\bscreenshot of (?:a|my|our|the|her|his|their) (?:post|tweet)\b|\b(?:instagram|linkedin|facebook|threads|bluesky|reddit|x) post (?:card|screenshot|mockup)\b`),
		Fits:  func(p string) bool { return handleRE.MatchString(p) || quoteCount(p) > 0 },
		Slots: []string{"avatar", "name and handle", "the post's words", "likes and reposts counting up", "heart turning red"}, build: (*genreFill).socialPost,
		Example: `A tweet: Maya Lin @mayabuilds, "Launched my shop today!", the heart turns red and likes climb from 3 to 1.2K, reposts climb to 310`,
		Shows:   []string{"Maya Lin", "@mayabuilds", "Launched my shop today!", "0→1.2K", "0→310"}},
	{Name: "word grid", Cues: regexp.MustCompile(`\bwordle\b|\bletter tiles\b|\bword (?:puzzle|game|guess)\w*\b|\bguess(?:es)?\b[^.]*\b(?:grey|gray|yellow|green)\b`), Keeps: true,
		Fits:  func(p string) bool { gs, _, _, _ := wordGuesses(p); return len(gs) >= 1 },
		Slots: []string{"guesses", "answer", "grid size", "the line under it"}, build: (*genreFill).wordGrid,
		Example: `Wordle-style puzzle: guesses STARE, CLOUD, PLUMB flip in row by row, the last row all green, then "Got it in 3!"`,
		Shows:   []string{"S", "T", "A", "R", "E", "C", "L", "O", "U", "D", "P", "M", "B", "Got it in 3!"}},
	{Name: "spin wheel", Cues: regexp.MustCompile(`\bspin[- ]?(?:to[- ]?win|the wheel|a wheel)\b|\bprize wheel\b|\bwheel of (?:fortune|prizes)\b|\bwheel\b[^.]*\b(?:slices|segments|wedges|prizes?)\b|\b(?:slices|segments|wedges)\b[^.]*\bwheel\b`),
		Fits:  func(p string) bool { items, _ := wheelSlices(p, nil); return len(items) >= 2 || quoteCount(p) >= 2 },
		Slots: []string{"slices", "their colours", "the slice it lands on"}, build: (*genreFill).spinWheel,
		Example: `Spin-to-win prize wheel, slices in alternating navy and gold: FREE SHIPPING, 10% OFF, TRY AGAIN, FREE GIFT. It spins and lands on FREE GIFT.`,
		Shows:   []string{"FREE SHIPPING", "10% OFF", "TRY AGAIN", "FREE GIFT"}},
	{Name: "code editor", Cues: regexp.MustCompile(`\bcode editor\b|\bvs ?code\b|\bide\b|\bsyntax (?:colou?rs?|highlight\w*)\b|\bcode snippet\b|\btypes? (?:out )?(?:a |the |some )?(?:python|javascript|js|typescript|sql|bash|code|function|snippet)\b|\bcoding (?:tutorial|video|intro)\b`), Keeps: true,
		Fits:  func(p string) bool { lines, _, _ := codeLines(p, nil); return len(lines) > 0 || quoteCount(p) > 0 },
		Slots: []string{"lines of code, typed in turn", "their colours", "indent", "what the terminal prints"}, build: (*genreFill).codeEditor,
		Example: `A dark code editor types out a Python function: def greet(name): on the first line, return f"Hi, {name}!" indented on the second. Then a terminal prints Hi, Ada!`,
		Shows:   []string{"def greet(name):", `    return f"Hi, {name}!"`, "Hi, Ada!"}},
	{Name: "venn diagram", Cues: regexp.MustCompile(`\bvenn\b|\boverlapping circles\b|\bcircles?\b[^.]*\boverlap`),
		Slots: []string{"sets (two or three)", "the overlap's words", "colours", "title"}, build: (*genreFill).venn,
		Example: `Venn diagram: "Design" and "Engineering" circles slide in and overlap, the overlap glows gold with "Great products". Navy circles.`,
		Shows:   []string{"Design", "Engineering", "Great products"}},
	{Name: "speaker card", Cues: regexp.MustCompile(`\bspeakers? (?:card|announcement|spotlight|intro|reveal|lineup)\b|\b(?:meet|introducing) (?:our|the) (?:speakers?|keynote)\b|\bkeynote\b|\btalk title\b|\b(?:conference|summit|meetup|webinar|panel) speaker\b`),
		Slots: []string{"photo", "name", "talk title", "event", "place, date and time"}, Keeps: true, build: (*genreFill).speakerCard,
		Example: `Speaker card for Dataconf 2026: Amara Okoye, talk "Charts That Lie", Hall C, May 14, 2:30 pm`,
		Shows:   []string{"Amara Okoye", "Charts That Lie", "Hall C", "May 14", "2:30 pm"}},
	{Name: "lower third", Cues: regexp.MustCompile(`\blower[- ]?thirds?\b|\bchyron\b|\bname (?:strap|bar|super|tag)\b|\bname and (?:role|title|job)\b|\bnameplate\b|\bintroduc\w+ (?:the )?(?:speaker|guest|presenter|host)\b`),
		// A news lower third ("breaking news lower third … ticker") is the news row's,
		// laid low: it has the banner word, the headline and the ticker.
		Unless: regexp.MustCompile(`\bbreaking\b|\bticker\b|\bnews (?:banner|alert|flash)\b`),
		Slots:  []string{"name", "role", "bar colour", "accent colour"}, build: (*genreFill).lowerThird,
		Example: `A lower third for the interview: "Maya Chen" with the role "Lead Designer, Arcwise" on a navy bar with a yellow accent`,
		Shows:   []string{"Maya Chen", "Lead Designer, Arcwise"}},
	{Name: "stock card", Cues: regexp.MustCompile(`\bstocks?\b|\bshare price\b|\bshares\b[^.]*\b(?:up|down|closed|rose|fell)\b|\bstock ticker\b|\bticker symbol\b|\bclosed at\b|\bnasdaq\b|\bnyse\b|\bmarket (?:update|close)\b|\bbitcoin\b|\bcrypto\w*\b`),
		Fits:  func(p string) bool { _, _, ok := stockMove(p); return ok && moneyRE.MatchString(p) },
		Slots: []string{"ticker", "price", "move (percent, up or down)", "sparkline"}, build: (*genreFill).stockCard,
		Example: `Stock update card: KLMR closed at $92.10, down 1.8% today, with a red arrow and a sparkline`,
		Shows:   []string{"KLMR", "−1.8%", "$92.10"}},
	{Name: "breaking news", Cues: regexp.MustCompile(`\bbreaking\b|\bnews (?:banner|ticker|graphic|alert|flash)\b|\bticker\b|\bheadline banner\b`),
		Slots: []string{"banner word", "headline", "ticker text"}, build: (*genreFill).breakingNews,
		Example: `Breaking news graphic: "Storm closes city schools" with a red banner and a ticker reading "Updates every hour"`,
		Shows:   []string{"BREAKING NEWS", "Storm closes city schools", "Updates every hour"}},
	{Name: "weather forecast", Cues: regexp.MustCompile(`\bforecast\b|\bweather\b`), Also: regexp.MustCompile(`(?i)\bforecast\b|\d\s*(?:°|º|degrees?)|\b(?:\d|two|three|four|five|six|seven)[\s-]+days?\b|(?:` + weekdayW + `).*(?:` + weekdayW + `)`),
		Slots: []string{"place", "days", "conditions (icons)", "temperatures"}, build: (*genreFill).forecast,
		Example: `Three-day weather forecast for Oslo: Monday snow -2°, Tuesday cloudy 1°, Wednesday sunny 4°`,
		Shows:   []string{"Oslo", "Mon", "Tue", "Wed", "-2°", "1°", "4°"}},
	{Name: "review rating", Cues: regexp.MustCompile(`\breviews?\b|\bratings?\b|\brated\b|\b\d(?:\.\d)?\s*(?:out of|/)\s*(?:5|five)\b|\b(?:\d|one|two|three|four|five)[\s-]*stars?\b`), Also: regexp.MustCompile(`\bstars?\b|\brat(?:ing|ed)\b|out of|/\s*5\b`),
		Slots: []string{"stars (of five)", "quote", "reviewer", "business"}, build: (*genreFill).review,
		Example: `A 5-star review card: "The best ramen I have had in years" by Kenji S., stars filling one by one`,
		Shows:   []string{"The best ramen I have had in years", "Kenji S.", "5 / 5"}},
	{Name: "testimonial quote", Cues: regexp.MustCompile(`\btestimonials?\b|\bquote (?:card|animation)\b|\bcustomer (?:quote|says)\b|\bquotation marks\b`),
		Slots: []string{"quote", "person", "role", "logo placeholder"}, Backdrop: true, build: (*genreFill).testimonial,
		Example: `Testimonial: "Koda saved our team ten hours a week." — Priya Nair, Head of Growth at Lumen`,
		Shows:   []string{"Koda saved our team ten hours a week.", "Priya Nair, Head of Growth at Lumen"}},
	{Name: "alert popup", Cues: alertCueRE, Unless: alertUnlessRE,
		Slots:   []string{"title (a quote before its dash, else the alert's kind)", "line", "icon: the drawing named before \"icon\"", "a +N gain counting up", "corner"},
		build:   (*genreFill).alertPopup,
		Example: `Achievement unlocked popup for my gaming videos: a dark box slides in top right, a trophy icon spins, text "ACHIEVEMENT UNLOCKED — Night Owl: survive 10 nights" and a +50 XP counter ticks up, then it slides back out`,
		Shows:   []string{"ACHIEVEMENT UNLOCKED", "Night Owl: survive 10 nights"}},
	{Name: "phone notification", Cues: regexp.MustCompile(`\bnotifications?\b|\block ?screen\b|\bpush (?:alert|message)\b|\btext message\b|\bnew message from\b|\bsms\b`),
		Also:  regexp.MustCompile(`\bphone\b|\block ?screen\b|\bhome ?screen\b|\bpush\b|\bapp\b|\b(?:message|notification|text|sms|email) from\b|\bfrom ["“'«]`),
		Slots: []string{"app or sender", "message", "time"}, build: (*genreFill).notification,
		Example: `A phone notification slides down from the top: a message from "Alex" saying "Running 5 minutes late"`,
		Shows:   []string{"Alex", "Running 5 minutes late"}},
	{Name: "badge counter", Cues: regexp.MustCompile(`\bunread\b|\bbadge (?:count|counter|number)\b|\bnotification (?:count|badge)\b|\bbadge\b.*\b(?:counts?|counting|ticks?|goes) (?:up|from|to)\b`),
		Slots: []string{"app drawing", "count from", "count to", "badge colour"}, build: (*genreFill).badgeCounter,
		Example: `A chat app icon whose red unread badge counts up from 1 to 12`,
		Shows:   []string{"1→12"}},
	{Name: "flashcard", Cues: regexp.MustCompile(`\bflash ?cards?\b|\bflips? (?:over|around)\b[^.]*\bback\b|\bfront\b[^.]*\bback\b`),
		Slots: []string{"front word", "back word", "back drawing"}, Keeps: true, Backdrop: true, build: (*genreFill).flashcard,
		Example: `Flashcard for French class: "le chat" on the front, it flips over and the back shows a cat with the word "cat"`,
		Shows:   []string{"le chat", "cat"}},
	{Name: "dictionary entry", Cues: regexp.MustCompile(`\bword of the (?:day|week)\b|\bdictionary\b|\bdefinition\b|\((?:noun|verb|adjective|adj\.?|adverb)\)|\s/[^/\s][^/]{0,38}/\s*[—–:]`),
		Fits: func(p string) bool { _, ok := dictEntryOf(p); return ok }, Keeps: true, Backdrop: true,
		Slots: []string{"headword", "part of speech", "pronunciation", "meaning"}, build: (*genreFill).dictionary,
		Example: `Word of the day for our English club: petrichor (noun) /ˈpɛtrɪkɔːr/ — the earthy smell when rain falls on dry ground`,
		Shows:   []string{"petrichor", "noun", "the earthy smell when rain falls on dry ground"}},
	{Name: "chat", Cues: regexp.MustCompile(`\bchat\b|\bconversation\b|\bdms?\b|\btexting\b|\bmessages? (?:thread|bubbles?)\b|\bimessage\b|\bwhatsapp\b`), MinQuotes: 2,
		Slots: []string{"messages in turn"}, build: (*genreFill).chat,
		Example: `A chat conversation: "Are we still on for tonight?" then the reply "Yes! 7pm at the usual place"`,
		Shows:   []string{"Are we still on for tonight?", "Yes! 7pm at the usual place"}},
	{Name: "quiz", Cues: regexp.MustCompile(`\bquiz\b|\btrivia\b|\bmultiple[- ]choice\b|\bquestion\b[^.]*\b(?:four|three|two|\d) (?:answers|options|choices)\b`),
		Slots: []string{"question", "answers A–D", "seconds on the timer", "the right answer"}, Keeps: true, build: (*genreFill).quiz,
		Example: `Trivia card: "Which ocean is the largest?" with answers A Atlantic, B Pacific, C Indian, D Arctic, a 5-second timer, then B turns green`,
		Shows:   []string{"Which ocean is the largest?", "A   Atlantic", "B   Pacific", "C   Indian", "D   Arctic"}},
	{Name: "keyboard shortcut", Cues: regexp.MustCompile(`\bshortcut\b|\bkeyboard\b|\bkeys?\b[^.]*\bpress|\bpress\w*\b[^.]*\b(?:ctrl|cmd|shift|alt|option)\b|\b(?:ctrl|cmd|command|shift|alt|option)\s*\+`),
		Fits:  func(p string) bool { return len(keysPressed(p)) >= 2 },
		Slots: []string{"keys", "caption"}, build: (*genreFill).keyboardShortcut,
		Example: `Keyboard shortcut tip: Cmd + Shift + 4 press one after another, caption "Screenshot any area"`,
		Shows:   []string{"Cmd", "Shift", "4", "Screenshot any area"}},
	// A song's lines, two or more, each shown whole and sung through; one line said a
	// word or two at a time is captions.
	{Name: "lyrics", Cues: regexp.MustCompile(`\blyrics?\b|\bsing-?along\b|\bkaraoke\b|\bchorus\b|\bsong'?s? (?:lines|words)\b`), MinQuotes: 2,
		Slots: []string{"lines in order, one at a time", "the sung colour sweeping each line", "colours"}, Keeps: true, Backdrop: true, build: (*genreFill).lyrics,
		Example: `Lyric video for our chorus: "Hold on to the light" / "Carry it home" / "Never let it go", one line at a time, each filling from white to pink as it's sung`,
		Shows:   []string{"Hold on to the light", "Carry it home", "Never let it go"}},
	{Name: "captions", Cues: regexp.MustCompile(`\bcaptions\b|\bsubtitles\b|\bkaraoke\b|\ba word or two at a time\b|\bkinetic (?:type|typography|text)\b`),
		Fits:  func(p string) bool { return quoteWords(p) >= 4 },
		Slots: []string{"line", "stressed word and its colour"}, Keeps: true, Backdrop: true, build: (*genreFill).captions,
		Example: `Captions for my talk video: the line "Small steps every single day add up" pops up a word or two at a time, and the word "add" flashes orange`,
		Shows:   []string{"Small steps", "every single", "add", "up"}},
	{Name: "launch countdown", Cues: unitsRE, Also: regexp.MustCompile(`\bcount\w*\b|\buntil\b|\bto (?:launch|go)\b|\bticking\b`),
		Slots: []string{"headline", "days, hours, minutes, seconds"}, Keeps: true, build: (*genreFill).launchCountdown,
		Example: `A countdown in days, hours, minutes and seconds to "DOORS OPEN SATURDAY", gold on black`,
		Shows:   []string{"DOORS OPEN SATURDAY", "DAYS", "HOURS", "MINUTES", "SECONDS"}},
	{Name: "timer", Cues: regexp.MustCompile(`\bstopwatch\b|\btimer\b|\bcountdown (?:clock|timer|ring)\b|\bticking down\b|\bcounts? down\b.*\d:\d\d|\d:\d\d.*\b(?:down|countdown)\b`),
		Slots: []string{"from", "to", "label", "ring colour"}, build: (*genreFill).timer,
		Example: `A workout timer counting down from 0:20 to 0:00 in a shrinking ring with the word REST above it`,
		Shows:   []string{"0:20", "0:00", "REST"}},
	{Name: "subscribe end card", Cues: regexp.MustCompile(`\bsubscribe\b|\bend (?:card|screen)\b|\blike and (?:follow|share)\b|\bsmash (?:that|the) like\b`),
		// A video channel's end screen: an ad's "end card" is its closing words, no
		// subscribe button.
		Also:  regexp.MustCompile(`\bsubscri\w*|\byoutube\b|\bchannel\b|\bvideos?\b|\bwatch next\b|\bplaylist\b|\blike and\b|\bsmash\b`),
		Slots: []string{"channel", "button text", "bell", "video slots"}, build: (*genreFill).subscribe,
		Example: `YouTube end screen for "Daily Dough": a subscribe button that gets clicked, a bell that rings, and two video slots`,
		Shows:   []string{"Daily Dough", "SUBSCRIBE", "SUBSCRIBED"}},
	{Name: "social handle", Cues: regexp.MustCompile(`\bfollow (?:us|me|button)\b|\bsocial (?:handle|card|profile)\b|\bprofile (?:card|picture|circle)\b`),
		Slots: []string{"avatar initials", "handle", "follow button"}, build: (*genreFill).socialHandle,
		Example: `Social card for @bloomandbranch with a round avatar and a follow button that pulses`,
		Shows:   []string{"@bloomandbranch", "Follow"}},
	{Name: "coupon", Cues: regexp.MustCompile(`\bpromo(?:tion(?:al)?)? code\b|\bcoupon\b|\bdiscount code\b|\bvoucher\b|\bscratch(?:-off|card| card)\b|\bcode [a-z]*\d+\b`),
		Slots: []string{"code", "offer"}, Keeps: true, build: (*genreFill).coupon,
		Example: `Promo code reveal: "WELCOME10 — 10% off your first order", with confetti`,
		Shows:   []string{"WELCOME10", "10% off your first order"}},
	{Name: "announcement", Cues: announceCueRE,
		Slots: []string{"banner words", "name", "detail", "the drawing it is about"}, Keeps: true, build: (*genreFill).announcement,
		Example: `Employee of the Month card: a trophy drops in, then "Top sales in March" and the name Priya Raman`,
		Shows:   []string{"Employee of the Month", "Priya Raman", "Top sales in March"}},
	{Name: "callouts", Cues: regexp.MustCompile(`\bcallouts?\b|\blines?\b[^.]{0,30}\b(?:out to|to|pointing (?:to|at))\b[^.]{0,20}\blabels?\b|\blabels?\b[^.]{0,30}\b(?:lines?|arrows?|pointing)\b|\blabel the\b|\blabell?ed (?:diagram|parts)\b|\bfeature labels\b|\bannotat\w+`),
		// Labels the prompt gives, quoted or listed: never made-up placeholder words.
		Fits: func(p string) bool {
			return strings.Count(p, "«q")+quoteCount(p) >= 2 || len(listAfter(p, labelListRE)) >= 2
		},
		Slots: []string{"the drawing", "labels, one line each"}, Keeps: true, build: (*genreFill).callouts,
		Example: `Our new kettle in the middle with lines out to labels: "1.7 litres", "Boils in 90 s", "Keep-warm mode"`,
		Shows:   []string{"1.7 litres", "Boils in 90 s", "Keep-warm mode"}},
	// Prices in rows are a board's (a fuel sign, a rate board), not one tag's.
	{Name: "price tag", Cues: regexp.MustCompile(`\bprices?\b|\btags?\b|\bcrossed out\b|\bstrike ?through\b|\bwas\s+[$€£]\d`),
		Unless: regexp.MustCompile(`\b(?:price|fuel|gas|petrol) (?:sign|board|display|list)s?\b|\brates? board\b|\bcolumns?\b`),
		Also:   regexp.MustCompile(`\bsale\b|\boff\b|\bdiscount|\bwas\b|\bnow\b|\bold price\b|\bnew price\b|\bblack friday\b|\bcyber monday\b|\bdeal\b|[$€£¥]\s?\d[^$€£¥]*[$€£¥]\s?\d`),
		Slots:  []string{"old price", "new price", "discount", "label"}, build: (*genreFill).priceTag,
		Example: `A sale price tag: the old price $60 is crossed out and the new price $45 pops in, "Weekend only"`,
		Shows:   []string{"$60", "$45", "Weekend only"}},
	{Name: "board", Cues: boardCueRE, Fits: func(p string) bool { return len(boardRows(p)) >= 2 }, Also: regexp.MustCompile(`\d[^,;.]*[,;][^,;]*\d`), Unless: regexp.MustCompile(`\bbars?\b|\bcharts?\b|\bgraph\b`),
		Slots: []string{"title", "rows: name and figure, or time and columns", "a row's colour (in amber)"}, build: (*genreFill).board,
		Example: `Leaderboard of the spelling bee, top 4: Ava 98, Noah 91, Mia 87 and Leo 80, rows sliding in one by one`,
		Shows:   []string{"Leaderboard", "Ava", "0→98", "Noah", "0→91", "Mia", "0→87", "Leo", "0→80"}},
	{Name: "icon array", Cues: regexp.MustCompile(`\b(?:icons?|circles|dots|squares)\b[^.]*\b(?:grid|rows?|array)\b|\b(?:grid|array) of \d+|\bicon array\b|\bpictogra(?:m|ph)s?\b|\bunit chart\b|\bisotype\b`),
		Fits:  func(p string) bool { _, _, _, ok := unitArray(p); return ok },
		Slots: []string{"count", "icon", "groups (count, name, colour)", "key", "share", "caption"}, Keeps: true, build: (*genreFill).iconArray,
		Example: `A grid of 40 little tree icons: 26 planted fill green and 14 lost turn red, while 65% counts up beside it`,
		Shows:   []string{"Planted  26", "Lost  14", "0→65%"}},
	{Name: "big stat", Cues: regexp.MustCompile(`\bbig stat\b|\bstat(?:istic)? (?:card|highlight|callout)\b|\b(?:ring|circle|donut|doughnut)\b[^.]{0,30}\bfill\w*\b[^.]{0,20}\d+\s?(?:%|percent)|\d+\s?(?:%|percent)[^.]{0,30}\b(?:ring|donut|doughnut)\b`),
		Slots: []string{"share", "caption"}, Keeps: true, build: (*genreFill).bigStat,
		Example: `Big stat: a ring fills to 64% with the number counting up, and below it "of readers finish the first chapter"`,
		Shows:   []string{"0→64%", "of readers finish the first chapter"}},
	{Name: "kpi row", Cues: regexp.MustCompile(`\bkpis?\b|\b(?:metrics?|stats?|statistics|numbers|figures|dashboard) (?:row|tiles|cards|panel)\b|\bkey (?:numbers|figures|metrics)\b|\b(?:\d|two|three|four|five|six) (?:stat|metric|number)s?\b`),
		Slots: []string{"tiles: label, value, change"}, build: (*genreFill).kpiRow,
		Example: `KPI tiles for the board: Revenue $1.2M (+12%), Customers 4,300 (+8%), Churn 3% (down 1), NPS 54`,
		Shows:   []string{"Revenue", "$0→1.2M", "+12%", "Customers", "0→4,300", "Churn", "NPS", "0→54"}},
	{Name: "flowchart", Cues: regexp.MustCompile(`\bflow ?charts?\b|\bflow diagram\b|\bdecision (?:tree|chart|diagram|flow)s?\b|\byes ?/ ?no (?:chart|tree|diagram|flow)s?\b`),
		Fits:  func(p string) bool { return flowTree(p) != nil },
		Slots: []string{"the first question", "answers (yes/no or labelled) in order", "questions (diamonds)", "outcomes (boxes)"}, Keeps: true, build: (*genreFill).flowchart,
		Example: `Recycling flowchart. Start: 'Can it go in the green bin?' → yes: 'Green bin'; no: 'Is it food?' → yes: 'Food caddy', no: 'General waste'`,
		Shows:   []string{"Can it go in the green bin?", "Green bin", "Is it food?", "Food caddy", "General waste", "Yes", "No"}},
	{Name: "steps timeline", Cues: regexp.MustCompile(datedTimelineRE.String() + `|\b(?:\d|two|three|four|five|six)\s+(?:easy\s+|simple\s+)?steps\b|\bsteps?\b[^.]*\b(?:1|first)\b|\bsteps\s*:|\btimeline\b|\broadmap\b|\bstep[- ]by[- ]step\b[^.]*\b1\b|\bhow it works\b|\bmilestones\b|\b(?:order|delivery|shipping|package|parcel|application|claim|progress) (?:tracking|tracker|status)\b|\b(?:\d|two|three|four|five|six)\s+(?:stops|stages|phases)\b|\b(?:stops|stages|phases)\s*:`),
		Slots: []string{"steps in order", "line colour"}, build: (*genreFill).steps,
		Example: `Step-by-step timeline of ordering: 1 Pick a plan, 2 Add your address, 3 Enjoy your first box`,
		Shows:   []string{"Pick a plan", "Add your address", "Enjoy your first box", "1", "2", "3"}},
	{Name: "comparison table", Cues: regexp.MustCompile(`\bcompar\w*\b[^.]*\b(?:plans?|tiers?|pricing|features?)\b|\b(?:plans?|tiers?|pricing|features?)\b[^.]*\bcompar\w*|\bpricing table\b|\bfeature (?:table|matrix)\b`),
		Slots: []string{"columns: names and prices", "rows: features", "ticks and crosses", "highlighted column"}, build: (*genreFill).comparisonTable,
		Example: `Pricing comparison: Starter at $9/month and Team at $29/month, rows for Projects, Sharing and Analytics; Starter gets ticks on the first two, Team gets ticks on all three`,
		Shows:   []string{"Starter", "$9/month", "Team", "$29/month", "Projects", "Sharing", "Analytics"}},
	{Name: "matchup", Cues: regexp.MustCompile(`\bvs\.?(?:\s|$)|\bversus\b|\bv\. `), Unless: regexp.MustCompile(`\bbefore\b.*\bafter\b`),
		Fits:  func(p string) bool { return sidesRE.MatchString(p) },
		Slots: []string{"left side", "right side", "badges", "VS", "date, time and venue", "title"}, build: (*genreFill).matchup,
		Example: `Game day graphic: Riverside Hawks vs. Lakeview Owls, Saturday Nov 8, 2:00 PM at Kingston Park. Red and black.`,
		Shows:   []string{"RIVERSIDE HAWKS", "LAKEVIEW OWLS", "VS", "Kingston Park"}},
	// "Side by side" and "comparison" alone are two states only when the prompt does not
	// list three figures or more (heights to scale, prices): that is data.
	// "Before" and "after" as labels ("a cluttered desk before, a tidy one after"), not
	// as words of time ("the cubs hesitate before jumping after her").
	{Name: "before after", Cues: regexp.MustCompile(`\bbefore[ /&-]+(?:and\s+)?after\b|\bbefore\s*[:,;(—–]|\bcomparison\b|\bside[- ]by[- ]side\b`),
		Unless: regexp.MustCompile(`\bto scale\b|(?:\d[^,;.]*[,;][^,;.]*){2}\d`),
		Slots:  []string{"left label", "right label", "left drawing", "right drawing", "wipe handle"}, build: (*genreFill).beforeAfter,
		Example: `Before and after comparison: a cluttered desk before, a tidy desk with a plant after, with a handle wiping across`,
		Shows:   []string{"BEFORE", "AFTER"}},
	{Name: "map pin", Cues: regexp.MustCompile(`\bmap\b|\blocation pin\b|\bmap pin\b|\bpin drops?\b|\bdrops? a pin\b|\bdirections to\b|\bfind us at\b`),
		Slots: []string{"place name", "address", "pin colour"}, build: (*genreFill).mapPin,
		Example: `Map animation: a pin drops on the map and the label "Blue Door Bakery, 4 Mill Lane" pops up`,
		Shows:   []string{"Blue Door Bakery, 4 Mill Lane"}},
	{Name: "event invite", Cues: regexp.MustCompile(`\binvit\w+\b|\bsave the date\b|\brsvp\b|\byou(?:'re| are) invited\b|\bjoin us\b`),
		Slots: []string{"event", "date", "time", "venue", "decoration"}, build: (*genreFill).invite,
		Example: `An invitation to Leo's 40th birthday party, Friday March 3 at 8pm, Rooftop Bar, with balloons`,
		Shows:   []string{"Friday March 3 · 8pm", "Rooftop Bar"}},
	// A page of one date needs the date: "calendar sync" in a feature list, or a month
	// filling day by day, is not one page.
	{Name: "calendar date", Cues: regexp.MustCompile(`\bcalendar\b|\bdate (?:card|reveal|announcement)\b|\bmark your calendars?\b`),
		Fits:  func(p string) bool { return dateRE.MatchString(p) },
		Slots: []string{"month", "day", "event"}, build: (*genreFill).calendar,
		Example: `A calendar page flips to October 12 with the words "Launch day"`,
		Shows:   []string{"OCT", "12", "Launch day"}},
	{Name: "goal progress", Cues: regexp.MustCompile(`\bfundrais\w*|\bdonations?\b|\bcrowdfund\w*|\bgoal\b[^.]*\b(?:raised|reached|collected)\b|\b(?:raised|collected)\b[^.]*\b(?:goal|target)\b|\bthermometer\b[^.]*\b(?:goal|target|raised)\b`),
		Also:  regexp.MustCompile(`[$€£]\s?\d|\d[\d,]*\s?(?:dollars|euros|pounds)`),
		Slots: []string{"who it is for", "raised", "goal", "thermometer or bar", "fill colour"}, build: (*genreFill).goal,
		Example: `Fundraiser for Hillside Library: we've raised $3,200 of our $5,000 goal, a thermometer filling up in green`,
		Shows:   []string{"Hillside Library", "$0→3,200", "of $5,000 goal"}},
	{Name: "loading progress", Cues: regexp.MustCompile(`\bloading (?:bar|screen)\b|\bprogress bar\b|\buploading\b|\binstalling\b|\bloading\b.*\d+\s?%|\b0\s*(?:%|percent)?\s*to\s*100\b`),
		Slots: []string{"percent", "label", "done colour", "done check"}, build: (*genreFill).loading,
		Example: `A progress bar fills from 0 to 100% while "Uploading" shows above it, then turns green with a check`,
		Shows:   []string{"Uploading", "0→100%"}},
	{Name: "logo reveal", Cues: regexp.MustCompile(`\blogo (?:reveal|sting|ident)\b|\breveal (?:of )?(?:our|the|a|my) (?:new )?logo\b|\bwordmark\b|\blogotype\b`),
		Slots: []string{"mark: the named drawing, else initials", "name (quote, wordmark, or who it is for)", "tagline", "mark colour"}, build: (*genreFill).logoReveal,
		Example: `Logo reveal for Harbor Coffee Co.: an anchor draws itself line by line, then the wordmark slides out to its right with the tagline 'Roasted by the sea'`,
		Shows:   []string{"Harbor Coffee Co.", "Roasted by the sea"}},
	{Name: "product showcase", Cues: regexp.MustCompile(`\bproduct\b.*\bteaser\b|\bteaser\b.*\bproduct\b|\bproduct (?:reveal|showcase|shot|spot|video|launch)\b|\bunboxing\b|\bintroducing (?:our|the|a) new\b|\b(?:launch|reveal|teaser) (?:of|for) (?:our|the) new\b`),
		Slots: []string{"the product's drawing", "name", "tagline", "price", "spotlight colour"}, build: (*genreFill).productShowcase,
		Example: `Product teaser for our new wireless speaker 'Boom Mini': it rises into view on a teal glow, then the tagline 'Big sound, small box' and the price $49`,
		Shows:   []string{"Boom Mini", "Big sound, small box", "$49"}},
	{Name: "chapter title", Cues: regexp.MustCompile(`\bchapter\b|\bepisode\b|\bpart (?:one|two|three|\d)\b|\bact (?:one|two|three|i+)\b`),
		Slots: []string{"chapter", "title", "backdrop"}, Backdrop: true, build: (*genreFill).chapterTitle,
		Example: `Chapter title: "Chapter Two — Into the Woods" over a dark background`,
		Shows:   []string{"CHAPTER TWO", "Into the Woods"}},
	{Name: "title card", Cues: regexp.MustCompile(`\btitle (?:card|screen|sequence)\b|\bopening titles?\b|\bintro title\b|\btitle slide\b|\bstarting soon\b|\bbe right back\b|\bbrb\b|\bintermission\b|\bstream (?:is )?(?:starting|ending|offline)\b|\bholding (?:screen|slide)\b`),
		Slots: []string{"title", "subtitle"}, Backdrop: true, build: (*genreFill).titleCard,
		Example: `A title card that reads "The Quiet Coast" with the subtitle "A film by Ana Ruiz"`,
		Shows:   []string{"The Quiet Coast", "A film by Ana Ruiz"}},
	// The effect on a name that no layout above asks for; a title card, chapter title or
	// logo reveal asked with its words wears it as a look instead.
	{Name: "glitch intro", Cues: glitchCueRE, Also: glitchAlsoRE,
		Fits: func(p string) bool {
			return quoteCount(p) > 0 || properRE.MatchString(p) || capsNameRE.MatchString(effectFreeCaps(p))
		},
		Slots: []string{"name (the brand, a quote or a name in capitals)", "tagline, typed after", "text colour"}, Keeps: true, build: (*genreFill).glitchIntro,
		Example: `Glitch intro for my gaming channel NULLSHIFT: the name appears with an RGB split, scanlines and noise bursts, then snaps clean and the tagline "Play. Break. Repeat." types out`,
		Shows:   []string{"NULLSHIFT", "Play. Break. Repeat."}},
	// The last row: a prompt that lists what the screen must say (codes, names, times)
	// gets those lines on a card, whatever the format is called.
	{Name: "fact card", Cues: regexp.MustCompile(`.`), Unless: regexp.MustCompile(`\bcharts?\b|\bgraphs?\b|\bbar (?:chart|graph)s?\b|\bbars (?:grow|rise|fill|go up|climb)\w*|\b(?:as|in|with|into)\s+(?:\w+\s+)?bars\b|\b(?:horizontal|vertical)\s+bars?\b|\bpie\b|\bheights?\b|\bto scale\b`),
		Fits:  func(p string) bool { return len(facts(p)) >= 3 },
		Slots: []string{"title", "facts (label and value)"}, Clears: true, build: (*genreFill).factCard,
		Example: `Boarding pass card showing Flight BA 117, London LHR → New York JFK, 12 Mar, Gate B32, Seat 14C`,
		Shows:   []string{"Gate", "B32", "14C", "BA 117"}},
}

// Genre is one row of the genre table as others read it (explain, tests, docs).
type Genre struct {
	Name    string
	Slots   []string
	Example string
	Shows   []string
}

// Genres lists the genre table's rows, in the order they are tried.
func Genres() []Genre {
	out := make([]Genre, len(genres))
	for i, g := range genres {
		out[i] = Genre{Name: g.Name, Slots: g.Slots, Example: g.Example, Shows: g.Shows}
	}
	return out
}

// cueText is the prompt as the genre table's cues read it: a quoted sentence (four words
// or more) is words to show, not a request ("Say yes to the invite you almost ignored"
// asks for no invitation), while a short quote may name the layout ("a 'Starting soon'
// screen").
func cueText(prompt string) string {
	return quoteRE.ReplaceAllStringFunc(prompt, func(m string) string {
		if len(strings.Fields(m)) >= 4 {
			return " «q» "
		}
		return m
	})
}

// detectGenre returns the genre table's row for a prompt, or nil.
func detectGenre(prompt string) *genreRow {
	low, _ := maskPurpose(strings.ToLower(cueText(ratioRE.ReplaceAllString(prompt, ""))))
	if kind, _ := namedChart(prompt); kind != "" {
		// A chart named by its shape is that chart, drawn from its data: the words of the
		// data are no layout's cue ("+€3.1M price increases" is no price tag).
		return nil
	}
	for i := range genres {
		g := &genres[i]
		if g.Cues.MatchString(low) && (g.Also == nil || g.Also.MatchString(low)) && (g.Unless == nil || !g.Unless.MatchString(low)) && strings.Count(prompt, "«q")+quoteCount(prompt) >= g.MinQuotes && (g.Fits == nil || g.Fits(prompt)) {
			return g
		}
	}
	return nil
}

// noteWordRE is the word a note about a missing drawing quotes.
var noteWordRE = regexp.MustCompile(`[“"]([^”"]+)[”"]`)

// layoutWord reports whether a note about a missing drawing names the layout itself
// (a cue of the row, "flashcard", "lineup") or a word of the row's own example ("a
// Python function" for the code editor, "election" for the seat chart): the layout
// shows what it means, so nothing is missing. So is a word of the words the row's cue
// matched in the prompt ("soil" of "soil layers").
func (g *genreRow) layoutWord(note, prompt string) bool {
	m := noteWordRE.FindStringSubmatch(note)
	if m == nil || g.Cues.String() == "." {
		return false
	}
	w := strings.ToLower(m[1])
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(w) + `\b`)
	for _, cue := range g.Cues.FindAllString(strings.ToLower(prompt), -1) {
		if word.MatchString(cue) {
			return true
		}
	}
	return g.Cues.MatchString(w) || word.MatchString(strings.ToLower(g.Example))
}

// quoteWords is the length in words of the prompt's longest quote.
func quoteWords(prompt string) int {
	n := 0
	for _, q := range regexp.MustCompile(`["“][^"”]+["”]`).FindAllString(prompt, -1) {
		n = max(n, len(strings.Fields(q)))
	}
	return n
}

// quoteCount counts the quoted texts of a prompt ('…', "…", “…”).
func quoteCount(prompt string) int {
	return len(regexp.MustCompile(`["“][^"”]+["”]|(?:^|\s)'[^']+'`).FindAllString(prompt, -1))
}

// genreFill builds a layout into the composer's description.
type genreFill struct {
	c      *composer
	b      *brief
	low    string
	prompt string
	used   map[int]bool // quotes the layout placed
	// t: entry starts, in: entry ends, out: the exit begins, end: the video ends.
	t, in, out, end float64
	accent, ink     string // the prompt's first colour (or the style's), text colour
	panel           string // colour of cards and bars
	n               int
}

// layGenre builds the layout of row g; it replaces the composer's subjects and texts,
// except the prompt's drawings the layout did not use, which stand behind it.
func (c *composer) layGenre(row *genreRow) *genreFill {
	prompt := ratioRE.ReplaceAllString(c.b.Prompt, "")
	g := &genreFill{c: c, b: c.b, low: strings.ToLower(prompt), prompt: prompt, used: map[int]bool{}}
	g.end = c.bd.Total
	g.t = 0.1
	g.in = math.Min(1.2, g.end*0.2)
	g.out = g.end - math.Min(0.8, g.end*0.12)
	g.accent, g.panel = layoutColors(c.b, c.bd.Palette, c.bd.Base) // palette.go
	g.ink = c.bd.Palette.Text
	var finale []string
	if !row.Keeps {
		finale = g.finales()
	}
	if len(finale) > 0 {
		// The layout plays out first and steps back; the last words take the stage.
		g.out = math.Max(g.in+1.5, g.end*0.68)
	}
	if row.Backdrop {
		g.backdrop()
	}
	row.build(g)
	g.nest()
	for k, q := range finale {
		e := g.text(q, 0, 0.0+0.16*float64(k), fit(q, 1.6, 0.09), g.ink, 900)
		e.In = ""
		at := g.out + 0.25
		if row.Clears {
			at = g.out + 0.5
		}
		g.enter(e, "pop", at+0.3*float64(k), 0.6)
		for _, o := range g.c.d.Elements {
			if o != e && o.Type != scene.TypeParticles && !strings.HasPrefix(o.ID, "text-finale") {
				if tr := o.Tracks["opacity"]; len(tr) > 0 && tr[len(tr)-1].T >= g.out {
					tr[len(tr)-1].V = 0.15 // the layout fades back behind the finale
					if row.Clears {
						tr[len(tr)-1].V, tr[len(tr)-1].T = 0, g.out+0.45
					}
				}
			}
		}
		e.ID = "text-finale-" + strconv.Itoa(k+1)
	}
	// A slow push keeps every hold alive without moving the words.
	c.cmove("zoom", 0, g.end, 1.035, "easeInOutSine")
	return g
}

// comesLast reports whether the prompt puts a thing at the video's end ("confetti at
// the end", "then fireworks", "finally, sparkles").
func comesLast(prompt, noun string) bool {
	n := regexp.QuoteMeta(strings.ToLower(noun))
	// A burst after what leads to it ("drops in and a tiny confetti burst goes off",
	// "lands on FREE CANDLE and confetti pops") is a moment at the end too.
	return regexp.MustCompile(`\b(?:then|finally|ends? with|in the end)\b[^.;]{0,40}\b` + n + `|\b` + n + `\b[^.;]{0,30}\b(?:at the end|to finish|at the finish)\b` +
		`|\band\s+(?:a\s+)?(?:\w+\s+)?` + n + `\s+(?:burst\s+)?(?:pops|bursts|goes off|explodes|erupts)\b`).MatchString(strings.ToLower(prompt))
}

// firstColor is the first colour the prompt asks for that is not the background.
func firstColor(b *brief) string {
	for _, c := range b.Colors {
		if c != b.Background && c != b.Background2 {
			return c
		}
	}
	return ""
}

// ---- slots --------------------------------------------------------------------------

// quote returns the i-th quoted text not yet placed, or def.
func (g *genreFill) quote(def string) string {
	for i, q := range g.b.Texts {
		if !g.used[i] {
			g.used[i] = true
			return q
		}
	}
	return def
}

// fit is a font size no larger than size at which s fits in width (sizes): a letter
// is about 0.55 of the font size wide, and the runtime wraps what is still too long.
func fit(s string, width, size float64) float64 {
	n := float64(len([]rune(s)))
	if n == 0 {
		return size
	}
	return round3(math.Max(size*0.45, math.Min(size, width/(0.55*n))))
}

// rest takes every quote not yet placed, in order.
func (g *genreFill) rest() []string {
	var out []string
	for q := g.quote(""); q != ""; q = g.quote("") {
		out = append(out, q)
	}
	return out
}

// longestQuote takes the longest quote not yet placed: of "the 'Nimbus 2' headphones,
// quote 'Best noise cancelling…'" the review is the long one, the name the short.
func (g *genreFill) longestQuote() string {
	best := -1
	for i, q := range g.b.Texts {
		if !g.used[i] && (best < 0 || len(q) > len(g.b.Texts[best])) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	g.used[best] = true
	return g.b.Texts[best]
}

// finaleRE: words the prompt shows after the rest ("then 'Doors Open' appears").
var finaleRE = regexp.MustCompile(`(?i)(?:\bthen|\bfinally|\bafterwards?|\bat the end|\bends? (?:with|on)|\bafter (?:the|that|this|it|all|everything)\b[^.;"“]{0,30}?)\W+(?:(?:the|a|an)\s+)?(?:(?:words?|text|title|tagline|slogan|caption|message|line)\s+)?["“'‘]?$`)

// placedUnderRE: words after a quote that place it beside the layout's other text
// ("underneath", "below it"), so it is part of the layout, not a finale after it.
var placedUnderRE = regexp.MustCompile(`(?i)^["”'’]?\s*(?:appears\s+|fades in\s+|is\s+)?(?:underneath|beneath|below|under (?:it|that|the quote)|next to it|beside it)\b`)

// finales marks the quotes the prompt says come last; the layout leaves room for them.
func (g *genreFill) finales() []string {
	var out []string
	for i, q := range g.b.Texts {
		at := strings.Index(g.prompt, q)
		if at < 1 || g.used[i] {
			continue
		}
		before, after := g.prompt[:at], g.prompt[at+len(q):]
		if placedUnderRE.MatchString(after) {
			continue // "then '- Arthur Ashe' underneath": a line of the layout, placed under another
		}
		if finaleRE.MatchString(strings.TrimRight(before, "\"“'‘ ")) || finaleRE.MatchString(before) {
			g.used[i] = true
			out = append(out, q)
		}
	}
	return out
}

// consume marks the quotes that say s as placed (a price read from the prompt that
// was also quoted is not shown twice).
func (g *genreFill) consume(ss ...string) {
	for i, q := range g.b.Texts {
		for _, s := range ss {
			if s != "" && strings.EqualFold(strings.TrimSpace(q), strings.TrimSpace(s)) {
				g.used[i] = true
			}
		}
	}
}

// names are the proper names of the prompt outside quotes ("Dr. Imani Okafor"), in
// order, without the words a sentence starts with or that name a day or month.
func (g *genreFill) names() []string {
	var out []string
	for _, m := range properRE.FindAllString(g.prompt, -1) {
		if strings.Contains(m, "«") || weekdayRE.MatchString(m) {
			continue
		}
		ws := strings.Fields(m)
		if genreCommon[strings.ToLower(ws[0])] {
			if len(ws) < 3 {
				continue
			}
			m = strings.Join(ws[1:], " ")
		}
		if !containsStr(g.b.Texts, m) {
			out = append(out, m)
		}
	}
	return out
}

// genreCommon are capitalised words that open sentences, not names.
var genreCommon = map[string]bool{"a": true, "an": true, "the": true, "our": true, "my": true, "show": true,
	"make": true, "create": true, "animated": true, "animate": true, "vertical": true, "square": true,
	"lower": true, "breaking": true, "news": true, "end": true, "chapter": true, "title": true, "map": true,
	"weather": true, "testimonial": true, "review": true, "social": true, "step": true, "before": true,
	"kpi": true, "instagram": true, "youtube": true, "tiktok": true, "phone": true, "app": true}

// name is the first quote, else the first proper name, else def.
func (g *genreFill) name(def string) string {
	if q := g.quote(""); q != "" {
		return q
	}
	if ns := g.names(); len(ns) > 0 {
		return ns[0]
	}
	return def
}

// after returns the words after a cue ("the role Chief Epidemiologist, Lakeshore"),
// up to the end of the clause.
func (g *genreFill) after(cue string) string {
	re := regexp.MustCompile(`(?i)\b` + cue + `\s+(?:is\s+|of\s+|reading\s+|saying\s+)?["“']?([^"”.;!?]{2,60})`)
	if m := re.FindStringSubmatch(g.prompt); m != nil {
		return strings.TrimSpace(strings.TrimRight(m[1], ",'’"))
	}
	return ""
}

// ---- parts --------------------------------------------------------------------------

func (g *genreFill) id(kind string) string {
	g.n++
	return fmt.Sprintf("%s-%d", kind, g.n)
}

func (g *genreFill) add(e *scene.Element) *scene.Element {
	g.c.d.Elements = append(g.c.d.Elements, e)
	return e
}

// bar is a rounded rectangle h sizes high and w sizes wide, no wider than the frame's
// safe width (a vertical frame's shorter side is its width).
func (g *genreFill) bar(x, y, w, h float64, color string) *scene.Element {
	switch g.c.b.Aspect {
	case "portrait":
		w = math.Min(w, 0.84)
	case "square":
		w = math.Min(w, 0.88)
	default:
		w = math.Min(w, 1.65)
	}
	return g.add(&scene.Element{ID: g.id("panel"), Type: scene.TypeRect, X: round3(x), Y: round3(y),
		Size: round3(h / 2), Aspect: round3(w / h), Color: color})
}

// solid is a colour white words read on (4.5:1), darkened from c as far as needed.
func solid(c string) string {
	for k := 0; k < 10 && contrast(c, "#ffffff") < 4.6; k++ {
		c = darken(c, 0.1)
	}
	return c
}

func (g *genreFill) text(s string, x, y, size float64, color string, weight int) *scene.Element {
	return g.add(&scene.Element{ID: g.id("text"), Type: scene.TypeText, Text: s, X: round3(x), Y: round3(y),
		Size: round3(size), Color: color, Weight: weight, Reveal: g.c.sp.Reveal})
}

// drawing is the library's drawing of a phrase, or nil when it has none.
func (g *genreFill) drawing(phrase string, x, y, size float64) *scene.Element {
	m, ok := assets.Find(phrase)
	if !ok {
		return nil
	}
	return g.add(&scene.Element{ID: g.id(slug(phrase)), Type: scene.TypeAsset, Label: phrase, Asset: m.ID,
		X: round3(x), Y: round3(y), Size: round3(size)})
}

// entryFrom is where a sliding entrance starts, by the side it comes from (frame units
// off the element's place).
var entryFrom = map[string]pose{"left": {-0.35, 0}, "right": {0.35, 0}, "down": {0, -0.3}, "up": {0, 0.3}}

// enter animates e in from t for dur seconds: "fade", "left" (slides in from the left),
// "right", "down" (drops from above), "up" (rises from below) or "pop" (scales up).
func (g *genreFill) enter(e *scene.Element, how string, t, dur float64) {
	tr := trackOf(e)
	ease := g.c.sp.Entry
	key(tr, "opacity", 0, 0, "")
	key(tr, "opacity", t, 0, "")
	key(tr, "opacity", t+dur*0.6, 1, "easeOutCubic")
	if e.Type == scene.TypeText && e.Reveal == "words" {
		// Asked word by word: the words come one after another, about three a second.
		n := float64(len(strings.Fields(e.Text)))
		key(tr, "progress", 0, 0, "")
		key(tr, "progress", t, 0, "")
		key(tr, "progress", t+math.Max(dur, 0.35*n), 1, "linear")
	}
	if off, ok := entryFrom[how]; ok {
		g.c.motion(e, scene.Motion{Type: scene.MotionSlide, Start: t, End: t + dur, Ease: ease, FromX: off.X, FromY: off.Y})
	} else if how == "pop" {
		key(tr, "scale", 0, 0.3, "")
		key(tr, "scale", t, 0.3, "")
		key(tr, "scale", t+dur, 1, "easeOutBack")
	}
}

// grow shows e at t and grows its prop ("sx", "sy", "progress") from nothing to whole
// over dur: a connector or an arrow drawing itself, a portrait turning in.
func grow(e *scene.Element, prop string, t, dur float64, ease string) {
	tr := trackOf(e)
	key(tr, "opacity", 0, 0, "")
	key(tr, "opacity", t, 0, "")
	key(tr, "opacity", t+0.05, 1, "")
	key(tr, prop, 0, 0, "")
	key(tr, prop, t, 0, "")
	key(tr, prop, t+dur, 1, ease)
}

// progress plays e's progress (a counter counting, a bar filling, a ring draining from
// full when down) from t0 to t1.
func (g *genreFill) progress(e *scene.Element, t0, t1 float64, down bool) {
	tr := trackOf(e)
	from, to := 0.0, 1.0
	if down {
		from, to = 1, 0
	}
	key(tr, "progress", 0, from, "")
	key(tr, "progress", t0, from, "")
	key(tr, "progress", t1, to, "easeInOutSine")
}

// nest puts each part that sits on a card, bar or bubble in it (scene.Element.In), so
// the critic reads a name on its bar as meant, not as an overlap.
func (g *genreFill) nest() {
	els := g.c.d.Elements
	for i, e := range els {
		if e.In != "" || e.Type == scene.TypeParticles {
			continue
		}
		for k := i - 1; k >= 0; k-- {
			p := els[k]
			if p.Type != scene.TypeRect || p == e {
				continue
			}
			hw, hh := g.c.xUnits(p.Size*math.Max(p.Aspect, 0.01)), g.c.yUnits(p.Size)
			if p.Aspect == 0 {
				hw = g.c.xUnits(p.Size)
			}
			if math.Abs(e.X-p.X) <= hw && math.Abs(e.Y-p.Y) <= hh {
				e.In = p.ID
				break
			}
		}
	}
}

// leave plays the exit: the layout settles back and dims a little, so the last frame
// still shows it (a video never ends on an empty background).
func (g *genreFill) leave(es ...*scene.Element) {
	for _, e := range es {
		tr := trackOf(e)
		key(tr, "opacity", g.out, value(tr, "opacity", 1), "")
		key(tr, "opacity", g.end, 0.85, "easeInOutCubic")
		key(tr, "scale", g.out, value(tr, "scale", 1), "")
		key(tr, "scale", g.end, 0.97, "easeInOutCubic")
	}
}

// stagger is when the k-th of n parts enters, spread over the entry and early hold.
func (g *genreFill) stagger(k, n int) float64 {
	span := math.Min(g.out-g.in, (g.out-g.t)*0.55)
	return g.t + span*float64(k)/float64(max(n, 1))
}

// behind draws the prompt's drawings that act (a clause gives them a verb) and the
// layout did not use, small, in free space (top), so a layout shares the frame with
// what else was asked ("while a globe spins behind it"). A noun that only names a slot
// ("the role", "a navy bar") is no such drawing.
func (g *genreFill) behind(skip ...string) {
	k := 0
	for i, s := range g.b.Subjects {
		if s.Asset == "" || containsStr(skip, s.Asset) || k >= 2 || !g.acts(i) {
			continue
		}
		e := g.add(&scene.Element{ID: g.id(slug(s.Noun)), Type: scene.TypeAsset, Label: s.Noun, Asset: s.Asset,
			X: round3(0.55 - 1.1*float64(k)), Y: -0.5, Size: 0.13, Tint: s.Color})
		g.enter(e, "pop", g.in, 0.6)
		g.c.motion(e, scene.Motion{Type: scene.MotionFloat, Start: g.in, End: g.end, Amp: 0.03, Count: 2})
		k++
	}
}

// acts reports whether some clause gives subject i an action of its own.
func (g *genreFill) acts(i int) bool {
	for _, bt := range g.b.Beats {
		if len(bt.Actions) > 0 && containsInt(bt.Subjects, i) && !containsInt(bt.Places, i) {
			return true
		}
	}
	return false
}

// backdrop adds two large soft discs in opposite corners that swell in and circle
// slowly behind a layout of words.
func (g *genreFill) backdrop() {
	cols := append(append([]string(nil), g.b.Colors...), defaultSubjectColors[g.c.bd.Base]...)
	for i, pos := range []pose{{-0.72, -0.55}, {0.72, 0.55}} {
		e := g.add(&scene.Element{ID: fmt.Sprintf("accent-%d", i+1), Type: scene.TypeCircle, Label: "accent",
			X: pos.X, Y: pos.Y, Size: 0.34, Color: cols[i%len(cols)], Depth: 0.6})
		tr := trackOf(e)
		key(tr, "opacity", 0, 0, "")
		key(tr, "opacity", g.in, 0.2, "easeOutCubic")
		key(tr, "scale", 0, 0.4, "")
		key(tr, "scale", g.in, 1, "easeOutCubic")
		dir := 1.0 - 2*float64(i)
		g.c.motion(e, scene.Motion{Type: scene.MotionOrbit, Start: 0, End: g.end, Amp: 0.07 * dir, Count: math.Max(1, g.end/3)})
	}
}

// ---- layouts ------------------------------------------------------------------------

func (g *genreFill) lowerThird() {
	name := g.name("Your Name")
	role := g.quote("")
	if role == "" {
		role = orDefault(g.after(`(?:role|title|job|as)`), "Title, Organisation")
	}
	barColor := orDefault(g.b.Background, g.panel)
	if len(g.b.Colors) > 0 {
		barColor = g.b.Colors[0]
	}
	accent := g.accent
	if len(g.b.Colors) > 1 {
		accent = g.b.Colors[1]
	} else if accent == barColor {
		accent = "#f59e0b"
	}
	ink := "#ffffff"
	if luminance(barColor) > 0.6 {
		ink = "#111827"
	}
	w := 0.95
	x := -1 + g.c.xUnits(w/2) + 0.1
	bar := g.bar(x, 0.62, w, 0.17, barColor)
	line := g.bar(x, 0.62-g.c.yUnits(0.085)+g.c.yUnits(0.008), w, 0.012, accent)
	nm := g.text(name, x, 0.58, 0.055, ink, 800)
	rl := g.text(role, x, 0.67, 0.032, lighten(ink, 0.1), 600)
	for k, e := range []*scene.Element{bar, line, nm, rl} {
		g.enter(e, "left", g.t+0.12*float64(k), 0.7)
	}
	g.leave(bar, line, nm, rl)
	g.behind()
}

// liveQuoteRE: a quoted line that is a live badge ("LIVE 14:32", "Live"); liveBadgeRE:
// the prompt asks for one without quoting it; lowerThirdRE: the graphic sits low.
var (
	liveQuoteRE  = regexp.MustCompile(`^(?i:live)\b`)
	liveBadgeRE  = regexp.MustCompile(`\blive (?:dot|badge|bug|indicator)\b|\bpulsing live\b`)
	lowerThirdRE = regexp.MustCompile(`\blower[- ]?thirds?\b|\bchyron\b|\bbottom of the (?:screen|frame)\b`)
)

func (g *genreFill) breakingNews() {
	word := "BREAKING NEWS"
	if m := regexp.MustCompile(`(?i)\b(breaking|live|update|alert)\b`).FindString(g.prompt); m != "" && !strings.EqualFold(m, "breaking") {
		word = strings.ToUpper(m)
	}
	// The banner word quoted ("BREAKING NEWS") is the banner's; a quoted "LIVE 14:32"
	// is the live badge's.
	g.consume(word)
	live := ""
	for i, q := range g.b.Texts {
		if !g.used[i] && liveQuoteRE.MatchString(q) {
			live, g.used[i] = q, true
		}
	}
	if live == "" && liveBadgeRE.MatchString(g.low) {
		live = "LIVE"
	}
	headline := g.longestQuote()
	if headline == "" {
		headline = "Headline"
	}
	ticker := g.quote("")
	if ticker == "" && regexp.MustCompile(`\bticker\b|\bcrawl\b|\bscroll`).MatchString(g.low) {
		ticker = strings.ToUpper(word) + " · " + headline
	}
	red := "#dc2626"
	for _, c := range g.b.Colors {
		if hueFamily(c) == "red" {
			red = c
		}
	}
	// Centred as a full-frame graphic, or in the lower third when the prompt asks for
	// one: the banner over the headline's bar, the ticker along the bottom edge.
	bannerY, panelY, tickerY, hlSize := -0.32, 0.05, 0.78, 0.06
	if lowerThirdRE.MatchString(g.low) {
		bannerY, panelY, tickerY, hlSize = 0.28, 0.6, 0.91, 0.042
	}
	banner := g.bar(-0.35, bannerY, 0.55, 0.1, solid(red))
	bw := g.text(word, -0.35, bannerY, 0.045, "#ffffff", 900)
	panel := g.bar(0, panelY, 1.5, 0.2, "#0f172a")
	hl := g.text(headline, 0, panelY, fit(headline, 1.4, hlSize), "#ffffff", 800)
	g.enter(banner, "left", g.t, 0.5)
	g.enter(bw, "left", g.t+0.1, 0.5)
	g.enter(panel, "up", g.t+0.3, 0.6)
	g.enter(hl, "fade", g.t+0.5, 0.6)
	parts := []*scene.Element{banner, bw, panel, hl}
	if live != "" {
		// The live badge in the top right corner: a red dot breathing beside its words.
		lx := 1 - g.c.xUnits(0.2)
		dot := g.add(&scene.Element{ID: g.id("live-dot"), Type: scene.TypeCircle, Label: "live dot", X: round3(lx - g.c.xUnits(0.13)), Y: -0.8, Size: 0.014, Color: "#ef4444"})
		lt := g.text(live, round3(lx), -0.8, 0.03, g.ink, 800)
		g.enter(dot, "pop", g.t+0.2, 0.4)
		g.enter(lt, "fade", g.t+0.2, 0.4)
		g.c.motion(dot, scene.Motion{Type: scene.MotionPulse, Start: g.in, End: g.end, Amp: 0.35, Count: math.Max(2, math.Round((g.end-g.in)/0.8))})
		parts = append(parts, dot, lt)
	}
	if ticker != "" {
		strip := g.bar(0, tickerY, 4, 0.09, "#111827")
		tt := g.text(ticker, 0.2, tickerY, 0.032, "#facc15", 700)
		g.enter(strip, "up", g.in, 0.5)
		g.enter(tt, "fade", g.in+0.2, 0.4)
		key(trackOf(tt), "x", g.in, 0.5, "")
		key(trackOf(tt), "x", g.end, -0.5, "linear")
		parts = append(parts, strip, tt)
	}
	g.c.motion(banner, scene.Motion{Type: scene.MotionPulse, Start: g.in, End: g.out, Amp: 0.04, Count: 3})
	g.leave(parts...)
	g.behind("fluent:broken-chain")
}

// forecastDay is one day of a forecast.
type forecastDay struct {
	day, cond string
	temp      string
}

var conditionDrawings = []struct {
	re    *regexp.Regexp
	asset string
}{
	{regexp.MustCompile(`thunder|storm|lightning`), "cloud with lightning and rain"},
	{regexp.MustCompile(`snow|sleet|flurr`), "cloud with snow"},
	{regexp.MustCompile(`rain|shower|drizzle|wet`), "cloud with rain"},
	{regexp.MustCompile(`partly|partially|sun and cloud|mixed`), "sun behind cloud"},
	{regexp.MustCompile(`cloud|overcast|grey|gray`), "cloud"},
	{regexp.MustCompile(`fog|mist|haz`), "fog"},
	{regexp.MustCompile(`wind|breez|gust`), "wind face"},
	{regexp.MustCompile(`sun|clear|bright|hot`), "sun"},
}

func (g *genreFill) forecast() {
	var days []forecastDay
	// Each weekday opens its day: the words up to the next weekday are its weather.
	locs := weekdayRE.FindAllStringIndex(g.prompt, -1)
	for i, l := range locs {
		endAt := len(g.prompt)
		if i+1 < len(locs) {
			endAt = locs[i+1][0]
		}
		seg := strings.ToLower(g.prompt[l[1]:endAt])
		d := forecastDay{day: g.prompt[l[0]:min(l[0]+3, l[1])]}
		for _, c := range conditionDrawings {
			if c.re.MatchString(seg) {
				d.cond = c.asset
				break
			}
		}
		if m := tempRE.FindStringSubmatch(seg); m != nil {
			d.temp = m[1] + "°"
		}
		days = append(days, d)
	}
	if len(days) == 0 {
		// No days named: as many as the prompt counts ("3-day"), today onwards.
		n := max(3, min(countDays(g.low), 7))
		for k := 0; k < n; k++ {
			days = append(days, forecastDay{day: []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}[k], cond: "sun"})
		}
		for k, m := range tempRE.FindAllStringSubmatch(g.low, -1) {
			if k < len(days) {
				days[k].temp = m[1] + "°"
			}
		}
	}
	days = days[:min(len(days), 7)]
	place := ""
	if m := regexp.MustCompile(`(?:forecast|weather)\s+(?:for|in)\s+([A-Z][\w’'-]+(?:\s[A-Z][\w’'-]+)?)`).FindStringSubmatch(g.prompt); m != nil {
		place = m[1]
	}
	title := g.text(orDefault(place, "Forecast"), 0, -0.62, 0.06, g.ink, 800)
	g.enter(title, "down", g.t, 0.6)
	parts := []*scene.Element{title}
	n := len(days)
	portrait := g.c.tall()
	for k, d := range days {
		x, y := (float64(k)-float64(n-1)/2)*math.Min(0.42, 1.7/float64(n)), 0.05
		if portrait && n >= 3 {
			x, y = 0, -0.42+0.9*float64(k)/float64(n-1)
		}
		card := g.bar(x, y, 0.27, 0.5, g.panel)
		if portrait && n >= 3 {
			card.Size, card.Aspect = 0.07, 6
		}
		cardInk := "#111827"
		if luminance(g.panel) < 0.5 {
			cardInk = "#ffffff"
		}
		dayT := g.text(d.day, x-boolf(portrait && n >= 3, 0.45), y-boolf(!(portrait && n >= 3), g.c.yUnits(0.17)), 0.035, cardInk, 700)
		var icon *scene.Element
		if d.cond != "" {
			icon = g.drawing(d.cond, x, y, 0.075)
		}
		tempT := g.text(orDefault(d.temp, "–"), x+boolf(portrait && n >= 3, 0.45), y+boolf(!(portrait && n >= 3), g.c.yUnits(0.16)), 0.045, cardInk, 800)
		at := g.stagger(k, n)
		for _, e := range []*scene.Element{card, dayT, icon, tempT} {
			if e != nil {
				g.enter(e, "pop", at, 0.5)
				parts = append(parts, e)
			}
		}
		if icon != nil {
			g.c.motion(icon, scene.Motion{Type: scene.MotionFloat, Start: at + 0.5, End: g.end, Amp: 0.015, Count: 2})
		}
	}
	g.leave(parts...)
}

func boolf(b bool, v float64) float64 {
	if b {
		return v
	}
	return 0
}

var dayCountRE = regexp.MustCompile(`\b(\d|two|three|four|five|six|seven)[\s-]+days?\b`)

func countDays(low string) int {
	if m := dayCountRE.FindStringSubmatch(low); m != nil {
		if v, ok := numberWords[m[1]]; ok {
			return int(v)
		}
		v, _ := strconv.Atoi(m[1])
		return v
	}
	return 3
}

// stars reads "4 out of 5 stars", "4.5/5", "five-star": the rating and the scale.
func stars(low string) (float64, int) {
	m := ratingRE2.FindStringSubmatch(low)
	if m == nil {
		return 5, 5
	}
	num := func(s string) float64 {
		if v, ok := numberWords[s]; ok {
			return v
		}
		v, _ := strconv.ParseFloat(s, 64)
		return v
	}
	if m[1] != "" {
		return num(m[1]), int(num(m[2]))
	}
	return num(m[3]), 5
}

func (g *genreFill) starRow(rating float64, outOf int, y, size float64, at float64) []*scene.Element {
	outOf = max(1, min(outOf, 10))
	gap := g.c.xUnits(size * 2.3)
	var out []*scene.Element
	gold := "#fbbf24"
	step := math.Min(0.3, (g.out-at)*0.5/float64(outOf))
	for k := 0; k < outOf; k++ {
		x := (float64(k) - float64(outOf-1)/2) * gap
		off := g.add(&scene.Element{ID: g.id("star-empty"), Type: scene.TypeStar, X: round3(x), Y: y, Size: size, Color: "#94a3b8"})
		g.enter(off, "fade", at-0.3, 0.3)
		out = append(out, off)
		if part := rating - float64(k); part > 0.25 {
			on := g.add(&scene.Element{ID: g.id("star"), Type: scene.TypeStar, Label: "star", X: round3(x), Y: y,
				Size: round3(size * 1.05), Color: gold, Glow: 0.3, In: off.ID})
			if part < 0.75 {
				// A half star: a smaller star, lit, inside the empty one.
				on.Size, on.Glow = round3(size*0.6), 0
			}
			g.c.motion(on, scene.Motion{Type: scene.MotionPop, Start: round3(at + step*float64(k)), End: g.end})
			out = append(out, on)
		}
	}
	return out
}

func (g *genreFill) review() {
	rating, outOf := stars(g.low)
	quote := g.longestQuote()
	names := g.names()
	card := g.bar(0, 0.05, 1.35, 0.66, g.panel)
	cardInk := "#111827"
	if luminance(g.panel) < 0.5 {
		cardInk = "#ffffff"
	}
	g.enter(card, "up", g.t, 0.6)
	parts := []*scene.Element{card}
	parts = append(parts, g.starRow(rating, outOf, -0.36, 0.055, g.in)...)
	if quote != "" {
		q := g.text("“"+quote+"”", 0, 0.1, fit(quote, 1.2, 0.045), cardInk, 700)
		g.enter(q, "fade", g.in+0.4, 0.8)
		parts = append(parts, q)
	}
	who := ""
	if m := regexp.MustCompile(`(?:by|from|reviewer(?: name)?|—|-)\s+([A-Z][\w’'-]+(?:\s[A-Z][\w’'.-]*)?)`).FindStringSubmatch(g.prompt); m != nil {
		who = m[1]
	} else if len(names) > 0 {
		who = names[len(names)-1]
	}
	if who != "" {
		w := g.text("— "+who, 0, 0.38, 0.032, cardInk, 600)
		g.enter(w, "fade", g.in+0.8, 0.6)
		parts = append(parts, w)
	}
	if len(names) > 0 && names[0] != who {
		biz := g.text(names[0], 0, -0.62, 0.05, g.ink, 800)
		g.enter(biz, "down", g.t, 0.6)
		parts = append(parts, biz)
	}
	label := g.text(strconv.FormatFloat(rating, 'f', -1, 64)+" / "+strconv.Itoa(outOf), 0, -0.14, 0.03, cardInk, 700)
	g.enter(label, "fade", g.in+0.2, 0.5)
	parts = append(parts, label)
	g.leave(parts...)
}

func (g *genreFill) testimonial() {
	quote := g.quote("What our customers say")
	who := ""
	// The one quoted is named after a dash with a capital ("— Priya Nair, Head of
	// Growth"); "quote card - soft beige background" is how the card looks, no one's name.
	if m := regexp.MustCompile(`(?:—|–|\s-\s)\s*([A-Z][^,.;"”]*(?:,\s*[^.;"”]+)?)`).FindStringSubmatch(g.prompt[strings.LastIndex(g.prompt, "»")+1:]); m != nil {
		who = strings.TrimSpace(m[1])
	} else if ns := g.names(); len(ns) > 0 {
		who = ns[0]
	}
	mark := g.text("“", 0, -0.45, 0.2, g.accent, 900)
	q := g.text(quote, 0, -0.08, 0.05, g.ink, 700)
	g.enter(mark, "pop", g.t, 0.6)
	g.enter(q, "fade", g.t+0.3, 1)
	parts := []*scene.Element{mark, q}
	if who != "" {
		// A quoted attribution ("\"- Arthur Ashe\"") is this line: not shown again.
		for i, q := range g.b.Texts {
			if !g.used[i] && strings.Contains(q, who) {
				g.used[i] = true
			}
		}
		w := g.text("— "+who, 0, 0.26, 0.033, lighten(g.ink, 0.1), 600)
		g.enter(w, "fade", g.in+0.5, 0.6)
		parts = append(parts, w)
	}
	if regexp.MustCompile(`\blogo\b`).MatchString(g.low) {
		logo := g.add(&scene.Element{ID: g.id("logo"), Type: scene.TypeLogo, X: 0, Y: 0.58, Size: 0.07, Color: g.accent,
			Text: initials(orDefault(firstWordsCap(who), "Logo"))})
		g.enter(logo, "pop", g.in+0.8, 0.5)
		parts = append(parts, logo)
	}
	g.leave(parts...)
}

// firstWordsCap is the organisation of "Priya Nair, Head of Growth at Lumen" (after
// "at"), else the person.
func firstWordsCap(who string) string {
	if _, org, ok := strings.Cut(who, " at "); ok {
		return strings.TrimSpace(org)
	}
	return who
}

// phone draws an upright phone and returns it with its screen.
func (g *genreFill) phone(screen string) (*scene.Element, *scene.Element) {
	w, h := 0.5, 0.95
	if g.c.tall() {
		w, h = 0.8, 1.25 // a vertical video is the phone's own shape: it fills it
	}
	body := g.bar(0, 0.05, w, h, "#111827")
	sc := g.bar(0, 0.05, w*0.9, h*0.92, screen)
	sc.In = body.ID
	return body, sc
}

func (g *genreFill) notification() {
	// The message is the longest quote; a shorter one is who sent it ("from 'Mom'").
	msg := g.longestQuote()
	if msg == "" {
		msg = g.after(`(?:saying|says|reads|reading)`)
	}
	sender := g.name("")
	app := "Messages"
	if m := regexp.MustCompile(`(?i)\b(?:from|in)\s+(?:the\s+)?([A-Z][\w-]+)\s+app\b`).FindStringSubmatch(g.prompt); m != nil {
		app = m[1]
	}
	at := math.Max(g.in, g.end*0.3)
	// On a phone when the prompt has one (a lock screen, a phone), else the card alone.
	k := 1.0
	var parts []*scene.Element
	if regexp.MustCompile(`\bphone\b|\block ?screen\b|\bhome ?screen\b|\biphone\b|\bandroid\b`).MatchString(g.low) {
		body, sc := g.phone(mix(g.accent, "#0f172a"))
		clock := g.text(timeOr(g.prompt, "9:41"), 0, -0.35, 0.06, "#ffffff", 300)
		g.enter(body, "up", g.t, 0.6)
		g.enter(sc, "up", g.t, 0.6)
		g.enter(clock, "fade", g.t+0.3, 0.5)
		g.c.motion(body, scene.Motion{Type: scene.MotionWiggle, Start: at + 0.45, End: at + 0.9, Amp: 3, Count: 3})
		parts = append(parts, body, sc, clock)
	} else {
		k, at = 2, g.t
	}
	if g.c.tall() {
		k *= 1.6
	}
	card := g.bar(0, -0.18, 0.42*k, 0.16*k, "#f8fafc")
	card.Depicts = "notification card"
	icon := g.drawing("speech balloon", -g.c.xUnits(0.16*k), -0.2, 0.025*k)
	msg = orDefault(msg, "New message")
	top := g.text(orDefault(sender, app), 0, -0.18-0.04*k, 0.022*k, "#111827", 800)
	line := g.text(msg, 0, -0.18+0.03*k, fit(msg, 0.38*k, 0.018*k), "#334155", 600)
	for _, e := range []*scene.Element{card, icon, top, line} {
		if e != nil {
			g.enter(e, "down", at, 0.5)
			e.In = card.ID
			parts = append(parts, e)
		}
	}
	card.In = ""
	g.leave(parts...)
}

func timeOr(prompt, def string) string {
	if m := timeOfDay.FindString(prompt); m != "" {
		return m
	}
	return def
}

func (g *genreFill) badgeCounter() {
	from, to := 1.0, 9.0
	if m := countUpRE.FindStringSubmatch(g.low); m != nil {
		from, _ = strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
		to, _ = strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
	} else if len(g.b.Numbers) > 0 {
		to = g.b.Numbers[len(g.b.Numbers)-1]
		from = 0
	}
	what := "envelope"
	for _, s := range g.b.Subjects {
		if s.Asset != "" && !strings.Contains(s.Noun, "badge") {
			what = s.Noun
			break
		}
	}
	if strings.Contains(g.low, "mail") {
		what = "envelope"
	}
	tile := g.bar(0, 0.05, 0.42, 0.42, orDefault(firstColor(g.b), "#3b82f6"))
	if hueFamily(tile.Color) == "red" {
		tile.Color = "#3b82f6"
	}
	icon := g.drawing(what, 0, 0.05, 0.14)
	if icon != nil {
		icon.In = tile.ID
	}
	badge := g.add(&scene.Element{ID: g.id("badge"), Type: scene.TypeCircle, X: round3(g.c.xUnits(0.2)), Y: -0.33, Size: 0.075, Color: solid("#ef4444"), In: tile.ID})
	count := g.add(&scene.Element{ID: g.id("count"), Type: scene.TypeCounter, X: badge.X, Y: -0.33, Size: 0.05, Color: "#ffffff", From: from, To: to, In: badge.ID})
	g.enter(tile, "pop", g.t, 0.6)
	if icon != nil {
		g.enter(icon, "pop", g.t+0.1, 0.6)
	}
	g.enter(badge, "pop", g.in, 0.4)
	g.enter(count, "pop", g.in, 0.4)
	g.progress(count, g.in+0.2, g.out-0.3, false)
	g.c.motion(badge, scene.Motion{Type: scene.MotionPulse, Start: g.in + 0.4, End: g.out, Amp: 0.08, Count: 4})
	g.leave(tile, badge, count)
}

func (g *genreFill) chat() {
	msgs := g.rest()
	if len(msgs) == 0 {
		msgs = []string{"Hey!", "Hi there 👋"}
	}
	msgs = msgs[:min(len(msgs), 5)]
	n := len(msgs)
	var parts []*scene.Element
	for k, m := range msgs {
		right := k%2 == 1
		y := -0.55 + 1.1*float64(k)/float64(max(n-1, 1))
		if n == 1 {
			y = 0
		}
		x := -0.35
		color := "#e5e7eb"
		ink := "#111827"
		if right {
			x, color, ink = 0.35, solid(g.accent), "#ffffff"
		}
		w := math.Min(0.9, 0.12+0.022*float64(len([]rune(m))))
		bub := g.bar(x, y, w, 0.13, color)
		txt := g.text(m, x, y, 0.032, ink, 600)
		txt.In = bub.ID
		at := g.stagger(k, n)
		g.enter(bub, "pop", at, 0.45)
		g.enter(txt, "fade", at+0.15, 0.4)
		parts = append(parts, bub, txt)
	}
	g.leave(parts...)
}

func (g *genreFill) timer() {
	from, to := 10, 0
	ms := minSecRE.FindAllStringSubmatch(g.prompt, -1)
	secs := func(m []string) int { a, _ := strconv.Atoi(m[1]); b, _ := strconv.Atoi(m[2]); return a*60 + b }
	switch {
	case len(ms) >= 2:
		from, to = secs(ms[0]), secs(ms[1])
	case len(ms) == 1:
		from = secs(ms[0])
	default:
		if m := regexp.MustCompile(`(\d+)\s*(?:seconds?|secs?|s)\b`).FindStringSubmatch(g.low); m != nil {
			from, _ = strconv.Atoi(m[1])
		}
	}
	up := regexp.MustCompile(`\bcounts? up\b|\bstopwatch\b`).MatchString(g.low) && !strings.Contains(g.low, "down")
	if up && from > to {
		from, to = to, from
	}
	from, to = max(from, 0), max(to, 0)
	n := abs(from-to) + 1
	stride := 1
	for n/stride > 61 {
		stride++
	}
	var items []string
	for k := 0; k*stride < n; k++ {
		v := from - k*stride
		if up {
			v = from + k*stride
		}
		items = append(items, fmt.Sprintf("%d:%02d", v/60, v%60))
	}
	if last := fmt.Sprintf("%d:%02d", to/60, to%60); items[len(items)-1] != last {
		items = append(items, last)
	}
	ringColor := g.accent
	ring := g.add(&scene.Element{ID: g.id("ring"), Type: scene.TypeRing, X: 0, Y: 0.08, Size: 0.3, Color: ringColor})
	a0, a1 := g.in, g.out
	g.progress(ring, a0, a1, !up)
	// The time sits in the ring, its own per-second ring drawn over the big one.
	cd := g.add(&scene.Element{ID: g.id("time"), Type: scene.TypeCountdown, X: 0, Y: 0.08, Size: 0.286, Color: g.ink,
		Color2: ringColor, Items: items, In: ring.ID})
	step := (a1 - a0) / float64(max(len(items)-1, 1))
	for k := range items {
		cd.Times = append(cd.Times, round3(a0+step*float64(k)))
	}
	g.enter(ring, "pop", g.t, 0.6)
	g.enter(cd, "fade", g.t+0.2, 0.5)
	parts := []*scene.Element{ring, cd}
	label := g.quote("")
	if label == "" {
		if m := regexp.MustCompile(`\b(?:text|word|label|title)\s+([A-Z][A-Z!]+)\b`).FindStringSubmatch(g.prompt); m != nil {
			label = m[1]
		} else if m := regexp.MustCompile(`\b([A-Z]{3,})\b`).FindStringSubmatch(g.prompt); m != nil {
			label = m[1]
		}
	}
	if label != "" && !strings.EqualFold(label, "HIIT") {
		l := g.text(label, 0, -0.62, 0.06, g.accent, 900)
		g.enter(l, "down", g.t+0.2, 0.6)
		parts = append(parts, l)
	}
	g.leave(parts...)
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func (g *genreFill) subscribe() {
	g.consume("subscribe", "subscribed", "SUBSCRIBE", "SUBSCRIBED", "Subscribed", "Subscribe")
	channel := handleRE.FindString(g.prompt)
	if channel == "" {
		channel = g.name("")
	}
	red := solid("#ef4444")
	btn := g.bar(0, 0.1, 0.62, 0.16, red)
	label := g.text("SUBSCRIBE", 0, 0.1, 0.045, "#ffffff", 900)
	label.In = btn.ID
	bell := g.drawing("bell", g.c.xUnits(0.47), 0.1, 0.07)
	g.enter(btn, "pop", g.t, 0.6)
	g.enter(label, "pop", g.t, 0.6)
	parts := []*scene.Element{btn, label}
	if channel != "" {
		ch := g.text(channel, 0, -0.3, 0.065, g.ink, 800)
		g.enter(ch, "down", g.t+0.1, 0.6)
		parts = append(parts, ch)
	}
	click := math.Max(g.in+0.3, g.end*0.45)
	// Clicked: the button presses, turns grey and says so.
	g.c.motion(btn, scene.Motion{Type: scene.MotionRecolor, Start: click, End: click + 0.25, Color: "#6b7280"})
	tr := trackOf(btn)
	key(tr, "scale", click-0.1, 1, "")
	key(tr, "scale", click, 0.9, "easeInCubic")
	key(tr, "scale", click+0.25, 1, "easeOutBack")
	key(trackOf(label), "opacity", click, 1, "")
	key(trackOf(label), "opacity", click+0.1, 0, "")
	done := g.text("SUBSCRIBED", 0, 0.1, 0.04, "#ffffff", 900)
	done.In = btn.ID
	g.c.motion(done, scene.Motion{Type: scene.MotionPop, Start: click + 0.1, End: g.end})
	if cursor := g.drawing("backhand index pointing up", 0.12, 0.32, 0.06); cursor != nil {
		g.enter(cursor, "up", click-0.7, 0.6)
		parts = append(parts, cursor)
	}
	parts = append(parts, done)
	if bell != nil {
		g.enter(bell, "pop", g.t+0.2, 0.5)
		g.c.motion(bell, scene.Motion{Type: scene.MotionWiggle, Start: click + 0.3, End: click + 1.2, Amp: 18, Count: 4})
		parts = append(parts, bell)
	}
	if regexp.MustCompile(`\bthumbnails?\b|\bvideo (?:slots?|boxes|cards)\b|\bend (?:screen|card)\b|\bnext video\b`).MatchString(g.low) {
		for k := 0; k < 2; k++ {
			slot := g.bar((float64(k)-0.5)*g.c.xUnits(0.75), 0.56, 0.6, 0.34, "#1e293b")
			play := g.add(&scene.Element{ID: g.id("play"), Type: scene.TypeTriangle, X: slot.X, Y: 0.56, Size: 0.04, Color: "#ffffff", In: slot.ID, Tracks: map[string][]scene.Keyframe{"rotation": {{T: 0, V: 90}}}})
			g.enter(slot, "up", g.in+0.2*float64(k), 0.5)
			g.enter(play, "fade", g.in+0.2*float64(k)+0.3, 0.4)
			parts = append(parts, slot, play)
		}
		btn.Y, label.Y, done.Y = -0.08, -0.08, -0.08
		if bell != nil {
			bell.Y = -0.08
		}
	}
	g.leave(parts...)
}

func (g *genreFill) socialHandle() {
	handle := handleRE.FindString(g.prompt)
	if handle == "" {
		handle = "@" + strings.ToLower(strings.ReplaceAll(g.name("yourbrand"), " ", ""))
	}
	ini := ""
	if m := regexp.MustCompile(`\binitials?\s+["“']?([A-Z]{1,3})\b`).FindStringSubmatch(g.prompt); m != nil {
		ini = m[1]
	} else {
		ini = strings.ToUpper(string([]rune(strings.TrimPrefix(handle, "@"))[:1]))
	}
	card := g.bar(0, 0.05, 0.95, 1.0, g.panel)
	cardInk := "#111827"
	if luminance(g.panel) < 0.5 {
		cardInk = "#ffffff"
	}
	avatar := g.add(&scene.Element{ID: g.id("avatar"), Type: scene.TypeCircle, X: 0, Y: -0.2, Size: 0.1, Color: solid(g.accent), In: card.ID})
	initialsT := g.text(ini, 0, -0.2, 0.06, "#ffffff", 800)
	initialsT.In = avatar.ID
	g.enter(initialsT, "pop", g.t+0.3, 0.5)
	h := g.text(handle, 0, 0.12, 0.045, cardInk, 800)
	btn := g.bar(0, 0.33, 0.4, 0.1, "#3b82f6")
	bl := g.text("Follow", 0, 0.33, 0.032, "#ffffff", 800)
	bl.In = btn.ID
	g.enter(card, "up", g.t, 0.6)
	g.enter(avatar, "pop", g.t+0.3, 0.5)
	g.enter(h, "fade", g.t+0.5, 0.6)
	g.enter(btn, "pop", g.in, 0.5)
	g.enter(bl, "pop", g.in, 0.5)
	g.c.motion(btn, scene.Motion{Type: scene.MotionPulse, Start: g.in + 0.5, End: g.out, Amp: 0.08, Count: 3})
	g.leave(card, avatar, initialsT, h, btn, bl)
}

func (g *genreFill) priceTag() {
	prices := moneyRE.FindAllString(g.prompt, -1)
	oldP, newP := "", ""
	switch {
	case len(prices) >= 2:
		oldP, newP = prices[0], prices[1]
	case len(prices) == 1:
		newP = prices[0]
	}
	off := percentRE.FindString(g.prompt)
	g.consume(oldP, newP, off, off+" OFF", off+" off")
	label := g.quote("")
	if label == "" && regexp.MustCompile(`black friday`).MatchString(g.low) {
		label = "Black Friday"
	}
	tagColor := g.accent
	tag := g.bar(0, 0.02, 0.7, 0.5, tagColor)
	tag.Depicts = "price tag"
	hole := g.add(&scene.Element{ID: g.id("hole"), Type: scene.TypeCircle, X: round3(-g.c.xUnits(0.27)), Y: 0.02, Size: 0.025, Color: g.c.bd.Palette.Background[0], In: tag.ID})
	// Rocking on its string: the tag and what is written on it rock together.
	defer func() {
		for _, e := range g.c.d.Elements {
			if e == tag || e.In == tag.ID {
				g.c.motion(e, scene.Motion{Type: scene.MotionWiggle, Start: g.t + 0.5, End: g.out, Amp: 4, Count: 3})
			}
		}
	}()
	ink := "#ffffff"
	if luminance(tagColor) > 0.6 {
		ink = "#111827"
	}
	parts := []*scene.Element{tag, hole}
	g.enter(tag, "down", g.t, 0.7)
	g.enter(hole, "down", g.t, 0.7)
	y := 0.02
	if oldP != "" {
		o := g.text(oldP, 0.05, -0.09, 0.05, lighten(ink, 0.2), 700)
		o.In = tag.ID
		strike := g.bar(0.05, -0.09, 0.22, 0.012, "#ef4444")
		strike.In = tag.ID
		g.enter(o, "fade", g.t+0.4, 0.5)
		cross := math.Max(g.in+0.2, g.end*0.35)
		g.enter(strike, "left", cross, 0.35)
		parts = append(parts, o, strike)
		y = 0.1
	}
	if newP != "" {
		np := g.text(newP, 0.05, y, 0.085, orDefault(colorAfter(g.prompt, newP), pickInk(g.b, ink)), 900)
		np.In = tag.ID
		at := math.Max(g.in+0.6, g.end*0.5)
		g.enter(np, "pop", at, 0.5)
		g.c.motion(np, scene.Motion{Type: scene.MotionBounce, Start: at, End: at + 0.9, Amp: 0.05, Count: 2, Decay: 0.5})
		parts = append(parts, np)
	}
	g.behind("fluent:label")
	if off != "" || label != "" {
		l := g.text(strings.TrimSpace(off+" "+label), 0, -0.62, 0.06, g.ink, 900)
		if off != "" && label == "" {
			l.Text = off + " OFF"
		}
		g.enter(l, "down", g.t+0.2, 0.6)
		parts = append(parts, l)
	}
	g.leave(parts...)
}

// colorAfter is the colour the prompt names within a few words after s ("the new
// price $79 bounces in below it in bright yellow"), "" when none.
func colorAfter(prompt, s string) string {
	i := strings.Index(prompt, s)
	if i < 0 {
		return ""
	}
	rest := strings.ToLower(prompt[i+len(s):])
	for k, w := range wordRE.FindAllString(rest, 12) {
		if c, ok := colorOf(w); ok {
			return c
		}
		if k > 10 || w == "and" && k > 2 {
			break
		}
	}
	return ""
}

// pickInk is a colour the prompt asks for the new price ("in bright yellow"), else ink.
func pickInk(b *brief, ink string) string {
	if b.TextColor != "" {
		return b.TextColor
	}
	return ink
}

// kpi is one tile: label, value, change.
// kpi is one tile: what it measures, the figure, its change ("+18%", "-0.4 pts") and
// the change's colour when the prompt names it ("shown in green because lower is better").
type kpi struct{ label, value, change, color string }

// kpiSplitRE parts a row's tiles; splitOutside never parts inside brackets, where a
// tile's change is told ("Churn 2.1% (-0.4 pts, shown in green)").
var kpiSplitRE = regexp.MustCompile(`,\s+|;\s*|\s+and\s+`)

func splitOutside(s string, re *regexp.Regexp) []string {
	var out []string
	last := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if strings.Count(s[:m[0]], "(") > strings.Count(s[:m[0]], ")") {
			continue
		}
		out = append(out, s[last:m[0]])
		last = m[1]
	}
	return append(out, s[last:])
}

var kpiValueFirstRE = regexp.MustCompile(`^([$€£]?\d[\d,.]*\s?[%kKmMbB]?)\s+([A-Za-z][A-Za-z ]{1,24})$`)

var kpiItemRE = regexp.MustCompile(`([A-Za-z][A-Za-z ]{1,24}?)\s+([$€£]?\d[\d,.]*\s?[%kKmMbB]?)\s*(?:\(([^),]{1,20})([^)]*)\))?`)

func (g *genreFill) kpiRow() {
	_, list, ok := strings.Cut(g.prompt, ":")
	if !ok {
		list = g.prompt
	}
	var ks []kpi
	for _, part := range splitOutside(list, kpiSplitRE) {
		part = strings.TrimSpace(part)
		if m := kpiValueFirstRE.FindStringSubmatch(part); m != nil {
			// "3,200 new customers": the figure, then what it counts.
			ks = append(ks, kpi{label: capitalize(strings.TrimSpace(m[2])), value: strings.TrimRight(m[1], ".,")})
		} else if m := kpiItemRE.FindStringSubmatch(part); m != nil {
			t := kpi{label: strings.TrimSpace(m[1]), value: strings.TrimRight(strings.TrimSpace(m[2]), ".,"), change: strings.TrimSpace(m[3])}
			for _, w := range strings.Fields(strings.ToLower(m[4])) {
				if c, ok := colorOf(strings.Trim(w, ",.;")); ok && t.color == "" {
					t.color = c
				}
			}
			ks = append(ks, t)
		}
	}
	if len(ks) == 0 {
		ks = []kpi{{label: "Revenue", value: "$0"}}
	}
	ks = ks[:min(len(ks), 4)]
	n := len(ks)
	portrait := g.c.tall()
	var parts []*scene.Element
	cardInk := "#111827"
	if luminance(g.panel) < 0.5 {
		cardInk = "#ffffff"
	}
	for k, t := range ks {
		x, y := (float64(k)-float64(n-1)/2)*math.Min(0.48, 1.8/float64(n)), 0.0
		w, h := 0.36, 0.42
		if portrait && n > 2 {
			x, y, w, h = 0, -0.5+1.0*float64(k)/float64(n-1), 0.8, 0.2
		}
		tile := g.bar(x, y, w, h, g.panel)
		lab := g.text(t.label, x, y-g.c.yUnits(h*0.3), 0.028, lighten(cardInk, 0.2), 700)
		val := g.valueElem(t.value, x, y, 0.06, cardInk)
		parts = append(parts, tile, lab, val)
		at := g.stagger(k, n)
		g.enter(tile, "up", at, 0.5)
		g.enter(lab, "fade", at+0.2, 0.4)
		g.enter(val, "fade", at+0.2, 0.4)
		if val.Type == scene.TypeCounter {
			g.progress(val, at+0.2, math.Min(g.out, at+1.8), false)
		}
		if t.change != "" {
			col := "#16a34a"
			if strings.HasPrefix(t.change, "-") || strings.Contains(strings.ToLower(t.change), "down") {
				col = "#dc2626"
			}
			if t.color != "" {
				col = t.color // "-0.4 pts, shown in green because lower is better"
			}
			ch := g.text(t.change, x, y+g.c.yUnits(h*0.3), 0.026, col, 800)
			g.enter(ch, "pop", at+0.8, 0.4)
			parts = append(parts, ch)
		}
	}
	g.leave(parts...)
}

// valueElem is a counter counting up to a figure ("$4.2M", "312k", "2.1%"), or the
// figure as text when it is no number.
func (g *genreFill) valueElem(v string, x, y, size float64, color string) *scene.Element {
	m := regexp.MustCompile(`^([$€£]?)(\d[\d,]*(?:\.\d+)?)\s?([%kKmMbB]?)$`).FindStringSubmatch(v)
	if m == nil {
		return g.text(v, x, y, size, color, 800)
	}
	num, _ := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
	dec := 0
	if _, frac, ok := strings.Cut(m[2], "."); ok {
		dec = len(frac)
	}
	return g.add(&scene.Element{ID: g.id("value"), Type: scene.TypeCounter, X: round3(x), Y: round3(y), Size: size,
		Color: color, From: 0, To: num, Prefix: m[1], Suffix: m[3], Decimals: dec})
}

var capListRE = regexp.MustCompile(`[A-Z][\w'’]*(?: [\w'’]+){0,3}(?:,\s*(?:and\s+)?[A-Z][\w'’]*(?: [\w'’]+){0,3}){2,}`)

// itemMarkRE: a list number before an item ("1. Boil", "2) Melt", "3 Toss").
// listTailRE: where a numbered list's last item ends before the sentence does.
var listTailRE = regexp.MustCompile(`\s[—–]\s|\s-\s|["“]`)

var itemMarkRE = regexp.MustCompile(`(?:^|[\s,;:(])(\d{1,2})[.)]?\s+[A-Za-z]`)

// enumerated reads the items of a numbered list, each the words from its number to the
// next: the numbers must run 1, 2, 3…, so a number inside an item ("Boil noodles 4 min,
// 2. Melt 2 tbsp butter") stays in it. The last item ends at its sentence's end.
func enumerated(prompt string) []string {
	var at [][2]int // [start of number, start of item]
	next := 1
	for _, m := range itemMarkRE.FindAllStringSubmatchIndex(prompt, -1) {
		if n, _ := strconv.Atoi(prompt[m[2]:m[3]]); n == next {
			at = append(at, [2]int{m[2], m[1] - 1})
			next++
		}
	}
	if len(at) < 2 {
		return nil
	}
	var out []string
	for _, item := range markedSpans(prompt, at) {
		if k := listTailRE.FindStringIndex(item); k != nil {
			item = item[:k[0]] // "3. Tag a friend — and 'Ends Sunday'": the list ends at the dash
		}
		// "…to 6:00; (2) keys jingle": the next mark's opening bracket is not this item's.
		if item = strings.Trim(strings.TrimSpace(item), ",;. ("); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// markedSpans are the words after each mark of a list (at: [start of mark, start of
// item]) up to the next mark, the last up to its sentence's end.
func markedSpans(prompt string, at [][2]int) []string {
	out := make([]string, len(at))
	for k, a := range at {
		end := len(prompt)
		if k+1 < len(at) {
			end = at[k+1][0]
		} else if e := sentenceEndRE.FindStringIndex(prompt[a[1]:]); e != nil {
			end = a[1] + e[0]
		}
		out[k] = prompt[a[1]:end]
	}
	return out
}

// aYearRE is a year of a history ("2014", "1998").
var aYearRE = regexp.MustCompile(`\b(?:19|20)\d\d\b`)

// datedTimelineRE: three years or more, each with words of its own, make a history.
var datedTimelineRE = regexp.MustCompile(`(?:\b(?:19|20)\d\d\b[^0-9.]{3,}?){2,}\b(?:19|20)\d\d\b`)

// dated reads a history told year by year ("2014 first wheel in a garage, 2017 opened
// the shop, 2020 …"): each year with the words up to the next year, or nil when fewer
// than three years have words of their own.
func dated(prompt string) (years, items []string) {
	locs := aYearRE.FindAllStringIndex(prompt, -1)
	if len(locs) < 3 {
		return nil, nil
	}
	// "founded in 1998, first store 2003, went online 2011": each year ends its words
	// when nothing follows the last year.
	last := locs[len(locs)-1][1]
	e := sentenceEndRE.FindStringIndex(prompt[last:])
	before := e != nil && strings.Trim(prompt[last:last+e[0]], ",;:—–- ") == "" || strings.Trim(prompt[last:], ",;:—–-. ") == ""
	for k, l := range locs {
		var item string
		if before {
			start := strings.LastIndexAny(prompt[:locs[0][0]], ":;.—–") + 1
			if k > 0 {
				start = locs[k-1][1]
			}
			item = strings.Trim(prompt[start:l[0]], ",;:—–- ")
			item = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(item, " in"), " since"))
		} else {
			end := len(prompt)
			if k+1 < len(locs) {
				end = locs[k+1][0]
			}
			if e := sentenceEndRE.FindStringIndex(prompt[l[1]:end]); e != nil {
				end = l[1] + e[0]
			}
			item = strings.TrimSpace(strings.TrimSuffix(strings.Trim(strings.TrimSpace(prompt[l[1]:end]), ",;:—–- "), " and"))
			item = strings.Trim(strings.TrimPrefix(strings.TrimPrefix(item, "in "), "- "), ",;:—–- ")
		}
		if n := len(strings.Fields(item)); n == 0 || n > 12 {
			continue
		}
		years = append(years, prompt[l[0]:l[1]])
		items = append(items, capitalize(item))
	}
	if len(years) < 3 {
		return nil, nil
	}
	return years, items
}

// stepItems reads numbered steps ("1 Browse online, 2 Meet and greet"), else a run of
// three capitalised items or more, else the quotes, else the list after a colon.
func (g *genreFill) stepItems() []string {
	if out := enumerated(g.prompt); len(out) >= 2 {
		return out
	}
	var out []string
	for _, m := range numberedRE.FindAllStringSubmatch(g.prompt, -1) {
		if m[1] == strconv.Itoa(len(out)+1) { // numbered 1, 2, 3…: "by 8 PM" or "6 seconds" is no step
			out = append(out, strings.TrimSpace(m[2]))
		}
	}
	if len(out) >= 2 {
		return out
	}
	// A run of three or more short capitalised items ("— Sign up, Verify email, Connect
	// bank, Start saving —"), wherever it stands: stronger than two quotes, which may be
	// a headline and the step a mover stops at.
	if m := capListRE.FindString(g.prompt); m != "" {
		out = nil
		for _, p := range regexp.MustCompile(`,\s*(?:and\s+)?|\s+and\s+`).Split(m, -1) {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		if len(out) >= 3 {
			return out
		}
	}
	out = g.rest()
	if len(out) >= 2 {
		return out
	}
	if _, list, ok := strings.Cut(g.prompt, ":"); ok {
		out = nil
		for _, p := range regexp.MustCompile(`,\s*|\s+then\s+|;\s*|→|->`).Split(list, -1) {
			if p = strings.Trim(strings.TrimSpace(p), ".!"); p != "" && len(p) < 40 {
				out = append(out, strings.TrimPrefix(p, "and "))
			}
		}
	}
	if len(out) < 2 {
		out = []string{"Plan", "Build", "Launch"}
	}
	return out
}

func (g *genreFill) steps() {
	years, items := dated(g.prompt)
	if years == nil {
		items = g.stepItems()
	}
	items = items[:min(len(items), 6)]
	for i, q := range g.b.Texts {
		if slices.Contains(items, q) {
			g.used[i] = true // the step a thing stops at ("stopping at 'Shipped'") is on the line
		}
	}
	n := len(items)
	portrait := g.c.tall()
	span := 1.5
	var line *scene.Element
	if portrait {
		line = g.bar(-0.5, 0, 0.012, 1.2, lighten(g.accent, 0.3))
	} else {
		// A little longer than the span, so the end dots sit on it (nest).
		line = g.bar(0, 0, (span+0.04)/g.c.xUnits(1), 0.012, lighten(g.accent, 0.3))
	}
	// The line reaches its last step with a third of the time left, so the last step
	// holds as long as the others.
	reach := g.t + (g.out-g.t)*0.7
	tr := trackOf(line)
	prop := "sx"
	if portrait {
		prop = "sy"
	}
	key(tr, prop, 0, 0, "")
	key(tr, prop, g.t, 0, "")
	key(tr, prop, reach, 1, "easeInOutCubic")
	if !portrait {
		// The line draws from the left: its centre moves as it grows.
		key(tr, "x", 0, -span/2, "")
		key(tr, "x", g.t, -span/2, "")
		key(tr, "x", reach, 0, "easeInOutCubic")
	}
	parts := []*scene.Element{line}
	for k, it := range items {
		f := float64(k) / float64(max(n-1, 1))
		x, y, tx, ty := -span/2+span*f, 0.0, -span/2+span*f, 0.2
		if k%2 == 1 {
			ty = -0.2
		}
		if portrait {
			x, y, tx, ty = -0.5, -0.5+f, 0.15, -0.5+f
		}
		dot := g.add(&scene.Element{ID: g.id("dot"), Type: scene.TypeCircle, X: round3(x), Y: round3(y), Size: 0.04, Color: solid(g.accent)})
		num := g.text(strconv.Itoa(k+1), x, y, 0.03, "#ffffff", 900)
		num.In = dot.ID
		lab := g.text(it, tx, ty, 0.032, g.ink, 700)
		if years != nil {
			// A history: the year is the mark, set on the other side of the line from
			// its words, and the dot is a plain dot.
			num.In, num.Text, num.Color, num.Size = "", years[k], solid(g.accent), 0.04
			num.X, num.Y = round3(tx), round3(-ty)
			lab.Size = fit(it, span/float64(max(n, 2))*1.9, 0.03)
			if portrait {
				num.X, num.Y, lab.Y = round3(tx), round3(ty-0.05), round3(ty+0.05)
				num.Size, lab.Size = 0.05, fit(it, 0.7, 0.042)
			}
		}
		at := g.t + (reach-g.t)*f
		g.enter(dot, "pop", at, 0.4)
		g.enter(num, "pop", at, 0.4)
		g.enter(lab, "fade", at+0.15, 0.5)
		parts = append(parts, dot, num, lab)
	}
	if q := g.quote(""); q != "" {
		title := g.text(q, 0, -0.62, 0.05, g.ink, 800)
		g.enter(title, "down", g.t, 0.6)
		parts = append(parts, title)
	}
	g.leave(parts...)
}

func (g *genreFill) beforeAfter() {
	left, right := "Before", "After"
	if m := regexp.MustCompile(`(?i)\b([\w ]{2,20}?)\s+(?:vs\.?|versus)\s+([\w ]{2,20})\b`).FindStringSubmatch(g.prompt); m != nil && !strings.Contains(strings.ToLower(m[0]), "before") {
		left, right = capitalize(strings.TrimSpace(m[1])), capitalize(strings.TrimSpace(m[2]))
	}
	lp := g.bar(-0.5, 0.05, 0.85, 1.2, "#475569")
	rp := g.bar(0.5, 0.05, 0.85, 1.2, mix(g.accent, "#ffffff"))
	lp.X, rp.X = round3(-g.c.xUnits(0.44)), round3(g.c.xUnits(0.44))
	lt := g.text(strings.ToUpper(left), lp.X, -0.62, 0.045, g.ink, 900)
	rt := g.text(strings.ToUpper(right), rp.X, -0.62, 0.045, g.ink, 900)
	parts := []*scene.Element{lp, rp, lt, rt}
	// The drawings of the prompt: the first on the before side, the second (or the
	// same) on the after side.
	var ds []subject
	for _, s := range g.b.Subjects {
		if s.Asset != "" {
			ds = append(ds, s)
		}
	}
	for k, s := range ds[:min(len(ds), 2)] {
		x := lp.X
		if k == 1 || len(ds) == 1 {
			x = rp.X
		}
		e := g.add(&scene.Element{ID: g.id(slug(s.Noun)), Type: scene.TypeAsset, Label: s.Noun, Asset: s.Asset, X: x, Y: 0.08, Size: 0.17})
		if len(ds) == 1 {
			cp := *e
			cp.ID, cp.X, cp.Hue = g.id(slug(s.Noun)), lp.X, 0
			cp.Tracks = nil
			g.add(&cp)
			g.enter(&cp, "fade", g.t+0.3, 0.5)
			parts = append(parts, &cp)
		}
		g.enter(e, "fade", g.t+0.3, 0.5)
		parts = append(parts, e)
	}
	handle := g.bar(0, 0.05, 0.02, 1.3, "#ffffff")
	knob := g.add(&scene.Element{ID: g.id("handle"), Type: scene.TypeCircle, X: 0, Y: 0.05, Size: 0.05, Color: "#ffffff", In: handle.ID})
	for _, e := range []*scene.Element{lp, rp, lt, rt} {
		g.enter(e, "fade", g.t, 0.6)
	}
	for _, e := range []*scene.Element{handle, knob} {
		g.enter(e, "fade", g.t+0.3, 0.4)
		tr := trackOf(e)
		a := math.Max(g.in, g.end*0.3)
		key(tr, "x", 0, -0.9, "")
		key(tr, "x", a, -0.9, "")
		key(tr, "x", g.out-0.2, 0, "easeInOutCubic")
	}
	parts = append(parts, handle, knob)
	g.leave(parts...)
}

func (g *genreFill) mapPin() {
	label := g.quote("")
	if label == "" {
		label = g.name("")
	}
	if label == "" {
		// "a pin dropping onto Tokyo": the place is the capitalised name after it.
		if m := regexp.MustCompile(`\b(?:onto|on|in|at|over|to|near)\s+([A-Z][\p{L}'’-]+(?:\s[A-Z][\p{L}'’-]+)?)`).FindStringSubmatch(g.prompt); m != nil {
			label = m[1]
		}
	}
	label = orDefault(label, "Our place")
	var mapEl *scene.Element
	if !regexp.MustCompile(`\bcity\b|\bstreets?\b|\btown\b|\bneighbou?rhood\b`).MatchString(g.low) {
		mapEl = g.drawing("world map", 0, 0.05, 0.42)
	}
	var parts []*scene.Element
	if mapEl == nil {
		land := g.bar(0, 0.05, 1.4, 0.95, "#e2e8f0")
		parts = append(parts, land)
		g.enter(land, "fade", g.t, 0.6)
		for k := 0; k < 3; k++ {
			h := g.bar(0, -0.3+0.35*float64(k), 1.4, 0.03, "#ffffff")
			h.In = land.ID
			v := g.bar(-0.45+0.45*float64(k), 0.05, 0.03, 0.95, "#ffffff")
			v.In = land.ID
			g.enter(h, "fade", g.t+0.1, 0.5)
			g.enter(v, "fade", g.t+0.1, 0.5)
			parts = append(parts, h, v)
		}
		park := g.bar(0.25, 0.22, 0.22, 0.2, "#86efac")
		park.In = land.ID
		g.enter(park, "fade", g.t+0.2, 0.5)
		parts = append(parts, park)
	} else {
		g.enter(mapEl, "fade", g.t, 0.6)
		parts = append(parts, mapEl)
	}
	pin := g.drawing("round pushpin", 0.05, -0.12, 0.09)
	at := math.Max(g.in, g.end*0.25)
	if pin != nil && mapEl != nil {
		pin.In = mapEl.ID // the pin is on the map
	}
	if pin != nil {
		if c := firstColor(g.b); c != "" {
			pin.Tint = c
		}
		g.c.motion(pin, scene.Motion{Type: scene.MotionBounce, Start: at, End: at + 1, Amp: 0.3, Count: 2, Decay: 0.4, Squash: 0.3})
		g.enter(pin, "down", at, 0.5)
		parts = append(parts, pin)
	}
	card := g.bar(0.05, -0.45, 0.9, 0.14, "#ffffff")
	lt := g.text(label, 0.05, -0.45, 0.032, "#111827", 800)
	lt.In = card.ID
	g.enter(card, "pop", at+0.7, 0.5)
	g.enter(lt, "pop", at+0.7, 0.5)
	parts = append(parts, card, lt)
	g.leave(parts...)
}

func (g *genreFill) invite() {
	title := g.quote("")
	if title == "" {
		if m := regexp.MustCompile(`(?i)(?:invit\w+|invite)\s+(?:to|for)\s+([^,.;]{3,60})`).FindStringSubmatch(g.prompt); m != nil {
			title = strings.TrimSpace(m[1])
			title = regexp.MustCompile(`(?i)\s+(?:on|at)\s+(?:`+weekdayW+`|`+monthW+`).*$`).ReplaceAllString(title, "")
		} else {
			title = "You're invited"
		}
	}
	date, tm, venue := g.when(title)
	gold := g.accent
	if len(g.b.Colors) > 1 {
		gold = g.b.Colors[1]
	}
	card := g.bar(0, 0.02, 1.1, 1.25, orDefault(g.b.Background2, g.panel))
	if len(g.b.Colors) > 0 && g.b.Background == "" {
		card.Color = lighten(g.b.Colors[0], 0.55)
	}
	cardInk := "#111827"
	if luminance(card.Color) < 0.5 {
		cardInk = "#ffffff"
	}
	frame := g.bar(0, 0.02, 1.02, 1.15, gold)
	frame.In = card.ID
	inner := g.bar(0, 0.02, 0.99, 1.12, card.Color)
	inner.In = frame.ID
	head := g.text("You're invited", 0, -0.42, 0.03, gold, 700)
	t := g.text(title, 0, -0.2, fit(title, 0.95, 0.055), cardInk, 800)
	parts := []*scene.Element{card, frame, inner, head, t}
	lines := []string{}
	if date != "" || tm != "" {
		lines = append(lines, strings.TrimSpace(strings.Trim(date, ", ")+" · "+tm))
	}
	if venue != "" {
		lines = append(lines, venue)
	}
	for k, l := range lines {
		l = strings.Trim(l, " ·")
		e := g.text(l, 0, 0.08+0.16*float64(k), 0.032, cardInk, 600)
		g.enter(e, "fade", g.in+0.3*float64(k+1), 0.5)
		parts = append(parts, e)
	}
	for k, e := range []*scene.Element{card, frame, inner, head, t} {
		g.enter(e, "up", g.t+0.08*float64(k), 0.7)
	}
	deco := ""
	for i, s := range g.b.Subjects {
		if s.Asset != "" && !g.acts(i) {
			deco = s.Asset
			break
		}
	}
	g.behind()
	if deco != "" {
		d := g.add(&scene.Element{ID: g.id("decoration"), Type: scene.TypeAsset, Asset: deco, X: 0, Y: 0.48, Size: 0.07})
		g.enter(d, "pop", g.in+0.8, 0.5)
		g.c.motion(d, scene.Motion{Type: scene.MotionWiggle, Start: g.in + 1.3, End: g.out, Amp: 6, Count: 3})
		parts = append(parts, d)
	}
	g.leave(parts...)
}

// venueRE is a place named after "at" or a comma ("at Memorial Field", ", The Old Mill").
var venueRE = regexp.MustCompile(`(?:\bat\s+|,\s*)((?:The\s+|\d{1,5}\s+)?[A-Z][\w’'&-]+(?:\s[A-Z][\w’'&-]+){0,3}(?:,\s*[A-Z][\w-]+)?)\s*(?:[.,;]|$|with)`)

// when reads an event's date (or weekday), time of day and venue; a venue inside the
// title (the event's own name) is not its place.
func (g *genreFill) when(title string) (date, tm, venue string) {
	date = dateRE.FindString(g.prompt)
	if date == "" {
		date = weekdayRE.FindString(g.prompt)
	}
	tm = timeOfDay.FindString(g.prompt)
	for _, v := range venueRE.FindAllStringSubmatch(g.prompt, -1) {
		if !weekdayRE.MatchString(v[1]) && !dateRE.MatchString(v[1]) && !strings.Contains(title, v[1]) {
			venue = v[1]
		}
	}
	return date, tm, venue
}

func (g *genreFill) calendar() {
	date := dateRE.FindString(g.prompt)
	month, day := "", ""
	if m := regexp.MustCompile(`(?i)(` + monthW + `)\.?\s+(\d{1,2})|(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(` + monthW + `)`).FindStringSubmatch(date); m != nil {
		month, day = m[1]+m[4], m[2]+m[3]
	}
	month = strings.ToUpper(orDefault(month, "Today")[:min(3, len(orDefault(month, "Today")))])
	day = orDefault(day, "1")
	page := g.bar(0, 0.02, 0.6, 0.66, "#ffffff")
	head := g.bar(0, -0.2, 0.6, 0.18, orDefault(firstColor(g.b), "#ef4444"))
	head.In = page.ID
	mt := g.text(month, 0, -0.2, 0.045, "#ffffff", 900)
	mt.In = head.ID
	dt := g.text(day, 0, 0.12, 0.16, "#111827", 900)
	dt.In = page.ID
	parts := []*scene.Element{page, head, mt, dt}
	g.enter(page, "pop", g.t, 0.6)
	g.enter(head, "pop", g.t, 0.6)
	g.enter(mt, "fade", g.t+0.3, 0.4)
	g.enter(dt, "pop", g.in, 0.5)
	g.c.motion(page, scene.Motion{Type: scene.MotionFlip, Start: g.in - 0.3, End: g.in + 0.3, Count: 2, Color: "#f1f5f9", Angle: 90})
	if q := g.quote(""); q != "" {
		e := g.text(q, 0, 0.62, 0.05, g.ink, 800)
		g.enter(e, "up", g.in+0.5, 0.6)
		parts = append(parts, e)
	}
	g.leave(parts...)
}

func (g *genreFill) loading() {
	to := 100.0
	if ps := percentRE.FindAllString(g.prompt, -1); len(ps) > 0 {
		v, _ := strconv.ParseFloat(strings.TrimSpace(strings.Trim(ps[len(ps)-1], "%+ ")), 64)
		if v > 0 {
			to = v
		}
	}
	label := g.quote("")
	if label == "" {
		if m := regexp.MustCompile(`(?i)\b(loading|uploading|downloading|installing|saving|syncing)\b`).FindString(g.prompt); m != "" {
			label = capitalize(strings.ToLower(m)) + "…"
		}
	}
	color := g.accent
	done := ""
	if m := regexp.MustCompile(`\b(?:turns?|becomes?|goes|changes? to)\s+(\w+)`).FindStringSubmatch(g.low); m != nil {
		if c, ok := colorOf(m[1]); ok {
			done = c
			if color == c {
				color = "#3b82f6"
			}
		}
	}
	bar := g.add(&scene.Element{ID: g.id("progress"), Type: scene.TypeProgress, X: 0, Y: 0.08, Size: 0.1, Aspect: 3.5, Color: color, To: to,
		TextColor: g.ink})
	// The bar starts filling as it arrives: a loading screen is never still.
	a0, a1 := g.t+0.4, g.out-0.5
	g.enter(bar, "fade", g.t, 0.6)
	g.progress(bar, a0, a1, false)
	parts := []*scene.Element{bar}
	if label != "" {
		l := g.text(label, 0, -0.3, 0.045, g.ink, 700)
		g.enter(l, "fade", g.t+0.2, 0.6)
		parts = append(parts, l)
	}
	if done != "" {
		g.c.motion(bar, scene.Motion{Type: scene.MotionRecolor, Start: a1, End: a1 + 0.3, Color: done})
	}
	if regexp.MustCompile(`\bcheck ?marks?\b|\bcheck\b|\btick\b|\bdone\b|\bcomplete`).MatchString(g.low) {
		ck := g.drawing("check mark button", 0, 0.08, 0.09)
		if ck != nil {
			// The check takes the bar's place once it is full.
			g.c.motion(ck, scene.Motion{Type: scene.MotionPop, Start: a1 + 0.4, End: g.end})
			tr := trackOf(bar)
			key(tr, "opacity", a1+0.3, 1, "")
			key(tr, "opacity", a1+0.5, 0, "easeInCubic")
			parts = append(parts, ck)
		}
	}
	g.leave(parts...)
}

func (g *genreFill) chapterTitle() {
	chapter, title := "", g.quote("")
	// "Chapter Three — The Long Winter": the chapter and its title, split at the dash.
	if a, b, ok := strings.Cut(title, "—"); ok {
		chapter, title = strings.TrimSpace(a), strings.TrimSpace(b)
	} else if a, b, ok := strings.Cut(title, ":"); ok {
		chapter, title = strings.TrimSpace(a), strings.TrimSpace(b)
	}
	if chapter == "" {
		if m := regexp.MustCompile(`(?i)\b(chapter|episode|part|act)\s+(\w+)`).FindStringSubmatch(g.prompt); m != nil {
			chapter = capitalize(strings.ToLower(m[1])) + " " + m[2]
		}
	}
	if title == "" {
		title = orDefault(g.after(`(?:called|titled|named)`), chapter)
		if title == chapter {
			chapter = ""
		}
	}
	ch := g.text(strings.ToUpper(chapter), 0, -0.16, 0.035, g.accent, 600)
	ch.Reveal = "track"
	rule := g.bar(0, -0.05, 0.5, 0.006, g.accent)
	t := g.text(title, 0, 0.1, 0.085, g.ink, 700)
	t.Reveal = "track"
	g.enter(ch, "fade", g.t+0.2, 1)
	g.enter(rule, "fade", g.t+0.5, 0.8)
	key(trackOf(rule), "sx", 0, 0, "")
	key(trackOf(rule), "sx", g.t+0.5, 0, "")
	key(trackOf(rule), "sx", g.in+0.6, 1, "easeInOutCubic")
	g.enter(t, "fade", g.in, 1.2)
	g.look(t, g.in)
	parts := []*scene.Element{ch, rule, t}
	if strings.Contains(g.low, "snow") {
		s := g.add(&scene.Element{ID: g.id("snow"), Type: scene.TypeParticles, Variant: "snow", Count: 90, Size: 0.006, Color: "#ffffff", Depth: 0.4, Seed: 9})
		g.c.d.Elements = append([]*scene.Element{s}, g.c.d.Elements[:len(g.c.d.Elements)-1]...)
	}
	g.leave(parts...)
	g.behind()
}

func (g *genreFill) titleCard() {
	title := g.quote("Title")
	sub := g.quote("")
	if sub == "" {
		sub = g.after(`(?:subtitle|tagline)`)
	}
	t := g.text(title, 0, -0.06, 0.09, g.ink, 800)
	t.Reveal = g.c.sp.Reveal
	g.enter(t, "fade", g.t, 1.2)
	g.look(t, g.t+0.2)
	parts := []*scene.Element{t}
	if sub != "" {
		s := g.text(sub, 0, 0.16, 0.035, lighten(g.ink, 0.15), 500)
		g.enter(s, "fade", g.in+0.3, 0.8)
		parts = append(parts, s)
	}
	g.leave(parts...)
	g.behind()
}

// hueFamily names a colour's hue family ("red" for crimson, scarlet or #dc2626), or
// "grey" for colours without much hue.
func hueFamily(hex string) string {
	r, g, b := rgbOf(hex)
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	if mx-mn < 30 {
		return "grey"
	}
	var h float64
	switch mx {
	case r:
		h = math.Mod((g-b)/(mx-mn), 6)
	case g:
		h = (b-r)/(mx-mn) + 2
	default:
		h = (r-g)/(mx-mn) + 4
	}
	h = math.Mod(h*60+360, 360)
	switch {
	case h < 15 || h >= 340:
		return "red"
	case h < 45:
		return "orange"
	case h < 70:
		return "yellow"
	case h < 170:
		return "green"
	case h < 260:
		return "blue"
	case h < 300:
		return "purple"
	}
	return "pink"
}

// setupGenre makes the description of a genre layout: the background, the layout, the
// prompt's particles behind it and any quote the layout left, so nothing asked for is
// dropped.
func (c *composer) setupGenre(title string) {
	c.d = &scene.Description{
		Version: scene.Version, Title: title, Duration: c.bd.Total, FPS: 30, Style: string(c.bd.Style),
		Background: scene.Background{Colors: []string{c.bd.Palette.Background[0], c.bd.Palette.Background[1]},
			Angle: 160, Drift: 20},
	}
	sa := scene.VerticalSafeArea
	c.d.SafeArea = &sa
	for i := range c.bd.Scenes {
		c.d.Scenes = append(c.d.Scenes, scene.Mark{ID: fmt.Sprintf("s%d", i+1), Start: c.bounds[i], End: c.bounds[i+1]})
	}
	for i, s := range c.b.Subjects {
		if s.Kind != scene.TypeParticles {
			continue
		}
		e := &scene.Element{ID: fmt.Sprintf("%s-%d", slug(s.Noun), i+1), Type: scene.TypeParticles, Label: s.Noun,
			Variant: orDefault(s.Variant, "stars"), Count: 90, Size: 0.01, Depth: 0.4, Seed: 11 + i*7,
			Color: c.bd.Palette.subjectColor(c.b, i)}
		if comesLast(c.b.Prompt, s.Noun) {
			e.Start = round3(c.bd.Total * 0.6) // "with confetti at the end"
		}
		c.d.Elements = append(c.d.Elements, e)
	}
	g := c.layGenre(c.genre)
	// Quotes the layout has no slot for are said under it, one after another.
	var rest []string
	for i, q := range c.b.Texts {
		if !g.used[i] {
			rest = append(rest, q)
		}
	}
	for k, q := range rest {
		e := g.text(q, 0, 0.82-0.12*float64(len(rest)-1-k), 0.04, g.ink, 700)
		g.enter(e, "up", g.in+0.4*float64(k+1), 0.6)
	}
}

// productShowcase: the named product's drawing large on a soft spotlight, rising and
// turning into view, its name under it, the tagline and the price after.
func (g *genreFill) productShowcase() {
	product := ""
	noun := ""
	for _, sj := range g.b.Subjects {
		if sj.Asset != "" && !sj.Scenery {
			product, noun = sj.Asset, sj.Noun
			break
		}
	}
	price := moneyRE.FindString(g.prompt)
	g.consume(price)
	name := ""
	quotes := g.rest()
	// The shortest quote names the product; the longest is its tagline.
	tagline := ""
	for _, q := range quotes {
		if name == "" || len(q) < len(name) {
			name = q
		}
		if len(q) > len(tagline) {
			tagline = q
		}
	}
	if tagline == name {
		tagline = ""
	}
	glow := g.add(&scene.Element{ID: g.id("spotlight"), Type: scene.TypeCircle, X: 0, Y: -0.12, Size: 0.2,
		Color: lighten(g.accent, 0.2), Glow: 1})
	g.enter(glow, "fade", g.t, 1)
	g.c.motion(glow, scene.Motion{Type: scene.MotionPulse, Start: g.in, End: g.out, Amp: 0.06, Count: 2})
	parts := []*scene.Element{glow}
	if product != "" {
		d := g.add(&scene.Element{ID: g.id(slug(noun)), Type: scene.TypeAsset, Label: noun, Asset: product,
			X: 0, Y: -0.12, Size: 0.2, In: glow.ID, Shadow: true})
		if c := g.b.Subjects[0].Color; c != "" {
			d.Tint = c
		}
		g.enter(d, "up", g.t+0.2, 1.2)
		g.c.motion(d, scene.Motion{Type: scene.MotionFloat, Start: g.in, End: g.end, Amp: 0.02, Count: 2})
		key(trackOf(d), "rotation", 0, -12, "")
		key(trackOf(d), "rotation", g.t+0.2, -12, "")
		key(trackOf(d), "rotation", g.in+0.6, 0, "easeOutCubic")
		parts = append(parts, d)
	}
	y := 0.36
	if name != "" {
		n := g.text(name, 0, y, fit(name, 1.4, 0.075), g.ink, 900)
		g.enter(n, "fade", g.in, 0.8)
		parts = append(parts, n)
		y += 0.17
	}
	if tagline != "" {
		tl := g.text(tagline, 0, y, fit(tagline, 1.5, 0.04), lighten(g.ink, 0.1), 600)
		g.enter(tl, "fade", g.in+0.6, 0.8)
		parts = append(parts, tl)
		y += 0.14
	}
	if price != "" {
		pill := g.bar(0, y+0.02, 0.3, 0.09, solid(g.accent))
		pt := g.text(price, 0, y+0.02, 0.04, "#ffffff", 900)
		pt.In = pill.ID
		g.enter(pill, "pop", g.in+1, 0.5)
		g.enter(pt, "fade", g.in+1.3, 0.4) // on its pill once the pill is there
		parts = append(parts, pill, pt)
	}
	g.leave(parts...)
}

// boardCueRE names a board of rows: scores, rankings, departures, a schedule.
var boardCueRE = regexp.MustCompile(`\bmenu\b|\btoday'?s specials\b|\bscore ?(?:board|graphic|card|line)\b|\bfinal score\b|\bleader ?board\b|\bstandings\b|\bleague table\b|\brankings?\b|\btop (?:\d|three|five|ten)\b|\bdepartures?\b|\barrivals?\b|\btimetable\b|\bschedule\b|\bagenda\b|\bline-?up\b|\bmenu board\b|\bprice list\b|\bresults? table\b|\b(?:exchange|currency|fx|interest|mortgage) rates?\b|\b(?:currency|exchange|rates?|price|fuel|gas|petrol|score|departures?|arrivals?) (?:board|sign|display)s?\b|\btable\b[^.]*\bcolumns?\b|\bcolumns?\b[^.]*\brows?\b|\brows?\b[^.]*\bcolumns?\b`)

var (
	// boardEntryRE: a name, then its figure and unit ("Harbor City Gulls 3", "Maya 42
	// books", "Latte $4").
	parenRE      = regexp.MustCompile(`\s*\([^)]*\)`)
	boardEntryRE = regexp.MustCompile(`^([A-Za-z][\w'’&.\- ]{0,40}?)\s+(?:at\s+)?([$€£]?\d[\d,]*(?:\.\d+)?%?)(?:\s+([a-z]+))?$`)
	// boardFiguresRE: a name, then a figure per column set apart by slashes or bars
	// ("USD 1.27 / 1.31"), or a figure that changes ("Diesel $4.05 → $4.52", "Oats 3 to
	// 5"): the board shows the second, counting on from the first.
	boardFiguresRE = regexp.MustCompile(`^((?:\d+\s+)?[A-Za-z][\w'’&.\- ]{0,40}?)\s+(` + boardFigure + `(?:\s*(?:/|\|)\s*` + boardFigure + `)+)$`)
	boardChangeRE  = regexp.MustCompile(`^((?:\d+\s+)?[A-Za-z][\w'’&.\- ]{0,40}?)\s+(?:from\s+)?(` + boardFigure + `)\s*(?:→|->|⟶|to)\s*(` + boardFigure + `)$`)
	boardFigSepRE  = regexp.MustCompile(`\s*[/|]\s*`)
	// boardHeadsRE: the columns a prompt names ("columns \"We Buy\" and \"We Sell\"",
	// "Columns: Pos, Team, Pts"), up to the sentence's end, a dash or a colon.
	boardHeadsRE = regexp.MustCompile(`(?i)\bcolumns?\b(?:\s+(?:for|of|are|named|called|headed|reading))?\s*:?\s*([^.—–:]+)`)
	// boardTimedRE: a time, then the row's columns ("08:15 Marlow — Platform 2 — On time").
	boardTimedRE = regexp.MustCompile(`^(\d{1,2}[:.]\d{2}(?:\s?[ap]m)?)\s+(.+)$`)
	boardColRE   = regexp.MustCompile(`\s+[—–-]\s+|\s*\|\s*`)
	boardInRE    = regexp.MustCompile(`\s*\((?:in\s+)?([a-z]+)\)`)
)

var (
	// entrySplitRE parts a listed run of entries ("Maya 42, Theo 39 and Ines 37").
	entrySplitRE = regexp.MustCompile(`[,;]\s*(?:and\s+)?|\s+and\s+`)
	figureRE     = regexp.MustCompile(`\d[\d,]*(?:\.\d+)?`)
	highlightRE  = regexp.MustCompile(`\bglow|\bhighlight|\bpulse|\bstands? out\b`)
)

// boardFigure is one figure of a board's cell: an amount, a rate, a share.
const boardFigure = `[$€£]?\d[\d,]*(?:\.\d+)?%?`

// boardFigureRE: a cell that is one figure, which counts up like the others.
var boardFigureRE = regexp.MustCompile(`^` + boardFigure + `$`)

// boardRow is one row of a board: its cells, the colour the prompt gives it and, for a
// figure that changes, the figure its last cell counts from.
type boardRow struct {
	cells []string
	color string
	from  string
}

// boardRows reads the longest run of entries the prompt lists, each between commas or
// semicolons: a name and a figure, or a time and its columns. A run needs two.
func boardRows(prompt string) []boardRow {
	var best, run []boardRow
	flush := func() {
		if len(run) > len(best) {
			best = run
		}
		run = nil
	}
	for _, sentence := range sentenceEndRE.Split(prompt, -1) {
		for _, part := range entrySplitRE.Split(sentence, -1) {
			part = strings.TrimSpace(part)
			if i := strings.LastIndex(part, ": "); i >= 0 {
				part = part[i+2:] // "top 5: Maya 42 books"
			}
			// A list set off by dashes: "… one by one - Wild mushroom risotto 14", "Tiramisu
			// 6 - with a puff of dust": the piece that is an entry.
			for _, piece := range listEndRE.Split(part, -1) {
				bare := strings.TrimSpace(parenRE.ReplaceAllString(piece, ""))
				if boardEntryRE.MatchString(bare) || boardTimedRE.MatchString(bare) || boardFiguresRE.MatchString(bare) || boardChangeRE.MatchString(bare) {
					part = strings.TrimSpace(piece)
					break
				}
			}
			var r boardRow
			if m := boardInRE.FindStringSubmatch(part); m != nil {
				if col, ok := colorOf(m[1]); ok {
					r.color = col // "Delayed (in amber)"
				}
				part = strings.TrimSpace(boardInRE.ReplaceAllString(part, ""))
			}
			part = strings.TrimSpace(parenRE.ReplaceAllString(part, "")) // "Tiramisu 6 (euros)"
			if m := boardTimedRE.FindStringSubmatch(part); m != nil {
				r.cells = append([]string{m[1]}, boardColRE.Split(m[2], 3)...)
			} else if m := boardFiguresRE.FindStringSubmatch(part); m != nil {
				r.cells = append([]string{strings.TrimSpace(m[1])}, boardFigSepRE.Split(m[2], -1)...)
			} else if m := boardChangeRE.FindStringSubmatch(part); m != nil {
				r.cells, r.from = []string{strings.TrimSpace(m[1]), m[3]}, m[2]
			} else if m := boardEntryRE.FindStringSubmatch(part); m != nil {
				fig := m[2]
				if m[3] != "" {
					fig += " " + m[3]
				}
				r.cells = []string{strings.TrimSpace(m[1]), fig}
			}
			if r.cells == nil {
				flush()
				continue
			}
			run = append(run, r)
		}
		flush()
	}
	if len(best) < 2 {
		return nil
	}
	return best[:min(len(best), 6)]
}

// boardInkRE and boardPanelRE: a colour the prompt gives a board's figures ("red
// digits", "gold numbers") or its rows ("on black panels").
var (
	boardInkRE   = regexp.MustCompile(`\b([a-z]+)\s+(?:led\s+)?(?:digits|numbers|numerals|figures|prices|rates)\b`)
	boardPanelRE = regexp.MustCompile(`\b([a-z]+)\s+(?:panels?|rows?|stripes?|tiles?|boards?|signs?)\b`)
)

// boardColors returns the colours of a board's rows and figures: those the prompt ties
// to them, else, of a pair of colours it names ("dark green and gold"), the darker for
// the rows and the lighter for the figures. "" leaves the layout's own.
func boardColors(low string, b *brief) (panel, ink string) {
	tied := func(re *regexp.Regexp) string {
		for _, m := range re.FindAllStringSubmatch(low, -1) {
			if c, ok := colorOf(m[1]); ok {
				return c
			}
		}
		return ""
	}
	panel, ink = tied(boardPanelRE), tied(boardInkRE)
	var cs []string
	for _, c := range b.Colors {
		if c != b.Background && c != b.Background2 && c != panel && c != ink {
			cs = append(cs, c)
		}
	}
	if panel == "" && ink == "" && len(cs) >= 2 {
		panel, ink = cs[0], cs[1]
		if luminance(ink) < luminance(panel) {
			panel, ink = ink, panel
		}
	}
	return panel, ink
}

// boardHeads reads the names the prompt gives a board's columns: its quotes after
// "columns", else the listed words (at most three each).
func boardHeads(prompt string) []string {
	m := boardHeadsRE.FindStringSubmatch(prompt)
	if m == nil {
		return nil
	}
	if qs := quoteRE.FindAllStringSubmatch(m[1], -1); len(qs) >= 2 {
		var out []string
		for _, q := range qs {
			for _, g := range q[1:] {
				if g != "" {
					out = append(out, strings.TrimSpace(g))
					break
				}
			}
		}
		return out
	}
	var out []string
	for _, part := range entrySplitRE.Split(m[1], -1) {
		part = strings.TrimSpace(part)
		if part == "" || len(strings.Fields(part)) > 3 {
			return nil // a sentence, not a list of names
		}
		out = append(out, part)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// board lays rows of names and figures (or times and columns) under a title, each row
// a bar of its own that slides in from the right in turn; a figure counts up to its value.
func (g *genreFill) board() {
	rows := boardRows(g.prompt)
	// A quote before the rows is the board's title; one after them ("and the word WIN
	// flashes") comes later, under it.
	// Else the name of whose board it is ("Ridgeway Fuel"), else what it is ("Price
	// list"), but no cue that spans a phrase ("table with columns").
	title := capitalize(boardCueRE.FindString(g.low))
	if len(strings.Fields(title)) > 3 || strings.Contains(title, ",") {
		title = ""
	}
	if g.b.Brand != "" {
		title = g.b.Brand
	}
	if len(rows) > 0 {
		first := strings.Index(g.prompt, rows[0].cells[0])
		heads := boardHeads(g.prompt)
		for i, q := range g.b.Texts {
			if at := strings.Index(g.prompt, q); !g.used[i] && at >= 0 && (first < 0 || at < first) && !slices.Contains(heads, q) {
				title, g.used[i] = q, true
				break
			}
		}
	} else {
		title = g.quote(title)
	}
	n := max(len(rows), 1)
	cols := 2
	for _, r := range rows {
		cols = max(cols, len(r.cells))
	}
	w := 1.6
	switch g.c.b.Aspect {
	case "portrait":
		w = 0.84
	case "square":
		w = 0.88
	}
	rowH := math.Min(0.13, 0.62/float64(n)) // sizes; the rows' spacing is in y units
	if g.c.tall() {
		rowH = math.Min(0.3, 1.3/float64(n)) // a vertical board fills its height
	}
	step := g.c.yUnits(rowH)
	top := -float64(n-1)*step/2 + 0.08
	// Column names the prompt gives head the columns: all of them, or those after the
	// rows' names.
	heads := boardHeads(g.prompt)
	if len(heads) == cols-1 {
		heads = append([]string{""}, heads...)
	}
	if len(heads) != cols {
		heads = nil
	}
	headY := top - step*0.62
	if heads != nil {
		top += step * 0.3
		headY += step * 0.3
		for i, q := range g.b.Texts {
			if slices.Contains(heads, q) {
				g.used[i] = true
			}
		}
	}
	titleY := top - step/2 - 0.16
	if heads != nil {
		titleY = headY - 0.16
	}
	panel, figInk := boardColors(g.low, g.b)
	if panel == "" {
		panel = g.panel
	}
	for _, r := range rows {
		if r.color != "" && figInk == "" {
			panel = "#1f2937" // a coloured status reads on a dark board, as at a station
		}
	}
	ink := "#111827"
	if luminance(panel) < 0.5 {
		ink = "#ffffff"
	}
	if figInk != "" {
		figInk = readableOn(figInk, panel)
	}
	var parts []*scene.Element
	if title != "" {
		head := g.text(title, 0, titleY, fit(title, g.c.xUnits(w), 0.06), g.ink, 900)
		g.enter(head, "down", g.t, 0.6)
		parts = append(parts, head)
	}
	// Column centres: the first column (a name) takes the widest share.
	share := []float64{0.55, 0.45}
	if cols > 2 {
		// A time is short; a name ("Unleaded", "10 years") needs more of the row.
		first := 0.32
		if len(rows) > 0 && boardTimedRE.MatchString(strings.Join(rows[0].cells, " ")) {
			first = 0.2
		}
		share = []float64{first}
		for k := 1; k < cols; k++ {
			share = append(share, (1-first)/float64(cols-1))
		}
	}
	left := -w / 2
	for c, h := range heads {
		cw := w * share[c]
		if h != "" {
			e := g.text(h, g.c.xUnits(left+cw/2), headY, fit(h, cw*0.9, math.Min(0.045, rowH*0.3)), g.ink, 800)
			g.enter(e, "fade", g.t+0.2, 0.5)
			parts = append(parts, e)
		}
		left += cw
	}
	for k, r := range rows {
		y := top + float64(k)*step
		stripe := g.bar(0, y, w, rowH*0.84, panel)
		at := g.stagger(k, n)
		g.enter(stripe, "right", at, 0.5)
		parts = append(parts, stripe)
		left := -w / 2
		for c, cell := range r.cells {
			if c >= len(share) {
				break
			}
			cw := w * share[c]
			x := g.c.xUnits(left + cw/2)
			left += cw
			col := ink
			if figInk != "" && c > 0 {
				col = figInk
			}
			if r.color != "" && c == len(r.cells)-1 {
				col = readableOn(r.color, panel) // "Delayed (in amber)"
			}
			size := fit(cell, cw*0.9, math.Min(0.06, rowH*0.36))
			var e *scene.Element
			if c > 0 && (cols == 2 || boardFigureRE.MatchString(cell)) {
				e = g.figure(cell, x, y, size, col)
				if r.from != "" && c == len(r.cells)-1 && e.Type == scene.TypeCounter {
					e.From, _ = moneyValue(r.from) // "$4.05 → $4.52": the digits tick on from the old price
				}
			} else {
				e = g.text(cell, x, y, size, col, map[bool]int{true: 800, false: 600}[c == 0])
			}
			e.In = stripe.ID
			g.enter(e, "right", at+0.1, 0.5)
			if e.Type == scene.TypeCounter {
				g.progress(e, at+0.3, math.Min(g.out, at+1.6), false)
				if to, ok := laterFigure(g.prompt, r.cells[0]); ok && to != e.To && e.To > 0 && r.from == "" {
					// "…the Otters jump to 99": the row's figure counts on, late in the hold.
					tr := trackOf(e)
					// The runtime eases a counter's progress out (cubic): this progress
					// shows the first figure.
					frac := round3(1 - math.Cbrt(1-math.Min(1, e.To/to)))
					tr["progress"][len(tr["progress"])-1].V = frac
					t1 := math.Max(at+1.9, g.out-1.4)
					key(tr, "progress", t1, frac, "")
					key(tr, "progress", t1+0.6, 1, "easeOutCubic")
					e.To = to
					g.c.motion(e, scene.Motion{Type: scene.MotionPulse, Start: t1 + 0.6, End: t1 + 1.1, Amp: 0.2, Count: 1})
				}
			}
			parts = append(parts, e)
		}
	}
	g.leave(parts...)
}

// laterFigureRE: a figure that changes later in the video ("the Otters' score jumps to
// 99", "Maya climbs to 45").
var laterFigureRE = regexp.MustCompile(`\b([A-Z][\w'’-]*)(?:['’]s?)?\s+(?:score\s+|total\s+|count\s+)?(?:then\s+)?(?:jumps?|goes|rises?|climbs?|moves?|ticks?|leaps?|grows?|drops?|falls?)\s+(?:up\s+|down\s+)?to\s+(\d[\d,]*(?:\.\d+)?)`)

// laterFigure is the figure the row named name changes to later, if the prompt says so.
func laterFigure(prompt, name string) (float64, bool) {
	for _, m := range laterFigureRE.FindAllStringSubmatch(prompt, -1) {
		if strings.Contains(strings.ToLower(name), strings.ToLower(strings.TrimRight(m[1], "'’s"))) {
			v, err := strconv.ParseFloat(strings.ReplaceAll(m[2], ",", ""), 64)
			return v, err == nil
		}
	}
	return 0, false
}

// readableOn is colour c darkened or lightened until words in it read on bg (4.5:1).
func readableOn(c, bg string) string {
	for k := 0; k < 12 && contrast(c, bg) < 4.6; k++ {
		if luminance(bg) > 0.5 {
			c = darken(c, 0.1)
		} else {
			c = lighten(c, 0.1)
		}
	}
	return c
}

// figure is a counter counting up to a figure with its unit ("42 books", "$4", "46%"),
// else the words as text.
func (g *genreFill) figure(v string, x, y, size float64, color string) *scene.Element {
	num, unit, _ := strings.Cut(v, " ")
	e := g.valueElem(num, x, y, size, color)
	if e.Type == scene.TypeCounter && unit != "" {
		e.Suffix += " " + unit
	} else if e.Type != scene.TypeCounter {
		e.Text = v
	}
	return e
}

var (
	goalAfterRE  = regexp.MustCompile(`(?i)^\s*(?:goal|target)\b`)
	goalBeforeRE = regexp.MustCompile(`(?i)\b(?:goal|target|aim)(?:\s+(?:is|of))?\s*:?\s*$|\b(?:of|toward|towards)\s+(?:our|the|a|an)?\s*$`)
	raisedWordRE = regexp.MustCompile(`(?i)\b(?:raised|collected|donated|reached|so far|pledged)\b`)
)

// moneyValue reads an amount ("$10,000", "$7.4k", "300 euros") as a number with its sign.
func moneyValue(m string) (float64, string) {
	sign := ""
	if strings.ContainsAny(m[:1], "$€£") {
		sign = m[:1]
	}
	num := figureRE.FindString(m)
	v, _ := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
	switch strings.ToLower(strings.TrimSpace(m[len(m)-1:])) {
	case "k":
		v *= 1e3
	case "m":
		v *= 1e6
	}
	return v, sign
}

// goalAmounts finds the amount raised and the goal: the amount a goal word stands
// next to is the goal, the one a raised word stands next to is raised, else the larger
// is the goal.
func goalAmounts(prompt string) (raised, goal float64, sign string) {
	locs := moneyRE.FindAllStringIndex(prompt, -1)
	prev := 0
	var all []float64
	defer func() {
		// An amount nothing names: the smaller is raised ("$450 of $1k"), the largest
		// the goal ("for 300 euros, 120 pledged").
		if raised == 0 {
			for _, v := range all {
				if v != goal && (raised == 0 || v < raised) {
					raised = v
				}
			}
		}
		if goal == 0 || goal == raised {
			for _, v := range all {
				if v != raised && v > goal {
					goal = v
				}
			}
		}
		if goal < raised {
			raised, goal = goal, raised
		}
		if raised == 0 && goal > 0 {
			raised = goal * 0.6
		}
	}()
	for _, l := range locs {
		v, sg := moneyValue(prompt[l[0]:l[1]])
		all = append(all, v)
		if sign == "" {
			sign = sg
		}
		// The words since the amount before, and just after: "raised $3,200 of our
		// $5,000 goal".
		before := prompt[max(prev, l[0]-24):l[0]]
		after := prompt[l[1]:min(len(prompt), l[1]+12)]
		prev = l[1]
		switch {
		case goalAfterRE.MatchString(after) || goalBeforeRE.MatchString(before):
			goal = v
		case raisedWordRE.MatchString(before) || raisedWordRE.MatchString(after):
			raised = v
		}
	}
	return raised, goal, sign
}

// goal lays a fundraiser's progress: who it is for, a thermometer (or a bar) whose fill
// rises to the share raised, the amount counting up and the goal under it.
func (g *genreFill) goal() {
	raised, goal, sign := goalAmounts(ratioRE.ReplaceAllString(g.b.Prompt, ""))
	if goal <= 0 {
		goal, raised = 100, 60
	}
	share := math.Min(1, raised/goal)
	who := g.quote(orDefault(g.b.Brand, ""))
	fill := "#e53935"
	if c := firstColor(g.b); c != "" {
		fill = c
	}
	portrait := g.c.tall()
	// The fill rises and the amount counts through the video's middle, and holds.
	a0, a1 := g.t+0.6, g.t+0.6+(g.out-g.t-0.6)*0.65
	var parts []*scene.Element
	// The tube: a tall rounded bar with a bulb at its foot, the fill rising inside it
	// (heights in y units; a bar's size is in sizes).
	tx, tubeH := g.c.xUnits(-0.32), 1.0
	if portrait {
		tx, tubeH = -0.5, 0.9
	}
	w, h := 0.09, tubeH/g.c.yUnits(1)
	tube := g.bar(tx, -0.05, w, h, "#e5e7eb")
	bottom := tube.Y + tubeH/2
	fh := h * math.Max(share, 0.05)
	f := g.add(&scene.Element{ID: g.id("fill"), Type: scene.TypeRect, X: tube.X, Y: round3(bottom - tubeH*share/2),
		Size: round3(fh / 2), Aspect: round3(w * 0.7 / fh), Color: fill, In: tube.ID})
	ftr := trackOf(f)
	key(ftr, "sy", 0, 0, "")
	key(ftr, "sy", a0, 0, "")
	key(ftr, "sy", a1, 1, "easeInOutSine")
	key(ftr, "y", 0, bottom, "")
	key(ftr, "y", a0, bottom, "")
	key(ftr, "y", a1, f.Y, "easeInOutSine")
	bulb := g.add(&scene.Element{ID: g.id("bulb"), Type: scene.TypeCircle, X: tube.X, Y: round3(bottom + 0.02), Size: round3(w * 0.9), Color: fill,
		In: tube.ID}) // the tube stands in its bulb: overlapping is meant
	g.enter(tube, "fade", g.t, 0.5)
	g.enter(bulb, "pop", g.t+0.2, 0.5)
	parts = append(parts, tube, f, bulb)
	// The words: who it is for, the amount counting up, the goal.
	wx := g.c.xUnits(0.22)
	if portrait {
		wx = 0.3
	}
	y := -0.3
	if who != "" {
		t := g.text(who, wx, y, fit(who, 0.8, 0.05), g.ink, 800)
		g.enter(t, "down", g.t, 0.6)
		parts = append(parts, t)
	}
	amt := g.add(&scene.Element{ID: g.id("value"), Type: scene.TypeCounter, X: round3(wx), Y: 0.02, Size: 0.11, Color: fill,
		From: 0, To: raised, Prefix: sign})
	g.enter(amt, "fade", g.t+0.3, 0.5)
	g.progress(amt, a0, a1, false)
	cap := "of " + sign + groupThousands(goal) + " goal"
	c := g.text(cap, wx, 0.3, fit(cap, 0.8, 0.04), lighten(g.ink, 0.15), 600)
	g.enter(c, "fade", g.t+0.5, 0.6)
	parts = append(parts, amt, c)
	g.leave(parts...)
}

// groupThousands writes 10000 as "10,000".
func groupThousands(v float64) string {
	s := strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// logoReveal draws the brand's mark (the drawing the prompt names, drawn as a pen lays it
// down; else a badge with its initials), then its name slides out beside it (below it in
// a vertical frame) and the tagline fades in under the name.
func (g *genreFill) logoReveal() {
	name := g.b.Brand
	quotes := g.rest()
	tagline := ""
	if len(quotes) > 0 && name == "" {
		name, quotes = quotes[0], quotes[1:]
	}
	if len(quotes) > 0 {
		tagline = quotes[0]
	}
	portrait := g.c.tall()
	mx, my, nx, ny := g.c.xUnits(-0.36), 0.0, g.c.xUnits(0.22), -0.04
	if portrait || name == "" {
		mx, my, nx, ny = 0, -0.22, 0, 0.22
	}
	var mark *scene.Element
	for _, sj := range g.b.Subjects {
		if sj.Asset != "" && !sj.Scenery {
			mark = g.add(&scene.Element{ID: g.id(slug(sj.Noun)), Type: scene.TypeAsset, Label: sj.Noun, Asset: sj.Asset,
				X: round3(mx), Y: my, Size: 0.17, Tint: sj.Color})
			break
		}
	}
	draw := g.t + 0.1
	if mark != nil {
		// Drawn line by line, then it settles with a small swell.
		g.c.motion(mark, scene.Motion{Type: scene.MotionDraw, Start: draw, End: draw + 1.4})
		key(trackOf(mark), "scale", 0, 1, "")
		key(trackOf(mark), "scale", draw+1.4, 1, "")
		key(trackOf(mark), "scale", draw+1.7, 1.08, "easeOutCubic")
		key(trackOf(mark), "scale", draw+2.0, 1, "easeInOutSine")
		// Then it breathes gently, so the hold is no still frame.
		g.c.motion(mark, scene.Motion{Type: scene.MotionFloat, Start: draw + 2.0, End: g.end, Amp: 0.03, Count: 2})
	} else {
		mark = g.add(&scene.Element{ID: g.id("logo"), Type: scene.TypeLogo, X: round3(mx), Y: my, Size: 0.13, Color: g.accent,
			Text: initials(orDefault(name, "Logo")), Color2: "#ffffff"})
		g.enter(mark, "pop", draw, 0.8)
	}
	parts := []*scene.Element{mark}
	at := draw + 1.6
	if name != "" {
		width := 1.0
		if portrait {
			width = 1.5
		}
		n := g.text(name, nx, ny, fit(name, width, 0.085), g.ink, 900)
		how := "left" // out from behind the mark, to its right
		if portrait {
			how = "down"
		}
		g.enter(n, how, at, 0.8)
		g.look(n, at)
		parts = append(parts, n)
		at += 0.5
	}
	if tagline != "" {
		tl := g.text(tagline, nx, ny+0.17, fit(tagline, 1.2, 0.04), lighten(g.ink, 0.15), 600)
		g.enter(tl, "fade", at+0.3, 0.7)
		parts = append(parts, tl)
	}
	g.leave(parts...)
}

var (
	// planRE: a column of a comparison, its name and price ("Pro at $12/month").
	planRE = regexp.MustCompile(`\b([A-Z][\w+]*(?: [A-Z][\w+]*)?)\s+(?:plan\s+)?(?:at|for|is|costs?|:)?\s*([$€£]\d[\d,.]*(?:\s?/\s?(?:month|mo|year|yr|user))?)`)
	// featuresRE: the list of rows after "rows for", "features:".
	featuresRE = regexp.MustCompile(`(?i)\b(?:rows? (?:for|of)|features?:?|comparing)\s+([^.;—–]+)`)
	// cellsRE: which rows a column ticks or crosses ("Basic gets grey crosses on the
	// last two", "Pro gets green ticks on all three").
	cellsRE = regexp.MustCompile(`(?i)\b([A-Z][\w+]*)\s+(?:gets?|has|shows?)\s+(?:[a-z]+\s+)?(ticks?|checks?|check ?marks?|crosses|x'?s)\s+(?:on|for)\s+(?:the\s+)?(all(?:\s+\w+)?|first\s+(\w+)|last\s+(\w+))`)
)

// comparisonTable lays plans side by side: a header of names and prices over a column
// each, the features as rows, a tick or a cross in every cell; the last column (the one
// a prompt usually sells) is highlighted.
func (g *genreFill) comparisonTable() {
	type col struct{ name, price string }
	var cols []col
	for _, m := range planRE.FindAllStringSubmatch(g.prompt, -1) {
		cols = append(cols, col{m[1], strings.TrimRight(m[2], ",.")})
	}
	if len(cols) < 2 {
		cols = []col{{"Basic", ""}, {"Pro", ""}}
	}
	cols = cols[:min(len(cols), 3)]
	var rows []string
	if m := featuresRE.FindStringSubmatch(g.prompt); m != nil {
		for _, f := range entrySplitRE.Split(m[1], -1) {
			if f = strings.TrimSpace(f); f != "" && len(f) < 30 {
				rows = append(rows, f)
			}
		}
	}
	rows = rows[:min(len(rows), 5)]
	n := len(rows)
	// Cells: the last column ticks every row, the others fewer, each one more than the
	// column before, unless the prompt says which.
	tick := make([][]bool, len(cols))
	for c := range cols {
		tick[c] = make([]bool, n)
		for r := range rows {
			tick[c][r] = c == len(cols)-1 || r < (c+1)*n/len(cols)
		}
	}
	for _, m := range cellsRE.FindAllStringSubmatch(g.prompt, -1) {
		c := slices.IndexFunc(cols, func(cl col) bool { return strings.EqualFold(cl.name, m[1]) })
		if c < 0 {
			continue
		}
		yes := !strings.HasPrefix(strings.ToLower(m[2]), "cross") && !strings.HasPrefix(strings.ToLower(m[2]), "x")
		lo, hi := 0, n
		if m[4] != "" {
			hi = min(n, countWord(m[4]))
		} else if m[5] != "" {
			lo = max(0, n-countWord(m[5]))
		}
		for r := lo; r < hi; r++ {
			tick[c][r] = yes
		}
		if !yes {
			for r := 0; r < lo; r++ {
				tick[c][r] = true // "crosses on the last two": the rest are ticks
			}
		}
	}
	portrait := g.c.tall()
	w := 1.5
	if portrait {
		w = 0.84
	} else if g.c.square() {
		w = 0.86
	}
	labW := w * 0.4
	colW := (w - labW) / float64(len(cols))
	rowH := math.Min(0.13, 0.7/float64(max(n, 1)+1))
	if portrait {
		rowH = math.Min(0.24, 1.2/float64(max(n, 1)+1))
	}
	step := g.c.yUnits(rowH)
	top := -float64(n)*step/2 + 0.02
	var parts []*scene.Element
	for c, cl := range cols {
		x := g.c.xUnits(-w/2 + labW + colW*(float64(c)+0.5))
		bg := g.panel
		if c == len(cols)-1 {
			bg = mix(g.panel, lighten(g.accent, 0.5))
		}
		band := g.bar(x, top+float64(n)*step/2-step*0.1, colW*0.92, rowH*(float64(n)+1.3), bg)
		g.enter(band, "up", g.stagger(c, len(cols)), 0.5)
		ink := "#111827"
		if luminance(bg) < 0.5 {
			ink = "#ffffff"
		}
		name := g.text(cl.name, x, top-step*0.25, fit(cl.name, colW*0.85, 0.045), ink, 900)
		name.In = band.ID
		parts = append(parts, band, name)
		g.enter(name, "fade", g.stagger(c, len(cols))+0.2, 0.4)
		if cl.price != "" {
			pr := g.text(cl.price, x, top+step*0.2, fit(cl.price, colW*0.85, 0.03), lighten(ink, 0.2), 700)
			pr.In = band.ID
			g.enter(pr, "fade", g.stagger(c, len(cols))+0.3, 0.4)
			parts = append(parts, pr)
		}
		for r := range rows {
			id := "cross mark"
			if tick[c][r] {
				id = "check mark button"
			}
			y := top + step*float64(r+1)
			if mk := g.drawing(id, x, y, math.Min(0.045, rowH*0.35)); mk != nil {
				mk.In = band.ID
				g.enter(mk, "pop", g.in+0.3*float64(r)+0.1*float64(c), 0.4)
				parts = append(parts, mk)
			}
		}
		if c == len(cols)-1 && highlightRE.MatchString(g.low) {
			g.c.motion(band, scene.Motion{Type: scene.MotionPulse, Start: g.out - 1.2, End: g.out, Amp: 0.05, Count: 2})
		}
	}
	for r, f := range rows {
		y := top + step*float64(r+1)
		t := g.text(f, g.c.xUnits(-w/2+labW/2), y, fit(f, labW*0.9, 0.036), g.ink, 700)
		g.enter(t, "right", g.in+0.3*float64(r), 0.4)
		parts = append(parts, t)
	}
	g.leave(parts...)
}

// countWord reads "two", "3" as a number (0 when it is none).
func countWord(w string) int {
	if v, ok := numberWords[strings.ToLower(w)]; ok {
		return int(v)
	}
	v, _ := strconv.Atoi(w)
	return v
}
