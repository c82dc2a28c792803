package renderer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/renderer"
)

// small is a quick preset for tests: 640x360 at 15 fps.
var small = koda.PresetSpec{Name: "test", Width: 640, Height: 360, FPS: 15, CRF: 23, Format: koda.FormatMP4}

// setup returns a renderer with short timeouts and a per-test TMPDIR. Every browser and
// encoder the renderer starts inherits TMPDIR, which lets leftoverProcs find them.
func setup(t *testing.T, mod func(*renderer.Config)) (*renderer.Renderer, string) {
	t.Helper()
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cfg := renderer.Config{ReadyTimeout: 20 * time.Second, FrameTimeout: 15 * time.Second}
	if mod != nil {
		mod(&cfg)
	}
	t.Cleanup(func() {
		if procs := leftoverProcs(tmp); len(procs) > 0 {
			t.Errorf("processes left running after the test: %v", procs)
		}
	})
	return renderer.New(cfg), tmp
}

func fixture(name string) string {
	abs, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return abs
}

// leftoverProcs lists live (non-zombie) processes whose environment carries TMPDIR=tmp.
func leftoverProcs(tmp string) []string {
	marker := []byte("TMPDIR=" + tmp + "\x00")
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, marker) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Field 3 of stat, after the parenthesised command name, is the state.
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && len(stat) > i+2 && stat[i+2] == 'Z' {
			continue
		}
		comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
		out = append(out, e.Name()+":"+strings.TrimSpace(string(comm)))
	}
	return out
}

// waitNoLeftovers polls briefly: killed processes take a moment to leave the table.
func waitNoLeftovers(t *testing.T, tmp string) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		procs := leftoverProcs(tmp)
		if len(procs) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of the render still running: %v", procs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

type probeInfo struct {
	Streams []struct {
		CodecName string `json:"codec_name"`
		PixFmt    string `json:"pix_fmt"`
		Width     int    `json:"width"`
		Height    int    `json:"height"`
		FrameRate string `json:"r_frame_rate"`
		NbFrames  string `json:"nb_read_frames"`
	} `json:"streams"`
	Format struct {
		FormatName string `json:"format_name"`
	} `json:"format"`
}

func ffprobe(t *testing.T, path string) probeInfo {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
		"-show_entries", "stream=codec_name,pix_fmt,width,height,r_frame_rate,nb_read_frames:format=format_name",
		"-of", "json", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	var p probeInfo
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("ffprobe output: %v", err)
	}
	if len(p.Streams) != 1 {
		t.Fatalf("ffprobe %s: %d video streams", path, len(p.Streams))
	}
	return p
}

// frameHashes returns the MD5 of every decoded frame (ffmpeg -f framemd5).
func frameHashes(t *testing.T, path string) []string {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-v", "error", "-i", path, "-map", "0:v:0", "-f", "framemd5", "-").Output()
	if err != nil {
		t.Fatalf("framemd5 %s: %v", path, err)
	}
	var hashes []string
	for _, line := range strings.Split(string(out), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, ",")
		hashes = append(hashes, strings.TrimSpace(f[len(f)-1]))
	}
	return hashes
}

// decodeFrame returns frame n of path as raw RGB24.
func decodeFrame(t *testing.T, path string, n int) []byte {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-v", "error", "-i", path, "-vf", "select=eq(n\\,"+strconv.Itoa(n)+")",
		"-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-").Output()
	if err != nil || len(out) == 0 {
		t.Fatalf("decode frame %d of %s: %v", n, path, err)
	}
	return out
}

func render(t *testing.T, r *renderer.Renderer, req koda.RenderRequest) (*koda.RenderResult, []koda.RenderProgress, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var mu sync.Mutex
	var prog []koda.RenderProgress
	res, err := r.Render(ctx, req, func(p koda.RenderProgress) {
		mu.Lock()
		prog = append(prog, p)
		mu.Unlock()
	})
	return res, prog, err
}

