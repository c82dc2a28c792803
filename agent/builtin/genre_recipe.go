package builtin

import (
	"math"
	"regexp"
	"strings"

	"github.com/kodahq/koda/agent/scene"
)

// A recipe card: the dish's name and drawing, its times and servings as chips, the
// ingredients with their quantities, one by one, then the method's numbered steps.

// An ingredient is one line of a recipe's list: its quantity as written ("200 g",
// "2", "a pinch of") and what it is of.
type ingredient struct{ Qty, Name string }

// recipe is what a recipe card shows, read from the prompt.
type recipe struct {
	Title       string
	Ingredients []ingredient
	Steps       []string
	Chips       []string
}

var (
	// recipeListRE: the ingredients, after their word, up to the method or the
	// sentence's end.
	recipeListRE = regexp.MustCompile(`(?i)\b(?:ingredients?|you(?:'ll| will)? need)\s*(?:are|:|-|—|–)?\s*(.+?)(?:\.\s|\.$|;?\s*\b(?:method|steps|instructions|directions)\b|$)`)
	// recipeMethodRE: the method, after its word, to the end of the prompt.
	recipeMethodRE = regexp.MustCompile(`(?i)\b(?:method|steps|instructions|directions)\s*(?::|-|—|–)\s*(.+)$`)
	// recipeQtyRE: a quantity leading an ingredient ("200 g", "1 1/2 cups", "a pinch of").
	recipeQtyRE = regexp.MustCompile(`(?i)^((?:\d+(?:[.,/]\d+)?(?:\s\d/\d)?|[½¼¾⅓]|\d[½¼¾]|a|an|one|two|three|four|five|six|half an?)\s*(?:g|grams?|kg|ml|l|litres?|liters?|tbsp|tsp|tablespoons?|teaspoons?|cups?|oz|ounces?|lbs?|pounds?|pinch(?:es)?|cloves?|slices?|handfuls?|cans?|tins?|sticks?|knobs?|bunch(?:es)?|sprigs?|dash(?:es)?|splash(?:es)?)?\.?)\s+(?:of\s+)?(\S.*)$`)
	// recipeTimeRE: a time chip ("prep 10 min", "cook: 25 minutes", "ready in 1 hour").
	// A baking time is left to its step ("bake 60 minutes at 180°C").
	recipeTimeRE = regexp.MustCompile(`(?i)\b(prep|cook|cooking|total|ready in|rest|chill)\w*(?:\s+time)?\s*:?\s*(\d+(?:\s*[-–]\s*\d+)?\s*(?:min(?:ute)?s?|hours?|hrs?|h)\b)`)
	// recipeServesRE: how many it serves or makes ("serves 4", "12 cookies", "4 portions").
	recipeServesRE = regexp.MustCompile(`(?i)\b(?:serves|feeds)\s+(\d+(?:\s*[-–]\s*\d+)?)|\b(\d+)\s+(?:servings|portions|people)\b|\bmakes\s+(\d+(?:\s+[a-z]+)?)`)
	// recipeTitleRE: the dish named after "recipe for" or before "recipe".
	recipeTitleRE = regexp.MustCompile(`(?i)\brecipe(?:\s+(?:card|video|reel|post|animation))?\s+(?:for|of)\s+(?:an?\s+|the\s+|my\s+|our\s+)?([^:,.;—–(]+?)(?:\s*[:,.;—–(]|\s+-\s|\s+with\b|$)`)
	recipeHowRE   = regexp.MustCompile(`(?i)\bhow to (?:make|cook|bake)\s+(?:an?\s+|the\s+|perfect\s+)?([^:,.;—–(]+?)(?:\s*[:,.;—–(]|\s+-\s|\s+with\b|$)`)
	// recipeAfterRE: the dish named after "recipe card," ("Recipe card, Spaghetti
	// Carbonara: …").
	recipeAfterRE  = regexp.MustCompile(`(?i)\brecipe(?:\s+card)?\s*[,:—–]\s*([A-Z][^:,.;]+?)\s*[:,.;—–]`)
	recipeNotTitle = regexp.MustCompile(`(?i)^(?:quick|easy|simple|vertical|square|animated|my|our|a|an|the|new|ingredients)$`)
	recipeBeforeRE = regexp.MustCompile(`(?i)\b(?:an?|the|my|our)?\s*((?:[\p{L}'’-]+\s+){0,3}?[\p{L}'’-]+)\s+recipe\b`)
	// recipeStepSepRE: where unnumbered steps part.
	recipeStepSepRE = regexp.MustCompile(`(?i)\s*(?:[.;]\s+|,?\s+then\s+|\s*(?:→|->)\s*)`)
	recipeCommaRE   = regexp.MustCompile(`(?i)\s*(?:[.;,]\s+|\s+then\s+|\s*(?:→|->)\s*)`)
)

