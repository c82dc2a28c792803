package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"

	"github.com/kodahq/koda"
)

// The floor of a canvas render on this machine: what drawing the frames and reading
// their pixels back costs in the page (a loop of __exportSeekTo and getImageData in one
// evaluation: no compositing, no transport), plus what x264 costs encoding the same
// frames from raw pixels with the render's settings. No renderer that draws the page
// in a browser and encodes with x264 can use less.

type floorResult struct {
	draw   usage            // the in-page loop
	encode map[string]usage // x264 per speed preset
	frames int
}

func measureFloor(ctx context.Context, chromium, pages, work string, c benchCase, p koda.PresetSpec, speeds []string) (*floorResult, error) {
	n := p.Frames(c.durationS)
	raw := filepath.Join(work, c.name+"-floor.rgba")
	defer os.Remove(raw)
	f, err := os.Create(raw)
	if err != nil {
		return nil, err
	}
	defer f.Close()

	// The pages, and a place for the page to hand its frames to (untimed).
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(pages)))
	// A websocket: Chrome posts a large fetch body for several times the CPU of a message.
	got := make(chan error, 1)
	mux.HandleFunc("/frames", func(w http.ResponseWriter, r *http.Request) {
		conn, _, _, err := ws.UpgradeHTTP(r, w)
		if err != nil {
			return
		}
		defer conn.Close()
		rd := &wsutil.Reader{Source: conn, State: ws.StateServerSide}
		for k := 0; k < n; k++ {
			hdr, err := rd.NextFrame()
			if err == nil && hdr.OpCode != ws.OpBinary {
				err = fmt.Errorf("frame %d: %v message", k, hdr.OpCode)
			}
			if err == nil {
				_, err = io.Copy(f, rd)
			}
			if err != nil {
				got <- err
				return
			}
		}
		got <- nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	opts := append(chromedp.DefaultExecAllocatorOptions[:0:0],
		chromedp.ExecPath(chromium), chromedp.Flag("headless", true), chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true), chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("no-first-run", true),
		chromedp.Flag("font-render-hinting", "none"), chromedp.Flag("force-color-profile", "srgb"),
		chromedp.WindowSize(p.Width, p.Height))
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	var ready bool
	if err := chromedp.Run(bctx,
		emulation.SetDeviceMetricsOverride(int64(p.Width), int64(p.Height), 1, false),
		chromedp.Navigate("http://"+ln.Addr().String()+"/canvas.html"),
		chromedp.Poll(`window.__exportReady === true`, &ready),
	); err != nil {
		return nil, fmt.Errorf("floor page: %w", err)
	}
	loop := func(send bool) string {
		body := `const d = g.getImageData(0, 0, c.width, c.height).data; sum += d[i % d.length];`
		open := ""
		if send {
			open = `const ws = new WebSocket('ws://' + location.host + '/frames'); ws.binaryType = 'arraybuffer';
  await new Promise((ok, fail) => { ws.onopen = ok; ws.onerror = fail; });`
			body = `ws.send(g.getImageData(0, 0, c.width, c.height).data);
    while (ws.bufferedAmount > 64e6) await new Promise(r => setTimeout(r, 5));`
		}
		return `(async () => {
  const c = document.querySelector('canvas'), g = c.getContext('2d');
  ` + open + `
  let sum = 0;
  for (let i = 0; i < ` + strconv.Itoa(n) + `; i++) {
    window.__exportSeekTo(i / ` + strconv.Itoa(p.FPS) + `);
    ` + body + `
  }
  return sum;
})()`
	}
	eval := func(expr string) error {
		return chromedp.Run(bctx, chromedp.Evaluate(expr, nil, func(p *runtime.EvaluateParams) *runtime.EvaluateParams {
			return p.WithAwaitPromise(true)
		}))
	}
	res := &floorResult{encode: map[string]usage{}, frames: n}
	m := startMeter()
	err = eval(loop(false))
	res.draw = m.stop()
	if err != nil {
		return nil, fmt.Errorf("floor loop: %w", err)
	}
	if err := eval(loop(true)); err != nil {
		return nil, fmt.Errorf("floor frames: %w", err)
	}
	select {
	case err := <-got:
		if err != nil {
			return nil, fmt.Errorf("floor frames: %w", err)
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	bcancel()
	acancel()
	if st, err := f.Stat(); err != nil || st.Size() != int64(n*p.Width*p.Height*4) {
		return nil, fmt.Errorf("floor frames: %d bytes, not %d", st.Size(), n*p.Width*p.Height*4)
	}
	for _, speed := range speeds {
		out := filepath.Join(work, c.name+"-floor-"+speed+".mp4")
		cmd := exec.CommandContext(ctx, "ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
			"-f", "rawvideo", "-pix_fmt", "rgba", "-s", fmt.Sprintf("%dx%d", p.Width, p.Height), "-framerate", strconv.Itoa(p.FPS),
			"-i", raw, "-frames:v", strconv.Itoa(n), "-c:v", "libx264", "-preset", speed, "-crf", strconv.Itoa(p.CRF),
			"-threads", strconv.Itoa(goruntime.NumCPU()), // as Koda's encoder (renderer.encoderArgs)
			"-pix_fmt", "yuv420p", "-color_range", "tv", "-movflags", "+faststart", "-f", "mp4", out)
		m := startMeter()
		b, err := cmd.CombinedOutput()
		res.encode[speed] = m.stop()
		_ = os.Remove(out)
		if err != nil {
			return nil, fmt.Errorf("floor encode: %v: %s", err, tail(b))
		}
	}
	return res, nil
}
