package main

import (
	"context"
	"errors"
	"path/filepath"
	"sync"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox"
	"github.com/kodahq/koda/sandbox/local"
)

// openSandboxes builds, once per process, the local sandbox provider and the pool that
// workers (codegen) and the sandbox API share: limits per tenant and node, idle reaping
// (the pool's own loop on this node), checkpoints to storage.
func (m *Main) openSandboxes() (*sandbox.Pool, error) {
	if m.pool != nil {
		return m.pool, nil
	}
	c := m.Config.Sandbox
	lc := local.Config{
		Root:   filepath.Join(m.Config.DataDir, "sandboxes"),
		Logger: m.Logger,
		Limits: local.Limits{
			MemoryBytes: int64(c.MemoryMiB) << 20, Pids: c.Pids, CPUs: c.CPUs, DiskBytes: int64(c.DiskMiB) << 20,
		},
		// All tenants' sandboxes of this node share one group with these ceilings
		// (zero: half the node's cores and memory); Koda's own are outside it (issue 26).
		Tenants: local.Ceiling{CPUs: c.TenantCPUs, MemoryBytes: int64(c.TenantMemMiB) << 20},
	}
	if tpl := templateDir(m.Config.DataDir, c.NodeTemplate); tpl != "" {
		lc.ReadOnly = append(lc.ReadOnly, local.Bind{Host: tpl, Sandbox: sandbox.NodeTemplateSandboxPath})
	}
	m.sandboxes = local.New(lc)
	// Sandboxes of an earlier run of this process are dead: remove their mounts,
	// cgroups and folders.
	if err := m.sandboxes.Sweep(context.Background()); err != nil {
		m.Logger.Warn("sweep old sandboxes", "err", err)
	}
	pc := sandbox.PoolConfig{
		Provider: m.sandboxes, Storage: m.storage, Logger: m.Logger,
		MaxPerTenant: orDefault(c.MaxPerTenant, 8), MaxPerNode: orDefault(c.MaxPerNode, 32),
		// Half the node for tenants' API sandboxes unless configured: the other half is
		// Koda's own, so tenants cannot stall everyone's codegen (issue 26).
		TenantShare: orDefault(c.TenantShare, max(orDefault(c.MaxPerNode, 32)/2, 1)),
		MaxLifetime: c.MaxLifetime, IdleTimeout: c.Idle,
	}
	if m.lifecycle != nil {
		// The tenant's live-sandbox limit (429) across the cluster, for the API's
		// sandboxes and the agent's alike.
		pc.Admit = m.lifecycle.AdmitSandbox
	}
	m.pool = sandbox.NewPool(pc)
	// Each process reaps the idle sandboxes it holds itself (KODA_SANDBOX_IDLE), and
	// renews their leases, which lapse when it dies.
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { m.pool.RunReaper(ctx) })
	if m.leases != nil {
		wg.Go(func() { m.leases.Run(ctx) })
	}
	m.stopReaper = func() { stop(); wg.Wait() }
	return m.pool, nil
}

// closeSandboxes checkpoints and destroys every sandbox, then releases the provider.
func (m *Main) closeSandboxes() error {
	var errs []error
	if m.stopReaper != nil {
		m.stopReaper()
	}
	if m.pool != nil {
		errs = append(errs, m.pool.Close(context.Background()))
	}
	if m.sandboxes != nil {
		errs = append(errs, m.sandboxes.Close(context.Background()))
	}
	return errors.Join(errs...)
}

func (m *Main) agentOr(def koda.Agent) koda.Agent {
	if m.Agent != nil {
		return m.Agent
	}
	return def
}

func orDefault(n, def int) int {
	if n > 0 {
		return n
	}
	return def
}
