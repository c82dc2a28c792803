package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"gorm.io/gorm"

	"github.com/kodahq/koda"
)

// usageHourRow is one hourly aggregate: what the rolled records of a tenant's renders
// of one kind used within one UTC hour.
type usageHourRow struct {
	TenantID      string    `gorm:"column:tenant_id;primaryKey"`
	Hour          time.Time `gorm:"column:hour;primaryKey"`
	Kind          string    `gorm:"column:kind;primaryKey"`
	Renders       int       `gorm:"column:renders"`
	Frames        int64     `gorm:"column:frames"`
	DurationS     float64   `gorm:"column:duration_s"`
	RenderSeconds float64   `gorm:"column:render_seconds"`
}

func (usageHourRow) TableName() string { return "usage_hourly" }

// rollUpBatch bounds the records one pass of RollUpUsage reads to find the hours to
// recompute, so a backlog (the first run after the upgrade) is taken in slices.
const rollUpBatch = 5000

// rollUpLockKey is the PostgreSQL advisory lock that serialises roll-ups of several
// processes (SQLite's write transactions are serial already). Without it two runs could
// interleave their recomputations of one hour.
const rollUpLockKey = 0x6b6f6461_75736167 // "kodausag"

// RollUpUsage recomputes the aggregate of every (tenant, hour) with records not rolled
// up yet and marks those records rolled. An aggregate is always the sum of the rolled
// records of its hour, recomputed whole, so running twice counts nothing twice and a
// late record for a rolled hour is counted once its hour is recomputed; until then
// UsageHours reads it from the records.
func (s *Store) RollUpUsage(ctx context.Context) (int, error) {
	type hourKey struct {
		tenant string
		hour   time.Time
	}
	done := 0
	for {
		var pending []struct {
			TenantID string
			At       time.Time
		}
		if err := s.conn(ctx).Model(&usageRow{}).Select("tenant_id, at").Where("NOT rolled").
			Order("at").Limit(rollUpBatch).Find(&pending).Error; err != nil {
			return done, fmt.Errorf("find usage to roll up: %w", err)
		}
		seen := map[hourKey]bool{}
		for _, p := range pending {
			k := hourKey{p.TenantID, p.At.UTC().Truncate(time.Hour)}
			if seen[k] {
				continue
			}
			seen[k] = true
			if err := s.rollUpHour(ctx, k.tenant, k.hour); err != nil {
				return done, err
			}
			done++
		}
		// Every record read is rolled now, so a full batch means more may wait.
		if len(pending) < rollUpBatch {
			return done, nil
		}
	}
}

// rollUpHour marks the tenant's unrolled records of the hour rolled and recomputes the
// hour's aggregates from its rolled records, in one transaction: a reader sees the
// records either unrolled beside the old aggregate or rolled inside the new one.
// Records committed meanwhile stay unrolled and out of the sum, for the next run.
func (s *Store) rollUpHour(ctx context.Context, tenant string, hour time.Time) error {
	end := hour.Add(time.Hour)
	err := s.conn(ctx).Transaction(func(tx *gorm.DB) error {
		if s.postgres {
			if err := tx.Exec("SELECT pg_advisory_xact_lock(?)", int64(rollUpLockKey)).Error; err != nil {
				return fmt.Errorf("lock: %w", err)
			}
		}
		inHour := func() *gorm.DB {
			return tx.Model(&usageRow{}).Where("tenant_id = ? AND at >= ? AND at < ?", tenant, hour, end)
		}
		if err := inHour().Where("NOT rolled").Update("rolled", true).Error; err != nil {
			return fmt.Errorf("mark records rolled: %w", err)
		}
		var sums []struct {
			Kind          string
			Renders       int
			Frames        int64
			DurationS     float64
			RenderSeconds float64
		}
		if err := inHour().Where("rolled").
			Select("kind, COUNT(*) AS renders, COALESCE(SUM(frames), 0) AS frames, COALESCE(SUM(duration_s), 0) AS duration_s, COALESCE(SUM(render_seconds), 0) AS render_seconds").
			Group("kind").Scan(&sums).Error; err != nil {
			return fmt.Errorf("sum records: %w", err)
		}
		if err := tx.Where("tenant_id = ? AND hour = ?", tenant, hour).Delete(&usageHourRow{}).Error; err != nil {
			return fmt.Errorf("replace aggregate: %w", err)
		}
		rows := make([]usageHourRow, len(sums))
		for i, x := range sums {
			rows[i] = usageHourRow{TenantID: tenant, Hour: hour, Kind: x.Kind, Renders: x.Renders, Frames: x.Frames,
				DurationS: x.DurationS, RenderSeconds: x.RenderSeconds}
		}
		if len(rows) > 0 {
			if err := tx.Create(&rows).Error; err != nil {
				return fmt.Errorf("store aggregate: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("roll up usage of %s at %s: %w", tenant, hour.Format(time.RFC3339), err)
	}
	return nil
}

// usageHoursSQL reads the aggregates and the unrolled records in one statement, so
// both come from one snapshot: a roll-up committing in between cannot make a record
// count twice or not at all. An unrolled record stands as a row of one render at its
// own time, put in its hour by the caller.
const usageHoursSQL = `SELECT hour, kind, renders, frames, duration_s, render_seconds
FROM usage_hourly WHERE tenant_id = ? AND hour >= ? AND hour < ?
UNION ALL
SELECT at, kind, 1, frames, duration_s, render_seconds
FROM usage_records WHERE tenant_id = ? AND at >= ? AND at < ? AND NOT rolled`

// UsageHours returns the tenant's usage per UTC hour and kind in [from, to), oldest
// first and by kind within an hour; hours without usage are left out.
func (s *Store) UsageHours(ctx context.Context, tenantID string, from, to time.Time) ([]koda.UsageHour, error) {
	from, to = utc(from), utc(to)
	if from.Truncate(time.Hour) != from || to.Truncate(time.Hour) != to {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "usage is kept by the hour: %s and %s must be whole hours", from, to)
	}
	rows, err := s.conn(ctx).Raw(usageHoursSQL, tenantID, from, to, tenantID, from, to).Rows()
	if err != nil {
		return nil, fmt.Errorf("usage of %s: %w", tenantID, err)
	}
	defer rows.Close()
	type key struct {
		hour time.Time
		kind koda.RenderKind
	}
	sums := map[key]*koda.UsageHour{}
	for rows.Next() {
		var (
			at     time.Time
			kind   string
			totals koda.UsageTotals
		)
		if err := rows.Scan(&at, &kind, &totals.Renders, &totals.Frames, &totals.DurationS, &totals.RenderSeconds); err != nil {
			return nil, fmt.Errorf("usage of %s: %w", tenantID, err)
		}
		k := key{at.UTC().Truncate(time.Hour), koda.RenderKind(kind)}
		h := sums[k]
		if h == nil {
			h = &koda.UsageHour{Hour: k.hour, Kind: k.kind}
			sums[k] = h
		}
		h.Add(totals)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("usage of %s: %w", tenantID, err)
	}
	out := make([]koda.UsageHour, 0, len(sums))
	for _, h := range sums {
		out = append(out, *h)
	}
	slices.SortFunc(out, func(a, b koda.UsageHour) int {
		return cmp.Or(a.Hour.Compare(b.Hour), cmp.Compare(a.Kind, b.Kind))
	})
	return out, nil
}
