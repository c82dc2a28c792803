package workers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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

// preview renders the preview of the project's current files and shows it.
func (h *Handlers) preview(ctx context.Context, t *asynq.Task, a jobs.PreviewArgs) error {
	return h.projectStep(ctx, a.ProjectID, a.Step, func() error {
		if _, err := h.Lifecycle.ForTask(ctx, a.ProjectID, a.Step); err != nil {
			return err
		}
		r, err := h.runRender(ctx, t, a.RenderID)
		if err != nil {
			return err
		}
		if r.Status == koda.RenderFailed {
			return &koda.Error{Kind: koda.EUNPROCESSABLE, Code: r.Error.Code, Message: "preview: " + r.Error.Message}
		}
		_, err = h.Lifecycle.PreviewRendered(ctx, a.ProjectID, a.Step, a.RenderID)
		return err
	})
}

// render runs one final render.
func (h *Handlers) render(ctx context.Context, t *asynq.Task, a jobs.RenderArgs) error {
	if split, err := h.splitRender(ctx, a.RenderID); split || err != nil {
		return err
	}
	r, err := h.runRender(ctx, t, a.RenderID)
	if err != nil {
		return err
	}
	if r.Status == koda.RenderFailed {
		return fmt.Errorf("render %s failed: %s: %w", r.ID, r.Error.Code, asynq.SkipRetry)
	}
	return nil
}

// runRender renders a render row once. It returns the finished render, or an error
// for asynq to retry; on the last attempt (or a failure a retry cannot fix) the
// render is recorded as failed instead.
func (h *Handlers) runRender(ctx context.Context, t *asynq.Task, renderID string) (*koda.Render, error) {
	r, run, err := h.Lifecycle.StartRender(ctx, renderID)
	if err != nil {
		return nil, err
	}
	if !run {
		// Finished by an earlier attempt, or another render's job makes its video (same
		// output in one batch): that job finishes it.
		if !r.Status.Done() {
			h.log().Debug("render's video comes from another render's job", "render", r.ID, "source", r.OutputOf)
		}
		return r, nil
	}
	// The renders whose frames this job captures too (koda.CaptureGroups) finish with
	// it: each with its own file, or all with the capture's failure.
	group := []*koda.Render{r}
	more, err := h.Lifecycle.CapturedWith(ctx, r.ID)
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", r.ID, err)
	}
	group = append(group, more...)
	began := time.Now()
	var outs []lifecycle.RenderOutput
	if len(group) == 1 {
		var out lifecycle.RenderOutput
		out, err = h.renderOne(ctx, t, r)
		outs = []lifecycle.RenderOutput{out}
	} else {
		outs, err = h.captureToStorage(ctx, t, group)
	}
	if err == nil {
		for k, g := range group {
			h.Metrics.ObserveRender(string(g.Kind), g.Preset.Name, outs[k].Frames, time.Since(began))
		}
	}
	if err != nil {
		if ctx.Err() == nil && (lastAttempt(ctx) || permanent(err) || koda.ErrorCode(err) == koda.CodeRenderFailed) {
			for _, g := range group[1:] {
				if _, ferr := h.Lifecycle.FinishRender(context.WithoutCancel(ctx), g.ID, lifecycle.RenderOutput{}, err); ferr != nil {
					return nil, fmt.Errorf("render %s: %w (and recording the failure of %s: %v)", r.ID, err, g.ID, ferr)
				}
			}
			return h.Lifecycle.FinishRender(context.WithoutCancel(ctx), r.ID, lifecycle.RenderOutput{}, err)
		}
		return nil, fmt.Errorf("render %s: %w", r.ID, err)
	}
	// The capture's own render finishes last: should the job stop before, its retry
	// encodes the renders still unfinished.
	for k, g := range group[1:] {
		if _, err := h.Lifecycle.FinishRender(ctx, g.ID, outs[k+1], nil); err != nil {
			return nil, fmt.Errorf("render %s captured with %s: %w", g.ID, r.ID, err)
		}
	}
	return h.Lifecycle.FinishRender(ctx, r.ID, outs[0], nil)
}

