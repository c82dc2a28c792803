package builtin

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
)

// State changes: "a leaf turns from green to orange to deep red", "the sky fades from
// blue to pink". The subject is drawn in the first colour and turns into each of the
// others in turn during the action; the colours belong to it, not to whatever noun
// stands next to them. A drawing (an illustration) changes by a cross-fade to a copy
// painted the next colour; a shape by a recolour.

// stateRE: a change of colour "from A to B (to C …)"; the colours may carry a shade
// word ("deep red").
var stateRE = regexp.MustCompile(`\b(?:turns?|turning|goes|going|changes?|changing|fades?|fading|shifts?|shifting|transitions?|transforms?|morphs?|becomes?|goes)\s+(?:colou?rs?\s+)?from\s+((?:(?:deep|dark|light|bright|pale|soft|vivid|rich)\s+)?[a-z]+)((?:\s*(?:,|to|and then|then|into|before)\s+(?:(?:deep|dark|light|bright|pale|soft|vivid|rich)\s+)?[a-z]+)+)`)

var stateStepRE = regexp.MustCompile(`(?:,|to|and then|then|into|before)\s+((?:(?:deep|dark|light|bright|pale|soft|vivid|rich)\s+)?[a-z]+)`)

// stateChange is one such change: the colours in order, and the prompt before it (to
// find whose it is).
type stateChange struct {
	Before string
	Colors []string
}

// shadeColor reads "deep red" as a colour: the shade word darkens or lightens it.
func shadeColor(s string) (string, bool) {
	ws := strings.Fields(s)
	c, ok := colorOf(ws[len(ws)-1])
	if !ok {
		return "", false
	}
	if len(ws) > 1 {
		switch ws[0] {
		case "deep", "dark", "rich":
			c = darken(c, 0.3)
		case "light", "pale", "soft":
			c = lighten(c, 0.35)
		}
	}
	return c, true
}

// readStates takes the state changes out of the lower-cased prompt, so their colours are
// not read as other nouns' colours, and returns it.
func (b *brief) readStates(low string) string {
	return stateRE.ReplaceAllStringFunc(low, func(m string) string {
		loc := stateRE.FindStringSubmatchIndex(m)
		first, ok := shadeColor(m[loc[2]:loc[3]])
		if !ok {
			return m
		}
		// The steps run while they name colours: "to orange to deep red, then detaches"
		// ends at "red".
		cols, end := []string{first}, loc[3]
		steps := m[loc[4]:loc[5]]
		for _, st := range stateStepRE.FindAllStringSubmatchIndex(steps, -1) {
			c, ok := shadeColor(steps[st[2]:st[3]])
			if !ok {
				break
			}
			cols, end = append(cols, c), loc[4]+st[1]
		}
		if len(cols) < 2 {
			return m
		}
		at := strings.Index(low, m)
		b.States = append(b.States, stateChange{Before: low[:max(at, 0)], Colors: cols})
		for _, c := range cols {
			b.Colors = appendUnique(b.Colors, c)
		}
		return " " + m[end:]
	})
}

// clauseStartRE ends the clause before a state change.
var clauseStartRE = regexp.MustCompile(`[.;!?]\s|,\s*(?:then|and then|and)\s|\b(?:then|while|when|as|whereas)\b`)

// bindStates gives each state change to the subject its clause opens with ("a leaf on
// a branch turns from green to red" is the leaf's, not the branch's).
func (b *brief) bindStates() {
	for _, st := range b.States {
		clause := st.Before
		if locs := clauseStartRE.FindAllStringIndex(clause, -1); len(locs) > 0 {
			clause = clause[locs[len(locs)-1][1]:]
		}
		best, bestAt := -1, len(clause)+1
		for i, s := range b.Subjects {
			if at := strings.Index(clause, strings.TrimSuffix(s.Noun, "s")); at >= 0 && at < bestAt {
				best, bestAt = i, at
			}
		}
		if best < 0 {
			continue
		}
		b.Subjects[best].Color = st.Colors[0]
		b.Subjects[best].States = st.Colors[1:]
	}
}

