package workers

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/internal/storage"
	"github.com/kodahq/koda/jobs"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox"
)

// countingRenderer is the real renderer, with a record of the captures it made: the
// spec each captured at, and the outputs it encoded from each.
type countingRenderer struct {
	koda.Renderer
	mu      sync.Mutex
	specs   []koda.PresetSpec
	outputs [][]koda.PresetSpec
}

func (c *countingRenderer) Render(ctx context.Context, req koda.RenderRequest, progress func(koda.RenderProgress)) (*koda.RenderResult, error) {
	c.mu.Lock()
	c.specs = append(c.specs, req.Preset)
	var outs []koda.PresetSpec
	for _, o := range req.Outputs {
		outs = append(outs, o.Preset)
	}
	if len(outs) == 0 {
		outs = []koda.PresetSpec{req.Preset}
	}
	c.outputs = append(c.outputs, outs)
	c.mu.Unlock()
	return c.Renderer.Render(ctx, req, progress)
}

func (c *countingRenderer) rendered() []koda.PresetSpec {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]koda.PresetSpec(nil), c.specs...)
}

// captures describes each capture as "WxH@fps: output, output…" (outputs as WxH@fps).
func (c *countingRenderer) captures() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	spec := func(p koda.PresetSpec) string { return fmt.Sprintf("%dx%d@%d", p.Width, p.Height, p.FPS) }
	var out []string
	for k, s := range c.specs {
		var os []string
		for _, o := range c.outputs[k] {
			os = append(os, spec(o))
		}
		slices.Sort(os)
		out = append(out, spec(s)+": "+strings.Join(os, ", "))
	}
	slices.Sort(out)
	return out
}

// sameSpecPage draws a ball from t; with broken set, seeking past 0.2 s throws in a
// 1920-wide window, so the 1080p60 render fails and the 720p one does not.
func sameSpecPage(broken bool) string {
	fail := ""
	if broken {
		fail = "if (t > 0.2 && innerWidth >= 1920) throw new Error('fixture: too wide to draw');"
	}
	return `<!doctype html>
<html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%;overflow:hidden;background:#102030}canvas{display:block;width:100vw;height:100vh}</style>
</head><body><canvas id="c"></canvas><script>
const c = document.getElementById('c');
c.width = innerWidth; c.height = innerHeight;
const g = c.getContext('2d');
window.__exportSeekTo = (t) => {
  ` + fail + `
  g.fillStyle = '#102030'; g.fillRect(0, 0, c.width, c.height);
  g.fillStyle = '#f80'; g.beginPath();
  g.arc((0.1 + 0.8 * t) * c.width, c.height / 2, c.height * 0.1, 0, Math.PI * 2); g.fill();
};
window.__exportReady = true;
</script></body></html>`
}

// sameSpecRun is a complete half-second project whose files are checkpointed to local
// storage, rendered by a real render pool (asynq server, Handlers' render mux, the
// chromium and ffmpeg renderer) after a batch for the named presets (by default
// youtube, final, 1080p and 720p).
type sameSpecRun struct {
	b      *bundle
	st     koda.Storage
	rend   *countingRenderer
	p      *koda.Project
	batch  *koda.Batch
	byName map[string]*koda.Render
}

func runSameSpecBatch(t *testing.T, broken bool, names ...string) *sameSpecRun {
	t.Helper()
	return runBatch(t, broken, 0, names...)
}

