package local

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/bwrap"
	"github.com/kodahq/koda/sandbox"
)

// process is one launcher (bubblewrap and everything inside it) started in a sandbox.
type process struct {
	pid        int
	background bool
	helper     bool          // a file tools' write helper: neither busy nor background
	done       chan struct{} // closed once the launcher is reaped
}

// kill ends the launcher's process group. bwrap runs the command as PID 1 of its own PID
// namespace with --die-with-parent, so killing bwrap takes down every process inside,
// including ones that called setsid; the cgroup kill in destroy is the second net.
func (pr *process) kill() {
	_ = syscall.Kill(-pr.pid, syscall.SIGKILL)
}

// sandboxPath is the project folder inside the sandbox.
const sandboxPath = "/work"

// command builds the process for a shell command of sandbox s, in the project folder
// wd (relative, cleaned). It is the one place where a command becomes a process.
// The returned cleanup closes the descriptors passed to the child; call it after Start.
func (p *Provider) command(ctx context.Context, s *Sandbox, wd, command string) (*exec.Cmd, func(), error) {
	var files []*os.File
	cleanup := func() {
		for _, f := range files {
			f.Close()
		}
	}
	// The folders are passed as open descriptors (--bind-fd): the unprivileged bwrap
	// could not traverse the service's private folders to find them by path.
	proj, err := os.Open(s.dir)
	if err != nil {
		return nil, nil, fmt.Errorf("open sandbox folder: %w", err)
	}
	files = append(files, proj)
	mounts := []string{"--bind-fd", "3", sandboxPath}
	for i, b := range p.cfg.ReadOnly {
		f, err := os.Open(p.reachable(b.Host))
		if err != nil {
			cleanup()
			return nil, nil, fmt.Errorf("open read-only bind %s: %w", b.Host, err)
		}
		files = append(files, f)
		mounts = append(mounts, "--ro-bind-fd", itoa(int64(4+i)), b.Sandbox)
	}
	args := bwrap.Policy{
		Hostname: "sandbox",
		TmpBytes: p.cfg.Limits.DiskBytes,
		Mounts:   mounts,
		Chdir:    path.Join(sandboxPath, wd),
		Env: []string{
			"PATH", "/work/node_modules/.bin:/node_modules/.bin:/usr/bin:/bin",
			"HOME", sandboxPath,
			"KODA_SANDBOX_ID", s.id,
		},
	}.Args("/bin/sh", "-c", command)

	// rlimits as a second layer behind the cgroup, a little above its limits so the
	// cgroup and the tmpfs answer first: nproc counts the sandbox's own uid (so only when
	// it has one), fsize stops a single file past the disk quota, no core dumps.
	limits := []string{"--fsize=" + itoa(p.cfg.Limits.DiskBytes+1<<20), "--core=0"}
	if s.uid >= 0 {
		limits = append(limits, "--nproc="+itoa(int64(p.cfg.Limits.Pids+16)))
	}
	if s.cg == nil {
		// No memory cgroup: cap address space instead (coarser: counts reservations).
		limits = append(limits, "--as="+itoa(4*p.cfg.Limits.MemoryBytes))
	}
	argv := append([]string{"prlimit"}, limits...)
	argv = append(argv, "--", p.bwrap)
	argv = append(argv, args...)
	env := []string{"PATH=/usr/bin:/bin", "KODA_SANDBOX_ID=" + s.id}
	if procs := s.cg.procsFiles(); len(procs) > 0 {
		// Under cgroup v1 the launcher moves itself into the sandbox's groups before it
		// execs bwrap, so not one instruction of the command runs outside them.
		env = append(env, "KODA_CGROUP_PROCS="+strings.Join(procs, " "))
		argv = append([]string{"/bin/sh", "-c",
			`for f in $KODA_CGROUP_PROCS; do echo $$ > "$f" || exit 125; done; unset KODA_CGROUP_PROCS; exec "$@"`,
			"koda-sandbox"}, argv...)
	}

	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Dir = "/"
	cmd.ExtraFiles = files
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if s.uid >= 0 {
		attr.Credential = &syscall.Credential{Uid: uint32(s.uid), Gid: uint32(s.gid), Groups: []uint32{}}
	}
	if cgdir, err := s.cg.openV2(); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("open cgroup: %w", err)
	} else if cgdir != nil {
		files = append(files[:len(files):len(files)], cgdir)
		attr.UseCgroupFD = true
		attr.CgroupFD = int(cgdir.Fd())
	}
	cmd.SysProcAttr = attr
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = p.cfg.KillGrace
	return cmd, cleanup, nil
}

