package local

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox"
)

// The file tools' writes into a sandbox (write_file, replace, transfer in, checkpoint
// restore) are done by a short-lived helper process, not by the service: tmpfs pages
// are charged to the memory group of the process that writes them, so written by the
// service they would count against the service's group, bounded only by the disk
// quota. The helper is this same binary (HelperArg as its first argument, answered by
// this package's init, so every binary that links the provider, tests included, has
// it). It starts as root inside the sandbox's cgroups (v2: placed there at clone; v1:
// it moves itself before it touches a file), drops to the sandbox's uid and gid, opens
// the sandbox's folder from the descriptor it was handed as an os.Root, and runs the
// same code as the in-process tools (sandbox.Files.WriteStream, ImportStream) on the
// data streamed through its stdin. It answers one JSON line on stdout.

// HelperArg is the hidden subcommand that runs the helper: `koda sandbox-write`.
const HelperArg = "sandbox-write"

func init() {
	if len(os.Args) > 1 && os.Args[1] == HelperArg {
		os.Exit(helperMain(os.Args[2:]))
	}
}

// helperResult is the helper's answer.
type helperResult struct {
	Size  int64        `json:"size"`
	Error *helperError `json:"error,omitempty"`
}

type helperError struct {
	Kind    koda.Kind `json:"kind,omitempty"` // set for a *koda.Error
	Code    string    `json:"code,omitempty"`
	Message string    `json:"message"`
}

// helper arguments: op (write, append, replace, import), name, p, uid, gid, quota,
// budget. The folder is descriptor 3; v1 cgroup.procs files are in KODA_CGROUP_PROCS.
func helperMain(args []string) int {
	answer := func(r helperResult) int {
		_ = json.NewEncoder(os.Stdout).Encode(r)
		return 0
	}
	fail := func(err error) int {
		he := &helperError{Message: err.Error()}
		var ke *koda.Error
		if errors.As(err, &ke) {
			he = &helperError{Kind: ke.Kind, Code: ke.Code, Message: ke.Message}
			if ke.Err != nil {
				fmt.Fprintln(os.Stderr, ke.Err)
			}
		}
		return answer(helperResult{Error: he})
	}
	if len(args) != 7 {
		fmt.Fprintln(os.Stderr, "usage: koda "+HelperArg+" OP NAME PATH UID GID QUOTA BUDGET (Koda's own use)")
		return 2
	}
	op, name, p := args[0], args[1], args[2]
	nums := make([]int64, 4)
	for i, a := range args[3:] {
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad number:", a)
			return 2
		}
		nums[i] = n
	}
	uid, gid, quota, budget := int(nums[0]), int(nums[1]), nums[2], nums[3]

	// Into the sandbox's groups first (v1), then the sandbox's user: nothing below
	// runs as root or outside them.
	for _, f := range strings.Fields(os.Getenv("KODA_CGROUP_PROCS")) {
		if err := os.WriteFile(f, []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
			fmt.Fprintln(os.Stderr, "join the sandbox's cgroup:", err)
			return 125
		}
	}
	if uid >= 0 {
		if err := syscall.Setgroups([]int{}); err != nil {
			fmt.Fprintln(os.Stderr, "setgroups:", err)
			return 125
		}
		if err := syscall.Setgid(gid); err != nil {
			fmt.Fprintln(os.Stderr, "setgid:", err)
			return 125
		}
		if err := syscall.Setuid(uid); err != nil {
			fmt.Fprintln(os.Stderr, "setuid:", err)
			return 125
		}
		if os.Geteuid() == 0 {
			fmt.Fprintln(os.Stderr, "still root after setuid")
			return 125
		}
		// A change of credentials clears the parent-death signal; set it again.
		_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, syscall.PR_SET_PDEATHSIG, uintptr(syscall.SIGKILL), 0)
	}
	// The folder as handed over, not by path: a path could be swapped under us.
	files, err := sandbox.OpenFiles("/proc/self/fd/3", -1, -1, quota)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 125
	}
	defer files.Close()
	switch op {
	case "write", "append", "replace":
		tool := "write"
		if op == "replace" {
			tool = "replace"
		}
		n, err := files.WriteStream(tool, name, p, os.Stdin, op == "append")
		if err != nil {
			return fail(err)
		}
		return answer(helperResult{Size: n})
	case "import":
		if err := files.ImportStream(context.Background(), name, p, os.Stdin, budget); err != nil {
			return fail(err)
		}
		return answer(helperResult{})
	}
	fmt.Fprintln(os.Stderr, "unknown operation", op)
	return 2
}

// charged reports whether the sandbox's writes go through the helper: when it has a
// memory group to charge them to and a uid of its own.
func (s *Sandbox) charged() bool { return s.cg != nil && s.uid >= 0 }

