package renderer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	ffmpeg "github.com/u2takey/ffmpeg-go"
	"golang.org/x/sys/unix"

	"github.com/kodahq/koda"
)

type encodeOptions struct {
	preset koda.PresetSpec
	frames int
	out    string
	raw    bool // frames are width×height BGRX pixels, not JPEGs
	// derived, when set, are the videos made from the frames instead of out (derive.go).
	derived []derivedOutput
}

// rawPipeSize is the pipe buffer asked for raw frames: Linux's default limit for
// unprivileged processes (fs.pipe-max-size).
const rawPipeSize = 1 << 20

// encoder is one ffmpeg process reading frames (JPEGs or raw pixels) on stdin and
// writing a temporary file that finish renames to the output path.
type encoder struct {
	cmd   *exec.Cmd
	stdin *os.File
	raw   bool // reads raw BGRX frames, not JPEGs
	// With raw frames, ffmpeg reads them straight from our buffers (writeRaw): fd is
	// the pipe's, cap how many bytes it holds at most, held the frames whose pages it
	// may still hold.
	fd     int
	splice bool
	cap    int
	held   []heldFrame
	stderr *tailBuffer
	files  []outFile
	sizes  []int64 // of each file, once finished
	done   chan struct{}
	err    error
	once   sync.Once
}

// outFile is a video ffmpeg writes to tmp, moved to out once it finished well.
type outFile struct{ tmp, out string }

// encoderArgs builds ffmpeg's arguments with ffmpeg-go. Every output starts with a
// keyframe (x264 and libvpx always open with one), so frame-range chunks can later be
// joined with -c copy.
func encoderArgs(o encodeOptions, tmp string) []string {
	out := outputKwArgs(o.preset, o.frames)
	args := inputStream(o).Output(tmp, out).OverWriteOutput().GetArgs()
	return append([]string{"-hide_banner", "-loglevel", "error", "-nostats"}, args...)
}

// inputStream is ffmpeg's input: the captured frames on stdin.
func inputStream(o encodeOptions) *ffmpeg.Stream {
	fps := strconv.Itoa(o.preset.FPS)
	if o.raw {
		return ffmpeg.Input("pipe:0", ffmpeg.KwArgs{"f": "rawvideo", "pix_fmt": "bgr0",
			"s": fmt.Sprintf("%dx%d", o.preset.Width, o.preset.Height), "framerate": fps})
	}
	// Without a small probe, ffmpeg buffers up to 5 MB of input before it encodes
	// anything: all of a short preview's frames, which then wait to be encoded until
	// the last one arrived. The codec and rate are given, so one frame says the rest.
	return ffmpeg.Input("pipe:0", ffmpeg.KwArgs{"f": "image2pipe", "c:v": "mjpeg", "framerate": fps,
		"probesize": "32", "analyzeduration": "0"})
}

// outputKwArgs are the encoder's options for a video of frames frames at p: the one
// definition of what a preset's file is, whether its frames were captured for it or
// derived from a larger capture.
func outputKwArgs(p koda.PresetSpec, frames int) ffmpeg.KwArgs {
	fps := strconv.Itoa(p.FPS)
	out := ffmpeg.KwArgs{
		"frames:v": strconv.Itoa(frames),
		"pix_fmt":  "yuv420p",
		"crf":      strconv.Itoa(p.CRF),
		"r":        fps,
	}
	switch p.Format {
	case koda.FormatWebM:
		out["f"] = "webm"
		out["c:v"] = "libvpx-vp9"
		out["b:v"] = "0"
		out["deadline"] = "realtime"
		out["cpu-used"] = "8"
		out["row-mt"] = "1"
	default:
		out["f"] = "mp4"
		out["c:v"] = "libx264"
		out["preset"] = p.EncoderSpeed
		out["threads"] = strconv.Itoa(x264Threads())
		out["movflags"] = "+faststart"
		// JPEG frames decode as full-range yuvj420p; players expect limited range. Raw
		// frames convert to limited range anyway; saying so keeps chunks captured
		// either way joinable.
		out["color_range"] = "tv"
	}
	return out
}

// x264Threads is x264's thread count: one per core. Its default, 1.5 per core, suits a
// machine that only encodes; here the browsers capture on the same cores, and the extra
// threads cost synchronisation without adding throughput (1080p60 at veryfast on the
// 2-core machine: 6.1 core-s with the default 3 threads, 5.6 with 2).
func x264Threads() int { return runtime.NumCPU() }

