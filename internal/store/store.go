// Package store implements koda.Store with gorm on SQLite (the embedded default) or
// PostgreSQL (several processes sharing one database). It persists and nothing more:
// phase decisions belong to the domain and the service that calls it.
//
// The schema comes from the versioned migrations in package migrations, applied with
// goose when the store opens; gorm only maps rows.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/crc32"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"gorm.io/driver/postgres"
	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/secretbox"
	"github.com/kodahq/koda/migrations"
)

// codeAlreadyExists is the client code of a create that collides with an existing row.
const codeAlreadyExists = "ALREADY_EXISTS"

// VersionTable is goose's table recording which migrations have been applied.
const VersionTable = "goose_db_version"

// sqliteParams make SQLite fit for concurrent use: WAL lets readers run beside the
// writer, the busy timeout makes writers queue instead of failing with SQLITE_BUSY, and
// BEGIN IMMEDIATE takes the write lock up front, so read-then-write transactions
// serialize rather than failing when they try to upgrade their lock.
var sqliteParams = map[string]string{
	"_journal_mode": "WAL",
	"_busy_timeout": "10000",
	"_txlock":       "immediate",
	"_foreign_keys": "1",
	"_synchronous":  "NORMAL", // safe with WAL: a crash loses no committed transaction's integrity
}

// Store is a koda.Store on one database, or on one transaction when made by InTx.
type Store struct {
	db       *gorm.DB
	postgres bool
	inTx     bool
	logger   *slog.Logger
	box      *secretbox.Box // seals secrets at rest; nil: stored as given
}

// Option configures Open.
type Option func(*Store)

// SealSecrets seals tenants' webhook secrets with box before they are stored, and
// seals, at Open, those stored in plain text by earlier versions.
func SealSecrets(box *secretbox.Box) Option { return func(s *Store) { s.box = box } }

var _ koda.Store = (*Store)(nil)

