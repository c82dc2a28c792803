package api

import (
	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

// queueMessageRequest is the body of POST /v1/projects/{id}/messages. DESIGN.md names
// the field content; the Studio sends text. Either is accepted, not both.
type queueMessageRequest struct {
	Text    *string `json:"text"`
	Content *string `json:"content"`
}

// queueMessage: POST /v1/projects/{id}/messages → 202 with the message, queued until
// the current step ends (or applied at once when the project waits for the user).
func (s *Server) queueMessage(c *fiber.Ctx) error {
	var req queueMessageRequest
	if err := decode(c.Body(), &req, false); err != nil {
		return err
	}
	if (req.Text == nil) == (req.Content == nil) {
		return koda.Errorf(koda.EINVALID, koda.CodeInvalidMessage, "send the message as text")
	}
	text := req.Text
	if text == nil {
		text = req.Content
	}
	m, err := s.Projects.QueueMessage(c.UserContext(), c.Params("id"), *text)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(m)
}

// listMessages: GET /v1/projects/{id}/messages → {"data":[message…]}, oldest first.
func (s *Server) listMessages(c *fiber.Ctx) error {
	ms, err := s.Projects.ListMessages(c.UserContext(), c.Params("id"))
	if err != nil {
		return err
	}
	if ms == nil {
		ms = []*koda.QueuedMessage{}
	}
	return c.JSON(fiber.Map{"data": ms})
}
