package local_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/renderer"
	"github.com/kodahq/koda/sandbox"
	"github.com/kodahq/koda/sandbox/local"
)

// templateCache keeps the node template between test runs (and CI jobs that cache
// ~/.cache), so the registry is asked once.
func templateCache(t *testing.T) string {
	t.Helper()
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			t.Fatal(err)
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "koda", "node-template")
}

var theatreProject = map[string]string{
	// No vite.config.js: Vite bundles a config file into node_modules/.vite-temp, and the
	// template's node_modules is read-only. Options go on the command line instead.
	"package.json": `{"name":"ball","private":true,"type":"module","scripts":{"build":"vite build --base ./ --outDir dist --logLevel warn"}}`,
	"index.html": `<!doctype html><html><head><meta charset="utf-8">
<style>html,body{margin:0;width:100%;height:100%;background:#102030;overflow:hidden}
#ball{position:absolute;width:80px;height:80px;border-radius:50%;background:#e33;top:40%}</style></head>
<body><div id="ball"></div><script type="module" src="./src/main.js"></script></body></html>`,
	"src/main.js": `import { getProject, types } from '@theatre/core'
// Without @theatre/studio a project needs its exported state; an empty one will do.
const project = getProject('Ball', { state: { sheetsById: {}, definitionVersion: '0.4.0', revisionHistory: [] } })
const sheet = project.sheet('Main')
const ball = sheet.object('Ball', { x: types.number(0, { range: [0, 100] }) })
const el = document.getElementById('ball')
ball.onValuesChange(v => { el.style.left = v.x + '%' })
// Keyframes as Theatre state would hold them: x goes 0 → 80 over one second.
sheet.sequence.position = 0
const keyframes = t => 80 * Math.min(1, Math.max(0, t))
window.__exportSeekTo = async t => {
  sheet.sequence.position = t
  el.style.left = keyframes(t) + '%'
  await new Promise(r => requestAnimationFrame(() => r()))
}
project.ready.then(() => { window.__exportReady = true })
`,
}

// TestNodeTemplateBuildAndRender builds a Vite + Theatre.js project inside a sandbox
// (no network: its dependencies come from the read-only template) and renders the
// built page.
func TestNodeTemplateBuildAndRender(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	began := time.Now()
	modules, err := sandbox.PrepareNodeTemplate(ctx, templateCache(t), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("node template at %s (ready in %s)", modules, time.Since(began).Round(time.Millisecond))

	p := local.New(local.Config{Root: t.TempDir(), CommandTimeout: 2 * time.Minute,
		Limits:   local.Limits{MemoryBytes: 1 << 30, DiskBytes: 256 << 20},
		ReadOnly: []local.Bind{{Host: modules, Sandbox: sandbox.NodeTemplateSandboxPath}}})
	t.Cleanup(func() { _ = p.Close(context.Background()) })
	sb, err := p.Create(ctx, koda.SandboxSpec{ProjectID: "prj_theatre"})
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range theatreProject {
		if _, err := sb.WriteFile(ctx, name, []byte(content), false); err != nil {
			t.Fatal(err)
		}
	}
	began = time.Now()
	res, err := sb.RunCommand(ctx, koda.CommandRequest{Command: "npm run build --offline 2>&1 && ls dist dist/assets"})
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("npm run build: %v\n%s%s", err, res.Stdout, res.Stderr)
	}
	t.Logf("npm run build in the sandbox took %s:\n%s", time.Since(began).Round(time.Millisecond), res.Stdout)
	// The template is read-only inside.
	res, _ = sb.RunCommand(ctx, koda.CommandRequest{Command: "touch /node_modules/pwned 2>&1; echo $?"})
	if !strings.Contains(res.Stdout, "Read-only") {
		t.Fatalf("template writable: %q", res.Stdout)
	}

	out := t.TempDir()
	r := renderer.New(renderer.Config{FFmpegPath: "ffmpeg", Browsers: 1})
	rr, err := r.Render(ctx, koda.RenderRequest{
		Dir: filepath.Join(sb.Dir(), "dist"), DurationS: 1,
		Preset:    koda.PresetSpec{Name: "custom", Width: 320, Height: 180, FPS: 10, CRF: 28, Format: "mp4"},
		VideoPath: filepath.Join(out, "v.mp4"), ThumbnailPath: filepath.Join(out, "t.jpg"),
	}, nil)
	if err != nil {
		t.Fatalf("render the built page: %v", err)
	}
	if rr.Frames != 10 || rr.SizeBytes == 0 {
		t.Fatalf("render result %+v", rr)
	}
	t.Logf("rendered %d frames, %d bytes in %s", rr.Frames, rr.SizeBytes, rr.TotalTime)
}
