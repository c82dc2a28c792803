package workers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/jobs"
	"github.com/kodahq/koda/renderer"
)

// DefaultChunkFrames is the size of one chunk of a split final render: 1200 frames,
// 20 s of 1080p60, about half a minute of capture on a 2-core worker. Each chunk pays a
// checkpoint restore, a browser start and an upload (a second or two), so smaller
// chunks waste a noticeable share of the work, while one process already spreads a
// render over all its cores; splitting pays off when other workers are idle and the
// render is long. A render is split only from two chunks' worth of frames up.
const DefaultChunkFrames = 1200

func (h *Handlers) chunkFrames() int {
	if h.ChunkFrames > 0 {
		return h.ChunkFrames
	}
	return DefaultChunkFrames
}

// chunkRanges splits total frames into chunks of about size frames each, or returns
// nil when the render is too short to be worth splitting.
func chunkRanges(total, size int) [][2]int {
	if size <= 0 || total < 2*size {
		return nil
	}
	n := total / size
	out := make([][2]int, n)
	for i := range n {
		out[i] = [2]int{i * total / n, (i + 1) * total / n}
	}
	return out
}

// splitRender turns a long final render into chunk tasks. It reports false when the
// render should run whole in this task; true when the chunks (or an earlier attempt)
// own it now.
func (h *Handlers) splitRender(ctx context.Context, renderID string) (bool, error) {
	if !h.Lifecycle.CanSplit() {
		return false, nil // nothing would count the chunks
	}
	r, err := h.Lifecycle.GetRender(ctx, renderID)
	if err != nil {
		return false, fmt.Errorf("render %s: %w", renderID, err)
	}
	if r.Kind != koda.RenderFinal || r.Status.Done() {
		return false, nil
	}
	// A capture for several renders is as long as its largest, fastest spec: when that
	// is worth splitting, chunk tasks make this render's video alone, and the renders
	// the capture would have served go back to tasks of their own, which split in turn
	// if long enough.
	frames := r.Preset.Frames(r.DurationS)
	more, err := h.Lifecycle.CapturedWith(ctx, r.ID)
	if err != nil {
		return false, fmt.Errorf("render %s: %w", r.ID, err)
	}
	if len(more) > 0 {
		specs := []koda.PresetSpec{r.Preset}
		for _, m := range more {
			specs = append(specs, m.Preset)
		}
		if chunkRanges(koda.CaptureSpec(specs).Frames(r.DurationS), h.chunkFrames()) != nil {
			if err := h.Lifecycle.ReleaseCaptured(ctx, r.ID); err != nil {
				return false, fmt.Errorf("render %s: %w", r.ID, err)
			}
		}
	}
	ranges := chunkRanges(frames, h.chunkFrames())
	if ranges == nil {
		return false, nil
	}
	r, run, err := h.Lifecycle.StartRender(ctx, renderID)
	if err != nil || !run {
		return true, err
	}
	h.log().Info("render split into chunks", "render", r.ID, "attempt", r.Attempts, "chunks", len(ranges))
	for i, rg := range ranges {
		a := jobs.RenderChunkArgs{RenderID: r.ID, Attempt: r.Attempts, Index: i, Count: len(ranges), Start: rg[0], End: rg[1]}
		if err := h.Queue.Enqueue(ctx, a); err != nil {
			// The retry of this task starts a new attempt: chunks of this one drop out.
			return true, fmt.Errorf("render %s: enqueue chunk %d: %w", r.ID, i, err)
		}
	}
	return true, nil
}

func chunkObject(r *koda.Render, attempt, i int) string {
	return koda.ChunkKey(r.ProjectID, r.ID, attempt, i, r.Preset.Format)
}

// liveChunkRender returns the render a chunk or stitch task works for, or nil when the
// task is stale: the render finished, or a newer attempt split it again.
func (h *Handlers) liveChunkRender(ctx context.Context, renderID string, attempt int) (*koda.Render, error) {
	r, live, err := h.Lifecycle.ChunkRender(ctx, renderID, attempt)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", renderID, err)
	}
	if !live {
		h.log().Info("dropped stale chunk task", "render", renderID, "attempt", attempt, "current", r.Attempts, "status", r.Status)
		return nil, nil
	}
	return r, nil
}

// failChunked records a split render's failure when retrying cannot help, like runRender.
func (h *Handlers) failChunked(ctx context.Context, r *koda.Render, err error) error {
	if ctx.Err() == nil && (lastAttempt(ctx) || permanent(err) || koda.ErrorCode(err) == koda.CodeRenderFailed) {
		if _, ferr := h.Lifecycle.FinishRender(context.WithoutCancel(ctx), r.ID, lifecycle.RenderOutput{}, err); ferr != nil {
			return fmt.Errorf("render %s: %w (and recording the failure: %v)", r.ID, err, ferr)
		}
		return fmt.Errorf("render %s: %w: %w", r.ID, err, asynq.SkipRetry)
	}
	return fmt.Errorf("render %s: %w", r.ID, err)
}

