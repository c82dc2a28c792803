package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
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
	"github.com/kodahq/koda/internal/secretbox"
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
		NewSecret: webhook.GenerateSecret, Logger: m.Logger, MaxKeys: c.MaxAPIKeys, DefaultLimits: c.TenantLimits}
	m.APIKey = c.APIKey
	if m.APIKey == "" && m.GenerateKey {
		if m.APIKey, err = localKey(c.DataDir); err != nil {
			return err
		}
	}
	if m.APIKey != "" {
		m.tenants.AddStaticKey(m.APIKey, koda.DefaultTenant)
	}
	// The dashboard is one of the ways Koda is used, so every API process serves it:
	// with KODA_ADMIN_KEY, or with a key made on first start and kept in the data dir.
	m.AdminKey = c.AdminKey
	if m.AdminKey == "" && m.API {
		if m.AdminKey, err = keptKey(c.DataDir, "admin_key", adminKeyPrefix, newAdminKey); err != nil {
			return err
		}
	}
	return nil
}

// adminKeyPrefix marks a generated admin key, so a key file from elsewhere is not taken.
const adminKeyPrefix = "kadm_"

func newAdminKey() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return adminKeyPrefix + hex.EncodeToString(b)
}

// localKey returns the default tenant's local key, made once and kept in the data dir
// (readable by the owner only) so restarts keep it.
func localKey(dataDir string) (string, error) {
	return keptKey(dataDir, "api_key", tenant.KeyPrefix, tenant.NewKey)
}

// keptKey returns the key in the data dir's file name, first writing one made by gen
// (0600) when the file is missing or does not hold a key with the prefix.
func keptKey(dataDir, name, prefix string, gen func() string) (string, error) {
	path := filepath.Join(dataDir, name)
	if b, err := os.ReadFile(path); err == nil && strings.HasPrefix(strings.TrimSpace(string(b)), prefix) {
		return strings.TrimSpace(string(b)), nil
	}
	key := gen()
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
		// The same secrets as the server's, so tenants made here get sealed secrets.
		if err := cfg.EnsureSecrets(webhook.GenerateSecret); err != nil {
			return nil, nil, err
		}
		box, err := secretbox.New(cfg.SecretKey)
		if err != nil {
			return nil, nil, fmt.Errorf("KODA_SECRET_KEY: %w", err)
		}
		st, err := store.Open(ctx, cfg.DatabaseURLOrDefault(), nil, store.SealSecrets(box))
		if err != nil {
			return nil, nil, err
		}
		return &tenant.Service{Store: st, NewSecret: webhook.GenerateSecret, MaxKeys: cfg.MaxAPIKeys, DefaultLimits: cfg.TenantLimits}, st, nil
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
					ks, err := st.ListAPIKeys(ctx, koda.APIKeyFilter{TenantID: cmd.String("tenant")})
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
