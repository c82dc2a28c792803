package main

import (
	"context"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox"
)

// TestChunkedRenderMatchesWhole lowers the chunk size so a small final render is split
// into render_chunk tasks joined by a stitch task, then renders the same project files
// whole: same frame count, the same pictures (PSNR ≥ 45 dB), and progress that never
// went backwards while the chunks ran.
func TestChunkedRenderMatchesWhole(t *testing.T) {
	m := startTuned(t, "", func(m *Main) { m.ChunkFrames = 12 })
	c := client{t: t, base: m.PublicURL}
	preset := map[string]any{"name": "tiny", "width": 320, "height": 180, "fps": 15, "format": "mp4", "crf": 12}
	var created project
	status, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt":       "A red ball bounces across the screen",
		"duration_s":   3,
		"auto_approve": true,
		"presets":      []any{preset},
	}, &created)
	if status != http.StatusAccepted {
		t.Fatalf("create: %d", status)
	}
	var percents []float64
	p := c.waitProject(created.ID, 4*time.Minute, "complete with its final render", func(p project) bool {
		for _, r := range p.Renders {
			if r.Kind == "final" && r.Status == "running" {
				percents = append(percents, r.Progress.Percent)
			}
		}
		return p.Phase == "complete" && finalsDone(p, 1)
	})
	var final *render
	for i := range p.Renders {
		if p.Renders[i].Kind == "final" {
			final = &p.Renders[i]
		}
	}
	if final == nil || final.Status != "succeeded" {
		t.Fatalf("final render: %+v", final)
	}
	for i := 1; i < len(percents); i++ {
		if percents[i] < percents[i-1] {
			t.Errorf("progress went backwards: %v", percents)
			break
		}
	}

	// The render really went through chunk tasks: 45 frames in chunks of 12 → 3.
	// asynq marks the stitch task completed only after its handler returned, a moment
	// after the render it finished is visible through the API.
	ins := asynq.NewInspectorFromRedisClient(m.rdb)
	var kinds map[string]int
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		done, err := ins.ListCompletedTasks(jobs.QueueRender)
		if err != nil {
			t.Fatalf("list completed render tasks: %v", err)
		}
		kinds = map[string]int{}
		for _, ti := range done {
			kinds[ti.Type]++
		}
		if kinds[jobs.KindStitch] == 1 || time.Now().After(deadline) {
			break
		}
	}
	if kinds[jobs.KindRenderChunk] != 3 || kinds[jobs.KindStitch] != 1 {
		t.Errorf("completed render-queue tasks %v, want 3 %s and 1 %s", kinds, jobs.KindRenderChunk, jobs.KindStitch)
	}

	dir := t.TempDir()
	chunked := download(t, final.VideoURL, dir, "chunked.mp4")
	checkThumbnail(t, download(t, final.ThumbURL, dir, "thumb.jpg"))
	if pr := ffprobe(t, chunked); pr.Frames != 45 || pr.Width != 320 || pr.FPS != "15/1" {
		t.Errorf("chunked render %+v, want 45 frames of 320x180 at 15/1", pr)
	}
	if left, _ := filepath.Glob(filepath.Join(m.Config.DataDir, "storage", "projects", p.ID, "renders", final.ID, "chunk-*")); len(left) > 0 {
		t.Errorf("chunk files left in storage: %v", left)
	}

	// The same files rendered whole.
	src := filepath.Join(dir, "project")
	rc, err := m.storage.Open(context.Background(), "projects/"+p.ID+"/checkpoint.tar.gz")
	if err != nil {
		t.Fatalf("open checkpoint: %v", err)
	}
	err = sandbox.Restore(context.Background(), rc, src, sandbox.Budget{})
	rc.Close()
	if err != nil {
		t.Fatalf("restore checkpoint: %v", err)
	}
	whole := filepath.Join(dir, "whole.mp4")
	spec := koda.PresetSpec{Name: "tiny", Width: 320, Height: 180, FPS: 15, CRF: 12, Format: koda.FormatMP4}
	if _, err := renderer.New(renderer.Config{Browsers: 2}).Render(context.Background(), koda.RenderRequest{
		Dir: src, Preset: spec, DurationS: 3, VideoPath: whole}, nil); err != nil {
		t.Fatalf("whole render: %v", err)
	}
	if db := videoPSNR(t, whole, chunked); db < 45 {
		t.Errorf("chunked render differs from the whole one: PSNR %.1f dB < 45", db)
	}
}

// videoPSNR is the average PSNR of b against a over all frames, via ffmpeg's filter.
func videoPSNR(t *testing.T, a, b string) float64 {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-hide_banner", "-i", a, "-i", b, "-lavfi", "psnr", "-f", "null", "-").CombinedOutput()
	if err != nil {
		t.Fatalf("psnr: %v: %s", err, out)
	}
	m := regexp.MustCompile(`average:(inf|[0-9.]+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("psnr: no average in %s", out)
	}
	if string(m[1]) == "inf" {
		return 1000
	}
	v, _ := strconv.ParseFloat(string(m[1]), 64)
	return v
}
