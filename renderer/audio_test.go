package renderer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/renderer"
)

// Soundtracks of very different loudness, shorter and longer than the videos they go
// under: a 440 Hz tone at about −35 LUFS lasting 1.5 s (looped), and white noise at
// about −5 LUFS lasting 8 s (cut).
const (
	quietShortTrack = "sine=frequency=440:sample_rate=44100:duration=1.5,volume=-13dB"
	loudLongTrack   = "anoisesrc=color=white:amplitude=0.75:sample_rate=44100:duration=8:seed=7"
)

// ffmpegRun runs ffmpeg with args and returns what it printed, failing t on error.
func ffmpegRun(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ffmpeg", append([]string{"-hide_banner", "-nostdin", "-nostats"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// makeTrack writes the lavfi audio source src to path.
func makeTrack(t *testing.T, path, src string) string {
	t.Helper()
	ffmpegRun(t, "-v", "error", "-f", "lavfi", "-i", src, "-y", path)
	return path
}

// makeVideo writes a silent test-pattern video of durationS at fps to path (H.264 MP4
// or VP9 WebM by its extension), with a keyframe every second.
func makeVideo(t *testing.T, path string, durationS float64, fps int) string {
	t.Helper()
	codec := []string{"-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"}
	if filepath.Ext(path) == ".webm" {
		codec = []string{"-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"}
	}
	args := []string{"-v", "error", "-f", "lavfi", "-i", fmt.Sprintf("testsrc=size=160x90:rate=%d", fps),
		"-frames:v", strconv.Itoa(int(durationS*float64(fps) + 0.5)), "-g", strconv.Itoa(fps)}
	ffmpegRun(t, append(append(args, codec...), "-y", path)...)
	return path
}

type streamInfo struct {
	CodecType  string  `json:"codec_type"`
	CodecName  string  `json:"codec_name"`
	Channels   int     `json:"channels"`
	SampleRate string  `json:"sample_rate"`
	Duration   float64 `json:"-"`
	Dur        string  `json:"duration"`
}

// probeStreams lists the streams of path with their durations (a WebM stream takes
// its container's, which is all WebM keeps).
func probeStreams(t *testing.T, path string) (video streamInfo, audio []streamInfo) {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-show_entries",
		"stream=codec_type,codec_name,channels,sample_rate,duration:stream_tags=DURATION:format=duration", "-of", "json", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	var p struct {
		Streams []struct {
			streamInfo
			Tags struct {
				Duration string `json:"DURATION"`
			} `json:"tags"`
		} `json:"streams"`
	}
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("ffprobe %s: %s", path, out)
	}
	for _, s := range p.Streams {
		si := s.streamInfo
		if d, err := strconv.ParseFloat(si.Dur, 64); err == nil {
			si.Duration = d
		} else if d, ok := parseClock(s.Tags.Duration); ok {
			si.Duration = d // WebM: Matroska's per-stream DURATION tag
		}
		switch si.CodecType {
		case "video":
			video = si
		case "audio":
			audio = append(audio, si)
		}
	}
	return video, audio
}

// parseClock reads Matroska's "00:00:04.008000000".
func parseClock(s string) (float64, bool) {
	var h, m int
	var sec float64
	if _, err := fmt.Sscanf(s, "%d:%d:%f", &h, &m, &sec); err != nil {
		return 0, false
	}
	return float64(h*3600+m*60) + sec, true
}

var integratedRe = regexp.MustCompile(`(?s)Summary:.*?I:\s+(-?[0-9.]+|-inf) LUFS`)

// integratedLoudness measures path's audio with ffmpeg's ebur128 filter, a meter
// independent of the loudnorm that normalised it.
func integratedLoudness(t *testing.T, path string) float64 {
	t.Helper()
	out := ffmpegRun(t, "-i", path, "-map", "0:a:0", "-af", "ebur128", "-f", "null", "-")
	m := integratedRe.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("ebur128 of %s printed no integrated loudness:\n%s", path, out)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return math.Inf(-1)
	}
	return v
}

var meanVolumeRe = regexp.MustCompile(`mean_volume:\s+(-?[0-9.]+|-inf) dB`)

// meanVolume is the mean level, dBFS, of path's audio between from and to seconds.
func meanVolume(t *testing.T, path string, from, to float64) float64 {
	t.Helper()
	out := ffmpegRun(t, "-i", path, "-map", "0:a:0",
		"-af", fmt.Sprintf("atrim=start=%f:end=%f,volumedetect", from, to), "-f", "null", "-")
	m := meanVolumeRe.FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("volumedetect of %s [%g,%g] printed nothing:\n%s", path, from, to, out)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return math.Inf(-1)
	}
	return v
}

