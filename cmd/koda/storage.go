package main

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/api"
	"github.com/kodahq/koda/internal/config"
	"github.com/kodahq/koda/internal/storage"
	"github.com/kodahq/koda/internal/storage/s3"
)

// openStorage picks the backend KODA_STORAGE_URL names: an S3-compatible bucket, or the
// data folder, whose signed URLs the API itself serves under publicURL.
func openStorage(ctx context.Context, c *config.Config, publicURL string, log *slog.Logger) (koda.Storage, error) {
	if c.StorageURL == "" {
		return storage.NewLocal(filepath.Join(c.DataDir, "storage"), publicURL, []byte(c.SigningSecret)), nil
	}
	sc, err := s3.ParseURL(c.StorageURL)
	if err != nil {
		return nil, fmt.Errorf("KODA_STORAGE_URL: %w", err)
	}
	cred := c.StorageCredentials
	sc.AccessKey, sc.SecretKey, sc.SessionToken = cred.AccessKey, cred.SecretKey, cred.SessionToken
	st, err := s3.New(ctx, sc)
	if err != nil {
		return nil, fmt.Errorf("KODA_STORAGE_URL: %w", err)
	}
	log.Info("files are kept in S3", "bucket", sc.Bucket, "prefix", sc.Prefix, "endpoint", sc.Endpoint)
	return st, nil
}

// localFiles is the API's file server for folder storage; object storage serves its
// own presigned URLs, so the API serves none.
func localFiles(st koda.Storage) api.Files {
	if f, ok := st.(api.Files); ok {
		return f
	}
	return nil
}
