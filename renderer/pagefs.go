package renderer

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// pageFS is the one way the renderer reads a page folder. The folder is written by
// generated (or tenant) code, often a live sandbox, and the renderer runs as root on
// the host, so: every path resolves beneath the folder (os.Root: a symlink that leaves
// it, absolute or through "..", is refused), and only regular files and directories
// are opened — a FIFO, socket or device node (a link to /dev/zero cannot leave the
// folder, but mknod or mkfifo inside it can still make one) answers "not exist".
// Opens are non-blocking so a FIFO cannot hang the server before it is looked at.
type pageFS struct{ root *os.Root }

// openPageFS opens dir as a page folder; Close releases it.
func openPageFS(dir string) (*pageFS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("page folder: %w", err)
	}
	st, err := root.Stat(".")
	if err != nil {
		_ = root.Close()
		return nil, fmt.Errorf("page folder: %w", err)
	}
	if !st.IsDir() {
		_ = root.Close()
		return nil, fmt.Errorf("page folder %s is not a directory", dir)
	}
	return &pageFS{root: root}, nil
}

func (p *pageFS) Close() error { return p.root.Close() }

// Open implements fs.FS for http.FileServerFS.
func (p *pageFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := p.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		_ = f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return f, nil
}

// errNotPlain reports a file the renderer will not read: a symlink, a device, a FIFO.
var errNotPlain = errors.New("not a regular file")

// readPlain reads at most limit bytes of name, which must be a regular file reached
// without following a symlink in its last component. It returns the bytes read.
func (p *pageFS) readPlain(name string, limit int64) ([]byte, error) {
	st, err := p.root.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errNotPlain}
	}
	f, err := p.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The name may have been swapped between Lstat and open: check what was opened.
	if st, err = f.Stat(); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errNotPlain}
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// exists reports whether name (slash-separated, relative) is a regular file within
// the folder.
func (p *pageFS) exists(name string) error {
	f, err := p.Open(path.Clean(name))
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return err
	} else if st.IsDir() {
		return fmt.Errorf("%s is a directory", name)
	}
	return nil
}

// PageFS is a page folder opened the renderer's way (see pageFS), for other servers of
// generated pages: the API's live preview reads through it too.
type PageFS = pageFS

// OpenPageFS opens dir as a page folder; Close releases it.
func OpenPageFS(dir string) (*PageFS, error) { return openPageFS(dir) }
