package builtin

import (
	"math"
	"regexp"
	"strings"

	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
)

// The alert popup: a box that slides in at a corner over a stream or a game, with an
// icon, a title and a line, an optional counter ("+50 XP"), and slides back out. It is
// what streamers' alert boxes (a new follower, a donation) and games' achievement
// toasts look like; unlike a phone notification there is no phone.

var (
	// alertCueRE selects the layout; a pop-up shop is no popup box.
	alertCueRE    = regexp.MustCompile(`\bpop-?ups?\b|\btoast (?:notification|message|popup|alert)s?\b|\bachievements?\b|\b(?:follower|subscriber|sub|donation|raid|tip|cheer|bits|host) alerts?\b|\balert (?:box|popup|banner)\b|\bstream alerts?\b|\btrophy (?:unlocked|earned|popup)\b`)
	alertUnlessRE = regexp.MustCompile(`\bpop-?up (?:shop|store|stall|market|bar|restaurant|event|book|card)s?\b`)
	// cornerRE: where the box sits ("slides in top right", "in the bottom-left corner").
	cornerRE = regexp.MustCompile(`\b(top|bottom|upper|lower)[ -](left|right)\b|\b(left|right)[ -](top|bottom)\b`)
	// iconWordRE: the word before "icon" names the drawing ("trophy icon spins").
	iconWordRE = regexp.MustCompile(`\b([a-z]+)\s+(?:icon|emoji|symbol)\b`)
	// gainRE: a count the box shows ticking up ("a +50 XP counter", "+120 coins").
	gainRE = regexp.MustCompile(`[+]\s?\d[\d,]*\s?(?:[A-Za-z]{1,8})?`)
)

// alertKinds are the kinds of alert: the words that name one, its title when no quote
// gives one, and its drawing when the prompt names none. One row each, with an example
// in TestAlertKinds.
var alertKinds = []struct {
	Cue         *regexp.Regexp
	Title, Icon string
}{
	{regexp.MustCompile(`(?i)\bachievements?\b|\btroph(?:y|ies)\b`), "ACHIEVEMENT UNLOCKED", "trophy"},
	{regexp.MustCompile(`(?i)\b(?:new )?(?:follower|subscriber|sub|member)s?\b`), "NEW FOLLOWER", "bell"},
	{regexp.MustCompile(`(?i)\b(?:donation|tip|cheer|bits)s?\b`), "NEW DONATION", "money bag"},
	{regexp.MustCompile(`(?i)\blevel(?:ed)? up\b`), "LEVEL UP", "star"},
}

// alertKind is the row of alertKinds the prompt names; the last row (a level-up's star
// and a plain title) when none.
func alertKind(low string) (title, icon string) {
	for _, k := range alertKinds {
		if k.Cue.MatchString(low) {
			return k.Title, k.Icon
		}
	}
	return "NEW ALERT", "star"
}

// alertIcon is the drawing the box shows: the one named before "icon", else the
// prompt's first drawing, else its kind's (alertKinds).
func (g *genreFill) alertIcon() string {
	if m := iconWordRE.FindStringSubmatch(g.low); m != nil {
		if _, ok := assets.Find(m[1]); ok {
			return m[1]
		}
	}
	for _, s := range g.b.Subjects {
		if s.Asset != "" && !s.Scenery {
			return s.Noun
		}
	}
	_, icon := alertKind(g.low)
	return icon
}

