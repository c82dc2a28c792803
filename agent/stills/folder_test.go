package stills_test

import (
	"context"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/agent/stills"
	"github.com/kodahq/koda/internal/kodatest"
)

// TestStillsShowProjectFiles: a camera in a project folder draws the project's own
// picture (a logo mark) in its stills; without the folder the picture draws nothing,
// and a name leaving the folder is never read.
func TestStillsShowProjectFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "assets", "logo.png"), kodatest.LogoPNG(64, 64, color.RGBA{255, 0, 255, 255}), 0o644); err != nil {
		t.Fatal(err)
	}
	d := base(&scene.Element{ID: "mark", Type: scene.TypeImage, Src: "assets/logo.png", X: 0.76, Y: -0.72, Size: 0.06, Fixed: true},
		&scene.Element{ID: "escape", Type: scene.TypeImage, Src: "assets/../../etc/hostname.png", Size: 0.1})
	br := browser(t)
	seen := func(cam critic.Camera) critic.Seen {
		st, err := cam.Look(context.Background(), d, critic.Landscape, []float64{3})
		if err != nil {
			t.Fatal(err)
		}
		return st[0].Elements[0]
	}
	if s := seen(&stills.Camera{Browser: br}); s.Box != nil {
		t.Errorf("without the folder the mark draws %v", s.Box)
	}
	s := seen((&stills.Camera{Browser: br}).InFolder(dir))
	if s.Box == nil || s.Pixels < 1000 {
		t.Fatalf("in the folder the mark draws %+v", s)
	}
	// 0.06 of 1080 each side of x = 0.88·1920.
	if x0 := s.Box[0] * 1920; abs(x0-(1689.6-64.8)) > 6 {
		t.Errorf("mark starts at x %.0f, want %.0f", x0, 1689.6-64.8)
	}
}
