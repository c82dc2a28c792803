package api_test

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/invopop/jsonschema"

	"github.com/kodahq/koda"
)

// The payload structs in the domain (koda.EventPayloads, koda.WebhookPayloads) are the
// wire contract; api/openapi.json describes them by hand. These tests generate a JSON
// Schema from each struct by reflection and compare it with the document, so a field
// added, renamed, retyped or made optional on one side and not the other fails here.

// structSchema is the JSON Schema of v's type, every definition kept for $ref lookups.
func structSchema(v any) (*jsonschema.Schema, jsonschema.Definitions) {
	r := &jsonschema.Reflector{DoNotReference: false, ExpandedStruct: true}
	s := r.Reflect(v)
	return s, s.Definitions
}

// shape is the part of a schema the wire depends on: JSON type, whether it may be null,
// the properties (with which ones are always present) and array items.
type shape struct {
	typ      string
	props    map[string]*shape
	required []string
	items    *shape
}

func (s *shape) String() string {
	if s == nil {
		return "any"
	}
	switch {
	case s.typ == "array":
		return "[]" + s.items.String()
	case len(s.props) > 0:
		names := make([]string, 0, len(s.props))
		for n := range s.props {
			names = append(names, n)
		}
		sort.Strings(names)
		parts := make([]string, len(names))
		for i, n := range names {
			mark := "?"
			if slices.Contains(s.required, n) {
				mark = ""
			}
			parts[i] = n + mark + ":" + s.props[n].String()
		}
		return "{" + strings.Join(parts, " ") + "}"
	}
	return s.typ
}

func fromReflected(s *jsonschema.Schema, defs jsonschema.Definitions, depth int) *shape {
	if s == nil || depth > 6 {
		return nil
	}
	if s.Ref != "" {
		return fromReflected(defs[strings.TrimPrefix(s.Ref, "#/$defs/")], defs, depth+1)
	}
	out := &shape{typ: s.Type}
	if s.Type == "object" && s.Properties != nil {
		out.props = map[string]*shape{}
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			out.props[p.Key] = fromReflected(p.Value, defs, depth+1)
		}
		out.required = slices.Sorted(slices.Values(s.Required))
	}
	if s.Type == "array" {
		out.items = fromReflected(s.Items, defs, depth+1)
	}
	return out
}

func fromDocument(ref *openapi3.SchemaRef, depth int) *shape {
	if ref == nil || ref.Value == nil || depth > 6 {
		return nil
	}
	s := ref.Value
	// A nullable reference is written anyOf [the schema, null]: the wire type is the schema's.
	for _, alt := range append(slices.Clone(s.AnyOf), s.OneOf...) {
		if alt.Value != nil && !alt.Value.Type.Is("null") {
			return fromDocument(alt, depth+1)
		}
	}
	out := &shape{}
	if s.Type != nil {
		for _, t := range s.Type.Slice() {
			if t != "null" {
				out.typ = t
			}
		}
	}
	if out.typ == "object" && len(s.Properties) > 0 {
		out.props = map[string]*shape{}
		for n, p := range s.Properties {
			out.props[n] = fromDocument(p, depth+1)
		}
		out.required = slices.Sorted(slices.Values(s.Required))
	}
	if out.typ == "array" {
		out.items = fromDocument(s.Items, depth+1)
	}
	return out
}

// drift lists the differences between the struct's shape and the document's, with
// where they are. The document may leave a property unrequired that the struct always
// writes (documents are allowed to promise less), never the reverse.
func drift(where string, st, doc *shape) []string {
	if st == nil || doc == nil {
		return nil // "any" on either side: nothing to compare
	}
	var out []string
	// Go integers reflect as "integer"; a document "number" accepts them too.
	if st.typ != doc.typ && !(st.typ == "integer" && doc.typ == "number") {
		out = append(out, fmt.Sprintf("%s: struct type %q, document type %q", where, st.typ, doc.typ))
		return out
	}
	for n, p := range st.props {
		q, ok := doc.props[n]
		if !ok {
			out = append(out, fmt.Sprintf("%s.%s: in the struct, not the document", where, n))
			continue
		}
		out = append(out, drift(where+"."+n, p, q)...)
	}
	for n := range doc.props {
		if _, ok := st.props[n]; !ok && st.props != nil {
			out = append(out, fmt.Sprintf("%s.%s: in the document, not the struct", where, n))
		}
	}
	for _, n := range doc.required {
		if st.props != nil && !slices.Contains(st.required, n) {
			out = append(out, fmt.Sprintf("%s.%s: the document requires it, the struct omits it when empty", where, n))
		}
	}
	if st.items != nil || doc.items != nil {
		out = append(out, drift(where+"[]", st.items, doc.items)...)
	}
	return out
}

