package koda

import "time"

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
