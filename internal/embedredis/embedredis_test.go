package embedredis

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestTTLFollowsWallClock(t *testing.T) {
	s, err := Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: s.Addr()})
	defer c.Close()
	if err := c.Set(ctx, "k", "v", 300*time.Millisecond).Err(); err != nil {
		t.Fatal(err)
	}
	if n, _ := c.Exists(ctx, "k").Result(); n != 1 {
		t.Fatalf("key missing right after set")
	}
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if n, _ := c.Exists(ctx, "k").Result(); n == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("key with a 300ms TTL still exists after 3s of wall time")
}
