package sandbox

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/kodahq/koda"
)

// PoolConfig configures a Pool.
type PoolConfig struct {
	Provider koda.SandboxProvider
	// Storage keeps checkpoints: a sandbox is saved before it is destroyed and restored
	// when one is created for a project that has a checkpoint. Nil: no checkpoints.
	Storage koda.Storage
	// MaxPerTenant and MaxPerNode cap live sandboxes (0: no cap); past them Create
	// answers QUOTA_EXCEEDED.
	MaxPerTenant int
	MaxPerNode   int
	// TenantShare caps the sandboxes tenants make through the API on this node, all
	// tenants together (0: no cap), so the rest of MaxPerNode stays for Koda's own
	// (codegen, preview): four tenants holding their limits once made every other
	// tenant's codegen fail with QUOTA_EXCEEDED (issue 26).
	TenantShare int
	// MaxLifetime ends a tenant's API sandbox this long after it was made, however
	// active (checkpointed first, as when idle); 0: no limit. Koda's own sandboxes live
	// as long as their step needs them.
	MaxLifetime time.Duration
	// Admit, when set, is asked before every creation (the API's and Koda's own)
	// whether the tenant may have one more sandbox while live of its sandboxes exist in
	// this pool; an error refuses the creation (lifecycle.Service.AdmitSandbox, the
	// tenant's live-sandbox limit across the cluster, answering 429). The pool calls
	// release once the sandbox is gone, or at once when its creation fails. Admissions
	// run one at a time, so concurrent creations cannot slip past the limit together.
	Admit func(ctx context.Context, tenant string, live int) (release func(), err error)
	// IdleTimeout is how long a sandbox may sit unused before ReapIdle checkpoints and
	// destroys it. Default 5 minutes.
	IdleTimeout time.Duration
	Logger      *slog.Logger
	// Now is the clock (tests). Default time.Now.
	Now func() time.Time
}

// Pool keeps the live sandboxes of this process by tenant, project and name: the same
// key gets the same sandbox while it lives, a new one (restored from the project's
// checkpoint) once it has died. It is safe for concurrent use.
type Pool struct {
	cfg PoolConfig
	log *slog.Logger

	// admitting serialises Admit calls, which may reach the database, without
	// holding mu (and so every other pool operation) meanwhile.
	admitting sync.Mutex

	mu sync.Mutex
	// creating counts each tenant's creations in flight, keyed or not; creatingAPI
	// those made through the API, for TenantShare.
	creating    map[string]int
	creatingAPI int
	byKey       map[poolKey]*entry
	byID        map[string]*entry
	pending     map[poolKey]chan struct{} // creations in flight, so one key gets one sandbox
}

type poolKey struct{ tenant, project, name string }

type entry struct {
	sb      koda.Sandbox
	key     poolKey
	prefix  string // storage folder of the checkpoints; "" for none
	created time.Time
	// internal marks Koda's own sandboxes (Create: the codegen step's). Tenants neither
	// see nor touch them through the sandbox API: writing into one would change what
	// Koda renders, and destroying it with save would overwrite the project's checkpoint.
	internal bool

	// release gives back the admission (Admit) when the sandbox is gone.
	release func()

	mu         sync.Mutex
	lastActive time.Time
	inUse      int // callers holding it through Acquire
}

// Info describes a pooled sandbox.
type Info struct {
	ID         string            `json:"id"`
	TenantID   string            `json:"tenant_id"`
	ProjectID  string            `json:"project_id,omitempty"`
	Name       string            `json:"name,omitempty"`
	State      koda.SandboxState `json:"state"`
	CreatedAt  time.Time         `json:"created_at"`
	LastActive time.Time         `json:"last_active_at"`
}

// NewPool returns an empty pool.
func NewPool(cfg PoolConfig) *Pool {
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 5 * time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Pool{cfg: cfg, log: cfg.Logger, byKey: map[poolKey]*entry{}, byID: map[string]*entry{},
		pending: map[poolKey]chan struct{}{}, creating: map[string]int{}}
}

