package api

import (
	"strconv"
	"strings"

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
	if strings.HasPrefix(key, "assets/") {
		// A tenant's SVG is sanitized before it is stored; should anything slip
		// through, opened from this origin it still runs no script and loads nothing.
		c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	}
	fasthttp.ServeFileUncompressed(c.Context(), path)
	if c.Response().StatusCode() == fiber.StatusNotFound {
		c.Response().Reset()
		return koda.NotFound("file", key)
	}
	return nil
}

// download redirects to a download link of a render's video or thumbnail, signed now
// for the usual lifetime: a presigned GET of the bucket with S3 storage, the signed
// /files/ route with the local folder. The route itself never expires, so a client
// can keep it and fetch a fresh link whenever it needs one.
// The files of a render a download route redirects to.
const (
	fileVideo     = "video"
	fileThumbnail = "thumbnail"
)

func (s *Server) download(file string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		r, err := s.Projects.GetRender(c.UserContext(), c.Params("id"))
		if err != nil {
			return err
		}
		if r.Status != koda.RenderSucceeded {
			return koda.Errorf(koda.ECONFLICT, koda.CodeNotReady, "render %s is %s: only a succeeded render has files", r.ID, r.Status)
		}
		key := r.VideoKey
		if file == fileThumbnail {
			key = r.ThumbKey
		}
		if key == "" {
			return koda.NotFound(file+" of render", r.ID)
		}
		link, err := s.fileURL(key)
		if err != nil {
			return err
		}
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Redirect(link, fiber.StatusTemporaryRedirect)
	}
}
