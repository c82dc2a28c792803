// Package lifecycle moves projects through their phases. It is the one place that
// decides what happens next: it applies a transition of the phase machine, stores the
// events and webhook deliveries it causes in the same transaction, and enqueues the
// next task after the commit. The API calls its user actions; the workers call its
// system actions when a task finishes.
//
// The database is the source of truth: a project that waits for a task names it in
// Pending, so work whose enqueue failed after the commit is found and enqueued again
// by the reconciler.
package lifecycle

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/webhook"
	"github.com/kodahq/koda/jobs"
)

// Service applies project transitions. Fields are set by cmd/koda.
type Service struct {
	Store   koda.Store
	Queue   koda.Queue
	Storage koda.Storage
	// Notify wakes event subscribers of a project after new events were committed.
	Notify func(projectID string)
	// FileURLTTL is the lifetime of file URLs put into events and webhooks.
	FileURLTTL time.Duration
	Logger     *slog.Logger
	Now        func() time.Time
	// Tasks cancels queued and running tasks of deleted projects and cancelled batches;
	// nil leaves them to find their rows gone.
	Tasks Tasks
	// Callbacks checks callback URLs when they are submitted (SSRF); nil accepts any
	// http(s) URL.
	Callbacks CallbackChecker
	// Chunks counts the chunks of split renders across processes; nil renders whole.
	Chunks koda.ChunkTally
	// DefaultLimits apply to tenants without a row of their own (the default tenant).
	DefaultLimits koda.Limits
	// SandboxLeases counts live sandboxes across the cluster for the live-sandbox
	// limit; nil counts this process's only.
	SandboxLeases koda.SandboxLeases
	// Templates reads and fills template scenes; nil answers 503 to the template API.
	Templates TemplateScenes
	// NoSharedStretch renders every frame of every template row, even the stretch no
	// row changes (KODA_SHARED_STRETCH=off; benchmarks compare the two).
	NoSharedStretch bool
	// Assets resolves the assets a project request names; nil refuses requests that
	// name any (503).
	Assets koda.AssetStore
	// AssetFetch fetches a URL a batch row gives for an image or the soundtrack into the
	// tenant's library, checked as an upload is (internal/assets.Service); nil refuses
	// such rows.
	AssetFetch AssetFetcher
	// Brands holds tenants' brand kits, applied to their projects; nil: no kits.
	Brands koda.BrandStore
}

// change collects what a transaction causes outside the database, done after commit.
type change struct {
	jobs     []jobs.Args
	projects map[string]bool // projects with new events
	// garbage are storage folders (prefixes) no longer needed once committed.
	garbage []string
}

func (c *change) enqueue(a jobs.Args) { c.jobs = append(c.jobs, a) }

func (c *change) touched(projectID string) {
	if c.projects == nil {
		c.projects = map[string]bool{}
	}
	c.projects[projectID] = true
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Service) log() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

// inTx runs fn in a transaction and, after commit, enqueues the jobs and notifies the
// subscribers it collected. An enqueue failure is logged, not returned: the state is
// committed and the reconciler will enqueue the pending work when the queue is back.
func (s *Service) inTx(ctx context.Context, fn func(tx koda.Store, c *change) error) error {
	var c change
	if err := s.Store.InTx(ctx, func(tx koda.Store) error { return fn(tx, &c) }); err != nil {
		return err
	}
	s.flush(ctx, &c)
	return nil
}

func (s *Service) flush(ctx context.Context, c *change) {
	for _, a := range c.jobs {
		if err := s.Queue.Enqueue(ctx, a); err != nil {
			s.log().Warn("enqueue failed; the reconciler will retry", "task", a.TaskID(), "err", err)
		}
	}
	if s.Notify != nil {
		for id := range c.projects {
			s.Notify(id)
		}
	}
	for _, prefix := range c.garbage {
		if s.Storage == nil {
			break
		}
		// Left behind, they are only disk space.
		if err := s.Storage.DeletePrefix(context.WithoutCancel(ctx), prefix); err != nil {
			s.log().Warn("delete files no longer needed", "prefix", prefix, "err", err)
		}
	}
}

// updateProject loads the project (locked), lets fn change it and saves it.
func (s *Service) updateProject(ctx context.Context, id string, fn func(tx koda.Store, p *koda.Project, c *change) error) (*koda.Project, error) {
	return s.update(ctx, id, func(tx koda.Store) (*koda.Project, error) { return s.load(ctx, tx, id) }, fn)
}

