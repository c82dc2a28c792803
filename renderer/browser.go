package renderer

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
)

// browser is one Chromium process with its own fresh profile directory.
type browser struct {
	ctx         context.Context // the first tab's context; new tabs derive from it
	cancel      context.CancelFunc
	allocCancel context.CancelFunc
	mu          sync.Mutex
	cmd         *exec.Cmd
	closeOnce   sync.Once
	// sb is set for a sandboxed browser: what reaches its page port and how to stop it.
	sb *sandboxed
	// frames counts the frames captured in all renders this browser served, and spare
	// is a tab opened while it was idle (warm.go). Only the holder of the browser (a
	// render's worker, or the pool) touches them.
	frames int
	spare  *spareTab
	// width and height are the window size the browser started with.
	width, height int
	// basePages is the number of pages the browser showed once started: its first
	// tab, and for a browser over a pipe also the initial blank page.
	basePages int
	// beginFrame says the browser runs under begin-frame control (beginframe.go): its
	// tabs draw a frame only when asked to.
	beginFrame bool
}

// flag is one Chromium command-line switch; value "" means a bare --name.
type flag struct{ name, value string }

// chromiumFlags are the switches every render browser starts with (FACTS.md): headless
// on a closed network as root, no background work that competes for the CPU, and no
// throttling of timers or frames in tabs Chrome thinks are hidden. The sandboxed browser
// gets the same list, so both render the same pixels.
func chromiumFlags(width, height int) []flag {
	return []flag{
		{"headless", ""},
		{"no-sandbox", ""},
		{"disable-gpu", ""},
		{"enable-unsafe-swiftshader", ""}, // software WebGL
		{"hide-scrollbars", ""},
		{"mute-audio", ""},
		{"disable-background-networking", ""},
		{"disable-component-update", ""},
		{"no-first-run", ""},
		{"no-default-browser-check", ""},
		{"disable-sync", ""},
		{"disable-default-apps", ""},
		{"disable-extensions", ""},
		{"disable-breakpad", ""},
		{"disable-crash-reporter", ""},
		{"disable-dev-shm-usage", ""},
		{"disable-background-timer-throttling", ""},
		{"disable-backgrounding-occluded-windows", ""},
		{"disable-renderer-backgrounding", ""},
		{"disable-ipc-flooding-protection", ""},
		{"disable-hang-monitor", ""},
		// Partial raster repaints only the damaged part of a tile over what an earlier
		// frame left there, so a pixel could depend on which frames this browser drew
		// before (gradients came out ±2 levels apart). Whole-tile raster makes every
		// frame a function of its time alone, whichever browser or chunk captures it.
		{"disable-partial-raster", ""},
		{"disable-features", "Translate,MediaRouter,OptimizationHints,AcceptCHFrame,CalculateNativeWinOcclusion,PaintHolding"},
		{"font-render-hinting", "none"},
		{"force-color-profile", "srgb"},
		{"autoplay-policy", "no-user-gesture-required"},
		{"password-store", "basic"},
		{"use-mock-keychain", ""},
		{"window-size", fmt.Sprintf("%d,%d", width, height)},
	}
}

// allocatorOptions turns flags into chromedp's form for the exec allocator.
func allocatorOptions(flags []flag) []chromedp.ExecAllocatorOption {
	opts := make([]chromedp.ExecAllocatorOption, 0, len(flags))
	for _, f := range flags {
		if f.value == "" {
			opts = append(opts, chromedp.Flag(f.name, true))
		} else {
			opts = append(opts, chromedp.Flag(f.name, f.value))
		}
	}
	return opts
}

// args turns flags into command-line arguments.
func args(flags []flag) []string {
	out := make([]string, 0, len(flags))
	for _, f := range flags {
		if f.value == "" {
			out = append(out, "--"+f.name)
		} else {
			out = append(out, "--"+f.name+"="+f.value)
		}
	}
	return out
}

// browserFor returns a browser for job j: a warm one when the pool has one, else a new
// one, inside the sandbox when Config.Sandbox asks for it (the page is then reachable
// only through j.url).
func (r *Renderer) browserFor(ctx context.Context, j *job) (*browser, error) {
	if b := r.pool.take(j.preset.Width, j.preset.Height); b != nil {
		err := b.attach(j)
		if err == nil {
			return b, nil
		}
		r.log.Warn("warm browser unusable; starting a new one", "err", err)
		b.close()
	}
	// The browser outlives the capture's context, which ends as soon as the last frame
	// is in: closing the tab of a browser already being torn down waited 2 s for an
	// answer. The render always closes it (or keeps it warm) itself, also on failure
	// or cancellation.
	life := context.WithoutCancel(ctx)
	if r.cfg.Sandbox.Enabled {
		return r.launchSandboxed(ctx, life, j)
	}
	return r.launch(ctx, life, j.preset.Width, j.preset.Height, !r.cfg.DisableBeginFrame && r.beginFrame.want())
}

