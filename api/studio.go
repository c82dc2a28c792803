package api

import (
	"io/fs"
	"path"
	"regexp"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/studio"
)

// studioAsset is the shape of a Studio file name: flat, no dot files, known types.
var studioAsset = regexp.MustCompile(`^[a-z][a-z0-9-]*\.(js|css)$`)

var studioTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
}

// studioIndex serves Koda Studio's page at /.
func (s *Server) studioIndex(c *fiber.Ctx) error { return s.studioFile(c, "index.html") }

// studioAssetFile serves a script or style sheet of the Studio at /studio/:file.
func (s *Server) studioAssetFile(c *fiber.Ctx) error {
	name := c.Params("file")
	if !studioAsset.MatchString(name) {
		return koda.NotFound("file", name)
	}
	return s.studioFile(c, name)
}

// studioFile serves one of the Studio's embedded files under its strict policy.
func (s *Server) studioFile(c *fiber.Ctx, name string) error {
	if s.Studio == nil {
		return koda.NotFound("route", c.Path())
	}
	b, err := fs.ReadFile(s.Studio, name)
	if err != nil {
		return koda.NotFound("file", name)
	}
	c.Set(fiber.HeaderContentType, studioTypes[path.Ext(name)])
	c.Set(fiber.HeaderContentSecurityPolicy, studio.ContentSecurityPolicy)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
	c.Set(fiber.HeaderXFrameOptions, "DENY")
	// The files change only with the binary; revalidating keeps an upgrade visible at once.
	c.Set(fiber.HeaderCacheControl, "no-cache")
	return c.Send(b)
}
