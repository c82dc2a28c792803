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

// RedisDB is a database number on the shared test Redis. `go test ./...` runs
// packages in parallel and MustRedis flushes the database it hands out, so two
// packages that share a number wipe each other's queues mid-test (the Studio's
// redelivery once timed out because the semaphore tests flushed its database). Every
// number is given out here, once; tests within one package run one after another.
type RedisDB int

const (
	DBKodaEndToEnd     RedisDB = 1  // cmd/koda: the submit-to-webhook path
	DBKodaBatch        RedisDB = 2  // cmd/koda: batches
	DBKodaRowsRecovery RedisDB = 3  // cmd/koda: a template batch through kill -9 and FLUSHDB
	DBKodaMultiprocess RedisDB = 5  // cmd/koda: several processes, kill -9
	DBKodaOps          RedisDB = 6  // cmd/koda: operations
	DBKodaStudio       RedisDB = 7  // cmd/koda: the Studio in a browser
	DBWorkers          RedisDB = 8  // workers
	DBLLM              RedisDB = 9  // agent/llm
	DBAPI              RedisDB = 10 // api
	DBSemaphore        RedisDB = 11 // internal/semaphore
	DBRedisKey         RedisDB = 12 // internal/rediskey
	DBLifecycle        RedisDB = 13 // internal/lifecycle
)

// MustRedis returns the URL of an empty Redis database for a test. With
// KODA_TEST_REDIS_URL set (CI sets it when a Redis answers) it uses database db of
// that server, flushed first. Otherwise it starts the embedded Redis, as `koda serve`
// would.
func MustRedis(tb testing.TB, db RedisDB) string {
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
