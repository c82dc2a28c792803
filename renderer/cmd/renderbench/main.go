// Command renderbench measures Koda's renderer side by side with the renderers a user
// would pick instead, on the same scenes in the same invocation, and with the floor of
// the machine: what drawing the frames in the page and encoding them costs without
// moving a pixel between processes.
//
// Each case (a scene at a size and rate) is rendered by
//   - koda: cold (browsers started for the render), warm (browsers kept from an earlier
//     render, as in a worker), and cold at a faster encoder_speed;
//   - timecut, Remotion and HyperFrames, installed from the npm registry by
//     scripts/install-bench-peers.sh into a cache folder and pointed at Debian's
//     headless shell, each with its concurrency settings (every one is printed; the
//     ratios use its best);
//   - the floor (canvas scenes): the in-page draw and readback loop, and x264 encoding
//     the same raw frames with the same settings;
//   - the per-frame-PNG baseline (the original specification's method), for reference.
//
// For each it prints wall time, frames/s, the whole machine's busy core-seconds over
// the render (from /proc/stat: on a shared machine this includes others' work, so
// compare ratios within one run), the core-seconds of the render's own processes, peak
// memory (PSS of all processes the render started), output size, and the ratios to koda.
// With -scale it also renders 1080p60 of the given durations whole and in two chunks by
// two worker processes at once (joined with renderer.Concat), in frames/s per core.
// With -presets it renders one 5 s project to every platform preset one by one, each
// distinct output once, and grouped into one capture per koda.CaptureGroups group.
// With -templates N it renders N rows of a 6 s template at 720p and tiktok through
// `koda serve`'s template batches and through Remotion's renderMedia with inputProps
// (see templates.go).
//
//	go run ./renderer/cmd/renderbench                      # canvas1080, dom1080, preview; everything
//	go run ./renderer/cmd/renderbench -cases canvas1080 -only koda,floor   # a quick look
//	go run ./renderer/cmd/renderbench -cases none -scale 5,30,120
//	go run ./renderer/cmd/renderbench -cases none -presets all    # one capture for many presets
//	go run ./renderer/cmd/renderbench -cases none -templates 40   # data-driven batch against Remotion
package main

import (
	"context"
	"embed"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/renderer"
)

//go:embed scenes
var scenes embed.FS

type benchCase struct {
	name, scene, preset string
	durationS           float64
}

// page is the scene's page with the export hooks (or, for the DOM scene, none).
func (c benchCase) page() string { return c.scene + ".html" }

var allCases = []benchCase{
	{"canvas1080", "canvas", "1080p", 5},
	{"dom1080", "dom", "1080p", 5},
	{"preview", "canvas", "preview", 5},
	{"dompreview", "dom", "preview", 5},
	{"canvas720", "canvas", "720p", 5},
	// 60 s of 1080p60 (3,600 frames, several tab restarts): memory must stay flat.
	{"long1080", "canvas", "1080p", 60},
}

var allRenderers = []string{"koda", "warm", "fast", "floor", "timecut", "remotion", "hyperframes", "baseline"}

// row is one render's figures.
type row struct {
	cas, who, settings string
	frames             int
	u                  usage
	size               int64
	err                error
	best               bool // the best of a peer's settings
}