func TestRenderCanvasMP4(t *testing.T) {
	r, _ := setup(t, nil)
	out := t.TempDir()
	req := koda.RenderRequest{
		Dir: fixture("canvas"), Preset: small, DurationS: 2,
		VideoPath: filepath.Join(out, "v.mp4"), ThumbnailPath: filepath.Join(out, "thumb.jpg"),
	}
	res, prog, err := render(t, r, req)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	if res.Frames != 30 {
		t.Errorf("result frames = %d, want 30", res.Frames)
	}
	if st, err := os.Stat(req.VideoPath); err != nil || st.Size() != res.SizeBytes {
		t.Errorf("video size: stat %v, result %d", err, res.SizeBytes)
	}

	p := ffprobe(t, req.VideoPath)
	s := p.Streams[0]
	if s.CodecName != "h264" || s.PixFmt != "yuv420p" || s.Width != 640 || s.Height != 360 || s.FrameRate != "15/1" || s.NbFrames != "30" {
		t.Errorf("ffprobe = %+v, want h264 yuv420p 640x360 15/1 with 30 frames", s)
	}
	if !strings.Contains(p.Format.FormatName, "mp4") {
		t.Errorf("container %q, want mp4", p.Format.FormatName)
	}
	// +faststart puts the moov atom before mdat.
	head := make([]byte, 64<<10)
	f, _ := os.Open(req.VideoPath)
	n, _ := f.Read(head)
	f.Close()
	if moov, mdat := bytes.Index(head[:n], []byte("moov")), bytes.Index(head[:n], []byte("mdat")); moov < 0 || (mdat >= 0 && moov > mdat) {
		t.Errorf("moov atom not before mdat (moov at %d, mdat at %d): +faststart missing", moov, mdat)
	}

	if bytes.Equal(decodeFrame(t, req.VideoPath, 0), decodeFrame(t, req.VideoPath, 15)) {
		t.Error("first and middle frames are identical; the animation did not move")
	}

	tf, err := os.Open(req.ThumbnailPath)
	if err != nil {
		t.Fatalf("thumbnail: %v", err)
	}
	defer tf.Close()
	cfg, format, err := image.DecodeConfig(tf)
	if err != nil || format != "jpeg" || cfg.Width != 640 || cfg.Height != 360 {
		t.Errorf("thumbnail: %s %dx%d, err %v; want jpeg 640x360", format, cfg.Width, cfg.Height, err)
	}

	checkProgress(t, prog, 30)
	if left, _ := filepath.Glob(filepath.Join(out, ".*part*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func checkProgress(t *testing.T, prog []koda.RenderProgress, frames int) {
	t.Helper()
	if len(prog) < 3 {
		t.Fatalf("only %d progress reports", len(prog))
	}
	order := map[string]int{koda.StagePreparing: 0, koda.StageCapturing: 1, koda.StageEncoding: 2, koda.StageDone: 3}
	seen := map[string]bool{}
	for i, p := range prog {
		seen[p.Stage] = true
		if p.FramesTotal != frames {
			t.Errorf("report %d: frames_total %d, want %d", i, p.FramesTotal, frames)
		}
		if i > 0 {
			q := prog[i-1]
			if p.Percent < q.Percent || order[p.Stage] < order[q.Stage] || p.FramesDone < q.FramesDone {
				t.Errorf("progress went backwards: %+v after %+v", p, q)
			}
		}
	}
	for _, st := range []string{koda.StagePreparing, koda.StageCapturing, koda.StageEncoding, koda.StageDone} {
		if !seen[st] {
			t.Errorf("stage %s never reported", st)
		}
	}
	last := prog[len(prog)-1]
	if last.Stage != koda.StageDone || last.Percent != 100 || last.FramesDone != frames {
		t.Errorf("last report %+v, want done 100%% %d frames", last, frames)
	}
}

func TestRenderWebM(t *testing.T) {
	r, _ := setup(t, nil)
	preset := small
	preset.Format = koda.FormatWebM
	req := koda.RenderRequest{Dir: fixture("dom"), Preset: preset, DurationS: 1, VideoPath: filepath.Join(t.TempDir(), "v.webm")}
	if _, _, err := render(t, r, req); err != nil {
		t.Fatalf("render: %v", err)
	}
	p := ffprobe(t, req.VideoPath)
	if s := p.Streams[0]; s.CodecName != "vp9" || s.Width != 640 || s.Height != 360 || s.NbFrames != "15" {
		t.Errorf("ffprobe = %+v, want vp9 640x360 with 15 frames", s)
	}
	if !strings.Contains(p.Format.FormatName, "webm") {
		t.Errorf("container %q, want webm", p.Format.FormatName)
	}
}

// TestRenderDeterministic: two renders of the same page give the same frames, through
// screenshots (dom) and through the hidden canvas whose pixels are posted raw (canvas).
func TestRenderDeterministic(t *testing.T) {
	r, _ := setup(t, nil)
	for _, page := range []string{"dom", "canvas"} {
		dir := t.TempDir()
		var hashes [2][]string
		for k := range hashes {
			req := koda.RenderRequest{Dir: fixture(page), Preset: small, DurationS: 1.6, VideoPath: filepath.Join(dir, strconv.Itoa(k)+".mp4")}
			if _, _, err := render(t, r, req); err != nil {
				t.Fatalf("%s: render %d: %v", page, k, err)
			}
			hashes[k] = frameHashes(t, req.VideoPath)
		}
		if len(hashes[0]) != 24 {
			t.Fatalf("%s: %d frames, want 24", page, len(hashes[0]))
		}
		for i := range hashes[0] {
			if hashes[0][i] != hashes[1][i] {
				t.Errorf("%s: frame %d differs between two renders: %s vs %s", page, i, hashes[0][i], hashes[1][i])
			}
		}
	}
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	var ke *koda.Error
	if !errors.As(err, &ke) || ke.Code != code {
		t.Fatalf("error = %v, want *koda.Error with code %s", err, code)
	}
}

func TestRenderFailures(t *testing.T) {
	cases := []struct {
		name, page string
		code       string
	}{
		{"seek throws", "throws", koda.CodeRenderFailed},
		{"never ready", "never", koda.CodeTimeout},
		{"seek hangs", "hang", koda.CodeTimeout},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, tmp := setup(t, func(c *renderer.Config) {
				c.ReadyTimeout = 2 * time.Second
				c.FrameTimeout = 2 * time.Second
				c.Browsers = 1
			})
			out := t.TempDir()
			req := koda.RenderRequest{Dir: fixture(tc.page), Preset: small, DurationS: 2,
				VideoPath: filepath.Join(out, "v.mp4"), ThumbnailPath: filepath.Join(out, "t.jpg")}
			began := time.Now()
			_, _, err := render(t, r, req)
			wantCode(t, err, tc.code)
			if d := time.Since(began); d > 20*time.Second {
				t.Errorf("failure took %s; want it bounded by the timeouts", d)
			}
			waitNoLeftovers(t, tmp)
			if ents, _ := os.ReadDir(out); len(ents) > 0 {
				t.Errorf("files left in the output folder after a failure: %v", ents)
			}
		})
	}
}

