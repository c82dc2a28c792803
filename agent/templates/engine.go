package templates

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox"
)

// Engine reads templates out of project checkpoints and writes the checkpoints of
// filled rows, in Storage. It implements lifecycle.TemplateScenes.
type Engine struct {
	Storage koda.Storage
	// Budget bounds each checkpoint restored (zero: sandbox.DefaultBudget).
	Budget sandbox.Budget
	// WorkDir holds the temporary folders ("" is the system's).
	WorkDir string
}

// notATemplate is the error of a project whose files hold no scene description.
func notATemplate(format string, args ...any) error {
	return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeNotATemplate, format, args...)
}

// restore unpacks the checkpoint at key into a new temporary folder; the caller
// removes it.
func (e *Engine) restore(ctx context.Context, key string) (string, error) {
	rc, err := e.Storage.Open(ctx, key)
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return "", notATemplate("the project has no files")
	}
	if err != nil {
		return "", fmt.Errorf("open %s: %w", key, err)
	}
	defer rc.Close()
	if e.WorkDir != "" {
		if err := os.MkdirAll(e.WorkDir, 0o755); err != nil {
			return "", err
		}
	}
	dir, err := os.MkdirTemp(e.WorkDir, "template-")
	if err != nil {
		return "", err
	}
	if err := sandbox.Restore(ctx, rc, dir, e.Budget); err != nil {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("restore %s: %w", key, err)
	}
	return dir, nil
}

// Discover reads the scene in the checkpoint at key and finds its fields for the
// frames of presets. A project without a scene description (code an LLM wrote by
// hand) is NOT_A_TEMPLATE.
func (e *Engine) Discover(ctx context.Context, key string, presets []koda.PresetSpec) ([]byte, []koda.TemplateField, error) {
	dir, err := e.restore(ctx, key)
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	b, err := os.ReadFile(filepath.Join(dir, scene.FileJSON))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, notATemplate("the project was not made from a scene description (no %s)", scene.FileJSON)
	}
	if err != nil {
		return nil, nil, err
	}
	d, err := scene.Parse(b)
	if err != nil {
		return nil, nil, notATemplate("the project's scene description cannot be read: %v", err)
	}
	audio := ""
	if a := renderer.FindAudio(dir); a != "" {
		if rel, err := filepath.Rel(dir, a); err == nil {
			audio = filepath.ToSlash(rel)
		}
	}
	fields := Discover(d, audio, Frames(presets))
	if len(fields) == 0 {
		return nil, nil, notATemplate("the scene has nothing a row could change (no text, number, chart, colour or picture)")
	}
	return b, fields, nil
}

// Fill puts a row's values into a copy of the scene; the errors name each bad field.
// With presets, text limits are measured again in their frames (which may be narrower
// than the template's) and the critic's fit rules are applied there; without, the
// fields' own limits hold and nothing is moved (a template's new default values).
// assets are the tenant's assets the row's image and soundtrack values name, by id
// (nil: those fields keep the template's files); files are what Copy must add to the
// row's project for them (see RowFile).
func (e *Engine) Fill(sceneJSON []byte, fields []koda.TemplateField, values map[string]json.RawMessage, assets map[string]*koda.Asset, presets []koda.PresetSpec) ([]byte, []koda.ProjectAsset, []koda.FieldError, error) {
	d, err := scene.Parse(sceneJSON)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("template scene: %w", err)
	}
	var frames []critic.Frame
	if len(presets) > 0 {
		frames = Frames(presets)
		fields = Limits(d, fields, frames)
	}
	filled, files, errs := FillRow(d, fields, values, assets, frames)
	if len(errs) > 0 {
		return nil, nil, errs, nil
	}
	b, err := filled.JSON()
	return b, files, nil, err
}

// Limits returns fields with their limits measured in the presets' frames.
func (e *Engine) Limits(sceneJSON []byte, fields []koda.TemplateField, presets []koda.PresetSpec) ([]koda.TemplateField, error) {
	d, err := scene.Parse(sceneJSON)
	if err != nil {
		return nil, fmt.Errorf("template scene: %w", err)
	}
	return Limits(d, fields, Frames(presets)), nil
}

