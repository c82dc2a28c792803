package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

func (s *Server) healthz(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok"})
}

// readyz runs every readiness check; any failure answers 503 naming it.
func (s *Server) readyz(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), 3*time.Second)
	defer cancel()
	checks := fiber.Map{}
	ok := true
	for name, check := range s.Ready {
		if err := check(ctx); err != nil {
			checks[name] = err.Error()
			ok = false
		} else {
			checks[name] = "ok"
		}
	}
	status := fiber.StatusOK
	if !ok {
		status = fiber.StatusServiceUnavailable
	}
	return c.Status(status).JSON(fiber.Map{"ready": ok, "checks": checks})
}

func (s *Server) projectResponse(c *fiber.Ctx, status int, p *koda.Project) error {
	renders, err := s.Projects.ListRenders(c.UserContext(), p.ID)
	if err != nil {
		return err
	}
	v, err := s.viewProject(p, renders)
	if err != nil {
		return err
	}
	return c.Status(status).JSON(v)
}

func (s *Server) createProject(c *fiber.Ctx) error {
	var req CreateProjectRequest
	if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	n, err := req.toNewProject(koda.TenantFromContext(c.UserContext()))
	if err != nil {
		return err
	}
	p, err := s.Projects.Create(c.UserContext(), n)
	if err != nil {
		return err
	}
	c.Location("/v1/projects/" + p.ID)
	v, err := s.viewProject(p, nil)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(v)
}

