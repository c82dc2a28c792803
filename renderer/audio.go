package renderer

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kodahq/koda"
)

// A soundtrack is laid under a video in three ffmpeg runs:
//
//  1. decode: the tenant's file, opened only as media.go's policy allows, is decoded
//     once to raw 48 kHz stereo float PCM of our own, at most as long as the video.
//     Every later run reads that file, so the tenant's bytes meet ffmpeg's demuxers
//     once per render however many outputs share the track, and looping it is a cheap
//     seek in a raw file (a 1 ms track loops to a minute in about a second) rather
//     than a re-open of an MP3. Stereo before anything is measured: BS.1770 sums the
//     channels, so a mono track measured as mono would play 3 dB louder once a player
//     sends it to both speakers.
//  2. measure: the track looped (-stream_loop) and cut to the video's length, faded in
//     and out, goes through loudnorm with print_format=json, which reports its
//     integrated loudness, true peak, loudness range and gate threshold.
//  3. mux: the same signal, normalised by loudnorm with the measured values and
//     linear=true, faded again, encoded (AAC in MP4, Opus in WebM) beside a copy of
//     the video stream.
//
// Two passes, not one: loudnorm alone on a stream it has not seen runs in its dynamic
// mode, a gain that follows the music's level over a 3-second window, which flattens
// the quiet and loud passages of a piece of music into one level and can be heard
// pumping. Given the whole signal's measurements and linear=true it applies one gain,
// as a mastering engineer would: the music's dynamics stay as composed, and the
// target is met as exactly as the meter reads (tests: within 0.1 LU before the lossy
// encoder). The extra pass costs little beside a video render (loudnorm works at
// 192 kHz: under 2 core-s per minute of sound on this project's machines). loudnorm
// still falls back to its dynamic mode when one gain would push the true peak over
// the ceiling (a quiet track with sharp peaks raised a lot): then the loudness target
// wins over the dynamics.
//
// The fades are applied before loudnorm in the measuring pass (the loudness that
// counts is the faded track's) and after it in the mux pass: in linear mode the two
// orders give the same samples, and in the dynamic fallback loudnorm, placed first,
// cannot lift the fades back up.

// Soundtrack settings shared by the passes.
const (
	audioRate = 48000 // AAC and Opus both take it; Opus only runs at 48 kHz
	// audioTruePeak is the true-peak ceiling, dBTP: EBU R128 s1 asks −1 for streaming;
	// half a dB more for the AAC/Opus encoders, whose lossy output overshoots the peaks
	// of their input.
	audioTruePeak = -1.5
	// audioLRA is loudnorm's loudness-range target, at its maximum: loudnorm runs
	// linear only for a track whose measured range is within it (at the default 7, much
	// music would be compressed), and in the dynamic fallback it narrows the range least.
	audioLRA = 50
	// silentLUFS: a track whose integrated loudness is below it is silence, with nothing
	// to normalise (loudnorm's gate is at −70).
	silentLUFS = -70
)

// fadeSeconds is the fade-in and fade-out of a soundtrack under a video of durationS:
// a tenth of the video, between half a second and a second, and never more than a
// quarter of a very short video, so some of the track plays at full level.
func fadeSeconds(durationS float64) float64 {
	f := min(1, max(0.5, durationS/10))
	return min(f, durationS/4)
}

// MuxAudio adds audioPath as the soundtrack of the video at videoPath, in place: the
// video stream is copied; the track is looped or cut to durationS (the video's
// length), faded in and out, and normalised to an integrated loudness of targetLUFS
// (EBU R128; 0 means koda.DefaultLoudnessLUFS), then encoded, AAC in MP4 and Opus in
// WebM. A render split into chunks calls it once on the joined video, because
// per-chunk audio would carry an encoder delay into every seam. A refused file is an
// INVALID_REQUEST *koda.Error; a failing ffmpeg is RENDER_FAILED.
func MuxAudio(ctx context.Context, ffmpegPath, videoPath, audioPath string, durationS, targetLUFS float64) error {
	st, err := openSoundtrack(ctx, ffmpegPath, audioPath, filepath.Dir(videoPath), durationS)
	if err != nil {
		return err
	}
	defer st.close()
	_, err = st.mux(ctx, videoPath, durationS, targetLUFS)
	return err
}

