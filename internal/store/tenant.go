package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/kodahq/koda"
)

var (
	_ koda.TenantStore   = (*Store)(nil)
	_ koda.UsageStore    = (*Store)(nil)
	_ koda.EndpointStore = (*Store)(nil)
)

type tenantRow struct {
	ID                      string     `gorm:"column:id;primaryKey"`
	Name                    string     `gorm:"column:name"`
	LimitConcurrentProjects int        `gorm:"column:limit_concurrent_projects"`
	LimitLiveSandboxes      int        `gorm:"column:limit_live_sandboxes"`
	LimitRendersPerDay      int        `gorm:"column:limit_renders_per_day"`
	LimitRenderSecondsMonth float64    `gorm:"column:limit_render_seconds_month"`
	LimitBatchRows          int        `gorm:"column:limit_batch_rows"`
	LimitAssetBytes         int64      `gorm:"column:limit_asset_bytes"`
	WebhookSecret           string     `gorm:"column:webhook_secret"`
	PreviousSecret          string     `gorm:"column:previous_secret"`
	PreviousExpiresAt       *time.Time `gorm:"column:previous_expires_at"`
	CreatedAt               time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt               time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`
	DeletedAt               *time.Time `gorm:"column:deleted_at"`
}

func (tenantRow) TableName() string { return "tenants" }

// Webhook secrets are sealed at rest (internal/secretbox) when the store has a key;
// the column name is the seal's label.
const (
	colWebhookSecret  = "webhook_secret"
	colPreviousSecret = "previous_secret"
)

func (s *Store) toTenantRow(t *koda.Tenant) *tenantRow {
	return &tenantRow{
		ID: t.ID, Name: t.Name,
		LimitConcurrentProjects: t.Limits.ConcurrentProjects,
		LimitLiveSandboxes:      t.Limits.LiveSandboxes,
		LimitRendersPerDay:      t.Limits.RendersPerDay,
		LimitRenderSecondsMonth: t.Limits.RenderSecondsPerMonth,
		LimitBatchRows:          t.Limits.BatchRows,
		LimitAssetBytes:         t.Limits.AssetBytes,
		WebhookSecret:           s.seal(colWebhookSecret, t.WebhookSecret),
		PreviousSecret:          s.seal(colPreviousSecret, t.PreviousSecret),
		PreviousExpiresAt:       utcPtr(t.PreviousExpiresAt),
		CreatedAt:               utc(t.CreatedAt),
		UpdatedAt:               utc(t.UpdatedAt),
		DeletedAt:               utcPtr(t.DeletedAt),
	}
}

func (s *Store) toTenant(r *tenantRow) (*koda.Tenant, error) {
	secret, err := s.open(colWebhookSecret, r.WebhookSecret)
	if err != nil {
		return nil, fmt.Errorf("tenant %s: %w", r.ID, err)
	}
	previous, err := s.open(colPreviousSecret, r.PreviousSecret)
	if err != nil {
		return nil, fmt.Errorf("tenant %s: %w", r.ID, err)
	}
	return &koda.Tenant{
		ID: r.ID, Name: r.Name,
		Limits: koda.Limits{
			ConcurrentProjects:    r.LimitConcurrentProjects,
			LiveSandboxes:         r.LimitLiveSandboxes,
			RendersPerDay:         r.LimitRendersPerDay,
			RenderSecondsPerMonth: r.LimitRenderSecondsMonth,
			BatchRows:             r.LimitBatchRows,
			AssetBytes:            r.LimitAssetBytes,
		},
		WebhookSecret:     secret,
		PreviousSecret:    previous,
		PreviousExpiresAt: utcPtr(r.PreviousExpiresAt),
		CreatedAt:         r.CreatedAt.UTC(),
		UpdatedAt:         r.UpdatedAt.UTC(),
		DeletedAt:         utcPtr(r.DeletedAt),
	}, nil
}

// CreateTenant inserts t; an existing ID is an ECONFLICT error.
func (s *Store) CreateTenant(ctx context.Context, t *koda.Tenant) error {
	if t.CreatedAt.IsZero() {
		t.CreatedAt = now()
	}
	t.CreatedAt = utc(t.CreatedAt)
	t.UpdatedAt = t.CreatedAt
	return dbError(s.conn(ctx).Create(s.toTenantRow(t)).Error, "tenant", t.ID)
}

// GetTenant returns the tenant or ENOTFOUND.
func (s *Store) GetTenant(ctx context.Context, id string) (*koda.Tenant, error) {
	var row tenantRow
	if err := s.conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return nil, dbError(err, "tenant", id)
	}
	return s.toTenant(&row)
}

// ListTenants returns every tenant by ID.
func (s *Store) ListTenants(ctx context.Context) ([]*koda.Tenant, error) {
	var rows []tenantRow
	if err := s.conn(ctx).Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list tenants: %w", err)
	}
	out := make([]*koda.Tenant, len(rows))
	for i := range rows {
		t, err := s.toTenant(&rows[i])
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

// UpdateTenant saves every field of t except ID and CreatedAt.
func (s *Store) UpdateTenant(ctx context.Context, t *koda.Tenant) error {
	t.UpdatedAt = now()
	res := s.conn(ctx).Model(&tenantRow{}).Where("id = ?", t.ID).
		Select("*").Omit("id", "created_at").Updates(s.toTenantRow(t))
	if res.Error != nil {
		return dbError(res.Error, "tenant", t.ID)
	}
	if res.RowsAffected == 0 {
		return koda.NotFound("tenant", t.ID)
	}
	return nil
}

// DeleteTenant marks the tenant deleted at t, keeping an earlier time, and revokes its
// unrevoked keys in the same transaction. The tenant's row is written first, so a
// concurrent CreateAPIKey (which reads it, locked on Postgres) either commits before
// and has its key revoked here, or sees the tenant deleted. Unknown IDs are ENOTFOUND.
func (s *Store) DeleteTenant(ctx context.Context, id string, at time.Time) error {
	at = utc(at)
	return s.conn(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&tenantRow{}).Where("id = ?", id).
			Update("deleted_at", gorm.Expr("COALESCE(deleted_at, ?)", at))
		if res.Error != nil {
			return dbError(res.Error, "tenant", id)
		}
		if res.RowsAffected == 0 {
			return koda.NotFound("tenant", id)
		}
		return dbError(tx.Model(&apiKeyRow{}).Where("tenant_id = ? AND revoked_at IS NULL", id).
			Update("revoked_at", at).Error, "tenant", id)
	})
}

type apiKeyRow struct {
	ID         string     `gorm:"column:id;primaryKey"`
	TenantID   string     `gorm:"column:tenant_id"`
	Name       string     `gorm:"column:name"`
	Prefix     string     `gorm:"column:prefix"`
	Hash       string     `gorm:"column:hash"`
	CreatedAt  time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	LastUsedAt *time.Time `gorm:"column:last_used_at"`
	RevokedAt  *time.Time `gorm:"column:revoked_at"`
}

func (apiKeyRow) TableName() string { return "api_keys" }

func (r *apiKeyRow) toKey() *koda.APIKey {
	return &koda.APIKey{ID: r.ID, TenantID: r.TenantID, Name: r.Name, Prefix: r.Prefix, Hash: r.Hash,
		CreatedAt: r.CreatedAt.UTC(), LastUsedAt: utcPtr(r.LastUsedAt), RevokedAt: utcPtr(r.RevokedAt)}
}

// CreateAPIKey inserts k; its tenant must exist (ENOTFOUND otherwise). With
// maxActive > 0 a tenant that already has that many unrevoked keys gets ECONFLICT
// LIMIT_API_KEYS. The tenant's row is locked while counting (on SQLite the immediate
// transaction holds the write lock), so concurrent creations serialize on the cap.
func (s *Store) CreateAPIKey(ctx context.Context, k *koda.APIKey, maxActive int) error {
	if k.ID == "" {
		k.ID = koda.NewID(koda.PrefixAPIKey)
	}
	if k.CreatedAt.IsZero() {
		k.CreatedAt = now()
	}
	k.CreatedAt = utc(k.CreatedAt)
	return s.conn(ctx).Transaction(func(tx *gorm.DB) error {
		q := tx
		if s.postgres {
			q = q.Clauses(clause.Locking{Strength: "UPDATE"})
		}
		var t tenantRow
		if err := q.Select("id", "deleted_at").Where("id = ?", k.TenantID).Take(&t).Error; err != nil {
			return dbError(err, "tenant", k.TenantID)
		}
		if t.DeletedAt != nil {
			return koda.Errorf(koda.ECONFLICT, koda.CodeTenantDeleted, "tenant %q was deleted", k.TenantID)
		}
		if maxActive > 0 {
			var active int64
			if err := tx.Model(&apiKeyRow{}).Where("tenant_id = ? AND revoked_at IS NULL", k.TenantID).
				Count(&active).Error; err != nil {
				return fmt.Errorf("count api keys of %s: %w", k.TenantID, err)
			}
			if active >= int64(maxActive) {
				return koda.Errorf(koda.ECONFLICT, koda.CodeLimitAPIKeys,
					"the account has %d active API keys, the most allowed; revoke one before creating another", active)
			}
		}
		return dbError(tx.Create(&apiKeyRow{ID: k.ID, TenantID: k.TenantID, Name: k.Name,
			Prefix: k.Prefix, Hash: k.Hash, CreatedAt: k.CreatedAt}).Error, "api key", k.ID)
	})
}

// GetAPIKeyByHash returns the key whose secret hashes to hash, or ENOTFOUND.
func (s *Store) GetAPIKeyByHash(ctx context.Context, hash string) (*koda.APIKey, error) {
	var row apiKeyRow
	if err := s.conn(ctx).Where("hash = ?", hash).Take(&row).Error; err != nil {
		return nil, dbError(err, "api key", "")
	}
	return row.toKey(), nil
}

// GetAPIKey returns the key or ENOTFOUND.
func (s *Store) GetAPIKey(ctx context.Context, id string) (*koda.APIKey, error) {
	var row apiKeyRow
	if err := s.conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return nil, dbError(err, "api key", id)
	}
	return row.toKey(), nil
}

// ListAPIKeys returns a tenant's keys in ID order (oldest first), after f.AfterID, at
// most f.Limit of them (0: all).
func (s *Store) ListAPIKeys(ctx context.Context, f koda.APIKeyFilter) ([]*koda.APIKey, error) {
	q := s.conn(ctx).Where("tenant_id = ?", f.TenantID)
	if f.AfterID != "" {
		q = q.Where("id > ?", f.AfterID)
	}
	if f.Limit > 0 {
		q = q.Limit(f.Limit)
	}
	var rows []apiKeyRow
	if err := q.Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list api keys of %s: %w", f.TenantID, err)
	}
	out := make([]*koda.APIKey, len(rows))
	for i := range rows {
		out[i] = rows[i].toKey()
	}
	return out, nil
}

// RevokeAPIKey marks the key revoked at t; revoking twice keeps the first time.
func (s *Store) RevokeAPIKey(ctx context.Context, id string, at time.Time) error {
	if _, err := s.GetAPIKey(ctx, id); err != nil {
		return err
	}
	return dbError(s.conn(ctx).Model(&apiKeyRow{}).Where("id = ? AND revoked_at IS NULL", id).
		Update("revoked_at", utc(at)).Error, "api key", id)
}

// TouchAPIKey records the key's last use.
func (s *Store) TouchAPIKey(ctx context.Context, id string, at time.Time) error {
	return dbError(s.conn(ctx).Model(&apiKeyRow{}).Where("id = ?", id).
		Update("last_used_at", utc(at)).Error, "api key", id)
}

type usageRow struct {
	ID            string    `gorm:"column:id;primaryKey"`
	TenantID      string    `gorm:"column:tenant_id"`
	ProjectID     string    `gorm:"column:project_id"`
	RenderID      string    `gorm:"column:render_id"`
	Kind          string    `gorm:"column:kind"`
	Preset        string    `gorm:"column:preset"`
	DurationS     float64   `gorm:"column:duration_s"`
	Frames        int       `gorm:"column:frames"`
	RenderSeconds float64   `gorm:"column:render_seconds"`
	StopReason    string    `gorm:"column:stop_reason"`
	At            time.Time `gorm:"column:at"`
}

func (usageRow) TableName() string { return "usage_records" }

// AddUsage records what one render used.
func (s *Store) AddUsage(ctx context.Context, u *koda.UsageRecord) error {
	if u.ID == "" {
		u.ID = koda.NewID(koda.PrefixUsage)
	}
	if u.At.IsZero() {
		u.At = now()
	}
	u.At = utc(u.At)
	return dbError(s.conn(ctx).Create(&usageRow{ID: u.ID, TenantID: u.TenantID, ProjectID: u.ProjectID,
		RenderID: u.RenderID, Kind: string(u.Kind), Preset: u.Preset, DurationS: u.DurationS, Frames: u.Frames,
		RenderSeconds: u.RenderSeconds, StopReason: u.StopReason, At: u.At}).Error, "usage record", u.ID)
}

// CountRendersSince counts a tenant's final renders created at or after since.
func (s *Store) CountRendersSince(ctx context.Context, tenantID string, since time.Time) (int, error) {
	var n int64
	if err := s.conn(ctx).Model(&renderRow{}).
		Where("tenant_id = ? AND kind = ? AND created_at >= ?", tenantID, string(koda.RenderFinal), utc(since)).
		Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count renders of %s: %w", tenantID, err)
	}
	return int(n), nil
}

// CountProjectsInFlight counts a tenant's projects waiting for a task.
func (s *Store) CountProjectsInFlight(ctx context.Context, tenantID string) (int, error) {
	var n int64
	if err := s.conn(ctx).Model(&projectRow{}).Where("tenant_id = ? AND pending <> ''", tenantID).
		Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count projects of %s: %w", tenantID, err)
	}
	return int(n), nil
}

type endpointRow struct {
	TenantID   string     `gorm:"column:tenant_id;primaryKey"`
	URL        string     `gorm:"column:url;primaryKey"`
	DisabledAt *time.Time `gorm:"column:disabled_at"`
	Reason     string     `gorm:"column:reason"`
}

func (endpointRow) TableName() string { return "webhook_endpoints" }

// GetEndpoint returns the stored state of a callback URL, or an enabled endpoint.
func (s *Store) GetEndpoint(ctx context.Context, tenantID, url string) (*koda.WebhookEndpoint, error) {
	var rows []endpointRow
	if err := s.conn(ctx).Where("tenant_id = ? AND url = ?", tenantID, url).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("webhook endpoint %s: %w", url, err)
	}
	if len(rows) == 0 {
		return &koda.WebhookEndpoint{TenantID: tenantID, URL: url}, nil
	}
	r := rows[0]
	return &koda.WebhookEndpoint{TenantID: r.TenantID, URL: r.URL, DisabledAt: utcPtr(r.DisabledAt), Reason: r.Reason}, nil
}

// DisableEndpoint stops deliveries to a callback URL.
func (s *Store) DisableEndpoint(ctx context.Context, tenantID, url, reason string, at time.Time) error {
	t := utc(at)
	return dbError(s.conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "tenant_id"}, {Name: "url"}},
		DoUpdates: clause.AssignmentColumns([]string{"disabled_at", "reason"}),
	}).Create(&endpointRow{TenantID: tenantID, URL: url, DisabledAt: &t, Reason: reason}).Error, "webhook endpoint", url)
}

// EnableEndpoint lets deliveries to a callback URL go out again.
func (s *Store) EnableEndpoint(ctx context.Context, tenantID, url string) error {
	return dbError(s.conn(ctx).Where("tenant_id = ? AND url = ?", tenantID, url).
		Delete(&endpointRow{}).Error, "webhook endpoint", url)
}

// ReserveIdempotency claims a tenant's Idempotency-Key for a request in progress (a
// record with StatusCode 0). It reports false, and stores nothing, when the key is
// claimed or answered already: of two concurrent requests exactly one wins.
func (s *Store) ReserveIdempotency(ctx context.Context, rec *koda.IdempotencyRecord) (bool, error) {
	if rec.CreatedAt.IsZero() {
		rec.CreatedAt = now()
	}
	res := s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&idempotencyRow{
		TenantID: rec.TenantID, Key: rec.Key, RequestHash: rec.RequestHash, StatusCode: 0,
		Body: "", CreatedAt: utc(rec.CreatedAt),
	})
	if res.Error != nil {
		return false, dbError(res.Error, "idempotency key", rec.Key)
	}
	return res.RowsAffected == 1, nil
}

// CompleteIdempotency stores the response of a reserved key.
func (s *Store) CompleteIdempotency(ctx context.Context, rec *koda.IdempotencyRecord) error {
	body, err := text(rec.Body, "idempotency body")
	if err != nil {
		return fmt.Errorf("idempotency key %s: %w", rec.Key, err)
	}
	return dbError(s.conn(ctx).Model(&idempotencyRow{}).
		Where("tenant_id = ? AND \"key\" = ?", rec.TenantID, rec.Key).
		Updates(map[string]any{"status_code": rec.StatusCode, "body": body, "location": rec.Location}).Error,
		"idempotency key", rec.Key)
}

// ReleaseIdempotency forgets a reservation whose request failed, so the client may
// retry with the same key.
func (s *Store) ReleaseIdempotency(ctx context.Context, tenantID, key string) error {
	return dbError(s.conn(ctx).Where("tenant_id = ? AND \"key\" = ? AND status_code = 0", tenantID, key).
		Delete(&idempotencyRow{}).Error, "idempotency key", key)
}

// PurgeIdempotency deletes idempotency records created before before, answered or not.
func (s *Store) PurgeIdempotency(ctx context.Context, before time.Time) (int64, error) {
	res := s.conn(ctx).Where("created_at < ?", utc(before)).Delete(&idempotencyRow{})
	if res.Error != nil {
		return 0, fmt.Errorf("purge idempotency records: %w", res.Error)
	}
	return res.RowsAffected, nil
}

// CancelBatch marks the batch cancelled at t unless it already is, and reports
// whether this call did it.
func (s *Store) CancelBatch(ctx context.Context, id string, t time.Time) (bool, error) {
	res := s.conn(ctx).Model(&batchRow{}).Where("id = ? AND cancelled_at IS NULL", id).Update("cancelled_at", utc(t))
	if res.Error != nil {
		return false, dbError(res.Error, "batch", id)
	}
	return res.RowsAffected == 1, nil
}
