// Package tenant manages the customers of a deployment: tenants, their API keys and
// their webhook signing secrets. Keys are random, shown once, and stored only as a
// SHA-256 hash with a short prefix that tells them apart in lists.
package tenant

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/hex"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/kodahq/koda"
)

// KeyPrefix starts every API key, so leaked keys are easy to recognise and scan for.
const KeyPrefix = "koda_"

// prefixLen is how much of a key is stored in clear to tell keys apart.
const prefixLen = len(KeyPrefix) + 8

var validID = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,62}$`)

// NewKey returns a new random API key: koda_ and 32 random bytes in base32.
func NewKey() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return KeyPrefix + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:]))
}

// Hash is the stored form of a key.
func Hash(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// Service authenticates requests and manages tenants. Fields are set by cmd/koda.
type Service struct {
	Store koda.TenantStore
	// DefaultSecret signs webhooks of tenants without a secret of their own.
	DefaultSecret string
	// NewSecret makes the webhook secret of a new tenant: tenants never share one, or
	// one could sign events another's receiver trusts.
	NewSecret func() string
	Logger    *slog.Logger
	Now       func() time.Time
	// MaxKeys caps a tenant's active (unrevoked) API keys, however they are made; 0
	// means no cap. Keys given in configuration are not counted.
	MaxKeys int
	// DefaultLimits are the limits of a tenant created without its own
	// (KODA_TENANT_LIMITS), whether by the admin API or by its first API key.
	DefaultLimits koda.Limits

	mu      sync.Mutex
	static  map[string]string    // hash → tenant, for keys given in configuration
	touched map[string]time.Time // key ID → last recorded use
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// AddStaticKey accepts key for tenantID without storing it (KODA_API_KEY, the local
// key of `koda serve`).
func (s *Service) AddStaticKey(key, tenantID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.static == nil {
		s.static = map[string]string{}
	}
	s.static[Hash(key)] = tenantID
}

func unauthorized(msg string) error {
	return koda.Errorf(koda.EUNAUTHORIZED, koda.CodeUnauthorized, "%s", msg)
}

// Authenticate returns the tenant of an Authorization header value ("Bearer <key>").
// Missing, malformed, unknown and revoked keys are EUNAUTHORIZED.
func (s *Service) Authenticate(ctx context.Context, header string) (string, error) {
	tenant, _, err := s.AuthenticateKey(ctx, header)
	return tenant, err
}

// AuthenticateKey is Authenticate that also names the stored key used ("" for a key
// given in configuration), so a key can be told from the others of its tenant.
func (s *Service) AuthenticateKey(ctx context.Context, header string) (tenantID, keyID string, err error) {
	scheme, key, ok := strings.Cut(strings.TrimSpace(header), " ")
	if header == "" {
		return "", "", unauthorized("send an API key as Authorization: Bearer <key>")
	}
	key = strings.TrimSpace(key)
	if !ok || !strings.EqualFold(scheme, "Bearer") || !strings.HasPrefix(key, KeyPrefix) || len(key) > 200 {
		return "", "", unauthorized("the Authorization header must be Bearer followed by a koda_ API key")
	}
	h := Hash(key)
	s.mu.Lock()
	for sh, tenant := range s.static {
		if subtle.ConstantTimeCompare([]byte(sh), []byte(h)) == 1 {
			s.mu.Unlock()
			return tenant, "", nil
		}
	}
	s.mu.Unlock()
	if s.Store == nil {
		return "", "", unauthorized("the API key is not valid")
	}
	k, err := s.Store.GetAPIKeyByHash(ctx, h)
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return "", "", unauthorized("the API key is not valid")
	}
	if err != nil {
		return "", "", err
	}
	if k.RevokedAt != nil {
		return "", "", unauthorized("the API key was revoked")
	}
	s.touch(ctx, k)
	return k.TenantID, k.ID, nil
}

// touch records a key's use at most once a minute: a write per request would
// serialize every request on SQLite.
func (s *Service) touch(ctx context.Context, k *koda.APIKey) {
	now := s.now()
	s.mu.Lock()
	if s.touched == nil {
		s.touched = map[string]time.Time{}
	}
	last := s.touched[k.ID]
	if now.Sub(last) < time.Minute {
		s.mu.Unlock()
		return
	}
	s.touched[k.ID] = now
	s.mu.Unlock()
	if err := s.Store.TouchAPIKey(context.WithoutCancel(ctx), k.ID, now); err != nil && s.Logger != nil {
		s.Logger.Warn("record API key use", "key", k.ID, "err", err)
	}
}

// EnsureTenant returns the tenant, creating it with the default limits when it does
// not exist.
func (s *Service) EnsureTenant(ctx context.Context, id, name string) (*koda.Tenant, error) {
	if !validID.MatchString(id) {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest,
			"tenant id %q must be 1–63 lowercase letters, digits, - or _", id)
	}
	t, err := s.Store.GetTenant(ctx, id)
	if err == nil && t.DeletedAt != nil {
		return nil, deleted(id)
	}
	if err == nil || koda.ErrorKind(err) != koda.ENOTFOUND {
		return t, err
	}
	t = &koda.Tenant{ID: id, Name: name, Limits: s.DefaultLimits, CreatedAt: s.now(), WebhookSecret: s.secretFor(id)}
	if err := s.Store.CreateTenant(ctx, t); err != nil {
		if koda.ErrorKind(err) == koda.ECONFLICT { // created concurrently
			if t, err = s.Store.GetTenant(ctx, id); err == nil && t.DeletedAt != nil {
				return nil, deleted(id)
			}
			return t, err
		}
		return nil, err
	}
	return t, nil
}

func deleted(id string) error {
	return koda.Errorf(koda.ECONFLICT, koda.CodeTenantDeleted, "tenant %q was deleted; its ID cannot be used again", id)
}

// DeleteTenant marks a tenant deleted and revokes every key of it at once, so its
// requests get 401 and its event streams end at their next key check. It returns the
// tenant as deleted; deleting it again changes nothing and returns it the same way.
// The default tenant cannot be deleted (ECONFLICT CodeDefaultTenant); an unknown
// tenant is ENOTFOUND. Ending the tenant's work and removing its files is the
// caller's part (api: DELETE /admin/tenants/{id}).
func (s *Service) DeleteTenant(ctx context.Context, id string) (*koda.Tenant, error) {
	if id == koda.DefaultTenant {
		return nil, koda.Errorf(koda.ECONFLICT, koda.CodeDefaultTenant,
			"the default tenant %q serves the keys given in configuration and cannot be deleted", id)
	}
	if _, err := s.Store.GetTenant(ctx, id); err != nil {
		return nil, err
	}
	if err := s.Store.DeleteTenant(ctx, id, s.now()); err != nil {
		return nil, err
	}
	return s.Store.GetTenant(ctx, id)
}

// CreateTenant creates a tenant with limits, or the default limits when nil; an
// existing ID is ECONFLICT.
func (s *Service) CreateTenant(ctx context.Context, id, name string, limits *koda.Limits) (*koda.Tenant, error) {
	if !validID.MatchString(id) {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest,
			"tenant id %q must be 1–63 lowercase letters, digits, - or _", id)
	}
	l := s.DefaultLimits
	if limits != nil {
		l = *limits
	}
	if err := checkLimits(l); err != nil {
		return nil, err
	}
	name, err := koda.NameText.Check("name", name)
	if err != nil {
		return nil, err
	}
	t := &koda.Tenant{ID: id, Name: name, Limits: l, CreatedAt: s.now(), WebhookSecret: s.secretFor(id)}
	if err := s.Store.CreateTenant(ctx, t); err != nil {
		if koda.ErrorKind(err) == koda.ECONFLICT {
			if old, gerr := s.Store.GetTenant(ctx, id); gerr == nil && old.DeletedAt != nil {
				return nil, deleted(id)
			}
			return nil, koda.Errorf(koda.ECONFLICT, koda.CodeTenantExists, "tenant %q exists already", id)
		}
		return nil, err
	}
	return t, nil
}

// secretFor is a new tenant's webhook secret; the default tenant keeps the
// deployment's (KODA_WEBHOOK_SECRET).
func (s *Service) secretFor(id string) string {
	if id == koda.DefaultTenant || s.NewSecret == nil {
		return ""
	}
	return s.NewSecret()
}

func checkLimits(l koda.Limits) error {
	if l.ConcurrentProjects < 0 || l.LiveSandboxes < 0 || l.RendersPerDay < 0 || l.RenderSecondsPerMonth < 0 || l.BatchRows < 0 || l.AssetBytes < 0 {
		return koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "limits must not be negative (0 means no limit)")
	}
	return nil
}

// SetLimits replaces a tenant's limits, creating the tenant when it does not exist.
func (s *Service) SetLimits(ctx context.Context, id string, limits koda.Limits) (*koda.Tenant, error) {
	if err := checkLimits(limits); err != nil {
		return nil, err
	}
	t, err := s.EnsureTenant(ctx, id, "")
	if err != nil {
		return nil, err
	}
	t.Limits = limits
	return t, s.Store.UpdateTenant(ctx, t)
}

// CreateKey makes a new key for a tenant (created when missing) and returns it with
// the key itself, which is never shown again.
func (s *Service) CreateKey(ctx context.Context, tenantID, name string) (*koda.APIKey, string, error) {
	name, err := koda.NameText.Check("name", name)
	if err != nil {
		return nil, "", err
	}
	if _, err := s.EnsureTenant(ctx, tenantID, ""); err != nil {
		return nil, "", err
	}
	key := NewKey()
	k := &koda.APIKey{ID: koda.NewID(koda.PrefixAPIKey), TenantID: tenantID, Name: name,
		Prefix: key[:prefixLen], Hash: Hash(key), CreatedAt: s.now()}
	if err := s.Store.CreateAPIKey(ctx, k, s.MaxKeys); err != nil {
		return nil, "", err
	}
	return k, key, nil
}

// ListKeys returns a page of a tenant's keys, revoked ones included, oldest first, and
// the next page's cursor ("" on the last page), paged as every list of the API is
// (koda.PageSize).
func (s *Service) ListKeys(ctx context.Context, tenantID string, q koda.KeyQuery) ([]*koda.APIKey, string, error) {
	size := koda.PageSize(q.Limit)
	ks, err := s.Store.ListAPIKeys(ctx, koda.APIKeyFilter{TenantID: tenantID, AfterID: q.Cursor, Limit: size + 1})
	if err != nil {
		return nil, "", err
	}
	ks, next := koda.Page(ks, size, func(k *koda.APIKey) string { return k.ID })
	return ks, next, nil
}

// RevokeKey revokes a key; tenantID, when set, must own it (else ENOTFOUND).
func (s *Service) RevokeKey(ctx context.Context, tenantID, id string) (*koda.APIKey, error) {
	k, err := s.Store.GetAPIKey(ctx, id)
	if err != nil {
		return nil, err
	}
	if tenantID != "" && k.TenantID != tenantID {
		return nil, koda.NotFound("api key", id)
	}
	if err := s.Store.RevokeAPIKey(ctx, id, s.now()); err != nil {
		return nil, err
	}
	return s.Store.GetAPIKey(ctx, id)
}

// CodeLastActiveKey refuses revoking, with itself, a tenant's last active key.
const CodeLastActiveKey = "LAST_ACTIVE_KEY"

// RevokeOwnKey revokes one of the tenant's keys on the tenant's own request, made with
// the key callerKeyID ("" for a configured key). A key may revoke any key of its
// tenant, itself included, except itself when no other active key would remain: that
// would lock the tenant out with no way back but the admin API (ECONFLICT
// LAST_ACTIVE_KEY). Another tenant's key is ENOTFOUND.
func (s *Service) RevokeOwnKey(ctx context.Context, tenantID, callerKeyID, id string) (*koda.APIKey, error) {
	if id == callerKeyID && callerKeyID != "" {
		keys, err := s.Store.ListAPIKeys(ctx, koda.APIKeyFilter{TenantID: tenantID})
		if err != nil {
			return nil, err
		}
		others := 0
		for _, k := range keys {
			if k.ID != id && k.RevokedAt == nil {
				others++
			}
		}
		if others == 0 {
			return nil, koda.Errorf(koda.ECONFLICT, CodeLastActiveKey,
				"this is the account's last active key and the request is made with it; create another key first")
		}
	}
	return s.RevokeKey(ctx, tenantID, id)
}

// SigningSecrets returns the secrets that sign a tenant's webhooks now, newest first:
// during a rotation both the new and the previous secret sign.
func (s *Service) SigningSecrets(ctx context.Context, tenantID string) ([]string, error) {
	t, err := s.Store.GetTenant(ctx, tenantID)
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return []string{s.DefaultSecret}, nil
	}
	if err != nil {
		return nil, err
	}
	out := t.SigningSecrets(s.now())
	if len(out) == 0 {
		out = []string{s.DefaultSecret}
	}
	return out, nil
}

// RotateSecret gives the tenant a new webhook secret made by gen; the old one keeps
// signing alongside for grace, so receivers can switch without losing an event.
func (s *Service) RotateSecret(ctx context.Context, tenantID string, grace time.Duration, gen func() string) (*koda.Tenant, error) {
	t, err := s.EnsureTenant(ctx, tenantID, "")
	if err != nil {
		return nil, err
	}
	prev := t.WebhookSecret
	if prev == "" {
		prev = s.DefaultSecret
	}
	exp := s.now().Add(grace)
	t.PreviousSecret, t.PreviousExpiresAt = prev, &exp
	if grace <= 0 {
		t.PreviousSecret, t.PreviousExpiresAt = "", nil
	}
	t.WebhookSecret = gen()
	if err := s.Store.UpdateTenant(ctx, t); err != nil {
		return nil, err
	}
	return t, nil
}

// CurrentSecret returns the secret that signs the tenant's webhooks now.
func (s *Service) CurrentSecret(ctx context.Context, tenantID string) (*koda.Tenant, string, error) {
	t, err := s.Store.GetTenant(ctx, tenantID)
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return &koda.Tenant{ID: tenantID}, s.DefaultSecret, nil
	}
	if err != nil {
		return nil, "", err
	}
	if t.WebhookSecret == "" {
		return t, s.DefaultSecret, nil
	}
	return t, t.WebhookSecret, nil
}
