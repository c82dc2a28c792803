package lifecycle

import (
	"context"
	"errors"
	"fmt"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
)

// ErrStale reports that a task's step is no longer the project's: the project moved on
// (a user action, a duplicate task) and the task's result must be dropped.
var ErrStale = errors.New("stale task: the project moved on")

// current loads the project for a task at step, or ErrStale.
func (s *Service) current(ctx context.Context, tx koda.Store, id string, step int) (*koda.Project, error) {
	p, err := tx.GetProject(ctx, id)
	if err != nil {
		return nil, err
	}
	if p.Step != step {
		return nil, fmt.Errorf("project %s at step %d, task for step %d: %w", id, p.Step, step, ErrStale)
	}
	return p, nil
}

// updateForTask is updateProject for a task at step.
func (s *Service) updateForTask(ctx context.Context, id string, step int, fn func(tx koda.Store, p *koda.Project, c *change) error) (*koda.Project, error) {
	return s.update(ctx, id, func(tx koda.Store) (*koda.Project, error) { return s.current(ctx, tx, id, step) }, fn)
}

// ForTask returns the project if the task at step is still current, else ErrStale.
func (s *Service) ForTask(ctx context.Context, id string, step int) (*koda.Project, error) {
	return s.current(ctx, s.Store, id, step)
}

// Ask puts the style question to the user (or, with auto_approve, would not be called).
func (s *Service) Ask(ctx context.Context, id string, step int, a *koda.Analysis) (*koda.Project, error) {
	return s.updateForTask(ctx, id, step, func(tx koda.Store, p *koda.Project, c *change) error {
		applyAnalysis(p, a)
		p.Question = a.Question
		if err := s.move(ctx, tx, p, koda.ActionAsk, c); err != nil {
			return err
		}
		waitForUser(p)
		return s.message(ctx, tx, p, "assistant", a.Question.Text, c)
	})
}

func applyAnalysis(p *koda.Project, a *koda.Analysis) {
	if a == nil {
		return
	}
	if p.Style == "" {
		p.Style = a.Style
	}
	if p.DurationS == 0 {
		p.DurationS = a.DurationS
	}
}

// Planned stores a plan. The project then waits for approval, or with auto_approve goes
// straight to code generation. A plan made after a retry (phase executing) also goes on.
func (s *Service) Planned(ctx context.Context, id string, step int, a *koda.Analysis, plan *koda.Plan) (*koda.Project, error) {
	return s.updateForTask(ctx, id, step, func(tx koda.Store, p *koda.Project, c *change) error {
		applyAnalysis(p, a)
		p.Plan = plan
		p.DurationS = plan.DurationS
		p.Feedback = nil
		shortened := s.fitPresetLimit(p) // in the plan's notes, which its summary shows
		if p.Phase == koda.PhaseExecuting {
			p.Execution.Todos = append([]koda.Todo(nil), plan.Todos...)
			s.schedule(p, func(step int) jobs.Args { return jobs.CodegenArgs{ProjectID: p.ID, Step: step} }, c)
			if shortened != "" {
				return s.message(ctx, tx, p, "assistant", shortened, c)
			}
			return nil
		}
		if err := s.move(ctx, tx, p, koda.ActionPlanned, c); err != nil {
			return err
		}
		if err := s.message(ctx, tx, p, "assistant", planSummary(plan), c); err != nil {
			return err
		}
		// Messages sent while planning are feedback on this plan: revise it first.
		if applied, err := s.applyAsPlanFeedback(ctx, tx, p, c); err != nil || len(applied) > 0 {
			return err
		}
		if p.AutoApprove {
			return s.approvePlan(ctx, tx, p, c)
		}
		waitForUser(p)
		return nil
	})
}

// fitPresetLimit keeps the project within the duration limit of its presets whatever
// the agent planned: a longer plan or revision would fail only at approval, after codegen
// and the preview, and a retry would fail the same way. It shortens the plan (scenes
// scaled in proportion, the note added to its Notes) and the project's duration, and
// returns the note saying why, or "" when they fit.
func (s *Service) fitPresetLimit(p *koda.Project) string {
	var note string
	if p.Plan != nil {
		note = p.Plan.FitPresets(p.Presets)
	}
	if d, n := koda.FitDuration(p.Presets, p.DurationS); n != "" {
		p.DurationS = d
		if note == "" {
			note = n
		}
	}
	if note != "" {
		s.log().Info("project shortened to its presets' duration limit", "project", p.ID, "duration_s", p.DurationS, "note", note)
	}
	return note
}

func planSummary(plan *koda.Plan) string {
	out := fmt.Sprintf("Plan: %s — %d scenes, %.1f s, %s style.", plan.Title, len(plan.Scenes), plan.DurationS, plan.Style)
	for _, n := range plan.Notes {
		out += " " + n
	}
	for i, sc := range plan.Scenes {
		out += fmt.Sprintf("\nScene %d — %s (%.1f–%.1f s): %s", i+1, sc.Name, sc.StartS, sc.EndS, sc.Description)
	}
	return out
}

