package koda_test

import (
	"strings"
	"testing"

	"github.com/kodahq/koda"
)

func presets(t *testing.T, names ...string) []koda.PresetSpec {
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

func TestDurationLimitIsTheSmallestPositiveLimit(t *testing.T) {
	unlimited := koda.PresetSpec{Name: "custom", Width: 640, Height: 360, FPS: 30}
	for _, tc := range []struct {
		presets   []koda.PresetSpec
		maxS      float64
		preset    string
		fitted120 float64
	}{
		{nil, 0, "", 120},
		{presets(t, "youtube", "1080p"), 0, "", 120},
		{presets(t, "tiktok", "instagram_reels", "twitter"), 90, "instagram_reels", 90},
		{presets(t, "youtube", "twitter", "tiktok"), 140, "twitter", 120},
		{append(presets(t, "tiktok"), unlimited), 180, "tiktok", 120},
	} {
		maxS, preset := koda.DurationLimit(tc.presets)
		if maxS != tc.maxS || preset != tc.preset {
			t.Errorf("DurationLimit(%v) = %g %q, want %g %q", names(tc.presets), maxS, preset, tc.maxS, tc.preset)
		}
		if got, _ := koda.FitDuration(tc.presets, 120); got != tc.fitted120 {
			t.Errorf("FitDuration(%v, 120) = %g, want %g", names(tc.presets), got, tc.fitted120)
		}
	}
}

func names(ps []koda.PresetSpec) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func TestFitDurationSaysWhy(t *testing.T) {
	reels := presets(t, "youtube", "instagram_reels")
	got, note := koda.FitDuration(reels, 120)
	if got != 90 {
		t.Errorf("120 s for reels fitted to %g s, want 90", got)
	}
	for _, want := range []string{"90 s", "120 s", "instagram_reels allows at most 90 s"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
	for _, d := range []float64{90, 30, 0} {
		if got, note := koda.FitDuration(reels, d); got != d || note != "" {
			t.Errorf("FitDuration(reels, %g) = %g %q, want it unchanged without a note", d, got, note)
		}
	}
}

func TestPlanFitPresetsScalesScenes(t *testing.T) {
	pl := &koda.Plan{DurationS: 120, Scenes: []koda.Scene{
		{ID: "s1", StartS: 0, EndS: 30}, {ID: "s2", StartS: 30, EndS: 100}, {ID: "s3", StartS: 100, EndS: 120},
	}}
	note := pl.FitPresets(presets(t, "instagram_reels"))
	if note == "" || len(pl.Notes) != 1 || pl.Notes[0] != note {
		t.Fatalf("note %q, plan notes %q: want the note in the plan", note, pl.Notes)
	}
	want := [][2]float64{{0, 22.5}, {22.5, 75}, {75, 90}}
	for i, sc := range pl.Scenes {
		if sc.StartS != want[i][0] || sc.EndS != want[i][1] {
			t.Errorf("scene %d at %g–%g s, want %g–%g", i+1, sc.StartS, sc.EndS, want[i][0], want[i][1])
		}
	}
	if pl.DurationS != 90 {
		t.Errorf("plan lasts %g s, want 90", pl.DurationS)
	}
	if err := koda.CheckPresetDurations(presets(t, "instagram_reels"), pl.DurationS); err != nil {
		t.Errorf("the fitted plan is still refused: %v", err)
	}
	// A plan within the limit is left alone.
	if note := pl.FitPresets(presets(t, "instagram_reels", "tiktok")); note != "" || len(pl.Notes) != 1 || pl.DurationS != 90 {
		t.Errorf("a fitting plan changed: note %q, notes %q, %g s", note, pl.Notes, pl.DurationS)
	}
}

// An explicit duration_s over a preset's limit is refused at submission; a request
// that leaves the length to the prompt is not (the planner fits it).
func TestExplicitDurationOverPresetLimitIsRefused(t *testing.T) {
	n := koda.NewProject{Prompt: "a two-minute video of a ball", DurationS: 120, Presets: presets(t, "tiktok", "instagram_reels")}
	err := n.Validate()
	if koda.ErrorCode(err) != koda.CodeDurationOverLimit || koda.ErrorKind(err) != koda.EUNPROCESSABLE {
		t.Fatalf("120 s for reels: %v (code %s), want an unprocessable DURATION_OVER_PRESET_LIMIT", err, koda.ErrorCode(err))
	}
	if msg := koda.ErrorMessage(err); !strings.Contains(msg, "instagram_reels") || !strings.Contains(msg, "90") {
		t.Errorf("message %q does not name the preset and its limit", msg)
	}
	for _, d := range []float64{90, 0} {
		n.DurationS = d
		if err := n.Validate(); err != nil {
			t.Errorf("duration_s %g for reels refused: %v", d, err)
		}
	}
}
