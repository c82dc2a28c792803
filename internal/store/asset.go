package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/kodahq/koda"
)

var _ koda.AssetStore = (*Store)(nil)

// assetLockClass namespaces the per-tenant advisory locks of the asset library on
// PostgreSQL (the first key of the two-key form; the second is the tenant's hash).
const assetLockClass = 0x61737374 // "asst"

type assetRow struct {
	ID           string    `gorm:"column:id;primaryKey"`
	TenantID     string    `gorm:"column:tenant_id"`
	Kind         string    `gorm:"column:kind"`
	Format       string    `gorm:"column:format"`
	SourceFormat string    `gorm:"column:source_format"`
	MediaType    string    `gorm:"column:media_type"`
	Size         int64     `gorm:"column:size"`
	SHA256       string    `gorm:"column:sha256"`
	Key          string    `gorm:"column:storage_key"`
	Width        int       `gorm:"column:width"`
	Height       int       `gorm:"column:height"`
	DurationS    float64   `gorm:"column:duration_s"`
	Codec        string    `gorm:"column:codec"`
	Name         string    `gorm:"column:name"`
	CreatedAt    time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (assetRow) TableName() string { return "assets" }

func (r *assetRow) toAsset() *koda.Asset {
	return &koda.Asset{ID: r.ID, TenantID: r.TenantID, Kind: koda.AssetKind(r.Kind), Format: r.Format,
		SourceFormat: r.SourceFormat, MediaType: r.MediaType, Size: r.Size, SHA256: r.SHA256, Key: r.Key,
		Width: r.Width, Height: r.Height, DurationS: r.DurationS, Codec: r.Codec, Name: r.Name,
		CreatedAt: r.CreatedAt.UTC()}
}

// lockTenantAssets serializes the asset transactions of one tenant. On SQLite the
// transaction already holds the database's write lock (BEGIN IMMEDIATE); on
// PostgreSQL a transaction-scoped advisory lock does it, because a tenant served by a
// key from configuration may have no row to lock.
func (s *Store) lockTenantAssets(tx *gorm.DB, tenantID string) error {
	if !s.postgres {
		return nil
	}
	if err := tx.Exec("SELECT pg_advisory_xact_lock(?, hashtext(?))", assetLockClass, tenantID).Error; err != nil {
		return fmt.Errorf("lock assets of tenant %s: %w", tenantID, err)
	}
	return nil
}

// contentHeld reports whether an asset of the tenant other than exceptID holds the bytes.
func contentHeld(tx *gorm.DB, tenantID, sha, exceptID string) (bool, error) {
	var n int64
	q := tx.Model(&assetRow{}).Where("tenant_id = ? AND sha256 = ?", tenantID, sha)
	if exceptID != "" {
		q = q.Where("id <> ?", exceptID)
	}
	if err := q.Count(&n).Error; err != nil {
		return false, fmt.Errorf("count assets of tenant %s with content %s: %w", tenantID, sha, err)
	}
	return n > 0, nil
}

// assetBytes sums the sizes of the tenant's distinct contents.
func assetBytes(tx *gorm.DB, tenantID string) (int64, error) {
	var total int64
	err := tx.Raw(`SELECT COALESCE(SUM(size), 0) FROM (SELECT sha256, MAX(size) AS size FROM assets
		WHERE tenant_id = ? GROUP BY sha256) AS contents`, tenantID).Scan(&total).Error
	if err != nil {
		return 0, fmt.Errorf("sum asset bytes of tenant %s: %w", tenantID, err)
	}
	return total, nil
}

// CreateAsset inserts a (see koda.AssetStore).
func (s *Store) CreateAsset(ctx context.Context, a *koda.Asset, maxBytes int64, ensure func() error) error {
	if a.ID == "" {
		a.ID = koda.NewID(koda.PrefixAsset)
	}
	if a.CreatedAt.IsZero() {
		a.CreatedAt = now()
	}
	a.CreatedAt = utc(a.CreatedAt)
	return s.conn(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.lockTenantAssets(tx, a.TenantID); err != nil {
			return err
		}
		held, err := contentHeld(tx, a.TenantID, a.SHA256, "")
		if err != nil {
			return err
		}
		if !held && maxBytes > 0 {
			used, err := assetBytes(tx, a.TenantID)
			if err != nil {
				return err
			}
			if used+a.Size > maxBytes {
				return koda.AssetQuotaError(used, a.Size, maxBytes)
			}
		}
		row := assetRow{ID: a.ID, TenantID: a.TenantID, Kind: string(a.Kind), Format: a.Format,
			SourceFormat: a.SourceFormat, MediaType: a.MediaType, Size: a.Size, SHA256: a.SHA256, Key: a.Key,
			Width: a.Width, Height: a.Height, DurationS: a.DurationS, Codec: a.Codec, Name: a.Name, CreatedAt: a.CreatedAt}
		if err := tx.Create(&row).Error; err != nil {
			return dbError(err, "asset", a.ID)
		}
		if !held && ensure != nil {
			if err := ensure(); err != nil {
				return fmt.Errorf("asset %s: store content %s: %w", a.ID, a.SHA256, err)
			}
		}
		return nil
	})
}

