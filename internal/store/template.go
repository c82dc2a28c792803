package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/kodahq/koda"
)

var _ koda.TemplateStore = (*Store)(nil)

type templateRow struct {
	ID        string    `gorm:"column:id;primaryKey"`
	TenantID  string    `gorm:"column:tenant_id"`
	ProjectID string    `gorm:"column:project_id"`
	Name      string    `gorm:"column:name"`
	Version   int       `gorm:"column:version"`
	DurationS float64   `gorm:"column:duration_s"`
	CreatedAt time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (templateRow) TableName() string { return "templates" }

type templateVersionRow struct {
	TemplateID string    `gorm:"column:template_id;primaryKey"`
	Version    int       `gorm:"column:version;primaryKey"`
	Name       string    `gorm:"column:name"`
	Fields     string    `gorm:"column:fields"`
	Scene      string    `gorm:"column:scene"`
	CreatedAt  time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (templateVersionRow) TableName() string { return "template_versions" }

type batchRowRow struct {
	BatchID         string `gorm:"column:batch_id;primaryKey"`
	Row             int    `gorm:"column:row_no;primaryKey"`
	TemplateID      string `gorm:"column:template_id"`
	TemplateVersion int    `gorm:"column:template_version"`
	ProjectID       string `gorm:"column:project_id"`
	Values          string `gorm:"column:field_values"`
	Errors          string `gorm:"column:errors"`
}

func (batchRowRow) TableName() string { return "batch_rows" }

func toVersionRow(v *koda.TemplateVersion) (*templateVersionRow, error) {
	fields, err := toJSON(v.Fields, "fields")
	if err != nil {
		return nil, err
	}
	sc, err := text(v.Scene, "scene")
	if err != nil {
		return nil, err
	}
	return &templateVersionRow{TemplateID: v.TemplateID, Version: v.Version, Name: v.Name, Fields: fields,
		Scene: sc, CreatedAt: utc(v.CreatedAt)}, nil
}

// CreateTemplate inserts t and its first version v in one transaction.
func (s *Store) CreateTemplate(ctx context.Context, t *koda.Template, v *koda.TemplateVersion) error {
	if v.CreatedAt.IsZero() {
		v.CreatedAt = now()
	}
	t.CreatedAt, t.UpdatedAt = utc(t.CreatedAt), utc(t.UpdatedAt)
	vr, err := toVersionRow(v)
	if err != nil {
		return err
	}
	return s.InTx(ctx, func(tx koda.Store) error {
		st := tx.(*Store)
		if err := st.conn(ctx).Create(&templateRow{ID: t.ID, TenantID: t.TenantID, ProjectID: t.ProjectID, Name: t.Name,
			Version: t.Version, DurationS: t.DurationS, CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt}).Error; err != nil {
			return dbError(err, "template", t.ID)
		}
		return dbError(st.conn(ctx).Create(vr).Error, "template version", t.ID)
	})
}

// GetTemplate returns the template with its current version's fields, or ENOTFOUND.
func (s *Store) GetTemplate(ctx context.Context, id string) (*koda.Template, error) {
	var row templateRow
	if err := s.conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return nil, dbError(err, "template", id)
	}
	v, err := s.GetTemplateVersion(ctx, id, row.Version)
	if err != nil {
		return nil, fmt.Errorf("template %s: current version: %w", id, err)
	}
	return row.toTemplate(v), nil
}

func (r *templateRow) toTemplate(v *koda.TemplateVersion) *koda.Template {
	return &koda.Template{ID: r.ID, TenantID: r.TenantID, ProjectID: r.ProjectID, Name: r.Name, Version: r.Version,
		Fields: v.Fields, DurationS: r.DurationS, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

// GetTemplateVersion returns one version of a template, or ENOTFOUND.
func (s *Store) GetTemplateVersion(ctx context.Context, id string, version int) (*koda.TemplateVersion, error) {
	var row templateVersionRow
	if err := s.conn(ctx).Where("template_id = ? AND version = ?", id, version).Take(&row).Error; err != nil {
		return nil, dbError(err, "template version", fmt.Sprintf("%s@%d", id, version))
	}
	v := &koda.TemplateVersion{TemplateID: row.TemplateID, Version: row.Version, Name: row.Name,
		Scene: []byte(row.Scene), CreatedAt: row.CreatedAt.UTC()}
	if err := fromJSON(row.Fields, &v.Fields, "fields"); err != nil {
		return nil, fmt.Errorf("template %s@%d: %w", id, version, err)
	}
	return v, nil
}

// AddTemplateVersion stores v as the next version and makes it current. The
// conditional UPDATE is the guard: of two concurrent edits of one version only one
// moves the template on, and the other gets ECONFLICT.
func (s *Store) AddTemplateVersion(ctx context.Context, v *koda.TemplateVersion) error {
	if v.CreatedAt.IsZero() {
		v.CreatedAt = now()
	}
	vr, err := toVersionRow(v)
	if err != nil {
		return err
	}
	return s.InTx(ctx, func(tx koda.Store) error {
		st := tx.(*Store)
		res := st.conn(ctx).Model(&templateRow{}).Where("id = ? AND version = ?", v.TemplateID, v.Version-1).
			Updates(map[string]any{"version": v.Version, "name": v.Name, "updated_at": utc(v.CreatedAt)})
		if res.Error != nil {
			return dbError(res.Error, "template", v.TemplateID)
		}
		if res.RowsAffected != 1 {
			if _, err := st.GetTemplate(ctx, v.TemplateID); err != nil {
				return err
			}
			return koda.Errorf(koda.ECONFLICT, koda.CodeTemplateEdited, "template %s was edited meanwhile; its version is no longer %d", v.TemplateID, v.Version-1)
		}
		return dbError(st.conn(ctx).Create(vr).Error, "template version", v.TemplateID)
	})
}

// ListTemplates returns the templates matching f in ID (creation) order.
func (s *Store) ListTemplates(ctx context.Context, f koda.TemplateFilter) ([]*koda.Template, error) {
	q := s.conn(ctx).Model(&templateRow{})
	if f.TenantID != "" {
		q = q.Where("tenant_id = ?", f.TenantID)
	}
	if f.AfterID != "" {
		q = q.Where("id > ?", f.AfterID)
	}
	if f.Limit > 0 {
		q = q.Limit(f.Limit)
	}
	var rows []templateRow
	if err := q.Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list templates: %w", err)
	}
	out := make([]*koda.Template, 0, len(rows))
	for i := range rows {
		v, err := s.GetTemplateVersion(ctx, rows[i].ID, rows[i].Version)
		if err != nil {
			return nil, fmt.Errorf("template %s: current version: %w", rows[i].ID, err)
		}
		out = append(out, rows[i].toTemplate(v))
	}
	return out, nil
}

// DeleteTemplate deletes a template; its versions go with it (ON DELETE CASCADE, which
// SQLite honours: the store opens it with _foreign_keys=1).
func (s *Store) DeleteTemplate(ctx context.Context, id string) error {
	res := s.conn(ctx).Where("id = ?", id).Delete(&templateRow{})
	if res.Error != nil {
		return dbError(res.Error, "template", id)
	}
	if res.RowsAffected == 0 {
		return koda.NotFound("template", id)
	}
	return nil
}

// CreateBatchRows inserts the rows of a template batch.
func (s *Store) CreateBatchRows(ctx context.Context, rows []*koda.BatchRow) error {
	if len(rows) == 0 {
		return nil
	}
	out := make([]batchRowRow, 0, len(rows))
	for _, r := range rows {
		vals := r.Values
		if vals == nil {
			vals = map[string]json.RawMessage{}
		}
		v, err := toJSON(vals, "field_values")
		if err != nil {
			return err
		}
		errs := r.Errors
		if errs == nil {
			errs = []koda.FieldError{}
		}
		e, err := toJSON(errs, "errors")
		if err != nil {
			return err
		}
		if v, err = text([]byte(v), "field_values"); err != nil {
			return koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "row %d: values must be UTF-8 text without NUL", r.Row)
		}
		out = append(out, batchRowRow{BatchID: r.BatchID, Row: r.Row, TemplateID: r.TemplateID,
			TemplateVersion: r.TemplateVersion, ProjectID: r.ProjectID, Values: v, Errors: e})
	}
	return dbError(s.conn(ctx).CreateInBatches(out, 200).Error, "batch rows", rows[0].BatchID)
}

// GetBatchRows returns a batch's rows by number; none for a batch of projects.
func (s *Store) GetBatchRows(ctx context.Context, batchID string) ([]*koda.BatchRow, error) {
	var rows []batchRowRow
	if err := s.conn(ctx).Where("batch_id = ?", batchID).Order("row_no").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("batch %s rows: %w", batchID, err)
	}
	out := make([]*koda.BatchRow, 0, len(rows))
	for _, r := range rows {
		b := &koda.BatchRow{BatchID: r.BatchID, Row: r.Row, TemplateID: r.TemplateID,
			TemplateVersion: r.TemplateVersion, ProjectID: r.ProjectID}
		if err := fromJSON(r.Values, &b.Values, "field_values"); err != nil {
			return nil, err
		}
		if err := fromJSON(r.Errors, &b.Errors, "errors"); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}