// checkSoundtrack asserts what every video with a soundtrack must show: one audio
// stream as long as the video within two frames, at target ±1 LU, faded in (its first
// 50 ms well below its middle), and still sounding in its last second (a short track
// was looped, not left to end).
func checkSoundtrack(t *testing.T, name, path string, fps int, target float64) {
	t.Helper()
	v, audio := probeStreams(t, path)
	if len(audio) != 1 {
		t.Fatalf("%s: %d audio streams, want 1", name, len(audio))
	}
	a := audio[0]
	frame := 1 / float64(fps)
	if v.Duration == 0 || math.Abs(a.Duration-v.Duration) > 2*frame {
		t.Errorf("%s: audio %.3fs, video %.3fs: want equal within two frames (%.3fs)", name, a.Duration, v.Duration, 2*frame)
	}
	if a.Channels != 2 || a.SampleRate != "48000" {
		t.Errorf("%s: audio %d channels at %s Hz, want stereo at 48000", name, a.Channels, a.SampleRate)
	}
	lufs := integratedLoudness(t, path)
	if math.Abs(lufs-target) > 1 {
		t.Errorf("%s: integrated loudness %.1f LUFS, want %.1f ±1", name, lufs, target)
	}
	d := v.Duration
	head, mid, tail := meanVolume(t, path, 0, 0.05), meanVolume(t, path, d/2-0.25, d/2+0.25), meanVolume(t, path, d-1, d)
	if head > mid-10 {
		t.Errorf("%s: first 50 ms at %.1f dB, middle at %.1f dB: no fade-in", name, head, mid)
	}
	if tail < mid-12 || math.IsInf(tail, -1) {
		t.Errorf("%s: last second at %.1f dB, middle at %.1f dB: the track stopped before the video", name, tail, mid)
	}
	t.Logf("%s: video %.3fs, audio %s %.3fs; %.2f LUFS (target %g); mean volume first 50 ms %.1f dB, middle %.1f dB, last second %.1f dB",
		name, v.Duration, a.CodecName, a.Duration, lufs, target, head, mid, tail)
}

