package renderer

// Sandboxed browsers (Config.Sandbox): generated pages run arbitrary JavaScript, so the
// browser that renders them runs inside bubblewrap, as an unprivileged uid, in network,
// PID, IPC, mount and user namespaces of its own, seeing only read-only /usr, the font
// and Chromium configuration from /etc, and a private /tmp for its profile.
//
// Its network namespace holds nothing but a loopback device, on which the renderer
// (as root, from the host side via setns) opens exactly one listener: the page's port,
// forwarded to the page server on the host's loopback. Everything else the page tries —
// other host ports, WebSockets, the internet, DNS — finds no route or a closed port.
// DevTools speaks over --remote-debugging-pipe (fds 3 and 4), bridged to chromedp's
// websocket client by a one-connection websocket endpoint on the host's loopback, which
// the browser itself cannot reach.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
	"golang.org/x/sys/unix"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/bwrap"
)

// SandboxConfig configures sandboxed browsers.
type SandboxConfig struct {
	// Enabled runs every browser of a render inside bubblewrap with no network but a
	// forwarded port for the page. Needs root (the uid switch and the listener inside
	// the browser's network namespace) and bwrap; a render fails with RENDER_FAILED
	// when either is missing. Renders of an external URL are refused: only page folders
	// and loopback URLs can be forwarded.
	Enabled bool
	// Bwrap is the bubblewrap binary; default "bwrap" on PATH.
	Bwrap string
	// UID (and GID) the sandboxed browser runs as; default 199999, below the uids
	// sandbox/local hands out, so a browser shares no uid with a codegen sandbox.
	UID int
}

const defaultSandboxUID = 199999

// sandboxBinds are host paths the browser needs besides /usr: fontconfig (the same
// fonts as the unsandboxed browser, so the same pixels) and the Debian launcher's flag
// files. Missing ones are skipped.
var sandboxBinds = []string{"/etc/fonts", "/etc/chromium.d", "/etc/chromium"}

