package koda

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Video container/codec formats.
const (
	FormatMP4  = "mp4"  // H.264 yuv420p, +faststart
	FormatWebM = "webm" // VP9
)

// PresetSpec is a concrete output: a named preset from the table or a custom one.
type PresetSpec struct {
	Name   string `json:"name"` // "custom" for a custom spec
	Width  int    `json:"width"`
	Height int    `json:"height"`
	FPS    int    `json:"fps"`
	CRF    int    `json:"crf"`
	Format string `json:"format"`
	// EncoderSpeed is x264's speed preset for MP4 output (EncoderSpeeds; default
	// DefaultEncoderSpeed): faster speeds trade a larger file for less encoding time.
	// WebM's VP9 always encodes at its realtime speed.
	EncoderSpeed string `json:"encoder_speed,omitempty"`
	// MaxDurationS is the platform's limit on video length; 0 means none.
	MaxDurationS float64 `json:"max_duration_s,omitempty"`
	// LoudnessLUFS is the integrated loudness (EBU R128) a soundtrack is normalised to
	// in this output, between MinLoudnessLUFS and MaxLoudnessLUFS; 0 means
	// DefaultLoudnessLUFS. A video without a soundtrack has no audio stream at all.
	LoudnessLUFS float64 `json:"loudness_lufs,omitempty"`
}

// Frames returns the number of frames for a video of durationS seconds.
func (p PresetSpec) Frames(durationS float64) int {
	n := int(durationS*float64(p.FPS) + 0.5)
	if n < 1 {
		n = 1
	}
	return n
}

// Vertical reports whether the frame is taller than wide.
func (p PresetSpec) Vertical() bool { return p.Height > p.Width }

// SameOutput reports whether p and o make the same video from the same project and
// length: they agree on everything the renderer reads from a spec (size, frame rate,
// CRF, format, soundtrack loudness and, for x264, the encoder speed). The name and the platform's duration
// limit change no byte, so youtube, final and 1080p are one output; identical outputs
// of one batch are rendered once and stored once. A spec field the renderer starts
// reading must be compared here too.
func (p PresetSpec) SameOutput(o PresetSpec) bool {
	if p.Width != o.Width || p.Height != o.Height || p.FPS != o.FPS || p.CRF != o.CRF || p.Format != o.Format {
		return false
	}
	if p.Loudness() != o.Loudness() {
		return false
	}
	// VP9 always encodes at its realtime speed: only MP4's x264 reads the speed.
	return p.Format == FormatWebM || p.encoderSpeed() == o.encoderSpeed()
}

// Loudness is the integrated loudness, in LUFS, the spec's soundtrack is normalised to:
// LoudnessLUFS, or DefaultLoudnessLUFS for a spec that sets none (a custom one, or one
// stored before the field existed).
func (p PresetSpec) Loudness() float64 {
	if p.LoudnessLUFS == 0 {
		return DefaultLoudnessLUFS
	}
	return p.LoudnessLUFS
}

// encoderSpeed is the x264 speed the spec renders at; a spec stored before speeds
// existed has none and rendered at the default.
func (p PresetSpec) encoderSpeed() string {
	if p.EncoderSpeed == "" {
		return DefaultEncoderSpeed
	}
	return p.EncoderSpeed
}

// Soundtrack loudness, EBU R128 integrated loudness in LUFS.
//
// DefaultLoudnessLUFS, −16, is the target of every named preset. It is the level
// recommended for online and mobile listening (AES TD1008, Apple's −16), and where
// Instagram, TikTok and X play without turning a track much up or down. YouTube's own
// reference is −14, but YouTube only turns louder videos down, never quieter ones up: a
// −16 track plays 2 dB below the loudest videos, which is all −14 would gain, while
// raising a dynamic track to −14 more often meets the true-peak ceiling and makes
// loudnorm compress it instead of applying one gain. One target also keeps youtube,
// final and 1080p one output (SameOutput), rendered once. Broadcast's −23 (EBU R128 for
// television) is far too quiet beside phone videos; a custom preset can ask for it, or
// for −14, with loudness_lufs.
const (
	DefaultLoudnessLUFS = -16.0
	MinLoudnessLUFS     = -40.0
	MaxLoudnessLUFS     = -5.0 // the loudest target ffmpeg's loudnorm accepts
)

// socialLUFS is the soundtrack loudness of the named presets; a row may set its own.
const socialLUFS = DefaultLoudnessLUFS

