package local_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox/local"
)

// hardened is a provider with small limits, so the bombs below hit them quickly.
func hardened(t *testing.T) (*local.Provider, *local.Sandbox) {
	t.Helper()
	p := local.New(local.Config{
		Root: t.TempDir(), CommandTimeout: 20 * time.Second, KillGrace: 500 * time.Millisecond,
		Limits: local.Limits{MemoryBytes: 128 << 20, Pids: 64, CPUs: 0.5, DiskBytes: 8 << 20},
	})
	t.Cleanup(func() {
		if err := p.Close(context.Background()); err != nil {
			t.Errorf("close provider: %v", err)
		}
	})
	iso, err := p.Isolation()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("isolation here: %+v", iso)
	sb, err := p.Create(context.Background(), koda.SandboxSpec{ProjectID: "prj_escape"})
	if err != nil {
		t.Fatal(err)
	}
	return p, sb.(*local.Sandbox)
}

func run(t *testing.T, sb koda.Sandbox, command string, timeoutMS int64) (*koda.CommandResult, error) {
	t.Helper()
	began := time.Now()
	res, err := sb.RunCommand(context.Background(), koda.CommandRequest{Command: command, TimeoutMS: timeoutMS})
	if res == nil {
		res = &koda.CommandResult{ExitCode: -1}
	}
	t.Logf("$ %s\n  → exit %d after %s, err=%v\n  stdout: %s\n  stderr: %s", command, res.ExitCode,
		time.Since(began).Round(time.Millisecond), err, firstLines(res.Stdout), firstLines(res.Stderr))
	return res, err
}

func firstLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 6 {
		lines = append(lines[:6], "…")
	}
	return strings.Join(lines, " | ")
}

func requireRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the uid switch, cgroups and the tmpfs quota need root; this run is not root")
	}
}

