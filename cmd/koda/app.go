package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/hibiken/asynq"
	"github.com/hibiken/asynqmon"
	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/stills"
	"github.com/kodahq/koda/agent/templates"
	"github.com/kodahq/koda/api"
	"github.com/kodahq/koda/internal/assets"
	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/internal/embedredis"
	"github.com/kodahq/koda/internal/events"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/internal/live"
	"github.com/kodahq/koda/internal/rediskey"
	"github.com/kodahq/koda/internal/secretbox"
	"github.com/kodahq/koda/internal/semaphore"
	"github.com/kodahq/koda/internal/ssrf"
	"github.com/kodahq/koda/internal/store"
	"github.com/kodahq/koda/internal/tasks"
	"github.com/kodahq/koda/internal/tenant"
	"github.com/kodahq/koda/internal/webhook"
	"github.com/kodahq/koda/jobs"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox"
	"github.com/kodahq/koda/sandbox/local"
	"github.com/kodahq/koda/studio"
	"github.com/kodahq/koda/workers"
)

// Main is one koda process: the API, worker pools, or both, wired from a Config.
// It is the only place that constructs the database, Redis, asynq and Fiber.
type Main struct {
	Config *config.Config
	Logger *slog.Logger
	// API serves HTTP when set; Pools run worker pools (empty: none).
	API   bool
	Pools []string
	// Agent replaces the builtin agent when set (tests).
	Agent koda.Agent
	// ReconcileEvery and ReconcileGrace tune the reconciler (tests shorten them).
	ReconcileEvery time.Duration
	ReconcileGrace time.Duration
	// GenerateKey makes (once, kept in the data dir) a local API key for the default
	// tenant when KODA_API_KEY is unset: koda serve and koda demo on embedded defaults.
	GenerateKey bool
	// EventPoll and WebhookTimeout override the API's database poll of event streams
	// and one webhook attempt's time limit (tests shorten or lengthen them).
	EventPoll      time.Duration
	WebhookTimeout time.Duration
	// ChunkFrames splits final renders of at least twice this many frames into chunk
	// tasks, overriding KODA_CHUNK_FRAMES (0: the configured value; tests lower it).
	ChunkFrames int
	// AssetFetch is the HTTP client asset URLs are fetched with (POST /v1/assets
	// {"url"}, a batch row's image or soundtrack URL); nil is the SSRF guard's, which
	// reaches public addresses only. Tests give one that reaches their loopback server.
	AssetFetch *http.Client

	// Set by Open.
	Addr      string // the address the API listens on
	PublicURL string
	APIKey    string // the key accepted for the default tenant, if any
	AdminKey  string // the key guarding /admin and /monitoring: KODA_ADMIN_KEY, or kept in the data dir

	embedded  *embedredis.Server
	rdb       redis.UniversalClient
	store     *store.Store
	storage   koda.Storage
	client    *asynq.Client
	lifecycle *lifecycle.Service
	server    *api.Server
	runner    *workers.Runner
	renderer  *renderer.Renderer
	stills    *stills.Warm // the critic's browser, kept warm between checks
	sandboxes *local.Provider
	pool      *sandbox.Pool
	// leases count each tenant's live sandboxes across the cluster; this process
	// renews those of its own sandboxes.
	leases *semaphore.SandboxLeases
	// stopReaper ends the pool's idle-reaping loop and the renewal of its leases.
	stopReaper func()
	listener   net.Listener
	serveErr   chan error
	ops        ops
	tenants    *tenant.Service
	guard      *ssrf.Guard
	assets     *assets.Service
	relay      *events.Relay
	live       *live.Preview
	stopRelay  context.CancelFunc
}

