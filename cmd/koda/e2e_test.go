package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/jobs"
)

// TestAutoApproveToFinalAndBatch drives a prompt through the real HTTP API and the real
// asynq queue to final videos, then re-renders the finished project for a vertical
// preset, checking the MP4s with ffprobe, the frames by decoding them, the text with
// OCR, and every webhook with the Standard Webhooks library.
func TestAutoApproveToFinalAndBatch(t *testing.T) {
	for name, redisURL := range redisTargets(t, kodatest.DBKodaEndToEnd) {
		t.Run(name+"_redis", func(t *testing.T) {
			m := startKoda(t, redisURL())
			hooks := newWebhookReceiver(t)
			c := client{t: t, base: m.PublicURL}

			var created project
			status, hdr := c.do(http.MethodPost, "/v1/projects", map[string]any{
				"prompt":       "A playful red ball bounces across the screen, then the text 'Hello from Koda' appears",
				"duration_s":   2,
				"auto_approve": true,
				"presets":      []any{"720p"},
				"callback_url": hooks.srv.URL + "/hooks",
			}, &created)
			if status != http.StatusAccepted || created.ID == "" || hdr.Get("Location") != "/v1/projects/"+created.ID {
				t.Fatalf("create: %d %+v location %q", status, created, hdr.Get("Location"))
			}
			p := c.waitProject(created.ID, 3*time.Minute, "complete with final renders", func(p project) bool {
				return p.Phase == "complete" && finalsDone(p, 1)
			})
			if p.Preview == nil || p.Plan == nil || len(p.Execution.Files) == 0 {
				t.Fatalf("complete project lacks preview, plan or files: %+v", p)
			}
			for _, todo := range p.Execution.Todos {
				if todo.Status != "done" {
					t.Errorf("todo %s is %s after completion", todo.ID, todo.Status)
				}
			}
			dir := t.TempDir()
			var preview, final *render
			for i := range p.Renders {
				switch r := &p.Renders[i]; r.Kind {
				case "preview":
					preview = r
				case "final":
					final = r
				}
			}
			if preview == nil || final == nil || final.Status != "succeeded" {
				t.Fatalf("renders: %+v", p.Renders)
			}
			checkVideo(t, download(t, preview.VideoURL, dir, "preview.mp4"), 640, 360, 15, 2)
			finalPath := download(t, final.VideoURL, dir, "final.mp4")
			checkVideo(t, finalPath, 1280, 720, 30, 2)
			checkThumbnail(t, download(t, final.ThumbURL, dir, "final.jpg"))

			var got render
			c.do(http.MethodGet, "/v1/renders/"+final.ID, nil, &got)
			if got.Progress.Stage != koda.StageDone || got.Progress.Percent != 100 || got.Progress.FramesDone != 60 || got.Progress.FramesTotal != 60 {
				t.Errorf("render progress after success: %+v", got.Progress)
			}

			// Batch re-render for a vertical platform preset.
			var batch struct {
				ID      string   `json:"id"`
				Renders []render `json:"renders"`
			}
			status, _ = c.do(http.MethodPost, "/v1/projects/"+p.ID+"/renders", map[string]any{"presets": []string{"tiktok"}}, &batch)
			if status != http.StatusAccepted || batch.ID == "" || len(batch.Renders) != 1 {
				t.Fatalf("batch: %d %+v", status, batch)
			}
			p = c.waitProject(p.ID, 3*time.Minute, "batch rendered", func(p project) bool { return finalsDone(p, 2) })
			var vertical *render
			for i := range p.Renders {
				if p.Renders[i].BatchID == batch.ID {
					vertical = &p.Renders[i]
				}
			}
			if vertical == nil || vertical.Status != "succeeded" {
				t.Fatalf("vertical render: %+v", vertical)
			}
			vpath := download(t, vertical.VideoURL, dir, "tiktok.mp4")
			checkVideo(t, vpath, 1080, 1920, 30, 2)
			// The quoted text must be readable in the portrait frame: cut off at the sides
			// it would not OCR as whole words.
			// Portrait layout may wrap the title, so words are compared, not lines.
			if text := strings.Join(strings.Fields(ocrFrame(t, vpath, 1.8)), " "); !strings.Contains(strings.ToLower(text), "hello from koda") {
				t.Errorf("OCR of the vertical video's last scene = %q, want it to contain 'Hello from Koda'", text)
			}

			// Webhooks: each event delivered (after one forced failure) with a valid
			// signature and the same id on its retry.
			deadline := time.Now().Add(30 * time.Second)
			for {
				d := hooks.delivered()
				if d[koda.WebhookBatchCompleted] >= 2 && d[koda.WebhookRenderCompleted] >= 2 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("webhooks delivered: %v", d)
				}
				time.Sleep(200 * time.Millisecond)
			}
			time.Sleep(time.Second) // let any duplicate arrive before counting
			d := hooks.delivered()
			if d[koda.WebhookRenderCompleted] != 2 || d[koda.WebhookBatchCompleted] != 2 || d[koda.WebhookRenderFailed] != 0 {
				t.Errorf("webhook counts = %v, want 2 render.completed, 2 batch.completed (approval batch + re-render)", d)
			}
			// idle→plan, plan→executing, executing→preview, preview→complete.
			if d[koda.WebhookPhaseChanged] != 4 {
				t.Errorf("project.phase_changed delivered %d times, want 4: %v", d[koda.WebhookPhaseChanged], d)
			}
			if hooks.badSigs != 0 {
				t.Errorf("%d deliveries failed signature verification", hooks.badSigs)
			}
			var seenBatch bool
			for _, raw := range hooks.payloads(koda.WebhookBatchCompleted) {
				var ev struct {
					Data koda.BatchCompletedData `json:"data"`
				}
				_ = json.Unmarshal(raw, &ev)
				seenBatch = seenBatch || (ev.Data.BatchID == batch.ID && ev.Data.Succeeded == 1)
			}
			if !seenBatch {
				t.Errorf("no batch.completed for the re-render batch %s", batch.ID)
			}

			// The event stream replays everything, in order, from any point.
			var evs struct {
				Events []struct {
					ID   int64  `json:"id"`
					Type string `json:"type"`
				} `json:"events"`
				NextOffset int64 `json:"next_offset"`
			}
			c.do(http.MethodGet, "/v1/projects/"+p.ID+"/events?offset=0", nil, &evs)
			types := map[string]int{}
			for i, e := range evs.Events {
				if e.ID != int64(i+1) {
					t.Fatalf("event %d has id %d: ids must be 1, 2, 3…", i, e.ID)
				}
				types[e.Type]++
			}
			for _, want := range []string{koda.EventStateChange, koda.EventTodoUpdate, koda.EventThinking,
				koda.EventFileWritten, koda.EventPreviewReady, koda.EventRenderProgress, koda.EventMessage} {
				if types[want] == 0 {
					t.Errorf("no %s event in %v", want, types)
				}
			}
		})
	}
}

