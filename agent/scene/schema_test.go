package scene_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// TestSchemaMatchesTypes keeps the JSON Schema given to models in step with the Go types
// the runtime reads: every field of Element, Motion and Description is in the schema.
func TestSchemaMatchesTypes(t *testing.T) {
	var s struct {
		Properties map[string]any `json:"properties"`
		Defs       map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(scene.Schema(), &s); err != nil {
		t.Fatalf("schema is not JSON: %v", err)
	}
	check := func(name string, typ reflect.Type, props map[string]any) {
		for i := 0; i < typ.NumField(); i++ {
			tag := strings.Split(typ.Field(i).Tag.Get("json"), ",")[0]
			if tag == "" || tag == "-" {
				continue
			}
			if _, ok := props[tag]; !ok {
				t.Errorf("%s.%s is missing from the schema", name, tag)
			}
		}
	}
	check("description", reflect.TypeOf(scene.Description{}), s.Properties)
	check("element", reflect.TypeOf(scene.Element{}), s.Defs["element"].Properties)
	check("motion", reflect.TypeOf(scene.Motion{}), s.Defs["motion"].Properties)
	check("keyframe", reflect.TypeOf(scene.Keyframe{}), s.Defs["keyframe"].Properties)
}

func TestParseRefusesWhatTheSchemaRefuses(t *testing.T) {
	base := func(el string) string {
		return `{"version":1,"duration":2,"fps":30,"background":{"colors":["#000000"]},"elements":[` + el + `]}`
	}
	for name, c := range map[string]struct {
		el, want string
	}{
		"unknown field":  {`{"id":"a","type":"circle","size":0.1,"colour":"#ff0000"}`, `unknown field "colour"`},
		"unknown icon":   {`{"id":"a","type":"icon","variant":"unicorn","size":0.1}`, "unknown icon"},
		"morph of one":   {`{"id":"a","type":"morph","shapes":["circle"],"size":0.1}`, "at least 2 shapes"},
		"bad morph":      {`{"id":"a","type":"morph","shapes":["circle","cube"],"size":0.1}`, "unknown morph shape"},
		"escaping image": {`{"id":"a","type":"image","src":"../secret.png","size":0.1}`, "relative path"},
		"bad path":       {`{"id":"a","type":"path","path":"M0,0 <script>","size":0.1}`, "not SVG path data"},
		"unknown asset":  {`{"id":"a","type":"asset","asset":"fluent:zeppelin","size":0.1}`, "not in the library"},
		"asset without":  {`{"id":"a","type":"asset","size":0.1}`, "not in the library"},
		"in nothing":     {`{"id":"a","type":"circle","size":0.1,"in":"bowl"}`, "not another element's id"},
		"in itself":      {`{"id":"a","type":"circle","size":0.1,"in":"a"}`, "not another element's id"},
		"depicts alone":  {`{"id":"a","type":"rect","size":0.1,"depicts":"toggle switch"}`, "has no parts"},
		"depicts a sentence": {`{"id":"a","type":"rect","size":0.1,"depicts":"a Toggle; <b>"},{"id":"k","type":"circle","size":0.05,"in":"a"}`,
			"not a short noun phrase"},
		"cordless swing": {`{"id":"a","type":"circle","size":0.1,"depicts":"pendulum","motions":[{"type":"swing","start":0,"end":2,"length":0}]}`, "has no parts"},
	} {
		_, err := scene.Parse([]byte(base(c.el)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
	}
	ok := `{"id":"a","type":"icon","variant":"rocket","size":0.1},{"id":"b","type":"morph","shapes":["circle","star","heart"],"size":0.2},` +
		`{"id":"c","type":"text","items":["Fast","Secure"],"stagger":0.4,"size":0.1},{"id":"d","type":"path","path":"M-1,0 L1,0 L0,1 Z","size":0.1},` +
		`{"id":"e","type":"image","src":"assets/logo.png","size":0.2},{"id":"f","type":"asset","asset":"fluent:airplane","size":0.2},` +
		// Composed widgets say what their parts depict: a track with its knob, a bob on its cord.
		`{"id":"g","type":"rect","size":0.1,"depicts":"toggle switch"},{"id":"g-knob","type":"circle","size":0.08,"in":"g"},` +
		`{"id":"h","type":"circle","size":0.1,"depicts":"pendulum","motions":[{"type":"swing","start":0,"end":2,"length":2.5}]}`
	if _, err := scene.Parse([]byte(base(ok))); err != nil {
		t.Errorf("new vocabulary refused: %v", err)
	}
}
