package api

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/url"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

// LiveFiles is a project's folder opened for the live preview; every path stays
// beneath it. Close releases it.
type LiveFiles = interface {
	fs.FS
	Close() error
}

// LivePreview issues short-lived tokens bound to a tenant and a project and opens the
// project's current files (internal/live).
type LivePreview interface {
	Issue(tenantID, projectID string) (token string, expires time.Time)
	// Verify refuses forged, altered and expired tokens with EFORBIDDEN.
	Verify(token string) (tenantID, projectID string, err error)
	Open(ctx context.Context, tenantID, projectID string) (LiveFiles, error)
}

// liveCSP confines a live page: it runs in its own opaque origin even when opened
// outside the Studio's sandboxed iframe (sandbox without allow-same-origin), so it
// reaches neither the Studio's storage nor the API with the session's key; it loads
// only its own files and inline code; it cannot fetch, post forms or be framed by
// other sites.
const liveCSP = "sandbox allow-scripts; default-src 'self' 'unsafe-inline' data: blob:; connect-src 'none'; " +
	"form-action 'none'; base-uri 'self'; frame-ancestors 'self'"

// maxLiveFile bounds one file served by the live preview.
const maxLiveFile = 64 << 20

// liveHook lets the Studio scrub a live page through the export hook: {type:"seek",
// t} from the parent draws the frame at t seconds with window.__exportSeekTo;
// {type:"play"} plays on from there by seeking every animation frame (looping over
// __exportMeta.duration when the page gives one).
const liveHook = `<script>/* koda live preview */(function(){var raf=0,from=0,t0=0,seeked=false;` +
	`function stop(){if(raf){cancelAnimationFrame(raf);raf=0}}` +
	`function seek(t){var f=window.__exportSeekTo;if(typeof f!=="function")return;try{var r=f(t);if(r&&typeof r.catch==="function")r.catch(function(){})}catch(e){}}` +
	`function tick(now){if(!t0)t0=now;var m=window.__exportMeta,d=m&&m.duration>0?+m.duration:0,t=from+(now-t0)/1000;if(d>0)t=t%d;seek(t);raf=requestAnimationFrame(tick)}` +
	`window.addEventListener("message",function(e){if(e.source!==window.parent)return;var d=e.data;if(!d||typeof d!=="object")return;` +
	`if(d.type==="seek"&&typeof d.t==="number"&&isFinite(d.t)){stop();seeked=true;from=Math.max(0,d.t);seek(from)}` +
	`else if(d.type==="play"&&seeked){stop();t0=0;raf=requestAnimationFrame(tick)}})})();</script>`

// createLive: POST /v1/projects/{id}/live → 201 {"url","expires_at"}: a short-lived
// URL of the project's current files for the Studio's sandboxed iframe.
func (s *Server) createLive(c *fiber.Ctx) error {
	if s.Live == nil {
		return koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "this server has no live preview")
	}
	if err := decode(c.Body(), &struct{}{}, true); err != nil {
		return err
	}
	p, err := s.Projects.Get(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	token, exp := s.Live.Issue(p.TenantID, p.ID)
	revealsSecret(c, token)
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"url": "/live/" + token + "/", "expires_at": exp.UTC().Format(time.RFC3339)})
}

var headTag = regexp.MustCompile(`(?i)<head(\s[^>]*)?>`)

// liveHeaders are on every answer of /live, errors included.
func liveHeaders(c *fiber.Ctx) {
	c.Set(fiber.HeaderContentSecurityPolicy, liveCSP)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
	c.Set(fiber.HeaderCacheControl, "no-store")
	// The page runs in an opaque origin: module scripts, fonts and the like it loads
	// from its own folder are cross-origin requests. The token is the credential.
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
}

// serveLive: GET /live/{token}/{path} serves a file of the project the token grants,
// as the agent is writing it. HTML gets the scrubbing hook.
func (s *Server) serveLive(c *fiber.Ctx) error {
	liveHeaders(c)
	if s.Live == nil {
		return koda.NotFound("live preview", "")
	}
	tenantID, projectID, err := s.Live.Verify(c.Params("token"))
	if err != nil {
		return err
	}
	if c.Params("*") == "" && !strings.HasSuffix(c.Path(), "/") {
		// Relative links of the page resolve against its folder, /live/{token}/.
		return c.Redirect(liveFolder(c.Params("token"), ""), fiber.StatusFound)
	}
	name, err := url.PathUnescape(c.Params("*"))
	if err != nil || strings.ContainsRune(name, 0) {
		return koda.NotFound("file", c.Params("*"))
	}
	// Fiber's wildcard drops a trailing slash; the request's path keeps it.
	if name == "" || strings.HasSuffix(name, "/") || strings.HasSuffix(c.Path(), "/") {
		name = strings.TrimSuffix(name, "/") + "/"
	}
	name = strings.TrimPrefix(name, "/")
	if name == "" || strings.HasSuffix(name, "/") {
		name += "index.html"
	}
	if !fs.ValidPath(name) {
		return koda.Errorf(koda.ENOTFOUND, koda.CodeInvalidPath, "no such file in the project")
	}
	files, err := s.Live.Open(c.UserContext(), tenantID, projectID)
	if err != nil {
		return err
	}
	defer files.Close()
	f, err := files.Open(name)
	if err != nil {
		return liveFileError(name, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return liveFileError(name, err)
	}
	if st.IsDir() {
		// Relative links of the folder's index resolve against the folder.
		return c.Redirect(liveFolder(c.Params("token"), name), fiber.StatusFound)
	}
	if st.Size() > maxLiveFile {
		return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeFileTooLarge, "%s is larger than the live preview serves", name)
	}
	body, err := io.ReadAll(io.LimitReader(f, maxLiveFile+1))
	if err != nil {
		return liveFileError(name, err)
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	if strings.HasPrefix(ctype, "text/html") {
		body = injectLiveHook(body)
	}
	c.Set(fiber.HeaderContentType, ctype)
	return c.Send(body)
}

// liveFolder is the absolute path of a folder of the live preview, built from the
// request's token and path alone, each segment escaped. A relative Location made of a
// file name would let a folder named `\\evil.example` (which browsers read as
// `//evil.example`) redirect the Studio's iframe to another host.
func liveFolder(token, dir string) string {
	var b strings.Builder
	b.WriteString("/live/")
	b.WriteString(url.PathEscape(token))
	b.WriteString("/")
	for _, seg := range strings.Split(dir, "/") {
		if seg != "" {
			b.WriteString(url.PathEscape(seg))
			b.WriteString("/")
		}
	}
	return b.String()
}

// injectLiveHook puts the scrubbing hook right after <head>, else at the start.
func injectLiveHook(html []byte) []byte {
	if loc := headTag.FindIndex(html); loc != nil {
		out := make([]byte, 0, len(html)+len(liveHook))
		out = append(out, html[:loc[1]]...)
		out = append(out, liveHook...)
		return append(out, html[loc[1]:]...)
	}
	return append([]byte(liveHook), html...)
}

// liveFileError answers a missing file, a refused path (a symlink out of the folder,
// a device) and anything else the folder will not give alike: 404.
func liveFileError(name string, err error) error {
	var ke *koda.Error
	if errors.As(err, &ke) {
		return err
	}
	return koda.Errorf(koda.ENOTFOUND, koda.CodeFileNotFound, "no such file in the project: %s", name)
}
