package rediskey_test

import (
	"context"
	"slices"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda/internal/kodatest"
	"github.com/kodahq/koda/internal/rediskey"
)

// TestChunksCountOnce: on a real Redis, a chunk reported twice (a retry after its
// upload) counts once, frames sum over chunks with a chunk's latest report winning,
// attempts are apart, and forgetting clears the attempt.
func TestChunksCountOnce(t *testing.T) {
	opts, err := redis.ParseURL(kodatest.MustRedis(t, kodatest.DBRedisKey))
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	c := rediskey.Chunks{Client: rdb}

	for _, step := range []struct{ index, frames, want int }{{0, 100, 100}, {1, 50, 150}, {0, 120, 170}, {1, 10, 130}} {
		if got, err := c.ChunkFrames(ctx, "rnd_a", 1, step.index, step.frames); err != nil || got != step.want {
			t.Fatalf("chunk %d at %d frames: sum %d, %v; want %d", step.index, step.frames, got, err, step.want)
		}
	}
	for _, step := range []struct{ index, want int }{{0, 1}, {0, 1}, {2, 2}} {
		if got, err := c.ChunkDone(ctx, "rnd_a", 1, step.index); err != nil || got != step.want {
			t.Fatalf("chunk %d done: %d finished, %v; want %d", step.index, got, err, step.want)
		}
	}
	if got, err := c.ChunkDone(ctx, "rnd_a", 2, 0); err != nil || got != 1 {
		t.Fatalf("attempt 2 shares attempt 1's count: %d, %v", got, err)
	}
	done, err := c.ChunksDone(ctx, "rnd_a", 1)
	slices.Sort(done)
	if err != nil || !slices.Equal(done, []int{0, 2}) {
		t.Fatalf("finished chunks = %v, %v; want [0 2]", done, err)
	}
	if err := c.ForgetChunks(ctx, "rnd_a", 1); err != nil {
		t.Fatal(err)
	}
	if done, err := c.ChunksDone(ctx, "rnd_a", 1); err != nil || len(done) != 0 {
		t.Fatalf("after forgetting: %v, %v", done, err)
	}
	if n, err := rdb.Exists(ctx, rediskey.ChunkFrames("rnd_a", 1), rediskey.ChunksDone("rnd_a", 1)).Result(); err != nil || n != 0 {
		t.Fatalf("%d keys of the attempt left, %v", n, err)
	}
}
