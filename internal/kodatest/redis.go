package kodatest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda/internal/embedredis"
)

// MustRedis returns the URL of an empty Redis database for a test. With
// KODA_TEST_REDIS_URL set (CI sets it when a Redis answers) it uses database db of
// that server, flushed first; test packages pass different db numbers so they can run
// in parallel. Otherwise it starts the embedded Redis, as `koda serve` would.
func MustRedis(tb testing.TB, db int) string {
	tb.Helper()
	base := os.Getenv("KODA_TEST_REDIS_URL")
	if base == "" {
		s, err := embedredis.Start("127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(s.Close)
		return s.URL()
	}
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("KODA_TEST_REDIS_URL: %v", err)
	}
	u.Path = fmt.Sprintf("/%d", db)
	raw := u.String()
	opts, err := redis.ParseURL(raw)
	if err != nil {
		tb.Fatalf("KODA_TEST_REDIS_URL: %v", err)
	}
	c := redis.NewClient(opts)
	defer c.Close()
	if err := c.FlushDB(context.Background()).Err(); err != nil {
		tb.Fatalf("flush %s: %v", raw, err)
	}
	return raw
}

// RedisKind names the Redis a test runs against, for test names and logs.
func RedisKind() string {
	if strings.TrimSpace(os.Getenv("KODA_TEST_REDIS_URL")) != "" {
		return "real"
	}
	return "embedded"
}
