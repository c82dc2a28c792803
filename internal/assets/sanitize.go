package assets

import (
	"encoding/binary"
	"fmt"
	"sort"
)

// Chromium runs every web font through its OpenType Sanitizer (OTS,
// https://github.com/khaledhosny/ots) and, when OTS refuses the font, draws the text
// in its default font without a word to the page. sfnt reads what it needs and is
// lenient about the rest, so a font it loads can still be one OTS refuses (issue 25:
// a cmap range mapping a character to glyph 138 of a font whose glyphs end at 137).
// otsTables repeats, on the tables a font's text depends on, the checks OTS makes
// there and the limits it uses (the file and function of each are cited; OTS 9.3.0),
// so such a font is refused at upload with what is wrong instead of at render time
// silently. Where OTS only warns and repairs (a negative ascent, an odd final
// idRangeOffset, several 0xFFFF terminators), so does this: the font is accepted.
//
// tables holds the tables by tag; a table absent from it is not checked (WOFF2's
// transformed glyf, loca and hmtx are absent, see woff2Tables).

type otsFont struct {
	name      string
	tables    map[string][]byte
	numGlyphs int
	locaLong  bool
	numHM     int
	// transformed names the tables a WOFF2 file carries transformed, which are
	// not checked (see woff2Tables).
	transformed map[string]bool
}

func (c *otsFont) bad(format string, args ...any) error {
	return malformed("the %s font "+format+"; Chromium's font sanitizer would refuse it and draw the text in its default font", append([]any{c.name}, args...)...)
}

func u16(b []byte, off int) int { return int(binary.BigEndian.Uint16(b[off:])) }
func u32(b []byte, off int) uint32 {
	return binary.BigEndian.Uint32(b[off:])
}

// sfntTables reads a TrueType/OpenType table directory, every table inside the file
// (sfnt.Parse checks the directory further afterwards).
func sfntTables(data []byte) (map[string][]byte, bool) {
	if len(data) < 12 {
		return nil, false
	}
	n := u16(data, 4)
	if len(data) < 12+16*n {
		return nil, false
	}
	tables := make(map[string][]byte, n)
	for i := range n {
		rec := data[12+16*i:]
		off, length := uint64(u32(rec, 8)), uint64(u32(rec, 12))
		if off+length > uint64(len(data)) {
			return nil, false
		}
		tables[string(rec[:4])] = data[off : off+length]
	}
	return tables, true
}

