package llm

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/assets"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/sandbox"
)

// obj builds a JSON Schema object with the given properties; required lists names.
func obj(props map[string]any, required ...string) map[string]any {
	return map[string]any{"type": "object", "properties": props, "required": required}
}

func str(desc string) map[string]any  { return map[string]any{"type": "string", "description": desc} }
func num(desc string) map[string]any  { return map[string]any{"type": "number", "description": desc} }
func boolean(d string) map[string]any { return map[string]any{"type": "boolean", "description": d} }

// catalog is the orchestrator's tool catalog (DESIGN.md §3.7 names and fields).
var catalog = []ToolSpec{
	{Name: "write_file", Description: "Write a file into the sandbox (path relative to the project root).",
		Schema: obj(map[string]any{"path": str("relative path"), "content": str("file content"),
			"encoding": map[string]any{"type": "string", "enum": []string{"utf8", "base64"}}, "append": boolean("append instead of replacing")}, "path", "content")},
	{Name: "read_file", Description: "Read a file of the sandbox, optionally a byte range.",
		Schema: obj(map[string]any{"path": str("relative path"), "offset": num("first byte"), "limit": num("bytes to read, 0 for all")}, "path")},
	{Name: "list_files", Description: "List the files under a folder of the sandbox.",
		Schema: obj(map[string]any{"path": str("folder, default the project root"), "recursive": boolean("include subfolders")})},
	{Name: "replace", Description: "Replace old_string by new_string in a file; fails unless exactly expected_replacements (default 1) occurrences exist.",
		Schema: obj(map[string]any{"path": str("relative path"), "old_string": str("exact text to replace"), "new_string": str("replacement"),
			"expected_replacements": num("occurrences expected, default 1")}, "path", "old_string", "new_string")},
	{Name: "search_file_content", Description: "Search the sandbox's files for a regular expression.",
		Schema: obj(map[string]any{"pattern": str("regular expression"), "include": str("glob of files to search, e.g. *.js")}, "pattern")},
	{Name: "glob", Description: "List the sandbox files matching a glob pattern.",
		Schema: obj(map[string]any{"pattern": str("glob, e.g. **/*.json")}, "pattern")},
	{Name: "run_command", Description: "Run a shell command in the sandbox (no network).",
		Schema: obj(map[string]any{"command": str("shell command"), "timeout_ms": num("timeout"), "background": boolean("run in background"),
			"working_dir": str("folder to run in")}, "command")},
	{Name: "update_todo", Description: "Set a todo's status.",
		Schema: obj(map[string]any{"todo_id": str("todo id from the plan"), "status": map[string]any{"type": "string", "enum": []string{"pending", "active", "done"}}}, "todo_id", "status")},
	{Name: "set_thinking", Description: "Show a short status message to the user (under 50 characters).",
		Schema: obj(map[string]any{"message": str("status message")}, "message")},
	{Name: "add_message", Description: "Add a message for the user to the conversation.",
		Schema: obj(map[string]any{"content": str("message")}, "content")},
	{Name: "generate_code", Description: "Ask the code generator for complete files (or a scene description) and write them into the sandbox. Returns the files written, or the validation error to fix.",
		Schema: obj(map[string]any{
			"task":        map[string]any{"type": "string", "enum": []string{"create", "modify_existing"}},
			"description": str("precise specification: elements, timings in seconds, colours, texts, easings; or the change to make"),
			"files":       map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "for modify_existing: the files to change (their current content is sent along)"},
		}, "task", "description")},
	{Name: "search_assets", Description: "Search Koda's library of illustrations and icons for a subject (\"paper plane\", \"sailboat\", \"settings\"). Returns ids to place as scene elements of type asset (\"asset\": \"fluent:sailboat\"), best first, with their names and keywords; fluent and noto are colour illustrations, tabler are line icons drawn in the element's color.",
		Schema: obj(map[string]any{"query": str("subject words"), "limit": num("results, default 8, at most 25")}, "query")},
	{Name: "list_project_assets", Description: "List the customer's own files in this project (its logo, font, pictures and soundtrack), with their role and their path in the project: show a logo or picture as an image element (src: the path), set every text in the font (the scene's font: {family, src}), and leave the soundtrack in place (the renderer adds it to the video). Brand colours, when the customer has a brand kit, are listed too.",
		Schema: obj(map[string]any{})},
	{Name: "render_preview", Description: "Smoke-render the first frames of the animation to check that it loads, follows the export protocol and draws. Returns ok or the error.",
		Schema: obj(map[string]any{})},
	{Name: "finish", Description: "End the work with a short summary for the user.",
		Schema: obj(map[string]any{"summary": str("one or two sentences")}, "summary")},
}

