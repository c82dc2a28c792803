package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/api"
	"github.com/kodahq/koda/internal/assets"
	"github.com/kodahq/koda/internal/events"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/internal/live"
	"github.com/kodahq/koda/internal/ssrf"
	"github.com/kodahq/koda/internal/storage"
	"github.com/kodahq/koda/internal/store"
	"github.com/kodahq/koda/internal/tasks"
	"github.com/kodahq/koda/internal/tenant"
	"github.com/kodahq/koda/internal/webhook"
	"github.com/kodahq/koda/jobs"
)

const adminKey = "admin-key-for-api-tests-0123"

// bundle is a real API over a real SQLite store and a real asynq queue (no workers:
// tests drive the system actions of the lifecycle themselves).
type bundle struct {
	t       *testing.T
	store   *store.Store
	life    *lifecycle.Service
	tenants *tenant.Service
	server  *api.Server
	storage koda.Storage
	insp    *asynq.Inspector
	keys    map[string]string // tenant → key
	check   *specChecker
}

type eventSource struct {
	*store.Store
	*events.Broker
}

func setup(t *testing.T) *bundle {
	t.Helper()
	return setupWith(t, storage.NewLocal(filepath.Join(t.TempDir(), "storage"), "http://files.test", []byte("signing")))
}

// setupWith is setup on the given storage.
func setupWith(t *testing.T, stor koda.Storage) *bundle {
	t.Helper()
	st := kodatest.MustOpenDB(t)
	opts, err := redis.ParseURL(kodatest.MustRedis(t, kodatest.DBAPI))
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	insp := asynq.NewInspectorFromRedisClient(rdb)
	broker := events.NewBroker()
	life := &lifecycle.Service{Store: st, Queue: jobs.NewClient(asynq.NewClientFromRedisClient(rdb)), Storage: stor,
		Notify: broker.Publish, Tasks: tasks.New(insp), Callbacks: &ssrf.Guard{}, Assets: st, Brands: st}
	ten := &tenant.Service{Store: st, DefaultSecret: webhook.GenerateSecret(), NewSecret: webhook.GenerateSecret}
	srv := &api.Server{Projects: life, Brand: life, Events: eventSource{st, broker}, Idempotency: st, Auth: ten, Tenants: ten,
		TenantReader: st, AdminKey: adminKey, NewSecret: webhook.GenerateSecret, Storage: stor, EventPoll: 50 * time.Millisecond,
		Live:   &live.Preview{Secret: []byte("signing"), Storage: stor, WorkDir: filepath.Join(t.TempDir(), "live")},
		Assets: &assets.Service{Store: st, Storage: stor, Tenants: st, TempDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)}}
	b := &bundle{t: t, store: st, life: life, tenants: ten, server: srv, storage: stor, insp: insp,
		keys: map[string]string{}, check: newSpecChecker(t)}
	for _, id := range []string{"acme", "globex"} {
		_, key, err := ten.CreateKey(context.Background(), id, "tests")
		if err != nil {
			t.Fatal(err)
		}
		b.keys[id] = key
	}
	return b
}

type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r response) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %d %s: %v", r.Status, r.Body, err)
	}
}

func (r response) code() string {
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	_ = json.Unmarshal(r.Body, &e)
	return e.Error.Code
}

