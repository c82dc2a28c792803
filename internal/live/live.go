// Package live serves the live preview of a project (the specification's
// sandbox_start_preview): the page the agent is writing, read from the folder of the
// sandbox writing it when that sandbox lives in this process, else from the project's
// latest checkpoint. Access goes through short-lived tokens bound to a tenant and a
// project and signed with the deployment's signing secret (internal/signing), so a
// forged, altered or expired token is refused without a database lookup.
package live

import (
	"context"
	"encoding/base64"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/signing"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox"
)

// Codes of refused live preview tokens.
const (
	CodeTokenInvalid = "LIVE_TOKEN_INVALID"
	CodeTokenExpired = "LIVE_TOKEN_EXPIRED"
)

// DefaultTTL is how long a live preview URL works.
const DefaultTTL = 10 * time.Minute

// Dirs finds the folder of a live sandbox writing a project (*sandbox.Pool).
type Dirs interface {
	ProjectDir(tenant, project string) (string, bool)
}

// Preview issues and checks live preview tokens and opens projects' current files.
// Set the fields, then use it; it is safe for concurrent use.
type Preview struct {
	// Secret is the deployment's signing secret; tokens are signed under its "live"
	// purpose. Empty: every token is refused.
	Secret []byte
	TTL    time.Duration // DefaultTTL when 0
	// Dirs finds sandboxes of this process; nil serves checkpoints only.
	Dirs    Dirs
	Storage koda.Storage
	// Budget bounds what unpacking a checkpoint may write (sandbox.DefaultBudget's when zero).
	Budget sandbox.Budget
	// WorkDir holds unpacked checkpoints; a fresh temporary folder when empty.
	WorkDir string
	// MaxAge is how long an unpacked checkpoint is served before it is unpacked again,
	// so a page loading its files sees one version (1 s when 0).
	MaxAge time.Duration
	Logger *slog.Logger
	Now    func() time.Time

	mu       sync.Mutex
	unpacked map[string]*unpacked // by project
}

type unpacked struct {
	mu  sync.RWMutex // readers serve files; the writer replaces dir
	dir string
	at  time.Time
}

func (p *Preview) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

func (p *Preview) secret() []byte { return signing.For(p.Secret, "live") }

// Issue returns a token for the tenant's project and when it expires. The caller has
// checked that the project is the tenant's.
func (p *Preview) Issue(tenantID, projectID string) (string, time.Time) {
	ttl := p.TTL
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	exp := p.now().Add(ttl).Truncate(time.Second)
	expS := strconv.FormatInt(exp.Unix(), 10)
	claims := base64.RawURLEncoding.EncodeToString([]byte(tenantID + "\n" + projectID + "\n" + expS))
	return claims + "." + signing.Sign(p.secret(), tenantID, projectID, expS), exp
}

// Verify returns the tenant and project a token grants; a forged or altered token is
// EFORBIDDEN LIVE_TOKEN_INVALID, an expired one EFORBIDDEN LIVE_TOKEN_EXPIRED.
func (p *Preview) Verify(token string) (tenantID, projectID string, err error) {
	invalid := koda.Errorf(koda.EFORBIDDEN, CodeTokenInvalid, "the live preview link is not valid")
	claims, sig, ok := strings.Cut(token, ".")
	if !ok || len(token) > 512 {
		return "", "", invalid
	}
	raw, err := base64.RawURLEncoding.DecodeString(claims)
	if err != nil {
		return "", "", invalid
	}
	parts := strings.Split(string(raw), "\n")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || !signing.Valid(p.secret(), sig, parts...) {
		return "", "", invalid
	}
	exp, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return "", "", invalid
	}
	if p.now().Unix() > exp {
		return "", "", koda.Errorf(koda.EFORBIDDEN, CodeTokenExpired, "the live preview link has expired; ask for a new one")
	}
	return parts[0], parts[1], nil
}

// Files is a project's folder opened for reading: every path stays beneath it
// (renderer.PageFS); Close releases it.
// (An alias of an unnamed interface, so the API can name the same type without
// importing this package.)
type Files = interface {
	fs.FS
	Close() error
}

type releaser struct {
	*renderer.PageFS
	release func()
}

