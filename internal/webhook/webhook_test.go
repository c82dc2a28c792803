package webhook_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/webhook"
)

type received struct {
	header   http.Header
	body     []byte
	verified error
}

// receiver is an endpoint that verifies every request with the official library,
// records it, and answers with respond.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  []received
	wh   *standardwebhooks.Webhook
	resp func(w http.ResponseWriter, r *http.Request)
}

func newReceiver(t *testing.T, secret string, respond func(w http.ResponseWriter, r *http.Request)) *receiver {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	rc := &receiver{wh: wh, resp: respond}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{header: r.Header.Clone(), body: body, verified: rc.wh.Verify(body, r.Header)})
		rc.mu.Unlock()
		if rc.resp != nil {
			rc.resp(w, r)
		}
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

func delivery(t *testing.T, url string) *koda.WebhookDelivery {
	t.Helper()
	payload, err := webhook.NewPayload(koda.WebhookRenderCompleted, time.Now(), koda.RenderView{ID: "rnd_1", Preset: koda.PresetSpec{Name: "youtube"}})
	if err != nil {
		t.Fatal(err)
	}
	return &koda.WebhookDelivery{ID: koda.NewID(koda.PrefixDelivery), URL: url, EventType: koda.WebhookRenderCompleted, Payload: payload}
}

func newSender(t *testing.T, secret string) *webhook.Sender {
	t.Helper()
	s, err := webhook.NewSender(secret, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDeliverSignedPerStandardWebhooks(t *testing.T) {
	secret := webhook.GenerateSecret()
	rc := newReceiver(t, secret, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	s := newSender(t, secret)
	d := delivery(t, rc.URL+"/hooks")

	before := time.Now()
	a, err := s.Deliver(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	if a.DeliveryID != d.ID || a.Attempt != 1 || a.StatusCode != 204 || a.Error != "" || a.DurationMS < 0 || a.At.Before(before.Add(-time.Second)) {
		t.Fatalf("attempt %+v", a)
	}
	d.Attempts = 1
	if a, err := s.Deliver(context.Background(), d); err != nil || a.Attempt != 2 {
		t.Fatalf("second delivery: %+v %v", a, err)
	}

	got := rc.requests()
	if len(got) != 2 {
		t.Fatalf("%d requests", len(got))
	}
	for _, r := range got {
		if r.verified != nil {
			t.Fatalf("official library rejected the signature: %v", r.verified)
		}
		if r.header.Get("webhook-id") != d.ID || r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("headers %v", r.header)
		}
		ts, err := strconv.ParseInt(r.header.Get("webhook-timestamp"), 10, 64)
		if err != nil || time.Since(time.Unix(ts, 0)).Abs() > 5*time.Second {
			t.Fatalf("timestamp %q", r.header.Get("webhook-timestamp"))
		}
		if !strings.HasPrefix(r.header.Get("webhook-signature"), "v1,") {
			t.Fatalf("signature %q", r.header.Get("webhook-signature"))
		}
		if string(r.body) != string(d.Payload) {
			t.Fatalf("body %s", r.body)
		}
	}

	// The check has teeth: another secret, or a changed body or id, does not verify.
	other, _ := standardwebhooks.NewWebhook(webhook.GenerateSecret())
	if err := other.Verify(got[0].body, got[0].header); !errors.Is(err, standardwebhooks.ErrNoMatchingSignature) {
		t.Fatalf("verified with a wrong secret: %v", err)
	}
	wh, _ := standardwebhooks.NewWebhook(secret)
	if err := wh.Verify(append(got[0].body, ' '), got[0].header); err == nil {
		t.Fatal("verified a changed body")
	}
	h := got[0].header.Clone()
	h.Set("webhook-id", "msg_other")
	if err := wh.Verify(got[0].body, h); err == nil {
		t.Fatal("verified under another id")
	}
}

func TestDeliverFailures(t *testing.T) {
	secret := webhook.GenerateSecret()
	s := newSender(t, secret)
	ctx := context.Background()

	gone := newReceiver(t, secret, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	a, err := s.Deliver(ctx, delivery(t, gone.URL))
	if !errors.Is(err, webhook.ErrGone) || a.StatusCode != 410 || a.Error == "" {
		t.Fatalf("410: %+v %v", a, err)
	}

	limited := newReceiver(t, secret, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	a, err = s.Deliver(ctx, delivery(t, limited.URL))
	var ra *webhook.RetryAfterError
	if !errors.As(err, &ra) || ra.Delay != 120*time.Second || ra.StatusCode != 429 || a.StatusCode != 429 {
		t.Fatalf("429: %+v %v", a, err)
	}

	unavailable := newReceiver(t, secret, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", time.Now().Add(90*time.Second).UTC().Format(http.TimeFormat))
		w.WriteHeader(http.StatusServiceUnavailable)
	})
	_, err = s.Deliver(ctx, delivery(t, unavailable.URL))
	if !errors.As(err, &ra) || ra.Delay < 85*time.Second || ra.Delay > 91*time.Second {
		t.Fatalf("503 with date: %v", err)
	}

	broken := newReceiver(t, secret, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "soon")
		http.Error(w, "database is down", http.StatusServiceUnavailable)
	})
	a, err = s.Deliver(ctx, delivery(t, broken.URL))
	var se *webhook.StatusError
	if !errors.As(err, &se) || se.StatusCode != 503 || errors.As(err, &ra) || errors.Is(err, webhook.ErrGone) {
		t.Fatalf("503 without usable Retry-After: %v", err)
	}
	if !strings.Contains(a.Error, "database is down") {
		t.Fatalf("attempt error %q does not say why", a.Error)
	}

	redirect := newReceiver(t, secret, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, gone.URL, http.StatusFound)
	})
	_, err = s.Deliver(ctx, delivery(t, redirect.URL))
	if !errors.As(err, &se) || se.StatusCode != 302 {
		t.Fatalf("redirect followed or misread: %v", err)
	}
	if n := len(gone.requests()); n != 1 {
		t.Fatalf("redirect target got %d requests", n)
	}

	// Nothing listens on a port just closed.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	a, err = s.Deliver(ctx, delivery(t, "http://"+addr+"/hook"))
	if err == nil || a.StatusCode != 0 || !strings.Contains(a.Error, "refused") {
		t.Fatalf("connection refused: %+v %v", a, err)
	}

	for _, u := range []string{"ftp://example.com/x", "file:///etc/passwd", "not a url", "http://"} {
		a, err = s.Deliver(ctx, delivery(t, u))
		if koda.ErrorCode(err) != koda.CodeInvalidCallback || koda.ErrorKind(err) != koda.EINVALID || a == nil {
			t.Fatalf("%q: %v", u, err)
		}
	}
}

