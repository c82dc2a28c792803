package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/kodahq/koda"
)

type deliveryRow struct {
	ID          string     `gorm:"column:id;primaryKey"`
	TenantID    string     `gorm:"column:tenant_id"`
	ProjectID   string     `gorm:"column:project_id"`
	URL         string     `gorm:"column:url"`
	EventType   string     `gorm:"column:event_type"`
	Payload     string     `gorm:"column:payload"`
	Status      string     `gorm:"column:status"`
	Attempts    int        `gorm:"column:attempts"`
	LastError   string     `gorm:"column:last_error"`
	CreatedAt   time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	DeliveredAt *time.Time `gorm:"column:delivered_at"`
}

func (deliveryRow) TableName() string { return "webhook_deliveries" }

func toDeliveryRow(d *koda.WebhookDelivery) (*deliveryRow, error) {
	payload, err := text(d.Payload, "payload")
	if err != nil {
		return nil, fmt.Errorf("webhook delivery %s: %w", d.ID, err)
	}
	return &deliveryRow{
		ID:          d.ID,
		TenantID:    d.TenantID,
		ProjectID:   d.ProjectID,
		URL:         d.URL,
		EventType:   d.EventType,
		Payload:     payload,
		Status:      string(d.Status),
		Attempts:    d.Attempts,
		LastError:   d.LastError,
		CreatedAt:   d.CreatedAt,
		DeliveredAt: d.DeliveredAt,
	}, nil
}

func (r *deliveryRow) toDelivery() *koda.WebhookDelivery {
	return &koda.WebhookDelivery{
		ID:          r.ID,
		TenantID:    r.TenantID,
		ProjectID:   r.ProjectID,
		URL:         r.URL,
		EventType:   r.EventType,
		Payload:     []byte(r.Payload),
		Status:      koda.DeliveryStatus(r.Status),
		Attempts:    r.Attempts,
		LastError:   r.LastError,
		CreatedAt:   r.CreatedAt.UTC(),
		DeliveredAt: utcPtr(r.DeliveredAt),
	}
}

// CreateDelivery inserts d, filling an empty ID and a zero CreatedAt. Payload must be
// UTF-8 text (it is the JSON body sent on every attempt).
func (s *Store) CreateDelivery(ctx context.Context, d *koda.WebhookDelivery) error {
	if d.ID == "" {
		d.ID = koda.NewID(koda.PrefixDelivery)
	}
	if d.CreatedAt.IsZero() {
		d.CreatedAt = now()
	}
	d.CreatedAt = utc(d.CreatedAt)
	d.DeliveredAt = utcPtr(d.DeliveredAt)
	row, err := toDeliveryRow(d)
	if err != nil {
		return err
	}
	return dbError(s.conn(ctx).Create(row).Error, "webhook delivery", d.ID)
}

// GetDelivery returns the delivery or ENOTFOUND.
func (s *Store) GetDelivery(ctx context.Context, id string) (*koda.WebhookDelivery, error) {
	var row deliveryRow
	if err := s.conn(ctx).Where("id = ?", id).Take(&row).Error; err != nil {
		return nil, dbError(err, "webhook delivery", id)
	}
	return row.toDelivery(), nil
}

// UpdateDelivery saves every field of d except ID and CreatedAt. A missing delivery is
// ENOTFOUND.
func (s *Store) UpdateDelivery(ctx context.Context, d *koda.WebhookDelivery) error {
	d.DeliveredAt = utcPtr(d.DeliveredAt)
	row, err := toDeliveryRow(d)
	if err != nil {
		return err
	}
	res := s.conn(ctx).Model(&deliveryRow{}).Where("id = ?", d.ID).
		Select("*").Omit("id", "created_at").Updates(row)
	if res.Error != nil {
		return dbError(res.Error, "webhook delivery", d.ID)
	}
	if res.RowsAffected == 0 {
		return koda.NotFound("webhook delivery", d.ID)
	}
	return nil
}

// ListDeliveries returns the deliveries matching f in ID (creation) order.
func (s *Store) ListDeliveries(ctx context.Context, f koda.DeliveryFilter) ([]*koda.WebhookDelivery, error) {
	q := s.conn(ctx).Model(&deliveryRow{})
	if f.TenantID != "" {
		q = q.Where("tenant_id = ?", f.TenantID)
	}
	if f.ProjectID != "" {
		q = q.Where("project_id = ?", f.ProjectID)
	}
	if f.Status != "" {
		q = q.Where("status = ?", string(f.Status))
	}
	if !f.CreatedBefore.IsZero() {
		q = q.Where("created_at < ?", utc(f.CreatedBefore))
	}
	if f.AfterID != "" {
		q = q.Where("id > ?", f.AfterID)
	}
	if f.Limit > 0 {
		q = q.Limit(f.Limit)
	}
	var rows []deliveryRow
	if err := q.Order("id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list webhook deliveries: %w", err)
	}
	out := make([]*koda.WebhookDelivery, len(rows))
	for i := range rows {
		out[i] = rows[i].toDelivery()
	}
	return out, nil
}

