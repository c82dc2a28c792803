package kodatest

import (
	"math"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// PSNR returns the average PSNR in dB of video b against video a, frame by frame
// (ffmpeg's psnr filter); +Inf when they are identical.
func PSNR(tb testing.TB, a, b string) float64 {
	tb.Helper()
	out, err := exec.Command("ffmpeg", "-hide_banner", "-i", a, "-i", b, "-lavfi", "[0:v][1:v]psnr", "-f", "null", "-").CombinedOutput()
	if err != nil {
		tb.Fatalf("psnr: %v\n%s", err, out)
	}
	s := string(out)
	i := strings.LastIndex(s, "average:")
	if i < 0 {
		tb.Fatalf("psnr: no average in %s", s)
	}
	f := strings.Fields(s[i+len("average:"):])
	if f[0] == "inf" {
		return math.Inf(1)
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		tb.Fatalf("psnr %q: %v", f[0], err)
	}
	return v
}