func otsCheck(name string, tables map[string][]byte, transformed map[string]bool) error {
	c := &otsFont{name: name, tables: tables, transformed: transformed}
	for _, step := range []func() error{c.maxp, c.head, c.hhea, c.hmtx, c.loca, c.cmap} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// maxp: ots/src/maxp.cc OpenTypeMAXP::Parse — version ≤ 1.x, numGlyphs > 0.
func (c *otsFont) maxp() error {
	t, ok := c.tables["maxp"]
	if !ok {
		return c.bad("has no maxp table")
	}
	if len(t) < 6 {
		return c.bad("has a maxp table of %d bytes, too short", len(t))
	}
	if v := u32(t, 0); v>>16 > 1 {
		return c.bad("has a maxp table of unsupported version 0x%x", v)
	}
	c.numGlyphs = u16(t, 4)
	if c.numGlyphs == 0 {
		return c.bad("says in its maxp table that it has no glyphs")
	}
	return nil
}

// head: ots/src/head.cc OpenTypeHEAD::Parse — major version 1, magic number
// 0x5F0F3CF5, unitsPerEm in [16, 16384], a bounding box with min ≤ max,
// indexToLocFormat 0 or 1.
func (c *otsFont) head() error {
	t, ok := c.tables["head"]
	if !ok {
		return c.bad("has no head table")
	}
	if len(t) < 54 {
		return c.bad("has a head table of %d bytes, shorter than 54", len(t))
	}
	if v := u16(t, 0); v != 1 {
		return c.bad("has a head table of unsupported version %d", v)
	}
	if m := u32(t, 12); m != 0x5F0F3CF5 {
		return c.bad("has a head table whose magic number is 0x%08X, not 0x5F0F3CF5", m)
	}
	if upem := u16(t, 18); upem < 16 || upem > 16384 {
		return c.bad("has %d units per em, outside 16 to 16384", upem)
	}
	s16 := func(off int) int { return int(int16(binary.BigEndian.Uint16(t[off:]))) }
	if xmin, ymin, xmax, ymax := s16(36), s16(38), s16(40), s16(42); xmin > xmax || ymin > ymax {
		return c.bad("has a bounding box whose minimum exceeds its maximum (%d,%d to %d,%d)", xmin, ymin, xmax, ymax)
	}
	switch f := s16(50); f {
	case 0, 1:
		c.locaLong = f == 1
	default:
		return c.bad("has indexToLocFormat %d, neither 0 nor 1", f)
	}
	return nil
}

// hhea: ots/src/hhea.cc and ots/src/metrics.cc OpenTypeMetricsHeader::Parse — major
// version 1, metricDataFormat 0, numberOfHMetrics ≤ numGlyphs.
func (c *otsFont) hhea() error {
	t, ok := c.tables["hhea"]
	if !ok {
		return c.bad("has no hhea table")
	}
	if len(t) < 36 {
		return c.bad("has an hhea table of %d bytes, shorter than 36", len(t))
	}
	if v := u16(t, 0); v != 1 {
		return c.bad("has an hhea table of unsupported version %d", v)
	}
	if f := u16(t, 32); f != 0 {
		return c.bad("has metricDataFormat %d in its hhea table, not 0", f)
	}
	c.numHM = u16(t, 34)
	if c.numHM > c.numGlyphs {
		return c.bad("declares %d horizontal metrics in its hhea table for %d glyphs", c.numHM, c.numGlyphs)
	}
	return nil
}

// hmtx: ots/src/metrics.cc OpenTypeMetricsTable::Parse — at least one metric, and
// numberOfHMetrics (advance, side bearing) pairs followed by numGlyphs −
// numberOfHMetrics side bearings must all be readable (extra bytes are ignored).
func (c *otsFont) hmtx() error {
	t, ok := c.tables["hmtx"]
	if !ok {
		if c.transformed["hmtx"] {
			return nil
		}
		return c.bad("has no hmtx table")
	}
	if c.numHM == 0 {
		return c.bad("declares no horizontal metrics in its hhea table")
	}
	if need := 4*c.numHM + 2*(c.numGlyphs-c.numHM); len(t) < need {
		return c.bad("has an hmtx table of %d bytes, its %d metrics and %d side bearings need %d", len(t), c.numHM, c.numGlyphs-c.numHM, need)
	}
	return nil
}

// loca and glyf (TrueType outlines only): ots/src/loca.cc OpenTypeLOCA::Parse —
// numGlyphs+1 offsets, never decreasing ("Out of order offset"); ots/src/glyf.cc
// GetGlyphBufferSection — every non-empty glyph inside the glyf table.
func (c *otsFont) loca() error {
	loca, hasLoca := c.tables["loca"]
	glyf, hasGlyf := c.tables["glyf"]
	if !hasLoca && !hasGlyf || c.transformed["glyf"] || c.transformed["loca"] {
		return nil // CFF outlines, or a WOFF2's transformed glyf and loca
	}
	if !hasLoca || !hasGlyf {
		return c.bad("has a glyf table without a loca table or the reverse")
	}
	width := 2
	if c.locaLong {
		width = 4
	}
	if need := width * (c.numGlyphs + 1); len(loca) < need {
		return c.bad("has a loca table of %d bytes, its %d glyphs need %d", len(loca), c.numGlyphs, need)
	}
	offset := func(i int) uint64 {
		if c.locaLong {
			return uint64(u32(loca, 4*i))
		}
		return 2 * uint64(u16(loca, 2*i))
	}
	last := offset(0)
	for i := 1; i <= c.numGlyphs; i++ {
		o := offset(i)
		if o < last {
			return c.bad("has glyph locations out of order in its loca table (glyph %d starts at %d, before glyph %d at %d)", i, o, i-1, last)
		}
		if o > last && o > uint64(len(glyf)) {
			return c.bad("has glyph %d ending at byte %d of its glyf table, which has %d", i-1, o, len(glyf))
		}
		last = o
	}
	return nil
}

// cmap: ots/src/cmap.cc OpenTypeCMAP::Parse, ParseFormat4, Parse31012, Parse31013.
// The subtables OTS reads are checked, the others skipped as OTS skips them; at
// least one of format 4 (0/0, 0/1, 0/3, 3/0, 3/1), 12 (0/3, 0/4, 3/10) or 13 (3/10)
// must be there ("no supported subtables were found").
func (c *otsFont) cmap() error {
	t, ok := c.tables["cmap"]
	if !ok {
		return c.bad("has no cmap (character map) table")
	}
	if len(t) < 4 {
		return c.bad("has a cmap table of %d bytes, too short", len(t))
	}
	if v := u16(t, 0); v != 0 {
		return c.bad("has a character map of version %d, not 0", v)
	}
	n := u16(t, 2)
	if n == 0 {
		return c.bad("has a character map without subtables")
	}
	if len(t) < 4+8*n {
		return c.bad("has a character map whose %d subtable records do not fit in it", n)
	}
	type sub struct {
		platform, encoding, format int
		off, length                uint64
	}
	subs := make([]sub, n)
	dataOff := uint64(4 + 8*n)
	for i := range subs {
		r := t[4+8*i:]
		s := sub{platform: u16(r, 0), encoding: u16(r, 2), off: uint64(u32(r, 4))}
		if s.off < dataOff || s.off >= uint64(len(t)) {
			return c.bad("has character map subtable %d at offset %d, outside the cmap table", i, s.off)
		}
		h := t[s.off:]
		if len(h) < 2 {
			return c.bad("has character map subtable %d cut short", i)
		}
		s.format = u16(h, 0)
		switch s.format {
		case 0, 4:
			if len(h) < 6 {
				return c.bad("has character map subtable %d cut short", i)
			}
			s.length = uint64(u16(h, 2))
		case 12, 13:
			if len(h) < 8 {
				return c.bad("has character map subtable %d cut short", i)
			}
			s.length = uint64(u32(h, 4))
		case 14:
			if len(h) < 6 {
				return c.bad("has character map subtable %d cut short", i)
			}
			s.length = uint64(u32(h, 2))
		}
		if s.length > 1<<30 || s.off+s.length > uint64(len(t)) {
			return c.bad("has character map subtable %d (format %d) running past the end of the cmap table", i, s.format)
		}
		subs[i] = s
	}
	// Subtables may share their bytes exactly, not overlap otherwise.
	type edge struct {
		at    uint64
		start int
	}
	seen := map[[2]uint64]bool{}
	var edges []edge
	for _, s := range subs {
		k := [2]uint64{s.off, s.off + s.length}
		if seen[k] {
			continue
		}
		seen[k] = true
		edges = append(edges, edge{s.off, 1}, edge{s.off + s.length, 0})
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].at != edges[j].at {
			return edges[i].at < edges[j].at
		}
		return edges[i].start < edges[j].start
	})
	depth := 0
	for _, e := range edges {
		if e.start == 1 {
			depth++
		} else {
			depth--
		}
		if depth > 1 {
			return c.bad("has overlapping character map subtables")
		}
	}
	supported := false
	for i, s := range subs {
		data := t[s.off : s.off+s.length]
		var err error
		switch p, e, f := s.platform, s.encoding, s.format; {
		case f == 4 && (p == 0 && (e == 0 || e == 1 || e == 3) || p == 3 && (e == 0 || e == 1)):
			err = c.cmap4(data)
		case f == 12 && (p == 0 && (e == 3 || e == 4) || p == 3 && e == 10):
			err = c.cmap1213(data, false)
		case f == 13 && p == 3 && e == 10:
			err = c.cmap1213(data, true)
		default:
			continue
		}
		if err != nil {
			return c.bad("has a character map (subtable %d, platform %d, encoding %d, format %d) that %v", i, s.platform, s.encoding, s.format, err)
		}
		supported = true
	}
	if !supported {
		return c.bad("has no Unicode or Windows character map (format 4, 12 or 13)")
	}
	return nil
}

