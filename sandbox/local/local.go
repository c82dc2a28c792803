// Package local is the sandbox provider that keeps each sandbox in a folder on this host
// and runs its commands inside bubblewrap.
//
// Isolation of a command (see Provider.command): bwrap is started as a per-sandbox
// unprivileged uid, unshares every namespace (no network but its own loopback, its own
// PID namespace, so killing bwrap kills everything inside), drops all capabilities, sees
// /usr read-only, a private /tmp and only its project folder writable at /work, with a
// clean environment. Resources: a cgroup per sandbox (v1 or v2, whichever this host
// delegates) caps memory, processes and CPU; rlimits (nproc for the sandbox's own uid,
// file size) back it up; each foreground command has a wall-clock timeout. The project
// folder is a size-limited tmpfs, so the kernel answers ENOSPC past the disk quota, and
// the file tools check the quota before writing. The file tools' writes (write_file,
// replace, transfer in, checkpoint restore) are made by a helper process in the
// sandbox's cgroups as its uid (helper.go), so their tmpfs pages count against the
// sandbox's memory limit and the tenants' ceiling, not the service's. Without root (no uid switch, no
// cgroups, no mounts) it degrades to bwrap with rlimits and the file tools' quota check.
package local

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox"
)

// Bind mounts a host path read-only into every sandbox (e.g. the node template cache).
type Bind struct {
	Host    string // host path
	Sandbox string // absolute path inside the sandbox
}

// Config configures a Provider.
type Config struct {
	// Root is the folder holding one directory per sandbox. Required.
	Root string
	// Logger receives lifecycle and command logs. Default: discard.
	Logger *slog.Logger
	// CommandTimeout bounds a foreground command that asks for no timeout. Default: 2 minutes.
	CommandTimeout time.Duration
	// MaxCommandTimeout caps what a request may ask for. Default: 30 minutes.
	MaxCommandTimeout time.Duration
	// MaxOutputBytes caps the stdout and the stderr kept from a command, each. Default: 1 MiB.
	MaxOutputBytes int
	// KillGrace is how long a command's output may keep draining after its processes
	// were killed, before the pipes are closed. Default: 2 s.
	KillGrace time.Duration
	// Limits per sandbox.
	Limits Limits
	// UIDBase is the first of the uids sandboxes run as, one per live sandbox, so
	// sandboxes cannot touch each other's files or processes. Default 200000; only used
	// when the service runs as root.
	UIDBase int
	// MaxSandboxes is how many uids are handed out, and so the most live sandboxes.
	// Default 1000.
	MaxSandboxes int
	// Bwrap is the bubblewrap binary. Default: "bwrap" on PATH.
	Bwrap string
	// ReadOnly binds extra host paths into every sandbox.
	ReadOnly []Bind
	// CgroupParent names the group under which sandbox groups are made. Default "koda".
	// Tenants' sandboxes go one level down, in <CgroupParent>/tenants.
	CgroupParent string
	// Tenants is the ceiling of all tenant sandboxes of this node together (the group
	// <CgroupParent>/tenants); Koda's own sandboxes (SandboxSpec.Internal) are outside it.
	Tenants Ceiling
}

func (c Config) withDefaults() Config {
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.CommandTimeout <= 0 {
		c.CommandTimeout = 2 * time.Minute
	}
	if c.MaxCommandTimeout <= 0 {
		c.MaxCommandTimeout = 30 * time.Minute
	}
	if c.MaxCommandTimeout < c.CommandTimeout {
		c.MaxCommandTimeout = c.CommandTimeout
	}
	if c.MaxOutputBytes <= 0 {
		c.MaxOutputBytes = 1 << 20
	}
	if c.KillGrace <= 0 {
		c.KillGrace = 2 * time.Second
	}
	c.Limits = c.Limits.withDefaults()
	c.Tenants = c.Tenants.withDefaults()
	if c.UIDBase <= 0 {
		c.UIDBase = 200000
	}
	if c.MaxSandboxes <= 0 {
		c.MaxSandboxes = 1000
	}
	if c.Bwrap == "" {
		c.Bwrap = "bwrap"
	}
	if c.CgroupParent == "" {
		c.CgroupParent = "koda"
	}
	return c
}