func startEncoder(ctx context.Context, ffmpegPath string, o encodeOptions) (*encoder, error) {
	outs := []string{o.out}
	if len(o.derived) > 0 {
		outs = outs[:0]
		for _, d := range o.derived {
			outs = append(outs, d.out)
		}
	}
	var files []outFile
	removeAll := func() {
		for _, f := range files {
			_ = os.Remove(f.tmp)
		}
	}
	for _, out := range outs {
		ext := filepath.Ext(out)
		f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".part-*"+ext)
		if err != nil {
			removeAll()
			return nil, fmt.Errorf("create temp video: %w", err)
		}
		files = append(files, outFile{tmp: f.Name(), out: out})
		_ = f.Close()
	}
	args := encoderArgs(o, files[0].tmp)
	if len(o.derived) > 0 {
		tmps := make([]string, len(files))
		for i, f := range files {
			tmps[i] = f.tmp
		}
		args = derivedArgs(o, tmps)
	}

	cmd := exec.CommandContext(ctx, ffmpegPath, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 3 * time.Second
	pr, pw, err := os.Pipe()
	if err != nil {
		removeAll()
		return nil, fmt.Errorf("ffmpeg stdin: %w", err)
	}
	e := &encoder{cmd: cmd, stdin: pw, raw: o.raw, stderr: &tailBuffer{max: 4096}, files: files, done: make(chan struct{})}
	if o.raw {
		// A raw 1080p frame is 8 MB: through the default 64 KB pipe that is 128 wake-ups
		// of ffmpeg and of us per frame. A larger pipe (where the system allows it) cuts
		// that eightfold or more. Fd leaves the pipe blocking, as vmsplice wants it.
		e.fd = int(pw.Fd())
		_, _ = unix.FcntlInt(uintptr(e.fd), unix.F_SETPIPE_SZ, rawPipeSize)
		if n, err := unix.FcntlInt(uintptr(e.fd), unix.F_GETPIPE_SZ, 0); err == nil && n > 0 {
			e.cap, e.splice = n, true
		}
	}
	cmd.Stdin = pr
	cmd.Stderr = e.stderr
	err = cmd.Start()
	_ = pr.Close() // ffmpeg holds its own copy
	if err != nil {
		_ = pw.Close()
		removeAll()
		return nil, renderFailed(err, "start ffmpeg %s: %v", ffmpegPath, err)
	}
	go func() {
		e.err = cmd.Wait()
		close(e.done)
	}()
	return e, nil
}

func (e *encoder) write(frame []byte) error {
	if _, err := e.stdin.Write(frame); err != nil {
		return e.writeFailed(err)
	}
	return nil
}

// writeFailed says why a frame could not be written to ffmpeg.
func (e *encoder) writeFailed(err error) error {
	select {
	case <-e.done:
		return ffmpegFailed(e.err, "ffmpeg exited early: %s", e.stderr.String())
	default:
	}
	return fmt.Errorf("write frame to ffmpeg: %w", err)
}

// heldFrame is a frame spliced into ffmpeg's pipe, and how many bytes went in after it.
type heldFrame struct {
	buf   []byte
	after int
}

// writeRaw hands a raw frame to ffmpeg and returns the buffers, this one or earlier
// ones, that may be used again. The frame goes by vmsplice: the pipe takes references
// to its pages, and ffmpeg copies the pixels straight out of them, which saves copying
// 8 MB per 1080p frame into the pipe (a third of what moving a frame costs Koda). So a
// buffer must not change until ffmpeg has read it: the pipe holds at most e.cap bytes,
// so once e.cap bytes more have gone in after a frame, ffmpeg has read all of it.
func (e *encoder) writeRaw(frame []byte) (free [][]byte, err error) {
	n := 0
	if e.splice {
		n, err = vmspliceAll(e.fd, frame)
		if n == 0 && (errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM)) {
			e.splice, err = false, nil // not for this pipe: copy, as before
		}
	}
	if err == nil && n < len(frame) {
		err = e.write(frame[n:])
	} else if err != nil {
		err = e.writeFailed(err)
	}
	k := 0
	for _, h := range e.held {
		if h.after += len(frame); h.after >= e.cap {
			free = append(free, h.buf)
		} else {
			e.held[k] = h
			k++
		}
	}
	clear(e.held[k:])
	e.held = e.held[:k]
	if n > 0 {
		e.held = append(e.held, heldFrame{buf: frame})
	} else {
		free = append(free, frame)
	}
	return free, err
}

// vmspliceAll splices all of b into the pipe fd, which blocks while the pipe is full.
func vmspliceAll(fd int, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		iov := []unix.Iovec{{Base: &b[n]}}
		iov[0].SetLen(len(b) - n)
		m, err := unix.Vmsplice(fd, iov, 0)
		if m > 0 {
			n += m
		}
		if errors.Is(err, unix.EINTR) || err == nil && m > 0 {
			continue
		}
		if err == nil {
			err = io.ErrShortWrite
		}
		return n, err
	}
	return n, nil
}

// finish closes ffmpeg's input, waits for it and moves the files into place; it returns
// their total size, and each one's in e.sizes.
func (e *encoder) finish() (int64, error) {
	_ = e.stdin.Close()
	<-e.done
	removeTmp := func() {
		for _, f := range e.files {
			_ = os.Remove(f.tmp)
		}
	}
	if e.err != nil {
		removeTmp()
		return 0, ffmpegFailed(e.err, "ffmpeg failed: %s", e.stderr.String())
	}
	var total int64
	e.sizes = e.sizes[:0]
	for _, f := range e.files {
		st, err := os.Stat(f.tmp)
		if err != nil {
			removeTmp()
			return 0, fmt.Errorf("stat encoded video: %w", err)
		}
		e.sizes = append(e.sizes, st.Size())
		total += st.Size()
	}
	// All files or none: a file moved into place before a later one failed is removed.
	for k, f := range e.files {
		if err := os.Rename(f.tmp, f.out); err != nil {
			removeTmp()
			for _, done := range e.files[:k] {
				_ = os.Remove(done.out)
			}
			return 0, fmt.Errorf("move encoded video into place: %w", err)
		}
	}
	e.once.Do(func() {}) // abort is now a no-op
	return total, nil
}

