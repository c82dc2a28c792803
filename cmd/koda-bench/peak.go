package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// peakRSS samples the resident memory of this process and all its descendants
// (browsers, ffmpeg) and keeps the highest total seen.
type peakRSS struct {
	stop chan struct{}
	wg   sync.WaitGroup
	max  int64
}

func startPeakRSS() *peakRSS {
	p := &peakRSS{stop: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			if n := treeRSS(os.Getpid()); n > p.max {
				p.max = n
			}
			select {
			case <-p.stop:
				return
			case <-t.C:
			}
		}
	}()
	return p
}

// Stop ends sampling and returns the peak in bytes.
func (p *peakRSS) Stop() int64 {
	close(p.stop)
	p.wg.Wait()
	return p.max
}

// treeRSS sums VmRSS over root and its descendants, read from /proc.
func treeRSS(root int) int64 {
	entries, _ := filepath.Glob("/proc/[0-9]*/stat")
	parent := map[int]int{}
	for _, e := range entries {
		b, err := os.ReadFile(e)
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may contain spaces, so split after ')'.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		pid, _ := strconv.Atoi(strings.Fields(s)[0])
		if len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
	}
	var total int64
	for pid := range parent {
		for q := pid; q > 1; q = parent[q] {
			if q == root {
				total += rss(pid)
				break
			}
		}
	}
	return total
}

func rss(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}
