package suite_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent"
	"github.com/kodahq/koda/agent/suite"
)

// shortSet is one prompt per category, for -short runs.
var shortSet = []string{"product-sale", "logo-square", "data-bars", "text-sequence", "char-ball",
	"abstract-waves", "portrait-event", "long-ambient", "short-ping"}

// TestPromptSuite renders every prompt of testdata/prompts.json through the builtin
// agent, the local sandbox and the real renderer and checks each video: its length, no
// blank frames, motion in every scene, the quoted text read back by tesseract and the
// requested colours among the dominant colours. KODA_SUITE_KEEP keeps videos and stills.
func TestPromptSuite(t *testing.T) {
	prompts, err := agent.SuitePrompts()
	if err != nil {
		t.Fatal(err)
	}
	if len(prompts) < 120 {
		t.Errorf("the suite has %d prompts, want at least 120", len(prompts))
	}
	cats := map[string]int{}
	for _, p := range prompts {
		cats[p.Category]++
	}
	for _, c := range []string{"product", "logo", "data", "text", "character", "abstract", "portrait", "long", "short",
		"object", "vehicle", "animal", "food", "weather", "ui", "icon", "square"} {
		if cats[c] == 0 {
			t.Errorf("no %s prompt in the suite", c)
		}
	}
	cfg := suite.Config{WorkDir: t.TempDir()}
	if dir := os.Getenv("KODA_SUITE_KEEP"); dir != "" {
		cfg.WorkDir = dir
	}
	if testing.Short() {
		cfg.Only = shortSet
	}
	ctx, cancel := context.WithTimeout(context.Background(), 25*time.Minute)
	defer cancel()
	rep, err := suite.Run(ctx, cfg, prompts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d/%d passed in %v (automated %d, semantic %d)", rep.Passed(), len(rep.Results), rep.Elapsed.Round(time.Second),
		rep.AutomatedPassed(), rep.SemanticPassed())
	for _, r := range rep.Results {
		t.Logf("%-20s motion=%v dominant=%v", r.ID, r.SceneMotion, r.Dominant)
	}
	if testing.Short() {
		// The short set passed every automated check before the suite grew: it must go on.
		for _, r := range rep.Results {
			for _, f := range r.Failures {
				t.Errorf("%s: %s", r.ID, f)
			}
		}
		return
	}
	floor(t, rep, automatedFloor, semanticFloor)
}

// Floors of the full suite on the builtin agent, measured on the prompts as they are:
// raise them as the agent learns to draw what is asked (the target is every prompt); a
// change that lowers a count is a regression. The automated floor leaves room for the
// one or two OCR reads that vary between runs on a loaded machine.
const (
	automatedFloor = 155 // 157/157 measured
	semanticFloor  = 157 // 157/157 measured (scene descriptions, which do not vary between runs)
)

// floor fails the test when fewer prompts pass than the floors, listing every failure;
// above them, failures are logged, as the prompts the agent cannot draw yet.
func floor(t *testing.T, rep *suite.Report, automated, semantic int) {
	t.Helper()
	report := t.Logf
	if rep.AutomatedPassed() < automated || rep.SemanticPassed() < semantic {
		t.Errorf("automated checks %d/%d (floor %d), semantic checks %d/%d (floor %d)", rep.AutomatedPassed(), len(rep.Results),
			automated, rep.SemanticPassed(), len(rep.Results), semantic)
		report = t.Errorf
	}
	for _, r := range rep.Results {
		for _, f := range r.Failures {
			report("FAIL %s: %s", r.ID, f)
		}
		for _, f := range r.Semantic {
			report("MISS %s: %s", r.ID, f)
		}
	}
}

// TestSceneSemantics checks every prompt's scene description without rendering: the
// plan rules, what the critic left, and whether the scene depicts the subjects, plays
// the actions and carries the data and colours asked for. Seconds, so it runs in -short.
func TestSceneSemantics(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rep, err := suite.Run(ctx, suite.Config{WorkDir: t.TempDir(), ScenesOnly: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("semantic checks %d/%d", rep.SemanticPassed(), len(rep.Results))
	floor(t, rep, len(rep.Results), semanticFloor)
}

// TestCheckPlan: the plan rules reject short scenes, gaps and wrong scene counts.
func TestCheckPlan(t *testing.T) {
	sc := func(a, b float64) koda.Scene {
		return koda.Scene{Name: "s", StartS: a, EndS: b, Entry: "in", Hold: "hold", Exit: "out"}
	}
	todos := make([]koda.Todo, 6)
	good := &koda.Plan{DurationS: 6, Scenes: []koda.Scene{sc(0, 2), sc(2, 4), sc(4, 6)}, Todos: todos}
	if p := suite.CheckPlan(good); len(p) != 0 {
		t.Errorf("good plan: %v", p)
	}
	for name, pl := range map[string]*koda.Plan{
		"short scene":  {DurationS: 6, Scenes: []koda.Scene{sc(0, 1), sc(1, 4), sc(4, 6)}, Todos: todos},
		"gap":          {DurationS: 6, Scenes: []koda.Scene{sc(0, 2), sc(2.5, 4), sc(4, 6)}, Todos: todos},
		"too few":      {DurationS: 6, Scenes: []koda.Scene{sc(0, 3), sc(3, 6)}, Todos: todos},
		"long needs 5": {DurationS: 30, Scenes: []koda.Scene{sc(0, 10), sc(10, 20), sc(20, 30)}, Todos: todos},
		"no exit":      {DurationS: 6, Scenes: []koda.Scene{sc(0, 2), sc(2, 4), {Name: "x", StartS: 4, EndS: 6, Entry: "a", Hold: "b"}}, Todos: todos},
	} {
		if p := suite.CheckPlan(pl); len(p) == 0 {
			t.Errorf("%s: accepted", name)
		}
	}
}
