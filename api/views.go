package api

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/kodahq/koda"
)

// The JSON shapes of the API. They are apart from the domain types so the wire
// format changes only on purpose. The ones a client reads are exported, so the
// command-line client (cmd/koda submit, batch) decodes the very types the server
// encodes: one home per wire shape.

// ProjectView is a project as GET /v1/projects/{id} shows it.
type ProjectView struct {
	ID          string            `json:"id"`
	Phase       koda.Phase        `json:"phase"`
	Prompt      string            `json:"prompt"`
	Style       koda.Style        `json:"style,omitempty"`
	StyleNote   string            `json:"style_note,omitempty"`
	DurationS   float64           `json:"duration_s,omitempty"`
	AutoApprove bool              `json:"auto_approve"`
	Presets     []koda.PresetSpec `json:"presets"`
	CallbackURL string            `json:"callback_url,omitempty"`
	Metadata    json.RawMessage   `json:"metadata,omitempty"`
	// Assets are the tenant's files the project uses (its own and its brand kit's).
	Assets []projectAssetView `json:"assets"`
	// Brand is the brand kit the project was made with; null without one.
	Brand     *koda.Brand       `json:"brand"`
	Question  *koda.Question    `json:"question"`
	Plan      *koda.Plan        `json:"plan"`
	Execution ExecutionView     `json:"execution"`
	Preview   *VideoView        `json:"preview"`
	Output    []VideoView       `json:"output"`
	Error     *koda.Failure     `json:"error"`
	Renders   []renderView      `json:"renders"`
	Links     map[string]string `json:"links"`
	CreatedAt time.Time         `json:"created_at"`
	UpdatedAt time.Time         `json:"updated_at"`
}

// projectAssetView is one asset of a project: which, in what role, and where its copy
// is in the project's files.
type projectAssetView struct {
	ID        string         `json:"id"`
	Role      koda.AssetRole `json:"role"`
	Kind      koda.AssetKind `json:"kind"`
	Name      string         `json:"name"`
	File      string         `json:"file"`
	FromBrand bool           `json:"from_brand"`
}

// ExecutionView is what the agent has done so far: todos, thinking, files, messages.
type ExecutionView struct {
	Todos    []koda.Todo     `json:"todos"`
	Thinking string          `json:"thinking"`
	Files    []koda.FileInfo `json:"files"`
	Messages []koda.Message  `json:"messages"`
}

// VideoView links a finished video and its thumbnail.
type VideoView struct {
	RenderID     string `json:"render_id"`
	Preset       string `json:"preset,omitempty"`
	VideoURL     string `json:"video_url"`
	ThumbnailURL string `json:"thumbnail_url"`
}

// renderView is the domain's one shape of a render, shared with the webhooks.
type renderView = koda.RenderView

// BatchView is a batch as GET /v1/batches/{id} shows it.
type BatchView struct {
	ID         string       `json:"id"`
	ProjectID  string       `json:"project_id,omitempty"`
	ProjectIDs []string     `json:"project_ids"`
	Status     string       `json:"status"` // running | completed | cancelled
	Total      int          `json:"total"`
	Queued     int          `json:"queued"`
	Running    int          `json:"running"`
	Succeeded  int          `json:"succeeded"`
	Failed     int          `json:"failed"`
	Renders    []renderView `json:"renders"`
	// Rows is each row's progress: a template batch's rows, a batch of projects'
	// projects.
	Rows        []koda.RowProgress `json:"rows"`
	CreatedAt   time.Time          `json:"created_at"`
	CompletedAt *time.Time         `json:"completed_at"`
	CancelledAt *time.Time         `json:"cancelled_at"`
}

func (s *Server) viewRender(r *koda.Render) (renderView, error) { return koda.ViewRender(r, s.fileURL) }

// viewVideo links a finished video; a link that cannot be signed fails the response
// (503) rather than going out empty.
func (s *Server) viewVideo(renderID, preset, videoKey, thumbKey string) (VideoView, error) {
	v := VideoView{RenderID: renderID, Preset: preset}
	var err error
	if v.VideoURL, err = s.fileURL(videoKey); err != nil {
		return VideoView{}, fmt.Errorf("render %s video link: %w", renderID, err)
	}
	if v.ThumbnailURL, err = s.fileURL(thumbKey); err != nil {
		return VideoView{}, fmt.Errorf("render %s thumbnail link: %w", renderID, err)
	}
	return v, nil
}

