package koda

import (
	"context"
	"time"
)

// PrefixAsset starts asset IDs.
const PrefixAsset = "ast"

// AssetKind is what a tenant's file is for: a picture, a typeface or a sound.
type AssetKind string

const (
	AssetImage AssetKind = "image" // PNG, JPEG, WebP (stored as PNG), SVG
	AssetFont  AssetKind = "font"  // TTF, OTF, WOFF2
	AssetAudio AssetKind = "audio" // MP3, AAC/M4A, WAV, OGG (Vorbis or Opus)
)

// Valid reports whether k is a known kind.
func (k AssetKind) Valid() bool { return k == AssetImage || k == AssetFont || k == AssetAudio }

// Error codes of asset uploads. Each names what is wrong with the file, so a client
// can tell a file it must fix from one it must not send at all.
const (
	// CodeLimitAssetBytes refuses an upload that would take a tenant's stored asset
	// bytes over Limits.AssetBytes (429, like every limit).
	CodeLimitAssetBytes = "LIMIT_ASSET_BYTES"
	// CodeAssetTooLarge: the file is larger than its kind's byte limit (413).
	CodeAssetTooLarge = "ASSET_TOO_LARGE"
	// CodeAssetUnsupportedType: the content is none of the accepted formats.
	CodeAssetUnsupportedType = "ASSET_UNSUPPORTED_TYPE"
	// CodeAssetTypeMismatch: the file's extension or declared Content-Type names
	// another format than its content.
	CodeAssetTypeMismatch = "ASSET_TYPE_MISMATCH"
	// CodeAssetMalformed: the content starts like an accepted format but does not
	// parse or decode as one.
	CodeAssetMalformed = "ASSET_MALFORMED"
	// CodeAssetDimensions: an image declares more pixels, or a wider or taller
	// picture, than allowed (a decompression bomb looks like this).
	CodeAssetDimensions = "ASSET_DIMENSIONS_TOO_LARGE"
	// CodeAssetTooLong: audio longer than allowed.
	CodeAssetTooLong = "ASSET_DURATION_TOO_LONG"
	// CodeAssetUnsafe: an SVG with something no allow-list lets through that cannot
	// be dropped without changing what the file is (a DOCTYPE, entities).
	CodeAssetUnsafe = "ASSET_UNSAFE_CONTENT"
	// CodeAssetFetchFailed: a URL to fetch an asset from did not answer with a file.
	CodeAssetFetchFailed = "ASSET_FETCH_FAILED"
	// CodeAssetURLForbidden: a URL to fetch an asset from points at an address Koda
	// must not reach (loopback, private, link-local…).
	CodeAssetURLForbidden = "ASSET_URL_FORBIDDEN"
)

// Asset is one checked file of a tenant's media library. Its bytes are stored once
// per tenant and content (Key, named by SHA256); several assets may share them.
type Asset struct {
	ID       string
	TenantID string
	Kind     AssetKind
	// Format is the stored file's format: png, jpeg, svg, ttf, otf, woff2, mp3, aac,
	// m4a, wav, ogg (Vorbis or Opus: see Codec). A WebP upload is stored as png (see
	// SourceFormat).
	Format string
	// SourceFormat is the uploaded file's format when it differs from Format.
	SourceFormat string
	// MediaType is the stored file's MIME type.
	MediaType string
	Size      int64  // stored bytes
	SHA256    string // hex SHA-256 of the stored bytes
	Key       string // storage key (AssetKey)
	Width     int    // images: pixels (SVG: from its viewBox or size, 0 when it has none)
	Height    int
	DurationS float64 // audio
	Codec     string  // audio: the stream's codec as ffprobe names it
	Name      string  // the file's original name, as given
	CreatedAt time.Time
}

// AssetFilter selects a tenant's assets in ID (creation) order.
type AssetFilter struct {
	TenantID string
	Kind     AssetKind // "" for every kind
	AfterID  string    // cursor: IDs sort by creation time
	Limit    int
}

// AssetQuery is a page of the caller's assets.
type AssetQuery struct {
	Kind   AssetKind
	Cursor string
	Limit  int
}

// AssetQuotaError is the refusal of new bytes that would take a tenant's asset
// library, holding used bytes, past maxBytes. Room appears only when the tenant deletes
// something, so a retry soon will not succeed by itself.
func AssetQuotaError(used, size, maxBytes int64) *Error {
	err := Errorf(ELIMIT, CodeLimitAssetBytes,
		"the asset library holds %d bytes and this file has %d; this account's library takes at most %d bytes: delete assets to make room",
		used, size, maxBytes)
	err.RetryAfter = 3600
	return err
}

// AssetStore persists asset metadata (internal/store implements it). The bytes live
// in Storage under AssetKey, shared by every asset of a tenant with the same content;
// the methods that decide whether an object is needed run serialized per tenant (a
// transaction holding a per-tenant lock), so a deletion and an upload of the same
// bytes cannot interleave between a count and a storage call.
type AssetStore interface {
	// CreateAsset inserts a. When no other asset of the tenant holds the same bytes,
	// it first checks the quota: with maxBytes > 0 it stores nothing and answers
	// ELIMIT CodeLimitAssetBytes when the tenant's stored bytes (each distinct
	// content counted once) plus a.Size exceed maxBytes; then it calls ensure, which
	// must make sure the object is in storage. An error from ensure rolls back.
	CreateAsset(ctx context.Context, a *Asset, maxBytes int64, ensure func() error) error
	// GetAsset returns the asset or ENOTFOUND.
	GetAsset(ctx context.Context, id string) (*Asset, error)
	ListAssets(ctx context.Context, f AssetFilter) ([]*Asset, error)
	// DeleteAsset removes the asset's row and, when no other asset of its tenant
	// holds the same bytes, calls release with its storage key; an error from
	// release rolls the deletion back.
	DeleteAsset(ctx context.Context, id string, release func(key string) error) error
	// ReleaseAssetContent calls release when no asset of the tenant holds the content
	// sha256 (an object stored for an upload that was then refused).
	ReleaseAssetContent(ctx context.Context, tenantID, sha256 string, release func() error) error
	// AssetBytes is the tenant's stored bytes, each distinct content counted once.
	AssetBytes(ctx context.Context, tenantID string) (int64, error)
}
