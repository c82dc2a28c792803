package assets

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
)

const dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

// table returns where a table of the font lies and where its directory record is.
func table(t *testing.T, font []byte, tag string) (off, length, rec int) {
	t.Helper()
	for i := range u16(font, 4) {
		r := 12 + 16*i
		if string(font[r:r+4]) == tag {
			return int(u32(font, r+8)), int(u32(font, r+12)), r
		}
	}
	t.Fatalf("no %q table", tag)
	return
}

// cmapSub returns the offset in the font of its first cmap subtable of the format.
func cmapSub(t *testing.T, font []byte, format int) int {
	t.Helper()
	cm, _, _ := table(t, font, "cmap")
	for i := range u16(font, cm+2) {
		sub := cm + int(u32(font, cm+4+8*i+4))
		if u16(font, sub) == format {
			return sub
		}
	}
	t.Fatalf("no format %d cmap subtable", format)
	return 0
}

// badFonts are DejaVuSans broken in each way OTS refuses, with what the refusal
// must say.
func badFonts(t *testing.T) map[string]struct {
	font []byte
	want string
} {
	good, err := os.ReadFile(dejaVu)
	if err != nil {
		t.Fatalf("%s is absent: %v; make deps-test installs fonts-dejavu-core", dejaVu, err)
	}
	be := binary.BigEndian
	maxp, _, _ := table(t, good, "maxp")
	numGlyphs := u16(good, maxp+4)
	edit := func(f func(b []byte)) []byte { b := bytes.Clone(good); f(b); return b }
	type bad = struct {
		font []byte
		want string
	}
	out := map[string]bad{}
	// Format 4: the 0xFFFF terminator mapped one past the last glyph, as in
	// kenpixel.ttf; and the segment holding 'A' shifted so its last code point does.
	f4 := cmapSub(t, good, 4)
	seg := u16(good, f4+6) / 2
	deltaAt, rangeAt := f4+16+4*seg, f4+16+6*seg
	out["cmap terminator"] = bad{edit(func(b []byte) {
		be.PutUint16(b[rangeAt+2*(seg-1):], 0)
		be.PutUint16(b[deltaAt+2*(seg-1):], uint16(numGlyphs+1))
	}), "points at glyph " + itoa(numGlyphs) + " for U+FFFF, past the font's last glyph, " + itoa(numGlyphs-1)}
	for i := range seg {
		start, end := u16(good, f4+16+2*seg+2*i), u16(good, f4+14+2*i)
		if start <= 'A' && 'A' <= end && u16(good, rangeAt+2*i) == 0 {
			out["cmap range"] = bad{edit(func(b []byte) {
				be.PutUint16(b[deltaAt+2*i:], uint16(numGlyphs-end))
			}), "points at glyph " + itoa(numGlyphs) + " for U+"}
		}
	}
	if _, ok := out["cmap range"]; !ok {
		t.Fatal("no format 4 segment with an idDelta holds 'A'")
	}
	f12 := cmapSub(t, good, 12)
	// One past numGlyphs, not numGlyphs itself: Chromium before OTS 9.3.0 lets a
	// format 12 group reach glyph numGlyphs (an off-by-one OTS fixed in March
	// 2026, commit 835ac27), and the Chromium cross-check loads these fonts.
	// TestCmapFormat12Boundary checks numGlyphs itself.
	out["cmap format 12 group"] = bad{edit(func(b []byte) {
		g := f12 + 16 // the first group
		be.PutUint32(b[g+8:], uint32(numGlyphs+1-int(u32(b, g+4)-u32(b, g))))
	}), "points at glyph " + itoa(numGlyphs+1) + " for U+"}
	head, _, _ := table(t, good, "head")
	out["unitsPerEm"] = bad{edit(func(b []byte) { be.PutUint16(b[head+18:], 8) }), "has 8 units per em, outside 16 to 16384"}
	out["indexToLocFormat"] = bad{edit(func(b []byte) { be.PutUint16(b[head+50:], 2) }), "indexToLocFormat 2"}
	_, hmtxLen, hmtxRec := table(t, good, "hmtx")
	out["hmtx truncated"] = bad{edit(func(b []byte) { be.PutUint32(b[hmtxRec+12:], uint32(hmtxLen-2)) }), "has an hmtx table of " + itoa(hmtxLen-2) + " bytes"}
	loca, _, _ := table(t, good, "loca") // DejaVuSans has long offsets
	for i := 1; ; i++ {
		if u32(good, loca+4*i) != u32(good, loca+4*(i+1)) {
			out["loca out of order"] = bad{edit(func(b []byte) {
				x, y := u32(b, loca+4*i), u32(b, loca+4*(i+1))
				be.PutUint32(b[loca+4*i:], y)
				be.PutUint32(b[loca+4*(i+1):], x)
			}), "glyph locations out of order"}
			break
		}
	}
	_, glyfLen, _ := table(t, good, "glyf")
	out["glyf past its end"] = bad{edit(func(b []byte) { be.PutUint32(b[loca+4*numGlyphs:], uint32(glyfLen+4)) }), "ending at byte " + itoa(glyfLen+4) + " of its glyf table"}
	out["no glyphs"] = bad{edit(func(b []byte) { be.PutUint16(b[maxp+4:], 0) }), "no glyphs"}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestFontsRefusedAsOTSRefusesThem(t *testing.T) {
	for name, c := range badFonts(t) {
		_, err := parseSFNT("ttf", c.font)
		if koda.ErrorCode(err) != koda.CodeAssetMalformed || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ASSET_MALFORMED saying %q", name, err, c.want)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// TestKenpixelRefused is the font of issue 25: Chromium logged "OTS parsing error:
// cmap: Range glyph reference too high (138 > 137)".
func TestKenpixelRefused(t *testing.T) {
	const path = "/tmp/bk/kenpixel.ttf"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("%s is absent (%v); the synthetic cases of TestFontsRefusedAsOTSRefusesThem cover its fault", path, err)
	}
	_, err = parseSFNT("ttf", b)
	const want = "points at glyph 138 for U+FFFF, past the font's last glyph, 137"
	if koda.ErrorCode(err) != koda.CodeAssetMalformed || !strings.Contains(err.Error(), want) {
		t.Fatalf("kenpixel.ttf: %v, want ASSET_MALFORMED saying %q", err, want)
	}
}

// TestSystemFontsAccepted: the new checks refuse no TrueType or OpenType font of the
// machine's own.
func TestSystemFontsAccepted(t *testing.T) {
	n := 0
	_ = filepath.WalkDir("/usr/share/fonts", func(p string, d os.DirEntry, err error) error {
		ext := strings.ToLower(filepath.Ext(p))
		if err != nil || d.IsDir() || ext != ".ttf" && ext != ".otf" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Error(err)
			return nil
		}
		n++
		tables, ok := sfntTables(b)
		if !ok {
			t.Errorf("%s: the table directory does not read", p)
			return nil
		}
		if err := otsCheck(strings.TrimPrefix(ext, "."), tables, nil); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if _, err := parseSFNT(strings.TrimPrefix(ext, "."), b); err != nil {
			t.Logf("%s (refused, not by these checks): %v", p, err)
		}
		return nil
	})
	if n == 0 {
		t.Skip("no TTF or OTF font under /usr/share/fonts")
	}
	t.Logf("%d fonts checked", n)
}

// TestWOFF2RefusedAsOTSRefusesThem: the same faults packed as WOFF2 (without
// transforms, so every table is checked) are refused with the same messages.
func TestWOFF2RefusedAsOTSRefusesThem(t *testing.T) {
	for name, c := range badFonts(t) {
		err := parseWOFF2(kodatest.WOFF2(c.font))
		if koda.ErrorCode(err) != koda.CodeAssetMalformed || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ASSET_MALFORMED saying %q", name, err, c.want)
		}
	}
	good, _ := os.ReadFile(dejaVu)
	if err := parseWOFF2(kodatest.WOFF2(good)); err != nil {
		t.Errorf("DejaVuSans as WOFF2: %v", err)
	}
}

