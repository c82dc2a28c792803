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

// Usage is a tenant's use of Koda in the current UTC day and month, with its limits.
type Usage struct {
	TenantID         string
	Limits           Limits
	ProjectsInFlight int
	RendersToday     int // final renders requested today
	Today            UsageTotals
	Month            UsageTotals
	DayStart         time.Time
	MonthStart       time.Time
}
