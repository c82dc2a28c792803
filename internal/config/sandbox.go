package config

import (
	"time"

	"github.com/urfave/cli/v3"
)

// Sandbox configures the sandboxes generated code runs in (sandbox/local). Zero values
// take the documented defaults.
type Sandbox struct {
	MaxPerTenant int           // KODA_SANDBOX_MAX_PER_TENANT: live sandboxes per tenant on a node (default 8)
	MaxPerNode   int           // KODA_SANDBOX_MAX_PER_NODE: live sandboxes on a node (default 32)
	TenantShare  int           // KODA_SANDBOX_TENANT_SHARE: tenants' API sandboxes on a node, all together (default half of MaxPerNode)
	MaxLifetime  time.Duration // KODA_SANDBOX_MAX_LIFETIME: a tenant's API sandbox ends this long after it was made (default 1h; 0 in code: none)
	MemoryMiB    int           // KODA_SANDBOX_MEMORY_MIB (default 1024)
	Pids         int           // KODA_SANDBOX_PIDS (default 256)
	CPUs         float64       // KODA_SANDBOX_CPUS (default 1)
	DiskMiB      int           // KODA_SANDBOX_DISK_MIB: the project folder's quota (default 512)
	TenantCPUs   float64       // KODA_SANDBOX_TENANT_CPUS: CPU ceiling of all tenant sandboxes of a node together, in cores (default half the node's cores)
	TenantMemMiB int           // KODA_SANDBOX_TENANT_MEMORY_MIB: memory ceiling of all tenant sandboxes of a node together (default half the node's memory)
	Idle         time.Duration // KODA_SANDBOX_IDLE: checkpoint and destroy after this idle time (default 5m)
	NodeTemplate string        // KODA_NODE_TEMPLATE: folder of the prepared node template (default <data-dir>/node-template)
	Render       bool          // KODA_RENDER_SANDBOX: render in a browser inside bubblewrap without network (default true)
}

func sandboxFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "sandbox-max-per-tenant", Value: 8, Usage: "live sandboxes one tenant may hold on a node", Sources: cli.EnvVars("KODA_SANDBOX_MAX_PER_TENANT")},
		&cli.IntFlag{Name: "sandbox-max-per-node", Value: 32, Usage: "live sandboxes on a node", Sources: cli.EnvVars("KODA_SANDBOX_MAX_PER_NODE")},
		&cli.IntFlag{Name: "sandbox-tenant-share", Usage: "live sandboxes all tenants together may make through the API on a node; the rest stays for Koda's own codegen and previews (default: half of sandbox-max-per-node)", Sources: cli.EnvVars("KODA_SANDBOX_TENANT_SHARE")},
		&cli.DurationFlag{Name: "sandbox-max-lifetime", Value: time.Hour, Usage: "a tenant's API sandbox is checkpointed and destroyed this long after it was made, however active (0: no limit)", Sources: cli.EnvVars("KODA_SANDBOX_MAX_LIFETIME")},
		&cli.IntFlag{Name: "sandbox-memory-mib", Value: 1024, Usage: "memory cap of one sandbox, MiB", Sources: cli.EnvVars("KODA_SANDBOX_MEMORY_MIB")},
		&cli.IntFlag{Name: "sandbox-pids", Value: 256, Usage: "process cap of one sandbox", Sources: cli.EnvVars("KODA_SANDBOX_PIDS")},
		&cli.FloatFlag{Name: "sandbox-cpus", Value: 1, Usage: "CPU cap of one sandbox, in cores", Sources: cli.EnvVars("KODA_SANDBOX_CPUS")},
		&cli.IntFlag{Name: "sandbox-disk-mib", Value: 512, Usage: "disk quota of one sandbox's project folder, MiB", Sources: cli.EnvVars("KODA_SANDBOX_DISK_MIB")},
		&cli.FloatFlag{Name: "sandbox-tenant-cpus", Usage: "CPU ceiling, in cores, of all tenants' sandboxes on a node together; Koda's own codegen and preview sandboxes are outside it (default: half the node's cores)", Sources: cli.EnvVars("KODA_SANDBOX_TENANT_CPUS")},
		&cli.IntFlag{Name: "sandbox-tenant-memory-mib", Usage: "memory ceiling, MiB, of all tenants' sandboxes on a node together, their disks included (default: half the node's memory)", Sources: cli.EnvVars("KODA_SANDBOX_TENANT_MEMORY_MIB")},
		&cli.DurationFlag{Name: "sandbox-idle", Value: 5 * time.Minute, Usage: "idle time after which a sandbox is checkpointed and destroyed", Sources: cli.EnvVars("KODA_SANDBOX_IDLE")},
		&cli.StringFlag{Name: "node-template", Usage: "folder of the node template made by `koda sandbox prepare` (default: <data-dir>/node-template)", Sources: cli.EnvVars("KODA_NODE_TEMPLATE")},
		&cli.BoolFlag{Name: "render-sandbox", Value: true, Usage: "render generated pages in a browser inside bubblewrap with no network (needs root and bwrap)", Sources: cli.EnvVars("KODA_RENDER_SANDBOX")},
	}
}

func sandboxFromCommand(cmd *cli.Command) Sandbox {
	return Sandbox{
		MaxPerTenant: int(cmd.Int("sandbox-max-per-tenant")),
		MaxPerNode:   int(cmd.Int("sandbox-max-per-node")),
		TenantShare:  int(cmd.Int("sandbox-tenant-share")),
		MaxLifetime:  cmd.Duration("sandbox-max-lifetime"),
		MemoryMiB:    int(cmd.Int("sandbox-memory-mib")),
		Pids:         int(cmd.Int("sandbox-pids")),
		CPUs:         cmd.Float("sandbox-cpus"),
		DiskMiB:      int(cmd.Int("sandbox-disk-mib")),
		TenantCPUs:   cmd.Float("sandbox-tenant-cpus"),
		TenantMemMiB: int(cmd.Int("sandbox-tenant-memory-mib")),
		Idle:         cmd.Duration("sandbox-idle"),
		NodeTemplate: cmd.String("node-template"),
		Render:       cmd.Bool("render-sandbox"),
	}
}
