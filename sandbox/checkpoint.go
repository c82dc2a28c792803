// Package sandbox holds what every sandbox provider shares: checkpoints of a project
// folder to a tar.gz stream and their safe restore. Providers live in subpackages
// (sandbox/local).
package sandbox

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kodahq/koda"
)

// skipDir names folders a checkpoint leaves out: they are rebuilt, not authored.
func skipDir(name string) bool { return name == "node_modules" }

// Budget bounds one checkpoint, restore or folder transfer: Bytes in apparent size (the
// size stat reports, holes included: a sparse 512 MiB file takes no disk, but tar and
// gzip read and write all of it) and Files in entries. Zero fields take DefaultBudget's.
type Budget struct {
	Bytes int64
	Files int
}

// DefaultBudget matches a sandbox's default disk quota (512 MiB); a project's folder
// cannot legitimately hold more than its quota, so more apparent bytes mean holes.
var DefaultBudget = Budget{Bytes: 512 << 20, Files: 20000}

func (b Budget) orDefault() Budget {
	if b.Bytes <= 0 {
		b.Bytes = DefaultBudget.Bytes
	}
	if b.Files <= 0 {
		b.Files = DefaultBudget.Files
	}
	return b
}

// tally counts entries against a budget.
type tally struct {
	b     Budget
	bytes int64
	files int
	what  string // "checkpoint", "restore", …
}

// add counts one entry of size bytes, answering QUOTA_EXCEEDED past the budget.
func (t *tally) add(size int64) error {
	t.files++
	t.bytes += size
	switch {
	case t.files > t.b.Files:
		return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeQuotaExceeded,
			"the %s holds more than %d files", t.what, t.b.Files)
	case t.bytes > t.b.Bytes:
		return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeQuotaExceeded,
			"the %s holds more than %d MiB (apparent size; sparse files count at their full size)", t.what, t.b.Bytes>>20)
	}
	return nil
}

// Checkpoint writes the regular files and folders under dir to w as a tar.gz, in lexical
// order, skipping node_modules, symlinks and special files, within DefaultBudget. Files
// are read through an os.Root, so a file swapped for a symlink while the walk runs
// cannot pull in the host.
func Checkpoint(ctx context.Context, dir string, w io.Writer) error {
	return CheckpointWithin(ctx, dir, w, DefaultBudget)
}

// CheckpointWithin is Checkpoint within budget b.
func CheckpointWithin(ctx context.Context, dir string, w io.Writer, b Budget) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	defer root.Close()
	return CheckpointRoot(ctx, root, w, true, b)
}

// CheckFits walks dir, stat only, and answers QUOTA_EXCEEDED when its checkpoint would
// exceed b: refused before a byte is read or written.
func CheckFits(ctx context.Context, dir string, b Budget) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	defer root.Close()
	return checkFits(ctx, root, true, b)
}

func checkFits(ctx context.Context, root *os.Root, skipDeps bool, b Budget) error {
	t := &tally{b: b.orDefault(), what: "checkpoint"}
	return fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if name == "." {
			return nil
		}
		if d.IsDir() {
			if skipDeps && skipDir(d.Name()) {
				return fs.SkipDir
			}
			return t.add(0)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // vanished: the real walk decides
		}
		return t.add(info.Size())
	})
}

// CheckpointRoot is Checkpoint over an open root within budget b; skipDeps=false keeps
// node_modules. The whole tree is measured (stat only) before anything is written, and
// counted again while it is written, in case files grow meanwhile.
func CheckpointRoot(ctx context.Context, root *os.Root, w io.Writer, skipDeps bool, b Budget) error {
	dir := root.Name()
	if err := checkFits(ctx, root, skipDeps, b); err != nil {
		return fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	t := &tally{b: b.orDefault(), what: "checkpoint"}
	zw := gzip.NewWriter(w)
	tw := tar.NewWriter(zw)
	err := fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if name == "." {
			return nil
		}
		if d.IsDir() && skipDeps && skipDir(d.Name()) {
			return fs.SkipDir
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return nil
		}
		return addEntry(tw, root, name, d, t)
	})
	if err != nil {
		return fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("checkpoint %s: %w", dir, err)
	}
	return nil
}

