package lifecycle_test

import (
	"context"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/lifecycle"
)

// TestChunkRenderDropsStaleTasks: a chunk or stitch task counts only for the render's
// current attempt while it runs; a finished render or a newer split makes it stale.
func TestChunkRenderDropsStaleTasks(t *testing.T) {
	ctx := context.Background()
	st := kodatest.MustOpenDB(t)
	s := &lifecycle.Service{Store: st}
	now := time.Now().UTC()
	p := &koda.Project{ID: koda.NewID(koda.PrefixProject), TenantID: "acme", Prompt: "a ball", Phase: koda.PhaseComplete,
		DurationS: 1, CreatedAt: now, UpdatedAt: now}
	if err := st.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	r := &koda.Render{ID: koda.NewID(koda.PrefixRender), TenantID: "acme", ProjectID: p.ID, Kind: koda.RenderFinal,
		Preset: koda.PresetSpec{Name: "tiny", Width: 64, Height: 36, FPS: 5, Format: "mp4"}, DurationS: 1,
		Status: koda.RenderRunning, Attempts: 2, CreatedAt: now}
	if err := st.CreateRender(ctx, r); err != nil {
		t.Fatal(err)
	}
	live := func(attempt int) bool {
		t.Helper()
		got, ok, err := s.ChunkRender(ctx, r.ID, attempt)
		if err != nil || got.ID != r.ID {
			t.Fatalf("ChunkRender(%d): %v %v", attempt, got, err)
		}
		return ok
	}
	if !live(2) {
		t.Error("a chunk of the running attempt is stale")
	}
	if live(1) {
		t.Error("a chunk of an earlier attempt is live")
	}
	r.Status = koda.RenderSucceeded
	if err := st.UpdateRender(ctx, r); err != nil {
		t.Fatal(err)
	}
	if live(2) {
		t.Error("a chunk of a finished render is live")
	}
	if _, _, err := s.ChunkRender(ctx, "rnd_missing", 1); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Errorf("a missing render: %v, want not found", err)
	}
}
