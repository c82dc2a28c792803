package api

import (
	"bufio"
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/sandbox"
)

// Sandboxes is the sandbox tool API for agents that are not Koda's own (the companion
// Agent Tool API), tenant-scoped: a tenant sees and touches only its own sandboxes.
// *sandbox.Pool implements it.
type Sandboxes interface {
	CreateFor(ctx context.Context, tenant, projectID, name string) (sandbox.Info, error)
	ListFor(ctx context.Context, tenant string) ([]sandbox.Info, error)
	Info(ctx context.Context, tenant, id string) (sandbox.Info, error)
	DestroyFor(ctx context.Context, tenant, id string, save bool) error
	Call(ctx context.Context, tenant, id, tool string, input []byte, out sandbox.OutputFunc) (any, error)
	// DiscardTenant destroys every sandbox of a deleted tenant on this process, Koda's
	// own for its projects included, without saving a checkpoint.
	DiscardTenant(ctx context.Context, tenant string) (int, error)
}

type createSandboxRequest struct {
	// ProjectID keys the sandbox: the same project and name get the same live sandbox,
	// and a new one is restored from the last checkpoint. Empty: a fresh sandbox.
	ProjectID string `json:"project_id"`
	Name      string `json:"name"`
}

func (s *Server) sandboxes() (Sandboxes, error) {
	if s.Sandboxes == nil {
		return nil, koda.Errorf(koda.EUNAVAILABLE, koda.CodeUnavailable, "this process runs no sandboxes")
	}
	return s.Sandboxes, nil
}

// createSandbox: POST /v1/sandboxes → 201 with the sandbox.
func (s *Server) createSandbox(c *fiber.Ctx) error {
	sbs, err := s.sandboxes()
	if err != nil {
		return err
	}
	var req createSandboxRequest
	if err := decode(c.Body(), &req, true); err != nil {
		return err
	}
	ctx := c.UserContext()
	info, err := sbs.CreateFor(ctx, koda.TenantFromContext(ctx), req.ProjectID, req.Name)
	if err != nil {
		return err
	}
	c.Location("/v1/sandboxes/" + info.ID)
	return c.Status(fiber.StatusCreated).JSON(info)
}

// listSandboxes: GET /v1/sandboxes → the tenant's live sandboxes.
func (s *Server) listSandboxes(c *fiber.Ctx) error {
	sbs, err := s.sandboxes()
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	list, err := sbs.ListFor(ctx, koda.TenantFromContext(ctx))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"sandboxes": list})
}

// getSandbox: GET /v1/sandboxes/{id}.
func (s *Server) getSandbox(c *fiber.Ctx) error {
	sbs, err := s.sandboxes()
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	info, err := sbs.Info(ctx, koda.TenantFromContext(ctx), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(info)
}

// deleteSandbox: DELETE /v1/sandboxes/{id}[?save=false] → 204. The sandbox is
// checkpointed first unless save=false.
func (s *Server) deleteSandbox(c *fiber.Ctx) error {
	sbs, err := s.sandboxes()
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	if err := sbs.DestroyFor(ctx, koda.TenantFromContext(ctx), c.Params("id"), c.Query("save") != "false"); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// sandboxTool: POST /v1/sandboxes/{id}/tools/{name} with the tool's JSON input; the
// answer is the tool's JSON output. run_command with Accept: text/event-stream streams
// "output" events ({"stream","data"}) while it runs, then one "result" or "error" event.
func (s *Server) sandboxTool(c *fiber.Ctx) error {
	sbs, err := s.sandboxes()
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	tenant, id, tool := koda.TenantFromContext(ctx), c.Params("id"), c.Params("name")
	input := append([]byte(nil), c.Body()...)
	if tool == sandbox.ToolRunCommand && strings.Contains(c.Get(fiber.HeaderAccept), "text/event-stream") {
		// Fail fast (404 and friends) before committing to a stream.
		if _, err := sbs.Info(ctx, tenant, id); err != nil {
			return err
		}
		return s.streamCommand(c, sbs, tenant, id, input)
	}
	out, err := sbs.Call(ctx, tenant, id, tool, input, nil)
	if err != nil {
		return err
	}
	return c.JSON(out)
}

func (s *Server) streamCommand(c *fiber.Ctx, sbs Sandboxes, tenant, id string, input []byte) error {
	c.Set(fiber.HeaderContentType, "text/event-stream")
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("X-Accel-Buffering", "no")
	base := context.WithoutCancel(c.UserContext())
	c.Context().SetBodyStreamWriter(func(w *bufio.Writer) {
		ctx, cancel := context.WithCancel(base)
		defer cancel()
		var mu sync.Mutex
		send := func(event string, v any) {
			b, _ := json.Marshal(v)
			mu.Lock()
			defer mu.Unlock()
			_, _ = w.WriteString("event: " + event + "\ndata: " + string(b) + "\n\n")
			if err := w.Flush(); err != nil {
				cancel() // the client left: stop the command
			}
		}
		out, err := sbs.Call(ctx, tenant, id, sandbox.ToolRunCommand, input, func(stream string, chunk []byte) {
			send("output", map[string]string{"stream": stream, "data": string(chunk)})
		})
		if err != nil {
			send("error", ErrorBody{ErrorDetail{Code: koda.ErrorCode(err), Message: koda.ErrorMessage(err)}})
			return
		}
		send("result", out)
	})
	return nil
}