// renderOne renders one render's video: a template batch's row with its batch's
// shared stretch when it has one (shared.go), else every frame.
func (h *Handlers) renderOne(ctx context.Context, t *asynq.Task, r *koda.Render) (lifecycle.RenderOutput, error) {
	sr, ok, err := h.sharedFor(ctx, r)
	if err != nil {
		return lifecycle.RenderOutput{}, err
	}
	if ok {
		out, err := h.renderRowToStorage(ctx, t, r, sr)
		if err == nil || ctx.Err() != nil {
			return out, err
		}
		h.log().Warn("row render with the shared stretch failed; rendering it whole", "render", r.ID, "err", err)
	}
	return h.renderToStorage(ctx, t, r)
}

// renderToStorage restores the project's checkpoint into a temporary folder, renders
// it and uploads the video and thumbnail.
func (h *Handlers) renderToStorage(ctx context.Context, t *asynq.Task, r *koda.Render) (lifecycle.RenderOutput, error) {
	var out lifecycle.RenderOutput
	dir, src, err := h.restoreForRender(ctx, r)
	if err != nil {
		return out, err
	}
	defer os.RemoveAll(dir)
	ext := "." + r.Preset.Format
	video, thumb := filepath.Join(dir, "video"+ext), filepath.Join(dir, "thumb.jpg")
	progress := h.progressReporter(ctx, t, r)
	res, err := h.Renderer.Render(ctx, koda.RenderRequest{
		Dir: src, Preset: r.Preset, DurationS: r.DurationS, VideoPath: video, ThumbnailPath: thumb,
		AudioPath: renderer.FindAudio(src),
	}, progress.report)
	progress.stop()
	if err != nil {
		return out, err
	}
	progress.report(koda.RenderProgress{Stage: koda.StageUploading, Percent: 99, FramesDone: res.Frames, FramesTotal: res.Frames})
	if out, err = h.uploadRender(ctx, r, video, thumb, res.Frames); err != nil {
		return out, err
	}
	return out, nil
}

// captureToStorage captures the frames of the renders of group once, at the largest
// size and highest rate among them, encodes each render's video from them and uploads
// them: outs[k] is group[k]'s. Each render's progress is its share of the one capture.
func (h *Handlers) captureToStorage(ctx context.Context, t *asynq.Task, group []*koda.Render) ([]lifecycle.RenderOutput, error) {
	lead := group[0]
	dir, src, err := h.restoreForRender(ctx, lead)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	presets := make([]koda.PresetSpec, len(group))
	outputs := make([]koda.VideoOutput, len(group))
	writers := make([]*progressWriter, len(group))
	for k, r := range group {
		presets[k] = r.Preset
		outputs[k] = koda.VideoOutput{Preset: r.Preset,
			VideoPath:     filepath.Join(dir, fmt.Sprintf("video-%d.%s", k, r.Preset.Format)),
			ThumbnailPath: filepath.Join(dir, fmt.Sprintf("thumb-%d.jpg", k))}
		writers[k] = h.progressReporter(ctx, t, r)
		if k > 0 {
			writers[k].task = nil // the task's result is its own render's progress
		}
	}
	capture := koda.CaptureSpec(presets)
	h.log().Info("one capture for several renders", "render", lead.ID, "renders", len(group),
		"capture", fmt.Sprintf("%dx%d@%d", capture.Width, capture.Height, capture.FPS))
	report := func(pr koda.RenderProgress) {
		for k, r := range group {
			writers[k].report(scaleProgress(pr, r.Preset.Frames(r.DurationS)))
		}
	}
	res, err := h.Renderer.Render(ctx, koda.RenderRequest{
		Dir: src, Preset: capture, DurationS: lead.DurationS, Outputs: outputs, AudioPath: renderer.FindAudio(src),
	}, report)
	for _, w := range writers {
		w.stop()
	}
	if err != nil {
		return nil, err
	}
	if len(res.Outputs) != len(group) {
		return nil, fmt.Errorf("render %s: the renderer made %d videos of %d", lead.ID, len(res.Outputs), len(group))
	}
	outs := make([]lifecycle.RenderOutput, len(group))
	for k, r := range group {
		frames := res.Outputs[k].Frames
		writers[k].report(koda.RenderProgress{Stage: koda.StageUploading, Percent: 99, FramesDone: frames, FramesTotal: frames})
		if outs[k], err = h.uploadRender(ctx, r, outputs[k].VideoPath, outputs[k].ThumbnailPath, frames); err != nil {
			return nil, err
		}
	}
	return outs, nil
}