// readRecipe reads a recipe: its title (a quote, the dish a recipe is "for", the
// words before "recipe"), the ingredients with their quantities, the method's steps
// (numbered, else its sentences and "then"s) and the chips of its times and servings.
func readRecipe(prompt string, texts []string) recipe {
	var r recipe
	if len(texts) > 0 {
		r.Title = texts[0]
	} else if m := recipeTitleRE.FindStringSubmatch(prompt); m != nil {
		r.Title = capitalize(strings.TrimSpace(m[1]))
	} else if m := recipeHowRE.FindStringSubmatch(prompt); m != nil {
		r.Title = capitalize(strings.TrimSpace(m[1]))
	} else if m := recipeAfterRE.FindStringSubmatch(prompt); m != nil && !recipeNotTitle.MatchString(m[1]) {
		r.Title = strings.TrimSpace(m[1])
	} else if m := recipeBeforeRE.FindStringSubmatch(prompt); m != nil && !genreCommon[strings.ToLower(m[1])] && !recipeNotTitle.MatchString(m[1]) {
		r.Title = capitalize(strings.TrimSpace(m[1]))
	}
	// Times and servings come out of the text first: "Prep 10 min" is no step.
	rest := prompt
	for _, m := range recipeTimeRE.FindAllStringSubmatch(prompt, -1) {
		word := strings.ToLower(m[1])
		if w, ok := map[string]string{"cooking": "cook", "ready in": "total"}[word]; ok {
			word = w
		}
		r.Chips = append(r.Chips, capitalize(word)+" "+strings.Join(strings.Fields(m[2]), " "))
		rest = strings.Replace(rest, m[0], "", 1)
	}
	if m := recipeServesRE.FindStringSubmatch(prompt); m != nil {
		switch {
		case m[1] != "":
			r.Chips = append(r.Chips, "Serves "+m[1])
		case m[2] != "":
			r.Chips = append(r.Chips, "Serves "+m[2])
		default:
			r.Chips = append(r.Chips, "Makes "+m[3])
		}
		rest = strings.Replace(rest, m[0], "", 1)
	}
	body := ""
	if m := recipeListRE.FindStringSubmatchIndex(rest); m != nil {
		// Without a word for the method, the sentences after the list are its steps.
		body = rest[m[1]:]
		for _, it := range topItems(rest[m[2]:m[3]]) {
			it = strings.Trim(it, " .")
			if it == "" || len(strings.Fields(it)) > 7 {
				continue
			}
			in := ingredient{Name: it}
			if q := recipeQtyRE.FindStringSubmatch(it); q != nil {
				in = ingredient{Qty: strings.TrimSpace(q[1]), Name: q[2]}
				if regexp.MustCompile(`(?i)^(?:an?|half)\b`).MatchString(in.Qty) {
					in = ingredient{Name: it} // "a pinch of salt", "an onion" read as a whole
				}
			}
			in.Name = capitalize(in.Name)
			r.Ingredients = append(r.Ingredients, in)
		}
	}
	if m := recipeMethodRE.FindStringSubmatch(rest); m != nil {
		body = m[1]
	}
	if body = strings.TrimSpace(body); body != "" {
		if steps := enumerated(body); len(steps) >= 2 {
			r.Steps = steps
		} else {
			// Sentences and "then"s part the steps; a run of short commands ("mash,
			// mix, bake") is parted at its commas.
			for _, sep := range []*regexp.Regexp{recipeStepSepRE, recipeCommaRE} {
				r.Steps = nil
				for _, s := range sep.Split(body, -1) {
					if s = strings.Trim(s, " ,.;"); s != "" && len(strings.Fields(s)) <= 14 {
						r.Steps = append(r.Steps, s)
					}
				}
				if len(r.Steps) >= 2 {
					break
				}
			}
		}
	}
	for i, s := range r.Steps {
		r.Steps[i] = capitalize(strings.Trim(s, " ,.;"))
	}
	r.Ingredients = r.Ingredients[:min(len(r.Ingredients), 8)]
	r.Steps = r.Steps[:min(len(r.Steps), 6)]
	return r
}