// soundtrack is a tenant's audio file decoded once (pass 1), ready to be laid under
// any number of videos no longer than it was decoded for.
type soundtrack struct {
	ffmpeg string
	name   string  // the tenant file's base name, for messages
	pcm    string  // raw float32 little-endian stereo samples at audioRate
	maxS   float64 // the longest video it was decoded for
	// measured caches pass 2: the outputs of one capture are mostly equally long and
	// share a target.
	measured map[mixKey]loudnormStats
}

// mixKey is what pass 2 measures for: the video's length and the loudness target.
type mixKey struct{ durationS, targetLUFS float64 }

// openSoundtrack decodes audioPath to a raw PCM file in dir, keeping at most maxS
// seconds. The caller must close it.
func openSoundtrack(ctx context.Context, ffmpegPath, audioPath, dir string, maxS float64) (*soundtrack, error) {
	if ffmpegPath == "" {
		ffmpegPath = FindFFmpeg()
	}
	// A tenant's file: opened only as the policy of media.go allows.
	input, err := audioInputArgs(audioPath)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, ".soundtrack-*.f32")
	if err != nil {
		return nil, fmt.Errorf("soundtrack %s: %w", filepath.Base(audioPath), err)
	}
	st := &soundtrack{ffmpeg: ffmpegPath, name: filepath.Base(audioPath), pcm: f.Name(), maxS: maxS, measured: map[mixKey]loudnormStats{}}
	_ = f.Close()
	args := append(input, "-map", "0:a:0", "-vn", "-sn", "-dn", "-t", seconds(maxS),
		"-ac", "2", "-ar", strconv.Itoa(audioRate), "-c:a", "pcm_f32le", "-f", "f32le", "-y", st.pcm)
	if err := runFFmpeg(ctx, ffmpegPath, args); err != nil {
		st.close()
		return nil, fmt.Errorf("decode soundtrack %s: %w", st.name, err)
	}
	info, err := os.Stat(st.pcm)
	if err != nil {
		st.close()
		return nil, fmt.Errorf("decode soundtrack %s: %w", st.name, err)
	}
	const frameBytes = 2 * 4 // two float32 channels
	if info.Size() < frameBytes {
		st.close()
		return nil, mediaRefused(nil, "audio file %s holds no sound", st.name)
	}
	return st, nil
}

func (s *soundtrack) close() { _ = os.Remove(s.pcm) }

// input is ffmpeg's input of the decoded track, looped as often as a video needs:
// reading past its end starts it again.
func (s *soundtrack) input() []string {
	return []string{"-stream_loop", "-1", "-f", "f32le", "-ar", strconv.Itoa(audioRate), "-ac", "2", "-i", s.pcm}
}

// cut is the filter chain that ends the looped track after the video's last sample,
// numbering the samples from zero (the fades are placed by timestamps). The cut is
// made inside the filters: -t stops the output only, and loudnorm holds 3 s of sound
// back, so ffmpeg feeds it that much more of the looped track, which its measurement
// would count (a 1.2 s video came out 0.7 LU too loud by ebur128 before this cut).
func cut(durationS float64) string {
	return fmt.Sprintf("asetpts=N/SR/TB,atrim=end_sample=%d", int64(math.Round(durationS*audioRate)))
}

// fades fades the track in and out over a video of durationS.
func fades(durationS float64) string {
	f := fadeSeconds(durationS)
	return fmt.Sprintf("afade=t=in:st=0:d=%s,afade=t=out:st=%s:d=%s", seconds(f), seconds(durationS-f), seconds(f))
}