// Provider creates sandboxes as folders under Config.Root. It is safe for concurrent use.
type Provider struct {
	cfg   Config
	log   *slog.Logger
	bwrap string
	root  bool // running as root: uid switch, cgroups and tmpfs quotas are available

	cgOnce sync.Once
	cgMode cgroupMode
	// tenantsOK: the tenants' group and its ceiling are in place; otherwise tenant
	// sandboxes' groups go beside Koda's own, under the parent (logged at start).
	tenantsOK bool

	mu    sync.Mutex
	boxes map[string]*Sandbox
	uids  map[int]bool // uids in use
	// roMounts maps read-only binds to where sandboxes can reach them.
	roMounts map[string]string
	seq      uint64 // creation order; IDs made in the same millisecond do not sort by it
}

var _ koda.SandboxProvider = (*Provider)(nil)

// New returns a provider; the root folder is created on the first Create.
func New(cfg Config) *Provider {
	cfg = cfg.withDefaults()
	return &Provider{cfg: cfg, log: cfg.Logger, boxes: map[string]*Sandbox{}, uids: map[int]bool{}, roMounts: map[string]string{},
		root: os.Geteuid() == 0}
}

// Isolation describes what this provider can enforce on this host, for logs and tests.
type Isolation struct {
	Bwrap   string // path of bubblewrap
	Cgroups string // none, v1 or v2
	UID     bool   // commands run as a per-sandbox uid
	Quota   string // "tmpfs" (kernel-enforced) or "soft" (file tools only, rlimit fsize)
	// Tenants reports that tenant sandboxes share the group with the node's ceiling.
	Tenants bool
}

// Isolation reports (and on first use probes) the enforcement available.
func (p *Provider) Isolation() (Isolation, error) {
	if err := p.probe(); err != nil {
		return Isolation{}, err
	}
	iso := Isolation{Bwrap: p.bwrap, Cgroups: p.cgMode.String(), UID: p.root, Quota: "soft", Tenants: p.tenantsOK}
	if p.root {
		iso.Quota = "tmpfs"
	}
	return iso, nil
}

func (p *Provider) probe() error {
	p.cgOnce.Do(func() {
		p.cgMode = detectCgroups(p.cfg.CgroupParent)
		if p.cgMode != cgroupNone {
			if err := prepareTenants(p.cgMode, p.cfg.CgroupParent, p.cfg.Tenants); err != nil {
				p.log.Warn("tenant sandboxes get no node-wide ceiling", "err", err)
			} else {
				p.tenantsOK = true
			}
		}
		if path, err := exec.LookPath(p.cfg.Bwrap); err == nil {
			p.bwrap = path
		}
		p.log.Info("local sandboxes", "bwrap", p.bwrap, "cgroups", p.cgMode.String(), "uid_switch", p.root,
			"tenants_cpus", p.cfg.Tenants.CPUs, "tenants_memory_mib", p.cfg.Tenants.MemoryBytes>>20, "tenants_ceiling", p.tenantsOK)
	})
	if p.bwrap == "" {
		return &koda.Error{Kind: koda.EUNAVAILABLE, Code: koda.CodeUnavailable,
			Message: "sandboxes need bubblewrap (bwrap), which is not installed"}
	}
	return nil
}

func (p *Provider) allocUID() (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.cfg.MaxSandboxes {
		uid := p.cfg.UIDBase + i
		if !p.uids[uid] {
			p.uids[uid] = true
			return uid, nil
		}
	}
	return 0, koda.Errorf(koda.ELIMIT, koda.CodeQuotaExceeded, "this node runs its maximum of %d sandboxes", p.cfg.MaxSandboxes)
}

func (p *Provider) freeUID(uid int) {
	p.mu.Lock()
	delete(p.uids, uid)
	p.mu.Unlock()
}

