package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"github.com/kodahq/koda/internal/kodatest"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/sandbox"
	"github.com/kodahq/koda/sandbox/local"
)

// meminfoMiB reads one field of /proc/meminfo, in MiB.
func meminfoMiB(t *testing.T, key string) int64 { return kodatest.Meminfo(t, key) >> 20 }

// localSandbox is the provider's sandbox behind a pooled API sandbox, for its cgroup.
func localSandbox(t *testing.T, m *Main, id string) *local.Sandbox {
	t.Helper()
	sb, err := m.sandboxes.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	lsb := sb.(*local.Sandbox)
	if lsb.CgroupDir("memory") == "" {
		t.Skip("sandboxes have no cgroups on this host (not root?)")
	}
	return lsb
}

// TestAttackSandboxDiskCharged (issue 26): a tenant's sandbox writes 1 GiB to its disk
// and then 1 GiB to its /tmp, both tmpfs in host memory. The disk stops at its 512 MiB
// quota, /tmp at the sandbox's 1 GiB memory limit, which counts both; the sandbox's
// group holds what was written, the host's Shmem grows by no more than the limit, and
// all of it comes back when the sandbox goes.
func TestAttackSandboxDiskCharged(t *testing.T) {
	kodatest.MachineLock(t) // it measures the host
	m := startKoda(t, "")
	c := client{t: t, base: m.PublicURL}
	id := c.newSandbox("attack", "disk")
	lsb := localSandbox(t, m, id)
	if !strings.Contains(lsb.CgroupDir("memory"), "/"+local.TenantsGroup+"/") {
		t.Errorf("a tenant's API sandbox is outside the tenants' group: %s", lsb.CgroupDir("memory"))
	}
	const diskMiB, memMiB = 512, 1024 // the defaults
	shBefore, availBefore := meminfoMiB(t, "Shmem"), meminfoMiB(t, "MemAvailable")
	var res struct {
		Stdout   string `json:"stdout"`
		ExitCode int    `json:"exit_code"`
	}
	if code := c.tool(id, sandbox.ToolRunCommand, map[string]any{
		"command": "dd if=/dev/zero of=big bs=1M count=1024 2>&1; ls -l big | cut -d' ' -f5", "timeout_ms": 60000,
	}, &res); code != 200 {
		t.Fatalf("run: %d", code)
	}
	fields := strings.Fields(res.Stdout)
	size, _ := strconv.ParseInt(fields[len(fields)-1], 10, 64)
	u, err := lsb.GroupUsage()
	if err != nil {
		t.Fatal(err)
	}
	shDisk := meminfoMiB(t, "Shmem")
	t.Logf("disk: %q → a %d MiB file; the sandbox's group holds %d MiB; host Shmem +%d MiB, MemAvailable %d → %d MiB",
		strings.Join(fields[:min(len(fields), 6)], " "), size>>20, u.MemoryBytes>>20, shDisk-shBefore, availBefore, meminfoMiB(t, "MemAvailable"))
	if !strings.Contains(res.Stdout, "No space left on device") || size>>20 > diskMiB {
		t.Errorf("1 GiB into the disk was not stopped at its %d MiB quota: %s", diskMiB, res.Stdout)
	}
	if u.MemoryBytes < size*9/10 {
		t.Errorf("the disk's %d MiB are not charged to the sandbox: its group holds %d MiB", size>>20, u.MemoryBytes>>20)
	}
	if shDisk-shBefore > diskMiB+64 {
		t.Errorf("host Shmem grew by %d MiB for a %d MiB disk", shDisk-shBefore, diskMiB)
	}

	// /tmp is a tmpfs too: with the disk full, the memory limit stops it first.
	if code := c.tool(id, sandbox.ToolRunCommand, map[string]any{
		"command": "dd if=/dev/zero of=/tmp/big bs=1M count=1024 2>&1; ls -l /tmp/big | cut -d' ' -f5; cat /proc/meminfo >/dev/null", "timeout_ms": 60000,
	}, &res); code != 200 {
		t.Fatalf("run: %d", code)
	}
	peak := int64(0)
	if b, err := os.ReadFile(lsb.CgroupDir("memory") + "/memory.max_usage_in_bytes"); err == nil {
		peak, _ = strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	}
	t.Logf("/tmp: %q; the sandbox's group peaked at %d MiB (limit %d MiB)", strings.Join(strings.Fields(res.Stdout), " "), peak>>20, memMiB)
	if peak>>20 > memMiB {
		t.Errorf("the sandbox's memory peaked at %d MiB, over its %d MiB limit", peak>>20, memMiB)
	}
	// The command's /tmp goes with its mount namespace, which the kernel tears down
	// a moment after the last process in it exits.
	sh, waited := meminfoMiB(t, "Shmem"), time.Now()
	for sh-shBefore > diskMiB+64 && time.Since(waited) < 10*time.Second {
		time.Sleep(100 * time.Millisecond)
		sh = meminfoMiB(t, "Shmem")
	}
	t.Logf("host Shmem +%d MiB against before, %s after the command", sh-shBefore, time.Since(waited).Round(time.Millisecond))
	if sh-shBefore > diskMiB+64 {
		t.Errorf("/tmp's pages outlived their command: host Shmem +%d MiB", sh-shBefore)
	}

	if code, _ := c.do(http.MethodDelete, "/v1/sandboxes/"+id+"?save=false", nil, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	shAfter := meminfoMiB(t, "Shmem")
	t.Logf("after the sandbox was deleted: host Shmem %+d MiB against before", shAfter-shBefore)
	if shAfter-shBefore > 64 {
		t.Errorf("the disk's memory outlived its sandbox: host Shmem +%d MiB", shAfter-shBefore)
	}
}

// statField reads one field of a cgroup's memory.stat.
func statField(file, key string) (int64, bool) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == key {
			n, err := strconv.ParseInt(f[1], 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// ownShmemMiB is the tmpfs memory charged to this process's memory group (Koda's own,
// here in the test process), in MiB: shmem of its memory.stat.
func ownShmemMiB(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, ":", 3)
		file := ""
		switch {
		case len(f) != 3:
			continue
		case f[1] == "memory":
			file = "/sys/fs/cgroup/memory" + f[2] + "/memory.stat"
		case f[0] == "0" && f[1] == "":
			file = "/sys/fs/cgroup" + f[2] + "/memory.stat"
		default:
			continue
		}
		if n, ok := statField(file, "shmem"); ok {
			return n >> 20
		}
	}
	t.Skip("Koda's own memory group cannot be read here")
	return 0
}

// TestAttackFileToolWritesCharged (issue 26): the file tools' writes are charged to the
// sandbox too, not to Koda. With sandboxes of 256 MiB memory (and the default 512 MiB
// disk), 300 MiB appended through write_file 1 MB a call, and a 300 MiB archive sent
// with transfer, are stopped with QUOTA_EXCEEDED at the memory limit; the sandbox's
// group holds what was written while Koda's own group does not grow; a checkpoint
// restored into a new sandbox is charged to that sandbox; host Shmem comes back after
// the sandboxes are deleted.
func TestAttackFileToolWritesCharged(t *testing.T) {
	kodatest.MachineLock(t) // it measures the host
	const memMiB = 256
	m := startTuned(t, "", func(m *Main) { m.Config.Sandbox.MemoryMiB = memMiB })
	c := client{t: t, base: m.PublicURL}
	id := c.newSandbox("attack", "writes")
	lsb := localSandbox(t, m, id)
	shBefore, ownBefore := meminfoMiB(t, "Shmem"), ownShmemMiB(t)
	type toolErr struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
		SizeBytes int64 `json:"size_bytes"`
	}
	chunk := strings.Repeat("x", 1000000)
	var size int64
	var code int
	var last toolErr
	began := time.Now()
	for i := 0; i < 315; i++ {
		last = toolErr{}
		if code, _ = c.do(http.MethodPost, "/v1/sandboxes/"+id+"/tools/"+sandbox.ToolWriteFile,
			map[string]any{"path": "big.txt", "content": chunk, "append": i > 0}, &last); code != 200 {
			break
		}
		size = last.SizeBytes
	}
	u, err := lsb.GroupUsage()
	if err != nil {
		t.Fatal(err)
	}
	own := ownShmemMiB(t)
	t.Logf("write_file: %d MiB written of 300 in %s, then %d %s %q; the sandbox's group holds %d MiB; Koda's own group's shmem %+d MiB; host Shmem %+d MiB",
		size>>20, time.Since(began).Round(time.Millisecond), code, last.Error.Code, last.Error.Message, u.MemoryBytes>>20, own-ownBefore, meminfoMiB(t, "Shmem")-shBefore)
	if code == 200 || last.Error.Code != koda.CodeQuotaExceeded {
		t.Errorf("300 MiB through write_file were not refused at the %d MiB memory limit: %d %s", memMiB, code, last.Error.Code)
	}
	if size>>20 > memMiB || size>>20 < memMiB/2 {
		t.Errorf("write_file stopped at %d MiB, want near the %d MiB memory limit", size>>20, memMiB)
	}
	if u.MemoryBytes < size*9/10 {
		t.Errorf("the %d MiB written are not charged to the sandbox: its group holds %d MiB", size>>20, u.MemoryBytes>>20)
	}
	if own-ownBefore > 64 {
		t.Errorf("Koda's own group's shmem grew by %d MiB while write_file wrote %d MiB", own-ownBefore, size>>20)
	}

	// transfer in of a folder: a 300 MiB file of zeros, a few hundred KB as a tar.gz.
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	_ = tw.WriteHeader(&tar.Header{Name: "zeros.bin", Mode: 0o644, Size: 300 << 20, Typeflag: tar.TypeReg})
	_, _ = io.CopyN(tw, zeroes{}, 300<<20)
	_ = tw.Close()
	_ = zw.Close()
	id2 := c.newSandbox("attack", "transfer")
	lsb2 := localSandbox(t, m, id2)
	ownBefore = ownShmemMiB(t)
	last = toolErr{}
	code = c.tool(id2, sandbox.ToolTransfer, map[string]any{"direction": "in", "recursive": true, "path": "in",
		"content": base64.StdEncoding.EncodeToString(buf.Bytes())}, &last)
	u2, _ := lsb2.GroupUsage()
	own = ownShmemMiB(t)
	t.Logf("transfer in: a %d KB tar.gz of 300 MiB → %d %s %q; the sandbox's group holds %d MiB; Koda's own group's shmem %+d MiB",
		buf.Len()>>10, code, last.Error.Code, last.Error.Message, u2.MemoryBytes>>20, own-ownBefore)
	if code == 200 || last.Error.Code != koda.CodeQuotaExceeded {
		t.Errorf("a 300 MiB archive was not refused at the %d MiB memory limit: %d %s", memMiB, code, last.Error.Code)
	}
	if u2.MemoryBytes>>20 < memMiB/2 || own-ownBefore > 64 {
		t.Errorf("the archive's pages: %d MiB in the sandbox's group, Koda's own group's shmem %+d MiB", u2.MemoryBytes>>20, own-ownBefore)
	}
	if code, _ := c.do(http.MethodDelete, "/v1/sandboxes/"+id2+"?save=false", nil, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}

	// A checkpoint restored into a new sandbox: 100 MiB, charged to the new sandbox. (The
	// full sandbox cannot run even rm: its files hold all of its memory.)
	if code, _ := c.do(http.MethodDelete, "/v1/sandboxes/"+id+"?save=false", nil, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	id = c.newSandbox("attack-restore", "writes")
	for i := range 100 {
		if code, _ := c.do(http.MethodPost, "/v1/sandboxes/"+id+"/tools/"+sandbox.ToolWriteFile,
			map[string]any{"path": "keep.txt", "content": chunk, "append": i > 0}, nil); code != 200 {
			t.Fatalf("write %d: %d", i, code)
		}
	}
	if code, _ := c.do(http.MethodDelete, "/v1/sandboxes/"+id, nil, nil); code != http.StatusNoContent {
		t.Fatalf("checkpoint and delete: %d", code)
	}
	ownBefore = ownShmemMiB(t)
	id3 := c.newSandbox("attack-restore", "writes")
	u3, _ := localSandbox(t, m, id3).GroupUsage()
	own = ownShmemMiB(t)
	var restored int64
	if st, err := os.Stat(localSandbox(t, m, id3).Dir() + "/keep.txt"); err == nil {
		restored = st.Size()
	}
	t.Logf("restore: %d MiB restored; the new sandbox's group holds %d MiB; Koda's own group's shmem %+d MiB", restored>>20, u3.MemoryBytes>>20, own-ownBefore)
	if restored != 100*1000000 || u3.MemoryBytes < restored*9/10 {
		t.Errorf("the restored %d bytes are not charged to the new sandbox: its group holds %d MiB", restored, u3.MemoryBytes>>20)
	}
	if own-ownBefore > 64 {
		t.Errorf("Koda's own group's shmem grew by %d MiB while a checkpoint was restored", own-ownBefore)
	}
	if code, _ := c.do(http.MethodDelete, "/v1/sandboxes/"+id3+"?save=false", nil, nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	shAfter := meminfoMiB(t, "Shmem")
	t.Logf("after the sandboxes were deleted: host Shmem %+d MiB against before", shAfter-shBefore)
	if shAfter-shBefore > 64 {
		t.Errorf("the written pages outlived their sandboxes: host Shmem +%d MiB", shAfter-shBefore)
	}
}

type zeroes struct{}

func (zeroes) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestAttackTenantBusyLoops (issue 26): four tenants fill their sandboxes with busy
// loops (two per sandbox, each sandbox allowed a core). Measured from the tenants'
// group, they use no more than their configured ceiling (1 core), and a render on the
// same node takes at most 2.5× its time on the quiet node.
func TestAttackTenantBusyLoops(t *testing.T) {
	kodatest.MachineLock(t) // it measures the host
	const ceiling = 1.0
	m := startTuned(t, "", func(m *Main) {
		m.Config.Sandbox.MaxPerNode, m.Config.Sandbox.MaxPerTenant = 16, 2
		m.Config.Sandbox.TenantCPUs = ceiling
	})
	if _, err := m.sandboxes.TenantUsage(); err != nil {
		t.Skipf("no tenants' group here: %v", err)
	}
	c := client{t: t, base: m.PublicURL}
	var p project
	if code, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "a playful purple circle bounces", "duration_s": 3, "auto_approve": true, "presets": tinyPresets[:1],
	}, &p); code != http.StatusAccepted {
		t.Fatalf("create: %d", code)
	}
	c.waitProject(p.ID, 4*time.Minute, "complete", func(p project) bool { return p.Phase == "complete" && finalsDone(p, 1) })

	preset := map[string]any{"width": 640, "height": 360, "fps": 30}
	renders := 1
	timeRender := func() time.Duration {
		t.Helper()
		var batch struct {
			ID string `json:"id"`
		}
		began := time.Now()
		if code, _ := c.do(http.MethodPost, "/v1/projects/"+p.ID+"/renders", map[string]any{"presets": []any{preset}}, &batch); code != http.StatusAccepted {
			t.Fatalf("render: %d", code)
		}
		renders++
		done := c.waitProject(p.ID, 4*time.Minute, "render", func(p project) bool { return finalsDone(p, renders) })
		took := time.Since(began)
		for _, r := range done.Renders {
			if r.BatchID == batch.ID && r.Status != "succeeded" {
				t.Fatalf("render %s: %s", r.ID, r.Status)
			}
		}
		return took
	}
	quiet := timeRender()

	admin := client{t: t, base: m.PublicURL, key: testAdminKey}
	loops := 0
	for i := range 4 {
		id := fmt.Sprintf("t_busy%d", i)
		if code, _ := admin.do(http.MethodPost, "/admin/tenants", map[string]any{"id": id, "name": id, "limits": map[string]any{}}, nil); code != http.StatusCreated {
			t.Fatalf("create tenant %s: %d", id, code)
		}
		var k struct {
			Key string `json:"key"`
		}
		admin.do(http.MethodPost, "/admin/tenants/"+id+"/keys", map[string]string{"name": "k"}, &k)
		tc := client{t: t, base: m.PublicURL, key: k.Key}
		for j := range 2 {
			sid := tc.newSandbox(fmt.Sprintf("busy%d", j), "loop")
			var res struct {
				PID int `json:"pid"`
			}
			if code := tc.tool(sid, sandbox.ToolRunCommand, map[string]any{
				"command": "(while :; do :; done) & (while :; do :; done) & wait", "background": true,
			}, &res); code != 200 || res.PID == 0 {
				t.Fatalf("start the loops in %s: %d", sid, code)
			}
			loops += 2
		}
	}
	time.Sleep(time.Second)
	u0, err := m.sandboxes.TenantUsage()
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	loaded := timeRender()
	u1, err := m.sandboxes.TenantUsage()
	if err != nil {
		t.Fatal(err)
	}
	mid := time.Now()
	// A few more seconds with the render done: the loops alone.
	time.Sleep(4 * time.Second)
	u2, err := m.sandboxes.TenantUsage()
	if err != nil {
		t.Fatal(err)
	}
	wall := time.Since(began)
	cores := (u2.CPU - u0.CPU).Seconds() / wall.Seconds()
	during := (u1.CPU - u0.CPU).Seconds() / mid.Sub(began).Seconds()
	alone := (u2.CPU - u1.CPU).Seconds() / time.Since(mid).Seconds()
	t.Logf("%d busy loops in 8 sandboxes of 4 tenants (ceiling %.1f of %d cores; load average %s): the tenants used %.3f cores over %s (%.3f during the render, %.3f after it); a 640×360@30 render of 3 s took %s on the quiet node and %s beside them (%.2f×)",
		loops, ceiling, runtime.NumCPU(), loadavg(), cores, wall.Round(time.Millisecond), during, alone,
		quiet.Round(time.Millisecond), loaded.Round(time.Millisecond), loaded.Seconds()/quiet.Seconds())
	if cores > ceiling*1.1 || alone > ceiling*1.1 {
		t.Errorf("the tenants used %.3f cores (%.3f with the render done), over their ceiling of %.1f", cores, alone, ceiling)
	}
	if loaded > quiet*5/2 {
		t.Errorf("the render took %s beside the tenants' loops, over 2.5× its %s on the quiet node", loaded, quiet)
	}
}

