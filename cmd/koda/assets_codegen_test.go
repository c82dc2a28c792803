package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
)

// TestAssetDeletedBeforeCodegen: a project names a logo, waits at its plan, and the
// logo is deleted (no other asset holds its bytes) before the plan is approved. The
// build cannot copy the file, so the project stops in error with ASSET_NOT_FOUND and
// a message naming the asset, at once rather than after retries.
func TestAssetDeletedBeforeCodegen(t *testing.T) {
	m := startKoda(t, "")
	c := client{t: t, base: m.PublicURL}
	logo := c.uploadAsset("gone-logo.png", kodatest.LogoPNG(64, 64, brandMagenta))
	var created struct {
		ID string `json:"id"`
	}
	if status, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "The words 'Soon gone' fade in", "style": "smooth", "duration_s": 2, "brand": false,
		"assets": []map[string]string{{"id": logo, "role": "logo"}},
	}, &created); status != http.StatusAccepted {
		t.Fatalf("create: %d", status)
	}
	c.waitProject(created.ID, time.Minute, "the plan", func(p project) bool { return p.Phase == "plan" && p.Plan != nil })
	if status, _ := c.do(http.MethodDelete, "/v1/assets/"+logo, nil, nil); status != http.StatusNoContent {
		t.Fatalf("delete the logo: %d", status)
	}
	start := time.Now()
	if status, _ := c.do(http.MethodPost, "/v1/projects/"+created.ID+"/plan/approve", nil, nil); status != http.StatusAccepted && status != http.StatusOK {
		t.Fatalf("approve: %d", status)
	}
	var p project
	for {
		c.do(http.MethodGet, "/v1/projects/"+created.ID, nil, &p)
		if p.Phase == "error" || p.Phase == "preview" || time.Since(start) > time.Minute {
			break
		}
		time.Sleep(150 * time.Millisecond)
	}
	if p.Phase != "error" || p.Error == nil || p.Error.Code != koda.CodeProjectAssetNotFound || !strings.Contains(p.Error.Message, logo) {
		t.Fatalf("after its logo was deleted the project is %s with error %+v; want error %s naming %s", p.Phase, p.Error, koda.CodeProjectAssetNotFound, logo)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the failure took %s: it was retried", d)
	}
}
