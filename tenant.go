package koda

import (
	"context"
	"time"
)

// ID prefixes of the resources added with tenants.
const (
	PrefixAPIKey = "key"
	PrefixUsage  = "use"
)

// Codes of authentication, limits and webhooks.
const (
	CodeUnauthorized        = "UNAUTHORIZED"
	CodeLimitProjects       = "LIMIT_CONCURRENT_PROJECTS"
	CodeLimitSandboxes      = "LIMIT_LIVE_SANDBOXES"
	CodeLimitRendersPerDay  = "LIMIT_RENDERS_PER_DAY"
	CodeLimitRenderSeconds  = "LIMIT_RENDER_SECONDS_PER_MONTH"
	CodeLimitBatchRows      = "LIMIT_BATCH_ROWS"
	CodeCallbackForbidden   = "CALLBACK_URL_FORBIDDEN"
	CodeIdempotencyInFlight = "IDEMPOTENCY_KEY_IN_USE"
	CodeCancelled           = "CANCELLED"
	CodeEndpointDisabled    = "ENDPOINT_DISABLED"
	CodeDeliveryInProgress  = "DELIVERY_IN_PROGRESS"
	CodeNothingToRetry      = "NOTHING_TO_RETRY"
	CodeTenantExists        = "TENANT_EXISTS"
	// CodeLimitAPIKeys refuses a new API key to a tenant that has as many active keys
	// as a deployment allows (KODA_MAX_API_KEYS); revoking one makes room.
	CodeLimitAPIKeys = "LIMIT_API_KEYS"
	// CodeTenantDeleted refuses a change to a deleted tenant (a new key, new limits).
	CodeTenantDeleted = "TENANT_DELETED"
	// CodeDefaultTenant refuses deleting the default tenant, which serves the keys
	// given in configuration and Koda's own work.
	CodeDefaultTenant = "DEFAULT_TENANT_UNDELETABLE"
)

// Limits bound what one tenant may use; a zero field means no limit.
type Limits struct {
	// ConcurrentProjects bounds projects waiting for a task (planning, code generation,
	// preview rendering) at once.
	ConcurrentProjects int `json:"concurrent_projects"`
	// LiveSandboxes bounds sandboxes that exist at once, on every node together.
	LiveSandboxes int `json:"live_sandboxes"`
	// RendersPerDay bounds final renders requested per UTC day.
	RendersPerDay int `json:"renders_per_day"`
	// RenderSecondsPerMonth bounds the wall time spent rendering per UTC month.
	RenderSecondsPerMonth float64 `json:"render_seconds_per_month"`
	// BatchRows bounds the rows of one template batch (each row is rendered once per
	// preset, and those renders count against RendersPerDay too).
	BatchRows int `json:"batch_rows"`
	// AssetBytes bounds the bytes of the tenant's asset library, each distinct
	// content counted once (an upload of bytes already stored adds nothing).
	AssetBytes int64 `json:"asset_bytes"`
}

// Tenant is one customer of a deployment; every resource belongs to exactly one.
type Tenant struct {
	ID     string
	Name   string
	Limits Limits
	// WebhookSecret signs the tenant's webhooks ("" = the deployment's secret).
	// During a rotation PreviousSecret signs too, until PreviousExpiresAt.
	WebhookSecret     string
	PreviousSecret    string
	PreviousExpiresAt *time.Time
	CreatedAt         time.Time
	UpdatedAt         time.Time
	// DeletedAt is when the tenant was deleted (nil: it is active). A deleted tenant's
	// row stays so its usage keeps its owner; its keys are revoked and its ID is never
	// used again.
	DeletedAt *time.Time
}

// SigningSecrets returns the secrets that sign the tenant's webhooks at t, newest first.
func (t *Tenant) SigningSecrets(at time.Time) []string {
	var out []string
	if t.WebhookSecret != "" {
		out = append(out, t.WebhookSecret)
	}
	if t.PreviousSecret != "" && t.PreviousExpiresAt != nil && at.Before(*t.PreviousExpiresAt) {
		out = append(out, t.PreviousSecret)
	}
	return out
}

// APIKey is a tenant's credential. The key itself is shown once at creation; only its
// SHA-256 hash and a short prefix (to tell keys apart in lists) are stored.
type APIKey struct {
	ID         string
	TenantID   string
	Name       string
	Prefix     string
	Hash       string // hex SHA-256 of the whole key
	CreatedAt  time.Time
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}

