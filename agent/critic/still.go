package critic

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
)

// Camera renders d's frames in shape f at the given times with the real runtime and
// measures every element from the pixels (agent/stills is the Chromium one).
type Camera interface {
	Look(ctx context.Context, d *scene.Description, f Frame, times []float64) ([]Still, error)
}

// FilesCamera is a Camera that can show a project's own files (its logo, pictures and
// font) in the stills: InFolder returns a camera that takes the files a description
// names (image and logo sources, its font) from the project folder dir.
type FilesCamera interface {
	Camera
	InFolder(dir string) Camera
}

// Still is one rendered frame, measured.
type Still struct {
	T        float64 `json:"t"`
	W        int     `json:"w"`
	H        int     `json:"h"`
	Elements []Seen  `json:"elements"`
}

// Seen is one element as the pixels show it.
type Seen struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	// Box is where it draws (x0, y0, x1, y1 in fractions of the frame), alone over the
	// background; nil when it draws nothing.
	Box *[4]float64 `json:"box"`
	// Pixels it draws alone; Visible of them show in the whole frame; Strong of those
	// differ from what is behind by at least 1.5:1 in luminance.
	Pixels  int `json:"pixels"`
	Visible int `json:"visible"`
	Strong  int `json:"strong"`
	// Text: the element draws words; Contrast is what a reader gets against what is
	// drawn behind them (WCAG ratio, the worst part of the words), Behind and TextColor
	// the colours measured there.
	Text      bool    `json:"text"`
	Contrast  float64 `json:"contrast"`
	Behind    string  `json:"behind"`
	TextColor string  `json:"text_color"`
	// Settled: it has fully arrived (opaque, full size, words revealed); what is
	// still entering is not judged on how it reads or stands out.
	Settled bool `json:"settled"`
	// Overlaps are the elements drawing on its pixels too.
	Overlaps []Overlap `json:"overlaps"`
}

// Overlap is another element sharing pixels with one: Share of the smaller's pixels.
type Overlap struct {
	ID    string     `json:"id"`
	Share float64    `json:"share"`
	Box   [4]float64 `json:"box"`
}

// Thresholds of the checks on stills.
const (
	// faintShare: a subject whose pixels distinct from what is behind it cover less than
	// this share of the area its geometry gives it cannot be seen.
	faintShare = 0.06
	// edgeSlack is how far (a fraction of the frame) pixels may cross the safe area's
	// line before it counts: antialiasing and soft shadows bleed a little.
	edgeSlack = 0.004
)

