package renderer

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/kodahq/koda"
)

// servePage returns the URL to load for req, serving req.Dir on a loopback port when
// no URL is given, and a function that stops the server. A served folder also gets a
// frame sink on the same origin; a URL's page gets none (nil) and sends JPEGs instead.
func servePage(req koda.RenderRequest) (string, *frameSink, func(), error) {
	if req.URL != "" {
		u, err := withExportParam(req.URL)
		return u, nil, func() {}, err
	}
	// The folder is generated code, often a live sandbox: pageFS keeps every path,
	// symlinks included, beneath it, and serves only regular files.
	pfs, err := openPageFS(req.Dir)
	if err != nil {
		return "", nil, nil, err
	}
	entry := strings.TrimLeft(req.Entry, "/")
	if entry == "" {
		entry = "index.html"
	}
	if err := pfs.exists(entry); err != nil {
		_ = pfs.Close()
		return "", nil, nil, fmt.Errorf("page entry: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = pfs.Close()
		return "", nil, nil, fmt.Errorf("listen: %w", err)
	}
	files := http.FileServerFS(pfs)
	sink := newFrameSink()
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, sinkPrefix) {
				sink.ServeHTTP(w, r)
				return
			}
			// Every tab must see the same bytes; a cached older version would break
			// determinism across re-renders of an edited project.
			w.Header().Set("Cache-Control", "no-store")
			files.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second,
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the render fails on its own when the page cannot load
		}
	}()
	// By the time the server stops, the render has all its frames. A graceful shutdown
	// would wait for the sockets Chrome opens speculatively and never uses, which a
	// browser kept warm holds open.
	stop := func() { _ = srv.Close(); _ = pfs.Close() }
	u, err := withExportParam("http://" + ln.Addr().String() + "/" + (&url.URL{Path: entry}).EscapedPath())
	if err != nil {
		stop()
		return "", nil, nil, err
	}
	return u, sink, stop, nil
}

func withExportParam(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("page url: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "file" {
		return "", fmt.Errorf("page url %q: scheme must be http, https or file", raw)
	}
	q := u.Query()
	q.Set("export", "1")
	u.RawQuery = q.Encode()
	return u.String(), nil
}
