package renderer

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kodahq/koda"
)

// Tenant media policy: the one home for how ffmpeg opens a file a tenant supplied
// (a project's soundtrack). ffmpeg runs on the host, and left to itself it picks the
// demuxer from the bytes: an ".mp3" that is really an HLS playlist, an ffconcat list or
// an SDP file names other files or URLs, and ffmpeg reads them — a host path named in
// a playlist was muxed into a tenant's video. So a tenant file is opened only
//
//   - as a regular file reached without a symlink (mediaFile),
//   - when its first bytes are those of the format its extension names (sniff),
//   - with that demuxer forced (-f) and the only one allowed (-format_whitelist), so no
//     playlist, concat, image2 or other nesting demuxer is ever probed,
//   - through the file protocol only (-protocol_whitelist file: no http, tcp, pipe,
//     crypto, subfile, concat protocols),
//   - with MOV/MP4 external data references off (-enable_drefs 0).
type audioFormat struct {
	demuxer string
	sniff   func(head []byte) bool
}

var audioFormats = map[string]audioFormat{
	".mp3":  {"mp3", isMP3},
	".wav":  {"wav", func(h []byte) bool { return len(h) >= 12 && string(h[:4]) == "RIFF" && string(h[8:12]) == "WAVE" }},
	".ogg":  {"ogg", func(h []byte) bool { return bytes.HasPrefix(h, []byte("OggS")) }},
	".opus": {"ogg", func(h []byte) bool { return bytes.HasPrefix(h, []byte("OggS")) }},
	".flac": {"flac", func(h []byte) bool { return bytes.HasPrefix(h, []byte("fLaC")) }},
	".m4a":  {"mov", func(h []byte) bool { return len(h) >= 8 && string(h[4:8]) == "ftyp" }},
	".aac":  {"aac", func(h []byte) bool { return len(h) >= 2 && h[0] == 0xFF && h[1]&0xF6 == 0xF0 }},
}

// isMP3 accepts an ID3 tag or an MPEG audio frame sync.
func isMP3(h []byte) bool {
	return bytes.HasPrefix(h, []byte("ID3")) || len(h) >= 2 && h[0] == 0xFF && h[1]&0xE0 == 0xE0
}

// IsAudioFile reports whether name has the extension of an audio format a project may
// carry as its soundtrack.
func IsAudioFile(name string) bool {
	_, ok := audioFormats[strings.ToLower(filepath.Ext(name))]
	return ok
}

// audioInputArgs returns ffmpeg's arguments that open the tenant audio file at path
// under the policy above, or an INVALID_REQUEST error saying why the file is refused.
func audioInputArgs(path string) ([]string, error) {
	ext := strings.ToLower(filepath.Ext(path))
	af, ok := audioFormats[ext]
	if !ok {
		return nil, mediaRefused(nil, "audio file %s: %q is not an accepted audio format", filepath.Base(path), ext)
	}
	head, err := mediaHead(path, 64)
	if err != nil {
		return nil, mediaRefused(err, "audio file %s is not readable: %v", filepath.Base(path), err)
	}
	if !af.sniff(head) {
		return nil, mediaRefused(nil, "audio file %s does not hold %s audio", filepath.Base(path), strings.TrimPrefix(ext, "."))
	}
	args := []string{"-protocol_whitelist", "file", "-format_whitelist", af.demuxer, "-f", af.demuxer}
	if af.demuxer == "mov" {
		args = append(args, "-enable_drefs", "0")
	}
	return append(args, "-i", "file:"+path), nil
}

func mediaRefused(err error, format string, args ...any) *koda.Error {
	return &koda.Error{Kind: koda.EINVALID, Code: koda.CodeInvalidRequest, Message: fmt.Sprintf(format, args...), Err: err}
}

// mediaHead reads the first n bytes of path, a regular file opened without following
// a symlink and without blocking on a FIFO.
func mediaHead(path string, n int) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	b := make([]byte, n)
	k, err := io.ReadFull(f, b)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, err
	}
	return b[:k], nil
}
