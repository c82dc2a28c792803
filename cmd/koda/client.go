package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/kodahq/koda/api"
)

// apiClient talks to a running Koda server through its public API, as a tenant would.
// It decodes into the api package's own request and view types, so the client cannot
// drift from what the server encodes.
type apiClient struct {
	base *url.URL
	key  string
	http *http.Client
}

// clientFlags are the flags of every command that talks to a server. The API key is
// the root's --api-key (KODA_API_KEY): the server and its clients read one variable.
func clientFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "url", Usage: "the Koda server, e.g. http://127.0.0.1:8080", Sources: cli.EnvVars("KODA_URL")},
		&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "download the finished videos into this folder (implies --wait)"},
		&cli.BoolFlag{Name: "wait", Usage: "follow progress until every video is done"},
		&cli.StringFlag{Name: "presets", Usage: "comma-separated presets, e.g. youtube,tiktok (GET /v1/presets lists them)"},
		// Tests poll faster than people need to.
		&cli.DurationFlag{Name: "poll", Value: time.Second, Usage: "how often to ask the server for progress", Hidden: true},
	}
}

// newAPIClient reads the server and key from the command line or the environment.
func newAPIClient(cmd *cli.Command) (*apiClient, error) {
	raw := strings.TrimSpace(cmd.String("url"))
	if raw == "" {
		return nil, errors.New("no server given: set KODA_URL (e.g. http://127.0.0.1:8080) or pass --url")
	}
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("KODA_URL %q is not an http(s) URL such as http://127.0.0.1:8080", raw)
	}
	key := strings.TrimSpace(cmd.String("api-key"))
	if key == "" {
		return nil, errors.New("no API key given: set KODA_API_KEY or pass --api-key (koda serve prints one and keeps it in <data-dir>/api_key)")
	}
	// No overall timeout: downloads of large videos take as long as they take; every
	// request carries the command's context, which Ctrl-C cancels.
	return &apiClient{base: u, key: key, http: &http.Client{}}, nil
}

// serverError is the server's {"error":{"code","message"}} answer to one request.
type serverError struct {
	Status int
	api.ErrorDetail
}

func (e *serverError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("the server answered %d %s", e.Status, http.StatusText(e.Status))
	}
	s := e.Code + ": " + e.Message
	if e.Phase != "" {
		s += " (the project is in phase " + e.Phase + ")"
	}
	return s
}

// retryable reports whether a failed poll may succeed if asked again: the server was
// unreachable, restarting or busy. Anything else (a revoked key, a deleted batch) will
// not change by waiting.
func retryable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var se *serverError
	if errors.As(err, &se) {
		return se.Status == http.StatusTooManyRequests || se.Status == http.StatusBadGateway ||
			se.Status == http.StatusServiceUnavailable || se.Status == http.StatusGatewayTimeout
	}
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ne) || errors.As(err, &oe) || errors.Is(err, io.ErrUnexpectedEOF)
}

// maxAnswer bounds a JSON answer: the largest is a batch of many rows with their renders.
const maxAnswer = 64 << 20

// do sends body (JSON-encoded unless it is already a *bytes.Buffer with contentType)
// and decodes a 2xx answer into out.
func (c *apiClient) do(ctx context.Context, method, path string, body any, contentType string, out any) error {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case *bytes.Buffer:
		rd = b
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			return err
		}
		rd, contentType = bytes.NewReader(raw), "application/json"
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, rd)
	if err != nil {
		return err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		se := &serverError{Status: resp.StatusCode}
		var eb api.ErrorBody
		if json.Unmarshal(raw, &eb) == nil {
			se.ErrorDetail = eb.Error
		}
		return se
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: the answer is not the JSON expected: %v", method, path, err)
	}
	return nil
}

// failed explains why a request that creates something failed: the server refused it
// (its code and message), could not be reached, or Ctrl-C stopped the command first.
func (c *apiClient) failed(ctx context.Context, cmd, what string, err error) error {
	var se *serverError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("%s: the server refused the %s: %w", cmd, what, err)
	case ctx.Err() != nil:
		return fmt.Errorf("%s: stopped before the server answered; the %s may have been made", cmd, what)
	default:
		return fmt.Errorf("%s: cannot reach the server at %s: %w", cmd, c.base, err)
	}
}

// retrying calls get until it succeeds, riding out a server that restarts or sheds load for
// up to patience; note is told once about the first failure.
func retrying(ctx context.Context, patience time.Duration, note func(error), get func() error) error {
	var since time.Time
	for {
		err := get()
		if err == nil || !retryable(err) {
			return err
		}
		if since.IsZero() {
			since = time.Now()
			note(err)
		} else if time.Since(since) > patience {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// fileURL resolves a link from the server (signed /files/… links are absolute, but a
// server behind a proxy may answer with a path).
func (c *apiClient) fileURL(link string) (string, error) {
	u, err := url.Parse(link)
	if err != nil {
		return "", fmt.Errorf("the server gave a bad link %q", link)
	}
	u = c.base.ResolveReference(u)
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("the server gave a link that is not http(s): %q", link)
	}
	return u.String(), nil
}

// download writes the file at link to dir/name, returning its size. want is the size
// the server recorded (0 when it did not say). The bytes go to a hidden temporary file
// beside the target, renamed only once complete and of the right size, so an
// interrupted or short download never leaves a file that looks finished. File links
// are signed, so no API key is sent: it must not reach a storage bucket.
func (c *apiClient) download(ctx context.Context, link, dir, name string, want int64) (int64, error) {
	u, err := c.fileURL(link)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("download %s: the server answered %s", name, resp.Status)
	}
	if want > 0 && resp.ContentLength >= 0 && resp.ContentLength != want {
		return 0, fmt.Errorf("download %s: the server sends %d bytes but recorded %d", name, resp.ContentLength, want)
	}
	if want <= 0 {
		want = resp.ContentLength
	}
	tmp, err := os.CreateTemp(dir, "."+name+".*.part")
	if err != nil {
		return 0, err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	n, err := io.Copy(tmp, resp.Body)
	if err != nil {
		return n, fmt.Errorf("download %s: %w after %d bytes", name, err, n)
	}
	if want >= 0 && n != want {
		return n, fmt.Errorf("download %s: got %d bytes of %d", name, n, want)
	}
	if err := tmp.Sync(); err != nil {
		return n, err
	}
	if err := tmp.Close(); err != nil {
		return n, err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		os.Remove(tmp.Name())
		return n, err
	}
	done = true
	return n, nil
}

// presetList turns "youtube, tiktok" into the request's preset names; the server
// checks them, so an unknown one is refused with its own code and message.
func presetList(s string) []json.RawMessage {
	var out []json.RawMessage
	for _, name := range strings.Split(s, ",") {
		if name = strings.TrimSpace(name); name != "" {
			b, _ := json.Marshal(name)
			out = append(out, b)
		}
	}
	return out
}

// safeName keeps a server-given id or preset label to letters, digits and ._@-, so a
// file name can never climb out of the output folder.
func safeName(s string) string {
	b := []byte(s)
	for i, ch := range b {
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '.' || ch == '_' || ch == '@' || ch == '-') {
			b[i] = '-'
		}
	}
	out := strings.TrimLeft(string(b), ".")
	if out == "" {
		out = "video"
	}
	return out
}

// outputDir makes the download folder before any request, so a typo fails fast.
func outputDir(cmd *cli.Command) (string, error) {
	dir := cmd.String("output")
	if dir == "" {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("output folder: %w", err)
	}
	return dir, nil
}