func main() {
	casesFlag := flag.String("cases", "canvas1080,dom1080,preview", "comma-separated cases, or none: "+caseNames())
	only := flag.String("only", strings.Join(allRenderers, ","), "comma-separated renderers to run: "+strings.Join(allRenderers, ","))
	fastSpeed := flag.String("fast-speed", "superfast", "the faster encoder_speed koda is also measured at (row \"fast\")")
	scale := flag.String("scale", "", "comma-separated durations (s) of 1080p60 canvas renders for the scale figures, e.g. 5,30,120")
	browsers := flag.Int("browsers", 0, "browser processes per Koda render (default: the renderer's)")
	out := flag.String("out", "", "folder for the videos (default: a temporary folder, removed)")
	verbose := flag.Bool("v", false, "log renderer diagnostics")
	chromium := flag.String("chromium", "", "browser binary for every renderer (default: renderer.FindChromium)")
	peersDir := flag.String("peers", "", "folder of the installed peers (default: run scripts/install-bench-peers.sh)")
	presets := flag.String("presets", "", "all or below4k: one 5 s canvas project to every platform preset (or the nine below 4K), one by one against one capture per group")
	tplRows := flag.Int("templates", 0, "rows of the data-driven throughput benchmark (issue 24: 40): a 6 s template with three text fields and an image, each row its own texts and picture, × 720p and tiktok by koda serve's template batch and by Remotion's renderMedia per row")
	tplConc := flag.String("template-concurrency", "1,2", "Remotion concurrencies tried in -templates (the best is compared)")
	tplImages := flag.Bool("template-row-images", true, "-templates: every row gives the image field a picture of its own (false: every row shows the template's picture, so the frames before the texts appear do not depend on the row)")
	kodaBin := flag.String("koda", "", "koda binary -templates runs as `koda serve` (default: go build ./cmd/koda, untimed)")
	chunk := flag.String("chunk", "", "internal: render frames START:END of a DURATION s canvas render to OUT (START:END:DURATION:PAGES:OUT)")
	flag.Parse()

	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *chromium == "" {
		*chromium = renderer.FindChromium()
	}
	if *chunk != "" {
		if err := renderChunk(ctx, log, *chunk, *browsers); err != nil {
			fatal(err)
		}
		return
	}

	leave, err := joinCgroup()
	defer leave()
	ownHow := "cpuacct cgroup"
	if err != nil {
		ownHow = "rusage (no cgroup: " + err.Error() + ")"
	}

	want := map[string]bool{}
	for _, w := range strings.Split(*only, ",") {
		w = strings.TrimSpace(w)
		if !slices.Contains(allRenderers, w) {
			fatal(fmt.Errorf("unknown renderer %q in -only (known: %s)", w, strings.Join(allRenderers, ",")))
		}
		want[w] = true
	}
	var cases []benchCase
	if *casesFlag != "none" {
		for _, name := range strings.Split(*casesFlag, ",") {
			c, ok := findCase(strings.TrimSpace(name))
			if !ok {
				fatal(fmt.Errorf("unknown case %q (known: %s)", name, caseNames()))
			}
			cases = append(cases, c)
		}
	}
	if !slices.Contains(koda.EncoderSpeeds, *fastSpeed) {
		fatal(fmt.Errorf("-fast-speed %q is not one of %s", *fastSpeed, strings.Join(koda.EncoderSpeeds, ",")))
	}

	dir := *out
	if dir == "" {
		tmp, err := os.MkdirTemp("", "renderbench-*")
		if err != nil {
			fatal(err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	pages := filepath.Join(dir, "pages")
	if err := writeScenes(pages); err != nil {
		fatal(err)
	}

	cfg := renderer.Config{Logger: log, ChromiumPath: *chromium, Browsers: *browsers}
	cold := renderer.New(cfg)
	wcfg := cfg
	wcfg.KeepWarm = 10 * time.Minute // as a running worker does (KODA_RENDER_KEEP_WARM)
	warm := renderer.New(wcfg)
	defer warm.Close()
	base := renderer.NewBaseline(cfg)

	fmt.Printf("renderbench: %d CPUs (load average %s), %s, Koda with %d browsers, encoder_speed %s (and %s in row \"fast\"), own core-s from %s\n",
		runtime.NumCPU(), loadAvg(), *chromium, cold.Config().Browsers, koda.DefaultEncoderSpeed, *fastSpeed, ownHow)

	// The peers, installed and prepared once, untimed.
	env := &peerEnv{chromium: *chromium, ffmpeg: renderer.FindFFmpeg(), pages: pages, work: dir}
	var peerErr error
	// Peers render only the cases: without one there is nothing to install them for.
	if len(cases) > 0 && (want["timecut"] || want["remotion"] || want["hyperframes"]) {
		if env.dir = *peersDir; env.dir == "" {
			env.dir, peerErr = installPeers(ctx)
		}
		url, stopPages, err := servePages(pages)
		if err != nil {
			fatal(err)
		}
		defer stopPages()
		env.pageURL = url
		if peerErr == nil && want["remotion"] && len(cases) > 0 {
			fmt.Fprintln(os.Stderr, "renderbench: bundling the Remotion project (untimed)…")
			env.bundleErr = env.bundleRemotion(ctx, cases)
		}
	}

	var rows []row
	add := func(r row) {
		rows = append(rows, r)
		status := fmt.Sprintf("%.1f s", r.u.wall.Seconds())
		if r.err != nil {
			status = "failed: " + r.err.Error()
		}
		fmt.Fprintf(os.Stderr, "renderbench: %s %s (%s): %s\n", r.cas, r.who, r.settings, status)
	}
	for _, c := range cases {
		if ctx.Err() != nil {
			break // interrupted: print what was measured
		}
		p, err := koda.LookupPreset(c.preset)
		if err != nil {
			fatal(err)
		}
		n := p.Frames(c.durationS)
		kodaRender := func(r koda.Renderer, who, settings string, p koda.PresetSpec) {
			video := filepath.Join(dir, c.name+"-"+strings.ReplaceAll(who, " ", "-")+".mp4")
			m := startMeter()
			res, err := r.Render(ctx, koda.RenderRequest{Dir: pages, Entry: c.page(), Preset: p, DurationS: c.durationS, VideoPath: video}, nil)
			u := m.stop()
			rw := row{cas: c.name, who: who, settings: settings, frames: n, u: u, err: err}
			if err == nil {
				rw.size = res.SizeBytes
			}
			add(rw)
		}
		speedNote := "encoder_speed " + p.EncoderSpeed
		if want["koda"] {
			kodaRender(cold, "koda", speedNote, p)
		}
		// The preview's target is a warm render (a worker keeps its browsers), so the
		// preview case always measures one with koda.
		if want["warm"] || (want["koda"] && c.preset == "preview") {
			// Warm-up, not timed: a short render of the same page starts the browsers.
			if _, err := warm.Render(ctx, koda.RenderRequest{Dir: pages, Entry: c.page(), Preset: p, DurationS: 1,
				VideoPath: filepath.Join(dir, c.name+"-warmup.mp4")}, nil); err != nil {
				add(row{cas: c.name, who: "koda warm", err: fmt.Errorf("warm-up: %w", err)})
			} else {
				kodaRender(warm, "koda warm", speedNote+", browsers kept warm", p)
			}
		}
		if want["fast"] {
			fp := p
			fp.EncoderSpeed = *fastSpeed
			kodaRender(cold, "koda fast", "encoder_speed "+*fastSpeed, fp)
		}
		if want["floor"] && c.scene == "canvas" {
			speeds := []string{p.EncoderSpeed}
			if want["fast"] {
				speeds = append(speeds, *fastSpeed)
			}
			fr, err := measureFloor(ctx, *chromium, pages, dir, c, p, speeds)
			if err != nil {
				add(row{cas: c.name, who: "floor", err: err})
			} else {
				add(row{cas: c.name, who: "floor draw", settings: "in-page seek + getImageData loop", frames: n, u: fr.draw})
				for _, s := range speeds {
					add(row{cas: c.name, who: "floor x264", settings: "raw frames, -preset " + s, frames: n, u: fr.encode[s]})
					add(row{cas: c.name, who: "floor", settings: "draw + x264 " + s, frames: n, u: sumUsage(fr.draw, fr.encode[s])})
				}
			}
		}
		runPeer := func(who string, attempts []attempt, err error) {
			if err != nil {
				add(row{cas: c.name, who: who, err: err})
				return
			}
			first := len(rows)
			for _, a := range attempts {
				u, size, err := runAttempt(a, n)
				add(row{cas: c.name, who: who, settings: a.settings, frames: n, u: u, size: size, err: err})
			}
			markBest(rows[first:])
		}
		if want["timecut"] {
			if peerErr != nil {
				runPeer("timecut", nil, peerErr)
			} else {
				runPeer("timecut", env.timecut(ctx, c, p, p.EncoderSpeed), nil)
			}
		}
		if want["remotion"] {
			switch {
			case peerErr != nil:
				runPeer("remotion", nil, peerErr)
			case env.bundleErr != nil:
				runPeer("remotion", nil, env.bundleErr)
			default:
				runPeer("remotion", env.remotion(ctx, c, p, p.EncoderSpeed), nil)
			}
		}
		if want["hyperframes"] {
			if peerErr != nil {
				runPeer("hyperframes", nil, peerErr)
			} else {
				a, err := env.hyperframes(ctx, c, p)
				runPeer("hyperframes", a, err)
			}
		}
		if want["baseline"] {
			kodaRender(base, "baseline", "reference: one tab, a PNG file per frame, then ffmpeg", p)
		}
	}
	if *scale != "" && ctx.Err() == nil {
		for _, d := range strings.Split(*scale, ",") {
			secs, err := strconv.ParseFloat(strings.TrimSpace(d), 64)
			if err != nil {
				fatal(fmt.Errorf("-scale: %w", err))
			}
			scaleRows(ctx, cold, pages, dir, secs, *browsers, add)
		}
	}
	if *presets != "" && ctx.Err() == nil {
		if err := presetRows(ctx, cold, pages, dir, *presets, add); err != nil {
			fatal(err)
		}
	}
	if len(rows) > 0 {
		printTable(rows)
	}
	if *tplRows > 0 && ctx.Err() == nil {
		concs, err := parseConcs(*tplConc)
		if err != nil {
			fatal(err)
		}
		if env.dir == "" && want["remotion"] {
			if env.dir = *peersDir; env.dir == "" {
				env.dir, err = installPeers(ctx)
			}
			if err != nil {
				env.bundleErr = err
			}
		}
		if !want["remotion"] {
			env.bundleErr = errSkipped
		}
		res, err := templateBench(ctx, env, *kodaBin, *tplRows, concs, *tplImages)
		if err != nil {
			fatal(fmt.Errorf("-templates: %w", err))
		}
		printTemplates(res, *tplRows)
	}
}

// writeScenes writes the embedded scene files to dir.
func writeScenes(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return fs.WalkDir(scenes, "scenes", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := scenes.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, strings.TrimPrefix(path, "scenes/"))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}

// scaleRows renders secs of 1080p60 canvas whole, then in two halves by two worker
// processes at once, joined with renderer.Concat as a chunked render is.
func scaleRows(ctx context.Context, r *renderer.Renderer, pages, dir string, secs float64, browsers int, add func(row)) {
	name := fmt.Sprintf("scale %gs", secs)
	p, _ := koda.LookupPreset("1080p")
	n := p.Frames(secs)
	video := filepath.Join(dir, fmt.Sprintf("scale-%g.mp4", secs))
	m := startMeter()
	res, err := r.Render(ctx, koda.RenderRequest{Dir: pages, Entry: "canvas.html", Preset: p, DurationS: secs, VideoPath: video}, nil)
	whole := row{cas: name, who: "koda", settings: "one render", frames: n, u: m.stop(), err: err}
	if err == nil {
		whole.size = res.SizeBytes
	}
	add(whole)
	_ = os.Remove(video)

	self, err := os.Executable()
	if err != nil {
		add(row{cas: name, who: "koda chunked", err: err})
		return
	}
	half := n / 2
	parts := []string{filepath.Join(dir, fmt.Sprintf("scale-%g-a.mp4", secs)), filepath.Join(dir, fmt.Sprintf("scale-%g-b.mp4", secs))}
	ranges := [][2]int{{0, half}, {half, n}}
	m = startMeter()
	var cmds []*exec.Cmd
	for k, rg := range ranges {
		cmd := exec.CommandContext(ctx, self, "-browsers", strconv.Itoa(browsers),
			"-chunk", fmt.Sprintf("%d:%d:%g:%s:%s", rg[0], rg[1], secs, pages, parts[k]))
		cmd.Stderr = os.Stderr
		if err = cmd.Start(); err != nil {
			break
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if werr := cmd.Wait(); werr != nil && err == nil {
			err = fmt.Errorf("chunk worker: %w", werr)
		}
	}
	if err == nil {
		err = renderer.Concat(ctx, "", parts, video)
	}
	chunked := row{cas: name, who: "koda chunked", settings: "2 worker processes, halves joined", frames: n, u: m.stop(), err: err}
	if st, serr := os.Stat(video); serr == nil {
		chunked.size = st.Size()
	}
	add(chunked)
	for _, f := range append(parts, video) {
		_ = os.Remove(f)
	}
}

// renderChunk is a chunk worker process: it renders one frame range of the canvas scene.
func renderChunk(ctx context.Context, log *slog.Logger, spec string, browsers int) error {
	f := strings.SplitN(spec, ":", 5)
	if len(f) != 5 {
		return fmt.Errorf("-chunk %q: want START:END:DURATION:PAGES:OUT", spec)
	}
	start, err1 := strconv.Atoi(f[0])
	end, err2 := strconv.Atoi(f[1])
	secs, err3 := strconv.ParseFloat(f[2], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return fmt.Errorf("-chunk %q: bad numbers", spec)
	}
	p, _ := koda.LookupPreset("1080p")
	_, err := renderer.New(renderer.Config{Logger: log, Browsers: browsers}).Render(ctx, koda.RenderRequest{
		Dir: f[3], Entry: "canvas.html", Preset: p, DurationS: secs, FrameStart: start, FrameEnd: end, VideoPath: f[4]}, nil)
	return err
}

func sumUsage(a, b usage) usage {
	return usage{wall: a.wall + b.wall, machineCoreS: a.machineCoreS + b.machineCoreS, ownCoreS: a.ownCoreS + b.ownCoreS,
		mem: memory{peak: max(a.mem.peak, b.mem.peak)}}
}

// markBest marks the fastest successful attempt among one peer's rows.
func markBest(rs []row) {
	best := -1
	for k, r := range rs {
		if r.err == nil && (best < 0 || r.u.wall < rs[best].u.wall) {
			best = k
		}
	}
	if best >= 0 {
		rs[best].best = true
	}
}

func printTable(rows []row) {
	ref := map[string]row{} // each case's koda row
	for _, r := range rows {
		if r.who == "koda" && r.err == nil {
			ref[r.cas] = r
		}
	}
	fmt.Println()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "case\trenderer\tsettings\tframes\twall s\tframes/s\tmachine core-s\town core-s\tframes/own core-s\tpeak MB\tsize MB\twall ÷ koda\town core-s ÷ koda\t")
	for _, r := range rows {
		if r.err != nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\tFAILED: %s\t\t\t\t\t\t\t\t\t\t\n", r.cas, r.who, r.settings, oneLine(r.err))
			continue
		}
		who := r.who
		if r.best {
			who += " *"
		}
		size := "-"
		if r.size > 0 {
			size = fmt.Sprintf("%.1f", float64(r.size)/(1<<20))
		}
		wallR, coreR := "-", "-"
		if k, ok := ref[r.cas]; ok {
			wallR = fmt.Sprintf("%.2f", r.u.wall.Seconds()/k.u.wall.Seconds())
			coreR = fmt.Sprintf("%.2f", r.u.ownCoreS/k.u.ownCoreS)
		}
		perCore := "-"
		if r.u.ownCoreS > 0 {
			perCore = fmt.Sprintf("%.1f", float64(r.frames)/r.u.ownCoreS)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%.2f\t%.1f\t%.1f\t%.1f\t%s\t%d\t%s\t%s\t%s\t\n", r.cas, who, r.settings, r.frames,
			r.u.wall.Seconds(), float64(r.frames)/r.u.wall.Seconds(), r.u.machineCoreS, r.u.ownCoreS, perCore,
			r.u.mem.peak>>20, size, wallR, coreR)
	}
	tw.Flush()
	fmt.Println("* the best of a peer's settings. wall ÷ koda above 1: slower than koda cold in the same run.")
	fmt.Println("machine core-s: the whole machine's busy CPU over the render (/proc/stat), others' work included;")
	fmt.Println("own core-s: the render's own processes only, the figure to compare on a busy machine.")
	summary(rows, ref)
}

// summary states, per case, koda's lead over each peer's best and its distance to the floor.
func summary(rows []row, ref map[string]row) {
	var cases []string
	for _, r := range rows {
		if !slices.Contains(cases, r.cas) {
			cases = append(cases, r.cas)
		}
	}
	for _, c := range cases {
		k, ok := ref[c]
		if !ok {
			continue
		}
		// Peers start a fresh browser, as koda cold does; a worker keeps its browsers,
		// as koda warm does. Each lead is given against both, cold first.
		var warm *row
		for _, r := range rows {
			if r.cas == c && r.err == nil && r.who == "koda warm" {
				warm = &r
			}
		}
		lead := func(r row) string {
			s := fmt.Sprintf("%.2f×", r.u.wall.Seconds()/k.u.wall.Seconds())
			if warm != nil {
				s += fmt.Sprintf(" / %.2f×", r.u.wall.Seconds()/warm.u.wall.Seconds())
			}
			return s
		}
		var parts []string
		if warm != nil {
			parts = append(parts, fmt.Sprintf("cold %.2f s / warm %.2f s wall", k.u.wall.Seconds(), warm.u.wall.Seconds()))
		}
		for _, r := range rows {
			if r.cas != c || r.err != nil {
				continue
			}
			switch {
			case r.best:
				parts = append(parts, fmt.Sprintf("%s faster than %s", lead(r), r.who))
			case r.who == "floor" && strings.HasSuffix(r.settings, koda.DefaultEncoderSpeed):
				s := fmt.Sprintf("%.2f× the floor's own core-s cold", k.u.ownCoreS/r.u.ownCoreS)
				if warm != nil {
					s += fmt.Sprintf(", %.2f× warm", warm.u.ownCoreS/r.u.ownCoreS)
				}
				parts = append(parts, s)
			}
		}
		if len(parts) > 0 {
			fmt.Printf("%s: koda %s\n", c, strings.Join(parts, "; "))
		}
	}
}

func oneLine(err error) string {
	s := strings.Join(strings.Fields(err.Error()), " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
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

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "renderbench:", err)
	os.Exit(1)
}
