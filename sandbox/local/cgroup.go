package local

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Limits bound what one sandbox may use, all its commands together.
type Limits struct {
	// MemoryBytes caps resident memory (and swap) of the sandbox's processes. Default 1 GiB.
	MemoryBytes int64
	// Pids caps live processes and threads. Default 256.
	Pids int
	// CPUs caps CPU time as a number of cores (1.5 = one and a half). Default 1.
	CPUs float64
	// DiskBytes caps the project folder. Default 512 MiB.
	DiskBytes int64
}

func (l Limits) withDefaults() Limits {
	if l.MemoryBytes <= 0 {
		l.MemoryBytes = 1 << 30
	}
	if l.Pids <= 0 {
		l.Pids = 256
	}
	if l.CPUs <= 0 {
		l.CPUs = 1
	}
	if l.DiskBytes <= 0 {
		l.DiskBytes = 512 << 20
	}
	return l
}

// cgroupMode is how this host lets us limit a sandbox.
type cgroupMode int

const (
	cgroupNone cgroupMode = iota // not root, or no writable hierarchy: rlimits only
	cgroupV1                     // per-controller hierarchies (memory, pids, cpu, freezer)
	cgroupV2                     // unified hierarchy with the controllers delegated
)

func (m cgroupMode) String() string {
	return [...]string{"none", "v1", "v2"}[m]
}

const cgroupRoot = "/sys/fs/cgroup"

// v1Controllers are the hierarchies a sandbox joins under cgroup v1. freezer makes the
// kill of a whole cgroup race-free: frozen processes cannot fork. cpuacct, where it is a
// hierarchy of its own (as here; elsewhere it shares one with cpu), counts the CPU
// time a group used, which the cpu hierarchy alone does not tell under v1.
var v1Controllers = sync.OnceValue(func() []string {
	list := []string{"memory", "pids", "cpu", "freezer"}
	cpu, err1 := os.Stat(filepath.Join(cgroupRoot, "cpu"))
	acct, err2 := os.Stat(filepath.Join(cgroupRoot, "cpuacct"))
	if err1 == nil && err2 == nil && !os.SameFile(cpu, acct) {
		list = append(list, "cpuacct")
	}
	return list
})

// TenantsGroup is the group, under the provider's parent, that every tenant sandbox's
// group lives in (SandboxSpec.Internal false), so the node's ceiling for tenants
// (Config.Tenants) bounds them all together. Koda's own sandboxes stay beside it.
const TenantsGroup = "tenants"

// Ceiling bounds what all tenant sandboxes of a node use together: their group's CPU
// quota and memory limit. Memory covers the sandboxes' processes and the files their
// commands write to their disk and /tmp (tmpfs pages are charged to the group of the
// process that writes them).
type Ceiling struct {
	// CPUs is the tenants' CPU quota in cores. Default: half of this machine's cores.
	CPUs float64
	// MemoryBytes caps the tenants' memory. Default: half of this machine's memory.
	MemoryBytes int64
	// Shares is the tenants' weight against Koda's own work when the CPUs are busy
	// (cgroup v1 cpu.shares; v2 cpu.weight = Shares*100/1024). Default 256, a quarter
	// of a top-level process's, so renders on the node come first.
	Shares int
}

func (c Ceiling) withDefaults() Ceiling {
	if c.CPUs <= 0 {
		c.CPUs = max(float64(runtime.NumCPU())/2, 0.5)
	}
	if c.MemoryBytes <= 0 {
		c.MemoryBytes = max(memTotal()/2, 256<<20)
	}
	if c.Shares <= 0 {
		c.Shares = 256
	}
	return c
}

// memTotal is this machine's memory from /proc/meminfo (0 if unreadable).
func memTotal() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// prepareTenants creates parent/tenants with the ceiling's limits (and, under v2,
// delegates the controllers to the sandboxes' groups below it). It is written on every
// start, so a changed configuration applies.
func prepareTenants(mode cgroupMode, parent string, c Ceiling) error {
	period := 100000
	quota := strconv.Itoa(int(c.CPUs * float64(period)))
	mem := strconv.FormatInt(c.MemoryBytes, 10)
	write := func(dir, file, val string) error {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(val), 0); err != nil {
			return fmt.Errorf("cgroup %s of the tenants: %w", file, err)
		}
		return nil
	}
	switch mode {
	case cgroupV1:
		for _, ctl := range v1Controllers() {
			dir := filepath.Join(cgroupRoot, ctl, parent, TenantsGroup)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			var err error
			switch ctl {
			case "memory":
				// memsw first when lowering (it must stay >= the plain limit), and again
				// after, when raising.
				_ = write(dir, "memory.memsw.limit_in_bytes", mem)
				if err = write(dir, "memory.limit_in_bytes", mem); err == nil {
					_ = write(dir, "memory.memsw.limit_in_bytes", mem)
				}
			case "cpu":
				if err = write(dir, "cpu.cfs_period_us", strconv.Itoa(period)); err == nil {
					if err = write(dir, "cpu.cfs_quota_us", quota); err == nil {
						err = write(dir, "cpu.shares", strconv.Itoa(c.Shares))
					}
				}
			}
			if err != nil {
				return err
			}
		}
	case cgroupV2:
		dir := filepath.Join(cgroupRoot, parent, TenantsGroup)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		weight := strconv.Itoa(min(max(c.Shares*100/1024, 1), 10000))
		for _, kv := range [][2]string{
			{"memory.max", mem},
			{"memory.swap.max", "0"},
			{"cpu.max", quota + " " + strconv.Itoa(period)},
			{"cpu.weight", weight},
			{"cgroup.subtree_control", "+memory +pids +cpu"},
		} {
			if err := write(dir, kv[0], kv[1]); err != nil && kv[0] != "memory.swap.max" {
				return err
			}
		}
	}
	return nil
}

