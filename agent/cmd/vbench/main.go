// Command vbench runs the outside benchmark (VBench's prompt sets, agent/suite/testdata/
// vbench) through the builtin agent and prints, per dimension, how many scenes draw what
// was asked: the object, both objects, the colour, the spatial relation. With -actions N
// it writes the first N human-action prompts as a prompt file for promptsuite's contact
// sheet, judged by eye. It exits 1 when a case fails, 2 when it cannot run.
//
//	go run ./agent/cmd/vbench [-dim color,spatial_relationship] [-actions 30 -out actions.json]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/kodahq/koda/agent"
	"github.com/kodahq/koda/agent/suite"
)

func main() {
	dims := flag.String("dim", "", "comma-separated dimensions to run (default: all four scene-level ones)")
	actions := flag.Int("actions", 0, "write this many human-action prompts to -out instead of checking scenes")
	out := flag.String("out", "vbench-actions.json", "prompt file written by -actions")
	flag.Parse()
	if err := run(*dims, *actions, *out); err != nil {
		fmt.Fprintln(os.Stderr, "vbench:", err)
		os.Exit(2)
	}
}

func run(dims string, actions int, out string) error {
	if actions > 0 {
		acts, err := suite.VBenchActions()
		if err != nil {
			return err
		}
		var ps []agent.SuitePrompt
		for i, a := range acts[:min(actions, len(acts))] {
			ps = append(ps, agent.SuitePrompt{ID: fmt.Sprintf("action-%02d", i+1), Category: "human_action", Prompt: a})
		}
		b, err := json.MarshalIndent(ps, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return err
		}
		fmt.Println("wrote", len(ps), "prompts to", out)
		return nil
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cases, err := suite.VBenchCases()
	if err != nil {
		return err
	}
	if dims != "" {
		want := strings.Split(dims, ",")
		cases = slices.DeleteFunc(cases, func(c suite.VBenchCase) bool { return !slices.Contains(want, c.Dim) })
	}
	dir, err := os.MkdirTemp("", "koda-vbench-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	rep, err := suite.RunVBench(ctx, dir, cases, nil)
	if err != nil {
		return err
	}
	fmt.Print(rep.String())
	for _, r := range rep.Results {
		if len(r.Failures) > 0 {
			os.Exit(1)
		}
	}
	return nil
}
