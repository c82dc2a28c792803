package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kodahq/koda"
)

// A peer is another renderer run on the same scene: one attempt per setting tried.
type attempt struct {
	settings string
	cmd      *exec.Cmd
	out      string
}

// peerEnv is what the peers need: where they are installed, the browser and ffmpeg they
// must use, and the scene files.
type peerEnv struct {
	dir       string // install-bench-peers.sh's folder
	chromium  string
	ffmpeg    string
	pages     string // scene files (scenes/ written out)
	pageURL   string // pages served on loopback, for timecut
	work      string // scratch folder for projects and outputs
	bundle    string // Remotion's bundle, made once
	bundleErr error
}

// installPeers runs scripts/install-bench-peers.sh (cached between runs) and returns
// the folder it installed into.
func installPeers(ctx context.Context) (string, error) {
	script, err := findUp(filepath.Join("scripts", "install-bench-peers.sh"))
	if err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "bash", script)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s: %w", script, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1], nil
}

// findUp finds rel in the working folder or one of its parents.
func findUp(rel string) (string, error) {
	dir, _ := os.Getwd()
	for {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("%s not found in the working folder or above", rel)
		}
		dir = up
	}
}

// servePages serves the scene files on a loopback port for the peers that take a URL.
func servePages(dir string) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String() + "/", func() { _ = srv.Close() }, nil
}