func TestRenderCancel(t *testing.T) {
	r, tmp := setup(t, nil)
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req := koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 60, VideoPath: filepath.Join(out, "v.mp4")}
	var once sync.Once
	_, err := r.Render(ctx, req, func(p koda.RenderProgress) {
		if p.FramesDone >= 20 {
			once.Do(cancel)
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	waitNoLeftovers(t, tmp)
	if ents, _ := os.ReadDir(out); len(ents) > 0 {
		t.Errorf("files left after cancel: %v", ents)
	}
}

func TestRenderRejectsBadRequests(t *testing.T) {
	r := renderer.New(renderer.Config{})
	out := filepath.Join(t.TempDir(), "v.mp4")
	odd := small
	odd.Width = 641
	huge := small
	huge.Width, huge.Height = 7680, 4320
	for name, req := range map[string]koda.RenderRequest{
		"odd width":   {Dir: fixture("canvas"), Preset: odd, DurationS: 1, VideoPath: out},
		"8k":          {Dir: fixture("canvas"), Preset: huge, DurationS: 1, VideoPath: out},
		"no duration": {Dir: fixture("canvas"), Preset: small, VideoPath: out},
		"bad range":   {Dir: fixture("canvas"), Preset: small, DurationS: 1, FrameStart: 10, FrameEnd: 40, VideoPath: out},
	} {
		_, err := r.Render(context.Background(), req, nil)
		if koda.ErrorKind(err) != koda.EINVALID {
			t.Errorf("%s: error %v, want an EINVALID *koda.Error", name, err)
		}
	}
}

// boxX finds the left edge of the red box on row y of an RGB24 frame of width w.
func boxX(frame []byte, w, y int) int {
	for x := 0; x < w; x++ {
		p := frame[(y*w+x)*3:]
		if p[0] > 180 && p[1] < 90 && p[2] < 90 {
			return x
		}
	}
	return -1
}

// TestVirtualClock renders pages without export hooks, whose busy timers would make a
// real clock drift, and checks the box sits where the frame time puts it: the rAF
// timestamp, CSS animations, and Web Animations started by setTimeout all follow t.
func TestVirtualClock(t *testing.T) {
	preset := koda.PresetSpec{Name: "test", Width: 640, Height: 360, FPS: 10, CRF: 18, Format: koda.FormatMP4}
	cases := []struct {
		page string
		x    func(t float64) float64
	}{
		{"clock_raf", func(t float64) float64 { return 100 + 200*t }},
		{"clock_css", func(t float64) float64 { return 100 + 200*t }},
		{"clock_waapi", func(t float64) float64 { return 100 + 200*max(0, t-0.5) }},
	}
	for _, tc := range cases {
		t.Run(tc.page, func(t *testing.T) {
			// Restarting the tab every 7 frames makes each new tab replay the clock from
			// zero to its frame, which must land on the same picture.
			r, _ := setup(t, func(c *renderer.Config) { c.TabFrames = 7 })
			req := koda.RenderRequest{Dir: fixture(tc.page), Preset: preset, DurationS: 2, VideoPath: filepath.Join(t.TempDir(), "v.mp4")}
			if _, _, err := render(t, r, req); err != nil {
				t.Fatalf("render: %v", err)
			}
			for _, i := range []int{0, 3, 5, 10, 15, 19} {
				ts := float64(i) / 10
				got := boxX(decodeFrame(t, req.VideoPath, i), 640, 180)
				if want := tc.x(ts); math.Abs(float64(got)-want) > 2 {
					t.Errorf("frame %d (t=%.1fs): box at x=%d, want %.0f", i, ts, got, want)
				}
			}
		})
	}
}

// TestChunksConcat renders a video whole and in two frame-range chunks joined by
// Concat without re-encoding: same frame count, no duplicated or missing frame at the
// seams, and the same pictures.
func TestChunksConcat(t *testing.T) {
	r, _ := setup(t, nil)
	dir := t.TempDir()
	preset := small
	preset.CRF = 12 // two encodes of the same frames agree closely at high quality
	whole := koda.RenderRequest{Dir: fixture("canvas"), Preset: preset, DurationS: 2, VideoPath: filepath.Join(dir, "whole.mp4")}
	if _, _, err := render(t, r, whole); err != nil {
		t.Fatalf("whole: %v", err)
	}
	var parts []string
	for k, rg := range [][2]int{{0, 11}, {11, 30}} {
		req := whole
		req.FrameStart, req.FrameEnd = rg[0], rg[1]
		req.VideoPath = filepath.Join(dir, "part"+strconv.Itoa(k)+".mp4")
		res, _, err := render(t, r, req)
		if err != nil {
			t.Fatalf("chunk %v: %v", rg, err)
		}
		if res.Frames != rg[1]-rg[0] {
			t.Errorf("chunk %v: %d frames", rg, res.Frames)
		}
		parts = append(parts, req.VideoPath)
	}
	joined := filepath.Join(dir, "joined.mp4")
	if err := renderer.Concat(context.Background(), "", parts, joined); err != nil {
		t.Fatalf("concat: %v", err)
	}
	if s := ffprobe(t, joined).Streams[0]; s.CodecName != "h264" || s.NbFrames != "30" || s.FrameRate != "15/1" {
		t.Errorf("joined: %+v, want h264 with 30 frames at 15/1", s)
	}
	if db := kodatest.PSNR(t, whole.VideoPath, joined); db < 45 {
		t.Errorf("joined differs from the whole render: PSNR %.1f dB < 45", db)
	}
	// A shifted seam (a duplicated or dropped frame) shows as a big drop in PSNR right
	// there: compare the frames around each seam one by one.
	for _, i := range []int{10, 11} {
		w := decodeFrame(t, whole.VideoPath, i)
		if d := meanDiff(w, decodeFrame(t, joined, i)); d > 0.5 {
			t.Errorf("frame %d differs between whole and joined (mean diff %.2f)", i, d)
		}
		// The check can see a one-frame shift: neighbours differ far more.
		if d := meanDiff(w, decodeFrame(t, whole.VideoPath, i+1)); d < 1 {
			t.Fatalf("frames %d and %d too alike (mean diff %.2f) to check the seam", i, i+1, d)
		}
	}
}

// meanDiff is the mean absolute difference of two RGB frames, on a 0..255 scale.
func meanDiff(a, b []byte) float64 {
	if len(a) != len(b) {
		return 255
	}
	var sum float64
	for i := range a {
		sum += math.Abs(float64(a[i]) - float64(b[i]))
	}
	return sum / float64(len(a))
}

// TestBrowserCrashRetried kills a browser in the middle of a render; the renderer
// replaces it and the video is still complete.
func TestBrowserCrashRetried(t *testing.T) {
	r, tmp := setup(t, func(c *renderer.Config) { c.Browsers = 1 })
	req := koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 3, VideoPath: filepath.Join(t.TempDir(), "v.mp4")}
	var once sync.Once
	killed := false
	res, _, err := func() (*koda.RenderResult, []koda.RenderProgress, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		res, err := r.Render(ctx, req, func(p koda.RenderProgress) {
			if p.FramesDone >= 10 {
				once.Do(func() { killed = killBrowser(tmp) })
			}
		})
		return res, nil, err
	}()
	if !killed {
		t.Fatal("found no browser to kill")
	}
	if err != nil {
		t.Fatalf("render after a browser crash: %v", err)
	}
	if s := ffprobe(t, req.VideoPath).Streams[0]; s.NbFrames != "45" || res.Frames != 45 {
		t.Errorf("%s frames after a crash, want 45", s.NbFrames)
	}
}

// killBrowser SIGKILLs the main browser process of the test's render: the chromium
// process whose parent is this test process.
func killBrowser(tmp string) bool {
	for _, p := range leftoverProcs(tmp) {
		pid, _ := strconv.Atoi(strings.SplitN(p, ":", 2)[0])
		st, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil || !strings.Contains(p, "chromium") {
			continue
		}
		f := strings.Fields(string(st[bytes.LastIndexByte(st, ')')+2:]))
		if ppid, _ := strconv.Atoi(f[1]); ppid == os.Getpid() {
			return syscall.Kill(pid, syscall.SIGKILL) == nil
		}
	}
	return false
}

// streamDurations returns the duration in seconds of each stream of path by codec type.
func streamDurations(t *testing.T, path string) map[string]float64 {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-show_entries", "stream=codec_type,codec_name,duration:format=duration",
		"-of", "json", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	var p struct {
		Streams []struct {
			CodecType string `json:"codec_type"`
			CodecName string `json:"codec_name"`
			Dur       string `json:"duration"`
		} `json:"streams"`
		Format struct {
			Duration string `json:"duration"`
		} `json:"format"`
	}
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatalf("ffprobe %s: %s", path, out)
	}
	d := map[string]float64{}
	for _, s := range p.Streams {
		v, err := strconv.ParseFloat(s.Dur, 64)
		if err != nil { // WebM keeps durations on the container only
			v, _ = strconv.ParseFloat(p.Format.Duration, 64)
		}
		d[s.CodecType] = v
		d[s.CodecType+":"+s.CodecName] = v
	}
	return d
}

