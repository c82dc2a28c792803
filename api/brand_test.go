package api_test

import (
	"image/color"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/kodahq/koda"
)

type projectMediaJSON struct {
	ID     string `json:"id"`
	Assets []struct {
		ID        string `json:"id"`
		Role      string `json:"role"`
		Kind      string `json:"kind"`
		File      string `json:"file"`
		FromBrand bool   `json:"from_brand"`
	} `json:"assets"`
	Brand *struct {
		Colors  koda.BrandColors `json:"colors"`
		EndCard string           `json:"end_card"`
	} `json:"brand"`
}

func (b *bundle) createMedia(who string, body map[string]any) (response, projectMediaJSON) {
	b.t.Helper()
	r := b.do(who, http.MethodPost, "/v1/projects", body)
	var p projectMediaJSON
	if r.Status == http.StatusAccepted {
		r.decode(b.t, &p)
	}
	return r, p
}

// TestProjectAssets: a project names the tenant's assets with roles; each is kept with
// the file it gets in the project folder, and the stored project has them.
func TestProjectAssets(t *testing.T) {
	b := setup(t)
	logo := b.uploadOK("acme", "logo.png", "image/png", pngBytes(t, 40, 20, color.RGBA{255, 0, 255, 255}))
	photo := b.uploadOK("acme", "Product Photo.png", "image/png", pngBytes(t, 30, 30, color.RGBA{0, 200, 80, 255}))
	font := b.uploadOK("acme", "Acme Sans.ttf", "font/ttf", goregular.TTF)
	r, p := b.createMedia("acme", map[string]any{"prompt": "Our product photo slides in", "assets": []map[string]string{
		{"id": logo.ID, "role": "logo"}, {"id": photo.ID, "role": "image"}, {"id": font.ID, "role": "font"}}})
	if r.Status != http.StatusAccepted {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	want := map[string]string{logo.ID: "assets/logo.png", photo.ID: "assets/product-photo.png", font.ID: "assets/font.ttf"}
	if len(p.Assets) != 3 {
		t.Fatalf("assets %+v", p.Assets)
	}
	for _, a := range p.Assets {
		if want[a.ID] != a.File || a.FromBrand {
			t.Errorf("asset %+v, want file %s", a, want[a.ID])
		}
	}
	if p.Brand != nil {
		t.Errorf("brand %+v without a kit", p.Brand)
	}
	stored, err := b.store.GetProject(t.Context(), p.ID)
	if err != nil {
		t.Fatal(err)
	}
	if lg := stored.AssetByRole(koda.RoleLogo); lg == nil || lg.Key != koda.AssetKey("acme", logo.SHA256, "png") {
		t.Errorf("stored logo %+v does not name the asset's bytes", lg)
	}
}

// TestProjectAssetsRefused: an asset of another tenant, of a kind its role does not
// take, unknown roles, too many or a second logo are refused with a 4xx naming the
// problem, and no project is made.
func TestProjectAssetsRefused(t *testing.T) {
	b := setup(t)
	logo := b.uploadOK("acme", "logo.png", "image/png", pngBytes(t, 40, 20, color.RGBA{255, 0, 255, 255}))
	logo2 := b.uploadOK("acme", "logo2.png", "image/png", pngBytes(t, 20, 20, color.RGBA{0, 0, 255, 255}))
	font := b.uploadOK("acme", "Acme Sans.ttf", "font/ttf", goregular.TTF)
	theirs := b.uploadOK("globex", "logo.png", "image/png", pngBytes(t, 40, 20, color.RGBA{0, 255, 0, 255}))
	many := make([]map[string]string, koda.MaxProjectAssets+1)
	for i := range many {
		many[i] = map[string]string{"id": logo.ID, "role": "image"}
	}
	for _, tc := range []struct {
		name   string
		assets any
		status int
		code   string
	}{
		{"another tenant's asset", []map[string]string{{"id": theirs.ID, "role": "logo"}}, 422, koda.CodeProjectAssetNotFound},
		{"no such asset", []map[string]string{{"id": "ast_01m8nothere0000000000000000", "role": "logo"}}, 422, koda.CodeProjectAssetNotFound},
		{"not an asset id", []map[string]string{{"id": "prj_x", "role": "logo"}}, 422, koda.CodeProjectAssetNotFound},
		{"a font as the logo", []map[string]string{{"id": font.ID, "role": "logo"}}, 422, koda.CodeAssetRoleMismatch},
		{"an image as the font", []map[string]string{{"id": logo.ID, "role": "font"}}, 422, koda.CodeAssetRoleMismatch},
		{"an image as the soundtrack", []map[string]string{{"id": logo.ID, "role": "soundtrack"}}, 422, koda.CodeAssetRoleMismatch},
		{"unknown role", []map[string]string{{"id": logo.ID, "role": "mascot"}}, 422, koda.CodeAssetRoleMismatch},
		{"two logos", []map[string]string{{"id": logo.ID, "role": "logo"}, {"id": logo2.ID, "role": "logo"}}, 400, koda.CodeTooManyAssets},
		{"too many", many, 400, koda.CodeTooManyAssets},
		{"not a list", "logo", 400, koda.CodeMalformedJSON},
		{"unknown field", []map[string]string{{"id": logo.ID, "role": "logo", "at": "corner"}}, 400, koda.CodeMalformedJSON},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := b.createMedia("acme", map[string]any{"prompt": "a ball", "assets": tc.assets})
			if r.Status != tc.status || r.code() != tc.code {
				t.Errorf("%d %s, want %d %s", r.Status, r.Body, tc.status, tc.code)
			}
		})
	}
	ps, err := b.store.ListProjects(t.Context(), koda.ProjectFilter{TenantID: "acme"})
	if err != nil || len(ps) != 0 {
		t.Errorf("refused requests stored %d projects (%v)", len(ps), err)
	}
}

