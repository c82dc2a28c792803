package lifecycle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kodahq/koda"
)

// TemplateScenes reads and fills template scenes in stored checkpoints
// (agent/templates.Engine implements it).
type TemplateScenes interface {
	// Discover reads the scene in the checkpoint at key and finds its fields, limits
	// measured in the presets' frames; NOT_A_TEMPLATE when it holds no scene.
	Discover(ctx context.Context, key string, presets []koda.PresetSpec) ([]byte, []koda.TemplateField, error)
	// Fill puts values into a copy of the scene, or says why each bad one cannot be used;
	// with presets the text limits are measured and the fit rules applied in their
	// frames, without them the fields' own limits hold. assets are the tenant's assets
	// image and soundtrack values name by id (nil: those keep the template's files);
	// files are the row's own files, for Copy.
	Fill(scene []byte, fields []koda.TemplateField, values map[string]json.RawMessage, assets map[string]*koda.Asset, presets []koda.PresetSpec) (out []byte, files []koda.ProjectAsset, bad []koda.FieldError, err error)
	// Limits returns the fields with their limits measured in the presets' frames.
	Limits(scene []byte, fields []koda.TemplateField, presets []koda.PresetSpec) ([]koda.TemplateField, error)
	// Copy stores the checkpoint at from under to, with scene (if not nil) and a row's
	// files (copied from Storage) in it.
	Copy(ctx context.Context, from, to string, scene []byte, files []koda.ProjectAsset) error
	// Shared returns the stretch of a batch's timeline no row changes and the scene it
	// is rendered from; rows are the rows' filled scenes (nil for bad rows), set the
	// fields any row gives a value.
	Shared(scene []byte, fields []koda.TemplateField, rows [][]byte, set []string, presets []koda.PresetSpec) (koda.SharedStretch, []byte, error)
}

// AssetFetcher fetches a file from a public URL into the caller's asset library,
// checked as an upload is (internal/assets.Service implements it).
type AssetFetcher interface {
	CreateFromURL(ctx context.Context, url, name string) (*koda.Asset, error)
}

var fieldNameRE = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

func (s *Service) templateStore(st koda.Store) (koda.TemplateStore, error) {
	ts, ok := st.(koda.TemplateStore)
	if !ok || s.Templates == nil {
		return nil, koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "templates are not available on this server")
	}
	return ts, nil
}

// templatePresets are the presets a template's limits are measured for: its project's,
// else the final render's.
func templatePresets(p *koda.Project) []koda.PresetSpec {
	if len(p.Presets) > 0 {
		return p.Presets
	}
	final, _ := koda.LookupPreset("final")
	return []koda.PresetSpec{final}
}

func checkTemplateName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > 200 {
		return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "name must be 1–200 characters")
	}
	return name, nil
}

// CreateTemplate turns a complete project's scene into a template: its fields are
// found and named, and its files are copied, so the template outlives the project.
func (s *Service) CreateTemplate(ctx context.Context, projectID, name string) (*koda.Template, error) {
	ts, err := s.templateStore(s.Store)
	if err != nil {
		return nil, err
	}
	if name, err = checkTemplateName(name); err != nil {
		return nil, err
	}
	p, err := s.Get(ctx, projectID)
	if err != nil {
		return nil, err
	}
	if p.Phase != koda.PhaseComplete {
		return nil, &koda.Error{Kind: koda.ECONFLICT, Code: koda.CodePhaseConflict, Phase: p.Phase,
			Message: "only a complete project can become a template; it is in phase " + string(p.Phase)}
	}
	src := koda.CheckpointKey(koda.ProjectFolder(p.ID))
	sc, fields, err := s.Templates.Discover(ctx, src, templatePresets(p))
	if err != nil {
		return nil, err
	}
	now := s.now()
	t := &koda.Template{ID: koda.NewID(koda.PrefixTemplate), TenantID: p.TenantID, ProjectID: p.ID, Name: name,
		Version: 1, Fields: fields, DurationS: p.DurationS, CreatedAt: now, UpdatedAt: now}
	// The files are stored before the rows: a failure between leaves a folder no row
	// names, never a template without files.
	if err := s.Templates.Copy(ctx, src, koda.CheckpointKey(koda.TemplateFolder(t.ID)), nil, nil); err != nil {
		return nil, err
	}
	v := &koda.TemplateVersion{TemplateID: t.ID, Version: 1, Name: name, Fields: fields, Scene: sc, CreatedAt: now}
	if err := ts.CreateTemplate(ctx, t, v); err != nil {
		return nil, err
	}
	s.log().Info("template created", "template", t.ID, "project", p.ID, "fields", len(fields))
	return t, nil
}

