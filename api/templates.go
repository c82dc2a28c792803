package api

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

// Handlers of templates, their batches and batch manifests.

type templateFieldView struct {
	Name  string          `json:"name"`
	Type  koda.FieldType  `json:"type"`
	Value json.RawMessage `json:"value"`
	Limit koda.FieldLimit `json:"limit"`
}

type templateView struct {
	ID        string              `json:"id"`
	Name      string              `json:"name"`
	ProjectID string              `json:"project_id"`
	Version   int                 `json:"version"`
	DurationS float64             `json:"duration_s"`
	Fields    []templateFieldView `json:"fields"`
	Links     map[string]string   `json:"links"`
	CreatedAt time.Time           `json:"created_at"`
	UpdatedAt time.Time           `json:"updated_at"`
}

func viewTemplate(t *koda.Template) templateView {
	v := templateView{ID: t.ID, Name: t.Name, ProjectID: t.ProjectID, Version: t.Version, DurationS: t.DurationS,
		Fields: make([]templateFieldView, 0, len(t.Fields)), CreatedAt: t.CreatedAt, UpdatedAt: t.UpdatedAt,
		Links: map[string]string{"self": "/v1/templates/" + t.ID, "batches": "/v1/templates/" + t.ID + "/batches"}}
	for _, f := range t.Fields {
		v.Fields = append(v.Fields, templateFieldView{Name: f.Name, Type: f.Type, Value: f.Value, Limit: f.Limit})
	}
	return v
}

type createTemplateRequest struct {
	ProjectID string `json:"project_id"`
	Name      string `json:"name"`
}

func (s *Server) createTemplate(c *fiber.Ctx) error {
	var req createTemplateRequest
	if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	if req.ProjectID == "" || len(req.ProjectID) > 64 {
		return koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "project_id must name a project")
	}
	name, err := koda.NameText.Check("name", req.Name)
	if err != nil {
		return err
	}
	t, err := s.Projects.CreateTemplate(c.UserContext(), req.ProjectID, name)
	if err != nil {
		return err
	}
	c.Location("/v1/templates/" + t.ID)
	return c.Status(fiber.StatusCreated).JSON(viewTemplate(t))
}

// getTemplate: GET /v1/templates/{id}?presets=tiktok,720p → the fields, text limits
// measured in those presets' frames (else in the template project's).
func (s *Server) getTemplate(c *fiber.Ctx) error {
	var raw []json.RawMessage
	for _, name := range strings.Split(c.Query("presets"), ",") {
		if name = strings.TrimSpace(name); name != "" {
			b, _ := json.Marshal(name)
			raw = append(raw, b)
		}
	}
	presets, err := parsePresets(raw)
	if err != nil {
		return err
	}
	t, err := s.Projects.GetTemplate(c.UserContext(), c.Params("id"), presets)
	if err != nil {
		return err
	}
	return c.JSON(viewTemplate(t))
}

func (s *Server) listTemplates(c *fiber.Ctx) error {
	q := koda.TemplateQuery{Cursor: c.Query("cursor")}
	var err error
	if q.Limit, err = queryLimit(c); err != nil {
		return err
	}
	ts, next, err := s.Projects.ListTemplates(c.UserContext(), q)
	if err != nil {
		return err
	}
	out := make([]templateView, 0, len(ts))
	for _, t := range ts {
		out = append(out, viewTemplate(t))
	}
	return c.JSON(fiber.Map{"templates": out, "next_cursor": next})
}

// fieldPatch edits one field: a new name, a new default value, or both.
type fieldPatch struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

type patchTemplateRequest struct {
	Name    string                `json:"name"`
	Version int                   `json:"version"`
	Fields  map[string]fieldPatch `json:"fields"`
	Drop    []string              `json:"drop"`
}

func (r *patchTemplateRequest) toPatch() (koda.TemplatePatch, error) {
	p := koda.TemplatePatch{Name: r.Name, Version: r.Version, Drop: r.Drop,
		Rename: map[string]string{}, Values: map[string]json.RawMessage{}}
	if r.Name == "" && len(r.Fields) == 0 && len(r.Drop) == 0 {
		return p, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "give name, fields or drop to change")
	}
	var err error
	if p.Name, err = koda.NameText.Check("name", r.Name); err != nil {
		return p, err
	}
	for name, f := range r.Fields {
		if f.Name, err = koda.NameText.Check("fields."+name+".name", f.Name); err != nil {
			return p, err
		}
		if f.Name == "" && len(f.Value) == 0 {
			return p, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "fields.%s: give name or value", name)
		}
		if f.Name != "" && f.Name != name {
			p.Rename[name] = f.Name
		}
		if len(f.Value) > 0 {
			p.Values[name] = f.Value
		}
	}
	return p, nil
}

func (s *Server) patchTemplate(c *fiber.Ctx) error {
	var req patchTemplateRequest
	if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	p, err := req.toPatch()
	if err != nil {
		return err
	}
	t, err := s.Projects.PatchTemplate(c.UserContext(), c.Params("id"), p)
	if err != nil {
		return err
	}
	return c.JSON(viewTemplate(t))
}