// Open builds and starts everything the process runs.
func (m *Main) Open(ctx context.Context) (err error) {
	defer func() {
		if err != nil {
			m.Close()
		}
	}()
	c := m.Config
	log := m.Logger
	if err := c.EnsureSecrets(webhook.GenerateSecret); err != nil {
		return err
	}
	box, err := secretbox.New(c.SecretKey)
	if err != nil {
		return fmt.Errorf("KODA_SECRET_KEY: %w", err)
	}
	if m.store, err = store.Open(ctx, c.DatabaseURLOrDefault(), log, store.SealSecrets(box)); err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	redisURL := c.RedisURL
	if redisURL == "" {
		if m.embedded, err = embedredis.Start("127.0.0.1:0"); err != nil {
			return err
		}
		redisURL = m.embedded.URL()
		log.Info("using the in-process Redis; set KODA_REDIS_URL to share queues between processes")
	}
	ropts, err := redis.ParseURL(redisURL)
	if err != nil {
		return fmt.Errorf("KODA_REDIS_URL: %w", err)
	}
	m.rdb = redis.NewClient(ropts)
	if err := m.rdb.Ping(ctx).Err(); err != nil {
		log.Warn("redis is not answering yet; tasks are enqueued once it is back", "err", err)
	}

	// The listener comes first: file URLs embed the address when KODA_PUBLIC_URL is unset.
	if m.API {
		if m.listener, err = net.Listen("tcp", c.Addr); err != nil {
			return fmt.Errorf("listen on %s: %w", c.Addr, err)
		}
		m.Addr = m.listener.Addr().String()
	}
	m.PublicURL = c.PublicURL
	if m.PublicURL == "" {
		m.PublicURL = "http://" + reachable(m.Addr, c.Addr)
	}
	if m.storage, err = openStorage(ctx, c, m.PublicURL, log); err != nil {
		return err
	}
	m.client = asynq.NewClientFromRedisClient(m.rdb)
	m.openOps()
	broker := events.NewBroker()
	// Wake-ups travel through Redis so streams on every API process see events
	// committed by any process.
	m.relay = events.NewRelay(m.rdb, broker, log)
	if err := m.openTenancy(); err != nil {
		return err
	}
	m.leases = semaphore.NewSandboxLeases(semaphore.New(m.rdb, ""), 0)
	m.leases.Logger = log
	if m.assets, err = m.openAssets(); err != nil {
		return err
	}
	m.lifecycle = &lifecycle.Service{
		Store: m.store, Queue: jobs.NewClient(m.client), Storage: m.storage,
		Notify: m.relay.Publish, FileURLTTL: c.FileURLTTL, Logger: log,
		Tasks: tasks.New(asynq.NewInspectorFromRedisClient(m.rdb)), Callbacks: m.guard,
		Chunks: rediskey.Chunks{Client: m.rdb}, SandboxLeases: m.leases,
		// Templates read and write checkpoints no larger than a sandbox could hold.
		Templates: &templates.Engine{Storage: m.storage, Budget: sandbox.Budget{Bytes: int64(c.Sandbox.DiskMiB) << 20},
			WorkDir: filepath.Join(c.DataDir, "work")},
		DefaultLimits: c.TenantLimits, NoSharedStretch: c.NoSharedStretch,
		Assets: m.store, Brands: m.store, AssetFetch: m.assets,
	}

	if len(m.Pools) > 0 {
		if err := m.startWorkers(ctx, redisURL); err != nil {
			return err
		}
	}
	if m.API {
		if err := m.startAPI(redisURL, broker); err != nil {
			return err
		}
	}
	return nil
}