// checkStruct fails t if the document's schema and v's struct differ.
func checkStruct(t *testing.T, where string, v any, doc *openapi3.SchemaRef) {
	t.Helper()
	s, defs := structSchema(v)
	st, ds := fromReflected(s, defs, 0), fromDocument(doc, 0)
	ds2 := drift(where, st, ds)
	for _, d := range ds2 {
		t.Error(d)
	}
	if len(ds2) > 0 {
		t.Logf("struct %T: %v\ndocument: %v", v, st, ds)
	}
}

// TestWebhookPayloadsMatchTheDocument: every webhook event type has an OpenAPI 3.1
// "webhooks" entry whose body is {type, timestamp, data} with data shaped like the
// domain struct, and the document lists no webhook the code does not send.
func TestWebhookPayloadsMatchTheDocument(t *testing.T) {
	doc := loadSpec(t)
	for typ, payload := range koda.WebhookPayloads {
		item := doc.Webhooks[typ]
		if item == nil || item.Post == nil || item.Post.RequestBody == nil {
			t.Errorf("webhook %s: no POST entry with a body under \"webhooks\" in openapi.json", typ)
			continue
		}
		body := item.Post.RequestBody.Value.Content.Get("application/json")
		if body == nil || body.Schema == nil || body.Schema.Value == nil {
			t.Errorf("webhook %s: no application/json body schema", typ)
			continue
		}
		env := body.Schema.Value
		if c := env.Properties["type"]; c == nil || c.Value.Const != typ {
			t.Errorf("webhook %s: body type is not const %q", typ, typ)
		}
		for _, f := range []string{"type", "timestamp", "data"} {
			if !slices.Contains(env.Required, f) {
				t.Errorf("webhook %s: body does not require %s", typ, f)
			}
		}
		checkStruct(t, "webhook "+typ+" data", payload, env.Properties["data"])
	}
	for typ := range doc.Webhooks {
		if _, ok := koda.WebhookPayloads[typ]; !ok {
			t.Errorf("openapi.json documents webhook %s, which the code never sends", typ)
		}
	}
}

// TestEventPayloadsMatchTheDocument: each event type's data, as the Event schema's
// variants describe it, is its domain struct; every variant is a type the code emits.
func TestEventPayloadsMatchTheDocument(t *testing.T) {
	doc := loadSpec(t)
	variants := map[string]*openapi3.SchemaRef{}
	for _, alt := range doc.Components.Schemas["Event"].Value.OneOf {
		typ, _ := alt.Value.Properties["type"].Value.Const.(string)
		variants[typ] = alt.Value.Properties["data"]
	}
	for typ, payload := range koda.EventPayloads {
		data, ok := variants[typ]
		if !ok {
			t.Errorf("event %s: no variant in the Event schema's oneOf", typ)
			continue
		}
		checkStruct(t, "event "+typ+" data", payload, data)
	}
	for typ := range variants {
		if _, ok := koda.EventPayloads[typ]; !ok {
			t.Errorf("the Event schema has a variant %q the code never emits", typ)
		}
	}
}

// TestRenderSchemaIsTheRenderView: API responses and render webhooks write
// koda.RenderView; the Render schema must be it.
func TestRenderSchemaIsTheRenderView(t *testing.T) {
	checkStruct(t, "Render", koda.RenderView{}, loadSpec(t).Components.Schemas["Render"])
}

// TestDriftIsCaught: the comparison itself notices a renamed field, a changed type and
// a field the struct may omit but the document requires.
func TestDriftIsCaught(t *testing.T) {
	doc := loadSpec(t)
	ref := doc.Components.Schemas["PhaseChangedData"]
	type renamed struct {
		ProjectID string     `json:"project"`
		Phase     koda.Phase `json:"phase"`
		Previous  koda.Phase `json:"previous_phase"`
	}
	type retyped struct {
		ProjectID string `json:"project_id"`
		Phase     int    `json:"phase"`
		Previous  string `json:"previous_phase"`
	}
	type optional struct {
		ProjectID string `json:"project_id,omitempty"`
		Phase     string `json:"phase"`
		Previous  string `json:"previous_phase"`
	}
	for _, v := range []any{renamed{}, retyped{}, optional{}} {
		s, defs := structSchema(v)
		if d := drift("x", fromReflected(s, defs, 0), fromDocument(ref, 0)); len(d) == 0 {
			t.Errorf("%T against PhaseChangedData: no drift found", v)
		}
	}
	s, defs := structSchema(koda.PhaseChangedData{})
	if d := drift("x", fromReflected(s, defs, 0), fromDocument(ref, 0)); len(d) != 0 {
		t.Errorf("the real struct drifts: %v", d)
	}
}
