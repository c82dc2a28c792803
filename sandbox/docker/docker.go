// Package docker is the sandbox provider for hosts with a Docker engine: one container
// per sandbox, the project folder bind-mounted at /work.
//
// Each container runs as an unprivileged uid with no network (NetworkMode none), every
// capability dropped, no-new-privileges, a read-only root file system, a size-limited
// /tmp and limits on memory (swap included), processes and CPU. Runtime "runsc" runs it
// under gVisor for a kernel boundary stronger than a plain container. File tools work on
// the host folder through os.Root, as in the local provider.
package docker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/moby/moby/api/pkg/stdcopy"
	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/client"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox"
)

// Config configures a Provider.
type Config struct {
	// Root holds one project folder per sandbox; it must be a path the engine can bind
	// (the engine runs on this host). Required.
	Root string
	// Image is the sandbox image (it needs /bin/sh). Default "node:20-bookworm-slim".
	Image string
	// Runtime is the OCI runtime, e.g. "runsc" for gVisor; empty uses the engine's default.
	Runtime     string
	UID, GID    int // default 65534 (nobody)
	MemoryBytes int64
	Pids        int64
	CPUs        float64
	DiskBytes   int64 // checked by the file tools; the engine cannot cap a bind mount
	// CommandTimeout bounds a foreground command that asks for none. Default 2 minutes.
	CommandTimeout time.Duration
	MaxOutputBytes int
	Logger         *slog.Logger
	// Client is the engine client; default client.New(client.FromEnv).
	Client *client.Client
}

// Provider creates container sandboxes.
type Provider struct {
	cfg Config
	cli *client.Client
	log *slog.Logger

	mu    sync.Mutex
	boxes map[string]*Sandbox
}

var _ koda.SandboxProvider = (*Provider)(nil)

// New returns a provider; it does not contact the engine until used.
func New(cfg Config) (*Provider, error) {
	if cfg.Image == "" {
		cfg.Image = "node:20-bookworm-slim"
	}
	if cfg.UID == 0 {
		cfg.UID, cfg.GID = 65534, 65534
	}
	if cfg.MemoryBytes <= 0 {
		cfg.MemoryBytes = 1 << 30
	}
	if cfg.Pids <= 0 {
		cfg.Pids = 256
	}
	if cfg.CPUs <= 0 {
		cfg.CPUs = 1
	}
	if cfg.DiskBytes <= 0 {
		cfg.DiskBytes = 512 << 20
	}
	if cfg.CommandTimeout <= 0 {
		cfg.CommandTimeout = 2 * time.Minute
	}
	if cfg.MaxOutputBytes <= 0 {
		cfg.MaxOutputBytes = 1 << 20
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cli := cfg.Client
	if cli == nil {
		var err error
		if cli, err = client.New(client.FromEnv); err != nil {
			return nil, fmt.Errorf("docker client: %w", err)
		}
	}
	return &Provider{cfg: cfg, cli: cli, log: cfg.Logger, boxes: map[string]*Sandbox{}}, nil
}

// Ping reports whether an engine answers.
func (p *Provider) Ping(ctx context.Context) error {
	_, err := p.cli.Ping(ctx, client.PingOptions{})
	return err
}

// Create makes the project folder and starts a container idling on it.
func (p *Provider) Create(ctx context.Context, spec koda.SandboxSpec) (_ koda.Sandbox, err error) {
	id := koda.NewID(koda.PrefixSandbox)
	dir := filepath.Join(p.cfg.Root, id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create sandbox %s: %w", id, err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dir)
		}
	}()
	if os.Geteuid() == 0 {
		if err := os.Chown(dir, p.cfg.UID, p.cfg.GID); err != nil {
			return nil, err
		}
	}
	files, err := sandbox.OpenFiles(dir, p.cfg.UID, p.cfg.GID, p.cfg.DiskBytes)
	if err != nil {
		return nil, err
	}
	init := true
	res, err := p.cli.ContainerCreate(ctx, client.ContainerCreateOptions{
		Name: "koda-" + id,
		Config: &container.Config{
			Image: p.cfg.Image, Cmd: []string{"sleep", "infinity"}, WorkingDir: "/work",
			User:   fmt.Sprintf("%d:%d", p.cfg.UID, p.cfg.GID),
			Env:    []string{"HOME=/work", "TMPDIR=/tmp", "LANG=C.UTF-8", "KODA_SANDBOX_ID=" + id},
			Labels: map[string]string{"koda.sandbox": id, "koda.project": spec.ProjectID},
		},
		HostConfig: &container.HostConfig{
			Binds:          []string{dir + ":/work"},
			NetworkMode:    "none",
			CapDrop:        []string{"ALL"},
			SecurityOpt:    []string{"no-new-privileges"},
			ReadonlyRootfs: true,
			Tmpfs:          map[string]string{"/tmp": "size=" + strconv.FormatInt(p.cfg.DiskBytes, 10)},
			Runtime:        p.cfg.Runtime,
			Init:           &init,
			Resources: container.Resources{
				Memory: p.cfg.MemoryBytes, MemorySwap: p.cfg.MemoryBytes,
				PidsLimit: &p.cfg.Pids, NanoCPUs: int64(p.cfg.CPUs * 1e9),
			},
		},
	})
	if err != nil {
		files.Close()
		return nil, &koda.Error{Kind: koda.EUNAVAILABLE, Code: koda.CodeUnavailable, Message: "the sandbox container could not be created", Err: err}
	}
	if _, err := p.cli.ContainerStart(ctx, res.ID, client.ContainerStartOptions{}); err != nil {
		files.Close()
		_, _ = p.cli.ContainerRemove(context.WithoutCancel(ctx), res.ID, client.ContainerRemoveOptions{Force: true})
		return nil, &koda.Error{Kind: koda.EUNAVAILABLE, Code: koda.CodeUnavailable, Message: "the sandbox container did not start", Err: err}
	}
	sb := &Sandbox{p: p, id: id, spec: spec, dir: dir, container: res.ID, files: files, state: koda.SandboxReady}
	files.Alive = sb.alive
	p.mu.Lock()
	p.boxes[id] = sb
	p.mu.Unlock()
	p.log.Info("docker sandbox created", "sandbox_id", id, "container", res.ID)
	return sb, nil
}