func (m *Main) startWorkers(ctx context.Context, redisURL string) error {
	c := m.Config
	schedConn, err := asynq.ParseRedisURI(redisURL)
	if err != nil {
		return fmt.Errorf("scheduler redis: %w", err)
	}
	sender, err := webhook.NewSender(c.WebhookSecret, m.guard.Client(), m.Logger)
	if err != nil {
		return fmt.Errorf("webhook sender: %w", err)
	}
	sender.Secrets = m.tenants
	if m.WebhookTimeout > 0 {
		sender.Timeout = m.WebhookTimeout
	}
	work := filepath.Join(c.DataDir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	pool, err := m.openSandboxes()
	if err != nil {
		return err
	}
	m.renderer = renderer.New(renderer.Config{
		ChromiumPath: c.Chromium, FFmpegPath: c.FFmpeg, Browsers: c.Browsers, Logger: m.Logger,
		Sandbox: renderer.SandboxConfig{Enabled: c.Sandbox.Render}, KeepWarm: c.KeepWarm,
	})
	m.stills = &stills.Warm{Chromium: cmp.Or(c.Chromium, renderer.FindChromium())}
	h := &workers.Handlers{
		Lifecycle: m.lifecycle, Storage: m.storage, Queue: jobs.NewClient(m.client),
		// The builtin agent's critic looks at stills of its scenes in Chromium too.
		// One warm browser serves every check: starting Chromium per check cost about a
		// second per preview.
		Agent:     m.agentOr(builtin.New(m.Logger).WithCamera(&stills.Camera{Warm: m.stills})),
		Sandboxes: pool,
		Renderer:  m.renderer,
		Webhooks:  sender, WebhookSchedule: webhook.NewSchedule(c.WebhookRetry, c.WebhookAttempts), WorkDir: work, Logger: m.Logger, ReconcileGrace: m.ReconcileGrace,
		ChunkFrames: cmp.Or(m.ChunkFrames, c.ChunkFrames),
		// The agent's work on one request is bounded (issue 26).
		AgentTimeout: c.Agent.Timeout,
		// A render restores what a sandbox of this size could hold, and no more.
		CheckpointBudget: sandbox.Budget{Bytes: int64(c.Sandbox.DiskMiB) << 20},
	}
	if m.Agent == nil && c.Agent.Kind != "" && c.Agent.Kind != config.AgentBuiltin {
		a := c.Agent
		if h.Agent, err = agent.New(agent.Options{Kind: a.Kind, AnthropicKey: a.AnthropicKey, OpenAIKey: a.OpenAIKey,
			Model: a.Model, OpenAIBaseURL: a.OpenAIBaseURL, MaxInFlight: a.MaxInFlight, Redis: m.rdb, Node: c.Node,
			Renderer: h.Renderer, Logger: m.Logger}); err != nil {
			return fmt.Errorf("agent: %w", err)
		}
	}
	if err := m.configureWorkers(h); err != nil {
		return err
	}
	m.runner, err = workers.Start(m.rdb, h, workers.Options{
		Pools: m.Pools, Concurrency: c.Concurrency, ShutdownTimeout: c.ShutdownTimeout,
		ReconcileEvery: m.ReconcileEvery, Logger: m.Logger,
		SchedulerConn: schedConn,
	})
	return err
}

// openAssets builds the tenants' asset library. Uploads are staged under the data
// dir rather than /tmp, which is often a tmpfs: a 100 MB upload would sit in memory.
func (m *Main) openAssets() (*assets.Service, error) {
	c := m.Config
	tmp := filepath.Join(c.DataDir, "work", "assets")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return nil, fmt.Errorf("asset staging folder: %w", err)
	}
	// A process killed during an upload leaves its temporary file; an hour is
	// longer than any upload may take to arrive and be checked.
	if entries, err := os.ReadDir(tmp); err == nil {
		for _, e := range entries {
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
				_ = os.Remove(filepath.Join(tmp, e.Name()))
			}
		}
	}
	prober := &assets.Prober{FFprobe: c.Assets.FFprobe}
	if c.Sandbox.Render {
		// The same confinement as sandboxed rendering: ffprobe reads hostile files.
		if bw, err := exec.LookPath("bwrap"); err == nil {
			prober.Bwrap = bw
		}
	}
	fetch := m.AssetFetch
	if fetch == nil {
		fetch = m.guard.Client()
	}
	return &assets.Service{Store: m.store, Storage: m.storage, Tenants: m.store,
		DefaultQuota: c.TenantLimits.AssetBytes, Prober: prober, Fetch: fetch, TempDir: tmp,
		Logger: m.Logger, Limits: assets.Limits{ImageMaxBytes: c.Assets.ImageMaxBytes, ImageMaxPixels: c.Assets.ImageMaxPixels,
			FontMaxBytes: c.Assets.FontMaxBytes, AudioMaxBytes: c.Assets.AudioMaxBytes, AudioMaxLength: c.Assets.AudioMaxLength}}, nil
}

