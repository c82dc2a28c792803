package koda

import "time"

// ProjectQuery selects a page of the caller's projects.
type ProjectQuery struct {
	Phase        Phase
	CreatedAfter time.Time
	Cursor       string // the last ID of the previous page
	Limit        int
}

// BatchRequest asks for final renders of several complete projects for several presets.
type BatchRequest struct {
	ProjectIDs []string
	// Phase and CreatedAfter, used when ProjectIDs is empty, select the caller's
	// projects (phase complete unless given).
	Phase        Phase
	CreatedAfter time.Time
	Presets      []PresetSpec
	CallbackURL  string
}

// DeliveryQuery selects a page of the caller's webhook deliveries.
type DeliveryQuery struct {
	ProjectID string
	Status    DeliveryStatus
	Cursor    string
	Limit     int
}

// KeyQuery selects a page of the caller's API keys.
type KeyQuery struct {
	Cursor string // the last ID of the previous page
	Limit  int
}

// MaxUsageSpan is the longest period one usage query may cover.
const MaxUsageSpan = 366 * 24 * time.Hour

// UsageQuery asks for a tenant's usage by the hour in [From, To). Zero times mean the
// start of the current UTC month and the end of the current hour.
type UsageQuery struct {
	From, To time.Time
}

// Resolve fills the zero bounds for now and checks the period: whole UTC hours
// (usage is kept by the hour), From before To, at most MaxUsageSpan long.
func (q UsageQuery) Resolve(now time.Time) (UsageQuery, error) {
	now = now.UTC()
	if q.From.IsZero() {
		q.From = time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	}
	if q.To.IsZero() {
		q.To = now.Truncate(time.Hour).Add(time.Hour)
	}
	q.From, q.To = q.From.UTC(), q.To.UTC()
	switch {
	case q.From.Truncate(time.Hour) != q.From || q.To.Truncate(time.Hour) != q.To:
		return q, Errorf(EINVALID, CodeInvalidRequest, "from and to must be whole UTC hours, e.g. 2026-01-02T15:00:00Z: usage is kept by the hour")
	case !q.From.Before(q.To):
		return q, Errorf(EINVALID, CodeInvalidRequest, "from (%s) must be before to (%s)", q.From.Format(time.RFC3339), q.To.Format(time.RFC3339))
	case q.To.Sub(q.From) > MaxUsageSpan:
		return q, Errorf(EINVALID, CodeInvalidRequest, "from and to may be at most %d days apart", int(MaxUsageSpan/(24*time.Hour)))
	}
	return q, nil
}

// Usage is a tenant's use of Koda in the current UTC day and month, with its limits,
// and its usage by the hour over the period asked for.
type Usage struct {
	TenantID         string
	Limits           Limits
	ProjectsInFlight int
	RendersToday     int // final renders requested today
	Today            UsageTotals
	Month            UsageTotals
	DayStart         time.Time
	MonthStart       time.Time
	// Period is what was asked for, resolved; Hours lists its hours with usage, by
	// kind, oldest first.
	Period UsageQuery
	Hours  []UsageHour
}

// Page sizes of every list the API answers: Limit unset or above MaxPageSize means
// DefaultPageSize.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

// PageSize is the number of items a list answers for a requested limit.
func PageSize(limit int) int {
	if limit <= 0 || limit > MaxPageSize {
		return DefaultPageSize
	}
	return limit
}

// Page cuts items, fetched as size+1 after the cursor in ID order, to one page of size
// and returns the next page's cursor: the last item's ID, or "" when nothing follows.
func Page[T any](items []T, size int, id func(T) string) ([]T, string) {
	if len(items) <= size {
		return items, ""
	}
	items = items[:size]
	return items, id(items[size-1])
}
