// Package assets is a tenant's media library (DESIGN.md §3.10): images, fonts and
// audio uploaded or fetched by URL, checked as hostile before anything is kept, and
// stored content-addressed through koda.Storage with their metadata in the database.
//
// An upload is streamed to a temporary file while it is hashed, never held whole in
// memory; its first bytes decide its kind (sniffing, not the name or the declared
// type, which must only agree); the kind's check reads it and, for images, writes
// it anew without metadata; only then is it stored.
package assets

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/ssrf"
)

// Limits bound what one upload may be. Zero fields take DefaultLimits'.
type Limits struct {
	ImageMaxBytes  int64
	ImageMaxPixels int64
	FontMaxBytes   int64
	AudioMaxBytes  int64
	AudioMaxLength time.Duration
}

// DefaultLimits are the issue's: images ≤ 20 MB and 40 megapixels, fonts ≤ 10 MB,
// audio ≤ 100 MB and 10 minutes.
var DefaultLimits = Limits{ImageMaxBytes: 20_000_000, ImageMaxPixels: 40_000_000, FontMaxBytes: 10_000_000,
	AudioMaxBytes: 100_000_000, AudioMaxLength: 10 * time.Minute}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.ImageMaxBytes > 0 {
		d.ImageMaxBytes = l.ImageMaxBytes
	}
	if l.ImageMaxPixels > 0 {
		d.ImageMaxPixels = l.ImageMaxPixels
	}
	if l.FontMaxBytes > 0 {
		d.FontMaxBytes = l.FontMaxBytes
	}
	if l.AudioMaxBytes > 0 {
		d.AudioMaxBytes = l.AudioMaxBytes
	}
	if l.AudioMaxLength > 0 {
		d.AudioMaxLength = l.AudioMaxLength
	}
	return d
}

func (l Limits) maxBytes(k koda.AssetKind) int64 {
	switch k {
	case koda.AssetImage:
		return l.ImageMaxBytes
	case koda.AssetFont:
		return l.FontMaxBytes
	default:
		return l.AudioMaxBytes
	}
}

// MaxUpload is the largest file any kind accepts.
func (s *Service) MaxUpload() int64 {
	s.init()
	return max(s.Limits.ImageMaxBytes, s.Limits.FontMaxBytes, s.Limits.AudioMaxBytes)
}

// Service checks, stores, lists and deletes assets. Set the fields, then use it.
type Service struct {
	Store   koda.AssetStore
	Storage koda.Storage
	// Tenants gives each tenant's AssetBytes quota; a tenant without a row, or a nil
	// Tenants, has DefaultQuota.
	Tenants      koda.TenantStore
	DefaultQuota int64
	Limits       Limits
	Prober       *Prober
	// Fetch is the HTTP client of POST /v1/assets {"url"}; nil means ssrf.Guard{}'s
	// client (public addresses only). Anything else must refuse internal addresses
	// as ssrf.Guard does: tests may give a plain client for a loopback server.
	Fetch        *http.Client
	FetchTimeout time.Duration // 0 means 2 minutes
	TempDir      string        // "" means os.TempDir()
	Logger       *slog.Logger
	// DecodeSlots bounds images decoded at once (their pixels are held in memory);
	// 0 means 2.
	DecodeSlots int

	once  sync.Once
	slots chan struct{}
	fetch *http.Client
}

func (s *Service) init() {
	s.once.Do(func() {
		s.Limits = s.Limits.withDefaults()
		n := s.DecodeSlots
		if n <= 0 {
			n = 2
		}
		s.slots = make(chan struct{}, n)
		s.fetch = s.Fetch
		if s.fetch == nil {
			s.fetch = (&ssrf.Guard{}).Client()
		}
		if s.Prober == nil {
			s.Prober = &Prober{}
		}
	})
}

func (s *Service) decodeSlots() chan struct{} { return s.slots }

func (s *Service) log() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

// maxNameLen bounds a file's original name as stored.
const maxNameLen = 255

