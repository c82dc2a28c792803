package koda

import (
	"context"
	"fmt"
	"time"
)

// RenderKind tells a preview from a final render.
type RenderKind string

const (
	RenderPreview RenderKind = "preview"
	RenderFinal   RenderKind = "final"
)

// RenderStatus is the state of one render.
type RenderStatus string

const (
	RenderQueued    RenderStatus = "queued"
	RenderRunning   RenderStatus = "running"
	RenderSucceeded RenderStatus = "succeeded"
	RenderFailed    RenderStatus = "failed"
)

// Done reports whether the render has finished, well or badly.
func (s RenderStatus) Done() bool { return s == RenderSucceeded || s == RenderFailed }

// Render stages, in order; progress never moves backwards across them.
const (
	StageQueued    = "queued"
	StagePreparing = "preparing"
	StageCapturing = "capturing"
	StageEncoding  = "encoding"
	StageUploading = "uploading"
	StageDone      = "done"
)

// RenderProgress is what a running render reports.
type RenderProgress struct {
	Stage       string  `json:"stage"`
	Percent     float64 `json:"percent"`
	FramesDone  int     `json:"frames_done"`
	FramesTotal int     `json:"frames_total"`
}

// Render is one video of a project for one preset.
type Render struct {
	ID        string
	TenantID  string
	ProjectID string
	BatchID   string // empty for previews
	Kind      RenderKind
	Preset    PresetSpec
	DurationS float64
	Status    RenderStatus
	Progress  RenderProgress
	VideoKey  string
	ThumbKey  string
	SizeBytes int64
	Attempts  int
	Error     *Failure
	// OutputOf names the render whose job makes this render's video: renders of one
	// batch with the same output (PresetSpec.SameOutput) are rendered once and stored
	// once, and the others take its outcome, file and all. Empty for a render that runs
	// its own job.
	OutputOf string
	// CaptureOf names the render whose job captures this render's frames: renders of one
	// batch in one group of CaptureGroups (the same aspect, a rate that divides the
	// capture's) are captured once, at the largest size and highest rate among them, and
	// that job encodes each one's own video from the frames, stored under its own key.
	// Empty for a render whose job captures its own frames.
	CaptureOf string

	CreatedAt  time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
}

// Batch groups renders requested together; batch.completed fires once when all are done.
type Batch struct {
	ID          string
	TenantID    string
	ProjectID   string
	RenderIDs   []string
	CreatedAt   time.Time
	CompletedAt *time.Time
	// CancelledAt is set when the batch was cancelled; its unfinished renders fail.
	CancelledAt *time.Time
	// CallbackURL receives batch.completed for a batch over several projects
	// (ProjectID empty); a one-project batch uses the project's.
	CallbackURL string
}

// RenderView is the one JSON shape of a render: API responses, the render.completed and
// render.failed webhooks, and the OpenAPI Render schema (a test holds them equal).
type RenderView struct {
	ID         string         `json:"id"`
	ProjectID  string         `json:"project_id"`
	BatchID    string         `json:"batch_id,omitempty"`
	Kind       RenderKind     `json:"kind"`
	Preset     PresetSpec     `json:"preset"`
	DurationS  float64        `json:"duration_s"`
	Status     RenderStatus   `json:"status"`
	Progress   RenderProgress `json:"progress"`
	VideoURL   string         `json:"video_url,omitempty"`
	ThumbURL   string         `json:"thumbnail_url,omitempty"`
	SizeBytes  int64          `json:"size_bytes,omitempty"`
	Attempts   int            `json:"attempts"`
	Error      *Failure       `json:"error"`
	CreatedAt  time.Time      `json:"created_at"`
	StartedAt  *time.Time     `json:"started_at"`
	FinishedAt *time.Time     `json:"finished_at"`
	RenderMS   int64          `json:"render_ms,omitempty"`
}

// ViewRender shapes r for the wire; url turns a storage key into a download URL. Only a
// succeeded render links its files: a failed one may have left partial output behind.
// A link that cannot be made fails the view rather than going out empty.
func ViewRender(r *Render, url func(key string) (string, error)) (RenderView, error) {
	v := RenderView{
		ID: r.ID, ProjectID: r.ProjectID, BatchID: r.BatchID, Kind: r.Kind, Preset: r.Preset,
		DurationS: r.DurationS, Status: r.Status, Progress: r.Progress, SizeBytes: r.SizeBytes,
		Attempts: r.Attempts, Error: r.Error, CreatedAt: r.CreatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt,
	}
	if r.StartedAt != nil && r.FinishedAt != nil {
		v.RenderMS = r.FinishedAt.Sub(*r.StartedAt).Milliseconds()
	}
	if r.Status == RenderSucceeded && url != nil {
		var err error
		if v.VideoURL, err = url(r.VideoKey); err != nil {
			return RenderView{}, fmt.Errorf("render %s video link: %w", r.ID, err)
		}
		if v.ThumbURL, err = url(r.ThumbKey); err != nil {
			return RenderView{}, fmt.Errorf("render %s thumbnail link: %w", r.ID, err)
		}
	}
	return v, nil
}

// ChunkTally counts the work of a render split into frame-range chunks, shared by the
// workers of every process that render them. A chunk that runs twice (a lost lease, a
// retry after its upload) must count once, so chunks are named by index.
type ChunkTally interface {
	// ChunkFrames records that chunk index of the attempt has rendered frames, and
	// returns the frames rendered over all its chunks.
	ChunkFrames(ctx context.Context, renderID string, attempt, index, frames int) (int, error)
	// ChunkDone marks chunk index finished and returns how many distinct chunks are.
	ChunkDone(ctx context.Context, renderID string, attempt, index int) (int, error)
	// ChunksDone returns the indexes of the finished chunks.
	ChunksDone(ctx context.Context, renderID string, attempt int) ([]int, error)
	// ForgetChunks drops the attempt's counts once the render is joined.
	ForgetChunks(ctx context.Context, renderID string, attempt int) error
}
