package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/renderer"
)

// studioBrowser is one headless Chromium tab on a Koda Studio, recording every console
// error, uncaught exception and non-network log error the page produces.
type studioBrowser struct {
	t        *testing.T
	ctx      context.Context
	base     string
	shots    string // directory for screenshots; "" keeps none
	download string // directory downloads land in

	mu            sync.Mutex
	problems      []string
	frameProblems []string          // errors of the page in the live preview
	done          map[string]string // download GUID → suggested file name, once completed
	names         map[string]string
}

func newStudioBrowser(t *testing.T, base string) *studioBrowser {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(renderer.FindChromium()), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1360, 900), chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("disable-background-networking", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelC(); cancelA() })
	b := &studioBrowser{t: t, ctx: ctx, base: base, download: t.TempDir(),
		done: map[string]string{}, names: map[string]string{}, shots: os.Getenv("KODA_STUDIO_SCREENSHOTS")}
	chromedp.ListenTarget(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				b.problems = append(b.problems, "console."+string(ev.Type)+": "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			b.problems = append(b.problems, fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber, msg))
		case *cdplog.EventEntryAdded:
			// Network entries are the API's own 4xx answers the page handles; anything
			// else at error level (a CSP violation, a failed module) is a defect.
			if ev.Entry.Level == cdplog.LevelError && ev.Entry.Source != cdplog.SourceNetwork {
				line := fmt.Sprintf("log %s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
				if strings.Contains(ev.Entry.URL, "/live/") {
					// The generated page in the live preview, not the Studio.
					b.frameProblems = append(b.frameProblems, line)
				} else {
					b.problems = append(b.problems, line)
				}
			}
		case *page.EventJavascriptDialogOpening:
			// confirm() is answered OK, as the person clicking through would.
			go func() { _ = chromedp.Run(ctx, page.HandleJavaScriptDialog(true)) }()
		case *browser.EventDownloadWillBegin:
			b.names[ev.GUID] = ev.SuggestedFilename
		case *browser.EventDownloadProgress:
			if ev.State == browser.DownloadProgressStateCompleted {
				b.done[ev.GUID] = b.names[ev.GUID]
			}
		}
	})
	// The first Run starts the browser and binds it to ctx, so it takes ctx itself and
	// not a context with a deadline.
	if err := chromedp.Run(ctx, runtime.Enable(), cdplog.Enable(),
		browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllowAndName).
			WithDownloadPath(b.download).WithEventsEnabled(true)); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	return b
}

// run runs actions with a deadline, failing the test with a screenshot on error.
func (b *studioBrowser) run(step string, actions ...chromedp.Action) {
	b.t.Helper()
	b.runFor(step, 90*time.Second, actions...)
}

func (b *studioBrowser) runFor(step string, d time.Duration, actions ...chromedp.Action) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, d)
	defer cancel()
	if err := chromedp.Run(ctx, actions...); err != nil {
		b.screenshot("failed-" + step)
		var text string
		_ = chromedp.Run(b.ctx, chromedp.Evaluate(`document.getElementById('main') ? document.getElementById('main').innerText.slice(0, 3000) : ''`, &text))
		b.t.Fatalf("%s: %v\npage text:\n%s", step, err, text)
	}
}

// screenshot keeps the viewport as PNG in KODA_STUDIO_SCREENSHOTS, when set.
func (b *studioBrowser) screenshot(name string) {
	if b.shots == "" {
		return
	}
	var png []byte
	if err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot(&png)); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(b.shots, "studio-"+name+".png"), png, 0o644); err != nil {
		b.t.Logf("screenshot %s: %v", name, err)
	}
}

func (b *studioBrowser) text(sel string) string {
	b.t.Helper()
	var s string
	b.run("read "+sel, chromedp.Text(sel, &s, chromedp.ByQuery))
	return s
}

func (b *studioBrowser) count(sel string) int {
	b.t.Helper()
	var n int
	b.run("count "+sel, chromedp.Evaluate(fmt.Sprintf(`document.querySelectorAll(%q).length`, sel), &n))
	return n
}

// waitJS waits until a JavaScript expression on the page is true.
func (b *studioBrowser) waitJS(step string, d time.Duration, expr string) {
	b.t.Helper()
	b.runFor(step, d, poll(expr, chromedp.WithPollingInterval(100*time.Millisecond)))
}

// poll waits for expr to be truthy for as long as the step's deadline allows:
// chromedp.Poll's own 30 s default would cut a three-minute wait for a render short.
func poll(expr string, opts ...chromedp.PollOption) chromedp.Action {
	return chromedp.Poll(expr, nil, append(opts, chromedp.WithPollingTimeout(0))...)
}

func (b *studioBrowser) checkNoProblems() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		b.t.Errorf("page problem: %s", p)
	}
}

