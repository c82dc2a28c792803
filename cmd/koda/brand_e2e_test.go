package main

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox"
)

// brandMagenta is the test logo's one colour; no palette of the agent draws it.
var brandMagenta = color.RGBA{0xff, 0x00, 0xff, 0xff}

// TestBrandKitEndToEnd (issue 25, items 3 and 4): a tenant uploads a PNG logo, a WOFF2
// font and an MP3, sets them and its colours as its brand kit, and makes a project
// with the builtin agent that names none of them; the final renders for youtube,
// tiktok and instagram_reels show the logo's pixels inside each preset's safe area,
// the page sets its text in the uploaded font (the computed font of the page the
// renderer rendered), and each video has an audio stream as long as the video at the
// preset's loudness (ebur128, ±1 LU). Then the assets are deleted and the finished
// project still re-renders with its own copies.
func TestBrandKitEndToEnd(t *testing.T) {
	redisURL := ""
	if os.Getenv("KODA_TEST_REDIS_URL") != "" {
		redisURL = kodatest.MustRedis(t, kodatest.DBKodaEndToEnd)
	}
	m := startKoda(t, redisURL)
	c := client{t: t, base: m.PublicURL}
	dir := t.TempDir()

	mp3 := filepath.Join(dir, "theme.mp3")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=8",
		"-c:a", "libmp3lame", "-y", mp3).CombinedOutput(); err != nil {
		t.Fatalf("make mp3: %v: %s", err, out)
	}
	song, err := os.ReadFile(mp3)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, f := range []struct {
		role, name string
		data       []byte
	}{
		{"logo", "acme-logo.png", kodatest.LogoPNG(96, 96, brandMagenta)},
		{"font", "Acme Sans.woff2", kodatest.WOFF2(goregular.TTF)},
		{"soundtrack", "theme.mp3", song},
	} {
		ids[f.role] = c.uploadAsset(f.name, f.data)
	}
	var kit struct {
		Logo *string `json:"logo"`
	}
	if status, _ := c.do(http.MethodPut, "/v1/brand", map[string]any{
		"logo": ids["logo"], "font": ids["font"], "soundtrack": ids["soundtrack"],
		"colors": map[string]string{"primary": "#ff6600", "secondary": "#00aa88", "background": "#12355b", "text": "#ffffff"},
	}, &kit); status != http.StatusOK || kit.Logo == nil {
		t.Fatalf("put brand: %d %+v", status, kit)
	}

	var created struct {
		ID     string `json:"id"`
		Assets []struct {
			Role, File string
		} `json:"assets"`
	}
	presets := []string{"youtube", "tiktok", "instagram_reels"}
	if status, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "The words 'Fresh coffee daily' fade in", "style": "smooth",
		"duration_s": 2, "auto_approve": true, "presets": presets,
	}, &created); status != http.StatusAccepted || len(created.Assets) != 3 {
		t.Fatalf("create: %d %+v", status, created)
	}
	p := c.waitProject(created.ID, 6*time.Minute, "complete with three final renders", func(p project) bool {
		return p.Phase == "complete" && finalsDone(p, len(presets))
	})

	// The page the renderer rendered: the project's checkpoint.
	files := filepath.Join(dir, "project")
	rc, err := m.storage.Open(context.Background(), koda.CheckpointKey(koda.ProjectFolder(p.ID)))
	if err != nil {
		t.Fatal(err)
	}
	err = sandbox.Restore(context.Background(), rc, files, sandbox.Budget{})
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"assets/logo.png", "assets/font.woff2", "assets/soundtrack.mp3"} {
		if _, err := os.Stat(filepath.Join(files, f)); err != nil {
			t.Errorf("the project folder lacks its copy of %s: %v", f, err)
		}
	}
	raw, err := os.ReadFile(filepath.Join(files, scene.FileJSON))
	if err != nil {
		t.Fatal(err)
	}
	d, err := scene.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if family, status := pageFontOf(t, files, "Acme Sans"); family == "" || status != "loaded" {
		t.Errorf("page font-family %q, the uploaded font's face %q: want it first and loaded", family, status)
	}

	for _, r := range p.Renders {
		if r.Kind != "final" {
			continue
		}
		if r.Status != "succeeded" {
			t.Fatalf("render %s (%s): %s", r.ID, r.Preset.Name, r.Status)
		}
		path := download(t, r.VideoURL, dir, r.Preset.Name+".mp4")
		pr := ffprobe(t, path)
		f := critic.Frame{Name: r.Preset.Name, W: pr.Width, H: pr.Height}
		checkLogoInSafeArea(t, d, f, path, 1.6)
		checkAudio(t, path, 2)
		// The kit's soundtrack at the preset's loudness (renderer/audio.go, item 5).
		ps, err := koda.LookupPreset(r.Preset.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, lufs, _ := soundOf(t, path); math.Abs(lufs-ps.Loudness()) > 1 {
			t.Errorf("%s: soundtrack at %.1f LUFS, want %.1f ±1 LU", r.Preset.Name, lufs, ps.Loudness())
		}
	}

	// Deleting the assets leaves the finished project whole: it re-renders from its
	// own copies, logo and sound included.
	for role, id := range ids {
		if status, _ := c.do(http.MethodDelete, "/v1/assets/"+id, nil, nil); status != http.StatusNoContent {
			t.Fatalf("delete %s: %d", role, status)
		}
	}
	var batch struct {
		ID string `json:"id"`
	}
	if status, _ := c.do(http.MethodPost, "/v1/projects/"+p.ID+"/renders", map[string]any{"presets": []string{"720p"}}, &batch); status != http.StatusAccepted {
		t.Fatalf("re-render: %d", status)
	}
	p = c.waitProject(p.ID, 3*time.Minute, "re-rendered", func(p project) bool { return finalsDone(p, len(presets)+1) })
	for _, r := range p.Renders {
		if r.BatchID != batch.ID {
			continue
		}
		if r.Status != "succeeded" {
			t.Fatalf("re-render after the assets were deleted: %s", r.Status)
		}
		path := download(t, r.VideoURL, dir, "after-delete.mp4")
		checkLogoInSafeArea(t, d, critic.Frame{Name: "720p", W: 1280, H: 720}, path, 1.6)
		checkAudio(t, path, 2)
	}
}

