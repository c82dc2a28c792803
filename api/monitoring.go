package api

import (
	"crypto/subtle"
	"encoding/base64"
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
	if s.adminKeyIn(c.Get(fiber.HeaderAuthorization)) {
		return c.Next()
	}
	c.Set(fiber.HeaderWWWAuthenticate, `Basic realm="koda-monitoring", charset="UTF-8"`)
	return koda.Errorf(koda.EUNAUTHORIZED, koda.CodeUnauthorized,
		"monitoring needs the admin key: Authorization: Bearer <KODA_ADMIN_KEY>, or Basic with it as password")
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
