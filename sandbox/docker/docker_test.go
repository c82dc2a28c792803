package docker_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox/docker"
)

// engine returns a provider, or skips saying why when no Docker engine answers (this
// project's CI machines have only the docker client).
func engine(t *testing.T) *docker.Provider {
	t.Helper()
	p, err := docker.New(docker.Config{Root: t.TempDir(), Image: os.Getenv("KODA_TEST_DOCKER_IMAGE")})
	if err != nil {
		t.Skipf("no Docker client configuration: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := p.Ping(ctx); err != nil {
		t.Skipf("no Docker engine answers (DOCKER_HOST=%q): %v", os.Getenv("DOCKER_HOST"), err)
	}
	return p
}

func TestDockerSandbox(t *testing.T) {
	p := engine(t)
	ctx := context.Background()
	sb, err := p.Create(ctx, koda.SandboxSpec{ProjectID: "prj_docker"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Destroy(ctx, sb.ID())
	if _, err := sb.WriteFile(ctx, "a.txt", []byte("hi"), false); err != nil {
		t.Fatal(err)
	}
	res, err := sb.RunCommand(ctx, koda.CommandRequest{Command: "cat a.txt; id -u; cat /proc/self/status | grep CapEff"})
	if err != nil || !strings.HasPrefix(res.Stdout, "hi65534\n") || !strings.Contains(res.Stdout, "0000000000000000") {
		t.Fatalf("%+v %v", res, err)
	}
	res, _ = sb.RunCommand(ctx, koda.CommandRequest{Command: "wget -T 2 -q -O- http://1.1.1.1 || echo blocked"})
	if !strings.Contains(res.Stdout, "blocked") {
		t.Fatalf("network reachable: %+v", res)
	}
	_, err = sb.RunCommand(ctx, koda.CommandRequest{Command: "sleep 30", TimeoutMS: 300})
	if koda.ErrorCode(err) != koda.CodeTimeout {
		t.Fatalf("timeout: %v", err)
	}
	_, err = sb.ReadFile(ctx, "../../etc/passwd", 0, 0)
	if koda.ErrorCode(err) != koda.CodeInvalidPath {
		t.Fatalf("escape: %v", err)
	}
}