// TestRenderAudio muxes a generated tone longer than the video: AAC in MP4, Opus in
// WebM, cut to the video's length.
func TestRenderAudio(t *testing.T) {
	r, _ := setup(t, nil)
	dir := t.TempDir()
	wav := filepath.Join(dir, "tone.wav")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=4",
		"-y", wav).CombinedOutput(); err != nil {
		t.Fatalf("make tone: %v: %s", err, out)
	}
	for _, c := range []struct{ format, codec string }{{koda.FormatMP4, "aac"}, {koda.FormatWebM, "opus"}} {
		preset := small
		preset.Format = c.format
		req := koda.RenderRequest{Dir: fixture("canvas"), Preset: preset, DurationS: 1.2,
			VideoPath: filepath.Join(dir, "v."+c.format), AudioPath: wav}
		res, _, err := render(t, r, req)
		if err != nil {
			t.Fatalf("%s: render: %v", c.format, err)
		}
		if st, _ := os.Stat(req.VideoPath); st == nil || st.Size() != res.SizeBytes {
			t.Errorf("%s: result size %d does not match the file", c.format, res.SizeBytes)
		}
		d := streamDurations(t, req.VideoPath)
		a, ok := d["audio:"+c.codec]
		if !ok {
			t.Fatalf("%s: no %s audio stream: %v", c.format, c.codec, d)
		}
		if math.Abs(a-1.2) > 0.1 || math.Abs(d["video"]-1.2) > 0.1 {
			t.Errorf("%s: audio %.3fs, video %.3fs, want both 1.2s ±0.1", c.format, a, d["video"])
		}
		if n := ffprobe(t, req.VideoPath).Streams[0].NbFrames; n != "18" {
			t.Errorf("%s: %s video frames, want 18", c.format, n)
		}
	}
	// A missing audio file is refused before anything starts.
	_, _, err := render(t, r, koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 1,
		VideoPath: filepath.Join(dir, "x.mp4"), AudioPath: filepath.Join(dir, "missing.wav")})
	wantCode(t, err, koda.CodeInvalidRequest)
}