// GroupUsage is what a cgroup has used: CPU time since it was made and memory now
// (processes, and tmpfs pages written from inside it).
type GroupUsage struct {
	CPU         time.Duration
	MemoryBytes int64
}

// readUsage reads the usage of the group at rel (below each hierarchy's root).
func readUsage(mode cgroupMode, rel string) (GroupUsage, error) {
	var u GroupUsage
	readInt := func(path string) (int64, error) {
		b, err := os.ReadFile(path)
		if err != nil {
			return 0, err
		}
		return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	}
	switch mode {
	case cgroupV1:
		mem, err := readInt(filepath.Join(cgroupRoot, "memory", rel, "memory.usage_in_bytes"))
		if err != nil {
			return u, err
		}
		u.MemoryBytes = mem
		acct := "cpuacct"
		if !contains(v1Controllers(), "cpuacct") {
			acct = "cpu" // cpu and cpuacct share one hierarchy
		}
		ns, err := readInt(filepath.Join(cgroupRoot, acct, rel, "cpuacct.usage"))
		if err != nil {
			return u, err
		}
		u.CPU = time.Duration(ns)
	case cgroupV2:
		mem, err := readInt(filepath.Join(cgroupRoot, rel, "memory.current"))
		if err != nil {
			return u, err
		}
		u.MemoryBytes = mem
		b, err := os.ReadFile(filepath.Join(cgroupRoot, rel, "cpu.stat"))
		if err != nil {
			return u, err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "usage_usec" {
				us, _ := strconv.ParseInt(f[1], 10, 64)
				u.CPU = time.Duration(us) * time.Microsecond
			}
		}
	default:
		return u, errors.New("no cgroups on this host")
	}
	return u, nil
}

// detectCgroups picks the richest mode that works here. Hosts mix both versions (this
// one has v1 controllers and an empty unified hierarchy), so each is probed by creating
// a group, not by the mount type alone.
func detectCgroups(parent string) cgroupMode {
	if os.Geteuid() != 0 {
		return cgroupNone
	}
	if ctl, err := os.ReadFile(filepath.Join(cgroupRoot, "cgroup.controllers")); err == nil {
		have := strings.Fields(string(ctl))
		if contains(have, "memory") && contains(have, "pids") {
			if err := v2Prepare(parent); err == nil {
				return cgroupV2
			}
		}
	}
	ok := true
	for _, c := range v1Controllers() {
		dir := filepath.Join(cgroupRoot, c, parent)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			ok = false
			break
		}
	}
	if ok {
		return cgroupV1
	}
	return cgroupNone
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// v2Prepare creates the parent group and delegates the controllers to its children.
func v2Prepare(parent string) error {
	dir := filepath.Join(cgroupRoot, parent)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cgroupRoot, "cgroup.subtree_control"), []byte("+memory +pids +cpu"), 0); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory +pids +cpu"), 0)
}

// cgroup is one sandbox's group in every hierarchy it uses.
type cgroup struct {
	mode cgroupMode
	dirs []string // one per controller (v1) or the one group (v2)
}

