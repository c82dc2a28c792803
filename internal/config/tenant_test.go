package config_test

import (
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/config"
)

func TestParseTenantLimits(t *testing.T) {
	l, err := config.ParseTenantLimits(config.DefaultTenantLimits)
	if err != nil {
		t.Fatal(err)
	}
	if l.ConcurrentProjects == 0 || l.LiveSandboxes == 0 || l.RendersPerDay == 0 || l.RenderSecondsPerMonth == 0 || l.AssetBytes == 0 {
		t.Errorf("the defaults leave a limit out: %+v", l)
	}
	l, err = config.ParseTenantLimits("live_sandboxes=2, render_seconds_per_month=90.5")
	if err != nil || l != (koda.Limits{LiveSandboxes: 2, RenderSecondsPerMonth: 90.5}) {
		t.Errorf("parsed %+v, %v", l, err)
	}
	if l, err := config.ParseTenantLimits("asset_bytes=5000000"); err != nil || l != (koda.Limits{AssetBytes: 5_000_000}) {
		t.Errorf("asset_bytes: %+v, %v", l, err)
	}
	if l, err := config.ParseTenantLimits(""); err != nil || l != (koda.Limits{}) {
		t.Errorf("empty: %+v, %v; want no limits", l, err)
	}
	for _, bad := range []string{"sandboxes=2", "live_sandboxes=-1", "live_sandboxes=1.5", "renders_per_day", "renders_per_day=x", "asset_bytes=1.5"} {
		if _, err := config.ParseTenantLimits(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
