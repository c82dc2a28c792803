// Package s3 keeps Koda's permanent files in an S3-compatible bucket, so several
// machines share checkpoints, previews and renders without a shared folder. Downloads
// are presigned GETs, served by the object store itself.
package s3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/s3/transfermanager"
	awss3 "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/internal/storage"
)

// MaxURLTTL is the longest a SigV4 presigned URL may live.
const MaxURLTTL = 7 * 24 * time.Hour

// Config selects a bucket and how to reach it.
type Config struct {
	Bucket string
	// Prefix, without slashes at either end, is put before every key.
	Prefix string
	// Endpoint is the base URL of an S3-compatible server; empty means AWS.
	Endpoint string
	// Region defaults to AWS_REGION, then us-east-1.
	Region string
	// PathStyle addresses the bucket in the path rather than the host name, as most
	// S3-compatible servers need; on by default when Endpoint is set.
	PathStyle bool
	// Static credentials; when AccessKey is empty the standard AWS chain is used
	// (AWS_ACCESS_KEY_ID, shared profiles, instance roles).
	AccessKey, SecretKey, SessionToken string
	// PartSize is the multipart part size and threshold (default 16 MiB; S3's
	// minimum is 5 MiB).
	PartSize int64
}

// ParseURL reads s3://bucket/prefix?endpoint=…&region=…&path_style=true|false.
func ParseURL(raw string) (Config, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Config{}, fmt.Errorf("storage URL: %w", err)
	}
	if u.Scheme != "s3" || u.Host == "" {
		return Config{}, fmt.Errorf("storage URL %q: want s3://bucket[/prefix][?endpoint=…&region=…]", raw)
	}
	q := u.Query()
	c := Config{
		Bucket:   u.Host,
		Prefix:   strings.Trim(u.Path, "/"),
		Endpoint: q.Get("endpoint"),
		Region:   q.Get("region"),
	}
	c.PathStyle = c.Endpoint != ""
	if v := q.Get("path_style"); v != "" {
		if c.PathStyle, err = strconv.ParseBool(v); err != nil {
			return Config{}, fmt.Errorf("storage URL %q: path_style: %w", raw, err)
		}
	}
	for k := range q {
		switch k {
		case "endpoint", "region", "path_style":
		default:
			return Config{}, fmt.Errorf("storage URL %q: unknown parameter %q", raw, k)
		}
	}
	if c.Prefix != "" {
		if err := storage.CheckKey(c.Prefix); err != nil {
			return Config{}, fmt.Errorf("storage URL %q: prefix: %w", raw, err)
		}
	}
	return c, nil
}

// Store is a koda.Storage in a bucket. It is safe for concurrent use.
type Store struct {
	client  *awss3.Client
	presign *awss3.PresignClient
	upload  *transfermanager.Client
	bucket  string
	prefix  string
}

var _ koda.Storage = (*Store)(nil)

// New builds a Store; it does not contact the server (Ping does).
func New(ctx context.Context, c Config) (*Store, error) {
	if c.Bucket == "" {
		return nil, errors.New("s3 storage: no bucket")
	}
	var opts []func(*awsconfig.LoadOptions) error
	if c.Region != "" {
		opts = append(opts, awsconfig.WithRegion(c.Region))
	}
	if c.AccessKey != "" {
		opts = append(opts, awsconfig.WithCredentialsProvider(
			credentials.NewStaticCredentialsProvider(c.AccessKey, c.SecretKey, c.SessionToken)))
	}
	cfg, err := awsconfig.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("s3 storage: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	client := awss3.NewFromConfig(cfg, func(o *awss3.Options) {
		if c.Endpoint != "" {
			o.BaseEndpoint = aws.String(c.Endpoint)
		}
		o.UsePathStyle = c.PathStyle
		// Checksums only where the API demands them: several S3-compatible servers
		// reject the SDK's default trailing checksums.
		o.RequestChecksumCalculation = aws.RequestChecksumCalculationWhenRequired
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
	})
	part := c.PartSize
	if part <= 0 {
		part = 16 << 20
	}
	return &Store{
		client:  client,
		presign: awss3.NewPresignClient(client),
		upload: transfermanager.New(client, func(o *transfermanager.Options) {
			o.PartSizeBytes = part
			o.MultipartUploadThreshold = part
		}),
		bucket: c.Bucket,
		prefix: c.Prefix,
	}, nil
}

func (s *Store) objectKey(key string) string {
	if s.prefix == "" {
		return key
	}
	return s.prefix + "/" + key
}

// Put uploads r under key, in parts when it is larger than one part. S3 makes an
// object visible only once its upload completes, so readers never see half a file.
func (s *Store) Put(ctx context.Context, key string, r io.Reader) (int64, error) {
	if err := storage.CheckKey(key); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	cr := &countingReader{r: r}
	in := &transfermanager.UploadObjectInput{
		Bucket: aws.String(s.bucket),
		Key:    aws.String(s.objectKey(key)),
		Body:   cr,
	}
	if ct := mime.TypeByExtension(path.Ext(key)); ct != "" {
		in.ContentType = aws.String(ct)
	}
	if _, err := s.upload.UploadObject(ctx, in); err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, s.error("put", key, err)
	}
	return cr.n, nil
}