// APIKeyFilter selects a tenant's keys in ID (creation) order.
type APIKeyFilter struct {
	TenantID string
	AfterID  string // cursor: the last ID of the previous page
	Limit    int    // 0: all
}

// UsageRecord is what one render used, recorded when it stops.
type UsageRecord struct {
	ID            string
	TenantID      string
	ProjectID     string
	RenderID      string
	Kind          RenderKind
	Preset        string
	DurationS     float64 // video length
	Frames        int
	RenderSeconds float64 // wall time spent rendering
	StopReason    string  // succeeded | failed | cancelled
	At            time.Time
}

// UsageTotals sums usage records.
type UsageTotals struct {
	Renders       int
	Frames        int
	DurationS     float64
	RenderSeconds float64
}

// Add adds o to t.
func (t *UsageTotals) Add(o UsageTotals) {
	t.Renders += o.Renders
	t.Frames += o.Frames
	t.DurationS += o.DurationS
	t.RenderSeconds += o.RenderSeconds
}

// UsageHour is what a tenant's renders of one kind used within one UTC hour.
type UsageHour struct {
	Hour time.Time // the hour's start, UTC
	Kind RenderKind
	UsageTotals
}

// TenantStore persists tenants and their API keys. Missing rows are ENOTFOUND.
type TenantStore interface {
	CreateTenant(ctx context.Context, t *Tenant) error
	GetTenant(ctx context.Context, id string) (*Tenant, error)
	ListTenants(ctx context.Context) ([]*Tenant, error)
	UpdateTenant(ctx context.Context, t *Tenant) error
	// DeleteTenant marks the tenant deleted at t (a second call keeps the first time)
	// and revokes every key of it, in one transaction: a key created concurrently is
	// either revoked with the others or refused (ECONFLICT CodeTenantDeleted).
	DeleteTenant(ctx context.Context, id string, at time.Time) error

	// CreateAPIKey inserts k. With maxActive > 0 it stores nothing and answers ECONFLICT
	// CodeLimitAPIKeys when the tenant already has maxActive unrevoked keys; the count
	// and the insert are one transaction, so concurrent creations cannot pass the cap.
	CreateAPIKey(ctx context.Context, k *APIKey, maxActive int) error
	// GetAPIKeyByHash finds a key by the hash of its secret, revoked or not.
	GetAPIKeyByHash(ctx context.Context, hash string) (*APIKey, error)
	GetAPIKey(ctx context.Context, id string) (*APIKey, error)
	ListAPIKeys(ctx context.Context, f APIKeyFilter) ([]*APIKey, error)
	RevokeAPIKey(ctx context.Context, id string, at time.Time) error
	TouchAPIKey(ctx context.Context, id string, at time.Time) error
}

// UsageStore records usage and answers the questions limits ask.
type UsageStore interface {
	AddUsage(ctx context.Context, u *UsageRecord) error
	// UsageHours returns a tenant's usage per UTC hour and kind in [from, to), both
	// whole hours, oldest first: the hourly aggregates plus the records no aggregate
	// counts yet, read together so that no record is counted twice or missed.
	UsageHours(ctx context.Context, tenantID string, from, to time.Time) ([]UsageHour, error)
	// RollUpUsage recomputes the hourly aggregate of every (tenant, hour) that has
	// records not rolled up yet, late ones included, and marks them rolled. Running it
	// again changes nothing. It returns how many (tenant, hour) pairs it recomputed.
	RollUpUsage(ctx context.Context) (int, error)
	// CountRendersSince counts a tenant's final renders created at or after since.
	CountRendersSince(ctx context.Context, tenantID string, since time.Time) (int, error)
	// CountProjectsInFlight counts a tenant's projects waiting for a task.
	CountProjectsInFlight(ctx context.Context, tenantID string) (int, error)
}

// WebhookEndpoint is the state of one callback URL of a tenant; an endpoint that
// answered 410 Gone is disabled until the tenant redelivers to it.
type WebhookEndpoint struct {
	TenantID   string
	URL        string
	DisabledAt *time.Time
	Reason     string
}

// EndpointStore keeps the disabled state of callback URLs.
type EndpointStore interface {
	// GetEndpoint returns the endpoint, or one that is enabled when none is stored.
	GetEndpoint(ctx context.Context, tenantID, url string) (*WebhookEndpoint, error)
	DisableEndpoint(ctx context.Context, tenantID, url, reason string, at time.Time) error
	EnableEndpoint(ctx context.Context, tenantID, url string) error
}