// GetAsset returns the asset or ENOTFOUND.
func (s *Store) GetAsset(ctx context.Context, id string) (*koda.Asset, error) {
	var row assetRow
	if err := s.conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return nil, dbError(err, "asset", id)
	}
	return row.toAsset(), nil
}

// ListAssets returns the assets matching f in ID (creation) order.
func (s *Store) ListAssets(ctx context.Context, f koda.AssetFilter) ([]*koda.Asset, error) {
	q := s.conn(ctx).Model(&assetRow{})
	if f.TenantID != "" {
		q = q.Where("tenant_id = ?", f.TenantID)
	}
	if f.Kind != "" {
		q = q.Where("kind = ?", string(f.Kind))
	}
	if f.AfterID != "" {
		q = q.Where("id > ?", f.AfterID)
	}
	if f.Limit > 0 {
		q = q.Limit(f.Limit)
	}
	var rows []assetRow
	if err := q.Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list assets: %w", err)
	}
	out := make([]*koda.Asset, len(rows))
	for i := range rows {
		out[i] = rows[i].toAsset()
	}
	return out, nil
}

// DeleteAsset removes the asset and releases its object when no other asset of the
// tenant holds the same bytes (see koda.AssetStore).
func (s *Store) DeleteAsset(ctx context.Context, id string, release func(key string) error) error {
	a, err := s.GetAsset(ctx, id)
	if err != nil {
		return err
	}
	return s.conn(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.lockTenantAssets(tx, a.TenantID); err != nil {
			return err
		}
		res := tx.Where("id = ?", id).Delete(&assetRow{})
		if res.Error != nil {
			return dbError(res.Error, "asset", id)
		}
		if res.RowsAffected == 0 {
			return koda.NotFound("asset", id) // deleted concurrently
		}
		held, err := contentHeld(tx, a.TenantID, a.SHA256, "")
		if err != nil || held || release == nil {
			return err
		}
		if err := release(a.Key); err != nil {
			return fmt.Errorf("asset %s: release content %s: %w", id, a.SHA256, err)
		}
		return nil
	})
}

// ReleaseAssetContent calls release when no asset of the tenant holds sha256.
func (s *Store) ReleaseAssetContent(ctx context.Context, tenantID, sha256 string, release func() error) error {
	return s.conn(ctx).Transaction(func(tx *gorm.DB) error {
		if err := s.lockTenantAssets(tx, tenantID); err != nil {
			return err
		}
		held, err := contentHeld(tx, tenantID, sha256, "")
		if err != nil || held {
			return err
		}
		return release()
	})
}

// AssetBytes is the tenant's stored asset bytes, each distinct content counted once.
func (s *Store) AssetBytes(ctx context.Context, tenantID string) (int64, error) {
	return assetBytes(s.conn(ctx), tenantID)
}
