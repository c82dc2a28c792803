package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/kodahq/koda"
)

// TestAdminDeleteTenant (issue 26): DELETE /admin/tenants/{id} revokes the tenant's
// keys, cancels its projects and renders, deletes its files and leaves it as a deleted
// record whose ID cannot be used again; another tenant is untouched. Unknown tenants
// are 404, the default tenant 409, a second DELETE 204 again, tenants' keys 401.
func TestAdminDeleteTenant(t *testing.T) {
	b := setup(t)
	b.server.TenantWork = b.life
	ctx := context.Background()

	// acme: a project waiting for its plan task, and a complete one re-rendering.
	waiting := b.create("acme", nil)
	done := b.create("acme", nil)
	b.complete("acme", done.ID)
	r := b.do("acme", http.MethodPost, "/v1/projects/"+done.ID+"/renders", map[string]any{"presets": []string{"720p"}})
	if r.Status != http.StatusAccepted {
		t.Fatalf("renders: %d %s", r.Status, r.Body)
	}
	var batch struct {
		ID string `json:"id"`
	}
	r.decode(t, &batch)
	// globex: a project waiting for its plan task too.
	bystander := b.create("globex", nil)

	files := map[string]bool{ // key → belongs to acme
		koda.CheckpointKey(koda.ProjectFolder(waiting.ID)):                   true,
		koda.RenderVideoKey(done.ID, "rnd_x", "mp4"):                         true,
		koda.CheckpointKey(koda.TenantSandboxFolder("acme", "mine")):         true,
		koda.AssetKey("acme", strings.Repeat("a", 64), "png"):                true,
		koda.CheckpointKey(koda.ProjectFolder(bystander.ID)):                 false,
		koda.CheckpointKey(koda.TenantSandboxFolder("globex", "mine")):       false,
		koda.AssetKey("globex", strings.Repeat("a", 64), "png"):              false,
		koda.CheckpointKey(koda.TenantSandboxFolder("acme-other", "theirs")): false, // a prefix of acme's is not acme's
	}
	for k := range files {
		if _, err := b.storage.Put(ctx, k, strings.NewReader("bytes")); err != nil {
			t.Fatal(err)
		}
	}

	// Only the admin key may delete; unknown tenants are 404, the default tenant 409.
	if r := b.do("acme", http.MethodDelete, "/admin/tenants/globex", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("DELETE with a tenant's key: %d", r.Status)
	}
	if r := b.do("admin", http.MethodDelete, "/admin/tenants/nobody", nil); r.Status != http.StatusNotFound || r.code() != koda.CodeNotFound {
		t.Fatalf("DELETE unknown tenant: %d %s", r.Status, r.Body)
	}
	if _, err := b.tenants.EnsureTenant(ctx, koda.DefaultTenant, ""); err != nil {
		t.Fatal(err)
	}
	if r := b.do("admin", http.MethodDelete, "/admin/tenants/"+koda.DefaultTenant, nil); r.Status != http.StatusConflict || r.code() != koda.CodeDefaultTenant {
		t.Fatalf("DELETE default tenant: %d %s", r.Status, r.Body)
	}

	if r := b.do("admin", http.MethodDelete, "/admin/tenants/acme", nil); r.Status != http.StatusNoContent {
		t.Fatalf("DELETE acme: %d %s", r.Status, r.Body)
	}
	// Its keys are refused at once.
	if r := b.do("acme", http.MethodGet, "/v1/projects", nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("acme's key after the deletion: %d", r.Status)
	}
	// Its waiting project is cancelled, its batch's render failed CANCELLED.
	p, err := b.store.GetProject(ctx, waiting.ID)
	if err != nil {
		t.Fatal(err)
	}
	if p.Phase != koda.PhaseError || p.Pending != "" || p.Error == nil || p.Error.Code != koda.CodeCancelled {
		t.Errorf("acme's waiting project: phase %s pending %q error %+v, want error CANCELLED", p.Phase, p.Pending, p.Error)
	}
	rs, err := b.store.ListRenders(ctx, koda.RenderFilter{BatchID: batch.ID})
	if err != nil || len(rs) == 0 {
		t.Fatalf("renders of the batch: %d %v", len(rs), err)
	}
	for _, r := range rs {
		if r.Status != koda.RenderFailed || r.Error == nil || r.Error.Code != koda.CodeCancelled {
			t.Errorf("render %s of acme's batch: %s %+v, want failed CANCELLED", r.ID, r.Status, r.Error)
		}
	}
	if p, err := b.store.GetProject(ctx, done.ID); err != nil || p.Phase != koda.PhaseComplete {
		t.Errorf("acme's complete project: %v %v (it had no task; it stays complete)", p.Phase, err)
	}
	// globex is untouched.
	if p, err := b.store.GetProject(ctx, bystander.ID); err != nil || p.Pending == "" || p.Error != nil {
		t.Errorf("globex's project: %+v %v", p, err)
	}
	if r := b.do("globex", http.MethodGet, "/v1/projects/"+bystander.ID, nil); r.Status != http.StatusOK {
		t.Errorf("globex's key: %d", r.Status)
	}
	// acme's files are gone, the others' stay.
	for k, acme := range files {
		f, err := b.storage.Open(ctx, k)
		if err == nil {
			f.Close()
		}
		if gone := koda.ErrorKind(err) == koda.ENOTFOUND; gone != acme {
			t.Errorf("%s: gone %v, want %v (err %v)", k, gone, acme, err)
		}
	}

	// GET says deleted; the list keeps it.
	var view struct {
		Status    string  `json:"status"`
		DeletedAt *string `json:"deleted_at"`
	}
	if r := b.do("admin", http.MethodGet, "/admin/tenants/acme", nil); r.Status != http.StatusOK {
		t.Fatalf("GET deleted tenant: %d", r.Status)
	} else {
		r.decode(t, &view)
	}
	if view.Status != "deleted" || view.DeletedAt == nil {
		t.Errorf("GET deleted tenant: %+v", view)
	}
	if r := b.do("admin", http.MethodGet, "/admin/tenants/globex", nil); r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"status":"active"`) {
		t.Errorf("GET active tenant: %d %s", r.Status, r.Body)
	}

	// A second DELETE is 204 again and changes nothing.
	if r := b.do("admin", http.MethodDelete, "/admin/tenants/acme", nil); r.Status != http.StatusNoContent {
		t.Fatalf("second DELETE: %d %s", r.Status, r.Body)
	}
	// The ID cannot be used again: no new key, tenant, limits.
	for _, req := range []struct {
		method, path string
		body         any
	}{
		{http.MethodPost, "/admin/tenants/acme/keys", map[string]any{"name": "again"}},
		{http.MethodPost, "/admin/tenants", map[string]any{"id": "acme", "name": "again"}},
		{http.MethodPut, "/admin/tenants/acme/limits", map[string]any{"renders_per_day": 1}},
	} {
		if r := b.do("admin", req.method, req.path, req.body); r.Status != http.StatusConflict || r.code() != koda.CodeTenantDeleted {
			t.Errorf("%s %s on a deleted tenant: %d %s", req.method, req.path, r.Status, r.Body)
		}
	}
}
