package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/renderer"
)

const demoPrompt = "A playful red ball bounces across the screen, then the text 'Hello from Koda' appears"

func demoCommand(stdout, stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "start Koda on embedded defaults, render a sample prompt end to end, print where the videos are, and stop",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "prompt", Value: demoPrompt, Usage: "what to animate"},
			&cli.StringFlag{Name: "presets", Value: "final", Usage: "comma-separated final presets, e.g. final,tiktok"},
			&cli.FloatFlag{Name: "duration", Value: 5, Usage: "video length in seconds"},
			&cli.DurationFlag{Name: "timeout", Value: 15 * time.Minute, Usage: "give up after this long"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			cfg, err := config.FromCommand(cmd)
			if err != nil {
				return err
			}
			if !cmd.IsSet("addr") {
				cfg.Addr = "127.0.0.1:0" // never collide with a running server
			}
			if err := checkBinaries(cfg); err != nil {
				return err
			}
			// Logs go to a file so the terminal shows the demo's progress.
			logPath := filepath.Join(cfg.DataDir, "demo.log")
			logFile, err := openLog(logPath)
			if err != nil {
				return err
			}
			defer logFile.Close()
			m := &Main{Config: cfg, Logger: newLogger(cfg, logFile), API: true, Pools: config.AllPools, GenerateKey: true}
			if err := m.Open(ctx); err != nil {
				return err
			}
			defer m.Close()
			fmt.Fprintf(stdout, "Koda is running at %s (logs: %s)\nAPI key: %s\n", m.PublicURL, logPath, m.APIKey)
			fmt.Fprintln(stdout, dashboardHelp(m.PublicURL, m.AdminKey, cfg.AdminKey == "", cfg.DataDir))
			d := &demo{base: m.PublicURL, key: m.APIKey, out: stdout, storageDir: filepath.Join(cfg.DataDir, "storage")}
			ctx, cancel := context.WithTimeout(ctx, cmd.Duration("timeout"))
			defer cancel()
			return d.run(ctx, cmd.String("prompt"), strings.Split(cmd.String("presets"), ","), cmd.Float("duration"))
		},
	}
}

func checkBinaries(cfg *config.Config) error {
	chromium := cfg.Chromium
	if chromium == "" {
		chromium = renderer.FindChromium()
	}
	for _, bin := range []string{chromium, cfg.FFmpeg} {
		if bin == "" {
			return fmt.Errorf("chromium was not found; install it (apt-get install chromium-headless-shell) or set KODA_CHROMIUM")
		}
		if _, err := exec.LookPath(bin); err != nil {
			return fmt.Errorf("%s was not found; install it (apt-get install chromium-headless-shell ffmpeg) or set KODA_CHROMIUM/KODA_FFMPEG", bin)
		}
	}
	return nil
}

type demo struct {
	base       string
	key        string
	out        io.Writer
	storageDir string
}

type demoProject struct {
	ID      string `json:"id"`
	Phase   string `json:"phase"`
	Error   *struct{ Code, Message string }
	Preview *struct {
		VideoURL string `json:"video_url"`
	} `json:"preview"`
	Renders []struct {
		ID       string  `json:"id"`
		Kind     string  `json:"kind"`
		Status   string  `json:"status"`
		VideoURL string  `json:"video_url"`
		ThumbURL string  `json:"thumbnail_url"`
		RenderMS int64   `json:"render_ms"`
		Duration float64 `json:"duration_s"`
		Preset   struct {
			Name               string
			Width, Height, FPS int
		} `json:"preset"`
		Progress struct {
			Stage       string  `json:"stage"`
			Percent     float64 `json:"percent"`
			FramesDone  int     `json:"frames_done"`
			FramesTotal int     `json:"frames_total"`
		} `json:"progress"`
		Error *struct{ Code, Message string } `json:"error"`
	} `json:"renders"`
}

