package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// clockTicks is USER_HZ, the unit of /proc/stat and /proc/PID/stat times: 100 on every
// Linux architecture Go runs on.
const clockTicks = 100

// usage is what one render cost: wall time, the whole machine's busy CPU time over it
// (/proc/stat: other processes included, which is what a render on a shared machine
// competes with), the CPU time of this process and its descendants alone (see ownCPU),
// and memory.
type usage struct {
	wall         time.Duration
	machineCoreS float64
	ownCoreS     float64
	mem          memory
}

// meter measures one render: start it just before, stop it just after.
type meter struct {
	began   time.Time
	machine float64
	own     float64
	tree    map[int]float64
	stopPSS func() ([]int64, float64)
}

func startMeter() *meter {
	m := &meter{machine: machineBusy(), own: ownCPU()}
	if cgroupDir == "" {
		m.tree = treeCPU(os.Getpid())
	}
	m.stopPSS = samplePSS()
	m.began = time.Now()
	return m
}

func (m *meter) stop() usage {
	u := usage{wall: time.Since(m.began)}
	u.machineCoreS = machineBusy() - m.machine
	u.ownCoreS = ownCPU() - m.own
	if cgroupDir == "" {
		// Descendants still running (warm browsers) have not been reaped, so rusage does
		// not count them yet: add what they used while measured.
		for pid, s := range treeCPU(os.Getpid()) {
			u.ownCoreS += s - m.tree[pid]
		}
	}
	samples, sampling := m.stopPSS()
	u.mem = summarise(samples)
	// The sampler runs in this process, so in its cgroup: what reading every process's
	// PSS cost is the meter's, not the render's (on the loaded 2-core machine about 40 ms
	// of CPU per second of render, 4 of a DOM render's 29 own core-s).
	u.ownCoreS -= sampling
	return u
}

// machineBusy is the machine's busy CPU time in seconds since boot: every jiffy of the
// "cpu" line of /proc/stat but idle and iowait.
func machineBusy() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	f := strings.Fields(string(line))
	var busy int64
	for k, v := range f[1:] {
		if k == 3 || k == 4 || k >= 8 { // idle, iowait; guest times are inside user already
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		busy += n
	}
	return float64(busy) / clockTicks
}

// cgroupDir is a cpuacct cgroup (v1) holding this process and so every process it
// starts, once joinCgroup succeeded. Its usage counts all of them, also processes whose
// parent died before reaping them (a browser's renderers when the browser is killed),
// which rusage loses.
var cgroupDir string

const cpuacctRoot = "/sys/fs/cgroup/cpuacct"

// joinCgroup moves this process into a cpuacct cgroup of its own; leave moves it back and
// removes the group. Where that is not allowed, own core-s fall back to rusage.
func joinCgroup() (leave func(), err error) {
	dir := filepath.Join(cpuacctRoot, "koda-renderbench-"+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return func() {}, err
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		_ = os.Remove(dir)
		return func() {}, err
	}
	cgroupDir = dir
	return func() {
		_ = os.WriteFile(filepath.Join(cpuacctRoot, "cgroup.procs"), []byte(strconv.Itoa(os.Getpid())), 0o644)
		// Processes left behind keep the group; it goes once they are gone.
		for range 20 {
			if os.Remove(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}, nil
}

// ownCPU is the CPU time, in seconds, of this process and its descendants: the cgroup's
// usage, or without one rusage (this process and its reaped descendants).
func ownCPU() float64 {
	if cgroupDir != "" {
		if b, err := os.ReadFile(filepath.Join(cgroupDir, "cpuacct.usage")); err == nil {
			ns, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
			return float64(ns) / 1e9
		}
	}
	var self, kids syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

// procs reads every process's parent and CPU seconds (its own, plus its reaped children's).
func procs() (parent map[int]int, cpu map[int]float64) {
	parent, cpu = map[int]int{}, map[int]float64{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name may hold spaces; fields start after its closing parenthesis.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 15 {
			continue
		}
		parent[pid], _ = strconv.Atoi(f[1])
		var ticks int64
		for _, k := range []int{11, 12, 13, 14} { // utime stime cutime cstime
			n, _ := strconv.ParseInt(f[k], 10, 64)
			ticks += n
		}
		cpu[pid] = float64(ticks) / clockTicks
	}
	return parent, cpu
}

// treeCPU is the CPU seconds of every living descendant of root that is not a child of
// another descendant's reaping: each descendant's own time plus its reaped children's.
func treeCPU(root int) map[int]float64 {
	parent, cpu := procs()
	out := map[int]float64{}
	for pid, s := range cpu {
		if isDescendant(parent, pid, root) {
			out[pid] = s
		}
	}
	return out
}

func isDescendant(parent map[int]int, pid, root int) bool {
	for p, n := parent[pid], 0; p != 0 && n < 64; p, n = parent[p], n+1 {
		if p == root {
			return true
		}
	}
	return false
}

// memory summarises a render's PSS samples: the peak, and the means over the first and
// last quarter of the render (flat memory keeps them close).
type memory struct{ peak, first, last int64 }

func summarise(samples []int64) memory {
	var m memory
	if len(samples) == 0 {
		return m
	}
	q := max(1, len(samples)/4)
	mean := func(xs []int64) int64 {
		var sum int64
		for _, x := range xs {
			sum += x
		}
		return sum / int64(len(xs))
	}
	m.peak = slices.Max(samples)
	m.first, m.last = mean(samples[:q]), mean(samples[len(samples)-q:])
	return m
}

// samplePSS samples, every 500 ms (reading PSS is not free), the summed proportional
// set size (PSS: shared pages split between the processes sharing them, so Chromium's
// many processes are not counted several times) of all descendants of this process
// (browsers, their renderers and GPU processes, ffmpeg, peers' Node processes, idle
// warm browsers); stop returns the samples and the CPU seconds taking them cost. The
// sampler keeps an OS thread to itself, so that thread's CPU time is the sampling's.
func samplePSS() (stop func() (samples []int64, cpuS float64)) {
	var samples []int64
	var cost float64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		began := threadCPU()
		defer func() { cost = threadCPU() - began }()
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			samples = append(samples, descendantsPSS(os.Getpid()))
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() ([]int64, float64) { close(done); wg.Wait(); return samples, cost }
}

// threadCPU is the calling OS thread's CPU time in seconds.
func threadCPU() float64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return float64(ts.Nano()) / 1e9
}

func descendantsPSS(root int) int64 {
	parent, _ := procs()
	var sum int64
	for pid := range parent {
		if isDescendant(parent, pid, root) {
			sum += pss(strconv.Itoa(pid))
		}
	}
	return sum
}

// pss returns a process's proportional set size in bytes, 0 if unknown.
func pss(pid string) int64 {
	b, err := os.ReadFile("/proc/" + pid + "/smaps_rollup")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if f := strings.Fields(string(line)); len(f) >= 2 && f[0] == "Pss:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
