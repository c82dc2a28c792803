package store_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/secretbox"
	"github.com/kodahq/koda/internal/store"
)

// Webhook secrets are sealed at rest; rows an earlier version stored in plain text are
// sealed when a store with a key opens; the SQLite file is the owner's only.
func TestSecretsSealedAtRest(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "koda.db")
	old, err := store.Open(ctx, file, nil)
	if err != nil {
		t.Fatal(err)
	}
	const plain = "whsec_plainSecretOfAnOlderVersion00000000"
	if err := old.CreateTenant(ctx, &koda.Tenant{ID: "t_old", WebhookSecret: plain, PreviousSecret: plain + "prev"}); err != nil {
		t.Fatal(err)
	}
	old.Close()

	box, err := secretbox.New(strings.Repeat("k", 64))
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(ctx, file, nil, store.SealSecrets(box))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const fresh = "whsec_aFreshSecretMadeAfterSealing000000000"
	if err := s.CreateTenant(ctx, &koda.Tenant{ID: "t_new", WebhookSecret: fresh}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"t_old": plain, "t_new": fresh} {
		got, err := s.GetTenant(ctx, id)
		if err != nil || got.WebhookSecret != want {
			t.Fatalf("%s: %v %q", id, err, got.WebhookSecret)
		}
	}

	raw, err := sql.Open("sqlite3", file)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.Query("SELECT id, webhook_secret, previous_secret FROM tenants")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var id, a, b string
		if err := rows.Scan(&id, &a, &b); err != nil {
			t.Fatal(err)
		}
		n++
		for _, v := range []string{a, b} {
			if v != "" && !secretbox.IsSealed(v) || strings.Contains(v, "whsec_") {
				t.Errorf("tenant %s: stored %q", id, v)
			}
		}
	}
	if n != 2 {
		t.Fatalf("%d rows", n)
	}
	// Another key does not open them, nor does a store without one.
	other, _ := secretbox.New(strings.Repeat("x", 64))
	s2, err := store.Open(ctx, file, nil, store.SealSecrets(other))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s2.GetTenant(ctx, "t_new"); err == nil {
		t.Error("another key opened a sealed secret")
	}
	s2.Close()

	for _, f := range []string{file, file + "-wal", file + "-shm"} {
		if st, err := os.Stat(f); err == nil && st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v", filepath.Base(f), st.Mode().Perm())
		}
	}
}
