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
}

func viewTenant(t *koda.Tenant) tenantView {
	return tenantView{ID: t.ID, Name: t.Name, Limits: t.Limits, CreatedAt: t.CreatedAt}
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
