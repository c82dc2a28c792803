package api_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kodahq/koda/api"
	"github.com/kodahq/koda/studio"
)

// TestStudioServed checks the Studio's page and assets come with their types and the
// strict policy, and that nothing outside the flat list of assets is served.
func TestStudioServed(t *testing.T) {
	srv := &api.Server{Studio: studio.FS()}
	cases := []struct {
		path, ctype string
		status      int
	}{
		{"/", "text/html", 200},
		{"/studio/app.js", "text/javascript", 200},
		{"/studio/studio.css", "text/css", 200},
		{"/studio/index.html", "", 404},
		{"/studio/missing.js", "", 404},
		{"/studio/..%2fstudio.go", "", 404},
		{"/studio/%2e%2e%2fgo.mod", "", 404},
	}
	for _, c := range cases {
		res, err := srv.App().Test(httptest.NewRequest("GET", c.path, nil))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != c.status {
			t.Errorf("GET %s = %d, want %d", c.path, res.StatusCode, c.status)
			continue
		}
		if c.status != 200 {
			if !strings.Contains(string(body), `"error"`) {
				t.Errorf("GET %s: error body %q", c.path, body)
			}
			continue
		}
		if got := res.Header.Get("Content-Type"); !strings.HasPrefix(got, c.ctype) {
			t.Errorf("GET %s: Content-Type %q, want %s", c.path, got, c.ctype)
		}
		if got := res.Header.Get("Content-Security-Policy"); got != studio.ContentSecurityPolicy {
			t.Errorf("GET %s: CSP %q", c.path, got)
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("GET %s: headers %v", c.path, res.Header)
		}
	}

	// Without Studio files there is no page, only the API.
	res, err := (&api.Server{}).App().Test(httptest.NewRequest("GET", "/", nil))
	if err != nil || res.StatusCode != 404 {
		t.Errorf("GET / without a Studio: %v %v", res.StatusCode, err)
	}
}
