package renderer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	ffmpeg "github.com/u2takey/ffmpeg-go"

	"github.com/kodahq/koda"
)

// Baseline is the original specification's method, kept only to benchmark Renderer
// against: one browser, one tab, a PNG screenshot per frame written to disk, then one
// ffmpeg pass over the files. Pages without hooks get the same virtual clock, so both
// renderers produce the same video.
type Baseline struct {
	r *Renderer
}

var _ koda.Renderer = (*Baseline)(nil)

// NewBaseline returns the benchmark baseline with cfg's defaults.
func NewBaseline(cfg Config) *Baseline { return &Baseline{r: New(cfg)} }

// Render implements koda.Renderer the slow way.
func (bl *Baseline) Render(ctx context.Context, req koda.RenderRequest, progress func(koda.RenderProgress)) (*koda.RenderResult, error) {
	began := time.Now()
	j, err := validate(req)
	if err != nil {
		return nil, err
	}
	pr := newProgress(progress, j.frames())
	pr.stage(koda.StagePreparing)
	res, err := bl.render(ctx, j, pr)
	if err != nil {
		return nil, classify(ctx, err)
	}
	res.TotalTime = time.Since(began)
	pr.stage(koda.StageDone)
	return res, nil
}

func (bl *Baseline) render(ctx context.Context, j *job, pr *progress) (*koda.RenderResult, error) {
	r := bl.r
	pageURL, _, stop, err := servePage(j.req)
	if err != nil {
		return nil, err
	}
	defer stop()
	j.url = pageURL
	if j.req.URL == "" {
		j.hooks = scanPage(j.req.Dir, j.req.Entry).hooks
	}
	frames, err := os.MkdirTemp("", "koda-baseline-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(frames)

	capStart := time.Now()
	b, err := r.launch(ctx, ctx, j.preset.Width, j.preset.Height, false)
	if err != nil {
		return nil, err
	}
	defer b.close()
	// The canvas shortcut is not part of the original method.
	known := &pageKind{virtual: j.hooks == hooksAbsent}
	t, err := r.openTab(ctx, b, j, known, false)
	if err != nil {
		return nil, err
	}
	defer t.close()
	for i := j.start; i < j.end; i++ {
		sec := strconv.FormatFloat(float64(i)/float64(j.preset.FPS), 'g', -1, 64)
		var png []byte
		err := chromedp.Run(t.ctx, chromedp.ActionFunc(func(ctx context.Context) error {
			if _, err := t.eval(ctx, `(async () => { await window.__exportSeekTo(`+sec+`); })()`); err != nil {
				return err
			}
			var err error
			png, err = page.CaptureScreenshot().WithFormat(page.CaptureScreenshotFormatPng).Do(ctx)
			return err
		}))
		if err != nil {
			return nil, fmt.Errorf("baseline frame %d: %w", i, err)
		}
		if err := os.WriteFile(filepath.Join(frames, fmt.Sprintf("%06d.png", i-j.start)), png, 0o644); err != nil {
			return nil, err
		}
		pr.frames(i - j.start + 1)
	}
	capTime := time.Since(capStart)

	pr.stage(koda.StageEncoding)
	if err := os.MkdirAll(filepath.Dir(j.req.VideoPath), 0o755); err != nil {
		return nil, err
	}
	out := ffmpeg.KwArgs{"c:v": "libx264", "preset": j.preset.EncoderSpeed, "crf": strconv.Itoa(j.preset.CRF),
		"pix_fmt": "yuv420p", "movflags": "+faststart"}
	if j.preset.Format == koda.FormatWebM {
		out = ffmpeg.KwArgs{"c:v": "libvpx-vp9", "crf": strconv.Itoa(j.preset.CRF), "b:v": "0", "pix_fmt": "yuv420p"}
	}
	args := ffmpeg.Input(filepath.Join(frames, "%06d.png"), ffmpeg.KwArgs{"framerate": strconv.Itoa(j.preset.FPS)}).
		Output(j.req.VideoPath, out).OverWriteOutput().GetArgs()
	cmd := exec.CommandContext(ctx, r.cfg.FFmpegPath, append([]string{"-hide_banner", "-loglevel", "error"}, args...)...)
	stderr := &tailBuffer{max: 4096}
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		_ = os.Remove(j.req.VideoPath)
		return nil, renderFailed(err, "baseline ffmpeg: %s", stderr.String())
	}
	st, err := os.Stat(j.req.VideoPath)
	if err != nil {
		return nil, err
	}
	return &koda.RenderResult{Frames: j.frames(), SizeBytes: st.Size(), CaptureTime: capTime}, nil
}
