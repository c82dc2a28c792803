package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/agent/templates"
)

// The data-driven throughput benchmark of issue 24 (renderbench -templates N): a
// 6-second template with three text fields and an image, N rows × the presets 720p and
// tiktok, every row with its own three texts and its own picture, rendered
//   - by Koda as a user gets it: `koda serve` (this binary's child, so inside the
//     bench's cpuacct cgroup) on embedded defaults, a project made by the builtin agent
//     from templatePrompt with a product picture uploaded as an image asset (the sneaker
//     the prompt names is that picture), POST /v1/templates, the rows' pictures uploaded
//     as assets (untimed, as Remotion's are put in its bundle untimed), then POST
//     /v1/templates/{id}/batches with the rows (three texts and an asset id each); timed
//     from the batch request until GET /v1/batches/{id} says completed (the render pool
//     fills each row's scene, stores its checkpoint with the row's picture, captures and
//     encodes: everything a user's batch pays for);
//   - by Remotion 4.0.529 as its documentation has a user do it: one composition of the
//     same look whose three texts and picture are inputProps (the pictures are files of
//     its public folder), one bundle (made untimed), one browser
//     opened once and kept across the rows (openBrowser, puppeteerInstance), renderMedia
//     per row and preset, at concurrency 1 and 2 (the best is the one compared).
// Both sides run in one invocation, one after the other, with the load average printed
// at each one's start and end.

// templatePrompt makes, with the builtin agent, a 6 s template with exactly three text
// fields and an image: the sneaker (the uploaded picture sneaker.png, which the agent
// puts where the prompt names it) slides in, then three lines rise in one after another.
const templatePrompt = "A sneaker slides in from the left, then the title 'SUMMER SALE', the subtitle 'Everything must go' " +
	"and the tagline 'Only this weekend' appear on a dark background"

const templateSeconds = 6

var templatePresets = []string{"720p", "tiktok"}

// benchAPIKey is the key the bench's own `koda serve` accepts (loopback only).
const benchAPIKey = "koda_renderbench_templates_0123456789abcdef"

// tplRow is one side's figures.
type tplRow struct {
	who, settings string
	rows, videos  int
	u             usage
	loadStart     string
	loadEnd       string
	err           error
	best          bool
}

// tplResult is the benchmark's output: each side's rows and what the template is made of.
type tplResult struct {
	rows      []tplRow
	fields    []string
	image     string // the image field
	rowImages bool   // each row gives the image field a picture of its own
	rowFrames string // the row-independent stretch, measured in the template's scene
	kodaConf  string
	shared    string // the shared stretch the server rendered once per spec
}

