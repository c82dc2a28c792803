package renderer

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// A canvas page sends its frames as raw BGRX pixels over a websocket to the render's
// page server instead of answering a DevTools call with a base64 JPEG. Encoding that
// JPEG in the page, base64 on both sides and decoding it again in ffmpeg cost more CPU
// than moving 8 MB of pixels over loopback (1080p canvas on the 2-core machine: 59 ms
// of browser CPU per frame with toDataURL, 36 ms with VideoFrame.copyTo and a socket),
// and ffmpeg encodes raw pixels for less than it spends decoding JPEGs. The socket is
// the page server's, so a sandboxed browser reaches it through its forwarded port.

// sinkPrefix is the path under which the page server accepts frame sockets. A project
// cannot shadow it: the server answers it before looking at files.
const sinkPrefix = "/__koda/frames/"

// frameSink hands the frame sockets tabs open to the tabs that expect them. The path
// carries a random token, so no other page or local process can feed a render frames.
type frameSink struct {
	token string

	mu      sync.Mutex
	waiting map[string]chan net.Conn
	next    int
}

func newFrameSink() *frameSink {
	tok := make([]byte, 16)
	_, _ = rand.Read(tok)
	return &frameSink{token: hex.EncodeToString(tok), waiting: make(map[string]chan net.Conn)}
}

// expect registers a new socket path and returns it with the channel its connection
// arrives on; forget unregisters it and closes a connection nobody took, which the
// page server (hijacked connections are not its own) would never close.
func (s *frameSink) expect() (path string, conns <-chan net.Conn, forget func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	id := strconv.Itoa(s.next)
	ch := make(chan net.Conn, 1)
	s.waiting[id] = ch
	return sinkPrefix + s.token + "/" + id, ch, func() {
		s.mu.Lock()
		delete(s.waiting, id)
		s.mu.Unlock()
		select {
		case c := <-ch:
			_ = c.Close()
		default:
		}
	}
}

// ServeHTTP upgrades a tab's request for a path from expect; each path is taken once.
func (s *frameSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, _ := strings.CutPrefix(r.URL.Path, sinkPrefix)
	tok, id, _ := strings.Cut(rest, "/")
	s.mu.Lock()
	ch, ok := s.waiting[id]
	if ok && tok == s.token {
		delete(s.waiting, id)
	}
	s.mu.Unlock()
	if !ok || tok != s.token {
		http.NotFound(w, r)
		return
	}
	conn, _, _, err := ws.UpgradeHTTP(r, w)
	if err != nil {
		return
	}
	ch <- conn // buffered: the tab may have given up already, and closes it with forget
}

// frameConn reads one tab's frames, one binary message each.
type frameConn struct {
	c  net.Conn
	rd *wsutil.Reader
}

// frameHeaderBuf buffers the socket for the frame headers: Chrome sends a frame's
// message in fragments of 128 KB, whose headers read unbuffered cost two system calls
// each (130 of a 1080p frame's 200). Payload reads larger than it bypass it.
const frameHeaderBuf = 512

func newFrameConn(c net.Conn) *frameConn {
	return &frameConn{c: c, rd: &wsutil.Reader{Source: bufio.NewReaderSize(c, frameHeaderBuf), State: ws.StateServerSide}}
}

// read reads the next message into buf, which it must fill exactly.
func (fc *frameConn) read(buf []byte, deadline time.Time) error {
	if err := fc.c.SetReadDeadline(deadline); err != nil {
		return err
	}
	for {
		hdr, err := fc.rd.NextFrame()
		if err != nil {
			return fmt.Errorf("frame socket: %w", peerGone(err))
		}
		switch {
		case hdr.OpCode == ws.OpClose:
			return errors.New("frame socket: page closed it")
		case hdr.OpCode.IsControl():
			if err := fc.rd.Discard(); err != nil {
				return fmt.Errorf("frame socket: %w", err)
			}
			continue
		case hdr.OpCode != ws.OpBinary:
			_ = fc.rd.Discard()
			return fmt.Errorf("frame socket: unexpected %v message", hdr.OpCode)
		}
		if _, err := io.ReadFull(fc.rd, buf); err != nil {
			return fmt.Errorf("frame socket: short frame: %w", peerGone(err))
		}
		// The message must end here: anything more is not a frame of this size.
		var one [1]byte
		if n, _ := fc.rd.Read(one[:]); n != 0 {
			_ = fc.rd.Discard()
			return fmt.Errorf("frame socket: frame larger than %d bytes", len(buf))
		}
		return nil
	}
}

// peerGone marks a socket that ended without a close message as a dead tab: only a
// browser that died (or was killed) drops it that way, and the worker checking
// b.alive() can run before the kernel has reaped it, so the error itself must say so.
func peerGone(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
		return fmt.Errorf("%w: %w", errTabGone, err)
	}
	return err
}

func (fc *frameConn) close() { _ = fc.c.Close() }

// pixelPool recycles frame buffers: a fresh 8 MB buffer per frame costs thousands of
// page faults, which on a virtual machine are dear.
type pixelPool struct {
	size int
	free chan []byte
}

func newPixelPool(size, keep int) *pixelPool {
	return &pixelPool{size: size, free: make(chan []byte, keep)}
}

func (p *pixelPool) get() []byte {
	select {
	case b := <-p.free:
		return b
	default:
		return make([]byte, p.size)
	}
}

func (p *pixelPool) put(b []byte) {
	if len(b) != p.size {
		return
	}
	select {
	case p.free <- b:
	default:
	}
}

// bgrxImage turns w×h BGRX pixels into an image, for the probe and the thumbnail.
func bgrxImage(pix []byte, w, h int) (*image.RGBA, error) {
	if len(pix) != w*h*4 {
		return nil, fmt.Errorf("raw frame has %d bytes, not %d×%d×4", len(pix), w, h)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	out := img.Pix
	for i := 0; i < len(pix); i += 4 {
		out[i], out[i+1], out[i+2], out[i+3] = pix[i+2], pix[i+1], pix[i], 0xff
	}
	return img, nil
}