// Copy stores the checkpoint at from under to, with sceneJSON (when not nil) replacing
// the scene in it: scene.json, the scene.js the runtime loads, and the library drawings
// the scene names (a recoloured drawing is a file of its own); and with files, a row's
// assets, copied from Storage to their File (a soundtrack replaces every sound file of
// the template's, so it is the one the renderer finds).
func (e *Engine) Copy(ctx context.Context, from, to string, sceneJSON []byte, files []koda.ProjectAsset) error {
	dir, err := e.restore(ctx, from)
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if sceneJSON != nil {
		d, err := scene.Parse(sceneJSON)
		if err != nil {
			return fmt.Errorf("row scene: %w", err)
		}
		script, err := d.Script()
		if err != nil {
			return err
		}
		files := append(d.AssetFiles(), scene.File{Path: scene.FileJSON, Data: sceneJSON}, scene.File{Path: scene.FileScene, Data: script})
		root, err := os.OpenRoot(dir)
		if err != nil {
			return err
		}
		defer root.Close()
		for _, f := range files {
			if err := root.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
				return err
			}
			if err := root.WriteFile(f.Path, f.Data, 0o644); err != nil {
				return fmt.Errorf("write %s: %w", f.Path, err)
			}
		}
	}
	if err := e.addFiles(ctx, dir, files); err != nil {
		return err
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(sandbox.CheckpointWithin(ctx, dir, pw, e.Budget)) }()
	if _, err := e.Storage.Put(ctx, to, pr); err != nil {
		_ = pr.CloseWithError(err)
		return fmt.Errorf("store %s: %w", to, err)
	}
	return nil
}

// addFiles copies a row's assets from Storage into the project folder dir, each to its
// File, through os.Root (a File is never outside dir). A soundtrack first removes every
// sound file the folder has, then must be the one renderer.FindAudio finds.
func (e *Engine) addFiles(ctx context.Context, dir string, files []koda.ProjectAsset) error {
	if len(files) == 0 {
		return nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	sound := ""
	for _, f := range files {
		if f.Kind != koda.AssetAudio {
			continue
		}
		for a := renderer.FindAudio(dir); a != ""; a = renderer.FindAudio(dir) {
			rel, err := filepath.Rel(dir, a)
			if err != nil {
				return err
			}
			if err := root.Remove(rel); err != nil {
				return fmt.Errorf("remove the template's soundtrack %s: %w", rel, err)
			}
		}
		sound = f.File
	}
	for _, f := range files {
		if err := e.addFile(ctx, root, f); err != nil {
			return err
		}
	}
	if sound != "" {
		if got := renderer.FindAudio(dir); filepath.ToSlash(strings.TrimPrefix(got, dir+string(filepath.Separator))) != sound {
			return fmt.Errorf("the row's soundtrack %s is not the sound the renderer finds (%q)", sound, got)
		}
	}
	return nil
}

func (e *Engine) addFile(ctx context.Context, root *os.Root, f koda.ProjectAsset) error {
	rc, err := e.Storage.Open(ctx, f.Key)
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeProjectAssetNotFound,
			"the %s asset %s was deleted before the row could copy it", f.Role, f.ID)
	}
	if err != nil {
		return fmt.Errorf("open asset %s: %w", f.ID, err)
	}
	defer rc.Close()
	if err := root.MkdirAll(filepath.Dir(f.File), 0o755); err != nil {
		return err
	}
	w, err := root.Create(f.File)
	if err != nil {
		return fmt.Errorf("write %s: %w", f.File, err)
	}
	if _, err := io.Copy(w, rc); err != nil {
		w.Close()
		return fmt.Errorf("copy asset %s to %s: %w", f.ID, f.File, err)
	}
	return w.Close()
}

// Shared returns the stretch of a batch's timeline that no row changes (see Shared),
// and the scene its frames are rendered from: the template's own values fitted to the
// presets' frames, as each row's are. rows are the rows' filled scenes (nil for a bad
// row), set the fields any row gives a value.
func (e *Engine) Shared(sceneJSON []byte, fields []koda.TemplateField, rows [][]byte, set []string, presets []koda.PresetSpec) (koda.SharedStretch, []byte, error) {
	ref, _, bad, err := e.Fill(sceneJSON, fields, nil, nil, presets)
	if err != nil {
		return koda.SharedStretch{}, nil, err
	}
	if len(bad) > 0 {
		return koda.SharedStretch{}, nil, fmt.Errorf("the template's own values do not fill its scene: %v", bad)
	}
	d, err := scene.Parse(ref)
	if err != nil {
		return koda.SharedStretch{}, nil, err
	}
	var ds []*scene.Description
	for _, b := range rows {
		if b == nil {
			continue
		}
		r, err := scene.Parse(b)
		if err != nil {
			return koda.SharedStretch{}, nil, err
		}
		ds = append(ds, r)
	}
	return Shared(d, ds, fields, set), ref, nil
}
