// Package storagetest is the behaviour every koda.Storage backend must show, run by
// each backend's tests against a real instance (a folder, an S3 server process).
package storagetest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/storage"
)

// Run runs the suite; newStorage returns an empty store for one subtest. Download URLs
// it hands out must be fetchable with a plain HTTP GET.
func Run(t *testing.T, newStorage func(t *testing.T) koda.Storage) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s koda.Storage)
	}{
		{"PutOpenDelete", testPutOpenDelete},
		{"InvalidKeys", testInvalidKeys},
		{"FailedPutKeepsPrevious", testFailedPut},
		{"DeletePrefix", testDeletePrefix},
		{"List", testList},
		{"LargeFile", testLargeFile},
		{"ConcurrentPuts", testConcurrentPuts},
		{"DownloadURL", testDownloadURL},
		{"DownloadURLInvalidKey", testDownloadURLInvalidKey},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStorage(t)) })
	}
}

// Read returns the file under key, failing the test when it cannot be read.
func Read(t *testing.T, s koda.Storage, key string) string {
	t.Helper()
	rc, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("open %s: %v", key, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return string(b)
}

func exists(t *testing.T, s koda.Storage, key string) bool {
	t.Helper()
	rc, err := s.Open(context.Background(), key)
	if err == nil {
		rc.Close()
		return true
	}
	if koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Fatalf("open %s: %v", key, err)
	}
	return false
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := koda.ErrorCode(err); got != code {
		t.Fatalf("want code %s, got %s (%v)", code, got, err)
	}
}

func testPutOpenDelete(t *testing.T, s koda.Storage) {
	ctx := context.Background()
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	key := "projects/prj_1/renders/rnd_1.mp4"
	n, err := s.Put(ctx, key, strings.NewReader("video bytes"))
	if err != nil || n != 11 {
		t.Fatalf("put: %d %v", n, err)
	}
	if got := Read(t, s, key); got != "video bytes" {
		t.Fatalf("read %q", got)
	}
	if _, err := s.Put(ctx, key, strings.NewReader("v2")); err != nil {
		t.Fatal(err)
	}
	if got := Read(t, s, key); got != "v2" {
		t.Fatalf("overwrite read %q", got)
	}
	for _, missing := range []string{"projects/prj_1/missing.mp4", "projects/prj_1", key + "/x"} {
		_, err = s.Open(ctx, missing)
		wantCode(t, err, koda.CodeNotFound)
		if koda.ErrorKind(err) != koda.ENOTFOUND {
			t.Fatalf("open %s: kind %s", missing, koda.ErrorKind(err))
		}
	}
	if err := s.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	_, err = s.Open(ctx, key)
	wantCode(t, err, koda.CodeNotFound)
	if err := s.Delete(ctx, key); err != nil {
		t.Fatalf("deleting a missing key: %v", err)
	}
}

func testInvalidKeys(t *testing.T, s koda.Storage) {
	ctx := context.Background()
	for _, key := range []string{"", "/etc/passwd", "../escape", "a/../../escape", "a/../b", "./a", "a//b", "a/", `a\b`, ".tmp/x", "a\x00b"} {
		_, err := s.Put(ctx, key, strings.NewReader("x"))
		wantCode(t, err, storage.CodeInvalidKey)
		_, err = s.Open(ctx, key)
		wantCode(t, err, storage.CodeInvalidKey)
		wantCode(t, s.Delete(ctx, key), storage.CodeInvalidKey)
	}
	for _, prefix := range []string{"", "../", "/", "a/../"} {
		wantCode(t, s.DeletePrefix(ctx, prefix), storage.CodeInvalidKey)
	}
}