// session is the state of one orchestrator run.
type session struct {
	p        *koda.Project
	sb       koda.Sandbox
	r        koda.Reporter
	msgs     []Message
	finished bool
	summary  string
	written  map[string]bool
}

// toolError is the {"error":{"code","message"}} a failing tool answers.
func toolError(err error) string {
	code := koda.ErrorCode(err)
	if code == koda.CodeInternal {
		code = koda.CodeCommandFailed
	}
	msg := err.Error()
	if ke, ok := err.(*koda.Error); ok && ke.Message != "" {
		msg = ke.Message
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": code, "message": msg}})
	return string(b)
}

func jsonResult(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("encode tool result: %w", err)
	}
	return string(b), nil
}

// run executes one tool call and returns its result part.
func (a *Agent) run(ctx context.Context, s *session, call Part) Part {
	out, err := a.dispatch(ctx, s, call)
	if err != nil {
		a.log.DebugContext(ctx, "tool failed", "project", s.p.ID, "tool", call.Tool, "err", err)
		return Part{CallID: call.CallID, Result: toolError(err), IsError: true}
	}
	return Part{CallID: call.CallID, Result: out}
}

func (a *Agent) dispatch(ctx context.Context, s *session, call Part) (string, error) {
	var in struct {
		Path                 string   `json:"path"`
		Content              string   `json:"content"`
		Encoding             string   `json:"encoding"`
		Append               bool     `json:"append"`
		Offset               int64    `json:"offset"`
		Limit                int64    `json:"limit"`
		Recursive            bool     `json:"recursive"`
		OldString            string   `json:"old_string"`
		NewString            string   `json:"new_string"`
		ExpectedReplacements int      `json:"expected_replacements"`
		Pattern              string   `json:"pattern"`
		Include              string   `json:"include"`
		Command              string   `json:"command"`
		TimeoutMS            int64    `json:"timeout_ms"`
		Background           bool     `json:"background"`
		WorkingDir           string   `json:"working_dir"`
		TodoID               string   `json:"todo_id"`
		Status               string   `json:"status"`
		Message              string   `json:"message"`
		Task                 string   `json:"task"`
		Description          string   `json:"description"`
		Files                []string `json:"files"`
		Summary              string   `json:"summary"`
		Query                string   `json:"query"`
		Invalid              string   `json:"_invalid_json"`
	}
	if len(call.Input) > 0 {
		if err := json.Unmarshal(call.Input, &in); err != nil {
			return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "tool input is not a JSON object: %v", err)
		}
	}
	if in.Invalid != "" {
		return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "tool arguments are not valid JSON: %.200s", in.Invalid)
	}
	switch call.Tool {
	case "write_file":
		data := []byte(in.Content)
		if in.Encoding == "base64" {
			var err error
			if data, err = base64.StdEncoding.DecodeString(in.Content); err != nil {
				return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "content is not base64: %v", err)
			}
		}
		n, err := a.write(ctx, s, in.Path, data, in.Append)
		if err != nil {
			return "", err
		}
		return jsonResult(map[string]any{"path": in.Path, "size_bytes": n})
	case "read_file", "list_files", "search_file_content", "glob", "run_command":
		// Plain sandbox tools: the same implementation the HTTP sandbox API serves.
		out, err := sandbox.CallTool(ctx, s.sb, call.Tool, call.Input)
		if err != nil {
			return "", err
		}
		return jsonResult(out)
	case "replace":
		n, err := s.sb.Replace(ctx, in.Path, in.OldString, in.NewString, in.ExpectedReplacements)
		if err != nil {
			return "", err
		}
		size := int64(0)
		if b, err := s.sb.ReadFile(ctx, in.Path, 0, 0); err == nil {
			size = int64(len(b))
		}
		s.r.FileWritten(ctx, in.Path, size)
		s.written[in.Path] = true
		return jsonResult(map[string]any{"path": in.Path, "replacements": n})
	case "update_todo":
		st := koda.TodoStatus(in.Status)
		if st != koda.TodoPending && st != koda.TodoActive && st != koda.TodoDone {
			return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "status %q is not pending, active or done", in.Status)
		}
		if !hasTodo(s.p, in.TodoID) {
			return "", koda.Errorf(koda.ENOTFOUND, koda.CodeNotFound, "no todo %q in the plan", in.TodoID)
		}
		s.r.TodoUpdate(ctx, in.TodoID, st)
		return `{"success":true}`, nil
	case "set_thinking":
		s.r.Thinking(ctx, truncate(in.Message, 100))
		return `{"success":true}`, nil
	case "add_message":
		s.r.Message(ctx, RoleAssistant, in.Content)
		return `{"success":true}`, nil
	case "generate_code":
		return a.generateCode(ctx, s, in.Task, in.Description, in.Files)
	case "search_assets":
		return searchAssets(in.Query, int(in.Limit))
	case "list_project_assets":
		return projectAssets(s.p)
	case "render_preview":
		if problem := a.smoke(ctx, s.sb, s.p); problem != "" {
			return "", koda.Errorf(koda.EUNPROCESSABLE, koda.CodeRenderFailed, "%s", problem)
		}
		return `{"ok":true}`, nil
	case "finish":
		s.finished, s.summary = true, in.Summary
		return `{"success":true}`, nil
	}
	return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "unknown tool %q", call.Tool)
}

