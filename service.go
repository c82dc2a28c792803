package koda

import (
	"context"
	"io"
	"time"
)

// Store persists projects, renders, batches, events and webhook deliveries.
// It is the source of truth; the queue only transports IDs.
// Lookups of missing rows return an ENOTFOUND *Error.
type Store interface {
	// InTx runs fn with a Store bound to one transaction; fn's error rolls it back.
	// Inside InTx, GetProject locks the row against concurrent transitions.
	InTx(ctx context.Context, fn func(tx Store) error) error
	Ping(ctx context.Context) error

	CreateProject(ctx context.Context, p *Project) error
	GetProject(ctx context.Context, id string) (*Project, error)
	UpdateProject(ctx context.Context, p *Project) error // saves every field; sets UpdatedAt
	ListProjects(ctx context.Context, f ProjectFilter) ([]*Project, error)
	DeleteProject(ctx context.Context, id string) error

	CreateRender(ctx context.Context, r *Render) error
	GetRender(ctx context.Context, id string) (*Render, error)
	UpdateRender(ctx context.Context, r *Render) error
	ListRenders(ctx context.Context, f RenderFilter) ([]*Render, error)

	CreateBatch(ctx context.Context, b *Batch) error
	GetBatch(ctx context.Context, id string) (*Batch, error)
	// CompleteBatch marks the batch completed at t and reports true only for the call
	// that did it, so batch.completed is sent once.
	CompleteBatch(ctx context.Context, id string, t time.Time) (bool, error)

	// AppendEvent stores an event with the project's next sequence number.
	AppendEvent(ctx context.Context, projectID, typ string, data any) (*Event, error)
	// ListEvents returns events with Seq > afterSeq, oldest first, at most limit.
	ListEvents(ctx context.Context, projectID string, afterSeq int64, limit int) ([]*Event, error)

	CreateDelivery(ctx context.Context, d *WebhookDelivery) error
	GetDelivery(ctx context.Context, id string) (*WebhookDelivery, error)
	UpdateDelivery(ctx context.Context, d *WebhookDelivery) error
	ListDeliveries(ctx context.Context, f DeliveryFilter) ([]*WebhookDelivery, error)
	AddAttempt(ctx context.Context, a *WebhookAttempt) error
	ListAttempts(ctx context.Context, deliveryID string) ([]*WebhookAttempt, error)

	// GetIdempotency returns the stored response for a tenant's Idempotency-Key, or ENOTFOUND.
	GetIdempotency(ctx context.Context, tenantID, key string) (*IdempotencyRecord, error)
	SaveIdempotency(ctx context.Context, rec *IdempotencyRecord) error
	// PurgeIdempotency deletes the records created before before; it returns how many.
	PurgeIdempotency(ctx context.Context, before time.Time) (int64, error)
}

// ProjectFilter selects projects; zero fields do not filter.
type ProjectFilter struct {
	TenantID      string
	Phase         Phase
	Pending       bool      // only projects waiting for a task (Pending != "")
	UpdatedBefore time.Time // only projects not touched since
	AfterID       string    // cursor: IDs sort by creation time
	Limit         int
	CreatedAfter  time.Time // only projects created after this time
}

// RenderFilter selects renders; zero fields do not filter.
type RenderFilter struct {
	ProjectID     string
	BatchID       string
	OutputOf      string // renders that take this render's outcome
	CaptureOf     string // renders whose frames this render's job captures
	Statuses      []RenderStatus
	CreatedBefore time.Time
	Limit         int
}

// DeliveryFilter selects webhook deliveries; zero fields do not filter.
type DeliveryFilter struct {
	TenantID      string
	ProjectID     string
	Status        DeliveryStatus
	CreatedBefore time.Time
	Limit         int
	AfterID       string // cursor: IDs sort by creation time
}

// IdempotencyWindow is how long an Idempotency-Key is remembered: a retry within it
// replays the first response; the maintenance job purges older records, so stored
// responses do not accumulate.
const IdempotencyWindow = 24 * time.Hour

// IdempotencyRecord is the first response to a request with an Idempotency-Key.
type IdempotencyRecord struct {
	TenantID    string
	Key         string
	RequestHash string
	StatusCode  int
	Body        []byte
	Location    string
	CreatedAt   time.Time
}

// Storage keeps files permanently: checkpoints, videos, thumbnails.
// Keys are slash-separated relative paths ("projects/prj_x/renders/rnd_y.mp4").
type Storage interface {
	Put(ctx context.Context, key string, r io.Reader) (int64, error)
	// Open returns ENOTFOUND when the key does not exist.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
	DeletePrefix(ctx context.Context, prefix string) error
	// List calls fn for every file whose key starts with prefix (non-empty, as for
	// DeletePrefix), in no particular order; an error from fn stops it and is returned.
	// The orphan clean-up finds what to delete with it.
	List(ctx context.Context, prefix string, fn func(StoredFile) error) error
	// URL returns a URL a client can download the file from until ttl passes. It fails
	// for a key the backend cannot hold (INVALID_KEY) and when no link can be signed
	// (object storage without credentials): callers must not hand out an empty link.
	URL(key string, ttl time.Duration) (string, error)
	Ping(ctx context.Context) error
}

