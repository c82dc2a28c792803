package workers

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/lifecycle"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox"
)

// A template batch's shared stretch (koda.SharedStretch: an intro before any field
// shows, an end card after the last has gone) is rendered once per batch and preset
// spec, from the scene the lifecycle stored under koda.BatchSharedFolder, and kept in
// storage at koda.SharedPartKey. Each row's render task renders only its own frames
// and joins them to the shared parts without re-encoding, as a split render's chunks
// are joined (renderer.JoinChunks: the same encoder settings, every part opening with
// a keyframe, the parts' lengths whole frames at the preset's rate), with the row's
// soundtrack laid once under the joined video.
//
// The shared part is no task of its own: the first row task that needs it renders it
// (one at a time per process; a second process may render it too, and its upload
// replaces the first with the same frames). So a worker killed while rendering it
// loses nothing that is not recovered with the row's own task: the task comes back
// (asynq's retry, or the reconciler after Redis lost it), finds no file and renders it
// again. Any failure to get the shared part other than the task's end renders the row
// whole: slower, never wrong.

// sharedRow is what a row render takes from its batch's shared stretch.
type sharedRow struct {
	batchID    string // the batch whose shared folder holds the parts
	head, tail int    // frames [0, head) and [tail, total) are shared
	total      int
}

// sharedFor returns the shared stretch of a render of a template batch's row, or
// ok=false for a render that renders every frame: not a row, the batch has no shared
// stretch, or the render belongs to a later batch of the project (the stretch is the
// batch's that made the project).
func (h *Handlers) sharedFor(ctx context.Context, r *koda.Render) (sharedRow, bool, error) {
	if r.Kind != koda.RenderFinal || r.BatchID == "" {
		return sharedRow{}, false, nil
	}
	p, err := h.Lifecycle.Store.GetProject(ctx, r.ProjectID)
	if err != nil {
		return sharedRow{}, false, fmt.Errorf("render %s: %w", r.ID, err)
	}
	s, ok := koda.SharedStretchOf(p.Metadata)
	if !ok {
		return sharedRow{}, false, nil
	}
	var meta struct {
		BatchID string `json:"batch_id"`
	}
	if json.Unmarshal(p.Metadata, &meta) != nil || meta.BatchID != r.BatchID {
		return sharedRow{}, false, nil
	}
	total := r.Preset.Frames(r.DurationS)
	head, tail, ok := s.Frames(r.Preset.FPS, total)
	return sharedRow{batchID: meta.BatchID, head: head, tail: tail, total: total}, ok, nil
}

// renderRowToStorage renders a row's own frames, joins them to the batch's shared
// parts and uploads the video and thumbnail, like renderToStorage.
func (h *Handlers) renderRowToStorage(ctx context.Context, t *asynq.Task, r *koda.Render, sr sharedRow) (lifecycle.RenderOutput, error) {
	var out lifecycle.RenderOutput
	dir, src, err := h.restoreForRender(ctx, r)
	if err != nil {
		return out, err
	}
	defer os.RemoveAll(dir)
	ext := "." + r.Preset.Format
	var parts []string
	shared := func(start, end int) error {
		p := filepath.Join(dir, fmt.Sprintf("shared-%d-%d%s", start, end, ext))
		if err := h.sharedPart(ctx, sr.batchID, r.Preset, r.DurationS, start, end, p); err != nil {
			return err
		}
		parts = append(parts, p)
		return nil
	}
	if sr.head > 0 {
		if err := shared(0, sr.head); err != nil {
			return out, err
		}
	}
	own := filepath.Join(dir, "own"+ext)
	progress := h.progressReporter(ctx, t, r)
	ownFrames := sr.tail - sr.head
	_, err = h.Renderer.Render(ctx, koda.RenderRequest{
		Dir: src, Preset: r.Preset, DurationS: r.DurationS, FrameStart: sr.head, FrameEnd: sr.tail, VideoPath: own,
	}, func(pr koda.RenderProgress) {
		// The shared frames are done already: the row's progress is over all its frames.
		pr.FramesDone += sr.total - ownFrames
		pr.FramesTotal = sr.total
		pr.Percent = (float64(sr.total-ownFrames)*100 + pr.Percent*float64(ownFrames)) / float64(sr.total)
		progress.report(pr)
	})
	progress.stop()
	if err != nil {
		return out, err
	}
	parts = append(parts, own)
	if sr.tail < sr.total {
		if err := shared(sr.tail, sr.total); err != nil {
			return out, err
		}
	}
	video, thumb := filepath.Join(dir, "video"+ext), filepath.Join(dir, "thumb.jpg")
	join := renderer.Join{Parts: parts, Source: src, Frames: sr.total, FPS: r.Preset.FPS, LoudnessLUFS: r.Preset.Loudness()}
	if err := renderer.JoinChunks(ctx, h.ffmpegPath(), join, video, thumb); err != nil {
		return out, err
	}
	progress.report(koda.RenderProgress{Stage: koda.StageUploading, Percent: 99, FramesDone: sr.total, FramesTotal: sr.total})
	if out, err = h.uploadRender(ctx, r, video, thumb, sr.total); err != nil {
		return out, err
	}
	h.log().Info("row rendered with its batch's shared stretch", "render", r.ID, "batch", sr.batchID,
		"own_frames", ownFrames, "shared_frames", sr.total-ownFrames)
	return out, nil
}