// CodegenDone records the generated files and queues the preview render. worked is
// the project as the agent left it: a revision may have changed its plan and duration
// ("make it 10 seconds"), which the preview must follow.
func (s *Service) CodegenDone(ctx context.Context, id string, step int, worked *koda.Project, files []koda.FileInfo, note string) (*koda.Project, error) {
	return s.updateForTask(ctx, id, step, func(tx koda.Store, p *koda.Project, c *change) error {
		if p.Phase != koda.PhaseExecuting {
			return fmt.Errorf("codegen done for project %s in phase %s: %w", id, p.Phase, ErrStale)
		}
		if worked != nil {
			if worked.Plan != nil {
				p.Plan = worked.Plan
			}
			if worked.DurationS > 0 {
				p.DurationS = worked.DurationS
			}
		}
		p.Execution.Files = files
		p.Feedback = nil
		if note != "" {
			if err := s.message(ctx, tx, p, "assistant", note, c); err != nil {
				return err
			}
		}
		// A revision that lengthened the video past the limit: the preview and the
		// renders stop at it rather than the approval failing after the preview.
		if shortened := s.fitPresetLimit(p); shortened != "" {
			if err := s.message(ctx, tx, p, "assistant", shortened, c); err != nil {
				return err
			}
		}
		preset, _ := koda.LookupPreset("preview")
		r := &koda.Render{
			ID:        koda.NewID(koda.PrefixRender),
			TenantID:  p.TenantID,
			ProjectID: p.ID,
			Kind:      koda.RenderPreview,
			Preset:    preset,
			DurationS: p.DurationS,
			Status:    koda.RenderQueued,
			Progress:  koda.RenderProgress{Stage: koda.StageQueued, FramesTotal: preset.Frames(p.DurationS)},
			CreatedAt: s.now(),
		}
		if err := tx.CreateRender(ctx, r); err != nil {
			return fmt.Errorf("create preview render: %w", err)
		}
		if err := s.setTodo(ctx, tx, p, koda.TodoRenderPreview, koda.TodoActive, c); err != nil {
			return err
		}
		s.schedule(p, func(step int) jobs.Args {
			return jobs.PreviewArgs{ProjectID: p.ID, Step: step, RenderID: r.ID}
		}, c)
		return nil
	})
}

// PreviewRendered shows the finished preview: the project waits for approval, or with
// auto_approve completes and starts its final renders.
func (s *Service) PreviewRendered(ctx context.Context, id string, step int, renderID string) (*koda.Project, error) {
	return s.updateForTask(ctx, id, step, func(tx koda.Store, p *koda.Project, c *change) error {
		r, err := tx.GetRender(ctx, renderID)
		if err != nil {
			return err
		}
		p.Preview = &koda.Output{RenderID: r.ID, VideoKey: r.VideoKey, ThumbnailKey: r.ThumbKey}
		if err := s.setTodo(ctx, tx, p, koda.TodoRenderPreview, koda.TodoDone, c); err != nil {
			return err
		}
		if err := s.move(ctx, tx, p, koda.ActionPreviewReady, c); err != nil {
			return err
		}
		// The event links the preview; without a link the task fails and is retried.
		video, err := s.fileURL(r.VideoKey)
		if err != nil {
			return fmt.Errorf("preview %s video link: %w", r.ID, err)
		}
		thumb, err := s.fileURL(r.ThumbKey)
		if err != nil {
			return fmt.Errorf("preview %s thumbnail link: %w", r.ID, err)
		}
		if err := s.event(ctx, tx, p, koda.EventPreviewReady, koda.PreviewReadyData{
			RenderID: r.ID, VideoURL: video, ThumbnailURL: thumb,
		}, c); err != nil {
			return err
		}
		waitForUser(p)
		// Messages sent while executing are feedback on this preview: iterate at once.
		if applied, err := s.applyAsIteration(ctx, tx, p, c); err != nil || len(applied) > 0 {
			return err
		}
		if p.AutoApprove {
			_, err := s.approvePreview(ctx, tx, p, nil, c)
			return err
		}
		return nil
	})
}

// Fail moves the project to error with a reason users can read; it can be retried.
func (s *Service) Fail(ctx context.Context, id string, step int, cause error) (*koda.Project, error) {
	return s.updateForTask(ctx, id, step, func(tx koda.Store, p *koda.Project, c *change) error {
		code, msg := koda.ErrorCode(cause), koda.ErrorMessage(cause)
		if code == koda.CodeInternal {
			code, msg = koda.CodeAgentFailed, "the work failed unexpectedly; retry resumes from the last checkpoint"
		}
		p.Error = &koda.Failure{Code: code, Message: msg, At: s.now()}
		if err := s.move(ctx, tx, p, koda.ActionFail, c); err != nil {
			return err
		}
		waitForUser(p)
		return s.event(ctx, tx, p, koda.EventError, koda.ErrorData{Code: code, Message: msg}, c)
	})
}

// setTodo changes a todo's status, with its TODO_UPDATE event, if the project has it.
func (s *Service) setTodo(ctx context.Context, tx koda.Store, p *koda.Project, id string, st koda.TodoStatus, c *change) error {
	for i := range p.Execution.Todos {
		if p.Execution.Todos[i].ID == id && p.Execution.Todos[i].Status != st {
			p.Execution.Todos[i].Status = st
			return s.event(ctx, tx, p, koda.EventTodoUpdate, koda.TodoUpdateData{TodoID: id, Status: st}, c)
		}
	}
	return nil
}
