package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/store"
)

// usageDB is a store and a raw connection to its database, to look at the aggregate
// table itself and to change records behind the store's back.
type usageDB struct {
	*store.Store
	raw *sql.DB
}

func openUsageDB(t *testing.T, backend string) usageDB {
	t.Helper()
	var dsn, driver, rawDSN string
	switch backend {
	case "sqlite":
		dsn = filepath.Join(t.TempDir(), "koda.db")
		driver, rawDSN = "sqlite3", dsn
	default:
		dsn = kodatest.PostgresURL(t)
		driver, rawDSN = "pgx", dsn
	}
	s, err := store.Open(t.Context(), dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	raw, err := sql.Open(driver, rawDSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = raw.Close() })
	return usageDB{s, raw}
}

// aggregates reads usage_hourly as "tenant hour kind" → totals.
func (d usageDB) aggregates(t *testing.T) map[string]koda.UsageTotals {
	t.Helper()
	rows, err := d.raw.Query("SELECT tenant_id, hour, kind, renders, frames, duration_s, render_seconds FROM usage_hourly")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]koda.UsageTotals{}
	for rows.Next() {
		var tenant, kind string
		var hour time.Time
		var tot koda.UsageTotals
		if err := rows.Scan(&tenant, &hour, &kind, &tot.Renders, &tot.Frames, &tot.DurationS, &tot.RenderSeconds); err != nil {
			t.Fatal(err)
		}
		out[tenant+" "+hour.UTC().Format("15")+" "+kind] = tot
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func (d usageDB) exec(t *testing.T, q string) {
	t.Helper()
	if _, err := d.raw.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// usageAt is 2026-03-01 at hour:min UTC.
func usageAt(hour, min int) time.Time { return time.Date(2026, 3, 1, hour, min, 7, 0, time.UTC) }

func addUsage(t *testing.T, s koda.UsageStore, tenant string, kind koda.RenderKind, at time.Time, frames int, secs float64) {
	t.Helper()
	if err := s.AddUsage(context.Background(), &koda.UsageRecord{TenantID: tenant, Kind: kind, Frames: frames,
		DurationS: float64(frames) / 10, RenderSeconds: secs, StopReason: "succeeded", At: at}); err != nil {
		t.Fatal(err)
	}
}

// hoursOf reads UsageHours over 2026-03-01 as "hour kind" → totals.
func hoursOf(t *testing.T, s koda.UsageStore, tenant string) map[string]koda.UsageTotals {
	t.Helper()
	hs, err := s.UsageHours(context.Background(), tenant, usageAt(0, 0).Truncate(time.Hour), usageAt(0, 0).Truncate(time.Hour).Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]koda.UsageTotals{}
	for i, h := range hs {
		if i > 0 && h.Hour.Before(hs[i-1].Hour) {
			t.Errorf("hours out of order: %v", hs)
		}
		out[h.Hour.Format("15")+" "+string(h.Kind)] = h.UsageTotals
	}
	return out
}

func tot(renders, frames int, secs float64) koda.UsageTotals {
	return koda.UsageTotals{Renders: renders, Frames: frames, DurationS: float64(frames) / 10, RenderSeconds: secs}
}

var usageBackends = []string{"sqlite", "postgres"}

// seedUsage records tenant a's renders in two hours and tenant b's in one.
func seedUsage(t *testing.T, d usageDB) {
	addUsage(t, d, "a", koda.RenderFinal, usageAt(10, 5), 100, 3)
	addUsage(t, d, "a", koda.RenderFinal, usageAt(10, 55), 50, 2)
	addUsage(t, d, "a", koda.RenderPreview, usageAt(10, 30), 20, 1)
	addUsage(t, d, "a", koda.RenderFinal, usageAt(11, 0), 10, 4)
	addUsage(t, d, "b", koda.RenderFinal, usageAt(10, 10), 7, 9)
}

var seededA = map[string]koda.UsageTotals{
	"10 final": tot(2, 150, 5), "10 preview": tot(1, 20, 1), "11 final": tot(1, 10, 4),
}

func TestUsageRollUp(t *testing.T) {
	for _, backend := range usageBackends {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			d := openUsageDB(t, backend)
			ctx := t.Context()
			seedUsage(t, d)
			// Before any roll-up the records alone answer.
			mustEqual(t, "aggregates before", d.aggregates(t), map[string]koda.UsageTotals{})
			mustEqual(t, "a before roll-up", hoursOf(t, d, "a"), seededA)

			n, err := d.RollUpUsage(ctx)
			if err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "tenant-hours rolled", n, 3)
			mustEqual(t, "aggregates", d.aggregates(t), map[string]koda.UsageTotals{
				"a 10 final": tot(2, 150, 5), "a 10 preview": tot(1, 20, 1), "a 11 final": tot(1, 10, 4),
				"b 10 final": tot(1, 7, 9),
			})
			mustEqual(t, "a after roll-up", hoursOf(t, d, "a"), seededA)
			// The answer now comes from the aggregates: the records can go.
			d.exec(t, "DELETE FROM usage_records")
			mustEqual(t, "a from aggregates only", hoursOf(t, d, "a"), seededA)
		})
	}
}