// TestRenderWebGL renders a spinning WebGL triangle (software GL in headless Chromium)
// without export hooks: the triangle is drawn, and it turns between frames.
func TestRenderWebGL(t *testing.T) {
	r, _ := setup(t, nil)
	preset := small
	preset.Width, preset.Height = 320, 240
	req := koda.RenderRequest{Dir: fixture("webgl"), Preset: preset, DurationS: 1, VideoPath: filepath.Join(t.TempDir(), "gl.mp4")}
	if _, _, err := render(t, r, req); err != nil {
		t.Fatalf("render: %v", err)
	}
	if n := ffprobe(t, req.VideoPath).Streams[0].NbFrames; n != "15" {
		t.Fatalf("%s frames, want 15", n)
	}
	orange := func(f []byte) int { // pixels of the triangle's colour (255, 153, 26)
		n := 0
		for i := 0; i+2 < len(f); i += 3 {
			if f[i] > 200 && f[i+1] > 110 && f[i+1] < 190 && f[i+2] < 80 {
				n++
			}
		}
		return n
	}
	first, later := decodeFrame(t, req.VideoPath, 0), decodeFrame(t, req.VideoPath, 5)
	// The triangle covers about a fifth of the frame; a blank or failed context has none.
	for k, f := range [][]byte{first, later} {
		if px := orange(f); px < 320*240/10 {
			t.Errorf("frame %d: %d triangle pixels, want a drawn triangle", k*5, px)
		}
	}
	// A third of a second at 90°/s turns the triangle by 30°.
	if d := meanDiff(first, later); d < 2 {
		t.Errorf("frames 0 and 5 alike (mean diff %.2f): the triangle does not spin", d)
	}
}

