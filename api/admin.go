package api

import (
	_ "embed"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

// The admin API manages tenants and their API keys; it is guarded by KODA_ADMIN_KEY.

type tenantView struct {
	ID        string      `json:"id"`
	Name      string      `json:"name"`
	Limits    koda.Limits `json:"limits"`
	CreatedAt time.Time   `json:"created_at"`
	// Status is "active" or "deleted"; DeletedAt is set once deleted.
	Status    string     `json:"status"`
	DeletedAt *time.Time `json:"deleted_at"`
}

func viewTenant(t *koda.Tenant) tenantView {
	status := "active"
	if t.DeletedAt != nil {
		status = "deleted"
	}
	return tenantView{ID: t.ID, Name: t.Name, Limits: t.Limits, CreatedAt: t.CreatedAt, Status: status, DeletedAt: t.DeletedAt}
}

type keyView struct {
	ID         string     `json:"id"`
	TenantID   string     `json:"tenant_id"`
	Name       string     `json:"name"`
	Prefix     string     `json:"prefix"`
	Key        string     `json:"key,omitempty"` // only in the answer that created it
	CreatedAt  time.Time  `json:"created_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
}

func viewKey(k *koda.APIKey, secret string) keyView {
	return keyView{ID: k.ID, TenantID: k.TenantID, Name: k.Name, Prefix: k.Prefix, Key: secret,
		CreatedAt: k.CreatedAt, LastUsedAt: k.LastUsedAt, RevokedAt: k.RevokedAt}
}

type createTenantRequest struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Limits left out are the deployment's defaults (KODA_TENANT_LIMITS).
	Limits *koda.Limits `json:"limits"`
}

type createKeyRequest struct {
	Name string `json:"name"`
}

func (s *Server) adminListTenants(c *fiber.Ctx) error {
	ts, err := s.TenantReader.ListTenants(c.UserContext())
	if err != nil {
		return err
	}
	out := make([]tenantView, 0, len(ts))
	for _, t := range ts {
		out = append(out, viewTenant(t))
	}
	return c.JSON(fiber.Map{"tenants": out})
}

func (s *Server) adminCreateTenant(c *fiber.Ctx) error {
	var req createTenantRequest
	if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	t, err := s.Tenants.CreateTenant(c.UserContext(), req.ID, req.Name, req.Limits)
	if err != nil {
		return err
	}
	c.Location("/admin/tenants/" + t.ID)
	return c.Status(fiber.StatusCreated).JSON(viewTenant(t))
}

func (s *Server) adminGetTenant(c *fiber.Ctx) error {
	t, err := s.TenantReader.GetTenant(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(viewTenant(t))
}

// adminDeleteTenant: DELETE /admin/tenants/{id} → 204. In this order, so that nothing
// the tenant holds outlives its keys:
//  1. the tenant is marked deleted and every key of it revoked, in one transaction:
//     its requests get 401 at once and its event streams end at their next key check
//     (StreamRecheck, 2 s by default), with an ERROR event UNAUTHORIZED;
//  2. its queued and running projects, renders and batches are cancelled (CANCELLED;
//     a running task is cancelled and its step made stale);
//  3. its sandboxes on this process are destroyed without a checkpoint: its API
//     sandboxes and Koda's own codegen sandboxes of its projects;
//  4. its files (projects, renders, templates, sandbox checkpoints, assets) are
//     deleted from storage, synchronously, folder by folder. A file a cancelled task
//     on another node still writes afterwards is removed by the maintenance task's
//     orphan clean-up (lifecycle.CleanOrphans: a deleted tenant's files are orphans).
//
// The tenant's row stays (deleted_at), so usage keeps its owner, GET shows it deleted
// and its ID is never used again. Deleting a deleted tenant answers 204 again and
// re-runs steps 2–4, which finish what an interrupted first call left. An unknown
// tenant is 404; the default tenant is 409 DEFAULT_TENANT_UNDELETABLE.
func (s *Server) adminDeleteTenant(c *fiber.Ctx) error {
	ctx := c.UserContext()
	t, err := s.Tenants.DeleteTenant(ctx, c.Params("id"))
	if err != nil {
		return err
	}
	log := s.log().With("tenant", t.ID)
	cancelled := 0
	if s.TenantWork != nil {
		if cancelled, err = s.TenantWork.CancelTenantWork(ctx, t.ID); err != nil {
			return err
		}
	}
	discarded := 0
	if s.Sandboxes != nil {
		if discarded, err = s.Sandboxes.DiscardTenant(ctx, t.ID); err != nil {
			return err
		}
	}
	if s.TenantWork != nil {
		if err := s.TenantWork.DeleteTenantFiles(ctx, t.ID); err != nil {
			return err
		}
	}
	log.Info("tenant deleted", "projects_cancelled", cancelled, "sandboxes_destroyed", discarded)
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *Server) adminSetLimits(c *fiber.Ctx) error {
	var l koda.Limits
	if err := decode(c.Body(), &l, false); err != nil {
		return err
	}
	t, err := s.Tenants.SetLimits(c.UserContext(), c.Params("id"), l)
	if err != nil {
		return err
	}
	return c.JSON(viewTenant(t))
}

func (s *Server) adminListKeys(c *fiber.Ctx) error {
	if _, err := s.TenantReader.GetTenant(c.UserContext(), c.Params("id")); err != nil {
		return err
	}
	ks, err := s.TenantReader.ListAPIKeys(c.UserContext(), koda.APIKeyFilter{TenantID: c.Params("id")})
	if err != nil {
		return err
	}
	out := make([]keyView, 0, len(ks))
	for _, k := range ks {
		out = append(out, viewKey(k, ""))
	}
	return c.JSON(fiber.Map{"keys": out})
}

func (s *Server) adminCreateKey(c *fiber.Ctx) error {
	var req createKeyRequest
	if err := decode(c.Body(), &req, true); err != nil {
		return err
	}
	k, secret, err := s.Tenants.CreateKey(c.UserContext(), c.Params("id"), req.Name)
	if err != nil {
		return err
	}
	revealsSecret(c, secret)
	return c.Status(fiber.StatusCreated).JSON(viewKey(k, secret))
}

func (s *Server) adminRevokeKey(c *fiber.Ctx) error {
	if err := decode(c.Body(), &struct{}{}, true); err != nil {
		return err
	}
	k, err := s.Tenants.RevokeKey(c.UserContext(), c.Params("id"), c.Params("key"))
	if err != nil {
		return err
	}
	return c.JSON(viewKey(k, ""))
}

//go:embed openapi.json
var openapiDoc []byte

// openapi serves the OpenAPI 3.1 description of the API.
func (s *Server) openapi(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	c.Set(fiber.HeaderCacheControl, "public, max-age=300")
	return c.Send(openapiDoc)
}
