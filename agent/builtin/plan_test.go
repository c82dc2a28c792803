package builtin_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
)

func plan(t *testing.T, p *koda.Project, feedback string) *koda.Plan {
	t.Helper()
	pl, err := builtin.New(nil).Plan(context.Background(), p, feedback)
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

// checkRules asserts the specification's planning rules.
func checkRules(t *testing.T, pl *koda.Plan, total float64) {
	t.Helper()
	n := len(pl.Scenes)
	lo, hi := 3, 7
	if total >= 30 {
		lo, hi = 5, 12
	}
	// Below 4.5 s three scenes of 1.5 s do not fit; the 1.5 s minimum wins.
	if fit := int(total / 1.5); fit < lo {
		lo, hi = fit, fit
	}
	if n < lo || n > hi {
		t.Errorf("%g s: %d scenes, want %d–%d", total, n, lo, hi)
	}
	if pl.DurationS != total {
		t.Errorf("plan duration %g, want %g", pl.DurationS, total)
	}
	prev := 0.0
	for i, s := range pl.Scenes {
		if s.StartS != prev {
			t.Errorf("%g s: scene %d starts at %g, previous ended at %g", total, i, s.StartS, prev)
		}
		if s.EndS-s.StartS < 1.5-1e-9 {
			t.Errorf("%g s: scene %d lasts %g s (< 1.5)", total, i, s.EndS-s.StartS)
		}
		if s.Entry == "" || s.Hold == "" || s.Exit == "" || s.Easing == "" || s.Name == "" {
			t.Errorf("scene %d lacks entry/hold/exit/easing/name: %+v", i, s)
		}
		prev = s.EndS
	}
	if math.Abs(prev-total) > 1e-9 {
		t.Errorf("scenes end at %g, want %g", prev, total)
	}
	// Todos: setup, one per scene, polish, preview.
	if len(pl.Todos) != n+3 || pl.Todos[0].ID != builtin.TodoSetup ||
		pl.Todos[n+1].ID != builtin.TodoPolish || pl.Todos[n+2].ID != builtin.TodoPreview {
		t.Errorf("todos %+v do not follow the plan", pl.Todos)
	}
	for _, td := range pl.Todos {
		if td.Status != koda.TodoPending {
			t.Errorf("todo %s is %s, want pending", td.ID, td.Status)
		}
	}
}

func TestPlanRules(t *testing.T) {
	prompts := []string{
		demoPrompt,
		"A cinematic logo reveal for 'Northwind' with particles, then the tagline 'Built to last'",
		"smooth bar chart of sales growing, then a counter reaching 98%",
	}
	for _, prompt := range prompts {
		for _, d := range []float64{3, 5, 10, 29, 30, 60, 180} {
			t.Run(fmt.Sprintf("%gs/%.20s", d, prompt), func(t *testing.T) {
				pl := plan(t, &koda.Project{Prompt: prompt, DurationS: d, Style: koda.StylePlayful}, "")
				checkRules(t, pl, d)
				if pl.Revision != 1 {
					t.Errorf("revision %d, want 1", pl.Revision)
				}
			})
		}
	}
}

func TestPlanDefaultsAndEasing(t *testing.T) {
	pl := plan(t, &koda.Project{Prompt: demoPrompt}, "")
	if pl.DurationS < 5 || pl.DurationS > 10 {
		t.Errorf("default duration %g outside 5–10 s", pl.DurationS)
	}
	checkRules(t, pl, pl.DurationS)
	if pl.Style != koda.StylePlayful {
		t.Errorf("style %q", pl.Style)
	}
	var text bool
	for _, s := range pl.Scenes {
		if s.Easing != "easeOutBack" && s.Easing != "easeOutElastic" && s.Easing != "easeInBack" {
			t.Errorf("playful scene %s uses %s", s.ID, s.Easing)
		}
		text = text || strings.Contains(s.Description, `"Hello from Koda"`)
	}
	if !text {
		t.Errorf("no scene shows the quoted text: %+v", pl.Scenes)
	}
	for style, easings := range map[koda.Style]string{
		koda.StyleSmooth:    "easeInOutCubic easeOutQuint",
		koda.StyleCinematic: "easeInOutQuart cubic-bezier(0.7, 0, 0.2, 1)",
	} {
		pl := plan(t, &koda.Project{Prompt: "a ball rolls across", Style: style}, "")
		for _, s := range pl.Scenes {
			if !strings.Contains(easings, s.Easing) {
				t.Errorf("%s scene %s uses %s, want one of %s", style, s.ID, s.Easing, easings)
			}
		}
	}
	// More moments make a longer default.
	long := plan(t, &koda.Project{Prompt: "A red ball bounces, then a blue star spins, then a heart pops, then the text 'Bye' appears", Style: koda.StyleSmooth}, "")
	if long.DurationS <= pl.DurationS || long.DurationS > 10 {
		t.Errorf("complex prompt default %g s, simple %g s", long.DurationS, pl.DurationS)
	}
}

func TestPlanRevision(t *testing.T) {
	base := &koda.Project{Prompt: demoPrompt}
	first := plan(t, base, "")
	base.Plan = first
	tests := []struct {
		feedback string
		check    func(t *testing.T, pl *koda.Plan)
	}{
		{"make it 8 seconds", func(t *testing.T, pl *koda.Plan) {
			checkRules(t, pl, 8)
		}},
		{"slower please", func(t *testing.T, pl *koda.Plan) {
			if pl.DurationS <= first.DurationS {
				t.Errorf("slower: %g s, was %g s", pl.DurationS, first.DurationS)
			}
			checkRules(t, pl, pl.DurationS)
		}},
		{"add a title 'Launch day'", func(t *testing.T, pl *koda.Plan) {
			if !strings.Contains(fmt.Sprint(pl.Scenes), `"Launch day"`) || !strings.Contains(fmt.Sprint(pl.Scenes), `"Hello from Koda"`) {
				t.Errorf("titles missing: %+v", pl.Scenes)
			}
		}},
		{"more scenes", func(t *testing.T, pl *koda.Plan) {
			if len(pl.Scenes) <= len(first.Scenes) {
				t.Errorf("%d scenes, was %d", len(pl.Scenes), len(first.Scenes))
			}
			checkRules(t, pl, pl.DurationS)
		}},
		{"make the ball blue", func(t *testing.T, pl *koda.Plan) {
			if !strings.Contains(pl.Scenes[0].Description, "ball #1e88e5") {
				t.Errorf("palette not blue: %s", pl.Scenes[0].Description)
			}
		}},
		{"more cinematic", func(t *testing.T, pl *koda.Plan) {
			if pl.Style != koda.StyleCinematic {
				t.Errorf("style %s", pl.Style)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.feedback, func(t *testing.T) {
			p := *base
			pl := plan(t, &p, tc.feedback)
			if pl.Revision != 2 || pl.Feedback != tc.feedback {
				t.Errorf("revision %d feedback %q", pl.Revision, pl.Feedback)
			}
			if !strings.HasPrefix(pl.Scenes[0].Description, "Revision 2: ") {
				t.Errorf("first scene does not say what changed: %s", pl.Scenes[0].Description)
			}
			tc.check(t, pl)
		})
	}
	// Revisions compound: a second round keeps the first one's changes.
	p := *base
	p.Plan = plan(t, &p, "add a title 'Launch day'")
	third := plan(t, &p, "make it 9 seconds")
	if third.Revision != 3 || third.DurationS != 9 || !strings.Contains(fmt.Sprint(third.Scenes), `"Launch day"`) {
		t.Errorf("third revision lost changes: rev %d, %g s, %+v", third.Revision, third.DurationS, third.Scenes)
	}
}

// TestPlanSaysLayoutAndLanguage: the plan names the genre layout it will use, and says
// when a prompt does not read as English (drawing what it can rather than failing).
func TestPlanSaysLayoutAndLanguage(t *testing.T) {
	ctx := context.Background()
	a := builtin.New(nil)
	for _, c := range []struct{ prompt, want string }{
		{`A lower third: "Ana Ruiz" with the role "Mayor"`, "Layout: a lower third"},
		{"Un chat noir saute sur la table rouge, puis dort", "does not read as English"},
		// One "a" ("una a una") is Spanish too; accented words are whole words.
		{"Un altar con tres fotos enmarcadas, pan de muerto y calaveritas de azúcar; las velas se encienden una a una", "does not read as English"},
	} {
		pl, err := a.Plan(ctx, &koda.Project{ID: "prj_t", Prompt: c.prompt, Style: koda.StyleSmooth}, "")
		if err != nil {
			t.Fatalf("%q: %v", c.prompt, err)
		}
		if !strings.Contains(pl.Scenes[0].Description, c.want) {
			t.Errorf("%q: plan says %q, want %q", c.prompt, pl.Scenes[0].Description, c.want)
		}
	}
	pl, err := a.Plan(ctx, &koda.Project{ID: "prj_t", Prompt: "A red ball bounces three times", Style: koda.StyleSmooth}, "")
	if err != nil || strings.Contains(pl.Scenes[0].Description, "English") || strings.Contains(pl.Scenes[0].Description, "Layout:") {
		t.Errorf("an English prompt with no genre: %v %q", err, pl.Scenes[0].Description)
	}
}
