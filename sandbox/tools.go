package sandbox

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kodahq/koda"
)

// Tool names of the sandbox tool API (DESIGN.md §3.7, the companion Agent Tool API).
const (
	ToolWriteFile   = "write_file"
	ToolReadFile    = "read_file"
	ToolListFiles   = "list_files"
	ToolReplace     = "replace"
	ToolSearch      = "search_file_content"
	ToolGlob        = "glob"
	ToolRunCommand  = "run_command"
	ToolStopCommand = "stop_command"
	ToolTransfer    = "transfer"
)

// Tools lists the tools Call accepts.
var Tools = []string{ToolWriteFile, ToolReadFile, ToolListFiles, ToolReplace, ToolSearch, ToolGlob,
	ToolRunCommand, ToolStopCommand, ToolTransfer}

// CodeUnknownTool answers a tool name that does not exist.
const CodeUnknownTool = "UNKNOWN_TOOL"

// maxTransferBytes caps what one JSON transfer carries out (base64 inflates it by a
// third); transfers in are bounded by the API's request body limit.
const maxTransferBytes = 16 << 20

// maxOutputFiles caps the bytes of all output files one run_command returns.
const maxOutputFiles = MaxReadBytes

// CreateFor makes (or, for a project and name it already has, returns) a sandbox for an
// API caller. Its checkpoints live under the tenant's own storage folder, so a project
// ID chosen by one tenant can never reach another tenant's or Koda's own project files.
func (p *Pool) CreateFor(ctx context.Context, tenant, projectID, name string) (Info, error) {
	if len(projectID) > 100 || len(name) > 100 || !safeKey.MatchString(projectID) || !safeKey.MatchString(name) {
		return Info{}, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest,
			"project_id and name must be at most 100 letters, digits, '-', '_' or '.'")
	}
	prefix := ""
	if projectID != "" {
		prefix = koda.TenantSandboxFolder(tenant, projectID)
	}
	sb, _, err := p.getOrCreate(ctx, koda.SandboxSpec{TenantID: tenant, ProjectID: projectID, Name: name}, prefix, projectID != "", true, false)
	if err != nil {
		return Info{}, err
	}
	return p.Info(ctx, tenant, sb.ID())
}

var safeKey = regexp.MustCompile(`^[A-Za-z0-9._-]*$`)

// Call runs one tool on the tenant's sandbox with JSON input and returns a value to
// encode as the JSON answer. out, when set, receives run_command's output as it comes.
func (p *Pool) Call(ctx context.Context, tenant, id, tool string, input []byte, out OutputFunc) (any, error) {
	e, err := p.entry(ctx, tenant, id)
	if err != nil {
		return nil, err
	}
	release := p.Acquire(id)
	defer release()
	if out != nil {
		ctx = WithOutput(ctx, out)
	}
	return CallTool(ctx, e.sb, tool, input)
}

// FileResult answers write_file, read_file and single-file transfers.
type FileResult struct {
	Path      string `json:"path"`
	Content   string `json:"content,omitempty"`
	Encoding  string `json:"encoding,omitempty"`
	SizeBytes int64  `json:"size_bytes"`
}

// CommandResult answers run_command; Files holds the output bindings read after it.
type CommandResult struct {
	koda.CommandResult
	Files      map[string]any `json:"files,omitempty"`
	DurationMS int64          `json:"duration_ms"`
}

type toolInput struct {
	Path                 string                     `json:"path"`
	Content              *string                    `json:"content"`
	Encoding             string                     `json:"encoding"`
	Append               bool                       `json:"append"`
	Offset               int64                      `json:"offset"`
	Limit                int64                      `json:"limit"`
	Recursive            bool                       `json:"recursive"`
	OldString            string                     `json:"old_string"`
	NewString            string                     `json:"new_string"`
	ExpectedReplacements int                        `json:"expected_replacements"`
	Pattern              string                     `json:"pattern"`
	Include              string                     `json:"include"`
	Command              string                     `json:"command"`
	Background           bool                       `json:"background"`
	TimeoutMS            int64                      `json:"timeout_ms"`
	WorkingDir           string                     `json:"working_dir"`
	Files                map[string]json.RawMessage `json:"files"`
	PID                  int                        `json:"pid"`
	Direction            string                     `json:"direction"` // transfer: "in" or "out"
}

