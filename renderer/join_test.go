package renderer_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kodahq/koda/renderer"
)

// TestFindAudio: the soundtrack of a joined render is the first audio file in lexical
// order, never one in a hidden folder.
func TestFindAudio(t *testing.T) {
	dir := t.TempDir()
	if got := renderer.FindAudio(dir); got != "" {
		t.Errorf("empty project: %q", got)
	}
	for _, f := range []string{"index.html", "assets/logo.png", "assets/b-music.MP3", "assets/a-voice.wav", ".cache/x.ogg"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := renderer.FindAudio(dir), filepath.Join(dir, "assets/a-voice.wav"); got != want {
		t.Errorf("FindAudio = %q, want %q", got, want)
	}
}
