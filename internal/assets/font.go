package assets

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/andybalholm/brotli"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// checkFont parses a TrueType or OpenType font with golang.org/x/image/font/sfnt —
// the Go project's own parser, pure Go and memory-safe, so a font built to crash C
// parsers is at worst an error here — and loads the glyphs of printable ASCII, which
// reads the cmap, the outlines (glyf/loca or CFF) and the metrics they need. The font
// is stored as uploaded: fonts carry no personal metadata worth stripping, and
// rewriting them would change hinting and glyph data.
func checkFont(f *format, in *os.File, size int64) (family string, err error) {
	data := make([]byte, size)
	if _, err := in.ReadAt(data, 0); err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read font: %w", err)
	}
	return parseSFNT(f.name, data)
}

func parseSFNT(name string, data []byte) (family string, err error) {
	defer func() {
		// sfnt returns errors for the malformed fonts its fuzzing found; a panic on
		// one it has not seen must refuse the file, not take down the API.
		if r := recover(); r != nil {
			err = malformed("the %s font does not parse (the font parser failed: %v)", name, r)
		}
	}()
	// The checks Chromium's font sanitizer makes come first, so their messages,
	// which say what is wrong in the font's terms, win over sfnt's terser ones.
	tables, ok := sfntTables(data)
	if !ok {
		return "", malformed("the %s font does not parse: its table directory is cut short or points outside the file", name)
	}
	if err := otsCheck(name, tables, nil); err != nil {
		return "", err
	}
	fnt, err := sfnt.Parse(data)
	if err != nil {
		return "", malformed("the %s font does not parse: %v", name, err)
	}
	if fnt.NumGlyphs() == 0 {
		return "", malformed("the %s font has no glyphs", name)
	}
	var buf sfnt.Buffer
	family, err = fnt.Name(&buf, sfnt.NameIDFamily)
	if err != nil && !errors.Is(err, sfnt.ErrNotFound) {
		return "", malformed("the %s font's name table does not parse: %v", name, err)
	}
	mapped := 0
	for r := rune(0x20); r < 0x7f; r++ {
		gi, err := fnt.GlyphIndex(&buf, r)
		if err != nil {
			return "", malformed("the %s font's character map does not parse: %v", name, err)
		}
		if gi == 0 {
			continue
		}
		mapped++
		if _, err := fnt.LoadGlyph(&buf, gi, fixed.I(64), nil); err != nil && !errors.Is(err, sfnt.ErrColoredGlyph) {
			return "", malformed("glyph %d (%q) of the %s font does not load: %v", gi, r, name, err)
		}
		if _, err := fnt.GlyphAdvance(&buf, gi, fixed.I(64), 0); err != nil {
			return "", malformed("the advance of glyph %d (%q) of the %s font does not read: %v", gi, r, name, err)
		}
	}
	if mapped == 0 {
		return "", malformed("the %s font maps no printable ASCII character to a glyph; a symbol or icon font cannot set text", name)
	}
	return family, nil
}

// WOFF2 (https://www.w3.org/TR/WOFF2/) compresses a font's tables with Brotli, and
// transforms glyf, loca and hmtx before compressing them. Go has no WOFF2 decoder, so
// the check is structural: the header's signature, flavor, lengths and reserved
// field; the table directory (known tags or 4-byte tags, lengths, transforms as the
// specification allows them, the tables every font needs); the metadata and private
// blocks inside the file; and the Brotli stream, decompressed (with
// github.com/andybalholm/brotli, a pure Go port of Google's decoder, already in the
// build through fasthttp) to exactly the length the directory adds up to, never more.
// The decompressed tables then get the checks Chromium's OpenType Sanitizer (OTS)
// makes on cmap, head, hhea, maxp, and hmtx, loca and glyf when they are not
// transformed (otsCheck). Not checked: the reversal of the glyf/loca/hmtx
// transforms, so transformed outlines and metrics, and the glyphs themselves.
const (
	woff2HeaderLen = 48
	woff2MaxTables = 256
	// woff2MaxSFNT bounds the decoded font: a font of a few megabytes compresses
	// well; a header claiming hundreds is a bomb.
	woff2MaxSFNT = 64 << 20
)

