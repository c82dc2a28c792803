package workers

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
	"github.com/kodahq/koda/sandbox"
)

// plan analyses the prompt, asks the style question when it must, or plans.
func (h *Handlers) plan(ctx context.Context, _ *asynq.Task, a jobs.PlanArgs) error {
	return h.projectStep(ctx, a.ProjectID, a.Step, func() error {
		p, err := h.Lifecycle.ForTask(ctx, a.ProjectID, a.Step)
		if err != nil {
			return err
		}
		var analysis *koda.Analysis
		// The agent's analysis and plan together are bounded (AgentTimeout).
		actx, agentDone := h.agentContext(ctx)
		if p.Phase == koda.PhaseIdle {
			if analysis, err = h.Agent.Analyze(actx, p); err != nil {
				return agentDone(fmt.Errorf("analyse %s: %w", p.ID, err))
			}
			if analysis.Question != nil && p.Style == "" && !p.AutoApprove {
				_ = agentDone(nil)
				_, err = h.Lifecycle.Ask(ctx, p.ID, a.Step, analysis)
				return err
			}
			if p.Style == "" {
				p.Style = analysis.Style
				if p.Style == "" {
					p.Style = koda.StylePlayful
				}
			}
			if p.DurationS == 0 {
				p.DurationS = analysis.DurationS
			}
		}
		plan, err := h.Agent.Plan(actx, p, strings.Join(p.Feedback, "\n"))
		if err = agentDone(err); err != nil {
			return fmt.Errorf("plan %s: %w", p.ID, err)
		}
		if analysis == nil {
			analysis = &koda.Analysis{Style: p.Style}
		} else {
			analysis.Style = p.Style
		}
		_, err = h.Lifecycle.Planned(ctx, p.ID, a.Step, analysis, plan)
		return err
	})
}

// codegen writes (or, with pending feedback, revises) the project's files in a fresh
// sandbox restored from the last checkpoint, then checkpoints them for the renders.
func (h *Handlers) codegen(ctx context.Context, t *asynq.Task, a jobs.CodegenArgs) error {
	return h.projectStep(ctx, a.ProjectID, a.Step, func() error {
		p, err := h.Lifecycle.ForTask(ctx, a.ProjectID, a.Step)
		if err != nil {
			return err
		}
		sb, restored, err := h.codegenSandbox(ctx, p)
		if koda.ErrorKind(err) == koda.ELIMIT {
			return h.waitForSandbox(ctx, t, p, err)
		}
		if err != nil {
			return err
		}
		defer func() {
			if err := h.Sandboxes.Destroy(context.WithoutCancel(ctx), sb.ID()); err != nil {
				h.log().Warn("destroy sandbox", "sandbox", sb.ID(), "err", err)
			}
		}()
		// Checkpoints (DESIGN.md §3.7): files and state.json after writes (debounced),
		// after each todo, and before the preview; a sandbox that dies mid-way is
		// replaced on retry and work resumes from the last one.
		prefix := koda.ProjectFolder(p.ID)
		ck := &sandbox.Checkpointer{Storage: h.Storage, Sandbox: sb, Prefix: prefix, Logger: h.log()}
		defer ck.Close()
		ck.SetState(sandbox.State{Phase: p.Phase, Plan: p.Plan, Todos: codegenTodos(p), Messages: p.Execution.Messages})
		reporter := sandbox.CheckpointingReporter(h.Lifecycle.Reporter(p.ID), ck)
		if restored {
			if st, err := sandbox.LoadState(ctx, h.Storage, prefix); err == nil && st != nil && st.Phase == p.Phase && st.LastCheckpoint.TodoIndex > 0 {
				h.log().Info("resuming codegen from checkpoint", "project", p.ID, "todo_index", st.LastCheckpoint.TodoIndex,
					"checkpoint_sandbox", st.LastCheckpoint.SandboxID, "sandbox", sb.ID())
				reporter.Thinking(ctx, fmt.Sprintf("Resuming from the last checkpoint (%d of %d steps done)",
					st.LastCheckpoint.TodoIndex, len(st.Todos)))
			}
		}
		if err := h.copyProjectAssets(ctx, p, sb); err != nil {
			return err
		}
		work := sandbox.Tracked(sb, ck)
		var note string
		// The agent's work on this request is bounded (AgentTimeout): past it the
		// project fails with AGENT_TIMEOUT, resumable by retry from the last checkpoint.
		actx, agentDone := h.agentContext(ctx)
		if restored && len(p.Feedback) > 0 {
			note, err = h.Agent.Revise(actx, p, strings.Join(p.Feedback, "\n"), work, reporter)
		} else {
			err = h.Agent.Generate(actx, p, work, reporter)
		}
		if err = agentDone(err); koda.ErrorCode(err) == koda.CodeAgentTimeout {
			return err
		}
		if err != nil {
			if sb.State() == koda.SandboxStopped {
				// The sandbox died under the agent (killed, reaped, crashed): not the
				// project's fault, so retry in a new sandbox from the last checkpoint.
				return &koda.Error{Kind: koda.EUNAVAILABLE, Code: koda.CodeUnavailable,
					Message: "the sandbox stopped during code generation", Err: err}
			}
			return fmt.Errorf("codegen %s: %w", p.ID, err)
		}
		if err := ck.Save(ctx, "before preview"); err != nil {
			return err
		}
		files, err := sb.ListFiles(ctx, ".", true)
		if err != nil {
			return fmt.Errorf("list files of %s: %w", p.ID, err)
		}
		_, err = h.Lifecycle.CodegenDone(ctx, p.ID, a.Step, p, files, note)
		return err
	})
}