func (s *Server) getProject(c *fiber.Ctx) error {
	p, err := s.Projects.Get(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	return s.projectResponse(c, fiber.StatusOK, p)
}

func (s *Server) answer(c *fiber.Ctx) error {
	var req answerRequest
	if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	p, err := s.Projects.Answer(c.UserContext(), c.Params("id"), koda.Answer{OptionID: req.OptionID, Text: req.Text})
	if err != nil {
		return err
	}
	return s.projectResponse(c, fiber.StatusAccepted, p)
}

func (s *Server) approvePlan(c *fiber.Ctx) error {
	if err := decode(c.Body(), &struct{}{}, true); err != nil {
		return err
	}
	p, err := s.Projects.ApprovePlan(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	return s.projectResponse(c, fiber.StatusAccepted, p)
}

func (s *Server) rejectPlan(c *fiber.Ctx) error {
	var req feedbackRequest
	if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	p, err := s.Projects.RejectPlan(c.UserContext(), c.Params("id"), req.Feedback)
	if err != nil {
		return err
	}
	return s.projectResponse(c, fiber.StatusAccepted, p)
}

func (s *Server) approvePreview(c *fiber.Ctx) error {
	var req presetsRequest
	if err := decode(c.Body(), &req, true); err != nil {
		return err
	}
	presets, err := parsePresets(req.Presets)
	if err != nil {
		return err
	}
	p, _, err := s.Projects.ApprovePreview(c.UserContext(), c.Params("id"), presets)
	if err != nil {
		return err
	}
	return s.projectResponse(c, fiber.StatusAccepted, p)
}

func (s *Server) feedback(c *fiber.Ctx) error {
	var req messageRequest
	if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	p, err := s.Projects.Feedback(c.UserContext(), c.Params("id"), req.Message)
	if err != nil {
		return err
	}
	return s.projectResponse(c, fiber.StatusAccepted, p)
}

func (s *Server) retry(c *fiber.Ctx) error {
	if err := decode(c.Body(), &struct{}{}, true); err != nil {
		return err
	}
	p, err := s.Projects.Retry(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	return s.projectResponse(c, fiber.StatusAccepted, p)
}

func (s *Server) requestRenders(c *fiber.Ctx) error {
	var req presetsRequest
	if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	presets, err := parsePresets(req.Presets)
	if err != nil {
		return err
	}
	b, err := s.Projects.RequestRenders(c.UserContext(), c.Params("id"), presets)
	if err != nil {
		return err
	}
	_, rs, err := s.Projects.GetBatch(c.UserContext(), b.ID)
	if err != nil {
		return err
	}
	c.Location("/v1/batches/" + b.ID)
	v, err := s.viewBatch(b, rs, nil)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(v)
}

func (s *Server) listRenders(c *fiber.Ctx) error {
	rs, err := s.Projects.ListRenders(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	out := make([]renderView, 0, len(rs))
	for _, r := range rs {
		v, err := s.viewRender(r)
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	return c.JSON(fiber.Map{"renders": out})
}

func (s *Server) getRender(c *fiber.Ctx) error {
	r, err := s.Projects.GetRender(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	v, err := s.viewRender(r)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

func (s *Server) getBatch(c *fiber.Ctx) error {
	v, err := s.batchWithRows(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// batchWithRows is the batch as GET /v1/batches/{id} shows it: its renders and the
// progress of each of its rows.
func (s *Server) batchWithRows(ctx context.Context, id string) (BatchView, error) {
	b, rs, err := s.Projects.GetBatch(ctx, id)
	if err != nil {
		return BatchView{}, err
	}
	rows, err := s.Projects.BatchRows(ctx, b.ID)
	if err != nil {
		return BatchView{}, err
	}
	return s.viewBatch(b, rs, rows)
}

func (s *Server) presets(c *fiber.Ctx) error {
	out := []koda.PresetSpec{}
	for _, n := range koda.PresetNames() {
		p, _ := koda.LookupPreset(n)
		out = append(out, p)
	}
	return c.JSON(fiber.Map{"presets": out})
}

// localSecrets names the Fiber local that lists the secrets a response reveals.
const localSecrets = "koda.revealed-secrets"

// redactedSecret replaces a secret in a stored response: an API key or a webhook secret
// is shown once, in the response that made it, and never kept in plain text.
const redactedSecret = "[redacted: shown only in the first response]"

// revealsSecret records that the response carries secret, so the idempotency record
// keeps the response without it, and tells every cache not to keep the response.
func revealsSecret(c *fiber.Ctx, secret string) {
	c.Set(fiber.HeaderCacheControl, "no-store")
	if secret == "" {
		return
	}
	list, _ := c.Locals(localSecrets).([]string)
	c.Locals(localSecrets, append(list, secret))
}

// redactSecrets returns a copy of body with every secret the handler revealed replaced.
func redactSecrets(c *fiber.Ctx, body []byte) []byte {
	out := append([]byte(nil), body...)
	list, _ := c.Locals(localSecrets).([]string)
	for _, secret := range list {
		enc, _ := json.Marshal(secret) // as it appears inside the JSON answer
		out = bytes.ReplaceAll(out, enc[1:len(enc)-1], []byte(redactedSecret))
	}
	return out
}

// idempotent replays the first response to a POST with the same Idempotency-Key and
// body, and refuses the key with another body (422). A replayed response carries no
// secret the first one revealed (revealsSecret), and records are purged after
// koda.IdempotencyWindow by the maintenance job. The key is reserved before the
// request runs, so of two concurrent requests with one key only the first runs; the
// second waits for its answer and replays it.
func (s *Server) idempotent(next fiber.Handler) fiber.Handler {
	return func(c *fiber.Ctx) (err error) {
		key := strings.TrimSpace(c.Get("Idempotency-Key"))
		if key == "" || s.Idempotency == nil {
			return next(c)
		}
		if len(key) > 255 {
			return koda.Errorf(koda.EINVALID, koda.CodeInvalidRequest, "Idempotency-Key is longer than 255 characters")
		}
		ctx := c.UserContext()
		tenant := koda.TenantFromContext(ctx)
		if tenant == "" {
			tenant = "admin" // the admin API has no tenant; its keys live apart
		}
		sum := sha256.Sum256(append([]byte(c.Method()+" "+c.Path()+"\n"), c.Body()...))
		hash := hex.EncodeToString(sum[:])
		wait := s.IdempotencyWait
		if wait <= 0 {
			wait = 10 * time.Second
		}
		deadline := time.Now().Add(wait)
		for {
			won, err := s.Idempotency.ReserveIdempotency(ctx, &koda.IdempotencyRecord{
				TenantID: tenant, Key: key, RequestHash: hash, CreatedAt: time.Now().UTC()})
			if err != nil {
				return err
			}
			if won {
				break
			}
			rec, err := s.Idempotency.GetIdempotency(ctx, tenant, key)
			switch {
			case koda.ErrorKind(err) == koda.ENOTFOUND:
				continue // the other request failed and released the key: take it
			case err != nil:
				return err
			case rec.RequestHash != hash:
				return koda.Errorf(koda.EUNPROCESSABLE, koda.CodeIdempotencyReuse,
					"Idempotency-Key %q was already used with a different request", key)
			case rec.StatusCode != 0:
				if rec.Location != "" {
					c.Location(rec.Location)
				}
				c.Set("Idempotent-Replayed", "true")
				c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
				return c.Status(rec.StatusCode).Send(rec.Body)
			case time.Since(rec.CreatedAt) > 5*time.Minute:
				// The request holding the key died with its process; free the key.
				if err := s.Idempotency.ReleaseIdempotency(ctx, tenant, key); err != nil {
					return err
				}
				continue
			}
			if time.Now().After(deadline) {
				e := koda.Errorf(koda.ECONFLICT, koda.CodeIdempotencyInFlight,
					"a request with Idempotency-Key %q is still being processed", key)
				e.RetryAfter = 1
				return e
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(25 * time.Millisecond):
			}
		}
		release := func() {
			if err := s.Idempotency.ReleaseIdempotency(context.WithoutCancel(ctx), tenant, key); err != nil {
				s.log().Warn("release idempotency key", "key", key, "err", err)
			}
		}
		defer func() {
			if v := recover(); v != nil {
				release()
				panic(v)
			}
		}()
		if err := next(c); err != nil {
			release() // errors are not stored: the client may fix and retry with the key
			return err
		}
		status := c.Response().StatusCode()
		if status < 200 || status >= 300 {
			release()
			return nil
		}
		rec := &koda.IdempotencyRecord{
			TenantID: tenant, Key: key, RequestHash: hash, StatusCode: status,
			Body: redactSecrets(c, c.Response().Body()), Location: string(c.Response().Header.Peek(fiber.HeaderLocation)),
		}
		if err := s.Idempotency.CompleteIdempotency(context.WithoutCancel(ctx), rec); err != nil {
			s.log().Warn("store idempotency record", "key", key, "err", err)
			release()
		}
		return nil
	}
}