// launchSandboxed starts a browser for j inside bubblewrap and connects chromedp to it.
// The browser lives until life ends or it is closed; ctx bounds only the start.
func (r *Renderer) launchSandboxed(ctx, life context.Context, j *job) (*browser, error) {
	began := time.Now()
	sc := r.cfg.Sandbox
	bwrapName := sc.Bwrap
	if bwrapName == "" {
		bwrapName = "bwrap"
	}
	bwrapPath, err := exec.LookPath(bwrapName)
	if err != nil {
		return nil, renderFailed(err, "sandboxed rendering needs bubblewrap (%s), which is not installed", bwrapName)
	}
	if os.Geteuid() != 0 {
		return nil, renderFailed(nil, "sandboxed rendering needs root to switch uid and open the page port inside the browser's network namespace")
	}
	page, err := pageAddr(j.url)
	if err != nil {
		return nil, err
	}
	uid := sc.UID
	if uid <= 0 {
		uid = defaultSandboxUID
	}

	sb := &sandboxed{r: r}
	fail := func(err error) (*browser, error) {
		sb.stop()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ke *koda.Error
		if errors.As(err, &ke) {
			return nil, err
		}
		return nil, renderFailed(err, "start sandboxed browser: %v%s", err, sb.stderrTail())
	}

	// DevTools pipe: the browser reads commands from fd 3 and writes replies to fd 4;
	// bwrap reports its namespace init's pid on fd 5.
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		return fail(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		cmdR.Close()
		cmdW.Close()
		return fail(err)
	}
	infoR, infoW, err := os.Pipe()
	if err != nil {
		cmdR.Close()
		cmdW.Close()
		respR.Close()
		respW.Close()
		return fail(err)
	}
	sb.closers = append(sb.closers, cmdW, respR, infoR)

	var mounts []string
	for _, p := range sandboxBinds {
		mounts = append(mounts, "--ro-bind-try", p, p)
	}
	command := append([]string{r.cfg.ChromiumPath}, args(chromiumFlags(j.preset.Width, j.preset.Height))...)
	command = append(command, "--user-data-dir=/tmp/profile", "--remote-debugging-pipe", "about:blank")
	argv := bwrap.Policy{Hostname: "render", Mounts: mounts, Extra: []string{"--info-fd", "5"}}.Args(command...)

	cmd := exec.Command(bwrapPath, argv...)
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	cmd.ExtraFiles = []*os.File{cmdR, respW, infoW}
	cmd.Stderr = &sb.stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid: true, Pdeathsig: syscall.SIGKILL,
		Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid), Groups: []uint32{}},
	}
	// Chromium's helpers may hold stderr after bwrap died; do not wait on them forever.
	cmd.WaitDelay = 2 * time.Second
	sb.stderr.max = 4096
	err = cmd.Start()
	cmdR.Close()
	respW.Close()
	infoW.Close()
	if err != nil {
		return fail(fmt.Errorf("start %s: %w", bwrapPath, err))
	}
	sb.cmd = cmd
	sb.exited = make(chan struct{})
	go func() { _ = cmd.Wait(); close(sb.exited) }()

	if sb.child, err = readChildPid(ctx, infoR); err != nil {
		return fail(err)
	}
	if err := sb.forward(page); err != nil {
		return fail(err)
	}

	wsURL, err := sb.bridge(cmdW, respR)
	if err != nil {
		return fail(err)
	}

	b := &browser{cmd: cmd, sb: sb, width: j.preset.Width, height: j.preset.Height}
	allocCtx, allocCancel := chromedp.NewRemoteAllocator(life, wsURL, chromedp.NoModifyURL)
	bctx, cancel := chromedp.NewContext(allocCtx)
	b.ctx, b.cancel, b.allocCancel = bctx, cancel, allocCancel
	err = startBounded(ctx, bctx, cancel)
	if err == nil && r.pool != nil {
		err = b.started()
	}
	if err != nil {
		b.close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, renderFailed(err, "start sandboxed browser %s: %v%s", r.cfg.ChromiumPath, err, sb.stderrTail())
	}
	r.log.Debug("sandboxed browser started", "pid", cmd.Process.Pid, "ns_pid", sb.child, "uid", uid,
		"page", page, "took", time.Since(began))
	return b, nil
}

// pageAddr returns the host:port the page is served on, which must be on loopback: a
// sandboxed browser reaches nothing else.
func pageAddr(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("page url: %w", err)
	}
	ip := net.ParseIP(u.Hostname())
	if u.Scheme != "http" || ip == nil || !ip.IsLoopback() || ip.To4() == nil || u.Port() == "" {
		return "", renderFailed(nil, "a sandboxed render can only load a page folder or an http URL on 127.0.0.1, not %q", raw)
	}
	return u.Host, nil
}

// sandboxed holds what one sandboxed browser needs cleaned up.
type sandboxed struct {
	r        *Renderer
	cmd      *exec.Cmd
	exited   chan struct{} // closed when bwrap was reaped
	child    int           // bwrap's init in the browser's PID namespace (host pid)
	bridgeLn net.Listener
	stderr   tailBuffer

	mu      sync.Mutex
	fwd     *forwarder // the current render's page port, if any
	closers []io.Closer
	once    sync.Once
}

// forward opens page's host:port inside the browser's network namespace, forwarded to
// the page server on the host, in place of the previous render's port.
func (sb *sandboxed) forward(page string) error {
	sb.unforward()
	ln, err := listenInNetns(sb.child, page)
	if err != nil {
		return fmt.Errorf("page port inside the sandbox: %w", err)
	}
	sb.mu.Lock()
	sb.fwd = newForwarder(ln, page, sb.r)
	sb.mu.Unlock()
	return nil
}