// scaleProgress turns a capture's progress into that of one render it serves, of
// frames frames: the same stage and percent, its own frame counts.
func scaleProgress(pr koda.RenderProgress, frames int) koda.RenderProgress {
	done := pr.FramesDone
	if pr.FramesTotal > 0 {
		done = pr.FramesDone * frames / pr.FramesTotal
	}
	return koda.RenderProgress{Stage: pr.Stage, Percent: pr.Percent, FramesDone: done, FramesTotal: frames}
}

func (h *Handlers) upload(ctx context.Context, key, path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("upload %s: %w", key, err)
	}
	defer f.Close()
	n, err := h.Storage.Put(ctx, key, f)
	if err != nil {
		return 0, fmt.Errorf("upload %s: %w", key, err)
	}
	return n, nil
}

// progressWriter forwards render progress to the task's result (Asynqmon, inspector)
// and to the database and event stream, at most a few times a second.
type progressWriter struct {
	h    *Handlers
	ctx  context.Context
	task *asynq.Task
	id   string

	mu      sync.Mutex
	last    time.Time
	lastPct float64
	stage   string
	done    bool
}

func (h *Handlers) progressReporter(ctx context.Context, t *asynq.Task, r *koda.Render) *progressWriter {
	return &progressWriter{h: h, ctx: ctx, task: t, id: r.ID, lastPct: -1}
}

const progressEvery = 500 * time.Millisecond

func (p *progressWriter) report(pr koda.RenderProgress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done && pr.Stage != koda.StageUploading {
		return
	}
	if pr.Stage == p.stage && time.Since(p.last) < progressEvery && pr.Percent < 100 {
		return
	}
	if pr.Percent < p.lastPct {
		pr.Percent = p.lastPct // progress never moves backwards
	}
	p.last, p.lastPct, p.stage = time.Now(), pr.Percent, pr.Stage
	if b, err := json.Marshal(pr); err == nil && p.task != nil {
		if _, err := p.task.ResultWriter().Write(b); err != nil {
			p.h.log().Debug("write task result", "render", p.id, "err", err)
		}
	}
	if err := p.h.Lifecycle.RenderProgress(p.ctx, p.id, pr); err != nil && !errors.Is(err, context.Canceled) {
		p.h.log().Warn("record render progress", "render", p.id, "err", err)
	}
}

// stop ignores late progress from the renderer after it returned.
func (p *progressWriter) stop() {
	p.mu.Lock()
	p.done = true
	p.mu.Unlock()
}

// uploadRender stores a render's video and thumbnail under their keys and says where.
func (h *Handlers) uploadRender(ctx context.Context, r *koda.Render, video, thumb string, frames int) (lifecycle.RenderOutput, error) {
	out := lifecycle.RenderOutput{VideoKey: koda.RenderVideoKey(r.ProjectID, r.ID, r.Preset.Format),
		ThumbKey: koda.RenderThumbKey(r.ProjectID, r.ID), Frames: frames}
	var err error
	if out.SizeBytes, err = h.upload(ctx, out.VideoKey, video); err != nil {
		return out, err
	}
	if _, err = h.upload(ctx, out.ThumbKey, thumb); err != nil {
		return out, err
	}
	return out, nil
}