// TestCanvasCapturePaths renders the canvas page three ways and checks each took the
// path it should and that all show the same pictures: raw pixels over the frame socket
// (a folder the renderer serves), a JPEG from the canvas (a URL: no frame socket), and
// screenshots (canvas capture off).
func TestCanvasCapturePaths(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir(fixture("canvas"))))
	defer srv.Close()
	dir := t.TempDir()
	cases := []struct {
		name, want string
		req        koda.RenderRequest
		mod        func(*renderer.Config)
	}{
		{"raw", "canvas=true raw=true", koda.RenderRequest{Dir: fixture("canvas")}, nil},
		{"jpeg", "canvas=true raw=false", koda.RenderRequest{URL: srv.URL + "/index.html"}, nil},
		{"screenshot", "", koda.RenderRequest{Dir: fixture("canvas")}, func(c *renderer.Config) { c.DisableCanvasCapture = true }},
	}
	videos := map[string]string{}
	for _, c := range cases {
		var logs kodatest.SyncBuffer
		r, _ := setup(t, func(cfg *renderer.Config) {
			cfg.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			if c.mod != nil {
				c.mod(cfg)
			}
		})
		req := c.req
		req.Preset, req.DurationS = small, 2
		req.VideoPath = filepath.Join(dir, c.name+".mp4")
		if _, _, err := render(t, r, req); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		probe := ""
		for _, line := range strings.Split(logs.String(), "\n") {
			if strings.Contains(line, `msg="canvas capture probe"`) {
				probe = line
			}
		}
		if c.want == "" && probe != "" || c.want != "" && !strings.Contains(probe, c.want) {
			t.Errorf("%s: probe said %q, want %q", c.name, probe, c.want)
		}
		if s := ffprobe(t, req.VideoPath).Streams[0]; s.NbFrames != "30" || s.PixFmt != "yuv420p" {
			t.Errorf("%s: %+v, want 30 yuv420p frames", c.name, s)
		}
		videos[c.name] = req.VideoPath
	}
	for _, name := range []string{"raw", "jpeg"} {
		db := kodatest.PSNR(t, videos["screenshot"], videos[name])
		t.Logf("%s against screenshots: PSNR %.1f dB", name, db)
		if db < 35 {
			t.Errorf("%s frames differ from screenshots: PSNR %.1f dB, want ≥ 35", name, db)
		}
	}
}

// TestMixedCapturePaths renders a page that passes the canvas check on its first load
// only: after the tab restart the frames come as screenshots while the encoder reads
// raw pixels. They are converted, and the video matches the plain canvas page.
func TestMixedCapturePaths(t *testing.T) {
	dir := t.TempDir()
	r, _ := setup(t, func(c *renderer.Config) { c.Browsers, c.TabFrames = 1, 10 })
	mixed := koda.RenderRequest{Dir: fixture("changing"), Preset: small, DurationS: 2, VideoPath: filepath.Join(dir, "mixed.mp4")}
	if _, _, err := render(t, r, mixed); err != nil {
		t.Fatalf("render: %v", err)
	}
	plain := koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 2, VideoPath: filepath.Join(dir, "plain.mp4")}
	if _, _, err := render(t, r, plain); err != nil {
		t.Fatalf("render: %v", err)
	}
	if s := ffprobe(t, mixed.VideoPath).Streams[0]; s.NbFrames != "30" {
		t.Fatalf("%s frames, want 30", s.NbFrames)
	}
	for _, n := range []int{5, 25} { // before and after the restart
		if d := meanDiff(decodeFrame(t, mixed.VideoPath, n), decodeFrame(t, plain.VideoPath, n)); d > 2 {
			t.Errorf("frame %d differs from the plain page's by %.2f per byte", n, d)
		}
	}
}

// TestEncoderSpeed: a preset's encoder_speed is the x264 preset the video was encoded
// with, which x264 records in the stream (ultrafast turns off CABAC and subpixel search).
func TestEncoderSpeed(t *testing.T) {
	r, _ := setup(t, nil)
	dir := t.TempDir()
	for speed, want := range map[string]string{"": "subme=2", "ultrafast": "subme=0", "medium": "subme=7"} {
		preset := small
		preset.EncoderSpeed = speed
		req := koda.RenderRequest{Dir: fixture("canvas"), Preset: preset, DurationS: 0.4, VideoPath: filepath.Join(dir, "v"+speed+".mp4")}
		if _, _, err := render(t, r, req); err != nil {
			t.Fatalf("render at %q: %v", speed, err)
		}
		b, err := os.ReadFile(req.VideoPath)
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(b, []byte("x264 - core"))
		if i < 0 {
			t.Fatalf("speed %q: no x264 settings in the stream", speed)
		}
		opts := string(b[i:min(len(b), i+2000)])
		if !strings.Contains(opts, " "+want+" ") {
			t.Errorf("speed %q: x264 settings lack %q: %.300s", speed, want, opts)
		}
	}
}

