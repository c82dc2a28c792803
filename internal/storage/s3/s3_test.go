package s3_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/storage/s3"
	"github.com/kodahq/koda/internal/storage/storagetest"
)

func open(t *testing.T, srv kodatest.S3, prefix string, part int64) *s3.Store {
	t.Helper()
	c, err := s3.ParseURL(srv.StorageURL(prefix))
	if err != nil {
		t.Fatal(err)
	}
	c.AccessKey, c.SecretKey, c.PartSize = srv.AccessKey, srv.SecretKey, part
	st, err := s3.New(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestSuite runs the shared storage behaviour against a real S3 server process, with
// 5 MiB parts so the large file goes up as a multipart upload.
func TestSuite(t *testing.T) {
	srv := kodatest.MustS3(t)
	n := 0
	storagetest.Run(t, func(t *testing.T) koda.Storage {
		n++
		return open(t, srv, "suite"+strings.Repeat("x", n), 5<<20)
	})
}

func TestLargeRenderIsMultipart(t *testing.T) {
	srv := kodatest.MustS3(t)
	st := open(t, srv, "", 5<<20)
	ctx := context.Background()
	data := strings.Repeat("0123456789abcdef", 11<<16) // 11 MiB: three parts
	if _, err := st.Put(ctx, "r/big.mp4", strings.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	head, err := srv.Client().HeadObject(ctx, &awss3.HeadObjectInput{Bucket: aws.String(srv.Bucket), Key: aws.String("r/big.mp4")})
	if err != nil {
		t.Fatal(err)
	}
	// A multipart object's ETag is the digest of its parts' digests, suffixed "-parts".
	if etag := aws.ToString(head.ETag); !strings.HasSuffix(strings.Trim(etag, `"`), "-3") {
		t.Fatalf("ETag %s: not a three-part upload", etag)
	}
	if ct := aws.ToString(head.ContentType); ct != "video/mp4" {
		t.Fatalf("content type %q", ct)
	}
}

// TestPrefixesAreSeparate: two stores on one bucket under different prefixes see
// only their own files, and deleting a prefix in one leaves the other's alone.
func TestPrefixesAreSeparate(t *testing.T) {
	srv := kodatest.MustS3(t)
	ctx := context.Background()
	a, b := open(t, srv, "site-a", 0), open(t, srv, "site-b/nested", 0)
	for _, st := range []*s3.Store{a, b} {
		if _, err := st.Put(ctx, "projects/prj_1/checkpoint.tar.gz", strings.NewReader("x")); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.DeletePrefix(ctx, "projects/"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Open(ctx, "projects/prj_1/checkpoint.tar.gz"); koda.ErrorKind(err) != koda.ENOTFOUND {
		t.Fatalf("a: %v", err)
	}
	if got := storagetest.Read(t, b, "projects/prj_1/checkpoint.tar.gz"); got != "x" {
		t.Fatalf("b: %q", got)
	}
	if _, err := srv.Client().HeadObject(ctx, &awss3.HeadObjectInput{Bucket: aws.String(srv.Bucket), Key: aws.String("site-b/nested/projects/prj_1/checkpoint.tar.gz")}); err != nil {
		t.Fatalf("object not under its prefix: %v", err)
	}
}

func TestPingFails(t *testing.T) {
	srv := kodatest.MustS3(t)
	ctx := context.Background()
	if err := open(t, srv, "", 0).Ping(ctx); err != nil {
		t.Fatal(err)
	}
	missing := srv
	missing.Bucket = "no-such-bucket"
	if err := open(t, missing, "", 0).Ping(ctx); err == nil {
		t.Fatal("ping of a missing bucket succeeded")
	}
	wrong := srv
	wrong.SecretKey = "not-the-secret"
	if err := open(t, wrong, "", 0).Ping(ctx); err == nil {
		t.Fatal("ping with a wrong secret succeeded")
	}
}

func TestParseURL(t *testing.T) {
	c, err := s3.ParseURL("s3://renders/koda/prod?endpoint=http://127.0.0.1:9000&region=eu-west-1")
	if err != nil {
		t.Fatal(err)
	}
	if c.Bucket != "renders" || c.Prefix != "koda/prod" || c.Endpoint != "http://127.0.0.1:9000" || c.Region != "eu-west-1" || !c.PathStyle {
		t.Fatalf("%+v", c)
	}
	c, err = s3.ParseURL("s3://renders")
	if err != nil || c.PathStyle || c.Prefix != "" {
		t.Fatalf("%+v %v", c, err)
	}
	for _, bad := range []string{"file:///tmp", "s3:///prefix", "s3://b/../x", "s3://b?endpint=x", "s3://b?path_style=maybe"} {
		if _, err := s3.ParseURL(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestURLWithoutCredentials: with no credentials to be had, a download link is an
// EUNAVAILABLE error, not an empty string handed to users and webhooks.
func TestURLWithoutCredentials(t *testing.T) {
	srv := kodatest.MustS3(t)
	// The standard chain finds nothing: no variables, no files, no instance role.
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
		"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_WEB_IDENTITY_TOKEN_FILE"} {
		t.Setenv(k, "")
	}
	none := t.TempDir() + "/none"
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", none)
	t.Setenv("AWS_CONFIG_FILE", none)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	bare := srv
	bare.AccessKey, bare.SecretKey = "", ""
	st := open(t, bare, "", 0)
	raw, err := st.URL("projects/prj_1/renders/rnd_1.mp4", time.Hour)
	if err == nil || raw != "" {
		t.Fatalf("URL without credentials = %q, %v", raw, err)
	}
	if koda.ErrorKind(err) != koda.EUNAVAILABLE || koda.ErrorCode(err) != s3.CodeURLUnsigned {
		t.Fatalf("kind %s code %s: %v", koda.ErrorKind(err), koda.ErrorCode(err), err)
	}
	// The same store with credentials signs a link the server honours.
	withCreds := open(t, srv, "", 0)
	if _, err := withCreds.Put(context.Background(), "projects/prj_1/renders/rnd_1.mp4", strings.NewReader("v")); err != nil {
		t.Fatal(err)
	}
	if raw := storagetest.URL(t, withCreds, "projects/prj_1/renders/rnd_1.mp4", time.Hour); !strings.HasPrefix(raw, srv.Endpoint) {
		t.Fatalf("link %s not on the server", raw)
	}
}
