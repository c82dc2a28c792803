package live_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/live"
	"github.com/kodahq/koda/internal/storage"
	"github.com/kodahq/koda/sandbox"
	"github.com/kodahq/koda/sandbox/local"
)

func read(t *testing.T, p *live.Preview, tenant, project, name string) (string, error) {
	t.Helper()
	files, err := p.Open(context.Background(), tenant, project)
	if err != nil {
		return "", err
	}
	defer files.Close()
	b, err := fs.ReadFile(files, name)
	return string(b), err
}

// The live preview reads the folder of the sandbox writing the project while it lives
// in this process, only for the project's own tenant, and the latest checkpoint once
// the sandbox is gone.
func TestOpenReadsTheLiveSandboxThenTheCheckpoint(t *testing.T) {
	ctx := context.Background()
	prov := local.New(local.Config{Root: t.TempDir(), CommandTimeout: 10 * time.Second, Limits: local.Limits{DiskBytes: 16 << 20}})
	st := storage.NewLocal(t.TempDir(), "http://127.0.0.1:1", []byte("secret"))
	pool := sandbox.NewPool(sandbox.PoolConfig{Provider: prov, Storage: st})
	t.Cleanup(func() { _ = pool.Close(ctx); _ = prov.Close(ctx) })
	now := time.Now()
	p := &live.Preview{Secret: []byte("s"), Dirs: pool, Storage: st, WorkDir: filepath.Join(t.TempDir(), "live"),
		Now: func() time.Time { return now }}
	t.Cleanup(p.Close)

	if _, err := read(t, p, "t1", "prj_a", "index.html"); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Fatalf("nothing written yet: %v", err)
	}
	sb, _, err := pool.CreateRestored(ctx, koda.SandboxSpec{TenantID: "t1", ProjectID: "prj_a", Name: "codegen"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.WriteFile(ctx, "index.html", []byte("first draft"), false); err != nil {
		t.Fatal(err)
	}
	if got, err := read(t, p, "t1", "prj_a", "index.html"); err != nil || got != "first draft" {
		t.Fatalf("live sandbox: %q %v", got, err)
	}
	if _, err := sb.WriteFile(ctx, "index.html", []byte("second draft"), false); err != nil {
		t.Fatal(err)
	}
	if got, _ := read(t, p, "t1", "prj_a", "index.html"); got != "second draft" {
		t.Fatalf("after a write: %q", got)
	}
	// Another tenant's token for the same project ID does not reach the sandbox.
	if _, err := read(t, p, "t2", "prj_a", "index.html"); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Fatalf("another tenant read the live sandbox: %v", err)
	}
	// The sandbox is checkpointed and destroyed: its checkpoint is served.
	if err := pool.Destroy(ctx, sb.ID()); err != nil {
		t.Fatal(err)
	}
	if got, err := read(t, p, "t1", "prj_a", "index.html"); err != nil || got != "second draft" {
		t.Fatalf("from the checkpoint: %q %v", got, err)
	}
	// A newer checkpoint is served once the unpacked one is older than MaxAge.
	sb, _, err = pool.CreateRestored(ctx, koda.SandboxSpec{TenantID: "t1", ProjectID: "prj_a", Name: "codegen"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.WriteFile(ctx, "index.html", []byte("third draft"), false); err != nil {
		t.Fatal(err)
	}
	if err := pool.Destroy(ctx, sb.ID()); err != nil {
		t.Fatal(err)
	}
	if got, _ := read(t, p, "t1", "prj_a", "index.html"); got != "second draft" {
		t.Fatalf("within MaxAge the unpacked checkpoint stays: %q", got)
	}
	now = now.Add(2 * time.Second)
	if got, _ := read(t, p, "t1", "prj_a", "index.html"); got != "third draft" {
		t.Fatalf("after MaxAge: %q", got)
	}
}

func TestTokens(t *testing.T) {
	now := time.Now()
	p := &live.Preview{Secret: []byte("s"), TTL: time.Minute, Now: func() time.Time { return now }}
	tok, exp := p.Issue("t1", "prj_a")
	if exp.Sub(now) > time.Minute || exp.Sub(now) < 59*time.Second {
		t.Fatalf("expiry %v", exp.Sub(now))
	}
	if ten, prj, err := p.Verify(tok); err != nil || ten != "t1" || prj != "prj_a" {
		t.Fatalf("verify: %s %s %v", ten, prj, err)
	}
	now = now.Add(2 * time.Minute)
	if _, _, err := p.Verify(tok); koda.ErrorCode(err) != live.CodeTokenExpired || koda.ErrorKind(err) != koda.EFORBIDDEN {
		t.Fatalf("expired: %v", err)
	}
	if _, _, err := (&live.Preview{}).Verify(tok); koda.ErrorCode(err) != live.CodeTokenInvalid {
		t.Fatalf("no secret: %v", err)
	}
}
