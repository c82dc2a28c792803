// Command promptsuite runs the agent quality suite (agent/testdata/prompts.json) through
// the builtin agent, the local sandbox and the real renderer, and prints "N/M passed"
// with the automated and semantic counts, followed by every failed check. With -sheet it
// writes the contact sheet (four frames per prompt) and prints its path. It exits 1 when
// a prompt fails.
//
// With -prompts it runs another file of prompts in the same shape (a first-look set under
// agent/suite/fresh/, whose "expect" may be empty: it is judged by eye from the sheet).
//
// With -genres it runs the genre table's examples, and those of the table of charts named
// by their shape, as 16:9 and 9:16 videos.
//
//	go run ./agent/cmd/promptsuite [-prompts file.json | -genres] [-only id,substring] [-sheet out.png] [-scenes] [-keep dir] [-v]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"

	"github.com/kodahq/koda/agent"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/suite"
)

func main() {
	only := flag.String("only", "", "comma-separated prompt IDs or ID substrings to run, e.g. 'data-,char-ball' (default: all)")
	scenes := flag.Bool("scenes", false, "check the scene descriptions only (plan, semantic and critic checks), render nothing: seconds for the whole suite")
	sheet := flag.String("sheet", "", "write the contact sheet (PNG, four frames per prompt) here, and pages beside it")
	keep := flag.String("keep", "", "folder to keep videos and OCR stills in (default: a temporary folder, removed)")
	parallel := flag.Int("parallel", 2, "prompts run at once")
	verbose := flag.Bool("v", false, "log each prompt and print measured values")
	file := flag.String("prompts", "", "JSON file of prompts in the suite's shape (default: agent/testdata/prompts.json)")
	genres := flag.Bool("genres", false, "run the genre table's examples and the shape charts', each as a 16:9 and a 9:16 video, for a contact sheet judged by eye")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	level := slog.LevelWarn
	if *verbose {
		level = slog.LevelInfo
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	dir := *keep
	if dir == "" {
		tmp, err := os.MkdirTemp("", "koda-promptsuite-*")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	cfg := suite.Config{WorkDir: dir, Parallel: *parallel, Logger: log, Sheet: *sheet, ScenesOnly: *scenes, AgentAspect: *file != ""}
	if *only != "" {
		cfg.Only = strings.Split(*only, ",")
	}
	var prompts []agent.SuitePrompt
	if *file != "" {
		b, err := os.ReadFile(*file)
		if err == nil {
			err = json.Unmarshal(b, &prompts)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "promptsuite: read prompts %s: %v\n", *file, err)
			os.Exit(2)
		}
	}
	if *genres {
		for i, g := range builtin.Genres() {
			id := fmt.Sprintf("genre-%02d-%s", i+1, strings.ReplaceAll(g.Name, " ", "-"))
			prompts = append(prompts,
				agent.SuitePrompt{ID: id, Category: "genre", Prompt: g.Example},
				agent.SuitePrompt{ID: id + "-vertical", Category: "genre", Prompt: "Vertical 9:16: " + g.Example})
		}
		// The charts named by their shape are rows of their own table, judged on the
		// same sheet.
		for i, c := range builtin.ShapeCharts() {
			id := fmt.Sprintf("chart-%02d-%s", i+1, c.Name)
			prompts = append(prompts,
				agent.SuitePrompt{ID: id, Category: "data", Prompt: c.Example},
				agent.SuitePrompt{ID: id + "-vertical", Category: "data", Prompt: "Vertical 9:16: " + c.Example})
		}
		cfg.AgentAspect = true
	}
	rep, err := suite.Run(ctx, cfg, prompts)
	if rep != nil {
		if *verbose {
			for _, r := range rep.Results {
				fmt.Printf("%-20s %-5v %5.1fs motion=%v dominant=%v ocr=%q\n", r.ID, r.Passed(), r.Elapsed.Seconds(), r.SceneMotion, r.Dominant, r.OCR)
			}
		}
		fmt.Print(rep.String())
		if *sheet != "" && err == nil {
			fmt.Println("contact sheet:", *sheet)
			for _, p := range suite.SheetPages(*sheet, len(rep.Results)) {
				fmt.Println("contact sheet page:", p)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "promptsuite:", err)
		os.Exit(2)
	}
	if rep.Passed() != len(rep.Results) {
		os.Exit(1)
	}
}
