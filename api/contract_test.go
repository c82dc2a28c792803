package api_test

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/kodahq/koda"
)

// jsonFields lists the JSON names of a struct's exported fields, as encoding/json
// writes them.
func jsonFields(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func schemaFields(s *openapi3.Schema) []string {
	var out []string
	for name := range s.Properties {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// TestPresetSchemaIsThePresetStruct: the API writes koda.PresetSpec itself and reads
// custom presets into it, so the document must name exactly its fields (custom presets
// all but the platform limit). Adding a field to PresetSpec without describing it
// fails here.
func TestPresetSchemaIsThePresetStruct(t *testing.T) {
	doc := loadSpec(t)
	want := jsonFields(reflect.TypeFor[koda.PresetSpec]())
	if got := schemaFields(doc.Components.Schemas["Preset"].Value); !slices.Equal(got, want) {
		t.Errorf("Preset schema has %v, koda.PresetSpec has %v", got, want)
	}
	var custom *openapi3.Schema
	for _, alt := range doc.Components.Schemas["PresetInput"].Value.OneOf {
		if alt.Value.Type.Is("object") {
			custom = alt.Value
		}
	}
	if custom == nil {
		t.Fatal("PresetInput has no object form")
	}
	wantCustom := slices.DeleteFunc(slices.Clone(want), func(s string) bool { return s == "max_duration_s" })
	if got := schemaFields(custom); !slices.Equal(got, wantCustom) {
		t.Errorf("PresetInput object has %v, custom presets read %v", got, wantCustom)
	}
}
