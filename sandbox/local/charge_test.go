package local_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"github.com/kodahq/koda/internal/kodatest"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox/local"
)

// memAvailable is the host's MemAvailable from /proc/meminfo.
func memAvailable(t *testing.T) int64 { return kodatest.Meminfo(t, "MemAvailable") }

// shmem is the host's memory in tmpfs and shared memory (Shmem in /proc/meminfo).
func shmem(t *testing.T) int64 { return kodatest.Meminfo(t, "Shmem") }

func chargedProvider(t *testing.T, l local.Limits, c local.Ceiling) *local.Provider {
	t.Helper()
	requireRoot(t)
	parent := "koda-test-" + strconv.Itoa(os.Getpid())
	p := local.New(local.Config{Root: t.TempDir(), CommandTimeout: 60 * time.Second, KillGrace: 500 * time.Millisecond,
		Limits: l, Tenants: c, CgroupParent: parent})
	t.Cleanup(func() {
		// The groups the provider leaves (it keeps its parent for the next start).
		for _, d := range []string{"memory", "pids", "cpu", "cpuacct", "freezer", ""} {
			_ = os.Remove(filepath.Join("/sys/fs/cgroup", d, parent, local.TenantsGroup))
			_ = os.Remove(filepath.Join("/sys/fs/cgroup", d, parent))
		}
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
	if iso.Cgroups == "none" || !iso.Tenants {
		t.Skipf("no cgroups for the tenants' ceiling here: %+v", iso)
	}
	return p
}

// TestDiskChargedToMemory (issue 26): a sandbox's disk is a tmpfs in host memory; what
// its commands write there is charged to its memory group, so writing 1 GiB stops at
// whichever comes first of the disk quota, the sandbox's memory limit and the tenants'
// ceiling, and the host loses no more memory than that limit.
func TestDiskChargedToMemory(t *testing.T) {
	kodatest.MachineLock(t) // it measures the host
	const mib = 1 << 20
	cases := []struct {
		name   string
		limits local.Limits
		tenant local.Ceiling
		limit  int64 // the bound that should stop the writer
	}{
		{"disk quota", local.Limits{MemoryBytes: 1024 * mib, DiskBytes: 512 * mib}, local.Ceiling{}, 512 * mib},
		{"sandbox memory", local.Limits{MemoryBytes: 256 * mib, DiskBytes: 2048 * mib}, local.Ceiling{}, 256 * mib},
		{"tenants' ceiling", local.Limits{MemoryBytes: 1024 * mib, DiskBytes: 2048 * mib}, local.Ceiling{MemoryBytes: 192 * mib}, 192 * mib},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := chargedProvider(t, tc.limits, tc.tenant)
			sb, err := p.Create(context.Background(), koda.SandboxSpec{TenantID: "tnt_hostile", ProjectID: "prj_disk"})
			if err != nil {
				t.Fatal(err)
			}
			lsb := sb.(*local.Sandbox)
			before, shBefore := memAvailable(t), shmem(t)
			res, _ := run(t, sb, "dd if=/dev/zero of=big bs=1M count=1024 2>&1; ls -l big | cut -d' ' -f5", 60000)
			after, shAfter := memAvailable(t), shmem(t)
			u, err := lsb.GroupUsage()
			if err != nil {
				t.Fatal(err)
			}
			tu, err := p.TenantUsage()
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Fields(res.Stdout)
			size, _ := strconv.ParseInt(lines[len(lines)-1], 10, 64)
			drop := before - after
			t.Logf("wrote %d MiB of 1024 (limit %d MiB); sandbox group memory %d MiB, tenants' %d MiB; host MemAvailable %d → %d MiB (−%d MiB), Shmem +%d MiB",
				size/mib, tc.limit/mib, u.MemoryBytes/mib, tu.MemoryBytes/mib, before/mib, after/mib, drop/mib, (shAfter-shBefore)/mib)
			if size == 0 || size > tc.limit {
				t.Errorf("the file is %d bytes, want at most the %d MiB limit", size, tc.limit/mib)
			}
			if size >= 1024*mib {
				t.Fatalf("the whole GiB was written")
			}
			// The disk's pages are in the sandbox's group, and so in the tenants'.
			if u.MemoryBytes < size*9/10 || u.MemoryBytes > tc.limit+16*mib {
				t.Errorf("the sandbox's group holds %d MiB for a %d MiB file (limit %d MiB)", u.MemoryBytes/mib, size/mib, tc.limit/mib)
			}
			if tu.MemoryBytes < u.MemoryBytes {
				t.Errorf("the tenants' group holds %d MiB, less than its sandbox's %d", tu.MemoryBytes/mib, u.MemoryBytes/mib)
			}
			// Other processes on this machine move MemAvailable too; 128 MiB of slack.
			if drop > tc.limit+128*mib {
				t.Errorf("the host lost %d MiB, more than the %d MiB limit", drop/mib, tc.limit/mib)
			}
			if err := p.Destroy(context.Background(), sb.ID()); err != nil {
				t.Fatal(err)
			}
			// The disk's memory goes with the sandbox.
			shGone := shmem(t)
			t.Logf("after destroy: host MemAvailable %d MiB, Shmem %+d MiB against before the write", memAvailable(t)/mib, (shGone-shBefore)/mib)
			if shGone-shBefore > 64*mib {
				t.Errorf("Shmem is %d MiB above its level before the write after the sandbox was destroyed", (shGone-shBefore)/mib)
			}
		})
	}
}

