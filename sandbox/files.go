package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"

	"github.com/kodahq/koda"
)

// Limits of the file tools, so one call cannot return an unbounded answer, whatever
// size a file claims. Sizes are apparent sizes (what stat reports): a sparse file of
// 512 MiB takes no disk and no quota, yet reading it whole would build 512 MiB.
const (
	// MaxReadBytes is the most one read_file call returns, and the largest file
	// replace edits; read larger files in pieces with offset and limit.
	MaxReadBytes      = 4 << 20
	maxSearchMatches  = 1000
	maxSearchFileSize = 4 << 20  // larger files are skipped by search_file_content
	maxSearchScan     = 64 << 20 // bytes one search reads over all files
	maxMatchLineChars = 500
	maxGlobResults    = 10000
)

// skipDirs are not descended into by recursive listings, search and glob unless the
// request names them: dependency trees would drown the answer.
var skipDirs = []string{"node_modules", ".git"}

// Files implements the file tools of a sandbox over a host folder, confined with
// os.Root. Every provider whose project files live in a host folder (local, docker with
// a bind mount) shares it.
type Files struct {
	root *os.Root
	// UID and GID own what the tools create, so the sandbox's unprivileged processes can
	// change it; -1 keeps the service's own user.
	UID, GID int
	// Quota caps the bytes under the root (0: none). The kernel enforces it where the
	// folder is a size-limited mount; this check answers QUOTA_EXCEEDED before a write
	// that would cross it either way.
	Quota int64
	// Alive refuses work on a stopped sandbox (SANDBOX_NOT_FOUND); nil means always alive.
	Alive func() error
	// Via, when set, performs the writes (write_file, replace, transfer in, restore) in
	// another process, so the pages they add to a tmpfs are charged to that process's
	// memory group rather than to the service's. The checks (path, quota) stay here.
	Via Writer
}

// Writer performs the file tools' writes for Files.Via; the streaming halves are
// Files.WriteStream and Files.ImportStream, which a Writer runs over the same folder in
// the process it starts. name is cleaned (CleanPath), p the caller's path for messages.
type Writer interface {
	WriteFile(ctx context.Context, op, name, p string, r io.Reader, append bool) (int64, error)
	Import(ctx context.Context, name, p string, r io.Reader, budget int64) error
}

// OpenFiles opens the file tools over dir.
func OpenFiles(dir string, uid, gid int, quota int64) (*Files, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open sandbox folder %s: %w", dir, err)
	}
	return &Files{root: r, UID: uid, GID: gid, Quota: quota}, nil
}

// Root is the confined handle on the folder.
func (f *Files) Root() *os.Root { return f.root }

// Close releases the folder handle.
func (f *Files) Close() error { return f.root.Close() }

func (f *Files) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if f.Alive != nil {
		return f.Alive()
	}
	return nil
}

func (f *Files) owned() bool { return f.UID >= 0 && os.Geteuid() == 0 }

// chown gives name to the sandbox's user; a no-op unless the service runs as root.
func (f *Files) chown(name string) error {
	if !f.owned() {
		return nil
	}
	return f.root.Lchown(name, f.UID, f.GID)
}

// mkdirAll creates the parents of name one at a time, owning each new folder.
func (f *Files) mkdirAll(dir string) error {
	cur := ""
	for _, part := range strings.Split(dir, "/") {
		cur = path.Join(cur, part)
		err := f.root.Mkdir(cur, 0o755)
		switch {
		case err == nil:
			if err := f.chown(cur); err != nil {
				return err
			}
		case errors.Is(err, fs.ErrExist):
			st, serr := f.root.Stat(cur)
			if serr != nil {
				return serr
			}
			if !st.IsDir() {
				return koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "%q is a file, not a folder", cur)
			}
		default:
			return err
		}
	}
	return nil
}

