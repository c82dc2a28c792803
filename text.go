package koda

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"unicode/utf8"
)

// Text limits: how much text a client may send in each kind of field, in one table.
// Whatever a client writes reaches the agent, the events, the project's JSON and the
// webhooks, so a field without a bound lets one request occupy an agent worker (issue
// 26: 900,000 characters of feedback kept one busy for 80 s). Every text input of the
// API is checked against one of these, and only here.
var (
	PromptText   = TextLimit{Code: CodeInvalidPrompt, Min: 1, Max: MaxPromptChars}
	MessageText  = TextLimit{Code: CodeInvalidMessage, Min: 1, Max: 4000}  // a message sent while the agent works
	FeedbackText = TextLimit{Code: CodeInvalidFeedback, Min: 1, Max: 4000} // preview feedback and a plan's rejection
	AnswerText   = TextLimit{Code: CodeInvalidAnswer, Max: 1000}           // a question's free-text answer
	OptionText   = TextLimit{Code: CodeInvalidAnswer, Max: 64}             // a question's option_id
	NameText     = TextLimit{Code: CodeInvalidName, Max: 200}              // names of tenants and API keys
	// MetadataText bounds each key and each string value of a project's metadata.
	MetadataText = TextLimit{Code: CodeInvalidMetadata, Max: 1000}
)

// Limits of a project request that are not one text field.
const (
	MaxPromptChars   = 4000
	MaxMetadataSize  = 16 << 10 // bytes of the whole metadata object
	MaxMetadataDepth = 8        // nested objects and arrays, the outer object counting as 1
	MaxURLChars      = 2048     // a callback URL
)

// Codes of refused text.
const (
	CodeInvalidFeedback = "INVALID_FEEDBACK"
	CodeInvalidAnswer   = "INVALID_ANSWER"
	CodeInvalidName     = "INVALID_NAME"
	CodeInvalidMetadata = "INVALID_METADATA"
)

// TextLimit bounds one kind of text: Min to Max characters (runes) after trimming,
// valid UTF-8 without NUL. A refusal is EINVALID with Code.
type TextLimit struct {
	Code     string
	Min, Max int
}

// Check trims s and returns it, or the refusal naming field. The message never echoes
// the text, which may be megabytes or span lines.
func (l TextLimit) Check(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		return "", Errorf(EINVALID, l.Code, "%s must be UTF-8 without NUL characters", field)
	}
	if l.Min > 0 && s == "" {
		return "", Errorf(EINVALID, l.Code, "%s must not be empty", field)
	}
	// Counting stops past the limit: a 1 MiB text costs no more than a long one.
	n := 0
	for range s {
		if n++; n > l.Max {
			return "", Errorf(EINVALID, l.Code, "%s is longer than %d characters", field, l.Max)
		}
	}
	return s, nil
}

// CheckMetadata accepts project metadata that is a JSON object of at most
// MaxMetadataSize bytes, nested at most MaxMetadataDepth levels, whose keys and string
// values are each within MetadataText. Metadata is kept and echoed byte for byte (a
// RawMessage), so it must be valid UTF-8 as sent: the JSON decoder's replacement of
// invalid bytes never happens to it.
func CheckMetadata(raw json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	if len(raw) > MaxMetadataSize {
		return Errorf(EINVALID, CodeInvalidMetadata, "metadata is larger than %d bytes", MaxMetadataSize)
	}
	if !utf8.Valid(raw) {
		return Errorf(EINVALID, CodeInvalidMetadata, "metadata is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) && depth == 0 {
			return nil
		}
		if err != nil {
			return Errorf(EINVALID, CodeInvalidMetadata, "metadata is not valid JSON")
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if depth++; depth > MaxMetadataDepth {
					return Errorf(EINVALID, CodeInvalidMetadata, "metadata is nested deeper than %d levels", MaxMetadataDepth)
				}
			default:
				depth--
			}
		case string:
			// Keys arrive as strings too, so both are bounded.
			if _, err := MetadataText.Check("a metadata key or value", v); err != nil {
				return err
			}
		}
	}
}
