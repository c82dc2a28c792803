// Package renderer turns web pages into videos with headless Chromium (chromedp) and
// ffmpeg (ffmpeg-go). It implements koda.Renderer.
//
// A render serves the page folder on a loopback port, opens it with ?export=1 in up to
// Config.Browsers browser processes, seeks every frame through the export protocol
// (DESIGN.md §3.5), and pipes the frames in order into one ffmpeg process. A page whose
// picture is one full-frame canvas sends its pixels raw over a websocket to the page
// server (sink.go); other pages are captured as JPEG screenshots. Pages without the
// export hooks are driven by an injected virtual clock.
package renderer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/kodahq/koda"
)

// Config configures a Renderer. Zero fields take the documented defaults.
type Config struct {
	// ChromiumPath is the browser binary; default FindChromium().
	ChromiumPath string
	// FFmpegPath is the ffmpeg binary; default "ffmpeg" from PATH.
	FFmpegPath string
	// Logger receives render diagnostics; default discards.
	Logger *slog.Logger
	// Browsers is the number of browser processes one render uses; default runtime.NumCPU().
	Browsers int
	// ReadyTimeout bounds the page load until window.__exportReady; default 30 s.
	ReadyTimeout time.Duration
	// FrameTimeout bounds one seek plus capture; default 20 s.
	FrameTimeout time.Duration
	// JPEGQuality of frames captured as JPEG (1..100); default 92. Drafts (CRF 28 or coarser,
	// like the preview) are captured at 80 at most.
	JPEGQuality int
	// TabFrames restarts a browser tab after this many frames, because long capture
	// loops leak memory in Chrome; default 1200. Negative disables restarts.
	TabFrames int
	// Retries is how many times a browser that crashed mid-render is replaced; default 2.
	Retries int
	// DisableCanvasCapture turns off reading frames from a full-frame canvas in the page
	// (used by benchmarks and tests to compare the capture paths).
	DisableCanvasCapture bool
	// DisableBeginFrame captures screenshots with Page.captureScreenshot from browsers
	// that draw frames on their own, even where the browser supports begin-frame control
	// (beginframe.go; used by benchmarks and tests to compare the capture paths).
	DisableBeginFrame bool
	// RandomSeed seeds Math.random in pages driven by the virtual clock; default 1.
	RandomSeed uint32
	// Sandbox runs the browsers inside bubblewrap without network (see sandboxed.go).
	Sandbox SandboxConfig
	// KeepWarm keeps the browsers of a successful render running this long for the next
	// render (see warm.go); at most 2×Browsers stay idle. Zero closes every browser when
	// its render ends. A Renderer with KeepWarm must be closed with Close.
	KeepWarm time.Duration
}

// Renderer renders pages to video. It is safe for concurrent use; each Render starts and
// stops its own browser and encoder processes.
type Renderer struct {
	cfg  Config
	log  *slog.Logger
	pool *warmPool // nil without KeepWarm
	// beginFrame is whether this Renderer's browser supports begin-frame control,
	// found out once by the first browser started with it.
	beginFrame beginFrameVerdict
	// probeBeginFrame finds out whether a browser supports begin-frame control; tests
	// replace it to stand for a build without it (export_test.go).
	probeBeginFrame func(context.Context) error
}

var _ koda.Renderer = (*Renderer)(nil)

