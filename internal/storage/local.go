// Package storage keeps Koda's permanent files (checkpoints, videos, thumbnails).
//
// Local stores them in a folder and hands out expiring HMAC-signed download URLs that
// the API verifies before serving a file.
package storage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/signing"
)

// Error codes of this package.
const (
	CodeInvalidKey       = "INVALID_KEY"
	CodeInvalidSignature = "INVALID_SIGNATURE"
	CodeURLExpired       = "URL_EXPIRED"
)

// tmpDir holds files being written; keys may not enter it.
const tmpDir = ".tmp"

// Local is a koda.Storage in a folder of this host. It is safe for concurrent use.
type Local struct {
	dir       string
	publicURL string
	secret    []byte
}

var _ koda.Storage = (*Local)(nil)

// NewLocal stores files under dir (created on first write) and signs download URLs
// under publicURL (e.g. "http://localhost:8080") with secret. With an empty secret no
// URL verifies.
func NewLocal(dir, publicURL string, secret []byte) *Local {
	return &Local{dir: dir, publicURL: strings.TrimRight(publicURL, "/"), secret: secret}
}

// Dir is the folder holding the files.
func (l *Local) Dir() string { return l.dir }

// CheckKey checks a key is a clean relative slash path that stays in the folder. Every
// backend applies it, so a key accepted by one is accepted by all.
func CheckKey(key string) error {
	switch {
	case key == "",
		strings.ContainsAny(key, "\x00\\"),
		strings.HasPrefix(key, "/"),
		path.Clean(key) != key,
		!filepath.IsLocal(key),
		key == tmpDir || strings.HasPrefix(key, tmpDir+"/"):
		return koda.Errorf(koda.EINVALID, CodeInvalidKey, "storage key %q must be a clean relative path", key)
	}
	return nil
}

// root opens the folder; each call opens it anew so a folder replaced underneath
// (restored backup, test cleanup) is seen.
func (l *Local) root() (*os.Root, error) {
	if err := os.MkdirAll(l.dir, 0o755); err != nil {
		return nil, fmt.Errorf("storage %s: %w", l.dir, err)
	}
	r, err := os.OpenRoot(l.dir)
	if err != nil {
		return nil, fmt.Errorf("storage %s: %w", l.dir, err)
	}
	return r, nil
}

// Put stores r under key. The data goes to a temporary file first and is renamed into
// place once complete, so a reader never sees a half-written file.
func (l *Local) Put(ctx context.Context, key string, r io.Reader) (int64, error) {
	if err := CheckKey(key); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	root, err := l.root()
	if err != nil {
		return 0, err
	}
	defer root.Close()
	if err := root.MkdirAll(tmpDir, 0o755); err != nil {
		return 0, fmt.Errorf("put %s: %w", key, err)
	}
	if dir := path.Dir(key); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return 0, l.fileError("put", key, err)
		}
	}
	tmp := tmpDir + "/" + randomName()
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, fmt.Errorf("put %s: %w", key, err)
	}
	n, err := io.Copy(f, ctxReader{ctx, r})
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = root.Rename(tmp, key)
	}
	if err != nil {
		_ = root.Remove(tmp)
		return 0, l.fileError("put", key, err)
	}
	return n, nil
}

// Open returns the file stored under key, or ENOTFOUND.
func (l *Local) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := CheckKey(key); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	root, err := l.root()
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(key)
	if err != nil {
		return nil, l.fileError("open", key, err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, koda.NotFound("file", key)
	}
	return f, nil
}

// Path returns the host path of the file stored under key, for serving it; ENOTFOUND
// when it does not exist. The check goes through os.Root, so a key whose folder is a
// symlink out of storage is refused.
func (l *Local) Path(key string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	root, err := l.root()
	if err != nil {
		return "", err
	}
	defer root.Close()
	st, err := root.Stat(key)
	if err != nil {
		return "", l.fileError("stat", key, err)
	}
	if !st.Mode().IsRegular() {
		return "", koda.NotFound("file", key)
	}
	return filepath.Join(l.dir, filepath.FromSlash(key)), nil
}

// Delete removes the file under key; a missing file is not an error.
func (l *Local) Delete(ctx context.Context, key string) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	root, err := l.root()
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.Remove(key); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return l.fileError("delete", key, err)
	}
	return nil
}

// DeletePrefix removes every key starting with prefix, as an object store would:
// "projects/prj_x/" removes that folder, "projects/prj_x/renders/rnd_" every name in
// renders/ starting with "rnd_". An empty prefix is refused.
func (l *Local) DeletePrefix(ctx context.Context, prefix string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	dir, base, err := splitPrefix(prefix)
	if err != nil {
		return err
	}
	root, err := l.root()
	if err != nil {
		return err
	}
	defer root.Close()
	if base == "" {
		if err := root.RemoveAll(dir); err != nil {
			return l.fileError("delete prefix", prefix, err)
		}
		return nil
	}
	if dir == "" {
		dir = "."
	}
	entries, err := fs.ReadDir(root.FS(), dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return l.fileError("delete prefix", prefix, err)
	}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !strings.HasPrefix(e.Name(), base) || (dir == "." && e.Name() == tmpDir) {
			continue
		}
		if err := root.RemoveAll(path.Join(dir, e.Name())); err != nil {
			return l.fileError("delete prefix", prefix, err)
		}
	}
	return nil
}

