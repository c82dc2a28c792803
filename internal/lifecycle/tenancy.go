package lifecycle

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
)

// Tasks cancels tasks on the queue: a waiting task is removed, a running one is told
// to stop. A task that does not exist is not an error.
type Tasks interface {
	Cancel(ctx context.Context, args jobs.Args) error
}

// CallbackChecker refuses callback URLs Koda must not call (see internal/ssrf).
type CallbackChecker interface {
	CheckURL(ctx context.Context, rawURL string) error
}

func (s *Service) checkCallback(ctx context.Context, url string) error {
	if url == "" || s.Callbacks == nil {
		return nil
	}
	return s.Callbacks.CheckURL(ctx, url)
}

// limits returns the tenant's limits: its own row's, else the defaults.
func (s *Service) limits(ctx context.Context, st koda.Store, tenantID string) (koda.Limits, error) {
	ts, ok := st.(koda.TenantStore)
	if !ok {
		return s.DefaultLimits, nil
	}
	t, err := ts.GetTenant(ctx, tenantID)
	switch {
	case koda.ErrorKind(err) == koda.ENOTFOUND:
		return s.DefaultLimits, nil
	case err != nil:
		return koda.Limits{}, err
	}
	return t.Limits, nil
}

func limitError(code string, retryAfter time.Duration, format string, args ...any) error {
	e := koda.Errorf(koda.ELIMIT, code, format, args...)
	e.RetryAfter = max(1, int(math.Ceil(retryAfter.Seconds())))
	return e
}

// checkProjectLimit refuses a new project while the tenant has as many in flight as
// its limit allows. It runs inside the creating transaction, so concurrent creations
// are counted one after the other.
func (s *Service) checkProjectLimit(ctx context.Context, tx koda.Store, tenantID string) error {
	l, err := s.limits(ctx, tx, tenantID)
	if err != nil || l.ConcurrentProjects <= 0 {
		return err
	}
	us, ok := tx.(koda.UsageStore)
	if !ok {
		return nil
	}
	n, err := us.CountProjectsInFlight(ctx, tenantID)
	if err != nil {
		return err
	}
	if n >= l.ConcurrentProjects {
		return limitError(koda.CodeLimitProjects, 30*time.Second,
			"%d projects are in flight, the limit of this account; retry when one is waiting for you or done", n)
	}
	return nil
}

// checkRenderLimits refuses n more final renders over the daily count or the monthly
// render time of the tenant.
func (s *Service) checkRenderLimits(ctx context.Context, tx koda.Store, tenantID string, n int) error {
	l, err := s.limits(ctx, tx, tenantID)
	if err != nil || (l.RendersPerDay <= 0 && l.RenderSecondsPerMonth <= 0) {
		return err
	}
	us, ok := tx.(koda.UsageStore)
	if !ok {
		return nil
	}
	now := s.now()
	if l.RendersPerDay > 0 {
		day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
		count, err := us.CountRendersSince(ctx, tenantID, day)
		if err != nil {
			return err
		}
		if count+n > l.RendersPerDay {
			return limitError(koda.CodeLimitRendersPerDay, day.AddDate(0, 0, 1).Sub(now),
				"%d renders requested today and %d more asked for; the daily limit is %d", count, n, l.RendersPerDay)
		}
	}
	if l.RenderSecondsPerMonth > 0 {
		month := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
		hours, err := us.UsageHours(ctx, tenantID, month, now.Truncate(time.Hour).Add(time.Hour))
		if err != nil {
			return err
		}
		tot := sumUsage(hours, koda.RenderFinal, month)
		if tot.RenderSeconds >= l.RenderSecondsPerMonth {
			return limitError(koda.CodeLimitRenderSeconds, month.AddDate(0, 1, 0).Sub(now),
				"%.0f render-seconds used this month; the monthly limit is %.0f", tot.RenderSeconds, l.RenderSecondsPerMonth)
		}
	}
	return nil
}

