package templates_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/critic"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/agent/templates"
	"github.com/kodahq/koda/sandbox/local"
)

// suitePrompt returns a prompt of the prompt suite by id.
func suitePrompt(t *testing.T, id string) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	var ps []struct{ ID, Prompt string }
	if err := json.Unmarshal(b, &ps); err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.ID == id {
			return p.Prompt
		}
	}
	t.Fatalf("no prompt %q in the suite", id)
	return ""
}

// generated is the scene the builtin agent writes for a suite prompt.
func generated(t *testing.T, id string) *scene.Description {
	t.Helper()
	ctx := context.Background()
	a := builtin.New(nil)
	p := &koda.Project{ID: "prj_tpl", Prompt: suitePrompt(t, id)}
	pl, err := a.Plan(ctx, p, "")
	if err != nil {
		t.Fatal(err)
	}
	p.Plan = pl
	prov := local.New(local.Config{Root: t.TempDir()})
	t.Cleanup(func() { _ = prov.Close(context.Background()) })
	sb, err := prov.Create(ctx, koda.SandboxSpec{ProjectID: p.ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Generate(ctx, p, sb, nopReporter{}); err != nil {
		t.Fatal(err)
	}
	b, err := sb.ReadFile(ctx, scene.FileJSON, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	d, err := scene.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

type nopReporter struct{}

func (nopReporter) TodoUpdate(context.Context, string, koda.TodoStatus) {}
func (nopReporter) Thinking(context.Context, string)                    {}
func (nopReporter) Message(context.Context, string, string)             {}
func (nopReporter) FileWritten(context.Context, string, int64)          {}

func field(fs []koda.TemplateField, name string) *koda.TemplateField {
	for i := range fs {
		if fs[i].Name == name {
			return &fs[i]
		}
	}
	return nil
}

func names(fs []koda.TemplateField) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name+":"+string(f.Type))
	}
	return out
}

func value[T any](t *testing.T, f *koda.TemplateField) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(f.Value, &v); err != nil {
		t.Fatalf("field %s value %s: %v", f.Name, f.Value, err)
	}
	return v
}

