package assets

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
)

func TestSniff(t *testing.T) {
	cases := map[string]string{
		"\x89PNG\r\n\x1a\n....":               "png",
		"\xff\xd8\xff\xe0":                    "jpeg",
		"RIFF\x00\x00\x00\x00WEBPVP8 ":        "webp",
		"RIFF\x00\x00\x00\x00WAVEfmt ":        "wav",
		"wOF2\x00\x01\x00\x00":                "woff2",
		"\x00\x01\x00\x00\x00\x10":            "ttf",
		"OTTO\x00\x10":                        "otf",
		"OggS\x00\x02":                        "ogg",
		"ID3\x04\x00":                         "mp3",
		"\xff\xfb\x90\x64":                    "mp3",
		"\xff\xf1\x50\x80":                    "aac",
		"\x00\x00\x00\x20ftypM4A \x00":        "m4a",
		"\xef\xbb\xbf  <?xml version='1.0'?>": "svg",
		"<svg xmlns=":                         "svg",
		"\x00\x00\x00\x1cftypavif":            "",
		"wOFF\x00\x01":                        "",
		"ttcf":                                "",
		"GIF89a":                              "",
		"#EXTM3U\n":                           "",
		"<html>":                              "",
		"":                                    "",
	}
	for head, want := range cases {
		if got, _ := sniff([]byte(head)); got != want {
			t.Errorf("sniff(%q) = %q, want %q", head, got, want)
		}
	}
}

func TestCheckNames(t *testing.T) {
	png := formatNamed("png")
	for _, ok := range [][2]string{{"logo.png", ""}, {"LOGO.PNG", "image/png"}, {"logo", "application/octet-stream"}, {"", "image/png; charset=binary"}} {
		if err := checkNames(png, ok[0], ok[1]); err != nil {
			t.Errorf("%q %q: %v", ok[0], ok[1], err)
		}
	}
	for _, bad := range [][2]string{{"logo.svg", ""}, {"logo.png.exe", ""}, {"logo.png", "image/svg+xml"}, {"x", "text/html"}, {"x", ";;"}} {
		if err := checkNames(png, bad[0], bad[1]); koda.ErrorCode(err) != koda.CodeAssetTypeMismatch {
			t.Errorf("%q %q: %v, want %s", bad[0], bad[1], err, koda.CodeAssetTypeMismatch)
		}
	}
	if err := checkNames(formatNamed("ogg"), "voice.opus", "audio/opus"); err != nil {
		t.Errorf("opus in ogg: %v", err)
	}
}