// CheckStills turns measured stills of d in frame f into problems. They carry the
// measured box (Problem.Box), which Repair moves by.
func CheckStills(d *scene.Description, f Frame, stills []Still) []Problem {
	var out []Problem
	safe := safeBox(d, f)
	W, H := float64(f.W), float64(f.H)
	for _, st := range stills {
		add := func(check, id string, b *[4]float64, format string, args ...any) {
			p := Problem{Check: check, Element: id, Frame: f.Name, T: st.T, Msg: fmt.Sprintf(format, args...) + " (seen on a still)"}
			if b != nil {
				p.Box = &box{b[0] * W, b[1] * H, b[2] * W, b[3] * H}
			}
			out = append(out, p)
		}
		anyShown := false
		for _, s := range st.Elements {
			e := d.Element(s.ID)
			if e == nil {
				continue
			}
			ps := place(d, e, f, st.T)
			if skipped(e) {
				anyShown = anyShown || s.Strong > 50
				continue
			}
			if s.Box == nil {
				if ps.visible && ps.op >= 0.5 && ps.box.inter(box{0, 0, W, H}).area() > 0 {
					add("hidden", e.ID, nil, "%s %q draws nothing at its hold", e.Type, e.ID)
				}
				continue
			}
			b := box{s.Box[0] * W, s.Box[1] * H, s.Box[2] * W, s.Box[3] * H}
			sl := edgeSlack * math.Max(W, H)
			vis := float64(s.Visible) / math.Max(1, float64(s.Pixels))
			switch {
			case b.x0 <= 0.5 || b.y0 <= 0.5 || b.x1 >= W-0.5 || b.y1 >= H-0.5:
				add("frame", e.ID, s.Box, "%s %q is cut by the frame's edge", e.Type, e.ID)
			case b.x0 < safe.x0-sl || b.y0 < safe.y0-sl || b.x1 > safe.x1+sl || b.y1 > safe.y1+sl:
				add("safe", e.ID, s.Box, "%s %q crosses the safe area (%s)", e.Type, e.ID, sides(b, box{safe.x0 - sl, safe.y0 - sl, safe.x1 + sl, safe.y1 + sl}))
			}
			// Judged only once it has arrived: opaque and full size by its geometry.
			settled := s.Settled && ps.visible && ps.op >= 0.9
			// Covered: drawn under a subject drawn after it (words lost on what is behind
			// them are a contrast problem, not this one).
			if top := coverer(d, e, s); settled && !circles(e) && vis < 1-CoverShare && top != nil {
				add("covered", e.ID, s.Box, "only %.0f%% of %s %q shows under %q", 100*vis, e.Type, e.ID, top.ID)
				out[len(out)-1].Other = &box{top.Box[0] * W, top.Box[1] * H, top.Box[2] * W, top.Box[3] * H}
			}
			// A shape drawn as a part of another element (the gravel and glass of a fish
			// bowl) fills little of its path box by design: it is seen with the whole.
			part := e.In != "" && e.Type == scene.TypePath
			// So does a scatter plot: dots on an open plot, each one strong.
			sparse := e.Type == scene.TypeChart && e.Variant == scene.ChartScatter
			if geo := ps.box.inter(box{0, 0, W, H}).area(); settled && !s.Text && !part && !sparse && geo > 0 {
				// Strong pixels are counted on the small still: scale to the frame.
				k := W * H / math.Max(1, float64(st.W*st.H))
				if float64(s.Strong)*k < faintShare*geo {
					add("faint", e.ID, s.Box, "%s %q hardly stands out from what is behind it", e.Type, e.ID)
				}
			}
			if s.Strong*4 >= s.Pixels && vis >= 0.5 {
				anyShown = true
			}
			if s.Text && settled && s.Contrast > 0 {
				need := MinContrastNormal
				if ps.asked/math.Min(W, H) >= largeText || labelled(e) {
					need = MinContrastLarge
				}
				if s.Contrast < need {
					add("contrast", e.ID, s.Box, "words of %q read at %.1f:1 on %s, below %.1f:1", e.ID, s.Contrast, s.Behind, need)
					out[len(out)-1].Behind = s.Behind
				}
			}
			if s.Text {
				for _, o := range s.Overlaps {
					oe := d.Element(o.ID)
					if oe == nil || skipped(oe) || o.Share < 0.08 || inside(d, e, oe) {
						continue
					}
					add("overlap", e.ID, s.Box, "text %q lies on %s %q", e.ID, oe.Type, oe.ID)
					ob := o.Box
					out[len(out)-1].Other = &box{ob[0] * W, ob[1] * H, ob[2] * W, ob[3] * H}
					break
				}
			}
		}
		if !anyShown {
			add("hidden", "", nil, "nothing stands out at the hold")
		}
	}
	return out
}

// coverer is the subject drawn after e that shares most of its pixels, if any.
func coverer(d *scene.Description, e *scene.Element, s Seen) *Overlap {
	at := slices.Index(d.Elements, e)
	var best *Overlap
	for i, o := range s.Overlaps {
		oe := d.Element(o.ID)
		if oe == nil || skipped(oe) || nestedIn(d, e, oe) || slices.Index(d.Elements, oe) < at || o.Share < 0.2 {
			continue
		}
		if best == nil || o.Share > best.Share {
			best = &s.Overlaps[i]
		}
	}
	return best
}

// stillRounds bounds the look-fix-look loop: each round is a few small stills per hold.
const stillRounds = 4

// RepairStills looks at d's stills at every hold in each frame, fixes what fails
// (then what the geometry finds after those fixes) and looks again, until the stills
// pass or nothing more can be done. It returns what it changed and the problems the
// last look still found.
func RepairStills(ctx context.Context, cam Camera, d *scene.Description, frames ...Frame) ([]Fix, []Problem, error) {
	if len(frames) == 0 {
		frames = []Frame{Landscape}
	}
	var fixes []Fix
	for round := 0; ; round++ {
		var probs []Problem
		for _, f := range frames {
			st, err := cam.Look(ctx, d, f, holds(d))
			if err != nil {
				return fixes, nil, err
			}
			probs = append(probs, CheckStills(d, f, st)...)
		}
		if len(probs) == 0 || round == stillRounds {
			return fixes, probs, nil
		}
		sortP(probs)
		// One fix per element a round: a move cures every hold's problem of it at once.
		done := map[string]bool{}
		fixed := false
		for _, p := range probs {
			if done[p.Element] {
				continue
			}
			if fx, ok := repairSeen(d, p, frames); ok {
				done[p.Element] = true
				fixes = append(fixes, fx)
				fixed = true
			}
		}
		if !fixed {
			return fixes, probs, nil
		}
		// A move the pixels asked for can put the element where the geometry finds
		// fault (on another one, past a preset's safe area): the geometry's repair runs
		// again before the next look.
		more, _ := Repair(d, frames...)
		fixes = append(fixes, more...)
	}
}

