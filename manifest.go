package koda

import (
	"fmt"
	"slices"
	"strings"
)

// Statuses of a batch row besides the render statuses it takes from its renders.
const (
	// RowInvalid: the row's values could not be used; nothing of it renders.
	RowInvalid = "invalid"
)

// ManifestLine is one row and preset of a batch, for GET /v1/batches/{id}/manifest.
type ManifestLine struct {
	Row       int    `json:"row"`
	Preset    string `json:"preset"`
	Status    string `json:"status"` // queued | running | succeeded | failed | invalid
	ProjectID string `json:"project_id,omitempty"`
	RenderID  string `json:"render_id,omitempty"`
	VideoURL  string `json:"video_url,omitempty"`
	Error     string `json:"error,omitempty"`
}

// RowProgress is how far one row of a batch is: its renders counted by status.
type RowProgress struct {
	Row       int          `json:"row"`
	ProjectID string       `json:"project_id,omitempty"`
	Status    string       `json:"status"` // queued | running | succeeded | failed | invalid
	Values    any          `json:"values,omitempty"`
	Errors    []FieldError `json:"errors,omitempty"`
	Renders   []string     `json:"render_ids"`
	Done      int          `json:"done"`
	Total     int          `json:"total"`
	Percent   float64      `json:"percent"`
}

// PresetLabel names a preset in a manifest: its name, or its size and rate.
func PresetLabel(p PresetSpec) string {
	if p.Name != "" && p.Name != "custom" {
		return p.Name
	}
	return fmt.Sprintf("%dx%d@%d", p.Width, p.Height, p.FPS)
}

// batchRows numbers a batch's projects: by its template rows, else in the order their
// renders come (a batch of projects).
func batchRows(rs []*Render, rows []*BatchRow) []*BatchRow {
	if len(rows) > 0 {
		return rows
	}
	var out []*BatchRow
	seen := map[string]bool{}
	for _, r := range rs {
		if !seen[r.ProjectID] {
			seen[r.ProjectID] = true
			out = append(out, &BatchRow{Row: len(out) + 1, ProjectID: r.ProjectID})
		}
	}
	return out
}

// BatchProgress is each row's progress in batch b; rs are its renders, rows its
// template rows (none for a batch of projects: each project is a row).
func BatchProgress(b *Batch, rs []*Render, rows []*BatchRow) []RowProgress {
	rs = inRequestOrder(b, rs)
	byProject := map[string][]*Render{}
	for _, r := range rs {
		byProject[r.ProjectID] = append(byProject[r.ProjectID], r)
	}
	var out []RowProgress
	for _, row := range batchRows(rs, rows) {
		p := RowProgress{Row: row.Row, ProjectID: row.ProjectID, Errors: row.Errors, Renders: []string{}}
		if len(row.Values) > 0 {
			p.Values = row.Values
		}
		if len(row.Errors) > 0 {
			p.Status = RowInvalid
			out = append(out, p)
			continue
		}
		var sum float64
		counts := map[RenderStatus]int{}
		for _, r := range byProject[row.ProjectID] {
			p.Renders = append(p.Renders, r.ID)
			counts[r.Status]++
			if r.Status.Done() {
				p.Done++
				sum += 100
			} else {
				sum += r.Progress.Percent
			}
		}
		p.Total = len(p.Renders)
		if p.Total > 0 {
			p.Percent = sum / float64(p.Total)
		}
		switch {
		case p.Total == 0 || counts[RenderQueued] == p.Total:
			p.Status = string(RenderQueued)
		case p.Done < p.Total:
			p.Status = string(RenderRunning)
		case counts[RenderFailed] > 0:
			p.Status = string(RenderFailed)
		default:
			p.Status = string(RenderSucceeded)
		}
		out = append(out, p)
	}
	return out
}

// inRequestOrder sorts a batch's renders as they were asked for (rows, then presets):
// renders made in one millisecond do not sort by ID.
func inRequestOrder(b *Batch, rs []*Render) []*Render {
	at := make(map[string]int, len(b.RenderIDs))
	for i, id := range b.RenderIDs {
		at[id] = i
	}
	out := slices.Clone(rs)
	slices.SortStableFunc(out, func(x, y *Render) int { return at[x.ID] - at[y.ID] })
	return out
}

// BatchManifest is one line per row and preset of batch b: the render's status and
// its video's link when it succeeded, or why the row or render failed. rs are the
// batch's renders, rows its template rows; url links a storage key.
func BatchManifest(b *Batch, rs []*Render, rows []*BatchRow, url func(key string) (string, error)) ([]ManifestLine, error) {
	rs = inRequestOrder(b, rs)
	var presets []string
	seenPreset := map[string]bool{}
	byProject := map[string][]*Render{}
	for _, r := range rs {
		byProject[r.ProjectID] = append(byProject[r.ProjectID], r)
		if l := PresetLabel(r.Preset); !seenPreset[l] {
			seenPreset[l] = true
			presets = append(presets, l)
		}
	}
	out := []ManifestLine{}
	for _, row := range batchRows(rs, rows) {
		if len(row.Errors) > 0 {
			var why []string
			for _, e := range row.Errors {
				why = append(why, fmt.Sprintf("%s: %s (%s)", e.Field, e.Message, e.Code))
			}
			for _, p := range presets {
				out = append(out, ManifestLine{Row: row.Row, Preset: p, Status: RowInvalid, Error: strings.Join(why, "; ")})
			}
			continue
		}
		for _, r := range byProject[row.ProjectID] {
			l := ManifestLine{Row: row.Row, Preset: PresetLabel(r.Preset), Status: string(r.Status), ProjectID: r.ProjectID, RenderID: r.ID}
			if r.Error != nil {
				l.Error = r.Error.Code + ": " + r.Error.Message
			}
			if r.Status == RenderSucceeded && url != nil {
				var err error
				if l.VideoURL, err = url(r.VideoKey); err != nil {
					return nil, fmt.Errorf("render %s video link: %w", r.ID, err)
				}
			}
			out = append(out, l)
		}
	}
	return out, nil
}
