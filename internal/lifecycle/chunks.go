package lifecycle

import (
	"context"
	"errors"
	"fmt"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
)

// A final render long enough is split into frame-range chunks rendered by any worker
// and joined by a stitch task. The workers render and join; what the chunks add up
// to, and when the stitch runs, is decided here.

// ErrNoChunks is returned when the Service has no ChunkTally: renders run whole.
var ErrNoChunks = errors.New("no chunk tally configured")

// CanSplit reports whether renders may be split: their counts need a ChunkTally.
func (s *Service) CanSplit() bool { return s.Chunks != nil && s.Queue != nil }

// ChunkProgress records the frames chunk index of r's attempt has rendered and
// reports the render's progress over all chunks: capturing runs from 5% to 95%, the
// join takes the rest.
func (s *Service) ChunkProgress(ctx context.Context, r *koda.Render, attempt, index, frames int) error {
	if s.Chunks == nil {
		return ErrNoChunks
	}
	sum, err := s.Chunks.ChunkFrames(ctx, r.ID, attempt, index, frames)
	if err != nil {
		return err
	}
	total := r.Preset.Frames(r.DurationS)
	done := min(sum, total)
	pct := 0.0
	if total > 0 {
		pct = float64(int(5+90*float64(done)/float64(total)*10)) / 10
	}
	return s.RenderProgress(ctx, r.ID, koda.RenderProgress{Stage: koda.StageCapturing,
		FramesDone: done, FramesTotal: total, Percent: pct})
}

// ChunkFinished counts chunk index of the attempt as finished; once all count of
// them are, it enqueues the stitch. Every chunk that sees the full set enqueues, and
// the stitch's task ID makes that one task.
func (s *Service) ChunkFinished(ctx context.Context, renderID string, attempt, index, count int) error {
	if s.Chunks == nil {
		return ErrNoChunks
	}
	n, err := s.Chunks.ChunkDone(ctx, renderID, attempt, index)
	if err != nil {
		return fmt.Errorf("render %s: %w", renderID, err)
	}
	if n < count {
		return nil
	}
	if err := s.Queue.Enqueue(ctx, jobs.StitchArgs{RenderID: renderID, Attempt: attempt, Count: count}); err != nil {
		return fmt.Errorf("render %s: enqueue stitch: %w", renderID, err)
	}
	return nil
}

// FinishedChunks returns the set of the attempt's finished chunks, for the reconciler.
func (s *Service) FinishedChunks(ctx context.Context, renderID string, attempt int) (map[int]bool, error) {
	if s.Chunks == nil {
		return nil, ErrNoChunks
	}
	idx, err := s.Chunks.ChunksDone(ctx, renderID, attempt)
	if err != nil {
		return nil, err
	}
	out := make(map[int]bool, len(idx))
	for _, i := range idx {
		out[i] = true
	}
	return out, nil
}

// FinishJoined records the outcome of a joined render and forgets its chunk counts;
// a failure to forget only leaves keys that expire.
func (s *Service) FinishJoined(ctx context.Context, renderID string, attempt int, out RenderOutput) error {
	if _, err := s.FinishRender(ctx, renderID, out, nil); err != nil {
		return err
	}
	if s.Chunks != nil {
		if err := s.Chunks.ForgetChunks(context.WithoutCancel(ctx), renderID, attempt); err != nil {
			s.log().Debug("forget chunk counts", "render", renderID, "err", err)
		}
	}
	return nil
}

// ChunkRender returns the render a chunk or stitch task of the given attempt works for,
// and whether that task is still live: a finished render, or one a newer attempt split
// again, makes it stale, and its work must be dropped rather than counted.
func (s *Service) ChunkRender(ctx context.Context, renderID string, attempt int) (*koda.Render, bool, error) {
	r, err := s.Store.GetRender(ctx, renderID)
	if err != nil {
		return nil, false, err
	}
	return r, !r.Status.Done() && r.Attempts == attempt, nil
}