// RunCommand runs req.Command with /bin/sh -c inside the sandbox.
//
// In the foreground it waits for the command (at most its timeout: req.Timeout, else
// TimeoutMS, else Config.CommandTimeout, capped by Config.MaxCommandTimeout) and returns
// stdout, stderr (each capped) and the exit code; a non-zero exit is a result, not an
// error. Processes the command left behind die with it (its PID namespace ends). On
// timeout everything is killed and RunCommand returns the partial result together with
// a TIMEOUT error. While a foreground command runs the sandbox is busy. Output is also
// streamed to the sandbox.WithOutput function of ctx, if any.
//
// In the background it returns at once with the launcher's PID; the command lives until
// it exits or the sandbox is destroyed, and its output is discarded.
func (s *Sandbox) RunCommand(ctx context.Context, req koda.CommandRequest) (*koda.CommandResult, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Command) == "" {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "command must not be empty")
	}
	wd, err := s.files.Dir(req.WorkingDir)
	if err != nil {
		return nil, err
	}
	if req.Background {
		return s.runBackground(wd, req.Command)
	}
	return s.runForeground(ctx, wd, req)
}

func (s *Sandbox) timeout(req koda.CommandRequest) time.Duration {
	d := req.Timeout
	if d <= 0 && req.TimeoutMS > 0 {
		d = time.Duration(req.TimeoutMS) * time.Millisecond
	}
	if d <= 0 {
		d = s.p.cfg.CommandTimeout
	}
	return min(d, s.p.cfg.MaxCommandTimeout)
}

// start starts cmd and registers it, unless the sandbox was destroyed meanwhile;
// holding the lock across Start means destroy never misses a process.
func (s *Sandbox) start(cmd *exec.Cmd, background bool) (*process, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == koda.SandboxStopped {
		return nil, notFound(s.id)
	}
	if err := cmd.Start(); err != nil {
		return nil, &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeCommandFailed,
			Message: "the command could not be started", Err: fmt.Errorf("start in sandbox %s: %w", s.id, err)}
	}
	pr := &process{pid: cmd.Process.Pid, background: background, done: make(chan struct{})}
	s.procs[pr.pid] = pr
	if !background {
		s.running++
		s.state = koda.SandboxBusy
	}
	return pr, nil
}

// finish unregisters a reaped launcher.
func (s *Sandbox) finish(pr *process) {
	s.mu.Lock()
	delete(s.procs, pr.pid)
	if !pr.background && !pr.helper {
		s.running--
		if s.running == 0 && s.state == koda.SandboxBusy {
			s.state = koda.SandboxReady
		}
	}
	s.mu.Unlock()
	close(pr.done)
}

// Background lists the PIDs of the background commands still running.
func (s *Sandbox) Background() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []int
	for pid, pr := range s.procs {
		if pr.background {
			out = append(out, pid)
		}
	}
	return out
}

// StopBackground kills one background command by the PID RunCommand returned.
func (s *Sandbox) StopBackground(pid int) error {
	s.mu.Lock()
	pr, ok := s.procs[pid]
	s.mu.Unlock()
	if !ok || !pr.background {
		return koda.Errorf(koda.ENOTFOUND, koda.CodeNotFound, "no background command with pid %d", pid)
	}
	pr.kill()
	<-pr.done
	return nil
}

func (s *Sandbox) runBackground(wd, command string) (*koda.CommandResult, error) {
	// Not tied to the request's context: a dev server outlives the call that started it.
	cmd, cleanup, err := s.p.command(context.Background(), s, wd, command)
	if err != nil {
		return nil, err
	}
	pr, err := s.start(cmd, true)
	cleanup()
	if err != nil {
		return nil, err
	}
	go func() {
		err := cmd.Wait()
		pr.kill()
		s.finish(pr)
		s.p.log.Debug("background command exited", "sandbox_id", s.id, "pid", pr.pid, "err", err)
	}()
	s.p.log.Info("background command started", "sandbox_id", s.id, "pid", pr.pid)
	return &koda.CommandResult{PID: pr.pid}, nil
}

