package builtin_test

import (
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent"
	"github.com/kodahq/koda/agent/critic"
)

// Every scene the builtin agent writes for the suite's prompts has passed its critic:
// nothing outside the frame or the safe area, no squeezed or overlapping text, readable
// contrast, something on screen at every hold — in the prompt's own frame shape.
func TestGeneratedScenesPassTheCritic(t *testing.T) {
	prompts, err := agent.SuitePrompts()
	if err != nil {
		t.Fatal(err)
	}
	for _, sp := range prompts {
		_, sb, _ := generate(t, sp.Prompt, "", 0)
		d := readScene(t, sb)
		if ps := critic.Check(d, critic.FrameFor(sp.Expect.Aspect)); len(ps) > 0 {
			t.Errorf("%s: the critic left %d problems, first: %s", sp.ID, len(ps), ps[0])
		}
	}
}

// A project that also renders for TikTok gets its landscape composition checked in the
// vertical frame too, and the fixes are told to the user.
func TestGenerateCriticChecksEveryPreset(t *testing.T) {
	p, sb, rec := generateWith(t, &koda.Project{Prompt: "Two planets orbit around a yellow sun in space",
		Presets: []koda.PresetSpec{{Name: "tiktok", Width: 1080, Height: 1920, FPS: 30}}})
	d := readScene(t, sb)
	frames := []critic.Frame{critic.Landscape, {Name: "tiktok", W: 1080, H: 1920}}
	if ps := critic.Check(d, frames...); len(ps) > 0 {
		t.Errorf("problems left: %v", ps)
	}
	_ = p
	note := strings.Join(rec.messages, "\n")
	if !strings.Contains(note, "Before the preview I checked the frames") || !strings.Contains(note, "tiktok") {
		t.Errorf("no message says what the critic fixed for the tiktok frame: %q", note)
	}
}

// TestCriticKeepsATravellerSeen: a boat whose later clause slides it in from off the
// frame is out of the safe area at one hold whatever its size; the critic used to
// shrink it by 90 % a round until it was 0.001 across and gone.
func TestCriticKeepsATravellerSeen(t *testing.T) {
	d, _, _ := generateWithMessages(t, "a paper boat floats past a fallen leaf, speeds up")
	for _, e := range d.Elements {
		if e.Label == "boat" && e.Size < critic.MinShrinkSize {
			t.Errorf("the boat is %g across", e.Size)
		}
	}
}