// do sends a request as a tenant ("" for no Authorization header, "admin" for the
// admin key) and checks request and response against the OpenAPI document.
func (b *bundle) do(who, method, path string, body any, hdr ...string) response {
	b.t.Helper()
	var raw []byte
	switch v := body.(type) {
	case nil:
	case string:
		raw = []byte(v)
	default:
		raw, _ = json.Marshal(v)
	}
	req := httptest.NewRequest(method, path, bytes.NewReader(raw))
	if raw != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	switch who {
	case "":
	case "admin":
		req.Header.Set("Authorization", "Bearer "+adminKey)
	default:
		key, ok := b.keys[who]
		if !ok {
			key = who // a raw header value
			req.Header.Set("Authorization", key)
		} else {
			req.Header.Set("Authorization", "Bearer "+key)
		}
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := b.server.App().Test(req, -1)
	if err != nil {
		b.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	r := response{Status: resp.StatusCode, Header: resp.Header, Body: out}
	b.check.check(method, path, raw, req.Header, r)
	return r
}

// publicHook is a callback URL the SSRF guard accepts without DNS.
const publicHook = "http://93.184.216.34/hooks"

type projectJSON struct {
	ID    string `json:"id"`
	Phase string `json:"phase"`
}

func (b *bundle) create(who string, body map[string]any) projectJSON {
	b.t.Helper()
	if body == nil {
		body = map[string]any{"prompt": "a smooth blue ball glides", "duration_s": 1, "auto_approve": true}
	}
	r := b.do(who, http.MethodPost, "/v1/projects", body)
	if r.Status != http.StatusAccepted {
		b.t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var p projectJSON
	r.decode(b.t, &p)
	return p
}

// complete drives an auto-approved project to phase complete through the system
// actions the workers would call, and returns its approval batch.
func (b *bundle) complete(tenantID, id string) *koda.Batch {
	b.t.Helper()
	ctx := context.Background()
	plan := &koda.Plan{Title: "t", Style: koda.StyleSmooth, DurationS: 1,
		Scenes: []koda.Scene{{ID: "s1", Name: "s", StartS: 0, EndS: 1}}, Todos: []koda.Todo{{ID: "t1", Title: "x", Status: koda.TodoPending}}}
	p, err := b.life.Planned(ctx, id, 1, nil, plan)
	if err != nil {
		b.t.Fatal(err)
	}
	if p.Phase == koda.PhasePlan {
		if p, err = b.life.ApprovePlan(ctx, id); err != nil {
			b.t.Fatal(err)
		}
	}
	if p, err = b.life.CodegenDone(ctx, id, p.Step, nil, []koda.FileInfo{{Path: "index.html", SizeBytes: 10}}, ""); err != nil {
		b.t.Fatal(err)
	}
	rs, _ := b.store.ListRenders(ctx, koda.RenderFilter{ProjectID: id})
	prev := rs[len(rs)-1]
	b.finish(prev.ID, nil)
	if p, err = b.life.PreviewRendered(ctx, id, p.Step, prev.ID); err != nil {
		b.t.Fatal(err)
	}
	if p.Phase == koda.PhasePreview {
		if _, _, err = b.life.ApprovePreview(ctx, id, nil); err != nil {
			b.t.Fatal(err)
		}
	}
	rs, _ = b.store.ListRenders(ctx, koda.RenderFilter{ProjectID: id})
	for _, r := range rs {
		if r.Kind == koda.RenderFinal && !r.Status.Done() {
			b.finish(r.ID, nil)
		}
	}
	got, err := b.store.GetProject(ctx, id)
	if err != nil || got.Phase != koda.PhaseComplete {
		b.t.Fatalf("project %s not complete: %v %v", id, got.Phase, err)
	}
	for _, r := range rs {
		if r.BatchID != "" {
			bt, _ := b.store.GetBatch(ctx, r.BatchID)
			return bt
		}
	}
	return nil
}

func (b *bundle) finish(renderID string, cause error) {
	b.t.Helper()
	ctx := context.Background()
	if _, _, err := b.life.StartRender(ctx, renderID); err != nil {
		b.t.Fatal(err)
	}
	if _, err := b.life.FinishRender(ctx, renderID, lifecycle.RenderOutput{VideoKey: "projects/x/v.mp4", Frames: 5}, cause); err != nil {
		b.t.Fatal(err)
	}
}

func TestAuthRequiresValidKeys(t *testing.T) {
	b := setup(t)
	for name, hdr := range map[string]string{
		"missing": "", "not bearer": "Basic YWxhZGRpbjpvcGVu", "no koda_ prefix": "Bearer abc",
		"unknown key": "Bearer koda_thisisnotakeyweissued000000", "empty bearer": "Bearer ",
	} {
		who := hdr
		if hdr == "" {
			who = ""
		}
		r := b.do(who, http.MethodGet, "/v1/projects", nil)
		if r.Status != http.StatusUnauthorized || r.code() != koda.CodeUnauthorized {
			t.Errorf("%s: %d %s, want 401 UNAUTHORIZED", name, r.Status, r.Body)
		}
	}
	if r := b.do("acme", http.MethodGet, "/v1/projects", nil); r.Status != 200 {
		t.Fatalf("valid key: %d %s", r.Status, r.Body)
	}

	// The admin API: its own key, keys shown once, revocation effective at once.
	if r := b.do("acme", http.MethodGet, "/admin/tenants", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("admin API with a tenant key: %d", r.Status)
	}
	r := b.do("admin", http.MethodPost, "/admin/tenants/acme/keys", map[string]any{"name": "ci"})
	var k struct {
		ID, Key, Prefix string
	}
	r.decode(t, &k)
	if r.Status != http.StatusCreated || !strings.HasPrefix(k.Key, "koda_") || !strings.HasPrefix(k.Key, k.Prefix) {
		t.Fatalf("create key: %d %s", r.Status, r.Body)
	}
	b.keys["acme-ci"] = k.Key
	if r := b.do("acme-ci", http.MethodGet, "/v1/projects", nil); r.Status != 200 {
		t.Fatalf("new key: %d", r.Status)
	}
	r = b.do("admin", http.MethodGet, "/admin/tenants/acme/keys", nil)
	if bytes.Contains(r.Body, []byte(k.Key)) || !bytes.Contains(r.Body, []byte(k.Prefix)) {
		t.Errorf("key list shows the key or misses its prefix: %s", r.Body)
	}
	var stored []*koda.APIKey
	stored, _ = b.store.ListAPIKeys(context.Background(), koda.APIKeyFilter{TenantID: "acme"})
	for _, s := range stored {
		if strings.Contains(s.Hash, k.Key) || s.Hash == k.Key || len(s.Hash) != 64 {
			t.Errorf("key stored in clear or not as SHA-256: %+v", s)
		}
	}
	if r := b.do("admin", http.MethodPost, "/admin/tenants/globex/keys/"+k.ID+"/revoke", nil); r.Status != 404 {
		t.Errorf("revoking acme's key as globex's: %d", r.Status)
	}
	if r := b.do("admin", http.MethodPost, "/admin/tenants/acme/keys/"+k.ID+"/revoke", nil); r.Status != 200 {
		t.Fatalf("revoke: %d %s", r.Status, r.Body)
	}
	if r := b.do("acme-ci", http.MethodGet, "/v1/projects", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("revoked key: %d %s", r.Status, r.Body)
	}
}

// TestCrossTenantAccessIsNotFound tries every resource of one tenant with another
// tenant's key: every answer is 404 and names nothing of the resource.
func TestCrossTenantAccessIsNotFound(t *testing.T) {
	b := setup(t)
	p := b.create("acme", map[string]any{"prompt": "a secret red ball bounces", "duration_s": 1,
		"auto_approve": true, "callback_url": publicHook})
	batch := b.complete("acme", p.ID)
	ctx := context.Background()
	rs, _ := b.store.ListRenders(ctx, koda.RenderFilter{ProjectID: p.ID})
	var renderID string
	for _, r := range rs {
		if r.Kind == koda.RenderFinal {
			renderID = r.ID
		}
	}
	ds, _ := b.store.ListDeliveries(ctx, koda.DeliveryFilter{TenantID: "acme"})
	if len(ds) == 0 || batch == nil || renderID == "" {
		t.Fatalf("setup: %d deliveries, batch %v, render %q", len(ds), batch, renderID)
	}
	cases := []struct{ method, path string }{
		{"GET", "/v1/projects/" + p.ID},
		{"DELETE", "/v1/projects/" + p.ID},
		{"POST", "/v1/projects/" + p.ID + "/answer"},
		{"POST", "/v1/projects/" + p.ID + "/plan/approve"},
		{"POST", "/v1/projects/" + p.ID + "/plan/reject"},
		{"POST", "/v1/projects/" + p.ID + "/preview/approve"},
		{"POST", "/v1/projects/" + p.ID + "/feedback"},
		{"POST", "/v1/projects/" + p.ID + "/retry"},
		{"POST", "/v1/projects/" + p.ID + "/renders"},
		{"GET", "/v1/projects/" + p.ID + "/renders"},
		{"GET", "/v1/projects/" + p.ID + "/events?offset=0"},
		{"GET", "/v1/projects/" + p.ID + "/events"},
		{"POST", "/v1/projects/" + p.ID + "/messages"},
		{"GET", "/v1/projects/" + p.ID + "/messages"},
		{"POST", "/v1/projects/" + p.ID + "/live"},
		{"GET", "/v1/renders/" + renderID},
		{"POST", "/v1/renders/" + renderID + "/retry"},
		{"GET", "/v1/batches/" + batch.ID},
		{"POST", "/v1/batches/" + batch.ID + "/cancel"},
		{"POST", "/v1/batches"},
		{"GET", "/v1/webhook-deliveries/" + ds[0].ID},
		{"POST", "/v1/webhook-deliveries/" + ds[0].ID + "/redeliver"},
	}
	bodies := map[string]any{
		"/answer": map[string]any{"option_id": "smooth"}, "/plan/reject": map[string]any{"feedback": "no"},
		"/feedback": map[string]any{"message": "bluer"}, "/messages": map[string]any{"text": "bluer"}, "/renders": map[string]any{"presets": []string{"720p"}},
		"/v1/batches": map[string]any{"project_ids": []string{p.ID}, "presets": []string{"720p"}},
	}
	for _, tc := range cases {
		var body any
		for suffix, v := range bodies {
			if strings.HasSuffix(tc.path, suffix) {
				body = v
			}
		}
		r := b.do("globex", tc.method, tc.path, body)
		if r.Status != http.StatusNotFound || r.code() != koda.CodeNotFound {
			t.Errorf("globex %s %s: %d %s, want 404", tc.method, tc.path, r.Status, r.Body)
		}
		if bytes.Contains(r.Body, []byte("secret red ball")) || bytes.Contains(r.Body, []byte(`"phase":"complete"`)) {
			t.Errorf("globex %s %s leaked data: %s", tc.method, tc.path, r.Body)
		}
	}
	for _, path := range []string{"/v1/projects", "/v1/webhook-deliveries", "/v1/usage"} {
		r := b.do("globex", "GET", path, nil)
		if r.Status != 200 || bytes.Contains(r.Body, []byte(p.ID)) || bytes.Contains(r.Body, []byte(ds[0].ID)) {
			t.Errorf("globex GET %s: %d %s", path, r.Status, r.Body)
		}
	}
	// Nothing changed for acme.
	if r := b.do("acme", "GET", "/v1/projects/"+p.ID, nil); r.Status != 200 || !bytes.Contains(r.Body, []byte(`"phase":"complete"`)) {
		t.Errorf("acme's project after globex's attempts: %d %s", r.Status, r.Body)
	}
}

func TestUsageLimitsAnswer429(t *testing.T) {
	b := setup(t)
	if r := b.do("admin", "PUT", "/admin/tenants/acme/limits", map[string]any{"concurrent_projects": 1, "renders_per_day": 3}); r.Status != 200 {
		t.Fatalf("set limits: %d %s", r.Status, r.Body)
	}
	first := b.create("acme", nil)
	r := b.do("acme", "POST", "/v1/projects", map[string]any{"prompt": "another ball"})
	if r.Status != http.StatusTooManyRequests || r.code() != koda.CodeLimitProjects || r.Header.Get("Retry-After") == "" {
		t.Fatalf("second project in flight: %d %s retry-after %q", r.Status, r.Body, r.Header.Get("Retry-After"))
	}
	if r := b.do("globex", "POST", "/v1/projects", map[string]any{"prompt": "globex has no limit"}); r.Status != 202 {
		t.Errorf("another tenant is limited too: %d", r.Status)
	}
	b.complete("acme", first.ID) // one final render today ("final")
	r = b.do("acme", "POST", "/v1/projects/"+first.ID+"/renders", map[string]any{"presets": []string{"720p", "tiktok", "twitter"}})
	if r.Status != http.StatusTooManyRequests || r.code() != koda.CodeLimitRendersPerDay || r.Header.Get("Retry-After") == "" {
		t.Fatalf("renders over the daily limit: %d %s", r.Status, r.Body)
	}
	if r := b.do("acme", "POST", "/v1/projects/"+first.ID+"/renders", map[string]any{"presets": []string{"720p", "tiktok"}}); r.Status != 202 {
		t.Fatalf("renders within the daily limit: %d %s", r.Status, r.Body)
	}
	// Render time this month.
	if r := b.do("admin", "PUT", "/admin/tenants/acme/limits", map[string]any{"render_seconds_per_month": 10}); r.Status != 200 {
		t.Fatal(r.Status)
	}
	if err := b.store.AddUsage(context.Background(), &koda.UsageRecord{TenantID: "acme", Kind: koda.RenderFinal, RenderSeconds: 11}); err != nil {
		t.Fatal(err)
	}
	r = b.do("acme", "POST", "/v1/projects/"+first.ID+"/renders", map[string]any{"presets": []string{"720p"}})
	if r.Status != http.StatusTooManyRequests || r.code() != koda.CodeLimitRenderSeconds {
		t.Fatalf("render seconds over the monthly limit: %d %s", r.Status, r.Body)
	}
	var u struct {
		RendersToday int `json:"renders_today"`
		Month        struct {
			Finished struct {
				Renders       int     `json:"renders"`
				Frames        int     `json:"frames"`
				RenderSeconds float64 `json:"render_seconds"`
			} `json:"finished"`
		} `json:"month"`
		Limits koda.Limits `json:"limits"`
	}
	b.do("acme", "GET", "/v1/usage", nil).decode(t, &u)
	if u.RendersToday != 3 || u.Month.Finished.Renders != 2 || u.Month.Finished.Frames != 5 || u.Month.Finished.RenderSeconds < 11 || u.Limits.RenderSecondsPerMonth != 10 {
		t.Errorf("usage: %+v", u)
	}
}

// usagePeriod is the period part of GET /v1/usage.
type usagePeriod struct {
	From  time.Time `json:"from"`
	To    time.Time `json:"to"`
	Final struct {
		Renders       int     `json:"renders"`
		Frames        int     `json:"frames"`
		RenderSeconds float64 `json:"render_seconds"`
	} `json:"final"`
	Preview struct {
		Renders int `json:"renders"`
	} `json:"preview"`
	Hours []struct {
		Hour          time.Time `json:"hour"`
		Kind          string    `json:"kind"`
		Renders       int       `json:"renders"`
		RenderSeconds float64   `json:"render_seconds"`
	} `json:"hours"`
}

// TestUsageReadsHourlyAggregates: GET /v1/usage answers a period by the hour from the
// aggregates the maintenance job rolls up plus the records not rolled yet, so it is
// current before and after a run; a tenant sees only its own usage.
func TestUsageReadsHourlyAggregates(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	add := func(tenant string, kind koda.RenderKind, at time.Time, secs float64) {
		t.Helper()
		if err := b.store.AddUsage(ctx, &koda.UsageRecord{TenantID: tenant, Kind: kind, Frames: 30, RenderSeconds: secs, At: at}); err != nil {
			t.Fatal(err)
		}
	}
	add("acme", koda.RenderFinal, day.Add(10*time.Hour+5*time.Minute), 2)
	add("acme", koda.RenderFinal, day.Add(10*time.Hour+50*time.Minute), 3)
	add("acme", koda.RenderPreview, day.Add(10*time.Hour+20*time.Minute), 1)
	add("acme", koda.RenderFinal, day.Add(13*time.Hour), 4)
	add("acme", koda.RenderFinal, day.Add(-time.Minute), 100) // the day before
	add("globex", koda.RenderFinal, day.Add(10*time.Hour), 50)
	path := "/v1/usage?from=2026-03-01&to=2026-03-02T00:00:00Z"
	read := func(who string) usagePeriod {
		t.Helper()
		var u struct {
			Period usagePeriod `json:"period"`
		}
		b.do(who, "GET", path, nil).decode(t, &u)
		return u.Period
	}
	check := func(when string, wantSecs float64, wantRenders int) {
		// All but one of acme's finals are in hour 10.
		t.Helper()
		p := read("acme")
		if !p.From.Equal(day) || !p.To.Equal(day.Add(24*time.Hour)) {
			t.Errorf("%s: period %s – %s", when, p.From, p.To)
		}
		if p.Final.Renders != wantRenders || p.Final.RenderSeconds != wantSecs || p.Final.Frames != 30*wantRenders || p.Preview.Renders != 1 {
			t.Errorf("%s: acme's period %+v, want %d finals of %v s", when, p, wantRenders, wantSecs)
		}
		if len(p.Hours) != 3 || !p.Hours[0].Hour.Equal(day.Add(10*time.Hour)) || p.Hours[0].Kind != "final" ||
			p.Hours[0].Renders != wantRenders-1 || p.Hours[1].Kind != "preview" || !p.Hours[2].Hour.Equal(day.Add(13*time.Hour)) {
			t.Errorf("%s: acme's hours %+v", when, p.Hours)
		}
		g := read("globex")
		if g.Final.Renders != 1 || g.Final.RenderSeconds != 50 || len(g.Hours) != 1 {
			t.Errorf("%s: globex's period %+v", when, g)
		}
	}
	check("before the roll-up", 9, 3)
	if n, err := b.life.AggregateUsage(ctx); err != nil || n != 4 {
		t.Fatalf("roll-up: %d tenant-hours, %v; want 4", n, err)
	}
	check("after the roll-up", 9, 3)
	add("acme", koda.RenderFinal, day.Add(10*time.Hour+40*time.Minute), 6) // late for hour 10
	check("with a late record", 15, 4)
	if _, err := b.life.AggregateUsage(ctx); err != nil {
		t.Fatal(err)
	}
	check("after rolling the late record", 15, 4)
	if n, err := b.life.AggregateUsage(ctx); err != nil || n != 0 {
		t.Fatalf("a run with nothing new recomputed %d tenant-hours (%v)", n, err)
	}
	check("after a run with nothing new", 15, 4)

	// Without from and to: this month so far, as whole hours.
	var u struct {
		Period usagePeriod `json:"period"`
	}
	b.do("acme", "GET", "/v1/usage", nil).decode(t, &u)
	now := time.Now().UTC()
	if !u.Period.From.Equal(time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)) || !u.Period.To.After(now) || u.Period.Hours == nil {
		t.Errorf("default period: %+v", u.Period)
	}
}

func TestUsageRejectsBadPeriods(t *testing.T) {
	b := setup(t)
	for _, q := range []string{
		"from=yesterday",
		"to=2026-03-01T10:30:00Z",             // not a whole hour
		"from=2026-03-01T10:00:00.5Z",         // nor this
		"from=2026-03-02&to=2026-03-01",       // backwards
		"from=2026-03-01&to=2026-03-01",       // empty
		"from=2024-01-01&to=2026-01-01",       // too long
		"from=2026-03-01T10:00:00%2B05:30&to", // a whole hour, but not in UTC
	} {
		r := b.do("acme", "GET", "/v1/usage?"+q, nil)
		if r.Status != http.StatusBadRequest || r.code() != koda.CodeInvalidRequest {
			t.Errorf("%s: %d %s", q, r.Status, r.Body)
		}
	}
	if r := b.do("acme", "GET", "/v1/usage?from=2026-03-01T10:00:00%2B01:00&to=2026-03-01T12:00:00Z", nil); r.Status != 200 {
		t.Errorf("an offset on a whole UTC hour: %d %s", r.Status, r.Body)
	}
}

func TestIdempotencyKeyIsRaceSafe(t *testing.T) {
	b := setup(t)
	body := map[string]any{"prompt": "a smooth, minimal ball glides", "duration_s": 2}
	const n = 8
	var wg sync.WaitGroup
	ids := make([]string, n)
	statuses := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := b.do("acme", "POST", "/v1/projects", body, "Idempotency-Key", "same-key")
			var p projectJSON
			_ = json.Unmarshal(r.Body, &p)
			ids[i], statuses[i] = p.ID, r.Status
		}()
	}
	wg.Wait()
	for i := range n {
		if statuses[i] != 202 || ids[i] == "" || ids[i] != ids[0] {
			t.Fatalf("concurrent request %d: %d %q (first %q)", i, statuses[i], ids[i], ids[0])
		}
	}
	ps, _ := b.store.ListProjects(context.Background(), koda.ProjectFilter{})
	if len(ps) != 1 {
		t.Fatalf("%d projects stored for one Idempotency-Key", len(ps))
	}
	if r := b.do("acme", "POST", "/v1/projects", map[string]any{"prompt": "other"}, "Idempotency-Key", "same-key"); r.Status != 422 || r.code() != koda.CodeIdempotencyReuse {
		t.Errorf("same key, other body: %d %s", r.Status, r.Body)
	}
	// Keys are per tenant: globex's same key is a new request.
	if r := b.do("globex", "POST", "/v1/projects", body, "Idempotency-Key", "same-key"); r.Status != 202 || bytes.Contains(r.Body, []byte(ids[0])) {
		t.Errorf("another tenant's same key: %d %s", r.Status, r.Body)
	}
	// A failed request releases its key: the fixed request may reuse it.
	if r := b.do("acme", "POST", "/v1/projects/"+ids[0]+"/feedback", map[string]any{"message": "x"}, "Idempotency-Key", "k2"); r.Status != 409 {
		t.Fatalf("feedback in idle: %d", r.Status)
	}
	if r := b.do("acme", "POST", "/v1/projects", map[string]any{"prompt": "fine"}, "Idempotency-Key", "k2"); r.Status != 202 {
		t.Errorf("key reused after a failure: %d %s", r.Status, r.Body)
	}
	// Every POST honours the key.
	bt := b.complete("acme", ids[0])
	_ = bt
	r1 := b.do("acme", "POST", "/v1/projects/"+ids[0]+"/renders", map[string]any{"presets": []string{"720p"}}, "Idempotency-Key", "r1")
	r2 := b.do("acme", "POST", "/v1/projects/"+ids[0]+"/renders", map[string]any{"presets": []string{"720p"}}, "Idempotency-Key", "r1")
	if r1.Status != 202 || !bytes.Equal(r1.Body, r2.Body) || r2.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("renders replay: %d %s / %s", r1.Status, r1.Body, r2.Body)
	}
}

