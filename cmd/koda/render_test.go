package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// runKoda runs the koda command line in-process and returns its output and error.
func runKoda(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	err := newCLI(&stdout, &stderr).Run(ctx, append([]string{"koda"}, args...))
	return stdout.String(), stderr.String(), err
}

func renderFixture(name string) string {
	abs, err := filepath.Abs(filepath.Join("..", "..", "renderer", "testdata", name))
	if err != nil {
		panic(err)
	}
	return abs
}

// TestRenderCommand renders the renderer's test pages with `koda render`, without a
// server, Redis or database: a folder with a named preset, a single page file with a
// custom WebM size, and refuses bad presets and sizes with a clear message.
func TestRenderCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("KODA_REDIS_URL", "redis://127.0.0.1:1/0") // proves nothing dials Redis
	t.Setenv("KODA_DATABASE_URL", "postgres://nobody@127.0.0.1:1/none")

	out := filepath.Join(dir, "canvas.mp4")
	stdout, stderr, err := runKoda(t, "render", renderFixture("canvas"), "--preset", "preview", "--duration", "1", "-o", out)
	if err != nil {
		t.Fatalf("koda render: %v\n%s", err, stderr)
	}
	if p := ffprobe(t, out); p.Codec != "h264" || p.Width != 640 || p.Height != 360 || p.FPS != "15/1" || p.Frames != 15 {
		t.Errorf("preview render = %+v, want h264 640x360 15/1 with 15 frames", p)
	}
	if !strings.Contains(stdout, "15 frames") || !strings.Contains(stderr, "rendering canvas.mp4: 100%") {
		t.Errorf("summary/progress missing: stdout %q stderr %q", stdout, stderr)
	}
	if strings.Contains(stderr, "\r") {
		t.Errorf("progress redraws with carriage returns into a non-terminal: %q", stderr)
	}

	// A page file and a custom size; the output name defaults from the page.
	page := filepath.Join(renderFixture("dom"), "index.html")
	canvas := renderFixture("canvas")
	t.Chdir(dir)
	_, stderr, err = runKoda(t, "render", page, "--preset", "custom",
		"--width", "320", "--height", "240", "--fps", "10", "--format", "webm", "--duration", "0.5", "-q")
	if err != nil {
		t.Fatalf("koda render custom: %v\n%s", err, stderr)
	}
	if p := ffprobe(t, filepath.Join(dir, "index-custom.webm")); p.Codec != "vp9" || p.Width != 320 || p.Height != 240 || p.Frames != 5 {
		t.Errorf("custom render = %+v, want vp9 320x240 with 5 frames", p)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--preset", "nope"}, "unknown preset"},
		{[]string{"--preset", "custom", "--width", "5000", "--height", "100", "--fps", "30"}, "out of range"},
		{[]string{"--preset", "preview", "--width", "641"}, "even"},
		{[]string{"--preset", "preview", "--fps", "240"}, "fps 240 out of range"},
		{[]string{"--preset", "tiktok", "--duration", "500"}, "limit"},
		{[]string{"--preset", "preview", "-o", "x.webm"}, "must end in .mp4"},
		{[]string{"--preset", "preview", "--loudness", "-60"}, "loudness_lufs -60 out of range"},
	} {
		_, _, err := runKoda(t, append([]string{"render", canvas}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("koda render %v: error %v, want one mentioning %q", c.args, err, c.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("rejected renders left files behind: %v", ents)
	}
}

// TestRenderCommandSoundtrack: `koda render --audio` lays a quiet tone shorter than the
// video under it, looped to the video's length and normalised to the preset's −16 LUFS,
// or to --loudness.
func TestRenderCommandSoundtrack(t *testing.T) {
	dir := t.TempDir()
	tone := filepath.Join(dir, "tone.wav")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=0.7,volume=-20dB",
		"-y", tone).CombinedOutput(); err != nil {
		t.Fatalf("make tone: %v: %s", err, out)
	}
	for _, c := range []struct {
		args []string
		want float64
	}{{nil, -16}, {[]string{"--loudness", "-23"}, -23}} {
		out := filepath.Join(dir, "v.mp4")
		args := append([]string{"render", renderFixture("canvas"), "--preset", "preview", "--duration", "2", "--audio", tone, "-q", "-o", out}, c.args...)
		if _, stderr, err := runKoda(t, args...); err != nil {
			t.Fatalf("koda %v: %v\n%s", args, err, stderr)
		}
		probe, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "a", "-show_entries", "stream=duration",
			"-of", "csv=p=0", out).Output()
		if err != nil {
			t.Fatalf("ffprobe: %v", err)
		}
		durs := strings.Fields(string(probe))
		if len(durs) != 1 {
			t.Fatalf("%v: audio streams %q, want one", c.args, durs)
		}
		if d, _ := strconv.ParseFloat(durs[0], 64); math.Abs(d-2) > 2.0/15 {
			t.Errorf("%v: audio %ss under a 2 s video", c.args, durs[0])
		}
		meter, err := exec.Command("ffmpeg", "-hide_banner", "-nostats", "-i", out, "-map", "0:a", "-af", "ebur128", "-f", "null", "-").CombinedOutput()
		if err != nil {
			t.Fatalf("ebur128: %v: %s", err, meter)
		}
		m := regexp.MustCompile(`(?s)Summary:.*?I:\s+(-?[0-9.]+) LUFS`).FindSubmatch(meter)
		if m == nil {
			t.Fatalf("ebur128 printed no loudness: %s", meter)
		}
		if lufs, _ := strconv.ParseFloat(string(m[1]), 64); math.Abs(lufs-c.want) > 1 {
			t.Errorf("%v: %.1f LUFS, want %g ±1", c.args, lufs, c.want)
		}
	}
}
