package api

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

// Assets is the tenant's media library (internal/assets).
type Assets interface {
	// Create checks a file and adds it: its name and declared type as the client gave
	// them, and its bytes, read once as a stream.
	Create(ctx context.Context, name, contentType string, body io.Reader) (*koda.Asset, error)
	// CreateFromURL fetches a file from a public URL and adds it like Create.
	CreateFromURL(ctx context.Context, url, name string) (*koda.Asset, error)
	Get(ctx context.Context, id string) (*koda.Asset, error)
	List(ctx context.Context, q koda.AssetQuery) ([]*koda.Asset, string, error)
	Delete(ctx context.Context, id string) error
	// MaxUpload is the largest file any kind accepts.
	MaxUpload() int64
}

// bodyLimit bounds every request body except an asset upload's, which its handler
// reads as a stream (see limitBody).
const bodyLimit = 1 << 20

// uploadTimeout is how long an asset upload may take to arrive, instead of the
// server's ReadTimeout (30 s: 100 MB would need 27 Mbit/s).
const uploadTimeout = 10 * time.Minute

// isAssetUpload tells the one request whose body is read as a stream. Fiber routes
// paths case-insensitively and ignores a trailing slash, so this compares the same way.
func isAssetUpload(c *fiber.Ctx) bool {
	return c.Method() == fiber.MethodPost && strings.EqualFold(strings.TrimSuffix(c.Path(), "/"), "/v1/assets")
}

// limitBody: the server streams request bodies (StreamRequestBody) so that an asset
// upload of 100 MB is never held in memory; every other request's body is read here,
// at most bodyLimit bytes, as the server's BodyLimit did before. A body larger than
// that is refused without reading it, and the connection is closed, since the rest
// of the body is still on it.
func limitBody(c *fiber.Ctx) error {
	req := c.Request()
	if isAssetUpload(c) || !req.IsBodyStream() {
		return c.Next()
	}
	tooLarge := func() error {
		c.Context().SetConnectionClose()
		return fiber.NewError(fiber.StatusRequestEntityTooLarge, "the request body is larger than 1 MiB")
	}
	n := req.Header.ContentLength()
	if n > bodyLimit {
		return tooLarge()
	}
	var b []byte
	var err error
	if n >= 0 {
		// The length is known: one buffer of that size, one copy.
		b = make([]byte, n)
		_, err = io.ReadFull(req.BodyStream(), b)
	} else {
		b, err = io.ReadAll(io.LimitReader(req.BodyStream(), bodyLimit+1)) // chunked
	}
	if err != nil {
		c.Context().SetConnectionClose()
		return fiber.NewError(fiber.StatusBadRequest, "the request body could not be read")
	}
	if len(b) > bodyLimit {
		return tooLarge()
	}
	req.SetBody(b)
	return c.Next()
}

type assetView struct {
	ID           string            `json:"id"`
	Kind         koda.AssetKind    `json:"kind"`
	Format       string            `json:"format"`
	SourceFormat string            `json:"source_format,omitempty"`
	MediaType    string            `json:"media_type"`
	Size         int64             `json:"size"`
	SHA256       string            `json:"sha256"`
	Width        int               `json:"width,omitempty"`
	Height       int               `json:"height,omitempty"`
	DurationS    float64           `json:"duration_s,omitempty"`
	Codec        string            `json:"codec,omitempty"`
	Name         string            `json:"name"`
	URL          string            `json:"url"`
	CreatedAt    time.Time         `json:"created_at"`
	Links        map[string]string `json:"links"`
}

func (s *Server) viewAsset(a *koda.Asset) (assetView, error) {
	u, err := s.fileURL(a.Key)
	if err != nil {
		return assetView{}, err
	}
	return assetView{ID: a.ID, Kind: a.Kind, Format: a.Format, SourceFormat: a.SourceFormat, MediaType: a.MediaType,
		Size: a.Size, SHA256: a.SHA256, Width: a.Width, Height: a.Height, DurationS: a.DurationS, Codec: a.Codec,
		Name: a.Name, URL: u, CreatedAt: a.CreatedAt, Links: map[string]string{"self": "/v1/assets/" + a.ID}}, nil
}

type assetURLRequest struct {
	URL  string `json:"url"`
	Name string `json:"name"`
}

func (s *Server) assets() (Assets, error) {
	if s.Assets == nil {
		return nil, koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "this server keeps no asset library")
	}
	return s.Assets, nil
}