// Fields are found in scenes the builtin agent writes for prompts of the suite: the
// quoted words, the counter's target, the chart's series, the background and the
// colours; names are unique and readable; a text's limit lets its own text in.
func TestDiscoverSuiteScenes(t *testing.T) {
	frames := []critic.Frame{critic.Landscape}
	cases := []struct {
		id   string
		want func(t *testing.T, fs []koda.TemplateField)
	}{
		{"data-bars", func(t *testing.T, fs []koda.TemplateField) {
			if f := field(fs, "headline"); f == nil || value[string](t, f) != "Revenue by year" {
				t.Errorf("headline is not the title: %v", names(fs))
			}
			var series *koda.TemplateField
			for i := range fs {
				if fs[i].Type == koda.FieldSeries {
					series = &fs[i]
				}
			}
			if series == nil {
				t.Fatalf("no series field: %v", names(fs))
			}
			if v := value[[]float64](t, series); !slices.Equal(v, []float64{12, 18, 25, 31, 44}) || series.Limit.Count != 5 {
				t.Errorf("series %v (count %d), want the five revenues", v, series.Limit.Count)
			}
		}},
		{"data-counter", func(t *testing.T, fs []koda.TemplateField) {
			var num *koda.TemplateField
			for i := range fs {
				if fs[i].Type == koda.FieldNumber {
					num = &fs[i]
				}
			}
			if num == nil || value[float64](t, num) != 10000 {
				t.Errorf("no number field counting to 10000: %v", names(fs))
			}
		}},
		{"product-sneaker", func(t *testing.T, fs []koda.TemplateField) {
			found := false
			for _, f := range fs {
				found = found || f.Type == koda.FieldText && value[string](t, &f) == "Aero Run"
			}
			if !found {
				t.Errorf("no text field holds 'Aero Run': %v", names(fs))
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			d := generated(t, c.id)
			fs := templates.Discover(d, "", frames)
			seen := map[string]bool{}
			colours := 0
			for _, f := range fs {
				if seen[f.Name] {
					t.Errorf("name %q twice: %v", f.Name, names(fs))
				}
				seen[f.Name] = true
				if f.Name != strings.ToLower(f.Name) || strings.ContainsAny(f.Name, " -.") {
					t.Errorf("name %q is not a readable identifier", f.Name)
				}
				switch f.Type {
				case koda.FieldText:
					if n := len([]rune(value[string](t, &f))); f.Limit.MaxLength < n {
						t.Errorf("%s: limit %d below its own text's %d characters", f.Name, f.Limit.MaxLength, n)
					}
				case koda.FieldColor:
					colours++
				}
			}
			if field(fs, "background") == nil || colours < 2 {
				t.Errorf("palette not found (background and a colour): %v", names(fs))
			}
			t.Log(names(fs))
			c.want(t, fs)
			// Filling every field with its own value changes nothing a viewer sees.
			vals := map[string]json.RawMessage{}
			for _, f := range fs {
				vals[f.Name] = f.Value
			}
			if _, errs := templates.Fill(d, fs, vals, frames); len(errs) > 0 {
				t.Errorf("the template's own values refused: %v", errs)
			}
		})
	}
}

// Fill puts each value where its field points, and refuses values it cannot use with
// the field named: text past its limit, an unknown field, a bad colour, a series of
// the wrong length, a picture (no tenant media yet).
func TestFill(t *testing.T) {
	title := &scene.Element{ID: "title", Type: scene.TypeText, Text: "Hello", Size: 0.1, Y: -0.3, Color: "#ffffff"}
	bars := &scene.Element{ID: "bars", Type: scene.TypeChart, Values: []float64{1, 2, 3}, Size: 0.3, Y: 0.3, Color: "#ff0000"}
	logo := &scene.Element{ID: "logo", Type: scene.TypeImage, Src: "assets/logo.png", Size: 0.1, X: 0.8, Y: -0.8}
	d := &scene.Description{Version: 1, Duration: 4, FPS: 30, Background: scene.Background{Colors: []string{"#101010"}},
		Elements: []*scene.Element{title, bars, logo}}
	frames := []critic.Frame{critic.Landscape}
	fs := templates.Discover(d, "music/track.mp3", frames)
	for _, n := range []string{"headline:text", "chart:series", "logo:image", "background:color", "title_color:color", "bars_color:color", "soundtrack:audio"} {
		if !slices.Contains(names(fs), n) {
			t.Errorf("field %s not found: %v", n, names(fs))
		}
	}
	raw := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	got, errs := templates.Fill(d, fs, map[string]json.RawMessage{
		"headline": raw("Spring sale"), "chart": raw("4;5;6"), "bars_color": raw("#00FF00"), "background": raw("#222222"),
	}, frames)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if e := got.Element("title"); e.Text != "Spring sale" {
		t.Errorf("headline %q", e.Text)
	}
	if e := got.Element("bars"); !slices.Equal(e.Values, []float64{4, 5, 6}) || e.Color != "#00ff00" {
		t.Errorf("chart %v in %s", e.Values, e.Color)
	}
	if got.Background.Colors[0] != "#222222" || d.Background.Colors[0] != "#101010" || title.Text != "Hello" {
		t.Errorf("background %v, template's %v, template's text %q: the template must stay as it was",
			got.Background.Colors, d.Background.Colors, title.Text)
	}
	limit := field(fs, "headline").Limit.MaxLength
	_, errs = templates.Fill(d, fs, map[string]json.RawMessage{
		"headline": raw(strings.Repeat("long words ", limit/10+2)), "nope": raw("x"), "bars_color": raw("green-ish"),
		"chart": raw([]float64{1, 2}), "logo": raw("https://example.com/logo.png"),
	}, frames)
	want := []string{"bars_color:INVALID_COLOR", "chart:INVALID_VALUE", "headline:TEXT_TOO_LONG", "logo:ASSET_UNSUPPORTED", "nope:UNKNOWN_FIELD"}
	var have []string
	for _, e := range errs {
		have = append(have, e.Field+":"+e.Code)
	}
	if !slices.Equal(have, want) {
		t.Errorf("errors %v, want %v", have, want)
	}
}

// A row's image and soundtrack values name the tenant's assets: the picture goes in at
// its own path (the element's Src), the soundtrack is a file for the project; an asset
// of the wrong kind, one not found, and a value that is no id nor URL are refused.
func TestFillRowAssets(t *testing.T) {
	logo := &scene.Element{ID: "logo", Type: scene.TypeImage, Src: "assets/logo.png", Size: 0.1, X: 0.8, Y: -0.8}
	title := &scene.Element{ID: "title", Type: scene.TypeText, Text: "Hello", Size: 0.1}
	d := &scene.Description{Version: 1, Duration: 4, FPS: 30, Background: scene.Background{Colors: []string{"#101010"}},
		Elements: []*scene.Element{title, logo}}
	frames := []critic.Frame{critic.Landscape}
	fs := templates.Discover(d, "assets/soundtrack.mp3", frames)
	raw := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	pic := &koda.Asset{ID: "ast_pic", TenantID: "t1", Kind: koda.AssetImage, Format: "png", Key: "assets/t1/abc.png", Name: "Red.png"}
	song := &koda.Asset{ID: "ast_song", TenantID: "t1", Kind: koda.AssetAudio, Format: "wav", Key: "assets/t1/def.wav", Name: "x.wav"}
	assets := map[string]*koda.Asset{pic.ID: pic, song.ID: song}

	got, files, errs := templates.FillRow(d, fs, map[string]json.RawMessage{"logo": raw(" ast_pic "), "soundtrack": raw("ast_song")}, assets, frames)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if e := got.Element("logo"); e.Src != "assets/rows/logo.png" || logo.Src != "assets/logo.png" {
		t.Errorf("row's Src %q, template's %q", e.Src, logo.Src)
	}
	want := []string{"ast_pic image assets/t1/abc.png assets/rows/logo.png", "ast_song soundtrack assets/t1/def.wav assets/soundtrack.wav"}
	var have []string
	for _, f := range files {
		have = append(have, strings.Join([]string{f.ID, string(f.Role), f.Key, f.File}, " "))
	}
	if !slices.Equal(have, want) {
		t.Errorf("files %v, want %v", have, want)
	}

	// The template's own file is taken as it is, and needs no file.
	if _, files, errs := templates.FillRow(d, fs, map[string]json.RawMessage{"logo": raw("assets/logo.png")}, assets, frames); len(errs) > 0 || len(files) > 0 {
		t.Errorf("own file: %v %v", errs, files)
	}

	_, _, errs = templates.FillRow(d, fs, map[string]json.RawMessage{"logo": raw("ast_song"), "soundtrack": raw("ast_gone"), "headline": raw("Hi")}, assets, frames)
	_, _, errs2 := templates.FillRow(d, fs, map[string]json.RawMessage{"logo": raw("../../etc/passwd")}, assets, frames)
	have = nil
	for _, e := range append(errs, errs2...) {
		have = append(have, e.Field+":"+e.Code)
	}
	if want := []string{"logo:ASSET_ROLE_MISMATCH", "soundtrack:ASSET_NOT_FOUND", "logo:ASSET_UNSUPPORTED"}; !slices.Equal(have, want) {
		t.Errorf("errors %v, want %v", have, want)
	}
	// Without assets (a template's default values), an id is not taken.
	if _, errs := templates.Fill(d, fs, map[string]json.RawMessage{"logo": raw("ast_pic")}, frames); len(errs) != 1 || errs[0].Code != koda.CodeAssetUnsupported {
		t.Errorf("default value as an id: %v", errs)
	}
}