func tenantOf(ctx context.Context) string {
	if t := koda.TenantFromContext(ctx); t != "" {
		return t
	}
	return koda.DefaultTenant
}

// Create checks a file and adds it to the caller's library: its name and declared
// type as the client gave them (both may be empty), and its bytes.
func (s *Service) Create(ctx context.Context, name, contentType string, body io.Reader) (*koda.Asset, error) {
	s.init()
	tenant := tenantOf(ctx)
	name = cleanName(name)

	src, err := s.tempFile("upload")
	if err != nil {
		return nil, err
	}
	defer src.discard()

	// The first bytes decide the kind, and so the byte limit the rest is read under.
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(body, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, readError(err)
	}
	head = head[:n]
	if n == 0 {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "the file is empty")
	}
	fname, hint := sniff(head)
	f := formatNamed(fname)
	if f == nil {
		if hint == "" {
			hint = "none of them"
		}
		return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetUnsupportedType,
			"the file's content is %s; accepted are images (PNG, JPEG, WebP, SVG), fonts (TTF, OTF, WOFF2) and audio (MP3, AAC/M4A, WAV, OGG/Opus)", hint)
	}
	if err := checkNames(f, name, contentType); err != nil {
		return nil, err
	}
	limit := s.Limits.maxBytes(f.kind)
	if _, err := src.Write(head); err != nil {
		return nil, fmt.Errorf("write upload: %w", err)
	}
	rest, err := io.Copy(src, io.LimitReader(body, limit-int64(n)+1))
	if err != nil {
		return nil, readError(err)
	}
	size := int64(n) + rest
	if size > limit {
		return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetTooLarge,
			"the file is larger than %d bytes, the most a %s (%s) may have", limit, f.kind, strings.ToUpper(f.name))
	}

	a := &koda.Asset{ID: koda.NewID(koda.PrefixAsset), TenantID: tenant, Kind: f.kind, Format: f.name,
		MediaType: f.mediaType, Name: name}
	stored := src // what goes into storage: the upload itself, or a file written anew
	switch {
	case f.name == "svg":
		out, err := s.tempFile("svg")
		if err != nil {
			return nil, err
		}
		defer out.discard()
		if _, err := src.Seek(0, io.SeekStart); err != nil {
			return nil, fmt.Errorf("rewind upload: %w", err)
		}
		w, h, removed, err := sanitizeSVG(src, out)
		if err != nil {
			return nil, err
		}
		if len(removed) > 0 {
			s.log().Info("asset: SVG sanitized", "tenant", tenant, "asset", a.ID, "removed", removed)
		}
		a.Width, a.Height, stored = w, h, out
	case f.kind == koda.AssetImage:
		out, err := s.tempFile("image")
		if err != nil {
			return nil, err
		}
		defer out.discard()
		format, w, h, err := s.checkImage(ctx, f, src.File, out)
		if err != nil {
			return nil, err
		}
		if format != f.name {
			a.SourceFormat, a.Format, a.MediaType = f.name, format, formatNamed(format).mediaType
		}
		a.Width, a.Height, stored = w, h, out
	case f.name == "woff2":
		if err := checkWOFF2(src.File, size); err != nil {
			return nil, err
		}
	case f.kind == koda.AssetFont:
		if _, err := checkFont(f, src.File, size); err != nil {
			return nil, err
		}
	default:
		if err := src.Sync(); err != nil {
			return nil, fmt.Errorf("flush upload: %w", err)
		}
		codec, seconds, err := s.Prober.probe(ctx, f.name, src.Name(), s.Limits.AudioMaxLength)
		if err != nil {
			return nil, err
		}
		a.Codec, a.DurationS = codec, seconds
	}
	a.Size, a.SHA256 = stored.size, stored.sum()
	a.Key = koda.AssetKey(tenant, a.SHA256, a.Format)
	if err := s.store(ctx, a, stored); err != nil {
		return nil, err
	}
	s.log().Info("asset stored", "tenant", tenant, "asset", a.ID, "kind", a.Kind, "format", a.Format,
		"size", a.Size, "sha256", a.SHA256)
	return a, nil
}