// sharedParts lets one render task of this process at a time make a shared part; the
// others wait for its file.
var sharedParts = struct {
	sync.Mutex
	busy map[string]chan struct{}
}{busy: map[string]chan struct{}{}}

// lockShared waits until no other task of this process makes key, and returns the
// unlock.
func lockShared(ctx context.Context, key string) (func(), error) {
	for {
		sharedParts.Lock()
		ch, busy := sharedParts.busy[key]
		if !busy {
			ch = make(chan struct{})
			sharedParts.busy[key] = ch
			sharedParts.Unlock()
			return func() {
				sharedParts.Lock()
				delete(sharedParts.busy, key)
				sharedParts.Unlock()
				close(ch)
			}, nil
		}
		sharedParts.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// sharedPart puts frames [start, end) of the batch's shared stretch at p's spec into
// path: from storage, or rendered from the batch's shared scene and stored for the
// batch's other rows.
func (h *Handlers) sharedPart(ctx context.Context, batchID string, p koda.PresetSpec, durationS float64, start, end int, path string) error {
	key := koda.SharedPartKey(batchID, p, start, end)
	err := h.download(ctx, key, path)
	if err == nil || koda.ErrorKind(err) != koda.ENOTFOUND {
		return err
	}
	unlock, err := lockShared(ctx, key)
	if err != nil {
		return err
	}
	defer unlock()
	// Another task of this process may have made it while this one waited.
	if err := h.download(ctx, key, path); err == nil || koda.ErrorKind(err) != koda.ENOTFOUND {
		return err
	}
	dir, err := os.MkdirTemp(h.WorkDir, "shared-"+batchID+"-")
	if err != nil {
		return fmt.Errorf("shared stretch folder: %w", err)
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "project")
	if err := h.restoreKey(ctx, koda.CheckpointKey(koda.BatchSharedFolder(batchID)), src); err != nil {
		return fmt.Errorf("batch %s shared stretch: %w", batchID, err)
	}
	// No audio and no thumbnail: both belong to the joined video.
	if _, err := h.Renderer.Render(ctx, koda.RenderRequest{Dir: src, Preset: p, DurationS: durationS,
		FrameStart: start, FrameEnd: end, VideoPath: path}, nil); err != nil {
		return fmt.Errorf("batch %s shared stretch [%d, %d): %w", batchID, start, end, err)
	}
	if _, err := h.upload(ctx, key, path); err != nil {
		return err
	}
	h.log().Info("rendered a batch's shared stretch", "batch", batchID, "key", key, "frames", end-start)
	return nil
}

// restoreKey restores the checkpoint at key into dir.
func (h *Handlers) restoreKey(ctx context.Context, key, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rc, err := h.Storage.Open(ctx, key)
	if err != nil {
		return fmt.Errorf("open %s: %w", key, err)
	}
	defer rc.Close()
	if err := sandbox.Restore(ctx, rc, dir, h.CheckpointBudget); err != nil {
		return fmt.Errorf("restore %s: %w", key, err)
	}
	return nil
}
