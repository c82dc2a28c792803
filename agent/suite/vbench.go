package suite

import (
	"bufio"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/sandbox/local"
)

// The outside benchmark: VBench's prompt sets (testdata/vbench, Apache-2.0, copied
// unchanged), written by others for text-to-video models. Each prompt goes through the
// builtin agent and its scene is checked the way the benchmark means it: the named
// object drawn by a drawing of that object, both objects of a pair drawn, the object
// painted the named colour, the relation true of the two drawings' places at rest. These
// checks read the scene only (seconds for all of them); human actions need a person
// looking at frames (VBenchActions gives the prompts for a contact sheet).

//go:embed testdata/vbench/*.json testdata/vbench/human_action.txt
var vbenchFS embed.FS

// VBench dimensions checked on the scene.
const (
	DimObject   = "object_class"
	DimMultiple = "multiple_objects"
	DimColor    = "color"
	DimSpatial  = "spatial_relationship"
)

// VBenchDims are the scene-level dimensions in the order they are reported.
var VBenchDims = []string{DimObject, DimMultiple, DimColor, DimSpatial}

// VBenchCase is one benchmark prompt and what it checks.
type VBenchCase struct {
	Dim      string
	Prompt   string
	Objects  []string // one, or the pair in the prompt's order
	Color    string   // DimColor
	Relation string   // DimSpatial: "on the left of", "on the right of", "on the top of", "on the bottom of"
}