// TestManualLifecycle walks the phases a user drives: question, answer, plan approval,
// preview, feedback and a second preview, approval with presets; and checks that a
// forbidden transition answers 409 naming the phase and changes nothing.
func TestManualLifecycle(t *testing.T) {
	m := startKoda(t, "")
	c := client{t: t, base: m.PublicURL}
	var p project
	c.do(http.MethodPost, "/v1/projects", map[string]any{"prompt": "a ball moving around", "duration_s": 2}, &p)
	p = c.waitProject(p.ID, time.Minute, "question", func(p project) bool { return p.Phase == "question" })
	if p.Question == nil || len(p.Question.Options) != 4 {
		t.Fatalf("question: %+v", p.Question)
	}

	var e apiError
	status, _ := c.do(http.MethodPost, "/v1/projects/"+p.ID+"/plan/approve", nil, &e)
	if status != http.StatusConflict || e.Error.Code != koda.CodePhaseConflict || e.Error.Phase != "question" {
		t.Fatalf("approve plan in question: %d %+v", status, e)
	}
	status, _ = c.do(http.MethodPost, "/v1/projects/"+p.ID+"/answer", map[string]any{"option_id": "nope"}, &e)
	if status != http.StatusBadRequest {
		t.Fatalf("unknown option: %d %+v", status, e)
	}
	var same project
	c.do(http.MethodGet, "/v1/projects/"+p.ID, nil, &same)
	if same.Phase != "question" {
		t.Fatalf("a refused request changed the phase to %s", same.Phase)
	}

	status, _ = c.do(http.MethodPost, "/v1/projects/"+p.ID+"/answer", map[string]any{"option_id": "smooth"}, &p)
	if status != http.StatusAccepted || p.Phase != "plan" {
		t.Fatalf("answer: %d phase %s", status, p.Phase)
	}
	p = c.waitProject(p.ID, time.Minute, "plan ready", func(p project) bool { return p.Phase == "plan" && p.Plan != nil })
	if p.Style != "smooth" {
		t.Errorf("style after answering smooth = %q", p.Style)
	}
	c.do(http.MethodPost, "/v1/projects/"+p.ID+"/plan/approve", nil, &p)
	p = c.waitProject(p.ID, 2*time.Minute, "preview", func(p project) bool { return p.Phase == "preview" })
	first := p.Preview.RenderID

	status, _ = c.do(http.MethodPost, "/v1/projects/"+p.ID+"/renders", map[string]any{"presets": []string{"720p"}}, &e)
	if status != http.StatusConflict || e.Error.Phase != "preview" {
		t.Fatalf("renders before complete: %d %+v", status, e)
	}
	c.do(http.MethodPost, "/v1/projects/"+p.ID+"/feedback", map[string]any{"message": "the ball should be blue"}, &p)
	if p.Phase != "executing" {
		t.Fatalf("feedback moved to %s, want executing", p.Phase)
	}
	p = c.waitProject(p.ID, 2*time.Minute, "second preview", func(p project) bool {
		return p.Phase == "preview" && p.Preview != nil && p.Preview.RenderID != first
	})
	status, _ = c.do(http.MethodPost, "/v1/projects/"+p.ID+"/preview/approve", map[string]any{"presets": []any{
		map[string]any{"width": 320, "height": 240, "fps": 10, "format": "webm"},
	}}, &p)
	if status != http.StatusAccepted || p.Phase != "complete" {
		t.Fatalf("approve preview: %d phase %s", status, p.Phase)
	}
	p = c.waitProject(p.ID, 2*time.Minute, "custom render", func(p project) bool { return finalsDone(p, 1) })
	for _, r := range p.Renders {
		if r.Kind == "final" {
			if r.Status != "succeeded" {
				t.Fatalf("custom render: %+v", r)
			}
			pr := ffprobe(t, download(t, r.VideoURL, t.TempDir(), "custom.webm"))
			if pr.Codec != "vp9" || pr.Width != 320 || pr.Height != 240 || pr.Frames != 20 {
				t.Errorf("custom webm: %+v, want vp9 320x240 with 20 frames", pr)
			}
		}
	}
}

