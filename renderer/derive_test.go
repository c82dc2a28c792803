package renderer_test

import (
	"context"
	"github.com/kodahq/koda/internal/kodatest"
	"image"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/renderer"
)

// derivedPSNR is the least PSNR a derived output must reach against a direct render of
// its preset. The two are not the same pictures: the derived one is drawn at the
// capture's size and scaled down with Lanczos, the direct one drawn at its own size (so
// with its own anti-aliasing and text hinting), and each went through x264 at CRF 18.
// Measured on the 2-core machine (2 s, 1280x720@30 → 640x360@15): canvas fixture
// 40.5 dB, DOM fixture 43.8 dB. A frame off by one or a blocky filter falls well below
// 35 dB on these moving fixtures.
const derivedPSNR = 35

// TestDerivedOutputs captures a page once at 1280x720@30 and encodes it in one pass to
// that size, to 640x360@15 and to 640x360@30, and renders 640x360@15 directly: every
// output has its own size, rate and frame count and a thumbnail of its size, and the
// derived 640x360@15 matches the direct render within derivedPSNR. Canvas pages send
// raw frames, DOM pages JPEG screenshots; both paths are checked.
func TestDerivedOutputs(t *testing.T) {
	r, _ := setup(t, nil)
	capture := koda.PresetSpec{Name: "capture", Width: 1280, Height: 720, FPS: 30, CRF: 18, Format: koda.FormatMP4}
	half := koda.PresetSpec{Name: "half", Width: 640, Height: 360, FPS: 15, CRF: 18, Format: koda.FormatMP4}
	half30 := half
	half30.Name, half30.FPS = "half30", 30
	for _, page := range []string{"canvas", "dom"} {
		t.Run(page, func(t *testing.T) {
			dir := t.TempDir()
			var outs []koda.VideoOutput
			for _, p := range []koda.PresetSpec{capture, half, half30} {
				outs = append(outs, koda.VideoOutput{Preset: p, VideoPath: filepath.Join(dir, p.Name+".mp4"),
					ThumbnailPath: filepath.Join(dir, p.Name+".jpg")})
			}
			res, prog, err := render(t, r, koda.RenderRequest{Dir: fixture(page), Preset: capture, DurationS: 2, Outputs: outs})
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			checkProgress(t, prog, 60)
			if res.Frames != 60 || len(res.Outputs) != 3 {
				t.Fatalf("result %+v, want 60 frames captured and 3 outputs", res)
			}
			for k, want := range []struct {
				w, h, frames int
				rate         string
			}{{1280, 720, 60, "30/1"}, {640, 360, 30, "15/1"}, {640, 360, 60, "30/1"}} {
				o := outs[k]
				s := ffprobe(t, o.VideoPath).Streams[0]
				if s.Width != want.w || s.Height != want.h || s.FrameRate != want.rate || s.NbFrames != strconv.Itoa(want.frames) || s.PixFmt != "yuv420p" {
					t.Errorf("%s: %+v, want %dx%d at %s with %d frames", o.Preset.Name, s, want.w, want.h, want.rate, want.frames)
				}
				if st, err := os.Stat(o.VideoPath); err != nil || st.Size() != res.Outputs[k].SizeBytes || res.Outputs[k].Frames != want.frames {
					t.Errorf("%s: stat %v, result %+v", o.Preset.Name, err, res.Outputs[k])
				}
				f, err := os.Open(o.ThumbnailPath)
				if err != nil {
					t.Fatalf("thumbnail: %v", err)
				}
				cfg, format, err := image.DecodeConfig(f)
				f.Close()
				if err != nil || format != "jpeg" || cfg.Width != want.w || cfg.Height != want.h {
					t.Errorf("%s thumbnail: %s %dx%d %v", o.Preset.Name, format, cfg.Width, cfg.Height, err)
				}
			}
			direct := filepath.Join(dir, "direct.mp4")
			if _, _, err := render(t, r, koda.RenderRequest{Dir: fixture(page), Preset: half, DurationS: 2, VideoPath: direct}); err != nil {
				t.Fatalf("direct render: %v", err)
			}
			db := kodatest.PSNR(t, direct, outs[1].VideoPath)
			t.Logf("%s: derived 640x360@15 against a direct render: PSNR %.1f dB", page, db)
			if db < derivedPSNR {
				t.Errorf("derived 640x360@15 differs from a direct render: PSNR %.1f dB < %d", db, derivedPSNR)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*part*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// TestDerivedChunks: chunks of one capture cut at a frame that is not a multiple of the
// derived output's step still give that output each of its frames once, joined.
func TestDerivedChunks(t *testing.T) {
	r, _ := setup(t, nil)
	dir := t.TempDir()
	capture := koda.PresetSpec{Name: "capture", Width: 640, Height: 360, FPS: 30, CRF: 12, Format: koda.FormatMP4}
	half := capture
	half.Name, half.FPS = "half", 15
	whole := koda.RenderRequest{Dir: fixture("canvas"), Preset: capture, DurationS: 2,
		Outputs: []koda.VideoOutput{{Preset: half, VideoPath: filepath.Join(dir, "whole.mp4")}}}
	if _, _, err := render(t, r, whole); err != nil {
		t.Fatalf("whole: %v", err)
	}
	var parts []string
	for k, rg := range [][2]int{{0, 21}, {21, 60}} { // 21 is odd: the second chunk starts one frame before its first
		req := whole
		req.FrameStart, req.FrameEnd = rg[0], rg[1]
		req.Outputs = []koda.VideoOutput{{Preset: half, VideoPath: filepath.Join(dir, "part"+strconv.Itoa(k)+".mp4")}}
		res, _, err := render(t, r, req)
		if err != nil {
			t.Fatalf("chunk %v: %v", rg, err)
		}
		if want := []int{11, 19}[k]; res.Outputs[0].Frames != want {
			t.Errorf("chunk %v: %d frames of the 15 fps output, want %d", rg, res.Outputs[0].Frames, want)
		}
		parts = append(parts, req.Outputs[0].VideoPath)
	}
	joined := filepath.Join(dir, "joined.mp4")
	if err := renderer.Concat(context.Background(), "", parts, joined); err != nil {
		t.Fatalf("concat: %v", err)
	}
	if s := ffprobe(t, joined).Streams[0]; s.NbFrames != "30" || s.FrameRate != "15/1" {
		t.Errorf("joined: %+v, want 30 frames at 15/1", s)
	}
	if db := kodatest.PSNR(t, whole.Outputs[0].VideoPath, joined); db < 45 {
		t.Errorf("joined chunks differ from the whole derived output: PSNR %.1f dB < 45", db)
	}
}

// TestDerivedRefusesOutputs: an output of another aspect, or of a rate that does not
// divide the capture's, is refused before anything is captured.
func TestDerivedRefusesOutputs(t *testing.T) {
	r, _ := setup(t, nil)
	capture := koda.PresetSpec{Name: "capture", Width: 1280, Height: 720, FPS: 30, CRF: 18, Format: koda.FormatMP4}
	for name, p := range map[string]koda.PresetSpec{
		"aspect": {Name: "tall", Width: 360, Height: 640, FPS: 30, CRF: 18, Format: koda.FormatMP4},
		"rate":   {Name: "odd", Width: 640, Height: 360, FPS: 20, CRF: 18, Format: koda.FormatMP4},
		"larger": {Name: "big", Width: 1920, Height: 1080, FPS: 30, CRF: 18, Format: koda.FormatMP4},
	} {
		_, _, err := render(t, r, koda.RenderRequest{Dir: fixture("canvas"), Preset: capture, DurationS: 1,
			Outputs: []koda.VideoOutput{{Preset: p, VideoPath: filepath.Join(t.TempDir(), "v.mp4")}}})
		if koda.ErrorCode(err) != koda.CodeInvalidRequest {
			t.Errorf("%s: err %v, want %s", name, err, koda.CodeInvalidRequest)
		}
	}
}

// TestDerivedAudio: outputs of one capture each get the soundtrack, trimmed to their own
// length, in their own container (mp4 with AAC, webm with Opus), although the capture
// stops before its last frames, which no output takes.
func TestDerivedAudio(t *testing.T) {
	r, _ := setup(t, nil)
	dir := t.TempDir()
	wav := filepath.Join(dir, "tone.wav")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=4",
		"-y", wav).CombinedOutput(); err != nil {
		t.Fatalf("make tone: %v: %s", err, out)
	}
	capture := koda.PresetSpec{Name: "capture", Width: 640, Height: 360, FPS: 30, CRF: 23, Format: koda.FormatMP4}
	mp4 := koda.PresetSpec{Name: "mp4", Width: 320, Height: 180, FPS: 15, CRF: 23, Format: koda.FormatMP4}
	webm := koda.PresetSpec{Name: "webm", Width: 640, Height: 360, FPS: 15, CRF: 23, Format: koda.FormatWebM}
	outs := []koda.VideoOutput{{Preset: mp4, VideoPath: filepath.Join(dir, "v.mp4")}, {Preset: webm, VideoPath: filepath.Join(dir, "v.webm")}}
	res, _, err := render(t, r, koda.RenderRequest{Dir: fixture("canvas"), Preset: capture, DurationS: 1.2, Outputs: outs, AudioPath: wav})
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	for k, c := range []string{"aac", "opus"} {
		o := outs[k]
		if st, _ := os.Stat(o.VideoPath); st == nil || st.Size() != res.Outputs[k].SizeBytes {
			t.Errorf("%s: result size %d does not match the file", o.Preset.Name, res.Outputs[k].SizeBytes)
		}
		d := streamDurations(t, o.VideoPath)
		a, ok := d["audio:"+c]
		if !ok {
			t.Fatalf("%s: no %s audio stream: %v", o.Preset.Name, c, d)
		}
		if math.Abs(a-1.2) > 0.1 || math.Abs(d["video"]-1.2) > 0.1 {
			t.Errorf("%s: audio %.3fs, video %.3fs, want both 1.2s ±0.1", o.Preset.Name, a, d["video"])
		}
		if n := ffprobe(t, o.VideoPath).Streams[0].NbFrames; n != "18" {
			t.Errorf("%s: %s video frames, want 18", o.Preset.Name, n)
		}
	}
}
