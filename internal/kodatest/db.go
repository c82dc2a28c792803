// Package kodatest holds helpers shared by Koda's tests.
package kodatest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver, for schema set-up

	"github.com/kodahq/koda/internal/store"
)

// PostgresEnv names the variable holding the PostgreSQL URL tests run against, e.g.
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable. CI sets it.
const PostgresEnv = "KODA_TEST_DATABASE_URL"

// testLogger shows only warnings (slow queries, surprises), never SQL traffic. It
// writes to stderr rather than tb.Log because store goroutines may outlive the test.
func testLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// MustOpenDB returns a migrated SQLite store in a file under tb.TempDir(), closed when
// the test ends.
func MustOpenDB(tb testing.TB) *store.Store {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := store.Open(ctx, filepath.Join(tb.TempDir(), "koda.db"), testLogger())
	if err != nil {
		tb.Fatalf("open SQLite store: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("close SQLite store: %v", err)
		}
	})
	return s
}

// PostgresURL returns a URL for a fresh schema in the database named by
// KODA_TEST_DATABASE_URL, dropped when the test ends, so tests and packages running in
// parallel never see each other's rows. It skips the test when the variable is unset.
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		tb.Skipf("%s is not set; set it to a PostgreSQL URL (CI does) to run PostgreSQL tests", PostgresEnv)
	}
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("%s: %v", PostgresEnv, err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "koda_test_" + hex.EncodeToString(b[:])

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatalf("connect to %s: %v", PostgresEnv, err)
	}
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		_ = admin.Close()
		tb.Fatalf("create schema %s: %v", schema, err)
	}
	tb.Cleanup(func() {
		defer admin.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", schema, err)
		}
	})

	// pgx sends unknown URL parameters as run-time parameters, so every connection of
	// the pool starts in the test's schema.
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// MustOpenPostgres returns a migrated PostgreSQL store in a fresh schema (see
// PostgresURL), closed and dropped when the test ends. It skips the test when
// KODA_TEST_DATABASE_URL is unset.
func MustOpenPostgres(tb testing.TB) *store.Store {
	tb.Helper()
	dsn := PostgresURL(tb)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := store.Open(ctx, dsn, testLogger())
	if err != nil {
		tb.Fatalf("open PostgreSQL store: %v", err)
	}
	// Registered after the schema's cleanup, so it runs first: connections close
	// before the schema is dropped.
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("close PostgreSQL store: %v", err)
		}
	})
	return s
}
