// Package events wakes the SSE streams of a project when new events are stored.
// Events themselves live in the database with per-project sequence numbers; the
// broker carries only "something new" signals, so a missed signal costs latency,
// never an event (streams also poll the database).
package events

import "sync"

// Broker fans out in-process wake-ups per project.
type Broker struct {
	mu   sync.Mutex
	subs map[string]map[chan struct{}]struct{}
}

// NewBroker returns an empty broker.
func NewBroker() *Broker {
	return &Broker{subs: map[string]map[chan struct{}]struct{}{}}
}

// Subscribe returns a channel that receives a value when the project has new events,
// and a function that ends the subscription.
func (b *Broker) Subscribe(projectID string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	b.mu.Lock()
	if b.subs[projectID] == nil {
		b.subs[projectID] = map[chan struct{}]struct{}{}
	}
	b.subs[projectID][ch] = struct{}{}
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		delete(b.subs[projectID], ch)
		if len(b.subs[projectID]) == 0 {
			delete(b.subs, projectID)
		}
		b.mu.Unlock()
	}
}

// Publish wakes every subscriber of the project without blocking: a subscriber that
// has a wake-up pending already will read the new events with it.
func (b *Broker) Publish(projectID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs[projectID] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}
