package api_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/api"
	"github.com/kodahq/koda/internal/assets"
	"github.com/kodahq/koda/internal/kodatest"
)

type assetJSON struct {
	ID           string  `json:"id"`
	Kind         string  `json:"kind"`
	Format       string  `json:"format"`
	SourceFormat string  `json:"source_format"`
	MediaType    string  `json:"media_type"`
	Size         int64   `json:"size"`
	SHA256       string  `json:"sha256"`
	Width        int     `json:"width"`
	Height       int     `json:"height"`
	DurationS    float64 `json:"duration_s"`
	Codec        string  `json:"codec"`
	Name         string  `json:"name"`
	URL          string  `json:"url"`
}

// upload posts one file as a multipart form; contentType "" sends the file part
// without a Content-Type of its own.
func (b *bundle) upload(who, name, contentType string, data []byte) response {
	b.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="`+name+`"`)
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	part, err := w.CreatePart(h)
	if err != nil {
		b.t.Fatal(err)
	}
	_, _ = part.Write(data)
	_ = w.Close()
	return b.do(who, http.MethodPost, "/v1/assets", body.String(), "Content-Type", w.FormDataContentType())
}

func (b *bundle) uploadOK(who, name, contentType string, data []byte) assetJSON {
	b.t.Helper()
	r := b.upload(who, name, contentType, data)
	if r.Status != http.StatusCreated {
		b.t.Fatalf("upload %s: %d %s", name, r.Status, r.Body)
	}
	var a assetJSON
	r.decode(b.t, &a)
	return a
}

// stored reads the bytes an asset of tenant keeps, or nil when none are stored.
func (b *bundle) stored(tenant string, a assetJSON) []byte {
	b.t.Helper()
	rc, err := b.storage.Open(context.Background(), koda.AssetKey(tenant, a.SHA256, a.Format))
	if koda.ErrorKind(err) == koda.ENOTFOUND {
		return nil
	}
	if err != nil {
		b.t.Fatal(err)
	}
	defer rc.Close()
	data, _ := io.ReadAll(rc)
	return data
}

// objects counts the files stored under a tenant's assets.
func (b *bundle) objects(tenant string) int {
	b.t.Helper()
	n := 0
	err := b.storage.List(context.Background(), "assets/"+tenant+"/", func(koda.StoredFile) error { n++; return nil })
	if err != nil {
		b.t.Fatal(err)
	}
	return n
}

func pngBytes(t *testing.T, w, h int, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// jpegWithEXIF is a JPEG carrying an APP1 Exif segment with a recognisable secret.
func jpegWithEXIF(t *testing.T, secret string) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	payload := append([]byte("Exif\x00\x00"), []byte(secret)...)
	seg := []byte{0xff, 0xe1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	seg = append(seg, payload...)
	raw := buf.Bytes()
	return append(append(append([]byte{}, raw[:2]...), seg...), raw[2:]...)
}

// wavBytes writes a mono 16-bit PCM WAV of a 440 Hz tone by hand.
func wavBytes(seconds float64) []byte {
	const rate = 8000
	n := int(seconds * rate)
	var buf bytes.Buffer
	le := binary.LittleEndian
	w := func(v any) { _ = binary.Write(&buf, le, v) }
	buf.WriteString("RIFF")
	w(uint32(36 + 2*n))
	buf.WriteString("WAVEfmt ")
	w(uint32(16))
	w(uint16(1)) // PCM
	w(uint16(1)) // mono
	w(uint32(rate))
	w(uint32(rate * 2))
	w(uint16(2))
	w(uint16(16))
	buf.WriteString("data")
	w(uint32(2 * n))
	for i := range n {
		w(int16(8000 * math.Sin(2*math.Pi*440*float64(i)/rate)))
	}
	return buf.Bytes()
}

// Each kind is accepted, checked and described: a PNG and a JPEG written anew (the
// JPEG's EXIF gone), a WebP-free PNG, a TrueType font, a WAV with its duration.
func TestAssetsUploadEachKind(t *testing.T) {
	b := setup(t)
	logo := b.uploadOK("acme", "logo.png", "image/png", pngBytes(t, 64, 32, color.RGBA{200, 10, 10, 255}))
	if logo.Kind != "image" || logo.Format != "png" || logo.Width != 64 || logo.Height != 32 || logo.Name != "logo.png" || logo.URL == "" {
		t.Errorf("png: %+v", logo)
	}
	if got, _, err := image.Decode(bytes.NewReader(b.stored("acme", logo))); err != nil || got.Bounds().Dx() != 64 {
		t.Errorf("stored png does not decode to 64 px: %v", err)
	}
	photo := b.uploadOK("acme", "photo.JPG", "image/jpeg", jpegWithEXIF(t, "GPS-48.8584N-2.2945E"))
	if photo.Format != "jpeg" || photo.Width != 40 || photo.Height != 30 {
		t.Errorf("jpeg: %+v", photo)
	}
	if data := b.stored("acme", photo); bytes.Contains(data, []byte("GPS-48")) || bytes.Contains(data, []byte("Exif")) || len(data) == 0 {
		t.Errorf("the stored JPEG keeps its EXIF (%d bytes)", len(data))
	}
	font := b.uploadOK("acme", "Go-Regular.ttf", "font/ttf", goregular.TTF)
	if font.Kind != "font" || font.Format != "ttf" || font.Size != int64(len(goregular.TTF)) {
		t.Errorf("ttf: %+v", font)
	}
	if !bytes.Equal(b.stored("acme", font), goregular.TTF) {
		t.Error("a font is stored as uploaded")
	}
	wav := b.uploadOK("acme", "tone.wav", "audio/wav", wavBytes(1.5))
	if wav.Kind != "audio" || wav.Format != "wav" || wav.Codec != "pcm_s16le" || math.Abs(wav.DurationS-1.5) > 0.01 {
		t.Errorf("wav: %+v", wav)
	}
	// GET, and the list filtered by kind and paged.
	var got assetJSON
	b.do("acme", http.MethodGet, "/v1/assets/"+wav.ID, nil).decode(t, &got)
	if got.ID != wav.ID || got.DurationS != wav.DurationS {
		t.Errorf("GET %s: %+v", wav.ID, got)
	}
	var page struct {
		Assets     []assetJSON `json:"assets"`
		NextCursor string      `json:"next_cursor"`
	}
	b.do("acme", http.MethodGet, "/v1/assets?kind=image&limit=1", nil).decode(t, &page)
	if len(page.Assets) != 1 || page.Assets[0].ID != logo.ID || page.NextCursor == "" {
		t.Fatalf("first page of images: %+v", page)
	}
	b.do("acme", http.MethodGet, "/v1/assets?kind=image&limit=1&cursor="+page.NextCursor, nil).decode(t, &page)
	if len(page.Assets) != 1 || page.Assets[0].ID != photo.ID || page.NextCursor != "" {
		t.Errorf("second page of images: %+v", page)
	}
	b.do("acme", http.MethodGet, "/v1/assets?kind=font", nil).decode(t, &page)
	if len(page.Assets) != 1 || page.Assets[0].ID != font.ID {
		t.Errorf("fonts: %+v", page)
	}
	if r := b.do("acme", http.MethodGet, "/v1/assets?kind=video", nil); r.Status != http.StatusBadRequest {
		t.Errorf("kind=video: %d %s", r.Status, r.Body)
	}
}

// The same bytes uploaded twice are stored once; deleting one asset keeps the object
// for the other; deleting the last removes it.
func TestAssetsDedupeAndDelete(t *testing.T) {
	b := setup(t)
	data := pngBytes(t, 16, 16, color.White)
	first := b.uploadOK("acme", "a.png", "", data)
	second := b.uploadOK("acme", "b.png", "", data)
	if first.ID == second.ID || first.SHA256 != second.SHA256 {
		t.Fatalf("two uploads: %+v %+v", first, second)
	}
	if n := b.objects("acme"); n != 1 {
		t.Errorf("%d objects stored for the same bytes twice, want 1", n)
	}
	if r := b.do("acme", http.MethodDelete, "/v1/assets/"+first.ID, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if r := b.do("acme", http.MethodGet, "/v1/assets/"+first.ID, nil); r.Status != http.StatusNotFound {
		t.Errorf("deleted asset: %d", r.Status)
	}
	if b.stored("acme", second) == nil {
		t.Fatal("deleting one asset removed the bytes another refers to")
	}
	if r := b.do("acme", http.MethodDelete, "/v1/assets/"+second.ID, nil); r.Status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if n := b.objects("acme"); n != 0 {
		t.Errorf("%d objects left after the last asset was deleted", n)
	}
	if r := b.do("acme", http.MethodDelete, "/v1/assets/"+second.ID, nil); r.Status != http.StatusNotFound {
		t.Errorf("delete twice: %d", r.Status)
	}
}

// Over the tenant's asset_bytes limit an upload of new bytes answers 429; bytes
// already stored add nothing and pass; another tenant is not limited.
func TestAssetsQuota(t *testing.T) {
	b := setup(t)
	small := pngBytes(t, 8, 8, color.Black)
	first := b.uploadOK("acme", "a.png", "", small)
	if r := b.do("admin", http.MethodPut, "/admin/tenants/acme/limits", map[string]any{"asset_bytes": first.Size + 10}); r.Status != 200 {
		t.Fatalf("set limits: %d %s", r.Status, r.Body)
	}
	r := b.upload("acme", "tone.wav", "", wavBytes(0.5))
	if r.Status != http.StatusTooManyRequests || r.code() != koda.CodeLimitAssetBytes || r.Header.Get("Retry-After") == "" {
		t.Fatalf("over the quota: %d %s", r.Status, r.Body)
	}
	if n := b.objects("acme"); n != 1 {
		t.Errorf("%d objects after a refused upload, want 1", n)
	}
	b.uploadOK("acme", "again.png", "", small) // the same bytes: nothing new to store
	b.uploadOK("globex", "tone.wav", "", wavBytes(0.5))
	var u struct {
		Limits koda.Limits `json:"limits"`
	}
	b.do("acme", http.MethodGet, "/v1/usage", nil).decode(t, &u)
	if u.Limits.AssetBytes != first.Size+10 {
		t.Errorf("usage shows limits %+v", u.Limits)
	}
}

// Another tenant's asset is not found, whatever the method; the same bytes uploaded
// by two tenants are two objects, one under each.
func TestAssetsTenantIsolation(t *testing.T) {
	b := setup(t)
	data := pngBytes(t, 8, 8, color.White)
	a := b.uploadOK("acme", "logo.png", "", data)
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		if r := b.do("globex", m, "/v1/assets/"+a.ID, nil); r.Status != http.StatusNotFound || r.code() != koda.CodeNotFound {
			t.Errorf("globex %s acme's asset: %d %s", m, r.Status, r.Body)
		}
	}
	var page struct {
		Assets []assetJSON `json:"assets"`
	}
	b.do("globex", http.MethodGet, "/v1/assets", nil).decode(t, &page)
	if len(page.Assets) != 0 {
		t.Errorf("globex lists %+v", page.Assets)
	}
	g := b.uploadOK("globex", "logo.png", "", data)
	if b.objects("acme") != 1 || b.objects("globex") != 1 || g.SHA256 != a.SHA256 {
		t.Errorf("objects: acme %d, globex %d", b.objects("acme"), b.objects("globex"))
	}
	if r := b.do("acme", http.MethodGet, "/v1/assets/"+a.ID, nil); r.Status != http.StatusOK {
		t.Errorf("acme's asset after globex's attempts: %d", r.Status)
	}
}

// Hostile and mislabelled files are refused with a 4xx naming what is wrong, and
// leave nothing stored.
func TestAssetsRefuseHostileFiles(t *testing.T) {
	b := setup(t)
	png8 := pngBytes(t, 8, 8, color.White)
	cases := []struct {
		name, file, contentType string
		data                    []byte
		code                    string
	}{
		{"decompression bomb", "bomb.png", "image/png", kodatest.PNGBomb(100_000, 100_000, 1<<16), koda.CodeAssetDimensions},
		{"bomb within one side", "strip.png", "image/png", kodatest.PNGBomb(40_000, 1, 1<<16), koda.CodeAssetDimensions},
		{"extension lies", "song.mp3", "", png8, koda.CodeAssetTypeMismatch},
		{"declared type lies", "logo", "audio/mpeg", png8, koda.CodeAssetTypeMismatch},
		{"font named as image", "logo.png", "", goregular.TTF, koda.CodeAssetTypeMismatch},
		{"playlist as audio", "song.mp3", "audio/mpeg", []byte("#EXTM3U\n#EXTINF:10,\nfile:///etc/passwd\n"), koda.CodeAssetUnsupportedType},
		{"concat list as audio", "song.mp3", "", []byte("ffconcat version 1.0\nfile '/etc/passwd'\n"), koda.CodeAssetUnsupportedType},
		{"text file", "notes.txt", "text/plain", []byte("hello"), koda.CodeAssetUnsupportedType},
		{"gif", "a.gif", "image/gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), koda.CodeAssetUnsupportedType},
		{"truncated png", "cut.png", "", png8[:40], koda.CodeAssetMalformed},
		{"png header then garbage", "x.png", "", append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0xff}, 64)...), koda.CodeAssetMalformed},
		{"font that is not one", "x.ttf", "", append([]byte{0, 1, 0, 0, 0, 0xff}, bytes.Repeat([]byte{0xee}, 200)...), koda.CodeAssetMalformed},
		{"truncated font", "cut.ttf", "", goregular.TTF[:len(goregular.TTF)/3], koda.CodeAssetMalformed},
		{"wav header only", "x.wav", "", wavBytes(1)[:44], koda.CodeAssetMalformed},
		{"mp3 tag then nothing", "x.mp3", "", append([]byte("ID3\x04\x00\x00\x00\x00\x00\x00"), bytes.Repeat([]byte{0}, 100)...), koda.CodeAssetMalformed},
		{"svg with a doctype", "x.svg", "", []byte(`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>`), koda.CodeAssetUnsafe},
		{"xml that is not svg", "x.svg", "", []byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>`), koda.CodeAssetMalformed},
		{"svg without namespace", "x.svg", "", []byte(`<svg><circle r="1"/></svg>`), koda.CodeAssetMalformed},
		{"nested use", "x.svg", "", []byte(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><g id="a"><circle r="1"/></g><g id="b"><use href="#a"/><use href="#a"/></g><use xlink:href="#b"/></svg>`), koda.CodeAssetUnsafe},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b.t = t
			r := b.upload("acme", tc.file, tc.contentType, tc.data)
			t.Logf("%d %s", r.Status, r.Body)
			if r.Status < 400 || r.Status >= 500 || r.code() != tc.code {
				t.Errorf("%d %s, want 4xx %s", r.Status, r.Body, tc.code)
			}
			var e struct {
				Error struct{ Message string } `json:"error"`
			}
			r.decode(t, &e)
			if len(e.Error.Message) < 10 {
				t.Errorf("message %q says little", e.Error.Message)
			}
		})
	}
	if n := b.objects("acme"); n != 0 {
		t.Errorf("%d objects stored after refused uploads", n)
	}
	var page struct {
		Assets []assetJSON `json:"assets"`
	}
	b.t = t
	b.do("acme", http.MethodGet, "/v1/assets", nil).decode(t, &page)
	if len(page.Assets) != 0 {
		t.Errorf("refused uploads listed: %+v", page.Assets)
	}
}

// An SVG with script, event handlers, foreignObject and external references is
// refused, naming them, and nothing is stored; an SVG with only editor leftovers is
// stored rewritten without them, drawing the same.
func TestAssetsSVGIsCheckedAndRewritten(t *testing.T) {
	b := setup(t)
	hostile := `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 120 60" onload="alert(1)">
  <script>alert(document.cookie)</script>
  <rect id="r" width="120" height="60"/>
  <use xlink:href="file:///etc/passwd#x"/>
  <foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="http://evil.example"/></body></foreignObject>
</svg>`
	r := b.upload("acme", "logo.svg", "image/svg+xml", []byte(hostile))
	if r.Status != http.StatusUnprocessableEntity || r.code() != koda.CodeAssetUnsafe {
		t.Fatalf("hostile SVG: %d %s", r.Status, r.Body)
	}
	var refusal struct {
		Error struct{ Message string } `json:"error"`
	}
	r.decode(t, &refusal)
	for _, named := range []string{"onload=", "<script>", "file:///etc/passwd", "<foreignObject>"} {
		if !strings.Contains(refusal.Error.Message, named) {
			t.Errorf("the refusal does not name %s: %s", named, refusal.Error.Message)
		}
	}
	if n := b.objects("acme"); n != 0 {
		t.Errorf("%d objects stored for a refused SVG", n)
	}

	exported := `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
     viewBox="0 0 120 60" sodipodi:docname="C:\\Users\\me\\logo.svg" inkscape:version="1.3" data-editor="x">
  <sodipodi:namedview pagecolor="#ffffff"/>
  <metadata><title>secret project name</title></metadata>
  <style>.c{fill:red}</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/></linearGradient></defs>
  <rect id="r" width="120" height="60" fill="url(#g)" inkscape:label="bg"/>
  <use href="#r" x="5"/>
  <a href="#r"><text x="1" y="50">Hi &amp; bye</text></a>
  <text x="1" y="20" font-family="Go" class="c">Acme</text>
</svg>`
	a := b.uploadOK("acme", "logo.svg", "image/svg+xml", []byte(exported))
	if a.Format != "svg" || a.MediaType != "image/svg+xml" || a.Width != 120 || a.Height != 60 {
		t.Errorf("svg: %+v", a)
	}
	out := string(b.stored("acme", a))
	for _, gone := range []string{"sodipodi", "inkscape", "metadata", "secret", "data-editor", "Users"} {
		if strings.Contains(out, gone) {
			t.Errorf("the stored SVG still has %q:\n%s", gone, out)
		}
	}
	for _, good := range []string{`viewBox="0 0 120 60"`, `fill="url(#g)"`, `xlink:href="#r"`, "Acme", "Hi &amp; bye", "linearGradient", "stop-color", ".c{fill:red}"} {
		if !strings.Contains(out, good) {
			t.Errorf("the stored SVG lost %q:\n%s", good, out)
		}
	}
	// Its download link serves it as SVG under a policy that runs and loads nothing.
	b.server.Files = b.storage.(api.Files)
	u, _ := url.Parse(a.URL)
	resp, err := b.server.App().Test(httptest.NewRequest(http.MethodGet, u.RequestURI(), nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	served, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(served) != out || resp.Header.Get("Content-Type") != "image/svg+xml" ||
		!strings.Contains(resp.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("download: %d %q CSP %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Security-Policy"), len(served))
	}
}

// A URL is fetched through the SSRF-safe client: a loopback server is refused by
// default, and nothing is stored. With a client allowed to reach it (as a test may
// give), the fetched file is checked like an upload and named from the URL.
func TestAssetsFromURL(t *testing.T) {
	b := setup(t)
	data := pngBytes(t, 8, 8, color.White)
	fetched := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetched++
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(data)
	}))
	defer srv.Close()
	r := b.do("acme", http.MethodPost, "/v1/assets", map[string]any{"url": srv.URL + "/brand/logo.png"})
	if r.Status != http.StatusUnprocessableEntity || r.code() != koda.CodeAssetURLForbidden {
		t.Fatalf("loopback URL: %d %s", r.Status, r.Body)
	}
	if fetched != 0 || b.objects("acme") != 0 {
		t.Errorf("loopback server reached %d times, %d objects", fetched, b.objects("acme"))
	}
	for _, bad := range []string{"ftp://example.com/x.png", "/relative.png", "http://user:pw@example.com/x.png"} {
		if r := b.do("acme", http.MethodPost, "/v1/assets", map[string]any{"url": bad}); r.Status != http.StatusBadRequest {
			t.Errorf("url %q: %d %s", bad, r.Status, r.Body)
		}
	}
	if r := b.do("acme", http.MethodPost, "/v1/assets", map[string]any{"link": "x"}); r.Status != http.StatusBadRequest || r.code() != koda.CodeMalformedJSON {
		t.Errorf("unknown field: %d %s", r.Status, r.Body)
	}

	b.server.Assets = &assets.Service{Store: b.store, Storage: b.storage, Tenants: b.store, Fetch: srv.Client(), TempDir: t.TempDir()}
	var a assetJSON
	r = b.do("acme", http.MethodPost, "/v1/assets", map[string]any{"url": srv.URL + "/brand/logo.png"})
	if r.Status != http.StatusCreated {
		t.Fatalf("fetch: %d %s", r.Status, r.Body)
	}
	r.decode(t, &a)
	if a.Name != "logo.png" || a.Format != "png" || fetched != 1 || b.stored("acme", a) == nil {
		t.Errorf("fetched asset %+v, fetched %d times", a, fetched)
	}
	// The URL's name must agree with the content as an upload's does.
	if r := b.do("acme", http.MethodPost, "/v1/assets", map[string]any{"url": srv.URL + "/song.mp3"}); r.code() != koda.CodeAssetTypeMismatch {
		t.Errorf("png served as song.mp3: %d %s", r.Status, r.Body)
	}
}

// The server streams request bodies for uploads; every other route still refuses a
// body over 1 MiB, with the API's error shape.
func TestBodyLimitOutsideUploads(t *testing.T) {
	b := setup(t)
	big := `{"prompt":"` + strings.Repeat("a", 2<<20) + `"}`
	r := b.do("acme", http.MethodPost, "/v1/projects", big)
	if r.Status != http.StatusRequestEntityTooLarge || r.code() != "BODY_TOO_LARGE" {
		t.Errorf("2 MiB project request: %d %.200s", r.Status, r.Body)
	}
	p := b.create("acme", nil) // a small body after the streamed change still reads
	if p.ID == "" {
		t.Error("no project")
	}
	// An upload larger than its kind's limit is refused by the library.
	b.server.Assets = &assets.Service{Store: b.store, Storage: b.storage, Limits: assets.Limits{ImageMaxBytes: 1000}, TempDir: t.TempDir()}
	noise := image.NewGray(image.Rect(0, 0, 100, 100))
	for i := range noise.Pix {
		noise.Pix[i] = byte(i * i * 31 >> 3)
	}
	var buf bytes.Buffer
	_ = png.Encode(&buf, noise)
	r = b.upload("acme", "big.png", "", buf.Bytes())
	if r.Status != http.StatusUnprocessableEntity || r.code() != koda.CodeAssetTooLarge {
		t.Errorf("image over 1000 bytes: %d %s", r.Status, r.Body)
	}
}
