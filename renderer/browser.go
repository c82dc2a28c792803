package renderer

import (
	"context"
	"fmt"
	"os/exec"
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
	// stop, for a sandboxed browser, kills and reaps its bwrap and closes the devtools
	// bridge and page forwarder; nil for a plain browser.
	stop func()
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

// browserFor starts a browser for job j: inside the sandbox when Config.Sandbox asks
// for it (the page is then reachable only through j.url), else a plain one.
func (r *Renderer) browserFor(ctx context.Context, j *job) (*browser, error) {
	if r.cfg.Sandbox.Enabled {
		return r.launchSandboxed(ctx, j)
	}
	return r.launch(ctx, j.preset.Width, j.preset.Height)
}

// launch starts a browser. Its process group is killed on close, so renderer, GPU and
// zygote children cannot outlive the render even if the browser itself dies first.
func (r *Renderer) launch(ctx context.Context, width, height int) (*browser, error) {
	began := time.Now()
	b := &browser{}
	opts := append(allocatorOptions(chromiumFlags(width, height)),
		chromedp.ExecPath(r.cfg.ChromiumPath),
		chromedp.ModifyCmdFunc(func(cmd *exec.Cmd) {
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
			b.mu.Lock()
			b.cmd = cmd
			b.mu.Unlock()
		}),
	)
	allocCtx, allocCancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancel := chromedp.NewContext(allocCtx)
	b.ctx, b.cancel, b.allocCancel = bctx, cancel, allocCancel

	// The first Run starts the browser, which lives as long as the context Run gets,
	// so the start-up bound cancels the browser context rather than wrapping it.
	timer := time.AfterFunc(30*time.Second, cancel)
	err := chromedp.Run(bctx)
	timer.Stop()
	if err != nil {
		b.close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, renderFailed(err, "start browser %s: %v", r.cfg.ChromiumPath, err)
	}
	r.log.Debug("browser started", "pid", b.pid(), "took", time.Since(began))
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
		if b.stop != nil {
			// Killed first: a browser that cannot be reached over its pipe any more
			// must not hold chromedp's graceful tab close waiting.
			b.stop()
		}
		b.cancel()
		b.allocCancel() // kills the browser, waits for it and removes the profile dir
		if pid > 0 {
			killGroup(pid)
		}
	})
}

// killGroup kills every process left in the process group led by pid and waits briefly
// for them to disappear, so callers observe a clean process table.
func killGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(-pid, 0) != nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
