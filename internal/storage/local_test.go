package storage_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/storage"
)

func setup(t *testing.T) (*storage.Local, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "files")
	return storage.NewLocal(dir, "http://koda.test:8080/", []byte("test-secret")), dir
}

func read(t *testing.T, s *storage.Local, key string) string {
	t.Helper()
	rc, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("open %s: %v", key, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := koda.ErrorCode(err); got != code {
		t.Fatalf("want code %s, got %s (%v)", code, got, err)
	}
}

func TestPutOpenDelete(t *testing.T) {
	ctx := context.Background()
	s, dir := setup(t)
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	n, err := s.Put(ctx, "projects/prj_1/renders/rnd_1.mp4", strings.NewReader("video bytes"))
	if err != nil || n != 11 {
		t.Fatalf("put: %d %v", n, err)
	}
	if got := read(t, s, "projects/prj_1/renders/rnd_1.mp4"); got != "video bytes" {
		t.Fatalf("read %q", got)
	}
	if _, err := s.Put(ctx, "projects/prj_1/renders/rnd_1.mp4", strings.NewReader("v2")); err != nil {
		t.Fatal(err)
	}
	if got := read(t, s, "projects/prj_1/renders/rnd_1.mp4"); got != "v2" {
		t.Fatalf("overwrite read %q", got)
	}
	p, err := s.Path("projects/prj_1/renders/rnd_1.mp4")
	if err != nil || p != filepath.Join(dir, "projects/prj_1/renders/rnd_1.mp4") {
		t.Fatalf("path %q %v", p, err)
	}

	_, err = s.Open(ctx, "projects/prj_1/missing.mp4")
	wantCode(t, err, koda.CodeNotFound)
	if koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Fatalf("kind %s", koda.ErrorKind(err))
	}
	_, err = s.Open(ctx, "projects/prj_1")
	wantCode(t, err, koda.CodeNotFound) // a folder is not a stored file
	_, err = s.Open(ctx, "projects/prj_1/renders/rnd_1.mp4/x")
	wantCode(t, err, koda.CodeNotFound)
	_, err = s.Path("projects/nope.mp4")
	wantCode(t, err, koda.CodeNotFound)

	if err := s.Delete(ctx, "projects/prj_1/renders/rnd_1.mp4"); err != nil {
		t.Fatal(err)
	}
	_, err = s.Open(ctx, "projects/prj_1/renders/rnd_1.mp4")
	wantCode(t, err, koda.CodeNotFound)
	if err := s.Delete(ctx, "projects/prj_1/renders/rnd_1.mp4"); err != nil {
		t.Fatalf("deleting a missing key: %v", err)
	}
}