// loudnormStats are loudnorm's measurements of a signal (print_format=json).
type loudnormStats struct {
	InputI        string `json:"input_i"`
	InputTP       string `json:"input_tp"`
	InputLRA      string `json:"input_lra"`
	InputThresh   string `json:"input_thresh"`
	OutputI       string `json:"output_i"`
	Normalization string `json:"normalization_type"`
	TargetOffset  string `json:"target_offset"`
}

// loudnorm is the filter normalising to targetLUFS; with m, one measured by an earlier
// pass, it applies a single linear gain.
func loudnorm(targetLUFS float64, m *loudnormStats) string {
	f := fmt.Sprintf("loudnorm=I=%s:TP=%s:LRA=%d:print_format=json", num(targetLUFS), num(audioTruePeak), audioLRA)
	if m != nil {
		f += fmt.Sprintf(":measured_I=%s:measured_TP=%s:measured_LRA=%s:measured_thresh=%s:offset=%s:linear=true",
			notZero(m.InputI, "-0.01"), m.InputTP, notZero(m.InputLRA, "0.01"), m.InputThresh, m.TargetOffset)
	}
	return f
}

// notZero returns v, or instead when v reads as zero. loudnorm takes a measured_I or
// measured_LRA of 0 for "not measured" and then refuses its linear mode, yet a video
// under 3 s has a loudness range of 0 (LRA is made of 3-second blocks), and so has a
// steady tone: they are given as the smallest value loudnorm prints.
func notZero(v, instead string) string {
	if f, err := strconv.ParseFloat(v, 64); err == nil && f == 0 {
		return instead
	}
	return v
}

// measure is pass 2: loudnorm's measurement of the track as it plays under a video of
// durationS, looped or cut and faded.
func (s *soundtrack) measure(ctx context.Context, durationS, targetLUFS float64) (loudnormStats, error) {
	key := mixKey{durationS, targetLUFS}
	if m, ok := s.measured[key]; ok {
		return m, nil
	}
	chain := cut(durationS) + "," + fades(durationS) + "," + loudnorm(targetLUFS, nil)
	args := append(s.input(), "-t", seconds(durationS), "-af", chain, "-f", "null", "-")
	log, err := runFFmpegInfo(ctx, s.ffmpeg, args)
	if err != nil {
		return loudnormStats{}, fmt.Errorf("measure loudness of %s: %w", s.name, err)
	}
	m, err := parseLoudnorm(log)
	if err != nil {
		return loudnormStats{}, renderFailed(err, "measure loudness of %s: %v", s.name, err)
	}
	s.measured[key] = m
	return m, nil
}

// mixReport says how a soundtrack was laid under a video.
type mixReport struct {
	// Measured is pass 2's measurement: the track as it plays, looped or cut and faded.
	Measured loudnormStats
	// Normalization is loudnorm's mode in the mux pass, "linear" or "dynamic"; empty for
	// a silent track, which is not normalised.
	Normalization string
}

