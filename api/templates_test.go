package api_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/agent/templates"
	"github.com/kodahq/koda/sandbox"
)

// promoScene is a small scene: a headline, a price and a dark background.
func promoScene() *scene.Description {
	return &scene.Description{Version: 1, Duration: 1, FPS: 30,
		Background: scene.Background{Colors: []string{"#0f172a", "#1e293b"}, Angle: 90},
		Elements: []*scene.Element{
			{ID: "title", Type: scene.TypeText, Text: "Summer sale", Size: 0.12, Y: -0.3, Color: "#ffffff"},
			{ID: "tag", Type: scene.TypeText, Text: "$19.99", Size: 0.08, Y: 0.2, Color: "#facc15"},
		}}
}

// templateProject completes a project of tenant through the lifecycle and stores the
// files of scene d as its checkpoint, as codegen would have.
func (b *bundle) templateProject(tenant string, d *scene.Description) string {
	b.t.Helper()
	b.life.Templates = &templates.Engine{Storage: b.storage, WorkDir: b.t.TempDir()}
	p := b.create(tenant, nil)
	b.complete(tenant, p.ID)
	putScene(b.t, b.storage, p.ID, d)
	return p.ID
}

func putScene(t *testing.T, st koda.Storage, projectID string, d *scene.Description) {
	t.Helper()
	dir := t.TempDir()
	js, err := d.JSON()
	if err != nil {
		t.Fatal(err)
	}
	script, err := d.Script()
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{scene.FileIndex: scene.IndexHTML(), scene.FileRuntime: scene.RuntimeJS(),
		scene.FileJSON: js, scene.FileScene: script} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := sandbox.Checkpoint(context.Background(), dir, &buf); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Put(context.Background(), koda.CheckpointKey(koda.ProjectFolder(projectID)), &buf); err != nil {
		t.Fatal(err)
	}
}

// rowScene reads the scene a row's project renders.
func rowScene(t *testing.T, st koda.Storage, projectID string) *scene.Description {
	t.Helper()
	rc, err := st.Open(context.Background(), koda.CheckpointKey(koda.ProjectFolder(projectID)))
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	dir := t.TempDir()
	if err := sandbox.Restore(context.Background(), rc, dir, sandbox.Budget{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, scene.FileJSON))
	if err != nil {
		t.Fatal(err)
	}
	d, err := scene.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := os.ReadFile(filepath.Join(dir, scene.FileScene))
	if !bytes.Contains(js, []byte(d.Elements[0].Text)) {
		t.Errorf("scene.js does not say %q: the runtime would draw another text", d.Elements[0].Text)
	}
	return d
}

type templateJSON struct {
	ID      string `json:"id"`
	Version int    `json:"version"`
	Name    string `json:"name"`
	Fields  []struct {
		Name  string          `json:"name"`
		Type  string          `json:"type"`
		Value json.RawMessage `json:"value"`
		Limit struct {
			MaxLength int `json:"max_length"`
		} `json:"limit"`
	} `json:"fields"`
}

func (tj templateJSON) field(name string) (string, json.RawMessage, int) {
	for _, f := range tj.Fields {
		if f.Name == name {
			return f.Type, f.Value, f.Limit.MaxLength
		}
	}
	return "", nil, 0
}

func (b *bundle) newTemplate(tenant string) templateJSON {
	b.t.Helper()
	pid := b.templateProject(tenant, promoScene())
	r := b.do(tenant, http.MethodPost, "/v1/templates", map[string]any{"project_id": pid, "name": "promo"})
	if r.Status != http.StatusCreated {
		b.t.Fatalf("create template: %d %s", r.Status, r.Body)
	}
	var tj templateJSON
	r.decode(b.t, &tj)
	return tj
}

