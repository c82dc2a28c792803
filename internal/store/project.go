package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"

	"github.com/kodahq/koda"
)

type projectRow struct {
	ID          string    `gorm:"column:id;primaryKey"`
	TenantID    string    `gorm:"column:tenant_id"`
	Prompt      string    `gorm:"column:prompt"`
	Style       string    `gorm:"column:style"`
	StyleNote   string    `gorm:"column:style_note"`
	DurationS   float64   `gorm:"column:duration_s"`
	AutoApprove bool      `gorm:"column:auto_approve"`
	Presets     string    `gorm:"column:presets"`
	CallbackURL string    `gorm:"column:callback_url"`
	Metadata    *string   `gorm:"column:metadata"`
	Assets      string    `gorm:"column:assets"`
	Brand       *string   `gorm:"column:brand"`
	Phase       string    `gorm:"column:phase"`
	Question    *string   `gorm:"column:question"`
	Plan        *string   `gorm:"column:plan"`
	Execution   string    `gorm:"column:execution"`
	Preview     *string   `gorm:"column:preview"`
	Error       *string   `gorm:"column:error"`
	Feedback    string    `gorm:"column:feedback"`
	Step        int       `gorm:"column:step"`
	Pending     string    `gorm:"column:pending"`
	CreatedAt   time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt   time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (projectRow) TableName() string { return "projects" }

func toProjectRow(p *koda.Project) (*projectRow, error) {
	r := &projectRow{
		ID:          p.ID,
		TenantID:    p.TenantID,
		Prompt:      p.Prompt,
		Style:       string(p.Style),
		StyleNote:   p.StyleNote,
		DurationS:   p.DurationS,
		AutoApprove: p.AutoApprove,
		CallbackURL: p.CallbackURL,
		Metadata:    rawToNull(p.Metadata),
		Phase:       string(p.Phase),
		Step:        p.Step,
		Pending:     p.Pending,
		CreatedAt:   p.CreatedAt,
		UpdatedAt:   p.UpdatedAt,
	}
	var err error
	if r.Presets, err = toJSON(p.Presets, "presets"); err != nil {
		return nil, err
	}
	if r.Assets, err = toJSON(nonNil(p.Assets), "assets"); err != nil {
		return nil, err
	}
	if r.Brand, err = toNullJSON(p.Brand, "brand"); err != nil {
		return nil, err
	}
	if r.Question, err = toNullJSON(p.Question, "question"); err != nil {
		return nil, err
	}
	if r.Plan, err = toNullJSON(p.Plan, "plan"); err != nil {
		return nil, err
	}
	if r.Execution, err = toJSON(p.Execution, "execution"); err != nil {
		return nil, err
	}
	if r.Preview, err = toNullJSON(p.Preview, "preview"); err != nil {
		return nil, err
	}
	if r.Error, err = toNullJSON(p.Error, "error"); err != nil {
		return nil, err
	}
	if r.Feedback, err = toJSON(p.Feedback, "feedback"); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *projectRow) toProject() (*koda.Project, error) {
	p := &koda.Project{
		ID:          r.ID,
		TenantID:    r.TenantID,
		Prompt:      r.Prompt,
		Style:       koda.Style(r.Style),
		StyleNote:   r.StyleNote,
		DurationS:   r.DurationS,
		AutoApprove: r.AutoApprove,
		CallbackURL: r.CallbackURL,
		Metadata:    nullToRaw(r.Metadata),
		Phase:       koda.Phase(r.Phase),
		Step:        r.Step,
		Pending:     r.Pending,
		CreatedAt:   r.CreatedAt.UTC(),
		UpdatedAt:   r.UpdatedAt.UTC(),
	}
	err := fromJSON(r.Presets, &p.Presets, "presets")
	if err == nil && r.Assets != "" && r.Assets != "[]" { // none stays nil, as it was saved
		err = fromJSON(r.Assets, &p.Assets, "assets")
	}
	if err == nil {
		p.Brand, err = fromNullJSON[koda.Brand](r.Brand, "brand")
	}
	if err == nil {
		p.Question, err = fromNullJSON[koda.Question](r.Question, "question")
	}
	if err == nil {
		p.Plan, err = fromNullJSON[koda.Plan](r.Plan, "plan")
	}
	if err == nil {
		err = fromJSON(r.Execution, &p.Execution, "execution")
	}
	if err == nil {
		p.Preview, err = fromNullJSON[koda.Output](r.Preview, "preview")
	}
	if err == nil {
		p.Error, err = fromNullJSON[koda.Failure](r.Error, "error")
	}
	if err == nil {
		err = fromJSON(r.Feedback, &p.Feedback, "feedback")
	}
	if err != nil {
		return nil, fmt.Errorf("project %s: %w", r.ID, err)
	}
	return p, nil
}

// CreateProject inserts p. An empty ID is filled with a new one, a zero CreatedAt with
// now, and UpdatedAt with CreatedAt; times are stored (and left in p) in UTC.
func (s *Store) CreateProject(ctx context.Context, p *koda.Project) error {
	if p.ID == "" {
		p.ID = koda.NewID(koda.PrefixProject)
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = now()
	}
	p.CreatedAt = utc(p.CreatedAt)
	p.UpdatedAt = p.CreatedAt
	row, err := toProjectRow(p)
	if err != nil {
		return err
	}
	return dbError(s.conn(ctx).Create(row).Error, "project", p.ID)
}

// GetProject returns the project or ENOTFOUND. Inside InTx on PostgreSQL it locks the
// row until the transaction ends, so two transitions of one project serialize (on SQLite
// every transaction already holds the database's write lock).
func (s *Store) GetProject(ctx context.Context, id string) (*koda.Project, error) {
	q := s.conn(ctx)
	if s.inTx && s.postgres {
		// NO KEY UPDATE rather than UPDATE: it excludes concurrent transitions just the
		// same but lets other sessions insert events and renders referencing the project.
		q = q.Clauses(clause.Locking{Strength: "NO KEY UPDATE"})
	}
	var row projectRow
	if err := q.Where("id = ?", id).Take(&row).Error; err != nil {
		return nil, dbError(err, "project", id)
	}
	return row.toProject()
}

// UpdateProject saves every field of p except ID and CreatedAt, and sets p.UpdatedAt
// to now. A missing project is ENOTFOUND.
func (s *Store) UpdateProject(ctx context.Context, p *koda.Project) error {
	updated := now()
	row, err := toProjectRow(p)
	if err != nil {
		return err
	}
	row.UpdatedAt = updated
	res := s.conn(ctx).Model(&projectRow{}).Where("id = ?", p.ID).
		Select("*").Omit("id", "created_at").Updates(row)
	if res.Error != nil {
		return dbError(res.Error, "project", p.ID)
	}
	if res.RowsAffected == 0 {
		return koda.NotFound("project", p.ID)
	}
	p.UpdatedAt = updated
	return nil
}

// ListProjects returns the projects matching f in ID (creation) order.
func (s *Store) ListProjects(ctx context.Context, f koda.ProjectFilter) ([]*koda.Project, error) {
	q := s.conn(ctx).Model(&projectRow{})
	if f.TenantID != "" {
		q = q.Where("tenant_id = ?", f.TenantID)
	}
	if f.Phase != "" {
		q = q.Where("phase = ?", string(f.Phase))
	}
	if f.Pending {
		q = q.Where("pending <> ''")
	}
	if !f.UpdatedBefore.IsZero() {
		q = q.Where("updated_at < ?", utc(f.UpdatedBefore))
	}
	if f.AfterID != "" {
		q = q.Where("id > ?", f.AfterID)
	}
	if !f.CreatedAfter.IsZero() {
		q = q.Where("created_at > ?", utc(f.CreatedAfter))
	}
	if f.Limit > 0 {
		q = q.Limit(f.Limit)
	}
	var rows []projectRow
	if err := q.Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	out := make([]*koda.Project, 0, len(rows))
	for i := range rows {
		p, err := rows[i].toProject()
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// DeleteProject deletes the project with its renders, batches and events (by cascade).
// Webhook deliveries stay: they may still be owed. A missing project is ENOTFOUND.
func (s *Store) DeleteProject(ctx context.Context, id string) error {
	// Batches no longer cascade (a batch may span projects): drop the project's own.
	if err := s.conn(ctx).Where("project_id = ?", id).Delete(&batchRow{}).Error; err != nil {
		return dbError(err, "project", id)
	}
	res := s.conn(ctx).Where("id = ?", id).Delete(&projectRow{})
	if res.Error != nil {
		return dbError(res.Error, "project", id)
	}
	if res.RowsAffected == 0 {
		return koda.NotFound("project", id)
	}
	return nil
}

// nonNil stores a missing list as [] rather than null, as the column's default does.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
