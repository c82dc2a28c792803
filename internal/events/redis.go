package events

import (
	"context"
	"log/slog"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda/internal/rediskey"
)

// Channel is the Redis pub/sub channel carrying "project X has new events" between
// processes; the message is the project ID.
const Channel = rediskey.EventsChannel

// Relay carries wake-ups between processes through Redis pub/sub: a worker process
// that commits events publishes the project ID, and every API process wakes its own
// streams of that project, which then read the new events from the database. A lost
// message costs only latency: streams also poll the database.
type Relay struct {
	rdb    redis.UniversalClient
	local  *Broker
	logger *slog.Logger
}

// NewRelay returns a relay publishing to rdb and waking local.
func NewRelay(rdb redis.UniversalClient, local *Broker, logger *slog.Logger) *Relay {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Relay{rdb: rdb, local: local, logger: logger}
}

// Publish wakes this process's streams of the project at once and tells the others.
func (r *Relay) Publish(projectID string) {
	r.local.Publish(projectID)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := r.rdb.Publish(ctx, Channel, projectID).Err(); err != nil {
		r.logger.Debug("publish event wake-up", "project", projectID, "err", err)
	}
}

// Subscribe is the local broker's Subscribe.
func (r *Relay) Subscribe(projectID string) (<-chan struct{}, func()) {
	return r.local.Subscribe(projectID)
}

// Run relays wake-ups from other processes to local streams until ctx ends. The
// subscription is re-established after Redis errors.
func (r *Relay) Run(ctx context.Context) {
	for ctx.Err() == nil {
		sub := r.rdb.Subscribe(ctx, Channel)
		ch := sub.Channel(redis.WithChannelHealthCheckInterval(10 * time.Second))
	recv:
		for {
			select {
			case <-ctx.Done():
				break recv
			case msg, ok := <-ch:
				if !ok {
					break recv
				}
				r.local.Publish(msg.Payload)
			}
		}
		_ = sub.Close()
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}
