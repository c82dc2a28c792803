package koda_test

import (
	"testing"

	"github.com/kodahq/koda"
)

// TestPhaseMachine checks every (phase, action) pair against DESIGN.md §3.1: the
// allowed moves lead where the design says, every other pair is a conflict that names
// the current phase.
func TestPhaseMachine(t *testing.T) {
	type move struct {
		from   koda.Phase
		action koda.Action
	}
	allowed := map[move]koda.Phase{
		{koda.PhaseIdle, koda.ActionAsk}:               koda.PhaseQuestion,
		{koda.PhaseIdle, koda.ActionPlanned}:           koda.PhasePlan,
		{koda.PhaseQuestion, koda.ActionAnswer}:        koda.PhasePlan,
		{koda.PhaseQuestion, koda.ActionPlanned}:       koda.PhasePlan,
		{koda.PhasePlan, koda.ActionApprovePlan}:       koda.PhaseExecuting,
		{koda.PhasePlan, koda.ActionRejectPlan}:        koda.PhaseQuestion,
		{koda.PhasePlan, koda.ActionPlanned}:           koda.PhasePlan,
		{koda.PhaseExecuting, koda.ActionPreviewReady}: koda.PhasePreview,
		{koda.PhasePreview, koda.ActionApprovePreview}: koda.PhaseComplete,
		{koda.PhasePreview, koda.ActionFeedback}:       koda.PhaseExecuting,
		{koda.PhaseComplete, koda.ActionFeedback}:      koda.PhaseExecuting,
		{koda.PhaseError, koda.ActionRetry}:            koda.PhaseExecuting,
	}
	for _, from := range koda.Phases() {
		allowed[move{from, koda.ActionFail}] = koda.PhaseError
	}
	pairs := 0
	for _, from := range koda.Phases() {
		for _, action := range koda.Actions() {
			pairs++
			want, ok := allowed[move{from, action}]
			got, err := from.Next(action)
			if ok {
				if err != nil || got != want {
					t.Errorf("%s --%s--> got (%q, %v), want %s", from, action, got, err, want)
				}
				continue
			}
			if err == nil {
				t.Errorf("%s --%s--> %s allowed, want a conflict", from, action, got)
				continue
			}
			var kerr *koda.Error
			if koda.ErrorKind(err) != koda.ECONFLICT || koda.ErrorCode(err) != koda.CodePhaseConflict {
				t.Errorf("%s --%s--> error %v, want ECONFLICT PHASE_CONFLICT", from, action, err)
			}
			if e, ok := err.(*koda.Error); ok {
				kerr = e
			}
			if kerr == nil || kerr.Phase != from {
				t.Errorf("%s --%s--> conflict does not name the current phase: %+v", from, action, kerr)
			}
		}
	}
	if want := len(koda.Phases()) * len(koda.Actions()); pairs != want || want != 70 {
		t.Fatalf("checked %d pairs, want 70 (7 phases × 10 actions)", pairs)
	}
}

func TestPresets(t *testing.T) {
	for name, want := range map[string][4]int{
		"preview": {640, 360, 15, 28}, "final": {1920, 1080, 60, 18}, "1080p": {1920, 1080, 60, 18},
		"720p": {1280, 720, 30, 18}, "4k": {3840, 2160, 30, 18}, "youtube": {1920, 1080, 60, 18},
		"instagram_reels": {1080, 1920, 30, 18}, "tiktok": {1080, 1920, 30, 18}, "twitter": {1920, 1080, 30, 18},
	} {
		p, err := koda.LookupPreset(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := [4]int{p.Width, p.Height, p.FPS, p.CRF}; got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("named preset %s does not validate: %v", name, err)
		}
		if p.EncoderSpeed != koda.DefaultEncoderSpeed {
			t.Errorf("%s encodes at %q, want the default %q", name, p.EncoderSpeed, koda.DefaultEncoderSpeed)
		}
	}
	custom := koda.PresetSpec{Width: 1280, Height: 720, FPS: 30}
	if err := custom.Validate(); err != nil || custom.EncoderSpeed != koda.DefaultEncoderSpeed {
		t.Errorf("custom preset without encoder_speed: %v, speed %q", err, custom.EncoderSpeed)
	}
	custom.EncoderSpeed = " SuperFast "
	if err := custom.Validate(); err != nil || custom.EncoderSpeed != "superfast" {
		t.Errorf("encoder_speed superfast: %v, speed %q", err, custom.EncoderSpeed)
	}
	if _, err := koda.LookupPreset("vhs"); koda.ErrorCode(err) != koda.CodeUnknownPreset {
		t.Errorf("unknown preset: got %v", err)
	}
	reels, _ := koda.LookupPreset("instagram_reels")
	if err := reels.CheckDuration(90); err != nil {
		t.Errorf("90 s fits reels: %v", err)
	}
	if err := reels.CheckDuration(91); koda.ErrorCode(err) != koda.CodeDurationOverLimit {
		t.Errorf("91 s over reels limit: got %v", err)
	}
	if n := (koda.PresetSpec{FPS: 60}).Frames(5); n != 300 {
		t.Errorf("5 s at 60 fps = %d frames, want 300", n)
	}
	for _, bad := range []koda.PresetSpec{
		{Width: 0, Height: 720, FPS: 30}, {Width: 1281, Height: 720, FPS: 30}, {Width: 7680, Height: 4320, FPS: 30},
		{Width: 1280, Height: 720, FPS: 0}, {Width: 1280, Height: 720, FPS: 240}, {Width: 1280, Height: 720, FPS: 30, CRF: 60},
		{Width: 1280, Height: 720, FPS: 30, Format: "avi"}, {Width: 1280, Height: 720, FPS: 30, EncoderSpeed: "warp"},
	} {
		if err := bad.Validate(); koda.ErrorCode(err) != koda.CodeInvalidPreset {
			t.Errorf("%+v: got %v, want INVALID_PRESET", bad, err)
		}
	}
}

func TestNewIDsSortByTimeAndAreUnique(t *testing.T) {
	seen := map[string]bool{}
	prev := ""
	for i := 0; i < 2000; i++ {
		id := koda.NewID("prj")
		if len(id) != len("prj_")+26 {
			t.Fatalf("id %q has the wrong length", id)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
		if id[:14] < prev[:min(14, len(prev))] {
			t.Fatalf("id %q sorts before the earlier %q", id, prev)
		}
		prev = id
	}
}