// templateBench runs the benchmark with n rows; kodaBin "" builds ./cmd/koda. With
// rowImages every row has a picture of its own (else every row shows the template's).
func templateBench(ctx context.Context, env *peerEnv, kodaBin string, n int, concs []int, rowImages bool) (*tplResult, error) {
	res := &tplResult{rowImages: rowImages}
	if kodaBin == "" {
		root, err := findUp("go.mod")
		if err != nil {
			return nil, err
		}
		kodaBin = filepath.Join(env.work, "koda")
		fmt.Fprintln(os.Stderr, "renderbench: building koda (untimed)…")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", kodaBin, "./cmd/koda")
		cmd.Dir = filepath.Dir(root)
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build ./cmd/koda: %v: %s", err, tail(out))
		}
	}
	srv, err := startServe(ctx, kodaBin, env)
	if err != nil {
		return nil, err
	}
	defer func() { srv.stop() }()
	res.kodaConf = srv.conf

	// The template, untimed: the builtin agent's project, then POST /v1/templates.
	fmt.Fprintln(os.Stderr, "renderbench: making the template through koda serve (untimed)…")
	tpl, err := srv.makeTemplate(ctx)
	if err != nil {
		return nil, err
	}
	for _, f := range tpl.Fields {
		switch f.Type {
		case string(koda.FieldText):
			res.fields = append(res.fields, f.Name)
		case string(koda.FieldImage):
			res.image = f.Name
		}
	}
	if len(res.fields) != 3 || res.image == "" {
		return nil, fmt.Errorf("the template has %d text fields (%v) and image field %q; the benchmark wants 3 and one", len(res.fields), res.fields, res.image)
	}
	sceneJSON, err := templateScene(srv.data, tpl.ID)
	if err != nil {
		return nil, err
	}
	varying := res.fields
	if rowImages {
		varying = append([]string{res.image}, res.fields...)
	}
	res.rowFrames = rowIndependent(sceneJSON, varying)

	// The rows: three texts and a picture each, different on every row, short enough
	// for tiktok. The pictures are uploaded first, untimed.
	if rowImages {
		fmt.Fprintf(os.Stderr, "renderbench: uploading %d row pictures (untimed)…\n", n)
	}
	values := make([]map[string]string, n)
	for i := range values {
		values[i] = map[string]string{
			res.fields[0]: fmt.Sprintf("SALE No %d", i+1),
			res.fields[1]: fmt.Sprintf("Up to %d%% off", 10+i%80),
			res.fields[2]: fmt.Sprintf("Only until day %d", i+1),
		}
		if rowImages {
			id, err := srv.upload(ctx, rowPictureName(i+1), rowPicture(i+1))
			if err != nil {
				return nil, err
			}
			values[i][res.image] = id
		}
	}

	kr := tplRow{who: "koda", settings: "koda serve, POST /v1/templates/{id}/batches, shared stretch rendered once per spec (" + srv.conf + ")", rows: n, loadStart: loadAvg()}
	m := startMeter()
	var batchID string
	kr.videos, batchID, err = srv.batch(ctx, tpl.ID, values)
	kr.u, kr.loadEnd, kr.err = m.stop(), loadAvg(), err
	res.rows = append(res.rows, kr)
	fmt.Fprintf(os.Stderr, "renderbench: templates koda: %.1f s %v\n", kr.u.wall.Seconds(), kr.err)
	if kr.err == nil {
		res.shared = srv.sharedFigures(ctx, batchID, n)
	}
	srv.stop()

	// The same rows again, every frame of every row rendered (KODA_SHARED_STRETCH=false),
	// by a koda serve on the same data folder (the template is there already).
	if ctx.Err() == nil {
		if srv, err = startServe(ctx, kodaBin, env, "KODA_SHARED_STRETCH=false"); err != nil {
			return nil, err
		}
		kw := tplRow{who: "koda whole rows", settings: "koda serve, POST /v1/templates/{id}/batches, every row rendered whole (KODA_SHARED_STRETCH=false, " + srv.conf + ")", rows: n, loadStart: loadAvg()}
		m := startMeter()
		kw.videos, _, err = srv.batch(ctx, tpl.ID, values)
		kw.u, kw.loadEnd, kw.err = m.stop(), loadAvg(), err
		res.rows = append(res.rows, kw)
		fmt.Fprintf(os.Stderr, "renderbench: templates koda whole rows: %.1f s %v\n", kw.u.wall.Seconds(), kw.err)
		srv.stop()
	}

	// Remotion: the bundle untimed, then one run per concurrency.
	if env.bundleErr != nil {
		res.rows = append(res.rows, tplRow{who: "remotion", err: env.bundleErr})
		return res, nil
	}
	bundle, err := env.bundleTemplate(ctx, n)
	if err != nil {
		res.rows = append(res.rows, tplRow{who: "remotion", err: err})
		return res, nil
	}
	first := len(res.rows)
	for _, c := range concs {
		if ctx.Err() != nil {
			break
		}
		rr := tplRow{who: "remotion", settings: fmt.Sprintf("renderMedia per row (texts and picture as inputProps), one browser kept open, concurrency %d, --gl angle, jpeg, -preset %s",
			c, koda.DefaultEncoderSpeed), rows: n, loadStart: loadAvg()}
		a, err := env.remotionRows(ctx, bundle, c, values, res.fields, rowImages)
		if err != nil {
			rr.err = err
		} else {
			m := startMeter()
			var setup float64
			rr.videos, setup, rr.err = runRows(a)
			rr.u = m.stop()
			if rr.err == nil {
				rr.settings += fmt.Sprintf(" (of which %.1f s opening the browser and selecting the composition)", setup)
			}
		}
		rr.loadEnd = loadAvg()
		res.rows = append(res.rows, rr)
		fmt.Fprintf(os.Stderr, "renderbench: templates remotion concurrency %d: %.1f s %v\n", c, rr.u.wall.Seconds(), rr.err)
	}
	best := -1
	for k := first; k < len(res.rows); k++ {
		if r := res.rows[k]; r.err == nil && (best < 0 || r.u.wall < res.rows[best].u.wall) {
			best = k
		}
	}
	if best >= 0 {
		res.rows[best].best = true
	}
	return res, nil
}

