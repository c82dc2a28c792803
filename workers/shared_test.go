package workers

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/agent/templates"
	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/storage"
	"github.com/kodahq/koda/jobs"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox"
)

// rangeRenderer is the real renderer, with a record of the frame ranges it rendered.
type rangeRenderer struct {
	koda.Renderer
	mu     sync.Mutex
	ranges []string
	// onStart, when set, is called as each render starts.
	onStart func(koda.RenderRequest)
}

func (c *rangeRenderer) Render(ctx context.Context, req koda.RenderRequest, progress func(koda.RenderProgress)) (*koda.RenderResult, error) {
	end := req.FrameEnd
	if end == 0 {
		end = req.Preset.Frames(req.DurationS)
	}
	c.mu.Lock()
	c.ranges = append(c.ranges, strconv.Itoa(req.FrameStart)+"-"+strconv.Itoa(end))
	on := c.onStart
	c.mu.Unlock()
	if on != nil {
		on(req)
	}
	return c.Renderer.Render(ctx, req, progress)
}

func (c *rangeRenderer) setOnStart(fn func(koda.RenderRequest)) {
	c.mu.Lock()
	c.onStart = fn
	c.mu.Unlock()
}

// rendered lists the frame ranges rendered so far, sorted.
func (c *rangeRenderer) rendered() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Clone(c.ranges)
	slices.Sort(out)
	return out
}

// introScene is a 2 s template: a ball rolls across alone for a second (the intro),
// the title shows from 1 s to 1.4 s, and the ball rolls on alone to the end (the end
// card). Only the title is a row's.
func introScene() *scene.Description {
	return &scene.Description{Version: 1, Duration: 2, FPS: 30,
		Background: scene.Background{Colors: []string{"#102030", "#304050"}, Angle: 30, Drift: 20},
		Elements: []*scene.Element{
			{ID: "ball", Type: scene.TypeCircle, Size: 0.12, Color: "#ff8800", Y: 0.4,
				Tracks: map[string][]scene.Keyframe{"x": {{T: 0, V: -0.8}, {T: 2, V: 0.8}}}},
			{ID: "title", Type: scene.TypeText, Text: "Hello", Size: 0.14, Color: "#ffffff", Start: 1, End: 1.4, Reveal: "rise"},
		}}
}

// A row rendered with its batch's shared stretch (the intro and end card rendered once
// for the batch, joined to the row's own frames without re-encoding, the soundtrack
// laid under the join) is the row rendered whole: PSNR ≥ 40 dB, the same frame count
// and duration, one continuous video stream and one audio stream of the video's length.
func TestTemplateRowSharedStretchEqualsWholeRender(t *testing.T) {
	if testing.Short() {
		t.Skip("renders with Chromium and ffmpeg")
	}
	b, rend, batch, spec := introBatch(t)
	rs := renderRows(t, b, batch)
	// Frames 0–29 show t < 1 s, frames 43–59 t > 1.4 s: rendered once for the batch;
	// each row renders its own 30–42.
	got := rend.rendered()
	if want := []string{"0-30", "30-43", "30-43", "43-60"}; !slices.Equal(got, want) {
		t.Errorf("frame ranges rendered %v, want %v", got, want)
	}
	checkJoined(t, b, rend, rs[0], spec)
	// Once the batch is complete its shared files go.
	waitFor(t, "the shared stretch's files to go", 10*time.Second, func() bool {
		n := 0
		_ = b.h.Storage.List(context.Background(), koda.BatchSharedFolder(batch.ID)+"/", func(koda.StoredFile) error { n++; return nil })
		return n == 0
	})
}

// A shared part whose render stops half-way (its worker killed: the task's context
// ends) leaves no file behind, and the row tasks that come back render it again.
func TestSharedPartLostIsRenderedAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("renders with Chromium and ffmpeg")
	}
	b, rend, batch, spec := introBatch(t)
	ctx, cancel := context.WithCancel(context.Background())
	rend.setOnStart(func(req koda.RenderRequest) {
		if req.FrameStart == 0 {
			go func() {
				time.Sleep(300 * time.Millisecond) // killed while it renders the intro
				cancel()
			}()
		}
	})
	r, err := b.store.GetRender(context.Background(), batch.RenderIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "intro.mp4")
	if err := b.h.sharedPart(ctx, batch.ID, spec, 2, 0, 30, path); err == nil {
		t.Fatal("the killed shared part rendered")
	}
	key := koda.SharedPartKey(batch.ID, spec, 0, 30)
	if rc, err := b.h.Storage.Open(context.Background(), key); koda.ErrorKind(err) != koda.ENOTFOUND {
		if err == nil {
			rc.Close()
		}
		t.Fatalf("after the kill, %s: %v; want no file", key, err)
	}
	rend.setOnStart(nil)
	rs := renderRows(t, b, batch)
	if got, want := rend.rendered(), []string{"0-30", "0-30", "30-43", "30-43", "43-60"}; !slices.Equal(got, want) {
		t.Errorf("frame ranges rendered %v, want %v (the intro again, once)", got, want)
	}
	checkJoined(t, b, rend, rs[slices.IndexFunc(rs, func(x *koda.Render) bool { return x.ID == r.ID })], spec)
}

