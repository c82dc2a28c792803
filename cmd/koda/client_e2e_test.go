package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runClient runs the koda command line as a person would, returning what it printed on
// stdout and stderr and its error (a non-nil error is a non-zero exit).
func runClient(t *testing.T, ctx context.Context, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := newCLI(&stdout, &stderr).Run(ctx, append([]string{"koda"}, args...))
	t.Logf("koda %s\nstdout:\n%sstderr:\n%serr: %v", strings.Join(args, " "), stdout.String(), stderr.String(), err)
	return stdout.String(), stderr.String(), err
}

// The client commands against a real server: `koda submit --wait -o` follows a prompt
// to its video and downloads it; the finished project becomes a template, and
// `koda batch --csv` with one row too long for its field exits non-zero naming that
// row and field, while the good rows' videos are downloaded, each whole.
func TestClientSubmitAndBatch(t *testing.T) {
	m := startKoda(t, "")
	t.Setenv("KODA_URL", m.PublicURL)
	t.Setenv("KODA_API_KEY", testAPIKey)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr, err := runClient(t, ctx, "submit", "The words 'HELLO WORLD' appear in big white letters on a dark background",
		"--presets", "preview", "--duration", "2", "--wait", "-o", out, "--poll", "200ms")
	if err != nil {
		t.Fatalf("submit: %v", err)
	}
	files := videos(t, out)
	if len(files) != 1 || !strings.HasPrefix(files[0], "prj_") || !strings.HasSuffix(files[0], "_preview.mp4") {
		t.Fatalf("submit downloaded %v, want one prj_…_preview.mp4", files)
	}
	if strings.TrimSpace(stdout) != filepath.Join(out, files[0]) {
		t.Errorf("submit printed %q, want the video's path", stdout)
	}
	if !strings.Contains(stderr, ": complete") || !strings.Contains(stderr, "100%") {
		t.Errorf("submit's log shows no phases or progress:\n%s", stderr)
	}
	projectID := strings.TrimSuffix(files[0], "_preview.mp4")
	c := client{t: t, base: m.PublicURL}
	var p project
	c.do(http.MethodGet, "/v1/projects/"+projectID, nil, &p)
	if len(p.Renders) == 0 || p.Phase != "complete" {
		t.Fatalf("project %s: %+v", projectID, p)
	}
	for _, r := range p.Renders {
		if r.Kind == "final" {
			sameAsServer(t, filepath.Join(out, files[0]), r.VideoURL)
		}
	}

	var tpl struct {
		ID     string `json:"id"`
		Fields []struct {
			Name  string          `json:"name"`
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
			Limit struct {
				MaxLength int `json:"max_length"`
			} `json:"limit"`
		} `json:"fields"`
	}
	if status, _ := c.do(http.MethodPost, "/v1/templates", map[string]any{"project_id": projectID, "name": "greeting"}, &tpl); status != http.StatusCreated {
		t.Fatalf("create template: %d %+v", status, tpl)
	}
	field, limit := "", 0
	for _, f := range tpl.Fields {
		if f.Type == "text" && f.Limit.MaxLength > 0 {
			field, limit = f.Name, f.Limit.MaxLength
			break
		}
	}
	if field == "" {
		t.Fatalf("no text field with a limit: %+v", tpl.Fields)
	}
	csvPath := filepath.Join(t.TempDir(), "rows.csv")
	rows := field + "\nSPRING\n" + strings.Repeat("W", limit+10) + "\nAUTUMN\n"
	if err := os.WriteFile(csvPath, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	bout := filepath.Join(t.TempDir(), "batch")
	stdout, _, err = runClient(t, ctx, "batch", tpl.ID, "--csv", csvPath, "--presets", "preview", "-o", bout, "--poll", "200ms")
	if err == nil {
		t.Fatal("batch with a bad row exited 0")
	}
	if msg := err.Error(); !strings.Contains(msg, "1 of its 3 rows failed") || !strings.Contains(msg, "row 2: "+field+":") ||
		strings.Contains(msg, "row 1") || strings.Contains(msg, "row 3") {
		t.Errorf("batch error %q does not name row 2 and its field %s alone", msg, field)
	}
	got := videos(t, bout)
	if strings.Join(got, " ") != "row-1_preview.mp4 row-3_preview.mp4" {
		t.Fatalf("batch downloaded %v, want row-1_preview.mp4 row-3_preview.mp4", got)
	}
	for _, name := range got {
		if !strings.Contains(stdout, filepath.Join(bout, name)) {
			t.Errorf("batch did not print %s", name)
		}
		if pr := ffprobe(t, filepath.Join(bout, name)); pr.Codec != "h264" || pr.Width != 640 || pr.Height != 360 {
			t.Errorf("%s: %+v", name, pr)
		}
	}

	t.Run("unknown preset", func(t *testing.T) {
		_, _, err := runClient(t, ctx, "submit", "a red ball", "--presets", "youtube,youtub")
		if err == nil || !strings.Contains(err.Error(), "UNKNOWN_PRESET") || !strings.Contains(err.Error(), `"youtub"`) {
			t.Errorf("submit with an unknown preset: %v", err)
		}
		_, _, err = runClient(t, ctx, "batch", tpl.ID, "--csv", csvPath, "--presets", "tiktokk")
		if err == nil || !strings.Contains(err.Error(), "UNKNOWN_PRESET") {
			t.Errorf("batch with an unknown preset: %v", err)
		}
	})
	t.Run("unreadable CSV", func(t *testing.T) {
		_, _, err := runClient(t, ctx, "batch", tpl.ID, "--csv", filepath.Join(t.TempDir(), "missing.csv"), "--presets", "preview")
		if err == nil || !strings.Contains(err.Error(), "cannot read the CSV file") {
			t.Errorf("batch with a missing CSV: %v", err)
		}
	})
	t.Run("rows as JSON", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "rows.json")
		os.WriteFile(path, []byte(`[{"`+field+`":"WINTER"}]`), 0o644)
		stdout, _, err := runClient(t, ctx, "batch", tpl.ID, "--rows", path, "--presets", "preview", "--wait", "--poll", "200ms")
		if err != nil || !strings.HasPrefix(stdout, "row 1 preview http") {
			t.Errorf("batch --rows --wait: %q, %v", stdout, err)
		}
	})
	t.Run("no server", func(t *testing.T) {
		t.Setenv("KODA_URL", "")
		_, _, err := runClient(t, ctx, "submit", "a red ball")
		if err == nil || !strings.Contains(err.Error(), "KODA_URL") {
			t.Errorf("submit without KODA_URL: %v", err)
		}
	})
}

// videos lists the finished files in dir, failing on any temporary file left behind.
func videos(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("%s left behind in %s", e.Name(), dir)
			continue
		}
		out = append(out, e.Name())
	}
	return out
}

// sameAsServer compares a downloaded file with the server's copy, byte for byte.
func sameAsServer(t *testing.T, path, url string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(download(t, url, t.TempDir(), "want.mp4"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) || len(got) == 0 {
		t.Errorf("%s: %d bytes, the server has %d", path, len(got), len(want))
	}
}
