package renderer

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kodahq/koda"
)

// A page folder is generated code: the page server and the hook scan must not reach
// a host file through a symlink, nor hang or read without end on a FIFO or device.
func TestPageFolderStaysInside(t *testing.T) {
	host := t.TempDir()
	secret := filepath.Join(host, "secret")
	if err := os.WriteFile(secret, []byte("HOST-SECRET-0xfeed"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "index.html"), []byte("<p>page</p>"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "ok.js"), []byte("let x = 1"), 0o644))
	must(os.Symlink("ok.js", filepath.Join(dir, "inside.js")))
	must(os.Symlink(secret, filepath.Join(dir, "abs.txt")))
	rel, _ := filepath.Rel(dir, secret)
	must(os.Symlink(rel, filepath.Join(dir, "rel.txt")))
	must(os.Symlink("/dev/zero", filepath.Join(dir, "zero.js")))
	must(os.Symlink("/proc/self/environ", filepath.Join(dir, "environ.js")))
	must(os.Symlink(host, filepath.Join(dir, "hostdir")))
	must(syscall.Mkfifo(filepath.Join(dir, "fifo.js"), 0o644))

	u, _, stop, err := servePage(koda.RenderRequest{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	base := u[:strings.LastIndex(u, "/")+1]
	get := func(name string) (int, string) {
		c := &http.Client{Timeout: 5 * time.Second}
		resp, err := c.Get(base + name)
		if err != nil {
			t.Fatalf("GET %s: %v", name, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return resp.StatusCode, string(b)
	}
	if code, body := get("inside.js"); code != 200 || body != "let x = 1" {
		t.Errorf("a symlink within the folder: %d %q", code, body)
	}
	for _, name := range []string{"abs.txt", "rel.txt", "zero.js", "environ.js", "hostdir/secret", "fifo.js", "..%2fsecret", "%2e%2e/" + filepath.Base(host) + "/secret"} {
		code, body := get(name)
		if code == 200 || strings.Contains(body, "HOST-SECRET") || strings.Contains(body, "\x00\x00") {
			t.Errorf("GET %s: %d %q, want a refusal and nothing of the host", name, code, body)
		}
	}

	began := time.Now()
	if got := scanPage(dir, "").hooks; got != hooksAbsent {
		t.Errorf("scanPage = %v", got)
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("scanPage took %v over links to /dev/zero and a FIFO", d)
	}
	// A link to a script that holds the hooks is not followed either.
	must(os.WriteFile(secret, []byte("window.__exportSeekTo = t => {}"), 0o600))
	must(os.Symlink(secret, filepath.Join(dir, "hooks.js")))
	if got := scanPage(dir, "").hooks; got != hooksAbsent {
		t.Errorf("scanPage read a file outside the folder through a link")
	}
}