// Create makes an empty sandbox folder (a tmpfs of the disk quota, owned by the
// sandbox's uid), its cgroup, and returns the sandbox in state ready.
func (p *Provider) Create(ctx context.Context, spec koda.SandboxSpec) (_ koda.Sandbox, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.cfg.Root == "" {
		return nil, fmt.Errorf("create sandbox: local provider has no root folder")
	}
	if err := p.probe(); err != nil {
		return nil, err
	}
	root, err := p.rootDir()
	if err != nil {
		return nil, fmt.Errorf("create sandbox: %w", err)
	}
	id := koda.NewID(koda.PrefixSandbox)
	dir := filepath.Join(root, id)
	sb := &Sandbox{p: p, id: id, spec: spec, dir: dir, state: koda.SandboxCreated,
		procs: map[int]*process{}, uid: -1, gid: -1, created: time.Now()}
	defer func() {
		if err != nil {
			sb.teardown()
		}
	}()
	if p.root {
		if sb.uid, err = p.allocUID(); err != nil {
			return nil, err
		}
		sb.gid = sb.uid
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("create sandbox %s: %w", id, err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create sandbox %s: %w", id, err)
	}
	sb.madeDir = true
	if p.root {
		// A tmpfs of the quota's size: the kernel stops every writer (file tools,
		// commands, their children) at the quota with ENOSPC, with no accounting race.
		opts := fmt.Sprintf("size=%d,nr_inodes=%d,mode=0700,uid=%d,gid=%d",
			p.cfg.Limits.DiskBytes, 100000, sb.uid, sb.gid)
		if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_NOSUID|syscall.MS_NODEV, opts); err != nil {
			return nil, fmt.Errorf("create sandbox %s: mount its disk: %w", id, err)
		}
		sb.mounted = true
	}
	if p.cgMode != cgroupNone {
		sb.cgParent = p.groupParent(spec)
		l := p.cfg.Limits
		if sb.cgParent != p.cfg.CgroupParent {
			// A group's CPU quota may not exceed its parent's (v1 refuses it).
			l.CPUs = min(l.CPUs, p.cfg.Tenants.CPUs)
		}
		if sb.cg, err = newCgroup(p.cgMode, sb.cgParent, id, l, sb.uid); err != nil {
			return nil, fmt.Errorf("create sandbox %s: %w", id, err)
		}
	}
	if sb.files, err = sandbox.OpenFiles(dir, sb.uid, sb.gid, p.cfg.Limits.DiskBytes); err != nil {
		return nil, err
	}
	sb.files.Alive = sb.alive
	if sb.charged() {
		// Writes go through a helper in the sandbox's groups, charged to its memory.
		sb.files.Via = helperWriter{sb}
	}
	p.mu.Lock()
	p.seq++
	sb.seq = p.seq
	p.boxes[id] = sb
	p.mu.Unlock()
	sb.setReady()
	p.log.Info("sandbox created", "sandbox_id", id, "project_id", spec.ProjectID, "name", spec.Name,
		"dir", dir, "uid", sb.uid)
	return sb, nil
}

// groupParent is the group a sandbox's own group goes under: the tenants' group for a
// tenant's sandbox, the parent for Koda's own.
func (p *Provider) groupParent(spec koda.SandboxSpec) string {
	if !spec.Internal && p.tenantsOK {
		return path.Join(p.cfg.CgroupParent, TenantsGroup)
	}
	return p.cfg.CgroupParent
}

// TenantUsage is what all tenant sandboxes of this node use together now (memory) and
// have used since the tenants' group was made (CPU): what the ceiling holds.
func (p *Provider) TenantUsage() (GroupUsage, error) {
	if err := p.probe(); err != nil {
		return GroupUsage{}, err
	}
	if !p.tenantsOK {
		return GroupUsage{}, errors.New("tenant sandboxes have no group of their own on this host")
	}
	return readUsage(p.cgMode, path.Join(p.cfg.CgroupParent, TenantsGroup))
}

