package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/api"
)

// waiter follows a project or batch on the server by polling its resource, showing
// progress on log: a bar on a terminal, lines elsewhere.
type waiter struct {
	c     *apiClient
	log   io.Writer
	tty   bool
	every time.Duration
	noted bool
}

// note tells once that the server stopped answering, so a log shows why a wait stalls.
func (w *waiter) note(err error) {
	if !w.noted {
		w.noted = true
		fmt.Fprintf(w.log, "the server does not answer (%v); still trying for %s\n", err, patience)
	}
}

// sleep waits one polling interval; false when ctx ended (Ctrl-C).
func (w *waiter) sleep(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(w.every):
		return true
	}
}

// stopped explains a wait ended by Ctrl-C: the work goes on at the server.
func (w *waiter) stopped(what, id, path string) error {
	return fmt.Errorf("stopped waiting for %s %s; it goes on at the server: GET %s%s", what, id, w.c.base, path)
}

// project waits until project id is complete with every final render done, or failed.
func (w *waiter) project(ctx context.Context, id string) (api.ProjectView, error) {
	var p api.ProjectView
	var bar *meter
	defer func() {
		if bar != nil {
			bar.Exit()
		}
	}()
	phase := koda.Phase("")
	for {
		err := retrying(ctx, patience, w.note, func() error {
			return w.c.do(ctx, http.MethodGet, "/v1/projects/"+escape(id), nil, "", &p)
		})
		if ctx.Err() != nil {
			return p, w.stopped("project", id, "/v1/projects/"+id)
		}
		if err != nil {
			return p, fmt.Errorf("project %s: %w", id, err)
		}
		w.noted = false
		if p.Phase != phase {
			phase = p.Phase
			fmt.Fprintf(w.log, "project %s: %s\n", id, phase)
		}
		if p.Phase == koda.PhaseError {
			return p, fmt.Errorf("project %s failed: %s", id, failure(p.Error))
		}
		var finals, done, framesDone, framesTotal int
		var sum float64
		var labels []string
		for _, r := range p.Renders {
			if r.Kind != koda.RenderFinal {
				continue
			}
			finals++
			labels = append(labels, koda.PresetLabel(r.Preset))
			framesDone += r.Progress.FramesDone
			framesTotal += r.Progress.FramesTotal
			if r.Status.Done() {
				done++
				sum += 100
			} else {
				sum += r.Progress.Percent
			}
		}
		if p.Phase == koda.PhaseComplete && finals > 0 {
			if bar == nil {
				bar = newMeter(w.log, fmt.Sprintf("project %s %s", id, strings.Join(labels, ",")), w.tty)
			}
			stage := fmt.Sprintf("%d/%d videos", done, finals)
			if done == finals {
				if w.tty {
					// The bar keeps its last words; a log has its own closing line.
					bar.Set(100, stage, framesTotal, framesTotal)
				}
				bar.Finish()
				return p, nil
			}
			bar.Set(sum/float64(finals), stage, framesDone, framesTotal)
		}
		if !w.sleep(ctx) {
			return p, w.stopped("project", id, "/v1/projects/"+id)
		}
	}
}

// batch waits until batch b is no longer running (completed or cancelled). On a
// terminal a bar shows the rows done; in a log each row's end is a line.
func (w *waiter) batch(ctx context.Context, b api.BatchView) (api.BatchView, error) {
	bar := newMeter(w.log, "batch "+b.ID, w.tty)
	defer bar.Exit()
	seen := map[int]string{}
	for _, r := range b.Rows {
		seen[r.Row] = r.Status
	}
	path := "/v1/batches/" + escape(b.ID)
	for {
		var sum float64
		done := 0
		for _, r := range b.Rows {
			finished := r.Status == koda.RowInvalid || r.Status == string(koda.RenderSucceeded) || r.Status == string(koda.RenderFailed)
			if finished {
				done++
				sum += 100
			} else {
				sum += r.Percent
			}
			if !w.tty && finished && seen[r.Row] != r.Status {
				fmt.Fprintf(w.log, "batch %s: row %d %s\n", b.ID, r.Row, r.Status)
			}
			seen[r.Row] = r.Status
		}
		stage := fmt.Sprintf("%d/%d rows", done, len(b.Rows))
		if b.Status != "running" {
			if b.Status != "completed" {
				bar.Exit() // cancelled: the bar stays where the batch stopped
			} else if w.tty {
				bar.Set(100, stage, 0, 0)
			}
			bar.Finish()
			fmt.Fprintf(w.log, "batch %s %s: %d renders succeeded, %d failed\n", b.ID, b.Status, b.Succeeded, b.Failed)
			return b, nil
		}
		if len(b.Rows) > 0 {
			bar.Set(sum/float64(len(b.Rows)), stage, 0, 0)
		}
		if !w.sleep(ctx) {
			return b, w.stopped("batch", b.ID, path)
		}
		err := retrying(ctx, patience, w.note, func() error {
			return w.c.do(ctx, http.MethodGet, path, nil, "", &b)
		})
		if ctx.Err() != nil {
			return b, w.stopped("batch", b.ID, path)
		}
		if err != nil {
			return b, fmt.Errorf("batch %s: %w", b.ID, err)
		}
		w.noted = false
	}
}

// fetch downloads render r's video into dir/name and prints its path on out.
func (w *waiter) fetch(ctx context.Context, r koda.RenderView, dir, name string, out io.Writer) error {
	if r.VideoURL == "" {
		return fmt.Errorf("render %s succeeded but the server gave no link to its video", r.ID)
	}
	n, err := w.c.download(ctx, r.VideoURL, dir, name, r.SizeBytes)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("stopped downloading %s (nothing half-written was kept)", name)
		}
		return err
	}
	fmt.Fprintf(w.log, "downloaded %s (%d bytes)\n", name, n)
	fmt.Fprintln(out, filepath.Join(dir, name))
	return nil
}

// batchBody is the request that creates the batch: the CSV file as the form upload
// the server reads (its parser is the one reader of batch CSV), or the JSON rows.
func batchBody(cmd *cli.Command) (any, string, error) {
	presets := cmd.String("presets")
	if path := cmd.String("csv"); path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, "", fmt.Errorf("batch: cannot read the CSV file: %w", err)
		}
		if len(bytes.TrimSpace(data)) == 0 {
			return nil, "", fmt.Errorf("batch: the CSV file %s is empty", path)
		}
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		fw, err := mw.CreateFormFile("file", filepath.Base(path))
		if err != nil {
			return nil, "", err
		}
		_, _ = fw.Write(data)
		_ = mw.WriteField("presets", presets)
		if err := mw.Close(); err != nil {
			return nil, "", err
		}
		return &buf, mw.FormDataContentType(), nil
	}
	path := cmd.String("rows")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("batch: cannot read the rows file: %w", err)
	}
	req := api.TemplateBatchRequest{Presets: presetList(presets)}
	// The file is the rows, or a request body that holds them.
	if err := json.Unmarshal(data, &req.Rows); err != nil {
		var whole api.TemplateBatchRequest
		if !json.Valid(data) {
			return nil, "", fmt.Errorf("batch: %s is not JSON: %v", path, err)
		}
		if json.Unmarshal(data, &whole) != nil || whole.Rows == nil {
			return nil, "", fmt.Errorf("batch: %s must hold a JSON array of rows, [{\"field\": value}, …]", path)
		}
		req.Rows = whole.Rows
	}
	if len(req.Rows) == 0 {
		return nil, "", fmt.Errorf("batch: %s holds no rows", path)
	}
	return req, "", nil
}

func escape(id string) string { return url.PathEscape(id) }