// Provider is the provider the pool creates sandboxes with.
func (p *Pool) Provider() koda.SandboxProvider { return p.cfg.Provider }

var _ koda.SandboxProvider = (*Pool)(nil)

// GetOrCreate returns the live sandbox of spec's project and name, or creates one and
// restores the project's checkpoint into it (restored reports that). Koda's own
// workers use it; checkpoints live under projects/<project>.
func (p *Pool) GetOrCreate(ctx context.Context, spec koda.SandboxSpec) (sb koda.Sandbox, restored bool, err error) {
	prefix := ""
	if spec.ProjectID != "" {
		prefix = koda.ProjectFolder(spec.ProjectID)
	}
	return p.getOrCreate(ctx, spec, prefix, spec.ProjectID != "", true, false)
}

// Create makes a new sandbox of Koda's own under the pool's limits (SandboxProvider),
// restored from the project's checkpoint (CreateRestored).
func (p *Pool) Create(ctx context.Context, spec koda.SandboxSpec) (koda.Sandbox, error) {
	sb, _, err := p.CreateRestored(ctx, spec)
	return sb, err
}

// CreateRestored makes a new sandbox of Koda's own, not shared by key and hidden from
// the tenant sandbox API, and restores the project's checkpoint (projects/<project>)
// into it; restored reports whether there was one. The pool saves it back there before
// destroying it. Saving is safe because a sandbox whose restore failed is destroyed at
// once, unsaved, and never handed out: a sandbox that missed the checkpoint's files
// must not overwrite them.
func (p *Pool) CreateRestored(ctx context.Context, spec koda.SandboxSpec) (sb koda.Sandbox, restored bool, err error) {
	prefix := ""
	if spec.ProjectID != "" {
		prefix = koda.ProjectFolder(spec.ProjectID)
	}
	return p.getOrCreate(ctx, spec, prefix, false, true, true)
}

// Get returns a live pooled sandbox of any tenant (SandboxProvider).
func (p *Pool) Get(ctx context.Context, id string) (koda.Sandbox, error) {
	return p.Lookup(ctx, "", id)
}

// List returns every tenant's live pooled sandboxes, oldest first (SandboxProvider).
func (p *Pool) List(ctx context.Context) ([]koda.Sandbox, error) {
	infos, err := p.ListFor(ctx, "")
	if err != nil {
		return nil, err
	}
	out := make([]koda.Sandbox, 0, len(infos))
	for _, in := range infos {
		if sb, err := p.Lookup(ctx, "", in.ID); err == nil {
			out = append(out, sb)
		}
	}
	return out, nil
}

// Destroy checkpoints and destroys a pooled sandbox (SandboxProvider).
func (p *Pool) Destroy(ctx context.Context, id string) error { return p.DestroyFor(ctx, "", id, true) }