// loadTemplate returns a template the caller may see; another tenant's reads as not found.
func (s *Service) loadTemplate(ctx context.Context, ts koda.TemplateStore, id string) (*koda.Template, error) {
	t, err := ts.GetTemplate(ctx, id)
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return nil, koda.NotFound("template", id)
	}
	if err != nil {
		return nil, err
	}
	if tenant := koda.TenantFromContext(ctx); tenant != "" && tenant != t.TenantID {
		return nil, koda.NotFound("template", id)
	}
	return t, nil
}

// GetTemplate returns a template the caller may see, with its current version's fields;
// with presets, text limits are measured in their frames (a vertical preset takes
// fewer characters on a line than the landscape the template may have been made for).
func (s *Service) GetTemplate(ctx context.Context, id string, presets []koda.PresetSpec) (*koda.Template, error) {
	ts, err := s.templateStore(s.Store)
	if err != nil {
		return nil, err
	}
	t, err := s.loadTemplate(ctx, ts, id)
	if err != nil || len(presets) == 0 {
		return t, err
	}
	v, err := ts.GetTemplateVersion(ctx, id, t.Version)
	if err != nil {
		return nil, err
	}
	if t.Fields, err = s.Templates.Limits(v.Scene, v.Fields, presets); err != nil {
		return nil, err
	}
	return t, nil
}

// ListTemplates returns a page of the caller's templates, oldest first, and the next
// page's cursor.
func (s *Service) ListTemplates(ctx context.Context, q koda.TemplateQuery) ([]*koda.Template, string, error) {
	ts, err := s.templateStore(s.Store)
	if err != nil {
		return nil, "", err
	}
	size := koda.PageSize(q.Limit)
	list, err := ts.ListTemplates(ctx, koda.TemplateFilter{TenantID: tenantOf(ctx), AfterID: q.Cursor, Limit: size + 1})
	if err != nil {
		return nil, "", err
	}
	list, next := koda.Page(list, size, func(t *koda.Template) string { return t.ID })
	return list, next, nil
}

// PatchTemplate makes a new version of a template: default values set (put into its
// scene), fields renamed or dropped, the name changed. Batches made before keep the
// version they were made with.
func (s *Service) PatchTemplate(ctx context.Context, id string, patch koda.TemplatePatch) (*koda.Template, error) {
	ts, err := s.templateStore(s.Store)
	if err != nil {
		return nil, err
	}
	t, err := s.loadTemplate(ctx, ts, id)
	if err != nil {
		return nil, err
	}
	if patch.Version != 0 && patch.Version != t.Version {
		return nil, koda.Errorf(koda.ECONFLICT, koda.CodeTemplateEdited, "template %s is at version %d, not %d", id, t.Version, patch.Version)
	}
	cur, err := ts.GetTemplateVersion(ctx, id, t.Version)
	if err != nil {
		return nil, err
	}
	next := &koda.TemplateVersion{TemplateID: id, Version: t.Version + 1, Name: t.Name,
		Fields: slices.Clone(cur.Fields), Scene: cur.Scene, CreatedAt: s.now()}
	if patch.Name != "" {
		if next.Name, err = checkTemplateName(patch.Name); err != nil {
			return nil, err
		}
	}
	known := func(name, what string) (int, error) {
		i := slices.IndexFunc(next.Fields, func(f koda.TemplateField) bool { return f.Name == name })
		if i < 0 {
			return 0, koda.Errorf(koda.EINVALID, koda.CodeUnknownField, "%s: the template has no field %q", what, name)
		}
		return i, nil
	}
	if len(patch.Values) > 0 {
		for name := range patch.Values {
			if _, err := known(name, "values"); err != nil {
				return nil, err
			}
		}
		sc, _, bad, err := s.Templates.Fill(next.Scene, next.Fields, patch.Values, nil, nil)
		if err != nil {
			return nil, err
		}
		if len(bad) > 0 {
			return nil, koda.Errorf(koda.EUNPROCESSABLE, bad[0].Code, "values.%s: %s", bad[0].Field, bad[0].Message)
		}
		next.Scene = sc
		for name, v := range patch.Values {
			i, _ := known(name, "values")
			next.Fields[i].Value = v
		}
	}
	for _, name := range patch.Drop {
		i, err := known(name, "drop")
		if err != nil {
			return nil, err
		}
		next.Fields = slices.Delete(next.Fields, i, i+1)
	}
	for _, old := range slices.Sorted(maps.Keys(patch.Rename)) {
		i, err := known(old, "rename")
		if err != nil {
			return nil, err
		}
		next.Fields[i].Name = patch.Rename[old]
	}
	seen := map[string]bool{}
	for _, f := range next.Fields {
		if !fieldNameRE.MatchString(f.Name) {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "field name %q must be lower-case letters, digits and _ (starting with a letter, at most 40)", f.Name)
		}
		if seen[f.Name] {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "two fields would be named %q", f.Name)
		}
		seen[f.Name] = true
	}
	if err := ts.AddTemplateVersion(ctx, next); err != nil {
		return nil, err
	}
	s.log().Info("template edited", "template", id, "version", next.Version)
	return ts.GetTemplate(ctx, id)
}

