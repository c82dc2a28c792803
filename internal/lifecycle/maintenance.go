package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kodahq/koda"
)

// OrphanGrace is how old a stored file must be before the orphan clean-up may delete
// it: a render writes its video before its row names it, and a project's files may be
// written while its row is being created.
const OrphanGrace = 6 * time.Hour

// ExpirePreviews deletes the videos of preview renders finished more than ttl ago. The
// rows, thumbnails and every final render stay; the render, and the project whose
// latest preview it is, keep no video key afterwards, so no URL to a deleted file is
// handed out. It returns how many videos it deleted.
func (s *Service) ExpirePreviews(ctx context.Context, ttl time.Duration) (int, error) {
	// RenderFilter cannot select by kind, so old finals are read and skipped.
	rs, err := s.Store.ListRenders(ctx, koda.RenderFilter{
		Statuses: []koda.RenderStatus{koda.RenderSucceeded}, CreatedBefore: s.now().Add(-ttl),
	})
	if err != nil {
		return 0, fmt.Errorf("list old previews: %w", err)
	}
	n := 0
	for _, r := range rs {
		if r.Kind != koda.RenderPreview || r.VideoKey == "" {
			continue
		}
		if err := s.Storage.Delete(ctx, r.VideoKey); err != nil && koda.ErrorKind(err) != koda.ENOTFOUND {
			return n, fmt.Errorf("delete preview video of %s: %w", r.ID, err)
		}
		err := s.Store.InTx(ctx, func(tx koda.Store) error {
			r, err := tx.GetRender(ctx, r.ID)
			if err != nil {
				return err
			}
			r.VideoKey = ""
			if err := tx.UpdateRender(ctx, r); err != nil {
				return err
			}
			p, err := tx.GetProject(ctx, r.ProjectID)
			if koda.ErrorKind(err) == koda.ENOTFOUND {
				return nil
			}
			if err != nil {
				return err
			}
			if p.Preview == nil || p.Preview.RenderID != r.ID || p.Preview.VideoKey == "" {
				return nil
			}
			p.Preview.VideoKey = ""
			return tx.UpdateProject(ctx, p)
		})
		if err != nil && koda.ErrorKind(err) != koda.ENOTFOUND {
			return n, fmt.Errorf("forget preview video of %s: %w", r.ID, err)
		}
		n++
	}
	return n, nil
}

