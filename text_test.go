package koda_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/kodahq/koda"
)

func TestTextLimitCheck(t *testing.T) {
	l := koda.TextLimit{Code: "X", Min: 1, Max: 5}
	for _, tc := range []struct {
		in, want, code string
	}{
		{"  abc ", "abc", ""},
		{"ééééé", "ééééé", ""}, // characters, not bytes
		{"abcdef", "", "X"},
		{"   ", "", "X"},
		{"a\x00b", "", "X"},
		{"a\xffb", "", "X"},
		{strings.Repeat("x", 1<<20), "", "X"},
	} {
		got, err := l.Check("f", tc.in)
		if koda.ErrorCode(err) != tc.code && !(tc.code == "" && err == nil) || got != tc.want {
			t.Errorf("Check(%.20q) = %q, %v; want %q, code %q", tc.in, got, err, tc.want, tc.code)
		}
		if err != nil && (koda.ErrorKind(err) != koda.EINVALID || len(koda.ErrorMessage(err)) > 100) {
			t.Errorf("Check(%.20q): %v, want a short EINVALID", tc.in, err)
		}
	}
	if _, err := (koda.TextLimit{Code: "X", Max: 5}).Check("f", ""); err != nil {
		t.Errorf("an optional empty text: %v", err)
	}
}

func nested(depth int) string {
	return strings.Repeat(`{"a":`, depth-1) + "{}" + strings.Repeat("}", depth-1)
}

func TestCheckMetadata(t *testing.T) {
	ok := []string{
		``, `{}`, `{"k":"v","n":1.5,"b":true,"z":null}`, nested(koda.MaxMetadataDepth),
		`{"a":[[[[[[["deep"]]]]]]]}`, // the object and seven arrays: 8 levels
		`{"v":"` + strings.Repeat("é", koda.MetadataText.Max) + `"}`,
	}
	for _, raw := range ok {
		if err := koda.CheckMetadata(json.RawMessage(raw)); err != nil {
			t.Errorf("%.40s: %v", raw, err)
		}
	}
	bad := []string{
		nested(koda.MaxMetadataDepth + 1),
		`{"a":[[[[[[[["deeper"]]]]]]]]}`,
		strings.Repeat("[", 8000) + strings.Repeat("]", 8000),
		`{"v":"` + strings.Repeat("x", koda.MetadataText.Max+1) + `"}`,
		`{"` + strings.Repeat("k", koda.MetadataText.Max+1) + `":1}`,
		`{"v":"` + strings.Repeat("x", koda.MaxMetadataSize) + `"}`,
		"{\"v\":\"\xff\"}",
		`{"v":`,
	}
	for _, raw := range bad {
		err := koda.CheckMetadata(json.RawMessage(raw))
		if koda.ErrorCode(err) != koda.CodeInvalidMetadata || koda.ErrorKind(err) != koda.EINVALID {
			t.Errorf("%.40s: %v, want INVALID_METADATA", raw, err)
		}
	}
}
