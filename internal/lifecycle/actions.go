package lifecycle

import (
	"context"
	"fmt"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
)

// Create stores a validated project in phase idle and enqueues its planning.
func (s *Service) Create(ctx context.Context, n koda.NewProject) (*koda.Project, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	if err := s.checkCallback(ctx, n.CallbackURL); err != nil {
		return nil, err
	}
	now := s.now()
	p := &koda.Project{
		ID:          koda.NewID(koda.PrefixProject),
		TenantID:    n.TenantID,
		Prompt:      n.Prompt,
		Style:       n.Style,
		DurationS:   n.DurationS,
		AutoApprove: n.AutoApprove,
		Presets:     n.Presets,
		CallbackURL: n.CallbackURL,
		Metadata:    n.Metadata,
		Phase:       koda.PhaseIdle,
		CreatedAt:   now,
		UpdatedAt:   now,
	}
	if p.TenantID == "" {
		p.TenantID = koda.DefaultTenant
	}
	var err error
	if p.Assets, p.Brand, err = s.resolveAssets(ctx, p.TenantID, n.Assets, n.NoBrand); err != nil {
		return nil, err
	}
	err = s.inTx(ctx, func(tx koda.Store, c *change) error {
		if err := s.checkProjectLimit(ctx, tx, p.TenantID); err != nil {
			return err
		}
		s.schedule(p, func(step int) jobs.Args { return jobs.PlanArgs{ProjectID: p.ID, Step: step} }, c)
		if err := tx.CreateProject(ctx, p); err != nil {
			return fmt.Errorf("create project: %w", err)
		}
		return s.event(ctx, tx, p, koda.EventStateChange, koda.StateChangeData{Phase: p.Phase}, c)
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Get returns a project the caller may see.
func (s *Service) Get(ctx context.Context, id string) (*koda.Project, error) {
	return s.load(ctx, s.Store, id)
}

// Answer records the answer to the style question and plans with it.
func (s *Service) Answer(ctx context.Context, id string, a koda.Answer) (*koda.Project, error) {
	var err error
	if a.OptionID, err = koda.OptionText.Check("option_id", a.OptionID); err != nil {
		return nil, err
	}
	if a.Text, err = koda.AnswerText.Check("text", a.Text); err != nil {
		return nil, err
	}
	return s.updateProject(ctx, id, func(tx koda.Store, p *koda.Project, c *change) error {
		if _, err := p.Phase.Next(koda.ActionAnswer); err != nil {
			return err
		}
		if p.Question == nil || p.Question.Answer != nil {
			return &koda.Error{Kind: koda.ECONFLICT, Code: koda.CodeNotReady, Phase: p.Phase,
				Message: "no question is waiting for an answer"}
		}
		style, note, err := answerStyle(p.Question, a)
		if err != nil {
			return err
		}
		p.Question.Answer = &a
		p.Style, p.StyleNote = style, note
		if err := s.message(ctx, tx, p, "user", answerText(p.Question, a), c); err != nil {
			return err
		}
		// Messages sent while the question waited go to the planner with the answer.
		queued, err := s.takeQueued(ctx, tx, p, c)
		if err != nil {
			return err
		}
		p.Feedback = append(p.Feedback, texts(queued)...)
		if err := s.move(ctx, tx, p, koda.ActionAnswer, c); err != nil {
			return err
		}
		s.schedule(p, func(step int) jobs.Args { return jobs.PlanArgs{ProjectID: p.ID, Step: step} }, c)
		return nil
	})
}

// answerStyle maps an answer to a style: an option id, or free text for custom.
func answerStyle(q *koda.Question, a koda.Answer) (koda.Style, string, error) {
	a.Text = strings.TrimSpace(a.Text)
	if a.OptionID == "" && a.Text == "" {
		return "", "", koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "answer needs option_id or text")
	}
	if a.OptionID == "" {
		return koda.StyleCustom, a.Text, nil
	}
	for _, o := range q.Options {
		if o.ID != a.OptionID {
			continue
		}
		if o.FreeText && a.Text == "" {
			return "", "", koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "option %q needs text describing the style", o.ID)
		}
		st := koda.Style(o.ID)
		if !st.Valid() {
			st = koda.StyleCustom
		}
		return st, a.Text, nil
	}
	return "", "", koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "option_id %q is not one of the question's options", a.OptionID)
}

