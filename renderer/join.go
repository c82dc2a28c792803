package renderer

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// Join is the joining of a render split into frame-range chunks: the chunk files, in
// order, rendered with the same settings; the project folder, whose first audio file
// (if any) becomes the soundtrack; the render's length in frames at fps; and the
// soundtrack's loudness target (the preset's koda.PresetSpec.Loudness; 0 means the
// default).
type Join struct {
	Parts        []string
	Source       string
	Frames       int
	FPS          int
	LoudnessLUFS float64
}

// JoinChunks writes j's video (the chunks joined without re-encoding, the soundtrack
// laid under it once) to video, and its midpoint frame to thumb. Audio is added after
// the join, never per chunk, because each chunk's encoder delay would click at a seam.
func JoinChunks(ctx context.Context, ffmpegPath string, j Join, video, thumb string) error {
	if len(j.Parts) == 0 || j.FPS <= 0 {
		return fmt.Errorf("join chunks: %d parts at %d fps", len(j.Parts), j.FPS)
	}
	if err := Concat(ctx, ffmpegPath, j.Parts, video); err != nil {
		return err
	}
	if audio := FindAudio(j.Source); audio != "" {
		if err := MuxAudio(ctx, ffmpegPath, video, audio, float64(j.Frames)/float64(j.FPS), j.LoudnessLUFS); err != nil {
			return err
		}
	}
	return ExtractFrame(ctx, ffmpegPath, video, j.Frames/2, thumb)
}

// FindAudio returns the first audio file under dir in lexical order (e.g.
// assets/music.mp3), or "" when the project has none. Hidden folders and node_modules
// are not the project's soundtrack.
func FindAudio(dir string) string {
	if dir == "" {
		return ""
	}
	var found string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable entry is not a soundtrack
		}
		if d.IsDir() {
			if path != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && IsAudioFile(d.Name()) {
			found = path
			return fs.SkipAll
		}
		return nil
	})
	return found
}
