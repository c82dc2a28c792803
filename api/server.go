// Package api is Koda's HTTP surface (DESIGN.md §3.2), built on Fiber. Handlers see
// only interfaces set by cmd/koda; they never touch the database or the queue directly.
package api

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

// Projects is the lifecycle of projects, renders and batches (internal/lifecycle).
type Projects interface {
	Create(ctx context.Context, n koda.NewProject) (*koda.Project, error)
	Get(ctx context.Context, id string) (*koda.Project, error)
	Answer(ctx context.Context, id string, a koda.Answer) (*koda.Project, error)
	ApprovePlan(ctx context.Context, id string) (*koda.Project, error)
	RejectPlan(ctx context.Context, id, feedback string) (*koda.Project, error)
	ApprovePreview(ctx context.Context, id string, presets []koda.PresetSpec) (*koda.Project, *koda.Batch, error)
	Feedback(ctx context.Context, id, message string) (*koda.Project, error)
	Retry(ctx context.Context, id string) (*koda.Project, error)
	RequestRenders(ctx context.Context, id string, presets []koda.PresetSpec) (*koda.Batch, error)
	GetRender(ctx context.Context, id string) (*koda.Render, error)
	ListRenders(ctx context.Context, projectID string) ([]*koda.Render, error)
	GetBatch(ctx context.Context, id string) (*koda.Batch, []*koda.Render, error)

	Delete(ctx context.Context, id string) error
	List(ctx context.Context, q koda.ProjectQuery) ([]*koda.Project, string, error)
	CreateBatch(ctx context.Context, req koda.BatchRequest) (*koda.Batch, error)
	CancelBatch(ctx context.Context, id string) error
	RetryRender(ctx context.Context, id string) (*koda.Render, error)
	ListDeliveries(ctx context.Context, q koda.DeliveryQuery) ([]*koda.WebhookDelivery, string, error)
	GetDelivery(ctx context.Context, id string) (*koda.WebhookDelivery, []*koda.WebhookAttempt, error)
	Redeliver(ctx context.Context, id string) (*koda.WebhookDelivery, error)
	Usage(ctx context.Context, q koda.UsageQuery) (*koda.Usage, error)

	// Templates (a complete project's scene with named fields) and their batches.
	CreateTemplate(ctx context.Context, projectID, name string) (*koda.Template, error)
	// GetTemplate measures text limits in the presets' frames when presets are given.
	GetTemplate(ctx context.Context, id string, presets []koda.PresetSpec) (*koda.Template, error)
	ListTemplates(ctx context.Context, q koda.TemplateQuery) ([]*koda.Template, string, error)
	PatchTemplate(ctx context.Context, id string, p koda.TemplatePatch) (*koda.Template, error)
	// DeleteTemplate deletes a template; renders and batches made from it stay.
	DeleteTemplate(ctx context.Context, id string) error
	CreateTemplateBatch(ctx context.Context, req koda.TemplateBatchRequest) (*koda.Batch, error)
	// BatchRows lists a batch's template rows (none for a batch of projects).
	BatchRows(ctx context.Context, batchID string) ([]*koda.BatchRow, error)

	// QueueMessage accepts a message sent while the agent works; ListMessages lists them.
	QueueMessage(ctx context.Context, id, text string) (*koda.QueuedMessage, error)
	ListMessages(ctx context.Context, id string) ([]*koda.QueuedMessage, error)
}

// Auth resolves the tenant of an Authorization header; failures are EUNAUTHORIZED.
type Auth interface {
	Authenticate(ctx context.Context, header string) (tenantID string, err error)
}

// KeyAuth is an Auth that also names the stored key a request used, so the key API
// can tell the caller's own key (internal/tenant implements it).
type KeyAuth interface {
	AuthenticateKey(ctx context.Context, header string) (tenantID, keyID string, err error)
}

