// Package webhook signs and delivers Koda's webhooks per the Standard Webhooks spec
// (DESIGN.md §3.4): a JSON body {type, timestamp, data} POSTed with the headers
// webhook-id, webhook-timestamp and webhook-signature ("v1,<base64 HMAC-SHA256 of
// id.timestamp.body>" keyed by a whsec_ secret).
//
// The package does one HTTP attempt at a time and classifies its outcome; retries,
// their schedule (Schedule) and the record of attempts belong to the webhooks queue.
package webhook

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/kodahq/koda"
)

// DefaultTimeout bounds one delivery attempt.
const DefaultTimeout = 10 * time.Second

// ErrGone is wrapped by Deliver's error when the endpoint answered 410 Gone: the
// receiver asks for no more deliveries, so the delivery must not be retried.
var ErrGone = errors.New("webhook endpoint is gone (HTTP 410)")

// RetryAfterError is Deliver's error when the endpoint answered 429 or 503 with a
// Retry-After header: the next attempt should wait Delay instead of the schedule.
type RetryAfterError struct {
	StatusCode int
	Delay      time.Duration
}

func (e *RetryAfterError) Error() string {
	return fmt.Sprintf("webhook endpoint answered %d, retry after %s", e.StatusCode, e.Delay)
}

// StatusError is Deliver's error for any other non-2xx answer; Body holds the first
// bytes of the answer, which often say why.
type StatusError struct {
	StatusCode int
	Body       string
}

func (e *StatusError) Error() string {
	if e.Body != "" {
		return fmt.Sprintf("webhook endpoint answered %d: %s", e.StatusCode, e.Body)
	}
	return fmt.Sprintf("webhook endpoint answered %d", e.StatusCode)
}

// Sender delivers signed webhooks. It is safe for concurrent use.
type Sender struct {
	wh     *standardwebhooks.Webhook
	client *http.Client
	log    *slog.Logger
	// Timeout bounds one attempt; DefaultTimeout unless changed before first use.
	Timeout time.Duration
	// Secrets, when set, names the secrets signing each tenant's webhooks; every one
	// signs, so a receiver rotating its secret verifies with either. Unset, the
	// secret given to NewSender signs everything.
	Secrets SecretSource

	mu   sync.Mutex
	keys map[string]*standardwebhooks.Webhook
}

// SecretSource returns the whsec_ secrets that sign a tenant's webhooks.
type SecretSource interface {
	SigningSecrets(ctx context.Context, tenantID string) ([]string, error)
}

// sign returns the webhook-signature header: one "v1,<sig>" per secret, space-separated
// as the Standard Webhooks spec allows.
func (s *Sender) sign(ctx context.Context, d *koda.WebhookDelivery, at time.Time) (string, error) {
	if s.Secrets == nil {
		return s.wh.Sign(d.ID, at, d.Payload)
	}
	secrets, err := s.Secrets.SigningSecrets(ctx, d.TenantID)
	if err != nil {
		return "", fmt.Errorf("secrets of tenant %s: %w", d.TenantID, err)
	}
	var sigs []string
	for _, secret := range secrets {
		wh, err := s.webhookFor(secret)
		if err != nil {
			return "", err
		}
		sig, err := wh.Sign(d.ID, at, d.Payload)
		if err != nil {
			return "", err
		}
		sigs = append(sigs, sig)
	}
	if len(sigs) == 0 {
		return s.wh.Sign(d.ID, at, d.Payload)
	}
	return strings.Join(sigs, " "), nil
}

func (s *Sender) webhookFor(secret string) (*standardwebhooks.Webhook, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if wh, ok := s.keys[secret]; ok {
		return wh, nil
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return nil, fmt.Errorf("webhook secret must be whsec_ followed by a base64 key")
	}
	wh, err := standardwebhooks.NewWebhookRaw(key)
	if err != nil {
		return nil, fmt.Errorf("webhook secret: %w", err)
	}
	if s.keys == nil {
		s.keys = map[string]*standardwebhooks.Webhook{}
	}
	s.keys[secret] = wh
	return wh, nil
}

