package semaphore

import (
	"context"
	"sync"
	"time"
)

// Held is a set of slots kept alive by renewing their leases until Release.
type Held struct {
	s    *Semaphore
	reqs []Request

	lost     chan struct{}
	lostOnce sync.Once
	stop     chan struct{}
	done     chan struct{}
	stopOnce sync.Once
}

// AcquireAll takes one slot of every resource in reqs, or none: when one is busy the
// slots already taken are released and it reports false. Callers never wait while
// holding a slot, so two callers needing the same resources cannot deadlock.
// The returned Held renews every lease at a third of its length until Release.
func (s *Semaphore) AcquireAll(ctx context.Context, reqs []Request) (*Held, bool, error) {
	for i, r := range reqs {
		ok, err := s.TryAcquire(ctx, r)
		if err != nil || !ok {
			for _, taken := range reqs[:i] {
				_ = s.Release(context.WithoutCancel(ctx), taken.Resource, taken.Holder)
			}
			return nil, false, err
		}
	}
	h := &Held{s: s, reqs: reqs, lost: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
	go h.renew()
	return h, true, nil
}

// Lost is closed when a slot could be neither renewed nor taken again: the holder no
// longer has the resource and should stop.
func (h *Held) Lost() <-chan struct{} { return h.lost }

// Release stops renewing and frees every slot.
func (h *Held) Release(ctx context.Context) {
	h.stopOnce.Do(func() { close(h.stop) })
	<-h.done
	for _, r := range h.reqs {
		_ = h.s.Release(ctx, r.Resource, r.Holder)
	}
}

func (h *Held) renew() {
	defer close(h.done)
	lease := h.reqs[0].Lease
	for _, r := range h.reqs {
		lease = min(lease, r.Lease)
	}
	t := time.NewTicker(lease / 3)
	defer t.Stop()
	// ok is when every lease was last known to be renewed: past one lease without a
	// renewal (Redis down) the slots may already count as free elsewhere.
	ok := time.Now()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), lease/3)
		all := true
		for _, r := range h.reqs {
			renewed, err := h.s.Renew(ctx, r.Resource, r.Holder, r.Lease)
			if err == nil && !renewed {
				// The slot is gone (its keys were wiped, or it expired and was pruned):
				// take it again if the limit allows, never beyond it.
				again := r
				again.Fair = false
				renewed, err = h.s.TryAcquire(ctx, again)
				if err == nil && !renewed {
					cancel()
					h.lostOnce.Do(func() { close(h.lost) })
					return
				}
			}
			if err != nil {
				all = false
			}
		}
		cancel()
		if all {
			ok = time.Now()
		} else if time.Since(ok) > lease {
			h.lostOnce.Do(func() { close(h.lost) })
			return
		}
	}
}