// Open connects to the database named by dsn and applies pending migrations.
//
// dsn is "postgres://…" (or "postgresql://…") for PostgreSQL; anything else is SQLite:
// a file path, "sqlite://path" or a "file:" DSN. The directory of a SQLite file is
// created when missing.
func Open(ctx context.Context, dsn string, logger *slog.Logger, opts ...Option) (*Store, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s, err := open(ctx, dsn, logger)
	if err != nil {
		return nil, err
	}
	for _, o := range opts {
		o(s)
	}
	if err := s.migrate(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	if err := s.sealStored(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) seal(label, v string) string {
	if s.box == nil {
		return v
	}
	return s.box.Seal(label, v)
}

func (s *Store) open(label, v string) (string, error) {
	if s.box == nil {
		if secretbox.IsSealed(v) {
			return "", fmt.Errorf("%s is sealed and this process has no secret key (KODA_SECRET_KEY)", label)
		}
		return v, nil
	}
	return s.box.Open(label, v)
}

// sealStored seals the webhook secrets an earlier version stored in plain text. It
// runs at every Open with a key and finds nothing to do once done; rows are updated
// only while still plain, so processes starting together do not seal twice.
func (s *Store) sealStored(ctx context.Context) error {
	if s.box == nil {
		return nil
	}
	var rows []tenantRow
	if err := s.conn(ctx).Where("(webhook_secret <> '' AND webhook_secret NOT LIKE 'sealed:%') OR (previous_secret <> '' AND previous_secret NOT LIKE 'sealed:%')").
		Find(&rows).Error; err != nil {
		return fmt.Errorf("seal stored secrets: %w", err)
	}
	for _, r := range rows {
		for _, c := range []struct{ col, v string }{{colWebhookSecret, r.WebhookSecret}, {colPreviousSecret, r.PreviousSecret}} {
			if c.v == "" || secretbox.IsSealed(c.v) {
				continue
			}
			if err := s.conn(ctx).Model(&tenantRow{}).Where("id = ? AND "+c.col+" = ?", r.ID, c.v).
				Update(c.col, s.box.Seal(c.col, c.v)).Error; err != nil {
				return fmt.Errorf("seal %s of tenant %s: %w", c.col, r.ID, err)
			}
		}
	}
	if len(rows) > 0 {
		s.logger.Info("sealed webhook secrets stored in plain text", "tenants", len(rows))
	}
	return nil
}

// Migrate applies pending migrations to the database named by dsn (see Open), for the
// `koda migrate` command; Open already does it at start-up.
func Migrate(ctx context.Context, dsn string) error {
	s, err := open(ctx, dsn, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer s.Close()
	return s.migrate(ctx)
}

func open(ctx context.Context, dsn string, log *slog.Logger) (*Store, error) {
	cfg := &gorm.Config{
		Logger: quietLogger{logger.NewSlogLogger(log.With("component", "gorm"), logger.Config{
			LogLevel:             logger.Warn,
			SlowThreshold:        time.Second,
			ParameterizedQueries: true, // prompts and payloads stay out of logs
		})},
		TranslateError: true,
		// Every write here is one statement or runs inside InTx; gorm's implicit
		// per-statement transaction would only add round trips.
		SkipDefaultTransaction: true,
		NowFunc:                func() time.Time { return now() },
	}
	s := &Store{logger: log}
	var dialector gorm.Dialector
	switch {
	case strings.HasPrefix(dsn, "postgres://"), strings.HasPrefix(dsn, "postgresql://"):
		s.postgres = true
		dialector = postgres.Open(dsn)
	default:
		sqliteDSN, err := sqliteDSN(dsn)
		if err != nil {
			return nil, err
		}
		dialector = sqlite.Open(sqliteDSN)
	}
	db, err := gorm.Open(dialector, cfg)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", redact(dsn), err)
	}
	s.db = db
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", redact(dsn), err)
	}
	if s.postgres {
		// Bounded so several processes fit in max_connections, yet large enough that a
		// transaction waiting on a row lock does not starve the rest of the process.
		sqlDB.SetMaxOpenConns(32)
		sqlDB.SetMaxIdleConns(8)
		sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	}
	if err := sqlDB.PingContext(ctx); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("connect to database %s: %w", redact(dsn), err)
	}
	return s, nil
}

// sqliteDSN turns a path, sqlite:// URL or file: DSN into a go-sqlite3 DSN with our
// parameters added (parameters already present win).
func sqliteDSN(dsn string) (string, error) {
	if dsn == "" {
		return "", errors.New("open database: empty SQLite path")
	}
	path, query := dsn, ""
	if rest, ok := strings.CutPrefix(dsn, "sqlite://"); ok {
		path = rest
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path, query = path[:i], path[i+1:]
	}
	params, err := url.ParseQuery(query)
	if err != nil {
		return "", fmt.Errorf("open database: SQLite parameters %q: %w", query, err)
	}
	for k, v := range sqliteParams {
		if !params.Has(k) {
			params.Set(k, v)
		}
	}
	file := strings.TrimPrefix(path, "file:")
	if file == ":memory:" || params.Get("mode") == "memory" {
		// Every pooled connection would get a database of its own, and a shared cache
		// reports lock conflicts as errors that the busy timeout does not wait out.
		return "", errors.New("open database: in-memory SQLite is not supported; use a file (tests: kodatest.MustOpenDB)")
	}
	if file != "" {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return "", fmt.Errorf("open database: create directory for %s: %w", file, err)
		}
		if err := ownerOnly(file); err != nil {
			return "", fmt.Errorf("open database: %w", err)
		}
	}
	return path + "?" + params.Encode(), nil
}

// ownerOnly creates the SQLite file readable by its owner only, or makes an existing
// one so: it holds tenants' data and, unsealed, their secrets. SQLite gives its -wal
// and -shm files the database file's permissions.
func ownerOnly(file string) error {
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("create %s: %w", file, err)
	}
	defer f.Close()
	if err := f.Chmod(0o600); err != nil {
		return fmt.Errorf("chmod %s: %w", file, err)
	}
	for _, side := range []string{"-wal", "-shm", "-journal"} {
		if err := os.Chmod(file+side, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("chmod %s: %w", file+side, err)
		}
	}
	return nil
}

