// Package config reads Koda's configuration once, from flags and KODA_* environment
// variables, into a Config with documented defaults. Every setting is one row of the
// table in Flags; cmd/koda passes values on explicitly, nothing reads the environment later.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/kodahq/koda"
)

// Pool names, as accepted by --pools.
const (
	PoolAgent       = "agent"
	PoolPreview     = "preview"
	PoolRender      = "render"
	PoolWebhooks    = "webhooks"
	PoolMaintenance = "maintenance"
)

// AllPools lists every worker pool.
var AllPools = []string{PoolAgent, PoolPreview, PoolRender, PoolWebhooks, PoolMaintenance}

// Config is the whole configuration of a koda process.
type Config struct {
	Addr        string // KODA_ADDR
	DataDir     string // KODA_DATA_DIR
	DatabaseURL string // KODA_DATABASE_URL; empty = SQLite under DataDir
	RedisURL    string // KODA_REDIS_URL; empty = embedded Redis
	PublicURL   string // KODA_PUBLIC_URL; empty = http://<Addr>
	Chromium    string // KODA_CHROMIUM
	FFmpeg      string // KODA_FFMPEG

	WebhookSecret string // KODA_WEBHOOK_SECRET (whsec_…); empty = generated once, kept in DataDir
	SigningSecret string // KODA_SIGNING_SECRET for file URLs; empty = generated once, kept in DataDir
	// SecretKey (KODA_SECRET_KEY, at least 32 characters) seals tenants' webhook
	// secrets in the database; empty = generated once, kept in DataDir. Every process
	// sharing a database needs the same one.
	SecretKey  string
	FileURLTTL time.Duration
	// StorageURL (KODA_STORAGE_URL) selects s3://bucket/prefix?endpoint=…&region=…
	// for every stored file; empty keeps them in DataDir/storage. S3 credentials come
	// from the standard AWS variables, or files named by AWS_ACCESS_KEY_ID_FILE,
	// AWS_SECRET_ACCESS_KEY_FILE and AWS_SESSION_TOKEN_FILE (StorageCredentials).
	StorageURL         string
	StorageCredentials Credentials
	// WebhookRetry and WebhookAttempts configure the retry policy of webhook deliveries
	// (webhook.NewSchedule): the delays before each retry, and how many attempts.
	WebhookRetry    []time.Duration
	WebhookAttempts int

	// APIKey (KODA_API_KEY) is accepted as the default tenant's key; AdminKey
	// (KODA_ADMIN_KEY) guards the admin API, which is off when it is empty.
	APIKey   string
	AdminKey string
	// MaxAPIKeys (KODA_MAX_API_KEYS) caps each tenant's active API keys; 0 means no cap.
	MaxAPIKeys int
	// WebhookAllow (KODA_WEBHOOK_ALLOW) lists CIDR prefixes webhooks may reach although
	// they are loopback or private, for local development and tests.
	WebhookAllow string

	Pools       []string
	Concurrency map[string]int
	// Limits (KODA_LIMITS) caps shared resources: browser, encoder and sandbox slots
	// per node, llm slots per provider across the cluster, sandbox_tenant and
	// webhook_tenant (deliveries in flight) per tenant.
	Limits map[string]int
	// TenantLimits (KODA_TENANT_LIMITS) are the limits of the default tenant and of
	// tenants created without their own; DefaultTenantLimits unless set. The zero value
	// (a Config built in code) limits nothing.
	TenantLimits koda.Limits
	// Node (KODA_NODE) names this machine for its per-node limits; default the hostname.
	Node string
	// MetricsAddr (KODA_METRICS_ADDR) serves /metrics in processes without the API.
	MetricsAddr string
	// MetricsKey (KODA_METRICS_KEY), when set, is the Bearer key /metrics requires.
	MetricsKey string
	Browsers   int
	// KeepWarm (KODA_RENDER_KEEP_WARM) keeps a finished render's browsers running this
	// long for the next render; 0 closes them at once.
	KeepWarm time.Duration
	// ChunkFrames (KODA_CHUNK_FRAMES) splits final renders of at least twice this many
	// frames into chunk tasks any worker may take; 0 means the workers' default (1200).
	ChunkFrames int
	// NoSharedStretch (KODA_SHARED_STRETCH=false) renders every frame of every template
	// row, even the stretch of the timeline no row changes, which is otherwise rendered
	// once per batch and preset spec and joined to each row's own frames.
	NoSharedStretch bool
	ShutdownTimeout time.Duration
	LogLevel        string
	LogFormat       string
	Sandbox         Sandbox
	Agent           Agent
	Assets          Assets
}

