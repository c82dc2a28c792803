// Command renderbench renders the reference pages with the baseline (the original
// specification's method: one tab, PNG per frame on disk, then ffmpeg) and with Koda's
// renderer, and prints wall time, frames/s, the speed-up and the memory of the child
// processes (peak PSS, and the mean PSS of the first and last quarter of the render) for
// each case. Koda renders each case cold (browsers started for it) and warm (browsers
// kept running from an earlier render, as in a worker).
//
//	go run ./renderer/cmd/renderbench [-cases canvas1080,preview,dom1080] [-baseline=false]
//	go run ./renderer/cmd/renderbench -cases long1080 -baseline=false -warm=false   # 60 s of 1080p60
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/renderer"
)

type benchCase struct {
	name, page, preset string
	durationS          float64
}

var allCases = []benchCase{
	{"canvas1080", "bench_canvas.html", "1080p", 5},
	{"preview", "bench_canvas.html", "preview", 5},
	{"dom1080", "bench_dom.html", "1080p", 5},
	{"dompreview", "bench_dom.html", "preview", 5},
	{"canvas720", "bench_canvas.html", "720p", 5},
	// 60 s of 1080p60 (3,600 frames, several tab restarts): memory must stay flat.
	{"long1080", "bench_canvas.html", "1080p", 60},
}

