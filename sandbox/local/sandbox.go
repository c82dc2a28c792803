package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox"
)

// Sandbox is one folder under the provider's root. It is safe for concurrent use.
type Sandbox struct {
	p       *Provider
	id      string
	spec    koda.SandboxSpec
	dir     string
	seq     uint64
	uid     int // -1 when commands run as the service's user
	gid     int
	created time.Time
	files   *sandbox.Files
	cg      *cgroup
	// cgParent is the group cg is in, below each hierarchy's root (parent or
	// parent/tenants).
	cgParent string
	madeDir  bool
	mounted  bool

	mu      sync.Mutex
	state   koda.SandboxState
	running int              // foreground commands in flight; > 0 means busy
	procs   map[int]*process // live launchers by pid
}

var _ koda.Sandbox = (*Sandbox)(nil)

func (s *Sandbox) ID() string               { return s.id }
func (s *Sandbox) ProjectID() string        { return s.spec.ProjectID }
func (s *Sandbox) Spec() koda.SandboxSpec   { return s.spec }
func (s *Sandbox) Dir() string              { return s.dir }
func (s *Sandbox) State() koda.SandboxState { s.mu.Lock(); defer s.mu.Unlock(); return s.state }

// UID is the user the sandbox's commands run as (-1: the service's own).
func (s *Sandbox) UID() int { return s.uid }

// CgroupDir is the sandbox's group in the hierarchy of controller (v1: "memory", "cpu",
// "cpuacct"…; v2: any, the one group), "" without cgroups.
func (s *Sandbox) CgroupDir(controller string) string {
	switch {
	case s.cg == nil:
		return ""
	case s.cg.mode == cgroupV2:
		return filepath.Join(cgroupRoot, s.cgParent, s.id)
	default:
		return filepath.Join(cgroupRoot, controller, s.cgParent, s.id)
	}
}

// GroupUsage is what the sandbox's group used: CPU time so far, memory now (its
// processes and the files its commands wrote to its disk).
func (s *Sandbox) GroupUsage() (GroupUsage, error) {
	if s.cg == nil {
		return GroupUsage{}, errors.New("the sandbox has no cgroup on this host")
	}
	return readUsage(s.cg.mode, path.Join(s.cgParent, s.id))
}

func (s *Sandbox) setReady() {
	s.mu.Lock()
	if s.state != koda.SandboxStopped {
		s.state = koda.SandboxReady
	}
	s.mu.Unlock()
}

func (s *Sandbox) alive() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == koda.SandboxStopped {
		return notFound(s.id)
	}
	return nil
}

// check refuses work on a destroyed sandbox and on a cancelled context.
func (s *Sandbox) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.alive()
}

func (s *Sandbox) destroy(ctx context.Context) error {
	s.mu.Lock()
	if s.state == koda.SandboxStopped {
		s.mu.Unlock()
		return notFound(s.id)
	}
	s.state = koda.SandboxStopped
	procs := slices.Collect(maps.Values(s.procs))
	s.mu.Unlock()

	for _, pr := range procs {
		pr.kill()
	}
	// The cgroup catches whatever left the launcher's process group.
	var errs []error
	if err := s.cg.kill(5 * time.Second); err != nil {
		errs = append(errs, fmt.Errorf("destroy sandbox %s: %w", s.id, err))
	}
	// The folder goes only once every process is reaped, or a dying process could
	// recreate files in it.
	for _, pr := range procs {
		select {
		case <-pr.done:
		case <-ctx.Done():
			return fmt.Errorf("destroy sandbox %s: waiting for processes: %w", s.id, ctx.Err())
		}
	}
	if err := s.teardown(); err != nil {
		errs = append(errs, fmt.Errorf("destroy sandbox %s: %w", s.id, err))
	}
	s.p.log.Info("sandbox destroyed", "sandbox_id", s.id, "processes_killed", len(procs))
	return errors.Join(errs...)
}

// teardown releases the folder, mount, cgroup and uid; also used when Create fails.
func (s *Sandbox) teardown() error {
	var errs []error
	if s.files != nil {
		_ = s.files.Close()
	}
	// The disk first: its pages are charged to the sandbox's memory group, and go with
	// the unmount (every process is dead by now).
	if s.mounted {
		if err := syscall.Unmount(s.dir, syscall.MNT_DETACH); err != nil {
			errs = append(errs, fmt.Errorf("unmount %s: %w", s.dir, err))
		}
		s.mounted = false
	}
	if s.cg != nil {
		if err := s.cg.remove(); err != nil {
			errs = append(errs, err)
		}
	}
	if s.madeDir {
		if err := os.RemoveAll(s.dir); err != nil {
			errs = append(errs, err)
		}
	}
	if s.uid >= 0 {
		s.p.freeUID(s.uid)
	}
	return errors.Join(errs...)
}

// File tools: the shared os.Root implementation, owned by the sandbox's uid and held
// to its disk quota; with cgroups, its writes run in the helper (helper.go), charged to
// the sandbox's memory group.

func (s *Sandbox) WriteFile(ctx context.Context, p string, data []byte, append bool) (int64, error) {
	return s.files.WriteFile(ctx, p, data, append)
}

func (s *Sandbox) ReadFile(ctx context.Context, p string, offset, limit int64) ([]byte, error) {
	return s.files.ReadFile(ctx, p, offset, limit)
}

func (s *Sandbox) ListFiles(ctx context.Context, p string, recursive bool) ([]koda.FileInfo, error) {
	return s.files.ListFiles(ctx, p, recursive)
}

func (s *Sandbox) Replace(ctx context.Context, p, old, new string, expected int) (int, error) {
	return s.files.Replace(ctx, p, old, new, expected)
}

func (s *Sandbox) SearchFiles(ctx context.Context, pattern, include string) ([]koda.SearchMatch, error) {
	return s.files.SearchFiles(ctx, pattern, include)
}

func (s *Sandbox) Glob(ctx context.Context, pattern string) ([]string, error) {
	return s.files.Glob(ctx, pattern)
}

// Export writes the folder p of the sandbox as a tar.gz to w (transfer out).
func (s *Sandbox) Export(ctx context.Context, p string, w io.Writer) error {
	return s.files.Export(ctx, p, w)
}

// Import extracts a tar.gz into the folder p of the sandbox (transfer in, restore).
func (s *Sandbox) Import(ctx context.Context, p string, r io.Reader) error {
	return s.files.Import(ctx, p, r)
}

// Budget bounds the sandbox's checkpoints: its disk quota, in apparent bytes.
func (s *Sandbox) Budget() sandbox.Budget { return s.files.Budget() }

// Usage is the bytes the project files take.
func (s *Sandbox) Usage(ctx context.Context) (int64, error) { return s.files.Usage(ctx) }