// Usage is the bytes the files under the root take, counted by size (not blocks).
func (f *Files) Usage(ctx context.Context) (int64, error) {
	var n int64
	err := fs.WalkDir(f.root.FS(), ".", func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n, err
}

// reserve answers QUOTA_EXCEEDED when adding grow bytes would cross the quota.
func (f *Files) reserve(ctx context.Context, grow int64) error {
	if f.Quota <= 0 || grow <= 0 {
		return nil
	}
	used, err := f.Usage(ctx)
	if err != nil {
		return err
	}
	if used+grow > f.Quota {
		return quotaError(f.Quota, nil)
	}
	return nil
}

// memoryPrefix begins MemoryError's message.
const memoryPrefix = "the sandbox's memory"

// MemoryError is the QUOTA_EXCEEDED error of a write stopped by the sandbox's memory
// limit (limit bytes; 0: unknown), which its disk's pages count against.
func MemoryError(limit int64, err error) *koda.Error {
	msg := memoryPrefix + " is used up (its files count against its memory limit)"
	if limit > 0 {
		msg = fmt.Sprintf("%s limit of %d MiB is used up (its files count against it)", memoryPrefix, limit>>20)
	}
	return &koda.Error{Kind: koda.ELIMIT, Code: koda.CodeQuotaExceeded, Message: msg, Err: err}
}

func quotaError(quota int64, err error) *koda.Error {
	return &koda.Error{Kind: koda.ELIMIT, Code: koda.CodeQuotaExceeded,
		Message: fmt.Sprintf("the sandbox's disk quota of %d MiB is used up", quota>>20), Err: err}
}

// WriteFile writes data to path, creating parent folders, and returns the file's size
// after the write. With append the data is added at the end.
func (f *Files) WriteFile(ctx context.Context, p string, data []byte, append bool) (int64, error) {
	if err := f.check(ctx); err != nil {
		return 0, err
	}
	name, err := CleanPath(p, false)
	if err != nil {
		return 0, err
	}
	grow := int64(len(data))
	if !append {
		if st, err := f.root.Stat(name); err == nil && st.Mode().IsRegular() {
			grow -= st.Size()
		}
	}
	if err := f.reserve(ctx, grow); err != nil {
		return 0, err
	}
	if f.Via != nil {
		return f.Via.WriteFile(ctx, "write", name, p, bytes.NewReader(data), append)
	}
	return f.WriteStream("write", name, p, bytes.NewReader(data), append)
}

// WriteStream is WriteFile's write once the checks passed: it creates the parents of
// name, opens it (truncating, or appending) and copies r into it, returning the file's
// size after. op names the tool in messages.
func (f *Files) WriteStream(op, name, p string, r io.Reader, append bool) (int64, error) {
	if dir := path.Dir(name); dir != "." {
		if err := f.mkdirAll(dir); err != nil {
			return 0, FileError(op, p, err)
		}
	}
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if append {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	fh, err := f.root.OpenFile(name, flag, 0o644)
	if err != nil {
		return 0, FileError(op, p, err)
	}
	// fchown on the open file: a symlink swapped in after the open cannot redirect it.
	if f.owned() {
		if err := fh.Chown(f.UID, f.GID); err != nil {
			fh.Close()
			return 0, FileError(op, p, err)
		}
	}
	if _, err := io.Copy(fh, r); err != nil {
		fh.Close()
		return 0, FileError(op, p, err)
	}
	st, err := fh.Stat()
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, FileError(op, p, err)
	}
	return st.Size(), nil
}

// ReadFile returns up to limit bytes of path from offset (limit 0: to the end). One
// call returns at most MaxReadBytes: a larger limit is refused, and so is reading a
// larger rest of the file without a limit (FILE_TOO_LARGE), before anything is read.
func (f *Files) ReadFile(ctx context.Context, p string, offset, limit int64) ([]byte, error) {
	if err := f.check(ctx); err != nil {
		return nil, err
	}
	if offset < 0 || limit < 0 {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "offset and limit must not be negative")
	}
	if limit > MaxReadBytes {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "limit must be at most %d bytes (%d MiB)", MaxReadBytes, MaxReadBytes>>20)
	}
	name, err := CleanPath(p, false)
	if err != nil {
		return nil, err
	}
	fh, st, err := openRegular(f.root, name, p, "read")
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if offset >= st.Size() {
		return []byte{}, nil
	}
	n := st.Size() - offset
	if limit > 0 && limit < n {
		n = limit
	}
	if n > MaxReadBytes {
		return nil, TooLarge(p, st.Size(), MaxReadBytes, "read it in pieces with offset and limit")
	}
	buf := make([]byte, n)
	got, err := fh.ReadAt(buf, offset)
	if err != nil && err != io.EOF {
		return nil, FileError("read", p, err)
	}
	return buf[:got], nil
}

// TooLarge is the FILE_TOO_LARGE error for a file of size bytes (apparent size) over
// max; hint says what to do instead.
func TooLarge(p string, size, max int64, hint string) *koda.Error {
	return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeFileTooLarge,
		"%q is %d bytes; at most %d bytes (%d MiB) are handled at once: %s", p, size, max, max>>20, hint)
}

