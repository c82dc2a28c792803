package builtin_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/scene"
)

func snapshot(t *testing.T, sb koda.Sandbox) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range []string{scene.FileIndex, scene.FileRuntime, scene.FileScene, scene.FileJSON} {
		b, err := sb.ReadFile(context.Background(), f, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(b)
	}
	return out
}

func bounceAmps(d *scene.Description) []float64 {
	var out []float64
	for _, m := range d.Element("ball-1").Motions {
		if m.Type == scene.MotionBounce {
			out = append(out, m.Amp)
		}
	}
	return out
}

func TestRevise(t *testing.T) {
	tests := []struct {
		feedback string
		check    func(t *testing.T, before, after *scene.Description, p *koda.Project, msg string)
	}{
		{"make the bounce higher", func(t *testing.T, before, after *scene.Description, _ *koda.Project, _ string) {
			b, a := bounceAmps(before), bounceAmps(after)
			higher := false
			for i := range b {
				if a[i] < b[i] {
					t.Errorf("bounce %d went down: %g → %g", i, b[i], a[i])
				}
				higher = higher || a[i] > b[i]*1.2
			}
			if !higher || after.Duration != before.Duration {
				t.Errorf("amps %v → %v, duration %g → %g", b, a, before.Duration, after.Duration)
			}
		}},
		{"faster", func(t *testing.T, before, after *scene.Description, p *koda.Project, _ string) {
			if after.Duration >= before.Duration || p.Plan.DurationS != after.Duration {
				t.Errorf("duration %g → %g, plan %g", before.Duration, after.Duration, p.Plan.DurationS)
			}
			if got := p.Plan.Scenes[len(p.Plan.Scenes)-1].EndS; got != after.Duration {
				t.Errorf("plan ends at %g", got)
			}
		}},
		{"the ball should be blue", func(t *testing.T, _, after *scene.Description, p *koda.Project, _ string) {
			if c := after.Element("ball-1").Color; c != "#1e88e5" {
				t.Errorf("ball colour %s", c)
			}
			if !strings.Contains(p.Plan.Scenes[0].Description, "ball #1e88e5") {
				t.Errorf("plan palette not updated: %s", p.Plan.Scenes[0].Description)
			}
		}},
		{"add the text 'Launch day'", func(t *testing.T, before, after *scene.Description, _ *koda.Project, _ string) {
			if len(after.Elements) != len(before.Elements)+1 {
				t.Fatalf("%d → %d elements", len(before.Elements), len(after.Elements))
			}
			e := after.Elements[len(after.Elements)-1]
			if e.Type != scene.TypeText || e.Text != "Launch day" || e.Start >= after.Duration {
				t.Errorf("new element %+v", e)
			}
			if after.Element("text-1").Text != "Hello from Koda" {
				t.Errorf("the first title changed")
			}
		}},
		{"make it 10 seconds", func(t *testing.T, before, after *scene.Description, p *koda.Project, _ string) {
			if after.Duration != 10 || p.Plan.DurationS != 10 {
				t.Errorf("duration %g, plan %g", after.Duration, p.Plan.DurationS)
			}
			f := 10 / before.Duration
			if got, want := after.Element("text-1").Start, before.Element("text-1").Start*f; got-want > 0.01 || want-got > 0.01 {
				t.Errorf("title starts at %g, want %g (scaled)", got, want)
			}
		}},
		{"faster but smoother", func(t *testing.T, before, after *scene.Description, _ *koda.Project, msg string) {
			if after.Duration >= before.Duration {
				t.Errorf("not faster: %g → %g", before.Duration, after.Duration)
			}
			js, _ := after.JSON()
			if strings.Contains(string(js), "easeOutBack") || strings.Contains(string(js), "easeOutElastic") {
				t.Errorf("overshooting easings remain")
			}
			if !strings.Contains(msg, "faster") || !strings.Contains(msg, "gentler easing") {
				t.Errorf("message does not explain the interpretation: %s", msg)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.feedback, func(t *testing.T) {
			p, sb, _ := generate(t, demoPrompt, "", 0)
			before := snapshot(t, sb)
			bd := readScene(t, sb)
			rec := &recorder{}
			msg, err := builtin.New(nil).Revise(context.Background(), p, tc.feedback, sb, rec)
			if err != nil {
				t.Fatal(err)
			}
			after := snapshot(t, sb)
			if after[scene.FileIndex] != before[scene.FileIndex] || after[scene.FileRuntime] != before[scene.FileRuntime] {
				t.Error("index.html or runtime.js changed")
			}
			if after[scene.FileJSON] == before[scene.FileJSON] || after[scene.FileScene] == before[scene.FileScene] {
				t.Error("scene files unchanged")
			}
			if strings.Join(rec.files, ",") != "scene.json,scene.js" {
				t.Errorf("files written %v", rec.files)
			}
			if !strings.Contains(msg, "Changed ") || !strings.Contains(msg, "\n+ ") {
				t.Errorf("message lacks the change and its diff: %s", msg)
			}
			t.Log(msg)
			tc.check(t, bd, readScene(t, sb), p, msg)
		})
	}
}

func TestReviseUnknownFeedbackChangesNothing(t *testing.T) {
	p, sb, _ := generate(t, demoPrompt, "", 0)
	before := snapshot(t, sb)
	msg, err := builtin.New(nil).Revise(context.Background(), p, "hmm, not sure about it", sb, &recorder{})
	if err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, sb); after[scene.FileJSON] != before[scene.FileJSON] {
		t.Error("scene changed on feedback that names nothing")
	}
	if !strings.Contains(msg, "unchanged") {
		t.Errorf("message %q", msg)
	}
}

func TestReviseRendersNewColour(t *testing.T) {
	p, sb, _ := generate(t, demoPrompt, "", 0)
	if _, err := builtin.New(nil).Revise(context.Background(), p, "the ball should be green", sb, &recorder{}); err != nil {
		t.Fatal(err)
	}
	c := render(t, browser(t), sb.Dir(), 640, 360, p.Plan.DurationS/2)
	if g, r := colorShare(c.frames[0], "#43a047", 60), colorShare(c.frames[0], "#e53935", 60); g < 0.004 || r > 0.0005 {
		t.Errorf("green %.3f%%, red %.3f%%", g*100, r*100)
	}
}
