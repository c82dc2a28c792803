package scene

import (
	"strings"
	"testing"
)

// TestRepair: what would fail validation but has an obvious lesser reading is mended,
// said, and the result validates (an element placed in itself was a valid prompt's
// AGENT_FAILED).
func TestRepair(t *testing.T) {
	d := &Description{Version: Version, Duration: 4, FPS: 30,
		Background: Background{Colors: []string{"#000000"}},
		Elements: []*Element{
			{ID: "pond", Type: TypeCircle, Size: 0.2, In: "pond", Depicts: "pond"},
			{ID: "leaf", Type: TypeCircle, Size: 0, End: 1, Start: 2,
				Motions: []*Motion{{Type: MotionOrbit, Start: 0, End: 4, Around: "nowhere"}, {Type: MotionSpin, Start: 3, End: 1}}},
			{ID: "leaf", Type: TypeCircle, Size: 3, Tracks: map[string][]Keyframe{"x": {{T: 2, V: 1}, {T: 1, V: 0}}}},
		}}
	if err := d.Validate(); err == nil {
		t.Fatal("the broken scene validates; the test needs it broken")
	}
	notes := d.Repair()
	if err := d.Validate(); err != nil {
		t.Fatalf("after Repair: %v (notes %q)", err, notes)
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{`pond is no longer placed in "pond"`, "orbit", "renamed", "ended before it started"} {
		if !strings.Contains(all, want) {
			t.Errorf("notes %q do not say %q", all, want)
		}
	}
	if d.Elements[0].In != "" || d.Elements[2].ID == "leaf" || d.Elements[2].Size != 2 || d.Elements[2].Tracks["x"][0].T != 1 {
		t.Errorf("not mended: %+v %+v", d.Elements[0], d.Elements[2])
	}
	if again := d.Repair(); len(again) != 0 {
		t.Errorf("a valid scene was repaired again: %q", again)
	}
}
