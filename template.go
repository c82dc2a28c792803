package koda

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// PrefixTemplate starts template IDs.
const PrefixTemplate = "tpl"

// FieldType is what a template field holds, and so which values it takes.
type FieldType string

const (
	FieldText   FieldType = "text"   // words on screen: a string
	FieldNumber FieldType = "number" // a counter's target: a number
	FieldSeries FieldType = "series" // a chart's values: an array of numbers
	FieldColor  FieldType = "color"  // a colour of the palette: "#rrggbb"
	FieldImage  FieldType = "image"  // an image or logo slot: in a row, an image asset's id or a URL
	FieldAudio  FieldType = "audio"  // the soundtrack: in a row, an audio asset's id or a URL
)

// Media reports whether a field takes a file (an image or the soundtrack), and so, in a
// batch's rows, an asset id or a URL.
func (t FieldType) Media() bool { return t == FieldImage || t == FieldAudio }

// MediaValue reads a row's value of a media field: the id of one of the tenant's assets
// ("ast_…"), or an http or https URL to fetch the file from, or neither (both "").
// Surrounding spaces are ignored, as a CSV cell may have them.
func MediaValue(raw json.RawMessage) (assetID, url string) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", ""
	}
	s = strings.TrimSpace(s)
	low := strings.ToLower(s)
	switch {
	case strings.HasPrefix(s, PrefixAsset+"_") && !strings.ContainsAny(s, "/:. "):
		return s, ""
	case strings.HasPrefix(low, "http://") || strings.HasPrefix(low, "https://"):
		return "", s
	}
	return "", ""
}

// FieldLimit bounds a field's values; zero fields do not bound.
type FieldLimit struct {
	// MaxLength is the longest text, in characters, that still fits where the text
	// stands at the size it was given (measured by the critic's text-fit rule).
	MaxLength int `json:"max_length,omitempty"`
	// Count is how many values a series takes (the chart's bars or slices).
	Count int `json:"count,omitempty"`
}

// TemplateField is one value of a template's scene that a batch row may replace.
type TemplateField struct {
	Name  string          `json:"name"`
	Type  FieldType       `json:"type"`
	Value json.RawMessage `json:"value"` // the current (default) value, JSON of its type
	Limit FieldLimit      `json:"limit"`
	// Target says where the value goes in the scene ("text:title", "palette:#ff0000");
	// it is the template engine's to read, and stays when a field is renamed.
	Target string `json:"target"`
}

// Template is a finished project's scene with named fields. Every edit makes a new
// version: Version is the current one, and a batch renders the version it was made with.
type Template struct {
	ID        string
	TenantID  string
	ProjectID string // the project it was made from
	Name      string
	Version   int
	Fields    []TemplateField // of the current version
	DurationS float64
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Field returns the field named name, or nil.
func (t *Template) Field(name string) *TemplateField {
	for i := range t.Fields {
		if t.Fields[i].Name == name {
			return &t.Fields[i]
		}
	}
	return nil
}

// TemplateVersion is one version of a template: its fields and the scene they fill.
type TemplateVersion struct {
	TemplateID string
	Version    int
	Name       string
	Fields     []TemplateField
	Scene      []byte // scene.json of the template's project
	CreatedAt  time.Time
}

// TemplateFilter selects templates; zero fields do not filter.
type TemplateFilter struct {
	TenantID string
	AfterID  string // cursor: IDs sort by creation time
	Limit    int
}

// TemplateStore persists templates and their versions (internal/store implements it).
type TemplateStore interface {
	// CreateTemplate stores t with its first version v.
	CreateTemplate(ctx context.Context, t *Template, v *TemplateVersion) error
	// GetTemplate returns the template with its current version's fields, or ENOTFOUND.
	GetTemplate(ctx context.Context, id string) (*Template, error)
	// GetTemplateVersion returns one version of a template, or ENOTFOUND.
	GetTemplateVersion(ctx context.Context, id string, version int) (*TemplateVersion, error)
	// AddTemplateVersion stores v as the template's next version and makes it current;
	// ECONFLICT when v.Version is not the current version plus one (a concurrent edit).
	AddTemplateVersion(ctx context.Context, v *TemplateVersion) error
	ListTemplates(ctx context.Context, f TemplateFilter) ([]*Template, error)
	// DeleteTemplate removes a template and its versions, or ENOTFOUND. The rows of its
	// batches stay: their projects render from their own copies of the files.
	DeleteTemplate(ctx context.Context, id string) error

	// CreateBatchRows stores the rows of a template batch; GetBatchRows lists them by number.
	CreateBatchRows(ctx context.Context, rows []*BatchRow) error
	GetBatchRows(ctx context.Context, batchID string) ([]*BatchRow, error)
}

// TemplatePatch edits a template: renames (old name → new name), new default values,
// and fields dropped. Names in it are the current ones.
type TemplatePatch struct {
	Name    string
	Rename  map[string]string
	Values  map[string]json.RawMessage
	Drop    []string
	Version int // when non-zero, the version the edit was made against
}

// TemplateQuery is a page of the caller's templates.
type TemplateQuery struct {
	Cursor string
	Limit  int
}

// FieldError says why one value of a row cannot be used.
type FieldError struct {
	Field   string `json:"field"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error codes of field values. CodeAssetUnsupported: a media field's value is neither
// its current file, nor an asset id, nor an http(s) URL (or a URL or id where only the
// template's own file is taken: its default values).
const (
	CodeUnknownField     = "UNKNOWN_FIELD"
	CodeTextTooLong      = "TEXT_TOO_LONG"
	CodeInvalidColor     = "INVALID_COLOR"
	CodeInvalidValue     = "INVALID_VALUE"
	CodeAssetUnsupported = "ASSET_UNSUPPORTED"
	CodeNotATemplate     = "NOT_A_TEMPLATE"
	CodeRowsInvalid      = "ROWS_INVALID"
	CodeTemplateEdited   = "TEMPLATE_EDITED"
)

// BatchRow is one row of a template batch: the values given, and either the project
// made for it (rendered to each preset) or the errors that kept it from rendering.
type BatchRow struct {
	BatchID         string
	Row             int // from 1, as in the request (a CSV's header is not a row)
	TemplateID      string
	TemplateVersion int
	ProjectID       string // "" for an invalid row
	Values          map[string]json.RawMessage
	Errors          []FieldError
}

// TemplateBatchRequest asks for one render per row and preset of a template's version.
type TemplateBatchRequest struct {
	TemplateID  string
	Rows        []map[string]json.RawMessage
	Presets     []PresetSpec
	CallbackURL string
}

// MaxBatchRows bounds the rows of one template batch request.
const MaxBatchRows = 1000
