package templates

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/scene"
)

// Shared finds the stretch of a template batch's timeline whose frames no row changes:
// from the start until the first element a row changes may show, and from when the
// last one has gone until the end. ref is the scene the shared frames are rendered
// from (the template's own values, fitted to the batch's frames as the rows are),
// rows are the rows' filled scenes, and set names the fields any row gives a value
// (a field no row sets keeps the template's value in every row).
//
// An element a row changes is, conservatively:
//   - one a set field fills: its text, counter target, chart series or picture;
//   - one that uses a colour of a set palette field (a recolour reaches every use);
//   - one whose description differs between ref and any row (the fit rules moved,
//     shrank or recoloured it to make room for a row's text);
//   - one placed by such an element: in it (Element.In) or orbiting it.
//
// A change to what every frame shows (a set palette colour in the background, or any
// difference in the background, camera, effects, font, safe area, rate or length)
// leaves nothing shared. This is the one place the rule lives; the batch renders
// whatever it returns.
func Shared(ref *scene.Description, rows []*scene.Description, fields []koda.TemplateField, set []string) koda.SharedStretch {
	dep := map[string]bool{}
	for _, f := range fields {
		if !slices.Contains(set, f.Name) {
			continue
		}
		kind, key, _ := strings.Cut(f.Target, ":")
		switch kind {
		case targetText, targetNumber, targetSeries, targetImage:
			dep[key] = true
		case targetPalette:
			if usesColour(ref.Background, key) {
				return koda.SharedStretch{}
			}
			for _, e := range ref.Elements {
				eachColour(e, func(c *string) {
					if strings.EqualFold(*c, key) {
						dep[e.ID] = true
					}
				})
			}
		case targetAudio:
			// The soundtrack is laid under the joined video, never inside a part.
		default:
			return koda.SharedStretch{} // a target this rule does not know
		}
	}
	refEls := map[string][]byte{}
	var refIDs []string
	for _, e := range ref.Elements {
		b, _ := json.Marshal(e)
		refEls[e.ID] = b
		refIDs = append(refIDs, e.ID)
	}
	refFrame := frameJSON(ref)
	for _, row := range rows {
		if !bytes.Equal(frameJSON(row), refFrame) {
			return koda.SharedStretch{}
		}
		var ids []string
		for _, e := range row.Elements {
			ids = append(ids, e.ID)
			if b, _ := json.Marshal(e); !bytes.Equal(b, refEls[e.ID]) {
				dep[e.ID] = true
			}
		}
		if !slices.Equal(ids, refIDs) {
			return koda.SharedStretch{} // elements added, dropped or drawn in another order
		}
	}
	// What is in or orbits a changed element moves with it.
	for grew := true; grew; {
		grew = false
		for _, e := range ref.Elements {
			if dep[e.ID] {
				continue
			}
			placed := e.In != "" && dep[e.In]
			for _, m := range e.Motions {
				placed = placed || (m.Around != "" && dep[m.Around])
			}
			if placed {
				dep[e.ID], grew = true, true
			}
		}
	}
	first, last, any := ref.Duration, 0.0, false
	for _, e := range ref.Elements {
		if !dep[e.ID] {
			continue
		}
		from, to := shown(e, ref.Duration)
		if from >= to {
			continue // never shows
		}
		any = true
		first, last = min(first, from), max(last, to)
	}
	if !any {
		return koda.SharedStretch{}
	}
	var s koda.SharedStretch
	if first > 0 {
		s.HeadS = first
	}
	if last < ref.Duration {
		s.TailS = last
	}
	return s
}

// shown returns when e may be drawn at all: the runtime draws it from Start to End (to
// the end of the video when End is 0), and not while an opacity or scale track holds
// it at zero at its first or last keyframes. Motions only multiply opacity and scale,
// so they never show what the tracks hide.
func shown(e *scene.Element, duration float64) (from, to float64) {
	from, to = e.Start, duration
	if e.End > 0 {
		to = min(e.End, duration)
	}
	for _, name := range []string{"opacity", "scale"} {
		kfs := e.Tracks[name]
		if len(kfs) == 0 {
			continue
		}
		// Hidden up to the last keyframe of a leading run of zeros (the value holds
		// before the first keyframe and stays zero between zeros, whatever the easing).
		lead := -1
		for lead+1 < len(kfs) && zero(kfs[lead+1].V) {
			lead++
		}
		if lead == len(kfs)-1 {
			return 0, 0 // always hidden
		}
		if lead >= 0 {
			from = max(from, kfs[lead].T)
		}
		// Hidden from the first keyframe of a trailing run of zeros on.
		trail := len(kfs)
		for trail > 0 && zero(kfs[trail-1].V) {
			trail--
		}
		if trail < len(kfs) {
			to = min(to, kfs[trail].T)
		}
	}
	return from, to
}

// zero is a track value at which the runtime draws nothing (it skips opacity up to
// 0.001 and scale up to 0.0001).
func zero(v float64) bool { return v <= 0.0001 && v >= -0.0001 }

func usesColour(b scene.Background, c string) bool {
	for _, x := range b.Colors {
		if strings.EqualFold(x, c) {
			return true
		}
	}
	return strings.EqualFold(b.Glow, c)
}

// frameJSON is what a description draws in every frame: everything but its elements.
func frameJSON(d *scene.Description) []byte {
	c := *d
	c.Elements = nil
	c.Scenes = nil // marks for readers, not drawn
	b, _ := json.Marshal(&c)
	return b
}