func TestCleanName(t *testing.T) {
	for in, want := range map[string]string{
		"../../etc/passwd":       "passwd",
		`C:\Users\me\logo.png`:   "logo.png",
		"a\x00b\nc.png":          "abc.png",
		"  spaced.png ":          "spaced.png",
		"/":                      "",
		strings.Repeat("é", 200): strings.Repeat("é", 127),
		"bad\xffutf8.png":        "badutf8.png",
	} {
		if got := cleanName(in); got != want {
			t.Errorf("cleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSanitizeSVGKeepsDrawing(t *testing.T) {
	in := `<svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" width="48px" height="24" viewBox="0 0 96 48">
<inkscape:grid/><metadata><rdf>x</rdf></metadata>
<style>.a{fill:#123456}</style>
<g class="a" transform="translate(1 2)" inkscape:label="layer"><path d="M0 0L10 10Z" stroke="#000" stroke-width="2"/></g>
<text xml:space="preserve" x="0" y="40">a &lt; b</text>
<a href="#x"><circle r="1"/></a>
</svg>`
	var out bytes.Buffer
	w, h, removed, err := sanitizeSVG(strings.NewReader(in), &out)
	if err != nil {
		t.Fatal(err)
	}
	if w != 48 || h != 24 {
		t.Errorf("size %d×%d, want the width and height in pixels", w, h)
	}
	s := out.String()
	for _, want := range []string{`<path d="M0 0L10 10Z" stroke="#000" stroke-width="2"/>`, `.a{fill:#123456}`, `xml:space="preserve"`, `a &lt; b`, `transform="translate(1 2)"`, `<g><circle r="1"/></g>`} {
		if !strings.Contains(s, want) {
			t.Errorf("lost %q:\n%s", want, s)
		}
	}
	for _, gone := range []string{"inkscape", "metadata", "rdf"} {
		if strings.Contains(s, gone) {
			t.Errorf("kept %q:\n%s", gone, s)
		}
	}
	if len(removed) == 0 {
		t.Error("nothing reported removed")
	}
	// The result parses again to the same document: sanitizing is idempotent.
	var again bytes.Buffer
	if _, _, _, err := sanitizeSVG(strings.NewReader(s), &again); err != nil || again.String() != s {
		t.Errorf("second pass: %v\n%s\n%s", err, s, again.String())
	}
}

func TestSanitizeSVGRefuses(t *testing.T) {
	deep := `<svg xmlns="http://www.w3.org/2000/svg">` + strings.Repeat("<g>", 200) + strings.Repeat("</g>", 200) + `</svg>`
	for name, in := range map[string]string{
		"entity":     `<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>`,
		"undeclared": `<svg xmlns="http://www.w3.org/2000/svg">&xxe;</svg>`,
		"too deep":   deep,
		"not closed": `<svg xmlns="http://www.w3.org/2000/svg"><g>`,
		"utf-16":     `<?xml version="1.0" encoding="UTF-16"?><svg xmlns="http://www.w3.org/2000/svg"/>`,
		"html root":  `<html><svg xmlns="http://www.w3.org/2000/svg"/></html>`,
		"two roots?": `<svg xmlns="http://www.w3.org/2000/svg"/><svg xmlns="http://www.w3.org/2000/svg"/>`,
	} {
		var out bytes.Buffer
		if _, _, _, err := sanitizeSVG(strings.NewReader(in), &out); err == nil {
			t.Errorf("%s: accepted as\n%s", name, out.String())
		}
	}
}

// Active or external content is refused, each thing found named in the message.
func TestSanitizeSVGRefusesActiveContent(t *testing.T) {
	wrap := func(body string, attrs ...string) string {
		return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ` + strings.Join(attrs, " ") + `>` + body + `</svg>`
	}
	for name, c := range map[string]struct{ in, named string }{
		"script":             {wrap(`<script>alert(1)</script>`), "<script>"},
		"script in metadata": {wrap(`<metadata><script>alert(1)</script></metadata>`), "<script>"},
		"handler on root":    {wrap(`<rect/>`, `onload="x()"`), "onload="},
		"handler uppercase":  {wrap(`<rect ONCLICK="x()"/>`), "ONCLICK="},
		"foreignObject":      {wrap(`<foreignObject/>`), "<foreignObject>"},
		"xhtml element":      {wrap(`<x:div xmlns:x="http://www.w3.org/1999/xhtml"/>`), "<div>"},
		"host file href":     {wrap(`<use xlink:href="file:///etc/passwd"/>`), `xlink:href="file:///etc/passwd"`},
		"remote href":        {wrap(`<use href="https://evil.example/a.svg#x"/>`), `href="https://evil.example/a.svg#x"`},
		"link":               {wrap(`<a href="javascript:alert(1)"><rect/></a>`), `href="javascript:alert(1)"`},
		"embedded image":     {wrap(`<image href="data:image/png;base64,AAAA"/>`), "<image>"},
		"external fill":      {wrap(`<rect fill="url(http://evil.example/p#x)"/>`), `fill="url(http://evil.example/p#x)"`},
		"style attribute":    {wrap(`<rect style="background:url(//evil.example/t.png)"/>`), "style="},
		"style import":       {wrap(`<style>@import url(http://evil.example/a.css);</style>`), "<style>"},
		"stylesheet":         {`<?xml-stylesheet href="http://evil.example/a.css"?>` + wrap(`<rect/>`), "<?xml-stylesheet?>"},
		"animation":          {wrap(`<rect><set attributeName="href" to="javascript:alert(1)"/></rect>`), "<set>"},
		"feImage":            {wrap(`<filter><feImage href="http://evil.example/x.png"/></filter>`), "<feImage>"},
	} {
		var out bytes.Buffer
		_, _, _, err := sanitizeSVG(strings.NewReader(c.in), &out)
		if koda.ErrorCode(err) != koda.CodeAssetUnsafe || !strings.Contains(koda.ErrorMessage(err), c.named) {
			t.Errorf("%s: %v; want %s naming %s", name, err, koda.CodeAssetUnsafe, c.named)
		}
		if out.Len() != 0 {
			t.Errorf("%s: wrote %d bytes", name, out.Len())
		}
	}
}

func TestSafeValue(t *testing.T) {
	for v, want := range map[string]bool{
		"url(#grad)":                    true,
		"url( '#grad' )":                true,
		"#fff":                          true,
		"url(http://x/y)":               false,
		"URL(data:image/svg+xml,<svg>)": false,
		"url(#a) url(//evil/b)":         false,
		"fill:red;behavior:url(#x)":     false,
		"expression(alert(1))":          false,
		`\75 rl(http://x)`:              false,
		"@import 'x.css'":               false,
	} {
		if got := safeValue(v); got != want {
			t.Errorf("safeValue(%q) = %v", v, got)
		}
	}
}

func TestFonts(t *testing.T) {
	family, err := parseSFNT("ttf", goregular.TTF)
	if err != nil || family != "Go" {
		t.Fatalf("goregular: %q, %v", family, err)
	}
	w := kodatest.WOFF2(goregular.TTF)
	if err := parseWOFF2(w); err != nil {
		t.Fatalf("a WOFF2 made of goregular: %v", err)
	}
	if f, _ := sniff(w); f != "woff2" {
		t.Errorf("sniffed %q", f)
	}
	corrupt := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(w)) }
	for name, bad := range map[string][]byte{
		"length lies":       corrupt(func(b []byte) []byte { binary.BigEndian.PutUint32(b[8:], 7); return b }),
		"truncated":         w[:len(w)-10],
		"reserved":          corrupt(func(b []byte) []byte { b[15] = 1; return b }),
		"no tables":         corrupt(func(b []byte) []byte { b[12], b[13] = 0, 0; return b }),
		"huge sfnt":         corrupt(func(b []byte) []byte { binary.BigEndian.PutUint32(b[16:], 1<<30); return b }),
		"collection":        corrupt(func(b []byte) []byte { copy(b[4:], "ttcf"); return b }),
		"brotli garbage":    corrupt(func(b []byte) []byte { copy(b[len(b)-40:], bytes.Repeat([]byte{0xAA}, 40)); return b }),
		"compressed length": corrupt(func(b []byte) []byte { binary.BigEndian.PutUint32(b[20:], uint32(len(b))); return b }),
		"header only":       w[:woff2HeaderLen],
		// Chromium's decoder refuses these two, so a render never gets the font.
		"unpadded": unpaddedWOFF2(t, w),
		"trailing bytes": corrupt(func(b []byte) []byte {
			b = append(b, 0, 0, 0, 0)
			binary.BigEndian.PutUint32(b[8:], uint32(len(b)))
			return b
		}),
		"metadata not after the data": corrupt(func(b []byte) []byte {
			b = append(b, make([]byte, 8)...)
			binary.BigEndian.PutUint32(b[8:], uint32(len(b)))
			binary.BigEndian.PutUint32(b[28:], uint32(len(b)-4)) // 4 bytes of padding skipped
			binary.BigEndian.PutUint32(b[32:], 4)
			return b
		}),
	} {
		if err := parseWOFF2(bad); koda.ErrorCode(err) != koda.CodeAssetMalformed {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A TrueType table directory pointing past the end, and a font whose glyph
	// data is overwritten.
	broken := bytes.Clone(goregular.TTF)
	binary.BigEndian.PutUint32(broken[12+8:], uint32(len(broken)))
	if _, err := parseSFNT("ttf", broken); koda.ErrorCode(err) != koda.CodeAssetMalformed {
		t.Errorf("table past the end: %v", err)
	}
}

// unpaddedWOFF2 is w without the zero bytes that pad its compressed data to a
// multiple of four, its header's length set to match: what a packer that forgets the
// padding writes. The directory is walked to find where the data starts.
func unpaddedWOFF2(t *testing.T, w []byte) []byte {
	t.Helper()
	p := w[woff2HeaderLen:]
	for range int(binary.BigEndian.Uint16(w[12:])) {
		flags := p[0]
		p = p[1:]
		if flags&0x3f == 0x3f {
			p = p[4:]
		}
		_, rest, _ := base128(p)
		p = rest
		tag := ""
		if idx := int(flags & 0x3f); idx < len(woff2Tags) {
			tag = woff2Tags[idx]
		}
		if v := flags >> 6; (tag == "glyf" || tag == "loca") && v != 3 || tag != "glyf" && tag != "loca" && v != 0 {
			_, rest, _ := base128(p)
			p = rest
		}
	}
	end := len(w) - len(p) + int(binary.BigEndian.Uint32(w[20:]))
	if end%4 == 0 {
		t.Fatalf("this WOFF2's compressed data ends on a 4-byte boundary: it has no padding to drop")
	}
	out := bytes.Clone(w[:end])
	binary.BigEndian.PutUint32(out[8:], uint32(len(out)))
	return out
}

func TestImagesWrittenAnew(t *testing.T) {
	s := &Service{}
	s.init()
	img := image.NewNRGBA(image.Rect(0, 0, 10, 5))
	img.Set(3, 3, color.NRGBA{255, 0, 0, 128})
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	// A tEXt chunk with a secret before IEND, and bytes after it (a polyglot).
	raw := buf.Bytes()
	iend := raw[len(raw)-12:]
	text := []byte("\x00\x00\x00\x0btEXtComment\x00xy\x00\x00\x00\x00")
	data := append(append(append(bytes.Clone(raw[:len(raw)-12]), text...), iend...), []byte("<script>x</script>")...)
	in := writeTemp(t, data)
	var out bytes.Buffer
	stored, w, h, err := s.checkImage(t.Context(), formatNamed("png"), in, &out)
	if err != nil {
		// Go's PNG decoder checks chunk CRCs; the made-up tEXt has none, so the
		// file is refused, which is also fine: nothing of it is kept.
		if koda.ErrorCode(err) != koda.CodeAssetMalformed {
			t.Fatal(err)
		}
		in = writeTemp(t, append(bytes.Clone(raw), []byte("<script>x</script>")...))
		out.Reset()
		if stored, w, h, err = s.checkImage(t.Context(), formatNamed("png"), in, &out); err != nil {
			t.Fatal(err)
		}
	}
	if stored != "png" || w != 10 || h != 5 || bytes.Contains(out.Bytes(), []byte("script")) {
		t.Errorf("stored %s %d×%d, %d bytes", stored, w, h, out.Len())
	}
	got, _ := png.Decode(bytes.NewReader(out.Bytes()))
	if r, _, _, a := got.At(3, 3).RGBA(); a == 0 || r == 0 {
		t.Errorf("pixel lost: %v", got.At(3, 3))
	}
}

func writeTemp(t *testing.T, data []byte) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), "in"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.Write(data)
	t.Cleanup(func() { f.Close() })
	return f
}

// Every audio format is read by ffprobe, directly and inside bubblewrap when it is
// installed (files made by ffmpeg); a file longer than the limit is refused.
func TestProbeAudio(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		// scripts/install-deps.sh installs ffmpeg; a missing one is a broken setup, not a pass.
		t.Fatalf("ffmpeg is not installed (run scripts/install-deps.sh test): %v", err)
	}
	dir := t.TempDir()
	make1 := func(name string, args ...string) string {
		p := filepath.Join(dir, name)
		cmd := exec.Command("ffmpeg", append(append([]string{"-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2"}, args...), p)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("ffmpeg %s: %v %s", name, err, out)
		}
		return p
	}
	files := map[string]struct{ path, codec string }{
		"mp3": {make1("a.mp3", "-c:a", "libmp3lame"), "mp3"},
		"ogg": {make1("a.ogg", "-c:a", "libopus"), "opus"},
		"m4a": {make1("a.m4a", "-c:a", "aac"), "aac"},
		"aac": {make1("a.aac", "-c:a", "aac", "-f", "adts"), "aac"},
		"wav": {make1("a.wav"), "pcm_s16le"},
	}
	probers := map[string]*Prober{"direct": {}}
	if bw, err := exec.LookPath("bwrap"); err == nil && os.Geteuid() == 0 {
		probers["bwrap"] = &Prober{Bwrap: bw}
	}
	for pname, p := range probers {
		for format, f := range files {
			head, _ := os.ReadFile(f.path)
			if got, _ := sniff(head[:min(len(head), sniffLen)]); got != format {
				t.Errorf("%s sniffed as %q", format, got)
			}
			codec, secs, err := p.probe(t.Context(), format, f.path, time.Minute)
			if err != nil || codec != f.codec || secs < 1.9 || secs > 2.2 {
				t.Errorf("%s %s: %s %.2fs %v", pname, format, codec, secs, err)
			}
		}
		if _, _, err := p.probe(t.Context(), "wav", files["wav"].path, time.Second); koda.ErrorCode(err) != koda.CodeAssetTooLong {
			t.Errorf("%s: 2 s over a 1 s limit: %v", pname, err)
		}
		// An MP3 read as WAV (a mislabelled file the sniffing would not route so)
		// fails rather than being probed as whatever it is.
		if _, _, err := p.probe(t.Context(), "wav", files["mp3"].path, time.Minute); koda.ErrorCode(err) != koda.CodeAssetMalformed {
			t.Errorf("%s: mp3 forced as wav: %v", pname, err)
		}
	}
	// A video is not audio.
	video := filepath.Join(dir, "v.mp4")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=1:size=32x32",
		"-f", "lavfi", "-i", "sine=duration=1", "-shortest", video).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg video: %v %s", err, out)
	}
	if _, _, err := (&Prober{}).probe(t.Context(), "m4a", video, time.Minute); koda.ErrorCode(err) != koda.CodeAssetMalformed ||
		!strings.Contains(err.Error(), "video") {
		t.Errorf("mp4 with video: %v", err)
	}
}
