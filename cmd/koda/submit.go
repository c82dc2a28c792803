package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/api"
)

// patience is how long a wait rides out a server that does not answer (a restart, a
// deploy) before it gives up.
const patience = 2 * time.Minute

// submitCommand sends a prompt to a running server and, with --wait or -o, follows it
// to its finished videos.
func submitCommand(stdout, stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name:      "submit",
		Usage:     "send a prompt to a Koda server (KODA_URL, KODA_API_KEY); --wait follows it, -o downloads the videos",
		ArgsUsage: `"prompt"`,
		Flags: append(clientFlags(),
			&cli.FloatFlag{Name: "duration", Usage: "video length in seconds; 0 lets the agent choose"},
			&cli.StringFlag{Name: "style", Usage: "playful, smooth, cinematic or custom; empty lets the agent infer it"},
		),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runSubmit(ctx, cmd, stdout, stderr)
		},
	}
}

func runSubmit(ctx context.Context, cmd *cli.Command, stdout, stderr io.Writer) error {
	if cmd.NArg() != 1 {
		return fmt.Errorf("submit: give the prompt as one argument, in quotes (got %d arguments)", cmd.NArg())
	}
	c, err := newAPIClient(cmd)
	if err != nil {
		return err
	}
	dir, err := outputDir(cmd)
	if err != nil {
		return err
	}
	// A command-line submission has nobody to answer a question or approve a plan or
	// preview, so it runs through to the final videos.
	req := api.CreateProjectRequest{Prompt: cmd.Args().First(), Style: cmd.String("style"),
		DurationS: cmd.Float("duration"), AutoApprove: true, Presets: presetList(cmd.String("presets"))}
	var p api.ProjectView
	if err := c.do(ctx, http.MethodPost, "/v1/projects", req, "", &p); err != nil {
		return c.failed(ctx, "submit", "project", err)
	}
	if !cmd.Bool("wait") && dir == "" {
		fmt.Fprintln(stdout, p.ID)
		fmt.Fprintf(stderr, "project %s accepted; follow it with GET %s/v1/projects/%s\n", p.ID, c.base, p.ID)
		return nil
	}
	fmt.Fprintf(stderr, "project %s accepted\n", p.ID)
	w := &waiter{c: c, log: stderr, tty: isTerminal(stderr), every: cmd.Duration("poll")}
	p, err = w.project(ctx, p.ID)
	if err != nil {
		return err
	}
	var failed []string
	taken := map[string]bool{}
	for _, r := range p.Renders {
		if r.Kind != koda.RenderFinal {
			continue
		}
		label := koda.PresetLabel(r.Preset)
		if r.Status != koda.RenderSucceeded {
			failed = append(failed, fmt.Sprintf("%s: %s", label, failure(r.Error)))
			continue
		}
		if dir == "" {
			fmt.Fprintf(stdout, "%s %s\n", label, r.VideoURL)
			continue
		}
		name := fileName(safeName(p.ID)+"_"+safeName(label), r.Preset.Format, r.ID, taken)
		if err := w.fetch(ctx, r, dir, name, stdout); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("project %s: %d of its videos failed:\n  %s", p.ID, len(failed), strings.Join(failed, "\n  "))
	}
	return nil
}

// batchCommand renders a template once per row of a CSV or JSON file and, with --wait
// or -o, follows the batch and downloads each row's videos.
func batchCommand(stdout, stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name:      "batch",
		Usage:     "render a template for each row of a CSV or JSON file on a Koda server; --wait follows it, -o downloads the videos",
		ArgsUsage: "<template id>",
		Flags: append(clientFlags(),
			&cli.StringFlag{Name: "csv", Usage: "rows as CSV: a first line of field names, then one row per line"},
			&cli.StringFlag{Name: "rows", Usage: `rows as JSON: [{"field": value}, …]`},
		),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return runBatch(ctx, cmd, stdout, stderr)
		},
	}
}

