package renderer

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSoundtrackLinear: the two-pass normalisation really applies one gain
// (loudnorm's linear mode) to a steady tone and to noise, under a video shorter than
// loudnorm's 3-second loudness-range blocks and under a longer one, raising a quiet
// track as well as lowering a loud one; and the measurement of one length and target
// is made once for every output that shares them.
func TestSoundtrackLinear(t *testing.T) {
	dir := t.TempDir()
	tracks := map[string]string{
		"quiet.wav": "sine=frequency=440:sample_rate=44100:duration=1.5,volume=-13dB",
		"loud.flac": "anoisesrc=color=white:amplitude=0.75:sample_rate=44100:duration=8:seed=3",
	}
	for name, src := range tracks {
		path := filepath.Join(dir, name)
		if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", src, "-y", path).CombinedOutput(); err != nil {
			t.Fatalf("make %s: %v: %s", name, err, out)
		}
		st, err := openSoundtrack(context.Background(), "", path, dir, 6)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, d := range []float64{1.2, 6, 6} {
			video := filepath.Join(dir, "v.mp4")
			if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=black:size=64x36:rate=30",
				"-t", seconds(d), "-c:v", "libx264", "-pix_fmt", "yuv420p", "-y", video).CombinedOutput(); err != nil {
				t.Fatalf("make video: %v: %s", err, out)
			}
			rep, err := st.mux(context.Background(), video, d, -16)
			if err != nil {
				t.Fatalf("%s under %gs: %v", name, d, err)
			}
			if rep.Normalization != "linear" {
				t.Errorf("%s under %gs: loudnorm ran in %q mode, want linear (measured %+v)", name, d, rep.Normalization, rep.Measured)
			}
			m := rep.Measured
			t.Logf("%s under %gs: measured as played %s LUFS, LRA %s, true peak %s dBTP; loudnorm %s",
				name, d, m.InputI, m.InputLRA, m.InputTP, rep.Normalization)
		}
		if n := len(st.measured); n != 2 {
			t.Errorf("%s: %d measurements for two lengths", name, n)
		}
		st.close()
	}
}