// cmap4 follows ParseFormat4, including its simulated lookup of every code point of
// every segment ("Range glyph reference too high").
func (c *otsFont) cmap4(t []byte) error {
	if len(t) < 14 {
		return fmt.Errorf("is cut short")
	}
	if lang := u16(t, 4); lang != 0 {
		return fmt.Errorf("has language %d, not 0", lang)
	}
	segX2, searchRange, entrySelector, rangeShift := u16(t, 6), u16(t, 8), u16(t, 10), u16(t, 12)
	if segX2&1 != 0 || searchRange&1 != 0 {
		return fmt.Errorf("has an odd segment count or search range")
	}
	seg := segX2 / 2
	if seg < 1 {
		return fmt.Errorf("has no segments")
	}
	log2 := 0
	for 1<<(log2+1) <= seg {
		log2++
	}
	if searchRange != 2<<log2 || entrySelector != log2 || rangeShift != (segX2-searchRange)&0xffff {
		return fmt.Errorf("has searchRange %d, entrySelector %d, rangeShift %d for %d segments", searchRange, entrySelector, rangeShift, seg)
	}
	if len(t) < 16+8*seg {
		return fmt.Errorf("has %d segments that do not fit in its %d bytes", seg, len(t))
	}
	endAt, startAt, deltaAt, rangeAt := 14, 16+2*seg, 16+4*seg, 16+6*seg
	if pad := u16(t, 14+2*seg); pad != 0 {
		return fmt.Errorf("has reservedPad %d, not 0", pad)
	}
	start := func(i int) int { return u16(t, startAt+2*i) }
	end := func(i int) int { return u16(t, endAt+2*i) }
	for i := 1; i < seg; i++ {
		if i == seg-1 && start(i-1) == 0xffff && end(i-1) == 0xffff && start(i) == 0xffff && end(i) == 0xffff {
			continue // several 0xFFFF terminators: OTS warns only
		}
		if end(i) <= end(i-1) || start(i) <= end(i-1) {
			return fmt.Errorf("has segments out of order or overlapping (U+%04X–U+%04X after U+%04X–U+%04X)", start(i), end(i), start(i-1), end(i-1))
		}
	}
	if start(seg-1) != 0xffff || end(seg-1) != 0xffff {
		return fmt.Errorf("does not end with the segment U+FFFF–U+FFFF")
	}
	for i := range seg {
		delta := uint16(u16(t, deltaAt+2*i))
		rangeOffAt := rangeAt + 2*i
		rangeOff := u16(t, rangeOffAt)
		if rangeOff&1 != 0 {
			if i != seg-1 {
				return fmt.Errorf("has an odd idRangeOffset %d", rangeOff)
			}
			rangeOff = 0 // OTS warns and treats it as 0
		}
		for cp := start(i); cp <= end(i); cp++ {
			var glyph int
			if rangeOff == 0 {
				glyph = int(uint16(cp) + delta) // wraps, as the specification says
			} else {
				at := rangeOffAt + rangeOff + 2*(cp-start(i))
				if at+1 >= len(t) {
					return fmt.Errorf("looks up U+%04X past its end", cp)
				}
				glyph = u16(t, at)
			}
			if glyph >= c.numGlyphs {
				return fmt.Errorf("points at glyph %d for U+%04X, past the font's last glyph, %d", glyph, cp, c.numGlyphs-1)
			}
		}
	}
	return nil
}

