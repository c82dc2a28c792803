package llm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/kodahq/koda"
)

// submitPlanReply is an Anthropic Messages response calling submit_plan with a plan of
// n equal scenes lasting totalS.
func submitPlanReply(t *testing.T, id string, totalS float64, n int) []byte {
	t.Helper()
	var scenes []map[string]any
	for i := range n {
		scenes = append(scenes, map[string]any{
			"name": fmt.Sprintf("Scene %d", i+1), "start_s": totalS * float64(i) / float64(n), "end_s": totalS * float64(i+1) / float64(n),
			"description": "the ball bounces", "entry": "drop", "hold": "bounce", "exit": "hop", "easing": "easeOutBack",
		})
	}
	b, err := json.Marshal(map[string]any{
		"id": "msg_" + id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
		"content": []map[string]any{{"type": "tool_use", "id": "toolu_" + id, "name": "submit_plan",
			"input": map[string]any{"title": "Bouncing ball", "duration_s": totalS, "scenes": scenes}}},
		"stop_reason": "tool_use", "usage": map[string]any{"input_tokens": 1000, "output_tokens": 200},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPlanKeepsWithinThePresetLimit: for a two-minute request and instagram_reels, the
// model is told the limit; a 120 s plan goes back with the reason, and the 90 s plan
// that follows is accepted with a note saying why it is shorter than asked.
func TestPlanKeepsWithinThePresetLimit(t *testing.T) {
	replies := [][]byte{submitPlanReply(t, "long", 120, 8), submitPlanReply(t, "fits", 90, 6)}
	var mu sync.Mutex
	var requests []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		i := len(requests)
		requests = append(requests, string(body))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(replies[min(i, len(replies)-1)])
	}))
	t.Cleanup(srv.Close)

	reels, err := koda.LookupPreset("instagram_reels")
	if err != nil {
		t.Fatal(err)
	}
	a := newAgent(t, model("anthropic", srv.URL))
	p := &koda.Project{ID: "prj_limit", Prompt: "A two-minute video of a red ball bouncing", Style: koda.StylePlayful,
		DurationS: 120, AutoApprove: true, Presets: []koda.PresetSpec{reels}}
	pl, err := a.Plan(context.Background(), p, "")
	if err != nil {
		t.Fatal(err)
	}
	if pl.DurationS != 90 || len(pl.Scenes) != 6 {
		t.Errorf("plan of %g s in %d scenes, want the 90 s one", pl.DurationS, len(pl.Scenes))
	}
	if note := strings.Join(pl.Notes, " "); !strings.Contains(note, "instagram_reels allows at most 90 s") || !strings.Contains(note, "from 120 s") {
		t.Errorf("plan notes %q do not say it was shortened from 120 s and why", pl.Notes)
	}
	if len(requests) != 2 {
		t.Fatalf("%d model calls, want 2", len(requests))
	}
	if !strings.Contains(requests[0], "Requested duration: 90s") || !strings.Contains(requests[0], "instagram_reels allows at most 90s") {
		t.Errorf("the model was not told the limit: %.600s", requests[0])
	}
	if !strings.Contains(requests[1], "breaks the rules") || !strings.Contains(requests[1], "the plan lasts 120s but instagram_reels allows at most 90s") {
		t.Errorf("the 120 s plan did not go back with the limit: %.600s", requests[1])
	}
}