// Flags returns every setting as a flag that also reads its KODA_* variable.
func Flags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "addr", Value: ":8080", Usage: "HTTP listen address", Sources: cli.EnvVars("KODA_ADDR")},
		&cli.StringFlag{Name: "data-dir", Value: "./data", Usage: "folder for the SQLite database, local storage and sandboxes", Sources: cli.EnvVars("KODA_DATA_DIR")},
		&cli.StringFlag{Name: "database-url", Usage: "postgres://… or a SQLite path (default: <data-dir>/koda.db)", Sources: cli.EnvVars("KODA_DATABASE_URL")},
		&cli.StringFlag{Name: "redis-url", Usage: "redis://host:port/db (default: an in-process Redis)", Sources: cli.EnvVars("KODA_REDIS_URL")},
		&cli.StringFlag{Name: "public-url", Usage: "base URL clients reach this server at, for file links (default: http://<addr>)", Sources: cli.EnvVars("KODA_PUBLIC_URL")},
		&cli.StringFlag{Name: "chromium", Usage: "path to the chromium binary (default: found on PATH)", Sources: cli.EnvVars("KODA_CHROMIUM")},
		&cli.StringFlag{Name: "ffmpeg", Value: "ffmpeg", Usage: "path to the ffmpeg binary", Sources: cli.EnvVars("KODA_FFMPEG")},
		&cli.StringFlag{Name: "webhook-secret", Usage: "whsec_… secret that signs webhooks (default: generated once and kept in the data dir)", Sources: cli.EnvVars("KODA_WEBHOOK_SECRET")},
		&cli.StringFlag{Name: "secret-key", Usage: "key that seals webhook secrets in the database, at least 32 characters (default: generated once and kept in the data dir)", Sources: cli.EnvVars("KODA_SECRET_KEY")},
		&cli.StringFlag{Name: "signing-secret", Usage: "secret that signs file URLs (default: generated once and kept in the data dir)", Sources: cli.EnvVars("KODA_SIGNING_SECRET")},
		&cli.StringFlag{Name: "storage-url", Usage: "s3://bucket/prefix?endpoint=…&region=… keeps files in an S3-compatible bucket (default: <data-dir>/storage)", Sources: cli.EnvVars("KODA_STORAGE_URL")},
		&cli.DurationFlag{Name: "file-url-ttl", Value: 24 * time.Hour, Usage: "how long signed file URLs stay valid", Sources: cli.EnvVars("KODA_FILE_URL_TTL")},
		&cli.StringFlag{Name: "webhook-retry", Usage: "comma-separated delays before each webhook retry, the last repeating, e.g. 1s,5s (default: 5s,5m,30m,2h,5h,10h)", Sources: cli.EnvVars("KODA_WEBHOOK_RETRY")},
		&cli.IntFlag{Name: "webhook-attempts", Value: 8, Usage: "attempts of one webhook delivery before it fails (at most 50)", Sources: cli.EnvVars("KODA_WEBHOOK_ATTEMPTS")},
		&cli.StringFlag{Name: "api-key", Usage: "a koda_… key accepted for the default tenant (default: koda serve/demo generate one, kept in the data dir)", Sources: cli.EnvVars("KODA_API_KEY")},
		&cli.StringFlag{Name: "admin-key", Usage: "key guarding the admin API at /admin (tenants, API keys); empty disables it", Sources: cli.EnvVars("KODA_ADMIN_KEY")},
		&cli.IntFlag{Name: "max-api-keys", Value: 100, Usage: "active API keys one tenant may have; creating another answers 409 LIMIT_API_KEYS (0: no cap)", Sources: cli.EnvVars("KODA_MAX_API_KEYS")},
		&cli.StringFlag{Name: "webhook-allow", Usage: "comma-separated CIDR prefixes webhooks may reach although private or loopback, e.g. 127.0.0.0/8 for local development", Sources: cli.EnvVars("KODA_WEBHOOK_ALLOW")},
		&cli.StringFlag{Name: "pools", Value: strings.Join(AllPools, ","), Usage: "worker pools this process runs", Sources: cli.EnvVars("KODA_POOLS")},
		&cli.StringFlag{Name: "concurrency", Usage: "per-pool concurrency, e.g. agent=4,render=1 (defaults: agent=4,preview=1,render=1,webhooks=10,maintenance=1)", Sources: cli.EnvVars("KODA_CONCURRENCY")},
		&cli.StringFlag{Name: "limits", Usage: "resource slots, e.g. browser=2,encoder=2,llm=8,sandbox=8,sandbox_tenant=4,webhook_tenant=4 (browser, encoder, sandbox per node; llm per provider; sandbox_tenant and webhook_tenant, deliveries in flight, per tenant)", Sources: cli.EnvVars("KODA_LIMITS")},
		&cli.StringFlag{Name: "tenant-limits", Value: DefaultTenantLimits, Usage: "limits of the default tenant and of tenants created without their own: concurrent_projects, live_sandboxes, renders_per_day, render_seconds_per_month, asset_bytes (0: no limit)", Sources: cli.EnvVars("KODA_TENANT_LIMITS")},
		&cli.StringFlag{Name: "node", Usage: "name of this machine for per-node limits (default: the hostname)", Sources: cli.EnvVars("KODA_NODE")},
		&cli.StringFlag{Name: "metrics-key", Usage: "key /metrics requires as Authorization: Bearer <key>, at least 16 characters (default: /metrics is open)", Sources: cli.EnvVars("KODA_METRICS_KEY")},
		&cli.StringFlag{Name: "metrics-addr", Usage: "listen address for /metrics in a process without the API, e.g. :9090 (the API serves /metrics itself)", Sources: cli.EnvVars("KODA_METRICS_ADDR")},
		&cli.IntFlag{Name: "browsers", Value: runtime.NumCPU(), Usage: "browser processes one render may use", Sources: cli.EnvVars("KODA_BROWSERS")},
		&cli.DurationFlag{Name: "render-keep-warm", Value: 2 * time.Minute, Usage: "how long a finished render's browsers stay running for the next render (0: close them at once)", Sources: cli.EnvVars("KODA_RENDER_KEEP_WARM")},
		&cli.IntFlag{Name: "chunk-frames", Usage: "frames per chunk task of a split final render; renders of at least twice as many are split (default 1200)", Sources: cli.EnvVars("KODA_CHUNK_FRAMES")},
		&cli.BoolFlag{Name: "shared-stretch", Value: true, Usage: "render the stretch of a template batch's timeline that no row changes once per preset spec, and join it to each row's own frames (false: every row renders every frame)", Sources: cli.EnvVars("KODA_SHARED_STRETCH")},
		&cli.DurationFlag{Name: "shutdown-timeout", Value: 30 * time.Second, Usage: "how long running tasks may take to finish on SIGTERM", Sources: cli.EnvVars("KODA_SHUTDOWN_TIMEOUT")},
		&cli.StringFlag{Name: "log-level", Value: "info", Usage: "debug, info, warn or error", Sources: cli.EnvVars("KODA_LOG_LEVEL")},
		&cli.StringFlag{Name: "log-format", Value: "text", Usage: "text or json", Sources: cli.EnvVars("KODA_LOG_FORMAT")},
	}, append(append(sandboxFlags(), agentFlags()...), assetFlags()...)...)
}

