package renderer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// MuxAudio adds audioPath as the soundtrack of the video at videoPath, in place: the
// video stream is copied, the audio encoded (AAC in MP4, Opus in WebM) and cut to
// durationS, the video's length, so a longer track never extends the video. A render
// split into chunks calls it once on the joined video, because per-chunk audio would
// carry an encoder delay into every seam.
func MuxAudio(ctx context.Context, ffmpegPath, videoPath, audioPath string, durationS float64) error {
	if ffmpegPath == "" {
		ffmpegPath = FindFFmpeg()
	}
	// A tenant's file: opened only as the policy of media.go allows.
	input, err := audioInputArgs(audioPath)
	if err != nil {
		return err
	}
	ext := strings.ToLower(filepath.Ext(videoPath))
	codec := []string{"-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart"}
	if ext == ".webm" {
		// Opus runs at 48 kHz only; resample whatever the file holds.
		codec = []string{"-c:a", "libopus", "-b:a", "128k", "-ar", "48000"}
	}
	tmpf, err := os.CreateTemp(filepath.Dir(videoPath), "."+filepath.Base(videoPath)+".audio-*"+ext)
	if err != nil {
		return fmt.Errorf("mux audio: %w", err)
	}
	tmp := tmpf.Name()
	_ = tmpf.Close()
	args := append([]string{"-i", videoPath}, input...)
	args = append(args, "-map", "0:v:0", "-map", "1:a:0", "-c:v", "copy")
	args = append(args, codec...)
	args = append(args, "-t", strconv.FormatFloat(durationS, 'f', 6, 64), "-y", tmp)
	if err := runFFmpeg(ctx, ffmpegPath, args); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("mux audio %s: %w", filepath.Base(audioPath), err)
	}
	if err := os.Rename(tmp, videoPath); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("mux audio: %w", err)
	}
	return nil
}

// ExtractFrame writes frame n (0-based) of videoPath as a JPEG to out: the thumbnail
// of a render joined from chunks, whose midpoint no single chunk knew.
func ExtractFrame(ctx context.Context, ffmpegPath, videoPath string, n int, out string) error {
	if ffmpegPath == "" {
		ffmpegPath = FindFFmpeg()
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return fmt.Errorf("extract frame: %w", err)
	}
	tmpf, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".part-*.jpg")
	if err != nil {
		return fmt.Errorf("extract frame: %w", err)
	}
	tmp := tmpf.Name()
	_ = tmpf.Close()
	args := []string{"-i", videoPath, "-vf", "select=eq(n\\," + strconv.Itoa(n) + ")", "-frames:v", "1",
		"-q:v", "2", "-f", "image2", "-y", tmp}
	if err := runFFmpeg(ctx, ffmpegPath, args); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("extract frame %d of %s: %w", n, filepath.Base(videoPath), err)
	}
	if st, err := os.Stat(tmp); err != nil || st.Size() == 0 {
		_ = os.Remove(tmp)
		return renderFailed(err, "extract frame %d of %s: no picture", n, filepath.Base(videoPath))
	}
	return os.Rename(tmp, out)
}