// DefaultFileURLTTL is how long a download link lives when no lifetime is configured.
const DefaultFileURLTTL = 24 * time.Hour

// FileLinks is the one rule for the download links the API, events and webhooks hand
// out: no key (a render without a thumbnail) gives no link, a lifetime of zero means
// DefaultFileURLTTL, and a link the storage cannot make is an error, never "".
type FileLinks struct {
	Storage Storage // nil gives no links (processes that serve no files)
	TTL     time.Duration
}

// URL is the download link of key.
func (l FileLinks) URL(key string) (string, error) {
	if key == "" || l.Storage == nil {
		return "", nil
	}
	ttl := l.TTL
	if ttl <= 0 {
		ttl = DefaultFileURLTTL
	}
	return l.Storage.URL(key, ttl)
}

// StoredFile is one file found by Storage.List.
type StoredFile struct {
	Key     string
	Size    int64
	ModTime time.Time
}

// JobArgs is a typed task payload; its kind names the task type on the queue.
// Implementations live in package jobs, the contract between API and workers.
type JobArgs interface {
	Kind() string
}

// Queue enqueues work for the worker pools. Enqueueing the same logical job twice is a
// no-op (idempotent task IDs).
type Queue interface {
	Enqueue(ctx context.Context, args JobArgs) error
}

// RenderRequest asks the renderer for one video.
type RenderRequest struct {
	// Dir is the folder holding the page; Entry is the page inside it (default index.html).
	// URL, when set, is rendered instead of Dir/Entry.
	Dir   string
	Entry string
	URL   string

	Preset    PresetSpec
	DurationS float64
	// FrameStart and FrameEnd (exclusive) select a range of frames; both zero means all.
	FrameStart, FrameEnd int

	VideoPath     string // output video file
	ThumbnailPath string // output JPEG at the midpoint; empty for none
	// AudioPath, when set, is the soundtrack: looped or cut to the video's length, faded
	// in and out, and normalised to the loudness of Preset (of each of Outputs, when
	// set). Without it the video has no audio stream.
	AudioPath string
	// Outputs, when set, are the videos made in one pass from the frames captured at
	// Preset (see CaptureGroups): each scaled to its size and taking every
	// (Preset.FPS/its FPS)-th frame. VideoPath and ThumbnailPath are then unused, and the
	// frame range counts captured frames.
	Outputs []VideoOutput
}

// VideoOutput is one video made from a render's captured frames; its Preset must
// DerivesFrom the render's.
type VideoOutput struct {
	Preset        PresetSpec
	VideoPath     string
	ThumbnailPath string // empty for none
}

// OutputResult describes one finished VideoOutput.
type OutputResult struct {
	Frames    int
	SizeBytes int64
}

// RenderResult describes a finished render.
type RenderResult struct {
	Frames      int
	SizeBytes   int64
	CaptureTime time.Duration
	TotalTime   time.Duration
	// Outputs has one entry per RenderRequest.Outputs, in order; Frames and SizeBytes
	// above are then the captured frames and the outputs' total size.
	Outputs []OutputResult
}

// Renderer turns a web page into a video. Failures are *Error with code RENDER_FAILED or
// TIMEOUT; no browser or encoder process outlives the call.
type Renderer interface {
	Render(ctx context.Context, req RenderRequest, progress func(RenderProgress)) (*RenderResult, error)
}

// Reporter receives the visible steps of the agent's work; each becomes an event.
type Reporter interface {
	TodoUpdate(ctx context.Context, todoID string, status TodoStatus)
	Thinking(ctx context.Context, message string)
	Message(ctx context.Context, role, content string)
	FileWritten(ctx context.Context, path string, size int64)
}

// Analysis is the agent's reading of a prompt.
type Analysis struct {
	Style     Style     // explicit or inferred style; "" when none could be inferred
	Explicit  bool      // the prompt names the style or a reference, or is highly specific
	Question  *Question // non-nil when the agent wants to ask before planning
	DurationS float64   // requested or default duration
	Subjects  []string
	Colors    []string
	Texts     []string // quoted text to show
	Aspect    string   // "landscape", "portrait", "square" or ""
}

// Agent plans animations and writes their code into a sandbox.
type Agent interface {
	// Analyze reads the prompt and decides whether one style question is needed.
	Analyze(ctx context.Context, p *Project) (*Analysis, error)
	// Plan makes the plan; with feedback it revises p.Plan to reflect it.
	Plan(ctx context.Context, p *Project, feedback string) (*Plan, error)
	// Generate writes a complete renderable project (index.html honouring the export
	// protocol) into sb, todo by todo.
	Generate(ctx context.Context, p *Project, sb Sandbox, r Reporter) error
	// Revise applies feedback to the files in sb, changing only what it concerns, and
	// returns a message for the user saying what changed.
	Revise(ctx context.Context, p *Project, feedback string, sb Sandbox, r Reporter) (string, error)
}