// renderChunk renders one frame range to storage; the last chunk to finish enqueues
// the stitch.
func (h *Handlers) renderChunk(ctx context.Context, t *asynq.Task, a jobs.RenderChunkArgs) error {
	r, err := h.liveChunkRender(ctx, a.RenderID, a.Attempt)
	if err != nil || r == nil {
		return err
	}
	if err := h.renderChunkToStorage(ctx, t, r, a); err != nil {
		return h.failChunked(ctx, r, err)
	}
	return h.Lifecycle.ChunkFinished(ctx, r.ID, a.Attempt, a.Index, a.Count)
}

func (h *Handlers) renderChunkToStorage(ctx context.Context, t *asynq.Task, r *koda.Render, a jobs.RenderChunkArgs) error {
	dir, src, err := h.restoreForRender(ctx, r)
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	video := filepath.Join(dir, "chunk."+r.Preset.Format)
	cp := &chunkProgress{h: h, ctx: ctx, task: t, r: r, a: a}
	// Audio is muxed once into the joined video by the stitch.
	_, err = h.Renderer.Render(ctx, koda.RenderRequest{
		Dir: src, Preset: r.Preset, DurationS: r.DurationS, FrameStart: a.Start, FrameEnd: a.End, VideoPath: video,
	}, cp.report)
	cp.stop()
	if err != nil {
		return err
	}
	if _, err := h.upload(ctx, chunkObject(r, a.Attempt, a.Index), video); err != nil {
		return err
	}
	cp.record(a.End - a.Start)
	return nil
}

// restoreForRender restores the project's checkpoint into a new temporary folder.
func (h *Handlers) restoreForRender(ctx context.Context, r *koda.Render) (dir, src string, err error) {
	dir, err = os.MkdirTemp(h.WorkDir, "render-"+r.ID+"-")
	if err != nil {
		return "", "", fmt.Errorf("render folder: %w", err)
	}
	src = filepath.Join(dir, "project")
	if err := os.MkdirAll(src, 0o755); err != nil {
		_ = os.RemoveAll(dir)
		return "", "", err
	}
	ok, err := h.restore(ctx, r.ProjectID, src)
	if err == nil && !ok {
		err = koda.Errorf(koda.EUNPROCESSABLE, koda.CodeRenderFailed, "project %s has no files to render", r.ProjectID)
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", "", err
	}
	return dir, src, nil
}

// chunkProgress reports a chunk's own progress as its task result (Asynqmon) and the
// render's overall progress, the sum of frames done over its chunks, to the API.
type chunkProgress struct {
	h    *Handlers
	ctx  context.Context
	task *asynq.Task
	r    *koda.Render
	a    jobs.RenderChunkArgs

	mu   sync.Mutex
	last time.Time
	done bool
}

func (p *chunkProgress) report(pr koda.RenderProgress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done || time.Since(p.last) < progressEvery {
		return
	}
	p.last = time.Now()
	if b, err := json.Marshal(pr); err == nil {
		_, _ = p.task.ResultWriter().Write(b)
	}
	p.publish(pr.FramesDone)
}

func (p *chunkProgress) stop() {
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
}

// record publishes the chunk as complete.
func (p *chunkProgress) record(frames int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.publish(frames)
}

// publish hands this chunk's frames to the lifecycle, which reports the sum.
func (p *chunkProgress) publish(frames int) {
	if err := p.h.Lifecycle.ChunkProgress(p.ctx, p.r, p.a.Attempt, p.a.Index, frames); err != nil && !errors.Is(err, context.Canceled) {
		p.h.log().Debug("chunk progress", "render", p.r.ID, "err", err)
	}
}

// stitch joins a split render's chunks without re-encoding, adds the soundtrack and
// the thumbnail, uploads the video and finishes the render.
func (h *Handlers) stitch(ctx context.Context, t *asynq.Task, a jobs.StitchArgs) error {
	r, err := h.liveChunkRender(ctx, a.RenderID, a.Attempt)
	if err != nil || r == nil {
		return err
	}
	began := time.Now()
	out, err := h.stitchToStorage(ctx, r, a)
	if err != nil {
		return h.failChunked(ctx, r, err)
	}
	h.Metrics.ObserveRender(string(r.Kind), r.Preset.Name, out.Frames, time.Since(began))
	if err := h.Lifecycle.FinishJoined(ctx, r.ID, a.Attempt, out); err != nil {
		return err
	}
	for i := range a.Count {
		if err := h.Storage.Delete(context.WithoutCancel(ctx), chunkObject(r, a.Attempt, i)); err != nil {
			h.log().Warn("delete chunk", "render", r.ID, "chunk", i, "err", err)
		}
	}
	return nil
}