// TestAudioRefusesPlaylists: a tenant's "audio" that is a playlist, a concat list or
// another format than its name says is refused before ffmpeg opens it, and a host file
// a playlist names never reaches the video.
func TestAudioRefusesPlaylists(t *testing.T) {
	r, _ := setup(t, nil)
	dir := t.TempDir()
	host := filepath.Join(t.TempDir(), "host.wav")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-y", host).CombinedOutput(); err != nil {
		t.Fatalf("make host audio: %v: %s", err, out)
	}
	hostMP3 := filepath.Join(filepath.Dir(host), "host.mp3")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-i", host, "-y", hostMP3).CombinedOutput(); err != nil {
		t.Fatalf("make host mp3: %v: %s", err, out)
	}
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := map[string]string{
		"hls.mp3":     "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:2,\nfile:" + hostMP3 + "\n#EXT-X-ENDLIST\n",
		"m3u.wav":     "#EXTM3U\n" + host + "\n",
		"concat.ogg":  "ffconcat version 1.0\nfile '" + host + "'\n",
		"sdp.flac":    "v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=audio 5004 RTP/AVP 0\n",
		"ffmeta.aac":  ";FFMETADATA1\n",
		"wav-as.mp3":  "RIFF\x24\x00\x00\x00WAVEfmt ",
		"text.m4a":    "file:" + host,
		"pls.opus":    "[playlist]\nFile1=" + host + "\n",
		"noext-audio": "RIFF\x24\x00\x00\x00WAVE",
	}
	for name, body := range cases {
		p := write(name, body)
		out := filepath.Join(dir, name+".mp4")
		_, _, err := render(t, r, koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 1, VideoPath: out, AudioPath: p})
		wantCode(t, err, koda.CodeInvalidRequest)
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: a video was written", name)
		}
	}
	// A symlink to a real audio file on the host is not followed either.
	link := filepath.Join(dir, "link.wav")
	if err := os.Symlink(host, link); err != nil {
		t.Fatal(err)
	}
	_, _, err := render(t, r, koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 1, VideoPath: filepath.Join(dir, "l.mp4"), AudioPath: link})
	wantCode(t, err, koda.CodeInvalidRequest)

	// The policy reaches ffmpeg too, past the sniff: an MP3 frame sync followed by a
	// playlist is opened as MP3 only, so the host file it names is not read.
	video := filepath.Join(dir, "v.mp4")
	if _, _, err := render(t, r, koda.RenderRequest{Dir: fixture("canvas"), Preset: small, DurationS: 1, VideoPath: video}); err != nil {
		t.Fatal(err)
	}
	sneaky := write("sneaky.mp3", "\xff\xfb#EXTM3U\n"+hostMP3+"\n")
	err = renderer.MuxAudio(context.Background(), "", video, sneaky, 1, 0)
	if err == nil {
		if d := streamDurations(t, video); d["audio"] > 0.5 {
			t.Errorf("the host file named in a playlist was muxed: %v", d)
		}
	}
}

// TestBeginFrameMatchesScreenshots renders each DOM test page twice: with frames begun
// by the renderer (HeadlessExperimental.beginFrame, which this Chromium supports) and
// with Page.captureScreenshot from a browser that draws on its own. The videos match:
// identical frames or PSNR ≥ 45 dB.
func TestBeginFrameMatchesScreenshots(t *testing.T) {
	dir := t.TempDir()
	for _, page := range []string{"dom", "clock_css", "clock_raf", "clock_waapi", "canvas", "webgl"} {
		videos := map[bool]string{}
		for _, bf := range []bool{true, false} {
			var logs kodatest.SyncBuffer
			r, _ := setup(t, func(c *renderer.Config) {
				c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
				c.DisableBeginFrame = !bf
				c.DisableCanvasCapture = true // the canvas page as a screenshot too
			})
			req := koda.RenderRequest{Dir: fixture(page), Preset: small, DurationS: 2,
				VideoPath: filepath.Join(dir, fmt.Sprintf("%s-%v.mp4", page, bf))}
			if _, _, err := render(t, r, req); err != nil {
				t.Fatalf("%s (begin frame %v): %v; log:\n%s", page, bf, err, logs.String())
			}
			used := strings.Contains(logs.String(), "begin_frame=true")
			if used != bf {
				t.Fatalf("%s: begin-frame browser used %v, want %v; log:\n%s", page, used, bf, logs.String())
			}
			if s := ffprobe(t, req.VideoPath).Streams[0]; s.NbFrames != "30" {
				t.Fatalf("%s (begin frame %v): %s frames, want 30", page, bf, s.NbFrames)
			}
			videos[bf] = req.VideoPath
		}
		if slices.Equal(frameHashes(t, videos[true]), frameHashes(t, videos[false])) {
			t.Logf("%s: frames identical", page)
		} else if db := kodatest.PSNR(t, videos[false], videos[true]); db < 45 {
			t.Errorf("%s: begin-frame video differs from screenshots: PSNR %.1f dB < 45", page, db)
		} else {
			t.Logf("%s: PSNR %.1f dB", page, db)
		}
	}
}

