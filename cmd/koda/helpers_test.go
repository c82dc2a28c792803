package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/internal/kodatest"
)

// testSecret signs webhooks in tests.
const testSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// testAPIKey is the default tenant's key in tests (KODA_API_KEY); testAdminKey guards
// the admin API.
const (
	testAPIKey   = "koda_testkeyfortheendtoendtests0000"
	testAdminKey = "admin-key-for-the-end-to-end-tests"
)

// startKoda boots a whole koda (API + every pool) on :0 in a temp dir, against the
// Redis named by redisURL.
func startKoda(t *testing.T, redisURL string) *Main {
	t.Helper()
	return startTuned(t, redisURL, nil)
}

// startTuned is startKoda with tune applied to Main (and its Config) before Open.
func startTuned(t *testing.T, redisURL string, tune func(m *Main)) *Main {
	t.Helper()
	conc, _ := config.ParseConcurrency("agent=2,preview=1,render=1,webhooks=4,maintenance=1")
	cfg := &config.Config{
		Addr: "127.0.0.1:0", DataDir: t.TempDir(), RedisURL: redisURL, FFmpeg: "ffmpeg",
		WebhookSecret: testSecret, FileURLTTL: time.Hour,
		WebhookRetry: []time.Duration{300 * time.Millisecond, time.Second},
		Pools:        config.AllPools, Concurrency: conc, Browsers: 2, ShutdownTimeout: 10 * time.Second,
		LogLevel: "info", LogFormat: "text",
		// Webhook receivers in tests are httptest servers on 127.0.0.1.
		APIKey: testAPIKey, AdminKey: testAdminKey, WebhookAllow: "127.0.0.0/8",
		// Render as production does: the browser inside bubblewrap, without network.
		Sandbox: config.Sandbox{Render: true},
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	logFile, err := os.Create(filepath.Join(cfg.DataDir, "koda.log"))
	if err != nil {
		t.Fatal(err)
	}
	m := &Main{Config: cfg, Logger: slog.New(slog.NewTextHandler(logFile, nil)), API: true, Pools: config.AllPools,
		ReconcileEvery: 2 * time.Second, ReconcileGrace: 5 * time.Second}
	if tune != nil {
		tune(m)
	}
	if err := m.Open(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := m.Close(); err != nil {
			t.Errorf("close koda: %v", err)
		}
		logFile.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logFile.Name())
			t.Logf("koda log:\n%s", tail(string(b), 60))
		}
	})
	return m
}

func tail(s string, lines int) string {
	parts := strings.Split(s, "\n")
	if len(parts) > lines {
		parts = parts[len(parts)-lines:]
	}
	return strings.Join(parts, "\n")
}

// redisTargets lists the Redis servers the end-to-end tests run against.
func redisTargets(t *testing.T, db kodatest.RedisDB) map[string]func() string {
	targets := map[string]func() string{
		"embedded": func() string { return "" }, // koda starts its own
	}
	if os.Getenv("KODA_TEST_REDIS_URL") != "" {
		targets["real"] = func() string { return kodatest.MustRedis(t, db) }
	} else {
		t.Log("KODA_TEST_REDIS_URL is not set: running against the embedded Redis only")
	}
	return targets
}

type client struct {
	t    *testing.T
	base string
	// key is sent as the bearer token; empty means testAPIKey, "-" none.
	key string
}

func (c client) authorize(req *http.Request) {
	switch c.key {
	case "":
		req.Header.Set("Authorization", "Bearer "+testAPIKey)
	case "-":
	default:
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
}

// do sends a request and decodes the JSON answer into out (when non-nil).
func (c client) do(method, path string, body any, out any) (int, http.Header) {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, c.base+path, rd)
	req.Header.Set("Content-Type", "application/json")
	c.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			c.t.Fatalf("%s %s: %d %s: decode: %v", method, path, resp.StatusCode, raw, err)
		}
	}
	return resp.StatusCode, resp.Header
}

type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Phase   string `json:"phase"`
	} `json:"error"`
}

type render struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	BatchID  string `json:"batch_id"`
	Status   string `json:"status"`
	VideoURL string `json:"video_url"`
	ThumbURL string `json:"thumbnail_url"`
	Preset   struct {
		Name          string `json:"name"`
		Width, Height int
		FPS           int `json:"fps"`
	} `json:"preset"`
	DurationS float64 `json:"duration_s"`
	Progress  struct {
		Stage       string  `json:"stage"`
		Percent     float64 `json:"percent"`
		FramesDone  int     `json:"frames_done"`
		FramesTotal int     `json:"frames_total"`
	} `json:"progress"`
	Error *struct{ Code, Message string } `json:"error"`
}

