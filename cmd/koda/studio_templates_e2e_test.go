package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
)

// TestStudioTemplateBatch is a person turning a finished project into a template in
// Koda Studio and rendering a CSV of rows from it, in real Chromium against a real
// koda: "Use as template", the fields with their values, an edit that makes version 2,
// a CSV whose unknown column is flagged before anything is sent, a CSV with a quoted
// comma and a quoted line break previewed cell by cell, and the batch's table filling
// with a download per good row and the bad row's field; the page never scrolls
// sideways on a phone.
func TestStudioTemplateBatch(t *testing.T) {
	m := startKoda(t, kodatest.MustRedis(t, kodatest.DBKodaStudio))
	c := client{t: t, base: m.PublicURL}
	small := map[string]any{"width": 640, "height": 360, "fps": 5}
	prompt := "The words 'HELLO WORLD' appear in big white letters on a dark background"
	var p project
	c.do(http.MethodPost, "/v1/projects", map[string]any{"prompt": prompt, "duration_s": 2, "auto_approve": true, "presets": []any{small}}, &p)
	c.waitProject(p.ID, 3*time.Minute, "complete", func(p project) bool { return p.Phase == "complete" && finalsDone(p, 1) })

	b := newStudioBrowser(t, m.PublicURL)
	b.signIn(testAPIKey)
	b.run("project", chromedp.Navigate(m.PublicURL+"/#/p/"+p.ID), chromedp.WaitVisible("#make-template", chromedp.ByQuery))
	var name string
	b.run("default name", chromedp.Value("#template-name-input", &name, chromedp.ByQuery))
	if name == "" || !strings.HasPrefix(prompt, strings.TrimSuffix(name, "…")) {
		t.Errorf("default template name %q is not from the prompt", name)
	}
	b.run("make template", chromedp.SetValue("#template-name-input", "greeting", chromedp.ByQuery),
		chromedp.Click("#make-template", chromedp.ByQuery),
		chromedp.WaitVisible("#fields tr[data-field]", chromedp.ByQuery))
	var id string
	b.run("template id", chromedp.Evaluate(`document.querySelector('[data-template]').dataset.template`, &id))
	var tpl struct {
		Name    string `json:"name"`
		Version int    `json:"version"`
		Fields  []struct {
			Name  string          `json:"name"`
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"fields"`
	}
	c.do(http.MethodGet, "/v1/templates/"+id, nil, &tpl)
	if tpl.Name != "greeting" || b.text("#template-name") != "greeting" {
		t.Errorf("template named %q, page says %q", tpl.Name, b.text("#template-name"))
	}
	if n := b.count("#fields tr[data-field]"); n != len(tpl.Fields) {
		t.Errorf("page shows %d fields, the template has %d", n, len(tpl.Fields))
	}
	field := ""
	for _, f := range tpl.Fields {
		if f.Type == "text" && strings.Contains(strings.ToUpper(string(f.Value)), "HELLO") {
			field = f.Name
		}
	}
	if field == "" {
		t.Fatalf("no text field holds HELLO WORLD: %+v", tpl.Fields)
	}
	row := fmt.Sprintf(`#fields tr[data-field=%q]`, field)
	var value, limit string
	b.run("field", chromedp.Value(row+" .field-value", &value, chromedp.ByQuery), chromedp.Text(row+" .limit", &limit, chromedp.ByQuery))
	if !strings.Contains(strings.ToUpper(value), "HELLO") || !strings.Contains(limit, "characters") {
		t.Errorf("field %s on the page: value %q, limit %q", field, value, limit)
	}
	b.screenshot("11-template")

	// An edit is a new version.
	b.run("edit", chromedp.SetValue(row+" .field-value", "HELLO THERE", chromedp.ByQuery),
		chromedp.Click("#save-fields", chromedp.ByQuery),
		chromedp.WaitVisible(`//span[@id="template-version"][text()="version 2"]`, chromedp.BySearch))
	c.do(http.MethodGet, "/v1/templates/"+id, nil, &tpl)
	if tpl.Version != 2 {
		t.Errorf("after saving, the template is at version %d", tpl.Version)
	}

	// A column the template does not have is flagged, and nothing can be sent.
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	if err := os.WriteFile(bad, []byte(field+",colour\nSPRING,#fff\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.run("preset", chromedp.WaitVisible(`#batch-presets input[value="720p"]`, chromedp.ByQuery),
		chromedp.Click(`#batch-presets input[value="720p"]`, chromedp.ByQuery))
	b.run("bad csv", chromedp.SetUploadFiles("#csv-file", []string{bad}, chromedp.ByQuery),
		chromedp.WaitVisible(`#csv-mapping li.bad[data-column="colour"]`, chromedp.ByQuery))
	var disabled bool
	b.run("disabled", chromedp.Evaluate(`document.querySelector('#render-batch').disabled`, &disabled))
	if !disabled || !strings.Contains(b.text("#batch-note"), "colour") {
		t.Errorf("with an unknown column: button disabled %v, note %q", disabled, b.text("#batch-note"))
	}

	// The rows: a quoted comma, and a quoted line break that a text field refuses.
	good := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(good, []byte(field+"\n\"SPRING, SUMMER\"\nWINTER\n\"TWO\nLINES\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.run("csv", chromedp.SetUploadFiles("#csv-file", []string{good}, chromedp.ByQuery),
		chromedp.WaitVisible("#csv-table tbody tr", chromedp.ByQuery))
	if n := b.count("#csv-table tbody tr"); n != 3 {
		t.Errorf("preview shows %d rows, want 3", n)
	}
	if got := b.text(`#csv-table tr[data-row="1"] td.cell`); got != "SPRING, SUMMER" {
		t.Errorf("row 1's cell in the preview = %q", got)
	}
	if n := b.count(`#csv-table tr[data-row="3"] td.bad`); n != 1 {
		t.Errorf("the cell with a line break is not marked (%d marked)", n)
	}
	b.screenshot("12-csv")
	b.checkNarrow("template page")

	b.run("render batch", chromedp.Click("#render-batch", chromedp.ByQuery),
		chromedp.WaitVisible("#lines tr.line", chromedp.ByQuery))
	var batchID string
	b.run("batch id", chromedp.Evaluate(`document.querySelector('[data-batch]').dataset.batch`, &batchID))
	if got := b.text(`#rejected tr[data-row="3"]`); !strings.Contains(got, field) {
		t.Errorf("the refused row 3 does not name its field: %q", got)
	}
	b.runFor("batch rendered", 4*time.Minute, poll(`document.querySelectorAll('#lines a.download').length === 2 && document.querySelector('#batch-status').textContent === 'completed'`))
	var man struct {
		Lines []koda.ManifestLine `json:"lines"`
	}
	c.do(http.MethodGet, "/v1/batches/"+batchID+"/manifest", nil, &man)
	if len(man.Lines) != 3 {
		t.Fatalf("manifest %+v", man.Lines)
	}
	for _, l := range man.Lines[:2] {
		var href string
		b.run("link", chromedp.AttributeValue(fmt.Sprintf(`#lines tr[data-row="%d"] a.download`, l.Row), "href", &href, nil, chromedp.ByQuery))
		if a, _, _ := strings.Cut(href, "?"); l.VideoURL == "" || a != strings.SplitN(l.VideoURL, "?", 2)[0] {
			t.Errorf("row %d's link %q, manifest %q", l.Row, href, l.VideoURL)
		}
	}
	if got := b.text(`#lines tr[data-row="3"]`); !strings.Contains(got, "invalid") || !strings.Contains(got, field) {
		t.Errorf("row 3's line: %q", got)
	}
	b.screenshot("13-batch")
	b.checkNarrow("batch page")

	b.run("list", chromedp.Navigate(m.PublicURL+"/#/templates"), chromedp.WaitVisible(`#templates tr[data-id="`+id+`"]`, chromedp.ByQuery))
	b.checkNoProblems()
}

// checkNarrow shows the page at a phone's width and fails if the page itself scrolls
// sideways (a wide table scrolls inside its own box instead).
func (b *studioBrowser) checkNarrow(what string) {
	b.t.Helper()
	var wide int
	b.run("narrow "+what, chromedp.EmulateViewport(390, 844),
		chromedp.Sleep(300*time.Millisecond),
		chromedp.Evaluate(`document.documentElement.scrollWidth`, &wide))
	b.screenshot("phone-" + strings.ReplaceAll(what, " ", "-"))
	b.run("wide again", chromedp.EmulateViewport(1360, 900))
	if wide > 390 {
		b.t.Errorf("%s at 390 px: the page is %d px wide", what, wide)
	}
}