func (d *demo) run(ctx context.Context, prompt string, presets []string, duration float64) error {
	body, _ := json.Marshal(map[string]any{
		"prompt": prompt, "auto_approve": true, "presets": presets, "duration_s": duration,
	})
	fmt.Fprintf(d.out, "Submitting: %q\n", prompt)
	var p demoProject
	if err := d.call(ctx, http.MethodPost, "/v1/projects", body, &p); err != nil {
		return err
	}
	fmt.Fprintf(d.out, "Project %s accepted\n", p.ID)
	phase := ""
	bars := map[string]*meter{}
	tty := isTerminal(d.out)
	tick := time.NewTicker(300 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("demo did not finish: %w", ctx.Err())
		case <-tick.C:
		}
		if err := d.call(ctx, http.MethodGet, "/v1/projects/"+p.ID, nil, &p); err != nil {
			return err
		}
		if p.Phase != phase {
			phase = p.Phase
			fmt.Fprintf(d.out, "phase: %s\n", phase)
		}
		if p.Phase == "error" && p.Error != nil {
			return fmt.Errorf("project failed: %s: %s", p.Error.Code, p.Error.Message)
		}
		finished := 0
		finals := 0
		for _, r := range p.Renders {
			bar := bars[r.ID]
			if bar == nil && r.Status != "queued" {
				bar = newMeter(d.out, fmt.Sprintf("%-7s %s %dx%d@%d", r.Kind, r.Preset.Name, r.Preset.Width, r.Preset.Height, r.Preset.FPS), tty)
				bars[r.ID] = bar
			}
			if bar != nil {
				switch r.Status {
				case "succeeded":
					bar.Finish()
				case "failed":
					bar.Exit()
				default:
					bar.Set(r.Progress.Percent, r.Progress.Stage, r.Progress.FramesDone, r.Progress.FramesTotal)
				}
			}
			if r.Kind == "final" {
				finals++
				if r.Status == "succeeded" || r.Status == "failed" {
					finished++
				}
			}
		}
		if p.Phase == "complete" && finals > 0 && finished == finals {
			return d.report(p)
		}
	}
}

func (d *demo) report(p demoProject) error {
	fmt.Fprintln(d.out, "\nDone. Your videos:")
	failed := 0
	for _, r := range p.Renders {
		if r.Status != "succeeded" {
			failed++
			msg := ""
			if r.Error != nil {
				msg = r.Error.Code + ": " + r.Error.Message
			}
			fmt.Fprintf(d.out, "  %-8s %-16s FAILED %s\n", r.Kind, r.Preset.Name, msg)
			continue
		}
		path := d.localPath(r.VideoURL)
		size := "?"
		if fi, err := os.Stat(path); err == nil {
			size = fmt.Sprintf("%.1f MB", float64(fi.Size())/1e6)
			if fi.Size() < 1e6 {
				size = fmt.Sprintf("%d KB", (fi.Size()+999)/1000)
			}
		}
		fmt.Fprintf(d.out, "  %-8s %-16s %s  (%dx%d, %.1fs, %s, rendered in %.1fs)\n", r.Kind, r.Preset.Name, path,
			r.Preset.Width, r.Preset.Height, r.Duration, size, float64(r.RenderMS)/1000)
	}
	fmt.Fprintf(d.out, "Thumbnails sit next to each video (.jpg).\n"+
		"To watch the queues in Asynqmon, run `koda serve` and open the dashboard it prints.\n")
	if failed > 0 {
		return fmt.Errorf("%d render(s) failed", failed)
	}
	return nil
}

// localPath turns a signed file URL into the file's path under the storage folder.
func (d *demo) localPath(fileURL string) string {
	u, err := url.Parse(fileURL)
	if err != nil {
		return fileURL
	}
	key := strings.TrimPrefix(u.Path, "/files/")
	abs, err := filepath.Abs(filepath.Join(d.storageDir, filepath.FromSlash(key)))
	if err != nil {
		return fileURL
	}
	return abs
}

func (d *demo) call(ctx context.Context, method, path string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, d.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+d.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, b)
	}
	return json.Unmarshal(b, out)
}