func TestInvalidKeys(t *testing.T) {
	ctx := context.Background()
	s, dir := setup(t)
	for _, key := range []string{"", "/etc/passwd", "../escape", "a/../../escape", "a/../b", "./a", "a//b", "a/", `a\b`, ".tmp/x", "a\x00b"} {
		_, err := s.Put(ctx, key, strings.NewReader("x"))
		wantCode(t, err, storage.CodeInvalidKey)
		_, err = s.Open(ctx, key)
		wantCode(t, err, storage.CodeInvalidKey)
		_, err = s.Path(key)
		wantCode(t, err, storage.CodeInvalidKey)
		wantCode(t, s.Delete(ctx, key), storage.CodeInvalidKey)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a key escaped the storage folder")
	}
	wantCode(t, s.DeletePrefix(ctx, ""), storage.CodeInvalidKey)
	wantCode(t, s.DeletePrefix(ctx, "../"), storage.CodeInvalidKey)
	wantCode(t, s.DeletePrefix(ctx, "/"), storage.CodeInvalidKey)

	// A symlinked folder planted in storage does not lead out of it.
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("host"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(ctx, "link/secret"); err == nil {
		t.Fatal("opened a file through a symlink out of storage")
	}
	if _, err := s.Path("link/secret"); err == nil {
		t.Fatal("served a path through a symlink out of storage")
	}
	if _, err := s.Put(ctx, "link/new", strings.NewReader("x")); err == nil {
		t.Fatal("wrote through a symlink out of storage")
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("file created outside storage")
	}
}

// TestPutIsAtomic: a Put that fails half way leaves the previous file intact and no
// partial file or temporary behind.
func TestPutIsAtomic(t *testing.T) {
	ctx := context.Background()
	s, dir := setup(t)
	if _, err := s.Put(ctx, "a/video.mp4", strings.NewReader("complete old video")); err != nil {
		t.Fatal(err)
	}
	broken := io.MultiReader(strings.NewReader("half of the new"), iotest.ErrReader(errors.New("disk gone")))
	if _, err := s.Put(ctx, "a/video.mp4", broken); err == nil {
		t.Fatal("put from a failing reader succeeded")
	}
	if got := read(t, s, "a/video.mp4"); got != "complete old video" {
		t.Fatalf("previous file replaced by a partial one: %q", got)
	}
	_, err := s.Put(ctx, "a/new.mp4", io.MultiReader(strings.NewReader("half"), iotest.ErrReader(errors.New("boom"))))
	if err == nil {
		t.Fatal("put succeeded")
	}
	_, err = s.Open(ctx, "a/new.mp4")
	wantCode(t, err, koda.CodeNotFound)

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Put(cctx, "a/cancelled.mp4", strings.NewReader("x")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled put: %v", err)
	}
	tmp, err := os.ReadDir(filepath.Join(dir, ".tmp"))
	if err != nil || len(tmp) != 0 {
		t.Fatalf("temporary files left: %v %v", tmp, err)
	}
}

func TestDeletePrefix(t *testing.T) {
	ctx := context.Background()
	s, _ := setup(t)
	keys := []string{
		"projects/prj_a/checkpoint.tar.gz",
		"projects/prj_a/renders/rnd_1.mp4",
		"projects/prj_a/renders/rnd_2.mp4",
		"projects/prj_a/renders/thumb_1.jpg",
		"projects/prj_ab/keep.mp4",
		"projects/prj_b/keep.mp4",
		"top.txt",
	}
	for _, k := range keys {
		if _, err := s.Put(ctx, k, strings.NewReader(k)); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(k string) bool {
		_, err := s.Path(k)
		return err == nil
	}
	if err := s.DeletePrefix(ctx, "projects/prj_a/renders/rnd_"); err != nil {
		t.Fatal(err)
	}
	if exists("projects/prj_a/renders/rnd_1.mp4") || exists("projects/prj_a/renders/rnd_2.mp4") || !exists("projects/prj_a/renders/thumb_1.jpg") {
		t.Fatal("name prefix deleted the wrong files")
	}
	if err := s.DeletePrefix(ctx, "projects/prj_a/"); err != nil {
		t.Fatal(err)
	}
	if exists("projects/prj_a/checkpoint.tar.gz") || exists("projects/prj_a/renders/thumb_1.jpg") {
		t.Fatal("folder prefix left files")
	}
	if !exists("projects/prj_ab/keep.mp4") || !exists("projects/prj_b/keep.mp4") || !exists("top.txt") {
		t.Fatal("folder prefix deleted a sibling")
	}
	if err := s.DeletePrefix(ctx, "projects/prj_"); err != nil {
		t.Fatal(err)
	}
	if exists("projects/prj_ab/keep.mp4") || exists("projects/prj_b/keep.mp4") || !exists("top.txt") {
		t.Fatal("name prefix over folders")
	}
	if err := s.DeletePrefix(ctx, "nothing/here/"); err != nil {
		t.Fatalf("missing prefix: %v", err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestPingNotWritable(t *testing.T) {
	if os.Getuid() == 0 {
		// Root ignores permission bits; a file standing where the folder should be
		// fails for everyone.
		f := filepath.Join(t.TempDir(), "file")
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := storage.NewLocal(f, "", []byte("k")).Ping(context.Background()); err == nil {
			t.Fatal("ping of a file as storage folder succeeded")
		}
		return
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	if err := storage.NewLocal(dir, "", []byte("k")).Ping(context.Background()); err == nil {
		t.Fatal("ping of a read-only folder succeeded")
	}
}

func parseURL(t *testing.T, raw string) (key string, exp int64, sig string) {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme != "http" || u.Host != "koda.test:8080" || !strings.HasPrefix(u.Path, "/files/") {
		t.Fatalf("url %s", raw)
	}
	exp, err = strconv.ParseInt(u.Query().Get("exp"), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimPrefix(u.Path, "/files/"), exp, u.Query().Get("sig")
}

func TestSignedURL(t *testing.T) {
	s, _ := setup(t)
	key := "projects/prj_1/renders/rnd 1.mp4"
	raw := s.URL(key, time.Hour)
	if !strings.Contains(raw, "/files/projects/prj_1/renders/rnd%201.mp4?") {
		t.Fatalf("key not escaped in %s", raw)
	}
	gotKey, exp, sig := parseURL(t, raw)
	if gotKey != key {
		t.Fatalf("key %q", gotKey)
	}
	if d := time.Until(time.Unix(exp, 0)); d < 59*time.Minute || d > time.Hour+time.Second {
		t.Fatalf("exp %d is %s away", exp, d)
	}
	if len(sig) != 64 {
		t.Fatalf("sig %q", sig)
	}
	if err := s.Verify(key, exp, sig); err != nil {
		t.Fatalf("verify: %v", err)
	}
	if err := s.Verify(key, exp, strings.ToUpper(sig)); err != nil {
		t.Fatalf("verify upper-case hex: %v", err)
	}

	// Bound to the key, the expiry and the secret.
	wantCode(t, s.Verify("projects/prj_1/renders/rnd_2.mp4", exp, sig), storage.CodeInvalidSignature)
	wantCode(t, s.Verify(key, exp+3600, sig), storage.CodeInvalidSignature)
	wantCode(t, s.Verify(key, exp, sig[:63]+"0"), storage.CodeInvalidSignature)
	wantCode(t, s.Verify(key, exp, ""), storage.CodeInvalidSignature)
	other := storage.NewLocal(t.TempDir(), "http://koda.test:8080", []byte("other-secret"))
	wantCode(t, other.Verify(key, exp, sig), storage.CodeInvalidSignature)
	unsigned := storage.NewLocal(t.TempDir(), "http://koda.test:8080", nil)
	_, exp2, sig2 := parseURL(t, unsigned.URL(key, time.Hour))
	wantCode(t, unsigned.Verify(key, exp2, sig2), storage.CodeInvalidSignature)

	_, exp, sig = parseURL(t, s.URL(key, -time.Second))
	err := s.Verify(key, exp, sig)
	wantCode(t, err, storage.CodeURLExpired)
	if koda.ErrorKind(err) != koda.EUNAUTHORIZED {
		t.Fatalf("kind %s", koda.ErrorKind(err))
	}
}

func TestConcurrentPutsNeverExposePartialFiles(t *testing.T) {
	ctx := context.Background()
	s, _ := setup(t)
	a := bytes.Repeat([]byte("a"), 1<<20)
	b := bytes.Repeat([]byte("b"), 1<<20)
	if _, err := s.Put(ctx, "v.mp4", bytes.NewReader(a)); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 20 {
			data := a
			if i%2 == 0 {
				data = b
			}
			if _, err := s.Put(ctx, "v.mp4", bytes.NewReader(data)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for {
		select {
		case <-done:
			return
		default:
		}
		got := read(t, s, "v.mp4")
		if len(got) != 1<<20 || (got[0] != got[len(got)-1]) {
			t.Fatalf("read a partial or mixed file: %d bytes", len(got))
		}
	}
}
