package kodatest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
)

// S3Module is the S3-compatible server the tests run against: Versity's gateway with its
// posix backend. It is a real, separately running S3 server that checks SigV4
// signatures and presigned URL expiry, it is a Go program reached through the Go
// module proxy (no Debian or npm package ships an S3 server here), and it keeps
// objects as plain files, so no second service has to be provisioned.
const S3Module = "github.com/versity/versitygw/cmd/versitygw@v1.8.0"

// S3 is a running S3-compatible server with one bucket for a test.
type S3 struct {
	Endpoint             string // http://127.0.0.1:port
	Region               string
	AccessKey, SecretKey string
	Bucket               string
}

// StorageURL is the KODA_STORAGE_URL selecting the bucket under prefix (may be "").
func (s S3) StorageURL(prefix string) string {
	q := url.Values{"endpoint": {s.Endpoint}, "region": {s.Region}}
	return "s3://" + s.Bucket + "/" + prefix + "?" + q.Encode()
}

// Env is the environment a koda process needs to reach the bucket.
func (s S3) Env(prefix string) []string {
	return []string{
		"KODA_STORAGE_URL=" + s.StorageURL(prefix),
		"AWS_ACCESS_KEY_ID=" + s.AccessKey,
		"AWS_SECRET_ACCESS_KEY=" + s.SecretKey,
	}
}

var (
	s3BinOnce sync.Once
	s3Bin     string
	s3BinErr  error
)

// S3Binary finds the gateway (KODA_TEST_S3_BIN, PATH, then the Go bin folder) or
// installs it with go install; scripts/install-deps.sh installs it ahead of time.
func S3Binary(tb testing.TB) string {
	tb.Helper()
	s3BinOnce.Do(func() {
		if p := os.Getenv("KODA_TEST_S3_BIN"); p != "" {
			s3Bin = p
			return
		}
		if p, err := exec.LookPath("versitygw"); err == nil {
			s3Bin = p
			return
		}
		gobin, err := exec.Command("go", "env", "GOBIN", "GOPATH").Output()
		if err != nil {
			s3BinErr = fmt.Errorf("go env: %w", err)
			return
		}
		lines := strings.Split(strings.TrimSpace(string(gobin)), "\n")
		dir := strings.TrimSpace(lines[0])
		if dir == "" && len(lines) > 1 {
			dir = filepath.Join(strings.Split(strings.TrimSpace(lines[1]), string(os.PathListSeparator))[0], "bin")
		}
		s3Bin = filepath.Join(dir, "versitygw")
		if _, err := os.Stat(s3Bin); err == nil {
			return
		}
		cmd := exec.Command("go", "install", S3Module)
		cmd.Env = append(os.Environ(), "GOBIN="+dir, "GOFLAGS=-buildvcs=false")
		if out, err := cmd.CombinedOutput(); err != nil {
			s3BinErr = fmt.Errorf("go install %s: %v\n%s", S3Module, err, out)
		}
	})
	if s3BinErr != nil {
		tb.Fatalf("no S3 server for the tests: %v", s3BinErr)
	}
	return s3Bin
}

// MustS3 starts an S3 server process for this test, with files under a temporary
// folder, and creates an empty bucket in it. The process is killed when the test ends.
func MustS3(tb testing.TB) S3 {
	tb.Helper()
	bin := S3Binary(tb)
	s := S3{Region: "us-east-1", AccessKey: "kodatestaccess", SecretKey: "kodatestsecret0123456789", Bucket: "koda-test"}
	root := tb.TempDir()
	var logs *SyncBuffer
	var cmd *exec.Cmd
	var addr string
	// The port is chosen by listening and closing; another process may take it in
	// between, so a failed start is tried again on a new port.
	for attempt := 0; ; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		addr = l.Addr().String()
		l.Close()
		logs = &SyncBuffer{}
		cmd = exec.Command(bin, "--port", addr, "--access", s.AccessKey, "--secret", s.SecretKey,
			"--region", s.Region, "posix", root)
		cmd.Stdout, cmd.Stderr = logs, logs
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		if err := cmd.Start(); err != nil {
			tb.Fatalf("start %s: %v", bin, err)
		}
		if waitListening(addr, 15*time.Second) {
			break
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if attempt == 2 {
			tb.Fatalf("S3 server did not listen on %s: %s", addr, logs.String())
		}
	}
	tb.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	s.Endpoint = "http://" + addr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := s.Client().CreateBucket(ctx, &awss3.CreateBucketInput{Bucket: aws.String(s.Bucket)}); err != nil {
		tb.Fatalf("create bucket: %v\n%s", err, logs.String())
	}
	return s
}

// Client is an S3 client of the server, for tests that look at the bucket directly.
func (s S3) Client() *awss3.Client {
	return awss3.New(awss3.Options{
		Region:       s.Region,
		BaseEndpoint: aws.String(s.Endpoint),
		UsePathStyle: true,
		Credentials:  credentials.NewStaticCredentialsProvider(s.AccessKey, s.SecretKey, ""),
	})
}

func waitListening(addr string, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}