func addEntry(tw *tar.Writer, root *os.Root, name string, d fs.DirEntry, t *tally) error {
	info, err := d.Info()
	if err != nil {
		return err
	}
	hdr := &tar.Header{
		Name:    name,
		Mode:    int64(info.Mode().Perm()),
		ModTime: info.ModTime(),
	}
	if d.IsDir() {
		if err := t.add(0); err != nil {
			return err
		}
		hdr.Typeflag = tar.TypeDir
		hdr.Name += "/"
		return tw.WriteHeader(hdr)
	}
	// O_NONBLOCK: a FIFO swapped in after the walk must not hang the checkpoint.
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	// Size comes from the open file, so a file growing during the walk is cut at this
	// size rather than corrupting the archive.
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return nil
	}
	if err := t.add(st.Size()); err != nil {
		return err
	}
	hdr.Typeflag = tar.TypeReg
	hdr.Size = st.Size()
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if _, err := io.Copy(tw, io.LimitReader(f, hdr.Size)); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// Restore extracts a checkpoint made by Checkpoint into dir, creating it if needed and
// overwriting files of the same name, within budget b (zero fields: DefaultBudget's):
// a checkpoint that expands past it (a gzip bomb, a sparse file written out in full)
// fails with QUOTA_EXCEEDED once the budget is spent, not after filling the disk. An
// entry that would land outside dir (absolute, "..", through a symlink already in dir)
// fails the restore with INVALID_PATH; links and special files are skipped.
// Permissions are limited to rwx for the owner and r-x for others.
func Restore(ctx context.Context, r io.Reader, dir string, b Budget) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("restore into %s: %w", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("restore into %s: %w", dir, err)
	}
	defer root.Close()
	return restoreRoot(ctx, r, root, restoreOpts{uid: -1, gid: -1, budget: -1, limits: b})
}

// restoreOpts: uid/gid own every entry (-1: leave); budget caps the bytes extracted
// (-1: none) against a disk quota, answering QUOTA_EXCEEDED beyond it; limits bound
// the archive itself.
type restoreOpts struct {
	uid, gid int
	budget   int64
	limits   Budget
}

func restoreRoot(ctx context.Context, r io.Reader, root *os.Root, o restoreOpts) error {
	dir := root.Name()
	zr, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("restore into %s: %w", dir, err)
	}
	defer zr.Close()
	tr := tar.NewReader(zr)
	t := &tally{b: o.limits.orDefault(), what: "archive"}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("restore into %s: %w", dir, err)
		}
		name, err := entryName(hdr.Name)
		if err != nil {
			return err
		}
		if name == "." {
			continue
		}
		perm := fs.FileMode(hdr.Mode).Perm() & 0o755
		switch hdr.Typeflag {
		case tar.TypeDir, tar.TypeReg:
			size := hdr.Size
			if hdr.Typeflag == tar.TypeDir {
				size = 0
			}
			if err := t.add(size); err != nil {
				return err
			}
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
			err = mkdirOwned(root, name, perm|0o700, o)
		case tar.TypeReg:
			if o.budget >= 0 {
				if hdr.Size > o.budget {
					return koda.Errorf(koda.ELIMIT, koda.CodeQuotaExceeded, "the archive does not fit in the disk quota")
				}
				o.budget -= hdr.Size
			}
			if parent := path.Dir(name); parent != "." {
				if err = mkdirOwned(root, parent, 0o755, o); err != nil {
					break
				}
			}
			err = restoreFile(root, name, perm|0o600, io.LimitReader(tr, hdr.Size))
			if err == nil && o.uid >= 0 {
				err = root.Lchown(name, o.uid, o.gid)
			}
		default:
			continue
		}
		if err != nil {
			return restoreError(hdr.Name, err)
		}
	}
}

// mkdirOwned creates dir and its missing parents, owning each as o says.
func mkdirOwned(root *os.Root, dir string, perm fs.FileMode, o restoreOpts) error {
	if o.uid < 0 {
		return root.MkdirAll(dir, perm)
	}
	cur := ""
	for _, part := range strings.Split(dir, "/") {
		cur = path.Join(cur, part)
		if err := root.Mkdir(cur, perm); err != nil {
			if !errors.Is(err, fs.ErrExist) {
				return err
			}
			continue
		}
		if err := root.Lchown(cur, o.uid, o.gid); err != nil {
			return err
		}
	}
	return nil
}

func restoreFile(root *os.Root, name string, perm fs.FileMode, r io.Reader) error {
	// Remove first: writing through an existing symlink would follow it.
	if err := root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// entryName validates a tar entry name and returns it cleaned.
func entryName(n string) (string, error) {
	if n == "" || strings.HasPrefix(n, "/") || filepath.IsAbs(n) || strings.ContainsRune(n, 0) {
		return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "checkpoint entry %q is not a relative path", n)
	}
	c := path.Clean(n)
	if c != "." && !filepath.IsLocal(c) {
		return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "checkpoint entry %q leaves the folder", n)
	}
	return c, nil
}

func restoreError(name string, err error) error {
	if IsEscape(err) {
		return &koda.Error{Kind: koda.EINVALID, Code: koda.CodeInvalidPath,
			Message: fmt.Sprintf("checkpoint entry %q leads outside the folder", name), Err: err}
	}
	return fmt.Errorf("restore %s: %w", name, err)
}
