package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"github.com/kodahq/koda"
)

type messageRow struct {
	ID        string     `gorm:"column:id;primaryKey"`
	TenantID  string     `gorm:"column:tenant_id"`
	ProjectID string     `gorm:"column:project_id"`
	Text      string     `gorm:"column:text"`
	Status    string     `gorm:"column:status"`
	CreatedAt time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	AppliedAt *time.Time `gorm:"column:applied_at"`
}

func (messageRow) TableName() string { return "project_messages" }

func (r *messageRow) toMessage() *koda.QueuedMessage {
	return &koda.QueuedMessage{ID: r.ID, TenantID: r.TenantID, ProjectID: r.ProjectID, Text: r.Text,
		Status: koda.MessageStatus(r.Status), CreatedAt: utc(r.CreatedAt), AppliedAt: utcPtr(r.AppliedAt)}
}

var _ koda.MessageStore = (*Store)(nil)

// CreateMessage stores a queued message; a missing project is ENOTFOUND.
func (s *Store) CreateMessage(ctx context.Context, m *koda.QueuedMessage) error {
	text, err := text([]byte(m.Text), "message text")
	if err != nil {
		return fmt.Errorf("message %s: %w", m.ID, err)
	}
	m.CreatedAt = utc(m.CreatedAt)
	if m.CreatedAt.IsZero() {
		m.CreatedAt = now()
	}
	m.AppliedAt = utcPtr(m.AppliedAt)
	row := messageRow{ID: m.ID, TenantID: m.TenantID, ProjectID: m.ProjectID, Text: text,
		Status: string(m.Status), CreatedAt: m.CreatedAt, AppliedAt: m.AppliedAt}
	err = s.conn(ctx).Create(&row).Error
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return koda.NotFound("project", m.ProjectID)
	}
	return dbError(err, "message", m.ID)
}

// ListMessages returns a project's messages oldest first. IDs sort by their millisecond
// only (the rest is random), so two messages sent within one millisecond are ordered by
// their creation time, and the ID only breaks exact ties.
func (s *Store) ListMessages(ctx context.Context, projectID string, status koda.MessageStatus, limit int) ([]*koda.QueuedMessage, error) {
	q := s.conn(ctx).Where("project_id = ?", projectID)
	if status != "" {
		q = q.Where("status = ?", string(status))
	}
	if limit > 0 {
		q = q.Limit(limit)
	}
	var rows []messageRow
	if err := q.Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list messages of %s: %w", projectID, err)
	}
	out := make([]*koda.QueuedMessage, 0, len(rows))
	for i := range rows {
		out = append(out, rows[i].toMessage())
	}
	return out, nil
}

// MarkMessagesApplied marks queued messages applied at t; applied ones keep their time.
func (s *Store) MarkMessagesApplied(ctx context.Context, ids []string, t time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	err := s.conn(ctx).Model(&messageRow{}).Where("id IN ? AND status = ?", ids, string(koda.MessageQueued)).
		Updates(map[string]any{"status": string(koda.MessageApplied), "applied_at": utc(t)}).Error
	if err != nil {
		return fmt.Errorf("mark messages applied: %w", err)
	}
	return nil
}