// serve is the bench's own `koda serve` on loopback.
type serve struct {
	cmd     *exec.Cmd
	base    string
	data    string
	conf    string
	logPath string // koda serve's output
	done    chan struct{}
	// lastBatch is the id of the last batch posted.
	lastBatch string
}

func startServe(ctx context.Context, bin string, env *peerEnv, extraEnv ...string) (*serve, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	s := &serve{base: "http://" + addr, data: filepath.Join(env.work, "koda-data"), logPath: filepath.Join(env.work, "koda-serve.log"), done: make(chan struct{})}
	logf, err := os.Create(s.logPath)
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the child keeps its own descriptor
	s.cmd = exec.Command(bin, "serve")
	s.cmd.Env = append(os.Environ(), "KODA_ADDR="+addr, "KODA_PUBLIC_URL="+s.base, "KODA_DATA_DIR="+s.data,
		"KODA_API_KEY="+benchAPIKey, "KODA_CHROMIUM="+env.chromium, "KODA_FFMPEG="+env.ffmpeg,
		// No daily or monthly cap: the bench may be run again and with many rows.
		"KODA_TENANT_LIMITS=concurrent_projects=8,live_sandboxes=4,renders_per_day=0,render_seconds_per_month=0")
	s.cmd.Env = append(s.cmd.Env, extraEnv...)
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(s.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("koda serve exited: %s", s.logTail())
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		case <-time.After(300 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("koda serve not ready after 60 s: %s", s.logTail())
		}
	}
	// What concurrency the render pool runs with, from its start-up line.
	logged, _ := os.ReadFile(s.logPath)
	if i := bytes.Index(logged, []byte("concurrency=map[")); i >= 0 {
		line := logged[i:]
		if j := bytes.IndexByte(line, ']'); j >= 0 {
			s.conf = strings.TrimPrefix(string(line[:j]), "concurrency=map[")
			for _, part := range strings.Fields(s.conf) {
				if strings.HasPrefix(part, "render:") {
					s.conf = "render pool concurrency " + strings.TrimPrefix(part, "render:")
				}
			}
		}
	}
	return s, nil
}

// logTail is the end of koda serve's output, for error messages.
func (s *serve) logTail() string {
	b, _ := os.ReadFile(s.logPath)
	return tail(b)
}

// stop ends koda serve (SIGTERM, then SIGKILL of its process group) and waits for it.
func (s *serve) stop() {
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}

// do sends one API request; out (when not nil) receives the JSON answer.
func (s *serve) do(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, rd)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+benchAPIKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode >= 300 {
		return resp.StatusCode, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, strings.TrimSpace(string(b)))
	}
	if out != nil {
		return resp.StatusCode, json.Unmarshal(b, out)
	}
	return resp.StatusCode, nil
}

