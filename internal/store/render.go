package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/kodahq/koda"
)

type renderRow struct {
	ID          string     `gorm:"column:id;primaryKey"`
	TenantID    string     `gorm:"column:tenant_id"`
	ProjectID   string     `gorm:"column:project_id"`
	BatchID     string     `gorm:"column:batch_id"`
	Kind        string     `gorm:"column:kind"`
	Preset      string     `gorm:"column:preset"`
	DurationS   float64    `gorm:"column:duration_s"`
	Status      string     `gorm:"column:status"`
	Stage       string     `gorm:"column:stage"`
	Percent     float64    `gorm:"column:percent"`
	FramesDone  int        `gorm:"column:frames_done"`
	FramesTotal int        `gorm:"column:frames_total"`
	VideoKey    string     `gorm:"column:video_key"`
	ThumbKey    string     `gorm:"column:thumb_key"`
	SizeBytes   int64      `gorm:"column:size_bytes"`
	Attempts    int        `gorm:"column:attempts"`
	Error       *string    `gorm:"column:error"`
	OutputOf    string     `gorm:"column:output_of"`
	CaptureOf   string     `gorm:"column:capture_of"`
	CreatedAt   time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	StartedAt   *time.Time `gorm:"column:started_at"`
	FinishedAt  *time.Time `gorm:"column:finished_at"`
}

func (renderRow) TableName() string { return "renders" }

func toRenderRow(r *koda.Render) (*renderRow, error) {
	row := &renderRow{
		ID:          r.ID,
		TenantID:    r.TenantID,
		ProjectID:   r.ProjectID,
		BatchID:     r.BatchID,
		Kind:        string(r.Kind),
		DurationS:   r.DurationS,
		Status:      string(r.Status),
		Stage:       r.Progress.Stage,
		Percent:     r.Progress.Percent,
		FramesDone:  r.Progress.FramesDone,
		FramesTotal: r.Progress.FramesTotal,
		VideoKey:    r.VideoKey,
		ThumbKey:    r.ThumbKey,
		SizeBytes:   r.SizeBytes,
		Attempts:    r.Attempts,
		OutputOf:    r.OutputOf,
		CaptureOf:   r.CaptureOf,
		CreatedAt:   utc(r.CreatedAt),
		StartedAt:   utcPtr(r.StartedAt),
		FinishedAt:  utcPtr(r.FinishedAt),
	}
	var err error
	if row.Preset, err = toJSON(r.Preset, "preset"); err != nil {
		return nil, err
	}
	if row.Error, err = toNullJSON(r.Error, "error"); err != nil {
		return nil, err
	}
	return row, nil
}

func (row *renderRow) toRender() (*koda.Render, error) {
	r := &koda.Render{
		ID:        row.ID,
		TenantID:  row.TenantID,
		ProjectID: row.ProjectID,
		BatchID:   row.BatchID,
		Kind:      koda.RenderKind(row.Kind),
		DurationS: row.DurationS,
		Status:    koda.RenderStatus(row.Status),
		Progress: koda.RenderProgress{
			Stage:       row.Stage,
			Percent:     row.Percent,
			FramesDone:  row.FramesDone,
			FramesTotal: row.FramesTotal,
		},
		VideoKey:   row.VideoKey,
		ThumbKey:   row.ThumbKey,
		SizeBytes:  row.SizeBytes,
		Attempts:   row.Attempts,
		OutputOf:   row.OutputOf,
		CaptureOf:  row.CaptureOf,
		CreatedAt:  row.CreatedAt.UTC(),
		StartedAt:  utcPtr(row.StartedAt),
		FinishedAt: utcPtr(row.FinishedAt),
	}
	err := fromJSON(row.Preset, &r.Preset, "preset")
	if err == nil {
		r.Error, err = fromNullJSON[koda.Failure](row.Error, "error")
	}
	if err != nil {
		return nil, fmt.Errorf("render %s: %w", row.ID, err)
	}
	return r, nil
}

// CreateRender inserts r, filling an empty ID and a zero CreatedAt. A missing project
// is ENOTFOUND.
func (s *Store) CreateRender(ctx context.Context, r *koda.Render) error {
	if r.ID == "" {
		r.ID = koda.NewID(koda.PrefixRender)
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = now()
	}
	normalizeRenderTimes(r)
	row, err := toRenderRow(r)
	if err != nil {
		return err
	}
	err = s.conn(ctx).Create(row).Error
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return koda.NotFound("project", r.ProjectID)
	}
	return dbError(err, "render", r.ID)
}

// GetRender returns the render or ENOTFOUND.
func (s *Store) GetRender(ctx context.Context, id string) (*koda.Render, error) {
	var row renderRow
	if err := s.conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return nil, dbError(err, "render", id)
	}
	return row.toRender()
}

// UpdateRender saves every field of r except ID and CreatedAt. A missing render is
// ENOTFOUND.
func (s *Store) UpdateRender(ctx context.Context, r *koda.Render) error {
	normalizeRenderTimes(r)
	row, err := toRenderRow(r)
	if err != nil {
		return err
	}
	res := s.conn(ctx).Model(&renderRow{}).Where("id = ?", r.ID).
		Select("*").Omit("id", "created_at").Updates(row)
	if errors.Is(res.Error, gorm.ErrForeignKeyViolated) {
		return koda.NotFound("project", r.ProjectID)
	}
	if res.Error != nil {
		return dbError(res.Error, "render", r.ID)
	}
	if res.RowsAffected == 0 {
		return koda.NotFound("render", r.ID)
	}
	return nil
}