func (p *Pool) getOrCreate(ctx context.Context, spec koda.SandboxSpec, prefix string, keyed, restore, internal bool) (koda.Sandbox, bool, error) {
	if spec.TenantID == "" {
		spec.TenantID = koda.DefaultTenant
	}
	key := poolKey{spec.TenantID, spec.ProjectID, spec.Name}
	for {
		p.mu.Lock()
		if keyed {
			if e, ok := p.byKey[key]; ok {
				if e.sb.State() != koda.SandboxStopped {
					p.mu.Unlock()
					e.touch(p.cfg.Now())
					return e.sb, false, nil
				}
				// Died under us (killed, crashed): forget it and make a new one.
				p.forgetLocked(e)
			}
			if wait, ok := p.pending[key]; ok {
				p.mu.Unlock()
				select {
				case <-wait:
					continue
				case <-ctx.Done():
					return nil, false, ctx.Err()
				}
			}
		}
		if err := p.admitLocked(spec.TenantID, internal); err != nil {
			p.mu.Unlock()
			return nil, false, err
		}
		release := func() {}
		if p.cfg.Admit != nil {
			p.mu.Unlock()
			rel, retry, err := p.admit(ctx, spec.TenantID, key, keyed, internal)
			if retry || err != nil {
				if err != nil {
					return nil, false, err
				}
				continue
			}
			release = onceFunc(rel)
			// admit returned with mu held and the tenant's creation counted.
		} else {
			p.creating[spec.TenantID]++
		}
		if !internal {
			p.creatingAPI++
		}
		done := make(chan struct{})
		if keyed {
			p.pending[key] = done
		}
		p.mu.Unlock()

		spec.Internal = internal
		restorePrefix := ""
		if restore {
			restorePrefix = prefix
		}
		sb, restored, err := p.create(ctx, spec, restorePrefix)
		p.mu.Lock()
		if keyed {
			delete(p.pending, key)
		}
		if p.creating[spec.TenantID]--; p.creating[spec.TenantID] <= 0 {
			delete(p.creating, spec.TenantID)
		}
		if !internal {
			p.creatingAPI--
		}
		if err == nil {
			now := p.cfg.Now()
			e := &entry{sb: sb, key: key, prefix: prefix, created: now, lastActive: now, internal: internal, release: release}
			if keyed {
				p.byKey[key] = e
			}
			p.byID[sb.ID()] = e
		}
		p.mu.Unlock()
		close(done)
		if err != nil {
			release()
		}
		return sb, restored, err
	}
}

// onceFunc makes an admission's release safe to call from every path that may see
// its sandbox gone; nil releases nothing.
func onceFunc(f func()) func() {
	if f == nil {
		return func() {}
	}
	return sync.OnceFunc(f)
}

// admit asks cfg.Admit about one more sandbox of tenant. On success it returns the
// admission's release with mu held and the creation counted in creating; retry means
// another caller created the keyed sandbox meanwhile (or a cap is now reached), so the
// caller starts over without mu, the admission given back.
func (p *Pool) admit(ctx context.Context, tenant string, key poolKey, keyed, internal bool) (release func(), retry bool, err error) {
	p.admitting.Lock()
	defer p.admitting.Unlock()
	p.mu.Lock()
	live := p.tenantLiveLocked(tenant)
	p.mu.Unlock()
	release, err = p.cfg.Admit(ctx, tenant, live)
	if err != nil {
		return nil, false, err
	}
	release = onceFunc(release)
	p.mu.Lock()
	_, exists := p.byKey[key]
	_, pending := p.pending[key]
	if keyed && (exists || pending) {
		p.mu.Unlock()
		release()
		return nil, true, nil
	}
	if err := p.admitLocked(tenant, internal); err != nil {
		p.mu.Unlock()
		release()
		return nil, false, err
	}
	p.creating[tenant]++
	return release, false, nil
}

// tenantLiveLocked counts the tenant's sandboxes, live or being created.
func (p *Pool) tenantLiveLocked(tenant string) int {
	n := p.creating[tenant]
	for _, e := range p.byID {
		if e.key.tenant == tenant {
			n++
		}
	}
	return n
}