// New returns a Renderer with cfg's defaults filled in.
func New(cfg Config) *Renderer {
	if cfg.ChromiumPath == "" {
		cfg.ChromiumPath = FindChromium()
	}
	if cfg.FFmpegPath == "" {
		cfg.FFmpegPath = FindFFmpeg()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Browsers <= 0 {
		cfg.Browsers = runtime.NumCPU()
	}
	if cfg.ReadyTimeout <= 0 {
		cfg.ReadyTimeout = 30 * time.Second
	}
	if cfg.FrameTimeout <= 0 {
		cfg.FrameTimeout = 20 * time.Second
	}
	if cfg.JPEGQuality <= 0 || cfg.JPEGQuality > 100 {
		cfg.JPEGQuality = 92
	}
	if cfg.TabFrames == 0 {
		cfg.TabFrames = 1200
	}
	if cfg.Retries == 0 {
		cfg.Retries = 2
	}
	if cfg.RandomSeed == 0 {
		cfg.RandomSeed = 1
	}
	// Two full sets: the preview and render pools of one worker may render at once.
	return &Renderer{cfg: cfg, log: cfg.Logger, pool: newWarmPool(cfg.KeepWarm, 2*cfg.Browsers), probeBeginFrame: probeBeginFrame}
}

// Config returns the effective configuration.
func (r *Renderer) Config() Config { return r.cfg }

// job is one validated render request.
type job struct {
	req        koda.RenderRequest
	preset     koda.PresetSpec
	start, end int // frame range [start, end)
	total      int // frames in the whole video
	url        string
	hooks      hookState
	canvas     bool            // the page's text calls getContext (scanPage)
	quality    int             // JPEG quality of captured frames
	sink       *frameSink      // where raw canvas frames arrive; nil for a URL's page
	pixels     *pixelPool      // buffers of raw frames
	derived    []derivedOutput // req.Outputs, made from the captured frames
	whole      bool            // the request is the whole video, not a chunk of it
}

// draftCRF and draftJPEGQuality: a video encoded at CRF 28 or coarser (the preview) is a
// draft whose encoder discards more than JPEG at quality 80 does, so its frames are
// captured at 80, which makes a preview about 15% faster than at 92.
const (
	draftCRF         = 28
	draftJPEGQuality = 80
)

func (j *job) frames() int { return j.end - j.start }

// validate checks the request and resolves the frame range.
func validate(req koda.RenderRequest) (*job, error) {
	p := req.Preset
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if req.DurationS <= 0 || req.DurationS > 3600 {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidDuration, "duration %gs out of range", req.DurationS)
	}
	if req.VideoPath == "" && len(req.Outputs) == 0 {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "render request has no video path")
	}
	if req.URL == "" && req.Dir == "" {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "render request has neither a folder nor a URL")
	}
	if req.AudioPath != "" {
		// Refused before any frame is captured, by the same policy MuxAudio applies.
		if _, err := audioInputArgs(req.AudioPath); err != nil {
			return nil, err
		}
	}
	j := &job{req: req, preset: p, total: p.Frames(req.DurationS)}
	j.start, j.end = req.FrameStart, req.FrameEnd
	if j.start == 0 && j.end == 0 {
		j.end = j.total
	}
	if j.start < 0 || j.end > j.total || j.start >= j.end {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest,
			"frame range [%d,%d) outside the video's %d frames", req.FrameStart, req.FrameEnd, j.total)
	}
	j.whole = j.start == 0 && j.end == j.total
	if len(req.Outputs) > 0 {
		var err error
		if j.derived, err = planOutputs(j); err != nil {
			return nil, err
		}
		// Frames past the last one an output takes are not captured: ffmpeg ends once
		// every output has its frames, and would refuse them.
		last := 0
		for _, d := range j.derived {
			last = max(last, (d.first+d.frames-1)*d.step)
		}
		j.end = min(j.end, last+1)
	}
	return j, nil
}

// Render renders req to req.VideoPath (and req.ThumbnailPath). Failures are *koda.Error
// with code RENDER_FAILED or TIMEOUT; when ctx is cancelled the error wraps ctx.Err().
// Every browser and encoder process it started has exited when it returns, and no
// partial file is left at VideoPath or ThumbnailPath.
func (r *Renderer) Render(ctx context.Context, req koda.RenderRequest, progress func(koda.RenderProgress)) (*koda.RenderResult, error) {
	began := time.Now()
	j, err := validate(req)
	if err != nil {
		return nil, err
	}
	pr := newProgress(progress, j.frames())
	pr.stage(koda.StagePreparing)

	res, err := r.render(ctx, j, pr)
	if err != nil {
		err = classify(ctx, err)
		r.log.Warn("render failed", "video", req.VideoPath, "frames", j.frames(), "err", err)
		return nil, err
	}
	res.TotalTime = time.Since(began)
	pr.stage(koda.StageDone)
	r.log.Info("render done", "video", req.VideoPath, "frames", res.Frames,
		"capture", res.CaptureTime, "total", res.TotalTime, "bytes", res.SizeBytes)
	return res, nil
}