func (s *Server) viewProject(p *koda.Project, renders []*koda.Render) (ProjectView, error) {
	v := ProjectView{
		ID: p.ID, Phase: p.Phase, Prompt: p.Prompt, Style: p.Style, StyleNote: p.StyleNote, DurationS: p.DurationS,
		AutoApprove: p.AutoApprove, CallbackURL: p.CallbackURL, Metadata: p.Metadata,
		Question: p.Question, Plan: p.Plan, Error: p.Error,
		Execution: ExecutionView{Todos: p.Execution.Todos, Thinking: p.Execution.Thinking, Files: p.Execution.Files, Messages: p.Execution.Messages},
		Presets:   []koda.PresetSpec{}, Output: []VideoView{}, Renders: []renderView{},
		Links: map[string]string{
			"self": "/v1/projects/" + p.ID, "events": "/v1/projects/" + p.ID + "/events",
		},
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
	}
	for _, ps := range p.Presets {
		v.Presets = append(v.Presets, ps)
	}
	v.Assets = []projectAssetView{}
	for _, a := range p.Assets {
		v.Assets = append(v.Assets, projectAssetView{ID: a.ID, Role: a.Role, Kind: a.Kind, Name: a.Name, File: a.File, FromBrand: a.FromBrand})
	}
	v.Brand = p.Brand
	if v.Execution.Todos == nil {
		v.Execution.Todos = []koda.Todo{}
	}
	if v.Execution.Files == nil {
		v.Execution.Files = []koda.FileInfo{}
	}
	if v.Execution.Messages == nil {
		v.Execution.Messages = []koda.Message{}
	}
	if p.Preview != nil {
		pv, err := s.viewVideo(p.Preview.RenderID, "preview", p.Preview.VideoKey, p.Preview.ThumbnailKey)
		if err != nil {
			return ProjectView{}, err
		}
		v.Preview = &pv
	}
	for _, r := range renders {
		rv, err := s.viewRender(r)
		if err != nil {
			return ProjectView{}, err
		}
		v.Renders = append(v.Renders, rv)
		if r.Kind == koda.RenderFinal && r.Status == koda.RenderSucceeded {
			out, err := s.viewVideo(r.ID, r.Preset.Name, r.VideoKey, r.ThumbKey)
			if err != nil {
				return ProjectView{}, err
			}
			v.Output = append(v.Output, out)
		}
	}
	return v, nil
}

func (s *Server) viewBatch(b *koda.Batch, rs []*koda.Render, rows []*koda.BatchRow) (BatchView, error) {
	v := BatchView{ID: b.ID, ProjectID: b.ProjectID, ProjectIDs: []string{}, Total: len(rs), Renders: []renderView{},
		Rows: koda.BatchProgress(b, rs, rows), CreatedAt: b.CreatedAt, CompletedAt: b.CompletedAt, CancelledAt: b.CancelledAt, Status: "running"}
	if v.Rows == nil {
		v.Rows = []koda.RowProgress{}
	}
	seen := map[string]bool{}
	for _, r := range rs {
		rv, err := s.viewRender(r)
		if err != nil {
			return BatchView{}, err
		}
		v.Renders = append(v.Renders, rv)
		if !seen[r.ProjectID] {
			seen[r.ProjectID] = true
			v.ProjectIDs = append(v.ProjectIDs, r.ProjectID)
		}
		switch r.Status {
		case koda.RenderQueued:
			v.Queued++
		case koda.RenderRunning:
			v.Running++
		case koda.RenderSucceeded:
			v.Succeeded++
		case koda.RenderFailed:
			v.Failed++
		}
	}
	switch {
	case b.CancelledAt != nil:
		v.Status = "cancelled"
	case v.Queued+v.Running == 0 && b.CompletedAt != nil:
		v.Status = "completed"
	}
	return v, nil
}