func TestCallbackURLsToInternalAddressesAreRefused(t *testing.T) {
	b := setup(t)
	for _, u := range []string{
		"http://127.0.0.1:8080/hook", "http://10.0.0.1/hook", "http://169.254.169.254/latest/meta-data/",
		"http://localhost:9000/hook", "http://[::1]/hook", "http://192.168.1.1/", "http://[fd00:ec2::254]/",
		"http://0.0.0.0/", "http://[::ffff:127.0.0.1]/",
	} {
		r := b.do("acme", "POST", "/v1/projects", map[string]any{"prompt": "a ball", "callback_url": u})
		if r.Status != 422 || r.code() != koda.CodeCallbackForbidden {
			t.Errorf("%s: %d %s, want 422 %s", u, r.Status, r.Body, koda.CodeCallbackForbidden)
		}
	}
	if ps, _ := b.store.ListProjects(context.Background(), koda.ProjectFilter{}); len(ps) != 0 {
		t.Errorf("%d projects stored for refused callback URLs", len(ps))
	}
	if r := b.do("acme", "POST", "/v1/projects", map[string]any{"prompt": "a ball", "callback_url": publicHook}); r.Status != 202 {
		t.Errorf("public callback refused: %d %s", r.Status, r.Body)
	}
}

func TestListProjectsPagesAndFilters(t *testing.T) {
	b := setup(t)
	var ids []string
	for range 5 {
		ids = append(ids, b.create("acme", nil).ID)
	}
	b.create("globex", nil)
	b.complete("acme", ids[1])
	var seen []string
	cursor := ""
	for pages := 0; ; pages++ {
		var page struct {
			Projects []projectJSON `json:"projects"`
			Next     string        `json:"next_cursor"`
		}
		b.do("acme", "GET", "/v1/projects?limit=2&cursor="+cursor, nil).decode(t, &page)
		for _, p := range page.Projects {
			seen = append(seen, p.ID)
		}
		if page.Next == "" {
			break
		}
		cursor = page.Next
		if pages > 5 {
			t.Fatal("pagination does not end")
		}
	}
	if strings.Join(seen, ",") != strings.Join(ids, ",") {
		t.Errorf("pages = %v, want %v", seen, ids)
	}
	var page struct {
		Projects []projectJSON `json:"projects"`
	}
	b.do("acme", "GET", "/v1/projects?phase=complete", nil).decode(t, &page)
	if len(page.Projects) != 1 || page.Projects[0].ID != ids[1] {
		t.Errorf("phase filter: %+v", page.Projects)
	}
	p3, _ := b.store.GetProject(context.Background(), ids[2])
	b.do("acme", "GET", "/v1/projects?created_after="+p3.CreatedAt.Format(time.RFC3339Nano), nil).decode(t, &page)
	if len(page.Projects) != 2 || page.Projects[0].ID != ids[3] {
		t.Errorf("created_after filter: %+v", page.Projects)
	}
	if r := b.do("acme", "GET", "/v1/projects?phase=nope", nil); r.Status != 400 {
		t.Errorf("bad phase: %d", r.Status)
	}
}

