package koda

import (
	"encoding/json"
	"time"
)

// Event types streamed over SSE (DESIGN.md §3.3). Each has one payload struct, named in
// EventPayloads; emitters pass that struct and api/openapi.json describes it (a test
// fails when they drift).
const (
	EventStateChange    = "STATE_CHANGE"    // StateChangeData
	EventTodoUpdate     = "TODO_UPDATE"     // TodoUpdateData
	EventThinking       = "THINKING"        // ThinkingData
	EventMessage        = "MESSAGE"         // MessageData
	EventFileWritten    = "FILE_WRITTEN"    // FileWrittenData
	EventPreviewReady   = "PREVIEW_READY"   // PreviewReadyData
	EventRenderProgress = "RENDER_PROGRESS" // RenderProgressData
	EventError          = "ERROR"           // ErrorData

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

// StateChangeData is the data of STATE_CHANGE. Previous is empty when the phase did
// not move (a retry announcing where the project stands).
type StateChangeData struct {
	Phase    Phase `json:"phase"`
	Previous Phase `json:"previous,omitempty"`
}

// TodoUpdateData is the data of TODO_UPDATE.
type TodoUpdateData struct {
	TodoID string     `json:"todo_id"`
	Status TodoStatus `json:"status"`
}

// ThinkingData is the data of THINKING.
type ThinkingData struct {
	Message string `json:"message"`
}

// MessageData is the data of MESSAGE.
type MessageData struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// FileWrittenData is the data of FILE_WRITTEN.
type FileWrittenData struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// PreviewReadyData is the data of PREVIEW_READY.
type PreviewReadyData struct {
	RenderID     string `json:"render_id"`
	VideoURL     string `json:"video_url"`
	ThumbnailURL string `json:"thumbnail_url"`
}

// RenderProgressData is the data of RENDER_PROGRESS.
type RenderProgressData struct {
	RenderID string `json:"render_id"`
	RenderProgress
}

// ErrorData is the data of ERROR; RenderID is set when a render failed, empty when the
// project did.
type ErrorData struct {
	RenderID string `json:"render_id,omitempty"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

// EventPayloads maps each event type to its payload type, for the OpenAPI drift test
// and anyone decoding Event.Data.
var EventPayloads = map[string]any{
	EventStateChange:    StateChangeData{},
	EventTodoUpdate:     TodoUpdateData{},
	EventThinking:       ThinkingData{},
	EventMessage:        MessageData{},
	EventFileWritten:    FileWrittenData{},
	EventPreviewReady:   PreviewReadyData{},
	EventRenderProgress: RenderProgressData{},
	EventError:          ErrorData{},
	EventMessageQueued:  QueuedMessage{},
	EventMessageApplied: QueuedMessage{},
}

// Webhook event types (DESIGN.md §3.4). The body is {type, timestamp, data}; data is the
// struct named in WebhookPayloads, and api/openapi.json lists each under "webhooks".
const (
	WebhookPhaseChanged    = "project.phase_changed" // PhaseChangedData
	WebhookRenderCompleted = "render.completed"      // RenderView
	WebhookRenderFailed    = "render.failed"         // RenderView
	WebhookBatchCompleted  = "batch.completed"       // BatchCompletedData
)

// PhaseChangedData is the data of project.phase_changed.
type PhaseChangedData struct {
	ProjectID     string `json:"project_id"`
	Phase         Phase  `json:"phase"`
	PreviousPhase Phase  `json:"previous_phase"`
}

// BatchCompletedData is the data of batch.completed. ProjectID is empty for a batch
// over several projects.
type BatchCompletedData struct {
	ProjectID string   `json:"project_id"`
	BatchID   string   `json:"batch_id"`
	RenderIDs []string `json:"render_ids"`
	Succeeded int      `json:"succeeded"`
	Failed    int      `json:"failed"`
	Cancelled bool     `json:"cancelled"`
}

// WebhookPayloads maps each webhook event type to its data type.
var WebhookPayloads = map[string]any{
	WebhookPhaseChanged:    PhaseChangedData{},
	WebhookRenderCompleted: RenderView{},
	WebhookRenderFailed:    RenderView{},
	WebhookBatchCompleted:  BatchCompletedData{},
}

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
