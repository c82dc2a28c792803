package api

import (
	"encoding/json"
	"testing"

	"github.com/kodahq/koda"
)

func TestParseCustomPresets(t *testing.T) {
	raw := []json.RawMessage{
		json.RawMessage(`"720p"`),
		json.RawMessage(`{"name":"square","width":160,"height":160,"fps":5,"format":"WEBM","encoder_speed":"Fast"}`),
	}
	got, err := parsePresets(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := koda.PresetSpec{Name: "square", Width: 160, Height: 160, FPS: 5, CRF: 18, Format: koda.FormatWebM, EncoderSpeed: "fast"}
	if len(got) != 2 || got[0].Name != "720p" || got[1] != want {
		t.Fatalf("%+v", got)
	}
	for _, bad := range []string{
		`{"width":160,"height":90,"fps":5,"max_duration_s":10}`, // a platform limit, not a custom setting
		`{"width":160,"height":90,"fps":5,"colour":"red"}`,
		`{"width":161,"height":90,"fps":5}`,
	} {
		_, err := parsePresets([]json.RawMessage{json.RawMessage(bad)})
		if koda.ErrorCode(err) != koda.CodeInvalidPreset {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