// The named presets of DESIGN.md §3.6.
var presets = map[string]PresetSpec{
	"preview":         {Width: 640, Height: 360, FPS: 15, CRF: 28, Format: FormatMP4, LoudnessLUFS: socialLUFS},
	"final":           {Width: 1920, Height: 1080, FPS: 60, CRF: 18, Format: FormatMP4, LoudnessLUFS: socialLUFS},
	"1080p":           {Width: 1920, Height: 1080, FPS: 60, CRF: 18, Format: FormatMP4, LoudnessLUFS: socialLUFS},
	"1080p30":         {Width: 1920, Height: 1080, FPS: 30, CRF: 18, Format: FormatMP4, LoudnessLUFS: socialLUFS},
	"720p":            {Width: 1280, Height: 720, FPS: 30, CRF: 18, Format: FormatMP4, LoudnessLUFS: socialLUFS},
	"720p60":          {Width: 1280, Height: 720, FPS: 60, CRF: 18, Format: FormatMP4, LoudnessLUFS: socialLUFS},
	"4k":              {Width: 3840, Height: 2160, FPS: 30, CRF: 18, Format: FormatMP4, LoudnessLUFS: socialLUFS},
	"4k60":            {Width: 3840, Height: 2160, FPS: 60, CRF: 18, Format: FormatMP4, LoudnessLUFS: socialLUFS},
	"youtube":         {Width: 1920, Height: 1080, FPS: 60, CRF: 18, Format: FormatMP4, LoudnessLUFS: socialLUFS},
	"instagram_reels": {Width: 1080, Height: 1920, FPS: 30, CRF: 18, Format: FormatMP4, LoudnessLUFS: socialLUFS, MaxDurationS: 90},
	"tiktok":          {Width: 1080, Height: 1920, FPS: 30, CRF: 18, Format: FormatMP4, LoudnessLUFS: socialLUFS, MaxDurationS: 180},
	"twitter":         {Width: 1920, Height: 1080, FPS: 30, CRF: 18, Format: FormatMP4, LoudnessLUFS: socialLUFS, MaxDurationS: 140},
}

// Bounds of a custom preset. Sizes must be even for yuv420p.
const (
	MinFrameSize   = 16
	MaxFrameSize   = 3840
	MaxFramePixels = 3840 * 2160
	MinFPS         = 1
	MaxFPS         = 60
	MaxCRF         = 51
)

// DefaultEncoderSpeed is the encoder speed of every named preset and of a custom preset
// that names none.
const DefaultEncoderSpeed = "veryfast"

// EncoderSpeeds are x264's speed presets, fastest first.
var EncoderSpeeds = []string{"ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"}

// PresetNames lists the named presets in a stable order.
func PresetNames() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// MaxPresetName bounds a custom preset's name.
const MaxPresetName = 40

var presetName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// LookupPreset returns the named preset or an UNKNOWN_PRESET error.
func LookupPreset(name string) (PresetSpec, error) {
	p, ok := presets[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		if len(name) > MaxPresetName {
			name = name[:MaxPresetName] + "…"
		}
		return PresetSpec{}, Errorf(EINVALID, CodeUnknownPreset,
			"unknown preset %q; known presets: %s", name, strings.Join(PresetNames(), ", "))
	}
	p.Name = strings.ToLower(strings.TrimSpace(name))
	p.EncoderSpeed = DefaultEncoderSpeed
	return p, nil
}

// Validate checks a custom preset against the renderer's bounds, filling defaults
// (format mp4, CRF 18, DefaultEncoderSpeed) for fields left zero.
func (p *PresetSpec) Validate() error {
	if p.Name == "" {
		p.Name = "custom"
	}
	p.Format = strings.ToLower(p.Format)
	if p.Format == "" {
		p.Format = FormatMP4
	}
	if p.CRF == 0 {
		p.CRF = 18
	}
	p.EncoderSpeed = strings.ToLower(strings.TrimSpace(p.EncoderSpeed))
	if p.EncoderSpeed == "" {
		p.EncoderSpeed = DefaultEncoderSpeed
	}
	// The name reaches logs, metric labels and file names: short, one line, plain.
	if len(p.Name) > MaxPresetName || !presetName.MatchString(p.Name) {
		shown := p.Name
		if len(shown) > MaxPresetName {
			shown = shown[:MaxPresetName] + "…"
		}
		return Errorf(EINVALID, CodeInvalidPreset,
			"preset name %q must be 1–%d letters, digits, '_', '-' or '.'", shown, MaxPresetName)
	}
	bad := func(format string, args ...any) error {
		return Errorf(EINVALID, CodeInvalidPreset, "preset %s: %s", p.Name, fmt.Sprintf(format, args...))
	}
	switch {
	case p.Width < MinFrameSize || p.Width > MaxFrameSize || p.Height < MinFrameSize || p.Height > MaxFrameSize:
		return bad("size %dx%d out of range (%d..%d per side)", p.Width, p.Height, MinFrameSize, MaxFrameSize)
	case p.Width*p.Height > MaxFramePixels:
		return bad("size %dx%d exceeds 4K (%d pixels)", p.Width, p.Height, MaxFramePixels)
	case p.Width%2 != 0 || p.Height%2 != 0:
		return bad("width and height must be even, got %dx%d", p.Width, p.Height)
	case p.FPS < MinFPS || p.FPS > MaxFPS:
		return bad("fps %d out of range (%d..%d)", p.FPS, MinFPS, MaxFPS)
	case p.CRF < 0 || p.CRF > MaxCRF:
		return bad("crf %d out of range (0..%d)", p.CRF, MaxCRF)
	case p.Format != FormatMP4 && p.Format != FormatWebM:
		return bad("format %q not supported (mp4 or webm)", p.Format)
	case !slices.Contains(EncoderSpeeds, p.EncoderSpeed):
		return bad("encoder_speed %q unknown (one of %s)", p.EncoderSpeed, strings.Join(EncoderSpeeds, ", "))
	case p.MaxDurationS < 0:
		return bad("negative duration limit")
	case p.LoudnessLUFS != 0 && (p.LoudnessLUFS < MinLoudnessLUFS || p.LoudnessLUFS > MaxLoudnessLUFS):
		return bad("loudness_lufs %g out of range (%g..%g, or 0 for the default %g)",
			p.LoudnessLUFS, MinLoudnessLUFS, MaxLoudnessLUFS, DefaultLoudnessLUFS)
	}
	return nil
}