// createAsset: POST /v1/assets, a multipart form with the file in field "file", or
// JSON {"url", "name"?} to fetch it from a public URL.
func (s *Server) createAsset(c *fiber.Ctx) error {
	lib, err := s.assets()
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	mt, params, _ := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	var a *koda.Asset
	switch mt {
	case fiber.MIMEMultipartForm:
		// Parts after the file are not read: the connection cannot serve another
		// request with them still on it.
		c.Context().SetConnectionClose()
		a, err = s.uploadAsset(c, lib, params["boundary"])
	case fiber.MIMEApplicationJSON:
		body, rerr := readSmallBody(c)
		if rerr != nil {
			return rerr
		}
		var req assetURLRequest
		if err := decode(body, &req, false); err != nil {
			return err
		}
		if strings.TrimSpace(req.URL) == "" {
			return koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "give the file as a multipart upload (field \"file\"), or a url to fetch it from")
		}
		a, err = lib.CreateFromURL(ctx, req.URL, req.Name)
	default:
		c.Context().SetConnectionClose()
		return koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest,
			"send the file as multipart/form-data (field \"file\"), or application/json {\"url\": …}")
	}
	if err != nil {
		if koda.ErrorKind(err) != koda.EINTERNAL {
			// The rest of a refused upload is still on the connection.
			c.Context().SetConnectionClose()
		}
		return err
	}
	v, err := s.viewAsset(a)
	if err != nil {
		return err
	}
	c.Location("/v1/assets/" + a.ID)
	return c.Status(fiber.StatusCreated).JSON(v)
}

// requestBody is the upload's body as a stream: the connection itself when the
// server streams (it always does outside tests of handlers), else the bytes read.
func requestBody(c *fiber.Ctx) io.Reader {
	if c.Request().IsBodyStream() {
		return c.Request().BodyStream()
	}
	return bytes.NewReader(c.Request().Body())
}

// readSmallBody reads a JSON request to this streamed route, bounded like others.
func readSmallBody(c *fiber.Ctx) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(requestBody(c), bodyLimit+1))
	if err != nil {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "the request body could not be read")
	}
	if len(b) > bodyLimit {
		return nil, fiber.NewError(fiber.StatusRequestEntityTooLarge, "the request body is larger than 1 MiB")
	}
	return b, nil
}

// uploadAsset reads the multipart form part by part, straight from the connection:
// the "file" part goes to the library as a stream; other parts before it (a "name"
// to store instead of the file's) are read up to a small bound; parts after it are
// not read at all.
func (s *Server) uploadAsset(c *fiber.Ctx, lib Assets, boundary string) (*koda.Asset, error) {
	if boundary == "" {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "the multipart Content-Type has no boundary")
	}
	// A slow client may take longer than ReadTimeout to send a large file; the
	// deadline set here covers the body, and the server sets its own again before
	// the connection's next request.
	if conn := c.Context().Conn(); conn != nil {
		_ = conn.SetReadDeadline(time.Now().Add(uploadTimeout))
	}
	// Whatever the parts, the body as a whole is bounded: the largest file and some
	// room for the form around it.
	body := io.LimitReader(requestBody(c), lib.MaxUpload()+bodyLimit)
	mr := multipart.NewReader(body, boundary)
	name := ""
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "the form has no file in field \"file\"")
		}
		if err != nil {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "the multipart form is malformed: %v", err)
		}
		switch part.FormName() {
		case "file":
			if name == "" {
				name = part.FileName()
			}
			return lib.Create(c.UserContext(), name, part.Header.Get(fiber.HeaderContentType), part)
		case "name":
			b, err := io.ReadAll(io.LimitReader(part, 1024))
			if err != nil {
				return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "the multipart form is malformed: %v", err)
			}
			name = strings.TrimSpace(string(b))
		}
	}
}

func (s *Server) listAssets(c *fiber.Ctx) error {
	lib, err := s.assets()
	if err != nil {
		return err
	}
	q := koda.AssetQuery{Cursor: c.Query("cursor"), Kind: koda.AssetKind(c.Query("kind"))}
	if q.Limit, err = queryLimit(c); err != nil {
		return err
	}
	list, next, err := lib.List(c.UserContext(), q)
	if err != nil {
		return err
	}
	out := make([]assetView, 0, len(list))
	for _, a := range list {
		v, err := s.viewAsset(a)
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	return c.JSON(fiber.Map{"assets": out, "next_cursor": next})
}

func (s *Server) getAsset(c *fiber.Ctx) error {
	lib, err := s.assets()
	if err != nil {
		return err
	}
	a, err := lib.Get(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	v, err := s.viewAsset(a)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

func (s *Server) deleteAsset(c *fiber.Ctx) error {
	lib, err := s.assets()
	if err != nil {
		return err
	}
	if err := lib.Delete(c.UserContext(), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