// DefaultConcurrency is each pool's concurrency unless configured. Rendering is bounded
// by CPU: one render at a time already uses every core through several browsers.
var DefaultConcurrency = map[string]int{
	PoolAgent: 4, PoolPreview: 1, PoolRender: 1, PoolWebhooks: 10, PoolMaintenance: 1,
}

// FromCommand builds a Config from parsed flags, fills defaults and validates it.
func FromCommand(cmd *cli.Command) (*Config, error) {
	c := &Config{
		Addr:            cmd.String("addr"),
		DataDir:         cmd.String("data-dir"),
		DatabaseURL:     cmd.String("database-url"),
		RedisURL:        cmd.String("redis-url"),
		PublicURL:       cmd.String("public-url"),
		Chromium:        cmd.String("chromium"),
		FFmpeg:          cmd.String("ffmpeg"),
		WebhookSecret:   cmd.String("webhook-secret"),
		SigningSecret:   cmd.String("signing-secret"),
		SecretKey:       cmd.String("secret-key"),
		FileURLTTL:      cmd.Duration("file-url-ttl"),
		StorageURL:      cmd.String("storage-url"),
		Browsers:        int(cmd.Int("browsers")),
		KeepWarm:        cmd.Duration("render-keep-warm"),
		ChunkFrames:     int(cmd.Int("chunk-frames")),
		NoSharedStretch: !cmd.Bool("shared-stretch"),
		ShutdownTimeout: cmd.Duration("shutdown-timeout"),
		LogLevel:        cmd.String("log-level"),
		LogFormat:       cmd.String("log-format"),
		APIKey:          cmd.String("api-key"),
		AdminKey:        cmd.String("admin-key"),
		WebhookAllow:    cmd.String("webhook-allow"),
		MaxAPIKeys:      int(cmd.Int("max-api-keys")),
		Sandbox:         sandboxFromCommand(cmd),
		Agent:           agentFromCommand(cmd),
		Assets:          assetsFromCommand(cmd),
	}
	var err error
	if c.Pools, err = ParsePools(cmd.String("pools")); err != nil {
		return nil, err
	}
	if c.Concurrency, err = ParseConcurrency(cmd.String("concurrency")); err != nil {
		return nil, err
	}
	if c.Limits, err = ParseLimits(cmd.String("limits")); err != nil {
		return nil, err
	}
	if c.TenantLimits, err = ParseTenantLimits(cmd.String("tenant-limits")); err != nil {
		return nil, err
	}
	if c.StorageCredentials, err = credentialsFromFiles(os.Getenv); err != nil {
		return nil, err
	}
	c.Node, c.MetricsAddr, c.MetricsKey = cmd.String("node"), cmd.String("metrics-addr"), cmd.String("metrics-key")
	if c.Node == "" {
		c.Node, _ = os.Hostname()
	}
	c.WebhookAttempts = int(cmd.Int("webhook-attempts"))
	if s := cmd.String("webhook-retry"); s != "" {
		for _, part := range strings.Split(s, ",") {
			d, err := time.ParseDuration(strings.TrimSpace(part))
			if err != nil || d < 0 {
				return nil, fmt.Errorf("KODA_WEBHOOK_RETRY: %q is not a duration", part)
			}
			c.WebhookRetry = append(c.WebhookRetry, d)
		}
	}
	return c, c.Validate()
}

