package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda/api"
)

func testClient(t *testing.T, h http.Handler) *apiClient {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return &apiClient{base: u, key: "koda_test", http: srv.Client()}
}

// A download that ends short, is not the size the server recorded, or is stopped by
// Ctrl-C fails and leaves nothing in the folder: neither the file nor its temporary.
func TestDownloadLeavesNoPartialFile(t *testing.T) {
	body := bytes.Repeat([]byte("v"), 4096)
	release := make(chan struct{})
	c := testClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/files/whole":
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.Write(body)
		case "/files/chunked":
			w.Write(body[:1000])
			w.(http.Flusher).Flush()
			w.Write(body[1000:])
		case "/files/short":
			// Promise more than is sent: the connection closes mid-body.
			w.Header().Set("Content-Length", strconv.Itoa(len(body)*2))
			w.Write(body)
		case "/files/stall":
			w.Header().Set("Content-Length", strconv.Itoa(len(body)*2))
			w.Write(body)
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}
	}))
	defer close(release)

	dir := t.TempDir()
	if n, err := c.download(context.Background(), "/files/whole", dir, "ok.mp4", int64(len(body))); err != nil || n != int64(len(body)) {
		t.Fatalf("whole download: %d, %v", n, err)
	}
	os.Remove(dir + "/ok.mp4")

	if _, err := c.download(context.Background(), "/files/short", dir, "short.mp4", 0); err == nil {
		t.Error("a short body was accepted")
	}
	if _, err := c.download(context.Background(), "/files/whole", dir, "size.mp4", int64(len(body))+1); err == nil ||
		!strings.Contains(err.Error(), "recorded") {
		t.Errorf("a file of the wrong size was accepted: %v", err)
	}
	// Without a Content-Length only the recorded size tells a whole file.
	if _, err := c.download(context.Background(), "/files/chunked", dir, "chunked.mp4", int64(len(body))+1); err == nil ||
		!strings.Contains(err.Error(), "got 4096 bytes of 4097") {
		t.Errorf("a chunked file of the wrong size was accepted: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := c.download(ctx, "/files/stall", dir, "stall.mp4", 0); err == nil {
		t.Error("a cancelled download succeeded")
	}
	if left := videos(t, dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// Ctrl-C while waiting ends the wait at once with a message that the batch goes on,
// and a server's error body reaches the user as its code and message.
func TestWaitStopsOnCancel(t *testing.T) {
	c := testClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/batches/bat_1":
			w.Write([]byte(`{"id":"bat_1","status":"running","rows":[{"row":1,"status":"running","percent":40}]}`))
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":{"code":"NOT_FOUND","message":"batch bat_2 not found"}}`))
		}
	}))
	var log bytes.Buffer
	w := &waiter{c: c, log: &log, every: 20 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := w.batch(ctx, api.BatchView{ID: "bat_1", Status: "running"})
	if err == nil || !strings.Contains(err.Error(), "stopped waiting for batch bat_1") || time.Since(start) > 2*time.Second {
		t.Errorf("cancelled wait: %v after %s", err, time.Since(start))
	}
	_, err = w.batch(context.Background(), api.BatchView{ID: "bat_2", Status: "running"})
	if err == nil || !strings.Contains(err.Error(), "NOT_FOUND: batch bat_2 not found") {
		t.Errorf("a gone batch: %v", err)
	}
}

// Names from the server never leave the output folder.
func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"prj_01abc": "prj_01abc", "../../etc/passwd": "-..-etc-passwd", "640x360@5": "640x360@5", "": "video", "..": "video",
	} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}
