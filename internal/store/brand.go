package store

import (
	"context"
	"time"

	"gorm.io/gorm/clause"

	"github.com/kodahq/koda"
)

var _ koda.BrandStore = (*Store)(nil)

type brandRow struct {
	TenantID        string    `gorm:"column:tenant_id;primaryKey"`
	LogoAsset       string    `gorm:"column:logo_asset"`
	FontAsset       string    `gorm:"column:font_asset"`
	SoundtrackAsset string    `gorm:"column:soundtrack_asset"`
	ColorPrimary    string    `gorm:"column:color_primary"`
	ColorSecondary  string    `gorm:"column:color_secondary"`
	ColorBackground string    `gorm:"column:color_background"`
	ColorText       string    `gorm:"column:color_text"`
	EndCard         string    `gorm:"column:end_card"`
	UpdatedAt       time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (brandRow) TableName() string { return "brands" }

// GetBrand returns the tenant's brand kit or ENOTFOUND.
func (s *Store) GetBrand(ctx context.Context, tenantID string) (*koda.Brand, error) {
	var r brandRow
	if err := s.conn(ctx).Where("tenant_id = ?", tenantID).Take(&r).Error; err != nil {
		return nil, dbError(err, "brand", tenantID)
	}
	return &koda.Brand{TenantID: r.TenantID, Logo: r.LogoAsset, Font: r.FontAsset, Soundtrack: r.SoundtrackAsset,
		Colors: koda.BrandColors{Primary: r.ColorPrimary, Secondary: r.ColorSecondary,
			Background: r.ColorBackground, Text: r.ColorText},
		EndCard: r.EndCard, UpdatedAt: r.UpdatedAt.UTC()}, nil
}

// PutBrand creates or replaces the tenant's brand kit in one statement (an upsert on
// both SQLite and PostgreSQL), and sets b.UpdatedAt.
func (s *Store) PutBrand(ctx context.Context, b *koda.Brand) error {
	b.UpdatedAt = now()
	r := brandRow{TenantID: b.TenantID, LogoAsset: b.Logo, FontAsset: b.Font, SoundtrackAsset: b.Soundtrack,
		ColorPrimary: b.Colors.Primary, ColorSecondary: b.Colors.Secondary, ColorBackground: b.Colors.Background,
		ColorText: b.Colors.Text, EndCard: b.EndCard, UpdatedAt: b.UpdatedAt}
	err := s.conn(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "tenant_id"}},
		UpdateAll: true,
	}).Create(&r).Error
	return dbError(err, "brand", b.TenantID)
}