func main() {
	casesFlag := flag.String("cases", "canvas1080,preview,dom1080", "comma-separated cases: "+caseNames())
	withBaseline := flag.Bool("baseline", true, "also render with the baseline and print the ratio")
	browsers := flag.Int("browsers", runtime.NumCPU(), "browser processes for Koda's renderer")
	pages := flag.String("pages", defaultPages(), "folder holding the reference pages")
	out := flag.String("out", "", "folder for the videos (default: a temporary folder, removed)")
	verbose := flag.Bool("v", false, "log renderer diagnostics")
	quality := flag.Int("jpeg-quality", 0, "JPEG quality of captured frames (default: the renderer's)")
	withWarm := flag.Bool("warm", true, "also render with browsers kept warm from a previous render")
	chromium := flag.String("chromium", "", "browser binary for every renderer (default: renderer.FindChromium)")
	flag.Parse()

	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	dir := *out
	if dir == "" {
		tmp, err := os.MkdirTemp("", "renderbench-*")
		if err != nil {
			fatal(err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	cold := renderer.New(renderer.Config{Logger: log, ChromiumPath: *chromium, Browsers: *browsers, JPEGQuality: *quality})
	// warm keeps its browsers between renders, as a running worker does (KODA_RENDER_KEEP_WARM).
	warm := renderer.New(renderer.Config{Logger: log, ChromiumPath: *chromium, Browsers: *browsers, JPEGQuality: *quality, KeepWarm: 10 * time.Minute})
	defer warm.Close()
	base := renderer.NewBaseline(renderer.Config{Logger: log, ChromiumPath: *chromium})

	fmt.Printf("renderbench: %d CPUs, chromium %s, Koda with %d browsers\n", runtime.NumCPU(), cold.Config().ChromiumPath, *browsers)
	fmt.Println("koda cold starts its browsers for the render; koda warm finds them running, as in a worker")
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\trenderer\tframes\twall s\tcapture s\tframes/s\tspeed-up\tpeak PSS MB\tPSS MB 1st → last quarter\t")
	for _, name := range strings.Split(*casesFlag, ",") {
		c, ok := findCase(strings.TrimSpace(name))
		if !ok {
			fatal(fmt.Errorf("unknown case %q (known: %s)", name, caseNames()))
		}
		fmt.Fprintf(os.Stderr, "renderbench: %s…\n", c.name)
		var baseWall time.Duration
		if *withBaseline {
			res, wall, rss, err := run(ctx, base, c, *pages, filepath.Join(dir, c.name+"-baseline.mp4"))
			if err != nil {
				fatal(fmt.Errorf("%s baseline: %w", c.name, err))
			}
			baseWall = wall
			row(tw, c.name, "baseline", res, wall, rss, "1.00x")
		}
		ratio := func(wall time.Duration) string {
			if baseWall > 0 {
				return fmt.Sprintf("%.2fx", baseWall.Seconds()/wall.Seconds())
			}
			return "-"
		}
		res, wall, rss, err := run(ctx, cold, c, *pages, filepath.Join(dir, c.name+"-koda.mp4"))
		if err != nil {
			fatal(fmt.Errorf("%s koda: %w", c.name, err))
		}
		row(tw, c.name, "koda cold", res, wall, rss, ratio(wall))

		if !*withWarm {
			continue
		}
		// Warm-up, not timed: a short render of the same page starts the browsers.
		short := c
		short.durationS = 2
		if _, _, _, err := run(ctx, warm, short, *pages, filepath.Join(dir, c.name+"-warmup.mp4")); err != nil {
			fatal(fmt.Errorf("%s warm-up: %w", c.name, err))
		}
		res, wall, rss, err = run(ctx, warm, c, *pages, filepath.Join(dir, c.name+"-koda-warm.mp4"))
		if err != nil {
			fatal(fmt.Errorf("%s koda warm: %w", c.name, err))
		}
		row(tw, c.name, "koda warm", res, wall, rss, ratio(wall))
	}
	tw.Flush()
}

func row(tw *tabwriter.Writer, name, who string, res *koda.RenderResult, wall time.Duration, m memory, ratio string) {
	fmt.Fprintf(tw, "%s\t%s\t%d\t%.2f\t%.2f\t%.1f\t%s\t%d\t%d → %d\t\n", name, who, res.Frames, wall.Seconds(),
		res.CaptureTime.Seconds(), float64(res.Frames)/wall.Seconds(), ratio, m.peak>>20, m.first>>20, m.last>>20)
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

func run(ctx context.Context, r koda.Renderer, c benchCase, pages, out string) (*koda.RenderResult, time.Duration, memory, error) {
	preset, err := koda.LookupPreset(c.preset)
	if err != nil {
		return nil, 0, memory{}, err
	}
	stop := samplePSS()
	began := time.Now()
	res, err := r.Render(ctx, koda.RenderRequest{Dir: pages, Entry: c.page, Preset: preset, DurationS: c.durationS, VideoPath: out}, nil)
	wall := time.Since(began)
	return res, wall, summarise(stop()), err
}

// samplePSS samples, every 500 ms (reading PSS is not free), the summed proportional
// set size (PSS: shared pages split between the processes sharing them, so Chromium's
// many processes are not counted several times) of all descendants of this process
// (browsers, their renderers and GPU processes, ffmpeg, idle warm browsers); stop
// returns the samples.
func samplePSS() (stop func() []int64) {
	var samples []int64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
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
	return func() []int64 { close(done); wg.Wait(); return samples }
}

func descendantsPSS(root int) int64 {
	ents, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	rss := map[int]int64{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		for _, line := range bytes.Split(st, []byte("\n")) {
			f := strings.Fields(string(line))
			if len(f) < 2 {
				continue
			}
			if f[0] == "PPid:" {
				parent[pid], _ = strconv.Atoi(f[1])
			}
		}
		rss[pid] = pss(e.Name())
	}
	var sum int64
	for pid, size := range rss {
		for p, n := parent[pid], 0; p != 0 && n < 64; p, n = parent[p], n+1 {
			if p == root {
				sum += size
				break
			}
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

func findCase(name string) (benchCase, bool) {
	for _, c := range allCases {
		if c.name == name {
			return c, true
		}
	}
	return benchCase{}, false
}

func caseNames() string {
	var n []string
	for _, c := range allCases {
		n = append(n, c.name)
	}
	return strings.Join(n, ",")
}

// defaultPages finds renderer/testdata from the repository root or the renderer folder.
func defaultPages() string {
	for _, d := range []string{"renderer/testdata", "testdata", "../../testdata"} {
		if _, err := os.Stat(filepath.Join(d, "bench_canvas.html")); err == nil {
			abs, _ := filepath.Abs(d)
			return abs
		}
	}
	return "renderer/testdata"
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "renderbench:", err)
	os.Exit(1)
}