type project struct {
	ID       string `json:"id"`
	Phase    string `json:"phase"`
	Style    string `json:"style"`
	Question *struct {
		Options []struct {
			ID string `json:"id"`
		} `json:"options"`
	} `json:"question"`
	Plan *struct {
		DurationS float64 `json:"duration_s"`
		Scenes    []struct {
			StartS float64 `json:"start_s"`
			EndS   float64 `json:"end_s"`
		} `json:"scenes"`
		Todos []struct{ ID string } `json:"todos"`
	} `json:"plan"`
	Execution struct {
		Todos []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"todos"`
		Files []struct {
			Path string `json:"path"`
		} `json:"files"`
	} `json:"execution"`
	Preview *struct {
		RenderID string `json:"render_id"`
		VideoURL string `json:"video_url"`
	} `json:"preview"`
	Error   *struct{ Code, Message string } `json:"error"`
	Renders []render                        `json:"renders"`
}

// waitProject polls the project until ok holds or the deadline passes.
func (c client) waitProject(id string, within time.Duration, what string, ok func(p project) bool) project {
	c.t.Helper()
	deadline := time.Now().Add(within)
	var p project
	for {
		c.do(http.MethodGet, "/v1/projects/"+id, nil, &p)
		if ok(p) {
			return p
		}
		if p.Phase == "error" {
			c.t.Fatalf("project %s failed while waiting for %s: %+v", id, what, p.Error)
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("project %s: %s not reached within %s; phase %s, renders %+v", id, what, within, p.Phase, p.Renders)
		}
		time.Sleep(150 * time.Millisecond)
	}
}

func finalsDone(p project, n int) bool {
	done := 0
	for _, r := range p.Renders {
		if r.Kind == "final" && (r.Status == "succeeded" || r.Status == "failed") {
			done++
		}
	}
	return done >= n
}

// download fetches a file URL into dir.
func download(t *testing.T, url, dir, name string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("download %s: %v", url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("download %s: %s", url, resp.Status)
	}
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := io.Copy(f, resp.Body); err != nil {
		t.Fatal(err)
	}
	return path
}

type probe struct {
	Codec, PixFmt string
	Width, Height int
	Frames        int
	FPS           string
}

// ffprobe reads the first video stream, counting frames by decoding them.
func ffprobe(t *testing.T, path string) probe {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
		"-show_entries", "stream=codec_name,pix_fmt,width,height,nb_read_frames,r_frame_rate", "-of", "json", path).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", path, err)
	}
	var r struct {
		Streams []struct {
			CodecName    string `json:"codec_name"`
			PixFmt       string `json:"pix_fmt"`
			Width        int    `json:"width"`
			Height       int    `json:"height"`
			NbReadFrames string `json:"nb_read_frames"`
			RFrameRate   string `json:"r_frame_rate"`
		} `json:"streams"`
	}
	if err := json.Unmarshal(out, &r); err != nil || len(r.Streams) == 0 {
		t.Fatalf("ffprobe %s: %s", path, out)
	}
	s := r.Streams[0]
	n, _ := strconv.Atoi(s.NbReadFrames)
	return probe{Codec: s.CodecName, PixFmt: s.PixFmt, Width: s.Width, Height: s.Height, Frames: n, FPS: s.RFrameRate}
}

// frameAt decodes the frame at t seconds as raw RGB bytes.
func frameAt(t *testing.T, path string, at float64, w, h int) []byte {
	t.Helper()
	out, err := exec.Command("ffmpeg", "-v", "error", "-ss", fmt.Sprintf("%.3f", at), "-i", path,
		"-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-").Output()
	if err != nil {
		t.Fatalf("decode frame at %.2fs of %s: %v", at, path, err)
	}
	if len(out) != w*h*3 {
		t.Fatalf("frame at %.2fs: %d bytes, want %d", at, len(out), w*h*3)
	}
	return out
}

// meanAbsDiff is the mean absolute difference of two frames per channel (0–255).
func meanAbsDiff(a, b []byte) float64 {
	var sum int64
	for i := range a {
		d := int64(a[i]) - int64(b[i])
		if d < 0 {
			d = -d
		}
		sum += d
	}
	return float64(sum) / float64(len(a))
}

// ocrFrame reads the text on the frame at t with tesseract.
func ocrFrame(t *testing.T, video string, at float64) string {
	t.Helper()
	png := filepath.Join(t.TempDir(), "ocr.png")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-y", "-ss", fmt.Sprintf("%.3f", at), "-i", video,
		"-frames:v", "1", png).CombinedOutput(); err != nil {
		t.Fatalf("extract frame: %v: %s", err, out)
	}
	out, err := exec.Command("tesseract", png, "-", "--psm", "11").Output()
	if err != nil {
		t.Fatalf("tesseract: %v", err)
	}
	return string(out)
}

// webhookReceiver verifies every delivery with the official Standard Webhooks library
// and fails the first attempt of every event, so each event is delivered by a retry
// that must carry the same webhook-id.
type webhookReceiver struct {
	t       *testing.T
	srv     *httptest.Server
	wh      *standardwebhooks.Webhook
	mu      sync.Mutex
	tries   map[string]int    // webhook-id → attempts seen
	types   map[string]string // webhook-id → event type
	bodies  map[string][]byte
	badSigs int
}

func newWebhookReceiver(t *testing.T) *webhookReceiver {
	wh, err := standardwebhooks.NewWebhook(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	r := &webhookReceiver{t: t, wh: wh, tries: map[string]int{}, types: map[string]string{}, bodies: map[string][]byte{}}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *webhookReceiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.wh.Verify(body, req.Header); err != nil {
		r.badSigs++
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	id := req.Header.Get("webhook-id")
	var ev struct {
		Type      string          `json:"type"`
		Timestamp string          `json:"timestamp"`
		Data      json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.Type == "" || ev.Timestamp == "" {
		http.Error(w, "bad payload", http.StatusBadRequest)
		return
	}
	r.tries[id]++
	if prev, ok := r.bodies[id]; ok && !bytes.Equal(prev, body) {
		r.t.Errorf("webhook %s retried with a different body", id)
	}
	r.bodies[id], r.types[id] = body, ev.Type
	if r.tries[id] == 1 {
		http.Error(w, "try again", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// delivered counts events by type whose delivery succeeded.
func (r *webhookReceiver) delivered() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]int{}
	for id, n := range r.tries {
		if n >= 2 {
			out[r.types[id]]++
		}
	}
	return out
}

func (r *webhookReceiver) payloads(typ string) []json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []json.RawMessage
	for id, b := range r.bodies {
		if r.types[id] == typ {
			out = append(out, b)
		}
	}
	return out
}