// store puts the checked file into storage and records the asset. The object is
// put before the row exists, outside any transaction (a large upload must not hold
// the database's lock), unless it is there already; the recording transaction makes
// sure again, under the tenant's lock, in case a deletion took it meanwhile.
func (s *Service) store(ctx context.Context, a *koda.Asset, file *hashedFile) error {
	quota, err := s.quota(ctx, a.TenantID)
	if err != nil {
		return err
	}
	put := func() error {
		if _, err := file.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("rewind checked file: %w", err)
		}
		if _, err := s.Storage.Put(ctx, a.Key, file); err != nil {
			return fmt.Errorf("store asset %s at %s: %w", a.ID, a.Key, err)
		}
		return nil
	}
	existed, err := s.exists(ctx, a.Key)
	if err != nil {
		return err
	}
	if !existed {
		// Refuse before sending the bytes when the quota already says no; the
		// transaction below decides for good.
		if quota > 0 {
			used, err := s.Store.AssetBytes(ctx, a.TenantID)
			if err != nil {
				return err
			}
			if used+a.Size > quota {
				return koda.AssetQuotaError(used, a.Size, quota)
			}
		}
		if err := put(); err != nil {
			return err
		}
	}
	ensure := func() error {
		ok, err := s.exists(ctx, a.Key)
		if err != nil || ok {
			return err
		}
		return put()
	}
	err = s.Store.CreateAsset(ctx, a, quota, ensure)
	if err != nil && !existed {
		// Nothing refers to the object we put unless another upload of the same
		// bytes recorded it meanwhile; ReleaseAssetContent tells under the lock.
		if rerr := s.Store.ReleaseAssetContent(context.WithoutCancel(ctx), a.TenantID, a.SHA256, func() error {
			return s.Storage.Delete(context.WithoutCancel(ctx), a.Key)
		}); rerr != nil {
			s.log().Warn("asset: release refused upload", "tenant", a.TenantID, "key", a.Key, "err", rerr)
		}
	}
	return err
}

func (s *Service) exists(ctx context.Context, key string) (bool, error) {
	rc, err := s.Storage.Open(ctx, key)
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look for asset content %s: %w", key, err)
	}
	_ = rc.Close()
	return true, nil
}

// quota is the tenant's AssetBytes limit.
func (s *Service) quota(ctx context.Context, tenantID string) (int64, error) {
	if s.Tenants == nil {
		return s.DefaultQuota, nil
	}
	t, err := s.Tenants.GetTenant(ctx, tenantID)
	switch {
	case koda.ErrorKind(err) == koda.ENOTFOUND:
		return s.DefaultQuota, nil
	case err != nil:
		return 0, err
	}
	return t.Limits.AssetBytes, nil
}

// CreateFromURL fetches rawURL through the SSRF-safe client and adds it like an
// upload; name, when empty, is the URL path's last element.
func (s *Service) CreateFromURL(ctx context.Context, rawURL, name string) (*koda.Asset, error) {
	s.init()
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "url must be an absolute http or https URL")
	}
	if u.User != nil {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "url must not carry credentials")
	}
	timeout := s.FetchTimeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "url is not a valid request URL")
	}
	req.Header.Set("User-Agent", "Koda-Assets/1")
	resp, err := s.fetch.Do(req)
	if err != nil {
		var blocked *ssrf.BlockedError
		if errors.As(err, &blocked) {
			return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetURLForbidden,
				"url points at %s, a loopback, private, link-local or reserved address; assets are fetched from public addresses only", blocked.Addr)
		}
		if ctx.Err() != nil {
			return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetFetchFailed, "url did not send its file within %s", timeout)
		}
		return nil, &koda.Error{Kind: koda.EUNPROCESSABLE, Code: koda.CodeAssetFetchFailed,
			Message: fmt.Sprintf("url could not be fetched from %s", u.Host), Err: err}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetFetchFailed,
			"url answered %d, a redirect; redirects are not followed: give the file's final URL", resp.StatusCode)
	case resp.StatusCode != http.StatusOK:
		return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetFetchFailed, "url answered %d, not 200", resp.StatusCode)
	case resp.Body == http.NoBody:
		// The SSRF client drops the body of replies from allow-listed private
		// addresses (KODA_WEBHOOK_ALLOW): their contents must not reach a tenant.
		return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetURLForbidden,
			"url is served from a private address; assets are fetched from public addresses only")
	}
	if name == "" {
		name = path.Base(u.Path)
		if name == "/" || name == "." {
			name = ""
		}
	}
	return s.Create(ctx, name, resp.Header.Get("Content-Type"), resp.Body)
}

