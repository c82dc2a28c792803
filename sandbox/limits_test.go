package sandbox_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox"
)

// sparse makes a file of size bytes that takes no disk: truncate -s, as a tenant would.
func sparse(t *testing.T, path string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func mustCode(t *testing.T, what string, err error, code string) {
	t.Helper()
	if koda.ErrorCode(err) != code {
		t.Fatalf("%s: %v, want %s", what, err, code)
	}
}

// countingWriter counts what a checkpoint writes.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// The file tools read with limits whatever size a file claims: a 512 MiB sparse file is
// refused by read_file, replace, transfer and output bindings from its size alone, a
// FIFO never blocks them, and search skips both.
func TestToolsReadWithLimits(t *testing.T) {
	dir := t.TempDir()
	sparse(t, filepath.Join(dir, "big.bin"), 512<<20)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.js"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(dir, "a.txt"), "needle\n"+strings.Repeat("a", 1000), 0o644)
	f, err := sandbox.OpenFiles(dir, -1, -1, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()

	_, err = f.ReadFile(ctx, "big.bin", 0, 0)
	mustCode(t, "read a sparse 512 MiB file whole", err, koda.CodeFileTooLarge)
	_, err = f.ReadFile(ctx, "big.bin", 0, 1<<30)
	mustCode(t, "read with a 1 GiB limit", err, koda.CodeInvalidRequest)
	if b, err := f.ReadFile(ctx, "big.bin", 100<<20, 4096); err != nil || len(b) != 4096 {
		t.Fatalf("a piece of the sparse file: %d bytes, %v", len(b), err)
	}
	if b, err := f.ReadFile(ctx, "big.bin", 512<<20-10, 0); err != nil || len(b) != 10 {
		t.Fatalf("the end of the sparse file: %d bytes, %v", len(b), err)
	}
	_, err = f.Replace(ctx, "big.bin", "x", "y", 1)
	mustCode(t, "replace in the sparse file", err, koda.CodeFileTooLarge)
	// A short old_string found a thousand times with a long new_string: the result
	// would be 4 GiB; refused before it is built.
	_, err = f.Replace(ctx, "a.txt", "a", strings.Repeat("b", 4<<20), 1000)
	mustCode(t, "replace growing the file past the limit", err, koda.CodeFileTooLarge)

	done := make(chan error, 1)
	go func() { _, err := f.ReadFile(ctx, "pipe.js", 0, 0); done <- err }()
	select {
	case err := <-done:
		mustCode(t, "read a FIFO", err, koda.CodeInvalidPath)
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
	m, err := f.SearchFiles(ctx, "needle", "")
	if err != nil || len(m) != 1 || m[0].Path != "a.txt" {
		t.Fatalf("search: %v %v", m, err)
	}

	sb := &filesSandbox{Files: f, dir: dir}
	for _, in := range []string{
		`{"path":"big.bin","direction":"out"}`,
		`{"command":"true","files":{"big.bin":"text"}}`,
	} {
		tool := sandbox.ToolTransfer
		if strings.Contains(in, "command") {
			tool = sandbox.ToolRunCommand
		}
		_, err := sandbox.CallTool(ctx, sb, tool, []byte(in))
		mustCode(t, in, err, koda.CodeFileTooLarge)
	}
	// NUL bytes come back as base64, not six bytes each.
	out, err := sandbox.CallTool(ctx, sb, sandbox.ToolReadFile, []byte(`{"path":"big.bin","limit":1048576}`))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(out); len(b) > 1500000 {
		t.Fatalf("1 MiB of zeros became %d bytes of JSON", len(b))
	}
}

// filesSandbox is a koda.Sandbox over Files alone, for CallTool.
type filesSandbox struct {
	*sandbox.Files
	dir string
}

func (s *filesSandbox) ID() string               { return "sbx_test" }
func (s *filesSandbox) ProjectID() string        { return "" }
func (s *filesSandbox) State() koda.SandboxState { return koda.SandboxReady }
func (s *filesSandbox) Dir() string              { return s.dir }
func (s *filesSandbox) RunCommand(context.Context, koda.CommandRequest) (*koda.CommandResult, error) {
	return &koda.CommandResult{}, nil
}

// A checkpoint over its budget, counted in apparent bytes and files, is refused before
// a byte is read or written: eight sparse 512 MiB files cost a stat each, not 17 s of
// gzip.
func TestCheckpointBudget(t *testing.T) {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "index.html"), "<canvas></canvas>", 0o644)
	for i := range 8 {
		sparse(t, filepath.Join(dir, "hole"+string(rune('0'+i))+".bin"), 512<<20)
	}
	var w countingWriter
	began := time.Now()
	err := sandbox.Checkpoint(context.Background(), dir, &w)
	mustCode(t, "checkpoint of 4 GiB of holes", err, koda.CodeQuotaExceeded)
	if w.n != 0 {
		t.Fatalf("%d bytes written before the refusal", w.n)
	}
	t.Logf("refused in %s", time.Since(began))

	many := t.TempDir()
	for i := range 30 {
		mustWrite(t, filepath.Join(many, "f", strings.Repeat("x", i+1)), "x", 0o644)
	}
	err = sandbox.CheckpointWithin(context.Background(), many, &w, sandbox.Budget{Files: 20})
	mustCode(t, "checkpoint of 31 entries with a budget of 20", err, koda.CodeQuotaExceeded)
	if err := sandbox.CheckpointWithin(context.Background(), many, io.Discard, sandbox.Budget{Files: 40}); err != nil {
		t.Fatalf("within budget: %v", err)
	}
}

// A restore stops at its budget: a gzip bomb (a small archive of one huge entry) and an
// archive of too many files fail with QUOTA_EXCEEDED having written at most the budget.
func TestRestoreBudget(t *testing.T) {
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	const size = 64 << 20
	if err := tw.WriteHeader(&tar.Header{Name: "zeros.bin", Typeflag: tar.TypeReg, Mode: 0o644, Size: size}); err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyN(tw, zeroReader{}, size); err != nil {
		t.Fatal(err)
	}
	tw.Close()
	zw.Close()
	dst := t.TempDir()
	err := sandbox.Restore(context.Background(), bytes.NewReader(bomb.Bytes()), dst, sandbox.Budget{Bytes: 1 << 20})
	mustCode(t, "restore a 64 MiB entry with a 1 MiB budget", err, koda.CodeQuotaExceeded)
	if st, err := os.Stat(filepath.Join(dst, "zeros.bin")); err == nil {
		t.Fatalf("the over-budget entry was written (%d bytes)", st.Size())
	}
	t.Logf("a %d KiB archive of a %d MiB entry refused", bomb.Len()>>10, size>>20)

	var many bytes.Buffer
	zw = gzip.NewWriter(&many)
	tw = tar.NewWriter(zw)
	for i := range 50 {
		_ = tw.WriteHeader(&tar.Header{Name: "f" + strings.Repeat("x", i), Typeflag: tar.TypeReg, Mode: 0o644})
	}
	tw.Close()
	zw.Close()
	err = sandbox.Restore(context.Background(), bytes.NewReader(many.Bytes()), t.TempDir(), sandbox.Budget{Files: 10})
	mustCode(t, "restore 50 files with a budget of 10", err, koda.CodeQuotaExceeded)
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