// TestBrandKit: PUT /v1/brand sets the tenant's kit, GET reads it; every new project
// of the tenant takes it (its colours, its logo and font as assets) unless the
// request says "brand": false, and a request's own logo wins over the kit's. Another
// tenant has no kit.
func TestBrandKit(t *testing.T) {
	b := setup(t)
	if r := b.do("acme", http.MethodGet, "/v1/brand", nil); r.Status != http.StatusNotFound {
		t.Fatalf("brand before any: %d %s", r.Status, r.Body)
	}
	logo := b.uploadOK("acme", "logo.png", "image/png", pngBytes(t, 40, 20, color.RGBA{255, 0, 255, 255}))
	other := b.uploadOK("acme", "badge.png", "image/png", pngBytes(t, 20, 20, color.RGBA{0, 0, 255, 255}))
	font := b.uploadOK("acme", "Acme Sans.ttf", "font/ttf", goregular.TTF)
	kit := map[string]any{"logo": logo.ID, "font": font.ID, "end_card": "acme.example",
		"colors": map[string]string{"primary": "#FF6600", "secondary": "#0a8", "background": "#12355b", "text": "#ffffff"}}
	r := b.do("acme", http.MethodPut, "/v1/brand", kit)
	if r.Status != http.StatusOK {
		t.Fatalf("put brand: %d %s", r.Status, r.Body)
	}
	var got struct {
		Logo   *string          `json:"logo"`
		Font   *string          `json:"font"`
		Colors koda.BrandColors `json:"colors"`
	}
	r = b.do("acme", http.MethodGet, "/v1/brand", nil)
	r.decode(t, &got)
	if got.Logo == nil || *got.Logo != logo.ID || got.Colors.Primary != "#ff6600" || got.Colors.Secondary != "#00aa88" {
		t.Errorf("brand read back %s", r.Body)
	}
	if r := b.do("globex", http.MethodGet, "/v1/brand", nil); r.Status != http.StatusNotFound {
		t.Errorf("another tenant sees a kit: %d %s", r.Status, r.Body)
	}

	_, p := b.createMedia("acme", map[string]any{"prompt": "a ball bounces"})
	if p.Brand == nil || p.Brand.Colors.Background != "#12355b" || p.Brand.EndCard != "acme.example" {
		t.Errorf("project brand %+v, want the kit", p.Brand)
	}
	roles := map[string]string{}
	for _, a := range p.Assets {
		if !a.FromBrand {
			t.Errorf("asset %+v not marked as the kit's", a)
		}
		roles[a.Role] = a.ID
	}
	if roles["logo"] != logo.ID || roles["font"] != font.ID {
		t.Errorf("project assets %+v, want the kit's logo and font", p.Assets)
	}

	_, p = b.createMedia("acme", map[string]any{"prompt": "a ball bounces", "brand": false})
	if p.Brand != nil || len(p.Assets) != 0 {
		t.Errorf(`"brand": false still took the kit: %+v %+v`, p.Brand, p.Assets)
	}

	_, p = b.createMedia("acme", map[string]any{"prompt": "a ball bounces", "assets": []map[string]string{{"id": other.ID, "role": "logo"}}})
	for _, a := range p.Assets {
		if a.Role == "logo" && (a.ID != other.ID || a.FromBrand) {
			t.Errorf("logo %+v, want the request's own", a)
		}
	}
	if len(p.Assets) != 2 {
		t.Errorf("assets %+v, want the request's logo and the kit's font", p.Assets)
	}

	// The kit outlives an asset deleted since: new projects leave it out.
	if r := b.do("acme", http.MethodDelete, "/v1/assets/"+font.ID, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete font: %d %s", r.Status, r.Body)
	}
	if r, p := b.createMedia("acme", map[string]any{"prompt": "a ball bounces"}); r.Status != http.StatusAccepted || len(p.Assets) != 1 {
		t.Errorf("after the kit's font was deleted: %d %s", r.Status, r.Body)
	}
}