// A complete project's scene becomes a template whose fields are named, typed, valued
// and limited; another tenant sees none of it; a project not complete cannot be one.
func TestTemplateFromProject(t *testing.T) {
	b := setup(t)
	tj := b.newTemplate("acme")
	if tj.Version != 1 || tj.Name != "promo" {
		t.Errorf("template %+v", tj)
	}
	typ, val, limit := tj.field("headline")
	if typ != "text" || string(val) != `"Summer sale"` || limit < len("Summer sale") {
		t.Errorf("headline %s %s limit %d", typ, val, limit)
	}
	if typ, val, _ := tj.field("price"); typ != "text" || string(val) != `"$19.99"` {
		t.Errorf("price %s %s", typ, val)
	}
	// A vertical preset's narrower lines take fewer characters.
	var tall templateJSON
	b.do("acme", http.MethodGet, "/v1/templates/"+tj.ID+"?presets=tiktok", nil).decode(t, &tall)
	if _, _, tallLimit := tall.field("headline"); tallLimit <= 0 || tallLimit >= limit {
		t.Errorf("headline limit for tiktok %d, want below landscape's %d", tallLimit, limit)
	}
	if r := b.do("acme", http.MethodGet, "/v1/templates/"+tj.ID+"?presets=nope", nil); r.Status != http.StatusBadRequest || r.code() != koda.CodeUnknownPreset {
		t.Errorf("limits for an unknown preset: %d %s", r.Status, r.Body)
	}
	if typ, val, _ := tj.field("background"); typ != "color" || string(val) != `"#0f172a"` {
		t.Errorf("background %s %s", typ, val)
	}
	for _, path := range []string{"/v1/templates/" + tj.ID} {
		if r := b.do("globex", http.MethodGet, path, nil); r.Status != http.StatusNotFound || r.code() != koda.CodeNotFound {
			t.Errorf("globex GET %s: %d %s", path, r.Status, r.Body)
		}
	}
	if r := b.do("globex", http.MethodPatch, "/v1/templates/"+tj.ID, map[string]any{"name": "mine"}); r.Status != http.StatusNotFound {
		t.Errorf("globex PATCH: %d %s", r.Status, r.Body)
	}
	if r := b.do("globex", http.MethodPost, "/v1/templates/"+tj.ID+"/batches", map[string]any{"rows": []any{map[string]any{}}, "presets": []string{"preview"}}); r.Status != http.StatusNotFound {
		t.Errorf("globex batch: %d %s", r.Status, r.Body)
	}
	var page struct {
		Templates []templateJSON `json:"templates"`
	}
	b.do("acme", http.MethodGet, "/v1/templates?limit=10", nil).decode(t, &page)
	if len(page.Templates) != 1 || page.Templates[0].ID != tj.ID {
		t.Errorf("acme's templates %+v", page.Templates)
	}
	b.do("globex", http.MethodGet, "/v1/templates", nil).decode(t, &page)
	if len(page.Templates) != 0 {
		t.Errorf("globex sees %+v", page.Templates)
	}
	// Another tenant's project cannot be made a template, nor one still being made.
	if r := b.do("globex", http.MethodPost, "/v1/templates", map[string]any{"project_id": tj.projectOf(b), "name": "x"}); r.Status != http.StatusNotFound {
		t.Errorf("globex template of acme's project: %d %s", r.Status, r.Body)
	}
	fresh := b.create("acme", nil)
	if r := b.do("acme", http.MethodPost, "/v1/templates", map[string]any{"project_id": fresh.ID, "name": "x"}); r.Status != http.StatusConflict || r.code() != koda.CodePhaseConflict {
		t.Errorf("template of a project in phase idle: %d %s", r.Status, r.Body)
	}
	// Names are bounded like every other name of the API.
	long := strings.Repeat("n", koda.NameText.Max+1)
	if r := b.do("acme", http.MethodPost, "/v1/templates", map[string]any{"project_id": tj.projectOf(b), "name": long}); r.Status != http.StatusBadRequest || r.code() != koda.CodeInvalidName {
		t.Errorf("template named with %d characters: %d %s", len(long), r.Status, r.Body)
	}
	if r := b.do("acme", http.MethodPatch, "/v1/templates/"+tj.ID, map[string]any{"name": long}); r.Status != http.StatusBadRequest || r.code() != koda.CodeInvalidName {
		t.Errorf("template renamed with %d characters: %d %s", len(long), r.Status, r.Body)
	}
}

func (tj templateJSON) projectOf(b *bundle) string {
	b.t.Helper()
	var v struct {
		ProjectID string `json:"project_id"`
	}
	b.do("acme", http.MethodGet, "/v1/templates/"+tj.ID, nil).decode(b.t, &v)
	return v.ProjectID
}