// recipeCard: a card of paper; the dish's drawing and name at its head with the chips
// of its times and servings under them; the ingredients come in one by one, each
// quantity in the accent before its name, then the method's steps, numbered. A wide
// frame sets the two lists side by side, a tall one one above the other.
func (g *genreFill) recipeCard() {
	r := readRecipe(g.prompt, g.b.Texts)
	g.consume(r.Title)
	tall, square := g.c.tall(), g.c.square()
	// As large as the safe area leaves room for once the camera's slow push has grown
	// it by 3.5 %.
	W, H := 1.5, 0.82
	switch {
	case tall:
		W, H = 0.9, 1.3
	case square:
		W, H = 0.84, 0.82
	}
	paper, ink := "#fbf6e9", "#1f2937"
	if luminance(g.c.bd.Palette.Background[0]) > 0.8 {
		paper = "#f3ead3"
	}
	accent := solid(orDefault(firstColor(g.b), "#c2410c"))
	X := func(s float64) float64 { return round3(g.c.xUnits(s)) }
	Y := func(s float64) float64 { return round3(g.yu(s)) }
	card := g.bar(0, 0, W, H, paper)
	card.Label, card.Shadow = "recipe card", true
	g.enter(card, "up", g.t, 0.6)
	parts := []*scene.Element{card}
	on := func(e *scene.Element) *scene.Element {
		e.In = card.ID
		parts = append(parts, e)
		return e
	}
	top := -H/2 + 0.06
	at := g.t + 0.4
	// The head: the dish's drawing, its name, the chips.
	title := orDefault(r.Title, "Recipe")
	var dish *scene.Element
	// A wide card has room for the drawing left of the name; a tall or square one puts
	// it above.
	above := tall || square
	ds := 0.085
	switch {
	case tall:
		ds = 0.1
	case square:
		ds = 0.065
	}
	// The dish's last word names it more often than its first ("Lemon Pancakes").
	for _, phrase := range []string{lastWord(title), title} {
		if dish = g.drawing(phrase, 0, 0, ds); dish != nil {
			break
		}
	}
	if dish == nil {
		for _, sj := range g.b.Subjects {
			if sj.Asset != "" && !sj.Scenery {
				dish = g.add(&scene.Element{ID: g.id(slug(sj.Noun)), Type: scene.TypeAsset, Label: sj.Noun, Asset: sj.Asset, Size: ds, Tint: sj.Color})
				break
			}
		}
	}
	titleW := W * 0.8
	ty := top + 0.06
	if dish != nil {
		// A line drawing takes the accent, which reads on the paper.
		dish.Color = accent
		if above {
			dish.X, dish.Y = 0, Y(top+ds+0.01)
			ty = top + 2*ds + 0.06
		} else {
			// Left of the name, which takes the width beside it.
			dish.X, dish.Y = X(-W/2+0.08+ds), Y(top+ds*0.9)
			ty = top + ds*0.9
			titleW = W - 2*(0.12+2*ds)
		}
		on(dish)
		g.enter(dish, "pop", at, 0.6)
	}
	ts := fitBold(title, titleW, 0.075)
	if tall {
		ts = fitBold(title, titleW, 0.08)
	}
	head := on(g.text(title, 0, Y(ty), ts, ink, 800))
	head.Wrap = round3(titleW)
	g.enter(head, "fade", at+0.1, 0.6)
	y := ty + ts*0.7 + 0.05
	if dish != nil && !above {
		y = math.Max(y, top+2*ds*0.9+0.03)
	}
	if len(r.Chips) > 0 {
		ch, gap, cs := 0.056, 0.02, 0.03
		if tall {
			ch, cs = 0.06, 0.032
		}
		widths, total := make([]float64, len(r.Chips)), 0.0
		for i, c := range r.Chips {
			widths[i] = 0.66*cs*float64(len([]rune(c))) + 0.05
			total += widths[i]
		}
		total += gap * float64(len(r.Chips)-1)
		if room := W - 0.16; total > room {
			// A narrow card takes the chips smaller rather than over its edges.
			k := room / total
			cs, total = cs*k, room
			for i := range widths {
				widths[i] *= k
			}
			gap *= k
		}
		x := -total / 2
		for i, c := range r.Chips {
			cx := x + widths[i]/2
			p := on(g.pill(X(cx), Y(y), widths[i], ch, lighten(accent, 0.78)))
			p.Label = c
			t := on(g.text(c, X(cx), Y(y), cs, solid(accent), 700))
			t.In = p.ID
			g.enter(p, "pop", at+0.4+0.1*float64(i), 0.4)
			g.enter(t, "fade", at+0.55+0.1*float64(i), 0.3)
			x += widths[i] + gap
		}
		y += ch + 0.04
	}
	rule := on(g.bar(0, Y(y), W*0.86, 0.004, mixHex(ink, paper, 0.75)))
	g.enter(rule, "fade", at+0.3, 0.4)
	y += 0.04
	// The two lists: side by side in a wide or square frame, stacked in a tall one.
	// The lists keep clear of the card's edges, which come in a little as it settles
	// back at the end (its words do not move).
	bottom := H/2 - 0.07
	if tall {
		bottom = H/2 - 0.1 // the paper's shading darkens its foot, under the last step
	}
	type column struct{ x, w, y0, y1 float64 }
	// The method's sentences take more width than the ingredients' words.
	split := -W/2 + 0.42*W
	left := column{(-W/2 + split) / 2, split + W/2 - 0.1, y, bottom}
	right := column{(split + W/2) / 2, W/2 - split - 0.1, y, bottom}
	if tall {
		mid := y + (bottom-y)*float64(len(r.Ingredients)+1)/float64(len(r.Ingredients)+1+int(1.6*float64(len(r.Steps)+1)))
		left, right = column{0, W - 0.14, y, mid}, column{0, W - 0.14, mid, bottom}
	}
	hs := 0.034
	if tall {
		hs = 0.04
	}
	each := math.Min(0.45, (g.out-g.in-1.2)/float64(len(r.Ingredients)+len(r.Steps)+1))
	at = g.in
	if len(r.Ingredients) > 0 {
		x0 := left.x - left.w/2 + 0.05
		lh := on(g.text("INGREDIENTS", X(leftAt("INGREDIENTS", x0, hs, left.w, true)), Y(left.y0+hs*0.6), hs, accent, 800))
		lh.Reveal = "track"
		g.enter(lh, "fade", at, 0.5)
		n := float64(len(r.Ingredients))
		row := math.Min(0.062, (left.y1-left.y0-hs*1.4)/n)
		if tall {
			row = math.Min(0.075, (left.y1-left.y0-hs*1.4)/n)
		}
		size := math.Min(0.034, row*0.6)
		if tall {
			size = math.Min(0.042, row*0.6)
		}
		for k, in := range r.Ingredients {
			s := in.Name
			if in.Qty != "" {
				s = in.Qty + "  " + in.Name
			}
			ly := left.y0 + hs*1.4 + row*(float64(k)+0.5)
			dot := on(g.add(&scene.Element{ID: g.id("bullet"), Type: scene.TypePath, Path: circlePath, Label: "bullet",
				X: X(x0 + 0.01), Y: Y(ly), Size: round3(size * 0.18), Color: accent}))
			fs := fit(s, left.w-0.05, size)
			t := on(g.text(s, X(leftAt(s, x0+0.04, fs, left.w-0.05, false)), Y(ly), fs, ink, 600))
			t.Wrap = round3(left.w - 0.04)
			g.enter(dot, "pop", at+0.3+each*float64(k), 0.3)
			g.enter(t, "left", at+0.3+each*float64(k), 0.45)
		}
		at += 0.3 + each*n
	}
	if len(r.Steps) > 0 {
		mh := on(g.text("METHOD", X(leftAt("METHOD", right.x-right.w/2+0.02, hs, right.w, true)), Y(right.y0+hs*0.6), hs, accent, 800))
		mh.Reveal = "track"
		g.enter(mh, "fade", at, 0.5)
		n := float64(len(r.Steps))
		row := math.Min(0.12, (right.y1-right.y0-hs*1.4)/n)
		size := math.Min(0.03, row*0.34)
		if tall {
			size = math.Min(0.038, row*0.36)
		}
		disc := math.Min(0.026, row*0.25)
		if tall {
			disc = math.Min(0.03, row*0.28)
		}
		for k, st := range r.Steps {
			sy := right.y0 + hs*1.4 + row*(float64(k)+0.5)
			dx := right.x - right.w/2 + disc
			d := on(g.add(&scene.Element{ID: g.id("step"), Type: scene.TypePath, Path: circlePath, Label: "step",
				X: X(dx), Y: Y(sy), Size: round3(disc), Color: accent}))
			num := on(g.text(string(rune('1'+k)), X(dx), Y(sy), round3(disc*1.4), "#ffffff", 800))
			num.In = d.ID
			tw := right.w - 2*disc - 0.03
			fs := math.Max(size*0.75, math.Min(size, fit(st, tw*2, size)))
			t := on(g.text(st, X(leftAt(st, dx+disc+0.025, fs, tw, false)), Y(sy), fs, ink, 500))
			t.Wrap = round3(tw)
			when := at + 0.3 + each*float64(k)
			g.enter(d, "pop", when, 0.4)
			g.enter(num, "pop", when, 0.4)
			g.enter(t, "fade", when+0.15, 0.45)
		}
	}
	g.leave(parts...)
}

// recipeCueRE: the words of a recipe card; the row needs two ingredients listed too.
var recipeCueRE = regexp.MustCompile(`\brecipes?\b|\bingredients?\b|\bhow to (?:make|cook|bake)\b|\byou(?:'ll| will)? need\b`)

// leftAt is the x (sizes) of the centre of words whose left edge stands at left, at
// most most wide: the runtime centres words on their x, so a list aligned on its left
// is placed by its width, measured as the critic measures words.
func leftAt(s string, left, size, most float64, bold bool) float64 {
	k := 0.55
	if bold {
		k = 0.66
	}
	return left + math.Min(most, k*size*float64(len([]rune(s))))/2
}