// openRegular opens name for reading and refuses anything but a regular file. It opens
// with O_NONBLOCK, so a FIFO made in the sandbox cannot hang the call waiting for a
// writer, and checks the type on the open file, so a swap after a walk saw a regular
// file cannot slip a device or FIFO in.
func openRegular(root *os.Root, name, p, op string) (*os.File, fs.FileInfo, error) {
	fh, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, FileError(op, p, err)
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, nil, FileError(op, p, err)
	}
	if st.IsDir() {
		fh.Close()
		return nil, nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "%q is a directory", p)
	}
	if !st.Mode().IsRegular() {
		fh.Close()
		return nil, nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "%q is not a regular file", p)
	}
	return fh, st, nil
}

// readAllMax reads a regular file whole when it holds at most max bytes, else answers
// FILE_TOO_LARGE without reading it; a file that grows under the read is cut at max+1
// and refused too.
func readAllMax(root *os.Root, name, p, op string, max int64, hint string) ([]byte, fs.FileInfo, error) {
	fh, st, err := openRegular(root, name, p, op)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	if st.Size() > max {
		return nil, nil, TooLarge(p, st.Size(), max, hint)
	}
	data, err := io.ReadAll(io.LimitReader(fh, max+1))
	if err != nil {
		return nil, nil, FileError(op, p, err)
	}
	if int64(len(data)) > max {
		return nil, nil, TooLarge(p, int64(len(data)), max, hint)
	}
	return data, st, nil
}

// ListFiles lists path (a folder, or one file), recursively when asked. Paths are
// relative to the project root and sorted; node_modules and .git are listed but not
// descended into.
func (f *Files) ListFiles(ctx context.Context, p string, recursive bool) ([]koda.FileInfo, error) {
	if err := f.check(ctx); err != nil {
		return nil, err
	}
	name, err := CleanPath(p, true)
	if err != nil {
		return nil, err
	}
	st, err := f.root.Stat(name)
	if err != nil {
		return nil, FileError("list", p, err)
	}
	if !st.IsDir() {
		return []koda.FileInfo{{Path: name, SizeBytes: st.Size()}}, nil
	}
	out := []koda.FileInfo{}
	err = fs.WalkDir(f.root.FS(), name, func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if rel == name {
			return nil
		}
		info := koda.FileInfo{Path: rel, IsDir: d.IsDir()}
		if !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				info.SizeBytes = fi.Size()
			}
		}
		out = append(out, info)
		if d.IsDir() && (!recursive || slices.Contains(skipDirs, d.Name())) {
			return fs.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, FileError("list", p, err)
	}
	slices.SortFunc(out, func(a, b koda.FileInfo) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// Replace swaps old for new in path when old occurs exactly expected times (0 means 1).
func (f *Files) Replace(ctx context.Context, p, old, new string, expected int) (int, error) {
	if err := f.check(ctx); err != nil {
		return 0, err
	}
	if old == "" {
		return 0, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "old_string must not be empty")
	}
	if expected < 0 {
		return 0, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "expected_replacements must not be negative")
	}
	if expected == 0 {
		expected = 1
	}
	name, err := CleanPath(p, false)
	if err != nil {
		return 0, err
	}
	data, st, err := readAllMax(f.root, name, p, "replace", MaxReadBytes, "rewrite it with write_file")
	if err != nil {
		return 0, err
	}
	found := strings.Count(string(data), old)
	if found != expected {
		return 0, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeInvalidRequest,
			"expected %d occurrence(s) of old_string in %q, found %d; nothing was changed", expected, p, found)
	}
	// The size is known before the result is built: a short old_string found a million
	// times with a long new_string would otherwise build gigabytes.
	if after := int64(len(data)) + int64(found)*(int64(len(new))-int64(len(old))); after > MaxReadBytes {
		return 0, TooLarge(p, after, MaxReadBytes, "the file would grow past what replace edits")
	}
	out := strings.ReplaceAll(string(data), old, new)
	if err := f.reserve(ctx, int64(len(out)-len(data))); err != nil {
		return 0, err
	}
	if f.Via != nil {
		if _, err := f.Via.WriteFile(ctx, "replace", name, p, strings.NewReader(out), false); err != nil {
			return 0, err
		}
		return found, nil
	}
	if err := f.root.WriteFile(name, []byte(out), st.Mode().Perm()); err != nil {
		return 0, FileError("replace", p, err)
	}
	return found, nil
}

