package rediskey

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// chunkTTL bounds how long a split render's counts outlive a render that was lost.
const chunkTTL = 48 * time.Hour

// Chunks is the koda.ChunkTally of a cluster: the counts live in the shared Redis,
// under ChunkFrames and ChunksDone.
type Chunks struct {
	Client redis.UniversalClient
}

// ChunkFrames implements koda.ChunkTally. A retried chunk restarts from zero, so the
// sum may dip; the lifecycle keeps the render's progress monotonic.
func (c Chunks) ChunkFrames(ctx context.Context, renderID string, attempt, index, frames int) (int, error) {
	key := ChunkFrames(renderID, attempt)
	pipe := c.Client.TxPipeline()
	pipe.HSet(ctx, key, strconv.Itoa(index), frames)
	pipe.Expire(ctx, key, chunkTTL)
	vals := pipe.HVals(ctx, key)
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, fmt.Errorf("chunk frames of %s: %w", renderID, err)
	}
	sum := 0
	for _, v := range vals.Val() {
		n, _ := strconv.Atoi(v)
		sum += n
	}
	return sum, nil
}

// ChunkDone implements koda.ChunkTally with a set, not a counter, so a chunk that runs
// twice counts once.
func (c Chunks) ChunkDone(ctx context.Context, renderID string, attempt, index int) (int, error) {
	key := ChunksDone(renderID, attempt)
	pipe := c.Client.TxPipeline()
	pipe.SAdd(ctx, key, index)
	card := pipe.SCard(ctx, key)
	pipe.Expire(ctx, key, chunkTTL)
	if _, err := pipe.Exec(ctx); err != nil {
		return 0, fmt.Errorf("count chunk %d of %s: %w", index, renderID, err)
	}
	return int(card.Val()), nil
}

// ChunksDone implements koda.ChunkTally.
func (c Chunks) ChunksDone(ctx context.Context, renderID string, attempt int) ([]int, error) {
	members, err := c.Client.SMembers(ctx, ChunksDone(renderID, attempt)).Result()
	if err != nil {
		return nil, fmt.Errorf("finished chunks of %s: %w", renderID, err)
	}
	out := make([]int, 0, len(members))
	for _, m := range members {
		if n, err := strconv.Atoi(m); err == nil {
			out = append(out, n)
		}
	}
	return out, nil
}

// ForgetChunks implements koda.ChunkTally.
func (c Chunks) ForgetChunks(ctx context.Context, renderID string, attempt int) error {
	if err := c.Client.Del(ctx, ChunkFrames(renderID, attempt), ChunksDone(renderID, attempt)).Err(); err != nil {
		return fmt.Errorf("forget chunks of %s: %w", renderID, err)
	}
	return nil
}
