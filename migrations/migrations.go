// Package migrations holds Koda's versioned SQL migrations in goose format
// (-- +goose Up / -- +goose Down). The same files run on SQLite and PostgreSQL, so they
// use only portable types: TEXT, INTEGER, BIGINT, DOUBLE PRECISION, BOOLEAN, TIMESTAMP,
// with JSON kept as TEXT. Files are append-only: never edit one that has shipped.
package migrations

import "embed"

// FS holds the migration files, applied by internal/store at start-up.
//
//go:embed *.sql
var FS embed.FS