// Get returns an asset of the caller's, or ENOTFOUND.
func (s *Service) Get(ctx context.Context, id string) (*koda.Asset, error) {
	a, err := s.Store.GetAsset(ctx, id)
	if koda.ErrorKind(err) == koda.ENOTFOUND || err == nil && a.TenantID != tenantOf(ctx) {
		// Another tenant's asset is as absent as one that never was.
		return nil, koda.NotFound("asset", id)
	}
	return a, err
}

// List returns a page of the caller's assets, oldest first, and the next cursor.
func (s *Service) List(ctx context.Context, q koda.AssetQuery) ([]*koda.Asset, string, error) {
	if q.Kind != "" && !q.Kind.Valid() {
		return nil, "", koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "kind must be image, font or audio")
	}
	size := koda.PageSize(q.Limit)
	list, err := s.Store.ListAssets(ctx, koda.AssetFilter{TenantID: tenantOf(ctx), Kind: q.Kind, AfterID: q.Cursor, Limit: size + 1})
	if err != nil {
		return nil, "", err
	}
	list, next := koda.Page(list, size, func(a *koda.Asset) string { return a.ID })
	return list, next, nil
}

// Delete removes an asset of the caller's; its bytes go when no other asset of the
// tenant holds them. Projects that used it keep their own copies (DESIGN.md §3.10).
func (s *Service) Delete(ctx context.Context, id string) error {
	a, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	return s.Store.DeleteAsset(ctx, a.ID, func(key string) error {
		if err := s.Storage.Delete(ctx, key); err != nil && koda.ErrorKind(err) != koda.ENOTFOUND {
			return err
		}
		return nil
	})
}

// hashedFile is a temporary file that hashes what is written to it.
type hashedFile struct {
	*os.File
	h    hash.Hash
	size int64
}

func (s *Service) tempFile(what string) (*hashedFile, error) {
	f, err := os.CreateTemp(s.TempDir, "koda-asset-"+what+"-*")
	if err != nil {
		return nil, fmt.Errorf("create temporary file for an asset: %w", err)
	}
	return &hashedFile{File: f, h: sha256.New()}, nil
}

func (f *hashedFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.h.Write(p[:n])
	f.size += int64(n)
	return n, err
}

// WriteString and ReadFrom hide os.File's, which would write around Write and its
// hash (io.WriteString and io.Copy prefer them).
func (f *hashedFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }

func (f *hashedFile) ReadFrom(r io.Reader) (int64, error) {
	return io.Copy(struct{ io.Writer }{f}, r)
}

func (f *hashedFile) sum() string { return hex.EncodeToString(f.h.Sum(nil)) }

func (f *hashedFile) discard() {
	_ = f.Close()
	_ = os.Remove(f.Name())
}

// readError is the error of an upload whose body broke off.
func readError(err error) error {
	var ke *koda.Error
	if errors.As(err, &ke) {
		return err
	}
	return &koda.Error{Kind: koda.EINVALID, Code: koda.CodeInvalidRequest,
		Message: "the upload broke off before the file ended", Err: err}
}

// cleanName keeps a file's base name, as valid UTF-8 without control characters,
// at most maxNameLen bytes.
func cleanName(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	name = path.Base(strings.TrimSpace(name))
	if name == "." || name == "/" {
		return ""
	}
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return -1
		}
		return r
	}, strings.ToValidUTF8(name, ""))
	for len(name) > maxNameLen {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}