// DeleteTemplate deletes a template the caller may see, with its versions and files.
// What was made from it stays: each row of its batches is a project with its own copy
// of the files, so those renders, their batches and manifests go on as before; the
// template no longer lists and takes no new batch.
func (s *Service) DeleteTemplate(ctx context.Context, id string) error {
	ts, err := s.templateStore(s.Store)
	if err != nil {
		return err
	}
	if _, err := s.loadTemplate(ctx, ts, id); err != nil {
		return err
	}
	if err := ts.DeleteTemplate(ctx, id); err != nil {
		if koda.ErrorKind(err) == koda.ENOTFOUND {
			return koda.NotFound("template", id)
		}
		return err
	}
	if s.Storage != nil {
		if err := s.Storage.DeletePrefix(ctx, koda.TemplateFolder(id)+"/"); err != nil {
			// The rows are gone; leftover files are only disk space, so report success.
			s.log().Warn("delete template files", "template", id, "err", err)
		}
	}
	s.log().Info("template deleted", "template", id)
	return nil
}

// CreateTemplateBatch renders every row of a template's current version to every
// preset, without the agent: each valid row's values fill a copy of the scene, which
// becomes a complete project of its own (its files the template's with that scene),
// and the projects are rendered as one batch, as a batch of projects is. Every row is
// checked before anything is stored; a bad row is kept with its errors (row number and
// field) and the others go on. A request whose rows are all bad is refused.
func (s *Service) CreateTemplateBatch(ctx context.Context, req koda.TemplateBatchRequest) (*koda.Batch, error) {
	ts, err := s.templateStore(s.Store)
	if err != nil {
		return nil, err
	}
	if len(req.Presets) == 0 {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidPreset, "presets must name at least one preset")
	}
	if len(req.Rows) == 0 {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "rows must hold at least one row")
	}
	if len(req.Rows) > koda.MaxBatchRows {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "a batch takes at most %d rows", koda.MaxBatchRows)
	}
	if err := koda.ValidateCallbackURL(req.CallbackURL); err != nil {
		return nil, err
	}
	if err := s.checkCallback(ctx, req.CallbackURL); err != nil {
		return nil, err
	}
	t, err := s.loadTemplate(ctx, ts, req.TemplateID)
	if err != nil {
		return nil, err
	}
	if err := koda.CheckPresetDurations(req.Presets, t.DurationS); err != nil {
		return nil, err
	}
	l, err := s.limits(ctx, s.Store, t.TenantID)
	if err != nil {
		return nil, err
	}
	if l.BatchRows > 0 && len(req.Rows) > l.BatchRows {
		return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeLimitBatchRows, "%d rows asked for; this account's batches take at most %d", len(req.Rows), l.BatchRows)
	}
	v, err := ts.GetTemplateVersion(ctx, t.ID, t.Version)
	if err != nil {
		return nil, err
	}
	media, err := s.resolveRowMedia(ctx, t.TenantID, v.Fields, req.Rows)
	if err != nil {
		return nil, err
	}
	now := s.now()
	b := &koda.Batch{ID: koda.NewID(koda.PrefixBatch), TenantID: t.TenantID, CallbackURL: req.CallbackURL, CreatedAt: now}
	rows := make([]*koda.BatchRow, len(req.Rows))
	scenes := make([][]byte, len(req.Rows))
	files := make([][]koda.ProjectAsset, len(req.Rows))
	valid := 0
	for i, values := range req.Rows {
		rows[i] = &koda.BatchRow{BatchID: b.ID, Row: i + 1, TemplateID: t.ID, TemplateVersion: v.Version, Values: values}
		vals, mediaBad := media.row(v.Fields, values)
		sc, fs, bad, err := s.Templates.Fill(v.Scene, v.Fields, vals, media.assets, req.Presets)
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i+1, err)
		}
		if bad = append(mediaBad, bad...); len(bad) > 0 {
			slices.SortStableFunc(bad, func(a, b koda.FieldError) int { return strings.Compare(a.Field, b.Field) })
			rows[i].Errors = bad
			continue
		}
		scenes[i], files[i] = sc, fs
		rows[i].ProjectID = koda.NewID(koda.PrefixProject)
		valid++
	}
	if valid == 0 {
		return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeRowsInvalid, "no row can be rendered: %s", rowErrors(rows, 5))
	}
	// The rows' files go to storage before their projects exist: should the transaction
	// fail, the orphan clean-up removes folders no project names.
	from := koda.CheckpointKey(koda.TemplateFolder(t.ID))
	shared := s.sharedStretch(ctx, v, rows, scenes, req.Presets, t.DurationS, from, b.ID)
	for i, r := range rows {
		if r.ProjectID == "" {
			continue
		}
		if err := s.Templates.Copy(ctx, from, koda.CheckpointKey(koda.ProjectFolder(r.ProjectID)), scenes[i], files[i]); err != nil {
			// A template deleted since it was loaded took its files with it: the
			// caller learns it is gone, not that the server failed.
			if _, gone := ts.GetTemplate(ctx, t.ID); koda.ErrorKind(gone) == koda.ENOTFOUND {
				return nil, koda.NotFound("template", t.ID)
			}
			if koda.ErrorKind(err) == koda.EUNPROCESSABLE {
				// An asset deleted since the rows were checked: the message names the row.
				return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.ErrorCode(err), "row %d: %s", r.Row, koda.ErrorMessage(err))
			}
			return nil, fmt.Errorf("row %d files: %w", r.Row, err)
		}
	}
	err = s.inTx(ctx, func(tx koda.Store, c *change) error {
		tts, err := s.templateStore(tx)
		if err != nil {
			return err
		}
		if err := s.checkRenderLimits(ctx, tx, t.TenantID, valid*len(req.Presets)); err != nil {
			return err
		}
		var renders []*koda.Render
		for i, r := range rows {
			if r.ProjectID == "" {
				continue
			}
			p := rowProject(t, v, b, r, req, files[i], shared, now)
			if err := tx.CreateProject(ctx, p); err != nil {
				return fmt.Errorf("row %d project: %w", r.Row, err)
			}
			if err := s.event(ctx, tx, p, koda.EventStateChange, koda.StateChangeData{Phase: p.Phase}, c); err != nil {
				return err
			}
			for _, preset := range req.Presets {
				rd := newFinalRender(p, b.ID, preset, now)
				renders = append(renders, rd)
				b.RenderIDs = append(b.RenderIDs, rd.ID)
			}
		}
		if err := s.storeBatch(ctx, tx, b, renders, c); err != nil {
			return err
		}
		return tts.CreateBatchRows(ctx, rows)
	})
	if err != nil {
		return nil, err
	}
	s.log().Info("template batch created", "template", t.ID, "version", v.Version, "batch", b.ID,
		"rows", len(rows), "invalid", len(rows)-valid, "renders", len(b.RenderIDs))
	return b, nil
}