// Open returns the object under key, or ENOTFOUND.
func (s *Store) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := storage.CheckKey(key); err != nil {
		return nil, err
	}
	out, err := s.client.GetObject(ctx, &awss3.GetObjectInput{
		Bucket: aws.String(s.bucket), Key: aws.String(s.objectKey(key)),
	})
	if err != nil {
		return nil, s.error("open", key, err)
	}
	return out.Body, nil
}

// Delete removes the object under key; a missing object is not an error.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := storage.CheckKey(key); err != nil {
		return err
	}
	_, err := s.client.DeleteObject(ctx, &awss3.DeleteObjectInput{
		Bucket: aws.String(s.bucket), Key: aws.String(s.objectKey(key)),
	})
	if err != nil && koda.ErrorKind(s.error("delete", key, err)) != koda.ENOTFOUND {
		return s.error("delete", key, err)
	}
	return nil
}

// DeletePrefix removes every object whose key starts with prefix, a page of at most
// 1000 at a time.
func (s *Store) DeletePrefix(ctx context.Context, prefix string) error {
	if err := storage.CheckPrefix(prefix); err != nil {
		return err
	}
	pages := awss3.NewListObjectsV2Paginator(s.client, &awss3.ListObjectsV2Input{
		Bucket: aws.String(s.bucket), Prefix: aws.String(s.objectKey(prefix)),
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return s.error("list", prefix, err)
		}
		if len(page.Contents) == 0 {
			continue
		}
		ids := make([]types.ObjectIdentifier, len(page.Contents))
		for i, o := range page.Contents {
			ids[i] = types.ObjectIdentifier{Key: o.Key}
		}
		out, err := s.client.DeleteObjects(ctx, &awss3.DeleteObjectsInput{
			Bucket: aws.String(s.bucket),
			Delete: &types.Delete{Objects: ids, Quiet: aws.Bool(true)},
		})
		if err != nil {
			return s.error("delete prefix", prefix, err)
		}
		if len(out.Errors) > 0 {
			e := out.Errors[0]
			return fmt.Errorf("s3 delete prefix %s: %d objects not deleted, first %s: %s",
				prefix, len(out.Errors), aws.ToString(e.Key), aws.ToString(e.Message))
		}
	}
	return nil
}

// List calls fn for every object whose key starts with prefix, a page of at most
// 1000 at a time.
func (s *Store) List(ctx context.Context, prefix string, fn func(koda.StoredFile) error) error {
	if err := storage.CheckPrefix(prefix); err != nil {
		return err
	}
	pages := awss3.NewListObjectsV2Paginator(s.client, &awss3.ListObjectsV2Input{
		Bucket: aws.String(s.bucket), Prefix: aws.String(s.objectKey(prefix)),
	})
	strip := ""
	if s.prefix != "" {
		strip = s.prefix + "/"
	}
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return s.error("list", prefix, err)
		}
		for _, o := range page.Contents {
			key, ok := strings.CutPrefix(aws.ToString(o.Key), strip)
			if !ok {
				continue
			}
			if err := fn(koda.StoredFile{Key: key, Size: aws.ToInt64(o.Size), ModTime: aws.ToTime(o.LastModified)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// URL presigns a GET of key valid for ttl (at most MaxURLTTL). Presigning is local
// computation; besides an invalid key it fails only when no credentials can be had
// (EUNAVAILABLE: the credential chain may recover, so callers retry).
func (s *Store) URL(key string, ttl time.Duration) (string, error) {
	if err := storage.CheckKey(key); err != nil {
		return "", err
	}
	ttl = min(ttl, MaxURLTTL)
	if ttl <= 0 {
		// S3 has no already-expired presign; one second is the shortest it signs.
		ttl = time.Second
	}
	req, err := s.presign.PresignGetObject(context.Background(), &awss3.GetObjectInput{
		Bucket: aws.String(s.bucket), Key: aws.String(s.objectKey(key)),
	}, awss3.WithPresignExpires(ttl))
	if err != nil {
		return "", &koda.Error{Kind: koda.EUNAVAILABLE, Code: CodeURLUnsigned,
			Message: "no download link could be signed for a stored file; try again later",
			Err:     fmt.Errorf("s3 presign %s: %w", key, err)}
	}
	return req.URL, nil
}

// CodeURLUnsigned is the error code of a download link that could not be presigned.
const CodeURLUnsigned = "STORAGE_URL_UNAVAILABLE"

// Ping checks the bucket exists and these credentials reach it.
func (s *Store) Ping(ctx context.Context) error {
	if _, err := s.client.HeadBucket(ctx, &awss3.HeadBucketInput{Bucket: aws.String(s.bucket)}); err != nil {
		return fmt.Errorf("s3 bucket %s: %w", s.bucket, err)
	}
	return nil
}

func (s *Store) error(op, key string, err error) error {
	var nsk *types.NoSuchKey
	var nf *types.NotFound
	var api smithy.APIError
	notFound := errors.As(err, &nsk) || errors.As(err, &nf)
	if !notFound && errors.As(err, &api) {
		notFound = api.ErrorCode() == "NoSuchKey" || api.ErrorCode() == "NotFound"
	}
	var re interface{ HTTPStatusCode() int }
	if !notFound && errors.As(err, &re) && re.HTTPStatusCode() == http.StatusNotFound && op != "list" {
		notFound = true
	}
	if notFound {
		return &koda.Error{Kind: koda.ENOTFOUND, Code: koda.CodeNotFound, Message: fmt.Sprintf("file %q not found", key), Err: err}
	}
	return fmt.Errorf("s3 %s %s: %w", op, key, err)
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