type attemptRow struct {
	DeliveryID string    `gorm:"column:delivery_id;primaryKey"`
	Attempt    int       `gorm:"column:attempt;primaryKey;autoIncrement:false"`
	StatusCode int       `gorm:"column:status_code"`
	Error      string    `gorm:"column:error"`
	DurationMS int64     `gorm:"column:duration_ms"`
	At         time.Time `gorm:"column:at"`
}

func (attemptRow) TableName() string { return "webhook_attempts" }

// AddAttempt records one HTTP attempt of a delivery. Attempt 0 is numbered after the
// last recorded attempt; recording the same number twice is an ECONFLICT error. A
// missing delivery is ENOTFOUND.
func (s *Store) AddAttempt(ctx context.Context, a *koda.WebhookAttempt) error {
	if a.At.IsZero() {
		a.At = now()
	}
	a.At = utc(a.At)
	err := s.conn(ctx).Transaction(func(tx *gorm.DB) error {
		if a.Attempt == 0 {
			var last int
			if err := tx.Model(&attemptRow{}).Where("delivery_id = ?", a.DeliveryID).
				Select("COALESCE(MAX(attempt), 0)").Scan(&last).Error; err != nil {
				return err
			}
			a.Attempt = last + 1
		}
		return tx.Create(&attemptRow{
			DeliveryID: a.DeliveryID,
			Attempt:    a.Attempt,
			StatusCode: a.StatusCode,
			Error:      a.Error,
			DurationMS: a.DurationMS,
			At:         a.At,
		}).Error
	})
	if errors.Is(err, gorm.ErrForeignKeyViolated) {
		return koda.NotFound("webhook delivery", a.DeliveryID)
	}
	return dbError(err, "webhook attempt", a.DeliveryID+"#"+strconv.Itoa(a.Attempt))
}

// ListAttempts returns a delivery's attempts in order.
func (s *Store) ListAttempts(ctx context.Context, deliveryID string) ([]*koda.WebhookAttempt, error) {
	var rows []attemptRow
	if err := s.conn(ctx).Where("delivery_id = ?", deliveryID).Order("attempt").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("webhook delivery %s list attempts: %w", deliveryID, err)
	}
	out := make([]*koda.WebhookAttempt, len(rows))
	for i, r := range rows {
		out[i] = &koda.WebhookAttempt{
			DeliveryID: r.DeliveryID,
			Attempt:    r.Attempt,
			StatusCode: r.StatusCode,
			Error:      r.Error,
			DurationMS: r.DurationMS,
			At:         r.At.UTC(),
		}
	}
	return out, nil
}

type idempotencyRow struct {
	TenantID    string    `gorm:"column:tenant_id;primaryKey"`
	Key         string    `gorm:"column:key;primaryKey"`
	RequestHash string    `gorm:"column:request_hash"`
	StatusCode  int       `gorm:"column:status_code"`
	Body        string    `gorm:"column:body"`
	Location    string    `gorm:"column:location"`
	CreatedAt   time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (idempotencyRow) TableName() string { return "idempotency_keys" }

// GetIdempotency returns the stored response for a tenant's key, or ENOTFOUND.
func (s *Store) GetIdempotency(ctx context.Context, tenantID, key string) (*koda.IdempotencyRecord, error) {
	var row idempotencyRow
	if err := s.conn(ctx).Where(map[string]any{"tenant_id": tenantID, "key": key}).Take(&row).Error; err != nil {
		return nil, dbError(err, "idempotency key", key)
	}
	return &koda.IdempotencyRecord{
		TenantID:    row.TenantID,
		Key:         row.Key,
		RequestHash: row.RequestHash,
		StatusCode:  row.StatusCode,
		Body:        []byte(row.Body),
		Location:    row.Location,
		CreatedAt:   row.CreatedAt.UTC(),
	}, nil
}

// SaveIdempotency stores the first response for a tenant's key. When a record for the
// key exists already (a concurrent duplicate request won the race) it is kept as is, and
// the caller reads it back with GetIdempotency if it needs to know.
func (s *Store) SaveIdempotency(ctx context.Context, rec *koda.IdempotencyRecord) error {
	if rec.CreatedAt.IsZero() {
		rec.CreatedAt = now()
	}
	rec.CreatedAt = utc(rec.CreatedAt)
	body, err := text(rec.Body, "idempotency body")
	if err != nil {
		return fmt.Errorf("idempotency key %s: %w", rec.Key, err)
	}
	err = s.conn(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&idempotencyRow{
		TenantID:    rec.TenantID,
		Key:         rec.Key,
		RequestHash: rec.RequestHash,
		StatusCode:  rec.StatusCode,
		Body:        body,
		Location:    rec.Location,
		CreatedAt:   rec.CreatedAt,
	}).Error
	return dbError(err, "idempotency key", rec.Key)
}