func (r *Renderer) render(ctx context.Context, j *job, pr *progress) (*koda.RenderResult, error) {
	pageURL, sink, stopServer, err := servePage(j.req)
	if err != nil {
		return nil, koda.Errorf(koda.EINTERNAL, koda.CodeRenderFailed, "serve page: %v", err)
	}
	defer stopServer()
	j.url = pageURL
	j.sink = sink
	// Enough buffers for every frame in flight (capture's window) and one per browser.
	j.pixels = newPixelPool(j.preset.Width*j.preset.Height*4, 4*r.cfg.Browsers)
	j.quality = r.cfg.JPEGQuality
	if j.preset.CRF >= draftCRF {
		j.quality = min(j.quality, draftJPEGQuality)
	}
	if j.req.URL == "" {
		sc := scanPage(j.req.Dir, j.req.Entry)
		j.hooks, j.canvas = sc.hooks, sc.canvas
	}

	videos := []string{j.req.VideoPath}
	if len(j.derived) > 0 {
		videos = videos[:0]
		for _, d := range j.derived {
			videos = append(videos, d.out)
		}
	}
	for _, v := range videos {
		if err := os.MkdirAll(filepath.Dir(v), 0o755); err != nil {
			return nil, fmt.Errorf("create output folder: %w", err)
		}
	}
	// ffmpeg starts with the first frame, which says whether frames come as JPEGs or
	// as raw pixels.
	var enc *encoder
	defer func() {
		if enc != nil {
			enc.abort() // a no-op after a successful finish
		}
	}()

	mid := -1
	if j.req.ThumbnailPath != "" && len(j.derived) == 0 {
		mid = j.start + j.frames()/2
	}
	var thumb frame
	// The captured frames the derived outputs' thumbnails come from.
	thumbs := map[int]*frame{}
	for _, d := range j.derived {
		if d.thumbnail != "" {
			thumbs[d.thumbFrame()] = nil
		}
	}
	capStart := time.Now()
	err = r.capture(ctx, j, func(i int, f frame) error {
		if enc == nil {
			var err error
			enc, err = startEncoder(ctx, r.cfg.FFmpegPath, encodeOptions{
				preset: j.preset, frames: j.frames(), out: j.req.VideoPath, raw: f.raw, derived: j.derived,
			})
			if err != nil {
				return err
			}
		}
		if f.raw != enc.raw {
			// A tab whose page did not pass the canvas check again captured screenshots
			// while the others send pixels, or the other way round: rare, and converted.
			conv, err := convertFrame(f, j.preset.Width, j.preset.Height)
			if err != nil {
				return fmt.Errorf("frame %d: %w", i, err)
			}
			if f.raw {
				j.pixels.put(f.data)
			}
			f = conv
		}
		if i == mid {
			thumb = frame{data: bytes.Clone(f.data), raw: f.raw}
		}
		if _, ok := thumbs[i]; ok {
			thumbs[i] = &frame{data: bytes.Clone(f.data), raw: f.raw}
		}
		if !f.raw {
			if err := enc.write(f.data); err != nil {
				return err
			}
		} else {
			free, err := enc.writeRaw(f.data)
			for _, b := range free {
				j.pixels.put(b)
			}
			if err != nil {
				return err
			}
		}
		pr.frames(i - j.start + 1)
		return nil
	})
	if err != nil {
		return nil, err
	}
	capTime := time.Since(capStart)

	pr.stage(koda.StageEncoding)
	size, err := enc.finish()
	if err != nil {
		return nil, err
	}
	if len(j.derived) > 0 {
		return r.finishDerived(ctx, j, enc.sizes, thumbs, capTime)
	}
	// Audio belongs to the whole video only: chunks of a split render get theirs once
	// joined (MuxAudio after Concat).
	if j.req.AudioPath != "" && j.start == 0 && j.end == j.total {
		dur := float64(j.total) / float64(j.preset.FPS)
		track, err := openSoundtrack(ctx, r.cfg.FFmpegPath, j.req.AudioPath, filepath.Dir(j.req.VideoPath), dur)
		if err == nil {
			err = r.mux(ctx, track, j.req.VideoPath, dur, j.preset)
			track.close()
		}
		if err != nil {
			_ = os.Remove(j.req.VideoPath)
			return nil, err
		}
		st, err := os.Stat(j.req.VideoPath)
		if err != nil {
			return nil, fmt.Errorf("stat video: %w", err)
		}
		size = st.Size()
	}
	if thumb.data != nil {
		if thumb.raw {
			if thumb.data, err = encodeJPEG(thumb, j.preset.Width, j.preset.Height); err != nil {
				_ = os.Remove(j.req.VideoPath)
				return nil, fmt.Errorf("encode thumbnail: %w", err)
			}
		}
		if err := writeFileAtomic(j.req.ThumbnailPath, thumb.data); err != nil {
			_ = os.Remove(j.req.VideoPath)
			return nil, fmt.Errorf("write thumbnail: %w", err)
		}
	}
	return &koda.RenderResult{Frames: j.frames(), SizeBytes: size, CaptureTime: capTime}, nil
}