// newCgroup creates the sandbox's group, applies the limits and lets uid move itself in.
func newCgroup(mode cgroupMode, parent, id string, l Limits, uid int) (*cgroup, error) {
	cg := &cgroup{mode: mode}
	write := func(dir, file, val string) error {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(val), 0); err != nil {
			return fmt.Errorf("cgroup %s: %w", file, err)
		}
		return nil
	}
	period := 100000
	quota := strconv.Itoa(int(l.CPUs * float64(period)))
	switch mode {
	case cgroupV1:
		for _, c := range v1Controllers() {
			dir := filepath.Join(cgroupRoot, c, parent, id)
			if err := os.Mkdir(dir, 0o755); err != nil {
				cg.remove()
				return nil, fmt.Errorf("cgroup %s: %w", c, err)
			}
			cg.dirs = append(cg.dirs, dir)
			var err error
			switch c {
			case "memory":
				if err = write(dir, "memory.limit_in_bytes", strconv.FormatInt(l.MemoryBytes, 10)); err == nil {
					// Swap is bounded too where the kernel accounts it; absent otherwise.
					_ = write(dir, "memory.memsw.limit_in_bytes", strconv.FormatInt(l.MemoryBytes, 10))
				}
			case "pids":
				err = write(dir, "pids.max", strconv.Itoa(l.Pids))
			case "cpu":
				if err = write(dir, "cpu.cfs_period_us", strconv.Itoa(period)); err == nil {
					err = write(dir, "cpu.cfs_quota_us", quota)
				}
			}
			if err == nil && uid >= 0 {
				// The unprivileged launcher writes its own PID here before exec'ing bwrap;
				// v1 lets a process move itself when it may write the file.
				err = os.Chown(filepath.Join(dir, "cgroup.procs"), uid, -1)
			}
			if err != nil {
				cg.remove()
				return nil, err
			}
		}
	case cgroupV2:
		dir := filepath.Join(cgroupRoot, parent, id)
		if err := os.Mkdir(dir, 0o755); err != nil {
			return nil, fmt.Errorf("cgroup: %w", err)
		}
		cg.dirs = []string{dir}
		for _, kv := range [][2]string{
			{"memory.max", strconv.FormatInt(l.MemoryBytes, 10)},
			{"memory.swap.max", "0"},
			{"pids.max", strconv.Itoa(l.Pids)},
			{"cpu.max", quota + " " + strconv.Itoa(period)},
		} {
			if err := write(dir, kv[0], kv[1]); err != nil && kv[0] != "memory.swap.max" {
				cg.remove()
				return nil, err
			}
		}
	}
	return cg, nil
}

// procsFiles are the files the launcher writes its PID to (v1 only; v2 places the
// process at clone time).
func (cg *cgroup) procsFiles() []string {
	if cg == nil || cg.mode != cgroupV1 {
		return nil
	}
	out := make([]string, len(cg.dirs))
	for i, d := range cg.dirs {
		out[i] = filepath.Join(d, "cgroup.procs")
	}
	return out
}

// openV2 returns the group folder for SysProcAttr.CgroupFD (v2 only).
func (cg *cgroup) openV2() (*os.File, error) {
	if cg == nil || cg.mode != cgroupV2 {
		return nil, nil
	}
	return os.Open(cg.dirs[0])
}

func (cg *cgroup) pids() []int {
	if cg == nil || len(cg.dirs) == 0 {
		return nil
	}
	var out []int
	seen := map[int]bool{}
	for _, d := range cg.dirs {
		f, err := os.Open(filepath.Join(d, "cgroup.procs"))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if pid, err := strconv.Atoi(strings.TrimSpace(sc.Text())); err == nil && !seen[pid] {
				seen[pid] = true
				out = append(out, pid)
			}
		}
		f.Close()
	}
	return out
}

// kill ends every process in the group, including ones that left their session or
// process group, and waits up to wait for the group to empty.
func (cg *cgroup) kill(wait time.Duration) error {
	if cg == nil || len(cg.dirs) == 0 {
		return nil
	}
	switch cg.mode {
	case cgroupV2:
		if err := os.WriteFile(filepath.Join(cg.dirs[0], "cgroup.kill"), []byte("1"), 0); err != nil {
			for _, pid := range cg.pids() {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	case cgroupV1:
		freezer := ""
		for _, d := range cg.dirs {
			if strings.Contains(d, "/freezer/") {
				freezer = d
			}
		}
		if freezer != "" {
			_ = os.WriteFile(filepath.Join(freezer, "freezer.state"), []byte("FROZEN"), 0)
		}
		for _, pid := range cg.pids() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if freezer != "" {
			_ = os.WriteFile(filepath.Join(freezer, "freezer.state"), []byte("THAWED"), 0)
		}
	}
	deadline := time.Now().Add(wait)
	for {
		left := cg.pids()
		if len(left) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes %v survived the kill", left)
		}
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// remove deletes the (empty) group.
func (cg *cgroup) remove() error {
	if cg == nil {
		return nil
	}
	var errs []error
	for _, d := range cg.dirs {
		if err := os.Remove(d); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	cg.dirs = nil
	return errors.Join(errs...)
}

// oomKills counts the OOM kills in the group so far; a rise across a command explains
// its "exit 137".
func (cg *cgroup) oomKills() int {
	if cg == nil {
		return 0
	}
	for _, d := range cg.dirs {
		file := ""
		switch {
		case cg.mode == cgroupV1 && strings.Contains(d, "/memory/"):
			file = "memory.oom_control"
		case cg.mode == cgroupV2:
			file = "memory.events"
		default:
			continue
		}
		b, _ := os.ReadFile(filepath.Join(d, file))
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "oom_kill" {
				n, _ := strconv.Atoi(f[1])
				return n
			}
		}
	}
	return 0
}
