package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/internal/ssrf"
	"github.com/kodahq/koda/internal/store"
	"github.com/kodahq/koda/internal/tenant"
	"github.com/kodahq/koda/internal/webhook"
)

// openTenancy builds the tenant service (API keys, webhook secrets) and the SSRF guard.
func (m *Main) openTenancy() error {
	c := m.Config
	allow, err := ssrf.ParseAllow(c.WebhookAllow)
	if err != nil {
		return fmt.Errorf("KODA_WEBHOOK_ALLOW: %w", err)
	}
	m.guard = &ssrf.Guard{Allow: allow}
	m.tenants = &tenant.Service{Store: m.store, DefaultSecret: c.WebhookSecret,
		NewSecret: webhook.GenerateSecret, Logger: m.Logger}
	m.APIKey = c.APIKey
	if m.APIKey == "" && m.GenerateKey {
		if m.APIKey, err = localKey(c.DataDir); err != nil {
			return err
		}
	}
	if m.APIKey != "" {
		m.tenants.AddStaticKey(m.APIKey, koda.DefaultTenant)
	}
	return nil
}

// localKey returns the default tenant's local key, made once and kept in the data dir
// (readable by the owner only) so restarts keep it.
func localKey(dataDir string) (string, error) {
	path := filepath.Join(dataDir, "api_key")
	if b, err := os.ReadFile(path); err == nil && strings.HasPrefix(strings.TrimSpace(string(b)), tenant.KeyPrefix) {
		return strings.TrimSpace(string(b)), nil
	}
	key := tenant.NewKey()
	if err := os.WriteFile(path, []byte(key+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return key, nil
}

// keysCommand manages API keys directly in the database, for operators.
func keysCommand(stdout io.Writer) *cli.Command {
	open := func(ctx context.Context, cmd *cli.Command) (*tenant.Service, *store.Store, error) {
		cfg, err := config.FromCommand(cmd)
		if err != nil {
			return nil, nil, err
		}
		if err := os.MkdirAll(cfg.DataDir, 0o755); err != nil {
			return nil, nil, err
		}
		st, err := store.Open(ctx, cfg.DatabaseURLOrDefault(), nil)
		if err != nil {
			return nil, nil, err
		}
		return &tenant.Service{Store: st, NewSecret: webhook.GenerateSecret}, st, nil
	}
	tenantFlag := &cli.StringFlag{Name: "tenant", Value: koda.DefaultTenant, Usage: "the tenant the key belongs to (created when missing)"}
	return &cli.Command{
		Name:  "keys",
		Usage: "create, list and revoke API keys",
		Commands: []*cli.Command{
			{
				Name:  "create",
				Usage: "create a key and print it (it is shown only once)",
				Flags: []cli.Flag{tenantFlag, &cli.StringFlag{Name: "name", Usage: "what the key is for"}},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					svc, st, err := open(ctx, cmd)
					if err != nil {
						return err
					}
					defer st.Close()
					k, key, err := svc.CreateKey(ctx, cmd.String("tenant"), cmd.String("name"))
					if err != nil {
						return err
					}
					fmt.Fprintf(stdout, "%s\n\nKey %s for tenant %s. Store it now: it is not shown again.\n", key, k.ID, k.TenantID)
					return nil
				},
			},
			{
				Name:  "list",
				Usage: "list a tenant's keys (prefixes only)",
				Flags: []cli.Flag{tenantFlag},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					_, st, err := open(ctx, cmd)
					if err != nil {
						return err
					}
					defer st.Close()
					ks, err := st.ListAPIKeys(ctx, cmd.String("tenant"))
					if err != nil {
						return err
					}
					w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
					fmt.Fprintln(w, "ID\tPREFIX\tNAME\tCREATED\tLAST USED\tREVOKED")
					for _, k := range ks {
						fmt.Fprintf(w, "%s\t%s…\t%s\t%s\t%s\t%s\n", k.ID, k.Prefix, k.Name,
							k.CreatedAt.Format(time.RFC3339), when(k.LastUsedAt), when(k.RevokedAt))
					}
					return w.Flush()
				},
			},
			{
				Name:      "revoke",
				Usage:     "revoke a key by its ID",
				ArgsUsage: "<key id>",
				Flags:     []cli.Flag{&cli.StringFlag{Name: "tenant", Usage: "refuse unless the key belongs to this tenant"}},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if cmd.Args().Len() != 1 {
						return fmt.Errorf("usage: koda keys revoke <key id>")
					}
					svc, st, err := open(ctx, cmd)
					if err != nil {
						return err
					}
					defer st.Close()
					k, err := svc.RevokeKey(ctx, cmd.String("tenant"), cmd.Args().First())
					if err != nil {
						return err
					}
					fmt.Fprintf(stdout, "revoked %s (%s…) of tenant %s\n", k.ID, k.Prefix, k.TenantID)
					return nil
				},
			},
		},
	}
}

func when(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.Format(time.RFC3339)
}