// Get returns a live sandbox or SANDBOX_NOT_FOUND.
func (p *Provider) Get(ctx context.Context, id string) (koda.Sandbox, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	sb, ok := p.boxes[id]
	if !ok {
		return nil, notFound(id)
	}
	return sb, nil
}

// List returns the live sandboxes.
func (p *Provider) List(ctx context.Context) ([]koda.Sandbox, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]koda.Sandbox, 0, len(p.boxes))
	for _, sb := range p.boxes {
		out = append(out, sb)
	}
	return out, nil
}

// Destroy removes the container (killing every process in it) and the folder.
func (p *Provider) Destroy(ctx context.Context, id string) error {
	p.mu.Lock()
	sb, ok := p.boxes[id]
	delete(p.boxes, id)
	p.mu.Unlock()
	if !ok {
		return notFound(id)
	}
	sb.mu.Lock()
	sb.state = koda.SandboxStopped
	sb.mu.Unlock()
	_, err := p.cli.ContainerRemove(ctx, sb.container, client.ContainerRemoveOptions{Force: true, RemoveVolumes: true})
	sb.files.Close()
	if rerr := os.RemoveAll(sb.dir); err == nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("destroy sandbox %s: %w", id, err)
	}
	return nil
}

func notFound(id string) *koda.Error {
	return koda.Errorf(koda.ENOTFOUND, koda.CodeSandboxNotFound, "sandbox %q not found", id)
}

// Sandbox is one container.
type Sandbox struct {
	p         *Provider
	id        string
	spec      koda.SandboxSpec
	dir       string
	container string
	files     *sandbox.Files

	mu      sync.Mutex
	state   koda.SandboxState
	running int
}

var _ koda.Sandbox = (*Sandbox)(nil)

func (s *Sandbox) ID() string               { return s.id }
func (s *Sandbox) ProjectID() string        { return s.spec.ProjectID }
func (s *Sandbox) Dir() string              { return s.dir }
func (s *Sandbox) State() koda.SandboxState { s.mu.Lock(); defer s.mu.Unlock(); return s.state }

