package assets

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
)

// The embedded index's wire shape, written by cmd/mkassets and read by Load: one home
// for both sides. Short JSON keys keep the file small; it is gzip'd on disk.

// Set is one source collection of the library.
type Set struct {
	Prefix  string `json:"prefix"`  // id prefix: "fluent", "noto", "tabler"
	Name    string `json:"name"`    // "Fluent Emoji Flat"
	Package string `json:"package"` // npm package it was built from
	Version string `json:"version"`
	License string `json:"license"` // SPDX id; the full text is in LICENSES/
	Author  string `json:"author"`
	Width   int    `json:"width"`  // default view box
	Height  int    `json:"height"` // default view box
	// Stroke sets are single-colour line icons (drawn with currentColor): the runtime
	// tints them with the element's colour. Illustrations keep their own colours.
	Stroke bool `json:"stroke,omitempty"`
}

// Record is one asset as stored.
type Record struct {
	ID       string   `json:"i"`           // "fluent:airplane"
	Label    string   `json:"l,omitempty"` // CLDR label when it differs from the name ("automobile")
	Keywords []string `json:"k,omitempty"` // lower case; multi-word keywords keep their spaces
	Category string   `json:"c,omitempty"` // "travel-places/transport-air", "tabler/vehicles"
	Order    int      `json:"o,omitempty"` // CLDR order: lower is more common
	Body     string   `json:"b"`           // inner SVG markup
	W        int      `json:"w,omitempty"` // view box when it differs from the set's
	H        int      `json:"h,omitempty"`
}

// Index is the whole stored library.
type Index struct {
	Sets   []Set    `json:"sets"`
	Assets []Record `json:"assets"`
}

// Encode writes the index gzip'd, the form embedded in the binary.
func (x *Index) Encode(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(zw).Encode(x); err != nil {
		return fmt.Errorf("encode asset index: %w", err)
	}
	return zw.Close()
}

// decodeIndex reads what Encode wrote.
func decodeIndex(r io.Reader) (*Index, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("read asset index: %w", err)
	}
	defer zr.Close()
	var x Index
	if err := json.NewDecoder(zr).Decode(&x); err != nil {
		return nil, fmt.Errorf("decode asset index: %w", err)
	}
	return &x, nil
}
