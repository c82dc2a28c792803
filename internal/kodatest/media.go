package kodatest

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/andybalholm/brotli"
)

// Media for tests of tenants' assets: a logo of one flat colour, a WOFF2 font, and
// where a colour shows in a frame.

// LogoPNG is a w×h PNG of the one colour c: easy to find again in a rendered frame.
func LogoPNG(w, h int, c color.RGBA) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // an in-memory RGBA image always encodes
	}
	return buf.Bytes()
}

// ColorBox is the bounding box of the pixels of img within tol (Euclidean RGB
// distance) of c, and how many there are.
func ColorBox(img image.Image, c color.RGBA, tol float64) (image.Rectangle, int) {
	b := img.Bounds()
	var box image.Rectangle
	n := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb := rgb(img, x, y)
			dr, dg, db := r-float64(c.R), g-float64(c.G), bb-float64(c.B)
			if math.Sqrt(dr*dr+dg*dg+db*db) > tol {
				continue
			}
			p := image.Rect(x, y, x+1, y+1)
			if n == 0 {
				box = p
			} else {
				box = box.Union(p)
			}
			n++
		}
	}
	return box, n
}

// rgb reads a pixel; directly for RGBA and NRGBA frames, since img.At through the
// interface is slow under -race on 2-Mpixel frames.
func rgb(img image.Image, x, y int) (float64, float64, float64) {
	switch m := img.(type) {
	case *image.RGBA:
		i := m.PixOffset(x, y)
		return float64(m.Pix[i]), float64(m.Pix[i+1]), float64(m.Pix[i+2])
	case *image.NRGBA:
		i := m.PixOffset(x, y)
		return float64(m.Pix[i]), float64(m.Pix[i+1]), float64(m.Pix[i+2])
	}
	r, g, b, _ := img.At(x, y).RGBA()
	return float64(r >> 8), float64(g >> 8), float64(b >> 8)
}

const woff2Header = 48

// woff2TableTags are WOFF2's known table tags, by the index a directory entry uses.
var woff2TableTags = []string{"cmap", "head", "hhea", "hmtx", "maxp", "name", "OS/2", "post", "cvt ", "fpgm",
	"glyf", "loca", "prep", "CFF ", "VORG", "EBDT", "EBLC", "gasp", "hdmx", "kern", "LTSH", "PCLT", "VDMX",
	"vhea", "vmtx", "BASE", "GDEF", "GPOS", "GSUB", "EBSC", "JSTF", "MATH", "CBDT", "CBLC", "COLR", "CPAL",
	"SVG ", "sbix", "acnt", "avar", "bdat", "bloc", "bsln", "cvar", "fdsc", "feat", "fmtx", "fvar", "gvar",
	"hsty", "just", "lcar", "mort", "morx", "opbd", "prop", "trak", "Zapf", "Silf", "Glat", "Gloc", "Feat", "Sill"}

// WOFF2 packs a TrueType font's tables into a WOFF2 file without transforms (glyf
// and loca with the null transform, version 3), which the format allows.
func WOFF2(ttf []byte) []byte {
	be := binary.BigEndian
	n := int(be.Uint16(ttf[4:]))
	var dir, data bytes.Buffer
	for i := range n {
		rec := ttf[12+16*i:]
		tag := string(rec[:4])
		off, length := be.Uint32(rec[8:]), be.Uint32(rec[12:])
		flags := byte(0x3f)
		for j, known := range woff2TableTags {
			if known == tag {
				flags = byte(j)
			}
		}
		if tag == "glyf" || tag == "loca" {
			flags |= 3 << 6
		}
		dir.WriteByte(flags)
		if flags&0x3f == 0x3f {
			dir.WriteString(tag)
		}
		dir.Write(uintBase128(length))
		data.Write(ttf[off : off+length])
	}
	var comp bytes.Buffer
	bw := brotli.NewWriter(&comp)
	_, _ = bw.Write(data.Bytes())
	_ = bw.Close()
	hdr := make([]byte, woff2Header)
	copy(hdr, "wOF2")
	copy(hdr[4:], ttf[:4])
	compLen := comp.Len()
	// Browsers' decoder wants the file padded to four bytes after the compressed data.
	for (woff2Header+dir.Len()+comp.Len())%4 != 0 {
		comp.WriteByte(0)
	}
	total := woff2Header + dir.Len() + comp.Len()
	be.PutUint32(hdr[8:], uint32(total))
	be.PutUint16(hdr[12:], uint16(n))
	be.PutUint32(hdr[16:], uint32(len(ttf)))
	be.PutUint32(hdr[20:], uint32(compLen))
	return append(append(hdr, dir.Bytes()...), comp.Bytes()...)
}

func uintBase128(v uint32) []byte {
	var out []byte
	for {
		out = append([]byte{byte(v & 0x7f)}, out...)
		v >>= 7
		if v == 0 {
			break
		}
	}
	for i := range len(out) - 1 {
		out[i] |= 0x80
	}
	return out
}
