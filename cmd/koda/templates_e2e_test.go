package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda"
)

// A project made by the builtin agent becomes a template; a batch of two rows renders,
// without the agent, two real MP4s through the render pool, each showing its row's
// words; a render.completed webhook per render and one batch.completed arrive, and the
// manifest links both videos.
func TestTemplateBatchRendersRows(t *testing.T) {
	m := startKoda(t, "")
	c := client{t: t, base: m.PublicURL}
	hooks := newWebhookReceiver(t)
	small := map[string]any{"width": 640, "height": 360, "fps": 5}
	var p project
	c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "The words 'HELLO WORLD' appear in big white letters on a dark background", "duration_s": 2,
		"auto_approve": true, "presets": []any{small}}, &p)
	c.waitProject(p.ID, 3*time.Minute, "complete", func(p project) bool { return p.Phase == "complete" && finalsDone(p, 1) })

	var tpl struct {
		ID     string `json:"id"`
		Fields []struct {
			Name  string          `json:"name"`
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
			Limit struct {
				MaxLength int `json:"max_length"`
			} `json:"limit"`
		} `json:"fields"`
	}
	if status, _ := c.do(http.MethodPost, "/v1/templates", map[string]any{"project_id": p.ID, "name": "greeting"}, &tpl); status != http.StatusCreated {
		t.Fatalf("create template: %d %+v", status, tpl)
	}
	field := ""
	for _, f := range tpl.Fields {
		if f.Type == "text" && strings.Contains(strings.ToUpper(string(f.Value)), "HELLO") {
			field = f.Name
		}
	}
	if field == "" {
		t.Fatalf("no text field holds HELLO WORLD: %+v", tpl.Fields)
	}
	words := []string{"SPRING", "WINTER"}
	var batch struct {
		ID     string `json:"id"`
		Status string `json:"status"`
		Total  int    `json:"total"`
	}
	status, _ := c.do(http.MethodPost, "/v1/templates/"+tpl.ID+"/batches", map[string]any{
		"rows":    []any{map[string]any{field: words[0]}, map[string]any{field: words[1]}},
		"presets": []any{small}, "callback_url": hooks.srv.URL + "/rows"}, &batch)
	if status != http.StatusAccepted || batch.Total != 2 {
		t.Fatalf("create batch: %d %+v", status, batch)
	}
	waitFor(t, "the batch to complete", 4*time.Minute, func() bool {
		c.do(http.MethodGet, "/v1/batches/"+batch.ID, nil, &batch)
		return batch.Status == "completed"
	})
	var man struct {
		Lines []koda.ManifestLine `json:"lines"`
	}
	c.do(http.MethodGet, "/v1/batches/"+batch.ID+"/manifest", nil, &man)
	if len(man.Lines) != 2 {
		t.Fatalf("manifest %+v", man.Lines)
	}
	dir := t.TempDir()
	for i, l := range man.Lines {
		if l.Row != i+1 || l.Status != "succeeded" || l.VideoURL == "" {
			t.Fatalf("line %d: %+v", i, l)
		}
		video := download(t, l.VideoURL, dir, words[i]+".mp4")
		if pr := ffprobe(t, video); pr.Codec != "h264" || pr.Width != 640 || pr.Height != 360 || pr.Frames != 10 {
			t.Errorf("row %d video %+v", l.Row, pr)
		}
		text := strings.ToUpper(ocrFrame(t, video, 1.8))
		t.Logf("row %d reads %q", l.Row, strings.TrimSpace(text))
		if !strings.Contains(text, words[i]) || strings.Contains(text, "HELLO") || strings.Contains(text, words[1-i]) {
			t.Errorf("row %d shows %q, want %s", l.Row, text, words[i])
		}
	}
	waitFor(t, "the webhooks", 30*time.Second, func() bool {
		d := hooks.delivered()
		return d[koda.WebhookRenderCompleted] >= 2 && d[koda.WebhookBatchCompleted] >= 1
	})
	time.Sleep(time.Second) // let a duplicate arrive, if one were sent
	if d := hooks.delivered(); d[koda.WebhookRenderCompleted] != 2 || d[koda.WebhookBatchCompleted] != 1 {
		t.Errorf("webhooks delivered %v, want 2 render.completed and 1 batch.completed", d)
	}
}
