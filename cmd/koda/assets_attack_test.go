package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/goregular"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
)

// crashFont is goregular with its table directory claiming 65535 tables and its
// cmap pointing past the end of the file: what crashes parsers that trust offsets.
func crashFont() []byte {
	f := bytes.Clone(goregular.TTF)
	n := int(binary.BigEndian.Uint16(f[4:]))
	for i := range n {
		rec := f[12+16*i:]
		if string(rec[:4]) == "cmap" {
			binary.BigEndian.PutUint32(rec[8:], 0xfffffff0)
		}
	}
	binary.BigEndian.PutUint16(f[4:], 0xffff)
	return f
}

func (c client) upload(name string, data []byte) (int, string, string) {
	c.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, _ := w.CreateFormFile("file", name)
	_, _ = part.Write(data)
	_ = w.Close()
	req, _ := http.NewRequest(http.MethodPost, c.base+"/v1/assets", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	c.authorize(req)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("upload %s: %v", name, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	_ = json.Unmarshal(raw, &e)
	return resp.StatusCode, e.Error.Code, e.Error.Message
}

func TestAttackHostileAssets(t *testing.T) {
	// No allow-list: production's policy.
	m := startTuned(t, "", func(m *Main) { m.Config.WebhookAllow = "" })
	c := client{t: t, base: m.PublicURL}
	hostHTTP := listen(t, "127.0.0.1:0")
	hostMP3 := filepath.Join(t.TempDir(), "host.mp3")
	if out, err := exec.Command("ffmpeg", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-y", hostMP3).CombinedOutput(); err != nil {
		t.Fatalf("make host audio: %v: %s", err, out)
	}
	playlist := "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:2,\nfile:" + hostMP3 +
		"\n#EXTINF:2,\n" + fmt.Sprintf("http://127.0.0.1:%d/x.mp3", hostHTTP.port()) + "\n#EXT-X-ENDLIST\n"
	cases := []struct {
		name, file string
		data       []byte
		code       string
	}{
		{"zip bomb as PNG: 60000² declared, 16 MiB of zeros inflated", "logo.png", kodatest.PNGBomb(60000, 60000, 16<<20), koda.CodeAssetDimensions},
		{"zip bomb as PNG within the pixel bound: 64 MiB of zeros for 2000²", "logo.png", kodatest.PNGBomb(2000, 2000, 64<<20), koda.CodeAssetMalformed},
		{"SVG with script and xlink:href to a host file", "logo.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">` +
			`<script>fetch('/v1/keys')</script><use xlink:href="file:///etc/passwd#x"/><image xlink:href="file:///etc/shadow"/></svg>`), koda.CodeAssetUnsafe},
		{"SVG with an external entity", "logo.svg", []byte(`<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>` +
			`<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>`), koda.CodeAssetUnsafe},
		{"font that crashes naive parsers", "brand.ttf", crashFont(), koda.CodeAssetMalformed},
		{"audio that is an HLS playlist of a host file", "theme.mp3", []byte(playlist), koda.CodeAssetUnsupportedType},
		{"the same playlist behind an ID3 tag", "theme.mp3", append([]byte("ID3\x04\x00\x00\x00\x00\x00\x00"), playlist...), koda.CodeAssetMalformed},
		{"a concat list of a host file", "theme.mp3", []byte("ffconcat version 1.0\nfile '" + hostMP3 + "'\n"), koda.CodeAssetUnsupportedType},
	}
	growth := heapGrowth(func() {
		for _, tc := range cases {
			status, code, msg := c.upload(tc.file, tc.data)
			t.Logf("%s (%d bytes): %d %s %s", tc.name, len(tc.data), status, code, msg)
			if status < 400 || status >= 500 || code != tc.code {
				t.Errorf("%s: %d %s %s, want 4xx %s", tc.name, status, code, msg, tc.code)
			}
			if strings.Contains(msg, "root:") || strings.Contains(msg, hostMP3) {
				t.Errorf("%s: the message shows host content: %s", tc.name, msg)
			}
		}
	})
	// The 2000² picture is decoded (16 MB of pixels); nothing of the rest is held.
	if growth > 96<<20 {
		t.Errorf("the server's heap grew by %d MiB during the uploads", growth>>20)
	}
	// A URL on the host is refused when connecting; the listener sees nothing.
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	if code, _ := c.do(http.MethodPost, "/v1/assets", map[string]any{"url": fmt.Sprintf("http://127.0.0.1:%d/logo.png", hostHTTP.port())}, &e); code != http.StatusUnprocessableEntity || e.Error.Code != koda.CodeAssetURLForbidden {
		t.Errorf("URL on the host: %d %s", code, e.Error.Code)
	}
	if n := hostHTTP.hits.Load(); n != 0 {
		t.Errorf("the host listener was reached %d times", n)
	}
	n := 0
	if err := m.storage.List(context.Background(), "assets/", func(koda.StoredFile) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	var page struct {
		Assets []any `json:"assets"`
	}
	c.do(http.MethodGet, "/v1/assets", nil, &page)
	if n != 0 || len(page.Assets) != 0 {
		t.Errorf("%d objects stored and %d assets listed after refused uploads", n, len(page.Assets))
	}
	// The server still takes a good file on the same client.
	if status, code, msg := c.upload("brand.ttf", goregular.TTF); status != http.StatusCreated {
		t.Errorf("a good font after the attacks: %d %s %s", status, code, msg)
	}
}