// NewSender returns a sender signing with secret ("whsec_" + base64 key, as made by
// GenerateSecret). A nil client gets one that does not follow redirects: a receiver
// must answer 2xx itself, and a redirect must not carry signed events elsewhere.
func NewSender(secret string, client *http.Client, logger *slog.Logger) (*Sender, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return nil, fmt.Errorf("webhook secret must be whsec_ followed by a base64 key")
	}
	wh, err := standardwebhooks.NewWebhookRaw(key)
	if err != nil {
		return nil, fmt.Errorf("webhook secret: %w", err)
	}
	if client == nil {
		client = &http.Client{
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Sender{wh: wh, client: client, log: logger, Timeout: DefaultTimeout}, nil
}

// Deliver makes one attempt to POST d.Payload to d.URL, signed for d.ID and the
// current time, and returns its record (Attempt = d.Attempts+1). Any 2xx is success.
// Otherwise the error wraps ErrGone (410), is a *RetryAfterError (429/503 with
// Retry-After), a *StatusError (other statuses), a transport or timeout error, or an
// EINVALID *koda.Error for a URL that can never work. The attempt record is returned
// with every outcome except a cancelled ctx.
func (s *Sender) Deliver(ctx context.Context, d *koda.WebhookDelivery) (*koda.WebhookAttempt, error) {
	at := time.Now()
	attempt := &koda.WebhookAttempt{DeliveryID: d.ID, Attempt: d.Attempts + 1, At: at}
	fail := func(err error) (*koda.WebhookAttempt, error) {
		attempt.Error = BoundError(err.Error())
		attempt.DurationMS = time.Since(at).Milliseconds()
		s.log.Info("webhook attempt failed", "delivery_id", d.ID, "attempt", attempt.Attempt,
			"status", attempt.StatusCode, "err", err)
		return attempt, fmt.Errorf("deliver webhook %s: %w", d.ID, err)
	}

	u, err := url.Parse(d.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fail(koda.Errorf(koda.EINVALID, koda.CodeInvalidCallback, "callback URL %q is not an http(s) URL", d.URL))
	}

	sig, err := s.sign(ctx, d, at)
	if err != nil {
		return fail(fmt.Errorf("sign: %w", err))
	}
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	reqCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, d.URL, bytes.NewReader(d.Payload))
	if err != nil {
		return fail(koda.Errorf(koda.EINVALID, koda.CodeInvalidCallback, "callback URL %q: %v", d.URL, err))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Koda-Webhooks/1")
	req.Header.Set(standardwebhooks.HeaderWebhookID, d.ID)
	req.Header.Set(standardwebhooks.HeaderWebhookTimestamp, strconv.FormatInt(at.Unix(), 10))
	req.Header.Set(standardwebhooks.HeaderWebhookSignature, sig)

	resp, err := s.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("deliver webhook %s: %w", d.ID, ctx.Err())
		}
		if reqCtx.Err() != nil {
			return fail(fmt.Errorf("no answer within %s", timeout))
		}
		return fail(err)
	}
	// A little of the body says why a receiver refused; the rest is drained so the
	// connection can be reused.
	snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	attempt.StatusCode = resp.StatusCode

	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		attempt.DurationMS = time.Since(at).Milliseconds()
		s.log.Debug("webhook delivered", "delivery_id", d.ID, "attempt", attempt.Attempt, "status", code)
		return attempt, nil
	case code == http.StatusGone:
		return fail(ErrGone)
	case code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable:
		if delay, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return fail(&RetryAfterError{StatusCode: code, Delay: delay})
		}
	}
	return fail(&StatusError{StatusCode: resp.StatusCode, Body: strings.TrimSpace(string(snippet))})
}

// MaxErrorBytes bounds the error text kept for an attempt (and shown to the tenant as
// the delivery's last_error): enough to say why, never a page of someone's reply.
const MaxErrorBytes = 512

// BoundError cuts s to MaxErrorBytes on a rune boundary and replaces control
// characters, so a receiver's reply cannot fill the database or forge log lines.
func BoundError(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\ufffd"))
	if len(s) <= MaxErrorBytes {
		return s
	}
	cut := MaxErrorBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// parseRetryAfter reads delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, int64(365*24*3600))) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// NewPayload builds the webhook body {"type","timestamp","data"}; the timestamp is
// RFC 3339 in UTC. Nil data is sent as {}.
func NewPayload(typ string, at time.Time, data any) ([]byte, error) {
	if data == nil {
		data = struct{}{}
	}
	b, err := json.Marshal(struct {
		Type      string `json:"type"`
		Timestamp string `json:"timestamp"`
		Data      any    `json:"data"`
	}{typ, at.UTC().Format(time.RFC3339Nano), data})
	if err != nil {
		return nil, fmt.Errorf("webhook payload %s: %w", typ, err)
	}
	return b, nil
}

// GenerateSecret returns a new signing secret: "whsec_" and 32 random bytes in base64.
func GenerateSecret() string {
	var key [32]byte
	_, _ = rand.Read(key[:])
	return "whsec_" + base64.StdEncoding.EncodeToString(key[:])
}