// testFailedPut: a Put that fails half way leaves the previous file intact and no
// partial file behind.
func testFailedPut(t *testing.T, s koda.Storage) {
	ctx := context.Background()
	if _, err := s.Put(ctx, "a/video.mp4", strings.NewReader("complete old video")); err != nil {
		t.Fatal(err)
	}
	broken := io.MultiReader(strings.NewReader("half of the new"), iotest.ErrReader(errors.New("disk gone")))
	if _, err := s.Put(ctx, "a/video.mp4", broken); err == nil {
		t.Fatal("put from a failing reader succeeded")
	}
	if got := Read(t, s, "a/video.mp4"); got != "complete old video" {
		t.Fatalf("previous file replaced by a partial one: %q", got)
	}
	_, err := s.Put(ctx, "a/new.mp4", io.MultiReader(strings.NewReader("half"), iotest.ErrReader(errors.New("boom"))))
	if err == nil {
		t.Fatal("put succeeded")
	}
	if exists(t, s, "a/new.mp4") {
		t.Fatal("a failed put left a file")
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Put(cctx, "a/cancelled.mp4", strings.NewReader("x")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled put: %v", err)
	}
	if exists(t, s, "a/cancelled.mp4") {
		t.Fatal("a cancelled put left a file")
	}
}

func testDeletePrefix(t *testing.T, s koda.Storage) {
	ctx := context.Background()
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
	if err := s.DeletePrefix(ctx, "projects/prj_a/renders/rnd_"); err != nil {
		t.Fatal(err)
	}
	if exists(t, s, "projects/prj_a/renders/rnd_1.mp4") || exists(t, s, "projects/prj_a/renders/rnd_2.mp4") || !exists(t, s, "projects/prj_a/renders/thumb_1.jpg") {
		t.Fatal("name prefix deleted the wrong files")
	}
	if err := s.DeletePrefix(ctx, "projects/prj_a/"); err != nil {
		t.Fatal(err)
	}
	if exists(t, s, "projects/prj_a/checkpoint.tar.gz") || exists(t, s, "projects/prj_a/renders/thumb_1.jpg") {
		t.Fatal("folder prefix left files")
	}
	if !exists(t, s, "projects/prj_ab/keep.mp4") || !exists(t, s, "projects/prj_b/keep.mp4") || !exists(t, s, "top.txt") {
		t.Fatal("folder prefix deleted a sibling")
	}
	if err := s.DeletePrefix(ctx, "projects/prj_"); err != nil {
		t.Fatal(err)
	}
	if exists(t, s, "projects/prj_ab/keep.mp4") || exists(t, s, "projects/prj_b/keep.mp4") || !exists(t, s, "top.txt") {
		t.Fatal("name prefix over folders")
	}
	if err := s.DeletePrefix(ctx, "nothing/here/"); err != nil {
		t.Fatalf("missing prefix: %v", err)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}

func testList(t *testing.T, s koda.Storage) {
	ctx := context.Background()
	before := time.Now().Add(-time.Minute)
	keys := map[string]string{
		"projects/prj_a/checkpoint.tar.gz":             "ck",
		"projects/prj_a/renders/rnd_1.mp4":             "video",
		"projects/prj_a/renders/rnd_1/chunk-1-000.mp4": "chunk",
		"projects/prj_ab/keep.mp4":                     "x",
		"tenants/t1/sandboxes/s1/checkpoint.tar.gz":    "y",
	}
	for k, v := range keys {
		if _, err := s.Put(ctx, k, strings.NewReader(v)); err != nil {
			t.Fatal(err)
		}
	}
	list := func(prefix string) map[string]koda.StoredFile {
		t.Helper()
		got := map[string]koda.StoredFile{}
		if err := s.List(ctx, prefix, func(f koda.StoredFile) error { got[f.Key] = f; return nil }); err != nil {
			t.Fatalf("list %s: %v", prefix, err)
		}
		return got
	}
	got := list("projects/prj_a/")
	if len(got) != 3 {
		t.Fatalf("list projects/prj_a/: %v", got)
	}
	for k, f := range got {
		if f.Size != int64(len(keys[k])) || f.ModTime.Before(before) || f.ModTime.After(time.Now().Add(time.Minute)) {
			t.Fatalf("listed %+v for %q", f, keys[k])
		}
	}
	if got := list("projects/prj_a"); len(got) != 4 {
		t.Fatalf("name prefix over folders: %v", got)
	}
	if got := list("projects/"); len(got) != 4 {
		t.Fatalf("list projects/: %v", got)
	}
	if got := list("nothing/here/"); len(got) != 0 {
		t.Fatalf("missing prefix: %v", got)
	}
	if err := s.List(ctx, "", func(koda.StoredFile) error { return nil }); koda.ErrorKind(err) != koda.EINVALID {
		t.Fatalf("empty prefix: %v", err)
	}
	stop := errors.New("stop")
	n := 0
	if err := s.List(ctx, "projects/", func(koda.StoredFile) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Fatalf("an error from fn: %v after %d", err, n)
	}
}

// testLargeFile sends a file several parts long (backends that upload in parts are
// set up with parts smaller than it).
func testLargeFile(t *testing.T, s koda.Storage) {
	ctx := context.Background()
	data := make([]byte, 12<<20+123)
	for i := range data {
		data[i] = byte(i*7 + i>>12)
	}
	n, err := s.Put(ctx, "renders/big.mp4", bytes.NewReader(data))
	if err != nil || n != int64(len(data)) {
		t.Fatalf("put: %d %v", n, err)
	}
	if got := Read(t, s, "renders/big.mp4"); got != string(data) {
		t.Fatalf("read back %d bytes, differing from the %d put", len(got), len(data))
	}
}

func testConcurrentPuts(t *testing.T, s koda.Storage) {
	ctx := context.Background()
	a := bytes.Repeat([]byte("a"), 1<<20)
	b := bytes.Repeat([]byte("b"), 1<<20)
	if _, err := s.Put(ctx, "v.mp4", bytes.NewReader(a)); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 10 {
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
		got := Read(t, s, "v.mp4")
		if len(got) != 1<<20 || strings.Count(got, got[:1]) != len(got) {
			t.Fatalf("read a partial or mixed file: %d bytes", len(got))
		}
	}
}

func get(t *testing.T, raw string) (int, string) {
	t.Helper()
	if raw == "" {
		t.Fatal("no download URL")
	}
	resp, err := http.Get(raw)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// URL returns the download URL of key, failing the test when none can be made.
func URL(t *testing.T, s koda.Storage, key string, ttl time.Duration) string {
	t.Helper()
	raw, err := s.URL(key, ttl)
	if err != nil {
		t.Fatalf("URL %s: %v", key, err)
	}
	if raw == "" {
		t.Fatalf("URL %s: empty link and no error", key)
	}
	return raw
}

// testDownloadURLInvalidKey: a key no Put could have stored gets an error, never a
// link (an empty one, or one to another file).
func testDownloadURLInvalidKey(t *testing.T, s koda.Storage) {
	for _, key := range []string{"", "../secret.mp4", "/abs/video.mp4", "projects/../../x.mp4", "a\\b.mp4", "projects//x.mp4"} {
		raw, err := s.URL(key, time.Hour)
		if err == nil || raw != "" {
			t.Errorf("URL(%q) = %q, %v; want an error and no link", key, raw, err)
			continue
		}
		wantCode(t, err, storage.CodeInvalidKey)
		if koda.ErrorKind(err) != koda.EINVALID {
			t.Errorf("URL(%q): kind %s", key, koda.ErrorKind(err))
		}
	}
}

func testDownloadURL(t *testing.T, s koda.Storage) {
	ctx := context.Background()
	key := "projects/prj_1/renders/rnd 1.mp4"
	if _, err := s.Put(ctx, key, strings.NewReader("the video")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, "projects/prj_2/secret.mp4", strings.NewReader("not yours")); err != nil {
		t.Fatal(err)
	}
	raw := URL(t, s, key, time.Hour)
	if code, body := get(t, raw); code != http.StatusOK || body != "the video" {
		t.Fatalf("GET %s: %d %q", raw, code, body)
	}
	// A signature is bound to its key.
	forged := strings.Replace(raw, "prj_1/renders/rnd%201.mp4", "prj_2/secret.mp4", 1)
	if forged == raw {
		t.Fatalf("key not found escaped in %s", raw)
	}
	if code, body := get(t, forged); code < 400 || code >= 500 || body == "not yours" {
		t.Fatalf("a URL signed for another key served %d %q", code, body)
	}
	short := URL(t, s, key, time.Second)
	time.Sleep(2500 * time.Millisecond)
	if code, body := get(t, short); code < 400 || code >= 500 || body == "the video" {
		t.Fatalf("an expired URL served %d %q", code, body)
	}
	missing := URL(t, s, "projects/prj_1/none.mp4", time.Hour)
	if code, _ := get(t, missing); code != http.StatusNotFound && code != http.StatusForbidden {
		t.Fatalf("a URL of a missing file answered %d", code)
	}
}
