package koda_test

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/storage"
)

// TestFileLinks: the one rule for download links, on the real folder storage.
func TestFileLinks(t *testing.T) {
	st := storage.NewLocal(t.TempDir(), "http://koda.test", []byte("secret"))
	expiry := func(t *testing.T, l koda.FileLinks) time.Duration {
		t.Helper()
		raw, err := l.URL("projects/prj_1/v.mp4")
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		exp, err := strconv.ParseInt(u.Query().Get("exp"), 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		return time.Until(time.Unix(exp, 0))
	}
	if d := expiry(t, koda.FileLinks{Storage: st}); d < koda.DefaultFileURLTTL-time.Minute || d > koda.DefaultFileURLTTL {
		t.Errorf("no TTL: link lives %s, want %s", d, koda.DefaultFileURLTTL)
	}
	if d := expiry(t, koda.FileLinks{Storage: st, TTL: time.Hour}); d < 59*time.Minute || d > time.Hour {
		t.Errorf("TTL 1h: link lives %s", d)
	}
	for name, l := range map[string]koda.FileLinks{"no storage": {}, "no key": {Storage: st}} {
		if raw, err := l.URL(map[string]string{"no storage": "a/b.mp4"}[name]); raw != "" || err != nil {
			t.Errorf("%s: %q, %v; want no link and no error", name, raw, err)
		}
	}
	if raw, err := (koda.FileLinks{Storage: st}).URL("../escape.mp4"); raw != "" || koda.ErrorCode(err) != storage.CodeInvalidKey {
		t.Errorf("invalid key: %q, %v", raw, err)
	}
}