// VBenchCases reads the embedded prompt sets.
func VBenchCases() ([]VBenchCase, error) {
	var out []VBenchCase
	type row struct {
		Prompt   string `json:"prompt_en"`
		Object   string `json:"object_en"`
		A        string `json:"object_a_en"`
		B        string `json:"object_b_en"`
		Color    string `json:"color_en"`
		Relation string `json:"relationship_en"`
	}
	for _, dim := range VBenchDims {
		raw, err := vbenchFS.ReadFile("testdata/vbench/" + dim + ".json")
		if err != nil {
			return nil, err
		}
		var rows []row
		if err := json.Unmarshal(raw, &rows); err != nil {
			return nil, fmt.Errorf("vbench %s: %w", dim, err)
		}
		for _, r := range rows {
			c := VBenchCase{Dim: dim, Prompt: r.Prompt, Color: r.Color, Relation: r.Relation}
			switch dim {
			case DimSpatial:
				c.Objects = []string{r.A, r.B}
			case DimMultiple:
				a, b, _ := strings.Cut(r.Object, " and ")
				c.Objects = []string{a, b}
			case DimColor:
				// "a red bicycle": the object is the prompt less its article and colour.
				c.Objects = []string{colorObject(r.Prompt, r.Color)}
			default:
				c.Objects = []string{r.Object}
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// colorObject is what "a red bicycle" paints: the words after the colour.
func colorObject(prompt, color string) string {
	_, after, ok := strings.Cut(strings.ToLower(prompt), strings.ToLower(color)+" ")
	if !ok {
		return prompt
	}
	return strings.TrimSpace(after)
}

// VBenchActions are the benchmark's human-action prompts, one a line.
func VBenchActions() ([]string, error) {
	f, err := vbenchFS.Open("testdata/vbench/human_action.txt")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if s := strings.TrimSpace(sc.Text()); s != "" {
			out = append(out, s)
		}
	}
	return out, sc.Err()
}

// VBenchResult is one case's outcome: no failures is a pass.
type VBenchResult struct {
	VBenchCase
	Failures []string
}

// VBenchReport holds every case's result.
type VBenchReport struct{ Results []VBenchResult }

// Score is the passed and total counts of a dimension.
func (r *VBenchReport) Score(dim string) (passed, total int) {
	for _, res := range r.Results {
		if res.Dim == dim {
			total++
			if len(res.Failures) == 0 {
				passed++
			}
		}
	}
	return passed, total
}

// String prints one line a dimension, then every failure.
func (r *VBenchReport) String() string {
	var b strings.Builder
	for _, d := range VBenchDims {
		p, t := r.Score(d)
		if t > 0 {
			fmt.Fprintf(&b, "%-21s %3d/%-3d %5.1f%%\n", d, p, t, 100*float64(p)/float64(t))
		}
	}
	for _, res := range r.Results {
		for _, f := range res.Failures {
			fmt.Fprintf(&b, "  %s %q: %s\n", res.Dim, res.Prompt, f)
		}
	}
	return b.String()
}

// RunVBench writes each case's scene with the builtin agent (no rendering) under dir
// and checks it.
func RunVBench(ctx context.Context, dir string, cases []VBenchCase, log *slog.Logger) (*VBenchReport, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	sbs := local.New(local.Config{Root: filepath.Join(dir, "sandboxes"), Logger: log})
	defer func() { _ = sbs.Close(context.WithoutCancel(ctx)) }()
	ag := builtin.New(log)
	rep := &VBenchReport{Results: make([]VBenchResult, len(cases))}
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res := VBenchResult{VBenchCase: c}
			raw, err := WriteScene(ctx, ag, sbs, fmt.Sprintf("prj_vbench_%d", i), c.Prompt)
			if err != nil {
				res.Failures = []string{err.Error()}
			} else {
				res.Failures = CheckVBench(raw, c)
			}
			rep.Results[i] = res
		}()
	}
	wg.Wait()
	return rep, ctx.Err()
}

// WriteScene runs a prompt through the agent's analysis, plan and code generation, as a
// user with auto-approve and the style the agent read would, and returns scene.json.
func WriteScene(ctx context.Context, ag *builtin.Agent, sbs *local.Provider, id, prompt string) ([]byte, error) {
	p := &koda.Project{ID: id, Prompt: prompt}
	an, err := ag.Analyze(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	if an.Question != nil {
		p.Question = an.Question
		p.Question.Answer = &koda.Answer{OptionID: string(orStyle(an.Style, koda.StyleSmooth))}
	}
	if p.Plan, err = ag.Plan(ctx, p, ""); err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	sb, err := sbs.Create(ctx, koda.SandboxSpec{ProjectID: p.ID})
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	defer func() { _ = sbs.Destroy(context.WithoutCancel(ctx), sb.ID()) }()
	if err := ag.Generate(ctx, p, sb, nopReporter{}); err != nil {
		return nil, fmt.Errorf("generate: %w", err)
	}
	return sb.ReadFile(ctx, scene.FileJSON, 0, 0)
}

// CheckVBench checks one case's scene; it returns what a person would say is wrong.
func CheckVBench(raw []byte, c VBenchCase) []string {
	var d sceneDoc
	if err := json.Unmarshal(raw, &d); err != nil {
		return []string{fmt.Sprintf("scene.json unreadable: %v", err)}
	}
	var out []string
	drawn := make([]sceneElem, len(c.Objects))
	taken := map[string]bool{}
	for i, o := range c.Objects {
		e, ok := drawing(d.Elements, o, taken)
		if !ok {
			out = append(out, fmt.Sprintf("%s is not drawn (%s)", o, d.drawn()))
			continue
		}
		drawn[i] = e
		taken[e.str("id")] = true
	}
	if len(out) > 0 {
		return out
	}
	switch c.Dim {
	case DimColor:
		got, ok := elemColor(drawn[0])
		if !ok {
			out = append(out, fmt.Sprintf("%s has no colour of its own", c.Objects[0]))
		} else if n, _ := nearestName(mustHex(got)); !readsAs(n, c.Color) {
			out = append(out, fmt.Sprintf("%s is painted %s (%s), not %s", c.Objects[0], got, n, c.Color))
		}
	case DimSpatial:
		if f := checkRelation(drawn[0], drawn[1], c.Relation); f != "" {
			out = append(out, fmt.Sprintf("%s %s %s: %s", c.Objects[0], c.Relation, c.Objects[1], f))
		}
	}
	return out
}

// drawing is the element, not taken by another object, that draws an object by a
// drawing of that object: the drawing the library names so (by its name, label or a
// WordNet synonym: a cell phone is the mobile phone), an asset whose keywords say it,
// or a primitive that is that thing.
func drawing(els []sceneElem, object string, taken map[string]bool) (sceneElem, bool) {
	want := phrase(object)
	named, isNamed := assets.Named(object)
	for _, e := range els {
		if taken[e.str("id")] {
			continue
		}
		if isNamed && e.str("asset") == named.ID && e.str("type") == "asset" {
			return e, true
		}
		for _, have := range e.depicts(LibraryKeywords) {
			if containsPhrase(have, want) || containsPhrase(want, have) && len(strings.Fields(have)) > 1 {
				return e, true
			}
		}
	}
	return nil, false
}

// drawn says what the scene draws, for a failure message.
func (d *sceneDoc) drawn() string {
	var ws []string
	for _, e := range d.Elements {
		w := e.str("type")
		if a := e.str("asset"); a != "" {
			w = a
		}
		ws = append(ws, w)
	}
	if len(ws) == 0 {
		return "nothing is drawn"
	}
	sort.Strings(ws)
	return "drawn: " + strings.Join(ws, ", ")
}

// elemColor is the colour an element shows: a drawing's tint, its main colour turned by
// its hue, or a primitive's own colour.
func elemColor(e sceneElem) (string, bool) {
	if t := e.str("tint"); t != "" {
		return t, true
	}
	if id := e.str("asset"); id != "" && e.str("type") != "card" {
		a, ok := assets.Default().Get(id)
		if !ok {
			return "", false
		}
		if a.Stroke {
			c := e.str("color")
			return c, c != ""
		}
		main, ok := a.MainColor()
		if !ok {
			return "", false
		}
		return rotateHue(main, e.num("hue")), true
	}
	c := e.str("color")
	return c, hexRE.MatchString(c)
}

// rotateHue turns a colour's hue by deg degrees, as the runtime's hue-rotate filter.
func rotateHue(hex string, deg float64) string {
	if deg == 0 {
		return hex
	}
	c := mustHex(hex)
	// The CSS hue-rotate matrix (Filter Effects 1), which the runtime applies.
	cs, sn := math.Cos(deg*math.Pi/180), math.Sin(deg*math.Pi/180)
	m := [9]float64{
		0.213 + cs*0.787 - sn*0.213, 0.715 - cs*0.715 - sn*0.715, 0.072 - cs*0.072 + sn*0.928,
		0.213 - cs*0.213 + sn*0.143, 0.715 + cs*0.285 + sn*0.140, 0.072 - cs*0.072 - sn*0.283,
		0.213 - cs*0.213 - sn*0.787, 0.715 - cs*0.715 + sn*0.715, 0.072 + cs*0.928 + sn*0.072,
	}
	cl := func(v float64) int { return int(math.Max(0, math.Min(255, math.Round(v)))) }
	r := m[0]*c.r + m[1]*c.g + m[2]*c.b
	g := m[3]*c.r + m[4]*c.g + m[5]*c.b
	b := m[6]*c.r + m[7]*c.g + m[8]*c.b
	return fmt.Sprintf("#%02x%02x%02x", cl(r), cl(g), cl(b))
}

// checkRelation: the relation holds between a's and b's places at rest (the scene's
// x and y are fractions of the frame, y down), by a clear margin.
func checkRelation(a, b sceneElem, rel string) string {
	const margin = 0.05
	ax, ay, bx, by := a.num("x"), a.num("y"), b.num("x"), b.num("y")
	var ok bool
	switch rel {
	case "on the left of":
		ok = bx-ax > margin
	case "on the right of":
		ok = ax-bx > margin
	case "on the top of":
		ok = by-ay > margin
	case "on the bottom of":
		ok = ay-by > margin
	default:
		return "unknown relation"
	}
	if ok {
		return ""
	}
	return fmt.Sprintf("at (%.2f, %.2f) and (%.2f, %.2f)", ax, ay, bx, by)
}