// update loads a project inside a transaction with get, lets fn change it and saves it.
func (s *Service) update(ctx context.Context, id string, get func(tx koda.Store) (*koda.Project, error),
	fn func(tx koda.Store, p *koda.Project, c *change) error) (*koda.Project, error) {
	var out *koda.Project
	err := s.inTx(ctx, func(tx koda.Store, c *change) error {
		p, err := get(tx)
		if err != nil {
			return err
		}
		if err := fn(tx, p, c); err != nil {
			return err
		}
		if err := tx.UpdateProject(ctx, p); err != nil {
			return fmt.Errorf("save project %s: %w", id, err)
		}
		out = p
		return nil
	})
	return out, err
}

// load returns the project if the caller's tenant may see it; another tenant's project
// reads as not found so its existence does not leak.
func (s *Service) load(ctx context.Context, st koda.Store, id string) (*koda.Project, error) {
	p, err := st.GetProject(ctx, id)
	if err != nil {
		return nil, err
	}
	if t := koda.TenantFromContext(ctx); t != "" && t != p.TenantID {
		return nil, koda.NotFound("project", id)
	}
	return p, nil
}

// move applies action to p through the phase machine, recording the STATE_CHANGE event
// and the project.phase_changed webhook.
func (s *Service) move(ctx context.Context, tx koda.Store, p *koda.Project, action koda.Action, c *change) error {
	next, err := p.Phase.Next(action)
	if err != nil {
		return err
	}
	prev := p.Phase
	p.Phase = next
	if next != koda.PhaseError {
		p.Error = nil
	}
	if err := s.event(ctx, tx, p, koda.EventStateChange, koda.StateChangeData{Phase: next, Previous: prev}, c); err != nil {
		return err
	}
	return s.webhook(ctx, tx, p, koda.WebhookPhaseChanged, koda.PhaseChangedData{
		ProjectID: p.ID, Phase: next, PreviousPhase: prev,
	}, c)
}

// schedule makes the project wait for a task of the given kind at a new step.
func (s *Service) schedule(p *koda.Project, a func(step int) jobs.Args, c *change) {
	p.Step++
	args := a(p.Step)
	p.Pending = args.Kind()
	c.enqueue(args)
}

// waitForUser clears Pending: the project waits for a user action, not a task.
func waitForUser(p *koda.Project) { p.Pending = "" }

func (s *Service) event(ctx context.Context, tx koda.Store, p *koda.Project, typ string, data any, c *change) error {
	if _, err := tx.AppendEvent(ctx, p.ID, typ, data); err != nil {
		return fmt.Errorf("append %s event to %s: %w", typ, p.ID, err)
	}
	c.touched(p.ID)
	return nil
}

// webhook stores a delivery for the project's callback URL, if it has one, and enqueues it.
func (s *Service) webhook(ctx context.Context, tx koda.Store, p *koda.Project, typ string, data any, c *change) error {
	return s.webhookTo(ctx, tx, p.TenantID, p.ID, p.CallbackURL, typ, data, c)
}

// webhookTo stores a delivery of an event to url ("" for none) and enqueues it.
func (s *Service) webhookTo(ctx context.Context, tx koda.Store, tenantID, projectID, url, typ string, data any, c *change) error {
	if url == "" {
		return nil
	}
	now := s.now()
	body, err := webhook.NewPayload(typ, now, data)
	if err != nil {
		return fmt.Errorf("webhook payload %s: %w", typ, err)
	}
	d := &koda.WebhookDelivery{
		ID:        koda.NewID(koda.PrefixDelivery),
		TenantID:  tenantID,
		ProjectID: projectID,
		URL:       url,
		EventType: typ,
		Payload:   body,
		Status:    koda.DeliveryPending,
		CreatedAt: now,
	}
	if err := tx.CreateDelivery(ctx, d); err != nil {
		return fmt.Errorf("store webhook %s: %w", typ, err)
	}
	c.enqueue(jobs.WebhookArgs{DeliveryID: d.ID})
	return nil
}

// fileURL is the download link of a storage key, by the rule of koda.FileLinks.
func (s *Service) fileURL(key string) (string, error) {
	return koda.FileLinks{Storage: s.Storage, TTL: s.FileURLTTL}.URL(key)
}
