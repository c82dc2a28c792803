package webhook

import (
	"math/rand/v2"
	"time"
)

// Schedule is a retry schedule: the delay before each attempt of one delivery.
type Schedule struct {
	// Base[i] is the delay before attempt i+1; attempts past the end reuse the last entry.
	// Empty means the default schedule's.
	Base []time.Duration
	// Jitter spreads each delay by ± this fraction (0.1 = ±10%) so retries of many
	// deliveries to one receiver do not arrive together. 0 means none.
	Jitter float64
	// MaxAttempts is how many attempts are made before the delivery fails; 0 means
	// one per entry of Base.
	MaxAttempts int
}

// defaultBase is the Standard Webhooks recommendation: at once, then 5 s, 5 min,
// 30 min, 2 h, 5 h, 10 h and 10 h again.
var defaultBase = []time.Duration{
	0,
	5 * time.Second,
	5 * time.Minute,
	30 * time.Minute,
	2 * time.Hour,
	5 * time.Hour,
	10 * time.Hour,
}

// DefaultSchedule returns the recommended schedule: 8 attempts over about 28 hours,
// each delay ±10%.
func DefaultSchedule() Schedule {
	return Schedule{Base: defaultBase, Jitter: 0.1, MaxAttempts: 8}
}

// Delay returns how long to wait before attempt number attempt (1 is the first
// delivery). After a failed attempt that made d.Attempts = n, the next one waits
// Delay(n+1). In asynq's RetryDelayFunc, where n counts retries already made, the
// next attempt is number n+2.
func (s Schedule) Delay(attempt int) time.Duration {
	base := s.Base
	if len(base) == 0 {
		base = defaultBase
	}
	i := min(max(attempt, 1), len(base)) - 1
	d := base[i]
	if s.Jitter > 0 && d > 0 {
		d = time.Duration(float64(d) * (1 + s.Jitter*(2*rand.Float64()-1)))
	}
	return d
}

// Exhausted reports whether a delivery that has made attempts attempts gets no more.
func (s Schedule) Exhausted(attempts int) bool {
	limit := s.MaxAttempts
	if limit <= 0 {
		base := s.Base
		if len(base) == 0 {
			base = defaultBase
		}
		limit = len(base)
	}
	return attempts >= limit
}

// Backoff is DefaultSchedule().Delay.
func Backoff(attempt int) time.Duration { return DefaultSchedule().Delay(attempt) }