type tplView struct {
	ID     string `json:"id"`
	Fields []struct {
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"fields"`
}

// makeTemplate has the builtin agent make the template's project (auto-approved, the
// small preview preset only) and turns it into a template.
func (s *serve) makeTemplate(ctx context.Context) (*tplView, error) {
	photo, err := s.upload(ctx, rowPictureName(0), rowPicture(0))
	if err != nil {
		return nil, err
	}
	var p struct {
		ID string `json:"id"`
	}
	if _, err := s.do(ctx, http.MethodPost, "/v1/projects", map[string]any{"prompt": templatePrompt, "duration_s": templateSeconds,
		"auto_approve": true, "presets": []string{"preview"}, "assets": []map[string]string{{"id": photo, "role": "image"}}}, &p); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(10 * time.Minute)
	for {
		var v struct {
			Phase   string `json:"phase"`
			Renders []struct {
				Status string `json:"status"`
			} `json:"renders"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if _, err := s.do(ctx, http.MethodGet, "/v1/projects/"+p.ID, nil, &v); err != nil {
			return nil, err
		}
		if v.Phase == "error" {
			return nil, fmt.Errorf("the template's project failed: %+v", v.Error)
		}
		done := v.Phase == "complete" && len(v.Renders) > 0
		for _, r := range v.Renders {
			done = done && r.Status == "succeeded"
		}
		if done {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the template's project is still %s after 10 minutes", v.Phase)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
	var t tplView
	if _, err := s.do(ctx, http.MethodPost, "/v1/templates", map[string]any{"project_id": p.ID, "name": "renderbench promo"}, &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// batch posts the rows at templatePresets and waits until the batch is completed; it
// returns how many videos succeeded and the batch's id, and an error unless all did.
func (s *serve) batch(ctx context.Context, tplID string, values []map[string]string) (int, string, error) {
	n, err := s.runBatch(ctx, tplID, values, &s.lastBatch)
	return n, s.lastBatch, err
}

func (s *serve) runBatch(ctx context.Context, tplID string, values []map[string]string, id *string) (int, error) {
	var b struct {
		ID        string `json:"id"`
		Status    string `json:"status"`
		Total     int    `json:"total"`
		Succeeded int    `json:"succeeded"`
		Failed    int    `json:"failed"`
	}
	if _, err := s.do(ctx, http.MethodPost, "/v1/templates/"+tplID+"/batches", map[string]any{"rows": values, "presets": templatePresets}, &b); err != nil {
		return 0, err
	}
	*id = b.ID
	want := len(values) * len(templatePresets)
	if b.Total != want {
		return 0, fmt.Errorf("the batch has %d renders, want %d", b.Total, want)
	}
	for b.Status != "completed" && b.Status != "cancelled" {
		select {
		case <-ctx.Done():
			return b.Succeeded, ctx.Err()
		case <-s.done:
			return b.Succeeded, fmt.Errorf("koda serve exited: %s", s.logTail())
		case <-time.After(500 * time.Millisecond):
		}
		if _, err := s.do(ctx, http.MethodGet, "/v1/batches/"+b.ID, nil, &b); err != nil {
			return b.Succeeded, err
		}
	}
	if b.Succeeded != want {
		return b.Succeeded, fmt.Errorf("batch %s: %d of %d renders succeeded, %d failed", b.Status, b.Succeeded, want, b.Failed)
	}
	// The videos are what was asked: check the first row's at each preset.
	var man struct {
		Lines []koda.ManifestLine `json:"lines"`
	}
	if _, err := s.do(ctx, http.MethodGet, "/v1/batches/"+b.ID+"/manifest", nil, &man); err != nil {
		return b.Succeeded, err
	}
	for _, l := range man.Lines {
		if l.Row != 1 {
			continue
		}
		p, _ := koda.LookupPreset(l.Preset)
		if err := checkVideoURL(ctx, l.VideoURL, p.Frames(templateSeconds)); err != nil {
			return b.Succeeded, fmt.Errorf("row 1 at %s: %w", l.Preset, err)
		}
	}
	return b.Succeeded, nil
}

// sharedFigures says how many of the batch's frames were rendered once for all its
// rows (the shared stretch each row project's metadata names, at each preset's rate)
// instead of once per row.
func (s *serve) sharedFigures(ctx context.Context, batchID string, rows int) string {
	var man struct {
		Lines []koda.ManifestLine `json:"lines"`
	}
	if _, err := s.do(ctx, http.MethodGet, "/v1/batches/"+batchID+"/manifest", nil, &man); err != nil || len(man.Lines) == 0 {
		return fmt.Sprintf("unknown (manifest: %v)", err)
	}
	var p struct {
		Metadata json.RawMessage `json:"metadata"`
	}
	if _, err := s.do(ctx, http.MethodGet, "/v1/projects/"+man.Lines[0].ProjectID, nil, &p); err != nil {
		return fmt.Sprintf("unknown (row project: %v)", err)
	}
	st, ok := koda.SharedStretchOf(p.Metadata)
	if !ok {
		return "none: every frame of the template depends on the row (the batch rendered every row whole)"
	}
	var parts []string
	whole, rendered := 0, 0
	for _, name := range templatePresets {
		ps, _ := koda.LookupPreset(name)
		total := ps.Frames(templateSeconds)
		head, tail, ok := st.Frames(ps.FPS, total)
		if !ok {
			head, tail = 0, total
		}
		shared := head + total - tail
		whole += rows * total
		rendered += rows*(tail-head) + shared
		parts = append(parts, fmt.Sprintf("%s %d of %d frames per row (%d before, %d after)", name, shared, total, head, total-tail))
	}
	tailNote := "no end card"
	if st.TailS > 0 {
		tailNote = fmt.Sprintf("after %.2f s", st.TailS)
	}
	return fmt.Sprintf("before %.2f s, %s: %s shared; the batch rendered %d frames instead of %d: %.1f %% of the rows' frames rendered once instead of per row",
		st.HeadS, tailNote, strings.Join(parts, ", "), rendered, whole, 100*float64(whole-rendered)/float64(whole))
}

// checkVideoURL downloads a video and checks its frame count.
func checkVideoURL(ctx context.Context, url string, frames int) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	f, err := os.CreateTemp("", "renderbench-row-*.mp4")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = io.Copy(f, resp.Body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	n, err := countFrames(f.Name())
	if err == nil && n != frames {
		err = fmt.Errorf("video has %d frames, not %d", n, frames)
	}
	return err
}

// templateScene reads the template's scene from its checkpoint in koda serve's local
// storage.
func templateScene(data, tplID string) ([]byte, error) {
	f, err := os.Open(filepath.Join(data, "storage", "templates", tplID, "checkpoint.tar.gz"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("template %s: no %s in its checkpoint", tplID, scene.FileJSON)
		}
		if err != nil {
			return nil, err
		}
		if strings.TrimPrefix(h.Name, "./") == scene.FileJSON {
			return io.ReadAll(io.LimitReader(tr, 8<<20))
		}
	}
}

// rowPictureName is the file name of row i's picture (0: the template's own).
func rowPictureName(i int) string {
	if i == 0 {
		return "sneaker.png"
	}
	return fmt.Sprintf("row-%03d.png", i)
}

// rowPicture is row i's picture (0: the template's own), a 512-pixel PNG of a product
// stand-in: a rounded tile of its own hue with a lighter band, on transparency.
func rowPicture(i int) []byte {
	const size = 512
	h := math.Mod(0.08+float64(i)*0.618034, 1)
	base, band := hsv(h, 0.7, 0.9), hsv(h, 0.35, 1)
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			dx := math.Max(math.Abs(float64(x)-size/2)-150, 0)
			dy := math.Max(math.Abs(float64(y)-size/2)-110, 0)
			if math.Hypot(dx, dy) > 90 {
				continue
			}
			c := base
			if y > size/2-30 && y < size/2+30 {
				c = band
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

func hsv(h, s, v float64) color.NRGBA {
	f := func(n float64) uint8 {
		k := math.Mod(n+h*6, 6)
		return uint8(255 * (v - v*s*math.Max(0, math.Min(math.Min(k, 4-k), 1))))
	}
	return color.NRGBA{f(5), f(3), f(1), 255}
}

// upload adds a file to the bench tenant's asset library and returns its id.
func (s *serve) upload(ctx context.Context, name string, data []byte) (string, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		return "", err
	}
	if _, err := fw.Write(data); err != nil {
		return "", err
	}
	if err := mw.Close(); err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/v1/assets", &body)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+benchAPIKey)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var a struct {
		ID string `json:"id"`
	}
	if resp.StatusCode != http.StatusCreated || json.Unmarshal(b, &a) != nil || a.ID == "" {
		return "", fmt.Errorf("upload %s: %d %s", name, resp.StatusCode, strings.TrimSpace(string(b)))
	}
	return a.ID, nil
}

// rowIndependent says which of a row's frames do not depend on the row: those before
// the first element a text or image field fills appears and after the last one ends
// (the elements found by the same field discovery the server runs).
func rowIndependent(sceneJSON []byte, fieldNames []string) string {
	d, err := scene.Parse(sceneJSON)
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	p, _ := koda.LookupPreset(templatePresets[0])
	fields := templates.Discover(d, "", templates.Frames([]koda.PresetSpec{p}))
	first, last := d.Duration, 0.0
	for _, f := range fields {
		kind, id, _ := strings.Cut(f.Target, ":")
		e := d.Element(id)
		if kind != "text" && kind != "image" || e == nil || !slices.Contains(fieldNames, f.Name) {
			continue
		}
		first = min(first, e.Start)
		end := e.End
		if end <= 0 || end > d.Duration {
			end = d.Duration
		}
		last = max(last, end)
	}
	fps := p.FPS
	total := p.Frames(d.Duration)
	before, after := 0, 0
	for i := range total {
		t := float64(i) / float64(fps)
		switch {
		case t < first:
			before++
		case t >= last:
			after++
		}
	}
	free := before + after
	return fmt.Sprintf("the fields appear at %.2f s and the last leaves at %.2f s of %g s: %d of each video's %d frames (%.0f %%) do not depend on the row (%d before, %d after), at every preset's rate",
		first, last, d.Duration, free, total, 100*float64(free)/float64(total), before, after)
}

// bundleTemplate writes the Remotion project of the template (the composition, and the
// template's and the n rows' pictures as its public files) and bundles it once, untimed.
func (e *peerEnv) bundleTemplate(ctx context.Context, n int) (string, error) {
	proj := filepath.Join(e.dir, "remotion", "template")
	pub := filepath.Join(proj, "public")
	if err := os.MkdirAll(pub, 0o755); err != nil {
		return "", err
	}
	for _, f := range []string{"index.jsx", "rows.mjs"} {
		b, err := scenes.ReadFile("scenes/remotion_template/" + f)
		if err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(proj, f), b, 0o644); err != nil {
			return "", err
		}
	}
	for i := 0; i <= n; i++ {
		if err := os.WriteFile(filepath.Join(pub, rowPictureName(i)), rowPicture(i), 0o644); err != nil {
			return "", err
		}
	}
	bundle := filepath.Join(e.work, "remotion-template-bundle")
	dir := filepath.Join(e.dir, "remotion")
	fmt.Fprintln(os.Stderr, "renderbench: bundling the Remotion template (untimed)…")
	cmd := peerCmd(ctx, dir, nil, filepath.Join(dir, "node_modules", ".bin", "remotion"), "bundle",
		filepath.Join(proj, "index.jsx"), "--out-dir", bundle, "--public-dir", pub, "--log=error")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("remotion bundle: %v: %s", err, tail(out))
	}
	return bundle, nil
}

// rowsAttempt is one Remotion run over every row and preset.
type rowsAttempt struct {
	cmd    *exec.Cmd
	videos []string
	frames []int
}

// remotionRows prepares the node script's job: every row at every preset.
func (e *peerEnv) remotionRows(ctx context.Context, bundle string, conc int, values []map[string]string, fields []string, rowImages bool) (*rowsAttempt, error) {
	out := filepath.Join(e.work, fmt.Sprintf("remotion-rows-%d", conc))
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	type render struct {
		Preset string            `json:"preset"`
		Props  map[string]string `json:"props"`
		Out    string            `json:"out"`
	}
	a := &rowsAttempt{}
	var renders []render
	for i, v := range values {
		for _, name := range templatePresets {
			p, _ := koda.LookupPreset(name)
			video := filepath.Join(out, fmt.Sprintf("row-%03d-%s.mp4", i+1, name))
			props := map[string]string{"headline": v[fields[0]], "subtitle": v[fields[1]], "tagline": v[fields[2]]}
			if rowImages {
				props["image"] = rowPictureName(i + 1)
			}
			renders = append(renders, render{Preset: name, Out: video, Props: props})
			a.videos = append(a.videos, video)
			a.frames = append(a.frames, p.Frames(templateSeconds))
		}
	}
	p720, _ := koda.LookupPreset(templatePresets[0])
	job := map[string]any{"bundle": bundle, "chromium": e.chromium, "composition": "promo", "presets": templatePresets,
		"concurrency": conc, "crf": p720.CRF, "x264Preset": koda.DefaultEncoderSpeed,
		"defaults": map[string]string{"image": rowPictureName(0)}, "renders": renders}
	b, _ := json.Marshal(job)
	jobFile := filepath.Join(out, "job.json")
	if err := os.WriteFile(jobFile, b, 0o644); err != nil {
		return nil, err
	}
	dir := filepath.Join(e.dir, "remotion")
	a.cmd = peerCmd(ctx, dir, nil, "node", filepath.Join(dir, "template", "rows.mjs"), jobFile)
	return a, nil
}

// runRows runs a Remotion rows job and checks every video's frame count; setup is the
// seconds the script spent opening the browser and selecting the composition.
func runRows(a *rowsAttempt) (ok int, setup float64, err error) {
	var log tailWriter
	a.cmd.Stdout, a.cmd.Stderr = &log, &log
	if err := a.cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("%v: %s", err, tail(log.b))
	}
	var sum struct {
		SetupMS float64 `json:"setup_ms"`
	}
	lines := strings.Split(strings.TrimSpace(string(log.b)), "\n")
	_ = json.Unmarshal([]byte(lines[len(lines)-1]), &sum)
	for k, v := range a.videos {
		n, err := countFrames(v)
		if err != nil {
			return ok, sum.SetupMS / 1000, err
		}
		if n != a.frames[k] {
			return ok, sum.SetupMS / 1000, fmt.Errorf("%s has %d frames, not %d", filepath.Base(v), n, a.frames[k])
		}
		ok++
	}
	return ok, sum.SetupMS / 1000, nil
}

// printTemplates prints the benchmark's table and the ratio to Remotion's best.
func printTemplates(r *tplResult, n int) {
	fmt.Println()
	pictures := "a picture of its own per row: an asset id on Koda's side, an inputProp on Remotion's"
	if !r.rowImages {
		pictures = "the template's picture on every row (-template-row-images=false)"
	}
	fmt.Printf("templates: a %d s template (%d text fields %s and the image field %s, %s), %d rows × %s, each side timed from its first request to its last video\n",
		templateSeconds, len(r.fields), strings.Join(r.fields, ", "), r.image, pictures, n, strings.Join(templatePresets, " + "))
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "renderer\tsettings\trows\tvideos\twall s\trows/min\town core-s\town core-s/row\tmachine core-s\tload avg start → end\trows/min ÷ koda\t")
	var k, kw *tplRow
	for i := range r.rows {
		if r.rows[i].who == "koda" && r.rows[i].err == nil {
			k = &r.rows[i]
		}
		if r.rows[i].who == "koda whole rows" && r.rows[i].err == nil {
			kw = &r.rows[i]
		}
	}
	for _, x := range r.rows {
		if x.err != nil {
			fmt.Fprintf(tw, "%s\t%s\tFAILED: %s\t\t\t\t\t\t\t\t\t\n", x.who, x.settings, oneLine(x.err))
			continue
		}
		who := x.who
		if x.best {
			who += " *"
		}
		rpm := float64(x.rows) / x.u.wall.Minutes()
		ratio := "-"
		if k != nil {
			ratio = fmt.Sprintf("%.2f", rpm/(float64(k.rows)/k.u.wall.Minutes()))
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.1f\t%.2f\t%.1f\t%.2f\t%.1f\t%s → %s\t%s\t\n", who, x.settings, x.rows, x.videos,
			x.u.wall.Seconds(), rpm, x.u.ownCoreS, x.u.ownCoreS/float64(x.rows), x.u.machineCoreS,
			firstField(x.loadStart), firstField(x.loadEnd), ratio)
	}
	tw.Flush()
	fmt.Println("* Remotion's best concurrency. load avg: the 1-minute load average of the machine (2 cores: above 2, others' work competes).")
	for _, x := range r.rows {
		if x.best && k != nil {
			kr, rr := float64(k.rows)/k.u.wall.Minutes(), float64(x.rows)/x.u.wall.Minutes()
			verdict := "meets"
			if kr < 1.5*rr {
				verdict = "misses"
			}
			fmt.Printf("templates: koda %.2f rows/min against Remotion's best %.2f: %.2f× (target ≥ 1.5×: %s it); own core-s per row %.1f against %.1f (%.2f×)\n",
				kr, rr, kr/rr, verdict, k.u.ownCoreS/float64(k.rows), x.u.ownCoreS/float64(x.rows), (x.u.ownCoreS/float64(x.rows))/(k.u.ownCoreS/float64(k.rows)))
		}
	}
	fmt.Println("templates: row-independent stretch: " + r.rowFrames)
	fmt.Println("templates: shared stretch rendered once per batch and spec: " + r.shared)
	if k != nil && kw != nil {
		a, b := float64(k.rows)/k.u.wall.Minutes(), float64(kw.rows)/kw.u.wall.Minutes()
		fmt.Printf("templates: koda %.2f rows/min with the shared stretch, %.2f with every row whole (%.2f×); own core-s per row %.1f against %.1f\n",
			a, b, a/b, k.u.ownCoreS/float64(k.rows), kw.u.ownCoreS/float64(kw.rows))
	}
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return "?"
}

// parseConcs reads -template-concurrency.
func parseConcs(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < 1 {
			return nil, fmt.Errorf("-template-concurrency %q: want positive numbers separated by commas", s)
		}
		out = append(out, c)
	}
	return out, nil
}
