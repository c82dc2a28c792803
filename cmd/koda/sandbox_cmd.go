package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/sandbox"
)

// sandboxCommand is `koda sandbox prepare`: install the node template (Vite, React,
// Theatre.js, three, @react-three/fiber) once from the npm registry, so sandboxes,
// which have no network, can `npm run build`.
func sandboxCommand(stdout, stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name:  "sandbox",
		Usage: "manage sandboxes",
		Commands: []*cli.Command{{
			Name:  "prepare",
			Usage: "install the node template sandboxes mount read-only (needs the npm registry once)",
			Action: func(ctx context.Context, cmd *cli.Command) error {
				cfg, err := config.FromCommand(cmd)
				if err != nil {
					return err
				}
				dir := nodeTemplateRoot(cfg.DataDir, cfg.Sandbox.NodeTemplate)
				modules, err := sandbox.PrepareNodeTemplate(ctx, dir, "", newLogger(cfg, stderr))
				if err != nil {
					return err
				}
				fmt.Fprintf(stdout, "node template ready: %s (mounted at %s in sandboxes)\n", modules, sandbox.NodeTemplateSandboxPath)
				return nil
			},
		}},
	}
}

// nodeTemplateRoot is the folder holding prepared node templates.
func nodeTemplateRoot(dataDir, configured string) string {
	if configured != "" {
		return configured
	}
	return filepath.Join(dataDir, "node-template")
}

// templateDir is the node_modules sandboxes mount, or "" before `koda sandbox prepare`.
func templateDir(dataDir, configured string) string {
	return sandbox.NodeTemplateModules(nodeTemplateRoot(dataDir, configured))
}