// Validate checks values and cross-field rules, naming the variable at fault.
func (c *Config) Validate() error {
	if err := c.Agent.validate(); err != nil {
		return err
	}
	if c.Assets != (Assets{}) { // a Config built in code takes the assets package's defaults
		if err := c.Assets.validate(); err != nil {
			return err
		}
	}
	if c.SecretKey != "" && len(c.SecretKey) < 32 {
		return fmt.Errorf("KODA_SECRET_KEY must be at least 32 characters")
	}
	if c.DataDir == "" {
		return fmt.Errorf("KODA_DATA_DIR must not be empty")
	}
	if c.Addr == "" {
		return fmt.Errorf("KODA_ADDR must not be empty")
	}
	if c.RedisURL != "" {
		if u, err := url.Parse(c.RedisURL); err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") {
			return fmt.Errorf("KODA_REDIS_URL %q must be redis://host:port/db", c.RedisURL)
		}
	}
	if c.PublicURL != "" {
		if u, err := url.Parse(c.PublicURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("KODA_PUBLIC_URL %q must be an http(s) URL", c.PublicURL)
		}
	}
	if c.WebhookSecret != "" && !strings.HasPrefix(c.WebhookSecret, "whsec_") {
		return fmt.Errorf("KODA_WEBHOOK_SECRET must start with whsec_")
	}
	if c.APIKey != "" && (!strings.HasPrefix(c.APIKey, "koda_") || len(c.APIKey) < 25) {
		return fmt.Errorf("KODA_API_KEY must start with koda_ and be at least 25 characters long")
	}
	if c.MaxAPIKeys < 0 {
		return fmt.Errorf("KODA_MAX_API_KEYS must not be negative (0 means no cap)")
	}
	if c.AdminKey != "" && len(c.AdminKey) < 16 {
		return fmt.Errorf("KODA_ADMIN_KEY must be at least 16 characters long")
	}
	if c.MetricsKey != "" && len(c.MetricsKey) < 16 {
		return fmt.Errorf("KODA_METRICS_KEY must be at least 16 characters long")
	}
	if c.StorageURL != "" {
		if u, err := url.Parse(c.StorageURL); err != nil || u.Scheme != "s3" || u.Host == "" {
			return fmt.Errorf("KODA_STORAGE_URL %q must be s3://bucket[/prefix][?endpoint=…&region=…]", c.StorageURL)
		}
	}
	if c.FileURLTTL <= 0 {
		return fmt.Errorf("KODA_FILE_URL_TTL must be positive")
	}
	if c.Browsers < 1 {
		return fmt.Errorf("KODA_BROWSERS must be at least 1")
	}
	if c.ChunkFrames < 0 {
		return fmt.Errorf("KODA_CHUNK_FRAMES must not be negative")
	}
	if c.KeepWarm < 0 {
		return fmt.Errorf("KODA_RENDER_KEEP_WARM must not be negative")
	}
	switch c.LogFormat {
	case "text", "json":
	default:
		return fmt.Errorf("KODA_LOG_FORMAT must be text or json, not %q", c.LogFormat)
	}
	return nil
}

