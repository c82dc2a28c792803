package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/kodahq/koda/internal/kodatest"
)

// noisePNG is a PNG of random pixels: it does not compress, so its upload takes a
// while under a throttled connection and shows progress between 0 and 100.
func noisePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(r.Uint32())
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 0xff
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type studioAsset struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	URL    string `json:"url"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// TestStudioAssetsAndBrand (issue 25, item 6) is a person putting their files and
// brand into Koda Studio, in real Chromium against a real koda:
//   - three files dropped at once on the asset page: a PNG sent with a progress bar
//     under a throttled upload, a text file refused before sending, a text file named
//     .png refused by Koda, in plain words;
//   - a logo and a WOFF2 font chosen with the file input; the kind filter;
//   - the brand kit: a logo uploaded on its page picked and shown, then the kit set
//     from the library with colours, its sample card taking the colours, the logo and
//     the font (loaded with FontFace) as they change, saved with PUT /v1/brand;
//   - a new animation with a logo picked and the kit unticked, its request read back
//     through the API;
//   - an asset deleted; the library's pages; a file too big and a full library
//     refused; the kit's logo deleted, said on the brand page.
//
// No page scrolls sideways at 390 px.
func TestStudioAssetsAndBrand(t *testing.T) {
	// Audio up to 100 kB, so a file too big is quick to send.
	m := startTuned(t, kodatest.MustRedis(t, kodatest.DBKodaStudio), func(m *Main) { m.Config.Assets.AudioMaxBytes = 100_000 })
	c := client{t: t, base: m.PublicURL}
	b := newStudioBrowser(t, m.PublicURL)
	b.signIn(testAPIKey)
	b.run("assets page", chromedp.Navigate(m.PublicURL+"/#/assets"), chromedp.WaitVisible("#asset-drop", chromedp.ByQuery))

	// Drag and drop: three files in one drop, the PNG under a slow upload.
	big := noisePNG(t, 420, 300)
	b.run("slow upload", network.Enable(), network.EmulateNetworkConditions(false, 0, -1, float64(len(big))/3))
	var dropped bool
	b.run("drop", chromedp.Evaluate(fmt.Sprintf(`(() => {
		const bytes = Uint8Array.from(atob(%q), (c) => c.charCodeAt(0));
		const dt = new DataTransfer();
		dt.items.add(new File([bytes], 'drop-photo.png', { type: 'image/png' }));
		dt.items.add(new File(['just some notes'], 'notes.txt', { type: 'text/plain' }));
		dt.items.add(new File(['not a picture at all'], 'fake.png', { type: 'image/png' }));
		const zone = document.querySelector('#asset-drop');
		for (const type of ['dragenter', 'dragover', 'drop']) {
			zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
		}
		return true;
	})()`, base64.StdEncoding.EncodeToString(big)), &dropped))
	photo := `#asset-drop-list li[data-name="drop-photo.png"]`
	b.waitJS("progress shown", 30*time.Second, fmt.Sprintf(`(() => { const li = document.querySelector(%q);
		const p = li && Number(li.dataset.progress); return !!li && li.dataset.state === 'sending' && p > 0 && p < 100; })()`, photo))
	var mid string
	b.run("bar", chromedp.AttributeValue(photo+` .bar`, "aria-valuenow", &mid, nil, chromedp.ByQuery))
	b.screenshot("20-upload-progress")
	b.waitJS("photo added", 60*time.Second, fmt.Sprintf(`(document.querySelector(%q) || { dataset: {} }).dataset.state === 'done'`, photo))
	b.run("fast again", network.EmulateNetworkConditions(false, 0, -1, -1))
	var photoID, events string
	b.run("photo id", chromedp.AttributeValue(photo, "data-asset", &photoID, nil, chromedp.ByQuery),
		chromedp.AttributeValue(photo, "data-events", &events, nil, chromedp.ByQuery))
	t.Logf("progress seen at %s%%, %s progress events", mid, events)
	b.waitJS("photo listed", 10*time.Second, fmt.Sprintf(`!!document.querySelector('#assets li[data-id=%q]')`, photoID))
	if got := b.text(fmt.Sprintf(`#assets li[data-id=%q] .tile-meta`, photoID)); !strings.Contains(got, "420×300 px") {
		t.Errorf("the photo's tile says %q, want its pixel size", got)
	}
	notes := `#asset-drop-list li[data-name="notes.txt"]`
	fake := `#asset-drop-list li[data-name="fake.png"]`
	b.waitJS("fake refused", 20*time.Second, fmt.Sprintf(`(document.querySelector(%q) || { dataset: {} }).dataset.state === 'refused'`, fake))
	for sel, want := range map[string]string{notes: "not accepted", fake: "not accepted"} {
		got := b.text(sel + " .field-error")
		if !strings.Contains(got, want) || strings.Contains(got, "ASSET_") {
			t.Errorf("%s: refusal reads %q; want plain words saying %q, no code", sel, got, want)
		}
	}
	var fakeCode string
	b.run("fake code", chromedp.AttributeValue(fake, "data-code", &fakeCode, nil, chromedp.ByQuery))
	if fakeCode != "ASSET_UNSUPPORTED_TYPE" {
		t.Errorf("fake.png was refused with %q, want Koda's ASSET_UNSUPPORTED_TYPE", fakeCode)
	}

	// The file input: a logo and a font at once.
	dir := t.TempDir()
	logoPath := filepath.Join(dir, "acme-logo.png")
	fontPath := filepath.Join(dir, "Acme Sans.woff2")
	for p, data := range map[string][]byte{logoPath: kodatest.LogoPNG(96, 96, brandMagenta), fontPath: kodatest.WOFF2(goregular.TTF)} {
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b.run("choose files", chromedp.SetUploadFiles("#asset-drop-input", []string{logoPath, fontPath}, chromedp.ByQuery))
	b.waitJS("two added", 30*time.Second, `['acme-logo.png', 'Acme Sans.woff2'].every((n) =>
		(document.querySelector('#asset-drop-list li[data-name="' + n + '"]') || {dataset: {}}).dataset.state === 'done')`)
	var page struct {
		Assets []studioAsset `json:"assets"`
	}
	c.do(http.MethodGet, "/v1/assets", nil, &page)
	ids := map[string]studioAsset{}
	for _, a := range page.Assets {
		ids[a.Name] = a
	}
	logo, font := ids["acme-logo.png"], ids["Acme Sans.woff2"]
	if len(page.Assets) != 3 || ids["drop-photo.png"].ID != photoID || logo.ID == "" || font.Kind != "font" {
		t.Fatalf("the library after uploading: %+v", page.Assets)
	}
	b.waitJS("font sample", 10*time.Second, fmt.Sprintf(`document.fonts.check('20px "koda-%s"')`, font.ID))

	// The kind filter, then the library as the API lists it after a reload.
	b.run("fonts only", chromedp.SetValue("#asset-kind", "font", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#asset-kind').dispatchEvent(new Event('change'))`, nil))
	b.waitJS("filtered", 10*time.Second, fmt.Sprintf(`document.querySelectorAll('#assets li').length === 1 && !!document.querySelector('#assets li[data-id=%q]')`, font.ID))
	b.run("reload", chromedp.Navigate(m.PublicURL+"/#/"), chromedp.Navigate(m.PublicURL+"/#/assets"))
	b.waitJS("all listed", 10*time.Second, `document.querySelectorAll('#assets li').length === 3`)
	b.screenshot("21-assets")
	b.checkNarrow("assets page")

	// The brand kit: logo and font from the library, colours by hex and by picker.
	b.run("brand page", chromedp.Navigate(m.PublicURL+"/#/brand"),
		chromedp.WaitReady(fmt.Sprintf(`#brand-logo option[value=%q]`, logo.ID), chromedp.ByQuery))
	set := func(sel, value, event string) chromedp.Action {
		return chromedp.Evaluate(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q;
			e.dispatchEvent(new Event(%q, { bubbles: true })); return true; })()`, sel, value, event), nil)
	}
	// A logo uploaded right on the page is picked at once and shown on the sample.
	greenPath := filepath.Join(dir, "green-mark.png")
	if err := os.WriteFile(greenPath, kodatest.LogoPNG(48, 48, color.RGBA{0, 0xc0, 0x40, 0xff}), 0o644); err != nil {
		t.Fatal(err)
	}
	b.run("upload here", chromedp.Click(`[data-field="logo"] summary`, chromedp.ByQuery),
		chromedp.SetUploadFiles("#brand-logo-drop-input", []string{greenPath}, chromedp.ByQuery))
	b.waitJS("uploaded logo picked", 20*time.Second, `(() => { const sel = document.querySelector('#brand-logo');
		const opt = sel.selectedOptions[0]; const img = document.querySelector('#bp-logo');
		return !!opt && opt.value !== '' && opt.textContent.startsWith('green-mark.png') && img.complete && img.naturalWidth === 48; })()`)
	b.run("pick", set("#brand-logo", logo.ID, "change"), set("#brand-font", font.ID, "change"),
		set("#brand-primary-hex", "#ff6600", "input"), set("#brand-secondary-hex", "#0a8", "input"),
		set("#brand-background", "#12355b", "input"), set("#brand-text-hex", "#12g", "input"), set("#brand-text-hex", "#12g", "change"))
	if got := b.text("#brand-text-error"); !strings.Contains(got, "six hex digits") {
		t.Errorf("a bad hex colour says %q beside its field", got)
	}
	b.run("text colour", set("#brand-text-hex", "#ffffff", "input"), set("#brand-end-card", "acme.com", "input"))
	var bgHex string
	b.run("picker filled hex", chromedp.Value("#brand-background-hex", &bgHex, chromedp.ByQuery))
	if bgHex != "#12355b" {
		t.Errorf("the colour picker left the hex field at %q", bgHex)
	}
	b.waitJS("preview", 10*time.Second, fmt.Sprintf(`(() => {
		const pv = document.querySelector('#brand-preview'), logo = document.querySelector('#bp-logo');
		const cs = (sel, prop) => getComputedStyle(document.querySelector(sel))[prop];
		return cs('#brand-preview', 'backgroundColor') === 'rgb(18, 53, 91)' && cs('#bp-title', 'color') === 'rgb(255, 255, 255)'
			&& cs('#bp-chip', 'backgroundColor') === 'rgb(255, 102, 0)' && cs('#bp-sub', 'color') === 'rgb(0, 170, 136)'
			&& !logo.hidden && logo.complete && logo.naturalWidth === 96 && pv.dataset.font === %q
			&& cs('#bp-title', 'fontFamily').includes('koda-%s') && document.fonts.check('20px "koda-%s"')
			&& document.querySelector('#bp-end-text').textContent === 'acme.com' && !document.querySelector('#brand-end-preview').hidden;
	})()`, font.ID, font.ID, font.ID))
	// A change shows at once.
	b.run("primary again", set("#brand-primary-hex", "#00ff00", "input"))
	b.waitJS("preview follows", 5*time.Second, `getComputedStyle(document.querySelector('#bp-chip')).backgroundColor === 'rgb(0, 255, 0)'`)
	b.run("primary back", set("#brand-primary-hex", "#ff6600", "input"))
	b.screenshot("22-brand")
	b.run("save", chromedp.Click("#save-brand", chromedp.ByQuery),
		chromedp.WaitVisible(`//span[@id="brand-saved"][starts-with(text(), "Saved")]`, chromedp.BySearch))
	var kit struct {
		Logo, Font *string
		Colors     map[string]string `json:"colors"`
		EndCard    string            `json:"end_card"`
	}
	c.do(http.MethodGet, "/v1/brand", nil, &kit)
	if kit.Logo == nil || *kit.Logo != logo.ID || kit.Font == nil || *kit.Font != font.ID || kit.EndCard != "acme.com" ||
		kit.Colors["primary"] != "#ff6600" || kit.Colors["secondary"] != "#00aa88" || kit.Colors["background"] != "#12355b" || kit.Colors["text"] != "#ffffff" {
		t.Errorf("the saved kit: %+v %v", kit, kit.Colors)
	}
	b.checkNarrow("brand page")

	// A new animation with the photo as its logo and the kit unticked.
	b.run("form", chromedp.Navigate(m.PublicURL+"/#/new"),
		chromedp.WaitReady(fmt.Sprintf(`#pick-logo option[value=%q]`, photoID), chromedp.ByQuery))
	var none string
	b.run("no logo picked", chromedp.Evaluate(`document.querySelector('#pick-logo').options[0].textContent`, &none))
	if got := none; !strings.Contains(got, "acme-logo.png") {
		t.Errorf("with the kit ticked, no logo picked reads %q, want the kit's logo", got)
	}
	b.checkNarrow("new animation form")
	b.run("fill", chromedp.SendKeys("#prompt", "The words 'Hello from Acme' appear", chromedp.ByQuery),
		set("#pick-logo", photoID, "change"), chromedp.Click("#use-brand", chromedp.ByQuery),
		chromedp.Click("#new-project button[type=submit]", chromedp.ByQuery),
		chromedp.WaitVisible("[data-project]", chromedp.ByQuery))
	var projectID string
	b.run("project id", chromedp.Evaluate(`document.querySelector('[data-project]').dataset.project`, &projectID))
	var made struct {
		Assets []struct{ ID, Role string }
		Brand  *struct{} `json:"brand"`
	}
	c.do(http.MethodGet, "/v1/projects/"+projectID, nil, &made)
	if len(made.Assets) != 1 || made.Assets[0].ID != photoID || made.Assets[0].Role != "logo" || made.Brand != nil {
		t.Errorf("the project the form made has assets %+v and brand %v; want the photo as logo and no kit", made.Assets, made.Brand)
	}

	// Deleting an asset, confirmed.
	b.run("assets again", chromedp.Navigate(m.PublicURL+"/#/assets"),
		chromedp.WaitVisible(fmt.Sprintf(`#assets li[data-id=%q] .delete-asset`, photoID), chromedp.ByQuery),
		chromedp.Click(fmt.Sprintf(`#assets li[data-id=%q] .delete-asset`, photoID), chromedp.ByQuery))
	b.waitJS("deleted", 10*time.Second, fmt.Sprintf(`!document.querySelector('#assets li[data-id=%q]')`, photoID))
	var gone apiError
	if status, _ := c.do(http.MethodGet, "/v1/assets/"+photoID, nil, &gone); status != http.StatusNotFound {
		t.Errorf("the deleted asset answers %d", status)
	}

	// Pages: the library shows 24 files, then the rest on "Load more".
	for i := range 24 {
		if status, code, msg := c.upload(fmt.Sprintf("dot-%02d.png", i), kodatest.LogoPNG(8, 8, color.RGBA{byte(i * 10), 0x40, 0x90, 0xff})); status != http.StatusCreated {
			t.Fatalf("upload dot %d: %d %s %s", i, status, code, msg)
		}
	}
	b.run("paged", chromedp.Navigate(m.PublicURL+"/#/"), chromedp.Navigate(m.PublicURL+"/#/assets"),
		chromedp.WaitVisible("#more-assets", chromedp.ByQuery))
	if n := b.count("#assets li"); n != 24 { // of 27: the kit's logo, green-mark.png, the font and 24 dots
		t.Errorf("the first page shows %d files, want 24", n)
	}
	b.run("more", chromedp.Click("#more-assets", chromedp.ByQuery))
	b.waitJS("second page", 10*time.Second, `document.querySelectorAll('#assets li').length === 27 && document.querySelector('#more-assets').hidden`)

	// A file over its kind's size: Koda refuses it without reading the rest, which
	// the browser may see as the answer or as a connection cut short; either way the
	// line says the file is too big.
	b.run("too big", chromedp.Evaluate(`(() => {
		const bytes = new Uint8Array(400000); bytes.set([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
		const dt = new DataTransfer();
		dt.items.add(new File([bytes], 'long-song.mp3', { type: 'audio/mpeg' }));
		document.querySelector('#asset-drop').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
		return true;
	})()`, nil))
	song := `#asset-drop-list li[data-name="long-song.mp3"]`
	b.waitJS("song refused", 20*time.Second, fmt.Sprintf(`(document.querySelector(%q) || { dataset: {} }).dataset.state === 'refused'`, song))
	if got := b.text(song + " .field-error"); !strings.Contains(got, "too big") && !strings.Contains(got, "bigger than Koda takes") {
		t.Errorf("a file over the size limit reads %q", got)
	}
	var songCode string
	b.run("song code", chromedp.AttributeValue(song, "data-code", &songCode, nil, chromedp.ByQuery))
	t.Logf("the browser saw a too-big upload as %s", songCode)

	// A full library refuses a new file, said in words beside it.
	var usage struct {
		TenantID string `json:"tenant_id"`
	}
	c.do(http.MethodGet, "/v1/usage", nil, &usage)
	admin := client{t: t, base: m.PublicURL, key: testAdminKey}
	if status, _ := admin.do(http.MethodPut, "/admin/tenants/"+usage.TenantID+"/limits", map[string]any{"asset_bytes": 1000}, nil); status != http.StatusOK {
		t.Fatalf("set the asset quota: %d", status)
	}
	extra := filepath.Join(dir, "extra.png")
	if err := os.WriteFile(extra, kodatest.LogoPNG(40, 40, color.RGBA{0, 0x80, 0xff, 0xff}), 0o644); err != nil {
		t.Fatal(err)
	}
	b.run("over quota", chromedp.SetUploadFiles("#asset-drop-input", []string{extra}, chromedp.ByQuery))
	full := `#asset-drop-list li[data-name="extra.png"]`
	b.waitJS("refused", 20*time.Second, fmt.Sprintf(`(document.querySelector(%q) || { dataset: {} }).dataset.state === 'refused'`, full))
	if got := b.text(full + " .field-error"); !strings.Contains(got, "library is full") || strings.Contains(got, "LIMIT_") {
		t.Errorf("over the quota the file's line says %q", got)
	}
	b.screenshot("23-refusals")

	// The kit outlives its logo: the brand page says the file is gone, not "None".
	if status, _ := c.do(http.MethodDelete, "/v1/assets/"+logo.ID, nil, nil); status != http.StatusNoContent {
		t.Fatalf("delete the kit's logo: %d", status)
	}
	b.run("brand again", chromedp.Navigate(m.PublicURL+"/#/brand"), chromedp.WaitVisible("#brand-logo-error .field-error", chromedp.ByQuery))
	if got := b.text("#brand-logo-error"); !strings.Contains(got, "no longer in the library") {
		t.Errorf("the kit's deleted logo reads %q on the brand page", got)
	}
	b.checkNoProblems()
}