func runBatch(ctx context.Context, cmd *cli.Command, stdout, stderr io.Writer) error {
	if cmd.NArg() != 1 {
		return fmt.Errorf("batch: give the template's id (tpl_…) as the one argument (got %d arguments)", cmd.NArg())
	}
	tpl := cmd.Args().First()
	if (cmd.String("csv") == "") == (cmd.String("rows") == "") {
		return errors.New("batch: give the rows with either --csv rows.csv or --rows rows.json")
	}
	c, err := newAPIClient(cmd)
	if err != nil {
		return err
	}
	dir, err := outputDir(cmd)
	if err != nil {
		return err
	}
	body, contentType, err := batchBody(cmd)
	if err != nil {
		return err
	}
	var b api.BatchView
	if err := c.do(ctx, http.MethodPost, "/v1/templates/"+escape(tpl)+"/batches", body, contentType, &b); err != nil {
		return c.failed(ctx, "batch", "batch", err)
	}
	fmt.Fprintf(stderr, "batch %s accepted: %d rows, %d renders\n", b.ID, len(b.Rows), b.Total)
	for _, r := range b.Rows {
		if r.Status == koda.RowInvalid {
			fmt.Fprintf(stderr, "row %d is invalid and will not render: %s\n", r.Row, fieldErrors(r.Errors))
		}
	}
	if !cmd.Bool("wait") && dir == "" {
		fmt.Fprintln(stdout, b.ID)
		if bad := badRows(b.Rows); len(bad) > 0 {
			return fmt.Errorf("batch %s: %d of %d rows are invalid:\n  %s", b.ID, len(bad), len(b.Rows), strings.Join(bad, "\n  "))
		}
		return nil
	}
	w := &waiter{c: c, log: stderr, tty: isTerminal(stderr), every: cmd.Duration("poll")}
	if b, err = w.batch(ctx, b); err != nil {
		return err
	}
	var man api.ManifestView
	if err := retrying(ctx, patience, w.note, func() error {
		return c.do(ctx, http.MethodGet, "/v1/batches/"+b.ID+"/manifest", nil, "", &man)
	}); err != nil {
		return fmt.Errorf("batch %s: manifest: %w", b.ID, err)
	}
	renders := map[string]koda.RenderView{}
	for _, r := range b.Renders {
		renders[r.ID] = r
	}
	width := len(fmt.Sprint(len(b.Rows)))
	taken := map[string]bool{}
	var failed []string
	for _, l := range man.Lines {
		if l.Status != string(koda.RenderSucceeded) {
			continue
		}
		r, ok := renders[l.RenderID]
		if !ok {
			failed = append(failed, fmt.Sprintf("row %d (%s): the batch does not list render %s", l.Row, l.Preset, l.RenderID))
			continue
		}
		if dir == "" {
			fmt.Fprintf(stdout, "row %d %s %s\n", l.Row, l.Preset, l.VideoURL)
			continue
		}
		r.VideoURL = l.VideoURL
		name := fileName(fmt.Sprintf("row-%0*d_%s", width, l.Row, safeName(l.Preset)), r.Preset.Format, r.ID, taken)
		if err := w.fetch(ctx, r, dir, name, stdout); err != nil {
			return fmt.Errorf("batch %s: row %d: %w", b.ID, l.Row, err)
		}
	}
	failed = append(badRows(b.Rows), append(failedLines(man.Lines), failed...)...)
	if len(failed) > 0 {
		return fmt.Errorf("batch %s: %d of its %d rows failed:\n  %s", b.ID, failedRowCount(b.Rows, man.Lines), len(b.Rows), strings.Join(failed, "\n  "))
	}
	return nil
}

// badRows names the rows the server refused before rendering, with each field's error.
func badRows(rows []koda.RowProgress) []string {
	var out []string
	for _, r := range rows {
		if r.Status == koda.RowInvalid {
			out = append(out, fmt.Sprintf("row %d: %s", r.Row, fieldErrors(r.Errors)))
		}
	}
	return out
}

func fieldErrors(es []koda.FieldError) string {
	var s []string
	for _, e := range es {
		s = append(s, fmt.Sprintf("%s: %s (%s)", e.Field, e.Message, e.Code))
	}
	if len(s) == 0 {
		return "invalid"
	}
	return strings.Join(s, "; ")
}

// failedLines names each render of a valid row that did not succeed (failed, or left
// queued by a cancelled batch); invalid rows are named by badRows.
func failedLines(lines []koda.ManifestLine) []string {
	var out []string
	for _, l := range lines {
		if l.Status == string(koda.RenderSucceeded) || l.Status == koda.RowInvalid {
			continue
		}
		why := l.Error
		if why == "" {
			why = "not rendered"
		}
		out = append(out, fmt.Sprintf("row %d (%s): %s: %s", l.Row, l.Preset, l.Status, why))
	}
	return out
}

func failedRowCount(rows []koda.RowProgress, lines []koda.ManifestLine) int {
	bad := map[int]bool{}
	for _, r := range rows {
		if r.Status == koda.RowInvalid {
			bad[r.Row] = true
		}
	}
	for _, l := range lines {
		if l.Status != string(koda.RenderSucceeded) {
			bad[l.Row] = true
		}
	}
	return len(bad)
}

func failure(f *koda.Failure) string {
	if f == nil {
		return "failed"
	}
	return f.Code + ": " + f.Message
}

// fileName is stem.format, or stem_renderID.format when two renders would share it.
func fileName(stem, format, renderID string, taken map[string]bool) string {
	ext := safeName(format)
	if format == "" {
		ext = koda.FormatMP4
	}
	name := stem + "." + ext
	if taken[name] {
		name = stem + "_" + safeName(renderID) + "." + ext
	}
	taken[name] = true
	return name
}