// TestTenantCPUCeiling (issue 26): busy loops in several tenant sandboxes, each allowed
// a whole core, together stay within the tenants' ceiling, measured from the tenants'
// group's CPU time; a sandbox of Koda's own beside them is not held to it.
func TestTenantCPUCeiling(t *testing.T) {
	kodatest.MachineLock(t) // it measures the host
	const ceiling = 0.5
	p := chargedProvider(t, local.Limits{CPUs: 1}, local.Ceiling{CPUs: ceiling})
	ctx := context.Background()
	var boxes []koda.Sandbox
	for i := range 3 {
		sb, err := p.Create(ctx, koda.SandboxSpec{TenantID: "tnt_" + strconv.Itoa(i), ProjectID: "prj_busy"})
		if err != nil {
			t.Fatal(err)
		}
		boxes = append(boxes, sb)
	}
	own, err := p.Create(ctx, koda.SandboxSpec{ProjectID: "prj_codegen", Internal: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := own.(*local.Sandbox).CgroupDir("cpu"); strings.Contains(d, "/"+local.TenantsGroup+"/") {
		t.Errorf("Koda's own sandbox is in the tenants' group: %s", d)
	}
	if d := boxes[0].(*local.Sandbox).CgroupDir("cpu"); !strings.Contains(d, "/"+local.TenantsGroup+"/") {
		t.Errorf("a tenant's sandbox is outside the tenants' group: %s", d)
	}
	for _, sb := range boxes {
		if _, err := sb.RunCommand(ctx, koda.CommandRequest{Command: "while :; do :; done", Background: true}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(500 * time.Millisecond) // past the start of the loops
	u0, err := p.TenantUsage()
	if err != nil {
		t.Fatal(err)
	}
	idle0, began := idleCores(t), time.Now()
	time.Sleep(4 * time.Second)
	u1, err := p.TenantUsage()
	if err != nil {
		t.Fatal(err)
	}
	wall := time.Since(began)
	cores := (u1.CPU - u0.CPU).Seconds() / wall.Seconds()
	idle := (idleCores(t) - idle0) / wall.Seconds()
	t.Logf("three tenant sandboxes looping (1 core each, tenants' ceiling %.1f): %.3f cores used over %s, %.2f cores idle beside them",
		ceiling, cores, wall.Round(time.Millisecond), idle)
	if cores > ceiling*1.1 {
		t.Errorf("the tenants used %.3f cores, over their ceiling of %.1f", cores, ceiling)
	}
	if cores < ceiling/4 && idle > 1 {
		t.Errorf("the loops used only %.3f cores with %.2f idle: they did not run", cores, idle)
	}
}

// TestUsrLocalHidden (issue 26): a sandbox sees Debian's /usr (node, npm) but not the
// host's /usr/local.
func TestUsrLocalHidden(t *testing.T) {
	_, sb := setup(t)
	res, err := sb.RunCommand(context.Background(), koda.CommandRequest{Command: `
ls -A /usr/local | wc -l | sed 's/^/local_entries=/'
test -e /usr/local/bin && echo local_bin=visible || echo local_bin=absent
touch /usr/local/x 2>/dev/null && echo local=writable || echo local=readonly
node -e 'console.log("node=" + process.version)'
npm --version 2>/dev/null | sed 's/^/npm=/'
echo "path=$PATH"`, TimeoutMS: 60000})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("inside:\n%s%s", res.Stdout, res.Stderr)
	for _, want := range []string{"local_entries=0", "local_bin=absent", "local=readonly", "node=v", "npm="} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("want %q inside the sandbox", want)
		}
	}
	if strings.Contains(res.Stdout, "/usr/local") {
		t.Errorf("PATH still names /usr/local: %s", res.Stdout)
	}
	if _, err := os.Stat("/usr/local/bin"); err != nil {
		t.Logf("(the host has no /usr/local/bin either: %v)", err)
	}
}

// ownGroupMemory is the tmpfs memory (shmem in memory.stat) charged to this process's
// own memory group (the service's, in production), and the group's name.
func ownGroupMemory(t *testing.T) (int64, string) {
	t.Helper()
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		file := ""
		switch {
		case f[1] == "memory":
			file = filepath.Join("/sys/fs/cgroup/memory", f[2], "memory.stat")
		case f[0] == "0" && f[1] == "":
			file = filepath.Join("/sys/fs/cgroup", f[2], "memory.stat")
		default:
			continue
		}
		b, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if kv := strings.Fields(line); len(kv) == 2 && kv[0] == "shmem" {
				n, _ := strconv.ParseInt(kv[1], 10, 64)
				return n, f[2]
			}
		}
	}
	t.Skip("this process's memory group cannot be read")
	return 0, ""
}