// runBatch is runSameSpecBatch with final renders split into chunks of chunkFrames
// frames (0: the default).
func runBatch(t *testing.T, broken bool, chunkFrames int, names ...string) *sameSpecRun {
	t.Helper()
	if len(names) == 0 {
		names = []string{"youtube", "final", "1080p", "720p"}
	}
	ctx := context.Background()
	b := setup(t)
	st := storage.NewLocal(filepath.Join(t.TempDir(), "storage"), "http://files.test", []byte("signing"))
	rend := &countingRenderer{Renderer: renderer.New(renderer.Config{Browsers: 1,
		ReadyTimeout: 20 * time.Second, FrameTimeout: 15 * time.Second})}
	b.h.Storage, b.h.Lifecycle.Storage, b.h.Renderer, b.h.WorkDir = st, st, rend, t.TempDir()
	b.h.ChunkFrames = chunkFrames

	now := time.Now().UTC()
	p := &koda.Project{ID: koda.NewID(koda.PrefixProject), TenantID: "acme", Prompt: "a ball", Phase: koda.PhaseComplete,
		DurationS: 0.5, CallbackURL: "http://93.184.216.34/hooks", CreatedAt: now, UpdatedAt: now}
	if err := b.store.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "index.html"), []byte(sameSpecPage(broken)), 0o644); err != nil {
		t.Fatal(err)
	}
	var cp bytes.Buffer
	if err := sandbox.Checkpoint(ctx, src, &cp); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Put(ctx, koda.CheckpointKey(koda.ProjectFolder(p.ID)), &cp); err != nil {
		t.Fatal(err)
	}

	var presets []koda.PresetSpec
	for _, n := range names {
		ps, err := koda.LookupPreset(n)
		if err != nil {
			t.Fatal(err)
		}
		presets = append(presets, ps)
	}
	batch, err := b.h.Lifecycle.RequestRenders(ctx, p.ID, presets)
	if err != nil {
		t.Fatal(err)
	}
	srv := asynq.NewServerFromRedisClient(b.rdb, asynq.Config{
		Concurrency: 1, Queues: map[string]int{jobs.QueueRender: 1}, IsFailure: isFailure,
		LogLevel: asynq.ErrorLevel, TaskCheckInterval: 50 * time.Millisecond, ShutdownTimeout: 10 * time.Second,
	})
	if err := srv.Start(b.h.mux(config.PoolRender, 1)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	waitFor(t, "the batch to complete", 4*time.Minute, func() bool {
		got, err := b.store.GetBatch(ctx, batch.ID)
		return err == nil && got.CompletedAt != nil
	})
	run := &sameSpecRun{b: b, st: st, rend: rend, p: p, batch: batch, byName: map[string]*koda.Render{}}
	rs, err := b.store.ListRenders(ctx, koda.RenderFilter{BatchID: batch.ID})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		run.byName[r.Preset.Name] = r
	}
	return run
}

// renderJobs checks the renderer made exactly one capture, at 1920x1080@60, encoding
// the 1080p60 video and the 720p30 one from it, and that the queue held one render task.
func (run *sameSpecRun) renderJobs(t *testing.T) {
	t.Helper()
	if got := run.rend.captures(); len(got) != 1 || got[0] != "1920x1080@60: 1280x720@30, 1920x1080@60" {
		t.Errorf("the renderer made captures %q, want one 1920x1080@60 for 1920x1080@60 and 1280x720@30", got)
	}
	run.renderTasks(t, 1)
}

// renderTasks checks the queue held want render tasks. The batch completes inside the
// last task, before asynq records it as completed or archived, so the count may lag
// for a moment.
func (run *sameSpecRun) renderTasks(t *testing.T, want int) {
	t.Helper()
	ins := run.b.h.Inspector
	count := func() int {
		tasks := 0
		for _, list := range []func(string, ...asynq.ListOption) ([]*asynq.TaskInfo, error){ins.ListCompletedTasks, ins.ListArchivedTasks} {
			infos, err := list(jobs.QueueRender)
			if err != nil && !strings.Contains(err.Error(), "not found") {
				t.Fatal(err)
			}
			for _, ti := range infos {
				if ti.Type == jobs.KindRender {
					tasks++
				}
			}
		}
		return tasks
	}
	tasks := count()
	for deadline := time.Now().Add(5 * time.Second); tasks < want && time.Now().Before(deadline); tasks = count() {
		time.Sleep(50 * time.Millisecond)
	}
	if tasks != want {
		t.Errorf("%d render tasks ran, want %d", tasks, want)
	}
}