func TestDeleteProjectCancelsTasksAndRemovesFiles(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	p := b.create("acme", nil)
	if _, err := b.insp.GetTaskInfo(jobs.QueuePlan, jobs.PlanArgs{ProjectID: p.ID, Step: 1}.TaskID()); err != nil {
		t.Fatalf("plan task not queued: %v", err)
	}
	key := "projects/" + p.ID + "/checkpoint.tar.gz"
	if _, err := b.storage.Put(ctx, key, strings.NewReader("files")); err != nil {
		t.Fatal(err)
	}
	if r := b.do("acme", "DELETE", "/v1/projects/"+p.ID, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if _, err := b.insp.GetTaskInfo(jobs.QueuePlan, jobs.PlanArgs{ProjectID: p.ID, Step: 1}.TaskID()); err == nil {
		t.Error("the plan task of a deleted project is still queued")
	}
	if _, err := b.storage.Open(ctx, key); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Errorf("checkpoint of a deleted project: %v", err)
	}
	if r := b.do("acme", "GET", "/v1/projects/"+p.ID, nil); r.Status != 404 {
		t.Errorf("deleted project: %d", r.Status)
	}
	if r := b.do("acme", "DELETE", "/v1/projects/"+p.ID, nil); r.Status != 404 {
		t.Errorf("deleting twice: %d", r.Status)
	}
}

