package builtin

import (
	"math"
	"regexp"
	"slices"

	"github.com/kodahq/koda/agent/scene"
)

// celebrateRE: a clause that ties its confetti or fireworks to a moment ("confetti on
// the winner", "fireworks at zero", "sparkles when it reaches 100%").
var celebrateRE = regexp.MustCompile(`\b(?:winner|wins|won|winning|at (?:zero|the end|the finish)|when (?:it|the \w+) (?:reach|hit|finish|end|complete)\w*|once (?:it|the \w+) (?:reach|hit|finish|end|complete)\w*|on (?:completion|finish))\b`)

// celebratory are the particle fields that celebrate (sparkles are drawn as stars).
var celebratory = map[string]bool{"confetti": true, "fireworks": true, "stars": true}

// celebrate holds back the confetti, fireworks or sparkles a clause ties to a moment
// until that moment: when the data has finished arriving (the bars have raced up, the
// count has reached zero), else when the last scene starts. Thrown from the first
// frame, they would celebrate nothing.
func (c *composer) celebrate() {
	for k, e := range c.subjects {
		if e.Type != scene.TypeParticles || !celebratory[e.Variant] {
			continue
		}
		tied := false
		for _, bt := range c.b.Beats {
			tied = tied || slices.Contains(bt.Subjects, c.index[k]) && celebrateRE.MatchString(bt.Text)
		}
		if !tied {
			continue
		}
		at := 0.0
		for _, o := range c.d.Elements {
			if !isDataType(o.Type) {
				continue
			}
			if kf := trackOf(o)["progress"]; len(kf) > 0 {
				at = math.Max(at, kf[len(kf)-1].T)
			}
		}
		if at <= 0 && len(c.bounds) > 2 {
			at = c.bounds[len(c.bounds)-2]
		}
		if at <= 0 || at >= c.bd.Total-0.3 {
			continue
		}
		e.Start = round3(at)
		if e.Tracks != nil {
			delete(e.Tracks, "opacity") // its intro fade would end before it starts
		}
	}
}