// TestBadInputStoresNothing sends every kind of bad request and checks each answers
// 4xx with a clear code, and that no project was stored and no task enqueued.
func TestBadInputStoresNothing(t *testing.T) {
	redisURL := ""
	for name, target := range redisTargets(t, kodatest.DBKodaBatch) {
		if name == "real" {
			redisURL = target()
		}
	}
	m := startKoda(t, redisURL)
	c := client{t: t, base: m.PublicURL}
	cases := []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"malformed JSON", `{"prompt": "x",`, 400, koda.CodeMalformedJSON},
		{"not an object", `[1,2]`, 400, koda.CodeMalformedJSON},
		{"unknown field", `{"prompt":"a ball","colour":"red"}`, 400, koda.CodeMalformedJSON},
		{"empty body", ``, 400, koda.CodeMalformedJSON},
		{"empty prompt", map[string]any{"prompt": "  "}, 400, koda.CodeInvalidPrompt},
		{"4001-character prompt", map[string]any{"prompt": strings.Repeat("a", 4001)}, 400, koda.CodeInvalidPrompt},
		{"unknown preset", map[string]any{"prompt": "a ball", "presets": []string{"vhs"}}, 400, koda.CodeUnknownPreset},
		{"bad custom preset", map[string]any{"prompt": "a ball", "presets": []any{map[string]any{"width": 9999, "height": 10, "fps": 30}}}, 400, koda.CodeInvalidPreset},
		{"duration over preset limit", map[string]any{"prompt": "a ball", "duration_s": 120, "presets": []string{"instagram_reels"}}, 422, koda.CodeDurationOverLimit},
		{"duration out of range", map[string]any{"prompt": "a ball", "duration_s": 500}, 400, koda.CodeInvalidDuration},
		{"ftp callback", map[string]any{"prompt": "a ball", "callback_url": "ftp://example.com/x"}, 400, koda.CodeInvalidCallback},
		{"relative callback", map[string]any{"prompt": "a ball", "callback_url": "/hooks"}, 400, koda.CodeInvalidCallback},
		{"unknown style", map[string]any{"prompt": "a ball", "style": "grunge"}, 400, koda.CodeInvalidStyle},
	}
	for _, tc := range cases {
		var e apiError
		status, _ := c.do(http.MethodPost, "/v1/projects", tc.body, &e)
		if status != tc.status || e.Error.Code != tc.code || e.Error.Message == "" {
			t.Errorf("%s: got %d %+v, want %d %s with a message", tc.name, status, e.Error, tc.status, tc.code)
		}
	}
	var e apiError
	if status, _ := c.do(http.MethodGet, "/v1/projects/prj_missing", nil, &e); status != 404 || e.Error.Code != koda.CodeNotFound {
		t.Errorf("missing project: %d %+v", status, e)
	}

	projects, err := m.store.ListProjects(context.Background(), koda.ProjectFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(projects) != 0 {
		t.Errorf("%d projects stored by rejected requests", len(projects))
	}
	insp := asynq.NewInspectorFromRedisClient(m.rdb)
	for _, q := range []string{jobs.QueuePlan, jobs.QueueCodegen, jobs.QueuePreview, jobs.QueueRender, jobs.QueueWebhooks} {
		info, err := insp.GetQueueInfo(q)
		if err != nil {
			continue // a queue never written to does not exist: nothing enqueued
		}
		if info.Size != 0 || info.Processed != 0 {
			t.Errorf("queue %s has %d tasks (%d processed) after rejected requests", q, info.Size, info.Processed)
		}
	}
	var _ redis.UniversalClient = m.rdb

	// Idempotency: the same key and body replays; another body is refused.
	body := map[string]any{"prompt": "a smooth, minimal ball glides"}
	req := func(b any) (int, project) {
		raw, _ := json.Marshal(b)
		r, _ := http.NewRequest(http.MethodPost, m.PublicURL+"/v1/projects", strings.NewReader(string(raw)))
		r.Header.Set("Idempotency-Key", "key-1")
		r.Header.Set("Authorization", "Bearer "+testAPIKey)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var p project
		_ = json.NewDecoder(resp.Body).Decode(&p)
		return resp.StatusCode, p
	}
	s1, p1 := req(body)
	s2, p2 := req(body)
	s3, _ := req(map[string]any{"prompt": "something else"})
	if s1 != 202 || s2 != 202 || p1.ID == "" || p1.ID != p2.ID || s3 != 422 {
		t.Errorf("idempotency: %d %s / %d %s / %d", s1, p1.ID, s2, p2.ID, s3)
	}
	if projects, _ := m.store.ListProjects(context.Background(), koda.ProjectFilter{}); len(projects) != 1 {
		t.Errorf("idempotent replay stored %d projects, want 1", len(projects))
	}
}

// checkVideo asserts codec, size, pixel format, exact frame count and motion.
func checkVideo(t *testing.T, path string, w, h, fps int, durationS float64) {
	t.Helper()
	pr := ffprobe(t, path)
	want := int(durationS * float64(fps))
	if pr.Codec != "h264" || pr.PixFmt != "yuv420p" || pr.Width != w || pr.Height != h {
		t.Errorf("%s: %+v, want h264 yuv420p %dx%d", path, pr, w, h)
	}
	if pr.Frames < want-1 || pr.Frames > want+1 {
		t.Errorf("%s: %d frames, want %d (±1)", path, pr.Frames, want)
	}
	first := frameAt(t, path, 0, w, h)
	mid := frameAt(t, path, durationS/2, w, h)
	if d := meanAbsDiff(first, mid); d < 1 {
		t.Errorf("%s: first and middle frames differ by %.2f/255 on average: no motion", path, d)
	}
}

func checkThumbnail(t *testing.T, path string) {
	t.Helper()
	pr := ffprobe(t, path)
	if pr.Codec != "mjpeg" || pr.Width == 0 {
		t.Errorf("thumbnail %s: %+v, want a JPEG", path, pr)
	}
}
