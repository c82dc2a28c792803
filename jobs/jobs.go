// Package jobs is the contract between the API and the workers: task kinds, the queue
// each runs on, their payloads (IDs only), their timeouts and retry counts, and the
// asynq-backed koda.Queue that enqueues them with idempotent task IDs.
//
// Kinds are stored in Redis and must outlive renames: never change a Kind string.
package jobs

import (
	"fmt"
	"time"

	"github.com/kodahq/koda/internal/webhook"
)

// Task kinds. Never rename: they are stored in Redis.
const (
	KindPlan    = "plan"
	KindCodegen = "codegen"
	KindPreview = "preview"
	KindRender  = "render"
	// KindRenderChunk renders one frame range of a split final render; KindStitch joins
	// the chunks once the last one finished. Both run on the render queue.
	KindRenderChunk = "render_chunk"
	KindStitch      = "stitch"
	KindWebhook     = "webhook"
	KindReconcile   = "maintenance:reconcile"
)

// Queues, one per kind of work; pools subscribe to them.
const (
	QueuePlan        = "plan"
	QueueCodegen     = "codegen"
	QueuePreview     = "preview"
	QueueRender      = "render"
	QueueWebhooks    = "webhooks"
	QueueMaintenance = "maintenance"
)

// Queues lists every queue Koda owns, so monitoring shows each from the start.
var Queues = []string{QueuePlan, QueueCodegen, QueuePreview, QueueRender, QueueWebhooks, QueueMaintenance}

// Spec is how one task kind is enqueued.
type Spec struct {
	Queue    string
	Timeout  time.Duration
	MaxRetry int
	// Retention keeps a completed task visible in Asynqmon, and keeps its task ID taken
	// so a late duplicate enqueue is refused.
	Retention time.Duration
	// Unique keeps a second copy out while one is queued, for tasks without a TaskID.
	Unique time.Duration
}

// Specs holds the enqueue options of every kind in one table.
var Specs = map[string]Spec{
	KindPlan:        {Queue: QueuePlan, Timeout: 2 * time.Minute, MaxRetry: 3, Retention: time.Hour},
	KindCodegen:     {Queue: QueueCodegen, Timeout: 10 * time.Minute, MaxRetry: 3, Retention: time.Hour},
	KindPreview:     {Queue: QueuePreview, Timeout: 10 * time.Minute, MaxRetry: 3, Retention: time.Hour},
	KindRender:      {Queue: QueueRender, Timeout: time.Hour, MaxRetry: 3, Retention: time.Hour},
	KindRenderChunk: {Queue: QueueRender, Timeout: 30 * time.Minute, MaxRetry: 3, Retention: time.Hour},
	KindStitch:      {Queue: QueueRender, Timeout: 10 * time.Minute, MaxRetry: 3, Retention: time.Hour},
	// A delivery's retries are decided by its webhook.Schedule, which fails it with
	// SkipRetry; MaxRetry is only the ceiling that no configured schedule reaches.
	KindWebhook:   {Queue: QueueWebhooks, Timeout: 30 * time.Second, MaxRetry: webhook.MaxAttempts - 1, Retention: time.Hour},
	KindReconcile: {Queue: QueueMaintenance, Timeout: time.Minute, MaxRetry: 0, Unique: 50 * time.Second},
	// Periodic maintenance: Unique keeps a second copy out should two schedulers ever
	// overlap during a leadership change.
	KindCleanPreviews: {Queue: QueueMaintenance, Timeout: 10 * time.Minute, MaxRetry: 1, Unique: 30 * time.Minute},
	KindDailyCleanup:  {Queue: QueueMaintenance, Timeout: 30 * time.Minute, MaxRetry: 2, Unique: 12 * time.Hour},
	KindIdempotency:   {Queue: QueueMaintenance, Timeout: 10 * time.Minute, MaxRetry: 2, Unique: 30 * time.Minute},
	KindUsage:         {Queue: QueueMaintenance, Timeout: 10 * time.Minute, MaxRetry: 2, Unique: 9 * time.Minute},
}

// Args is a task payload: a kind, and the ID that makes enqueueing it idempotent.
type Args interface {
	Kind() string
	TaskID() string
}

// PlanArgs asks the agent to analyse the prompt and plan (or revise the plan).
type PlanArgs struct {
	ProjectID string `json:"project_id"`
	Step      int    `json:"step"`
}

func (PlanArgs) Kind() string     { return KindPlan }
func (a PlanArgs) TaskID() string { return fmt.Sprintf("plan:%s:%d", a.ProjectID, a.Step) }

// CodegenArgs asks the agent to write (or revise) the project's code in its sandbox.
type CodegenArgs struct {
	ProjectID string `json:"project_id"`
	Step      int    `json:"step"`
}

func (CodegenArgs) Kind() string     { return KindCodegen }
func (a CodegenArgs) TaskID() string { return fmt.Sprintf("codegen:%s:%d", a.ProjectID, a.Step) }

// PreviewArgs asks for the preview render of the project's current files; the render
// row exists before the task so its progress is visible from the start.
type PreviewArgs struct {
	ProjectID string `json:"project_id"`
	Step      int    `json:"step"`
	RenderID  string `json:"render_id"`
}

func (PreviewArgs) Kind() string     { return KindPreview }
func (a PreviewArgs) TaskID() string { return fmt.Sprintf("preview:%s:%d", a.ProjectID, a.Step) }

// RenderArgs asks for one final render. Attempt rises when a user retries a failed render.
type RenderArgs struct {
	RenderID string `json:"render_id"`
	Attempt  int    `json:"attempt"`
}

func (RenderArgs) Kind() string     { return KindRender }
func (a RenderArgs) TaskID() string { return fmt.Sprintf("render:%s:%d", a.RenderID, a.Attempt) }

// RenderChunkArgs asks for frames [Start, End) of a final render split into Count
// chunks; Attempt is the render's attempt that split it, so chunks of an abandoned
// attempt are recognised and dropped.
type RenderChunkArgs struct {
	RenderID string `json:"render_id"`
	Attempt  int    `json:"attempt"`
	Index    int    `json:"index"`
	Count    int    `json:"count"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
}

func (RenderChunkArgs) Kind() string { return KindRenderChunk }
func (a RenderChunkArgs) TaskID() string {
	return fmt.Sprintf("render_chunk:%s:%d:%d", a.RenderID, a.Attempt, a.Index)
}

// StitchArgs asks to join the Count chunks of a split render and finish it.
type StitchArgs struct {
	RenderID string `json:"render_id"`
	Attempt  int    `json:"attempt"`
	Count    int    `json:"count"`
}

func (StitchArgs) Kind() string     { return KindStitch }
func (a StitchArgs) TaskID() string { return fmt.Sprintf("stitch:%s:%d", a.RenderID, a.Attempt) }

// WebhookArgs asks for the delivery of one stored webhook event.
type WebhookArgs struct {
	DeliveryID string `json:"delivery_id"`
}

func (WebhookArgs) Kind() string     { return KindWebhook }
func (a WebhookArgs) TaskID() string { return "webhook:" + a.DeliveryID }

// ReconcileArgs asks the maintenance pool to re-enqueue work whose task was lost.
type ReconcileArgs struct{}

func (ReconcileArgs) Kind() string { return KindReconcile }

// TaskID is empty: the periodic scheduler enqueues one task value again and again, so
// duplicates are kept out by Spec.Unique instead.
func (ReconcileArgs) TaskID() string { return "" }
