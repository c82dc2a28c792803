package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// JSON columns are TEXT on both databases. Optional values (pointers) are NULL when nil,
// so "absent" and "empty" stay distinct across a round trip.

func toJSON(v any, column string) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode %s: %w", column, err)
	}
	return string(b), nil
}

// toNullJSON encodes v, or returns nil for a nil pointer.
func toNullJSON[T any](v *T, column string) (*string, error) {
	if v == nil {
		return nil, nil
	}
	s, err := toJSON(v, column)
	if err != nil {
		return nil, err
	}
	return &s, nil
}

func fromJSON(s string, dst any, column string) error {
	if s == "" {
		return nil
	}
	if err := json.Unmarshal([]byte(s), dst); err != nil {
		return fmt.Errorf("decode %s: %w", column, err)
	}
	return nil
}

// fromNullJSON decodes s into a new T, or returns nil for NULL.
func fromNullJSON[T any](s *string, column string) (*T, error) {
	if s == nil {
		return nil, nil
	}
	v := new(T)
	if err := fromJSON(*s, v, column); err != nil {
		return nil, err
	}
	return v, nil
}

// rawToNull stores a raw JSON document as-is; an empty one is NULL.
func rawToNull(raw json.RawMessage) *string {
	if len(raw) == 0 {
		return nil
	}
	s := string(raw)
	return &s
}

func nullToRaw(s *string) json.RawMessage {
	if s == nil {
		return nil
	}
	return json.RawMessage(*s)
}

// text checks that bytes can live in a TEXT column on both databases: PostgreSQL
// rejects invalid UTF-8 and NUL where SQLite would silently accept them, and one
// behaviour on both is worth the check.
func text(b []byte, column string) (string, error) {
	if !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0 {
		return "", fmt.Errorf("%s: not UTF-8 text without NUL bytes", column)
	}
	return string(b), nil
}

// eventData encodes an event's data: raw JSON is kept as it is, nil becomes {}.
func eventData(data any) (json.RawMessage, error) {
	var raw []byte
	switch d := data.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		raw = d
	case []byte:
		raw = d
	default:
		b, err := json.Marshal(d)
		if err != nil {
			return nil, fmt.Errorf("encode event data: %w", err)
		}
		return b, nil
	}
	if !json.Valid(raw) {
		return nil, errors.New("encode event data: raw data is not valid JSON")
	}
	return json.RawMessage(raw), nil
}