// abort kills ffmpeg, waits for it and removes the partial file.
func (e *encoder) abort() {
	e.once.Do(func() {
		_ = e.stdin.Close()
		select {
		case <-e.done:
		case <-time.After(200 * time.Millisecond):
			_ = syscall.Kill(-e.cmd.Process.Pid, syscall.SIGKILL)
			<-e.done
		}
		for _, f := range e.files {
			_ = os.Remove(f.tmp)
		}
	})
}

// tailBuffer keeps the last max bytes written to it, for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// Concat joins video files that share codec parameters (frame-range chunks of one
// render, each opening with a keyframe) into out without re-encoding. H.264 parts go
// through MPEG-TS first: the MP4 edit lists that B-frames bring make the concat demuxer
// misplace frames at the seams, while TS timestamps join exactly.
func Concat(ctx context.Context, ffmpegPath string, parts []string, out string) error {
	if len(parts) == 0 {
		return errors.New("concat: no parts")
	}
	if ffmpegPath == "" {
		ffmpegPath = FindFFmpeg()
	}
	work, err := os.MkdirTemp("", "koda-concat-*")
	if err != nil {
		return fmt.Errorf("concat: %w", err)
	}
	defer os.RemoveAll(work)

	var list strings.Builder
	for k, p := range parts {
		abs, err := filepath.Abs(p)
		if err != nil {
			return fmt.Errorf("concat part %s: %w", p, err)
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".mp4", ".m4v", ".mov":
			ts := filepath.Join(work, fmt.Sprintf("%06d.ts", k))
			args := ffmpeg.Input(abs).Output(ts, ffmpeg.KwArgs{"c": "copy", "bsf:v": "h264_mp4toannexb", "f": "mpegts"}).
				OverWriteOutput().GetArgs()
			if err := runFFmpeg(ctx, ffmpegPath, args); err != nil {
				return fmt.Errorf("concat part %s: %w", p, err)
			}
			abs = ts
		}
		fmt.Fprintf(&list, "file '%s'\n", escapeConcatPath(abs))
	}
	listPath := filepath.Join(work, "list.txt")
	if err := os.WriteFile(listPath, []byte(list.String()), 0o644); err != nil {
		return fmt.Errorf("concat list: %w", err)
	}

	ext := filepath.Ext(out)
	tmpf, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".part-*"+ext)
	if err != nil {
		return fmt.Errorf("concat output: %w", err)
	}
	tmp := tmpf.Name()
	_ = tmpf.Close()
	kw := ffmpeg.KwArgs{"c": "copy"}
	switch strings.ToLower(ext) {
	case ".mp4", ".m4v", ".mov":
		kw["movflags"] = "+faststart"
	}
	args := ffmpeg.Input(listPath, ffmpeg.KwArgs{"f": "concat", "safe": "0"}).Output(tmp, kw).OverWriteOutput().GetArgs()
	if err := runFFmpeg(ctx, ffmpegPath, args); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("concat %d parts: %w", len(parts), err)
	}
	if err := os.Rename(tmp, out); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("concat: %w", err)
	}
	return nil
}

// ffmpegFailed classifies an ffmpeg exit. An exit status is ffmpeg refusing its input
// or options: RENDER_FAILED, which is not retried. Death by a signal (a crash, the OOM
// killer) says nothing about the input: UNAVAILABLE, which the render task retries.
func ffmpegFailed(err error, format string, args ...any) *koda.Error {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return &koda.Error{Kind: koda.EUNAVAILABLE, Code: koda.CodeUnavailable,
				Message: fmt.Sprintf("ffmpeg died of %s; ", ws.Signal()) + fmt.Sprintf(format, args...), Err: err}
		}
	}
	return renderFailed(err, format, args...)
}

// runFFmpeg runs one short ffmpeg command, killed with ctx.
func runFFmpeg(ctx context.Context, ffmpegPath string, args []string) error {
	cmd := exec.CommandContext(ctx, ffmpegPath, append([]string{"-hide_banner", "-loglevel", "error", "-nostdin"}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.WaitDelay = 3 * time.Second
	stderr := &tailBuffer{max: 4096}
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return ffmpegFailed(err, "ffmpeg: %s", strings.TrimSpace(stderr.String()))
	}
	return nil
}

func escapeConcatPath(p string) string {
	out := make([]byte, 0, len(p))
	for i := 0; i < len(p); i++ {
		if p[i] == '\'' {
			out = append(out, []byte(`'\''`)...)
			continue
		}
		out = append(out, p[i])
	}
	return string(out)
}