// admitLocked enforces the per-tenant and per-node caps, and for a tenant's API
// sandbox (not internal) the tenants' share of the node, counting creations in flight.
func (p *Pool) admitLocked(tenant string, internal bool) error {
	if !internal && p.cfg.TenantShare > 0 {
		n := p.creatingAPI
		for _, e := range p.byID {
			if !e.internal {
				n++
			}
		}
		if n >= p.cfg.TenantShare {
			return &koda.Error{Kind: koda.ELIMIT, Code: koda.CodeQuotaExceeded, RetryAfter: 30,
				Message: fmt.Sprintf("tenants' sandboxes already fill their share of this node (%d)", p.cfg.TenantShare)}
		}
	}
	live := len(p.byID)
	for _, n := range p.creating {
		live += n
	}
	if p.cfg.MaxPerNode > 0 && live >= p.cfg.MaxPerNode {
		return &koda.Error{Kind: koda.ELIMIT, Code: koda.CodeQuotaExceeded, RetryAfter: 30,
			Message: fmt.Sprintf("this node already runs its limit of %d sandboxes", p.cfg.MaxPerNode)}
	}
	if p.cfg.MaxPerTenant > 0 {
		if n := p.tenantLiveLocked(tenant); n >= p.cfg.MaxPerTenant {
			return &koda.Error{Kind: koda.ELIMIT, Code: koda.CodeQuotaExceeded, RetryAfter: 30,
				Message: fmt.Sprintf("the tenant already has its limit of %d live sandboxes", p.cfg.MaxPerTenant)}
		}
	}
	return nil
}

func (p *Pool) create(ctx context.Context, spec koda.SandboxSpec, prefix string) (koda.Sandbox, bool, error) {
	sb, err := p.cfg.Provider.Create(ctx, spec)
	if err != nil {
		return nil, false, err
	}
	restored := false
	if p.cfg.Storage != nil && prefix != "" {
		if restored, err = RestoreFiles(ctx, p.cfg.Storage, prefix, sb); err != nil {
			_ = p.cfg.Provider.Destroy(context.WithoutCancel(ctx), sb.ID())
			return nil, false, err
		}
	}
	p.log.Info("pooled sandbox", "sandbox_id", sb.ID(), "tenant", spec.TenantID, "project_id", spec.ProjectID,
		"name", spec.Name, "restored", restored)
	return sb, restored, nil
}

func (p *Pool) forgetLocked(e *entry) {
	if cur, ok := p.byKey[e.key]; ok && cur == e {
		delete(p.byKey, e.key)
	}
	delete(p.byID, e.sb.ID())
	// A forgotten sandbox no longer counts against its tenant's limit. The release
	// may reach Redis, so it runs outside mu; destroy waits for it.
	if e.release != nil {
		go e.release()
	}
}

func (e *entry) touch(now time.Time) {
	e.mu.Lock()
	if now.After(e.lastActive) {
		e.lastActive = now
	}
	e.mu.Unlock()
}

// Lookup returns the tenant's live sandbox by ID, or SANDBOX_NOT_FOUND (also for another
// tenant's sandbox and for Koda's own: their existence is not revealed). Tenant ""
// matches every sandbox.
func (p *Pool) Lookup(ctx context.Context, tenant, id string) (koda.Sandbox, error) {
	e, err := p.entry(ctx, tenant, id)
	if err != nil {
		return nil, err
	}
	return e.sb, nil
}

func (p *Pool) entry(ctx context.Context, tenant, id string) (*entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.byID[id]
	if !ok || (tenant != "" && (e.key.tenant != tenant || e.internal)) {
		return nil, koda.Errorf(koda.ENOTFOUND, koda.CodeSandboxNotFound, "sandbox %q not found", id)
	}
	if e.sb.State() == koda.SandboxStopped {
		p.forgetLocked(e)
		return nil, koda.Errorf(koda.ENOTFOUND, koda.CodeSandboxNotFound, "sandbox %q not found", id)
	}
	return e, nil
}

// Touch records activity on a sandbox, postponing its idle reaping.
func (p *Pool) Touch(id string) {
	p.mu.Lock()
	e, ok := p.byID[id]
	p.mu.Unlock()
	if ok {
		e.touch(p.cfg.Now())
	}
}

// Acquire marks the sandbox in use until release is called: ReapIdle leaves it alone
// however long the work takes.
func (p *Pool) Acquire(id string) (release func()) {
	p.mu.Lock()
	e, ok := p.byID[id]
	p.mu.Unlock()
	if !ok {
		return func() {}
	}
	e.mu.Lock()
	e.inUse++
	e.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			e.mu.Lock()
			e.inUse--
			e.mu.Unlock()
			e.touch(p.cfg.Now())
		})
	}
}