// TestBeginFrameFallback stands for a Chromium build without HeadlessExperimental: the
// probe fails, the browser is started again without begin-frame control and the frames
// come from Page.captureScreenshot. The verdict is found once per Renderer, and the
// videos match those of begin-frame capture: identical frames or PSNR ≥ 45 dB.
func TestBeginFrameFallback(t *testing.T) {
	dir := t.TempDir()
	for _, page := range []string{"dom", "clock_raf"} {
		videos := map[bool]string{}
		for _, bf := range []bool{true, false} {
			var logs kodatest.SyncBuffer
			r, _ := setup(t, func(c *renderer.Config) {
				c.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			})
			if !bf {
				renderer.WithoutBeginFrame(r)
			}
			// Two renders: the second one uses the first one's verdict.
			for k := range 2 {
				req := koda.RenderRequest{Dir: fixture(page), Preset: small, DurationS: 2,
					VideoPath: filepath.Join(dir, fmt.Sprintf("%s-%v-%d.mp4", page, bf, k))}
				if _, _, err := render(t, r, req); err != nil {
					t.Fatalf("%s (begin frame %v, render %d): %v; log:\n%s", page, bf, k, err, logs.String())
				}
				if s := ffprobe(t, req.VideoPath).Streams[0]; s.NbFrames != "30" {
					t.Fatalf("%s (begin frame %v): %s frames, want 30", page, bf, s.NbFrames)
				}
				videos[bf] = req.VideoPath
			}
			log := logs.String()
			if n := strings.Count(log, "begin-frame control probe"); n != 1 {
				t.Errorf("%s (begin frame %v): %d probes over two renders, want 1; log:\n%s", page, bf, n, log)
			}
			if got := strings.Contains(log, "supported=true"); got != bf {
				t.Errorf("%s: probe said supported=%v, want %v; log:\n%s", page, got, bf, log)
			}
			if !bf && (strings.Contains(log, "begin_frame=true") || !strings.Contains(log, "begin_frame=false")) {
				t.Errorf("%s: a browser under begin-frame control captured after the probe failed; log:\n%s", page, log)
			}
		}
		if slices.Equal(frameHashes(t, videos[true]), frameHashes(t, videos[false])) {
			t.Logf("%s: frames identical", page)
		} else if db := kodatest.PSNR(t, videos[true], videos[false]); db < 45 {
			t.Errorf("%s: fallback video differs from begin-frame capture: PSNR %.1f dB < 45", page, db)
		} else {
			t.Logf("%s: PSNR %.1f dB", page, db)
		}
	}
}

// TestScriptsHaveFonts renders Chinese, Japanese, Korean and colour emoji beside code
// points no font has: a user's "新年快乐" or "🎉" must come out as glyphs, not as the boxes
// a machine without CJK or emoji fonts draws (install-deps.sh installs them).
func TestScriptsHaveFonts(t *testing.T) {
	r, _ := setup(t, nil)
	const w, h, cell = 640, 360, 100 // six 100-pixel cells a row, four rows
	preset := small
	preset.Width, preset.Height = w, h
	req := koda.RenderRequest{Dir: fixture("scripts"), Preset: preset, DurationS: 0.2, VideoPath: filepath.Join(t.TempDir(), "s.mp4")}
	if _, _, err := render(t, r, req); err != nil {
		t.Fatalf("render: %v", err)
	}
	f := decodeFrame(t, req.VideoPath, 0)
	// cells returns the six character cells of row k, each as its RGB24 pixels.
	cells := func(k int) [][]byte {
		out := make([][]byte, 6)
		for y := k * h / 4; y < (k+1)*h/4; y++ {
			for c := range out {
				o := (y*w + c*cell) * 3
				out[c] = append(out[c], f[o:o+cell*3]...)
			}
		}
		return out
	}
	// distinct counts the cells unlike every earlier one: six different glyphs give six,
	// the same missing-glyph box six times gives one.
	distinct := func(cs [][]byte) int {
		n := 0
		for i := range cs {
			if !slices.ContainsFunc(cs[:i], func(b []byte) bool { return meanDiff(b, cs[i]) < 1 }) {
				n++
			}
		}
		return n
	}
	inked := func(cs [][]byte) bool {
		for _, c := range cs {
			for i := 0; i+2 < len(c); i += 3 {
				if int(c[i])+int(c[i+1])+int(c[i+2]) < 3*128 {
					return true
				}
			}
		}
		return false
	}
	if tofu := cells(3); !inked(tofu) || distinct(tofu) != 1 {
		t.Fatalf("the missing-glyph row: inked %v, %d distinct cells; want six alike boxes, or the test cannot tell tofu from text",
			inked(tofu), distinct(tofu))
	}
	for k, name := range []string{"Chinese", "Japanese and Korean", "emoji"} {
		if cs := cells(k); !inked(cs) || distinct(cs) < 5 {
			t.Errorf("%s drew as missing-glyph boxes (%d distinct cells of 6): no font for it on this machine", name, distinct(cs))
		}
	}
	colour := 0 // saturated pixels: colour emoji, not black outlines
	for _, c := range cells(2) {
		for i := 0; i+2 < len(c); i += 3 {
			if int(max(c[i], c[i+1], c[i+2]))-int(min(c[i], c[i+1], c[i+2])) > 90 {
				colour++
			}
		}
	}
	if colour < 2000 {
		t.Errorf("emoji row has %d coloured pixels: no colour emoji font on this machine", colour)
	}
}
