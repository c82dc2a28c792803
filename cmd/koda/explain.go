package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/kodahq/koda/agent/builtin"
)

// explainCommand prints how the builtin agent reads a prompt and lays it out: the
// subjects and the drawing chosen for each with the reason, the clauses with their
// actions and relations, the texts, the genre layout, and where each element rests.
func explainCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "show how the builtin agent reads a prompt: subjects and their drawings, actions, relations, genre and layout",
		ArgsUsage: `"<prompt>"`,
		Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print JSON instead of text"}},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			prompt := strings.TrimSpace(strings.Join(cmd.Args().Slice(), " "))
			if prompt == "" {
				return fmt.Errorf("explain: give the prompt to explain, in quotes")
			}
			if n := len([]rune(prompt)); n > 4000 {
				return fmt.Errorf("explain: the prompt has %d characters; at most 4000", n)
			}
			ex := builtin.Explain(prompt)
			if cmd.Bool("json") {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(ex)
			}
			_, err := io.WriteString(stdout, ex.String())
			return err
		},
	}
}