// zerosTarGz is a tar.gz of one file of size zero bytes: tiny, however large it unpacks.
func zerosTarGz(t *testing.T, name string, size int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: size, Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyN(tw, zeroReader{}, size); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestFileToolWritesCharged (issue 26): what the file tools write into a sandbox
// (write_file, transfer in, a checkpoint's restore) is written by a helper in the
// sandbox's groups as its uid, so the pages count against the sandbox's memory limit,
// not the service's group: 300 MiB appended 1 MiB at a time, and a 300 MiB archive,
// stop at a 256 MiB limit with QUOTA_EXCEEDED, though the disk would take 2 GiB.
func TestFileToolWritesCharged(t *testing.T) {
	kodatest.MachineLock(t) // it measures the host
	const mib = 1 << 20
	const limit = 256 * mib
	p := chargedProvider(t, local.Limits{MemoryBytes: limit, DiskBytes: 2048 * mib}, local.Ceiling{})
	sb, err := p.Create(context.Background(), koda.SandboxSpec{TenantID: "tnt_hostile", ProjectID: "prj_disk"})
	if err != nil {
		t.Fatal(err)
	}
	lsb := sb.(*local.Sandbox)
	ctx := context.Background()

	// Ownership and symlink safety as before.
	if _, err := sb.WriteFile(ctx, "a/b/c.txt", []byte("hello"), false); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "a/b", "a/b/c.txt"} {
		st, err := os.Lstat(filepath.Join(sb.Dir(), name))
		if err != nil {
			t.Fatal(err)
		}
		if uid := int(st.Sys().(*syscall.Stat_t).Uid); uid != lsb.UID() {
			t.Errorf("%s is owned by uid %d, want the sandbox's %d", name, uid, lsb.UID())
		}
	}
	outside := filepath.Join(t.TempDir(), "host.txt")
	if err := os.WriteFile(outside, []byte("host"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(sb.Dir(), "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(sb.Dir(), "dirlink")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"link", "dirlink/host.txt", "dirlink/new.txt"} {
		_, err := sb.WriteFile(ctx, name, []byte("pwned"), false)
		wantCode(t, err, koda.CodeInvalidPath)
	}
	if _, err := sb.Replace(ctx, "link", "host", "pwned", 1); err == nil {
		t.Error("replace through a symlink out of the sandbox worked")
	}
	if err := lsb.Import(ctx, "dirlink", bytes.NewReader(zerosTarGz(t, "x", 10))); err == nil {
		t.Error("an import into a symlink out of the sandbox worked")
	}
	if b, _ := os.ReadFile(outside); string(b) != "host" {
		t.Errorf("the host file was changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(outside), "new.txt")); err == nil {
		t.Error("a file was created outside the sandbox")
	}
	if _, err := sb.Replace(ctx, "a/b/c.txt", "hello", "bye", 1); err != nil {
		t.Fatal(err)
	}
	if b, _ := sb.ReadFile(ctx, "a/b/c.txt", 0, 0); string(b) != "bye" {
		t.Errorf("replace wrote %q", b)
	}
	// As the sandbox's user: what the sandbox made read-only stays so.
	if err := os.Chmod(filepath.Join(sb.Dir(), "a/b/c.txt"), 0o444); err != nil {
		t.Fatal(err)
	}
	_, err = sb.WriteFile(ctx, "a/b/c.txt", []byte("over"), false)
	wantCode(t, err, koda.CodeInvalidPath)
	if err := os.Chmod(filepath.Join(sb.Dir(), "a/b/c.txt"), 0o644); err != nil {
		t.Fatal(err)
	}

	// 300 MiB through write_file, 1 MiB a call as the API's body limit allows.
	own0, ownGroup := ownGroupMemory(t)
	sh0 := shmem(t)
	chunk := bytes.Repeat([]byte("x"), mib)
	var written int64
	var werr error
	began := time.Now()
	for i := 0; i < 300 && werr == nil; i++ {
		var n int64
		if n, werr = sb.WriteFile(ctx, "big.txt", chunk, i > 0); werr == nil {
			written = n
		}
	}
	u, err := lsb.GroupUsage()
	if err != nil {
		t.Fatal(err)
	}
	own1, _ := ownGroupMemory(t)
	t.Logf("write_file: %d MiB written of 300 in %s (limit %d MiB), then %v; sandbox group %d MiB; own group %s shmem %+d MiB; Shmem %+d MiB",
		written/mib, time.Since(began).Round(time.Millisecond), limit/mib, werr, u.MemoryBytes/mib, ownGroup, (own1-own0)/mib, (shmem(t)-sh0)/mib)
	wantCode(t, werr, koda.CodeQuotaExceeded)
	if written > limit || written < limit/2 {
		t.Errorf("write_file stopped at %d MiB, want near the %d MiB limit", written/mib, limit/mib)
	}
	if u.MemoryBytes < written*9/10 {
		t.Errorf("the sandbox's group holds %d MiB for %d MiB written", u.MemoryBytes/mib, written/mib)
	}
	if own1-own0 > 64*mib {
		t.Errorf("this process's own group's shmem grew by %d MiB", (own1-own0)/mib)
	}
	if b, err := sb.ReadFile(ctx, "a/b/c.txt", 0, 0); err != nil || string(b) != "bye" {
		t.Errorf("after the limit: %q, %v", b, err)
	}

	// Freed, the memory writes again; an archive of 300 MiB (transfer in, restore) is
	// stopped at the limit the same way.
	if err := os.Remove(filepath.Join(sb.Dir(), "big.txt")); err != nil {
		t.Fatal(err)
	}
	began = time.Now()
	own0 = own1
	err = lsb.Import(ctx, "in", bytes.NewReader(zerosTarGz(t, "zeros.bin", 300*mib)))
	t.Logf("import took %s", time.Since(began).Round(time.Millisecond))
	u, _ = lsb.GroupUsage()
	own1, _ = ownGroupMemory(t)
	st, _ := os.Stat(filepath.Join(sb.Dir(), "in", "zeros.bin"))
	var got int64
	if st != nil {
		got = st.Size()
	}
	t.Logf("import: %d MiB extracted of 300, then %v; sandbox group %d MiB; own group shmem %+d MiB", got/mib, err, u.MemoryBytes/mib, (own1-own0)/mib)
	wantCode(t, err, koda.CodeQuotaExceeded)
	if got > limit || u.MemoryBytes < got*9/10 {
		t.Errorf("the archive's %d MiB: the sandbox's group holds %d MiB", got/mib, u.MemoryBytes/mib)
	}
	if own1-own0 > 64*mib {
		t.Errorf("this process's own group's shmem grew by %d MiB", (own1-own0)/mib)
	}
	if err := p.Destroy(ctx, sb.ID()); err != nil {
		t.Fatal(err)
	}
	if sh := shmem(t); sh-sh0 > 64*mib {
		t.Errorf("Shmem is %d MiB above its level before the writes after destroy", (sh-sh0)/mib)
	}
}
