package api

import (
	"crypto/subtle"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/gofiber/fiber/v2/middleware/recover"

	"github.com/kodahq/koda"
)

// routes registers every route of the API in one place.
func (s *Server) routes(app *fiber.App) {
	app.Use(baseHeaders)
	app.Use(recover.New())
	app.Use(limitBody)
	app.Get("/healthz", s.healthz)
	app.Get("/readyz", s.readyz)
	app.Get("/files/*", s.file)
	app.Get("/live/:token/*", s.serveLive)
	if s.Monitoring != nil {
		// Asynqmon routes itself under its RootPath, so the prefix stays on the request.
		mon := adaptor.HTTPHandler(s.Monitoring)
		// Fiber's routing ignores a trailing slash, so "/monitoring" also takes "/monitoring/";
		// Asynqmon serves its index for both.
		app.All("/monitoring", s.monitoringAuth, mon)
		app.All("/monitoring/*", s.monitoringAuth, mon)
	}
	if s.Metrics != nil {
		app.Get("/metrics", adaptor.HTTPHandler(s.Metrics))
	}

	app.Get("/openapi.json", s.openapi)
	app.Get("/", s.studioIndex)
	app.Get("/studio/:file", s.studioAssetFile)

	admin := app.Group("/admin", s.admin)
	admin.Get("/tenants", s.adminListTenants)
	admin.Post("/tenants", s.idempotent(s.adminCreateTenant))
	admin.Get("/tenants/:id", s.adminGetTenant)
	admin.Delete("/tenants/:id", s.adminDeleteTenant)
	admin.Put("/tenants/:id/limits", s.adminSetLimits)
	admin.Get("/tenants/:id/keys", s.adminListKeys)
	admin.Post("/tenants/:id/keys", s.idempotent(s.adminCreateKey))
	admin.Post("/tenants/:id/keys/:key/revoke", s.idempotent(s.adminRevokeKey))

	v1 := app.Group("/v1", s.tenant)
	v1.Post("/projects", s.idempotent(s.createProject))
	v1.Get("/projects", s.listProjects)
	v1.Get("/projects/:id", s.getProject)
	v1.Delete("/projects/:id", s.deleteProject)
	v1.Post("/projects/:id/answer", s.idempotent(s.answer))
	v1.Post("/projects/:id/plan/approve", s.idempotent(s.approvePlan))
	v1.Post("/projects/:id/plan/reject", s.idempotent(s.rejectPlan))
	v1.Post("/projects/:id/preview/approve", s.idempotent(s.approvePreview))
	v1.Post("/projects/:id/feedback", s.idempotent(s.feedback))
	v1.Post("/projects/:id/retry", s.idempotent(s.retry))
	v1.Post("/projects/:id/renders", s.idempotent(s.requestRenders))
	v1.Get("/projects/:id/renders", s.listRenders)
	v1.Get("/projects/:id/events", s.events)
	v1.Post("/projects/:id/messages", s.idempotent(s.queueMessage))
	v1.Post("/projects/:id/live", s.createLive)
	v1.Get("/projects/:id/messages", s.listMessages)
	v1.Get("/renders/:id", s.getRender)
	v1.Post("/renders/:id/retry", s.idempotent(s.retryRender))
	v1.Get("/renders/:id/video", s.download(fileVideo))
	v1.Get("/renders/:id/thumbnail", s.download(fileThumbnail))
	v1.Post("/batches", s.idempotent(s.createBatch))
	v1.Get("/batches/:id", s.getBatch)
	v1.Post("/batches/:id/cancel", s.idempotent(s.cancelBatch))
	v1.Get("/batches/:id/manifest", s.manifest)
	v1.Post("/templates", s.idempotent(s.createTemplate))
	v1.Get("/templates", s.listTemplates)
	v1.Get("/templates/:id", s.getTemplate)
	v1.Patch("/templates/:id", s.idempotent(s.patchTemplate))
	v1.Delete("/templates/:id", s.deleteTemplate)
	v1.Post("/templates/:id/batches", s.idempotent(s.createTemplateBatch))
	v1.Get("/webhook-deliveries", s.listDeliveries)
	v1.Get("/webhook-deliveries/:id", s.getDelivery)
	v1.Post("/webhook-deliveries/:id/redeliver", s.idempotent(s.redeliver))
	v1.Get("/webhook-secret", s.getWebhookSecret)
	v1.Post("/webhook-secret/rotate", s.idempotent(s.rotateWebhookSecret))
	v1.Get("/usage", s.usage)
	v1.Get("/presets", s.presets)
	v1.Get("/keys", s.listKeys)
	v1.Post("/keys", s.idempotent(s.createKey))
	v1.Post("/keys/:id/revoke", s.idempotent(s.revokeKey))
	// No Idempotency-Key on uploads: honouring it means hashing the body before the
	// handler, which would hold it in memory. A retried upload stores its bytes once
	// all the same (content addressing); it adds a second asset naming them.
	v1.Post("/assets", s.createAsset)
	v1.Get("/assets", s.listAssets)
	v1.Get("/assets/:id", s.getAsset)
	v1.Delete("/assets/:id", s.deleteAsset)
	v1.Get("/brand", s.getBrand)
	v1.Put("/brand", s.idempotent(s.putBrand))
	v1.Post("/sandboxes", s.createSandbox)
	v1.Get("/sandboxes", s.listSandboxes)
	v1.Get("/sandboxes/:id", s.getSandbox)
	v1.Delete("/sandboxes/:id", s.deleteSandbox)
	v1.Post("/sandboxes/:id/tools/:name", s.sandboxTool)
}

// baseHeaders sets what every response carries, errors included. nosniff: no browser
// reads a JSON answer or a tenant's file as HTML or script. The API's answers hold
// signed links, keys and tenants' data, so no cache keeps them unless a handler says
// otherwise (the event stream, the OpenAPI document).
func baseHeaders(c *fiber.Ctx) error {
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	if p := c.Path(); strings.HasPrefix(p, "/v1/") || strings.HasPrefix(p, "/admin/") {
		c.Set(fiber.HeaderCacheControl, "no-store")
	}
	return c.Next()
}

// tenant authenticates the caller's API key and puts its tenant into the request
// context; every handler below sees only that tenant's resources.
func (s *Server) tenant(c *fiber.Ctx) error {
	tenant, keyID := koda.DefaultTenant, ""
	if s.Auth != nil {
		var err error
		if ka, ok := s.Auth.(KeyAuth); ok {
			tenant, keyID, err = ka.AuthenticateKey(c.UserContext(), c.Get(fiber.HeaderAuthorization))
		} else {
			tenant, err = s.Auth.Authenticate(c.UserContext(), c.Get(fiber.HeaderAuthorization))
		}
		if err != nil {
			c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="koda"`)
			return err
		}
	}
	c.Locals(localKeyID, keyID)
	c.SetUserContext(koda.NewContextWithTenant(c.UserContext(), tenant))
	return c.Next()
}

// admin guards the admin API with the admin key, compared in constant time.
func (s *Server) admin(c *fiber.Ctx) error {
	if s.AdminKey == "" || s.Tenants == nil || s.TenantReader == nil {
		return koda.NotFound("route", c.Path())
	}
	scheme, key, _ := strings.Cut(c.Get(fiber.HeaderAuthorization), " ")
	if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(key)), []byte(s.AdminKey)) != 1 {
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer realm="koda-admin"`)
		return koda.Errorf(koda.EUNAUTHORIZED, koda.CodeUnauthorized, "the admin API needs Authorization: Bearer <KODA_ADMIN_KEY>")
	}
	return c.Next()
}
