package sandbox_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox"
)

type entry struct {
	dir  bool
	mode fs.FileMode
	data string
}

// tree reads every file and folder under dir, not following symlinks.
func tree(t *testing.T, dir string) map[string]entry {
	t.Helper()
	out := map[string]entry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		e := entry{dir: d.IsDir(), mode: info.Mode()}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			e.data = string(b)
		}
		out[filepath.ToSlash(rel)] = e
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func mustWrite(t *testing.T, path, data string, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

func TestCheckpointRestoreRoundTrip(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	mustWrite(t, filepath.Join(src, "index.html"), "<html>hello</html>", 0o644)
	mustWrite(t, filepath.Join(src, "src/scene/ball.js"), "export const r = 3;\n", 0o644)
	mustWrite(t, filepath.Join(src, "build.sh"), "#!/bin/sh\necho hi\n", 0o755)
	mustWrite(t, filepath.Join(src, "assets/big.bin"), string(bytes.Repeat([]byte{0, 1, 2, 255}, 300_000)), 0o644)
	mustWrite(t, filepath.Join(src, "empty.txt"), "", 0o644)
	if err := os.MkdirAll(filepath.Join(src, "empty/dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(src, "node_modules/react/index.js"), "dependency", 0o644)
	mustWrite(t, filepath.Join(src, "src/node_modules/x.js"), "nested dependency", 0o644)
	if err := os.Symlink("/etc/passwd", filepath.Join(src, "passwd")); err != nil {
		t.Fatal(err)
	}

	var buf bytes.Buffer
	if err := sandbox.Checkpoint(ctx, src, &buf); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "restored")
	if err := sandbox.Restore(ctx, bytes.NewReader(buf.Bytes()), dst, sandbox.Budget{}); err != nil {
		t.Fatal(err)
	}

	want := tree(t, src)
	maps.DeleteFunc(want, func(p string, e entry) bool {
		return p == "passwd" || slices.Contains(strings.Split(p, "/"), "node_modules")
	})
	got := tree(t, dst)
	if !maps.Equal(got, want) {
		t.Fatalf("restored tree differs\n got %v\nwant %v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	wantPaths := []string{"assets", "assets/big.bin", "build.sh", "empty", "empty.txt", "empty/dir", "index.html", "src", "src/scene", "src/scene/ball.js"}
	if !slices.Equal(slices.Sorted(maps.Keys(got)), wantPaths) {
		t.Fatalf("restored %v, want %v", slices.Sorted(maps.Keys(got)), wantPaths)
	}
	if got["build.sh"].mode.Perm() != 0o755 {
		t.Fatalf("mode of build.sh %v", got["build.sh"].mode)
	}
}

// archive builds a tar.gz from headers and bodies, as an attacker could.
func archive(t *testing.T, entries ...any) *bytes.Reader {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for i := 0; i < len(entries); i += 2 {
		hdr := entries[i].(*tar.Header)
		body := entries[i+1].(string)
		hdr.Size = int64(len(body))
		if hdr.Typeflag != tar.TypeReg {
			hdr.Size = 0
			body = ""
		}
		if hdr.Mode == 0 {
			hdr.Mode = 0o644
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(buf.Bytes())
}

func TestRestoreRejectsEscapes(t *testing.T) {
	ctx := context.Background()
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	if err := os.Mkdir(outside, 0o755); err != nil {
		t.Fatal(err)
	}

	cases := map[string]*bytes.Reader{
		"dot-dot":  archive(t, &tar.Header{Name: "../outside/evil.txt", Typeflag: tar.TypeReg}, "pwned"),
		"nested":   archive(t, &tar.Header{Name: "a/../../outside/evil.txt", Typeflag: tar.TypeReg}, "pwned"),
		"absolute": archive(t, &tar.Header{Name: filepath.Join(outside, "evil.txt"), Typeflag: tar.TypeReg}, "pwned"),
		// A link already present in the folder is refused by os.Root.
		"existing-symlink": archive(t, &tar.Header{Name: "pre/evil.txt", Typeflag: tar.TypeReg}, "pwned"),
		// A symlink entry is skipped, so a later entry through it lands in a real folder.
		"symlink-entry": archive(t,
			&tar.Header{Name: "link", Typeflag: tar.TypeSymlink, Linkname: outside}, "",
			&tar.Header{Name: "link/evil.txt", Typeflag: tar.TypeReg}, "pwned"),
		"existing-file-link": archive(t, &tar.Header{Name: "file", Typeflag: tar.TypeReg}, "pwned"),
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			dst := filepath.Join(base, name)
			if err := os.Mkdir(dst, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, filepath.Join(dst, "pre")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(outside, "file"), filepath.Join(dst, "file")); err != nil {
				t.Fatal(err)
			}
			err := sandbox.Restore(ctx, r, dst, sandbox.Budget{})
			switch name {
			case "symlink-entry":
				if err != nil {
					t.Fatal(err)
				}
				if st, err := os.Lstat(filepath.Join(dst, "link")); err != nil || !st.IsDir() {
					t.Fatalf("link entry: %v %v", st, err)
				}
			case "existing-file-link":
				// The link is replaced by a regular file inside the folder.
				if err != nil {
					t.Fatal(err)
				}
				if st, err := os.Lstat(filepath.Join(dst, "file")); err != nil || !st.Mode().IsRegular() {
					t.Fatalf("file not replaced: %v", err)
				}
			default:
				if koda.ErrorCode(err) != koda.CodeInvalidPath {
					t.Fatalf("want INVALID_PATH, got %v", err)
				}
			}
			entries, err := os.ReadDir(outside)
			if err != nil || len(entries) != 0 {
				t.Fatalf("written outside the folder: %v %v", entries, err)
			}
		})
	}

	// A corrupt stream is an error, not a partial success.
	if err := sandbox.Restore(ctx, bytes.NewReader([]byte("not gzip")), filepath.Join(base, "corrupt"), sandbox.Budget{}); err == nil {
		t.Fatal("corrupt checkpoint restored")
	}
	var ke *koda.Error
	if err := sandbox.Restore(ctx, bytes.NewReader([]byte("not gzip")), filepath.Join(base, "corrupt"), sandbox.Budget{}); errors.As(err, &ke) {
		t.Fatalf("corrupt stream reported as %v", ke)
	}
}