// An edit makes a new version; rows rendered before keep the values they were made
// with, rows after take the new defaults; a stale or bad edit changes nothing.
func TestTemplateVersions(t *testing.T) {
	b := setup(t)
	tj := b.newTemplate("acme")
	r := b.do("acme", http.MethodPost, "/v1/templates/"+tj.ID+"/batches", map[string]any{
		"rows": []any{map[string]any{"price": "$5"}}, "presets": []string{"preview"}})
	if r.Status != http.StatusAccepted {
		t.Fatalf("batch: %d %s", r.Status, r.Body)
	}
	first := batchRows(t, r)
	r = b.do("acme", http.MethodPatch, "/v1/templates/"+tj.ID, map[string]any{"version": 1,
		"fields": map[string]any{"headline": map[string]any{"name": "title", "value": "Winter sale"}}, "drop": []string{"background_2"}})
	if r.Status != http.StatusOK {
		t.Fatalf("patch: %d %s", r.Status, r.Body)
	}
	var v2 templateJSON
	r.decode(t, &v2)
	if typ, val, _ := v2.field("title"); v2.Version != 2 || typ != "text" || string(val) != `"Winter sale"` {
		t.Errorf("after the edit: version %d, title %s %s", v2.Version, typ, val)
	}
	if typ, _, _ := v2.field("headline"); typ != "" {
		t.Error("headline still there after its rename")
	}
	if typ, _, _ := v2.field("background_2"); typ != "" {
		t.Error("background_2 still there after it was dropped")
	}
	// The row made at version 1 still renders version 1's scene.
	if d := rowScene(t, b.storage, first[0].ProjectID); d.Element("title").Text != "Summer sale" || d.Element("tag").Text != "$5" {
		t.Errorf("row of version 1 now says %q %q", d.Element("title").Text, d.Element("tag").Text)
	}
	for _, bad := range []struct {
		body   map[string]any
		status int
		code   string
	}{
		{map[string]any{"version": 1, "name": "late"}, http.StatusConflict, koda.CodeTemplateEdited},
		{map[string]any{"fields": map[string]any{"title": map[string]any{"value": strings.Repeat("words ", 60)}}}, http.StatusUnprocessableEntity, koda.CodeTextTooLong},
		{map[string]any{"fields": map[string]any{"nope": map[string]any{"name": "x"}}}, http.StatusBadRequest, koda.CodeUnknownField},
		{map[string]any{"fields": map[string]any{"title": map[string]any{"name": "price"}}}, http.StatusBadRequest, koda.CodeInvalidRequest},
		{map[string]any{"fields": map[string]any{"title": map[string]any{"name": "Has Space"}}}, http.StatusBadRequest, koda.CodeInvalidRequest},
	} {
		if r := b.do("acme", http.MethodPatch, "/v1/templates/"+tj.ID, bad.body); r.Status != bad.status || r.code() != bad.code {
			t.Errorf("patch %v: %d %s, want %d %s", bad.body, r.Status, r.Body, bad.status, bad.code)
		}
	}
	var now templateJSON
	b.do("acme", http.MethodGet, "/v1/templates/"+tj.ID, nil).decode(t, &now)
	if now.Version != 2 {
		t.Errorf("refused edits moved the version to %d", now.Version)
	}
	r = b.do("acme", http.MethodPost, "/v1/templates/"+tj.ID+"/batches", map[string]any{
		"rows": []any{map[string]any{"price": "$6"}}, "presets": []string{"preview"}})
	second := batchRows(t, r)
	if d := rowScene(t, b.storage, second[0].ProjectID); d.Element("title").Text != "Winter sale" {
		t.Errorf("row of version 2 says %q", d.Element("title").Text)
	}
}

type rowJSON struct {
	Row       int               `json:"row"`
	Status    string            `json:"status"`
	ProjectID string            `json:"project_id"`
	Errors    []koda.FieldError `json:"errors"`
	RenderIDs []string          `json:"render_ids"`
}

func batchRows(t *testing.T, r response) []rowJSON {
	t.Helper()
	if r.Status != http.StatusAccepted && r.Status != http.StatusOK {
		t.Fatalf("batch: %d %s", r.Status, r.Body)
	}
	var v struct {
		Rows []rowJSON `json:"rows"`
	}
	r.decode(t, &v)
	return v.Rows
}

// csvForm is a multipart form with a CSV file and presets.
func csvForm(t *testing.T, rows [][]string, presets string) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("file", "rows.csv")
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(fw)
	if err := w.WriteAll(rows); err != nil {
		t.Fatal(err)
	}
	if err := mw.WriteField("presets", presets); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String(), mw.FormDataContentType()
}