// unforward closes the page port, so a warm browser reaches nothing between renders.
func (sb *sandboxed) unforward() {
	sb.mu.Lock()
	f := sb.fwd
	sb.fwd = nil
	sb.mu.Unlock()
	if f != nil {
		f.close()
	}
}

func (sb *sandboxed) addCloser(c io.Closer) {
	sb.mu.Lock()
	sb.closers = append(sb.closers, c)
	sb.mu.Unlock()
}

func (sb *sandboxed) stderrTail() string {
	if s := sb.stderr.String(); s != "" {
		return "\n" + s
	}
	return ""
}

// stop kills the sandbox and waits until bwrap and its namespace's init are gone.
// Killing bwrap's group is enough: --die-with-parent takes its init down, and with the
// init goes every process of the PID namespace, including ones that called setsid.
func (sb *sandboxed) stop() {
	sb.once.Do(func() {
		if sb.cmd != nil && sb.cmd.Process != nil {
			_ = syscall.Kill(-sb.cmd.Process.Pid, syscall.SIGKILL)
			if sb.child > 0 {
				_ = syscall.Kill(sb.child, syscall.SIGKILL)
			}
			select {
			case <-sb.exited:
			case <-time.After(5 * time.Second):
			}
			if sb.child > 0 {
				waitGone(sb.child, 2*time.Second)
			}
		}
		sb.unforward()
		if sb.bridgeLn != nil {
			sb.bridgeLn.Close()
		}
		sb.mu.Lock()
		for _, c := range sb.closers {
			c.Close()
		}
		sb.closers = nil
		sb.mu.Unlock()
	})
}

// waitGone polls until pid no longer exists (as a live process) or d passed.
func waitGone(pid int, d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		// A zombie is gone for our purpose: its parent (bwrap, itself dead) left it to
		// init to reap.
		if i := bytes.LastIndexByte(st, ')'); i > 0 && len(st) > i+2 && st[i+2] == 'Z' {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// readChildPid reads bwrap's --info-fd report.
func readChildPid(ctx context.Context, info *os.File) (int, error) {
	deadline := time.Now().Add(10 * time.Second)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = info.SetReadDeadline(deadline)
	var v struct {
		ChildPid int `json:"child-pid"`
	}
	if err := json.NewDecoder(info).Decode(&v); err != nil {
		return 0, fmt.Errorf("read bwrap info: %w", err)
	}
	if v.ChildPid <= 0 {
		return 0, errors.New("bwrap reported no child pid")
	}
	return v.ChildPid, nil
}

// listenInNetns opens a TCP listener on addr inside the network namespace of pid. The
// socket keeps that namespace for life, while this process serves it from the host.
func listenInNetns(pid int, addr string) (net.Listener, error) {
	type result struct {
		ln  net.Listener
		err error
	}
	ch := make(chan result, 1)
	go func() {
		// setns changes only this OS thread. If switching back fails the thread stays
		// locked, so it dies with this goroutine instead of running others in the
		// sandbox's namespace.
		runtime.LockOSThread()
		self, err := os.Open("/proc/thread-self/ns/net")
		if err != nil {
			runtime.UnlockOSThread()
			ch <- result{err: err}
			return
		}
		defer self.Close()
		target, err := os.Open("/proc/" + strconv.Itoa(pid) + "/ns/net")
		if err != nil {
			runtime.UnlockOSThread()
			ch <- result{err: err}
			return
		}
		defer target.Close()
		if err := unix.Setns(int(target.Fd()), unix.CLONE_NEWNET); err != nil {
			runtime.UnlockOSThread()
			ch <- result{err: fmt.Errorf("enter network namespace of %d: %w", pid, err)}
			return
		}
		ln, lerr := net.Listen("tcp4", addr)
		if err := unix.Setns(int(self.Fd()), unix.CLONE_NEWNET); err != nil {
			if ln != nil {
				ln.Close()
			}
			ch <- result{err: fmt.Errorf("leave network namespace: %w", err)}
			return
		}
		runtime.UnlockOSThread()
		ch <- result{ln: ln, err: lerr}
	}()
	res := <-ch
	return res.ln, res.err
}

// forwarder copies every connection made to the page port inside the sandbox to the
// page server on the host.
type forwarder struct {
	ln     net.Listener
	target string
	r      *Renderer

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

func newForwarder(ln net.Listener, target string, r *Renderer) *forwarder {
	f := &forwarder{ln: ln, target: target, r: r, conns: map[net.Conn]struct{}{}}
	f.wg.Go(f.serve)
	return f
}

func (f *forwarder) serve() {
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		if !f.track(c) {
			return
		}
		f.wg.Go(func() {
			defer f.untrack(c)
			up, err := net.DialTimeout("tcp4", f.target, 5*time.Second)
			if err != nil {
				f.r.log.Warn("sandboxed page port: dial page server", "target", f.target, "err", err)
				return
			}
			if !f.track(up) {
				return
			}
			defer f.untrack(up)
			done := make(chan struct{})
			go func() {
				_, _ = io.Copy(up, c)
				if tc, ok := up.(*net.TCPConn); ok {
					_ = tc.CloseWrite()
				}
				close(done)
			}()
			_, _ = io.Copy(c, up)
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.CloseWrite()
			}
			<-done
		})
	}
}

func (f *forwarder) track(c net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		c.Close()
		return false
	}
	f.conns[c] = struct{}{}
	return true
}