// uploadAsset uploads a file to the asset library and returns its id.
func (c client) uploadAsset(name string, data []byte) string {
	c.t.Helper()
	status, code, msg := c.upload(name, data)
	if status != http.StatusCreated {
		c.t.Fatalf("upload %s: %d %s %s", name, status, code, msg)
	}
	var page struct {
		Assets []struct{ ID, Name string } `json:"assets"`
	}
	c.do(http.MethodGet, "/v1/assets", nil, &page)
	for _, a := range page.Assets {
		if a.Name == name {
			return a.ID
		}
	}
	c.t.Fatalf("uploaded %s is not listed: %+v", name, page)
	return ""
}

// checkLogoInSafeArea decodes the frame at t of video and finds the logo's pixels in
// it: enough of them, all inside the safe area of frame f.
func checkLogoInSafeArea(t *testing.T, d *scene.Description, f critic.Frame, video string, at float64) {
	t.Helper()
	rgb := frameAt(t, video, at, f.W, f.H)
	img := image.NewRGBA(image.Rect(0, 0, f.W, f.H))
	for i, j := 0, 0; i < len(rgb); i, j = i+3, j+4 {
		img.Pix[j], img.Pix[j+1], img.Pix[j+2], img.Pix[j+3] = rgb[i], rgb[i+1], rgb[i+2], 0xff
	}
	// Video colour: yuv420p and the vignette shift a flat magenta a little.
	box, n := kodatest.ColorBox(img, brandMagenta, 110)
	in := critic.SafeArea(d, f)
	safe := image.Rect(int(in.Left*float64(f.W)), int(in.Top*float64(f.H)),
		int(float64(f.W)*(1-in.Right))+1, int(float64(f.H)*(1-in.Bottom))+1)
	minPixels := f.W * f.H / 2000 // a mark about 5 % of the shorter side across
	switch {
	case n < minPixels:
		t.Errorf("%s: %d logo pixels at %.1fs, want at least %d", f.Name, n, at, minPixels)
	case !box.In(safe):
		t.Errorf("%s: logo pixels at %v, outside the safe area %v", f.Name, box, safe)
	default:
		t.Logf("%s: %d logo pixels at %v inside the safe area %v", f.Name, n, box, safe)
	}
}

// checkAudio: the video has one audio stream as long as the video.
func checkAudio(t *testing.T, video string, durationS float64) {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "a", "-show_entries", "stream=codec_name,duration",
		"-of", "json", video).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", video, err)
	}
	var r struct {
		Streams []struct {
			Codec    string `json:"codec_name"`
			Duration string `json:"duration"`
		} `json:"streams"`
	}
	if err := json.Unmarshal(out, &r); err != nil || len(r.Streams) != 1 {
		t.Fatalf("%s: audio streams %s", filepath.Base(video), out)
	}
	if d, _ := strconv.ParseFloat(r.Streams[0].Duration, 64); d < durationS-0.15 || d > durationS+0.15 {
		t.Errorf("%s: audio lasts %gs, want %gs", filepath.Base(video), d, durationS)
	}
}

// pageFontOf opens dir/index.html in Chromium and returns the body's computed
// font-family when it starts with family ("" otherwise) and the status of that face.
func pageFontOf(t *testing.T, dir, family string) (string, string) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(renderer.FindChromium()), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, time.Minute)
	defer cancelT()
	var computed, status string
	err := chromedp.Run(ctx,
		chromedp.Navigate("file://"+filepath.Join(dir, "index.html")),
		chromedp.Poll("window.__exportReady === true", nil, chromedp.WithPollingTimeout(20*time.Second)),
		chromedp.Evaluate("getComputedStyle(document.body).fontFamily", &computed),
		chromedp.Evaluate(fmt.Sprintf(`(function () { var s = 'missing'; document.fonts.forEach(function (f) {
			if (f.family.replace(/"/g, '') === %q) s = f.status; }); return s; })()`, family), &status))
	if err != nil {
		t.Fatal(err)
	}
	if want := strconv.Quote(family); len(computed) < len(want) || computed[:len(want)] != want {
		t.Logf("computed font-family %q", computed)
		return "", status
	}
	return computed, status
}