// cmap1213 follows Parse31012 (every glyph of a group below numGlyphs) and
// Parse31013 (a group's one glyph below numGlyphs). Chromium builds with OTS before
// 9.3.0 let a format 12 group reach glyph numGlyphs itself (an off-by-one fixed by
// OTS commit 835ac27, March 2026); that glyph does not exist, so it is refused here
// as current OTS refuses it.
func (c *otsFont) cmap1213(t []byte, manyToOne bool) error {
	if len(t) < 16 {
		return fmt.Errorf("is cut short")
	}
	if lang := u32(t, 8); lang != 0 {
		return fmt.Errorf("has language %d, not 0", lang)
	}
	n := uint64(u32(t, 12))
	if n == 0 || uint64(len(t)-16)/12 < n {
		return fmt.Errorf("declares %d groups", n)
	}
	var prevStart, prevEnd uint32
	for i := range int(n) {
		g := t[16+12*i:]
		s, e, glyph := u32(g, 0), u32(g, 4), u32(g, 8)
		if s > 0x10FFFF || e > 0x10FFFF || glyph > 0xFFFF {
			return fmt.Errorf("has a group U+%04X–U+%04X → glyph %d outside Unicode or the glyph range", s, e, glyph)
		}
		if e < s {
			return fmt.Errorf("has a group ending before it starts (U+%04X–U+%04X)", s, e)
		}
		last := glyph
		if !manyToOne {
			last = glyph + (e - s)
		}
		if int(last) >= c.numGlyphs {
			return fmt.Errorf("points at glyph %d for U+%04X, past the font's last glyph, %d", last, e, c.numGlyphs-1)
		}
		if i > 0 && (s <= prevStart || s <= prevEnd) {
			return fmt.Errorf("has groups out of order or overlapping (U+%04X after U+%04X–U+%04X)", s, prevStart, prevEnd)
		}
		prevStart, prevEnd = s, e
	}
	return nil
}
