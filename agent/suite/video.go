package suite

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os/exec"
	"sort"
	"strconv"
	"strings"
)

// frame is one decoded RGB24 frame.
type frame struct {
	w, h int
	pix  []byte
}

// probeFrames counts the decodable video frames with ffprobe, which also proves the file
// is a valid MP4 with an H.264 stream.
func probeFrames(ctx context.Context, path string) (int, error) {
	out, err := exec.CommandContext(ctx, "ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
		"-show_entries", "stream=codec_name,nb_read_frames", "-of", "csv=p=0", path).Output()
	if err != nil {
		return 0, fmt.Errorf("ffprobe %s: %w", path, err)
	}
	codec, n, ok := strings.Cut(strings.TrimSpace(string(out)), ",")
	if !ok || codec != "h264" {
		return 0, fmt.Errorf("ffprobe %s: stream %q is not H.264", path, out)
	}
	return strconv.Atoi(strings.TrimSpace(n))
}

// decodeFrames decodes every frame of the video to RGB.
func decodeFrames(ctx context.Context, path string, w, h int) ([]frame, error) {
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-")
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w: %s", path, err, stderr.String())
	}
	size := w * h * 3
	if len(raw)%size != 0 {
		return nil, fmt.Errorf("decode %s: %d bytes is not a whole number of %dx%d frames", path, len(raw), w, h)
	}
	frames := make([]frame, 0, len(raw)/size)
	for i := 0; i+size <= len(raw); i += size {
		frames = append(frames, frame{w: w, h: h, pix: raw[i : i+size]})
	}
	return frames, nil
}

// blank reports whether the frame is one flat colour.
func blank(f frame) bool {
	n := len(f.pix) / 3
	var rs, gs, bs []int
	for i := 0; i < len(f.pix); i += 3 * 7 { // every 7th pixel is plenty for a median
		rs, gs, bs = append(rs, int(f.pix[i])), append(gs, int(f.pix[i+1])), append(bs, int(f.pix[i+2]))
	}
	sort.Ints(rs)
	sort.Ints(gs)
	sort.Ints(bs)
	mr, mg, mb := float64(rs[len(rs)/2]), float64(gs[len(gs)/2]), float64(bs[len(bs)/2])
	near := 0
	for i := 0; i < len(f.pix); i += 3 {
		dr, dg, db := float64(f.pix[i])-mr, float64(f.pix[i+1])-mg, float64(f.pix[i+2])-mb
		if dr*dr+dg*dg+db*db < blankTol*blankTol {
			near++
		}
	}
	return float64(near)/float64(n) >= BlankShare
}

// diff is the mean absolute per-channel difference of two frames (0..255).
func diff(a, b frame) float64 {
	var s int64
	for i := range a.pix {
		d := int64(a.pix[i]) - int64(b.pix[i])
		if d < 0 {
			d = -d
		}
		s += d
	}
	return float64(s) / float64(len(a.pix))
}

// motionEnergy is the mean difference between consecutive frames inside [t0, t1).
func motionEnergy(frames []frame, t0, t1 float64, fps int) float64 {
	i0 := int(math.Ceil(t0*float64(fps) - 1e-9))
	i1 := min(int(math.Ceil(t1*float64(fps)-1e-9)), len(frames))
	if i1-i0 < 2 {
		return 0
	}
	var s float64
	for i := i0 + 1; i < i1; i++ {
		s += diff(frames[i-1], frames[i])
	}
	return s / float64(i1-i0-1)
}

// rgbColor is a colour with its share of the sampled pixels.
type rgbColor struct {
	r, g, b float64
	share   float64
}

func (c rgbColor) hex() string {
	return fmt.Sprintf("#%02x%02x%02x", int(c.r+0.5), int(c.g+0.5), int(c.b+0.5))
}

// colorBuckets buckets the pixels of every third frame at 3 bits per channel and
// returns the mean colour and share of every bucket, most common first. Coarse buckets
// keep a shaded ball's body in one or two buckets.
func colorBuckets(frames []frame) []rgbColor {
	type acc struct{ n, r, g, b float64 }
	var buckets [512]acc
	total := 0.0
	for fi := 0; fi < len(frames); fi += 3 {
		p := frames[fi].pix
		for i := 0; i < len(p); i += 3 * 2 {
			k := int(p[i]>>5)<<6 | int(p[i+1]>>5)<<3 | int(p[i+2]>>5)
			a := &buckets[k]
			a.n++
			a.r += float64(p[i])
			a.g += float64(p[i+1])
			a.b += float64(p[i+2])
			total++
		}
	}
	var out []rgbColor
	for _, a := range buckets {
		if a.n > 0 {
			out = append(out, rgbColor{r: a.r / a.n, g: a.g / a.n, b: a.b / a.n, share: a.n / total})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].share > out[j].share })
	return out
}

// dominant keeps the buckets holding at least DominantShare of the pixels.
func dominant(buckets []rgbColor) []rgbColor {
	i := 0
	for i < len(buckets) && buckets[i].share >= DominantShare {
		i++
	}
	return buckets[:i]
}

// hsv returns hue in degrees, saturation and value in 0..1.
func hsv(c rgbColor) (h, s, v float64) {
	r, g, b := c.r/255, c.g/255, c.b/255
	mx, mn := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
	v = mx
	if mx > 0 {
		s = (mx - mn) / mx
	}
	if mx == mn {
		return 0, s, v
	}
	switch mx {
	case r:
		h = 60 * math.Mod((g-b)/(mx-mn), 6)
	case g:
		h = 60 * ((b-r)/(mx-mn) + 2)
	default:
		h = 60 * ((r-g)/(mx-mn) + 4)
	}
	if h < 0 {
		h += 360
	}
	return h, s, v
}