func TestBatchesRetryAndCancel(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	var ids []string
	for range 2 {
		p := b.create("acme", nil)
		b.complete("acme", p.ID)
		ids = append(ids, p.ID)
	}
	// A square preset and a wide one never share a capture (TestCaptureGroupRetryAndRelease
	// covers that): each render here is started and finished on its own, as its own job.
	presets := []any{map[string]any{"width": 90, "height": 90, "fps": 5}, "720p"}
	r := b.do("acme", "POST", "/v1/batches", map[string]any{"project_ids": ids, "presets": presets, "callback_url": publicHook})
	var bt struct {
		ID         string   `json:"id"`
		Status     string   `json:"status"`
		Total      int      `json:"total"`
		Queued     int      `json:"queued"`
		Succeeded  int      `json:"succeeded"`
		Failed     int      `json:"failed"`
		ProjectIDs []string `json:"project_ids"`
		Renders    []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"renders"`
	}
	r.decode(t, &bt)
	if r.Status != 202 || bt.Total != 4 || bt.Queued != 4 || len(bt.ProjectIDs) != 2 || r.Header.Get("Location") != "/v1/batches/"+bt.ID {
		t.Fatalf("create batch: %d %s", r.Status, r.Body)
	}
	b.finish(bt.Renders[0].ID, nil)
	b.finish(bt.Renders[1].ID, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeRenderFailed, "boom"))
	b.finish(bt.Renders[2].ID, nil)
	b.do("acme", "GET", "/v1/batches/"+bt.ID, nil).decode(t, &bt)
	if bt.Status != "running" || bt.Succeeded != 2 || bt.Failed != 1 {
		t.Fatalf("batch after 3 renders: %+v", bt)
	}
	// Retry the failed item only: a new task for it, nothing for the others.
	if r := b.do("acme", "POST", "/v1/renders/"+bt.Renders[1].ID+"/retry", nil); r.Status != 202 {
		t.Fatalf("retry: %d %s", r.Status, r.Body)
	}
	if _, err := b.insp.GetTaskInfo(jobs.QueueRender, jobs.RenderArgs{RenderID: bt.Renders[1].ID, Attempt: 1}.TaskID()); err != nil {
		t.Errorf("retried render has no new task: %v", err)
	}
	if r := b.do("acme", "POST", "/v1/renders/"+bt.Renders[0].ID+"/retry", nil); r.Status != 409 {
		t.Errorf("retrying a succeeded render: %d", r.Status)
	}
	b.finish(bt.Renders[1].ID, nil)
	b.finish(bt.Renders[3].ID, nil)
	b.do("acme", "GET", "/v1/batches/"+bt.ID, nil).decode(t, &bt)
	if bt.Status != "completed" || bt.Succeeded != 4 {
		t.Fatalf("batch after retry: %+v", bt)
	}
	ds, _ := b.store.ListDeliveries(ctx, koda.DeliveryFilter{TenantID: "acme"})
	completed := 0
	for _, d := range ds {
		if d.EventType == koda.WebhookBatchCompleted && bytes.Contains(d.Payload, []byte(bt.ID)) {
			completed++
			if d.URL != publicHook {
				t.Errorf("batch.completed to %s", d.URL)
			}
		}
	}
	if completed != 1 {
		t.Errorf("%d batch.completed deliveries, want 1", completed)
	}

	// Cancel a second batch: its queued renders fail CANCELLED and batch.completed says so.
	r = b.do("acme", "POST", "/v1/batches", map[string]any{"filter": map[string]any{"phase": "complete"}, "presets": []string{"720p"}, "callback_url": publicHook})
	r.decode(t, &bt)
	if r.Status != 202 || bt.Total != 2 {
		t.Fatalf("batch by filter: %d %s", r.Status, r.Body)
	}
	b.finish(bt.Renders[0].ID, nil)
	r = b.do("acme", "POST", "/v1/batches/"+bt.ID+"/cancel", nil)
	r.decode(t, &bt)
	if r.Status != 200 || bt.Status != "cancelled" || bt.Succeeded != 1 || bt.Failed != 1 {
		t.Fatalf("cancel: %d %s", r.Status, r.Body)
	}
	if _, err := b.insp.GetTaskInfo(jobs.QueueRender, jobs.RenderArgs{RenderID: bt.Renders[1].ID}.TaskID()); err == nil {
		t.Error("the cancelled render's task is still queued")
	}
	if r := b.do("acme", "POST", "/v1/renders/"+bt.Renders[1].ID+"/retry", nil); r.Status != 409 {
		t.Errorf("retrying a cancelled batch's render: %d", r.Status)
	}
	if r := b.do("acme", "POST", "/v1/batches", map[string]any{"project_ids": []string{"prj_missing"}, "presets": []string{"720p"}}); r.Status != 404 {
		t.Errorf("batch of a missing project: %d", r.Status)
	}
}

func TestWebhookSecretRotationAndDeliveries(t *testing.T) {
	b := setup(t)
	var s1, s2 struct {
		Secret            string     `json:"secret"`
		PreviousExpiresAt *time.Time `json:"previous_expires_at"`
	}
	b.do("acme", "GET", "/v1/webhook-secret", nil).decode(t, &s1)
	var g struct{ Secret string }
	b.do("globex", "GET", "/v1/webhook-secret", nil).decode(t, &g)
	if !strings.HasPrefix(s1.Secret, "whsec_") || s1.Secret == g.Secret {
		t.Fatalf("tenants share a secret or have none: %q %q", s1.Secret, g.Secret)
	}
	b.do("acme", "POST", "/v1/webhook-secret/rotate", map[string]any{"grace_s": 3600}).decode(t, &s2)
	if s2.Secret == s1.Secret || s2.PreviousExpiresAt == nil {
		t.Fatalf("rotate: %+v", s2)
	}
	secrets, err := b.tenants.SigningSecrets(context.Background(), "acme")
	if err != nil || len(secrets) != 2 || secrets[0] != s2.Secret || secrets[1] != s1.Secret {
		t.Fatalf("secrets during rotation: %v %v", secrets, err)
	}

	p := b.create("acme", map[string]any{"prompt": "a ball", "auto_approve": true, "duration_s": 1, "callback_url": publicHook})
	b.complete("acme", p.ID)
	var list struct {
		Deliveries []struct {
			ID        string `json:"id"`
			EventType string `json:"event_type"`
			Status    string `json:"status"`
		} `json:"deliveries"`
		Next string `json:"next_cursor"`
	}
	b.do("acme", "GET", "/v1/webhook-deliveries?limit=2&project_id="+p.ID, nil).decode(t, &list)
	if len(list.Deliveries) != 2 || list.Next == "" {
		t.Fatalf("deliveries page: %+v", list)
	}
	id := list.Deliveries[0].ID
	if r := b.do("acme", "POST", "/v1/webhook-deliveries/"+id+"/redeliver", nil); r.Status != 202 {
		t.Fatalf("redeliver: %d %s", r.Status, r.Body)
	}
	if _, err := b.insp.GetTaskInfo(jobs.QueueWebhooks, jobs.WebhookArgs{DeliveryID: id}.TaskID()); err != nil {
		t.Errorf("redelivery not queued: %v", err)
	}
	var one struct {
		ID      string          `json:"id"`
		Payload json.RawMessage `json:"payload"`
	}
	b.do("acme", "GET", "/v1/webhook-deliveries/"+id, nil).decode(t, &one)
	if one.ID != id || !bytes.Contains(one.Payload, []byte(`"type"`)) {
		t.Errorf("delivery: %s", one.Payload)
	}
}