// searchAssets answers search_assets: the library's best matches for a subject, with
// what a model needs to choose one and what is said when only a relative was found.
func searchAssets(query string, limit int) (string, error) {
	if strings.TrimSpace(query) == "" {
		return "", koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "query is empty")
	}
	if limit <= 0 {
		limit = 8
	}
	limit = min(limit, 25)
	type result struct {
		ID       string   `json:"id"`
		Name     string   `json:"name"`
		Keywords []string `json:"keywords,omitempty"`
		Category string   `json:"category,omitempty"`
		Kind     string   `json:"kind"`
	}
	res := struct {
		Results []result `json:"results"`
		Note    string   `json:"note,omitempty"`
	}{Results: []result{}}
	seen := map[string]bool{}
	add := func(m assets.Match) {
		if seen[m.ID] || len(res.Results) >= limit {
			return
		}
		seen[m.ID] = true
		r := result{ID: m.ID, Name: orDefault(m.Label, m.Name), Category: m.Category, Kind: "illustration"}
		if m.Stroke {
			r.Kind = "line icon (drawn in the element's color)"
		}
		r.Keywords = m.Keywords[:min(len(m.Keywords), 8)]
		res.Results = append(res.Results, r)
	}
	// Find's choice first: it knows multi-word subjects, synonyms and relatives.
	if m, ok := assets.Find(query); ok {
		add(m)
		res.Note = m.Message
	}
	for _, m := range assets.Search(query, limit) {
		add(m)
	}
	if len(res.Results) == 0 {
		res.Note = fmt.Sprintf("no asset matches %q; draw it with shapes or a path", query)
	}
	return jsonResult(res)
}

func (a *Agent) write(ctx context.Context, s *session, p string, data []byte, appendTo bool) (int64, error) {
	n, err := s.sb.WriteFile(ctx, p, data, appendTo)
	if err != nil {
		return 0, err
	}
	s.r.FileWritten(ctx, p, n)
	s.written[p] = true
	return n, nil
}

func hasTodo(p *koda.Project, id string) bool {
	if p.Plan == nil {
		return true
	}
	for _, t := range p.Plan.Todos {
		if t.ID == id {
			return true
		}
	}
	return false
}

// codeOutput is what the code generator returns.
type codeOutput struct {
	Scene json.RawMessage `json:"scene"`
	Files []struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	} `json:"files"`
	Summary string `json:"summary"`
}

