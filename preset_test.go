package koda_test

import (
	"fmt"
	"testing"

	"github.com/kodahq/koda"
)

// TestSameOutput: youtube, final and 1080p are one output, whatever their names; any
// field the renderer reads tells specs apart, the duration limit does not, and VP9
// ignores the encoder speed.
func TestSameOutput(t *testing.T) {
	get := func(name string) koda.PresetSpec {
		t.Helper()
		p, err := koda.LookupPreset(name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	youtube, final, hd, p720 := get("youtube"), get("final"), get("1080p"), get("720p")
	if !youtube.SameOutput(final) || !final.SameOutput(hd) || !hd.SameOutput(youtube) {
		t.Error("youtube, final and 1080p are the same 1920x1080@60 CRF 18 mp4 but not one output")
	}
	if hd.SameOutput(p720) || hd.SameOutput(get("1080p30")) {
		t.Error("1080p is the same output as 720p or 1080p30")
	}
	limited := hd
	limited.Name, limited.MaxDurationS = "custom", 30
	if !hd.SameOutput(limited) {
		t.Error("a name and a duration limit change no byte but made another output")
	}
	for name, change := range map[string]func(*koda.PresetSpec){
		"width":  func(p *koda.PresetSpec) { p.Width = 1280 },
		"height": func(p *koda.PresetSpec) { p.Height = 720 },
		"fps":    func(p *koda.PresetSpec) { p.FPS = 30 },
		"crf":    func(p *koda.PresetSpec) { p.CRF = 23 },
		"format": func(p *koda.PresetSpec) { p.Format = koda.FormatWebM },
		"speed":  func(p *koda.PresetSpec) { p.EncoderSpeed = "slow" },
		// The soundtrack is normalised to it: another audio stream.
		"loudness": func(p *koda.PresetSpec) { p.LoudnessLUFS = -23 },
	} {
		other := hd
		change(&other)
		if hd.SameOutput(other) || other.SameOutput(hd) {
			t.Errorf("specs differing in %s are one output", name)
		}
	}
	unset := hd
	unset.EncoderSpeed = "" // stored before speeds existed: rendered at the default
	if !hd.SameOutput(unset) {
		t.Error("an unset encoder speed is not the default one")
	}
	unset = hd
	unset.LoudnessLUFS = 0 // stored before loudness existed, or a custom spec: the default
	if !hd.SameOutput(unset) {
		t.Error("an unset loudness is not the default one")
	}
	webm, fast := hd, hd
	webm.Format, fast.Format, fast.EncoderSpeed = koda.FormatWebM, koda.FormatWebM, "ultrafast"
	if !webm.SameOutput(fast) {
		t.Error("VP9 ignores the encoder speed, yet two webm specs differing only in it are two outputs")
	}
}

// TestCaptureGroups: one row per rule of which presets one capture serves.
func TestCaptureGroups(t *testing.T) {
	get := func(name string) koda.PresetSpec {
		t.Helper()
		p, err := koda.LookupPreset(name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	custom := func(w, h, fps int) koda.PresetSpec {
		return koda.PresetSpec{Name: "custom", Width: w, Height: h, FPS: fps, CRF: 18, Format: koda.FormatMP4}
	}
	for _, tc := range []struct {
		name    string
		specs   []koda.PresetSpec
		want    [][]int
		capture []string // each group's capture, WxH@fps
	}{
		{"one spec is its own capture", []koda.PresetSpec{get("720p")}, [][]int{{0}}, []string{"1280x720@30"}},
		{"1080p60 serves 720p, 1080p30 and 720p60",
			[]koda.PresetSpec{get("1080p"), get("720p"), get("1080p30"), get("720p60")}, [][]int{{0, 1, 2, 3}}, []string{"1920x1080@60"}},
		{"1080p30 and 720p60 alone stay apart: a 1080p60 capture draws more than both",
			[]koda.PresetSpec{get("1080p30"), get("720p60")}, [][]int{{0}, {1}}, []string{"1920x1080@30", "1280x720@60"}},
		{"4k60 serves 1080p", []koda.PresetSpec{get("4k60"), get("1080p")}, [][]int{{0, 1}}, []string{"3840x2160@60"}},
		{"4k30 and 1080p60 stay apart: a 4k60 capture draws more than both",
			[]koda.PresetSpec{get("4k"), get("1080p")}, [][]int{{0}, {1}}, []string{"3840x2160@30", "1920x1080@60"}},
		{"another aspect is captured apart", []koda.PresetSpec{get("1080p"), get("tiktok"), get("720p")},
			[][]int{{0, 2}, {1}}, []string{"1920x1080@60", "1080x1920@30"}},
		{"a rate that does not divide the capture's is captured apart",
			[]koda.PresetSpec{custom(1920, 1080, 60), custom(1280, 720, 24)}, [][]int{{0}, {1}}, []string{"1920x1080@60", "1280x720@24"}},
		{"a divisor joins the group it divides", []koda.PresetSpec{custom(1920, 1080, 50), custom(1280, 720, 30), custom(1280, 720, 25)},
			[][]int{{0, 2}, {1}}, []string{"1920x1080@50", "1280x720@30"}},
		{"every platform preset: 16:9 in one capture, 9:16 in another",
			[]koda.PresetSpec{get("final"), get("1080p"), get("1080p30"), get("720p"), get("720p60"), get("4k"), get("4k60"),
				get("youtube"), get("instagram_reels"), get("tiktok"), get("twitter")},
			[][]int{{0, 1, 2, 3, 4, 5, 6, 7, 10}, {8, 9}}, []string{"3840x2160@60", "1080x1920@30"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := koda.CaptureGroups(tc.specs)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("groups %v, want %v", got, tc.want)
			}
			for g, idx := range got {
				var members []koda.PresetSpec
				for _, i := range idx {
					members = append(members, tc.specs[i])
				}
				c := koda.CaptureSpec(members)
				if s := fmt.Sprintf("%dx%d@%d", c.Width, c.Height, c.FPS); s != tc.capture[g] {
					t.Errorf("group %d captured at %s, want %s", g, s, tc.capture[g])
				}
				for _, m := range members {
					if !m.DerivesFrom(c) {
						t.Errorf("%s does not derive from its group's capture %+v", m.Name, c)
					}
				}
			}
		})
	}
}

// TestPresetLoudness: every named preset normalises a soundtrack to −16 LUFS and says
// so; a spec without a loudness takes the default; a custom one may ask for broadcast's
// −23 or YouTube's −14, but not for a level loudnorm cannot reach.
func TestPresetLoudness(t *testing.T) {
	for _, name := range koda.PresetNames() {
		p, err := koda.LookupPreset(name)
		if err != nil {
			t.Fatal(err)
		}
		if p.LoudnessLUFS != koda.DefaultLoudnessLUFS || p.Loudness() != -16 {
			t.Errorf("%s: loudness_lufs %g (Loudness %g), want -16", name, p.LoudnessLUFS, p.Loudness())
		}
	}
	if got := (koda.PresetSpec{}).Loudness(); got != koda.DefaultLoudnessLUFS {
		t.Errorf("unset loudness = %g, want the default %g", got, koda.DefaultLoudnessLUFS)
	}
	for _, lufs := range []float64{0, -23, -14, koda.MinLoudnessLUFS, koda.MaxLoudnessLUFS} {
		p := koda.PresetSpec{Width: 1280, Height: 720, FPS: 30, LoudnessLUFS: lufs}
		if err := p.Validate(); err != nil {
			t.Errorf("loudness %g: %v", lufs, err)
		}
	}
	for _, lufs := range []float64{-41, -4, 3} {
		p := koda.PresetSpec{Width: 1280, Height: 720, FPS: 30, LoudnessLUFS: lufs}
		if err := p.Validate(); koda.ErrorCode(err) != koda.CodeInvalidPreset {
			t.Errorf("loudness %g: %v, want %s", lufs, err, koda.CodeInvalidPreset)
		}
	}
}
