package koda

import (
	"encoding/json"
	"time"
)

// Event types streamed over SSE (DESIGN.md §3.3).
const (
	EventStateChange    = "STATE_CHANGE"    // {phase}
	EventTodoUpdate     = "TODO_UPDATE"     // {todo_id, status}
	EventThinking       = "THINKING"        // {message}
	EventMessage        = "MESSAGE"         // {role, content}
	EventFileWritten    = "FILE_WRITTEN"    // {path, size}
	EventPreviewReady   = "PREVIEW_READY"   // {video_url, thumbnail_url}
	EventRenderProgress = "RENDER_PROGRESS" // {render_id, stage, percent}
	EventError          = "ERROR"           // {code, message}

	// A message sent while the agent works was queued, or applied at the end of a step;
	// data is the QueuedMessage. Named as the Studio contract asks (issue 15).
	EventMessageQueued  = "message.queued"
	EventMessageApplied = "message.applied"
)

// Event is one persisted project event. Seq increases by one per project, so a client
// that reconnects with the last Seq it saw misses nothing and sees nothing twice.
type Event struct {
	ProjectID string          `json:"project_id"`
	Seq       int64           `json:"id"`
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	CreatedAt time.Time       `json:"created_at"`
}

// Webhook event types (DESIGN.md §3.4).
const (
	WebhookPhaseChanged    = "project.phase_changed"
	WebhookRenderCompleted = "render.completed"
	WebhookRenderFailed    = "render.failed"
	WebhookBatchCompleted  = "batch.completed"
)

// DeliveryStatus is the state of one webhook delivery.
type DeliveryStatus string

const (
	DeliveryPending   DeliveryStatus = "pending"
	DeliveryDelivered DeliveryStatus = "delivered"
	DeliveryFailed    DeliveryStatus = "failed" // retries exhausted or endpoint gone
)

// WebhookDelivery is one event to POST to a callback URL. Payload is the exact body
// sent on every attempt, and ID is the webhook-id header, the same on every retry.
type WebhookDelivery struct {
	ID          string
	TenantID    string
	ProjectID   string
	URL         string
	EventType   string
	Payload     []byte
	Status      DeliveryStatus
	Attempts    int
	LastError   string
	CreatedAt   time.Time
	DeliveredAt *time.Time
}

// WebhookAttempt records one HTTP attempt of a delivery.
type WebhookAttempt struct {
	DeliveryID string
	Attempt    int
	StatusCode int // 0 when no response arrived
	Error      string
	DurationMS int64
	At         time.Time
}
