package api

import (
	"errors"
	"testing"

	"github.com/kodahq/koda"
)

// The request decoders face untrusted bytes: whatever arrives, they must not panic and
// must refuse with a client error (*koda.Error), never an internal one.

func checkDecodeErr(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var ke *koda.Error
	if !errors.As(err, &ke) || ke.Kind == koda.EINTERNAL || ke.Code == "" || ke.Message == "" {
		t.Fatalf("decoder error is not a client error: %#v", err)
	}
}

func FuzzCreateProjectRequest(f *testing.F) {
	for _, s := range []string{
		`{"prompt":"a ball","duration_s":2,"presets":["720p",{"width":160,"height":90,"fps":5}]}`,
		`{"prompt":"x","metadata":{"a":1},"callback_url":"https://example.com/h"}`,
		`{"prompt":"x","metadata":"str"}`, `{"presets":[{"width":-1}]}`, `[]`, `{`, ``, `null`,
		`{"prompt":"x","presets":[null,1,true,{}]}`, `{"prompt":"x","style":"PLAYFUL"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req CreateProjectRequest
		if err := decode(body, &req, false); err != nil {
			checkDecodeErr(t, err)
			return
		}
		n, err := req.toNewProject("acme")
		if err != nil {
			checkDecodeErr(t, err)
			return
		}
		checkDecodeErr(t, n.Validate())
	})
}

func FuzzCreateBatchRequest(f *testing.F) {
	for _, s := range []string{
		`{"project_ids":["prj_1","prj_2"],"presets":["tiktok"]}`,
		`{"filter":{"phase":"complete","created_after":"2026-01-02T03:04:05Z"},"presets":[{"width":160,"height":90,"fps":5}]}`,
		`{"filter":{"created_after":"yesterday"},"presets":["x"]}`, `{"project_ids":[""],"presets":[]}`, `{"filter":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req createBatchRequest
		if err := decode(body, &req, false); err != nil {
			checkDecodeErr(t, err)
			return
		}
		_, err := req.toBatchRequest()
		checkDecodeErr(t, err)
	})
}

func FuzzSmallRequests(f *testing.F) {
	for _, s := range []string{`{"grace_s":3600}`, `{"grace_s":-1}`, `{"grace_s":1e300}`, `{"option_id":"smooth"}`,
		`{"presets":["720p"]}`, `{"message":"bluer"}`, `{"feedback":1}`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var rot rotateRequest
		if err := decode(body, &rot, true); err == nil {
			_, err = rot.grace()
			checkDecodeErr(t, err)
		} else {
			checkDecodeErr(t, err)
		}
		var pr presetsRequest
		if err := decode(body, &pr, true); err == nil {
			_, err = parsePresets(pr.Presets)
			checkDecodeErr(t, err)
		} else {
			checkDecodeErr(t, err)
		}
		for _, v := range []any{&answerRequest{}, &feedbackRequest{}, &messageRequest{}, &createTenantRequest{}, &createKeyRequest{}} {
			checkDecodeErr(t, decode(body, v, false))
		}
	})
}