func (r releaser) Close() error {
	err := r.PageFS.Close()
	r.release()
	return err
}

// Open returns the project's current files: the folder of a sandbox writing them in
// this process, else its latest checkpoint unpacked (ENOTFOUND when it has none yet).
func (p *Preview) Open(ctx context.Context, tenantID, projectID string) (Files, error) {
	if p.Dirs != nil {
		if dir, ok := p.Dirs.ProjectDir(tenantID, projectID); ok {
			pfs, err := renderer.OpenPageFS(dir)
			if err == nil {
				return releaser{pfs, func() {}}, nil
			}
			// The sandbox went away between finding and opening it: its checkpoint has the files.
		}
	}
	return p.openCheckpoint(ctx, projectID)
}

func (p *Preview) openCheckpoint(ctx context.Context, projectID string) (Files, error) {
	if p.Storage == nil {
		return nil, koda.NotFound("live preview", projectID)
	}
	e := p.entry(projectID)
	maxAge := p.MaxAge
	if maxAge <= 0 {
		maxAge = time.Second
	}
	for range 2 {
		e.mu.RLock()
		if e.dir != "" && p.now().Sub(e.at) < maxAge {
			pfs, err := renderer.OpenPageFS(e.dir)
			if err != nil {
				e.mu.RUnlock()
				return nil, fmt.Errorf("open unpacked checkpoint of %s: %w", projectID, err)
			}
			return releaser{pfs, e.mu.RUnlock}, nil
		}
		e.mu.RUnlock()
		e.mu.Lock()
		err := p.refresh(ctx, projectID, e, maxAge)
		e.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	return nil, koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "the live preview is busy; retry")
}

// entry returns the project's unpacked checkpoint slot, forgetting slots unused for
// a minute so folders do not pile up.
func (p *Preview) entry(projectID string) *unpacked {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.unpacked == nil {
		p.unpacked = map[string]*unpacked{}
	}
	for id, e := range p.unpacked {
		if id != projectID && p.now().Sub(e.at) > time.Minute && e.mu.TryLock() {
			p.drop(e)
			delete(p.unpacked, id)
			e.mu.Unlock()
		}
	}
	e := p.unpacked[projectID]
	if e == nil {
		e = &unpacked{}
		p.unpacked[projectID] = e
	}
	return e
}

func (p *Preview) drop(e *unpacked) {
	if e.dir == "" {
		return
	}
	if err := os.RemoveAll(e.dir); err != nil && p.Logger != nil {
		p.Logger.Warn("remove unpacked checkpoint", "dir", e.dir, "err", err)
	}
	e.dir = ""
}

// refresh unpacks the latest checkpoint into a new folder (under e's write lock).
func (p *Preview) refresh(ctx context.Context, projectID string, e *unpacked, maxAge time.Duration) error {
	if e.dir != "" && p.now().Sub(e.at) < maxAge {
		return nil // another request refreshed it
	}
	rc, err := p.Storage.Open(ctx, koda.CheckpointKey(koda.ProjectFolder(projectID)))
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		p.drop(e)
		return koda.Errorf(koda.ENOTFOUND, koda.CodeNotFound, "the agent has not written any file yet")
	}
	if err != nil {
		return fmt.Errorf("open checkpoint of %s: %w", projectID, err)
	}
	defer rc.Close()
	work := p.WorkDir
	if work == "" {
		work = filepath.Join(os.TempDir(), "koda-live")
	}
	if err := os.MkdirAll(work, 0o700); err != nil {
		return fmt.Errorf("live preview folder: %w", err)
	}
	dir, err := os.MkdirTemp(work, projectID+"-")
	if err != nil {
		return fmt.Errorf("live preview folder: %w", err)
	}
	if err := sandbox.Restore(ctx, rc, dir, p.Budget); err != nil {
		_ = os.RemoveAll(dir)
		return fmt.Errorf("unpack checkpoint of %s: %w", projectID, err)
	}
	p.drop(e)
	e.dir, e.at = dir, p.now()
	return nil
}

// Close removes every unpacked checkpoint.
func (p *Preview) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for id, e := range p.unpacked {
		e.mu.Lock()
		p.drop(e)
		e.mu.Unlock()
		delete(p.unpacked, id)
	}
}
