package config

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kodahq/koda"
)

// DefaultTenantLimits is KODA_TENANT_LIMITS unless set: the limits of the default
// tenant and of every tenant created without limits of its own. Unlimited tenants let
// one of them hold a node (issue 26), so each default leaves room for others:
//   - concurrent_projects 8: twice the agent pool's default 4 workers, so one tenant
//     queues at most two rounds of planning and code generation;
//   - live_sandboxes 4: four tenants together hold half of a node's 32 sandboxes
//     (KODA_SANDBOX_MAX_PER_NODE), the rest stays for others and Koda's own codegen;
//   - renders_per_day 200 and render_seconds_per_month 36000 (ten hours of rendering):
//     plenty for a team, not a node's whole month (FACTS.md: a 1080p60 5 s render is
//     about 15 s of wall time on two cores);
//   - asset_bytes 1073741824 (1 GiB): ten of the largest soundtracks an upload takes,
//     or logos, photos and fonts many times over.
const DefaultTenantLimits = "concurrent_projects=8,live_sandboxes=4,renders_per_day=200,render_seconds_per_month=36000,asset_bytes=1073741824"

// ParseTenantLimits reads "name=n,…" with the names of koda.Limits' JSON fields; 0
// means no limit, names left out are 0.
func ParseTenantLimits(s string) (koda.Limits, error) {
	var l koda.Limits
	fields := map[string]func(n float64){
		"concurrent_projects":      func(n float64) { l.ConcurrentProjects = int(n) },
		"live_sandboxes":           func(n float64) { l.LiveSandboxes = int(n) },
		"renders_per_day":          func(n float64) { l.RendersPerDay = int(n) },
		"render_seconds_per_month": func(n float64) { l.RenderSecondsPerMonth = n },
		"asset_bytes":              func(n float64) { l.AssetBytes = int64(n) },
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, num, ok := strings.Cut(part, "=")
		set, known := fields[strings.TrimSpace(name)]
		n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
		if !ok || !known || err != nil || n < 0 || (name != "render_seconds_per_month" && n != float64(int(n))) {
			return koda.Limits{}, fmt.Errorf("KODA_TENANT_LIMITS: %q must be name=n with n ≥ 0 (0: no limit) and a name among "+
				"concurrent_projects, live_sandboxes, renders_per_day, render_seconds_per_month, asset_bytes", part)
		}
		set(n)
	}
	return l, nil
}