// recordUsage stores what a finished render used, in the finishing transaction. A
// render that took another's output counts as a render of its length but used no
// frames or render time of its own: the shared job is charged once, to the render
// that ran it.
func (s *Service) recordUsage(ctx context.Context, tx koda.Store, r *koda.Render, frames int) error {
	us, ok := tx.(koda.UsageStore)
	if !ok {
		return nil
	}
	u := &koda.UsageRecord{
		TenantID: r.TenantID, ProjectID: r.ProjectID, RenderID: r.ID, Kind: r.Kind, Preset: r.Preset.Name,
		DurationS: r.DurationS, Frames: frames, StopReason: string(r.Status), At: s.now(),
	}
	if r.Error != nil && r.Error.Code == koda.CodeCancelled {
		u.StopReason = "cancelled"
	}
	if r.StartedAt != nil && r.FinishedAt != nil {
		u.RenderSeconds = r.FinishedAt.Sub(*r.StartedAt).Seconds()
	}
	if r.OutputOf != "" {
		u.Frames, u.RenderSeconds = 0, 0
	}
	if err := us.AddUsage(ctx, u); err != nil {
		return fmt.Errorf("record usage of render %s: %w", r.ID, err)
	}
	return nil
}

// Usage reports the caller's usage: today's and this month's final renders beside the
// limits, and the period q asks for by the hour (see koda.UsageQuery.Resolve).
func (s *Service) Usage(ctx context.Context, q koda.UsageQuery) (*koda.Usage, error) {
	tenant := koda.TenantFromContext(ctx)
	if tenant == "" {
		tenant = koda.DefaultTenant
	}
	us, ok := s.Store.(koda.UsageStore)
	if !ok {
		return nil, fmt.Errorf("usage: the store does not record usage")
	}
	now := s.now()
	q, err := q.Resolve(now)
	if err != nil {
		return nil, err
	}
	u := &koda.Usage{TenantID: tenant, Period: q,
		DayStart:   time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC),
		MonthStart: time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)}
	if u.Limits, err = s.limits(ctx, s.Store, tenant); err != nil {
		return nil, err
	}
	if u.ProjectsInFlight, err = us.CountProjectsInFlight(ctx, tenant); err != nil {
		return nil, err
	}
	if u.RendersToday, err = us.CountRendersSince(ctx, tenant, u.DayStart); err != nil {
		return nil, err
	}
	month, err := us.UsageHours(ctx, tenant, u.MonthStart, now.Truncate(time.Hour).Add(time.Hour))
	if err != nil {
		return nil, err
	}
	u.Today = sumUsage(month, koda.RenderFinal, u.DayStart)
	u.Month = sumUsage(month, koda.RenderFinal, u.MonthStart)
	if u.Hours, err = us.UsageHours(ctx, tenant, q.From, q.To); err != nil {
		return nil, err
	}
	return u, nil
}

// sumUsage totals the hours of one kind from since on.
func sumUsage(hours []koda.UsageHour, kind koda.RenderKind, since time.Time) koda.UsageTotals {
	var t koda.UsageTotals
	for _, h := range hours {
		if h.Kind == kind && !h.Hour.Before(since) {
			t.Add(h.UsageTotals)
		}
	}
	return t
}

// AggregateUsage rolls the usage records up into hourly aggregates (the maintenance:usage
// job) and returns how many tenant-hours it recomputed.
func (s *Service) AggregateUsage(ctx context.Context) (int, error) {
	us, ok := s.Store.(koda.UsageStore)
	if !ok {
		return 0, nil
	}
	return us.RollUpUsage(ctx)
}

// unlimitedSandboxes stands for "no limit" when leasing, so an unlimited tenant's
// sandboxes still count should a limit be set later.
const unlimitedSandboxes = 1 << 30

// AdmitSandbox refuses one more sandbox for the tenant when it holds its limit of live
// sandboxes (429 LIMIT_LIVE_SANDBOXES); sandbox.Pool asks before every creation. With
// SandboxLeases the count is the cluster's, and the sandbox holds a lease until
// release is called when it is gone; without, live (this process's count) decides.
func (s *Service) AdmitSandbox(ctx context.Context, tenantID string, live int) (release func(), err error) {
	l, err := s.limits(ctx, s.Store, tenantID)
	if err != nil {
		return nil, err
	}
	refuse := func(held int) error {
		return limitError(koda.CodeLimitSandboxes, 60*time.Second,
			"%d sandboxes are live, the limit of this account; destroy one first", held)
	}
	if s.SandboxLeases == nil {
		if l.LiveSandboxes > 0 && live >= l.LiveSandboxes {
			return nil, refuse(live)
		}
		return func() {}, nil
	}
	limit := l.LiveSandboxes
	if limit <= 0 {
		limit = unlimitedSandboxes
	}
	release, held, ok, err := s.SandboxLeases.TakeSandbox(ctx, tenantID, limit)
	if err != nil {
		return nil, fmt.Errorf("count live sandboxes of %s: %w", tenantID, err)
	}
	if !ok {
		return nil, refuse(held)
	}
	return release, nil
}