// SearchFiles returns the lines matching the regular expression pattern in the files
// selected by include ("*.js" matches base names; a pattern with "/" the whole path).
// Binary files and files over 4 MiB are skipped; at most 1000 matches are returned.
func (f *Files) SearchFiles(ctx context.Context, pattern, include string) ([]koda.SearchMatch, error) {
	if err := f.check(ctx); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "pattern is not a valid regular expression: %v", err)
	}
	if include != "" {
		include = path.Clean(include)
		if !validGlob(include) {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "include %q is not a valid glob", include)
		}
	}
	out := []koda.SearchMatch{}
	var scanned int64
	err = f.walkFiles(ctx, include, func(rel string, d fs.DirEntry) error {
		if !d.Type().IsRegular() || !matchInclude(include, rel) {
			return nil
		}
		if fi, err := d.Info(); err != nil || fi.Size() > maxSearchFileSize {
			return nil
		}
		data, _, err := readAllMax(f.root, rel, rel, "search", maxSearchFileSize, "")
		if err != nil {
			return nil // vanished, grew, or unreadable: not a match
		}
		if scanned += int64(len(data)); scanned > maxSearchScan {
			return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeInvalidRequest,
				"search read %d MiB of files without finishing; narrow it with include", maxSearchScan>>20)
		}
		if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
			return nil // binary
		}
		for i, line := range strings.Split(string(data), "\n") {
			if !re.MatchString(line) {
				continue
			}
			if len(line) > maxMatchLineChars {
				line = line[:maxMatchLineChars]
			}
			out = append(out, koda.SearchMatch{Path: rel, Line: i + 1, Text: strings.TrimSuffix(line, "\r")})
			if len(out) >= maxSearchMatches {
				return fs.SkipAll
			}
		}
		return nil
	})
	if err != nil {
		return nil, FileError("search", ".", err)
	}
	return out, nil
}

// Glob returns the files and folders whose relative path matches pattern, sorted.
// Segments are path.Match patterns and "**" matches any number of folders.
func (f *Files) Glob(ctx context.Context, pattern string) ([]string, error) {
	if err := f.check(ctx); err != nil {
		return nil, err
	}
	clean, err := CleanPath(pattern, false)
	if err != nil {
		return nil, err
	}
	if !validGlob(clean) {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "%q is not a valid glob", pattern)
	}
	out := []string{}
	err = f.walkFiles(ctx, clean, func(rel string, d fs.DirEntry) error {
		if matchGlob(clean, rel) {
			out = append(out, rel)
			if len(out) >= maxGlobResults {
				return fs.SkipAll
			}
		}
		return nil
	})
	if err != nil {
		return nil, FileError("glob", pattern, err)
	}
	slices.Sort(out)
	return out, nil
}

// walkFiles visits every entry under the root except the root itself, skipping
// dependency folders unless filter mentions them.
func (f *Files) walkFiles(ctx context.Context, filter string, fn func(rel string, d fs.DirEntry) error) error {
	return fs.WalkDir(f.root.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
		if err != nil {
			if rel != "." && (errors.Is(err, fs.ErrPermission) || errors.Is(err, fs.ErrNotExist)) {
				return nil // skip what changed or cannot be read under us
			}
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if rel == "." {
			return nil
		}
		if d.IsDir() && slices.Contains(skipDirs, d.Name()) && !strings.Contains(filter, d.Name()) {
			return fs.SkipDir
		}
		return fn(rel, d)
	})
}

// Dir validates a folder path for commands and transfers and returns it cleaned.
func (f *Files) Dir(p string) (string, error) {
	wd, err := CleanPath(p, true)
	if err != nil {
		return "", err
	}
	st, err := f.root.Stat(wd)
	if err != nil {
		return "", FileError("open", p, err)
	}
	if !st.IsDir() {
		return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "%q is not a directory", p)
	}
	return wd, nil
}

// Export writes path as a tar.gz (a folder's tree, or one file) to w.
func (f *Files) Export(ctx context.Context, p string, w io.Writer) error {
	if err := f.check(ctx); err != nil {
		return err
	}
	name, err := CleanPath(p, true)
	if err != nil {
		return err
	}
	st, err := f.root.Stat(name)
	if err != nil {
		return FileError("transfer", p, err)
	}
	if !st.IsDir() {
		return koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "%q is not a directory; transfer one file without recursive", p)
	}
	sub, err := f.root.OpenRoot(name)
	if err != nil {
		return FileError("transfer", p, err)
	}
	defer sub.Close()
	b := f.Budget()
	b.Files = exportFiles
	return CheckpointRoot(ctx, sub, w, false, b)
}

// exportFiles bounds the entries of a folder transfer, which keeps node_modules.
const exportFiles = 100000

// Budget bounds a checkpoint of, or a restore into, this folder: its disk quota in
// apparent bytes (DefaultBudget's without one).
func (f *Files) Budget() Budget {
	b := DefaultBudget
	if f.Quota > 0 {
		b.Bytes = f.Quota
	}
	return b
}