func (g *genreFill) alertPopup() {
	title, line := "", ""
	if q := g.longestQuote(); q != "" {
		title, line = q, ""
		for _, sep := range []string{" — ", " – ", " - ", ": "} {
			if a, b, ok := strings.Cut(q, sep); ok && a != "" && b != "" {
				title, line = a, b
				break
			}
		}
	}
	if title == "" {
		title, _ = alertKind(g.low)
	}
	if line == "" {
		line = g.quote("")
	}
	gain := strings.TrimSpace(gainRE.FindString(g.prompt))
	g.consume(gain)

	// The corner asked for, top right when none: where such boxes sit over a stream.
	sx, sy := 1.0, -1.0
	if m := cornerRE.FindStringSubmatch(g.low); m != nil {
		w := strings.Join(m[1:], " ")
		if strings.Contains(w, "left") {
			sx = -1
		}
		if strings.Contains(w, "bottom") || strings.Contains(w, "lower") {
			sy = 1
		}
	}
	w, h := 1.05, 0.26
	if g.c.tall() || g.c.square() {
		w, h = 0.84, 0.24
		if g.c.square() {
			w = 0.88
		}
	}
	cx := sx * math.Max(0, 0.8-g.c.xUnits(w/2))
	cy := sy * (0.66 - g.c.yUnits(h/2))
	if g.c.tall() {
		cy = sy * 0.45 // clear of the platform's buttons and captions
	}
	// The box takes the prompt's first colour, darkened until white reads on it.
	box := "#111827"
	if c := firstColor(g.b); c != "" {
		box = solid(c)
	}
	ink := "#ffffff"
	if luminance(box) > 0.5 {
		ink = "#111827"
	}
	card := g.bar(cx, cy, w, h, box)
	card.Depicts = "alert box"
	left := cx - g.c.xUnits(w/2)
	icon := g.drawing(g.alertIcon(), left+g.c.xUnits(h*0.55), cy, h*0.3)
	textX := left + g.c.xUnits(h*1.05)
	textW := w - h*1.15
	if gain != "" {
		textW -= h * 0.9
	}
	tx := textX + g.c.xUnits(textW/2)
	ty := g.text(title, tx, cy-g.c.yUnits(h*0.17), fit(title, textW, 0.034), accentOn(g.accent, box), 900)
	parts := []*scene.Element{card, icon, ty}
	if line != "" {
		parts = append(parts, g.text(line, tx, cy+g.c.yUnits(h*0.17), fit(line, textW, 0.027), ink, 600))
	}
	from := "right"
	if sx < 0 {
		from = "left"
	}
	in := math.Max(g.t, g.end*0.08)
	for _, e := range parts {
		if e == nil {
			continue
		}
		g.enter(e, from, in, 0.55)
		if e != card {
			e.In = card.ID
		}
	}
	if icon != nil {
		how := scene.MotionPulse
		if regexp.MustCompile(`\b(?:spins?|spinning|rotates?|turns?)\b`).MatchString(g.low) {
			how = scene.MotionSpin
		}
		g.c.motion(icon, scene.Motion{Type: how, Start: in + 0.5, End: in + 1.7, Amp: 0.12, Count: 1})
	}
	if gain != "" {
		// "+50 XP" counts up from +0: the gain is what the alert is for.
		num, unit, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(gain, "+")), " ")
		n := g.figure(strings.ReplaceAll(num, ",", ""), cx+g.c.xUnits(w/2-h*0.55), cy, fit(gain, h*0.9, 0.04), accentOn(g.accent, box))
		if n.Type == scene.TypeCounter {
			n.Prefix = "+"
			if unit != "" {
				n.Suffix = " " + unit
			}
			g.progress(n, in+0.6, in+1.8, false)
		} else {
			n.Text = gain
		}
		n.In = card.ID
		g.enter(n, from, in, 0.55)
		parts = append(parts, n)
	}
	// Out the way it came, once it has been read: an alert does not stay.
	out := math.Max(in+2.4, g.out-0.6)
	off := entryFrom[from]
	for _, e := range parts {
		if e == nil {
			continue
		}
		g.c.motion(e, scene.Motion{Type: scene.MotionSlide, Start: out, End: out + 0.5, Ease: "easeInCubic", ToX: off.X * 2.4})
		tr := trackOf(e)
		key(tr, "opacity", out+0.3, 1, "")
		key(tr, "opacity", out+0.5, 0, "")
	}
}

// accentOn is c when it stands out on the box, else a light or dark ink.
func accentOn(c, box string) string {
	if c != "" && contrast(c, box) >= 3 {
		return c
	}
	if luminance(box) > 0.5 {
		return "#111827"
	}
	return "#fde68a"
}
