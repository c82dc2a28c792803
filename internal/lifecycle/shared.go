package lifecycle

import (
	"context"
	"fmt"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
)

// Renders of one batch that make the same video (one project and length, and
// koda.PresetSpec.SameOutput) run one job: youtube, final and 1080p would otherwise
// capture and encode the same frames three times and store three equal files. The
// first of them runs the job and its file is stored under its key; the others name it
// in OutputOf and take its start, progress and outcome, file and all, while keeping
// their own ID, preset, events and webhooks. Everything that deletes a render's files
// must therefore ask whether another render still points at them (CleanOrphans does).

// shareOutputs points each render at the first earlier one of rs that makes the same
// video, and returns the renders left to run a job of their own, in order.
func shareOutputs(rs []*koda.Render) []*koda.Render {
	var own []*koda.Render
	for _, r := range rs {
		r.OutputOf = ""
		for _, o := range own {
			if sameVideo(o, r) {
				r.OutputOf = o.ID
				break
			}
		}
		if r.OutputOf == "" {
			own = append(own, r)
		}
	}
	return own
}

// sameVideo reports whether a and b render to the same bytes: the same footage, to the
// same output spec.
func sameVideo(a, b *koda.Render) bool {
	return sameFootage(a, b) && a.Preset.SameOutput(b.Preset)
}

// sameFootage reports whether a and b draw the same frames at a given time: the same
// project's files for the same length.
func sameFootage(a, b *koda.Render) bool {
	return a.ProjectID == b.ProjectID && a.Kind == b.Kind && a.DurationS == b.DurationS
}

// Renders left to run a job of their own that one capture can serve (koda.CaptureGroups)
// are captured once: the largest of each group runs the job, captures the frames at the
// group's koda.CaptureSpec and encodes every member's video from them; the others name
// it in CaptureOf and, like renders sharing an output, take its start and, should the
// capture fail, its failure, but keep their own file, progress and frame count.

// groupCaptures points each render of a capture group at the group's largest render (the
// one with the most pixels a second; the first of equals), whose own length then is the
// capture's for splitting into chunks, and returns the renders left to run a job, in
// order.
func groupCaptures(rs []*koda.Render) []*koda.Render {
	var footages [][]*koda.Render
next:
	for _, r := range rs {
		r.CaptureOf = ""
		for k, f := range footages {
			if sameFootage(f[0], r) {
				footages[k] = append(f, r)
				continue next
			}
		}
		footages = append(footages, []*koda.Render{r})
	}
	leads := map[string]bool{}
	for _, same := range footages {
		specs := make([]koda.PresetSpec, len(same))
		for i, r := range same {
			specs[i] = r.Preset
		}
		for _, g := range koda.CaptureGroups(specs) {
			lead := same[g[0]]
			for _, i := range g[1:] {
				if same[i].Preset.PixelRate() > lead.Preset.PixelRate() {
					lead = same[i]
				}
			}
			leads[lead.ID] = true
			for _, i := range g {
				if same[i] != lead {
					same[i].CaptureOf = lead.ID
				}
			}
		}
	}
	var run []*koda.Render
	for _, r := range rs {
		if leads[r.ID] {
			run = append(run, r)
		}
	}
	return run
}

// storeBatch stores a new batch with its queued renders and enqueues one render task
// per capture; the other renders wait for the task that makes theirs.
func (s *Service) storeBatch(ctx context.Context, tx koda.Store, b *koda.Batch, renders []*koda.Render, c *change) error {
	own := shareOutputs(renders)
	run := groupCaptures(own)
	if err := tx.CreateBatch(ctx, b); err != nil {
		return fmt.Errorf("create batch: %w", err)
	}
	for _, r := range renders {
		if err := tx.CreateRender(ctx, r); err != nil {
			return fmt.Errorf("create render %s of batch %s: %w", r.ID, b.ID, err)
		}
	}
	for _, r := range run {
		c.enqueue(jobs.RenderArgs{RenderID: r.ID})
	}
	if n := len(renders) - len(run); n > 0 {
		s.log().Info("renders share jobs", "batch", b.ID, "renders", len(renders), "outputs", len(own), "jobs", len(run))
	}
	return nil
}