// LimitClasses are the resource classes KODA_LIMITS accepts.
var LimitClasses = []string{"browser", "encoder", "llm", "sandbox", "sandbox_tenant", "webhook_tenant"}

// ParseLimits reads "class=n,…"; classes left out keep the workers' defaults.
func ParseLimits(s string) (map[string]int, error) {
	m := map[string]int{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, num, ok := strings.Cut(part, "=")
		n, err := strconv.Atoi(num)
		valid := false
		for _, c := range LimitClasses {
			valid = valid || c == name
		}
		if !ok || err != nil || n < 1 || !valid {
			return nil, fmt.Errorf("KODA_LIMITS: %q must be class=n with n ≥ 1 and a class among %s", part, strings.Join(LimitClasses, ","))
		}
		m[name] = n
	}
	return m, nil
}

// ParsePools reads a comma-separated pool list.
func ParsePools(s string) ([]string, error) {
	var pools []string
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !known(p) {
			return nil, fmt.Errorf("KODA_POOLS: unknown pool %q (known: %s)", p, strings.Join(AllPools, ","))
		}
		pools = append(pools, p)
	}
	return pools, nil
}

// ParseConcurrency reads "pool=n,…" over the defaults.
func ParseConcurrency(s string) (map[string]int, error) {
	m := make(map[string]int, len(DefaultConcurrency))
	for k, v := range DefaultConcurrency {
		m[k] = v
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, num, ok := strings.Cut(part, "=")
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n < 1 || !known(name) {
			return nil, fmt.Errorf("KODA_CONCURRENCY: %q must be pool=n with a known pool and n ≥ 1", part)
		}
		m[name] = n
	}
	return m, nil
}

