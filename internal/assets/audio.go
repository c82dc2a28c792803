package assets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/bwrap"
)

// Prober reads audio files with ffprobe (Debian's ffmpeg): the one reader that knows
// every accepted container and codec, and that the renderer will use on the same file.
// ffprobe is C code reading hostile input, so it runs as a separate process with a
// deadline, its demuxer forced to the sniffed format (no probing: a playlist or
// concat list renamed .mp3 is not opened as one), only the file protocol, and, when
// Bwrap is set, inside bubblewrap with no network and nothing but the file visible.
type Prober struct {
	FFprobe string        // the binary; "" means ffprobe on PATH
	Timeout time.Duration // 0 means 20 seconds
	// Bwrap is the bubblewrap binary to confine ffprobe with ("" runs it directly).
	Bwrap string
	// MemoryBytes caps ffprobe's address space through prlimit when it is found;
	// 0 means 1 GiB.
	MemoryBytes int64
}

// demuxers is the ffprobe demuxer forced for each sniffed format, and the format
// names ffprobe must report back.
var demuxers = map[string]struct {
	force  string
	codecs []string // accepted audio codecs; a prefix ending in _ matches a family
}{
	"mp3": {"mp3", []string{"mp3"}},
	"aac": {"aac", []string{"aac"}},
	"m4a": {"mov", []string{"aac", "alac", "mp3"}},
	"wav": {"wav", []string{"pcm_"}},
	"ogg": {"ogg", []string{"vorbis", "opus", "flac"}},
}

type probeResult struct {
	Streams []struct {
		CodecType   string            `json:"codec_type"`
		CodecName   string            `json:"codec_name"`
		Disposition map[string]int    `json:"disposition"`
		Tags        map[string]string `json:"tags"`
	} `json:"streams"`
	Format struct {
		FormatName string `json:"format_name"`
		Duration   string `json:"duration"`
	} `json:"format"`
}

// ffLogPrefix is the "[mp3 @ 0x55d…] " ffmpeg puts before its messages.
var ffLogPrefix = regexp.MustCompile(`\[[\w.-]+ @ 0x[0-9a-f]+\] *`)

// maxProbeOutput bounds what ffprobe may print: a file with thousands of streams
// must not fill the API's memory through its description.
const maxProbeOutput = 1 << 20

// probe runs ffprobe on path, read as format, and returns its codec and duration.
func (p *Prober) probe(ctx context.Context, format, path string, maxLength time.Duration) (codec string, seconds float64, err error) {
	d, ok := demuxers[format]
	if !ok {
		return "", 0, fmt.Errorf("probe: no demuxer for %q", format)
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	bin := p.FFprobe
	if bin == "" {
		bin = "ffprobe"
	}
	input := path
	var argv []string
	if p.Bwrap != "" {
		// The file is the only thing of the host's the process sees, read-only.
		input = "/in/audio"
		// Args ends with "--"; ffprobe's own argv follows.
		argv = append([]string{p.Bwrap}, bwrap.Policy{Hostname: "probe",
			Mounts: []string{"--ro-bind", path, input,
				// Debian resolves some of ffmpeg's libraries (libblas) through
				// alternatives symlinks that leave /usr.
				"--ro-bind-try", "/etc/alternatives", "/etc/alternatives",
				"--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"}}.Args()...)
	}
	argv = append(argv, bin, "-v", "error", "-hide_banner",
		"-protocol_whitelist", "file", "-f", d.force,
		"-print_format", "json", "-show_format", "-show_streams", "file:"+input)
	if lim, err := exec.LookPath("prlimit"); err == nil {
		mem := p.MemoryBytes
		if mem <= 0 {
			mem = 1 << 30
		}
		argv = append([]string{lim, "--as=" + strconv.FormatInt(mem, 10), "--cpu=" + strconv.Itoa(int(timeout.Seconds())+1), "--"}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	out := &capped{max: maxProbeOutput}
	var stderr capped
	stderr.max = 4096
	cmd.Stdout, cmd.Stderr = out, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		return "", 0, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetMalformed,
			"the audio file took longer than %s to read; it is refused", timeout)
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return "", 0, fmt.Errorf("run ffprobe: %w", err)
		}
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		// ffprobe names the path it was given and its own addresses; the client
		// knows only its file.
		msg = strings.ReplaceAll(msg, "file:"+input, "the file")
		msg = ffLogPrefix.ReplaceAllString(msg, "")
		return "", 0, malformed("the file starts like %s audio but ffprobe cannot read it: %s", strings.ToUpper(format), msg)
	}
	if out.over {
		return "", 0, malformed("the audio file describes more streams than are read")
	}
	var res probeResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return "", 0, fmt.Errorf("read ffprobe output: %w", err)
	}
	audio := 0
	for _, s := range res.Streams {
		switch s.CodecType {
		case "audio":
			audio++
			if codec == "" {
				codec = s.CodecName
			}
		case "video":
			if s.Disposition["attached_pic"] == 1 {
				continue // cover art inside MP3 and M4A files
			}
			return "", 0, malformed("the file holds a video stream (%s); upload audio only", s.CodecName)
		}
	}
	if audio == 0 {
		return "", 0, malformed("the file has no audio stream")
	}
	accepted := false
	for _, c := range d.codecs {
		accepted = accepted || codec == c || strings.HasSuffix(c, "_") && strings.HasPrefix(codec, c)
	}
	if !accepted {
		return "", 0, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetUnsupportedType,
			"the %s file's audio is %s; %s files are accepted with %s", strings.ToUpper(format), codec,
			strings.ToUpper(format), strings.Join(d.codecs, ", "))
	}
	seconds, err = strconv.ParseFloat(res.Format.Duration, 64)
	if err != nil || seconds <= 0 {
		return "", 0, malformed("the audio file's duration cannot be read")
	}
	if seconds > maxLength.Seconds() {
		return "", 0, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAssetTooLong,
			"the audio lasts %s; audio may last at most %s", fmtDuration(seconds), maxLength)
	}
	return codec, seconds, nil
}

func fmtDuration(s float64) string {
	return (time.Duration(s * float64(time.Second))).Round(time.Second).String()
}

// capped is a buffer that keeps at most max bytes and notes that more came.
type capped struct {
	bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); len(p) > room {
		c.over = true
		if room > 0 {
			c.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return c.Buffer.Write(p)
}
