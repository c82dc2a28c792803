package api

import (
	"crypto/subtle"
	"encoding/base64"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

// monitoringAuth guards Asynqmon with the admin key. Browsers cannot add a bearer
// token to the UI's own requests, so HTTP Basic with the admin key as password is
// accepted too: the browser asks once and repeats it for every request of the page.
// Without an admin key the monitoring UI is off, as the admin API is.
func (s *Server) monitoringAuth(c *fiber.Ctx) error {
	if s.AdminKey == "" {
		return koda.Errorf(koda.ENOTFOUND, koda.CodeNotFound, "monitoring is off: set KODA_ADMIN_KEY to enable it")
	}
	if auth := c.Get(fiber.HeaderAuthorization); s.adminKeyIn(auth) {
		if err := sameOriginWrite(c, auth); err != nil {
			return err
		}
		return c.Next()
	}
	c.Set(fiber.HeaderWWWAuthenticate, `Basic realm="koda-monitoring", charset="UTF-8"`)
	return koda.Errorf(koda.EUNAUTHORIZED, koda.CodeUnauthorized,
		"monitoring needs the admin key: Authorization: Bearer <KODA_ADMIN_KEY>, or Basic with it as password")
}

// sameOriginWrite refuses a state-changing request that a browser could have sent
// from another site: the browser repeats Basic credentials to any page that posts to
// the dashboard (CSRF), so a write with Basic credentials must come from the
// dashboard's own pages, as Sec-Fetch-Site or Origin say. A bearer token is never
// added by a browser on its own, so scripts using one are not asked.
func sameOriginWrite(c *fiber.Ctx, auth string) error {
	switch c.Method() {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
		return nil
	}
	if scheme, _, _ := strings.Cut(auth, " "); strings.EqualFold(scheme, "bearer") {
		return nil
	}
	site, origin := c.Get("Sec-Fetch-Site"), c.Get(fiber.HeaderOrigin)
	switch {
	case site != "":
		if site == "same-origin" {
			return nil
		}
	case origin != "":
		if u, err := url.Parse(origin); err == nil && u.Host == c.Hostname() {
			return nil
		}
	}
	return koda.Errorf(koda.EFORBIDDEN, koda.CodeForbidden,
		"monitoring changes are accepted only from the dashboard's own pages (or with Authorization: Bearer)")
}

// adminKeyIn reports whether an Authorization header carries the admin key, as a
// bearer token or as the password of Basic credentials, compared in constant time.
func (s *Server) adminKeyIn(header string) bool {
	scheme, value, _ := strings.Cut(header, " ")
	value = strings.TrimSpace(value)
	var key string
	switch strings.ToLower(scheme) {
	case "bearer":
		key = value
	case "basic":
		raw, err := base64.StdEncoding.DecodeString(value)
		if err != nil {
			return false
		}
		_, key, _ = strings.Cut(string(raw), ":")
	default:
		return false
	}
	return subtle.ConstantTimeCompare([]byte(key), []byte(s.AdminKey)) == 1
}
