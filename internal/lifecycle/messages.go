package lifecycle

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
)

// Messages sent while the agent works (the prompt queue). A message waits while a
// task runs for the project and is applied when that step ends:
//
//   - planning (idle, or question/plan while a plan is revised): when the plan is made,
//     the queued messages become feedback and the plan is revised (as plan/reject);
//   - executing (code generation, preview render): when the preview is ready, they
//     become feedback for an iteration (as POST /feedback) instead of waiting for
//     approval;
//   - question, waiting for the answer: the answer carries them to the planner.
//
// With no task running (a plan or preview waiting for the user) a message is applied at
// once. A project in error takes none: retry it first.

// messages is the store's message side; every koda store Koda ships implements it.
func messages(st koda.Store) (koda.MessageStore, error) {
	ms, ok := st.(koda.MessageStore)
	if !ok {
		return nil, fmt.Errorf("queued messages: the store does not keep them")
	}
	return ms, nil
}

// QueueMessage accepts a message for the project. It is queued until the current step
// ends, or applied at once when the project waits for the user (the returned status says
// which). EINVALID for bad text, ECONFLICT in phase error, ELIMIT past MaxQueuedMessages.
func (s *Service) QueueMessage(ctx context.Context, id, text string) (*koda.QueuedMessage, error) {
	text, err := koda.CleanMessage(text)
	if err != nil {
		return nil, err
	}
	var out *koda.QueuedMessage
	_, err = s.updateProject(ctx, id, func(tx koda.Store, p *koda.Project, c *change) error {
		if p.Phase == koda.PhaseError {
			return &koda.Error{Kind: koda.ECONFLICT, Code: koda.CodePhaseConflict, Phase: p.Phase,
				Message: "the project stopped with an error; retry it before sending messages"}
		}
		ms, err := messages(tx)
		if err != nil {
			return err
		}
		queued, err := ms.ListMessages(ctx, p.ID, koda.MessageQueued, 0)
		if err != nil {
			return err
		}
		if len(queued) >= koda.MaxQueuedMessages {
			return limitError(koda.CodeLimitQueuedMessage, 10*time.Second,
				"%d messages already wait for the current step to end", len(queued))
		}
		m := &koda.QueuedMessage{ID: koda.NewID(koda.PrefixQueuedMessage), TenantID: p.TenantID, ProjectID: p.ID,
			Text: text, Status: koda.MessageQueued, CreatedAt: s.now()}
		if err := ms.CreateMessage(ctx, m); err != nil {
			return err
		}
		if err := s.event(ctx, tx, p, koda.EventMessageQueued, m, c); err != nil {
			return err
		}
		out = m
		if p.Pending != "" {
			return nil // a task runs: its end applies the message
		}
		applied, err := s.applyWaiting(ctx, tx, p, c)
		if err != nil {
			return err
		}
		for _, a := range applied {
			if a.ID == m.ID {
				out = a
			}
		}
		return nil
	})
	return out, err
}

// ListMessages returns the project's messages, oldest first (the last 500).
func (s *Service) ListMessages(ctx context.Context, id string) ([]*koda.QueuedMessage, error) {
	if _, err := s.load(ctx, s.Store, id); err != nil {
		return nil, err
	}
	ms, err := messages(s.Store)
	if err != nil {
		return nil, err
	}
	all, err := ms.ListMessages(ctx, id, "", 0)
	if err != nil {
		return nil, err
	}
	if len(all) > 500 {
		all = all[len(all)-500:]
	}
	return all, nil
}

// applyWaiting applies the queued messages of a project that waits for the user: a
// plan waiting for approval is revised, a preview (or a complete project) iterates.
// A question keeps them for the answer. It returns the messages it applied.
func (s *Service) applyWaiting(ctx context.Context, tx koda.Store, p *koda.Project, c *change) ([]*koda.QueuedMessage, error) {
	switch p.Phase {
	case koda.PhasePlan:
		return s.applyAsPlanFeedback(ctx, tx, p, c)
	case koda.PhasePreview, koda.PhaseComplete:
		return s.applyAsIteration(ctx, tx, p, c)
	}
	return nil, nil
}

// takeQueued marks the project's queued messages applied, with their message.applied
// events and their place in the conversation, and returns them.
func (s *Service) takeQueued(ctx context.Context, tx koda.Store, p *koda.Project, c *change) ([]*koda.QueuedMessage, error) {
	ms, err := messages(tx)
	if err != nil {
		return nil, err
	}
	queued, err := ms.ListMessages(ctx, p.ID, koda.MessageQueued, 0)
	if err != nil || len(queued) == 0 {
		return nil, err
	}
	now := s.now()
	ids := make([]string, 0, len(queued))
	for _, m := range queued {
		ids = append(ids, m.ID)
	}
	if err := ms.MarkMessagesApplied(ctx, ids, now); err != nil {
		return nil, err
	}
	for _, m := range queued {
		m.Status, m.AppliedAt = koda.MessageApplied, &now
		if err := s.message(ctx, tx, p, "user", m.Text, c); err != nil {
			return nil, err
		}
		if err := s.event(ctx, tx, p, koda.EventMessageApplied, m, c); err != nil {
			return nil, err
		}
	}
	return queued, nil
}

func texts(ms []*koda.QueuedMessage) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.Text)
	}
	return out
}

// applyAsPlanFeedback revises the plan of a project in phase plan with its queued
// messages, as a rejection with that feedback would.
func (s *Service) applyAsPlanFeedback(ctx context.Context, tx koda.Store, p *koda.Project, c *change) ([]*koda.QueuedMessage, error) {
	ms, err := s.takeQueued(ctx, tx, p, c)
	if err != nil || len(ms) == 0 {
		return nil, err
	}
	return ms, s.revisePlan(ctx, tx, p, texts(ms), c)
}

// applyAsIteration starts an iteration of a project in preview or complete with its
// queued messages as feedback, as POST /feedback would.
func (s *Service) applyAsIteration(ctx context.Context, tx koda.Store, p *koda.Project, c *change) ([]*koda.QueuedMessage, error) {
	ms, err := s.takeQueued(ctx, tx, p, c)
	if err != nil || len(ms) == 0 {
		return nil, err
	}
	return ms, s.iterate(ctx, tx, p, strings.Join(texts(ms), "\n"), c)
}

// revisePlan sends the plan back to the planner with feedback (already in the
// conversation): plan → question while the planner revises.
func (s *Service) revisePlan(ctx context.Context, tx koda.Store, p *koda.Project, feedback []string, c *change) error {
	p.Feedback = append(p.Feedback, feedback...)
	if err := s.move(ctx, tx, p, koda.ActionRejectPlan, c); err != nil {
		return err
	}
	s.schedule(p, func(step int) jobs.Args { return jobs.PlanArgs{ProjectID: p.ID, Step: step} }, c)
	return nil
}

// iterate changes the project's files with feedback (already in the conversation) and
// renders a new preview: preview|complete → executing.
func (s *Service) iterate(ctx context.Context, tx koda.Store, p *koda.Project, feedback string, c *change) error {
	p.Feedback = append(p.Feedback, feedback)
	if err := s.move(ctx, tx, p, koda.ActionFeedback, c); err != nil {
		return err
	}
	s.schedule(p, func(step int) jobs.Args { return jobs.CodegenArgs{ProjectID: p.ID, Step: step} }, c)
	return nil
}
