package renderer

import (
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/image/draw"

	"github.com/kodahq/koda"
)

// One capture for several presets (koda.CaptureGroups): the frames captured at the
// largest size and highest rate go once into one ffmpeg process, which converts them to
// YUV once, splits them, and for each output keeps every step-th frame and scales it
// down with Lanczos. Measured on the 2-core machine (180 raw 1080p60 frames to 1080p60,
// 1080p30, 720p60 and 720p30 at veryfast): one process converting once 10.2 core-s,
// one process converting per branch 11.6, four ffmpeg processes fed only their own
// frames 12.9; a second run 10.7, 11.8 and 13.1 (scripts/measure-split-encode.sh; user
// + system seconds, on a machine other work kept busy). The one process's walls were the
// longest in one run and the shortest in the other: its filter graph runs on one thread,
// but the cores were shared anyway. The frames a capture's browsers draw cost more than all of
// that, and are what sharing them saves.

// derivedOutput is one video made from a capture's frames.
type derivedOutput struct {
	preset    koda.PresetSpec
	out       string
	thumbnail string
	step      int // it takes every step-th captured frame
	first     int // its first frame: the captured frame first*step
	frames    int // how many of its frames fall in the capture's range
	// phase is where its first frame is among the frames this render captures.
	phase int
}

// planOutputs works out which captured frames of j each of req.Outputs takes. Output
// frame m is captured frame m*step, so chunks of one capture cut each output at the same
// frames a whole render would, whatever their boundaries; m stops short of the output's
// own frame count, which rounding the length at a higher rate may pass.
func planOutputs(j *job) ([]derivedOutput, error) {
	var outs []derivedOutput
	for k, o := range j.req.Outputs {
		p := o.Preset
		if err := p.Validate(); err != nil {
			return nil, err
		}
		if !p.DerivesFrom(j.preset) {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest,
				"output %d (%s %dx%d@%d) cannot be made from a capture at %dx%d@%d",
				k, p.Name, p.Width, p.Height, p.FPS, j.preset.Width, j.preset.Height, j.preset.FPS)
		}
		if o.VideoPath == "" {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "output %d (%s) has no video path", k, p.Name)
		}
		step := j.preset.FPS / p.FPS
		first := (j.start + step - 1) / step
		end := min((j.end+step-1)/step, p.Frames(j.req.DurationS))
		if end <= first {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest,
				"frames [%d,%d) hold none of output %d (%s)", j.start, j.end, k, p.Name)
		}
		outs = append(outs, derivedOutput{preset: p, out: o.VideoPath, thumbnail: o.ThumbnailPath,
			step: step, first: first, frames: end - first, phase: first*step - j.start})
	}
	return outs, nil
}

// thumbFrame is the captured frame whose picture is the output's thumbnail: its own
// midpoint, as a render of its own would take it.
func (d derivedOutput) thumbFrame() int { return (d.first + d.frames/2) * d.step }

// derivedArgs are ffmpeg's arguments for the outputs of o.derived, written to tmps.
// The graph is built by hand: ffmpeg-go cannot give one split branch per output with
// each output's own options.
func derivedArgs(o encodeOptions, tmps []string) []string {
	var g strings.Builder
	// Converted to YUV once, before the split, rather than once per branch.
	fmt.Fprintf(&g, "[0:v]format=yuv420p,split=%d", len(o.derived))
	for i := range o.derived {
		fmt.Fprintf(&g, "[s%d]", i)
	}
	for i, d := range o.derived {
		var chain []string
		if d.step > 1 {
			// Frames numbered from this capture's first; the output's are phase, phase+step…
			chain = append(chain, fmt.Sprintf(`select=not(mod(n-%d\,%d))`, d.phase, d.step),
				fmt.Sprintf("setpts=N/(%d*TB)", d.preset.FPS))
		}
		if d.preset.Width != o.preset.Width || d.preset.Height != o.preset.Height {
			chain = append(chain, fmt.Sprintf("scale=%d:%d:flags=lanczos", d.preset.Width, d.preset.Height))
		}
		if len(chain) == 0 {
			chain = append(chain, "null")
		}
		fmt.Fprintf(&g, ";[s%d]%s[o%d]", i, strings.Join(chain, ","), i)
	}
	in := inputStream(o).GetArgs() // "-f … -i pipe:0" and nothing else without an output
	args := []string{"-hide_banner", "-loglevel", "error", "-nostats"}
	args = append(args, in...)
	args = append(args, "-filter_complex", g.String())
	for i, d := range o.derived {
		args = append(args, "-map", "[o"+strconv.Itoa(i)+"]")
		kw := outputKwArgs(d.preset, d.frames)
		keys := make([]string, 0, len(kw))
		for k := range kw {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			args = append(args, "-"+k, fmt.Sprint(kw[k]))
		}
		args = append(args, tmps[i])
	}
	return append(args, "-y")
}

// scaledThumbnail turns a captured frame of w×h into the JPEG thumbnail of an output
// of ow×oh.
func scaledThumbnail(f frame, w, h, ow, oh int) ([]byte, error) {
	img, err := decodeFrame(f, w, h)
	if err != nil {
		return nil, err
	}
	if ow != w || oh != h {
		dst := image.NewRGBA(image.Rect(0, 0, ow, oh))
		draw.CatmullRom.Scale(dst, dst.Bounds(), img, img.Bounds(), draw.Src, nil)
		img = dst
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: thumbnailQuality}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
