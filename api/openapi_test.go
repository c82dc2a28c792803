package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/api"
)

// specChecker validates requests and responses against api/openapi.json with
// kin-openapi, which validates OpenAPI 3.1 documents with JSON Schema 2020-12.
type specChecker struct {
	t      *testing.T
	doc    *openapi3.T
	router routers.Router
	mu     sync.Mutex
	seen   map[string]bool // "METHOD /path status" checked
}

func loadSpec(t *testing.T) *openapi3.T {
	t.Helper()
	raw, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		t.Fatalf("load openapi.json: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not a valid OpenAPI document: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Fatalf("openapi.json is OpenAPI %s, want 3.1", doc.OpenAPI)
	}
	return doc
}

func newSpecChecker(t *testing.T) *specChecker {
	doc := loadSpec(t)
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &specChecker{t: t, doc: doc, router: router, seen: map[string]bool{}}
}

// check validates a response always, and the request when the server accepted it: a
// request the API took must be one the document describes.
func (s *specChecker) check(method, path string, body []byte, hdr http.Header, r response) {
	s.t.Helper()
	for _, err := range s.errors(method, path, body, hdr, r) {
		s.t.Error(err)
	}
}

func (s *specChecker) errors(method, path string, body []byte, hdr http.Header, r response) []error {
	if strings.HasSuffix(strings.SplitN(path, "?", 2)[0], "/events") && r.Status == 200 && !strings.Contains(path, "offset=") {
		return nil // an SSE stream never ends; its JSON form is checked
	}
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.Header = hdr.Clone()
	route, params, err := s.router.FindRoute(req)
	if err != nil {
		return []error{fmt.Errorf("%s %s: not in openapi.json: %w", method, path, err)}
	}
	var errs []error
	ctx := context.Background()
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, IncludeResponseStatus: true}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if r.Status < 300 {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			errs = append(errs, fmt.Errorf("%s %s: accepted request does not match openapi.json: %w", method, path, err))
		}
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: r.Status, Header: r.Header,
		Body: io.NopCloser(bytes.NewReader(r.Body)), Options: opts}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		errs = append(errs, fmt.Errorf("%s %s: response %d %s does not match openapi.json: %w", method, path, r.Status, trim(r.Body), err))
	}
	// A limit answer must be one the document names for this route, with the
	// Retry-After it promises: the default error answer would let a route's 429 go
	// undocumented.
	if r.Status == http.StatusTooManyRequests {
		if doc := route.Operation.Responses.Value("429"); doc == nil || doc.Value == nil {
			errs = append(errs, fmt.Errorf("%s %s: answered 429 but openapi.json describes no 429 for %s", method, path, route.Path))
		} else if h := doc.Value.Headers["Retry-After"]; h != nil && h.Value != nil && h.Value.Required && r.Header.Get("Retry-After") == "" {
			errs = append(errs, fmt.Errorf("%s %s: answered 429 without the Retry-After openapi.json promises", method, path))
		}
	}
	s.mu.Lock()
	s.seen[method+" "+route.Path] = true
	s.mu.Unlock()
	return errs
}

// TestSpecCheckerCatchesDrift makes sure the checker is not vacuous: answers and
// requests that do not match the document are reported.
func TestSpecCheckerCatchesDrift(t *testing.T) {
	s := newSpecChecker(t)
	hdr := http.Header{"Content-Type": {"application/json"}}
	jsonHdr := http.Header{"Content-Type": {"application/json"}}
	cases := []struct {
		method, path, body string
		r                  response
	}{
		{"GET", "/v1/usage", "", response{Status: 200, Header: jsonHdr, Body: []byte(`{"tenant_id":"x"}`)}},
		{"GET", "/v1/projects/prj_1", "", response{Status: 404, Header: jsonHdr, Body: []byte(`{"code":"NOT_FOUND"}`)}},
		{"POST", "/v1/projects", `{"prompt":"x","colour":"red"}`, response{Status: 202, Header: jsonHdr, Body: []byte(`{}`)}},
		{"GET", "/v1/nowhere", "", response{Status: 200, Header: jsonHdr, Body: []byte(`{}`)}},
		// A 429 where the document names none, and one without Retry-After.
		{"GET", "/v1/usage", "", response{Status: 429, Header: http.Header{"Content-Type": {"application/json"}, "Retry-After": {"5"}},
			Body: []byte(`{"error":{"code":"QUOTA_EXCEEDED","message":"x"}}`)}},
		{"GET", "/v1/projects/prj_1/events", "", response{Status: 429, Header: http.Header{"Content-Type": {"application/json"}},
			Body: []byte(`{"error":{"code":"QUOTA_EXCEEDED","message":"x"}}`)}},
	}
	for _, tc := range cases {
		if errs := s.errors(tc.method, tc.path, []byte(tc.body), hdr, tc.r); len(errs) == 0 {
			t.Errorf("%s %s %d %s passed the checker", tc.method, tc.path, tc.r.Status, tc.r.Body)
		}
	}
}

