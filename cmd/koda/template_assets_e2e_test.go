package main

import (
	"context"
	"image"
	"image/color"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/ssrf"
	"github.com/kodahq/koda/sandbox"
)

// Each row's picture is one flat colour the agent never draws, so a frame shows whose
// picture it is.
var (
	templateBlue = color.RGBA{0x00, 0x40, 0xff, 0xff} // the template's own picture
	rowRed       = color.RGBA{0xff, 0x10, 0x10, 0xff} // row 1: an uploaded asset, by id
	rowGreen     = color.RGBA{0x10, 0xe0, 0x10, 0xff} // row 2: fetched from a URL
)

// loopbackFetch is the asset fetch client of a test: the SSRF guard's (public addresses
// only) except for the one test server at allowed, whose replies keep their bodies.
func loopbackFetch(allowed string) *http.Client {
	guard := &ssrf.Guard{}
	tr := &http.Transport{Proxy: nil, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if addr == allowed {
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		}
		return guard.DialContext(ctx, network, addr)
	}}
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// TestTemplateBatchRowAssets (issue 24, item 2): a template made from a project with a
// product photo and a soundtrack takes, per row, an uploaded asset id or a URL for the
// picture and an asset id for the soundtrack. Rows whose value cannot be used (another
// tenant's asset, a URL answering HTML, a URL at a refused address, an audio asset for
// the picture) are refused at submission with their row number and field while the
// good rows render, each frame showing its own picture; the URL two rows give is
// fetched once; the row with a soundtrack asset has an audio stream from its own file.
func TestTemplateBatchRowAssets(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	files := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case "/green.png":
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write(kodatest.LogoPNG(128, 128, rowGreen))
		case "/page.png":
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<!doctype html><html><body>not a picture</body></html>"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer files.Close()
	m := startTuned(t, "", func(m *Main) { m.AssetFetch = loopbackFetch(files.Listener.Addr().String()) })
	c := client{t: t, base: m.PublicURL}
	admin := client{t: t, base: m.PublicURL, key: testAdminKey}
	dir := t.TempDir()

	sound := func(name string, hz string) []byte {
		path := filepath.Join(dir, name)
		codec := "libmp3lame"
		if strings.HasSuffix(name, ".wav") {
			codec = "pcm_s16le"
		}
		if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency="+hz+":duration=4",
			"-c:a", codec, "-y", path).CombinedOutput(); err != nil {
			t.Fatalf("make %s: %v: %s", name, err, out)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	photo := c.uploadAsset("product photo.png", kodatest.LogoPNG(128, 128, templateBlue))
	theme := c.uploadAsset("theme.mp3", sound("theme.mp3", "330"))
	red := c.uploadAsset("red.png", kodatest.LogoPNG(128, 128, rowRed))
	jingle := c.uploadAsset("jingle.wav", sound("jingle.wav", "880"))

	// Another tenant's picture.
	if code, _ := admin.do(http.MethodPost, "/admin/tenants", map[string]string{"id": "t_other", "name": "other"}, nil); code != http.StatusCreated {
		t.Fatalf("create tenant: %d", code)
	}
	var key struct {
		Key string `json:"key"`
	}
	if code, _ := admin.do(http.MethodPost, "/admin/tenants/t_other/keys", map[string]string{"name": "ci"}, &key); code != http.StatusCreated {
		t.Fatalf("create key: %d", code)
	}
	theirs := client{t: t, base: m.PublicURL, key: key.Key}.uploadAsset("theirs.png", kodatest.LogoPNG(64, 64, rowRed))

	small := map[string]any{"width": 640, "height": 360, "fps": 5}
	var p project
	if code, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "Our product photo appears above the words 'NEW ARRIVAL' on a dark background", "duration_s": 2,
		"auto_approve": true, "presets": []any{small}, "brand": false,
		"assets": []map[string]string{{"id": photo, "role": "image"}, {"id": theme, "role": "soundtrack"}},
	}, &p); code != http.StatusAccepted {
		t.Fatalf("create project: %d", code)
	}
	c.waitProject(p.ID, 4*time.Minute, "complete", func(p project) bool { return p.Phase == "complete" && finalsDone(p, 1) })
	var tpl struct {
		ID     string `json:"id"`
		Fields []struct {
			Name, Type string
		} `json:"fields"`
	}
	if code, _ := c.do(http.MethodPost, "/v1/templates", map[string]any{"project_id": p.ID, "name": "arrivals"}, &tpl); code != http.StatusCreated {
		t.Fatalf("create template: %d", code)
	}
	picture, soundtrack := "", ""
	for _, f := range tpl.Fields {
		switch f.Type {
		case "image":
			picture = f.Name
		case "audio":
			soundtrack = f.Name
		}
	}
	if picture == "" || soundtrack == "" {
		t.Fatalf("the template has no image or no audio field: %+v", tpl.Fields)
	}

	green := files.URL + "/green.png"
	rows := []map[string]any{
		{picture: red, soundtrack: jingle},  // 1: uploaded assets by id
		{picture: green},                    // 2: a URL
		{picture: theirs},                   // 3: another tenant's asset
		{picture: files.URL + "/page.png"},  // 4: HTML, not a picture
		{picture: m.PublicURL + "/healthz"}, // 5: Koda itself, a refused address
		{picture: jingle},                   // 6: audio for a picture
		{picture: files.URL + "/gone.png"},  // 7: 404
		{picture: " " + green + " "},        // 8: the URL again (a CSV cell's spaces)
	}
	var batch struct {
		ID     string             `json:"id"`
		Status string             `json:"status"`
		Total  int                `json:"total"`
		Rows   []koda.RowProgress `json:"rows"`
	}
	if code, _ := c.do(http.MethodPost, "/v1/templates/"+tpl.ID+"/batches", map[string]any{"rows": rows, "presets": []any{small}}, &batch); code != http.StatusAccepted {
		t.Fatalf("create batch: %d %+v", code, batch)
	}
	want := map[int]string{3: "ASSET_NOT_FOUND", 4: "ASSET_UNSUPPORTED_TYPE", 5: "ASSET_URL_FORBIDDEN", 6: "ASSET_ROLE_MISMATCH", 7: "ASSET_FETCH_FAILED"}
	if batch.Total != 3 || len(batch.Rows) != len(rows) {
		t.Fatalf("batch of %d renders and %d rows, want 3 and %d: %+v", batch.Total, len(batch.Rows), len(rows), batch.Rows)
	}
	for _, r := range batch.Rows {
		code, bad := want[r.Row]
		switch {
		case bad && (r.Status != "invalid" || len(r.Errors) != 1 || r.Errors[0].Field != picture || r.Errors[0].Code != code):
			t.Errorf("row %d: %s %+v, want %s on %s", r.Row, r.Status, r.Errors, code, picture)
		case !bad && (r.Status == "invalid" || len(r.Errors) > 0):
			t.Errorf("row %d refused: %+v", r.Row, r.Errors)
		case bad:
			t.Logf("row %d refused: %s %s", r.Row, r.Errors[0].Code, r.Errors[0].Message)
		}
	}
	mu.Lock()
	if hits["/green.png"] != 1 {
		t.Errorf("the URL two rows give was fetched %d times, want once per batch", hits["/green.png"])
	}
	mu.Unlock()

	waitFor(t, "the batch to complete", 4*time.Minute, func() bool {
		c.do(http.MethodGet, "/v1/batches/"+batch.ID, nil, &batch)
		return batch.Status == "completed"
	})
	var man struct {
		Lines []koda.ManifestLine `json:"lines"`
	}
	c.do(http.MethodGet, "/v1/batches/"+batch.ID+"/manifest", nil, &man)
	shows := map[int]color.RGBA{1: rowRed, 2: rowGreen, 8: rowGreen}
	rendered := 0
	for _, l := range man.Lines {
		colour, good := shows[l.Row]
		if !good {
			if l.Status == "succeeded" {
				t.Errorf("refused row %d rendered: %+v", l.Row, l)
			}
			continue
		}
		if l.Status != "succeeded" || l.VideoURL == "" {
			t.Fatalf("row %d: %+v", l.Row, l)
		}
		rendered++
		video := download(t, l.VideoURL, dir, "row"+string(rune('0'+l.Row))+".mp4")
		img := frameImage(t, video, 1.6, 640, 360)
		for _, other := range []color.RGBA{templateBlue, rowRed, rowGreen} {
			_, n := kodatest.ColorBox(img, other, 110)
			switch {
			case other == colour && n < 400:
				t.Errorf("row %d: %d pixels of its own picture's colour %v, want a picture", l.Row, n, other)
			case other != colour && n > 40:
				t.Errorf("row %d: %d pixels of %v, another row's (or the template's) picture", l.Row, n, other)
			case other == colour:
				t.Logf("row %d: %d pixels of its picture's colour", l.Row, n)
			}
		}
		if l.Row == 1 {
			checkAudio(t, video, 2)
		}
	}
	if rendered != 3 {
		t.Errorf("%d good rows rendered, want 3", rendered)
	}

	// Row 1's project holds its own soundtrack in place of the template's, and its own
	// picture beside the template's.
	for _, r := range batch.Rows {
		if r.Row != 1 {
			continue
		}
		folder := filepath.Join(dir, "row1")
		rc, err := m.storage.Open(context.Background(), koda.CheckpointKey(koda.ProjectFolder(r.ProjectID)))
		if err != nil {
			t.Fatal(err)
		}
		err = sandbox.Restore(context.Background(), rc, folder, sandbox.Budget{})
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		for f, want := range map[string]bool{"assets/soundtrack.wav": true, "assets/soundtrack.mp3": false, "assets/rows/" + picture + ".png": true} {
			if _, err := os.Stat(filepath.Join(folder, f)); (err == nil) != want {
				t.Errorf("row 1's project: %s present %v, want %v", f, err == nil, want)
			}
		}
	}
	// The URL's file is in the tenant's library, once.
	var page struct {
		Assets []struct{ ID, Name string } `json:"assets"`
	}
	c.do(http.MethodGet, "/v1/assets", nil, &page)
	fetched := 0
	for _, a := range page.Assets {
		if a.Name == "green.png" {
			fetched++
		}
	}
	if fetched != 1 {
		t.Errorf("%d assets named green.png in the library, want 1: %+v", fetched, page.Assets)
	}
}

// frameImage is the frame at t of video as an image.
func frameImage(t *testing.T, video string, at float64, w, h int) *image.RGBA {
	t.Helper()
	rgb := frameAt(t, video, at, w, h)
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i, j := 0, 0; i+2 < len(rgb) && j+3 < len(img.Pix); i, j = i+3, j+4 {
		img.Pix[j], img.Pix[j+1], img.Pix[j+2], img.Pix[j+3] = rgb[i], rgb[i+1], rgb[i+2], 0xff
	}
	return img
}