// rootDir is where sandbox folders go. bubblewrap, started as the sandbox's uid, must
// be able to walk down to the folder it binds; when a parent of Root is private (a 0700
// home or test folder), the folders go to a root-owned, walk-only (0711) folder under
// /run instead, named after Root so two providers do not meet.
func (p *Provider) rootDir() (string, error) {
	root, err := filepath.Abs(p.cfg.Root)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(root, 0o711); err != nil {
		return "", err
	}
	if !p.root || traversable(root) {
		return root, nil
	}
	sum := sha256.Sum256([]byte(root))
	run := filepath.Join("/run/koda-sandboxes", hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(run, 0o711); err != nil {
		return "", err
	}
	if err := os.Chmod("/run/koda-sandboxes", 0o711); err != nil {
		return "", err
	}
	if !traversable(run) {
		return "", fmt.Errorf("neither %s nor %s can be reached by unprivileged sandbox users", root, run)
	}
	return run, nil
}

// reachable returns a path to the host folder that the sandboxes' users can walk to:
// the folder itself, or, when a parent is private (the template cache under /root), a
// read-only bind mount of it under /run made once and reused.
func (p *Provider) reachable(host string) string {
	if !p.root || traversable(host) {
		return host
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if m, ok := p.roMounts[host]; ok {
		return m
	}
	sum := sha256.Sum256([]byte(host))
	target := filepath.Join("/run/koda-sandboxes", "ro-"+hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(target, 0o755); err != nil {
		return host
	}
	_ = os.Chmod("/run/koda-sandboxes", 0o711)
	if entries, _ := os.ReadDir(target); len(entries) == 0 {
		if err := syscall.Mount(host, target, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			p.log.Warn("bind the read-only folder where sandboxes reach it", "host", host, "err", err)
			return host
		}
		_ = syscall.Mount("", target, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY|syscall.MS_REC, "")
	}
	p.roMounts[host] = target
	return target
}

// traversable reports whether any user may walk down to dir (every folder on the way
// grants search to others).
func traversable(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		st, err := os.Stat(d)
		if err != nil || st.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == "/" {
			return true
		}
	}
}

// Get returns a live sandbox, or SANDBOX_NOT_FOUND.
func (p *Provider) Get(ctx context.Context, id string) (koda.Sandbox, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	sb, ok := p.boxes[id]
	p.mu.Unlock()
	if !ok {
		return nil, notFound(id)
	}
	return sb, nil
}

// List returns the live sandboxes, oldest first.
func (p *Provider) List(ctx context.Context) ([]koda.Sandbox, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.mu.Lock()
	boxes := slices.SortedFunc(maps.Values(p.boxes), func(a, b *Sandbox) int { return cmp.Compare(a.seq, b.seq) })
	p.mu.Unlock()
	out := make([]koda.Sandbox, len(boxes))
	for i, sb := range boxes {
		out[i] = sb
	}
	return out, nil
}

// Destroy kills every process the sandbox started, waits for them to be reaped, and
// removes its folder. A destroyed or unknown sandbox answers SANDBOX_NOT_FOUND.
func (p *Provider) Destroy(ctx context.Context, id string) error {
	p.mu.Lock()
	sb, ok := p.boxes[id]
	delete(p.boxes, id)
	p.mu.Unlock()
	if !ok {
		return notFound(id)
	}
	return sb.destroy(ctx)
}

// Close destroys every live sandbox; for shutdown and tests.
func (p *Provider) Close(ctx context.Context) error {
	p.mu.Lock()
	ids := slices.Collect(maps.Keys(p.boxes))
	p.mu.Unlock()
	var first error
	for _, id := range ids {
		if err := p.Destroy(ctx, id); err != nil && koda.ErrorCode(err) != koda.CodeSandboxNotFound && first == nil {
			first = err
		}
	}
	return first
}

// Sweep removes what sandboxes of an earlier process left under Root (mounts, folders,
// cgroups), for a process that owns Root alone to call at start.
func (p *Provider) Sweep(ctx context.Context) error {
	if p.cfg.Root == "" {
		return nil
	}
	root, err := p.rootDir()
	if err != nil {
		return fmt.Errorf("sweep sandboxes: %w", err)
	}
	entries, err := os.ReadDir(root)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sweep sandboxes: %w", err)
	}
	_ = p.probe()
	p.mu.Lock()
	live := maps.Clone(p.boxes)
	p.mu.Unlock()
	for _, e := range entries {
		if _, ok := live[e.Name()]; ok || ctx.Err() != nil {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if p.cgMode != cgroupNone {
			for _, parent := range []string{p.cfg.CgroupParent, path.Join(p.cfg.CgroupParent, TenantsGroup)} {
				cg := &cgroup{mode: p.cgMode}
				if p.cgMode == cgroupV1 {
					for _, c := range v1Controllers() {
						cg.dirs = append(cg.dirs, filepath.Join(cgroupRoot, c, parent, e.Name()))
					}
				}
				if p.cgMode == cgroupV2 {
					cg.dirs = []string{filepath.Join(cgroupRoot, parent, e.Name())}
				}
				_ = cg.kill(time.Second)
				_ = cg.remove()
			}
		}
		_ = syscall.Unmount(dir, syscall.MNT_DETACH)
		if err := os.RemoveAll(dir); err != nil {
			p.log.Warn("sweep sandbox folder", "dir", dir, "err", err)
		}
	}
	return nil
}

func notFound(id string) *koda.Error {
	return koda.Errorf(koda.ENOTFOUND, koda.CodeSandboxNotFound, "sandbox %q not found", id)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
