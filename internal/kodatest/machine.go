package kodatest

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// MachineLock holds, until t ends, a lock shared by every test that measures the
// host itself (its Shmem, MemAvailable, a CPU share against an unloaded run). go test
// runs packages in parallel, each in its own process: without it, one package's
// 300 MiB tmpfs write shows in another's host-wide figures.
func MachineLock(t testing.TB) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "koda-test-machine.lock"), os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		t.Fatalf("machine lock: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("machine lock: %v", err)
	}
	t.Cleanup(func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	})
}

// Meminfo is one field of the host's /proc/meminfo ("Shmem", "MemAvailable"), in bytes.
func Meminfo(t testing.TB, key string) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == key+":" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/meminfo", key)
	return 0
}