// Tenants manages tenants, API keys and webhook secrets (internal/tenant).
type Tenants interface {
	// CreateTenant with nil limits gives the tenant the deployment's default limits.
	CreateTenant(ctx context.Context, id, name string, limits *koda.Limits) (*koda.Tenant, error)
	SetLimits(ctx context.Context, id string, limits koda.Limits) (*koda.Tenant, error)
	CreateKey(ctx context.Context, tenantID, name string) (*koda.APIKey, string, error)
	// ListKeys returns a page of a tenant's keys and the next page's cursor.
	ListKeys(ctx context.Context, tenantID string, q koda.KeyQuery) ([]*koda.APIKey, string, error)
	RevokeKey(ctx context.Context, tenantID, id string) (*koda.APIKey, error)
	// RevokeOwnKey is RevokeKey asked by the tenant with its key callerKeyID; it refuses
	// to revoke the caller's key when no other active key would remain.
	RevokeOwnKey(ctx context.Context, tenantID, callerKeyID, id string) (*koda.APIKey, error)
	RotateSecret(ctx context.Context, tenantID string, grace time.Duration, gen func() string) (*koda.Tenant, error)
	CurrentSecret(ctx context.Context, tenantID string) (*koda.Tenant, string, error)
	// DeleteTenant marks a tenant deleted and revokes all its keys at once; again on a
	// deleted tenant it changes nothing. The default tenant is ECONFLICT.
	DeleteTenant(ctx context.Context, id string) (*koda.Tenant, error)
}

// TenantWork ends a deleted tenant's work and removes its files (internal/lifecycle).
// Both may run again on the same tenant and then find nothing more to do.
type TenantWork interface {
	// CancelTenantWork cancels the tenant's queued and running projects, renders and
	// batches; it returns how many projects it cancelled.
	CancelTenantWork(ctx context.Context, tenantID string) (int, error)
	// DeleteTenantFiles deletes the tenant's projects', templates', sandboxes' and
	// assets' files from storage.
	DeleteTenantFiles(ctx context.Context, tenantID string) error
}

// TenantReader lists tenants and keys for the admin API.
type TenantReader interface {
	GetTenant(ctx context.Context, id string) (*koda.Tenant, error)
	ListTenants(ctx context.Context) ([]*koda.Tenant, error)
	ListAPIKeys(ctx context.Context, f koda.APIKeyFilter) ([]*koda.APIKey, error)
}

// Events reads a project's stored events and wakes streams when new ones arrive.
type Events interface {
	ListEvents(ctx context.Context, projectID string, afterSeq int64, limit int) ([]*koda.Event, error)
	Subscribe(projectID string) (<-chan struct{}, func())
}

// Idempotency stores first responses to requests with an Idempotency-Key. A key is
// reserved before its request runs, so of two concurrent requests only one runs.
type Idempotency interface {
	GetIdempotency(ctx context.Context, tenantID, key string) (*koda.IdempotencyRecord, error)
	ReserveIdempotency(ctx context.Context, rec *koda.IdempotencyRecord) (bool, error)
	CompleteIdempotency(ctx context.Context, rec *koda.IdempotencyRecord) error
	ReleaseIdempotency(ctx context.Context, tenantID, key string) error
}

// Files serves local storage through signed URLs.
type Files interface {
	Verify(key string, exp int64, sig string) error
	Path(key string) (string, error)
}