// TestCmapFormat12Boundary: a format 12 group may end at glyph numGlyphs−1, not at
// numGlyphs (ots/src/cmap.cc Parse31012 since OTS 9.3.0); format 13 groups likewise.
func TestCmapFormat12Boundary(t *testing.T) {
	group := func(format int, start, end, glyph uint32) []byte {
		b := make([]byte, 28)
		be := binary.BigEndian
		be.PutUint16(b, uint16(format))
		be.PutUint32(b[4:], 28)
		be.PutUint32(b[12:], 1)
		be.PutUint32(b[16:], start)
		be.PutUint32(b[20:], end)
		be.PutUint32(b[24:], glyph)
		return b
	}
	c := &otsFont{name: "ttf", numGlyphs: 10}
	if err := c.cmap1213(group(12, 0x41, 0x44, 6), false); err != nil {
		t.Errorf("glyphs 6 to 9 of 10: %v", err)
	}
	if err := c.cmap1213(group(12, 0x41, 0x44, 7), false); err == nil || !strings.Contains(err.Error(), "points at glyph 10 for U+0044") {
		t.Errorf("glyphs 7 to 10 of 10: %v", err)
	}
	if err := c.cmap1213(group(13, 0x41, 0x44, 9), true); err != nil {
		t.Errorf("format 13 to glyph 9 of 10: %v", err)
	}
	if err := c.cmap1213(group(13, 0x41, 0x44, 10), true); err == nil {
		t.Errorf("format 13 to glyph 10 of 10 accepted")
	}
}