// playStates turns each subject with a state change into its colours in turn over the
// action scenes.
func (c *composer) playStates() {
	a0, a1 := c.actionSpan()
	for i, e := range c.subjects {
		s := c.b.Subjects[c.index[i]]
		c.playForms(e, s.Forms, a0, a1)
		if len(s.States) == 0 {
			continue
		}
		n := len(s.States)
		step := (a1 - a0) / float64(n+1)
		for k, col := range s.States {
			t := a0 + step*float64(k+1)
			if e.Type != scene.TypeAsset {
				c.motion(e, scene.Motion{Type: scene.MotionRecolor, Start: t, End: t + 0.6, Color: col})
				continue
			}
			a, ok := assets.Default().Get(e.Asset)
			if !ok {
				continue
			}
			// A copy painted the next colour fades in over the drawing, moving as it does.
			cp := *e
			cp.ID, cp.In, cp.Tint, cp.Hue = fmt.Sprintf("%s-as-%d", e.ID, k+1), e.ID, "", 0
			if _, ok := a.Tint(col); ok {
				cp.Tint = col
			} else if h, ok := a.HueShift(col); ok {
				cp.Hue = h
			}
			cp.Tracks = map[string][]scene.Keyframe{}
			for name, kfs := range e.Tracks {
				if name != "opacity" {
					cp.Tracks[name] = append([]scene.Keyframe(nil), kfs...)
				}
			}
			cp.Motions = nil
			for _, m := range e.Motions {
				mm := *m
				cp.Motions = append(cp.Motions, &mm)
			}
			key(cp.Tracks, "opacity", 0, 0, "")
			key(cp.Tracks, "opacity", t, 0, "")
			key(cp.Tracks, "opacity", t+0.6, 1, "easeInOutSine")
			if kfs := e.Tracks["opacity"]; len(kfs) > 0 && kfs[len(kfs)-1].T > t+0.6 && kfs[len(kfs)-1].V < 1 {
				// It leaves with the drawing.
				key(cp.Tracks, "opacity", kfs[len(kfs)-1].T, kfs[len(kfs)-1].V, "")
			}
			c.insertAfter(c.lastCopyOf(e), &cp)
		}
	}
}

// lastCopyOf is the last element drawn as e or as a state of it, so each new state is
// drawn over the one before.
func (c *composer) lastCopyOf(e *scene.Element) *scene.Element {
	last := e
	for _, o := range c.d.Elements {
		if o.In == e.ID && strings.HasPrefix(o.ID, e.ID+"-as-") {
			last = o
		}
	}
	return last
}

// playForms plays a drawing becoming each of its forms in turn during [a0, a1]: each
// one fades and swells in where the one before stands, as that one fades out.
func (c *composer) playForms(e *scene.Element, forms []string, a0, a1 float64) {
	if len(forms) == 0 || e.Type != scene.TypeAsset {
		return
	}
	step := (a1 - a0) / float64(len(forms)+1)
	prev := e
	for k, id := range forms {
		t := a0 + step*float64(k+1)
		cp := *e
		cp.ID, cp.In, cp.Asset, cp.Tint, cp.Hue, cp.Label = fmt.Sprintf("%s-as-%d", e.ID, k+1), e.ID, id, "", 0, id
		cp.Tracks = map[string][]scene.Keyframe{}
		for name, kfs := range e.Tracks {
			if name != "opacity" && name != "scale" {
				cp.Tracks[name] = append([]scene.Keyframe(nil), kfs...)
			}
		}
		cp.Motions = nil
		key(cp.Tracks, "opacity", 0, 0, "")
		key(cp.Tracks, "opacity", t, 0, "")
		key(cp.Tracks, "opacity", t+0.6, 1, "easeInOutSine")
		key(cp.Tracks, "scale", 0, 0.6, "")
		key(cp.Tracks, "scale", t, 0.6, "")
		key(cp.Tracks, "scale", t+0.7, 1, "easeOutBack")
		pt := trackOf(prev)
		key(pt, "opacity", t, value(pt, "opacity", 1), "")
		key(pt, "opacity", t+0.6, 0, "easeInOutSine")
		c.insertAfter(prev, &cp)
		prev = &cp
	}
}