// woff2Tags are the known table tags, by the index a directory entry may use
// instead of spelling the tag.
var woff2Tags = []string{"cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post", "cvt ", "fpgm",
	"glyf", "loca", "prep", "CFF ", "VORG", "EBDT", "EBLC", "gasp", "hdmx", "kern", "LTSH", "PCLT", "VDMX",
	"vhea", "vmtx", "BASE", "GDEF", "GPOS", "GSUB", "EBSC", "JSTF", "MATH", "CBDT", "CBLC", "COLR", "CPAL",
	"SVG ", "sbix", "acnt", "avar", "bdat", "bloc", "bsln", "cvar", "fdsc", "feat", "fmtx", "fvar", "gvar",
	"hsty", "just", "lcar", "mort", "morx", "opbd", "prop", "trak", "Zapf", "Silf", "Glat", "Gloc", "Feat", "Sill"}

func checkWOFF2(in *os.File, size int64) error {
	data := make([]byte, size)
	if _, err := in.ReadAt(data, 0); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("read font: %w", err)
	}
	return parseWOFF2(data)
}

func parseWOFF2(data []byte) error {
	bad := func(format string, args ...any) error {
		return malformed("the WOFF2 font is malformed: "+format, args...)
	}
	if len(data) < woff2HeaderLen {
		return bad("%d bytes is shorter than its header", len(data))
	}
	be := binary.BigEndian
	flavor := string(data[4:8])
	length := be.Uint32(data[8:])
	numTables := int(be.Uint16(data[12:]))
	reserved := be.Uint16(data[14:])
	totalSfnt := be.Uint32(data[16:])
	compressed := be.Uint32(data[20:])
	metaOff, metaLen := be.Uint32(data[28:]), be.Uint32(data[32:])
	privOff, privLen := be.Uint32(data[40:]), be.Uint32(data[44:])
	switch {
	case flavor == "ttcf":
		return malformed("the WOFF2 file holds a font collection; send one font")
	case flavor != "\x00\x01\x00\x00" && flavor != "OTTO" && flavor != "true":
		return bad("its flavor %q is neither TrueType nor OpenType", flavor)
	case int64(length) != int64(len(data)):
		return bad("its header says %d bytes, the file has %d", length, len(data))
	case reserved != 0:
		return bad("its reserved field is not 0")
	case numTables == 0 || numTables > woff2MaxTables:
		return bad("it declares %d tables", numTables)
	case totalSfnt > woff2MaxSFNT:
		return bad("it declares a decoded size of %d bytes, more than %d", totalSfnt, woff2MaxSFNT)
	}
	within := func(off, n uint32) bool { return off == 0 && n == 0 || uint64(off)+uint64(n) <= uint64(len(data)) }
	if !within(metaOff, metaLen) || !within(privOff, privLen) {
		return bad("its metadata or private block lies outside the file")
	}
	// The table directory.
	p := data[woff2HeaderLen:]
	var total uint64
	tags := map[string]bool{}
	type entry struct {
		tag         string
		n           uint64
		transformed bool
	}
	var order []entry
	for i := 0; i < numTables; i++ {
		if len(p) < 1 {
			return bad("its table directory ends early")
		}
		flags := p[0]
		p = p[1:]
		var tag string
		if idx := int(flags & 0x3f); idx == 0x3f {
			if len(p) < 4 {
				return bad("its table directory ends early")
			}
			tag, p = string(p[:4]), p[4:]
		} else if idx < len(woff2Tags) {
			tag = woff2Tags[idx]
		} else {
			return bad("table %d has the unknown tag index %d", i, idx)
		}
		if tags[tag] {
			return bad("the table %q appears twice", tag)
		}
		tags[tag] = true
		orig, rest, ok := base128(p)
		if !ok {
			return bad("the length of table %q is not a valid UIntBase128", tag)
		}
		p = rest
		version := flags >> 6
		// glyf and loca are transformed unless their version is 3; every other table
		// only with a nonzero version.
		transformed := version != 0
		if tag == "glyf" || tag == "loca" {
			transformed = version != 3
		}
		n := uint64(orig)
		if transformed {
			tl, rest, ok := base128(p)
			if !ok {
				return bad("the transformed length of table %q is not a valid UIntBase128", tag)
			}
			p = rest
			n = uint64(tl)
			if tag == "loca" && n != 0 {
				return bad("the transformed loca table must be empty")
			}
		}
		total += n
		order = append(order, entry{tag, n, transformed})
	}
	for _, need := range []string{"cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post"} {
		if !tags[need] {
			return bad("it has no %q table, which every font needs", need)
		}
	}
	if !(tags["glyf"] && tags["loca"]) && !tags["CFF "] && !tags["CFF2"] {
		return bad("it has no outlines (glyf and loca, or CFF)")
	}
	if total > woff2MaxSFNT {
		return bad("its tables add up to %d bytes, more than %d", total, woff2MaxSFNT)
	}
	if uint64(len(p)) < uint64(compressed) || compressed == 0 {
		return bad("its compressed data (%d bytes) does not fit in the file", compressed)
	}
	// The blocks' layout as the reference decoder (google/woff2, which Chromium's
	// OpenType Sanitizer uses) requires it: each block starts on a 4-byte boundary
	// right after the one before, padded with at most 3 bytes, and the file ends
	// with the last block's padding. A file that breaks this fails in browsers, so
	// it would fail in every render.
	end := round4(uint64(len(data)-len(p)) + uint64(compressed))
	if end > uint64(len(data)) {
		return bad("its compressed data is not padded to a multiple of 4 bytes")
	}
	for _, blk := range []struct {
		name     string
		off, len uint32
	}{{"metadata", metaOff, metaLen}, {"private", privOff, privLen}} {
		if blk.off == 0 {
			continue
		}
		if uint64(blk.off) != end {
			return bad("its %s block does not start on the 4-byte boundary after the block before it", blk.name)
		}
		end = round4(uint64(blk.off) + uint64(blk.len))
	}
	if end != round4(uint64(len(data))) {
		return bad("it has %d bytes after its last block", int64(len(data))-int64(end))
	}
	// Decompress to exactly the directory's total: a stream that yields less is
	// truncated, one that yields more is not what the directory describes.
	r := brotli.NewReader(bytes.NewReader(p[:compressed]))
	var out bytes.Buffer
	n, err := io.Copy(&out, io.LimitReader(r, int64(total)+1))
	if err != nil {
		return bad("its Brotli stream does not decompress: %v", err)
	}
	if uint64(n) != total {
		return bad("its Brotli stream decompresses to %d bytes, the table directory says %d", n, total)
	}
	// The decompressed tables, one after the other in the directory's order, get
	// the checks of Chromium's font sanitizer (see otsCheck) except the
	// transformed ones (glyf, loca and hmtx as a rule): undoing the transforms
	// means rebuilding the outlines, which this code does not do. cmap, head,
	// hhea and maxp are never transformed.
	tables := map[string][]byte{}
	transformed := map[string]bool{}
	at := uint64(0)
	for _, e := range order {
		if e.transformed {
			transformed[e.tag] = true
		} else {
			tables[e.tag] = out.Bytes()[at : at+e.n]
		}
		at += e.n
	}
	return otsCheck("WOFF2", tables, transformed)
}

func round4(n uint64) uint64 { return (n + 3) &^ 3 }

// base128 reads a WOFF2 UIntBase128: at most 5 bytes, no leading zeros, no overflow.
func base128(p []byte) (uint32, []byte, bool) {
	var v uint32
	for i := 0; i < 5 && i < len(p); i++ {
		b := p[i]
		if i == 0 && b == 0x80 {
			return 0, nil, false
		}
		if v&0xfe000000 != 0 {
			return 0, nil, false
		}
		v = v<<7 | uint32(b&0x7f)
		if b&0x80 == 0 {
			return v, p[i+1:], true
		}
	}
	return 0, nil, false
}
