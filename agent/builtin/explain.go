package builtin

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/assets"
)

// Explanation is why the builtin agent draws a prompt as it does: the intent it read
// (subjects with their counts, colours and drawings, the actions of each clause, the
// relations between subjects, the texts, the data, the genre) and the layout it used,
// with where each element rests. `koda explain` prints it, so a user and a test can see
// why a video looks as it does.
type Explanation struct {
	Prompt    string             `json:"prompt"`
	Aspect    string             `json:"aspect"`
	Style     string             `json:"style"`
	DurationS float64            `json:"duration_s"`
	Subjects  []ExplainedSubject `json:"subjects"`
	Clauses   []ExplainedClause  `json:"clauses,omitempty"`
	Texts     []string           `json:"texts,omitempty"`
	// For: where the video goes or who watches it ("our club's live stream"), read
	// and not drawn.
	For    []string        `json:"for,omitempty"`
	Colors []string        `json:"colors,omitempty"`
	Genre  *ExplainedGenre `json:"genre,omitempty"`
	// Layout is the rule that placed the elements; Placed where each rests (frame units,
	// -1..1, y down), in drawing order.
	Layout string           `json:"layout"`
	Placed []ExplainedPlace `json:"placed"`
	// NotUnderstood lists what the agent read but cannot show as asked.
	NotUnderstood []string `json:"not_understood,omitempty"`
}

// ExplainedSubject is one thing the prompt names and how it is drawn.
type ExplainedSubject struct {
	Noun    string `json:"noun"`
	Count   int    `json:"count,omitempty"`
	Color   string `json:"color,omitempty"`
	Kind    string `json:"kind"`              // element type: asset, circle, chart, particles…
	Drawing string `json:"drawing,omitempty"` // library id of an asset subject
	Why     string `json:"why"`
	Data    string `json:"data,omitempty"` // a chart's or counter's numbers and labels
	// Becomes: the drawings it changes into, in turn ("an egg hatches into a chick").
	Becomes []string `json:"becomes,omitempty"`
}

// ExplainedClause is one clause of the prompt: who does what, where.
type ExplainedClause struct {
	Text      string   `json:"text"`
	Subjects  []string `json:"subjects,omitempty"`
	Actions   []string `json:"actions,omitempty"`
	Relations []string `json:"relations,omitempty"` // "cat in box", "apple from tree"
	Count     int      `json:"count,omitempty"`
	Order     string   `json:"order,omitempty"` // one by one, alternately
}

// ExplainedGenre is the genre table's row that applies.
type ExplainedGenre struct {
	Name    string   `json:"name"`
	Slots   []string `json:"slots"`
	Example string   `json:"example"`
}

