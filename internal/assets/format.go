package assets

import (
	"bytes"
	"mime"
	"path"
	"strings"

	"github.com/kodahq/koda"
)

// format is one accepted file format: its kind, the MIME type it is stored with, the
// extensions and declared types that may name it.
type format struct {
	name       string
	kind       koda.AssetKind
	mediaType  string
	extensions []string
	declared   []string // Content-Types a client may send for it, besides mediaType
}

// formats is the whole list of what an upload may be. Anything else is refused.
var formats = []format{
	{name: "png", kind: koda.AssetImage, mediaType: "image/png", extensions: []string{".png"}},
	{name: "jpeg", kind: koda.AssetImage, mediaType: "image/jpeg", extensions: []string{".jpg", ".jpeg", ".jpe", ".jfif"},
		declared: []string{"image/jpg", "image/pjpeg"}},
	{name: "webp", kind: koda.AssetImage, mediaType: "image/webp", extensions: []string{".webp"}},
	{name: "svg", kind: koda.AssetImage, mediaType: "image/svg+xml", extensions: []string{".svg"}},
	{name: "ttf", kind: koda.AssetFont, mediaType: "font/ttf", extensions: []string{".ttf"},
		declared: []string{"font/sfnt", "application/font-sfnt", "application/x-font-ttf", "application/x-font-truetype"}},
	{name: "otf", kind: koda.AssetFont, mediaType: "font/otf", extensions: []string{".otf"},
		declared: []string{"font/sfnt", "application/font-sfnt", "application/x-font-otf", "application/x-font-opentype", "application/vnd.ms-opentype"}},
	{name: "woff2", kind: koda.AssetFont, mediaType: "font/woff2", extensions: []string{".woff2"},
		declared: []string{"application/font-woff2"}},
	{name: "mp3", kind: koda.AssetAudio, mediaType: "audio/mpeg", extensions: []string{".mp3"},
		declared: []string{"audio/mp3", "audio/x-mp3", "audio/mpeg3", "audio/x-mpeg"}},
	{name: "aac", kind: koda.AssetAudio, mediaType: "audio/aac", extensions: []string{".aac"},
		declared: []string{"audio/x-aac", "audio/aacp"}},
	{name: "m4a", kind: koda.AssetAudio, mediaType: "audio/mp4", extensions: []string{".m4a", ".mp4", ".m4b"},
		declared: []string{"audio/x-m4a", "audio/m4a", "audio/aac", "video/mp4"}},
	{name: "wav", kind: koda.AssetAudio, mediaType: "audio/wav", extensions: []string{".wav", ".wave"},
		declared: []string{"audio/x-wav", "audio/wave", "audio/vnd.wave"}},
	{name: "ogg", kind: koda.AssetAudio, mediaType: "audio/ogg", extensions: []string{".ogg", ".oga", ".opus"},
		declared: []string{"application/ogg", "audio/opus", "audio/x-ogg"}},
}

func formatNamed(name string) *format {
	for i := range formats {
		if formats[i].name == name {
			return &formats[i]
		}
	}
	return nil
}

// sniffLen is how much of a file sniff reads: enough for every signature, and for an
// SVG's prolog (XML declaration, comments) before its root element.
const sniffLen = 4096

// sniff names the format of a file from its first bytes. It decides the kind: the
// extension and the declared type are only checked against it. "" means none of the
// accepted formats; hint says what the bytes look like when that helps the caller.
func sniff(head []byte) (name, hint string) {
	at := func(off int, sig string) bool {
		return len(head) >= off+len(sig) && string(head[off:off+len(sig)]) == sig
	}
	switch {
	case at(0, "\x89PNG\r\n\x1a\n"):
		return "png", ""
	case at(0, "\xff\xd8\xff"):
		return "jpeg", ""
	case at(0, "RIFF") && at(8, "WEBP"):
		return "webp", ""
	case at(0, "RIFF") && at(8, "WAVE"):
		return "wav", ""
	case at(0, "wOF2"):
		return "woff2", ""
	case at(0, "wOFF"):
		return "", "a WOFF 1 font; send it as WOFF2, TTF or OTF"
	case at(0, "ttcf"):
		return "", "a font collection (TTC); send one font as TTF or OTF"
	case at(0, "\x00\x01\x00\x00"), at(0, "true"):
		return "ttf", ""
	case at(0, "OTTO"):
		return "otf", ""
	case at(0, "OggS"):
		return "ogg", ""
	case at(0, "ID3"):
		return "mp3", "" // an ID3 tag; ffprobe confirms MP3 frames follow
	case at(4, "ftypavif"), at(4, "ftypavis"), at(4, "ftypheic"), at(4, "ftypheix"), at(4, "ftypmif1"), at(4, "ftypmsf1"):
		return "", "an AVIF or HEIC image; send PNG, JPEG, WebP or SVG"
	case at(4, "ftyp"):
		return "m4a", "" // ffprobe confirms an audio stream and no video
	case len(head) >= 2 && head[0] == 0xff && head[1]&0xf6 == 0xf0:
		return "aac", "" // ADTS: sync word, layer 00
	case len(head) >= 2 && head[0] == 0xff && head[1]&0xe0 == 0xe0 && head[1]&0x06 != 0:
		return "mp3", "" // an MPEG audio frame header, layer I–III
	case looksLikeSVG(head):
		return "svg", ""
	case at(0, "GIF8"):
		return "", "a GIF image; send PNG, JPEG, WebP or SVG"
	case at(0, "PK\x03\x04"):
		return "", "a ZIP archive"
	case at(0, "#EXTM3U"), at(0, "[playlist]"), at(0, "ffconcat"):
		return "", "a playlist, not media"
	}
	return "", ""
}

// looksLikeSVG: text that starts, after a byte order mark, white space, an XML
// declaration and comments, with an element. The SVG check parses the whole file and
// requires an <svg> root in the SVG namespace; this only routes it there.
func looksLikeSVG(head []byte) bool {
	s := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	s = bytes.TrimLeft(s, " \t\r\n")
	return bytes.HasPrefix(s, []byte("<?xml")) || bytes.HasPrefix(s, []byte("<svg")) ||
		bytes.HasPrefix(s, []byte("<!--")) || bytes.HasPrefix(s, []byte("<!DOCTYPE svg")) ||
		bytes.HasPrefix(s, []byte("<!doctype svg"))
}

// checkNames refuses a file whose extension or declared Content-Type names another
// format than its content. An empty or generic declared type (application/octet-stream,
// what browsers send for unknown files) and a name without extension say nothing.
func checkNames(f *format, name, declared string) error {
	if ext := strings.ToLower(path.Ext(name)); ext != "" {
		ok := false
		for _, e := range f.extensions {
			ok = ok || e == ext
		}
		if !ok {
			return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetTypeMismatch,
				"the file is named %q but its content is %s (%s); give it the extension %s",
				name, strings.ToUpper(f.name), f.kind, f.extensions[0])
		}
	}
	mt, _, err := mime.ParseMediaType(declared)
	if declared == "" || mt == "application/octet-stream" || mt == "binary/octet-stream" {
		return nil
	}
	if err != nil {
		return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetTypeMismatch, "the declared Content-Type %q is not a media type", declared)
	}
	if mt == f.mediaType {
		return nil
	}
	for _, d := range f.declared {
		if d == mt {
			return nil
		}
	}
	return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetTypeMismatch,
		"the file is declared as %s but its content is %s (%s)", mt, strings.ToUpper(f.name), f.mediaType)
}
