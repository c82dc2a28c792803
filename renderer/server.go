package renderer

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/kodahq/koda"
)

// servePage returns the URL to load for req, serving req.Dir on a loopback port when
// no URL is given, and a function that stops the server.
func servePage(req koda.RenderRequest) (string, func(), error) {
	if req.URL != "" {
		u, err := withExportParam(req.URL)
		return u, func() {}, err
	}
	st, err := os.Stat(req.Dir)
	if err != nil {
		return "", nil, fmt.Errorf("page folder: %w", err)
	}
	if !st.IsDir() {
		return "", nil, fmt.Errorf("page folder %s is not a directory", req.Dir)
	}
	entry := strings.TrimLeft(req.Entry, "/")
	if entry == "" {
		entry = "index.html"
	}
	if _, err := os.Stat(req.Dir + "/" + entry); err != nil {
		return "", nil, fmt.Errorf("page entry: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("listen: %w", err)
	}
	files := http.FileServerFS(os.DirFS(req.Dir))
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	stop := func() { _ = srv.Close() }
	u, err := withExportParam("http://" + ln.Addr().String() + "/" + (&url.URL{Path: entry}).EscapedPath())
	if err != nil {
		stop()
		return "", nil, err
	}
	return u, stop, nil
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