// TestBrandKitRefused: colours that are not hex, assets of another tenant or of the
// wrong kind, unknown fields: a 4xx naming the problem, and the kit is unchanged.
func TestBrandKitRefused(t *testing.T) {
	b := setup(t)
	font := b.uploadOK("acme", "Acme Sans.ttf", "font/ttf", goregular.TTF)
	theirs := b.uploadOK("globex", "logo.png", "image/png", pngBytes(t, 40, 20, color.RGBA{0, 255, 0, 255}))
	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
	}{
		{"colour name", map[string]any{"colors": map[string]string{"primary": "orange"}}, 400, koda.CodeInvalidBrand},
		{"colour without #", map[string]any{"colors": map[string]string{"text": "ffffff"}}, 400, koda.CodeInvalidBrand},
		{"css injection", map[string]any{"colors": map[string]string{"background": "#fff;background:url(x)"}}, 400, koda.CodeInvalidBrand},
		{"unknown colour", map[string]any{"colors": map[string]string{"accent": "#ffffff"}}, 400, koda.CodeMalformedJSON},
		{"another tenant's logo", map[string]any{"logo": theirs.ID}, 422, koda.CodeProjectAssetNotFound},
		{"a font as the logo", map[string]any{"logo": font.ID}, 422, koda.CodeAssetRoleMismatch},
		{"an end card too long", map[string]any{"end_card": strings.Repeat("a", 200)}, 400, koda.CodeInvalidBrand},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := b.do("acme", http.MethodPut, "/v1/brand", tc.body)
			if r.Status != tc.status || r.code() != tc.code {
				t.Errorf("%d %s, want %d %s", r.Status, r.Body, tc.status, tc.code)
			}
		})
	}
	if r := b.do("acme", http.MethodGet, "/v1/brand", nil); r.Status != http.StatusNotFound {
		t.Errorf("a refused kit was stored: %d %s", r.Status, r.Body)
	}
}
