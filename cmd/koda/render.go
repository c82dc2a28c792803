package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/renderer"
)

// renderCommand renders a local page, project folder or URL straight to a video file,
// without the server, Redis or a database: the renderer alone, as a tool.
func renderCommand(stdout, stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name:      "render",
		Usage:     "render a local page, project folder or URL to a video file (no server needed)",
		ArgsUsage: "<folder|page.html|url>",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "preset", Value: "preview", Usage: "output preset: " + strings.Join(koda.PresetNames(), ", ") + ", or custom"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "video file to write (default: <name>-<preset>.<format> in the current folder)"},
			&cli.FloatFlag{Name: "duration", Value: 5, Usage: "video length in seconds"},
			&cli.IntFlag{Name: "width", Usage: "frame width in pixels (overrides the preset)"},
			&cli.IntFlag{Name: "height", Usage: "frame height in pixels (overrides the preset)"},
			&cli.IntFlag{Name: "fps", Usage: "frames per second (overrides the preset)"},
			&cli.IntFlag{Name: "crf", Usage: "encoder quality, 0 (lossless) to 51 (overrides the preset)"},
			&cli.StringFlag{Name: "format", Usage: "mp4 or webm (overrides the preset)"},
			&cli.StringFlag{Name: "encoder-speed", Usage: "x264 speed preset, ultrafast to veryslow: faster makes larger files (overrides the preset)"},
			&cli.StringFlag{Name: "audio", Usage: "soundtrack: looped or cut to the video's length, faded in and out, loudness-normalised"},
			&cli.FloatFlag{Name: "loudness", Usage: fmt.Sprintf("soundtrack loudness in LUFS, %g to %g (overrides the preset's; default %g)", koda.MinLoudnessLUFS, koda.MaxLoudnessLUFS, koda.DefaultLoudnessLUFS)},
			&cli.StringFlag{Name: "thumbnail", Usage: "also write a JPEG of the middle frame here"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runRender(ctx, cmd, stdout, stderr)
		},
	}
}

func runRender(ctx context.Context, cmd *cli.Command, stdout, stderr io.Writer) error {
	if cmd.NArg() != 1 {
		return fmt.Errorf("render: give exactly one folder, page or URL to render (got %d arguments)", cmd.NArg())
	}
	req, err := renderRequest(cmd, cmd.Args().First())
	if err != nil {
		return err
	}
	r := renderer.New(renderer.Config{
		ChromiumPath: cmd.String("chromium"),
		FFmpegPath:   cmd.String("ffmpeg"),
		Browsers:     int(cmd.Int("browsers")),
		Logger:       renderLogger(cmd, stderr),
	})
	var bar *meter
	if !cmd.Bool("quiet") {
		bar = newMeter(stderr, "rendering "+filepath.Base(req.VideoPath), isTerminal(stderr))
	}
	res, err := r.Render(ctx, req, func(p koda.RenderProgress) {
		if bar != nil {
			bar.Set(p.Percent, p.Stage, p.FramesDone, p.FramesTotal)
		}
	})
	if err != nil {
		if bar != nil {
			bar.Exit()
		}
		return fmt.Errorf("render %s: %w", cmd.Args().First(), err)
	}
	if bar != nil {
		bar.Finish()
	}
	fmt.Fprintf(stdout, "%s: %d frames, %dx%d @ %d fps, %.1f MB in %.1fs (capture %.1fs, %.1f frames/s)\n",
		req.VideoPath, res.Frames, req.Preset.Width, req.Preset.Height, req.Preset.FPS,
		float64(res.SizeBytes)/1e6, res.TotalTime.Seconds(), res.CaptureTime.Seconds(),
		float64(res.Frames)/max(res.TotalTime.Seconds(), 1e-9))
	return nil
}

// renderLogger logs warnings only unless --log-level is given, so the renderer's info
// lines do not break the progress bar.
func renderLogger(cmd *cli.Command, w io.Writer) *slog.Logger {
	level := slog.LevelWarn
	if cmd.IsSet("log-level") {
		_ = level.UnmarshalText([]byte(cmd.String("log-level")))
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

// renderRequest builds the request from the command line; every mistake is a
// *koda.Error (UNKNOWN_PRESET, INVALID_PRESET, INVALID_DURATION…) with a clear message.
func renderRequest(cmd *cli.Command, target string) (koda.RenderRequest, error) {
	var req koda.RenderRequest
	name := strings.TrimSpace(cmd.String("preset"))
	var p koda.PresetSpec
	if strings.EqualFold(name, "custom") {
		p = koda.PresetSpec{Name: "custom"}
	} else {
		var err error
		if p, err = koda.LookupPreset(name); err != nil {
			return req, err
		}
	}
	overridden := false
	for _, f := range []struct {
		name string
		dst  *int
	}{{"width", &p.Width}, {"height", &p.Height}, {"fps", &p.FPS}, {"crf", &p.CRF}} {
		if cmd.IsSet(f.name) {
			*f.dst = int(cmd.Int(f.name))
			overridden = true
		}
	}
	if cmd.IsSet("format") {
		p.Format = strings.ToLower(strings.TrimSpace(cmd.String("format")))
		overridden = true
	}
	if cmd.IsSet("encoder-speed") {
		p.EncoderSpeed = cmd.String("encoder-speed")
		overridden = true
	}
	if cmd.IsSet("loudness") {
		p.LoudnessLUFS = cmd.Float("loudness")
		overridden = true
	}
	if overridden && p.Name != "custom" {
		p.Name += "-custom"
	}
	if err := p.Validate(); err != nil {
		return req, err
	}
	d := cmd.Float("duration")
	if d <= 0 || d > 3600 {
		return req, koda.Errorf(koda.EINVALID, koda.CodeInvalidDuration, "duration %gs out of range (0..3600]", d)
	}
	if err := p.CheckDuration(d); err != nil {
		return req, err
	}
	req.Preset, req.DurationS = p, d

	stem := "page"
	if u, err := url.Parse(target); err == nil && (u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "file") {
		req.URL = target
		if b := strings.TrimSuffix(filepath.Base(u.Path), filepath.Ext(u.Path)); b != "" && b != "/" && b != "." {
			stem = b
		}
	} else {
		abs, err := filepath.Abs(target)
		if err != nil {
			return req, fmt.Errorf("render %s: %w", target, err)
		}
		st, err := os.Stat(abs)
		if err != nil {
			return req, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "nothing to render at %s: %v", target, err)
		}
		if st.IsDir() {
			req.Dir, stem = abs, filepath.Base(abs)
		} else {
			req.Dir, req.Entry = filepath.Dir(abs), filepath.Base(abs)
			stem = strings.TrimSuffix(req.Entry, filepath.Ext(req.Entry))
		}
	}

	out := cmd.String("output")
	if out == "" {
		out = fmt.Sprintf("%s-%s.%s", stem, strings.ReplaceAll(p.Name, "+", "-"), p.Format)
	}
	if ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(out)), "."); ext != p.Format {
		return req, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest,
			"output %s must end in .%s for format %s", out, p.Format, p.Format)
	}
	var err error
	if req.VideoPath, err = filepath.Abs(out); err != nil {
		return req, err
	}
	if t := cmd.String("thumbnail"); t != "" {
		if req.ThumbnailPath, err = filepath.Abs(t); err != nil {
			return req, err
		}
	}
	if a := cmd.String("audio"); a != "" {
		if _, err := os.Stat(a); err != nil {
			return req, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "audio file: %v", err)
		}
		if req.AudioPath, err = filepath.Abs(a); err != nil {
			return req, err
		}
	}
	return req, nil
}