// attach makes job j's page reachable from b: a sandboxed browser gets a port for it
// inside its network namespace.
func (b *browser) attach(j *job) error {
	if b.sb == nil {
		return nil
	}
	page, err := pageAddr(j.url)
	if err != nil {
		return err
	}
	return b.sb.forward(page)
}

// detach closes what attach opened.
func (b *browser) detach() {
	if b.sb != nil {
		b.sb.unforward()
	}
}

// launch starts a browser that lives until life ends or it is closed; ctx bounds only the
// start. Its process group is killed on close, so renderer, GPU and zygote children
// cannot outlive it even if the browser itself dies first. With beginFrame it starts
// under begin-frame control; the first such browser of the Renderer checks that this
// build supports it, and one that does not is started again without.
func (r *Renderer) launch(ctx, life context.Context, width, height int, beginFrame bool) (*browser, error) {
	began := time.Now()
	b := &browser{width: width, height: height, beginFrame: beginFrame}
	flags := chromiumFlags(width, height)
	if beginFrame {
		flags = append(flags, beginFrameFlags...)
	}
	opts := append(allocatorOptions(flags),
		chromedp.ExecPath(r.cfg.ChromiumPath),
		chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
			b.mu.Lock()
			b.cmd = cmd
			b.mu.Unlock()
		}),
	)
	allocCtx, allocCancel := chromedp.NewExecAllocator(life, opts...)
	bctx, cancel := chromedp.NewContext(allocCtx)
	b.ctx, b.cancel, b.allocCancel = bctx, cancel, allocCancel

	// The first Run starts the browser, which lives as long as the context Run gets,
	// so the start-up bound cancels the browser context rather than wrapping it.
	err := startBounded(ctx, bctx, cancel)
	if err == nil && r.pool != nil {
		err = b.started()
	}
	if err != nil {
		b.close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, renderFailed(err, "start browser %s: %v", r.cfg.ChromiumPath, err)
	}
	if beginFrame {
		if _, known := r.beginFrame.decided(); !known {
			perr := chromedp.Run(b.ctx, chromedp.ActionFunc(r.probeBeginFrame))
			if perr != nil && ctx.Err() != nil {
				b.close()
				return nil, ctx.Err()
			}
			r.beginFrame.set(perr == nil)
			r.log.Debug("begin-frame control probe", "browser", r.cfg.ChromiumPath, "supported", perr == nil, "err", perr)
			if perr != nil {
				b.close()
				return r.launch(ctx, life, width, height, false)
			}
		} else if ok, _ := r.beginFrame.decided(); !ok {
			// Another browser found out meanwhile that this build lacks it.
			b.close()
			return r.launch(ctx, life, width, height, false)
		}
	}
	r.log.Debug("browser started", "pid", b.pid(), "begin_frame", b.beginFrame, "took", time.Since(began))
	return b, nil
}

// pid returns the browser's process id, or 0 before it started.
func (b *browser) pid() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cmd == nil || b.cmd.Process == nil {
		return 0
	}
	return b.cmd.Process.Pid
}

// alive reports whether the browser process still runs.
func (b *browser) alive() bool {
	pid := b.pid()
	if pid == 0 || b.ctx.Err() != nil {
		return false
	}
	return syscall.Kill(pid, 0) == nil
}

// close stops the browser, waits for it and removes its profile directory.
func (b *browser) close() {
	b.closeOnce.Do(func() {
		pid := b.pid()
		if b.sb != nil {
			// Killed first: a browser that cannot be reached over its pipe any more
			// must not hold chromedp's graceful tab close waiting.
			b.sb.stop()
		}
		if s := b.spare; s != nil {
			s.cancel()
		}
		b.cancel()
		b.allocCancel() // kills the browser, waits for it and removes the profile dir
		if pid > 0 {
			killGroup(pid)
		}
	})
}

// startBounded runs the first action on bctx, which starts the browser, giving up after
// 30 s or when ctx ends.
func startBounded(ctx, bctx context.Context, cancel context.CancelFunc) error {
	timer := time.AfterFunc(30*time.Second, cancel)
	defer timer.Stop()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	return chromedp.Run(bctx)
}

// started records what a freshly started browser looks like, for reusable.
func (b *browser) started() error {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	n, err := countPages(ctx)
	b.basePages = n
	return err
}

// killGroup kills every process left in the process group led by pid and waits briefly
// for them to die, so callers observe a clean process table. A zombie counts as dead:
// the browser's orphaned helpers are reaped by init whenever it gets to them, which
// is no reason to hold up a render.
func killGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if !groupAlive(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// groupAlive reports whether process group pgid has a member that is not a zombie.
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	group := strconv.Itoa(pgid)
	for _, e := range ents {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the parenthesised command: state, ppid, pgrp, ...
		i := bytes.LastIndexByte(st, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(st[i+1:]))
		if len(f) >= 3 && f[2] == group && f[0] != "Z" {
			return true
		}
	}
	return false
}
