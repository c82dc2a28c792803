package builtin_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/scene"
)

const reelsWhy = "instagram_reels allows at most 90 s"

func lookup(t *testing.T, names ...string) []koda.PresetSpec {
	t.Helper()
	var out []koda.PresetSpec
	for _, n := range names {
		p, err := koda.LookupPreset(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// TestPlanKeepsWithinThePresetLimit: "a two-minute video" for instagram_reels is planned
// at Reels' 90 s, with scenes laid out for 90 s and a note saying why; for tiktok (180 s)
// the two minutes stand.
func TestPlanKeepsWithinThePresetLimit(t *testing.T) {
	ctx := context.Background()
	a := builtin.New(nil)
	const prompt = "A two-minute video: a red ball bounces across the screen, then the text 'Hello' appears"
	for _, tc := range []struct {
		presets []string
		want    float64
		note    bool
	}{
		{[]string{"youtube", "instagram_reels", "tiktok"}, 90, true},
		{[]string{"tiktok"}, 120, false},
		{nil, 120, false},
	} {
		name := strings.Join(tc.presets, ",")
		if name == "" {
			name = "no presets"
		}
		t.Run(name, func(t *testing.T) {
			p := &koda.Project{ID: "prj_limit", Prompt: prompt, AutoApprove: true, Presets: lookup(t, tc.presets...)}
			// As the plan worker does: the analysis' duration becomes the project's.
			an, err := a.Analyze(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			if an.DurationS != 120 {
				t.Fatalf("analysis reads %g s from %q, want 120", an.DurationS, prompt)
			}
			p.DurationS, p.Style = an.DurationS, an.Style
			pl := plan(t, p, "")
			checkRules(t, pl, tc.want)
			note := strings.Join(pl.Notes, " ")
			if tc.note && (!strings.Contains(note, reelsWhy) || !strings.Contains(note, "from 120 s")) {
				t.Errorf("plan notes %q do not say it was shortened from 120 s and why", pl.Notes)
			}
			if !tc.note && len(pl.Notes) > 0 {
				t.Errorf("plan within its presets' limit has notes %q", pl.Notes)
			}
		})
	}
}

// TestPlanFeedbackKeepsWithinThePresetLimit: plan feedback asking for more than Reels
// allows gets 90 s and says why; "longer" at the limit stays there.
func TestPlanFeedbackKeepsWithinThePresetLimit(t *testing.T) {
	p := &koda.Project{Prompt: demoPrompt, DurationS: 60, Presets: lookup(t, "instagram_reels")}
	p.Plan = plan(t, p, "")
	if p.Plan.DurationS != 60 || len(p.Plan.Notes) != 0 {
		t.Fatalf("first plan %g s, notes %q; want 60 s without notes", p.Plan.DurationS, p.Plan.Notes)
	}
	pl := plan(t, p, "make it 2 minutes")
	checkRules(t, pl, 90)
	if !strings.Contains(strings.Join(pl.Notes, " "), reelsWhy) || !strings.Contains(pl.Scenes[0].Description, reelsWhy) {
		t.Errorf("revised plan does not say why it is 90 s: notes %q, %q", pl.Notes, pl.Scenes[0].Description)
	}
	p.Plan = pl
	again := plan(t, p, "longer")
	checkRules(t, again, 90)
	if !strings.Contains(strings.Join(again.Notes, " "), reelsWhy) {
		t.Errorf("'longer' at the limit: notes %q", again.Notes)
	}
}

// TestReviseKeepsWithinThePresetLimit: preview feedback asking for two minutes of a
// Reels project scales the scene to 90 s, not 120, and says why; asking again at 90 s
// changes nothing and says so.
func TestReviseKeepsWithinThePresetLimit(t *testing.T) {
	ctx := context.Background()
	p, sb, _ := generateWith(t, &koda.Project{Prompt: demoPrompt, DurationS: 30, Presets: lookup(t, "instagram_reels")})
	a := builtin.New(nil)
	msg, err := a.Revise(ctx, p, "make it 2 minutes", sb, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	d := readScene(t, sb)
	if d.Duration != 90 || p.DurationS != 90 || p.Plan.DurationS != 90 || p.Plan.Scenes[len(p.Plan.Scenes)-1].EndS != 90 {
		t.Errorf("scene %g s, project %g s, plan %g s; want all 90", d.Duration, p.DurationS, p.Plan.DurationS)
	}
	if !strings.Contains(msg, reelsWhy) || !strings.Contains(msg, "duration 30s → 90s") {
		t.Errorf("message does not say the length went to 90 s and why: %.300s", msg)
	}
	if !strings.Contains(strings.Join(p.Plan.Notes, " "), reelsWhy) {
		t.Errorf("plan notes %q", p.Plan.Notes)
	}

	before := snapshot(t, sb)
	msg, err = a.Revise(ctx, p, "slower", sb, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, sb); after[scene.FileJSON] != before[scene.FileJSON] || p.DurationS != 90 {
		t.Errorf("'slower' at the limit changed the scene (project %g s)", p.DurationS)
	}
	if !strings.Contains(msg, reelsWhy) || !strings.Contains(msg, "unchanged") {
		t.Errorf("'slower' at the limit: message %q", msg)
	}
}