// CheckDuration returns DURATION_OVER_PRESET_LIMIT when durationS exceeds the preset's limit.
func (p PresetSpec) CheckDuration(durationS float64) error {
	if p.MaxDurationS > 0 && durationS > p.MaxDurationS {
		return Errorf(EUNPROCESSABLE, CodeDurationOverLimit,
			"duration %gs exceeds the %gs limit of preset %s", durationS, p.MaxDurationS, p.Name)
	}
	return nil
}

// DerivesFrom reports whether p's video can be made from the frames of a capture at c:
// the same aspect ratio, no larger, and a frame rate that divides c's, so that every
// (c.FPS/p.FPS)-th captured frame is one of p's, scaled down. A rate that does not
// divide would need frames between the captured ones, which only a capture of its own
// draws.
func (p PresetSpec) DerivesFrom(c PresetSpec) bool {
	return p.Width*c.Height == p.Height*c.Width && p.Width <= c.Width && p.Height <= c.Height &&
		p.FPS > 0 && c.FPS%p.FPS == 0
}

// PixelRate is what capturing at p costs, in pixels drawn and moved per second of
// video: the capture's share of a render is about proportional to it.
func (p PresetSpec) PixelRate() int { return p.Width * p.Height * p.FPS }

// CaptureSpec is the spec the frames of specs are captured at: the largest size and the
// highest frame rate among them (every spec DerivesFrom it when they are one group of
// CaptureGroups), and the finest CRF among them, since a draft's coarser capture
// (cheaper JPEG frames) must not reach a full-quality output.
func CaptureSpec(specs []PresetSpec) PresetSpec {
	c := PresetSpec{Name: "capture", Format: FormatMP4, EncoderSpeed: DefaultEncoderSpeed, CRF: MaxCRF}
	for _, p := range specs {
		if p.Width > c.Width {
			c.Width, c.Height = p.Width, p.Height
		}
		c.FPS = max(c.FPS, p.FPS)
		c.CRF = min(c.CRF, p.CRF)
	}
	return c
}

// CaptureGroups splits specs (of one project and length) into groups captured once
// each, and returns each group as indexes into specs, in order. A spec joins a group
// when every member then derives from the group's CaptureSpec and capturing the group
// at that spec costs no more than capturing the group and the spec apart: 1080p60 takes
// 720p, 720p60 and 1080p30 for free, while 4k30 and 1080p60 stay apart, because a 4k60
// capture draws more than the two do. Larger captures are placed first, so the small
// specs find them.
func CaptureGroups(specs []PresetSpec) [][]int {
	order := make([]int, len(specs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		pa, pb := specs[order[a]], specs[order[b]]
		if pa.PixelRate() != pb.PixelRate() {
			return pa.PixelRate() > pb.PixelRate()
		}
		return pa.FPS > pb.FPS
	})
	var groups [][]int
	var captures []PresetSpec
	for _, i := range order {
		p := specs[i]
		joined := false
		for g := range groups {
			c := CaptureSpec([]PresetSpec{captures[g], p})
			if c.PixelRate() > captures[g].PixelRate()+p.PixelRate() {
				continue
			}
			fits := p.DerivesFrom(c)
			for _, m := range groups[g] {
				fits = fits && specs[m].DerivesFrom(c)
			}
			if fits {
				groups[g] = append(groups[g], i)
				captures[g] = c
				joined = true
				break
			}
		}
		if !joined {
			groups = append(groups, []int{i})
			captures = append(captures, CaptureSpec([]PresetSpec{p}))
		}
	}
	for _, g := range groups {
		slices.Sort(g)
	}
	slices.SortFunc(groups, func(a, b []int) int { return a[0] - b[0] })
	return groups
}
