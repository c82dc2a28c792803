package renderer

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/kodahq/koda"
)

// An ffmpeg that dies of a signal (a crash, the OOM killer) fails the render as
// UNAVAILABLE, which the render task retries; one that refuses its input exits with a
// status and fails it as RENDER_FAILED, which is not retried.
func TestFFmpegCrashIsRetryable(t *testing.T) {
	ctx := context.Background()
	preset := koda.PresetSpec{Name: "t", Width: 64, Height: 36, FPS: 5, CRF: 30, Format: koda.FormatMP4, EncoderSpeed: koda.DefaultEncoderSpeed}
	e, err := startEncoder(ctx, FindFFmpeg(), encodeOptions{preset: preset, frames: 5, out: filepath.Join(t.TempDir(), "v.mp4"), raw: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.cmd.Process.Signal(syscall.SIGSEGV); err != nil {
		t.Fatal(err)
	}
	_, err = e.finish()
	if koda.ErrorKind(err) != koda.EUNAVAILABLE {
		t.Fatalf("crash: %v (kind %s), want UNAVAILABLE", err, koda.ErrorKind(err))
	}

	e, err = startEncoder(ctx, FindFFmpeg(), encodeOptions{preset: preset, frames: 5, out: filepath.Join(t.TempDir(), "v.mp4"), raw: true})
	if err != nil {
		t.Fatal(err)
	}
	_ = e.write([]byte("not a frame")) // too short: ffmpeg finds no whole frame and fails
	_, err = e.finish()
	if err == nil {
		t.Fatal("ffmpeg accepted a partial frame")
	}
	if koda.ErrorCode(err) != koda.CodeRenderFailed || koda.ErrorKind(err) == koda.EUNAVAILABLE {
		t.Fatalf("refusal: %v, want RENDER_FAILED", err)
	}
}