func (s *Sandbox) runForeground(ctx context.Context, wd string, req koda.CommandRequest) (*koda.CommandResult, error) {
	timeout := s.timeout(req)
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd, cleanup, err := s.p.command(runCtx, s, wd, req.Command)
	if err != nil {
		return nil, err
	}
	stream := sandbox.OutputFrom(ctx)
	stdout := &cappedBuffer{max: s.p.cfg.MaxOutputBytes, stream: "stdout", fn: stream}
	stderr := &cappedBuffer{max: s.p.cfg.MaxOutputBytes, stream: "stderr", fn: stream}
	// Pipes of our own rather than io.Writers: exec would then wait for every holder of
	// the pipe before Wait returns; here Wait returns when the launcher exits and the
	// pipes drain at once.
	outR, outW, err := os.Pipe()
	if err != nil {
		cleanup()
		return nil, fmt.Errorf("run command in sandbox %s: %w", s.id, err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		cleanup()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("run command in sandbox %s: %w", s.id, err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	var copying sync.WaitGroup
	copying.Go(func() { _, _ = io.Copy(stdout, outR) })
	copying.Go(func() { _, _ = io.Copy(stderr, errR) })
	defer outR.Close()
	defer errR.Close()

	began := time.Now()
	ooms := s.cg.oomKills()
	pr, err := s.start(cmd, false)
	cleanup()
	outW.Close() // the child holds its own copies now
	errW.Close()
	if err != nil {
		return nil, err
	}
	waitErr := cmd.Wait()
	pr.kill() // whatever the command left running
	s.finish(pr)
	drained := make(chan struct{})
	go func() { copying.Wait(); close(drained) }()
	select {
	case <-drained:
	case <-time.After(s.p.cfg.KillGrace):
		outR.Close()
		errR.Close()
		<-drained
	}

	res := &koda.CommandResult{Stdout: stdout.String(), Stderr: stderr.String(), ExitCode: exitCode(cmd)}
	if res.ExitCode == 128+int(syscall.SIGKILL) && s.cg.oomKills() > ooms {
		res.Stderr += fmt.Sprintf("\n[killed: the sandbox reached its memory limit of %d MiB]", s.p.cfg.Limits.MemoryBytes>>20)
	}
	s.p.log.Debug("command finished", "sandbox_id", s.id, "exit_code", res.ExitCode,
		"duration", time.Since(began), "err", waitErr)

	switch {
	case s.State() == koda.SandboxStopped:
		return res, notFound(s.id)
	case ctx.Err() != nil:
		return res, fmt.Errorf("run command in sandbox %s: %w", s.id, ctx.Err())
	case runCtx.Err() != nil:
		return res, &koda.Error{Kind: koda.ETIMEOUT, Code: koda.CodeTimeout,
			Message: fmt.Sprintf("the command did not finish within %s and was killed", timeout)}
	}
	var exitErr *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exitErr) && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return res, &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeCommandFailed,
			Message: "the command failed to run", Err: fmt.Errorf("wait in sandbox %s: %w", s.id, waitErr)}
	}
	if res.ExitCode == 125 && strings.Contains(res.Stderr, "cgroup") {
		return res, &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeCommandFailed,
			Message: "the sandbox could not be set up", Err: fmt.Errorf("sandbox %s: %s", s.id, res.Stderr)}
	}
	return res, nil
}

// exitCode follows the shell's convention: 128+n for a process killed by signal n.
func exitCode(cmd *exec.Cmd) int {
	ps := cmd.ProcessState
	if ps == nil {
		return -1
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ps.ExitCode()
}

// cappedBuffer keeps the first max bytes written and counts the rest, and forwards
// every chunk to fn when set. It never fails a write, so a chatty command is not
// killed by EPIPE.
type cappedBuffer struct {
	mu      sync.Mutex
	buf     []byte
	max     int
	dropped int64
	stream  string
	fn      sandbox.OutputFunc
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if b.fn != nil {
		b.fn(b.stream, p)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.max - len(b.buf)
	if room >= len(p) {
		b.buf = append(b.buf, p...)
	} else {
		if room > 0 {
			b.buf = append(b.buf, p[:room]...)
		}
		b.dropped += int64(len(p) - max(room, 0))
	}
	return len(p), nil
}

func (b *cappedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.dropped > 0 {
		return fmt.Sprintf("%s\n[output truncated: %d more bytes]", b.buf, b.dropped)
	}
	return string(b.buf)
}