// List calls fn for every file whose key starts with prefix; files being written
// (in the temporary folder) are not listed.
func (l *Local) List(ctx context.Context, prefix string, fn func(koda.StoredFile) error) error {
	dir, _, err := splitPrefix(prefix)
	if err != nil {
		return err
	}
	root, err := l.root()
	if err != nil {
		return err
	}
	defer root.Close()
	if dir == "" {
		dir = "."
	}
	err = fs.WalkDir(root.FS(), dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if d.IsDir() {
			if name == tmpDir {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasPrefix(name, prefix) {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // deleted meanwhile
		}
		if err != nil {
			return err
		}
		return fn(koda.StoredFile{Key: name, Size: info.Size(), ModTime: info.ModTime()})
	})
	if err != nil {
		return l.fileError("list", prefix, err)
	}
	return nil
}

// CheckPrefix checks a DeletePrefix argument: a folder that is a valid key followed by
// "/" and the start of a name. An empty prefix, which would delete everything, is refused.
func CheckPrefix(prefix string) error {
	_, _, err := splitPrefix(prefix)
	return err
}

func splitPrefix(prefix string) (dir, base string, err error) {
	dir, base = path.Split(prefix)
	dir = strings.TrimSuffix(dir, "/")
	if prefix == "" || (dir == "" && base == "") {
		return "", "", koda.Errorf(koda.EINVALID, CodeInvalidKey, "refusing to delete every stored file: empty prefix")
	}
	if dir != "" {
		if err := CheckKey(dir); err != nil {
			return "", "", err
		}
	}
	if base != "" && (strings.ContainsAny(base, "\x00\\") || base == "." || base == "..") {
		return "", "", koda.Errorf(koda.EINVALID, CodeInvalidKey, "storage prefix %q is not valid", prefix)
	}
	return dir, base, nil
}

// Ping checks the folder is writable.
func (l *Local) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	root, err := l.root()
	if err != nil {
		return err
	}
	defer root.Close()
	if err := root.MkdirAll(tmpDir, 0o755); err != nil {
		return fmt.Errorf("storage %s not writable: %w", l.dir, err)
	}
	probe := tmpDir + "/ping-" + randomName()
	if err := root.WriteFile(probe, []byte("ok"), 0o644); err != nil {
		return fmt.Errorf("storage %s not writable: %w", l.dir, err)
	}
	return root.Remove(probe)
}

// URL returns publicURL/files/<key>?exp=<unix>&sig=<hex HMAC-SHA256(secret, key+"\n"+exp)>,
// valid until ttl passes. Only an invalid key fails: signing is an HMAC.
func (l *Local) URL(key string, ttl time.Duration) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	exp := time.Now().Add(ttl).Unix()
	segs := strings.Split(key, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	q := url.Values{"exp": {strconv.FormatInt(exp, 10)}, "sig": {l.sign(key, exp)}}
	return l.publicURL + "/files/" + strings.Join(segs, "/") + "?" + q.Encode(), nil
}

func (l *Local) sign(key string, exp int64) string {
	return signing.Sign(l.secret, key, strconv.FormatInt(exp, 10))
}

// Verify checks a download URL's signature for key (INVALID_SIGNATURE) and then its
// expiry (URL_EXPIRED); both are EUNAUTHORIZED.
func (l *Local) Verify(key string, exp int64, sig string) error {
	if !signing.Valid(l.secret, sig, key, strconv.FormatInt(exp, 10)) {
		return koda.Errorf(koda.EUNAUTHORIZED, CodeInvalidSignature, "the download link is not valid")
	}
	if time.Now().Unix() > exp {
		return koda.Errorf(koda.EUNAUTHORIZED, CodeURLExpired, "the download link has expired")
	}
	return nil
}

func (l *Local) fileError(op, key string, err error) error {
	var ke *koda.Error
	switch {
	case errors.As(err, &ke):
		return err
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return &koda.Error{Kind: koda.ENOTFOUND, Code: koda.CodeNotFound, Message: fmt.Sprintf("file %q not found", key), Err: err}
	case errors.Is(err, fs.ErrExist), errors.Is(err, syscall.EISDIR):
		return &koda.Error{Kind: koda.ECONFLICT, Code: CodeInvalidKey,
			Message: fmt.Sprintf("storage key %q clashes with a folder or file of that name", key), Err: err}
	}
	return fmt.Errorf("storage %s %s: %w", op, key, err)
}

// ctxReader stops a copy when its context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func randomName() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
