package lifecycle

import (
	"context"

	"github.com/kodahq/koda"
)

// Reporter turns the agent's progress into project state and events. Reporting is
// best effort: a failure to record progress is logged and does not stop the work.
type Reporter struct {
	svc       *Service
	projectID string
}

var _ koda.Reporter = (*Reporter)(nil)

// Reporter returns the progress reporter of a project.
func (s *Service) Reporter(projectID string) *Reporter {
	return &Reporter{svc: s, projectID: projectID}
}

func (r *Reporter) update(ctx context.Context, what string, fn func(tx koda.Store, p *koda.Project, c *change) error) {
	if _, err := r.svc.updateProject(ctx, r.projectID, fn); err != nil {
		r.svc.log().Warn("record agent progress", "project", r.projectID, "what", what, "err", err)
	}
}

func (r *Reporter) TodoUpdate(ctx context.Context, todoID string, status koda.TodoStatus) {
	r.update(ctx, "todo", func(tx koda.Store, p *koda.Project, c *change) error {
		return r.svc.setTodo(ctx, tx, p, todoID, status, c)
	})
}

func (r *Reporter) Thinking(ctx context.Context, message string) {
	r.update(ctx, "thinking", func(tx koda.Store, p *koda.Project, c *change) error {
		p.Execution.Thinking = message
		return r.svc.event(ctx, tx, p, koda.EventThinking, koda.ThinkingData{Message: message}, c)
	})
}

func (r *Reporter) Message(ctx context.Context, role, content string) {
	r.update(ctx, "message", func(tx koda.Store, p *koda.Project, c *change) error {
		return r.svc.message(ctx, tx, p, role, content, c)
	})
}

func (r *Reporter) FileWritten(ctx context.Context, path string, size int64) {
	r.update(ctx, "file", func(tx koda.Store, p *koda.Project, c *change) error {
		found := false
		for i := range p.Execution.Files {
			if p.Execution.Files[i].Path == path {
				p.Execution.Files[i].SizeBytes, found = size, true
			}
		}
		if !found {
			p.Execution.Files = append(p.Execution.Files, koda.FileInfo{Path: path, SizeBytes: size})
		}
		return r.svc.event(ctx, tx, p, koda.EventFileWritten, koda.FileWrittenData{Path: path, Size: size}, c)
	})
}