// sandboxWait is the thinking shown while a project's codegen waits for a sandbox.
const sandboxWait = "Waiting for a free sandbox: "

// waitForSandbox puts codegen back in its queue when no sandbox can be made now (the
// node, or the tenant, holds its limit): a full node is a wait, not the project's
// failure (issue 26). The wait shows once in the project's events and, in Asynqmon,
// as the task's retry or hand-over.
func (h *Handlers) waitForSandbox(ctx context.Context, t *asynq.Task, p *koda.Project, cause error) error {
	if msg := sandboxWait + koda.ErrorMessage(cause); p.Execution.Thinking != msg {
		h.Lifecycle.Reporter(p.ID).Thinking(ctx, msg)
	}
	h.log().Info("codegen waits for a sandbox", "project", p.ID, "err", cause)
	if h.Limits == nil {
		return &errBusy{delay: 3 * time.Second}
	}
	return h.busy(ctx, t, "sandbox")
}

// restoringProvider creates a sandbox restored from the project's checkpoint, or none
// at all when the restore fails; *sandbox.Pool is one.
type restoringProvider interface {
	CreateRestored(ctx context.Context, spec koda.SandboxSpec) (koda.Sandbox, bool, error)
}

// codegenSandbox is a fresh sandbox holding the project's last checkpoint. A sandbox
// whose restore failed is destroyed without being saved: saving it (the pool saves
// before it destroys) would overwrite the good checkpoint with an empty folder.
func (h *Handlers) codegenSandbox(ctx context.Context, p *koda.Project) (koda.Sandbox, bool, error) {
	spec := koda.SandboxSpec{TenantID: p.TenantID, ProjectID: p.ID, Name: "codegen"}
	if rp, ok := h.Sandboxes.(restoringProvider); ok {
		sb, restored, err := rp.CreateRestored(ctx, spec)
		if err != nil {
			return nil, false, fmt.Errorf("sandbox for %s: %w", p.ID, err)
		}
		return sb, restored, nil
	}
	// A bare provider never saves on Destroy.
	sb, err := h.Sandboxes.Create(ctx, spec)
	if err != nil {
		return nil, false, fmt.Errorf("sandbox for %s: %w", p.ID, err)
	}
	restored, err := sandbox.RestoreFiles(ctx, h.Storage, koda.ProjectFolder(p.ID), sb)
	if err != nil {
		_ = h.Sandboxes.Destroy(context.WithoutCancel(ctx), sb.ID())
		return nil, false, err
	}
	return sb, restored, nil
}

// restore extracts the project's checkpoint into dir; false when there is none yet.
func (h *Handlers) restore(ctx context.Context, projectID, dir string) (bool, error) {
	rc, err := h.Storage.Open(ctx, koda.CheckpointKey(koda.ProjectFolder(projectID)))
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("open checkpoint of %s: %w", projectID, err)
	}
	defer rc.Close()
	if err := sandbox.Restore(ctx, rc, dir, h.CheckpointBudget); err != nil {
		return false, fmt.Errorf("restore checkpoint of %s: %w", projectID, err)
	}
	return true, nil
}

// codegenTodos are the todos state.json tracks: the execution's, else the plan's.
func codegenTodos(p *koda.Project) []koda.Todo {
	src := p.Execution.Todos
	if len(src) == 0 && p.Plan != nil {
		src = p.Plan.Todos
	}
	return append([]koda.Todo(nil), src...)
}