func TestUsageRollUpIsIdempotent(t *testing.T) {
	for _, backend := range usageBackends {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			d := openUsageDB(t, backend)
			ctx := t.Context()
			seedUsage(t, d)
			if _, err := d.RollUpUsage(ctx); err != nil {
				t.Fatal(err)
			}
			want := d.aggregates(t)
			n, err := d.RollUpUsage(ctx)
			if err != nil || n != 0 {
				t.Fatalf("second run recomputed %d tenant-hours (%v), want 0", n, err)
			}
			mustEqual(t, "aggregates after a second run", d.aggregates(t), want)
			// A run over hours already rolled (as after a crash between marking and
			// committing elsewhere) recomputes them whole rather than adding.
			d.exec(t, "UPDATE usage_records SET rolled = FALSE")
			if n, err := d.RollUpUsage(ctx); err != nil || n != 3 {
				t.Fatalf("re-run over rolled hours: %d, %v", n, err)
			}
			mustEqual(t, "aggregates after re-rolling", d.aggregates(t), want)
			mustEqual(t, "a after re-rolling", hoursOf(t, d, "a"), seededA)
		})
	}
}

func TestUsageLateRecord(t *testing.T) {
	for _, backend := range usageBackends {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			d := openUsageDB(t, backend)
			ctx := t.Context()
			seedUsage(t, d)
			if _, err := d.RollUpUsage(ctx); err != nil {
				t.Fatal(err)
			}
			// A render that stopped at 10:40 is recorded after hour 10 was rolled up.
			addUsage(t, d, "a", koda.RenderFinal, usageAt(10, 40), 1000, 60)
			want := map[string]koda.UsageTotals{
				"10 final": tot(3, 1150, 65), "10 preview": tot(1, 20, 1), "11 final": tot(1, 10, 4),
			}
			mustEqual(t, "a with the late record unrolled", hoursOf(t, d, "a"), want)
			mustEqual(t, "aggregate of a's hour 10 before", d.aggregates(t)["a 10 final"], tot(2, 150, 5))
			n, err := d.RollUpUsage(ctx)
			if err != nil || n != 1 {
				t.Fatalf("late roll-up: %d tenant-hours, %v; want 1", n, err)
			}
			mustEqual(t, "aggregate of a's hour 10 after", d.aggregates(t)["a 10 final"], tot(3, 1150, 65))
			mustEqual(t, "a with the late record rolled", hoursOf(t, d, "a"), want)
		})
	}
}

func TestUsageTenantIsolation(t *testing.T) {
	for _, backend := range usageBackends {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			d := openUsageDB(t, backend)
			ctx := t.Context()
			seedUsage(t, d)
			for _, rolled := range []bool{false, true} {
				mustEqual(t, "b", hoursOf(t, d, "b"), map[string]koda.UsageTotals{"10 final": tot(1, 7, 9)})
				mustEqual(t, "a", hoursOf(t, d, "a"), seededA)
				mustEqual(t, "c", hoursOf(t, d, "c"), map[string]koda.UsageTotals{})
				if !rolled {
					if _, err := d.RollUpUsage(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

func TestUsageHoursWantsWholeHours(t *testing.T) {
	d := openUsageDB(t, "sqlite")
	_, err := d.UsageHours(t.Context(), "a", usageAt(10, 30), usageAt(12, 0).Truncate(time.Hour))
	mustKind(t, "from at half past", err, koda.EINVALID)
}

// TestUsageRollUpConcurrent records usage while two roll-ups run over and over: every
// record ends up counted exactly once.
func TestUsageRollUpConcurrent(t *testing.T) {
	for _, backend := range usageBackends {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			d := openUsageDB(t, backend)
			ctx := t.Context()
			const writers, each = 4, 15
			var wg sync.WaitGroup
			stop := make(chan struct{})
			errs := make(chan error, 2)
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						select {
						case <-stop:
							return
						default:
						}
						if _, err := d.RollUpUsage(ctx); err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			var writing sync.WaitGroup
			for w := range writers {
				writing.Add(1)
				go func() {
					defer writing.Done()
					for i := range each {
						if err := d.AddUsage(ctx, &koda.UsageRecord{TenantID: "a", Kind: koda.RenderFinal, Frames: 1,
							RenderSeconds: 1, At: usageAt(10, (w*each+i)%60)}); err != nil {
							errs <- err
							return
						}
					}
				}()
			}
			writing.Wait()
			close(stop)
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			mustEqual(t, "counted while rolling", hoursOf(t, d, "a")["10 final"].Renders, writers*each)
			if _, err := d.RollUpUsage(ctx); err != nil {
				t.Fatal(err)
			}
			mustEqual(t, "aggregate", d.aggregates(t)["a 10 final"].Renders, writers*each)
			mustEqual(t, "counted after", hoursOf(t, d, "a")["10 final"].Renders, writers*each)
		})
	}
}
