package main

import (
	"context"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/jobs"
)

// soundAgent is the builtin agent whose generated project also ships a soundtrack.
type soundAgent struct {
	koda.Agent
	track []byte
}

func (a *soundAgent) Generate(ctx context.Context, p *koda.Project, sb koda.Sandbox, r koda.Reporter) error {
	if err := a.Agent.Generate(ctx, p, sb, r); err != nil {
		return err
	}
	_, err := sb.WriteFile(ctx, "assets/music.wav", a.track, false)
	return err
}

// TestSoundtrackInEveryPreset: a project whose files hold a quiet tone shorter than the
// video (0.8 s at about −35 LUFS) is previewed and rendered to youtube (long enough here
// to be split into chunks and stitched), tiktok and instagram_reels (one output, one
// render) and a custom preset asking for −23 LUFS: every video has one audio stream as
// long as itself, the tone looped, at its preset's loudness by ebur128 within ±1 LU.
func TestSoundtrackInEveryPreset(t *testing.T) {
	dir := t.TempDir()
	wav := filepath.Join(dir, "tone.wav")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=0.8,volume=-13dB",
		"-y", wav).CombinedOutput(); err != nil {
		t.Fatalf("make tone: %v: %s", err, out)
	}
	track, err := os.ReadFile(wav)
	if err != nil {
		t.Fatal(err)
	}
	agent := &soundAgent{track: track}
	m := startTuned(t, "", func(m *Main) {
		m.ChunkFrames = 40 // youtube's 120 frames split in three; the others whole
		agent.Agent = builtin.New(m.Logger)
		m.Agent = agent
	})
	c := client{t: t, base: m.PublicURL}
	broadcast := map[string]any{"name": "broadcast", "width": 320, "height": 180, "fps": 15, "loudness_lufs": -23}
	var created project
	if status, _ := c.do(http.MethodPost, "/v1/projects", map[string]any{
		"prompt": "A red ball bounces across the screen", "style": "playful", "duration_s": 2, "auto_approve": true,
		"presets": []any{"youtube", "tiktok", "instagram_reels", broadcast},
	}, &created); status != http.StatusAccepted {
		t.Fatalf("create: %d", status)
	}
	p := c.waitProject(created.ID, 8*time.Minute, "complete with four final renders", func(p project) bool {
		return p.Phase == "complete" && finalsDone(p, 4)
	})
	want := map[string]float64{"preview": -16, "youtube": -16, "tiktok": -16, "instagram_reels": -16, "broadcast": -23}
	seen := map[string]bool{}
	for _, r := range p.Renders {
		target, ok := want[r.Preset.Name]
		if !ok {
			continue
		}
		if r.Status != "succeeded" {
			t.Errorf("%s render %s: %s %+v", r.Preset.Name, r.ID, r.Status, r.Error)
			continue
		}
		seen[r.Preset.Name] = true
		video := download(t, r.VideoURL, t.TempDir(), "v.mp4")
		dur, lufs, tail := soundOf(t, video)
		frame := 1 / float64(r.Preset.FPS)
		if len(dur) != 1 || math.Abs(dur[0]-2) > 2*frame {
			t.Errorf("%s: audio streams of %v s, want one of 2 s ±2 frames", r.Preset.Name, dur)
		}
		if math.Abs(lufs-target) > 1 {
			t.Errorf("%s: %.1f LUFS, want %g ±1", r.Preset.Name, lufs, target)
		}
		if tail < -45 {
			t.Errorf("%s: 1.2–1.7 s at %.1f dB: the 0.8 s tone was not looped", r.Preset.Name, tail)
		}
		t.Logf("%s (%s): audio %v s, %.1f LUFS (target %g), 1.2–1.7 s at %.1f dB", r.Preset.Name, r.Kind, dur, lufs, target, tail)
	}
	if len(seen) != len(want) {
		t.Errorf("checked renders of %v, want %d presets", seen, len(want))
	}
	// youtube's soundtrack came through the stitch of its chunks. asynq marks the
	// stitch completed a moment after the render it finished is visible.
	ins := asynq.NewInspectorFromRedisClient(m.rdb)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		done, err := ins.ListCompletedTasks(jobs.QueueRender)
		if err != nil {
			t.Fatalf("list completed render tasks: %v", err)
		}
		stitched := slices.ContainsFunc(done, func(ti *asynq.TaskInfo) bool { return ti.Type == jobs.KindStitch })
		if stitched {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no stitch task ran: youtube was not split into chunks")
		}
	}
}

var (
	soundLUFS = regexp.MustCompile(`(?s)Summary:.*?I:\s+(-?[0-9.]+) LUFS`)
	soundMean = regexp.MustCompile(`mean_volume:\s+(-?[0-9.]+) dB`)
)

// soundOf returns the durations of video's audio streams, the first one's integrated
// loudness (ebur128) and the mean volume from 1.2 to 1.7 s, where a 0.8 s track that
// was not looped would be silent.
func soundOf(t *testing.T, video string) (durs []float64, lufs, tail float64) {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "a", "-show_entries", "stream=duration",
		"-of", "csv=p=0", video).Output()
	if err != nil {
		t.Fatalf("ffprobe %s: %v", video, err)
	}
	for _, f := range strings.Fields(string(out)) {
		d, _ := strconv.ParseFloat(f, 64)
		durs = append(durs, d)
	}
	if len(durs) == 0 {
		return nil, math.Inf(-1), math.Inf(-1)
	}
	meter, err := exec.Command("ffmpeg", "-hide_banner", "-nostats", "-i", video, "-map", "0:a:0",
		"-af", "ebur128", "-f", "null", "-").CombinedOutput()
	if err != nil {
		t.Fatalf("ebur128 %s: %v: %s", video, err, meter)
	}
	m := soundLUFS.FindSubmatch(meter)
	if m == nil {
		t.Fatalf("ebur128 printed no loudness: %s", meter)
	}
	lufs, _ = strconv.ParseFloat(string(m[1]), 64)
	vol, err := exec.Command("ffmpeg", "-hide_banner", "-nostats", "-i", video, "-map", "0:a:0",
		"-af", "atrim=start=1.2:end=1.7,volumedetect", "-f", "null", "-").CombinedOutput()
	if err != nil {
		t.Fatalf("volumedetect %s: %v: %s", video, err, vol)
	}
	if v := soundMean.FindSubmatch(vol); v != nil {
		tail, _ = strconv.ParseFloat(string(v[1]), 64)
	} else {
		tail = math.Inf(-1)
	}
	return durs, lufs, tail
}