// mux is pass 3: the track under the video at videoPath, in place.
func (s *soundtrack) mux(ctx context.Context, videoPath string, durationS, targetLUFS float64) (mixReport, error) {
	if durationS <= 0 || durationS > s.maxS {
		// A longer video would loop a track cut short at maxS.
		return mixReport{}, fmt.Errorf("mux soundtrack %s: video length %gs outside (0, %g]", s.name, durationS, s.maxS)
	}
	if targetLUFS == 0 {
		targetLUFS = koda.DefaultLoudnessLUFS
	}
	m, err := s.measure(ctx, durationS, targetLUFS)
	if err != nil {
		return mixReport{}, err
	}
	normalise := m.integrated() > silentLUFS
	// Normalised first, faded after: see the comment at the top of the file. Silence has
	// no loudness to bring to a target (loudnorm's linear mode refuses it), and stays so.
	filter := cut(durationS)
	if normalise {
		// In its dynamic fallback loudnorm puts out 192 kHz; the fades and the encoders
		// work at 48. (aformat, not aresample: after loudnorm, ffmpeg 5.1's aresample
		// fails to negotiate a channel layout.)
		filter += "," + loudnorm(targetLUFS, &m) + fmt.Sprintf(",aformat=sample_rates=%d:channel_layouts=stereo", audioRate)
	}
	filter += "," + fades(durationS)
	ext := strings.ToLower(filepath.Ext(videoPath))
	codec := []string{"-c:a", "aac", "-b:a", "192k", "-movflags", "+faststart"}
	if ext == ".webm" {
		codec = []string{"-c:a", "libopus", "-b:a", "128k"}
	}
	tmpf, err := os.CreateTemp(filepath.Dir(videoPath), "."+filepath.Base(videoPath)+".audio-*"+ext)
	if err != nil {
		return mixReport{}, fmt.Errorf("mux soundtrack %s: %w", s.name, err)
	}
	tmp := tmpf.Name()
	_ = tmpf.Close()
	args := append([]string{"-i", videoPath}, s.input()...)
	args = append(args, "-map", "0:v:0", "-map", "1:a:0", "-c:v", "copy", "-af", filter, "-ar", strconv.Itoa(audioRate))
	args = append(args, codec...)
	args = append(args, "-t", seconds(durationS), "-y", tmp)
	log, err := runFFmpegInfo(ctx, s.ffmpeg, args)
	if err != nil {
		_ = os.Remove(tmp)
		return mixReport{}, fmt.Errorf("mux soundtrack %s: %w", s.name, err)
	}
	rep := mixReport{Measured: m}
	if normalise {
		done, err := parseLoudnorm(log)
		if err != nil {
			_ = os.Remove(tmp)
			return mixReport{}, renderFailed(err, "mux soundtrack %s: %v", s.name, err)
		}
		rep.Normalization = done.Normalization
	}
	if err := os.Rename(tmp, videoPath); err != nil {
		_ = os.Remove(tmp)
		return mixReport{}, fmt.Errorf("mux soundtrack %s: %w", s.name, err)
	}
	return rep, nil
}

// parseLoudnorm finds the JSON block loudnorm prints at the end of a run.
func parseLoudnorm(log string) (loudnormStats, error) {
	var m loudnormStats
	i := strings.LastIndex(log, "\"input_i\"")
	if i < 0 {
		return m, fmt.Errorf("loudnorm printed no measurement")
	}
	start := strings.LastIndex(log[:i], "{")
	end := strings.Index(log[i:], "}")
	if start < 0 || end < 0 {
		return m, fmt.Errorf("loudnorm printed no measurement")
	}
	if err := json.Unmarshal([]byte(log[start:i+end+1]), &m); err != nil {
		return m, fmt.Errorf("loudnorm measurement: %w", err)
	}
	if m.InputI == "" || m.InputTP == "" || m.InputLRA == "" || m.InputThresh == "" || m.TargetOffset == "" {
		return m, fmt.Errorf("loudnorm measurement incomplete: %+v", m)
	}
	return m, nil
}

// integrated is the measured integrated loudness, −Inf for silence.
func (l loudnormStats) integrated() float64 {
	v, err := strconv.ParseFloat(l.InputI, 64)
	if err != nil || math.IsNaN(v) {
		return math.Inf(-1)
	}
	return v
}

// runFFmpegInfo runs ffmpeg like runFFmpeg, logging at info level, where loudnorm
// prints its measurements, and returns the end of what it printed.
func runFFmpegInfo(ctx context.Context, ffmpegPath string, args []string) (string, error) {
	cmd := exec.CommandContext(ctx, ffmpegPath, append([]string{"-hide_banner", "-loglevel", "info", "-nostats", "-nostdin"}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.WaitDelay = 3 * time.Second
	stderr := &tailBuffer{max: 16 << 10}
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 1500 {
			msg = "…" + msg[len(msg)-1500:]
		}
		return "", ffmpegFailed(err, "ffmpeg: %s", msg)
	}
	return stderr.String(), nil
}

// seconds formats a time for ffmpeg's options.
func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 6, 64) }

// num formats a level for a filter's options.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

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