func normalizeRenderTimes(r *koda.Render) {
	r.CreatedAt = utc(r.CreatedAt)
	r.StartedAt = utcPtr(r.StartedAt)
	r.FinishedAt = utcPtr(r.FinishedAt)
}

// ListRenders returns the renders matching f in ID (creation) order.
func (s *Store) ListRenders(ctx context.Context, f koda.RenderFilter) ([]*koda.Render, error) {
	q := s.conn(ctx).Model(&renderRow{})
	if f.ProjectID != "" {
		q = q.Where("project_id = ?", f.ProjectID)
	}
	if f.BatchID != "" {
		q = q.Where("batch_id = ?", f.BatchID)
	}
	if f.OutputOf != "" {
		q = q.Where("output_of = ?", f.OutputOf)
	}
	if f.CaptureOf != "" {
		q = q.Where("capture_of = ?", f.CaptureOf)
	}
	if len(f.Statuses) > 0 {
		statuses := make([]string, len(f.Statuses))
		for i, st := range f.Statuses {
			statuses[i] = string(st)
		}
		q = q.Where("status IN ?", statuses)
	}
	if !f.CreatedBefore.IsZero() {
		q = q.Where("created_at < ?", utc(f.CreatedBefore))
	}
	if f.Limit > 0 {
		q = q.Limit(f.Limit)
	}
	var rows []renderRow
	if err := q.Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list renders: %w", err)
	}
	out := make([]*koda.Render, 0, len(rows))
	for i := range rows {
		r, err := rows[i].toRender()
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

type batchRow struct {
	ID          string     `gorm:"column:id;primaryKey"`
	TenantID    string     `gorm:"column:tenant_id"`
	ProjectID   string     `gorm:"column:project_id"`
	RenderIDs   string     `gorm:"column:render_ids"`
	CallbackURL string     `gorm:"column:callback_url"`
	CreatedAt   time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	CompletedAt *time.Time `gorm:"column:completed_at"`
	CancelledAt *time.Time `gorm:"column:cancelled_at"`
}

func (batchRow) TableName() string { return "batches" }

// CreateBatch inserts b, filling an empty ID and a zero CreatedAt. A missing project is
// ENOTFOUND.
func (s *Store) CreateBatch(ctx context.Context, b *koda.Batch) error {
	if b.ID == "" {
		b.ID = koda.NewID(koda.PrefixBatch)
	}
	if b.CreatedAt.IsZero() {
		b.CreatedAt = now()
	}
	b.CreatedAt = utc(b.CreatedAt)
	b.CompletedAt = utcPtr(b.CompletedAt)
	b.CancelledAt = utcPtr(b.CancelledAt)
	ids, err := toJSON(b.RenderIDs, "render_ids")
	if err != nil {
		return err
	}
	if b.ProjectID != "" {
		// No foreign key since batches may span projects: check the one it names.
		var n int64
		if err := s.conn(ctx).Model(&projectRow{}).Where("id = ?", b.ProjectID).Count(&n).Error; err != nil {
			return dbError(err, "batch", b.ID)
		}
		if n == 0 {
			return koda.NotFound("project", b.ProjectID)
		}
	}
	err = s.conn(ctx).Create(&batchRow{
		ID:          b.ID,
		TenantID:    b.TenantID,
		ProjectID:   b.ProjectID,
		RenderIDs:   ids,
		CallbackURL: b.CallbackURL,
		CreatedAt:   b.CreatedAt,
		CompletedAt: b.CompletedAt,
		CancelledAt: b.CancelledAt,
	}).Error
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return koda.NotFound("project", b.ProjectID)
	}
	return dbError(err, "batch", b.ID)
}

// GetBatch returns the batch or ENOTFOUND.
func (s *Store) GetBatch(ctx context.Context, id string) (*koda.Batch, error) {
	var row batchRow
	if err := s.conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return nil, dbError(err, "batch", id)
	}
	b := &koda.Batch{
		ID:          row.ID,
		TenantID:    row.TenantID,
		ProjectID:   row.ProjectID,
		CallbackURL: row.CallbackURL,
		CreatedAt:   row.CreatedAt.UTC(),
		CompletedAt: utcPtr(row.CompletedAt),
		CancelledAt: utcPtr(row.CancelledAt),
	}
	if err := fromJSON(row.RenderIDs, &b.RenderIDs, "render_ids"); err != nil {
		return nil, fmt.Errorf("batch %s: %w", id, err)
	}
	return b, nil
}

// CompleteBatch sets the batch's completion time unless it is already set, and reports
// whether this call set it. The conditional UPDATE is atomic on both databases, so among
// concurrent callers exactly one sees true. A missing batch is ENOTFOUND.
func (s *Store) CompleteBatch(ctx context.Context, id string, t time.Time) (bool, error) {
	if t.IsZero() {
		t = now()
	}
	res := s.conn(ctx).Model(&batchRow{}).
		Where("id = ? AND completed_at IS NULL", id).
		Update("completed_at", utc(t))
	if res.Error != nil {
		return false, dbError(res.Error, "batch", id)
	}
	if res.RowsAffected == 1 {
		return true, nil
	}
	if _, err := s.GetBatch(ctx, id); err != nil {
		return false, err
	}
	return false, nil
}