func (f *forwarder) untrack(c net.Conn) {
	c.Close()
	f.mu.Lock()
	delete(f.conns, c)
	f.mu.Unlock()
}

func (f *forwarder) close() {
	f.mu.Lock()
	f.closed = true
	for c := range f.conns {
		c.Close()
	}
	f.mu.Unlock()
	f.ln.Close()
	f.wg.Wait()
}

// bridge serves one websocket client on the host's loopback and relays its messages to
// the browser's pipe (NUL-terminated JSON) and back. The path carries a random token,
// so no other local process can take the connection first.
func (sb *sandboxed) bridge(toBrowser io.Writer, fromBrowser io.Reader) (string, error) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("devtools bridge: %w", err)
	}
	sb.bridgeLn = ln
	tok := make([]byte, 16)
	_, _ = rand.Read(tok)
	path := "/devtools/browser/" + hex.EncodeToString(tok)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.SetDeadline(time.Now().Add(10 * time.Second))
			up := ws.Upgrader{OnRequest: func(uri []byte) error {
				if string(uri) != path {
					return ws.RejectConnectionError(ws.RejectionStatus(404))
				}
				return nil
			}}
			if _, err := up.Upgrade(c); err != nil {
				c.Close()
				continue
			}
			_ = c.SetDeadline(time.Time{})
			ln.Close() // one client only
			sb.addCloser(c)
			relay(c, toBrowser, fromBrowser)
			return
		}
	}()
	return "ws://" + ln.Addr().String() + path, nil
}

// lockedWriter serialises writes to the websocket: replies to control frames (written
// by the reading side) and relayed messages share the connection.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func relay(c net.Conn, toBrowser io.Writer, fromBrowser io.Reader) {
	defer c.Close()
	w := lockedWriter{mu: &sync.Mutex{}, w: c}
	go func() {
		rw := struct {
			io.Reader
			io.Writer
		}{c, w}
		for {
			msg, op, err := wsutil.ReadClientData(rw)
			if err != nil {
				c.Close()
				return
			}
			if op != ws.OpText && op != ws.OpBinary {
				continue
			}
			if _, err := toBrowser.Write(append(msg, 0)); err != nil {
				c.Close()
				return
			}
		}
	}()
	br := bufio.NewReaderSize(fromBrowser, 1<<20)
	for {
		msg, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		if err := wsutil.WriteServerMessage(w, ws.OpText, msg[:len(msg)-1]); err != nil {
			return
		}
	}
}