// CallTool runs one tool on sb. Inputs and outputs use DESIGN.md §3.7's field names.
func CallTool(ctx context.Context, sb koda.Sandbox, tool string, input []byte) (any, error) {
	var in toolInput
	if len(bytes.TrimSpace(input)) > 0 {
		dec := json.NewDecoder(bytes.NewReader(input))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "%s input: %v", tool, err)
		}
	}
	switch tool {
	case ToolWriteFile:
		if in.Content == nil {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "write_file needs content")
		}
		data, err := decode(*in.Content, in.Encoding)
		if err != nil {
			return nil, err
		}
		n, err := sb.WriteFile(ctx, in.Path, data, in.Append)
		if err != nil {
			return nil, err
		}
		return FileResult{Path: in.Path, SizeBytes: n}, nil
	case ToolReadFile:
		data, err := sb.ReadFile(ctx, in.Path, in.Offset, in.Limit)
		if err != nil {
			return nil, err
		}
		return fileResult(in.Path, data, in.Encoding)
	case ToolListFiles:
		files, err := sb.ListFiles(ctx, in.Path, in.Recursive)
		if err != nil {
			return nil, err
		}
		return map[string]any{"files": files}, nil
	case ToolReplace:
		n, err := sb.Replace(ctx, in.Path, in.OldString, in.NewString, in.ExpectedReplacements)
		if err != nil {
			return nil, err
		}
		return map[string]any{"path": in.Path, "replacements": n}, nil
	case ToolSearch:
		m, err := sb.SearchFiles(ctx, in.Pattern, in.Include)
		if err != nil {
			return nil, err
		}
		return map[string]any{"matches": m}, nil
	case ToolGlob:
		files, err := sb.Glob(ctx, in.Pattern)
		if err != nil {
			return nil, err
		}
		return map[string]any{"files": files}, nil
	case ToolRunCommand:
		return runWithBindings(ctx, sb, in)
	case ToolStopCommand:
		st, ok := sb.(BackgroundStopper)
		if !ok {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "this sandbox cannot stop single commands")
		}
		if err := st.StopBackground(in.PID); err != nil {
			return nil, err
		}
		return map[string]any{"pid": in.PID, "stopped": true}, nil
	case ToolTransfer:
		return transfer(ctx, sb, in)
	}
	return nil, koda.Errorf(koda.ENOTFOUND, CodeUnknownTool, "no tool %q (tools: %s)", tool, strings.Join(Tools, ", "))
}

func decode(content, encoding string) ([]byte, error) {
	switch encoding {
	case "", "utf8":
		return []byte(content), nil
	case "base64":
		b, err := base64.StdEncoding.DecodeString(content)
		if err != nil {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "content is not valid base64: %v", err)
		}
		return b, nil
	}
	return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "encoding must be utf8 or base64, not %q", encoding)
}

// fileResult encodes data as asked; text that is not UTF-8, or holds NUL bytes, comes
// back as base64 unless utf8 is asked for.
func fileResult(path string, data []byte, encoding string) (FileResult, error) {
	r := FileResult{Path: path, SizeBytes: int64(len(data))}
	switch {
	case encoding == "base64" || (encoding == "" && (!utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0)):
		// NUL bytes too: valid UTF-8, but JSON spells each as six bytes (\u0000).
		r.Encoding, r.Content = "base64", base64.StdEncoding.EncodeToString(data)
	case encoding == "" || encoding == "utf8":
		if !utf8.Valid(data) {
			return r, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeInvalidRequest, "%q is not UTF-8 text; read it with encoding base64", path)
		}
		r.Encoding, r.Content = "utf8", string(data)
	default:
		return r, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "encoding must be utf8 or base64, not %q", encoding)
	}
	return r, nil
}

