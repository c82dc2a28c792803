package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kodahq/koda"
)

// decode reads a JSON body strictly: unknown fields and trailing data are errors, so
// typos do not pass silently. An empty body decodes as {} for endpoints whose fields
// are all optional.
func decode(body []byte, v any, allowEmpty bool) error {
	if len(bytes.TrimSpace(body)) == 0 {
		if allowEmpty {
			return nil
		}
		return koda.Errorf(koda.EINVALID, koda.CodeMalformedJSON, "request body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return koda.Errorf(koda.EINVALID, koda.CodeMalformedJSON, "request body is not valid JSON for this endpoint: %s", jsonReason(err))
	}
	if dec.More() {
		return koda.Errorf(koda.EINVALID, koda.CodeMalformedJSON, "request body has data after the JSON object")
	}
	return nil
}

func jsonReason(err error) string {
	var te *json.UnmarshalTypeError
	if ok := asType(err, &te); ok {
		return fmt.Sprintf("field %q must be %s", te.Field, te.Type.String())
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func asType[T any](err error, target *T) bool {
	v, ok := err.(T)
	if ok {
		*target = v
	}
	return ok
}

// CreateProjectRequest is the body of POST /v1/projects.
type CreateProjectRequest struct {
	Prompt      string            `json:"prompt"`
	Style       string            `json:"style"`
	DurationS   float64           `json:"duration_s"`
	AutoApprove bool              `json:"auto_approve"`
	Presets     []json.RawMessage `json:"presets"`
	CallbackURL string            `json:"callback_url"`
	Metadata    json.RawMessage   `json:"metadata"`
	// Assets name the tenant's assets the project uses, each with its role.
	Assets []koda.AssetRef `json:"assets"`
	// Brand false leaves the tenant's brand kit out; missing or true applies it.
	Brand *bool `json:"brand"`
}

func (r *CreateProjectRequest) toNewProject(tenant string) (koda.NewProject, error) {
	presets, err := parsePresets(r.Presets)
	if err != nil {
		return koda.NewProject{}, err
	}
	if len(r.Metadata) > 0 && !bytes.HasPrefix(bytes.TrimSpace(r.Metadata), []byte("{")) && string(bytes.TrimSpace(r.Metadata)) != "null" {
		return koda.NewProject{}, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "metadata must be a JSON object")
	}
	if string(bytes.TrimSpace(r.Metadata)) == "null" {
		r.Metadata = nil
	}
	return koda.NewProject{
		TenantID:    tenant,
		Prompt:      r.Prompt,
		Style:       koda.Style(strings.ToLower(strings.TrimSpace(r.Style))),
		DurationS:   r.DurationS,
		AutoApprove: r.AutoApprove,
		Presets:     presets,
		CallbackURL: strings.TrimSpace(r.CallbackURL),
		Metadata:    r.Metadata,
		Assets:      r.Assets,
		NoBrand:     r.Brand != nil && !*r.Brand,
	}, nil
}

// parsePresets reads presets given by name ("tiktok") or as {width,height,fps,format,crf}.
func parsePresets(raw []json.RawMessage) ([]koda.PresetSpec, error) {
	const maxPresets = 20
	if len(raw) > maxPresets {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidPreset, "at most %d presets per request", maxPresets)
	}
	out := make([]koda.PresetSpec, 0, len(raw))
	for i, r := range raw {
		var name string
		if err := json.Unmarshal(r, &name); err == nil {
			p, err := koda.LookupPreset(name)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
			continue
		}
		// A custom preset is the domain's PresetSpec itself, so a new field needs no
		// copy here; only the platform limit belongs to named presets.
		var pr koda.PresetSpec
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&pr); err != nil {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidPreset,
				"presets[%d] must be a preset name or {width,height,fps,format,crf,encoder_speed}", i)
		}
		if pr.Name != "" {
			if _, err := koda.LookupPreset(pr.Name); err == nil {
				return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidPreset,
					"presets[%d]: %q is a named preset; give it as a string or choose another name", i, pr.Name)
			}
		}
		if pr.MaxDurationS != 0 {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidPreset,
				"presets[%d]: max_duration_s belongs to named presets", i)
		}
		if err := pr.Validate(); err != nil {
			return nil, err
		}
		out = append(out, pr)
	}
	return out, nil
}

type answerRequest struct {
	OptionID string `json:"option_id"`
	Text     string `json:"text"`
}

type feedbackRequest struct {
	Feedback string `json:"feedback"`
}

type messageRequest struct {
	Message string `json:"message"`
}

type presetsRequest struct {
	Presets []json.RawMessage `json:"presets"`
}