// Server is the HTTP API. Set the fields, then call Handler or Listen.
type Server struct {
	Projects    Projects
	Events      Events
	Idempotency Idempotency
	// Auth authenticates /v1 requests; nil lets every caller in as the default tenant
	// (tests of handlers only: cmd/koda always sets it).
	Auth Auth
	// Tenants and TenantReader serve the admin API at /admin, guarded by AdminKey;
	// an empty AdminKey disables it.
	Tenants      Tenants
	TenantReader TenantReader
	AdminKey     string
	// TenantWork ends the work of a tenant deleted through the admin API and removes
	// its files; nil leaves them (only the keys are revoked).
	TenantWork TenantWork
	// NewSecret makes webhook secrets on rotation.
	NewSecret func() string
	// IdempotencyWait is how long a request waits for a concurrent request with the
	// same Idempotency-Key to finish before answering 409; 0 means 10 seconds.
	IdempotencyWait time.Duration
	Storage         koda.Storage
	Files           Files // nil when storage serves its own URLs
	// Monitoring is Asynqmon, mounted at /monitoring/ behind AdminKey.
	Monitoring http.Handler
	// Metrics serves Prometheus metrics at /metrics.
	Metrics http.Handler
	// Ready holds the readiness checks of /readyz by name (database, redis, storage).
	Ready      map[string]func(context.Context) error
	FileURLTTL time.Duration
	Logger     *slog.Logger
	// EventPoll is how often streams re-read the database for events written by other
	// processes; 0 means one second.
	EventPoll time.Duration
	// StreamHeartbeat is how long an idle event stream waits before it writes a
	// comment; a write is how the server learns its client went away, and frees the
	// stream's place under MaxStreamsPerTenant. 0 means 3 seconds.
	StreamHeartbeat time.Duration
	// StreamRecheck is how often an event stream checks that its API key still
	// authenticates, so a revoked key's streams end; 0 means 2 seconds.
	StreamRecheck time.Duration
	// MaxStreamsPerTenant caps a tenant's open SSE streams on this process (each polls
	// the database); past it GET …/events answers 429. 0 means 20.
	MaxStreamsPerTenant int
	// Sandboxes serves /v1/sandboxes; nil answers 503 (a process without sandboxes).
	Sandboxes Sandboxes
	// Studio holds Koda Studio's files (package studio), served at / and /studio/;
	// nil serves no page.
	Studio fs.FS
	// Live serves the live preview at /live/{token}/; nil answers 503 to POST …/live.
	Live LivePreview
	// Assets serves /v1/assets, the tenant's media library; nil answers 503.
	Assets Assets
	// Brand serves /v1/brand, the tenant's brand kit; nil answers 503.
	Brand Brand

	once sync.Once
	app  *fiber.App
	done chan struct{}

	streamsMu sync.Mutex
	streams   map[string]int // open SSE streams by tenant
}

// App returns the Fiber app, built on first use.
func (s *Server) App() *fiber.App {
	s.once.Do(func() {
		s.done = make(chan struct{})
		s.app = fiber.New(fiber.Config{
			ErrorHandler:          s.errorHandler,
			DisableStartupMessage: true,
			// Bodies are streamed: fasthttp reads at most 8 KiB before a handler runs
			// and hands it the rest as a reader. An asset upload (up to 100 MB) is
			// read from that stream to a temporary file; every other request's body is
			// read into memory by limitBody, at most bodyLimit bytes. Without
			// streaming, fasthttp reads a whole body into memory before routing, so
			// BodyLimit would have to be the largest upload for every route.
			StreamRequestBody: true,
			BodyLimit:         bodyLimit,
			// fasthttp would otherwise parse a multipart body before any handler (and
			// before authentication), writing its files to disk.
			DisablePreParseMultipartForm: true,
			ReadTimeout:                  30 * time.Second,
			IdleTimeout:                  2 * time.Minute,
		})
		s.routes(s.app)
	})
	return s.app
}

// Listen serves on addr until Shutdown.
func (s *Server) Listen(addr string) error { return s.App().Listen(addr) }

// Shutdown ends event streams and stops the server, waiting up to timeout for requests.
func (s *Server) Shutdown(timeout time.Duration) error {
	app := s.App()
	close(s.done)
	return app.ShutdownWithTimeout(timeout)
}

func (s *Server) log() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

// fileURL is the download link of a storage key, by the rule of koda.FileLinks.
func (s *Server) fileURL(key string) (string, error) {
	return koda.FileLinks{Storage: s.Storage, TTL: s.FileURLTTL}.URL(key)
}