func (h *Handlers) stitchToStorage(ctx context.Context, r *koda.Render, a jobs.StitchArgs) (lifecycle.RenderOutput, error) {
	var out lifecycle.RenderOutput
	total := r.Preset.Frames(r.DurationS)
	report := func(stage string, pct float64) {
		if err := h.Lifecycle.RenderProgress(ctx, r.ID, koda.RenderProgress{Stage: stage, Percent: pct, FramesDone: total, FramesTotal: total}); err != nil {
			h.log().Debug("record render progress", "render", r.ID, "err", err)
		}
	}
	report(koda.StageEncoding, 95)
	dir, src, err := h.restoreForRender(ctx, r)
	if err != nil {
		return out, err
	}
	defer os.RemoveAll(dir)
	parts := make([]string, a.Count)
	for i := range a.Count {
		parts[i] = filepath.Join(dir, fmt.Sprintf("chunk-%03d.%s", i, r.Preset.Format))
		if err := h.download(ctx, chunkObject(r, a.Attempt, i), parts[i]); err != nil {
			return out, err
		}
	}
	video, thumb := filepath.Join(dir, "video."+r.Preset.Format), filepath.Join(dir, "thumb.jpg")
	join := renderer.Join{Parts: parts, Source: src, Frames: total, FPS: r.Preset.FPS, LoudnessLUFS: r.Preset.Loudness()}
	if err := renderer.JoinChunks(ctx, h.ffmpegPath(), join, video, thumb); err != nil {
		return out, err
	}
	report(koda.StageUploading, 99)
	if out, err = h.uploadRender(ctx, r, video, thumb, total); err != nil {
		return out, err
	}
	return out, nil
}

func (h *Handlers) download(ctx context.Context, key, path string) error {
	rc, err := h.Storage.Open(ctx, key)
	if err != nil {
		return fmt.Errorf("download %s: %w", key, err)
	}
	defer rc.Close()
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("download %s: %w", key, err)
	}
	_, err = io.Copy(f, rc)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("download %s: %w", key, err)
	}
	return nil
}

// ffmpegPath is the renderer's ffmpeg, for joining chunks with the same binary.
func (h *Handlers) ffmpegPath() string {
	if c, ok := h.Renderer.(interface{ Config() renderer.Config }); ok {
		return c.Config().FFmpegPath
	}
	return ""
}

// reconcileSplit keeps a split render's chunk and stitch tasks alive. It reports
// split=false for a render that is not (or not yet) split, which the reconciler then
// treats as a whole render. Chunks already counted as done are left alone; the stitch
// is ensured once all are.
func (h *Handlers) reconcileSplit(ctx context.Context, r *koda.Render) (split bool, enqueued int, err error) {
	ranges := chunkRanges(r.Preset.Frames(r.DurationS), h.chunkFrames())
	if r.Status != koda.RenderRunning || ranges == nil || !h.Lifecycle.CanSplit() || h.Inspector == nil {
		return false, 0, nil
	}
	first := jobs.RenderChunkArgs{RenderID: r.ID, Attempt: r.Attempts, Index: 0, Count: len(ranges), Start: ranges[0][0], End: ranges[0][1]}
	isDone, err := h.Lifecycle.FinishedChunks(ctx, r.ID, r.Attempts)
	if err != nil {
		return false, 0, fmt.Errorf("reconcile render %s: %w", r.ID, err)
	}
	if len(isDone) == 0 {
		// Split only if its first chunk was enqueued; otherwise the render task died
		// before splitting, and re-running it is the fix.
		if _, err := h.Inspector.GetTaskInfo(jobs.QueueRender, first.TaskID()); err != nil {
			if errors.Is(err, asynq.ErrTaskNotFound) || errors.Is(err, asynq.ErrQueueNotFound) {
				return false, 0, nil
			}
			return false, 0, fmt.Errorf("reconcile render %s: %w", r.ID, err)
		}
	}
	giveUp := func(ctx context.Context) error {
		return h.Lifecycle.GiveUpRender(ctx, r.ID, "a chunk of the render", maxRevivals)
	}
	if len(isDone) >= len(ranges) {
		n, err := h.ensure(ctx, []jobs.Args{jobs.StitchArgs{RenderID: r.ID, Attempt: r.Attempts, Count: len(ranges)}}, giveUp)
		return true, n, err
	}
	for i, rg := range ranges {
		if isDone[i] {
			continue
		}
		n, err := h.ensure(ctx, []jobs.Args{jobs.RenderChunkArgs{RenderID: r.ID, Attempt: r.Attempts, Index: i,
			Count: len(ranges), Start: rg[0], End: rg[1]}}, giveUp)
		if err != nil {
			return true, enqueued, err
		}
		enqueued += n
	}
	return true, enqueued, nil
}
