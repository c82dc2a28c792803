package webhook

import (
	"errors"
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

// DefaultAttempts is how many attempts a delivery gets unless configured otherwise.
const DefaultAttempts = 8

// MaxAttempts is the most attempts a schedule may allow. The queue's own retry
// ceiling for webhook tasks is derived from it, so the schedule, never the queue,
// decides when a delivery has failed.
const MaxAttempts = 50

// DefaultSchedule returns the recommended schedule: 8 attempts over about 28 hours,
// each delay ±10%.
func DefaultSchedule() Schedule {
	return Schedule{Base: defaultBase, Jitter: 0.1, MaxAttempts: DefaultAttempts}
}

// NewSchedule is Koda's one webhook retry policy, as configured: retries are the
// delays before the second, third… attempt (KODA_WEBHOOK_RETRY, the last one repeating;
// empty means the recommended 5s,5m,30m,2h,5h,10h), attempts the total number of
// attempts (KODA_WEBHOOK_ATTEMPTS; 0 means DefaultAttempts). Delays vary by ±10%.
func NewSchedule(retries []time.Duration, attempts int) Schedule {
	s := DefaultSchedule()
	if len(retries) > 0 {
		s.Base = append([]time.Duration{0}, retries...)
	}
	if attempts > 0 {
		s.MaxAttempts = min(attempts, MaxAttempts)
	}
	return s
}

// Delay returns how long to wait before attempt number attempt (1 is the first
// delivery). After a failed attempt that made d.Attempts = n, the next one waits
// Delay(n+1). In asynq's RetryDelayFunc, where n counts retries already made, the
// next attempt is number n+2.
func (s Schedule) Delay(attempt int) time.Duration {
	s = s.orDefault()
	base := s.Base
	i := min(max(attempt, 1), len(base)) - 1
	d := base[i]
	if s.Jitter > 0 && d > 0 {
		d = time.Duration(float64(d) * (1 + s.Jitter*(2*rand.Float64()-1)))
	}
	return d
}

// Exhausted reports whether a delivery that has made attempts attempts gets no more.
func (s Schedule) Exhausted(attempts int) bool {
	s = s.orDefault()
	limit := s.MaxAttempts
	if limit <= 0 {
		limit = len(s.Base)
	}
	return attempts >= limit
}

// orDefault makes the zero Schedule the recommended one, so a holder that was never
// configured retries like a configured default.
func (s Schedule) orDefault() Schedule {
	if len(s.Base) == 0 {
		d := DefaultSchedule()
		if s.MaxAttempts > 0 {
			d.MaxAttempts = s.MaxAttempts
		}
		return d
	}
	return s
}

// RetryDelay is the wait before asynq's retry number n (0 after the first attempt
// failed): the receiver's Retry-After when it sent one, else the schedule's delay
// before attempt n+2.
func (s Schedule) RetryDelay(n int, err error) time.Duration {
	var ra *RetryAfterError
	if errors.As(err, &ra) && ra.Delay > 0 {
		return ra.Delay
	}
	return s.Delay(n + 2)
}