// colorRule is what a person calls a colour by that name: a hue range with enough
// saturation, or a lightness for the neutrals.
type colorRule struct {
	hue, tol   float64 // degrees; tol 0 means a neutral
	minS, minV float64
	maxV       float64 // for dark colours (navy, black)
	maxS       float64 // for neutrals
}

var colorRules = map[string]colorRule{
	"red":    {hue: 0, tol: 15, minS: 0.45, minV: 0.35, maxV: 1},
	"orange": {hue: 30, tol: 12, minS: 0.5, minV: 0.5, maxV: 1},
	"gold":   {hue: 45, tol: 10, minS: 0.45, minV: 0.5, maxV: 1},
	"yellow": {hue: 54, tol: 10, minS: 0.4, minV: 0.6, maxV: 1},
	"green":  {hue: 120, tol: 35, minS: 0.35, minV: 0.3, maxV: 1},
	"teal":   {hue: 175, tol: 15, minS: 0.4, minV: 0.3, maxV: 1},
	"blue":   {hue: 210, tol: 20, minS: 0.45, minV: 0.4, maxV: 1},
	"indigo": {hue: 232, tol: 12, minS: 0.35, minV: 0.3, maxV: 1},
	"navy":   {hue: 232, tol: 18, minS: 0.4, minV: 0.15, maxV: 0.6},
	"purple": {hue: 285, tol: 22, minS: 0.35, minV: 0.3, maxV: 1},
	// A pale pink (#f6c9da, saturation 0.18) is still pink to a person; its hue keeps
	// it apart from beige and cream.
	"pink":  {hue: 340, tol: 15, minS: 0.15, minV: 0.6, maxV: 1},
	"white": {minV: 0.92, maxV: 1, maxS: 0.08},
	"black": {minV: 0, maxV: 0.12, maxS: 1},
	"grey":  {minV: 0.35, maxV: 0.85, maxS: 0.1},
	"brown": {hue: 22, tol: 16, minS: 0.35, minV: 0.2, maxV: 0.65},
	// Cream is a pale warm white: a yellow-orange hue with little saturation.
	"cream": {hue: 45, tol: 20, minS: 0.04, maxS: 0.3, minV: 0.88, maxV: 1},
}

// hasColor reports whether the pixels that read as the named colour hold at least
// DominantShare of the video, summed over every bucket whose mean reads as it: a bar
// shaded across a bucket's edge is still one blue bar to a person, and was missed
// when each half had to reach the share alone.
func hasColor(buckets []rgbColor, name string) bool {
	if name == "gray" {
		name = "grey"
	}
	rule, ok := colorRules[name]
	if !ok {
		return false
	}
	share := 0.0
	for _, c := range buckets {
		if rule.reads(c) {
			share += c.share
		}
	}
	return share >= DominantShare
}

// reads reports whether a colour reads as the rule's colour.
func (rule colorRule) reads(c rgbColor) bool {
	h, s, v := hsv(c)
	if v < rule.minV || v > rule.maxV {
		return false
	}
	if rule.tol == 0 {
		return s <= rule.maxS
	}
	if s < rule.minS || rule.maxS > 0 && s > rule.maxS {
		return false
	}
	d := math.Abs(h - rule.hue)
	if d > 180 {
		d = 360 - d
	}
	return d <= rule.tol
}

// moveThreshold is how much a pixel's colour must change between frames (summed over
// its channels) to count as moving: well above the background's slow drift.
const moveThreshold = 60

// framesTravel is where the moving part of a video goes: the centroid of the pixels that
// change between consecutive frames, its mean over the last third of the frames less
// its mean over the first third, in fractions of the frame (x right, y down). False
// when too little moves to tell.
func framesTravel(frames []frame) (dx, dy float64, ok bool) {
	type pt struct{ x, y float64 }
	var cs []pt
	for i := 1; i < len(frames); i++ {
		a, b := frames[i-1], frames[i]
		var sx, sy, n float64
		for p := 0; p+2 < len(a.pix); p += 3 {
			d := absInt(int(a.pix[p])-int(b.pix[p])) + absInt(int(a.pix[p+1])-int(b.pix[p+1])) + absInt(int(a.pix[p+2])-int(b.pix[p+2]))
			if d > moveThreshold {
				k := p / 3
				sx += float64(k % a.w)
				sy += float64(k / a.w)
				n++
			}
		}
		if n >= 8 {
			cs = append(cs, pt{sx / n / float64(a.w), sy / n / float64(a.h)})
		}
	}
	if len(cs) < 6 {
		return 0, 0, false
	}
	third := len(cs) / 3
	mean := func(ps []pt) pt {
		var m pt
		for _, p := range ps {
			m.x += p.x
			m.y += p.y
		}
		return pt{m.x / float64(len(ps)), m.y / float64(len(ps))}
	}
	first, last := mean(cs[:third]), mean(cs[len(cs)-third:])
	return last.x - first.x, last.y - first.y, true
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// directionOf names the main direction of a travel, "" when it is too small to read
// (under a tenth of the frame).
func directionOf(dx, dy float64) string {
	switch {
	case math.Max(math.Abs(dx), math.Abs(dy)) < 0.1:
		return ""
	case math.Abs(dx) >= math.Abs(dy) && dx < 0:
		return "left"
	case math.Abs(dx) >= math.Abs(dy):
		return "right"
	case dy < 0:
		return "up"
	}
	return "down"
}