// loadavg is the machine's 1-minute load average, for the log: the CPU share a test
// measures depends on what else runs.
func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

// stallingAgent is the builtin agent whose code generation never finishes by itself
// (as an agent kept busy by a hostile request would): it works until its context ends.
type stallingAgent struct {
	koda.Agent
	stopped chan time.Duration // how long Generate ran, once its context ended
}

func (a *stallingAgent) Generate(ctx context.Context, p *koda.Project, sb koda.Sandbox, r koda.Reporter) error {
	began := time.Now()
	<-ctx.Done()
	select {
	case a.stopped <- time.Since(began):
	default:
	}
	return ctx.Err()
}

// TestAttackAgentBounded (issue 26): the agent's work on one request is bounded
// (KODA_AGENT_TIMEOUT): an agent that never finishes its codegen is stopped at the
// bound, and the project fails at once with AGENT_TIMEOUT instead of being retried.
func TestAttackAgentBounded(t *testing.T) {
	const bound = 3 * time.Second
	agent := &stallingAgent{stopped: make(chan time.Duration, 1)}
	m := startKodaWith(t, func(m *Main) {
		agent.Agent = builtin.New(m.Logger)
		m.Agent = agent
		m.Config.Agent.Timeout = bound
	})
	c := client{t: t, base: m.PublicURL}
	var p project
	began := time.Now()
	if code, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "A red ball bounces", "style": "playful", "duration_s": 1, "auto_approve": true,
	}, &p); code != http.StatusAccepted {
		t.Fatalf("create: %d", code)
	}
	var ran time.Duration
	select {
	case ran = <-agent.stopped:
	case <-time.After(bound + time.Minute):
		t.Fatal("the stalling agent was never stopped")
	}
	var got project
	deadline := time.Now().Add(30 * time.Second)
	for got.Phase != "error" && time.Now().Before(deadline) {
		c.do(http.MethodGet, "/v1/projects/"+p.ID, nil, &got)
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("the agent was stopped after %s (bound %s); project %s %+v %s after submission",
		ran.Round(time.Millisecond), bound, got.Phase, got.Error, time.Since(began).Round(time.Millisecond))
	if ran < bound-100*time.Millisecond || ran > bound+5*time.Second {
		t.Errorf("the agent ran %s, want about its bound of %s", ran, bound)
	}
	if got.Phase != "error" || got.Error == nil || got.Error.Code != koda.CodeAgentTimeout {
		t.Fatalf("project %s %+v, want error AGENT_TIMEOUT", got.Phase, got.Error)
	}
	// Failed, not retried: the agent is not asked again.
	select {
	case again := <-agent.stopped:
		t.Errorf("the codegen was retried (and stopped again after %s)", again)
	case <-time.After(2 * bound):
	}
}