// liveCapture returns the render whose job captures r's frames while that job has yet
// to finish, or nil when r must capture its own: it names none, or the capture's render
// finished or is gone without finishing r (a crash between the group's outcomes).
func (s *Service) liveCapture(ctx context.Context, st koda.Store, r *koda.Render) (*koda.Render, error) {
	if r.CaptureOf == "" {
		return nil, nil
	}
	src, err := st.GetRender(ctx, r.CaptureOf)
	switch {
	case koda.ErrorKind(err) == koda.ENOTFOUND:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("capture %s of render %s: %w", r.CaptureOf, r.ID, err)
	case src.Status.Done():
		return nil, nil
	}
	return src, nil
}

// captured returns the unfinished renders whose frames r's job captures.
func captured(ctx context.Context, tx koda.Store, r *koda.Render) ([]*koda.Render, error) {
	rs, err := tx.ListRenders(ctx, koda.RenderFilter{CaptureOf: r.ID,
		Statuses: []koda.RenderStatus{koda.RenderQueued, koda.RenderRunning}})
	if err != nil {
		return nil, fmt.Errorf("renders captured with %s: %w", r.ID, err)
	}
	return rs, nil
}

// CapturedWith returns the unfinished renders whose videos the job of render id makes
// from its capture, in creation order.
func (s *Service) CapturedWith(ctx context.Context, id string) ([]*koda.Render, error) {
	r, err := s.Store.GetRender(ctx, id)
	if err != nil {
		return nil, err
	}
	return captured(ctx, s.Store, r)
}

// ReleaseCaptured gives every unfinished render captured with render id a job of its
// own: the worker splits id's render into chunks, whose tasks make only its video.
func (s *Service) ReleaseCaptured(ctx context.Context, id string) error {
	return s.inTx(ctx, func(tx koda.Store, c *change) error {
		r, _, err := lockRender(ctx, tx, id)
		if err != nil {
			return err
		}
		ms, err := captured(ctx, tx, r)
		if err != nil {
			return err
		}
		for _, m := range ms {
			m.CaptureOf = ""
			if err := tx.UpdateRender(ctx, m); err != nil {
				return fmt.Errorf("release render %s from the capture of %s: %w", m.ID, id, err)
			}
			c.enqueue(jobs.RenderArgs{RenderID: m.ID})
		}
		if len(ms) > 0 {
			s.log().Info("renders captured on their own: their capture is split", "render", id, "released", len(ms))
		}
		return nil
	})
}

// liveSource returns the render whose job makes r's video while that job has yet to
// finish, or nil when r must run its own: it names no source, or the source finished
// or is gone without finishing r (a retry of r after its source failed, say).
func (s *Service) liveSource(ctx context.Context, st koda.Store, r *koda.Render) (*koda.Render, error) {
	if r.OutputOf == "" {
		return nil, nil
	}
	src, err := st.GetRender(ctx, r.OutputOf)
	switch {
	case koda.ErrorKind(err) == koda.ENOTFOUND:
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("source %s of render %s: %w", r.OutputOf, r.ID, err)
	case src.Status.Done():
		return nil, nil
	}
	return src, nil
}

// sharers returns the unfinished renders that take r's outcome.
func sharers(ctx context.Context, tx koda.Store, r *koda.Render) ([]*koda.Render, error) {
	rs, err := tx.ListRenders(ctx, koda.RenderFilter{OutputOf: r.ID,
		Statuses: []koda.RenderStatus{koda.RenderQueued, koda.RenderRunning}})
	if err != nil {
		return nil, fmt.Errorf("renders sharing the output of %s: %w", r.ID, err)
	}
	return rs, nil
}

// startRunning marks r running for a new attempt from now.
func startRunning(r *koda.Render, now time.Time) {
	r.Status = koda.RenderRunning
	r.Attempts++
	r.StartedAt = &now
	r.Progress = koda.RenderProgress{Stage: koda.StagePreparing, FramesTotal: r.Progress.FramesTotal}
}

// settle records a finished render's outcome: out on success, cause's failure
// otherwise.
func settle(r *koda.Render, out RenderOutput, cause error, now time.Time) {
	r.FinishedAt = &now
	if cause == nil {
		r.Status = koda.RenderSucceeded
		r.VideoKey, r.ThumbKey, r.SizeBytes = out.VideoKey, out.ThumbKey, out.SizeBytes
		r.Progress = koda.RenderProgress{Stage: koda.StageDone, Percent: 100, FramesDone: out.Frames, FramesTotal: out.Frames}
		return
	}
	r.Status = koda.RenderFailed
	r.Error = &koda.Failure{Code: koda.ErrorCode(cause), Message: koda.ErrorMessage(cause), At: now}
	if r.Error.Code == koda.CodeInternal {
		r.Error.Code = koda.CodeRenderFailed
	}
}
