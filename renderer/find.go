package renderer

import "os/exec"

// FindChromium returns the first Chromium-family browser found on PATH, or "chromium".
func FindChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "chrome-headless-shell", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return "chromium"
}

// FindFFmpeg returns ffmpeg's path on PATH, or "ffmpeg".
func FindFFmpeg() string {
	if p, err := exec.LookPath("ffmpeg"); err == nil {
		return p
	}
	return "ffmpeg"
}