// introBatch makes a template of introScene (with a soundtrack) and a batch of two
// rows of it at a small spec; nothing is rendered yet.
func introBatch(t *testing.T) (*bundle, *rangeRenderer, *koda.Batch, koda.PresetSpec) {
	t.Helper()
	b := setup(t)
	ctx := context.Background()
	st := storage.NewLocal(filepath.Join(t.TempDir(), "storage"), "http://files.test", []byte("signing"))
	rend := &rangeRenderer{Renderer: renderer.New(renderer.Config{Browsers: 1, ReadyTimeout: 20 * time.Second, FrameTimeout: 15 * time.Second})}
	b.h.Storage, b.h.Lifecycle.Storage, b.h.Renderer, b.h.WorkDir = st, st, rend, t.TempDir()
	b.h.Lifecycle.Templates = &templates.Engine{Storage: st, WorkDir: t.TempDir()}

	now := time.Now().UTC()
	p := &koda.Project{ID: koda.NewID(koda.PrefixProject), TenantID: "acme", Prompt: "a ball and a title", Phase: koda.PhaseComplete,
		DurationS: 2, CreatedAt: now, UpdatedAt: now}
	if err := b.store.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	d := introScene()
	js, _ := d.JSON()
	script, _ := d.Script()
	for name, data := range map[string][]byte{scene.FileIndex: scene.IndexHTML(), scene.FileRuntime: scene.RuntimeJS(), scene.FileJSON: js, scene.FileScene: script} {
		if err := os.WriteFile(filepath.Join(src, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(src, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=3",
		"-y", filepath.Join(src, "assets", "music.wav")).CombinedOutput(); err != nil {
		t.Fatalf("make tone: %v: %s", err, out)
	}
	var cp bytes.Buffer
	if err := sandbox.Checkpoint(ctx, src, &cp); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Put(ctx, koda.CheckpointKey(koda.ProjectFolder(p.ID)), &cp); err != nil {
		t.Fatal(err)
	}
	tctx := koda.NewContextWithTenant(ctx, "acme")
	tpl, err := b.h.Lifecycle.CreateTemplate(tctx, p.ID, "intro")
	if err != nil {
		t.Fatal(err)
	}
	spec := koda.PresetSpec{Name: "small", Width: 480, Height: 270, FPS: 30, CRF: 18, Format: koda.FormatMP4}
	rows := []map[string]json.RawMessage{{"headline": json.RawMessage(`"Bonjour"`)}, {"headline": json.RawMessage(`"Hallo"`)}}
	batch, err := b.h.Lifecycle.CreateTemplateBatch(tctx, koda.TemplateBatchRequest{TemplateID: tpl.ID, Rows: rows, Presets: []koda.PresetSpec{spec}})
	if err != nil {
		t.Fatal(err)
	}
	first, err := b.store.GetRender(ctx, batch.RenderIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	rp, err := b.store.GetProject(ctx, first.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := koda.SharedStretchOf(rp.Metadata); !ok || s != (koda.SharedStretch{HeadS: 1, TailS: 1.4}) {
		t.Fatalf("row project's shared stretch %+v (%v) in %s, want 1 s .. 1.4 s", s, ok, rp.Metadata)
	}
	return b, rend, batch, spec
}

// renderRows renders the batch with a render pool and returns its renders, all succeeded.
func renderRows(t *testing.T, b *bundle, batch *koda.Batch) []*koda.Render {
	t.Helper()
	ctx := context.Background()

	srv := asynq.NewServerFromRedisClient(b.rdb, asynq.Config{
		Concurrency: 2, Queues: map[string]int{jobs.QueueRender: 1}, IsFailure: isFailure,
		LogLevel: asynq.ErrorLevel, TaskCheckInterval: 50 * time.Millisecond, ShutdownTimeout: 10 * time.Second,
	})
	if err := srv.Start(b.h.mux(config.PoolRender, 2)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	var rs []*koda.Render
	waitFor(t, "the batch to complete", 4*time.Minute, func() bool {
		rs = rs[:0]
		for _, id := range batch.RenderIDs {
			r, err := b.store.GetRender(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			rs = append(rs, r)
		}
		return !slices.ContainsFunc(rs, func(r *koda.Render) bool { return !r.Status.Done() })
	})
	for _, r := range rs {
		if r.Status != koda.RenderSucceeded {
			t.Fatalf("render %s: %s %+v", r.ID, r.Status, r.Error)
		}
	}
	srv.Shutdown()
	return rs
}

// checkJoined renders row r whole, directly, and holds its joined video to it.
func checkJoined(t *testing.T, b *bundle, rend *rangeRenderer, r *koda.Render, spec koda.PresetSpec) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	joined := filepath.Join(dir, "joined.mp4")
	if err := b.h.download(ctx, r.VideoKey, joined); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole.mp4")
	proj := filepath.Join(dir, "row")
	if err := b.h.restoreKey(ctx, koda.CheckpointKey(koda.ProjectFolder(r.ProjectID)), proj); err != nil {
		t.Fatal(err)
	}
	if _, err := rend.Renderer.Render(ctx, koda.RenderRequest{Dir: proj, Preset: spec, DurationS: 2, VideoPath: whole,
		AudioPath: renderer.FindAudio(proj)}, nil); err != nil {
		t.Fatal(err)
	}
	if psnr := kodatest.PSNR(t, whole, joined); psnr < 40 {
		t.Errorf("joined row against the whole render: PSNR %.1f dB, want ≥ 40", psnr)
	} else {
		t.Logf("joined row against the whole render: PSNR %.1f dB", psnr)
	}
	pj, pw := probeVideo(t, joined), probeVideo(t, whole)
	if pj.frames != 60 || pw.frames != 60 {
		t.Errorf("frames: joined %d, whole %d; want 60", pj.frames, pw.frames)
	}
	if pj.duration != pw.duration {
		t.Errorf("duration: joined %s, whole %s", pj.duration, pw.duration)
	}
	if !slices.Equal(pj.streams, []string{"video:h264", "audio:aac"}) {
		t.Errorf("joined streams %v, want one video and one audio stream", pj.streams)
	}
	if math.Abs(pj.audioS-pj.videoS) > 0.05 {
		t.Errorf("joined audio %.3f s against video %.3f s", pj.audioS, pj.videoS)
	}
	for i, ts := range pj.pts {
		if want := float64(i) / 30; math.Abs(ts-want) > 0.002 {
			t.Fatalf("joined frame %d at %.4f s, want %.4f s: the stream is not continuous (%v)", i, ts, want, pj.pts)
		}
	}
}

type probed struct {
	frames         int
	duration       string
	streams        []string
	videoS, audioS float64
	pts            []float64
}

// probeVideo reads a video's streams, format duration and video frame times.
func probeVideo(t *testing.T, path string) probed {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-show_entries", "stream=codec_type,codec_name,duration:format=duration",
		"-of", "json", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	var info struct {
		Streams []struct {
			CodecType string `json:"codec_type"`
			CodecName string `json:"codec_name"`
			Duration  string `json:"duration"`
		} `json:"streams"`
		Format struct {
			Duration string `json:"duration"`
		} `json:"format"`
	}
	if err := json.Unmarshal(out, &info); err != nil {
		t.Fatal(err)
	}
	var p probed
	p.duration = info.Format.Duration
	for _, s := range info.Streams {
		p.streams = append(p.streams, s.CodecType+":"+s.CodecName)
		v, _ := strconv.ParseFloat(s.Duration, 64)
		if s.CodecType == "video" {
			p.videoS = v
		} else if s.CodecType == "audio" {
			p.audioS = v
		}
	}
	out, err = exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time",
		"-of", "csv=p=0", path).Output()
	if err != nil {
		t.Fatalf("ffprobe frames %s: %v", path, err)
	}
	for _, line := range strings.Fields(string(out)) {
		v, err := strconv.ParseFloat(strings.Trim(line, ","), 64)
		if err != nil {
			t.Fatalf("frame time %q: %v", line, err)
		}
		p.pts = append(p.pts, v)
	}
	p.frames = len(p.pts)
	return p
}