// runWithBindings writes the input bindings, runs the command, and reads the output
// bindings (the companion plan's file bindings): in files, a value "text" or "json"
// names an output read after the command; any other string is written before it; any
// other JSON value is written as JSON.
func runWithBindings(ctx context.Context, sb koda.Sandbox, in toolInput) (*CommandResult, error) {
	var outputs []string
	kinds := map[string]string{}
	for _, path := range sortedKeys(in.Files) {
		raw := in.Files[path]
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			if s == "text" || s == "json" {
				outputs = append(outputs, path)
				kinds[path] = s
				continue
			}
			if _, err := sb.WriteFile(ctx, path, []byte(s), false); err != nil {
				return nil, err
			}
			continue
		}
		if _, err := sb.WriteFile(ctx, path, raw, false); err != nil {
			return nil, err
		}
	}
	if in.Background && len(outputs) > 0 {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "a background command has no output files to read")
	}
	began := time.Now()
	res, err := sb.RunCommand(ctx, koda.CommandRequest{Command: in.Command, WorkingDir: in.WorkingDir,
		Background: in.Background, TimeoutMS: in.TimeoutMS})
	if err != nil {
		return nil, err
	}
	out := &CommandResult{CommandResult: *res, DurationMS: time.Since(began).Milliseconds()}
	if len(outputs) > 0 {
		out.Files = map[string]any{}
		var total int64
		for _, path := range outputs {
			data, err := sb.ReadFile(ctx, path, 0, 0)
			if err == nil {
				if total += int64(len(data)); total > maxOutputFiles {
					return nil, TooLarge(path, int64(len(data)), maxOutputFiles, "output files return at most that much together")
				}
			}
			if koda.ErrorCode(err) == koda.CodeFileNotFound {
				out.Files[path] = nil // the command did not write it
				continue
			}
			if err != nil {
				return nil, err
			}
			if kinds[path] == "json" {
				var v any
				if err := json.Unmarshal(data, &v); err != nil {
					return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeInvalidRequest, "output %q is not valid JSON: %v", path, err)
				}
				out.Files[path] = v
				continue
			}
			out.Files[path] = string(data)
		}
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// transfer moves one file (base64) or, with recursive, a folder as a base64 tar.gz,
// into ("in") or out of ("out") the sandbox.
func transfer(ctx context.Context, sb koda.Sandbox, in toolInput) (*FileResult, error) {
	switch in.Direction {
	case "in", "out":
	default:
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, `transfer direction must be "in" or "out"`)
	}
	if !in.Recursive {
		if in.Direction == "out" {
			data, err := readWhole(ctx, sb, in.Path, maxTransferBytes)
			if err != nil {
				return nil, err
			}
			r, err := fileResult(in.Path, data, "base64")
			return &r, err
		}
		if in.Content == nil {
			return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "transfer in needs content")
		}
		data, err := decode(*in.Content, cmpOr(in.Encoding, "base64"))
		if err != nil {
			return nil, err
		}
		n, err := sb.WriteFile(ctx, in.Path, data, false)
		if err != nil {
			return nil, err
		}
		return &FileResult{Path: in.Path, SizeBytes: n}, nil
	}
	ex, ok := sb.(Exporter)
	if !ok {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "this sandbox cannot transfer folders")
	}
	if in.Direction == "out" {
		var buf bytes.Buffer
		w := &limitWriter{w: &buf, n: maxTransferBytes}
		if err := ex.Export(ctx, in.Path, w); err != nil {
			if errors.Is(err, errTooBig) {
				return nil, koda.Errorf(koda.EUNPROCESSABLE, koda.CodeFileTooLarge, "%q is over the %d MiB a transfer carries", in.Path, maxTransferBytes>>20)
			}
			return nil, err
		}
		return &FileResult{Path: in.Path, Encoding: "base64", SizeBytes: int64(buf.Len()),
			Content: base64.StdEncoding.EncodeToString(buf.Bytes())}, nil
	}
	if in.Content == nil {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "transfer in needs content (a base64 tar.gz)")
	}
	data, err := decode(*in.Content, "base64")
	if err != nil {
		return nil, err
	}
	if err := ex.Import(ctx, in.Path, bytes.NewReader(data)); err != nil {
		var ke *koda.Error
		if errors.As(err, &ke) || ctx.Err() != nil {
			return nil, err
		}
		// The cause names the sandbox's folder on the host: it goes to logs only.
		e := koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest,
			"content is not a valid tar.gz, or a path in it clashes with the sandbox's files")
		e.Err = err
		return nil, e
	}
	return &FileResult{Path: in.Path, SizeBytes: int64(len(data))}, nil
}

// readWhole reads one file of at most max bytes in MaxReadBytes pieces. Its size is
// looked up first, so a larger file (a sparse one of any size) is refused before a
// byte of it is read.
func readWhole(ctx context.Context, sb koda.Sandbox, p string, max int64) ([]byte, error) {
	infos, err := sb.ListFiles(ctx, p, false)
	if err != nil {
		return nil, err
	}
	if len(infos) != 1 || infos[0].IsDir {
		return nil, koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "%q is not a file; transfer a folder with recursive", p)
	}
	if size := infos[0].SizeBytes; size > max {
		return nil, TooLarge(p, size, max, "a transfer carries no more")
	}
	var out []byte
	for {
		chunk, err := sb.ReadFile(ctx, p, int64(len(out)), MaxReadBytes)
		if err != nil {
			return nil, err
		}
		out = append(out, chunk...)
		if int64(len(out)) > max {
			return nil, TooLarge(p, int64(len(out)), max, "a transfer carries no more")
		}
		if len(chunk) < MaxReadBytes {
			return out, nil
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

var errTooBig = fmt.Errorf("transfer too big")

type limitWriter struct {
	w io.Writer
	n int64
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > l.n {
		return 0, errTooBig
	}
	l.n -= int64(len(p))
	return l.w.Write(p)
}