// rowProject is the complete project a valid row renders as: the template's length,
// the batch's presets and callback, the row's own assets (already in its files), the
// stretch it shares with the batch's other rows, and metadata naming where it came from.
func rowProject(t *koda.Template, v *koda.TemplateVersion, b *koda.Batch, r *koda.BatchRow, req koda.TemplateBatchRequest, files []koda.ProjectAsset, shared koda.SharedStretch, now time.Time) *koda.Project {
	m := map[string]any{"template_id": t.ID, "template_version": v.Version, "batch_id": b.ID, "row": r.Row}
	if shared != (koda.SharedStretch{}) {
		m[koda.MetaSharedStretch] = shared
	}
	meta, _ := json.Marshal(m)
	return &koda.Project{
		ID: r.ProjectID, TenantID: t.TenantID, Prompt: fmt.Sprintf("%s, row %d", v.Name, r.Row),
		DurationS: t.DurationS, Presets: req.Presets, CallbackURL: req.CallbackURL, Metadata: meta, Assets: files,
		Phase: koda.PhaseComplete, CreatedAt: now, UpdatedAt: now,
	}
}

// sharedStretch decides the stretch of the batch's timeline no row changes
// (agent/templates.Shared) and stores the checkpoint its frames are rendered from, under
// the batch's shared folder; the rows' projects carry the stretch in their metadata,
// and the render workers render it once per spec (workers/shared.go). A zero stretch
// renders every row whole, as does any failure here: slower, never wrong.
func (s *Service) sharedStretch(ctx context.Context, v *koda.TemplateVersion, rows []*koda.BatchRow, scenes [][]byte,
	presets []koda.PresetSpec, durationS float64, from, batchID string) koda.SharedStretch {
	if s.NoSharedStretch {
		return koda.SharedStretch{}
	}
	var set []string
	for _, r := range rows {
		if r.ProjectID == "" {
			continue
		}
		for name := range r.Values {
			if !slices.Contains(set, name) {
				set = append(set, name)
			}
		}
	}
	sh, ref, err := s.Templates.Shared(v.Scene, v.Fields, scenes, set, presets)
	if err != nil {
		// The rows render whole: slower, never wrong.
		s.log().Warn("template batch: no shared stretch", "batch", batchID, "err", err)
		return koda.SharedStretch{}
	}
	worth := false
	for _, p := range presets {
		_, _, ok := sh.Frames(p.FPS, p.Frames(durationS))
		worth = worth || ok
	}
	if !worth {
		return koda.SharedStretch{}
	}
	if err := s.Templates.Copy(ctx, from, koda.CheckpointKey(koda.BatchSharedFolder(batchID)), ref, nil); err != nil {
		s.log().Warn("template batch: no shared stretch", "batch", batchID, "err", err)
		return koda.SharedStretch{}
	}
	s.log().Info("template batch: shared stretch", "batch", batchID, "head_s", sh.HeadS, "tail_s", sh.TailS)
	return sh
}

// rowErrors says what is wrong with the first n bad rows, for a message.
func rowErrors(rows []*koda.BatchRow, n int) string {
	var parts []string
	for _, r := range rows {
		for _, e := range r.Errors {
			if len(parts) == n {
				return strings.Join(parts, "; ") + "; …"
			}
			parts = append(parts, fmt.Sprintf("row %d %s: %s", r.Row, e.Field, e.Message))
		}
	}
	return strings.Join(parts, "; ")
}

// BatchRows returns the rows of a batch the caller may see: none for a batch of
// projects.
func (s *Service) BatchRows(ctx context.Context, batchID string) ([]*koda.BatchRow, error) {
	if _, err := s.loadBatch(ctx, s.Store, batchID); err != nil {
		if koda.ErrorKind(err) == koda.ENOTFOUND {
			return nil, koda.NotFound("batch", batchID)
		}
		return nil, err
	}
	ts, err := s.templateStore(s.Store)
	var unavailable *koda.Error
	if errors.As(err, &unavailable) {
		return nil, nil
	}
	return ts.GetBatchRows(ctx, batchID)
}
