// Package semaphore limits named resources across processes with Redis.
//
// A resource ("browser:node-1", "llm:openai") has a limit of slots. Each holder takes a
// slot with a lease: a sorted set holds the holders scored by lease expiry, and every
// operation first drops the expired ones, so a holder that died (a SIGKILLed worker)
// frees its slot within one lease. Live holders renew their lease while they work.
// Acquire, Renew and Release are Lua scripts, so they are atomic on the Redis server,
// and expiry uses the Redis server's clock, so the nodes' clocks may disagree.
//
// Acquisition never blocks: a caller that gets no slot tries again later (a worker
// hands its task back to the queue). Because retries race, a free slot would go to
// whichever caller happened to ask first, and a tenant with a thousand tasks asking
// would win against a tenant with one. So a refused caller leaves its tenant in a
// waiting room, and a free slot goes to the waiting tenant that holds the fewest slots,
// the one served longest ago first; the others are refused until it came back for it.
package semaphore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda/internal/rediskey"
)

// Semaphore acquires and releases slots of named resources in one Redis.
type Semaphore struct {
	rdb    redis.UniversalClient
	prefix string
	// WaitWindow is how long a refused tenant keeps its claim on the next free slot
	// without asking again; it must exceed the delay between a caller's attempts,
	// and bounds how long a slot may stay free for a tenant that gave up.
	WaitWindow time.Duration
}

// New returns a Semaphore whose keys start with prefix (rediskey.Semaphore when empty).
func New(rdb redis.UniversalClient, prefix string) *Semaphore {
	if prefix == "" {
		prefix = rediskey.Semaphore
	}
	return &Semaphore{rdb: rdb, prefix: prefix, WaitWindow: 10 * time.Second}
}

// ErrLimit is returned for a limit below 1: such a resource could never be taken.
var ErrLimit = errors.New("semaphore: limit must be at least 1")

// keys of one resource: the holders by lease expiry, each holder's tenant, the
// waiting tenants by the time they last asked, and each tenant's last grant.
func (s *Semaphore) keys(resource string) []string {
	holders, owners, waiting, granted := rediskey.SemaphoreKeys(s.prefix, resource)
	return []string{holders, owners, waiting, granted}
}

// nowMS reads the server's clock in milliseconds; shared by the scripts.
const nowMS = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// prune drops expired holders and stale waiters.
const prune = `
local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now)
for _, h in ipairs(expired) do redis.call('HDEL', KEYS[2], h) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
`

// ARGV: holder, tenant, limit, lease ms, wait window ms, fair (1/0).
var acquireScript = redis.NewScript(nowMS + prune + `
local holder, tenant = ARGV[1], ARGV[2]
local limit, lease, window = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local keep = math.max(lease, window) * 2
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
if redis.call('ZSCORE', KEYS[1], holder) then
  redis.call('ZADD', KEYS[1], now + lease, holder)
  return 1
end
local function wait()
  redis.call('ZADD', KEYS[3], now, tenant)
  redis.call('PEXPIRE', KEYS[3], keep)
  return 0
end
if redis.call('ZCARD', KEYS[1]) >= limit then return wait() end
if ARGV[6] == '1' then
  local held = {}
  for _, t in ipairs(redis.call('HVALS', KEYS[2])) do held[t] = (held[t] or 0) + 1 end
  local mine = held[tenant] or 0
  local mygrant = tonumber(redis.call('HGET', KEYS[4], tenant) or '0')
  for _, w in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
    if w ~= tenant then
      local h = held[w] or 0
      local g = tonumber(redis.call('HGET', KEYS[4], w) or '0')
      if h < mine or (h == mine and g < mygrant) then return wait() end
    end
  end
end
redis.call('ZADD', KEYS[1], now + lease, holder)
redis.call('HSET', KEYS[2], holder, tenant)
redis.call('HSET', KEYS[4], tenant, now)
redis.call('ZREM', KEYS[3], tenant)
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], keep) end
return 1
`)

// ARGV: holder, lease ms. A holder still in the set may renew even past its expiry:
// nobody pruned it, so nobody counted its slot as free.
var renewScript = redis.NewScript(nowMS + `
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
local lease = tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
for i = 1, 2 do
  if redis.call('PTTL', KEYS[i]) < lease * 2 then redis.call('PEXPIRE', KEYS[i], lease * 2) end
end
return 1
`)

// ARGV: holder.
var releaseScript = redis.NewScript(`
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('ZREM', KEYS[1], ARGV[1])
`)

// ARGV: none. Returns the live holders.
var holdersScript = redis.NewScript(nowMS + prune + `
return redis.call('ZRANGE', KEYS[1], 0, -1)
`)

// Request describes one attempt to take a slot.
type Request struct {
	Resource string
	Limit    int
	// Holder identifies the caller uniquely (a task ID); taking a slot it already
	// holds renews it.
	Holder string
	// Tenant is whose work the slot serves; Fair acquisition shares slots between
	// tenants. Empty means one anonymous tenant.
	Tenant string
	Lease  time.Duration
	// Fair makes a free slot wait for a tenant that holds fewer slots and asked recently.
	Fair bool
}

// TryAcquire takes a slot if one is free (and, when fair, due to req.Tenant). It
// reports false, without error, when the caller must try again later.
func (s *Semaphore) TryAcquire(ctx context.Context, req Request) (bool, error) {
	if req.Limit < 1 {
		return false, fmt.Errorf("acquire %s: %w", req.Resource, ErrLimit)
	}
	if req.Lease <= 0 {
		return false, fmt.Errorf("acquire %s: lease must be positive", req.Resource)
	}
	fair := "0"
	if req.Fair {
		fair = "1"
	}
	n, err := acquireScript.Run(ctx, s.rdb, s.keys(req.Resource), req.Holder, req.Tenant, req.Limit,
		req.Lease.Milliseconds(), s.WaitWindow.Milliseconds(), fair).Int()
	if err != nil {
		return false, fmt.Errorf("acquire %s: %w", req.Resource, err)
	}
	return n == 1, nil
}

// Renew extends holder's lease; false means the slot was lost (its lease ran out and
// another caller pruned it, or Redis lost its data) and the holder must stop or take
// a slot again.
func (s *Semaphore) Renew(ctx context.Context, resource, holder string, lease time.Duration) (bool, error) {
	n, err := renewScript.Run(ctx, s.rdb, s.keys(resource), holder, lease.Milliseconds()).Int()
	if err != nil {
		return false, fmt.Errorf("renew %s: %w", resource, err)
	}
	return n == 1, nil
}

// Release frees holder's slot; releasing a slot not held is a no-op.
func (s *Semaphore) Release(ctx context.Context, resource, holder string) error {
	if err := releaseScript.Run(ctx, s.rdb, s.keys(resource), holder).Err(); err != nil {
		return fmt.Errorf("release %s: %w", resource, err)
	}
	return nil
}

// Holders lists the live holders of resource.
func (s *Semaphore) Holders(ctx context.Context, resource string) ([]string, error) {
	hs, err := holdersScript.Run(ctx, s.rdb, s.keys(resource)).StringSlice()
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("holders of %s: %w", resource, err)
	}
	return hs, nil
}
