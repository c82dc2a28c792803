package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

// The tenant's own API keys (the Studio's operations page). They go through the same
// tenant service and views as the admin API's; a tenant sees only its keys, never a
// secret but in the answer that created it.

// localKeyID is the fiber.Ctx local holding the stored key a request used.
const localKeyID = "koda.key_id"

func (s *Server) tenantKeys() (Tenants, error) {
	if s.Tenants == nil {
		return nil, koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "this server manages no API keys")
	}
	return s.Tenants, nil
}

// listKeys: GET /v1/keys?limit&cursor → {"data":[key…],"next_cursor"}, oldest first,
// revoked keys included; paged like the other lists.
func (s *Server) listKeys(c *fiber.Ctx) error {
	ts, err := s.tenantKeys()
	if err != nil {
		return err
	}
	q := koda.KeyQuery{Cursor: c.Query("cursor")}
	if q.Limit, err = queryLimit(c); err != nil {
		return err
	}
	ctx := c.UserContext()
	ks, next, err := ts.ListKeys(ctx, koda.TenantFromContext(ctx), q)
	if err != nil {
		return err
	}
	out := make([]keyView, 0, len(ks))
	for _, k := range ks {
		out = append(out, viewKey(k, ""))
	}
	return c.JSON(fiber.Map{"data": out, "next_cursor": next})
}

// createKey: POST /v1/keys {"name"} → 201 with the key, shown this once.
func (s *Server) createKey(c *fiber.Ctx) error {
	ts, err := s.tenantKeys()
	if err != nil {
		return err
	}
	var req createKeyRequest
	if err := decode(c.Body(), &req, true); err != nil {
		return err
	}
	ctx := c.UserContext()
	k, secret, err := ts.CreateKey(ctx, koda.TenantFromContext(ctx), req.Name)
	if err != nil {
		return err
	}
	revealsSecret(c, secret)
	return c.Status(fiber.StatusCreated).JSON(viewKey(k, secret))
}

// revokeKey: POST /v1/keys/{id}/revoke → 200 with the key. The caller's own key is
// refused (409 LAST_ACTIVE_KEY) when it is the account's last active one.
func (s *Server) revokeKey(c *fiber.Ctx) error {
	ts, err := s.tenantKeys()
	if err != nil {
		return err
	}
	if err := decode(c.Body(), &struct{}{}, true); err != nil {
		return err
	}
	ctx := c.UserContext()
	caller, _ := c.Locals(localKeyID).(string)
	k, err := ts.RevokeOwnKey(ctx, koda.TenantFromContext(ctx), caller, c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(viewKey(k, ""))
}