// ListFor returns the tenant's live sandboxes, Koda's own left out (every sandbox for
// ""), oldest first.
func (p *Pool) ListFor(ctx context.Context, tenant string) ([]Info, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	var out []Info
	for _, e := range p.byID {
		if tenant != "" && (e.key.tenant != tenant || e.internal) {
			continue
		}
		if e.sb.State() == koda.SandboxStopped {
			p.forgetLocked(e)
			continue
		}
		out = append(out, e.info())
	}
	p.mu.Unlock()
	slices.SortFunc(out, func(a, b Info) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	if out == nil {
		out = []Info{}
	}
	return out, nil
}

func (e *entry) info() Info {
	e.mu.Lock()
	defer e.mu.Unlock()
	return Info{ID: e.sb.ID(), TenantID: e.key.tenant, ProjectID: e.key.project, Name: e.key.name,
		State: e.sb.State(), CreatedAt: e.created, LastActive: e.lastActive}
}

// Info describes one of the tenant's sandboxes.
func (p *Pool) Info(ctx context.Context, tenant, id string) (Info, error) {
	e, err := p.entry(ctx, tenant, id)
	if err != nil {
		return Info{}, err
	}
	return e.info(), nil
}

// DestroyFor checkpoints the tenant's sandbox (when save is set and it has a project) and destroys
// it. A checkpoint failure is returned and the sandbox is destroyed all the same: it
// would not get better by living on.
func (p *Pool) DestroyFor(ctx context.Context, tenant, id string, save bool) error {
	e, err := p.entry(ctx, tenant, id)
	if err != nil {
		return err
	}
	return p.destroy(ctx, e, save, "before destroy")
}

func (p *Pool) destroy(ctx context.Context, e *entry, save bool, reason string) error {
	var errs []error
	if save && e.prefix != "" && p.cfg.Storage != nil && e.sb.State() != koda.SandboxStopped {
		if err := SaveFiles(ctx, p.cfg.Storage, e.prefix, e.sb); err != nil && koda.ErrorCode(err) != koda.CodeSandboxNotFound {
			errs = append(errs, err)
		} else {
			p.log.Info("sandbox checkpointed", "sandbox_id", e.sb.ID(), "reason", reason)
		}
	}
	p.mu.Lock()
	p.forgetLocked(e)
	p.mu.Unlock()
	if err := p.cfg.Provider.Destroy(ctx, e.sb.ID()); err != nil && koda.ErrorCode(err) != koda.CodeSandboxNotFound {
		errs = append(errs, err)
	}
	if e.release != nil {
		e.release() // waits for the one forgetLocked started
	}
	return errors.Join(errs...)
}

// DestroyAll checkpoints and destroys the tenant's sandboxes of a project (every one of
// the tenant's for project "").
func (p *Pool) DestroyAll(ctx context.Context, tenant, project string) error {
	p.mu.Lock()
	var victims []*entry
	for _, e := range p.byID {
		if e.key.tenant == tenant && (project == "" || e.key.project == project) {
			victims = append(victims, e)
		}
	}
	p.mu.Unlock()
	var errs []error
	for _, e := range victims {
		errs = append(errs, p.destroy(ctx, e, true, "destroy all"))
	}
	return errors.Join(errs...)
}

// DiscardTenant destroys every sandbox of the tenant on this node, Koda's own (its
// projects' codegen) included, without a checkpoint: the tenant was deleted and its
// files are being removed, so saving one would write them back. A command running in
// one is killed with it; an agent working in it finds it stopped. It returns how many
// it destroyed.
func (p *Pool) DiscardTenant(ctx context.Context, tenant string) (int, error) {
	if tenant == "" {
		return 0, errors.New("discard sandboxes: no tenant")
	}
	p.mu.Lock()
	var victims []*entry
	for _, e := range p.byID {
		if e.key.tenant == tenant {
			victims = append(victims, e)
		}
	}
	p.mu.Unlock()
	var errs []error
	for _, e := range victims {
		errs = append(errs, p.destroy(ctx, e, false, "tenant deleted"))
	}
	return len(victims), errors.Join(errs...)
}

// ReapIdle checkpoints and destroys sandboxes unused for idle (0: IdleTimeout) that are
// neither running a command nor held through Acquire, and tenants' API sandboxes past
// MaxLifetime that are not held. It returns how many it destroyed.
// RunReaper calls it periodically.
func (p *Pool) ReapIdle(ctx context.Context, idle time.Duration) (int, error) {
	if idle <= 0 {
		idle = p.cfg.IdleTimeout
	}
	now := p.cfg.Now()
	cutoff := now.Add(-idle)
	p.mu.Lock()
	var victims []*entry
	var why []string
	for _, e := range p.byID {
		e.mu.Lock()
		// A tenant's sandbox past MaxLifetime goes between two calls, however busy it
		// keeps itself (a background command counts as busy, not as a call).
		old := !e.internal && p.cfg.MaxLifetime > 0 && now.Sub(e.created) >= p.cfg.MaxLifetime
		switch {
		case e.inUse == 0 && old:
			victims, why = append(victims, e), append(why, "lifetime")
		case e.inUse == 0 && e.lastActive.Before(cutoff) && e.sb.State() != koda.SandboxBusy:
			victims, why = append(victims, e), append(why, "idle")
		}
		e.mu.Unlock()
	}
	p.mu.Unlock()
	var errs []error
	n := 0
	for i, e := range victims {
		if err := ctx.Err(); err != nil {
			errs = append(errs, err)
			break
		}
		if err := p.destroy(ctx, e, true, why[i]); err != nil {
			errs = append(errs, fmt.Errorf("reap %s: %w", e.sb.ID(), err))
			continue
		}
		n++
	}
	if n > 0 {
		p.log.Info("idle sandboxes reaped", "count", n, "idle_timeout", idle)
	}
	return n, errors.Join(errs...)
}

// RunReaper reaps this pool's idle sandboxes (ReapIdle with IdleTimeout) until ctx
// ends. Every process that holds sandboxes runs its own: they live on this node only,
// so a cluster-wide singleton would leave every other node's sandboxes unreaped. It
// checks at a quarter of IdleTimeout, at least every second and at most every minute,
// so a sandbox outlives IdleTimeout by at most that much.
func (p *Pool) RunReaper(ctx context.Context) {
	every := min(max(p.cfg.IdleTimeout/4, time.Second), time.Minute)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := p.ReapIdle(ctx, 0); err != nil && ctx.Err() == nil {
			p.log.Warn("reap idle sandboxes", "err", err)
		}
	}
}

// Close checkpoints and destroys every sandbox, for shutdown.
func (p *Pool) Close(ctx context.Context) error {
	p.mu.Lock()
	all := make([]*entry, 0, len(p.byID))
	for _, e := range p.byID {
		all = append(all, e)
	}
	p.mu.Unlock()
	var errs []error
	for _, e := range all {
		errs = append(errs, p.destroy(ctx, e, true, "shutdown"))
	}
	return errors.Join(errs...)
}

// ProjectDir returns the folder of the newest live sandbox of Koda's own working on
// the tenant's project in this process (code generation), for the live preview of what
// the agent is writing; false when none lives here.
func (p *Pool) ProjectDir(tenant, project string) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var best *entry
	for _, e := range p.byID {
		if !e.internal || e.key.tenant != tenant || e.key.project != project || e.sb.State() == koda.SandboxStopped {
			continue
		}
		if best == nil || e.created.After(best.created) {
			best = e
		}
	}
	if best == nil || best.sb.Dir() == "" {
		return "", false
	}
	return best.sb.Dir(), true
}
