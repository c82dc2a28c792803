package api

import (
	"bufio"
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

const eventPage = 500

// openStream counts an SSE stream against the tenant's cap; release gives it back.
func (s *Server) openStream(tenant string) (release func(), err error) {
	max := s.MaxStreamsPerTenant
	if max <= 0 {
		max = 20
	}
	s.streamsMu.Lock()
	defer s.streamsMu.Unlock()
	if s.streams == nil {
		s.streams = map[string]int{}
	}
	if s.streams[tenant] >= max {
		return nil, &koda.Error{Kind: koda.ELIMIT, Code: koda.CodeQuotaExceeded, RetryAfter: 5,
			Message: fmt.Sprintf("the tenant already has %d open event streams; close one or poll with ?offset=N", max)}
	}
	s.streams[tenant]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.streamsMu.Lock()
			if s.streams[tenant]--; s.streams[tenant] <= 0 {
				delete(s.streams, tenant)
			}
			s.streamsMu.Unlock()
		})
	}, nil
}

// events streams a project's events over SSE, resuming after Last-Event-ID; with
// ?offset=N it returns the events after N as JSON for polling clients instead.
func (s *Server) events(c *fiber.Ctx) error {
	ctx := c.UserContext()
	id := c.Params("id")
	if _, err := s.Projects.Get(ctx, id); err != nil {
		return err
	}
	if off := c.Query("offset"); off != "" || c.Query("format") == "json" {
		after, err := parseSeq(off)
		if err != nil {
			return err
		}
		evs, err := s.Events.ListEvents(ctx, id, after, eventPage)
		if err != nil {
			return err
		}
		next := after
		if len(evs) > 0 {
			next = evs[len(evs)-1].Seq
		}
		if evs == nil {
			evs = []*koda.Event{}
		}
		return c.JSON(fiber.Map{"events": evs, "next_offset": next})
	}
	after, err := parseSeq(c.Get("Last-Event-ID"))
	if err != nil {
		return err
	}
	release, err := s.openStream(koda.TenantFromContext(ctx))
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set(fiber.HeaderConnection, "keep-alive")
	c.Set("X-Accel-Buffering", "no")
	wake, cancel := s.Events.Subscribe(id)
	poll := s.EventPoll
	if poll <= 0 {
		poll = time.Second
	}
	done := s.done
	// The header is copied: fasthttp reuses the request's memory once the handler returns.
	auth := strings.Clone(c.Get(fiber.HeaderAuthorization))
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		defer release()
		defer cancel()
		s.stream(id, after, w, wake, poll, done, func() bool { return s.keyRevoked(id, auth) })
	})
	return nil
}

// keyRevoked reports whether auth no longer authenticates (its key revoked, its tenant
// gone). Other failures (the database is briefly down) keep the stream: they are
// logged, and the next check decides.
func (s *Server) keyRevoked(projectID, auth string) bool {
	if s.Auth == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := s.Auth.Authenticate(ctx, auth)
	switch {
	case err == nil:
		return false
	case koda.ErrorKind(err) == koda.EUNAUTHORIZED:
		return true
	}
	s.log().Warn("recheck an event stream's key", "project", projectID, "err", err)
	return false
}

// stream writes events until the client goes away, the server shuts down or revoked
// reports the stream's key revoked (asked every StreamRecheck). The database is read
// after every wake-up and every poll interval, so events written by other processes
// arrive too; Seq order makes each event appear exactly once.
func (s *Server) stream(projectID string, after int64, w *bufio.Writer, wake <-chan struct{}, poll time.Duration, done <-chan struct{}, revoked func() bool) {
	heartbeat, recheck := s.StreamHeartbeat, s.StreamRecheck
	if heartbeat <= 0 {
		heartbeat = 3 * time.Second
	}
	if recheck <= 0 {
		recheck = 2 * time.Second
	}
	ticker := time.NewTicker(min(poll, heartbeat, recheck))
	defer ticker.Stop()
	lastWrite, lastCheck := time.Now(), time.Now()
	// A comment first, so clients see the stream open even before any event.
	if _, err := fmt.Fprint(w, ": stream open\n\n"); err != nil || w.Flush() != nil {
		return
	}
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		evs, err := s.Events.ListEvents(ctx, projectID, after, eventPage)
		cancel()
		if err != nil {
			s.log().Warn("read events", "project", projectID, "err", err)
		}
		for _, e := range evs {
			if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", e.Seq, e.Type, e.Data); err != nil {
				return
			}
			after = e.Seq
		}
		if len(evs) > 0 {
			if w.Flush() != nil {
				return
			}
			lastWrite = time.Now()
			if len(evs) == eventPage {
				continue
			}
		}
		if time.Since(lastCheck) >= recheck {
			lastCheck = time.Now()
			if revoked() {
				// Said as an event so a client knows not to reconnect with this key.
				_, _ = fmt.Fprintf(w, "event: ERROR\ndata: {\"code\":%q,\"message\":\"the stream's API key was revoked or is no longer valid\"}\n\n",
					koda.CodeUnauthorized)
				_ = w.Flush()
				return
			}
		}
		if time.Since(lastWrite) >= heartbeat {
			// Heartbeat: keeps proxies from closing the stream and finds gone clients.
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil || w.Flush() != nil {
				return
			}
			lastWrite = time.Now()
		}
		select {
		case <-done:
			return
		case <-wake:
		case <-ticker.C:
		}
	}
}

func parseSeq(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "event offset %q must be a non-negative integer", s)
	}
	return n, nil
}