func trim(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

var fiberParam = regexp.MustCompile(`:([a-zA-Z_]+)`)

// TestEveryRouteIsDescribed checks that every route the server registers is in
// openapi.json with that method, and that the document lists no route the server
// lacks, so the two cannot drift apart.
func TestEveryRouteIsDescribed(t *testing.T) {
	doc := loadSpec(t)
	described := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			described[method+" "+path] = true
		}
	}
	srv := &api.Server{AdminKey: "x"}
	registered := map[string]bool{}
	for _, r := range srv.App().GetRoutes(true) {
		if r.Method == http.MethodHead || r.Method == "USE" || strings.HasPrefix(r.Path, "/files/") || strings.HasPrefix(r.Path, "/live/") || strings.HasPrefix(r.Path, "/monitoring") {
			continue
		}
		registered[r.Method+" "+fiberParam.ReplaceAllString(r.Path, "{$1}")] = true
	}
	var missing, extra []string
	for r := range registered {
		if !described[r] {
			missing = append(missing, r)
		}
	}
	for d := range described {
		if !registered[d] {
			extra = append(extra, d)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("routes missing from openapi.json: %v", missing)
	}
	if len(extra) > 0 {
		t.Errorf("openapi.json describes routes the server lacks: %v", extra)
	}
	if len(registered) < 30 {
		t.Errorf("only %d routes registered; the route listing is broken", len(registered))
	}
}

// TestServedDocumentIsTheFile checks /openapi.json serves the document.
func TestServedDocumentIsTheFile(t *testing.T) {
	b := setup(t)
	r := b.do("", "GET", "/openapi.json", nil)
	raw, _ := os.ReadFile("openapi.json")
	if r.Status != 200 || !bytes.Equal(r.Body, raw) {
		t.Fatalf("/openapi.json: %d, %d bytes", r.Status, len(r.Body))
	}
}

// TestSpecTextLimits: the lengths openapi.json promises are koda's text limits
// (text.go), so the document cannot drift from what the server refuses.
func TestSpecTextLimits(t *testing.T) {
	doc := loadSpec(t)
	for _, c := range []struct {
		schema, field string
		want          int
	}{
		{"CreateProjectRequest", "prompt", koda.PromptText.Max},
		{"CreateProjectRequest", "callback_url", koda.MaxURLChars},
		{"CreateBatchRequest", "callback_url", koda.MaxURLChars},
		{"RejectRequest", "feedback", koda.FeedbackText.Max},
		{"MessageRequest", "message", koda.FeedbackText.Max},
		{"QueueMessageRequest", "text", koda.MessageText.Max},
		{"QueueMessageRequest", "content", koda.MessageText.Max},
		{"AnswerRequest", "text", koda.AnswerText.Max},
		{"AnswerRequest", "option_id", koda.OptionText.Max},
		{"CreateTenantRequest", "name", koda.NameText.Max},
		{"CreateKeyRequest", "name", koda.NameText.Max},
	} {
		s := doc.Components.Schemas[c.schema]
		if s == nil || s.Value.Properties[c.field] == nil {
			t.Errorf("%s.%s is not in openapi.json", c.schema, c.field)
			continue
		}
		p := s.Value.Properties[c.field].Value
		if p.MaxLength == nil || int(*p.MaxLength) != c.want {
			t.Errorf("%s.%s maxLength = %v, want %d", c.schema, c.field, p.MaxLength, c.want)
		}
	}
}
