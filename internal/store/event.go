package store

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"gorm.io/gorm"

	"github.com/kodahq/koda"
)

type eventRow struct {
	ProjectID string    `gorm:"column:project_id;primaryKey"`
	Seq       int64     `gorm:"column:seq;primaryKey;autoIncrement:false"`
	Type      string    `gorm:"column:type"`
	Data      string    `gorm:"column:data"`
	CreatedAt time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (eventRow) TableName() string { return "events" }

// eventLockClass namespaces AppendEvent's advisory locks on PostgreSQL (the first key of
// the two-key form), apart from any other advisory lock on the database.
const eventLockClass = 0x6b6f6461 // "koda"

// maxAppendAttempts bounds the retries of AppendEvent. Each round of a race has a
// winner, so N concurrent appenders need at most N rounds.
const maxAppendAttempts = 100

// AppendEvent stores an event with the project's next sequence number, max(seq)+1. It
// runs inside the caller's transaction when there is one (in a savepoint), else in its
// own. On SQLite transactions hold the write lock, so numbers never collide. On
// PostgreSQL appenders to one project take a transaction-scoped advisory lock first;
// should two still read the same max, the loser's insert fails on the primary key and
// it retries with a fresh max. Inside InTx, lock the project (GetProject) before
// appending, as transitions do, so two transactions never wait on each other in
// opposite orders. data is encoded as JSON (raw JSON is kept as is; nil becomes {}).
// A missing project is ENOTFOUND.
func (s *Store) AppendEvent(ctx context.Context, projectID, typ string, data any) (*koda.Event, error) {
	raw, err := eventData(data)
	if err != nil {
		return nil, fmt.Errorf("project %s event %s: %w", projectID, typ, err)
	}
	dataText, err := text(raw, "event data")
	if err != nil {
		return nil, fmt.Errorf("project %s event %s: %w", projectID, typ, err)
	}
	for attempt := 1; ; attempt++ {
		row := eventRow{ProjectID: projectID, Type: typ, Data: dataText, CreatedAt: now()}
		err := s.conn(ctx).Transaction(func(tx *gorm.DB) error {
			if s.postgres {
				// Queue appenders of one project behind a transaction-scoped lock instead
				// of letting them all race for the same number and retry.
				if err := tx.Exec("SELECT pg_advisory_xact_lock(?, hashtext(?))", eventLockClass, projectID).Error; err != nil {
					return err
				}
			}
			var last int64
			if err := tx.Model(&eventRow{}).Where("project_id = ?", projectID).
				Select("COALESCE(MAX(seq), 0)").Scan(&last).Error; err != nil {
				return err
			}
			row.Seq = last + 1
			return tx.Create(&row).Error
		})
		switch {
		case err == nil:
			return &koda.Event{ProjectID: projectID, Seq: row.Seq, Type: typ, Data: raw, CreatedAt: row.CreatedAt}, nil
		case errors.Is(err, gorm.ErrForeignKeyViolated):
			return nil, koda.NotFound("project", projectID)
		case errors.Is(err, gorm.ErrDuplicatedKey) && attempt < maxAppendAttempts:
			// Spread the retries of a crowd of appenders a little.
			select {
			case <-ctx.Done():
				return nil, fmt.Errorf("project %s append event %s: %w", projectID, typ, ctx.Err())
			case <-time.After(time.Duration(rand.IntN(attempt)) * time.Millisecond):
			}
		default:
			return nil, fmt.Errorf("project %s append event %s: %w", projectID, typ, err)
		}
	}
}

// ListEvents returns the project's events with Seq > afterSeq, oldest first, at most
// limit (no limit when limit <= 0).
func (s *Store) ListEvents(ctx context.Context, projectID string, afterSeq int64, limit int) ([]*koda.Event, error) {
	q := s.conn(ctx).Where("project_id = ? AND seq > ?", projectID, afterSeq).Order("seq")
	if limit > 0 {
		q = q.Limit(limit)
	}
	var rows []eventRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("project %s list events: %w", projectID, err)
	}
	out := make([]*koda.Event, len(rows))
	for i, r := range rows {
		out[i] = &koda.Event{
			ProjectID: r.ProjectID,
			Seq:       r.Seq,
			Type:      r.Type,
			Data:      []byte(r.Data),
			CreatedAt: r.CreatedAt.UTC(),
		}
	}
	return out, nil
}
