// Command koda-bench prints the render figures `make bench` reports: the wall time and
// frames per second of the demo project's preview (5 s at 640×360, 15 fps) and final
// (5 s at 1920×1080, 60 fps) renders, with peak memory of the render's processes.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox/local"
)

const demoPrompt = "A playful red ball bounces across the screen, then the text 'Hello from Koda' appears"

func main() {
	duration := flag.Float64("duration", 5, "seconds of video per render")
	browsers := flag.Int("browsers", runtime.NumCPU(), "browser processes per render")
	flag.Parse()
	if err := run(context.Background(), *duration, *browsers); err != nil {
		fmt.Fprintln(os.Stderr, "koda-bench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, duration float64, browsers int) error {
	work, err := os.MkdirTemp("", "koda-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	quiet := slog.New(slog.DiscardHandler)

	// The demo project, written by the builtin agent as `koda demo` would.
	sandboxes := local.New(local.Config{Root: filepath.Join(work, "sandboxes"), Logger: quiet})
	defer sandboxes.Close(ctx)
	sb, err := sandboxes.Create(ctx, koda.SandboxSpec{ProjectID: "bench"})
	if err != nil {
		return err
	}
	agent := builtin.New(quiet)
	p := &koda.Project{ID: "bench", Prompt: demoPrompt, DurationS: duration, Style: koda.StylePlayful}
	if p.Plan, err = agent.Plan(ctx, p, ""); err != nil {
		return err
	}
	p.Execution.Todos = p.Plan.Todos
	if err := agent.Generate(ctx, p, sb, nopReporter{}); err != nil {
		return err
	}

	r := renderer.New(renderer.Config{Browsers: browsers, Logger: quiet})
	fmt.Printf("Demo project render times (%d CPU cores, %d browser processes per render)\n", runtime.NumCPU(), browsers)
	fmt.Printf("%-8s %-22s %7s %9s %9s %10s\n", "preset", "output", "frames", "wall", "frames/s", "peak RSS")
	for _, name := range []string{"preview", "final"} {
		preset, _ := koda.LookupPreset(name)
		out := filepath.Join(work, name+".mp4")
		peak := startPeakRSS()
		start := time.Now()
		res, err := r.Render(ctx, koda.RenderRequest{Dir: sb.Dir(), Preset: preset, DurationS: duration,
			VideoPath: out, ThumbnailPath: filepath.Join(work, name+".jpg")}, func(koda.RenderProgress) {})
		wall := time.Since(start)
		rss := peak.Stop()
		if err != nil {
			return fmt.Errorf("render %s: %w", name, err)
		}
		fmt.Printf("%-8s %-22s %7d %8.2fs %9.1f %8.0f MiB\n", name,
			fmt.Sprintf("%gs %dx%d@%d", duration, preset.Width, preset.Height, preset.FPS),
			res.Frames, wall.Seconds(), float64(res.Frames)/wall.Seconds(), float64(rss)/(1<<20))
	}
	return nil
}

type nopReporter struct{}

func (nopReporter) TodoUpdate(context.Context, string, koda.TodoStatus) {}
func (nopReporter) Thinking(context.Context, string)                    {}
func (nopReporter) Message(context.Context, string, string)             {}
func (nopReporter) FileWritten(context.Context, string, int64)          {}
