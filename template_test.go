package koda_test

import (
	"encoding/json"
	"testing"

	"github.com/kodahq/koda"
)

// A media field's row value is an asset id or an http(s) URL; anything else is neither.
func TestMediaValue(t *testing.T) {
	for _, c := range []struct {
		in      any
		id, url string
	}{
		{"ast_01abc", "ast_01abc", ""},
		{"  ast_01abc ", "ast_01abc", ""},
		{"https://cdn.example.com/a.png", "", "https://cdn.example.com/a.png"},
		{"HTTP://example.com/a.png", "", "HTTP://example.com/a.png"},
		{"ast_../../etc/passwd", "", ""},
		{"ast_x.png", "", ""},
		{"assets/logo.png", "", ""},
		{"ftp://example.com/a.png", "", ""},
		{"file:///etc/passwd", "", ""},
		{42, "", ""},
		{"", "", ""},
	} {
		raw, _ := json.Marshal(c.in)
		if id, url := koda.MediaValue(raw); id != c.id || url != c.url {
			t.Errorf("MediaValue(%s) = %q, %q; want %q, %q", raw, id, url, c.id, c.url)
		}
	}
}