// deleteTemplate: DELETE /v1/templates/{id} → 204; what was rendered from it stays.
func (s *Server) deleteTemplate(c *fiber.Ctx) error {
	if err := s.Projects.DeleteTemplate(c.UserContext(), c.Params("id")); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// TemplateBatchRequest is the JSON body of POST /v1/templates/{id}/batches.
type TemplateBatchRequest struct {
	Rows        []map[string]json.RawMessage `json:"rows"`
	Presets     []json.RawMessage            `json:"presets"`
	CallbackURL string                       `json:"callback_url"`
}

// createTemplateBatch takes rows as JSON, or a CSV file in a multipart form (field
// "file"; its first line names the fields) with "presets" (names, comma-separated, or
// a JSON array) and "callback_url".
func (s *Server) createTemplateBatch(c *fiber.Ctx) error {
	var req TemplateBatchRequest
	if strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEMultipartForm) {
		var err error
		if req, err = csvBatchRequest(c); err != nil {
			return err
		}
	} else if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	presets, err := parsePresets(req.Presets)
	if err != nil {
		return err
	}
	b, err := s.Projects.CreateTemplateBatch(c.UserContext(), koda.TemplateBatchRequest{TemplateID: c.Params("id"),
		Rows: req.Rows, Presets: presets, CallbackURL: strings.TrimSpace(req.CallbackURL)})
	if err != nil {
		return err
	}
	v, err := s.batchWithRows(c.UserContext(), b.ID)
	if err != nil {
		return err
	}
	c.Location("/v1/batches/" + b.ID)
	return c.Status(fiber.StatusAccepted).JSON(v)
}

// csvBatchRequest reads a multipart batch: every cell is text, read by its field's type
// (a number, numbers separated by ';', a colour); an empty cell keeps the field's value.
func csvBatchRequest(c *fiber.Ctx) (TemplateBatchRequest, error) {
	var req TemplateBatchRequest
	fh, err := c.FormFile("file")
	if err != nil {
		return req, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "the form needs a CSV file in field \"file\"")
	}
	f, err := fh.Open()
	if err != nil {
		return req, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "the CSV file cannot be read")
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err != nil {
		return req, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "the CSV file needs a first line of field names")
	}
	for i, h := range header {
		header[i] = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
	}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return req, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "CSV line %d: %s", line, csvReason(err))
		}
		row := map[string]json.RawMessage{}
		for i, cell := range rec {
			if strings.TrimSpace(cell) == "" {
				continue
			}
			b, _ := json.Marshal(cell)
			row[header[i]] = b
		}
		req.Rows = append(req.Rows, row)
	}
	req.CallbackURL = c.FormValue("callback_url")
	ps := strings.TrimSpace(c.FormValue("presets"))
	if strings.HasPrefix(ps, "[") {
		if err := json.Unmarshal([]byte(ps), &req.Presets); err != nil {
			return req, koda.Errorf(koda.EINVALID, koda.CodeInvalidPreset, "presets must be names separated by commas, or a JSON array")
		}
		return req, nil
	}
	for _, name := range strings.Split(ps, ",") {
		if name = strings.TrimSpace(name); name != "" {
			b, _ := json.Marshal(name)
			req.Presets = append(req.Presets, b)
		}
	}
	return req, nil
}

func csvReason(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return "not CSV"
}

// ManifestView is the JSON answer of GET /v1/batches/{id}/manifest.
type ManifestView struct {
	BatchID string              `json:"batch_id"`
	Lines   []koda.ManifestLine `json:"lines"`
}

// manifest: GET /v1/batches/{id}/manifest → one line per row and preset, JSON or CSV
// (?format=csv or Accept: text/csv).
func (s *Server) manifest(c *fiber.Ctx) error {
	format := c.Query("format")
	if format == "" && c.Accepts(fiber.MIMEApplicationJSON, "text/csv") == "text/csv" {
		format = "csv"
	}
	if format != "" && format != "csv" && format != "json" {
		return koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "format must be json or csv")
	}
	b, rs, err := s.Projects.GetBatch(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	rows, err := s.Projects.BatchRows(c.UserContext(), b.ID)
	if err != nil {
		return err
	}
	lines, err := koda.BatchManifest(b, rs, rows, s.fileURL)
	if err != nil {
		return err
	}
	if format != "csv" {
		return c.JSON(ManifestView{BatchID: b.ID, Lines: lines})
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"row", "preset", "status", "project_id", "render_id", "video_url", "error"})
	for _, l := range lines {
		_ = w.Write([]string{strconv.Itoa(l.Row), l.Preset, l.Status, l.ProjectID, l.RenderID, l.VideoURL, l.Error})
	}
	w.Flush()
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+b.ID+`-manifest.csv"`)
	return c.Send(buf.Bytes())
}
