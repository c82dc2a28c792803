package local_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox/local"
)

func setup(t *testing.T) (*local.Provider, koda.Sandbox) {
	t.Helper()
	p := local.New(local.Config{Root: t.TempDir(), CommandTimeout: 10 * time.Second, KillGrace: 500 * time.Millisecond})
	t.Cleanup(func() {
		if err := p.Close(context.Background()); err != nil {
			t.Errorf("close provider: %v", err)
		}
	})
	sb, err := p.Create(context.Background(), koda.SandboxSpec{ProjectID: "prj_test"})
	if err != nil {
		t.Fatal(err)
	}
	return p, sb
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want error %s, got nil", code)
	}
	if got := koda.ErrorCode(err); got != code {
		t.Fatalf("want error code %s, got %s (%v)", code, got, err)
	}
}

func write(t *testing.T, sb koda.Sandbox, files map[string]string) {
	t.Helper()
	for p, c := range files {
		if _, err := sb.WriteFile(context.Background(), p, []byte(c), false); err != nil {
			t.Fatalf("write %s: %v", p, err)
		}
	}
}

// sandboxPIDs lists live processes started by the sandbox, found by the environment
// variable every sandbox command carries.
func sandboxPIDs(t *testing.T, id string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	marker := []byte("KODA_SANDBOX_ID=" + id + "\x00")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(env, marker) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue // a zombie is dead, only not yet reaped by its new parent
			}
		}
		pids = append(pids, pid)
	}
	return pids
}

