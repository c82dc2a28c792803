package renderer

import (
	"bytes"
	_ "embed"
	"io/fs"
	"path"
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

// pageScan is what a page folder's text says before the page is loaded.
type pageScan struct {
	hooks hookState
	// canvas: the page or its scripts call getContext, so it most likely draws on a
	// canvas and, when that canvas fills the frame, sends its pixels raw.
	canvas bool
}

// scanPage reports whether the entry page or any script file in dir mentions
// __exportSeekTo, and whether any calls getContext. A page that does not mention the
// hooks cannot implement the protocol, so it is driven by the virtual clock from its
// first script on, without a trial load. Other HTML files are other pages and do not
// count. Only regular files are read, never through a symlink, each and all together
// within scanLimit: the folder may be a live sandbox holding links to host files or
// to /dev/zero.
func scanPage(dir, entry string) pageScan {
	if entry == "" {
		entry = "index.html"
	}
	pfs, err := openPageFS(dir)
	if err != nil {
		return pageScan{hooks: hooksAbsent}
	}
	defer pfs.Close()
	entryPath := path.Clean(strings.TrimLeft(entry, "/"))
	hooks, canvas := []byte("__exportSeekTo"), []byte("getContext")
	var sc pageScan
	found := false
	var read int64
	_ = fs.WalkDir(pfs.root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || read >= scanLimit {
			return fs.SkipAll
		}
		if d.IsDir() {
			if d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && name != "." {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		switch strings.ToLower(path.Ext(name)) {
		case ".html", ".htm":
			if name != entryPath {
				return nil
			}
		case ".js", ".mjs", ".cjs", ".ts", ".jsx", ".tsx":
		default:
			return nil
		}
		b, err := pfs.readPlain(name, scanLimit-read)
		if err != nil {
			return nil
		}
		read += int64(len(b))
		found = found || bytes.Contains(b, hooks)
		sc.canvas = sc.canvas || bytes.Contains(b, canvas)
		if found && sc.canvas {
			return fs.SkipAll
		}
		return nil
	})
	sc.hooks = hooksAbsent
	if found {
		sc.hooks = hooksPresent
	}
	return sc
}
