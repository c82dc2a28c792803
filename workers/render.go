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
	began := time.Now()
	out, err := h.renderToStorage(ctx, t, r)
	if err == nil {
		h.Metrics.ObserveRender(string(r.Kind), r.Preset.Name, out.Frames, time.Since(began))
	}
	if err != nil {
		if ctx.Err() == nil && (lastAttempt(ctx) || permanent(err) || koda.ErrorCode(err) == koda.CodeRenderFailed) {
			return h.Lifecycle.FinishRender(context.WithoutCancel(ctx), r.ID, lifecycle.RenderOutput{}, err)
		}
		return nil, fmt.Errorf("render %s: %w", r.ID, err)
	}
	return h.Lifecycle.FinishRender(ctx, r.ID, out, nil)
}

// renderToStorage restores the project's checkpoint into a temporary folder, renders
// it and uploads the video and thumbnail.
func (h *Handlers) renderToStorage(ctx context.Context, t *asynq.Task, r *koda.Render) (lifecycle.RenderOutput, error) {
	var out lifecycle.RenderOutput
	dir, err := os.MkdirTemp(h.WorkDir, "render-"+r.ID+"-")
	if err != nil {
		return out, fmt.Errorf("render folder: %w", err)
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "project")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return out, err
	}
	ok, err := h.restore(ctx, r.ProjectID, src)
	if err != nil {
		return out, err
	}
	if !ok {
		return out, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeRenderFailed, "project %s has no files to render", r.ProjectID)
	}
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
	out = lifecycle.RenderOutput{VideoKey: koda.RenderVideoKey(r.ProjectID, r.ID, r.Preset.Format),
		ThumbKey: koda.RenderThumbKey(r.ProjectID, r.ID), Frames: res.Frames}
	if out.SizeBytes, err = h.upload(ctx, out.VideoKey, video); err != nil {
		return out, err
	}
	if _, err = h.upload(ctx, out.ThumbKey, thumb); err != nil {
		return out, err
	}
	return out, nil
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
	if b, err := json.Marshal(pr); err == nil {
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
