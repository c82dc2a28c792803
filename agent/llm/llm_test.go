package llm_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/llm"
	"github.com/kodahq/koda/agent/scene"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/semaphore"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox/local"
)

// replay is a provider API that answers with recorded responses in order (the last one
// again when they run out) and keeps every request body.
type replay struct {
	t         *testing.T
	responses [][]byte
	mu        sync.Mutex
	requests  []map[string]any
	paths     []string
}

func newReplay(t *testing.T, provider, scenario string) (*replay, *httptest.Server) {
	t.Helper()
	dir := filepath.Join("..", "testdata", "llm", provider, scenario)
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	sort.Strings(names)
	rp := &replay{t: t}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		rp.responses = append(rp.responses, b)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("request body is not JSON: %v", err)
		}
		rp.mu.Lock()
		i := len(rp.requests)
		rp.requests = append(rp.requests, req)
		rp.paths = append(rp.paths, r.URL.Path)
		resp := rp.responses[min(i, len(rp.responses)-1)]
		rp.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(resp)
	}))
	t.Cleanup(srv.Close)
	return rp, srv
}

func (rp *replay) request(i int) string {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if i >= len(rp.requests) {
		rp.t.Fatalf("only %d requests were made, want request %d", len(rp.requests), i+1)
	}
	b, _ := json.Marshal(rp.requests[i])
	return string(b)
}

func (rp *replay) count() int {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return len(rp.requests)
}

func model(provider, url string) llm.Model {
	if provider == "anthropic" {
		return llm.NewAnthropic("test-key", "", url)
	}
	return llm.NewOpenAI("test-key", "", url+"/v1/")
}

// recorder is a koda.Reporter that keeps what the agent reported.
type recorder struct {
	mu       sync.Mutex
	todos    []string
	thinking []string
	files    []string
	messages []string
}

func (r *recorder) TodoUpdate(_ context.Context, id string, s koda.TodoStatus) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.todos = append(r.todos, id+":"+string(s))
}
func (r *recorder) Thinking(_ context.Context, m string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.thinking = append(r.thinking, m)
}
func (r *recorder) Message(_ context.Context, _, c string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.messages = append(r.messages, c)
}
func (r *recorder) FileWritten(_ context.Context, p string, _ int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.files = append(r.files, p)
}

func newSandbox(t *testing.T) koda.Sandbox {
	t.Helper()
	p := local.New(local.Config{Root: t.TempDir()})
	t.Cleanup(func() { _ = p.Close(context.Background()) })
	sb, err := p.Create(context.Background(), koda.SandboxSpec{ProjectID: "prj_llm"})
	if err != nil {
		t.Fatal(err)
	}
	return sb
}

func project() *koda.Project {
	return &koda.Project{ID: "prj_llm", Prompt: "A playful red ball bounces across the screen, then the text 'Hello' appears", Style: koda.StylePlayful,
		Plan: &koda.Plan{Title: "Hello ball", Style: koda.StylePlayful, DurationS: 4, Revision: 1,
			Scenes: []koda.Scene{{ID: "s1", Name: "Bounce", StartS: 0, EndS: 2}, {ID: "s2", Name: "Hello", StartS: 2, EndS: 4}},
			Todos:  []koda.Todo{{ID: "setup", Title: "Set up"}, {ID: "scene-1", Title: "Bounce"}, {ID: "preview", Title: "Render preview"}}}}
}

