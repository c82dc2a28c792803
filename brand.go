package koda

import (
	"context"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// AssetRole is what a tenant's asset does in a project: the logo, a picture the prompt
// refers to, the typeface of its text, or its soundtrack.
type AssetRole string

const (
	RoleLogo       AssetRole = "logo"
	RoleImage      AssetRole = "image"
	RoleFont       AssetRole = "font"
	RoleSoundtrack AssetRole = "soundtrack"
)

// assetRoles is the table of roles: the kind of asset each takes, how many one project
// may have, and the file name it gets in the project folder ("" for images: named
// after the upload, so the prompt can refer to them).
var assetRoles = map[AssetRole]struct {
	kind AssetKind
	max  int
	file string
}{
	RoleLogo:       {AssetImage, 1, "logo"},
	RoleImage:      {AssetImage, MaxProjectAssets, ""},
	RoleFont:       {AssetFont, 1, "font"},
	RoleSoundtrack: {AssetAudio, 1, "soundtrack"},
}

// Kind is the asset kind r takes; "" for an unknown role.
func (r AssetRole) Kind() AssetKind { return assetRoles[r].kind }

// Valid reports whether r is a known role.
func (r AssetRole) Valid() bool { _, ok := assetRoles[r]; return ok }

// MaxProjectAssets bounds the assets one project request may name: enough for a logo, a
// font, a soundtrack and a handful of pictures, few enough that copying them into the
// project folder stays cheap.
const MaxProjectAssets = 12

// Error codes of a project's assets and of the brand kit.
const (
	// CodeProjectAssetNotFound: an asset id names no asset of the caller (another
	// tenant's asset reads the same, so its existence does not leak).
	CodeProjectAssetNotFound = "ASSET_NOT_FOUND"
	// CodeAssetRoleMismatch: the asset's kind does not fit the role (an audio file as
	// the logo), or the role is unknown.
	CodeAssetRoleMismatch = "ASSET_ROLE_MISMATCH"
	// CodeTooManyAssets: more assets than MaxProjectAssets, or a second logo, font or
	// soundtrack.
	CodeTooManyAssets = "TOO_MANY_ASSETS"
	// CodeInvalidBrand: a brand kit field is malformed (a colour that is not #rrggbb).
	CodeInvalidBrand = "INVALID_BRAND"
)

// AssetRef names one of the tenant's assets and its role in a project request.
type AssetRef struct {
	ID   string    `json:"id"`
	Role AssetRole `json:"role"`
}

// ProjectAsset is an asset as a project uses it: resolved when the project is made and
// copied into the project folder at File before codegen, so the project keeps its
// own copy whatever happens to the asset later.
type ProjectAsset struct {
	ID     string    `json:"id"`
	Role   AssetRole `json:"role"`
	Kind   AssetKind `json:"kind"`
	Format string    `json:"format"`
	Key    string    `json:"key"`  // the asset's storage key, copied from
	Name   string    `json:"name"` // the upload's original name
	Width  int       `json:"width,omitempty"`
	Height int       `json:"height,omitempty"`
	// File is the path in the project folder: assets/logo.png, assets/font.woff2,
	// assets/soundtrack.mp3, or for a picture assets/<its name>.png.
	File string `json:"file"`
	// FromBrand: the brand kit supplied it, not the request.
	FromBrand bool `json:"from_brand,omitempty"`
}

var fileSlugRE = regexp.MustCompile(`[^a-z0-9]+`)

// ProjectAssetFor resolves ref to the asset a. It answers EUNPROCESSABLE
// CodeAssetRoleMismatch when the role is unknown or a's kind does not fit it; taken
// holds the files already used by the project, so two pictures of one name get two.
func ProjectAssetFor(ref AssetRef, a *Asset, taken map[string]bool) (ProjectAsset, error) {
	row, ok := assetRoles[ref.Role]
	if !ok {
		return ProjectAsset{}, Errorf(EUNPROCESSABLE, CodeAssetRoleMismatch,
			"asset %s: role %q is not one of logo, image, font, soundtrack", ref.ID, ref.Role)
	}
	if a.Kind != row.kind {
		return ProjectAsset{}, Errorf(EUNPROCESSABLE, CodeAssetRoleMismatch,
			"asset %s is %s %s; the %s role takes %s", ref.ID, article(string(a.Kind)), a.Kind, ref.Role, row.kind)
	}
	base := row.file
	if base == "" {
		base = strings.Trim(fileSlugRE.ReplaceAllString(strings.ToLower(strings.TrimSuffix(path.Base(a.Name), path.Ext(a.Name))), "-"), "-")
		if len(base) > 60 {
			base = strings.Trim(base[:60], "-")
		}
		if base == "" || base == "logo" || base == "font" || base == "soundtrack" || base == "lib" {
			base = "image"
		}
	}
	file := "assets/" + base + "." + a.Format
	for i := 2; taken[file]; i++ {
		file = "assets/" + base + "-" + strconv.Itoa(i) + "." + a.Format
	}
	taken[file] = true
	return ProjectAsset{ID: a.ID, Role: ref.Role, Kind: a.Kind, Format: a.Format, Key: a.Key, Name: a.Name,
		Width: a.Width, Height: a.Height, File: file}, nil
}

// CheckAssetRefs checks a request's asset list before any asset is looked up: its
// length and at most one logo, font and soundtrack.
func CheckAssetRefs(refs []AssetRef) error {
	if len(refs) > MaxProjectAssets {
		return Errorf(EINVALID, CodeTooManyAssets, "at most %d assets per project, got %d", MaxProjectAssets, len(refs))
	}
	count := map[AssetRole]int{}
	for i, r := range refs {
		if !r.Role.Valid() {
			return Errorf(EUNPROCESSABLE, CodeAssetRoleMismatch, "assets[%d]: role %q is not one of logo, image, font, soundtrack", i, r.Role)
		}
		if !strings.HasPrefix(r.ID, PrefixAsset+"_") {
			return Errorf(EUNPROCESSABLE, CodeProjectAssetNotFound, "assets[%d]: %q is not an asset id (ast_…)", i, r.ID)
		}
		if count[r.Role]++; count[r.Role] > assetRoles[r.Role].max {
			return Errorf(EINVALID, CodeTooManyAssets, "assets[%d]: a project has at most %d %s", i, assetRoles[r.Role].max, r.Role)
		}
	}
	return nil
}

// AssetByRole returns the project's first asset of role r, or nil.
func (p *Project) AssetByRole(r AssetRole) *ProjectAsset {
	for i := range p.Assets {
		if p.Assets[i].Role == r {
			return &p.Assets[i]
		}
	}
	return nil
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an"
	}
	return "a"
}