// A CSV with good and bad rows: the bad ones are reported with their row number and
// field and render nothing; the good ones render, each with its own values; the
// manifest has a line per row and preset, JSON and CSV; a CSV of only bad rows is
// refused.
func TestTemplateBatchCSV(t *testing.T) {
	b := setup(t)
	tj := b.newTemplate("acme")
	_, _, limit := tj.field("headline")
	body, ctype := csvForm(t, [][]string{
		{"headline", "price", "background"},
		{"Autumn deals", "$7", "#112233"},
		{strings.Repeat("far too long ", limit/12+2), "$8", ""},
		{"Spring", "$9", "not-a-colour"},
		{"Winter", "", ""},
	}, "preview,720p")
	r := b.do("acme", http.MethodPost, "/v1/templates/"+tj.ID+"/batches", body, "Content-Type", ctype)
	rows := batchRows(t, r)
	if len(rows) != 4 {
		t.Fatalf("rows %+v", rows)
	}
	want := []struct {
		status, field, code string
	}{{"queued", "", ""}, {"invalid", "headline", koda.CodeTextTooLong}, {"invalid", "background", koda.CodeInvalidColor}, {"queued", "", ""}}
	for i, w := range want {
		got := rows[i]
		if got.Row != i+1 || got.Status != w.status {
			t.Errorf("row %d: %+v, want %s", i+1, got, w.status)
		}
		if w.field != "" && (len(got.Errors) != 1 || got.Errors[0].Field != w.field || got.Errors[0].Code != w.code) {
			t.Errorf("row %d errors %+v, want %s %s", i+1, got.Errors, w.field, w.code)
		}
		if w.field == "" && (got.ProjectID == "" || len(got.RenderIDs) != 2) {
			t.Errorf("good row %d: project %q renders %v", i+1, got.ProjectID, got.RenderIDs)
		}
		if w.field != "" && (got.ProjectID != "" || len(got.RenderIDs) != 0) {
			t.Errorf("bad row %d was given a project or renders: %+v", i+1, got)
		}
	}
	d := rowScene(t, b.storage, rows[0].ProjectID)
	if d.Element("title").Text != "Autumn deals" || d.Element("tag").Text != "$7" || d.Background.Colors[0] != "#112233" {
		t.Errorf("row 1 renders %q %q on %v", d.Element("title").Text, d.Element("tag").Text, d.Background.Colors)
	}
	if d := rowScene(t, b.storage, rows[3].ProjectID); d.Element("title").Text != "Winter" || d.Element("tag").Text != "$19.99" {
		t.Errorf("row 4 (price left empty) renders %q %q", d.Element("title").Text, d.Element("tag").Text)
	}
	var batch struct {
		ID string `json:"id"`
	}
	r.decode(t, &batch)
	// The good rows' renders run through the lifecycle like any render.
	for _, row := range []rowJSON{rows[0], rows[3]} {
		for _, id := range row.RenderIDs {
			b.finish(id, nil)
		}
	}
	var m struct {
		Lines []koda.ManifestLine `json:"lines"`
	}
	b.do("acme", http.MethodGet, "/v1/batches/"+batch.ID+"/manifest", nil).decode(t, &m)
	var got []string
	for _, l := range m.Lines {
		got = append(got, strings.Join([]string{strconv.Itoa(l.Row), l.Preset, l.Status, yes(l.VideoURL != "", "video"), yes(l.Error != "", "error")}, " "))
	}
	wantLines := []string{"1 preview succeeded video -", "1 720p succeeded video -", "2 preview invalid - error", "2 720p invalid - error",
		"3 preview invalid - error", "3 720p invalid - error", "4 preview succeeded video -", "4 720p succeeded video -"}
	if !slices.Equal(got, wantLines) {
		t.Errorf("manifest\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(wantLines, "\n"))
	}
	if !strings.Contains(m.Lines[2].Error, "headline") {
		t.Errorf("row 2's line does not name the field: %q", m.Lines[2].Error)
	}
	for _, how := range [][]string{{"?format=csv"}, {"", "Accept", "text/csv"}} {
		r := b.do("acme", http.MethodGet, "/v1/batches/"+batch.ID+"/manifest"+how[0], nil, how[1:]...)
		recs, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
		if err != nil || r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") {
			t.Fatalf("CSV manifest %v: %d %s %v", how, r.Status, r.Header.Get("Content-Type"), err)
		}
		if len(recs) != 9 || recs[0][0] != "row" || recs[1][0] != "1" || recs[1][2] != "succeeded" || !strings.HasPrefix(recs[1][5], "http") || recs[3][2] != "invalid" {
			t.Errorf("CSV manifest %v:\n%s", how, r.Body)
		}
	}
	if r := b.do("globex", http.MethodGet, "/v1/batches/"+batch.ID+"/manifest", nil); r.Status != http.StatusNotFound {
		t.Errorf("globex reads acme's manifest: %d", r.Status)
	}
	var done struct {
		Status string    `json:"status"`
		Rows   []rowJSON `json:"rows"`
	}
	b.do("acme", http.MethodGet, "/v1/batches/"+batch.ID, nil).decode(t, &done)
	if done.Status != "completed" || done.Rows[0].Status != "succeeded" || done.Rows[1].Status != "invalid" {
		t.Errorf("finished batch %s, rows %+v", done.Status, done.Rows)
	}
	body, ctype = csvForm(t, [][]string{{"headline", "colour"}, {"x", "#fff"}}, "preview")
	if r := b.do("acme", http.MethodPost, "/v1/templates/"+tj.ID+"/batches", body, "Content-Type", ctype); r.Status != http.StatusUnprocessableEntity ||
		r.code() != koda.CodeRowsInvalid || !strings.Contains(string(r.Body), "row 1 colour") {
		t.Errorf("only bad rows: %d %s", r.Status, r.Body)
	}
}