// waitDownload returns the path of the next completed download.
func (b *studioBrowser) waitDownload(d time.Duration) (path, name string) {
	b.t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		b.mu.Lock()
		for guid, n := range b.done {
			b.mu.Unlock()
			return filepath.Join(b.download, guid), n
		}
		b.mu.Unlock()
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Fatalf("no download completed within %s", d)
	return "", ""
}

// frameShot scrubs the live preview to t seconds and returns a screenshot of sel.
func (b *studioBrowser) frameShot(sel, t string) []byte {
	b.t.Helper()
	var png []byte
	b.run("scrub to "+t,
		chromedp.SetValue("#live-scrub", t, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#live-scrub').dispatchEvent(new Event('input'))`, nil),
		chromedp.Sleep(700*time.Millisecond), // the frame seeks and paints
		chromedp.ActionFunc(func(ctx context.Context) error {
			// A clip of the viewport, not an element screenshot: the frame's page
			// paints in another process, which only the composited viewport shows.
			var r struct{ X, Y, W, H float64 }
			if err := chromedp.Evaluate(fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({block: 'center'});
				const r = e.getBoundingClientRect(); return {X: r.x, Y: r.y, W: r.width, H: r.height}; })()`, sel), &r).Do(ctx); err != nil {
				return err
			}
			var err error
			png, err = page.CaptureScreenshot().WithClip(&page.Viewport{X: r.X, Y: r.Y, Width: r.W, Height: r.H, Scale: 1}).Do(ctx)
			return err
		}))
	return png
}

// signIn opens the Studio and signs in with key.
func (b *studioBrowser) signIn(key string) {
	b.t.Helper()
	b.run("sign in",
		chromedp.Navigate(b.base+"/"),
		chromedp.WaitVisible("#apikey", chromedp.ByQuery),
		chromedp.SendKeys("#apikey", key, chromedp.ByQuery),
		chromedp.Click(".signin button[type=submit]", chromedp.ByQuery),
		chromedp.WaitVisible("#nav", chromedp.ByQuery))
}

// TestStudioPersonPath is a person making an animation in Koda Studio, in real
// Chromium against a real koda: the form, the style question, the plan, the build, a
// preview with feedback, a second preview approved, and the final video downloaded
// from the page, byte for byte the MP4 the API reports.
func TestStudioPersonPath(t *testing.T) {
	agent := &gatedAgent{Agent: builtin.New(slog.New(slog.DiscardHandler)), gate: make(chan struct{}), held: make(chan struct{})}
	m := startTuned(t, kodatest.MustRedis(t, kodatest.DBKodaStudio), func(m *Main) { m.Agent = agent })
	c := client{t: t, base: m.PublicURL}
	b := newStudioBrowser(t, m.PublicURL)

	// The page is served with a strict policy and no third-party asset.
	res, err := http.Get(m.PublicURL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
		t.Errorf("Studio CSP = %q, want script-src 'self' and nothing unsafe", csp)
	}
	if bytes.Contains(page, []byte("//")) && bytes.Contains(page, []byte("https://")) {
		t.Errorf("the Studio page refers to another origin:\n%s", page)
	}

	b.signIn(testAPIKey)
	b.run("empty list", chromedp.WaitVisible(".empty", chromedp.ByQuery))
	// The key lives in this tab's session storage only: no local storage, no cookie.
	var kept struct {
		Session string
		Local   int
		Cookie  string
	}
	b.run("storage", chromedp.Evaluate(`({Session: sessionStorage.getItem('koda.apiKey'), Local: localStorage.length, Cookie: document.cookie})`, &kept))
	if kept.Session != testAPIKey || kept.Local != 0 || kept.Cookie != "" {
		t.Errorf("after sign-in: session %q, %d local storage items, cookie %q", kept.Session, kept.Local, kept.Cookie)
	}
	b.screenshot("1-empty")

	// The form.
	b.run("open form", chromedp.Click(`a[href="#/new"].btn`, chromedp.ByQuery),
		chromedp.WaitVisible("#prompt", chromedp.ByQuery),
		chromedp.WaitVisible(`#presets input[value="720p"]`, chromedp.ByQuery))
	b.run("fill form",
		chromedp.SendKeys("#prompt", "a ball moving around, then the text 'Hello from Koda' appears", chromedp.ByQuery),
		chromedp.SendKeys("#duration", "2", chromedp.ByQuery),
		chromedp.Click(`#presets input[value="720p"]`, chromedp.ByQuery))
	b.screenshot("2-form")
	b.run("create", chromedp.Click(`#new-project button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible("#question", chromedp.ByQuery))

	var id string
	b.run("project id", chromedp.Evaluate(`document.querySelector('[data-project]').dataset.project`, &id))
	var p studioProject
	c.do(http.MethodGet, "/v1/projects/"+id, nil, &p)
	if p.Phase != "question" || p.Question == nil {
		t.Fatalf("API says phase %s, question %+v while the page shows the question", p.Phase, p.Question)
	}
	if got := b.text(".question-text"); got != p.Question.Text {
		t.Errorf("question on the page = %q, API = %q", got, p.Question.Text)
	}
	if n := b.count("#question .option"); n != len(p.Question.Options) {
		t.Errorf("page shows %d options, the question has %d", n, len(p.Question.Options))
	}
	if got := b.text(`.steps li.current`); !strings.Contains(got, "Question") {
		t.Errorf("current step = %q, want Question", got)
	}
	b.screenshot("3-question")

	// Answer: the custom option opens a free-text box; the person picks smooth.
	b.run("free text appears", chromedp.Click(`[data-option="custom"] input`, chromedp.ByQuery),
		chromedp.WaitVisible("#answer-text", chromedp.ByQuery))
	b.run("answer", chromedp.Click(`[data-option="smooth"] input`, chromedp.ByQuery),
		chromedp.WaitNotVisible("#answer-text", chromedp.ByQuery),
		chromedp.Click("#answer", chromedp.ByQuery),
		chromedp.WaitVisible("#approve-plan", chromedp.ByQuery))
	c.do(http.MethodGet, "/v1/projects/"+id, nil, &p)
	if p.Plan == nil || p.Style != "smooth" {
		t.Fatalf("after answering: style %q plan %+v", p.Style, p.Plan)
	}
	if n := b.count("#plan li.scene"); n != len(p.Plan.Scenes) || n == 0 {
		t.Errorf("page shows %d scenes, the plan has %d", n, len(p.Plan.Scenes))
	}
	if got := b.text("#plan .card-title"); got != p.Plan.Title {
		t.Errorf("plan title on the page = %q, API = %q", got, p.Plan.Title)
	}
	b.screenshot("4-plan")

	// Reject with feedback: the plan comes back revised, then the person approves it.
	b.run("reject plan", chromedp.SendKeys("#plan-feedback", "make it slower and calmer", chromedp.ByQuery),
		chromedp.Click("#reject-plan", chromedp.ByQuery))
	b.runFor("revised plan", 2*time.Minute, chromedp.WaitVisible(`//div[contains(@class,"meta")]/span[text()="revision 2"]`, chromedp.BySearch),
		chromedp.WaitVisible("#approve-plan", chromedp.ByQuery))
	if got := b.text("#plan .muted.small"); !strings.Contains(got, "make it slower and calmer") {
		t.Errorf("revised plan does not say what it answers: %q", got)
	}

	// Approve; the build shows its todos and files as they are written. The agent is
	// held after writing them, so the person's message arrives while it works.
	b.run("approve plan", chromedp.Click("#approve-plan", chromedp.ByQuery))
	b.runFor("building", 2*time.Minute, chromedp.WaitVisible("#files li", chromedp.ByQuery),
		chromedp.WaitVisible("#todos", chromedp.ByQuery))
	<-agent.held
	if got := b.text(`.steps li.current`); !strings.Contains(got, "Building") {
		t.Errorf("current step while building = %q", got)
	}
	b.run("message", chromedp.SendKeys("#message-text", "make the ball green", chromedp.ByQuery),
		chromedp.Click("#send-message", chromedp.ByQuery),
		chromedp.WaitVisible(`#message-queue li[data-status="queued"]`, chromedp.ByQuery))
	if got := b.text(`#message-queue li[data-status="queued"] p`); got != "make the ball green" {
		t.Errorf("queued message on the page = %q", got)
	}
	// The live preview shows the page being written, sandboxed, and scrubs to a time.
	b.runFor("live preview", time.Minute, chromedp.WaitVisible("#live-frame", chromedp.ByQuery))
	var sandbox, src string
	var ok bool
	b.run("live frame", chromedp.AttributeValue("#live-frame", "sandbox", &sandbox, &ok, chromedp.ByQuery),
		chromedp.AttributeValue("#live-frame", "src", &src, nil, chromedp.ByQuery))
	if !ok || sandbox != "allow-scripts" || !strings.HasPrefix(src, "/live/") {
		t.Errorf("live frame sandbox=%q (set %v) src=%q, want allow-scripts and a /live/ URL", sandbox, ok, src)
	}
	// The page in the frame loads its scripts after the frame's load event; scrubbing
	// is tried until it shows, within a deadline.
	b.run("live loaded", chromedp.WaitVisible("#live-frame[data-loaded]", chromedp.ByQuery))
	for deadline := time.Now().Add(30 * time.Second); ; {
		early := b.frameShot("#live-frame", "0")
		late := b.frameShot("#live-frame", "1.6")
		if !bytes.Equal(early, late) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("scrubbing the live preview from 0 s to 1.6 s changes nothing on screen")
		}
	}
	b.run("scroll up", chromedp.Evaluate(`window.scrollTo(0, 0)`, nil))
	b.screenshot("5-building")
	close(agent.gate)

	// The preview comes; the queued message is applied as an iteration, which makes a
	// second preview.
	b.runFor("message applied", 3*time.Minute, chromedp.WaitVisible(`#message-queue li[data-status="applied"]`, chromedp.ByQuery))
	b.runFor("first preview", 3*time.Minute, chromedp.WaitVisible("#approve-preview", chromedp.ByQuery))
	// The iteration rewrote files, and the live preview reloaded for them.
	var reloaded string
	b.run("live reloaded", chromedp.AttributeValue("#live-frame", "src", &reloaded, nil, chromedp.ByQuery))
	if reloaded == src {
		t.Errorf("live frame still at %q after the files changed", reloaded)
	}
	var p2 studioProject
	c.do(http.MethodGet, "/v1/projects/"+id, nil, &p2)
	p = p2
	var previews int
	for _, r := range p.Renders {
		if r.Kind == "preview" && r.Status == "succeeded" {
			previews++
		}
	}
	if previews < 2 {
		t.Errorf("%d previews after the applied message, want 2 (one more for the message)", previews)
	}
	first := p.Preview.RenderID
	if n := b.count("#todos li.todo-done"); n != len(p.Execution.Todos) || n == 0 {
		t.Errorf("page shows %d done todos, the API %d", n, len(p.Execution.Todos))
	}
	var videoSrc string
	b.run("preview video", chromedp.AttributeValue("#preview-video", "src", &videoSrc, nil, chromedp.ByQuery))
	if a, _, _ := strings.Cut(videoSrc, "?"); a != strings.SplitN(p.Preview.VideoURL, "?", 2)[0] {
		t.Errorf("preview video src = %q, API preview = %q", videoSrc, p.Preview.VideoURL)
	}
	b.waitJS("preview plays", time.Minute, `document.querySelector('#preview-video').readyState >= 1 && document.querySelector('#preview-video').duration > 1`)
	b.screenshot("6-preview")

	// Feedback makes a second preview.
	b.run("feedback", chromedp.SendKeys("#preview-feedback", "the ball should be blue", chromedp.ByQuery),
		chromedp.Click("#send-feedback", chromedp.ByQuery))
	b.runFor("second preview", 3*time.Minute, poll(fmt.Sprintf(
		`(() => { const p = document.querySelector('#preview'); return !!p && p.dataset.render !== %q && !!document.querySelector('#approve-preview'); })()`, first)))
	if n := b.count(".bubble.user"); n == 0 {
		t.Error("the feedback does not show in the conversation")
	}

	// Approve with the project's preset ticked; the final renders and downloads.
	var checked []string
	b.waitJS("presets ticked", 30*time.Second, `document.querySelectorAll('#approve-presets input').length > 0`)
	b.run("ticked", chromedp.Evaluate(`[...document.querySelectorAll('#approve-presets input:checked')].map(i => i.value)`, &checked))
	if len(checked) != 1 || checked[0] != "720p" {
		t.Errorf("presets ticked for approval = %v, want the project's 720p", checked)
	}
	b.run("approve preview", chromedp.Click("#approve-preview", chromedp.ByQuery),
		chromedp.WaitVisible("#finals .bar", chromedp.ByQuery))
	b.screenshot("7-rendering")
	b.runFor("final ready", 3*time.Minute, chromedp.WaitVisible("#finals a.download", chromedp.ByQuery))
	if got := b.text(`.steps li.current, .steps li:last-child`); !strings.Contains(got, "Finals") {
		t.Errorf("last step = %q", got)
	}
	b.run("rerender offered", chromedp.WaitVisible("#rerender-go", chromedp.ByQuery))
	b.screenshot("8-finals")

	c.do(http.MethodGet, "/v1/projects/"+id, nil, &p)
	var final *studioRender
	for i := range p.Renders {
		if p.Renders[i].Kind == "final" && p.Renders[i].Status == "succeeded" {
			final = &p.Renders[i]
		}
	}
	if final == nil {
		t.Fatalf("no succeeded final render: %+v", p.Renders)
	}
	var href string
	b.run("link", chromedp.AttributeValue("#finals a.download", "href", &href, nil, chromedp.ByQuery))
	// Signed URLs differ in their expiry; the file they name must be the same.
	if a, _, _ := strings.Cut(href, "?"); a != strings.SplitN(final.VideoURL, "?", 2)[0] {
		t.Errorf("download link = %q, API video_url = %q", href, final.VideoURL)
	}
	b.run("download", chromedp.Click("#finals a.download", chromedp.ByQuery))
	path, name := b.waitDownload(time.Minute)
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := fetchBytes(t, final.VideoURL)
	if !bytes.Equal(got, want) || int64(len(got)) != final.SizeBytes {
		t.Errorf("downloaded %d bytes (%s), the API's video is %d bytes, size_bytes %d; equal=%v",
			len(got), name, len(want), final.SizeBytes, bytes.Equal(got, want))
	}
	if len(got) < 12 || string(got[4:8]) != "ftyp" || !strings.HasSuffix(name, ".mp4") {
		t.Errorf("download %q is not an MP4", name)
	}
	// The revised plan may have changed the duration; the render says which it made.
	checkVideo(t, path, 1280, 720, 30, final.DurationS)

	// Re-render to one more preset, as a batch; its row gets its own progress and link.
	b.run("rerender", chromedp.Click(`#rerender-presets input[value="tiktok"]`, chromedp.ByQuery),
		chromedp.Click("#rerender-go", chromedp.ByQuery))
	b.runFor("batch rendered", 3*time.Minute, poll(`document.querySelectorAll('#finals a.download').length === 2`))
	var batched studioProject
	c.do(http.MethodGet, "/v1/projects/"+id, nil, &batched)
	var tiktok int
	for _, r := range batched.Renders {
		if r.Kind == "final" && r.Status == "succeeded" && r.BatchID != "" && strings.Contains(r.VideoURL, r.ID) {
			tiktok++
		}
	}
	if tiktok != 2 || b.text(`#finals li.render:last-child strong`) != "tiktok" {
		t.Errorf("after the re-render: %d batched finals (want the approval's and the re-render's), last row %q",
			tiktok, b.text(`#finals li.render:last-child strong`))
	}

	// The list shows the project, filtered by phase.
	b.run("list", chromedp.Navigate(m.PublicURL+"/#/"), chromedp.WaitVisible(`#projects tr[data-id="`+id+`"]`, chromedp.ByQuery))
	b.screenshot("10-list")
	b.run("filter",
		chromedp.SetValue("#filter-phase", "error", chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#filter-phase').dispatchEvent(new Event('change'))`, nil),
		chromedp.WaitVisible(".empty", chromedp.ByQuery))
	b.checkNoProblems()
}

// gatedAgent is the builtin agent, held after writing the files of its first
// generation until the test opens the gate, so a person's actions land while it works.
type gatedAgent struct {
	koda.Agent
	gate chan struct{}
	held chan struct{}
	once sync.Once
}

func (a *gatedAgent) Generate(ctx context.Context, p *koda.Project, sb koda.Sandbox, r koda.Reporter) error {
	if err := a.Agent.Generate(ctx, p, sb, r); err != nil {
		return err
	}
	a.once.Do(func() { close(a.held) })
	select {
	case <-a.gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// studioProject is the part of a project the Studio tests compare with the page.
type studioProject struct {
	ID       string `json:"id"`
	Phase    string `json:"phase"`
	Style    string `json:"style"`
	Question *struct {
		Text    string `json:"text"`
		Options []struct {
			ID string `json:"id"`
		} `json:"options"`
	} `json:"question"`
	Plan *struct {
		Title  string `json:"title"`
		Scenes []struct {
			Name string `json:"name"`
		} `json:"scenes"`
	} `json:"plan"`
	Execution struct {
		Todos []struct {
			Status string `json:"status"`
		} `json:"todos"`
		Files []struct {
			Path string `json:"path"`
		} `json:"files"`
	} `json:"execution"`
	Preview *struct {
		RenderID string `json:"render_id"`
		VideoURL string `json:"video_url"`
	} `json:"preview"`
	Renders []studioRender `json:"renders"`
}

type studioRender struct {
	ID        string  `json:"id"`
	DurationS float64 `json:"duration_s"`
	BatchID   string  `json:"batch_id"`
	Kind      string  `json:"kind"`
	Status    string  `json:"status"`
	VideoURL  string  `json:"video_url"`
	SizeBytes int64   `json:"size_bytes"`
}

func fetchBytes(t *testing.T, url string) []byte {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, res.StatusCode, err)
	}
	return b
}

// TestStudioOperations checks the account's operations page: usage against limits,
// a failing webhook's deliveries with their attempts and a redelivery, the webhook
// secret rotating, an API key made and revoked, and the Asynqmon link.
func TestStudioOperations(t *testing.T) {
	m := startKoda(t, kodatest.MustRedis(t, kodatest.DBKodaStudio))
	c := client{t: t, base: m.PublicURL}
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(down.Close)
	var p studioProject
	c.do(http.MethodPost, "/v1/projects", map[string]any{"prompt": "a ball moving around", "duration_s": 2, "callback_url": down.URL + "/hooks"}, &p)
	c.waitProject(p.ID, time.Minute, "question", func(p project) bool { return p.Phase == "question" })

	b := newStudioBrowser(t, m.PublicURL)
	b.signIn(testAPIKey)
	b.run("ops", chromedp.Click(`nav a[href="#/ops"]`, chromedp.ByQuery),
		chromedp.WaitVisible("#usage-card .meter", chromedp.ByQuery),
		chromedp.WaitVisible("#deliveries-card", chromedp.ByQuery))
	if n := b.count("#usage-card .meter"); n != 3 {
		t.Errorf("usage shows %d meters, want 3", n)
	}

	// Deliveries to the failing receiver, with their attempts, and a redelivery.
	b.runFor("deliveries", time.Minute, poll(`(async () => {
		document.querySelector('#delivery-status').dispatchEvent(new Event('change'));
		await new Promise((r) => setTimeout(r, 300));
		return [...document.querySelectorAll('#deliveries-card tr[data-delivery] td:nth-child(3)')].some((td) => Number(td.textContent) >= 1);
	})()`, chromedp.WithPollingInterval(time.Second)))
	b.run("attempts", chromedp.Click(`#deliveries-card tr[data-delivery] button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#deliveries-card tr.detail table`, chromedp.ByQuery))
	if got := b.text(`#deliveries-card tr.detail tbody tr td:nth-child(2)`); got != "503" {
		t.Errorf("first attempt's status on the page = %q, want 503", got)
	}
	b.run("scroll", chromedp.Evaluate(`window.scrollTo(0, 0)`, nil))
	b.screenshot("9-operations")
	b.run("redeliver", chromedp.Click(`#deliveries-card tr[data-delivery] button:nth-of-type(2)`, chromedp.ByQuery),
		chromedp.WaitVisible(`//div[contains(@class,"toast")][contains(., "redelivery")]`, chromedp.BySearch))

	// The webhook secret, revealed and rotated.
	var before, after string
	b.run("reveal", chromedp.Click("#secret-card .secret-row button", chromedp.ByQuery),
		chromedp.Text("#secret-value", &before, chromedp.ByQuery))
	if !strings.HasPrefix(before, "whsec_") {
		t.Errorf("revealed secret = %q", before)
	}
	b.run("rotate", chromedp.Click("#rotate-secret", chromedp.ByQuery),
		chromedp.WaitVisible(`//p[contains(., "previous secret also signs")]`, chromedp.BySearch),
		chromedp.Click("#secret-card .secret-row button", chromedp.ByQuery),
		chromedp.Text("#secret-value", &after, chromedp.ByQuery))
	if !strings.HasPrefix(after, "whsec_") || after == before {
		t.Errorf("secret after rotation = %q, before %q", after, before)
	}

	// An API key made here works once and not after it is revoked.
	var key string
	b.run("create key", chromedp.SendKeys("#key-name", "studio-test", chromedp.ByQuery),
		chromedp.Click("#create-key", chromedp.ByQuery),
		chromedp.WaitVisible("#new-key", chromedp.ByQuery),
		chromedp.Text("#new-key", &key, chromedp.ByQuery),
		chromedp.WaitVisible(`#key-list li[data-key] button`, chromedp.ByQuery))
	if !strings.HasPrefix(key, "koda_") {
		t.Fatalf("new key on the page = %q", key)
	}
	if status, _ := (client{t: t, base: m.PublicURL, key: key}).do(http.MethodGet, "/v1/usage", nil, nil); status != http.StatusOK {
		t.Errorf("the new key answers %d", status)
	}
	b.run("revoke", chromedp.Click(`#key-list li[data-key] button`, chromedp.ByQuery),
		chromedp.WaitVisible(`#key-list li.revoked`, chromedp.ByQuery))
	if status, _ := (client{t: t, base: m.PublicURL, key: key}).do(http.MethodGet, "/v1/usage", nil, nil); status != http.StatusUnauthorized {
		t.Errorf("the revoked key answers %d, want 401", status)
	}

	var href string
	b.run("asynqmon link", chromedp.AttributeValue("#asynqmon", "href", &href, nil, chromedp.ByQuery))
	if href != "/monitoring/" {
		t.Errorf("Asynqmon link = %q", href)
	}
	b.checkNoProblems()
}

// hostileScript is what a malicious generated page would try from inside the live
// preview: read the Studio's key, reach into the Studio's page, call the API. It
// reports what it got to its parent, again and again so the test cannot miss it.
const hostileScript = `(function () {
  function attempt(f) { try { return String(f()); } catch (e) { return 'blocked:' + e.name; } }
  async function probe() {
    var r = {};
    r.own = attempt(function () { return sessionStorage.getItem('koda.apiKey'); });
    r.parent = attempt(function () { return parent.sessionStorage.getItem('koda.apiKey'); });
    r.dom = attempt(function () { return parent.document.body.innerText.length; });
    r.origin = attempt(function () { return self.origin; });
    try {
      var res = await fetch('/v1/projects', { credentials: 'include' });
      r.api = 'status:' + res.status;
    } catch (e) { r.api = 'blocked:' + e.name; }
    parent.postMessage({ type: 'hostile-report', report: r }, '*');
  }
  setInterval(probe, 300);
})();`

// hostileAgent is the builtin agent whose pages also carry hostileScript.
type hostileAgent struct{ koda.Agent }

func (a hostileAgent) Generate(ctx context.Context, p *koda.Project, sb koda.Sandbox, r koda.Reporter) error {
	if err := a.Agent.Generate(ctx, p, sb, r); err != nil {
		return err
	}
	if _, err := sb.WriteFile(ctx, "hostile.js", []byte(hostileScript), false); err != nil {
		return err
	}
	_, err := sb.Replace(ctx, "index.html", "</body>", `<script src="hostile.js"></script></body>`, 1)
	return err
}

// TestStudioPreviewFrameIsConfined serves a hostile generated page in the Studio's live
// preview and checks it can neither read the Studio's session storage (where the key
// is), nor its page, nor call the API as the signed-in person.
func TestStudioPreviewFrameIsConfined(t *testing.T) {
	m := startTuned(t, kodatest.MustRedis(t, kodatest.DBKodaStudio), func(m *Main) {
		m.Agent = hostileAgent{builtin.New(slog.New(slog.DiscardHandler))}
	})
	c := client{t: t, base: m.PublicURL}
	var p studioProject
	c.do(http.MethodPost, "/v1/projects", map[string]any{"prompt": "a ball moving around", "style": "smooth", "duration_s": 2}, &p)
	pp := c.waitProject(p.ID, time.Minute, "plan", func(p project) bool { return p.Phase == "plan" && p.Plan != nil })
	c.do(http.MethodPost, "/v1/projects/"+pp.ID+"/plan/approve", nil, &p)
	c.waitProject(p.ID, 3*time.Minute, "preview", func(p project) bool { return p.Phase == "preview" })

	b := newStudioBrowser(t, m.PublicURL)
	b.signIn(testAPIKey)
	b.run("listen", chromedp.Evaluate(`window.addEventListener('message', (e) => {
		if (e.data && e.data.type === 'hostile-report') window.__hostile = e.data.report; }); true`, nil))
	b.run("open project", chromedp.Navigate(m.PublicURL+"/#/p/"+p.ID), chromedp.WaitVisible("#live-frame", chromedp.ByQuery))
	b.run("listen again", chromedp.Evaluate(`window.addEventListener('message', (e) => {
		if (e.data && e.data.type === 'hostile-report') window.__hostile = e.data.report; }); true`, nil))
	b.waitJS("hostile report", time.Minute, `!!window.__hostile`)
	var report map[string]string
	var key string
	b.run("report", chromedp.Evaluate(`window.__hostile`, &report),
		chromedp.Evaluate(`sessionStorage.getItem('koda.apiKey')`, &key))
	t.Logf("hostile page report: %v", report)
	if key != testAPIKey {
		t.Fatalf("the Studio's own session holds %q; the test would prove nothing", key)
	}
	for _, k := range []string{"own", "parent", "dom"} {
		if !strings.HasPrefix(report[k], "blocked:") {
			t.Errorf("hostile page read %s = %q, want it blocked", k, report[k])
		}
	}
	if report["origin"] != "null" {
		t.Errorf("hostile page origin = %q, want the opaque origin null", report["origin"])
	}
	if r := report["api"]; r != "status:401" && !strings.HasPrefix(r, "blocked:") {
		t.Errorf("hostile page's API call = %q, want 401 or blocked", r)
	}
	for _, v := range report {
		if strings.Contains(v, testAPIKey) {
			t.Errorf("hostile page got the key: %v", report)
		}
	}
	// What the hostile page tried was refused inside its frame (its own policy blocks
	// connections); the Studio itself logged nothing.
	b.mu.Lock()
	refused := strings.Join(b.frameProblems, "\n")
	b.mu.Unlock()
	if !strings.Contains(refused, "/v1/projects") {
		t.Errorf("the live preview's refusal of the API call was not logged; frame errors:\n%s", refused)
	}
	b.checkNoProblems()
}

// TestStudioStreamResumes cuts the Studio's event stream while the project moves on and
// checks the page reconnects with Last-Event-ID, shows what happened meanwhile, and
// shows every event exactly once.
func TestStudioStreamResumes(t *testing.T) {
	m := startKoda(t, kodatest.MustRedis(t, kodatest.DBKodaStudio))
	c := client{t: t, base: m.PublicURL}
	target, err := url.Parse(m.PublicURL)
	if err != nil {
		t.Fatal(err)
	}
	// The browser reaches koda through a proxy that can drop every connection.
	var mu sync.Mutex
	var resumes []string // Last-Event-ID of each stream request
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.FlushInterval = -1
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/events") {
			mu.Lock()
			resumes = append(resumes, r.Header.Get("Last-Event-ID"))
			mu.Unlock()
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)

	var p studioProject
	c.do(http.MethodPost, "/v1/projects", map[string]any{"prompt": "a ball moving around", "duration_s": 2}, &p)
	c.waitProject(p.ID, time.Minute, "question", func(p project) bool { return p.Phase == "question" })
	b := newStudioBrowser(t, proxy.URL)
	b.signIn(testAPIKey)
	b.run("open", chromedp.Navigate(proxy.URL+"/#/p/"+p.ID), chromedp.WaitVisible("#question", chromedp.ByQuery),
		chromedp.WaitVisible(`#stream-status[data-state="live"]`, chromedp.ByQuery))

	// Drop the stream, and answer while the page is away.
	proxy.CloseClientConnections()
	c.do(http.MethodPost, "/v1/projects/"+p.ID+"/answer", map[string]any{"option_id": "smooth"}, nil)
	c.waitProject(p.ID, time.Minute, "plan", func(p project) bool { return p.Phase == "plan" && p.Plan != nil })
	b.runFor("plan after reconnect", time.Minute, chromedp.WaitVisible("#approve-plan", chromedp.ByQuery),
		chromedp.WaitVisible(`#stream-status[data-state="live"]`, chromedp.ByQuery))

	var evs struct {
		Events []struct {
			ID   int64  `json:"id"`
			Type string `json:"type"`
		} `json:"events"`
	}
	c.do(http.MethodGet, "/v1/projects/"+p.ID+"/events?offset=0", nil, &evs)
	// Every stored event appears once in the activity list, none twice.
	b.waitJS("all events shown", 30*time.Second, fmt.Sprintf(`document.querySelectorAll('#activity li').length >= %d`, len(evs.Events)))
	var shown []string
	b.run("activity", chromedp.Evaluate(`[...document.querySelectorAll('#activity li')].map((li) => li.dataset.type).reverse()`, &shown))
	var want []string
	for _, e := range evs.Events {
		want = append(want, e.Type)
	}
	if strings.Join(shown, ",") != strings.Join(want, ",") {
		t.Errorf("activity shows\n%v\nthe project's events are\n%v", shown, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(resumes) < 2 || resumes[0] != "" || resumes[len(resumes)-1] == "" {
		t.Errorf("stream requests carried Last-Event-ID %q; want a first without and a resume with one", resumes)
	}
	b.checkNoProblems()
}

// failOnceAgent is the builtin agent whose first generation gives up for good.
type failOnceAgent struct {
	koda.Agent
	once sync.Once
}

func (a *failOnceAgent) Generate(ctx context.Context, p *koda.Project, sb koda.Sandbox, r koda.Reporter) error {
	failed := false
	a.once.Do(func() { failed = true })
	if failed {
		return &koda.Error{Kind: koda.EUNPROCESSABLE, Code: "AGENT_GAVE_UP", Message: "the agent could not write this scene"}
	}
	return a.Agent.Generate(ctx, p, sb, r)
}

// TestStudioRetryFromError shows a project stopped in error with its reason, and the
// person's retry taking it on to a preview.
func TestStudioRetryFromError(t *testing.T) {
	m := startTuned(t, kodatest.MustRedis(t, kodatest.DBKodaStudio), func(m *Main) {
		m.Agent = &failOnceAgent{Agent: builtin.New(slog.New(slog.DiscardHandler))}
	})
	c := client{t: t, base: m.PublicURL}
	var p studioProject
	c.do(http.MethodPost, "/v1/projects", map[string]any{"prompt": "a ball moving around", "style": "smooth", "duration_s": 2}, &p)
	c.waitProject(p.ID, time.Minute, "plan", func(p project) bool { return p.Phase == "plan" && p.Plan != nil })
	c.do(http.MethodPost, "/v1/projects/"+p.ID+"/plan/approve", nil, nil)

	b := newStudioBrowser(t, m.PublicURL)
	b.signIn(testAPIKey)
	b.run("open", chromedp.Navigate(m.PublicURL+"/#/p/"+p.ID))
	b.runFor("error shown", 2*time.Minute, chromedp.WaitVisible("#error #retry", chromedp.ByQuery))
	if got := b.text("#error p"); !strings.Contains(got, "AGENT_GAVE_UP") || !strings.Contains(got, "could not write this scene") {
		t.Errorf("error card says %q", got)
	}
	if n := b.count(".steps li.halted"); n == 0 {
		t.Error("the steps do not show the project halted")
	}
	b.run("retry", chromedp.Click("#retry", chromedp.ByQuery))
	b.runFor("preview after retry", 3*time.Minute, chromedp.WaitVisible("#approve-preview", chromedp.ByQuery),
		chromedp.WaitNotPresent("#error", chromedp.ByQuery))
	b.checkNoProblems()
}
