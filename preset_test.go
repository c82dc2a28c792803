package koda_test

import (
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
	webm, fast := hd, hd
	webm.Format, fast.Format, fast.EncoderSpeed = koda.FormatWebM, koda.FormatWebM, "ultrafast"
	if !webm.SameOutput(fast) {
		t.Error("VP9 ignores the encoder speed, yet two webm specs differing only in it are two outputs")
	}
}
