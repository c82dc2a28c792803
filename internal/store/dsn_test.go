package store

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestSQLiteDSN(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		in, wantPrefix string
		want           []string // parameters that must appear
	}{
		{filepath.Join(dir, "a", "k.db"), filepath.Join(dir, "a", "k.db") + "?",
			[]string{"_journal_mode=WAL", "_busy_timeout=10000", "_txlock=immediate", "_foreign_keys=1"}},
		{"sqlite://" + filepath.Join(dir, "b.db"), filepath.Join(dir, "b.db") + "?", []string{"_txlock=immediate"}},
		// Parameters given by the operator win over ours.
		{"file:" + filepath.Join(dir, "c.db") + "?mode=rwc&_busy_timeout=50", "file:" + filepath.Join(dir, "c.db") + "?",
			[]string{"mode=rwc", "_busy_timeout=50", "_journal_mode=WAL"}},
	}
	for _, c := range cases {
		got, err := sqliteDSN(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		if !strings.HasPrefix(got, c.wantPrefix) {
			t.Errorf("%s → %s, want prefix %s", c.in, got, c.wantPrefix)
		}
		for _, p := range c.want {
			if !strings.Contains(got, p) {
				t.Errorf("%s → %s, missing %s", c.in, got, p)
			}
		}
		if strings.Count(got, "_busy_timeout") != 1 {
			t.Errorf("%s → %s: _busy_timeout set twice", c.in, got)
		}
	}
	for _, bad := range []string{"", ":memory:", "file::memory:", "file:x?mode=memory&cache=shared"} {
		if _, err := sqliteDSN(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRedact(t *testing.T) {
	got := redact("postgres://koda:s3cret@db:5432/koda?sslmode=disable")
	if strings.Contains(got, "s3cret") || !strings.Contains(got, "koda:xxxxx@db") {
		t.Fatalf("redact → %s", got)
	}
}