func yes(ok bool, label string) string {
	if ok {
		return label
	}
	return "-"
}

// Tenant limits count rows: a batch over the account's rows per batch is refused, and
// the renders of its valid rows (rows × presets; bad rows render nothing) count
// against the renders per day.
func TestTemplateBatchLimits(t *testing.T) {
	b := setup(t)
	tj := b.newTemplate("acme") // one final render of the project so far
	row := func(h string) map[string]any { return map[string]any{"headline": h} }
	if r := b.do("admin", http.MethodPut, "/admin/tenants/acme/limits", map[string]any{"batch_rows": 2, "renders_per_day": 4}); r.Status != http.StatusOK {
		t.Fatalf("limits: %d %s", r.Status, r.Body)
	}
	r := b.do("acme", http.MethodPost, "/v1/templates/"+tj.ID+"/batches", map[string]any{
		"rows": []any{row("a"), row("b"), row("c")}, "presets": []string{"preview"}})
	if r.Status != http.StatusUnprocessableEntity || r.code() != koda.CodeLimitBatchRows {
		t.Errorf("3 rows over a limit of 2: %d %s", r.Status, r.Body)
	}
	r = b.do("acme", http.MethodPost, "/v1/templates/"+tj.ID+"/batches", map[string]any{
		"rows": []any{row("a"), row("b")}, "presets": []string{"preview", "720p"}})
	if r.Status != http.StatusTooManyRequests || r.code() != koda.CodeLimitRendersPerDay {
		t.Errorf("1 + 2×2 renders over 4 a day: %d %s", r.Status, r.Body)
	}
	r = b.do("acme", http.MethodPost, "/v1/templates/"+tj.ID+"/batches", map[string]any{
		"rows": []any{row("a"), row(strings.Repeat("much too long ", 40))}, "presets": []string{"preview", "720p"}})
	if r.Status != http.StatusAccepted {
		t.Errorf("1 + 1×2 renders (the bad row renders nothing) within 4 a day: %d %s", r.Status, r.Body)
	}
}