// TestEscapeAttempts runs what hostile generated code would try, from inside the
// sandbox, and checks each is contained with the host unchanged.
func TestEscapeAttempts(t *testing.T) {
	requireRoot(t)
	p, sb := hardened(t)
	hostDir := filepath.Dir(sb.Dir())

	t.Run("identity and privileges", func(t *testing.T) {
		res, _ := run(t, sb, "id -u; grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status; ls /", 0)
		if !strings.HasPrefix(res.Stdout, strconv.Itoa(sb.UID())+"\n") {
			t.Fatalf("not running as the sandbox uid %d: %q", sb.UID(), res.Stdout)
		}
		if !strings.Contains(res.Stdout, "CapEff:\t0000000000000000") || !strings.Contains(res.Stdout, "CapBnd:\t0000000000000000") {
			t.Fatalf("capabilities left: %q", res.Stdout)
		}
		for _, hidden := range []string{"etc", "root", "home", "var", "sys", "run"} {
			if strings.Contains("\n"+res.Stdout, "\n"+hidden+"\n") {
				t.Fatalf("/%s is visible in the sandbox: %q", hidden, res.Stdout)
			}
		}
		res, _ = run(t, sb, "mount -o remount,rw /usr 2>&1; touch /usr/pwned 2>&1; unshare -U true 2>&1; echo done", 0)
		if _, err := os.Stat("/usr/pwned"); err == nil {
			t.Fatal("wrote to the host's /usr")
		}
		if !strings.Contains(res.Stdout, "Read-only file system") {
			t.Fatalf("/usr not read-only: %q", res.Stdout)
		}
	})

	t.Run("read and write outside the project", func(t *testing.T) {
		secret := filepath.Join(hostDir, "host-secret.txt")
		if err := os.WriteFile(secret, []byte("host secret"), 0o644); err != nil {
			t.Fatal(err)
		}
		res, _ := run(t, sb, "cat /etc/passwd ../host-secret.txt "+secret+" 2>&1; echo x > ../escape.txt; echo x > /escape.txt; echo x > "+filepath.Join(hostDir, "abs.txt")+"; ls -la .. 2>&1 | head -3; echo done", 0)
		if strings.Contains(res.Stdout, "host secret") || strings.Contains(res.Stdout, "root:x:0") {
			t.Fatalf("read the host: %q", res.Stdout)
		}
		for _, f := range []string{"escape.txt", "abs.txt"} {
			if _, err := os.Stat(filepath.Join(hostDir, f)); err == nil {
				t.Fatalf("%s written next to the sandbox on the host", f)
			}
		}
		if _, err := os.Stat("/escape.txt"); err == nil {
			t.Fatal("/escape.txt written on the host")
		}
		// A symlink to /etc made inside resolves inside: there is no /etc there.
		res, _ = run(t, sb, "ln -s /etc etc && ls etc/ 2>&1; cat etc/passwd 2>&1 | head -1", 0)
		if strings.Contains(res.Stdout, "root:") {
			t.Fatalf("symlink reached the host's /etc: %q", res.Stdout)
		}
		_, err := sb.ReadFile(context.Background(), "etc/passwd", 0, 0)
		if koda.ErrorCode(err) != koda.CodeInvalidPath {
			t.Fatalf("file tool through the symlink: %v", err)
		}
		t.Logf("read_file etc/passwd → %v", err)
	})

	t.Run("network", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		accepted := make(chan struct{}, 1)
		go func() {
			if c, err := ln.Accept(); err == nil {
				c.Close()
				accepted <- struct{}{}
			}
		}()
		port := ln.Addr().(*net.TCPAddr).Port
		js := fmt.Sprintf(`const net=require('net');
const s=net.connect(%d,'127.0.0.1');s.on('connect',()=>{console.log('CONNECTED');process.exit(0)});s.on('error',e=>{console.log('tcp',e.code);
require('dns').lookup('example.com',(e,a)=>{console.log('dns',e?e.code:a);
const o=net.connect(443,'1.1.1.1');o.on('connect',()=>{console.log('CONNECTED');process.exit(0)});o.on('error',e=>{console.log('internet',e.code)})})})`, port)
		res, _ := run(t, sb, "node -e \""+strings.ReplaceAll(js, "\"", "\\\"")+"\"; cat /etc/resolv.conf 2>&1; ls /sys/class/net 2>&1", 10000)
		if strings.Contains(res.Stdout, "CONNECTED") {
			t.Fatalf("the sandbox reached the network: %q", res.Stdout)
		}
		if !strings.Contains(res.Stdout, "tcp ECONNREFUSED") || !strings.Contains(res.Stdout, "dns ") || !strings.Contains(res.Stdout, "internet ENETUNREACH") {
			t.Fatalf("unexpected network answers: %q", res.Stdout)
		}
		select {
		case <-accepted:
			t.Fatal("the host listener accepted a connection from the sandbox")
		case <-time.After(100 * time.Millisecond):
		}
	})

	t.Run("fork bomb", func(t *testing.T) {
		began := time.Now()
		res, err := run(t, sb, "f(){ f | f & }; f; sleep 2; echo survived", 10000)
		_ = err
		if time.Since(began) > 15*time.Second {
			t.Fatal("fork bomb was not contained in time")
		}
		if events, err := os.ReadFile(filepath.Join(sb.CgroupDir("pids"), "pids.events")); err == nil {
			t.Logf("pids.events: %s", strings.TrimSpace(string(events)))
		}
		waitNoProcesses(t, sb.ID())
		if res, err = run(t, sb, "echo ok", 0); err != nil || res.Stdout != "ok\n" {
			t.Fatalf("sandbox unusable after the bomb: %v %+v", err, res)
		}
	})

	t.Run("memory bomb", func(t *testing.T) {
		// Under cgroup v1 the kernel reclaims node's own code pages before it OOM-kills, so
		// reaching the limit takes seconds at the 0.5 CPU quota and far longer on a loaded
		// machine (CI measured over 20 s); the deadline only keeps a broken limit from hanging.
		res, _ := run(t, sb, `node -e "const a=[];for(;;)a.push(Buffer.alloc(1<<20,1))"`, 120000)
		if res.ExitCode == 0 {
			t.Fatal("memory bomb exited cleanly")
		}
		if res.ExitCode == 137 && !strings.Contains(res.Stderr, "memory limit") {
			t.Fatalf("OOM kill not explained: %q", res.Stderr)
		}
		waitNoProcesses(t, sb.ID())
	})

	t.Run("infinite loop", func(t *testing.T) {
		began := time.Now()
		idle0 := idleCores(t)
		_, err := run(t, sb, "while :; do :; done", 1000)
		if koda.ErrorCode(err) != koda.CodeTimeout || time.Since(began) > 3*time.Second {
			t.Fatalf("loop: %v after %s", err, time.Since(began))
		}
		// Cores left idle beside the loop: on a busy machine the loop never got as much
		// CPU as its quota allows, so there was nothing to throttle.
		spare := (idleCores(t) - idle0) / time.Since(began).Seconds()
		waitNoProcesses(t, sb.ID())
		dir := sb.CgroupDir("cpu")
		if st, err := os.ReadFile(filepath.Join(dir, "cpu.stat")); err == nil {
			quota, _ := os.ReadFile(filepath.Join(dir, "cpu.cfs_quota_us"))
			period, _ := os.ReadFile(filepath.Join(dir, "cpu.cfs_period_us"))
			q, _ := strconv.Atoi(strings.TrimSpace(string(quota)))
			p, _ := strconv.Atoi(strings.TrimSpace(string(period)))
			if p <= 0 || float64(q)/float64(p) < 0.45 || float64(q)/float64(p) > 0.55 {
				t.Fatalf("the sandbox's CPU quota is %s/%s µs, want half a core", quota, period)
			}
			t.Logf("cpu.stat (0.5 CPU quota, %.2f cores idle beside the loop): %s", spare, strings.ReplaceAll(strings.TrimSpace(string(st)), "\n", ", "))
			if spare >= 0.6 && (!strings.Contains(string(st), "nr_throttled") || strings.Contains(string(st), "nr_throttled 0\n")) {
				t.Fatalf("the CPU quota never throttled the loop although %.2f cores were idle: %s", spare, st)
			}
		}
	})

	t.Run("processes outliving their command", func(t *testing.T) {
		res, err := run(t, sb, "sleep 1000 & setsid sleep 1001 & nohup sleep 1002 >/dev/null 2>&1 & echo started", 5000)
		if err != nil || res.Stdout != "started\n" {
			t.Fatalf("%v %+v", err, res)
		}
		waitNoProcesses(t, sb.ID())
		bg, err := sb.RunCommand(context.Background(), koda.CommandRequest{Command: "setsid sh -c 'sleep 1003' & sleep 1004", Background: true})
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(2 * time.Second)
		for len(sandboxPIDs(t, sb.ID())) < 3 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		t.Logf("background pid %d, sandbox processes %v", bg.PID, sandboxPIDs(t, sb.ID()))
	})

	t.Run("disk quota", func(t *testing.T) {
		res, _ := run(t, sb, "dd if=/dev/zero of=big bs=1M count=20 2>&1; ls -l big", 10000)
		if !strings.Contains(res.Stdout, "No space left on device") {
			t.Fatalf("filling the disk did not hit the quota: %q", res.Stdout)
		}
		_, err := sb.WriteFile(context.Background(), "more.bin", make([]byte, 1<<20), false)
		if koda.ErrorCode(err) != koda.CodeQuotaExceeded {
			t.Fatalf("write_file past the quota: %v", err)
		}
		t.Logf("write_file past the quota → %v", err)
		if _, err := sb.RunCommand(context.Background(), koda.CommandRequest{Command: "rm big"}); err != nil {
			t.Fatal(err)
		}
		if _, err := sb.WriteFile(context.Background(), "more.bin", make([]byte, 1<<20), false); err != nil {
			t.Fatalf("write after freeing space: %v", err)
		}
	})

	// Destroy leaves nothing: no process, no mount, no cgroup, no folder.
	dir, id := sb.Dir(), sb.ID()
	var groups []string
	for _, c := range []string{"memory", "pids", "cpu", "freezer"} {
		if g := sb.CgroupDir(c); g != "" {
			groups = append(groups, g)
		}
	}
	if err := p.Destroy(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	waitNoProcesses(t, id)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("folder survived: %v", err)
	}
	mounts, _ := os.ReadFile("/proc/self/mountinfo")
	if strings.Contains(string(mounts), id) {
		t.Fatal("the sandbox's tmpfs is still mounted")
	}
	for _, g := range groups {
		if _, err := os.Stat(g); !os.IsNotExist(err) {
			t.Fatalf("cgroup %s survived: %v", g, err)
		}
	}
}

// idleCores returns the machine's idle time so far in core-seconds, from /proc/stat.
func idleCores(t *testing.T) float64 {
	t.Helper()
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		t.Fatal(err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line) // cpu user nice system idle iowait …
	if len(f) < 5 {
		t.Fatalf("/proc/stat: %q", line)
	}
	idle, _ := strconv.ParseFloat(f[4], 64)
	return idle / 100 // USER_HZ is 100 on Linux
}