func TestDeliverTimeout(t *testing.T) {
	secret := webhook.GenerateSecret()
	slow := newReceiver(t, secret, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	s := newSender(t, secret)
	s.Timeout = 200 * time.Millisecond
	began := time.Now()
	a, err := s.Deliver(context.Background(), delivery(t, slow.URL))
	if err == nil || a.StatusCode != 0 || !strings.Contains(a.Error, "no answer within 200ms") {
		t.Fatalf("timeout: %+v %v", a, err)
	}
	if d := time.Since(began); d > 2*time.Second || a.DurationMS < 200 {
		t.Fatalf("timeout took %s (attempt says %d ms)", d, a.DurationMS)
	}

	// A cancelled caller (worker shutdown) is not an attempt.
	s.Timeout = 5 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	a, err = s.Deliver(ctx, delivery(t, slow.URL))
	if !errors.Is(err, context.DeadlineExceeded) || a != nil {
		t.Fatalf("cancelled: %+v %v", a, err)
	}
}

func TestNewSenderSecret(t *testing.T) {
	for _, bad := range []string{"", "whsec_", "whsec_!!!not base64"} {
		if _, err := webhook.NewSender(bad, nil, nil); err == nil {
			t.Errorf("secret %q accepted", bad)
		}
	}
	a, b := webhook.GenerateSecret(), webhook.GenerateSecret()
	if a == b || !strings.HasPrefix(a, "whsec_") {
		t.Fatalf("secrets %q %q", a, b)
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(a, "whsec_"))
	if err != nil || len(key) != 32 {
		t.Fatalf("key %d bytes, %v", len(key), err)
	}
}

func TestNewPayload(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 30, 0, 500_000_000, time.FixedZone("CET", 3600))
	b, err := webhook.NewPayload(koda.WebhookPhaseChanged, at, map[string]string{"project_id": "prj_1", "phase": "preview"})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Type      string            `json:"type"`
		Timestamp string            `json:"timestamp"`
		Data      map[string]string `json:"data"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	ts, err := time.Parse(time.RFC3339, got.Timestamp)
	if err != nil || !ts.Equal(at) || got.Type != "project.phase_changed" || got.Data["phase"] != "preview" {
		t.Fatalf("payload %s", b)
	}
	if got.Timestamp != "2026-03-01T11:30:00.5Z" {
		t.Fatalf("timestamp %q not UTC RFC 3339", got.Timestamp)
	}
	b, err = webhook.NewPayload(koda.WebhookBatchCompleted, at, nil)
	if err != nil || !strings.Contains(string(b), `"data":{}`) {
		t.Fatalf("nil data: %s %v", b, err)
	}
	if _, err := webhook.NewPayload("x", at, func() {}); err == nil {
		t.Fatal("unencodable data accepted")
	}
}

func TestSchedule(t *testing.T) {
	want := []time.Duration{0, 5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour, 10 * time.Hour, 10 * time.Hour, 10 * time.Hour}
	seen := map[time.Duration]bool{}
	for i := 0; i < 50; i++ {
		for n, w := range want {
			got := webhook.DefaultSchedule().Delay(n + 1)
			lo, hi := time.Duration(float64(w)*0.9), time.Duration(float64(w)*1.1)
			if got < lo || got > hi {
				t.Fatalf("Backoff(%d) = %s, want %s ±10%%", n+1, got, w)
			}
			if n == 2 {
				seen[got] = true
			}
		}
	}
	if len(seen) < 10 {
		t.Fatalf("no jitter: %d distinct delays in 50 draws", len(seen))
	}
	if webhook.DefaultSchedule().Delay(0) != 0 || webhook.DefaultSchedule().Delay(-3) != 0 {
		t.Fatal("attempts below 1 are the first attempt")
	}

	def := webhook.DefaultSchedule()
	if def.Exhausted(7) || !def.Exhausted(8) {
		t.Fatal("default schedule is 8 attempts")
	}

	fast := webhook.Schedule{Base: []time.Duration{0, 10 * time.Millisecond, 20 * time.Millisecond}}
	for n, w := range []time.Duration{0, 10 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond} {
		if got := fast.Delay(n + 1); got != w {
			t.Fatalf("fast.Delay(%d) = %s, want %s", n+1, got, w)
		}
	}
	if fast.Exhausted(2) || !fast.Exhausted(3) {
		t.Fatal("a schedule without MaxAttempts allows one attempt per delay")
	}
	if (webhook.Schedule{}).Delay(2) < 4*time.Second || (webhook.Schedule{}).Exhausted(7) || !(webhook.Schedule{}).Exhausted(8) {
		t.Fatal("an empty schedule is the default one")
	}

	// The configured policy: delays before each retry, the last repeating, and a count.
	conf := webhook.NewSchedule([]time.Duration{time.Second, 2 * time.Second}, 5)
	for n, w := range []time.Duration{time.Second, 2 * time.Second, 2 * time.Second} {
		if got := conf.RetryDelay(n, errors.New("500")); got < w*9/10 || got > w*11/10 {
			t.Fatalf("retry %d waits %s, want %s ±10%%", n, got, w)
		}
	}
	if conf.Exhausted(4) || !conf.Exhausted(5) {
		t.Fatal("configured attempts not honoured")
	}
	if got := conf.RetryDelay(0, &webhook.RetryAfterError{Delay: time.Minute}); got != time.Minute {
		t.Fatalf("Retry-After ignored: %s", got)
	}
	if webhook.NewSchedule(nil, 0).Exhausted(7) || !webhook.NewSchedule(nil, 0).Exhausted(8) {
		t.Fatal("unconfigured policy is not the default")
	}
	if !webhook.NewSchedule(nil, 1000).Exhausted(webhook.MaxAttempts) {
		t.Fatal("attempts above the ceiling accepted")
	}
}

func TestBoundErrorCutsAndCleans(t *testing.T) {
	long := strings.Repeat("é", webhook.MaxErrorBytes) // two bytes each
	got := webhook.BoundError("answered 500: " + long + "\nforged: line\x00")
	if len(got) > webhook.MaxErrorBytes+len("…") || !utf8.ValidString(got) || strings.ContainsAny(got, "\n\x00") {
		t.Fatalf("bounded error: %d bytes, valid %v: %q", len(got), utf8.ValidString(got), got[:40])
	}
	if webhook.BoundError("short\r\nreply") != "short  reply" {
		t.Fatalf("%q", webhook.BoundError("short\r\nreply"))
	}
}
