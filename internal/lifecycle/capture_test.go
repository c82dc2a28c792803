package lifecycle_test

import (
	"context"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/lifecycle"
)

// TestCaptureGroupShares: a batch for youtube, final, 720p, 1080p30 and tiktok enqueues
// two render tasks, youtube's and tiktok's. 720p and 1080p30 are captured by youtube's
// job (final shares youtube's file): they start with it, a stray task of theirs does
// nothing, each finishes with its own file and frames, and the batch completes once the
// capture's renders and tiktok are done. Retrying a captured render runs it alone.
func TestCaptureGroupShares(t *testing.T) {
	ctx := context.Background()
	sb := newBatchOf(t, kodatest.MustOpenDB(t), "youtube", "final", "720p", "1080p30", "tiktok")
	s := sb.s
	lead, tiktok := sb.byName["youtube"], sb.byName["tiktok"]
	got := map[string]bool{}
	for _, a := range sb.firstRT {
		got[a.RenderID] = true
	}
	if len(sb.firstRT) != 2 || !got[lead.ID] || !got[tiktok.ID] {
		t.Fatalf("render tasks %v, want youtube's %s and tiktok's %s", sb.firstRT, lead.ID, tiktok.ID)
	}
	derived := []string{"720p", "1080p30"}
	for _, n := range derived {
		if r := sb.byName[n]; r.CaptureOf != lead.ID || r.OutputOf != "" {
			t.Errorf("%s: capture of %q, output of %q; want youtube's capture %s", n, r.CaptureOf, r.OutputOf, lead.ID)
		}
	}
	if r := sb.byName["final"]; r.OutputOf != lead.ID || r.CaptureOf != "" {
		t.Errorf("final: output of %q, capture of %q; want youtube's file", r.OutputOf, r.CaptureOf)
	}
	if r := sb.byName["tiktok"]; r.CaptureOf != "" {
		t.Errorf("tiktok is captured by %s, but no other render is upright", r.CaptureOf)
	}

	if _, run, err := s.StartRender(ctx, sb.byName["720p"].ID); err != nil || run {
		t.Fatalf("StartRender(720p) = run %v, %v; want nothing: youtube's job captures it", run, err)
	}
	if _, run, err := s.StartRender(ctx, lead.ID); err != nil || !run {
		t.Fatalf("StartRender(youtube) = %v, %v", run, err)
	}
	for _, n := range []string{"youtube", "final", "720p", "1080p30"} {
		if r := sb.get(t, n); r.Status != koda.RenderRunning || r.Attempts != 1 {
			t.Errorf("%s after the capture started: %s, attempt %d", n, r.Status, r.Attempts)
		}
	}
	if r := sb.get(t, "tiktok"); r.Status != koda.RenderQueued {
		t.Errorf("tiktok started with youtube's capture: %s", r.Status)
	}
	// While the capture runs, the reconciler looks after its task alone.
	due, err := s.DueWork(ctx, time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	dueIDs := map[string]bool{}
	for _, r := range due.Renders {
		dueIDs[r.ID] = true
	}
	if len(dueIDs) != 2 || !dueIDs[lead.ID] || !dueIDs[tiktok.ID] {
		t.Errorf("due renders %v, want youtube's capture %s and tiktok's %s", dueIDs, lead.ID, tiktok.ID)
	}
	ms, err := s.CapturedWith(ctx, lead.ID)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range ms {
		names[m.Preset.Name] = true
	}
	if len(ms) != 2 || !names["720p"] || !names["1080p30"] {
		t.Fatalf("captured with youtube: %d renders, want 720p and 1080p30", len(ms))
	}

	// The worker finishes each render of the capture with its own file.
	for _, r := range append(ms, sb.get(t, "youtube")) {
		out := lifecycle.RenderOutput{VideoKey: koda.RenderVideoKey(sb.p.ID, r.ID, "mp4"),
			ThumbKey: koda.RenderThumbKey(sb.p.ID, r.ID), SizeBytes: 100, Frames: r.Preset.Frames(r.DurationS)}
		if _, err := s.FinishRender(ctx, r.ID, out, nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"youtube", "final", "720p", "1080p30"} {
		r := sb.get(t, n)
		owner := r.ID
		if n == "final" {
			owner = lead.ID
		}
		if r.Status != koda.RenderSucceeded || r.VideoKey != koda.RenderVideoKey(sb.p.ID, owner, "mp4") ||
			r.Progress.FramesDone != sb.byName[n].Preset.Frames(r.DurationS) {
			t.Errorf("%s: %s %q, %d frames", n, r.Status, r.VideoKey, r.Progress.FramesDone)
		}
	}
	if b, _ := sb.st.GetBatch(ctx, sb.batch.ID); b.CompletedAt != nil {
		t.Fatal("the batch completed while tiktok is queued")
	}

	// A failed render of the group, retried, captures its own frames.
	if _, err := s.FinishRender(ctx, tiktok.ID, lifecycle.RenderOutput{}, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeRenderFailed, "boom")); err != nil {
		t.Fatal(err)
	}
	if b, _ := sb.st.GetBatch(ctx, sb.batch.ID); b.CompletedAt == nil {
		t.Error("the batch did not complete with all five renders done")
	}
}

// TestCaptureGroupRetryAndRelease: a captured render whose capture failed, retried,
// runs its own task without a capture; and a capture split into chunks releases the
// renders it would have encoded to tasks of their own.
func TestCaptureGroupRetryAndRelease(t *testing.T) {
	ctx := context.Background()
	sb := newBatchOf(t, kodatest.MustOpenDB(t), "1080p", "720p", "720p60")
	s := sb.s
	lead := sb.byName["1080p"]
	if _, _, err := s.StartRender(ctx, lead.ID); err != nil {
		t.Fatal(err)
	}
	cause := koda.Errorf(koda.EUNPROCESSABLE, koda.CodeRenderFailed, "the page threw")
	ms, err := s.CapturedWith(ctx, lead.ID)
	if err != nil || len(ms) != 2 {
		t.Fatalf("captured with 1080p: %d, %v", len(ms), err)
	}
	for _, r := range append(ms, lead) {
		if _, err := s.FinishRender(ctx, r.ID, lifecycle.RenderOutput{}, cause); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"1080p", "720p", "720p60"} {
		if r := sb.get(t, n); r.Status != koda.RenderFailed || r.Error == nil || r.Error.Message != "the page threw" {
			t.Errorf("%s after its capture failed: %s %+v", n, r.Status, r.Error)
		}
	}
	r, err := s.RetryRender(ctx, sb.byName["720p"].ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := sb.q.renderTasks(); len(got) != 1 || got[0].RenderID != r.ID || r.CaptureOf != "" {
		t.Errorf("retried 720p: tasks %v, capture of %q; want its own task", got, r.CaptureOf)
	}

	sb = newBatchOf(t, sb.st, "1080p", "720p")
	s = sb.s
	lead, hd := sb.byName["1080p"], sb.byName["720p"]
	if len(sb.firstRT) != 1 || hd.CaptureOf != lead.ID {
		t.Fatalf("1080p and 720p: tasks %v, 720p captured by %q", sb.firstRT, hd.CaptureOf)
	}
	if _, _, err := s.StartRender(ctx, lead.ID); err != nil {
		t.Fatal(err)
	}
	if err := s.ReleaseCaptured(ctx, lead.ID); err != nil {
		t.Fatal(err)
	}
	if got := sb.q.renderTasks(); len(got) != 1 || got[0].RenderID != hd.ID {
		t.Errorf("tasks after the release: %v, want 720p's own", got)
	}
	if r := sb.get(t, "720p"); r.CaptureOf != "" {
		t.Errorf("720p after its capture was split: capture of %q", r.CaptureOf)
	}
	if _, run, err := s.StartRender(ctx, hd.ID); err != nil || !run {
		t.Errorf("StartRender(720p) after the release = %v, %v; want it to run", run, err)
	}
}