// helperWriter is sandbox.Writer for a sandbox's files.
type helperWriter struct{ s *Sandbox }

func (w helperWriter) WriteFile(ctx context.Context, op, name, p string, r io.Reader, append bool) (int64, error) {
	if append && op == "write" {
		op = "append"
	}
	res, err := w.s.helper(ctx, []string{op, name, p}, -1, r)
	return res.Size, err
}

func (w helperWriter) Import(ctx context.Context, name, p string, r io.Reader, budget int64) error {
	_, err := w.s.helper(ctx, []string{"import", name, p}, budget, r)
	return err
}

// helper runs the helper with args and budget, streaming stdin into it, and turns its
// answer back into the error the in-process tools would have returned.
func (s *Sandbox) helper(ctx context.Context, args []string, budget int64, stdin io.Reader) (helperResult, error) {
	var res helperResult
	if err := s.check(ctx); err != nil {
		return res, err
	}
	dir, err := os.Open(s.dir)
	if err != nil {
		return res, fmt.Errorf("open sandbox folder: %w", err)
	}
	defer dir.Close()
	argv := append([]string{HelperArg}, args...)
	argv = append(argv, strconv.Itoa(s.uid), strconv.Itoa(s.gid), itoa(s.p.cfg.Limits.DiskBytes), itoa(budget))
	// /proc/self/exe is resolved by the child: this very binary, even if replaced on
	// disk since, and reached as root, whatever the permissions of its folder.
	cmd := exec.CommandContext(ctx, "/proc/self/exe", argv...)
	// GORACE: a race-enabled build (tests) would otherwise sleep a second at exit.
	cmd.Env = []string{"PATH=/usr/bin:/bin", "GORACE=atexit_sleep_ms=0"}
	if procs := s.cg.procsFiles(); len(procs) > 0 {
		cmd.Env = append(cmd.Env, "KODA_CGROUP_PROCS="+strings.Join(procs, " "))
	}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{dir}
	cmd.Stdin = stdin
	var out, errOut bytes.Buffer
	cmd.Stdout = &limitedBuffer{b: &out, n: 64 << 10}
	cmd.Stderr = &limitedBuffer{b: &errOut, n: 64 << 10}
	attr := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cgdir, err := s.cg.openV2()
	if err != nil {
		return res, fmt.Errorf("open cgroup: %w", err)
	}
	if cgdir != nil {
		defer cgdir.Close()
		attr.UseCgroupFD = true
		attr.CgroupFD = int(cgdir.Fd())
	}
	cmd.SysProcAttr = attr
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = s.p.cfg.KillGrace

	ooms := s.cg.oomKills()
	pr, err := s.startHelper(cmd)
	if err != nil {
		return res, err
	}
	waitErr := cmd.Wait()
	s.finish(pr)
	if line := bytes.TrimSpace(out.Bytes()); len(line) > 0 && json.Unmarshal(line, &res) == nil {
		if he := res.Error; he != nil {
			if he.Code == "" {
				// Not one of the tools' errors: the cause, for logs (it names no host path
				// the in-process tools would not have named).
				return res, errors.New(he.Message)
			}
			if he.Code == koda.CodeQuotaExceeded && strings.HasPrefix(he.Message, "the sandbox's memory") {
				return res, sandbox.MemoryError(s.p.cfg.Limits.MemoryBytes, nil)
			}
			return res, &koda.Error{Kind: he.Kind, Code: he.Code, Message: he.Message}
		}
		return res, nil
	}
	switch {
	case s.State() == koda.SandboxStopped:
		return res, notFound(s.id)
	case ctx.Err() != nil:
		return res, ctx.Err()
	case s.cg.oomKills() > ooms:
		return res, sandbox.MemoryError(s.p.cfg.Limits.MemoryBytes, waitErr)
	}
	return res, &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeInternal, Message: "the sandbox's files could not be written",
		Err: fmt.Errorf("sandbox %s: write helper: %v: %s", s.id, waitErr, bytes.TrimSpace(errOut.Bytes()))}
}

// startHelper starts and registers a helper, so destroy kills and waits for it, without
// making the sandbox busy.
func (s *Sandbox) startHelper(cmd *exec.Cmd) (*process, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == koda.SandboxStopped {
		return nil, notFound(s.id)
	}
	if err := cmd.Start(); err != nil {
		return nil, &koda.Error{Kind: koda.EINTERNAL, Code: koda.CodeInternal, Message: "the sandbox's files could not be written",
			Err: fmt.Errorf("start the write helper in sandbox %s: %w", s.id, err)}
	}
	pr := &process{pid: cmd.Process.Pid, helper: true, done: make(chan struct{})}
	s.procs[pr.pid] = pr
	return pr, nil
}

// limitedBuffer keeps the first n bytes and drops the rest without failing.
type limitedBuffer struct {
	b *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