// ExplainedPlace is an element where it rests.
type ExplainedPlace struct {
	ID   string  `json:"id"`
	Type string  `json:"type"`
	What string  `json:"what,omitempty"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	In   string  `json:"in,omitempty"`
	// Color is what the element is painted: a drawing's tint, a shape's colour.
	Color string `json:"color,omitempty"`
}

// Explain reads a prompt as the agent does and lays its first frame out, without a
// sandbox or a render.
func Explain(prompt string) *Explanation {
	b := analyze(prompt)
	p := &koda.Project{ID: "prj_explain", Prompt: prompt}
	style, note, _ := resolveStyle(p, b)
	if style == "" {
		style = orStyle(b.Inferred, koda.StyleSmooth)
	}
	p.Style, p.StyleNote = style, note
	ex := &Explanation{Prompt: prompt, Aspect: orDefault(b.Aspect, "landscape"), Style: string(style),
		Texts: b.Texts, For: b.Purpose, Colors: b.Colors, NotUnderstood: append([]string(nil), b.Notes...)}
	pl := newBoard(b, style, note, projectDuration(p, b, baseStyle(style, note))).plan(b, 1, "")
	ex.DurationS = pl.DurationS
	for _, s := range b.Subjects {
		es := ExplainedSubject{Noun: s.Noun, Count: s.Many, Color: s.Color, Kind: s.Kind, Drawing: s.Asset, Why: whyDrawn(s), Becomes: s.Forms}
		if s.Data != nil {
			es.Data = fmt.Sprintf("%v %v", s.Data.Values, s.Data.Labels)
		}
		ex.Subjects = append(ex.Subjects, es)
	}
	noun := func(i int) string {
		if i >= 0 && i < len(b.Subjects) {
			return b.Subjects[i].Noun
		}
		return "?"
	}
	for _, bt := range b.Beats {
		c := ExplainedClause{Text: bt.Text, Actions: bt.Actions, Count: bt.Count}
		for _, i := range bt.Subjects {
			c.Subjects = append(c.Subjects, noun(i))
		}
		for _, r := range bt.Rels {
			c.Relations = append(c.Relations, fmt.Sprintf("%s %s %s", noun(r.Actor), r.Prep, noun(r.Place)))
		}
		for _, r := range bt.Ways {
			c.Relations = append(c.Relations, fmt.Sprintf("%s goes %s %s", noun(r.Actor), r.Prep, noun(r.Place)))
		}
		for i, on := range bt.With {
			c.Relations = append(c.Relations, fmt.Sprintf("%s with %s", noun(i), noun(on)))
		}
		for _, i := range bt.Places {
			if _, in := bt.Within[i]; !in {
				c.Relations = append(c.Relations, fmt.Sprintf("%s at %s", actorsOf(bt, noun), noun(i)))
			}
		}
		sort.Strings(c.Relations)
		switch {
		case bt.OneByOne:
			c.Order = "one by one"
		case bt.Alternate:
			c.Order = "alternately"
		}
		ex.Clauses = append(ex.Clauses, c)
	}
	if row := detectGenre(prompt); row != nil {
		ex.Genre = &ExplainedGenre{Name: row.Name, Slots: row.Slots, Example: row.Example}
		ex.Layout = "the genre table's " + row.Name + " layout, filled from the prompt"
	} else {
		ex.Layout = "the composer's: subjects side by side in the safe area (a place behind, a container around what is in it, a subject where the prompt puts it), texts above or below them"
	}
	pp := *p
	pp.Plan = pl
	c := newComposer(b, boardFromPlan(b, &pp))
	c.setup(pl.Title)
	for _, e := range c.d.Elements {
		what := e.Label
		switch {
		case e.Asset != "":
			what = strings.TrimSpace(what + " (" + e.Asset + ")")
		case e.Text != "":
			what = e.Text
		}
		ex.Placed = append(ex.Placed, ExplainedPlace{ID: e.ID, Type: e.Type, What: what, X: round3(e.X), Y: round3(e.Y), In: e.In,
			Color: orDefault(e.Tint, e.Color)})
	}
	return ex
}

func actorsOf(bt beat, noun func(int) string) string {
	var out []string
	for _, i := range bt.Subjects {
		if _, place := bt.Within[i]; place {
			continue
		}
		if containsInt(bt.Places, i) {
			continue
		}
		out = append(out, noun(i))
	}
	if len(out) == 0 {
		return "it"
	}
	return strings.Join(out, " and ")
}

// whyDrawn says how a subject came to be drawn as it is.
func whyDrawn(s subject) string {
	if s.Asset == "" {
		return "drawn as the composer's own " + s.Kind
	}
	if s.Note != "" {
		return s.Note
	}
	if _, ok := assets.Default().NamedOnly(s.Noun); ok {
		return "the library's drawing named so"
	}
	if m, ok := assets.Named(s.Noun); ok {
		return fmt.Sprintf("a WordNet synonym of the drawing %q", m.Name)
	}
	if m, ok := assets.Find(s.Noun); ok && m.Message != "" {
		return m.Message
	}
	return "the library drawing whose keywords name it"
}

// String prints the explanation for a person.
func (ex *Explanation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "prompt: %s\naspect %s · style %s · %gs\n", ex.Prompt, ex.Aspect, ex.Style, ex.DurationS)
	b.WriteString("\nsubjects:\n")
	if len(ex.Subjects) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, s := range ex.Subjects {
		fmt.Fprintf(&b, "  %s", s.Noun)
		if s.Count > 1 {
			fmt.Fprintf(&b, " ×%d", s.Count)
		}
		if s.Color != "" {
			fmt.Fprintf(&b, " in %s", s.Color)
		}
		fmt.Fprintf(&b, " → %s", s.Kind)
		if s.Drawing != "" {
			fmt.Fprintf(&b, " %s", s.Drawing)
		}
		if s.Data != "" {
			fmt.Fprintf(&b, " data %s", s.Data)
		}
		if len(s.Becomes) > 0 {
			fmt.Fprintf(&b, ", becoming %s", strings.Join(s.Becomes, " then "))
		}
		fmt.Fprintf(&b, "  (%s)\n", s.Why)
	}
	if len(ex.Clauses) > 0 {
		b.WriteString("\nclauses:\n")
		for _, c := range ex.Clauses {
			fmt.Fprintf(&b, "  %q: %s %s", c.Text, strings.Join(c.Subjects, ", "), strings.Join(c.Actions, ", "))
			if c.Count > 1 {
				fmt.Fprintf(&b, " ×%d", c.Count)
			}
			if c.Order != "" {
				fmt.Fprintf(&b, " (%s)", c.Order)
			}
			if len(c.Relations) > 0 {
				fmt.Fprintf(&b, " [%s]", strings.Join(c.Relations, "; "))
			}
			b.WriteString("\n")
		}
	}
	if len(ex.Texts) > 0 {
		fmt.Fprintf(&b, "\ntexts: %q\n", ex.Texts)
	}
	if len(ex.For) > 0 {
		fmt.Fprintf(&b, "for (not drawn): %s\n", strings.Join(ex.For, "; "))
	}
	if len(ex.Colors) > 0 {
		fmt.Fprintf(&b, "colours: %s\n", strings.Join(ex.Colors, " "))
	}
	if ex.Genre != nil {
		fmt.Fprintf(&b, "\ngenre: %s (slots: %s)\n", ex.Genre.Name, strings.Join(ex.Genre.Slots, ", "))
	}
	fmt.Fprintf(&b, "\nlayout: %s\n", ex.Layout)
	for _, p := range ex.Placed {
		fmt.Fprintf(&b, "  %-22s %-9s at (%5.2f, %5.2f)", p.ID, p.Type, p.X, p.Y)
		if p.In != "" {
			fmt.Fprintf(&b, " in %s", p.In)
		}
		if p.What != "" {
			fmt.Fprintf(&b, "  %s", p.What)
		}
		b.WriteString("\n")
	}
	if len(ex.NotUnderstood) > 0 {
		b.WriteString("\nnot shown as asked:\n")
		for _, n := range ex.NotUnderstood {
			fmt.Fprintf(&b, "  %s\n", n)
		}
	}
	return b.String()
}
