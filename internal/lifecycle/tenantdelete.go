package lifecycle

import (
	"context"
	"fmt"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/jobs"
)

// tenantPage is how many projects (or templates) one step of ending a deleted tenant's
// work reads at once; the work is done page by page, so a tenant with many projects
// never holds a long transaction or a large list in memory.
const tenantPage = 100

// CancelTenantWork ends the work of a deleted tenant through the lifecycle's own cancel
// paths: every unfinished batch of its projects is cancelled as CancelBatch does (its
// unfinished renders fail with CANCELLED, their tasks are cancelled), and every
// project waiting for a task (planning, code generation, preview) moves to error with
// CANCELLED, its task is cancelled and any still running one is made stale. Projects
// waiting for their user, and finished ones, are left as they are. The rows stay (so
// usage and audit keep them); running it again finds nothing more to do. It returns
// how many projects it cancelled.
func (s *Service) CancelTenantWork(ctx context.Context, tenantID string) (int, error) {
	ctx = koda.NewContextWithTenant(ctx, tenantID)
	cancelled := 0
	after := ""
	for {
		ps, err := s.Store.ListProjects(ctx, koda.ProjectFilter{TenantID: tenantID, AfterID: after, Limit: tenantPage})
		if err != nil {
			return cancelled, err
		}
		for _, p := range ps {
			if err := s.cancelProjectBatches(ctx, p.ID); err != nil {
				return cancelled, err
			}
			if p.Pending == "" {
				continue
			}
			ok, err := s.cancelProject(ctx, p.ID)
			if err != nil {
				return cancelled, err
			}
			if ok {
				cancelled++
			}
		}
		if len(ps) < tenantPage {
			return cancelled, nil
		}
		after = ps[len(ps)-1].ID
	}
}

// cancelProjectBatches cancels the batches of the project's unfinished renders.
func (s *Service) cancelProjectBatches(ctx context.Context, projectID string) error {
	rs, err := s.Store.ListRenders(ctx, koda.RenderFilter{ProjectID: projectID})
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, r := range rs {
		if r.Status.Done() || r.BatchID == "" || seen[r.BatchID] {
			continue
		}
		seen[r.BatchID] = true
		if err := s.CancelBatch(ctx, r.BatchID); err != nil && koda.ErrorKind(err) != koda.ENOTFOUND {
			return fmt.Errorf("cancel batch %s of project %s: %w", r.BatchID, projectID, err)
		}
	}
	return nil
}

// cancelProject moves a project waiting for a task to error with CANCELLED and
// cancels the task; a project no longer waiting for one is left alone.
func (s *Service) cancelProject(ctx context.Context, id string) (bool, error) {
	var cancel []jobs.Args
	_, err := s.updateProject(ctx, id, func(tx koda.Store, p *koda.Project, c *change) error {
		if p.Pending == "" {
			return nil
		}
		cancel = projectTasks(p, nil)
		// A task still running finds its step gone and stops writing (ErrStale).
		p.Step++
		waitForUser(p)
		const msg = "the account was deleted"
		p.Error = &koda.Failure{Code: koda.CodeCancelled, Message: msg, At: s.now()}
		if p.Phase != koda.PhaseError {
			if err := s.move(ctx, tx, p, koda.ActionFail, c); err != nil {
				return err
			}
		}
		return s.event(ctx, tx, p, koda.EventError, koda.ErrorData{Code: koda.CodeCancelled, Message: msg}, c)
	})
	if err != nil {
		return false, err
	}
	s.cancelTasks(ctx, cancel)
	return len(cancel) > 0, nil
}

// DeleteTenantFiles removes every file a deleted tenant has in Storage: its projects'
// folders (checkpoints, previews, renders, chunks), its templates' folders, its API
// sandboxes' checkpoints (tenants/<tenant>/) and its asset bytes (assets/<tenant>/).
// It runs synchronously, one folder at a time and projects a page at a time; every
// delete goes through koda.Storage (DeletePrefix), so the local folder and S3 work
// alike. Deleting what is already gone is no error, so it can simply be run again
// after a failure.
func (s *Service) DeleteTenantFiles(ctx context.Context, tenantID string) error {
	if s.Storage == nil {
		return nil
	}
	if tenantID == "" {
		return fmt.Errorf("delete tenant files: no tenant")
	}
	del := func(prefix string) error {
		if err := s.Storage.DeletePrefix(ctx, prefix); err != nil {
			return fmt.Errorf("delete %s: %w", prefix, err)
		}
		return nil
	}
	after := ""
	for {
		ps, err := s.Store.ListProjects(ctx, koda.ProjectFilter{TenantID: tenantID, AfterID: after, Limit: tenantPage})
		if err != nil {
			return err
		}
		for _, p := range ps {
			if err := del(koda.ProjectFolder(p.ID) + "/"); err != nil {
				return err
			}
		}
		if len(ps) < tenantPage {
			break
		}
		after = ps[len(ps)-1].ID
	}
	if ts, ok := s.Store.(koda.TemplateStore); ok {
		after = ""
		for {
			tpls, err := ts.ListTemplates(ctx, koda.TemplateFilter{TenantID: tenantID, AfterID: after, Limit: tenantPage})
			if err != nil {
				return err
			}
			for _, t := range tpls {
				if err := del(koda.TemplateFolder(t.ID) + "/"); err != nil {
					return err
				}
			}
			if len(tpls) < tenantPage {
				break
			}
			after = tpls[len(tpls)-1].ID
		}
	}
	if err := del(koda.TenantFolder(tenantID) + "/"); err != nil {
		return err
	}
	return del(koda.AssetFolder(tenantID) + "/")
}