// Import extracts a tar.gz into the folder path (created if missing), owning every
// entry, within the quota.
func (f *Files) Import(ctx context.Context, p string, r io.Reader) error {
	if err := f.check(ctx); err != nil {
		return err
	}
	name, err := CleanPath(p, true)
	if err != nil {
		return err
	}
	var budget int64 = -1
	if f.Quota > 0 {
		used, err := f.Usage(ctx)
		if err != nil {
			return err
		}
		budget = f.Quota - used
	}
	if f.Via != nil {
		err = f.Via.Import(ctx, name, p, r, budget)
	} else {
		err = f.ImportStream(ctx, name, p, r, budget)
	}
	var ke *koda.Error
	if errors.As(err, &ke) && ke.Code == koda.CodeQuotaExceeded && !strings.HasPrefix(ke.Message, memoryPrefix) {
		ke.Message = quotaError(f.Quota, nil).Message
	}
	return err
}

// ImportStream is Import's extraction once the checks passed: it creates the folder
// name and extracts the tar.gz r into it, at most budget bytes (-1: no limit) and
// within the folder's Budget, owning every entry.
func (f *Files) ImportStream(ctx context.Context, name, p string, r io.Reader, budget int64) error {
	if name != "." {
		if err := f.mkdirAll(name); err != nil {
			return FileError("transfer", p, err)
		}
	}
	sub, err := f.root.OpenRoot(name)
	if err != nil {
		return FileError("transfer", p, err)
	}
	defer sub.Close()
	opts := restoreOpts{uid: -1, gid: -1, budget: budget, limits: f.Budget()}
	if f.owned() {
		opts.uid, opts.gid = f.UID, f.GID
	}
	return restoreRoot(ctx, r, sub, opts)
}

// CleanPath turns a tool path into a slash path relative to the sandbox root, or answers
// INVALID_PATH. "" and "." name the root itself when allowRoot is set.
func CleanPath(p string, allowRoot bool) (string, error) {
	if strings.ContainsRune(p, 0) {
		return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "path %q contains a NUL byte", p)
	}
	if p == "" {
		p = "."
	}
	if filepath.IsAbs(p) || strings.HasPrefix(p, "/") {
		return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "path %q is absolute; paths are relative to the project root", p)
	}
	c := path.Clean(filepath.ToSlash(p))
	if !filepath.IsLocal(c) && c != "." {
		return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "path %q leaves the project root", p)
	}
	if c == "." && !allowRoot {
		return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "path %q names the project root, not a file", p)
	}
	return c, nil
}

// FileError turns an os.Root failure into the sandbox tool error a client can act on.
func FileError(op, p string, err error) error {
	if err == nil {
		return nil
	}
	var ke *koda.Error
	if errors.As(err, &ke) {
		return err
	}
	if IsEscape(err) {
		return &koda.Error{Kind: koda.EINVALID, Code: koda.CodeInvalidPath,
			Message: fmt.Sprintf("path %q leads outside the project root", p), Err: err}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &koda.Error{Kind: koda.ENOTFOUND, Code: koda.CodeFileNotFound,
			Message: fmt.Sprintf("%q does not exist", p), Err: err}
	case errors.Is(err, syscall.EISDIR):
		return &koda.Error{Kind: koda.EINVALID, Code: koda.CodeInvalidPath,
			Message: fmt.Sprintf("%q is a directory", p), Err: err}
	case errors.Is(err, syscall.ENOTDIR):
		return &koda.Error{Kind: koda.EINVALID, Code: koda.CodeInvalidPath,
			Message: fmt.Sprintf("a parent of %q is not a directory", p), Err: err}
	case errors.Is(err, syscall.ELOOP):
		return &koda.Error{Kind: koda.EINVALID, Code: koda.CodeInvalidPath,
			Message: fmt.Sprintf("%q is a symlink loop", p), Err: err}
	case errors.Is(err, fs.ErrPermission):
		// The writes run as the sandbox's user (Files.Via): a file or folder the sandbox
		// made read-only stays so, as it would for its own commands.
		return &koda.Error{Kind: koda.EINVALID, Code: koda.CodeInvalidPath,
			Message: fmt.Sprintf("%q: permission denied to the sandbox's user", p), Err: err}
	case errors.Is(err, syscall.ENOMEM):
		// Only a write charged to a memory group at its limit (Files.Via) meets this.
		return MemoryError(0, err)
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT), errors.Is(err, syscall.EFBIG):
		return &koda.Error{Kind: koda.ELIMIT, Code: koda.CodeQuotaExceeded,
			Message: "the sandbox is out of disk space", Err: err}
	}
	return fmt.Errorf("%s %s: %w", op, p, err)
}