func (s *Sandbox) alive() error {
	if s.State() == koda.SandboxStopped {
		return notFound(s.id)
	}
	return nil
}

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
func (s *Sandbox) Export(ctx context.Context, p string, w io.Writer) error {
	return s.files.Export(ctx, p, w)
}
func (s *Sandbox) Import(ctx context.Context, p string, r io.Reader) error {
	return s.files.Import(ctx, p, r)
}

// RunCommand execs /bin/sh -c in the container. A foreground command that outlives its
// timeout is killed with every process of the sandbox's user (the engine cannot signal
// one exec's tree), background commands included.
func (s *Sandbox) RunCommand(ctx context.Context, req koda.CommandRequest) (*koda.CommandResult, error) {
	if err := s.alive(); err != nil {
		return nil, err
	}
	wd, err := s.files.Dir(req.WorkingDir)
	if err != nil {
		return nil, err
	}
	opts := client.ExecCreateOptions{Cmd: []string{"/bin/sh", "-c", req.Command}, WorkingDir: path.Join("/work", wd),
		AttachStdout: !req.Background, AttachStderr: !req.Background}
	ex, err := s.p.cli.ExecCreate(ctx, s.container, opts)
	if err != nil {
		return nil, &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeCommandFailed, Message: "the command could not be started", Err: err}
	}
	if req.Background {
		if _, err := s.p.cli.ExecStart(ctx, ex.ID, client.ExecStartOptions{Detach: true}); err != nil {
			return nil, &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeCommandFailed, Message: "the command could not be started", Err: err}
		}
		in, _ := s.p.cli.ExecInspect(ctx, ex.ID, client.ExecInspectOptions{})
		return &koda.CommandResult{PID: in.PID}, nil
	}
	timeout := req.Timeout
	if timeout <= 0 && req.TimeoutMS > 0 {
		timeout = time.Duration(req.TimeoutMS) * time.Millisecond
	}
	if timeout <= 0 {
		timeout = s.p.cfg.CommandTimeout
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	att, err := s.p.cli.ExecAttach(runCtx, ex.ID, client.ExecAttachOptions{})
	if err != nil {
		return nil, &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeCommandFailed, Message: "the command could not be started", Err: err}
	}
	s.mu.Lock()
	s.running++
	s.state = koda.SandboxBusy
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.running--; s.running == 0 && s.state == koda.SandboxBusy {
			s.state = koda.SandboxReady
		}
		s.mu.Unlock()
	}()
	fn := sandbox.OutputFrom(ctx)
	stdout := &capped{max: s.p.cfg.MaxOutputBytes, stream: "stdout", fn: fn}
	stderr := &capped{max: s.p.cfg.MaxOutputBytes, stream: "stderr", fn: fn}
	copied := make(chan error, 1)
	go func() { _, err := stdcopy.StdCopy(stdout, stderr, att.Reader); copied <- err }()
	select {
	case <-copied:
	case <-runCtx.Done():
		att.Close()
		<-copied
		s.killAll(context.WithoutCancel(ctx))
		res := &koda.CommandResult{Stdout: stdout.buf.String(), Stderr: stderr.buf.String(), ExitCode: 137}
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		return res, &koda.Error{Kind: koda.ETIMEOUT, Code: koda.CodeTimeout,
			Message: fmt.Sprintf("the command did not finish within %s and was killed", timeout)}
	}
	att.Close()
	in, err := s.p.cli.ExecInspect(ctx, ex.ID, client.ExecInspectOptions{})
	if err != nil {
		return nil, &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeCommandFailed, Message: "the command's result was lost", Err: err}
	}
	return &koda.CommandResult{Stdout: stdout.buf.String(), Stderr: stderr.buf.String(), ExitCode: in.ExitCode}, nil
}

// killAll kills every process of the sandbox's user except the container's init.
func (s *Sandbox) killAll(ctx context.Context) {
	ex, err := s.p.cli.ExecCreate(ctx, s.container, client.ExecCreateOptions{Cmd: []string{"kill", "-KILL", "-1"}})
	if err == nil {
		_, _ = s.p.cli.ExecStart(ctx, ex.ID, client.ExecStartOptions{})
	}
}

type capped struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	max    int
	stream string
	fn     sandbox.OutputFunc
}

func (c *capped) Write(p []byte) (int, error) {
	if c.fn != nil {
		c.fn(c.stream, p)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