// CleanOrphans deletes stored files nothing refers to any more, older than
// OrphanGrace: everything under a project that no longer exists, a render's files
// once the render is gone, the files of a finished render other than its video and
// thumbnail (chunks left by a failed stitch), and the sandbox checkpoints of a tenant
// that no longer exists. Every file of a deleted tenant (its projects', sandboxes'
// and assets') is an orphan at once, whatever its age: DELETE /admin/tenants/{id}
// removes them itself, and this catches what a cancelled task wrote afterwards. A file some render of the project points at stays whatever
// its key says: renders of the same output share the file stored under the first
// one's key. Files outside Koda's layout are left alone. It returns how many files it
// deleted.
func (s *Service) CleanOrphans(ctx context.Context) (int, error) {
	cutoff := s.now().Add(-OrphanGrace)
	projects := map[string]bool{}
	projectOfDeleted := map[string]bool{} // project → its tenant was deleted
	renders := map[string]*koda.Render{}
	pointedAt := map[string]map[string]bool{} // project → the keys its renders name
	inUse := func(projectID, key string) (bool, error) {
		keys, seen := pointedAt[projectID]
		if !seen {
			rs, err := s.Store.ListRenders(ctx, koda.RenderFilter{ProjectID: projectID})
			if err != nil {
				return false, fmt.Errorf("renders of project %s: %w", projectID, err)
			}
			keys = map[string]bool{}
			for _, r := range rs {
				keys[r.VideoKey], keys[r.ThumbKey] = true, true
			}
			delete(keys, "")
			pointedAt[projectID] = keys
		}
		return keys[key], nil
	}
	tenants := map[string]bool{koda.DefaultTenant: true}
	var orphans []string

	// tenantDeleted: the tenant's row says it was deleted (DELETE /admin/tenants/{id}).
	// Its files are orphans at once, without OrphanGrace: nothing of it is being made
	// any more, and a file a cancelled task wrote after the deletion removed the
	// tenant's folders must not stay.
	ts, _ := s.Store.(koda.TenantStore)
	deletedTenants := map[string]bool{}
	tenantDeleted := func(id string) (bool, error) {
		if ts == nil || id == "" {
			return false, nil
		}
		if d, seen := deletedTenants[id]; seen {
			return d, nil
		}
		t, err := ts.GetTenant(ctx, id)
		if err != nil && koda.ErrorKind(err) != koda.ENOTFOUND {
			return false, err
		}
		deletedTenants[id] = err == nil && t.DeletedAt != nil
		return deletedTenants[id], nil
	}
	// projectExists says whether the project exists and its tenant is not deleted.
	projectExists := func(id string) (exists, deleted bool, err error) {
		if ok, seen := projects[id]; seen {
			return ok, ok && projectOfDeleted[id], nil
		}
		p, err := s.Store.GetProject(ctx, id)
		if err != nil && koda.ErrorKind(err) != koda.ENOTFOUND {
			return false, false, err
		}
		projects[id] = err == nil
		if err == nil {
			if projectOfDeleted[id], err = tenantDeleted(p.TenantID); err != nil {
				return false, false, err
			}
		}
		return projects[id], projectOfDeleted[id], nil
	}
	render := func(id string) (*koda.Render, error) {
		if r, seen := renders[id]; seen {
			return r, nil
		}
		r, err := s.Store.GetRender(ctx, id)
		if err != nil && koda.ErrorKind(err) != koda.ENOTFOUND {
			return nil, err
		}
		renders[id] = r
		return r, nil
	}
	err := s.Storage.List(ctx, "projects/", func(f koda.StoredFile) error {
		projectID, renderID, ok := koda.StorageKeyOwner(f.Key)
		if !ok {
			return nil
		}
		exists, deleted, err := projectExists(projectID)
		if err != nil {
			return err
		}
		if deleted {
			orphans = append(orphans, f.Key)
			return nil
		}
		if f.ModTime.After(cutoff) {
			return nil
		}
		if !exists {
			orphans = append(orphans, f.Key)
			return nil
		}
		if renderID == "" {
			return nil // the project's checkpoint and state
		}
		used, err := inUse(projectID, f.Key)
		if err != nil || used {
			return err
		}
		r, err := render(renderID)
		if err != nil {
			return err
		}
		if r == nil || r.ProjectID != projectID || r.Status.Done() {
			orphans = append(orphans, f.Key)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("find orphaned project files: %w", err)
	}
	if ts != nil {
		err := s.Storage.List(ctx, "tenants/", func(f koda.StoredFile) error {
			tenant, _, _ := strings.Cut(strings.TrimPrefix(f.Key, "tenants/"), "/")
			deleted, err := tenantDeleted(tenant)
			if err != nil {
				return err
			}
			if deleted {
				orphans = append(orphans, f.Key)
				return nil
			}
			if f.ModTime.After(cutoff) {
				return nil
			}
			exists, seen := tenants[tenant]
			if !seen {
				_, err := ts.GetTenant(ctx, tenant)
				if err != nil && koda.ErrorKind(err) != koda.ENOTFOUND {
					return err
				}
				exists = err == nil
				tenants[tenant] = exists
			}
			if !exists {
				orphans = append(orphans, f.Key)
			}
			return nil
		})
		if err != nil {
			return 0, fmt.Errorf("find orphaned tenant files: %w", err)
		}
		// Asset bytes are left alone for a tenant without a row (the default tenant
		// may have none), but a deleted tenant's are orphans.
		err = s.Storage.List(ctx, "assets/", func(f koda.StoredFile) error {
			tenant, _, _ := strings.Cut(strings.TrimPrefix(f.Key, "assets/"), "/")
			deleted, err := tenantDeleted(tenant)
			if err == nil && deleted {
				orphans = append(orphans, f.Key)
			}
			return err
		})
		if err != nil {
			return 0, fmt.Errorf("find a deleted tenant's asset files: %w", err)
		}
	}
	var errs []error
	n := 0
	for _, key := range orphans {
		if err := s.Storage.Delete(ctx, key); err != nil {
			errs = append(errs, fmt.Errorf("delete orphan %s: %w", key, err))
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// PurgeIdempotency deletes idempotency records older than koda.IdempotencyWindow,
// answered or not, and returns how many it deleted.
func (s *Service) PurgeIdempotency(ctx context.Context) (int64, error) {
	n, err := s.Store.PurgeIdempotency(ctx, s.now().Add(-koda.IdempotencyWindow))
	if err != nil {
		return 0, fmt.Errorf("purge idempotency records: %w", err)
	}
	return n, nil
}