// repairSeen fixes a problem seen on a still, by the measured boxes where the
// description's geometry and the pixels disagree.
func repairSeen(d *scene.Description, p Problem, frames []Frame) (Fix, bool) {
	if p.Check == "hidden" && p.Element != "" {
		// It draws nothing where its geometry says it is.
		if e := d.Element(p.Element); e != nil {
			f := frames[0]
			for _, fr := range frames {
				if fr.Name == p.Frame {
					f = fr
				}
			}
			return standOut(d, e, f, p.T)
		}
	}
	if p.Box == nil {
		return repair(d, p, frames)
	}
	f := frames[0]
	for _, fr := range frames {
		if fr.Name == p.Frame {
			f = fr
		}
	}
	e := d.Element(p.Element)
	if e == nil {
		return Fix{}, false
	}
	_, _, RW, RH := d.ContentRect(float64(f.W), float64(f.H))
	zoom := math.Max(place(d, e, f, p.T).zoom, 1e-3)
	b := *p.Box
	switch p.Check {
	case "frame", "safe":
		safe := safeBox(d, f)
		if b.w() > safe.w() || b.h() > safe.h() {
			k := math.Min(0.9, 0.95*math.Min(safe.w()/b.w(), safe.h()/b.h()))
			e.Size = math.Round(e.Size*k*10000) / 10000
			return Fix{p.Check, e.ID, fmt.Sprintf("shrank %s to %.0f%% so all of it shows inside the %s safe area", label(e), 100*k, f.Name)}, true
		}
		m := 0.01 * math.Min(float64(f.W), float64(f.H)) // a margin past the line
		var dx, dy float64
		switch {
		case b.x0 < safe.x0:
			dx = safe.x0 - b.x0 + m
		case b.x1 > safe.x1:
			dx = safe.x1 - b.x1 - m
		}
		switch {
		case b.y0 < safe.y0:
			dy = safe.y0 - b.y0 + m
		case b.y1 > safe.y1:
			dy = safe.y1 - b.y1 - m
		}
		if dx == 0 && dy == 0 {
			// Cut by the edge yet inside the safe box: a shape drawn past its box.
			e.Size = math.Round(e.Size*0.9*10000) / 10000
			return Fix{p.Check, e.ID, fmt.Sprintf("shrank %s to 90%% so none of it is cut in the %s frame", label(e), f.Name)}, true
		}
		shiftAll(d, e, dx/(RW/2*zoom), dy/(RH/2*zoom))
		return Fix{p.Check, e.ID, fmt.Sprintf("moved %s inside the %s safe area, where the still showed it cut", label(e), f.Name)}, true
	case "contrast":
		return recolourOn(d, e, f, p.T, p.Behind)
	case "faint":
		return standOut(d, e, f, p.T)
	case "overlap", "covered":
		other := p.Other
		if other == nil {
			return repair(d, p, frames)
		}
		return moveOff(d, e, f, frames, b, *other, zoom, p.Check)
	}
	return Fix{}, false
}

// recolourOn gives an element's words the colour that reads best on the colour measured
// behind them: white or near-black.
func recolourOn(d *scene.Description, e *scene.Element, f Frame, t float64, behind string) (Fix, bool) {
	if behind == "" {
		return Fix{}, false
	}
	// The colour must also read on what the geometry puts under the words, or the
	// geometry's own check would undo it: the better of the two at its worst.
	ps := place(d, e, f, t)
	bg := backgroundAt(d, f, t, ps.box.cx(), ps.box.cy())
	score := func(c string) float64 {
		return math.Min(Contrast(c, behind)/MinContrastLarge, Contrast(c, bg)/MinContrastLarge)
	}
	best, what := "#ffffff", "white"
	if score("#111111") > score("#ffffff") {
		best, what = "#111111", "near-black"
	}
	field := &e.TextColor
	if e.Type == scene.TypeText || e.Type == scene.TypeCounter && Contrast(orDefault(e.Color, "#ffffff"), behind) < MinContrastLarge {
		field = &e.Color
	}
	// As for the geometry's recolour: a coloured word keeps its hue when a shade reads.
	if c, ok := keepHue(*field, func(c string) bool { return score(c) >= 1 }); ok {
		best, what = c, "a shade of "+*field
	}
	if *field == best {
		return Fix{}, false
	}
	*field = best
	return Fix{"contrast", e.ID, fmt.Sprintf("made %s %s, as the still showed it on %s", label(e), what, behind)}, true
}

