// Package embedredis runs an in-process Redis (miniredis) for single-binary deployments
// that have no Redis server. The database remains the source of truth, so losing this
// Redis on restart loses nothing the reconciler cannot rebuild.
package embedredis

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// Server is a running in-process Redis whose key TTLs follow wall time.
type Server struct {
	m      *miniredis.Miniredis
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// tick is how often expirations are advanced; asynq's leases (30 s) and heartbeats
// (a few seconds) only need sub-second precision.
const tick = 100 * time.Millisecond

// Start listens on addr ("127.0.0.1:0" picks a free port).
func Start(addr string) (*Server, error) {
	m := miniredis.NewMiniRedis()
	if err := m.StartAddr(addr); err != nil {
		return nil, fmt.Errorf("start embedded redis on %s: %w", addr, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{m: m, cancel: cancel}
	s.wg.Add(1)
	go s.followWallClock(ctx)
	return s, nil
}

// followWallClock advances miniredis's TTL clock, which otherwise only moves when told to:
// without it asynq's leases and server heartbeats would never expire.
func (s *Server) followWallClock(ctx context.Context) {
	defer s.wg.Done()
	t := time.NewTicker(tick)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			s.m.FastForward(now.Sub(last))
			last = now
		}
	}
}

// Addr is the host:port the server listens on.
func (s *Server) Addr() string { return s.m.Addr() }

// URL is a redis:// URL for the server.
func (s *Server) URL() string { return "redis://" + s.m.Addr() + "/0" }

// Close stops the server.
func (s *Server) Close() {
	s.cancel()
	s.wg.Wait()
	s.m.Close()
}
