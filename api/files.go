package api

import (
	"strconv"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"

	"github.com/kodahq/koda"
)

// file serves a stored file through a signed, expiring URL. fasthttp's file server
// answers Range requests, so players can seek in videos.
func (s *Server) file(c *fiber.Ctx) error {
	if s.Files == nil {
		return koda.NotFound("file", c.Params("*"))
	}
	key := c.Params("*")
	exp, err := strconv.ParseInt(c.Query("exp"), 10, 64)
	if err != nil {
		return koda.Errorf(koda.EUNAUTHORIZED, "INVALID_SIGNATURE", "file URLs need exp and sig parameters")
	}
	if err := s.Files.Verify(key, exp, c.Query("sig")); err != nil {
		return err
	}
	path, err := s.Files.Path(key)
	if err != nil {
		return err
	}
	fasthttp.ServeFileUncompressed(c.Context(), path)
	if c.Response().StatusCode() == fiber.StatusNotFound {
		c.Response().Reset()
		return koda.NotFound("file", key)
	}
	return nil
}