func (m *Main) startAPI(redisURL string, broker *events.Broker) error {
	monOpt, err := asynq.ParseRedisURI(redisURL)
	if err != nil {
		return fmt.Errorf("asynqmon redis: %w", err)
	}
	mon := asynqmon.New(m.monitoringOptions(monOpt))
	sbAPI, err := m.openSandboxes()
	if err != nil {
		return err
	}
	m.live = &live.Preview{
		Secret: []byte(m.Config.SigningSecret), Dirs: sbAPI, Storage: m.storage,
		Budget:  sandbox.Budget{Bytes: int64(m.Config.Sandbox.DiskMiB) << 20},
		WorkDir: filepath.Join(m.Config.DataDir, "work", "live"), Logger: m.Logger,
	}
	m.server = &api.Server{
		Assets:      m.assets,
		Brand:       m.lifecycle,
		Projects:    m.lifecycle,
		Events:      eventSource{m.store, broker},
		Idempotency: m.store,
		Auth:        m.tenants, Tenants: m.tenants, TenantReader: m.store, TenantWork: m.lifecycle,
		AdminKey: m.AdminKey, NewSecret: webhook.GenerateSecret, EventPoll: m.EventPoll,
		Storage:    m.storage,
		Files:      localFiles(m.storage),
		Monitoring: mon,
		Metrics:    m.ops.metrics.Handler(m.Config.MetricsKey),
		Sandboxes:  sbAPI,
		Studio:     studio.FS(),
		Live:       m.live,
		FileURLTTL: m.Config.FileURLTTL,
		Logger:     m.Logger,
		Ready: map[string]func(context.Context) error{
			"database": m.store.Ping,
			"redis":    func(ctx context.Context) error { return m.rdb.Ping(ctx).Err() },
			"storage":  m.storage.Ping,
		},
	}
	relayCtx, stop := context.WithCancel(context.Background())
	m.stopRelay = stop
	go m.relay.Run(relayCtx)
	m.serveErr = make(chan error, 1)
	ln := m.listener
	go func() { m.serveErr <- m.server.App().Listener(ln) }()
	m.Logger.Info("API listening", "addr", m.Addr, "public_url", m.PublicURL,
		"monitoring", m.PublicURL+"/monitoring/")
	return nil
}

// Wait blocks until ctx ends or the HTTP server fails.
func (m *Main) Wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case err := <-m.serveErr:
		return err
	}
}

// Close drains the workers (running tasks get the shutdown timeout), stops the API and
// releases connections.
func (m *Main) Close() error {
	var errs []error
	if m.runner != nil {
		m.runner.Shutdown()
	}
	if m.renderer != nil {
		m.renderer.Close() // the browsers kept warm; no render runs any more
	}
	if m.stills != nil {
		m.stills.Close() // after the workers: no check runs any more
	}
	m.closeOps()
	if m.stopRelay != nil {
		m.stopRelay()
	}
	if m.server != nil {
		errs = append(errs, m.server.Shutdown(5*time.Second))
	} else if m.listener != nil {
		m.listener.Close()
	}
	if m.live != nil {
		m.live.Close()
	}
	errs = append(errs, m.closeSandboxes())
	// m.client shares m.rdb, which is closed below; asynq refuses to close shared clients.
	if m.rdb != nil {
		m.rdb.Close()
	}
	if m.embedded != nil {
		m.embedded.Close()
	}
	if m.store != nil {
		errs = append(errs, m.store.Close())
	}
	return errors.Join(errs...)
}

// eventSource reads events from the store and wake-ups from the broker.
type eventSource struct {
	*store.Store
	*events.Broker
}

// reachable turns a listen address into one a local client can dial.
func reachable(actual, configured string) string {
	addr := actual
	if addr == "" {
		addr = configured
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
