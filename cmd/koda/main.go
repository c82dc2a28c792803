// Command koda is Koda in one binary: `koda serve` runs everything in one process on
// embedded defaults; `koda api` and `koda worker` split it across processes and
// machines that share Redis, the database and storage.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/urfave/cli/v3"

	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/internal/store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newCLI(os.Stdout, os.Stderr).Run(ctx, os.Args); err != nil {
		fmt.Fprintln(os.Stderr, "koda:", err)
		os.Exit(1)
	}
}

func newCLI(stdout, stderr io.Writer) *cli.Command {
	return &cli.Command{
		Name:      "koda",
		Usage:     "turn descriptions into rendered animation videos",
		Writer:    stdout,
		ErrWriter: stderr,
		Flags:     config.Flags(),
		Commands: []*cli.Command{
			{
				Name:  "serve",
				Usage: "run the API, every worker pool, the scheduler and Asynqmon in one process",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return run(ctx, cmd, stdout, stderr, true, config.AllPools)
				},
			},
			{
				Name:  "api",
				Usage: "run only the HTTP API (with Asynqmon at /monitoring/)",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					return run(ctx, cmd, stdout, stderr, true, nil)
				},
			},
			{
				Name:  "worker",
				Usage: "run worker pools (--pools agent,preview,render,webhooks,maintenance)",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					cfg, err := config.FromCommand(cmd)
					if err != nil {
						return err
					}
					if len(cfg.Pools) == 0 {
						return fmt.Errorf("--pools must name at least one of %s", strings.Join(config.AllPools, ","))
					}
					return run(ctx, cmd, stdout, stderr, false, cfg.Pools)
				},
			},
			{
				Name:  "migrate",
				Usage: "apply database migrations and exit",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					cfg, err := config.FromCommand(cmd)
					if err != nil {
						return err
					}
					if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
						return err
					}
					if err := store.Migrate(ctx, cfg.DatabaseURLOrDefault()); err != nil {
						return err
					}
					fmt.Fprintln(stdout, "migrations applied")
					return nil
				},
			},
			demoCommand(stdout, stderr),
			keysCommand(stdout),
			sandboxCommand(stdout, stderr),
			renderCommand(stdout, stderr),
			submitCommand(stdout, stderr),
			batchCommand(stdout, stderr),
			explainCommand(stdout),
		},
	}
}

// run starts a process with the API and/or pools and serves until a signal.
func run(ctx context.Context, cmd *cli.Command, stdout, logOut io.Writer, withAPI bool, pools []string) error {
	cfg, err := config.FromCommand(cmd)
	if err != nil {
		return err
	}
	logger := newLogger(cfg, logOut)
	// The all-in-one server makes a local key, so a first run needs no set-up.
	m := &Main{Config: cfg, Logger: logger, API: withAPI, Pools: pools, GenerateKey: withAPI && len(pools) > 0}
	if err := m.Open(ctx); err != nil {
		return err
	}
	if m.API && cfg.APIKey == "" && m.APIKey != "" {
		fmt.Fprintf(stdout, "API key for the default tenant (kept in %s/api_key):\n  %s\nSend it as Authorization: Bearer <key>.\n", cfg.DataDir, m.APIKey)
	}
	if m.API {
		fmt.Fprintln(stdout, dashboardHelp(m.PublicURL, m.AdminKey, cfg.AdminKey == "", cfg.DataDir))
	}
	logger.Info("koda started", "config", cfg.String())
	err = m.Wait(ctx)
	logger.Info("shutting down: draining running tasks", "timeout", cfg.ShutdownTimeout)
	if cerr := m.Close(); err == nil {
		err = cerr
	}
	return err
}

// dashboardHelp tells a person how to open Asynqmon: the browser asks for a user name
// (any) and a password (the admin key). Only a key Koda made and kept is shown: one the
// operator configured is theirs already and has no place in a log.
func dashboardHelp(publicURL, adminKey string, kept bool, dataDir string) string {
	if !kept {
		return fmt.Sprintf("Dashboard (Asynqmon): %s/monitoring/ (user: admin, password: KODA_ADMIN_KEY)", publicURL)
	}
	return fmt.Sprintf("Dashboard (Asynqmon): %s/monitoring/ (user: admin, password: the admin key in %s/admin_key)\n  %s",
		publicURL, dataDir, adminKey)
}

func newLogger(cfg *config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