// waitNoProcesses fails unless every process of the sandbox is gone within a second
// (SIGKILL is delivered asynchronously).
func waitNoProcesses(t *testing.T, id string) {
	t.Helper()
	deadline := time.Now().Add(time.Second)
	for {
		pids := sandboxPIDs(t, id)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of sandbox %s survived: %v", id, pids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestLifecycle(t *testing.T) {
	ctx := context.Background()
	p, sb := setup(t)
	if !strings.HasPrefix(sb.ID(), "sbx_") || sb.ProjectID() != "prj_test" {
		t.Fatalf("id %q project %q", sb.ID(), sb.ProjectID())
	}
	if sb.State() != koda.SandboxReady {
		t.Fatalf("state %s, want ready", sb.State())
	}
	if st, err := os.Stat(sb.Dir()); err != nil || !st.IsDir() || filepath.Base(sb.Dir()) != sb.ID() {
		t.Fatalf("dir %s: %v", sb.Dir(), err)
	}
	got, err := p.Get(ctx, sb.ID())
	if err != nil || got.ID() != sb.ID() {
		t.Fatalf("get: %v", err)
	}
	other, err := p.Create(ctx, koda.SandboxSpec{ProjectID: "prj_other"})
	if err != nil {
		t.Fatal(err)
	}
	list, err := p.List(ctx)
	if err != nil || len(list) != 2 || list[0].ID() != sb.ID() || list[1].ID() != other.ID() {
		t.Fatalf("list: %v %v", list, err)
	}
	write(t, sb, map[string]string{"a/b.txt": "x"})

	if err := p.Destroy(ctx, sb.ID()); err != nil {
		t.Fatal(err)
	}
	if sb.State() != koda.SandboxStopped {
		t.Fatalf("state after destroy %s", sb.State())
	}
	if _, err := os.Stat(sb.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("folder survived destroy: %v", err)
	}
	_, err = p.Get(ctx, sb.ID())
	wantCode(t, err, koda.CodeSandboxNotFound)
	wantCode(t, p.Destroy(ctx, sb.ID()), koda.CodeSandboxNotFound)
	_, err = p.Get(ctx, "sbx_nope")
	wantCode(t, err, koda.CodeSandboxNotFound)
	_, err = sb.ReadFile(ctx, "a/b.txt", 0, 0)
	wantCode(t, err, koda.CodeSandboxNotFound)
	_, err = sb.RunCommand(ctx, koda.CommandRequest{Command: "true"})
	wantCode(t, err, koda.CodeSandboxNotFound)
	if list, _ := p.List(ctx); len(list) != 1 {
		t.Fatalf("list after destroy: %d", len(list))
	}
}

func TestWriteReadFile(t *testing.T) {
	ctx := context.Background()
	_, sb := setup(t)

	n, err := sb.WriteFile(ctx, "src/deep/app.js", []byte("hello"), false)
	if err != nil || n != 5 {
		t.Fatalf("write: %d %v", n, err)
	}
	n, err = sb.WriteFile(ctx, "./src/deep/app.js", []byte(" world"), true)
	if err != nil || n != 11 {
		t.Fatalf("append: %d %v", n, err)
	}
	if b, _ := os.ReadFile(filepath.Join(sb.Dir(), "src/deep/app.js")); string(b) != "hello world" {
		t.Fatalf("on disk %q", b)
	}
	for _, tc := range []struct {
		offset, limit int64
		want          string
	}{{0, 0, "hello world"}, {6, 0, "world"}, {0, 5, "hello"}, {6, 3, "wor"}, {11, 0, ""}, {50, 5, ""}} {
		b, err := sb.ReadFile(ctx, "src/deep/app.js", tc.offset, tc.limit)
		if err != nil || string(b) != tc.want {
			t.Errorf("read offset %d limit %d: %q %v, want %q", tc.offset, tc.limit, b, err, tc.want)
		}
	}
	n, err = sb.WriteFile(ctx, "src/deep/app.js", []byte("new"), false)
	if err != nil || n != 3 {
		t.Fatalf("overwrite: %d %v", n, err)
	}

	_, err = sb.ReadFile(ctx, "missing.txt", 0, 0)
	wantCode(t, err, koda.CodeFileNotFound)
	_, err = sb.ReadFile(ctx, "src", 0, 0)
	wantCode(t, err, koda.CodeInvalidPath)
	_, err = sb.ReadFile(ctx, "src/deep/app.js", -1, 0)
	wantCode(t, err, koda.CodeInvalidRequest)
	_, err = sb.WriteFile(ctx, "src", []byte("x"), false)
	wantCode(t, err, koda.CodeInvalidPath)
	_, err = sb.WriteFile(ctx, "src/deep/app.js/child", []byte("x"), false)
	wantCode(t, err, koda.CodeInvalidPath)
	_, err = sb.WriteFile(ctx, "", []byte("x"), false)
	wantCode(t, err, koda.CodeInvalidPath)
}

func TestListFiles(t *testing.T) {
	ctx := context.Background()
	_, sb := setup(t)
	write(t, sb, map[string]string{
		"index.html":            "<html>",
		"src/b.js":              "bb",
		"src/a.js":              "a",
		"src/lib/c.js":          "ccc",
		"node_modules/pkg/i.js": "dep",
	})

	got, err := sb.ListFiles(ctx, "", true)
	if err != nil {
		t.Fatal(err)
	}
	want := []koda.FileInfo{
		{Path: "index.html", SizeBytes: 6},
		{Path: "node_modules", IsDir: true},
		{Path: "src", IsDir: true},
		{Path: "src/a.js", SizeBytes: 1},
		{Path: "src/b.js", SizeBytes: 2},
		{Path: "src/lib", IsDir: true},
		{Path: "src/lib/c.js", SizeBytes: 3},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("recursive list:\n got %v\nwant %v", got, want)
	}
	got, err = sb.ListFiles(ctx, "src", false)
	if err != nil {
		t.Fatal(err)
	}
	want = []koda.FileInfo{{Path: "src/a.js", SizeBytes: 1}, {Path: "src/b.js", SizeBytes: 2}, {Path: "src/lib", IsDir: true}}
	if !slices.Equal(got, want) {
		t.Fatalf("flat list:\n got %v\nwant %v", got, want)
	}
	got, err = sb.ListFiles(ctx, "node_modules", true)
	if err != nil || len(got) != 2 || got[1].Path != "node_modules/pkg/i.js" {
		t.Fatalf("explicit node_modules list: %v %v", got, err)
	}
	got, err = sb.ListFiles(ctx, "src/a.js", false)
	if err != nil || len(got) != 1 || got[0].Path != "src/a.js" {
		t.Fatalf("list of a file: %v %v", got, err)
	}
	_, err = sb.ListFiles(ctx, "nope", true)
	wantCode(t, err, koda.CodeFileNotFound)
}

func TestReplace(t *testing.T) {
	ctx := context.Background()
	_, sb := setup(t)
	write(t, sb, map[string]string{"a.js": "color = red; border = red; bg = blue;"})

	_, err := sb.Replace(ctx, "a.js", "red", "green", 0)
	wantCode(t, err, koda.CodeInvalidRequest)
	if !strings.Contains(koda.ErrorMessage(err), "found 2") {
		t.Fatalf("message does not name the count found: %q", koda.ErrorMessage(err))
	}
	if b, _ := sb.ReadFile(ctx, "a.js", 0, 0); string(b) != "color = red; border = red; bg = blue;" {
		t.Fatalf("file changed by a refused replace: %q", b)
	}
	n, err := sb.Replace(ctx, "a.js", "red", "green", 2)
	if err != nil || n != 2 {
		t.Fatalf("replace: %d %v", n, err)
	}
	n, err = sb.Replace(ctx, "a.js", "blue", "black", 0)
	if err != nil || n != 1 {
		t.Fatalf("replace: %d %v", n, err)
	}
	if b, _ := sb.ReadFile(ctx, "a.js", 0, 0); string(b) != "color = green; border = green; bg = black;" {
		t.Fatalf("after replace: %q", b)
	}
	_, err = sb.Replace(ctx, "a.js", "purple", "x", 1)
	wantCode(t, err, koda.CodeInvalidRequest)
	_, err = sb.Replace(ctx, "a.js", "", "x", 1)
	wantCode(t, err, koda.CodeInvalidRequest)
	_, err = sb.Replace(ctx, "missing.js", "a", "b", 1)
	wantCode(t, err, koda.CodeFileNotFound)
}

func TestSearchAndGlob(t *testing.T) {
	ctx := context.Background()
	_, sb := setup(t)
	write(t, sb, map[string]string{
		"index.html":          "<script src=main.js></script>\n<h1>Hello</h1>",
		"main.js":             "const speed = 3;\nfunction draw(t) {}\n",
		"src/scene/ball.js":   "export function draw(t) { return t }\n",
		"src/style.css":       "h1 { color: red }",
		"node_modules/x/y.js": "function draw() {}",
	})
	if _, err := sb.WriteFile(ctx, "bin.dat", []byte("function draw\x00\x01"), false); err != nil {
		t.Fatal(err)
	}

	got, err := sb.SearchFiles(ctx, `function\s+draw`, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []koda.SearchMatch{
		{Path: "main.js", Line: 2, Text: "function draw(t) {}"},
		{Path: "src/scene/ball.js", Line: 1, Text: "export function draw(t) { return t }"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("search:\n got %v\nwant %v", got, want)
	}
	got, err = sb.SearchFiles(ctx, `(?i)h1`, "*.css")
	if err != nil || len(got) != 1 || got[0].Path != "src/style.css" {
		t.Fatalf("search include *.css: %v %v", got, err)
	}
	got, err = sb.SearchFiles(ctx, `draw`, "src/**/*.js")
	if err != nil || len(got) != 1 || got[0].Path != "src/scene/ball.js" {
		t.Fatalf("search include src/**: %v %v", got, err)
	}
	_, err = sb.SearchFiles(ctx, `(unclosed`, "")
	wantCode(t, err, koda.CodeInvalidRequest)

	for pattern, want := range map[string][]string{
		"**/*.js":              {"main.js", "src/scene/ball.js"},
		"*.js":                 {"main.js"},
		"src/*":                {"src/scene", "src/style.css"},
		"src/**":               {"src", "src/scene", "src/scene/ball.js", "src/style.css"}, // ** matches zero folders too
		"**/ball.js":           {"src/scene/ball.js"},
		"node_modules/**/*.js": {"node_modules/x/y.js"},
		"*.none":               nil,
	} {
		got, err := sb.Glob(ctx, pattern)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("glob %q: %v %v, want %v", pattern, got, err, want)
		}
	}
	_, err = sb.Glob(ctx, "src/[")
	wantCode(t, err, koda.CodeInvalidRequest)
}

// TestEscapes tries to reach the host through every tool; each attempt must answer
// INVALID_PATH and leave the host unchanged.
func TestEscapes(t *testing.T) {
	ctx := context.Background()
	_, sb := setup(t)
	outside := filepath.Join(filepath.Dir(sb.Dir()), "outside.txt")
	if err := os.WriteFile(outside, []byte("host secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Links made by a command, as generated code would: to /etc (absolute) and to the
	// folder above the sandbox (relative).
	res, err := sb.RunCommand(ctx, koda.CommandRequest{Command: "ln -s /etc etc && ln -s .. up && ln -s ../outside.txt leak.txt"})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("make links: %v %+v", err, res)
	}

	paths := []string{"../outside.txt", "/etc/passwd", "a/../../outside.txt", "etc/passwd", "up/outside.txt", "leak.txt", "etc"}
	for _, p := range paths {
		_, err := sb.ReadFile(ctx, p, 0, 0)
		wantCode(t, err, koda.CodeInvalidPath)
		_, err = sb.WriteFile(ctx, p, []byte("pwned"), false)
		wantCode(t, err, koda.CodeInvalidPath)
		_, err = sb.Replace(ctx, p, "secret", "pwned", 1)
		wantCode(t, err, koda.CodeInvalidPath)
		_, err = sb.ListFiles(ctx, p, true)
		wantCode(t, err, koda.CodeInvalidPath)
		_, err = sb.RunCommand(ctx, koda.CommandRequest{Command: "true", WorkingDir: p})
		wantCode(t, err, koda.CodeInvalidPath)
	}
	// New files through the links or around them.
	hostDir := filepath.Dir(sb.Dir())
	creates := map[string]string{
		"../new.txt":           filepath.Join(hostDir, "new.txt"),
		"/tmp/koda-escape.txt": "/tmp/koda-escape.txt",
		"etc/koda-new.txt":     "/etc/koda-new.txt",
		"etc/koda-dir/x.txt":   "/etc/koda-dir",
		"up/new.txt":           filepath.Join(hostDir, "new.txt"),
		"up/newdir/x.txt":      filepath.Join(hostDir, "newdir"),
	}
	for p, host := range creates {
		_, err := sb.WriteFile(ctx, p, []byte("pwned"), false)
		wantCode(t, err, koda.CodeInvalidPath)
		_, err = sb.WriteFile(ctx, p, []byte("pwned"), true)
		wantCode(t, err, koda.CodeInvalidPath)
		if _, err := os.Lstat(host); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("writing %q created %s on the host", p, host)
		}
	}
	for _, pattern := range []string{"../*", "/etc/*"} {
		_, err := sb.Glob(ctx, pattern)
		wantCode(t, err, koda.CodeInvalidPath)
	}
	// Walks list the links but never follow them out.
	got, err := sb.Glob(ctx, "**/passwd")
	if err != nil || len(got) != 0 {
		t.Fatalf("glob through symlink: %v %v", got, err)
	}
	matches, err := sb.SearchFiles(ctx, "root|host secret", "")
	if err != nil || len(matches) != 0 {
		t.Fatalf("search through symlink: %v %v", matches, err)
	}

	if b, _ := os.ReadFile(outside); string(b) != "host secret" {
		t.Fatalf("host file changed: %q", b)
	}
}

func TestRunCommand(t *testing.T) {
	ctx := context.Background()
	_, sb := setup(t)
	t.Setenv("KODA_WEBHOOK_SECRET", "whsec_must_not_leak")
	write(t, sb, map[string]string{"sub/f.txt": "inside"})

	res, err := sb.RunCommand(ctx, koda.CommandRequest{Command: "echo out; echo err >&2; cat f.txt; pwd; env; exit 3", WorkingDir: "sub"})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 3 || !strings.HasPrefix(res.Stdout, "out\ninside") || res.Stderr != "err\n" {
		t.Fatalf("result %+v", res)
	}
	if !strings.Contains(res.Stdout, "inside/work/sub\n") || !strings.Contains(res.Stdout, "PWD=/work/sub\n") {
		t.Fatalf("working dir not the sandbox's sub folder: %q", res.Stdout)
	}
	if strings.Contains(res.Stdout, "whsec_must_not_leak") {
		t.Fatal("the service's environment leaked into the sandbox")
	}

	res, err = sb.RunCommand(ctx, koda.CommandRequest{Command: "head -c 3000000 /dev/zero | tr '\\0' a"})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("big output: %v", err)
	}
	if len(res.Stdout) < 1<<20 || len(res.Stdout) > 1<<20+100 || !strings.HasSuffix(res.Stdout, "[output truncated: 1951424 more bytes]") {
		t.Fatalf("stdout not capped at 1 MiB: %d bytes, tail %q", len(res.Stdout), res.Stdout[len(res.Stdout)-60:])
	}

	res, err = sb.RunCommand(ctx, koda.CommandRequest{Command: "kill -9 $$"})
	if err != nil || res.ExitCode != 137 {
		t.Fatalf("signalled command: %+v %v", res, err)
	}
	_, err = sb.RunCommand(ctx, koda.CommandRequest{Command: "  "})
	wantCode(t, err, koda.CodeInvalidRequest)
	_, err = sb.RunCommand(ctx, koda.CommandRequest{Command: "true", WorkingDir: "nope"})
	wantCode(t, err, koda.CodeFileNotFound)
	_, err = sb.RunCommand(ctx, koda.CommandRequest{Command: "true", WorkingDir: "sub/f.txt"})
	wantCode(t, err, koda.CodeInvalidPath)
}

func TestRunCommandTimeoutKillsTree(t *testing.T) {
	ctx := context.Background()
	_, sb := setup(t)
	began := time.Now()
	res, err := sb.RunCommand(ctx, koda.CommandRequest{Command: "echo started; sleep 100 & sleep 100", TimeoutMS: 300})
	elapsed := time.Since(began)
	wantCode(t, err, koda.CodeTimeout)
	if koda.ErrorKind(err) != koda.ETIMEOUT {
		t.Fatalf("kind %s", koda.ErrorKind(err))
	}
	if res == nil || res.Stdout != "started\n" || res.ExitCode != 137 {
		t.Fatalf("partial result %+v", res)
	}
	if elapsed > 2*time.Second {
		t.Fatalf("timeout took %s", elapsed)
	}
	waitNoProcesses(t, sb.ID())
	if sb.State() != koda.SandboxReady {
		t.Fatalf("state after timeout %s", sb.State())
	}
}

func TestRunCommandCancelAndStragglers(t *testing.T) {
	_, sb := setup(t)

	// A foreground command that leaves a child behind returns when the shell exits and
	// the child dies with it.
	began := time.Now()
	res, err := sb.RunCommand(context.Background(), koda.CommandRequest{Command: "sleep 100 & echo done"})
	if err != nil || res.Stdout != "done\n" || res.ExitCode != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	if d := time.Since(began); d > time.Second {
		t.Fatalf("waited %s for a left-behind child", d)
	}
	waitNoProcesses(t, sb.ID())

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for sb.State() != koda.SandboxBusy {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	_, err = sb.RunCommand(ctx, koda.CommandRequest{Command: "sleep 100 & sleep 100"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled command: %v", err)
	}
	waitNoProcesses(t, sb.ID())
	if sb.State() != koda.SandboxReady {
		t.Fatalf("state after cancel %s", sb.State())
	}
}

func TestBackgroundKilledOnDestroy(t *testing.T) {
	ctx := context.Background()
	p, sb := setup(t)
	res, err := sb.RunCommand(ctx, koda.CommandRequest{Command: "sleep 100 & sleep 100", Background: true})
	if err != nil || res.PID <= 0 {
		t.Fatalf("background: %+v %v", res, err)
	}
	if sb.State() != koda.SandboxReady {
		t.Fatalf("a background command made the sandbox %s", sb.State())
	}
	deadline := time.Now().Add(2 * time.Second)
	for len(sandboxPIDs(t, sb.ID())) < 3 { // sh and two sleeps
		if time.Now().After(deadline) {
			t.Fatalf("background processes not running: %v", sandboxPIDs(t, sb.ID()))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !slices.Contains(sandboxPIDs(t, sb.ID()), res.PID) {
		t.Fatalf("returned PID %d is not a sandbox process", res.PID)
	}
	if err := p.Destroy(ctx, sb.ID()); err != nil {
		t.Fatal(err)
	}
	waitNoProcesses(t, sb.ID())
	if _, err := os.Stat(sb.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("folder survived destroy: %v", err)
	}
}

func TestBusyWhileRunning(t *testing.T) {
	_, sb := setup(t)
	done := make(chan error)
	go func() {
		_, err := sb.RunCommand(context.Background(), koda.CommandRequest{Command: "sleep 0.3"})
		done <- err
	}()
	deadline := time.Now().Add(time.Second)
	for sb.State() != koda.SandboxBusy {
		if time.Now().After(deadline) {
			t.Fatal("never busy")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if sb.State() != koda.SandboxReady {
		t.Fatalf("state %s after the command", sb.State())
	}
}