func known(pool string) bool {
	for _, p := range AllPools {
		if p == pool {
			return true
		}
	}
	return false
}

// DatabaseURLOrDefault is the configured database or the SQLite file under DataDir.
func (c *Config) DatabaseURLOrDefault() string {
	if c.DatabaseURL != "" {
		return c.DatabaseURL
	}
	return filepath.Join(c.DataDir, "koda.db")
}

// EnsureSecrets fills the webhook and signing secrets and the secret key when unset, from files in DataDir
// created on first use, so restarts keep verifying old signatures and URLs.
func (c *Config) EnsureSecrets(newWebhookSecret func() string) error {
	if err := os.MkdirAll(c.DataDir, 0o755); err != nil {
		return fmt.Errorf("create data dir: %w", err)
	}
	var err error
	if c.WebhookSecret == "" {
		if c.WebhookSecret, err = persisted(filepath.Join(c.DataDir, "webhook_secret"), newWebhookSecret); err != nil {
			return err
		}
	}
	if c.SigningSecret == "" {
		if c.SigningSecret, err = persisted(filepath.Join(c.DataDir, "signing_secret"), randomHex); err != nil {
			return err
		}
	}
	if c.SecretKey == "" {
		if c.SecretKey, err = persisted(filepath.Join(c.DataDir, "secret_key"), randomHex); err != nil {
			return err
		}
	}
	return nil
}

func persisted(path string, gen func() string) (string, error) {
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		return strings.TrimSpace(string(b)), nil
	}
	v := gen()
	if err := os.WriteFile(path, []byte(v+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return v, nil
}

func randomHex() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// String prints the configuration with secrets redacted.
func (c *Config) String() string {
	redact := func(s string) string {
		if s == "" {
			return ""
		}
		return "[redacted]"
	}
	return fmt.Sprintf("addr=%s data_dir=%s database=%s redis=%s public_url=%s pools=%v concurrency=%v webhook_secret=%s signing_secret=%s secret_key=%s api_key=%s admin_key=%s metrics_key=%s webhook_allow=%s",
		c.Addr, c.DataDir, redactURL(c.DatabaseURLOrDefault()), redactURL(c.RedisURL), c.PublicURL, c.Pools, c.Concurrency,
		redact(c.WebhookSecret), redact(c.SigningSecret), redact(c.SecretKey), redact(c.APIKey), redact(c.AdminKey), redact(c.MetricsKey), c.WebhookAllow)
}

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxx")
	}
	return u.String()
}

// Credentials are S3 keys read from files, for secrets mounted by an orchestrator.
// Empty fields leave the AWS SDK's own chain in charge.
type Credentials struct {
	AccessKey, SecretKey, SessionToken string
}

// credentialsFromFiles reads AWS_ACCESS_KEY_ID_FILE, AWS_SECRET_ACCESS_KEY_FILE and
// AWS_SESSION_TOKEN_FILE; an access key without its secret is refused.
func credentialsFromFiles(getenv func(string) string) (Credentials, error) {
	var c Credentials
	for _, f := range []struct {
		env string
		dst *string
	}{
		{"AWS_ACCESS_KEY_ID_FILE", &c.AccessKey},
		{"AWS_SECRET_ACCESS_KEY_FILE", &c.SecretKey},
		{"AWS_SESSION_TOKEN_FILE", &c.SessionToken},
	} {
		name := getenv(f.env)
		if name == "" {
			continue
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return Credentials{}, fmt.Errorf("%s: %w", f.env, err)
		}
		*f.dst = strings.TrimSpace(string(b))
	}
	if (c.AccessKey == "") != (c.SecretKey == "") {
		return Credentials{}, fmt.Errorf("AWS_ACCESS_KEY_ID_FILE and AWS_SECRET_ACCESS_KEY_FILE must be set together")
	}
	return c, nil
}
