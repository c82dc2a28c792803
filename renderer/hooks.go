package renderer

import (
	"bytes"
	_ "embed"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

//go:embed virtualclock.js
var virtualClockJS string

// virtualClockScript returns the clock for a render at fps: its tick grid holds every
// frame time and at least 60 ticks a second, the rate pages expect of
// requestAnimationFrame, so per-frame physics behaves as in a browser.
func virtualClockScript(fps int, seed uint32) string {
	rate := fps * ((60 + fps - 1) / fps)
	s := strings.ReplaceAll(virtualClockJS, "__KODA_TICK_RATE__", strconv.Itoa(rate))
	return strings.ReplaceAll(s, "__KODA_SEED__", strconv.FormatUint(uint64(seed), 10))
}

// hookState says whether a page implements the export protocol itself.
type hookState int

const (
	hooksUnknown hookState = iota // a URL: found out by loading it
	hooksPresent
	hooksAbsent // drive it with the virtual clock
)

// scanLimit bounds how much of a page folder is read looking for the export hooks.
const scanLimit = 64 << 20

// scanHooks reports whether the entry page or any script file in dir mentions
// __exportSeekTo. A page that does not cannot implement the protocol, so it is driven
// by the virtual clock from its first script on, without a trial load. Other HTML
// files are other pages and do not count.
func scanHooks(dir, entry string) hookState {
	if entry == "" {
		entry = "index.html"
	}
	entryPath := filepath.Join(dir, filepath.FromSlash(strings.TrimLeft(entry, "/")))
	needle := []byte("__exportSeekTo")
	found := false
	read := 0
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || found || read > scanLimit {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && path != dir {
				return filepath.SkipDir
			}
			return nil
		}
		switch strings.ToLower(filepath.Ext(path)) {
		case ".html", ".htm":
			if path != entryPath {
				return nil
			}
		case ".js", ".mjs", ".cjs", ".ts", ".jsx", ".tsx":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		read += len(b)
		if bytes.Contains(b, needle) {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	if found {
		return hooksPresent
	}
	return hooksAbsent
}
