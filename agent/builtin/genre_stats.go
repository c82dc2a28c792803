package builtin

import (
	"math"
	"regexp"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// A player card: the tall card of a football game's ultimate team, a trading card or an
// RPG character's sheet. Its rating and position in a corner, a portrait, the name,
// a grid of labelled stats and the club under them, on a card of its tier's metal.

// A cardStat is one labelled figure of a player card ("PAC 88", "Speed 7").
type cardStat struct{ Label, Value string }

// playerCard is what a player card shows, read from the prompt.
type playerCard struct {
	Name, Rating, Position, Club string
	Stats                        []cardStat
}

var (
	// cardRatingRE: the overall rating, either way round ("91 overall", "OVR 91", "level 12").
	cardRatingRE = regexp.MustCompile(`(?i)\b(?:overall|ovr|rating|rated|level|lvl|lv)\s*(?:of\s+)?[:=]?\s*(\d{1,3})\b|\b(\d{1,3})\s*(?:overall|ovr|rated)\b`)
	// cardStatRE: a label and its figure ("PAC 88", "Strength: 9", "Shot power 84").
	cardStatRE = regexp.MustCompile(`\b([A-Za-z][A-Za-z'’-]{1,11}(?:\s[A-Za-z][A-Za-z'’-]{1,11})?)\s*[:=]?\s*(\d{1,3})(?:\s*/\s*(?:10|20|100))?\b`)
	// cardStatRevRE: a figure before its short label, as the card prints it ("88 PAC").
	cardStatRevRE = regexp.MustCompile(`\b(\d{1,3})\s+([A-Z]{3})\b`)
	// cardPositionRE: a position or a class, as a code ("ST", "CAM", "PG") or a word.
	cardPositionRE = regexp.MustCompile(`\b(ST|CF|LW|RW|LF|RF|CAM|CM|CDM|LM|RM|LB|RB|LWB|RWB|CB|GK|PG|SG|SF|PF|QB|WR|TE|SS|DH|[Ss]triker|[Ff]orward|[Ww]inger|[Mm]idfielder|[Dd]efender|[Gg]oalkeeper|[Kk]eeper|[Pp]oint guard|[Qq]uarterback|[Pp]itcher|[Mm]age|[Ww]izard|[Ww]arrior|[Rr]ogue|[Rr]anger|[Pp]aladin|[Hh]ealer|[Aa]rcher|[Kk]night|[Cc]leric|[Bb]ard|[Dd]ruid|[Mm]onk|[Aa]ssassin|[Ss]orcerer|[Nn]ecromancer|[Bb]arbarian)\b`)
	// cardClubRE: the club, team or guild the card names ("club Harbour City FC").
	cardClubRE = regexp.MustCompile(`\b(?:[Cc]lub|[Tt]eam|[Pp]lays for|[Pp]laying for|[Gg]uild|[Ff]action|[Hh]ouse|[Nn]ation)\s*:?\s+(?:the\s+)?([A-Z][\p{L}\d'’&-]*(?:\s+[A-Z][\p{L}\d'’&-]*){0,3})`)
	// cardForRE: a one-word name after "for" or "of" ("a character card for Elara").
	cardForRE = regexp.MustCompile(`\b(?:for|of)\s+([A-Z][\p{L}'’-]+(?:\s[A-Z][\p{L}'’-]+)?)`)
	// cardNotLabel: words that lead into a figure without naming a stat.
	cardNotLabel = map[string]bool{"a": true, "an": true, "the": true, "and": true, "with": true, "of": true, "in": true, "at": true,
		"for": true, "to": true, "is": true, "has": true, "card": true, "number": true, "no": true, "season": true, "year": true,
		"club": true, "team": true, "overall": true, "ovr": true, "rating": true, "rated": true, "level": true, "lvl": true, "lv": true,
		"shirt": true, "jersey": true, "kit": true, "fifa": true, "fut": true, "fc": true, "ea": true, "then": true, "stats": true, "seconds": true}
	// cardNotName: capitalised words of the format, not a player's name.
	cardNotName = regexp.MustCompile(`(?i)\b(?:fifa|fut|ultimate|card|player|trading|character|rpg|style|gold|silver|bronze|club|team|pok[eé]mon|make|create|animated|vertical|square)\b`)
	// cardLoneNameRE: a one-word name standing before the stats' colon ("my dog
	// Biscuit:", "rogue Vex:").
	cardLoneNameRE = regexp.MustCompile(`\s([A-Z][\p{L}'’-]+):`)
	// cardRatingPosRE: a rating before its position, as the game prints them ("87 RW").
	cardRatingPosRE = regexp.MustCompile(`\b(\d{2})\s+(?:ST|CF|LW|RW|LF|RF|CAM|CM|CDM|LM|RM|LB|RB|LWB|RWB|CB|GK)\b`)
	// cardSportRE: the sport or role a card is drawn for; FIFA and FUT are football.
	cardSportRE = regexp.MustCompile(`\b(soccer|football|basketball|tennis|cricket|baseball|hockey|volleyball|rugby|golf|fifa|fut|mage|wizard|archer|knight|sword|warrior|paladin)\b`)
)

// cardStats reads a card's labelled stats in order, at most eight: "label figure",
// or "figure LABEL" when the prompt writes them the card's way round.
func cardStats(prompt string) []cardStat {
	// The rating is no stat ("91 overall"): its span is cut before the stats are read.
	s := cardRatingRE.ReplaceAllString(prompt, " ; ")
	// "81 PAC 74 SHO …": figures before their labels, which the forward reading would
	// pair off by one.
	if rev := cardStatRevRE.FindAllStringSubmatchIndex(s, -1); len(rev) >= 3 {
		if fw := cardStatRE.FindStringIndex(s); fw == nil || rev[0][0] < fw[0] {
			var out []cardStat
			for _, m := range rev {
				out = append(out, cardStat{s[m[4]:m[5]], s[m[2]:m[3]]})
			}
			return out[:min(len(out), 8)]
		}
	}
	var out []cardStat
	for _, m := range cardStatRE.FindAllStringSubmatchIndex(s, -1) {
		label, v := s[m[2]:m[3]], s[m[4]:m[5]]
		// A figure is no stat when a unit or an ordinal follows it ("5 minutes", "3rd").
		if rest := s[m[1]:]; regexp.MustCompile(`^(?:%|\s?(?:st|nd|rd|th|s|m|min|mins|minutes|sec|seconds|kg|cm|ft|years?|yo)\b|[.,]\d|:\d)`).MatchString(rest) {
			continue
		}
		ws := strings.Fields(label)
		for len(ws) > 0 && cardNotLabel[strings.ToLower(ws[0])] {
			ws = ws[1:]
		}
		if len(ws) == 0 || cardNotLabel[strings.ToLower(ws[len(ws)-1])] || cardPositionRE.MatchString(ws[0]) && len(ws) > 1 {
			continue
		}
		label = strings.Join(ws, " ")
		if len([]rune(label)) <= 3 {
			label = strings.ToUpper(label)
		} else {
			label = capitalize(label)
		}
		out = append(out, cardStat{label, v})
	}
	return out[:min(len(out), 8)]
}

// readPlayerCard reads a card: the name (a quote, a proper name, else one capitalised
// word after "for" or before the stats' colon), rating, position, club and stats.
func readPlayerCard(prompt string, texts []string) playerCard {
	c := playerCard{Stats: cardStats(prompt)}
	if m := cardRatingRE.FindStringSubmatch(prompt); m != nil {
		c.Rating = m[1] + m[2]
	} else if m := cardRatingPosRE.FindStringSubmatch(prompt); m != nil {
		c.Rating = m[1]
	}
	if m := cardPositionRE.FindString(prompt); m != "" {
		c.Position = strings.ToUpper(m)
	}
	if m := cardClubRE.FindStringSubmatch(prompt); m != nil {
		c.Club = strings.TrimRight(m[1], ".")
	}
	if len(texts) > 0 {
		c.Name = texts[0]
		return c
	}
	for _, n := range properRE.FindAllString(prompt, -1) {
		if !cardNotName.MatchString(n) && (c.Club == "" || !strings.Contains(c.Club, n)) && !weekdayRE.MatchString(n) {
			c.Name = n
			return c
		}
	}
	for _, re := range []*regexp.Regexp{cardForRE, cardLoneNameRE} {
		for _, m := range re.FindAllStringSubmatch(prompt, -1) {
			if !cardNotName.MatchString(m[1]) && (c.Club == "" || !strings.Contains(c.Club, m[1])) && !cardPositionRE.MatchString(m[1]) {
				c.Name = m[1]
				return c
			}
		}
	}
	return c
}

// cardMetal is the card's colour: its tier's metal when the prompt names one, else the
// first colour the prompt names outside the club's name, else gold; the second is the
// lighter sheen it shades to.
func (g *genreFill) cardMetal(club string) (string, string) {
	// A metal in the club's name ("guild Silver Moon") is no tier.
	low := g.low
	if club != "" {
		low = strings.ReplaceAll(low, strings.ToLower(club), "")
	}
	switch {
	case regexp.MustCompile(`\bsilver\b`).MatchString(low):
		return "#c3c9d2", "#eef1f5"
	case regexp.MustCompile(`\bbronze\b`).MatchString(low):
		return "#b8763f", "#e0a96f"
	case regexp.MustCompile(`\bgold(?:en)?\b`).MatchString(low):
		return "#d9b04a", "#f6e3a1"
	}
	for _, w := range strings.Fields(low) {
		if c, ok := colorOf(strings.Trim(w, ",.;:!?()")); ok && c != g.b.Background {
			// A shade darker than readable under white words: the card's sheen lightens
			// its upper corner, where the rating stands.
			if c = readable(c); inkOn(c) == "#ffffff" {
				c = darken(c, 0.12)
			}
			return c, lighten(c, 0.3)
		}
	}
	return "#d9b04a", "#f6e3a1"
}

// playerCardLayout: the card spins in edge-on to face the viewer; its rating and
// position, portrait, name, stats and club come onto it in turn, each stat's figure
// counting up; a sheen sweeps across it once it is whole, and again before it leaves.
func (g *genreFill) playerCardLayout() {
	pc := readPlayerCard(g.prompt, g.b.Texts)
	g.consume(pc.Name)
	name := orDefault(pc.Name, "Player")
	// The card's size in sizes: as tall as the frame allows, at a card's proportions.
	// As tall as the safe area leaves room for once the camera's slow push has grown it
	// by 3.5 %.
	H := 0.82
	if g.c.tall() {
		H = 1.2
	}
	W, k := H*0.7, H/0.82 // k: how much larger than in a wide frame
	metal, sheen := g.cardMetal(pc.Club)
	ink := inkOn(metal)
	muted := mixHex(ink, metal, 0.3)
	X := func(s float64) float64 { return round3(g.c.xUnits(s)) }
	Y := func(s float64) float64 { return round3(g.yu(s)) }
	card := g.bar(0, 0, W, H, metal)
	card.Label, card.Shadow = "player card", true
	// The sheen: a bright slanted band crossing the card, over its face and under its
	// words (so drawn next); a backdrop (Depth just under 1), so the critic reads the
	// words over it as on the card.
	band := g.add(&scene.Element{ID: g.id("shimmer"), Type: scene.TypePath, Label: "shimmer", In: card.ID, Depth: 0.99,
		Path: "M-0.35,-1 L0.05,-1 L0.35,1 L-0.05,1 Z", X: X(-W * 0.28), Y: 0, Size: round3(H / 2 * 0.96), Color: sheen})
	// A full turn about its upright axis: it arrives edge-on and spins to face us.
	spin := g.t + 0.9
	g.enter(card, "pop", g.t, 0.5)
	g.c.motion(card, scene.Motion{Type: scene.MotionFlip, Start: g.t, End: spin, Count: 2, Color: darken(metal, 0.25), Ease: "easeOutCubic"})
	parts := []*scene.Element{card}
	at := spin + 0.1
	put := func(e *scene.Element, how string, dur float64) {
		e.In = card.ID
		g.enter(e, how, at, dur)
		parts = append(parts, e)
		at += 0.12
	}
	// The corner: rating over position, as the game prints them.
	cx, top := -W/2+W*0.17, -H/2
	if pc.Rating != "" {
		put(g.text(pc.Rating, X(cx), Y(top+H*0.13), 0.08*k, ink, 900), "pop", 0.5)
	}
	if pc.Position != "" {
		put(g.text(pc.Position, X(cx), Y(top+H*0.22), fitBold(pc.Position, W*0.26, 0.036*k), ink, 700), "fade", 0.4)
	}
	// The portrait: the sport's or role's drawing when the prompt names one, else the
	// initials on a disc, right of the corner.
	px, py, pr := W*0.1, top+H*0.24, H*0.15
	var face *scene.Element
	if m := cardSportRE.FindStringSubmatch(g.low); m != nil {
		word := map[string]string{"fifa": "soccer ball", "fut": "soccer ball", "football": "soccer ball"}[m[1]]
		face = g.drawing(orDefault(word, m[1]), X(px), Y(py), pr)
	}
	if face == nil {
		disc := g.add(&scene.Element{ID: g.id("portrait"), Type: scene.TypePath, Path: circlePath, Label: name,
			X: X(px), Y: Y(py), Size: round3(pr * 0.9), Color: solid(darken(metal, 0.35))})
		put(disc, "pop", 0.5)
		ini := g.text(monogram(name), X(px), Y(py), round3(pr*0.75), "#ffffff", 800)
		ini.In = disc.ID
		g.enter(ini, "pop", at, 0.5)
		parts = append(parts, ini)
	} else {
		put(face, "pop", 0.6)
	}
	nm := g.text(strings.ToUpper(name), 0, Y(top+H*0.47), fitBold(name, W*0.86, 0.055*k), ink, 900)
	nm.Reveal = "track"
	put(nm, "fade", 0.6)
	rule := g.bar(0, Y(top+H*0.535), W*0.78, 0.005, muted)
	put(rule, "fade", 0.4)
	// The stats: two columns, figure then label, as the game prints them.
	stats := pc.Stats
	rows := (len(stats) + 1) / 2
	y0, rowH := top+H*0.61, math.Min(0.075*k, H*0.27/float64(max(rows, 1)))
	vs, ls := math.Min(0.05*k, rowH*0.72), math.Min(0.036*k, rowH*0.52)
	// Long labels ("Intelligence") would shrink every label: the card then prints them
	// all as the game does, by their first three letters.
	short := false
	for _, s := range stats {
		short = short || len([]rune(s.Label)) > 8
	}
	longest := 0
	for i, s := range stats {
		if short && len([]rune(s.Label)) > 3 {
			stats[i].Label = strings.ToUpper(string([]rune(s.Label)[:3]))
		}
		longest = max(longest, len([]rune(stats[i].Label)))
	}
	ls = math.Min(ls, fitBold(strings.Repeat("M", longest), W*0.24, ls))
	for k, s := range stats {
		col, row := k%2, k/2
		colX := -W/4 + W/2*float64(col)
		y := Y(y0 + rowH*float64(row))
		// The figure ends just left of the column's middle, the label starts just right
		// of it, whatever their lengths.
		v := g.valueElem(s.Value, X(colX-W*0.05-0.62*vs*float64(len(s.Value))/2), y, vs, ink)
		lb := g.text(s.Label, X(leftAt(s.Label, colX-W*0.02, ls, W*0.26, true)), y, ls, muted, 700)
		v.In, lb.In = card.ID, card.ID
		g.enter(v, "fade", at, 0.4)
		g.enter(lb, "fade", at, 0.4)
		if v.Type == scene.TypeCounter {
			g.progress(v, at, math.Min(g.out, at+0.9), false)
		}
		parts = append(parts, v, lb)
		at += 0.1
	}
	if pc.Club != "" {
		put(g.text(pc.Club, 0, Y(H/2-H*0.075), fit(pc.Club, W*0.8, 0.034*k), ink, 700), "fade", 0.5)
	}
	// Twice: once when the card is whole, once before it leaves.
	tr := trackOf(band)
	key(tr, "opacity", 0, 0, "")
	for _, s := range []float64{at + 0.3, math.Max(at+1.6, g.out-1.0)} {
		if s+0.8 > g.out {
			break
		}
		key(tr, "opacity", s, 0, "")
		key(tr, "opacity", s+0.15, 0.4, "")
		key(tr, "opacity", s+0.65, 0.4, "")
		key(tr, "opacity", s+0.8, 0, "")
		key(tr, "x", s, X(-W*0.28), "")
		key(tr, "x", s+0.8, X(W*0.28), "easeInOutSine")
	}
	g.leave(parts...)
}

// playerCardCueRE: the kinds of card that carry a player's stats (a game's ultimate
// team, a trading card of a sport, an RPG character) and the words of their sheets.
var playerCardCueRE = regexp.MustCompile(`\b(?:fifa|fut|ultimate team|ea (?:sports )?fc|panini|topps|pok[eé]mon|trading|collectible|baseball|football|soccer|basketball|hockey|cricket|rookie|player|athlete|character|hero|rpg|fighter|champion)[- ](?:style )?(?:player |character )?cards?\b|\bcharacter (?:sheet|stats)\b|\b(?:rpg|player) stats\b|\bcards?\b[^.]*\b(?:overall|ovr)\b`)