// redact hides a password in a database URL before it reaches an error message.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

func (s *Store) migrate(ctx context.Context) error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	dialect := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if s.postgres {
		dialect = goose.DialectPostgres
		// Processes starting together take turns. The lock ID is per schema so separate
		// schemas in one database (tests, tenants) do not wait for each other.
		var schema string
		if err := sqlDB.QueryRowContext(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
			return fmt.Errorf("migrate: read current schema: %w", err)
		}
		locker, err := lock.NewPostgresSessionLocker(
			lock.WithLockID(int64(crc32.ChecksumIEEE([]byte("koda-migrations:"+schema)))),
			lock.WithLockTimeout(1, 300),
		)
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	provider, err := goose.NewProvider(dialect, sqlDB, migrations.FS, opts...)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	results, err := provider.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, r := range results {
		s.logger.InfoContext(ctx, "migration applied",
			"version", r.Source.Version, "file", filepath.Base(r.Source.Path), "duration", r.Duration)
	}
	return nil
}

// Close closes the database connections. It must not be called on a Store made by InTx.
func (s *Store) Close() error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// Ping checks that the database answers, for readiness probes.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.db.WithContext(ctx).Raw("SELECT 1").Scan(&one).Error; err != nil {
		return &koda.Error{Kind: koda.EUNAVAILABLE, Code: koda.CodeUnavailable,
			Message: "The database is unavailable.", Err: err}
	}
	return nil
}

// InTx runs fn with a Store bound to one transaction; an error from fn (or a panic)
// rolls it back. Nested calls run in a savepoint of the enclosing transaction.
func (s *Store) InTx(ctx context.Context, fn func(tx koda.Store) error) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		return fn(&Store{db: tx, postgres: s.postgres, inTx: true, logger: s.logger, box: s.box})
	})
}

// conn returns the handle for one call.
func (s *Store) conn(ctx context.Context) *gorm.DB { return s.db.WithContext(ctx) }

// now is the store's clock: UTC at microsecond precision, the finest both databases keep,
// so a value read back equals the value written.
func now() time.Time { return utc(time.Now()) }

func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC().Truncate(time.Microsecond)
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil || t.IsZero() {
		return nil
	}
	u := utc(*t)
	return &u
}

// dbError turns a gorm error into the error callers see: missing rows and collisions
// become *koda.Error, anything else keeps its cause with context.
func dbError(err error, resource, id string) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, gorm.ErrRecordNotFound):
		return koda.NotFound(resource, id)
	case errors.Is(err, gorm.ErrDuplicatedKey):
		return &koda.Error{Kind: koda.ECONFLICT, Code: codeAlreadyExists,
			Message: fmt.Sprintf("%s %q already exists", resource, id), Err: err}
	default:
		return fmt.Errorf("%s %s: %w", resource, id, err)
	}
}

// quietLogger drops the errors that the store turns into domain errors (a missing row,
// a duplicate key it retries on, a cancelled request), so only surprises reach the log.
type quietLogger struct{ logger.Interface }

func (l quietLogger) LogMode(level logger.LogLevel) logger.Interface {
	return quietLogger{l.Interface.LogMode(level)}
}

func (l quietLogger) Trace(ctx context.Context, begin time.Time, fc func() (string, int64), err error) {
	if errors.Is(err, gorm.ErrRecordNotFound) || errors.Is(err, gorm.ErrDuplicatedKey) ||
		errors.Is(err, gorm.ErrForeignKeyViolated) || errors.Is(err, context.Canceled) ||
		errors.Is(err, sql.ErrTxDone) {
		err = nil
	}
	l.Interface.Trace(ctx, begin, fc, err)
}