// generateCode asks the code generator subagent and writes what it returns; a reply
// that is not valid JSON, a scene that breaks the schema or an unsafe path comes back
// to the orchestrator as an error to act on.
func (a *Agent) generateCode(ctx context.Context, s *session, task, desc string, paths []string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Task: %s\n\n%s\n\nAnimation request: %q\n", orDefault(task, "create"), desc, s.p.Prompt)
	if pl := s.p.Plan; pl != nil {
		fmt.Fprintf(&b, "Total duration: %gs. Style: %s.\n", pl.DurationS, pl.Style)
	}
	for _, p := range paths {
		cur, err := s.sb.ReadFile(ctx, p, 0, 64<<10)
		if err != nil {
			fmt.Fprintf(&b, "\nFile %s: (does not exist yet)\n", p)
			continue
		}
		fmt.Fprintf(&b, "\nCurrent content of %s:\n%s\n", p, cur)
	}
	resp, err := a.code.Complete(ctx, Request{System: codegenInstructions(), MaxTokens: 16000,
		Messages: []Message{{Role: RoleUser, Parts: []Part{{Text: b.String()}}}}})
	if err != nil {
		return "", err
	}
	raw := extractJSON(resp.Text())
	var out codeOutput
	if err := json.Unmarshal([]byte(raw), &out); err != nil {
		return "", koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAgentFailed, "the code generator's reply is not the JSON object asked for: %v", err)
	}
	var written []map[string]any
	switch {
	case len(out.Scene) > 0 && string(out.Scene) != "null":
		d, err := scene.Parse(out.Scene)
		if err != nil {
			return "", koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAgentFailed, "the scene does not match the schema: %v", err)
		}
		js, err := d.JSON()
		if err != nil {
			return "", err
		}
		script, err := d.Script()
		if err != nil {
			return "", err
		}
		// The library drawings the scene places go before the scene that names them.
		files := []scene.File{{Path: scene.FileIndex, Data: scene.IndexHTML()}, {Path: scene.FileRuntime, Data: scene.RuntimeJS()}}
		files = append(files, d.AssetFiles()...)
		files = append(files, scene.File{Path: scene.FileJSON, Data: js}, scene.File{Path: scene.FileScene, Data: script})
		for _, f := range files {
			if f.Path == scene.FileIndex || f.Path == scene.FileRuntime {
				// The static runtime and page are written once and never change per project.
				if _, err := s.sb.ReadFile(ctx, f.Path, 0, 1); err == nil && task == "modify_existing" {
					continue
				}
			}
			n, err := a.write(ctx, s, f.Path, f.Data, false)
			if err != nil {
				return "", err
			}
			written = append(written, map[string]any{"path": f.Path, "size_bytes": n})
		}
	case len(out.Files) > 0:
		for _, f := range out.Files {
			if err := safePath(f.Path); err != nil {
				return "", err
			}
		}
		for _, f := range out.Files {
			n, err := a.write(ctx, s, f.Path, []byte(f.Content), false)
			if err != nil {
				return "", err
			}
			written = append(written, map[string]any{"path": f.Path, "size_bytes": n})
		}
	default:
		return "", koda.Errorf(koda.EUNPROCESSABLE, koda.CodeAgentFailed, `the code generator returned neither "scene" nor "files"`)
	}
	return jsonResult(map[string]any{"files": written, "summary": out.Summary})
}

// safePath refuses what the sandbox would refuse, before anything is written.
func safePath(p string) error {
	if p == "" || strings.HasPrefix(p, "/") || path.Clean(p) != p || strings.HasPrefix(p, "..") || strings.Contains(p, "/../") {
		return koda.Errorf(koda.EINVALID, koda.CodeInvalidPath, "path %q must be relative to the project root, without ..", p)
	}
	return nil
}

// extractJSON takes the JSON object out of a reply that may wrap it in a code fence.
func extractJSON(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "```"); i >= 0 {
		rest := s[i+3:]
		rest = strings.TrimPrefix(rest, "json")
		if j := strings.LastIndex(rest, "```"); j >= 0 {
			rest = rest[:j]
		}
		s = strings.TrimSpace(rest)
	}
	if i, j := strings.Index(s, "{"), strings.LastIndex(s, "}"); i >= 0 && j > i {
		return s[i : j+1]
	}
	return s
}

func orDot(p string) string {
	if p == "" {
		return "."
	}
	return p
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// projectAssetView is one of the customer's files as list_project_assets answers.
type projectAssetView struct {
	Role   koda.AssetRole `json:"role"`
	Kind   koda.AssetKind `json:"kind"`
	Path   string         `json:"path"`
	Name   string         `json:"name"`
	Width  int            `json:"width,omitempty"`
	Height int            `json:"height,omitempty"`
}

// projectAssets lists the customer's files copied into the project and its brand
// colours, so the orchestrator can place them.
func projectAssets(p *koda.Project) (string, error) {
	out := struct {
		Assets []projectAssetView `json:"assets"`
		Colors *koda.BrandColors  `json:"brand_colors,omitempty"`
		End    string             `json:"end_card,omitempty"`
	}{Assets: []projectAssetView{}}
	for _, a := range p.Assets {
		out.Assets = append(out.Assets, projectAssetView{Role: a.Role, Kind: a.Kind, Path: a.File, Name: a.Name, Width: a.Width, Height: a.Height})
	}
	if p.Brand != nil {
		out.Colors, out.End = &p.Brand.Colors, p.Brand.EndCard
	}
	return jsonResult(out)
}