// TestMuxAudioLoudness: a quiet short track and a loud long one, under videos of 4 s
// and 1.2 s, in MP4 and WebM, at the default target and a broadcast one, each come out
// as one stereo stream of the video's length at the target loudness, faded, the short
// track looped to the end.
func TestMuxAudioLoudness(t *testing.T) {
	dir := t.TempDir()
	quiet := makeTrack(t, filepath.Join(dir, "quiet.wav"), quietShortTrack)
	loud := makeTrack(t, filepath.Join(dir, "loud.mp3"), loudLongTrack)
	// The inputs really are far apart.
	qIn, lIn := integratedLoudness(t, quiet), integratedLoudness(t, loud)
	t.Logf("inputs: quiet.wav %.2f LUFS (1.5 s), loud.mp3 %.2f LUFS (8 s)", qIn, lIn)
	if qIn > -32 || lIn < -8 {
		t.Fatalf("test tracks at %.1f and %.1f LUFS, want about −35 and −5", qIn, lIn)
	}
	cases := []struct {
		name      string
		track     string
		video     string
		durationS float64
		fps       int
		target    float64 // 0: the default
	}{
		{"quiet short under 4s mp4", quiet, "a.mp4", 4, 30, 0},
		{"loud long under 4s mp4", loud, "b.mp4", 4, 30, 0},
		{"quiet short under 4s webm", quiet, "c.webm", 4, 30, 0},
		{"loud long under 4s webm at -23", loud, "d.webm", 4, 30, -23},
		{"quiet short under 4s mp4 at -23", quiet, "e.mp4", 4, 60, -23},
		{"loud long under 1.2s mp4", loud, "f.mp4", 1.2, 30, 0},
		{"quiet short under 1.2s mp4", quiet, "g.mp4", 1.2, 30, 0},
	}
	for _, c := range cases {
		video := makeVideo(t, filepath.Join(dir, c.video), c.durationS, c.fps)
		if err := renderer.MuxAudio(context.Background(), "", video, c.track, c.durationS, c.target); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		want := c.target
		if want == 0 {
			want = koda.DefaultLoudnessLUFS
		}
		checkSoundtrack(t, c.name, video, c.fps, want)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestMuxAudioSilenceAndEmpty: a silent track is laid under the video as silence (there
// is no loudness to normalise), and a file that decodes to no sound at all is refused.
func TestMuxAudioSilenceAndEmpty(t *testing.T) {
	dir := t.TempDir()
	silent := makeTrack(t, filepath.Join(dir, "silent.wav"), "anullsrc=sample_rate=44100:channel_layout=stereo:duration=2")
	video := makeVideo(t, filepath.Join(dir, "v.mp4"), 2, 30)
	if err := renderer.MuxAudio(context.Background(), "", video, silent, 2, 0); err != nil {
		t.Fatalf("silent track: %v", err)
	}
	if _, audio := probeStreams(t, video); len(audio) != 1 {
		t.Errorf("silent track: %d audio streams, want 1", len(audio))
	}
	empty := filepath.Join(dir, "empty.wav")
	ffmpegRun(t, "-v", "error", "-f", "lavfi", "-i", "sine", "-t", "0", "-y", empty)
	video2 := makeVideo(t, filepath.Join(dir, "v2.mp4"), 2, 30)
	err := renderer.MuxAudio(context.Background(), "", video2, empty, 2, 0)
	wantCode(t, err, koda.CodeInvalidRequest)
	if _, audio := probeStreams(t, video2); len(audio) != 0 {
		t.Errorf("refused track: the video gained %d audio streams", len(audio))
	}
}

// TestRenderWithoutSoundHasNoAudio: a render without a soundtrack, whole or as outputs
// of one capture, has no audio stream at all (not a silent one).
func TestRenderWithoutSoundHasNoAudio(t *testing.T) {
	r, _ := setup(t, nil)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.mp4")
	if _, _, err := render(t, r, koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 1, VideoPath: whole}); err != nil {
		t.Fatalf("render: %v", err)
	}
	capture := koda.PresetSpec{Name: "capture", Width: 640, Height: 360, FPS: 30, CRF: 23, Format: koda.FormatMP4}
	half := koda.PresetSpec{Name: "half", Width: 320, Height: 180, FPS: 15, CRF: 23, Format: koda.FormatMP4}
	outs := []koda.VideoOutput{{Preset: capture, VideoPath: filepath.Join(dir, "c.mp4")}, {Preset: half, VideoPath: filepath.Join(dir, "h.mp4")}}
	if _, _, err := render(t, r, koda.RenderRequest{Dir: fixture("canvas"), Preset: capture, DurationS: 1, Outputs: outs}); err != nil {
		t.Fatalf("render outputs: %v", err)
	}
	for _, v := range []string{whole, outs[0].VideoPath, outs[1].VideoPath} {
		if _, audio := probeStreams(t, v); len(audio) != 0 {
			t.Errorf("%s: %d audio streams without a soundtrack, want none", filepath.Base(v), len(audio))
		}
	}
}

// TestDerivedAudioLoudness: the outputs of one capture (renderer/derive.go) each get the
// same soundtrack, looped to their own length and normalised to their own preset's
// target: here the default −16 and a custom −23.
func TestDerivedAudioLoudness(t *testing.T) {
	r, _ := setup(t, nil)
	dir := t.TempDir()
	quiet := makeTrack(t, filepath.Join(dir, "quiet.wav"), quietShortTrack)
	capture := koda.PresetSpec{Name: "capture", Width: 640, Height: 360, FPS: 30, CRF: 23, Format: koda.FormatMP4}
	social := koda.PresetSpec{Name: "social", Width: 320, Height: 180, FPS: 15, CRF: 23, Format: koda.FormatMP4}
	broadcast := koda.PresetSpec{Name: "broadcast", Width: 640, Height: 360, FPS: 30, CRF: 23, Format: koda.FormatWebM, LoudnessLUFS: -23}
	outs := []koda.VideoOutput{{Preset: social, VideoPath: filepath.Join(dir, "s.mp4")}, {Preset: broadcast, VideoPath: filepath.Join(dir, "b.webm")}}
	if _, _, err := render(t, r, koda.RenderRequest{Dir: fixture("canvas"), Preset: capture, DurationS: 3, Outputs: outs, AudioPath: quiet}); err != nil {
		t.Fatalf("render: %v", err)
	}
	checkSoundtrack(t, "derived social mp4", outs[0].VideoPath, social.FPS, koda.DefaultLoudnessLUFS)
	checkSoundtrack(t, "derived broadcast webm", outs[1].VideoPath, broadcast.FPS, -23)
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestJoinChunksAudio: a render joined from chunks gets the project's soundtrack once,
// over the whole joined video, at the loudness the join asks for.
func TestJoinChunksAudio(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "project")
	if err := os.MkdirAll(filepath.Join(src, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	makeTrack(t, filepath.Join(src, "assets", "music.mp3"), loudLongTrack)
	parts := []string{makeVideo(t, filepath.Join(dir, "p0.mp4"), 2, 30), makeVideo(t, filepath.Join(dir, "p1.mp4"), 2, 30)}
	video, thumb := filepath.Join(dir, "video.mp4"), filepath.Join(dir, "thumb.jpg")
	j := renderer.Join{Parts: parts, Source: src, Frames: 120, FPS: 30, LoudnessLUFS: -18}
	if err := renderer.JoinChunks(context.Background(), "", j, video, thumb); err != nil {
		t.Fatalf("join: %v", err)
	}
	checkSoundtrack(t, "joined chunks", video, 30, -18)
}