// storedVideos lists the videos stored under the project's renders.
func (run *sameSpecRun) storedVideos(t *testing.T) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	err := run.st.List(context.Background(), koda.ProjectFolder(run.p.ID)+"/renders/", func(f koda.StoredFile) error {
		if strings.HasSuffix(f.Key, ".mp4") {
			out[f.Key] = f.Size
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var sameSpecNames = []string{"youtube", "final", "1080p"}

// TestSameSpecBatchRendersOnce: a batch for youtube, final, 1080p and 720p runs one
// render job, which captures once and stores two videos. The three 1920x1080@60 renders succeed with the
// one stored file, its size and thumbnail, each under its own ID and preset name; the
// daily cleanup, after the grace period, keeps the shared file for all of them.
func TestSameSpecBatchRendersOnce(t *testing.T) {
	ctx := context.Background()
	run := runSameSpecBatch(t, false)
	run.renderJobs(t)
	videos := run.storedVideos(t)
	if len(videos) != 2 {
		t.Errorf("stored videos %v, want two: one 1080p60, one 720p", videos)
	}
	shared := run.byName["youtube"]
	ids := map[string]bool{}
	for _, n := range sameSpecNames {
		r := run.byName[n]
		if r.Status != koda.RenderSucceeded || r.Preset.Name != n {
			t.Fatalf("%s: %s %+v, preset %q", n, r.Status, r.Error, r.Preset.Name)
		}
		if r.VideoKey != shared.VideoKey || r.ThumbKey != shared.ThumbKey || r.SizeBytes != shared.SizeBytes {
			t.Errorf("%s: file %q %q %d bytes; want the shared %q %q %d", n, r.VideoKey, r.ThumbKey, r.SizeBytes,
				shared.VideoKey, shared.ThumbKey, shared.SizeBytes)
		}
		ids[r.ID] = true
	}
	if len(ids) != 3 {
		t.Errorf("the same-spec renders have %d distinct IDs, want 3", len(ids))
	}
	if size, ok := videos[shared.VideoKey]; !ok || size != shared.SizeBytes || size == 0 {
		t.Errorf("the shared video %s is stored with %d bytes (%v), the renders say %d", shared.VideoKey, size, ok, shared.SizeBytes)
	}
	hd := run.byName["720p"]
	if hd.Status != koda.RenderSucceeded || hd.VideoKey == shared.VideoKey || videos[hd.VideoKey] != hd.SizeBytes {
		t.Errorf("720p: %s %q %d bytes; want its own stored video", hd.Status, hd.VideoKey, hd.SizeBytes)
	}
	// The shared file is the 1080p60 video.
	local := filepath.Join(t.TempDir(), "shared.mp4")
	rc, err := run.st.Open(ctx, shared.VideoKey)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(local, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
		"-show_entries", "stream=width,height,r_frame_rate,nb_read_frames", "-of", "csv=p=0", local).Output()
	if err != nil {
		t.Fatalf("ffprobe the shared video: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != "1920,1080,60/1,30" {
		t.Errorf("shared video is %q, want 1920,1080,60/1,30", got)
	}

	// The daily cleanup, once the files are old enough to judge, deletes none of them.
	run.b.h.Lifecycle.Now = func() time.Time { return time.Now().Add(lifecycle.OrphanGrace + time.Minute) }
	if err := run.b.h.dailyCleanup(ctx, nil, jobs.DailyCleanupArgs{}); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{shared.VideoKey, shared.ThumbKey, hd.VideoKey, hd.ThumbKey} {
		if !present(t, run.st, key) {
			t.Errorf("cleanup deleted %s, which renders point at", key)
		}
	}
}

// TestSameSpecBatchFailsTogether: when the one 1080p60 capture fails, youtube, final
// and 1080p all fail with its error, and so does 720p, whose video was to be made from
// that capture: each render it stands for reports the failure; nothing is stored.
func TestSameSpecBatchFailsTogether(t *testing.T) {
	run := runSameSpecBatch(t, true)
	run.renderJobs(t)
	job := run.byName["youtube"]
	if job.Status != koda.RenderFailed || job.Error == nil || !strings.Contains(job.Error.Message, "too wide to draw") {
		t.Fatalf("youtube: %s %+v; want the page's error", job.Status, job.Error)
	}
	for _, n := range sameSpecNames {
		r := run.byName[n]
		if r.Status != koda.RenderFailed || r.Error == nil || r.Error.Code != job.Error.Code || r.Error.Message != job.Error.Message {
			t.Errorf("%s: %s %+v; want the shared job's failure %+v", n, r.Status, r.Error, job.Error)
		}
		if r.VideoKey != "" && present(t, run.st, r.VideoKey) {
			t.Errorf("%s points at a stored video %s after failing", n, r.VideoKey)
		}
	}
	if hd := run.byName["720p"]; hd.Status != koda.RenderFailed || hd.Error == nil || hd.Error.Message != job.Error.Message {
		t.Errorf("720p: %s %+v; want its capture's failure %+v", hd.Status, hd.Error, job.Error)
	}
	if videos := run.storedVideos(t); len(videos) != 0 {
		t.Errorf("stored videos %v, want none", videos)
	}
}