func answerText(q *koda.Question, a koda.Answer) string {
	for _, o := range q.Options {
		if o.ID == a.OptionID {
			if a.Text != "" {
				return o.Label + ": " + a.Text
			}
			return o.Label
		}
	}
	return a.Text
}

// ApprovePlan starts code generation.
func (s *Service) ApprovePlan(ctx context.Context, id string) (*koda.Project, error) {
	return s.updateProject(ctx, id, func(tx koda.Store, p *koda.Project, c *change) error {
		if _, err := p.Phase.Next(koda.ActionApprovePlan); err != nil {
			return err
		}
		if p.Plan == nil {
			return &koda.Error{Kind: koda.ECONFLICT, Code: koda.CodeNotReady, Phase: p.Phase,
				Message: "the plan is still being made"}
		}
		return s.approvePlan(ctx, tx, p, c)
	})
}

func (s *Service) approvePlan(ctx context.Context, tx koda.Store, p *koda.Project, c *change) error {
	if err := s.move(ctx, tx, p, koda.ActionApprovePlan, c); err != nil {
		return err
	}
	p.Execution.Todos = append([]koda.Todo(nil), p.Plan.Todos...)
	s.schedule(p, func(step int) jobs.Args { return jobs.CodegenArgs{ProjectID: p.ID, Step: step} }, c)
	return nil
}

// RejectPlan sends the plan back with feedback; the planner revises it.
func (s *Service) RejectPlan(ctx context.Context, id, feedback string) (*koda.Project, error) {
	feedback, err := koda.FeedbackText.Check("feedback", feedback)
	if err != nil {
		return nil, err
	}
	return s.updateProject(ctx, id, func(tx koda.Store, p *koda.Project, c *change) error {
		if _, err := p.Phase.Next(koda.ActionRejectPlan); err != nil {
			return err
		}
		if p.Plan == nil {
			return &koda.Error{Kind: koda.ECONFLICT, Code: koda.CodeNotReady, Phase: p.Phase,
				Message: "the plan is still being made"}
		}
		if err := s.message(ctx, tx, p, "user", feedback, c); err != nil {
			return err
		}
		return s.revisePlan(ctx, tx, p, []string{feedback}, c)
	})
}

// ApprovePreview completes the project and starts its final renders: the presets given,
// else the project's, else "final".
func (s *Service) ApprovePreview(ctx context.Context, id string, presets []koda.PresetSpec) (*koda.Project, *koda.Batch, error) {
	var batch *koda.Batch
	p, err := s.updateProject(ctx, id, func(tx koda.Store, p *koda.Project, c *change) error {
		if _, err := p.Phase.Next(koda.ActionApprovePreview); err != nil {
			return err
		}
		var err error
		batch, err = s.approvePreview(ctx, tx, p, presets, c)
		return err
	})
	return p, batch, err
}

func (s *Service) approvePreview(ctx context.Context, tx koda.Store, p *koda.Project, presets []koda.PresetSpec, c *change) (*koda.Batch, error) {
	if len(presets) == 0 {
		presets = p.Presets
	}
	if len(presets) == 0 {
		final, _ := koda.LookupPreset("final")
		presets = []koda.PresetSpec{final}
	}
	if err := koda.CheckPresetDurations(presets, p.DurationS); err != nil {
		return nil, err
	}
	if err := s.move(ctx, tx, p, koda.ActionApprovePreview, c); err != nil {
		return nil, err
	}
	waitForUser(p)
	return s.createBatch(ctx, tx, p, presets, c)
}