func newAgent(t *testing.T, m llm.Model) *llm.Agent {
	t.Helper()
	a, err := llm.New(llm.Config{Model: m, Renderer: renderer.New(renderer.Config{Browsers: 1})})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// probeFrames counts the frames of a video with ffprobe.
func probeFrames(t *testing.T, path string) int {
	t.Helper()
	out, err := exec.Command("ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames",
		"-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path).Output()
	if err != nil {
		t.Fatalf("ffprobe: %v", err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("ffprobe said %q", out)
	}
	return n
}

// TestToolLoop replays a full orchestrator session of each provider: todos, a code
// generator call returning a scene, a smoke render, finish; the files land in a real
// sandbox and the result renders to a video of the planned length.
func TestToolLoop(t *testing.T) {
	for _, provider := range []string{"anthropic", "openai"} {
		t.Run(provider, func(t *testing.T) {
			rp, srv := newReplay(t, provider, "generate")
			a := newAgent(t, model(provider, srv.URL))
			sb, rec, p := newSandbox(t), &recorder{}, project()
			if err := a.Generate(context.Background(), p, sb, rec); err != nil {
				t.Fatalf("generate: %v", err)
			}
			if rp.count() != 5 {
				t.Errorf("%d model calls, want 5 (4 orchestrator turns + 1 code generator)", rp.count())
			}
			wantPath := map[string]string{"anthropic": "/v1/messages", "openai": "/v1/chat/completions"}[provider]
			for i, pth := range rp.paths {
				if pth != wantPath {
					t.Errorf("request %d went to %s, want %s", i+1, pth, wantPath)
				}
			}
			first := rp.request(0)
			for _, tool := range []string{"write_file", "read_file", "list_files", "replace", "search_file_content", "glob",
				"run_command", "update_todo", "set_thinking", "add_message", "generate_code", "render_preview", "finish"} {
				if !strings.Contains(first, `"`+tool+`"`) {
					t.Errorf("the orchestrator was not offered %s", tool)
				}
			}
			if !strings.Contains(first, "Koda animation orchestrator") || !strings.Contains(first, "bounces across the screen") {
				t.Errorf("first request lacks the system prompt or the task: %.300s", first)
			}
			// The second orchestrator turn answers both calls of the first, by ID.
			second := rp.request(1)
			for _, id := range []string{"01_update_todo", "01_set_thinking"} {
				if !strings.Contains(second, id) {
					t.Errorf("second request does not answer call %s", id)
				}
			}
			// The code generator is a separate conversation: its own prompt, the schema, no tools.
			gen := rp.request(2)
			if !strings.Contains(gen, "Koda code generator") || !strings.Contains(gen, "scene-v1.json") || strings.Contains(gen, `"tools"`) {
				t.Errorf("code generator request is not the tool-less generator prompt with the schema: %.300s", gen)
			}
			if strings.Contains(gen, "Koda animation orchestrator") {
				t.Error("the code generator saw the orchestrator's conversation")
			}
			if got := strings.Join(rec.todos, " "); got != "setup:active setup:done" {
				t.Errorf("todo updates %q", got)
			}
			if len(rec.thinking) == 0 || rec.thinking[0] != "Writing the scene" {
				t.Errorf("thinking %v", rec.thinking)
			}
			for _, f := range []string{scene.FileIndex, scene.FileRuntime, scene.FileJSON, scene.FileScene} {
				if _, err := sb.ReadFile(context.Background(), f, 0, 0); err != nil {
					t.Errorf("%s not written: %v", f, err)
				}
			}
			raw, _ := sb.ReadFile(context.Background(), scene.FileJSON, 0, 0)
			if d, err := scene.Parse(raw); err != nil || d.Element("ball") == nil {
				t.Fatalf("scene.json: %v", err)
			}
			out := filepath.Join(t.TempDir(), "out.mp4")
			preset := koda.PresetSpec{Name: "custom", Width: 320, Height: 180, FPS: 10, CRF: 23, Format: koda.FormatMP4}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			if _, err := renderer.New(renderer.Config{Browsers: 1}).Render(ctx, koda.RenderRequest{Dir: sb.Dir(), Preset: preset, DurationS: 4, VideoPath: out}, nil); err != nil {
				t.Fatalf("render: %v", err)
			}
			if n := probeFrames(t, out); n != 40 {
				t.Errorf("video has %d frames, want 40", n)
			}
		})
	}
}

// TestSelfCorrection: a scene that breaks the schema comes back to the orchestrator as
// a tool error; finishing without a renderable page is fed back after the smoke
// render; the second attempt succeeds.
func TestSelfCorrection(t *testing.T) {
	rp, srv := newReplay(t, "anthropic", "selfcorrect")
	a := newAgent(t, model("anthropic", srv.URL))
	sb, rec := newSandbox(t), &recorder{}
	if err := a.Generate(context.Background(), project(), sb, rec); err != nil {
		t.Fatalf("generate: %v", err)
	}
	if got := rp.request(2); !strings.Contains(got, "does not match the schema") || !strings.Contains(got, `"is_error":true`) || !strings.Contains(got, "colour") {
		t.Errorf("the schema error did not reach the orchestrator: %.400s", got)
	}
	if got := rp.request(3); !strings.Contains(got, "smoke render of the project failed") || !strings.Contains(got, "index.html is missing") {
		t.Errorf("the smoke-render failure was not fed back: %.400s", got)
	}
	if rp.count() != 6 {
		t.Errorf("%d model calls, want 6", rp.count())
	}
	if !strings.Contains(strings.Join(rec.thinking, "|"), "Fixing a render failure (1/3)") {
		t.Errorf("thinking %v", rec.thinking)
	}
}

// TestRetriesExhausted: an orchestrator that never produces a renderable project fails
// the project with the reason after the initial attempt and 3 fixes.
func TestRetriesExhausted(t *testing.T) {
	rp, srv := newReplay(t, "anthropic", "exhaust")
	a := newAgent(t, model("anthropic", srv.URL))
	err := a.Generate(context.Background(), project(), newSandbox(t), &recorder{})
	if koda.ErrorCode(err) != koda.CodeAgentFailed || koda.ErrorKind(err) != koda.EUNPROCESSABLE {
		t.Fatalf("err %v (code %s), want an unprocessable AGENT_FAILED", err, koda.ErrorCode(err))
	}
	if msg := koda.ErrorMessage(err); !strings.Contains(msg, "after 3 fixes") || !strings.Contains(msg, "index.html is missing") {
		t.Errorf("message %q does not give the reason", msg)
	}
	if rp.count() != 4 {
		t.Errorf("%d model calls, want 4 (1 + 3 retries)", rp.count())
	}
}

// TestPlanRules: a plan with a 1 s scene and too few scenes goes back with the rules
// it breaks; the corrected plan is accepted with todos derived from its scenes.
func TestPlanRules(t *testing.T) {
	for _, provider := range []string{"anthropic", "openai"} {
		t.Run(provider, func(t *testing.T) {
			rp, srv := newReplay(t, provider, "plan")
			a := newAgent(t, model(provider, srv.URL))
			p := &koda.Project{ID: "prj_plan", Prompt: "A playful red ball bounces three times, 5 seconds", DurationS: 5}
			pl, err := a.Plan(context.Background(), p, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(pl.Scenes) != 3 || pl.DurationS != 5 || pl.Scenes[1].Easing != "easeOutElastic" {
				t.Errorf("plan %+v", pl)
			}
			var ids []string
			for _, td := range pl.Todos {
				ids = append(ids, td.ID)
			}
			if got := strings.Join(ids, ","); got != "setup,scene-1,scene-2,scene-3,polish,preview" {
				t.Errorf("todos %s", got)
			}
			second := rp.request(1)
			if !strings.Contains(second, "breaks the rules") || !strings.Contains(second, "under 1.5s") || !strings.Contains(second, "2 scenes") {
				t.Errorf("the broken rules were not returned: %.500s", second)
			}
		})
	}
}

// TestRevise: feedback changes only scene.json and scene.js; the message carries the diff.
func TestRevise(t *testing.T) {
	for _, provider := range []string{"anthropic", "openai"} {
		t.Run(provider, func(t *testing.T) {
			_, srv := newReplay(t, provider, "revise")
			a := newAgent(t, model(provider, srv.URL))
			sb, rec := newSandbox(t), &recorder{}
			ctx := context.Background()
			fixture, err := os.ReadFile(filepath.Join("..", "testdata", "llm", provider, "generate", "03.json"))
			if err != nil {
				t.Fatal(err)
			}
			d := sceneFromFixture(t, provider, fixture)
			js, _ := d.JSON()
			script, _ := d.Script()
			for name, data := range map[string][]byte{scene.FileIndex: scene.IndexHTML(), scene.FileRuntime: scene.RuntimeJS(), scene.FileJSON: js, scene.FileScene: script} {
				if _, err := sb.WriteFile(ctx, name, data, false); err != nil {
					t.Fatal(err)
				}
			}
			msg, err := a.Revise(ctx, project(), "the ball should be blue", sb, rec)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(msg, "The ball is blue now.") || !strings.Contains(msg, "+ ") || !strings.Contains(msg, "#1e88e5") {
				t.Errorf("message without the diff: %s", msg)
			}
			changed := map[string]bool{}
			for _, f := range rec.files {
				changed[f] = true
			}
			if changed[scene.FileIndex] || changed[scene.FileRuntime] || !changed[scene.FileJSON] || !changed[scene.FileScene] {
				t.Errorf("files written %v, want scene.json and scene.js only", rec.files)
			}
			raw, _ := sb.ReadFile(ctx, scene.FileJSON, 0, 0)
			nd, err := scene.Parse(raw)
			if err != nil || nd.Element("ball").Color != "#1e88e5" || nd.Element("title").Text != "Hello" {
				t.Errorf("revised scene: %v %+v", err, nd)
			}
		})
	}
}

// sceneFromFixture reads the scene out of a recorded code generator response.
func sceneFromFixture(t *testing.T, provider string, b []byte) *scene.Description {
	t.Helper()
	var text string
	if provider == "anthropic" {
		var r struct {
			Content []struct{ Text string } `json:"content"`
		}
		_ = json.Unmarshal(b, &r)
		text = r.Content[0].Text
	} else {
		var r struct {
			Choices []struct {
				Message struct{ Content string } `json:"message"`
			} `json:"choices"`
		}
		_ = json.Unmarshal(b, &r)
		text = r.Choices[0].Message.Content
	}
	var out struct {
		Scene json.RawMessage `json:"scene"`
	}
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatal(err)
	}
	d, err := scene.Parse(out.Scene)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestLimiterSharedAcrossWorkers: twenty callers with their own limiter (as separate
// worker processes would have) never hold more than the limit of one provider at once.
func TestLimiterSharedAcrossWorkers(t *testing.T) {
	opt, err := redis.ParseURL(kodatest.MustRedis(t, kodatest.DBLLM))
	if err != nil {
		t.Fatal(err)
	}
	var inFlight, peak atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rdb := redis.NewClient(opt)
			defer rdb.Close()
			l := &llm.SemaphoreLimiter{Sem: semaphore.New(rdb, "koda:test"), Limit: 3, Poll: 20 * time.Millisecond, Node: "w" + strconv.Itoa(i)}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			release, err := l.Acquire(ctx, "anthropic")
			if err != nil {
				t.Error(err)
				return
			}
			n := inFlight.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			time.Sleep(30 * time.Millisecond)
			inFlight.Add(-1)
			release()
		}()
	}
	wg.Wait()
	if p := peak.Load(); p < 1 || p > 3 {
		t.Errorf("peak in flight %d, want 1..3", p)
	}
}

// TestAssetTools replays a session that searches the asset library and places what it
// found: the orchestrator is offered search_assets, the search answers with library ids,
// the code generator is told about asset elements, and the asset's SVG lands in the
// project beside the scene and renders.
func TestAssetTools(t *testing.T) {
	for _, provider := range []string{"anthropic", "openai"} {
		t.Run(provider, func(t *testing.T) {
			rp, srv := newReplay(t, provider, "assets")
			a := newAgent(t, model(provider, srv.URL))
			sb, rec, p := newSandbox(t), &recorder{}, project()
			p.Prompt = "A sailboat bobs on the waves"
			if err := a.Generate(context.Background(), p, sb, rec); err != nil {
				t.Fatalf("generate: %v", err)
			}
			if first := rp.request(0); !strings.Contains(first, `"search_assets"`) || !strings.Contains(first, "search_assets first") {
				t.Error("the orchestrator was not offered search_assets or told to use it")
			}
			// The search result the model read names the library's sailboat first.
			second := rp.request(1)
			if !strings.Contains(second, `\"id\":\"fluent:sailboat\"`) || !strings.Contains(second, "illustration") {
				t.Errorf("search_assets result not sent back: %.600s", second)
			}
			if gen := rp.request(2); !strings.Contains(gen, "asset (asset: a library id") {
				t.Errorf("the code generator was not told about asset elements: %.300s", gen)
			}
			raw, err := sb.ReadFile(context.Background(), scene.FileJSON, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			d, err := scene.Parse(raw)
			if err != nil || d.Element("boat") == nil || d.Element("boat").Asset != "fluent:sailboat" {
				t.Fatalf("scene.json %v: want the boat asset", err)
			}
			svg, err := sb.ReadFile(context.Background(), "assets/lib/fluent/sailboat.svg", 0, 0)
			if err != nil || !strings.HasPrefix(string(svg), "<svg ") {
				t.Errorf("the sailboat's SVG is not in the project: %v", err)
			}
			for _, m := range rec.messages {
				if strings.Contains(m, "render") {
					t.Errorf("unexpected message %q", m)
				}
			}
		})
	}
}

// TestSearchAssetsTool: an empty query is a tool error; a subject the library knows
// only a relative of comes with the substitution note.
func TestSearchAssetsTool(t *testing.T) {
	out, err := llm.SearchAssets("limousine", 3)
	if err != nil || !strings.Contains(out, "fluent:automobile") || !strings.Contains(out, `no illustration of \"limousine\"`) {
		t.Errorf("search limousine = %s, %v", out, err)
	}
	if _, err := llm.SearchAssets(" ", 3); err == nil {
		t.Error("an empty query was accepted")
	}
}