// standOut makes a subject lost in what is behind it visible: a shape or line icon
// takes a colour of clearly different lightness; a drawing gets a shadow and a glow.
func standOut(d *scene.Description, e *scene.Element, f Frame, t float64) (Fix, bool) {
	ps := place(d, e, f, t)
	bg := backgroundAt(d, f, t, ps.box.cx(), ps.box.cy())
	// Pictures and library drawings in full colour ignore Color (a golden key stays
	// gold, and its colour keeps saying so); line icons take it.
	if e.Type != scene.TypeImage && e.Type != scene.TypeLogo && !fullColour(e) {
		if e.Color != "" && Contrast(e.Color, bg) < 3 {
			if c, ok := keepHue(e.Color, func(c string) bool { return Contrast(c, bg) >= 3 }); ok {
				e.Color = c
				return Fix{"faint", e.ID, fmt.Sprintf("recoloured %s %s, a shade of its colour that stands out from the background", label(e), c)}, true
			}
			c := shade(e.Color, 0.6)
			if luminance(bg) > 0.4 {
				c = shade(e.Color, -0.6)
			}
			if Contrast(c, bg) < 3 {
				c = "#ffffff"
				if Contrast("#111111", bg) > Contrast(c, bg) {
					c = "#111111"
				}
			}
			e.Color = c
			return Fix{"faint", e.ID, fmt.Sprintf("recoloured %s %s so it stands out from the background", label(e), c)}, true
		}
	}
	if e.Shadow && e.Glow >= 0.4 {
		return Fix{}, false
	}
	e.Shadow, e.Glow = true, math.Max(e.Glow, 0.4)
	return Fix{"faint", e.ID, fmt.Sprintf("gave %s a shadow and a glow so it stands out from what is behind it", label(e))}, true
}

// fullColour: a library illustration, drawn in its own colours whatever Color says.
func fullColour(e *scene.Element) bool {
	if e.Type != scene.TypeAsset {
		return false
	}
	a, ok := assets.Default().Get(e.Asset)
	return ok && !a.Stroke
}

// moveOff moves e (measured at b) off the element measured at o: to the nearest side
// with room inside the safe area, else shrinks it.
func moveOff(d *scene.Description, e *scene.Element, f Frame, frames []Frame, b, o box, zoom float64, check string) (Fix, bool) {
	_, _, RW, RH := d.ContentRect(float64(f.W), float64(f.H))
	safe := safeBox(d, f)
	gap := 0.03 * float64(f.H)
	type move struct {
		dx, dy float64
		where  string
	}
	var cands []move
	for _, m := range []move{
		{0, o.y1 + gap - b.y0, "below"},
		{0, o.y0 - gap - b.y1, "above"},
		{o.x1 + gap - b.x0, 0, "beside"},
		{o.x0 - gap - b.x1, 0, "beside"},
	} {
		nb := box{b.x0 + m.dx, b.y0 + m.dy, b.x1 + m.dx, b.y1 + m.dy}
		if nb.x0 < safe.x0 || nb.y0 < safe.y0 || nb.x1 > safe.x1 || nb.y1 > safe.y1 {
			continue
		}
		if !fitsEverywhere(d, e, frames, m.dx/(RW/2*zoom), m.dy/(RH/2*zoom), 0) {
			continue
		}
		cands = append(cands, m)
	}
	sort.SliceStable(cands, func(i, j int) bool {
		return math.Hypot(cands[i].dx, cands[i].dy) < math.Hypot(cands[j].dx, cands[j].dy)
	})
	if len(cands) == 0 {
		e.Size = math.Round(e.Size*0.85*10000) / 10000
		return Fix{check, e.ID, fmt.Sprintf("made %s smaller so it stops lying on another element", label(e))}, true
	}
	m := cands[0]
	shiftAll(d, e, m.dx/(RW/2*zoom), m.dy/(RH/2*zoom))
	return Fix{check, e.ID, fmt.Sprintf("moved %s %s the element it lay on, as the still showed", label(e), m.where)}, true
}
