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
	if len(prompts) < 40 {
		t.Errorf("the suite has %d prompts, want at least 40", len(prompts))
	}
	cats := map[string]int{}
	for _, p := range prompts {
		cats[p.Category]++
	}
	for _, c := range []string{"product", "logo", "data", "text", "character", "abstract", "portrait", "long", "short"} {
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
	t.Logf("%d/%d passed in %v", rep.Passed(), len(rep.Results), rep.Elapsed.Round(time.Second))
	for _, r := range rep.Results {
		t.Logf("%-20s motion=%v dominant=%v", r.ID, r.SceneMotion, r.Dominant)
		for _, f := range r.Failures {
			t.Errorf("%s: %s", r.ID, f)
		}
	}
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
