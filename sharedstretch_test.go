package koda

import (
	"encoding/json"
	"testing"
)

func TestSharedStretchFrames(t *testing.T) {
	for _, c := range []struct {
		s          SharedStretch
		fps, total int
		head, tail int
		ok         bool
	}{
		{SharedStretch{HeadS: 1.5}, 30, 180, 45, 180, true},           // frames 0..44 show t < 1.5
		{SharedStretch{HeadS: 1.51}, 30, 180, 46, 180, true},          // frame 45 (1.5 s) is before 1.51
		{SharedStretch{HeadS: 1.5, TailS: 5}, 30, 180, 45, 151, true}, // frame 150 shows t = 5: the row's
		{SharedStretch{TailS: 4.9}, 60, 360, 0, 295, true},
		{SharedStretch{TailS: 5.5}, 60, 360, 0, 360, false},             // 29 frames: less than a second
		{SharedStretch{HeadS: 1.5, TailS: 5.8}, 30, 180, 45, 180, true}, // the tail's 5 frames are not worth a part
		{SharedStretch{HeadS: 0.34}, 15, 15, 0, 15, false},              // 1 s preview: 5 frames do not pay for the join
		{SharedStretch{HeadS: 0.05}, 30, 180, 0, 180, false},
		{SharedStretch{HeadS: 7}, 30, 180, 0, 180, false}, // nothing of the row's own
		{SharedStretch{}, 30, 180, 0, 180, false},
	} {
		head, tail, ok := c.s.Frames(c.fps, c.total)
		if head != c.head || tail != c.tail || ok != c.ok {
			t.Errorf("%+v at %d fps, %d frames: %d, %d, %v; want %d, %d, %v", c.s, c.fps, c.total, head, tail, ok, c.head, c.tail, c.ok)
		}
	}
}

func TestSharedStretchOf(t *testing.T) {
	meta, _ := json.Marshal(map[string]any{"batch_id": "bat_1", MetaSharedStretch: SharedStretch{HeadS: 2}})
	if s, ok := SharedStretchOf(meta); !ok || s.HeadS != 2 {
		t.Errorf("got %+v, %v", s, ok)
	}
	for _, m := range []string{``, `{}`, `{"shared_stretch":{}}`, `[1]`} {
		if s, ok := SharedStretchOf(json.RawMessage(m)); ok {
			t.Errorf("%s: got %+v", m, s)
		}
	}
}