// Deleting a template is the owner's alone (another tenant's delete is not found and
// changes nothing); afterwards the template neither lists, reads, edits nor takes a
// batch, and its files are gone, while what was made from it goes on: the rows'
// projects keep their files, a render still queued finishes, and the batch and its
// manifest (JSON and CSV) still download with every row's video.
func TestTemplateDelete(t *testing.T) {
	b := setup(t)
	ctx := context.Background()
	tj := b.newTemplate("acme")
	r := b.do("acme", http.MethodPost, "/v1/templates/"+tj.ID+"/batches", map[string]any{
		"rows":    []any{map[string]any{"price": "$5"}, map[string]any{"price": "$6"}, map[string]any{"nope": "x"}},
		"presets": []string{"preview"}})
	rows := batchRows(t, r)
	var batch struct {
		ID string `json:"id"`
	}
	r.decode(t, &batch)
	if len(rows) != 3 || len(rows[0].RenderIDs) != 1 || len(rows[1].RenderIDs) != 1 || rows[2].Status != "invalid" {
		t.Fatalf("rows %+v", rows)
	}
	b.finish(rows[0].RenderIDs[0], nil) // row 2's render is still queued when the template goes

	if r := b.do("globex", http.MethodDelete, "/v1/templates/"+tj.ID, nil); r.Status != http.StatusNotFound || r.code() != koda.CodeNotFound {
		t.Errorf("globex deletes acme's template: %d %s", r.Status, r.Body)
	}
	if r := b.do("acme", http.MethodGet, "/v1/templates/"+tj.ID, nil); r.Status != http.StatusOK {
		t.Fatalf("after globex's delete acme's template reads %d %s", r.Status, r.Body)
	}
	if r := b.do("acme", http.MethodDelete, "/v1/templates/"+tj.ID, nil); r.Status != http.StatusNoContent || len(r.Body) != 0 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}

	for _, c := range []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, "/v1/templates/" + tj.ID, nil},
		{http.MethodPatch, "/v1/templates/" + tj.ID, map[string]any{"name": "again"}},
		{http.MethodPost, "/v1/templates/" + tj.ID + "/batches", map[string]any{"rows": []any{map[string]any{"price": "$7"}}, "presets": []string{"preview"}}},
		{http.MethodDelete, "/v1/templates/" + tj.ID, nil},
	} {
		if r := b.do("acme", c.method, c.path, c.body); r.Status != http.StatusNotFound || r.code() != koda.CodeNotFound {
			t.Errorf("%s %s after the delete: %d %s", c.method, c.path, r.Status, r.Body)
		}
	}
	var page struct {
		Templates []templateJSON `json:"templates"`
	}
	b.do("acme", http.MethodGet, "/v1/templates", nil).decode(t, &page)
	if len(page.Templates) != 0 {
		t.Errorf("the deleted template still lists: %+v", page.Templates)
	}
	if _, err := b.storage.Open(ctx, koda.CheckpointKey(koda.TemplateFolder(tj.ID))); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Errorf("the deleted template's files: %v", err)
	}

	// What the template made stays: the rows' projects and their files, and a render
	// queued before the delete still runs to the end.
	for _, row := range rows[:2] {
		if r := b.do("acme", http.MethodGet, "/v1/projects/"+row.ProjectID, nil); r.Status != http.StatusOK {
			t.Errorf("row %d's project after the delete: %d %s", row.Row, r.Status, r.Body)
		}
	}
	if d := rowScene(t, b.storage, rows[1].ProjectID); d.Element("tag").Text != "$6" {
		t.Errorf("row 2 now renders %q", d.Element("tag").Text)
	}
	b.finish(rows[1].RenderIDs[0], nil)
	var m struct {
		Lines []koda.ManifestLine `json:"lines"`
	}
	b.do("acme", http.MethodGet, "/v1/batches/"+batch.ID+"/manifest", nil).decode(t, &m)
	var got []string
	for _, l := range m.Lines {
		got = append(got, strings.Join([]string{strconv.Itoa(l.Row), l.Status, yes(l.VideoURL != "", "video"), yes(l.Error != "", "error")}, " "))
	}
	if want := []string{"1 succeeded video -", "2 succeeded video -", "3 invalid - error"}; !slices.Equal(got, want) {
		t.Errorf("manifest after the delete\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r := b.do("acme", http.MethodGet, "/v1/batches/"+batch.ID+"/manifest?format=csv", nil); r.Status != http.StatusOK || !bytes.Contains(r.Body, []byte("succeeded")) {
		t.Errorf("CSV manifest after the delete: %d %s", r.Status, r.Body)
	}
	var done struct {
		Status string    `json:"status"`
		Rows   []rowJSON `json:"rows"`
	}
	b.do("acme", http.MethodGet, "/v1/batches/"+batch.ID, nil).decode(t, &done)
	if done.Status != "completed" || len(done.Rows) != 3 || done.Rows[2].Errors[0].Field != "nope" {
		t.Errorf("batch after the delete: %s %+v", done.Status, done.Rows)
	}
	if r := b.do("acme", http.MethodGet, "/v1/renders/"+rows[0].RenderIDs[0], nil); r.Status != http.StatusOK {
		t.Errorf("row 1's render after the delete: %d %s", r.Status, r.Body)
	}
}