// finishDerived adds the soundtrack and the thumbnail to each of a capture's encoded
// outputs. On failure it removes them all: the outputs of one capture succeed together.
// The soundtrack is decoded once for them all; each output gets it cut to its own
// length and normalised to its own preset's loudness.
func (r *Renderer) finishDerived(ctx context.Context, j *job, sizes []int64, thumbs map[int]*frame, capTime time.Duration) (*koda.RenderResult, error) {
	removeAll := func() {
		for _, d := range j.derived {
			_ = os.Remove(d.out)
			if d.thumbnail != "" {
				_ = os.Remove(d.thumbnail)
			}
		}
	}
	length := func(d derivedOutput) float64 { return float64(d.first+d.frames) / float64(d.preset.FPS) }
	var track *soundtrack
	if j.req.AudioPath != "" && j.whole {
		longest := 0.0
		for _, d := range j.derived {
			longest = max(longest, length(d))
		}
		var err error
		if track, err = openSoundtrack(ctx, r.cfg.FFmpegPath, j.req.AudioPath, filepath.Dir(j.derived[0].out), longest); err != nil {
			removeAll()
			return nil, err
		}
		defer track.close()
	}
	res := &koda.RenderResult{Frames: j.frames(), CaptureTime: capTime}
	for k, d := range j.derived {
		size := sizes[k]
		if track != nil {
			if err := r.mux(ctx, track, d.out, length(d), d.preset); err != nil {
				removeAll()
				return nil, fmt.Errorf("output %s: %w", d.preset.Name, err)
			}
			st, err := os.Stat(d.out)
			if err != nil {
				removeAll()
				return nil, fmt.Errorf("stat video of output %s: %w", d.preset.Name, err)
			}
			size = st.Size()
		}
		if d.thumbnail != "" {
			f := thumbs[d.thumbFrame()]
			if f == nil {
				removeAll()
				return nil, fmt.Errorf("output %s: thumbnail frame %d was not captured", d.preset.Name, d.thumbFrame())
			}
			data, err := scaledThumbnail(*f, j.preset.Width, j.preset.Height, d.preset.Width, d.preset.Height)
			if err == nil {
				err = writeFileAtomic(d.thumbnail, data)
			}
			if err != nil {
				removeAll()
				return nil, fmt.Errorf("thumbnail of output %s: %w", d.preset.Name, err)
			}
		}
		res.SizeBytes += size
		res.Outputs = append(res.Outputs, koda.OutputResult{Frames: d.frames, SizeBytes: size})
	}
	return res, nil
}

// mux lays track under the video at path, of durationS, at p's loudness, and logs how
// it was normalised: "dynamic" means loudnorm could not apply one gain without
// passing the true-peak ceiling, and compressed the track instead.
func (r *Renderer) mux(ctx context.Context, track *soundtrack, path string, durationS float64, p koda.PresetSpec) error {
	rep, err := track.mux(ctx, path, durationS, p.Loudness())
	if err != nil {
		return err
	}
	r.log.Info("soundtrack", "video", path, "audio", track.name, "preset", p.Name, "target_lufs", p.Loudness(),
		"measured_lufs", rep.Measured.InputI, "true_peak_dbtp", rep.Measured.InputTP, "normalization", rep.Normalization)
	return nil
}

// classify turns any error into the contract's *koda.Error codes, keeping cancellation
// recognisable with errors.Is(err, context.Canceled).
func classify(ctx context.Context, err error) error {
	var ke *koda.Error
	if errors.As(err, &ke) {
		return err
	}
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return &koda.Error{Kind: koda.ETIMEOUT, Code: koda.CodeTimeout, Message: "render ran out of time", Err: err}
		}
		return fmt.Errorf("render cancelled: %w", ctx.Err())
	}
	return &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeRenderFailed, Message: "render failed", Err: err}
}

func renderFailed(err error, format string, args ...any) *koda.Error {
	return &koda.Error{Kind: koda.EUNPROCESSABLE, Code: koda.CodeRenderFailed, Message: fmt.Sprintf(format, args...), Err: err}
}

func renderTimeout(err error, format string, args ...any) *koda.Error {
	return &koda.Error{Kind: koda.ETIMEOUT, Code: koda.CodeTimeout, Message: fmt.Sprintf(format, args...), Err: err}
}

// writeFileAtomic writes data next to path and renames it into place, so readers never
// see a partial file.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".part-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}