// Feedback iterates on a preview or a completed project: the agent changes what the
// feedback concerns and a new preview follows.
func (s *Service) Feedback(ctx context.Context, id, message string) (*koda.Project, error) {
	message, err := koda.FeedbackText.Check("message", message)
	if err != nil {
		return nil, err
	}
	return s.updateProject(ctx, id, func(tx koda.Store, p *koda.Project, c *change) error {
		if _, err := p.Phase.Next(koda.ActionFeedback); err != nil {
			return err
		}
		if err := s.message(ctx, tx, p, "user", message, c); err != nil {
			return err
		}
		return s.iterate(ctx, tx, p, message, c)
	})
}

// Retry resumes a failed project from its last checkpoint.
func (s *Service) Retry(ctx context.Context, id string) (*koda.Project, error) {
	return s.updateProject(ctx, id, func(tx koda.Store, p *koda.Project, c *change) error {
		if err := s.move(ctx, tx, p, koda.ActionRetry, c); err != nil {
			return err
		}
		if p.Plan == nil {
			// Failed before a plan existed: planning starts over, still in executing so
			// the phase machine's error → executing holds; the planner handles it.
			s.schedule(p, func(step int) jobs.Args { return jobs.PlanArgs{ProjectID: p.ID, Step: step} }, c)
			return nil
		}
		s.schedule(p, func(step int) jobs.Args { return jobs.CodegenArgs{ProjectID: p.ID, Step: step} }, c)
		// A project that failed at approval for its length (planned before plans kept
		// the limit) would fail again: the code is generated for the shortened plan.
		if shortened := s.fitPresetLimit(p); shortened != "" {
			return s.message(ctx, tx, p, "assistant", shortened, c)
		}
		return nil
	})
}

// RequestRenders re-renders a complete project for presets, as one batch.
func (s *Service) RequestRenders(ctx context.Context, id string, presets []koda.PresetSpec) (*koda.Batch, error) {
	if len(presets) == 0 {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidPreset, "presets must name at least one preset")
	}
	var batch *koda.Batch
	_, err := s.updateProject(ctx, id, func(tx koda.Store, p *koda.Project, c *change) error {
		if p.Phase != koda.PhaseComplete {
			return &koda.Error{Kind: koda.ECONFLICT, Code: koda.CodePhaseConflict, Phase: p.Phase,
				Message: "renders can be requested only for a complete project; it is in phase " + string(p.Phase)}
		}
		if err := koda.CheckPresetDurations(presets, p.DurationS); err != nil {
			return err
		}
		var err error
		batch, err = s.createBatch(ctx, tx, p, presets, c)
		return err
	})
	return batch, err
}

// createBatch stores one queued final render per preset and enqueues their jobs, one
// per distinct output (see storeBatch).
func (s *Service) createBatch(ctx context.Context, tx koda.Store, p *koda.Project, presets []koda.PresetSpec, c *change) (*koda.Batch, error) {
	if err := s.checkRenderLimits(ctx, tx, p.TenantID, len(presets)); err != nil {
		return nil, err
	}
	now := s.now()
	b := &koda.Batch{ID: koda.NewID(koda.PrefixBatch), TenantID: p.TenantID, ProjectID: p.ID, CreatedAt: now}
	var renders []*koda.Render
	for _, preset := range presets {
		r := newFinalRender(p, b.ID, preset, now)
		renders = append(renders, r)
		b.RenderIDs = append(b.RenderIDs, r.ID)
	}
	if err := s.storeBatch(ctx, tx, b, renders, c); err != nil {
		return nil, err
	}
	return b, nil
}

// message appends a conversation message to the project and its event stream.
func (s *Service) message(ctx context.Context, tx koda.Store, p *koda.Project, role, content string, c *change) error {
	p.Execution.Messages = append(p.Execution.Messages, koda.Message{Role: role, Content: content, At: s.now()})
	return s.event(ctx, tx, p, koda.EventMessage, koda.MessageData{Role: role, Content: content}, c)
}