// BrandColors are a brand's colours, each "#rrggbb" or "" (not set).
type BrandColors struct {
	Primary    string `json:"primary,omitempty"`
	Secondary  string `json:"secondary,omitempty"`
	Background string `json:"background,omitempty"`
	Text       string `json:"text,omitempty"`
}

// Brand is a tenant's brand kit: applied to each of its projects unless the request
// says "brand": false. Logo, Font and Soundtrack are asset ids ("" for none).
type Brand struct {
	TenantID   string      `json:"-"`
	Logo       string      `json:"logo,omitempty"`
	Font       string      `json:"font,omitempty"`
	Soundtrack string      `json:"soundtrack,omitempty"`
	Colors     BrandColors `json:"colors"`
	// EndCard is the line shown under the logo on a closing card; "" for no end card
	// unless the prompt asks for one.
	EndCard   string    `json:"end_card,omitempty"`
	UpdatedAt time.Time `json:"updated_at"`
}

// EndCardText limits a brand's end card line.
var EndCardText = TextLimit{Code: CodeInvalidBrand, Max: 120}

var brandHexRE = regexp.MustCompile(`^#[0-9a-fA-F]{6}$|^#[0-9a-fA-F]{3}$`)

// Validate checks the colours and the end card and normalises them (lower-case
// #rrggbb); asset ids are checked by whoever can look them up.
func (b *Brand) Validate() error {
	for _, c := range []struct {
		name string
		v    *string
	}{{"primary", &b.Colors.Primary}, {"secondary", &b.Colors.Secondary}, {"background", &b.Colors.Background}, {"text", &b.Colors.Text}} {
		s := strings.TrimSpace(*c.v)
		if s == "" {
			*c.v = ""
			continue
		}
		if !brandHexRE.MatchString(s) {
			return Errorf(EINVALID, CodeInvalidBrand, "colors.%s %q is not a hex colour (#rrggbb or #rgb)", c.name, s)
		}
		s = strings.ToLower(s)
		if len(s) == 4 {
			s = "#" + s[1:2] + s[1:2] + s[2:3] + s[2:3] + s[3:4] + s[3:4]
		}
		*c.v = s
	}
	var err error
	b.EndCard, err = EndCardText.Check("end_card", b.EndCard)
	return err
}

// BrandRefs are the kit's assets with the roles they play.
func (b *Brand) Refs() []AssetRef {
	var out []AssetRef
	for _, r := range []AssetRef{{b.Logo, RoleLogo}, {b.Font, RoleFont}, {b.Soundtrack, RoleSoundtrack}} {
		if r.ID != "" {
			out = append(out, r)
		}
	}
	return out
}

// BrandStore keeps each tenant's brand kit (internal/store implements it).
type BrandStore interface {
	// GetBrand returns the tenant's kit or ENOTFOUND.
	GetBrand(ctx context.Context, tenantID string) (*Brand, error)
	// PutBrand creates or replaces the tenant's kit.
	PutBrand(ctx context.Context, b *Brand) error
}