func peerCmd(ctx context.Context, dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// timecut: one browser tab under its virtual clock, JPEG screenshots piped to ffmpeg
// (its fastest documented path), with one and two capture threads.
func (e *peerEnv) timecut(ctx context.Context, c benchCase, p koda.PresetSpec, speed string) []attempt {
	page := "canvas_raf.html"
	if c.scene == "dom" {
		page = "dom.html"
	}
	dir := filepath.Join(e.dir, "timecut")
	var out []attempt
	for _, threads := range []int{1, 2} {
		video := filepath.Join(e.work, fmt.Sprintf("%s-timecut-%d.mp4", c.name, threads))
		args := []string{filepath.Join(dir, "node_modules", "timecut", "cli.js"), e.pageURL + page,
			"--viewport", fmt.Sprintf("%d,%d", p.Width, p.Height), "--fps", strconv.Itoa(p.FPS),
			"--duration", strconv.FormatFloat(c.durationS, 'g', -1, 64), "--output", video,
			"--threads", strconv.Itoa(threads), "--pipe-mode", "--screenshot-type", "jpeg",
			"--executable-path", e.chromium, "--ffmpeg-path", e.ffmpeg,
			"--launch-arguments", "--no-sandbox --disable-gpu --disable-dev-shm-usage",
			"--output-options", fmt.Sprintf("-crf %d -preset %s", p.CRF, speed), "--quiet"}
		out = append(out, attempt{settings: fmt.Sprintf("threads %d, jpeg, -preset %s", threads, speed),
			cmd: peerCmd(ctx, dir, nil, "node", args...), out: video})
	}
	return out
}

// remotionCases is the composition list the Remotion project registers.
type remotionCase struct {
	ID     string `json:"id"`
	Scene  string `json:"scene"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	FPS    int    `json:"fps"`
	Frames int    `json:"frames"`
}

func remotionID(c benchCase, p koda.PresetSpec) string {
	return fmt.Sprintf("%s-%dx%d-%d-%d", c.scene, p.Width, p.Height, p.FPS, p.Frames(c.durationS))
}

// bundleRemotion writes the Remotion project for cases and bundles it once, untimed:
// `remotion render` of an entry point would bundle again for every render.
func (e *peerEnv) bundleRemotion(ctx context.Context, cases []benchCase) error {
	proj := filepath.Join(e.dir, "remotion", "project")
	if err := os.MkdirAll(filepath.Join(proj, "remotion"), 0o755); err != nil {
		return err
	}
	var list []remotionCase
	for _, c := range cases {
		p, err := koda.LookupPreset(c.preset)
		if err != nil {
			return err
		}
		list = append(list, remotionCase{remotionID(c, p), c.scene, p.Width, p.Height, p.FPS, p.Frames(c.durationS)})
	}
	js, _ := json.Marshal(list)
	files := map[string][]byte{"remotion/cases.json": js}
	for _, f := range []string{"scene.js", "dom.css", "remotion/index.jsx"} {
		b, err := scenes.ReadFile("scenes/" + f)
		if err != nil {
			return err
		}
		files[f] = b
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(proj, name), b, 0o644); err != nil {
			return err
		}
	}
	e.bundle = filepath.Join(e.work, "remotion-bundle")
	dir := filepath.Join(e.dir, "remotion")
	cmd := peerCmd(ctx, dir, nil, filepath.Join(dir, "node_modules", ".bin", "remotion"), "bundle",
		filepath.Join(proj, "remotion", "index.jsx"), "--out-dir", e.bundle, "--log=error")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("remotion bundle: %v: %s", err, tail(out))
	}
	return nil
}

// remotion: its CLI on the bundled composition, Debian's headless shell, with one and
// two tabs rendering at once (its concurrency; 2 is its maximum on 2 cores).
func (e *peerEnv) remotion(ctx context.Context, c benchCase, p koda.PresetSpec, speed string) []attempt {
	dir := filepath.Join(e.dir, "remotion")
	var out []attempt
	for _, conc := range []int{1, 2} {
		video := filepath.Join(e.work, fmt.Sprintf("%s-remotion-%d.mp4", c.name, conc))
		args := []string{"render", e.bundle, remotionID(c, p), video,
			"--browser-executable", e.chromium, "--concurrency", strconv.Itoa(conc), "--gl", "angle",
			"--crf", strconv.Itoa(p.CRF), "--x264-preset", speed, "--log", "error"}
		out = append(out, attempt{settings: fmt.Sprintf("concurrency %d, --gl angle, --x264-preset %s", conc, speed),
			cmd: peerCmd(ctx, dir, nil, filepath.Join(dir, "node_modules", ".bin", "remotion"), args...), out: video})
	}
	return out
}

// hyperframes: its CLI on a project holding the scene as a composition, Debian's
// headless shell, with one and two workers. Its draft quality is x264 ultrafast (its
// other qualities use medium or slow), the fastest encoder it offers: a favour to it.
func (e *peerEnv) hyperframes(ctx context.Context, c benchCase, p koda.PresetSpec) ([]attempt, error) {
	proj := filepath.Join(e.work, "hf-"+c.name)
	if err := os.MkdirAll(proj, 0o755); err != nil {
		return nil, err
	}
	src := "scenes/hf_canvas.html"
	if c.scene == "dom" {
		src = "scenes/hf_dom.html"
	}
	b, err := scenes.ReadFile(src)
	if err != nil {
		return nil, err
	}
	html := strings.NewReplacer("__W__", strconv.Itoa(p.Width), "__H__", strconv.Itoa(p.Height),
		"__D__", strconv.FormatFloat(c.durationS, 'g', -1, 64)).Replace(string(b))
	files := map[string][]byte{"index.html": []byte(html)}
	for _, f := range []string{"scene.js", "dom.css"} {
		if files[f], err = scenes.ReadFile("scenes/" + f); err != nil {
			return nil, err
		}
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(proj, name), b, 0o644); err != nil {
			return nil, err
		}
	}
	dir := filepath.Join(e.dir, "hyperframes")
	env := []string{"HYPERFRAMES_BROWSER_PATH=" + e.chromium, "HYPERFRAMES_NO_TELEMETRY=1", "DO_NOT_TRACK=1",
		"PATH=" + filepath.Join(dir, "node_modules", ".bin") + ":" + os.Getenv("PATH")}
	var out []attempt
	for _, workers := range []int{1, 2} {
		video := filepath.Join(e.work, fmt.Sprintf("%s-hyperframes-%d.mp4", c.name, workers))
		args := []string{filepath.Join(dir, "node_modules", "hyperframes", "bin", "hyperframes.mjs"), "render", proj,
			"--output", video, "--fps", strconv.Itoa(p.FPS), "--workers", strconv.Itoa(workers),
			"--quality", "draft", "--crf", strconv.Itoa(p.CRF), "--quiet"}
		out = append(out, attempt{settings: fmt.Sprintf("workers %d, draft (ultrafast)", workers),
			cmd: peerCmd(ctx, dir, env, filepath.Join(dir, "node_modules", ".bin", "node"), args...), out: video})
	}
	return out, nil
}

// runAttempt runs one peer's command, measured, and checks its video has the frames.
func runAttempt(a attempt, wantFrames int) (usage, int64, error) {
	var stderr tailWriter
	a.cmd.Stdout = &stderr
	a.cmd.Stderr = &stderr
	m := startMeter()
	err := a.cmd.Run()
	u := m.stop()
	if err != nil {
		return u, 0, fmt.Errorf("%v: %s", err, tail(stderr.b))
	}
	st, err := os.Stat(a.out)
	if err != nil {
		return u, 0, fmt.Errorf("no video: %w", err)
	}
	if n, err := countFrames(a.out); err != nil {
		return u, 0, err
	} else if n != wantFrames {
		return u, st.Size(), fmt.Errorf("video has %d frames, not %d", n, wantFrames)
	}
	return u, st.Size(), nil
}

// countFrames asks ffprobe for the number of video frames in an MP4's header.
func countFrames(video string) (int, error) {
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=nb_frames",
		"-of", "default=nw=1:nk=1", video).Output()
	if err != nil {
		return 0, fmt.Errorf("ffprobe %s: %w", video, err)
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}

// tailWriter keeps the last 2 KB written to it, for error messages.
type tailWriter struct{ b []byte }

func (t *tailWriter) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 2048 {
		t.b = t.b[len(t.b)-2048:]
	}
	return len(p), nil
}

// tail is the last line or two of a command's output, on one line.
func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	lines := strings.Split(s, "\n")
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	return strings.Join(lines, " | ")
}

var errSkipped = errors.New("skipped")
