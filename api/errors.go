package api

import (
	"errors"
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/kodahq/koda"
)

// statuses maps error kinds to HTTP statuses, in one table.
var statuses = map[koda.Kind]int{
	koda.EINVALID:       fiber.StatusBadRequest,
	koda.EUNPROCESSABLE: fiber.StatusUnprocessableEntity,
	koda.ENOTFOUND:      fiber.StatusNotFound,
	koda.ECONFLICT:      fiber.StatusConflict,
	koda.EUNAUTHORIZED:  fiber.StatusUnauthorized,
	koda.EFORBIDDEN:     fiber.StatusForbidden,
	koda.ELIMIT:         fiber.StatusTooManyRequests,
	koda.EUNAVAILABLE:   fiber.StatusServiceUnavailable,
	koda.ETIMEOUT:       fiber.StatusGatewayTimeout,
	koda.EINTERNAL:      fiber.StatusInternalServerError,
}

// ErrorBody is every error answer: {"error":{"code","message"}}.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is an error's code (stable, for programs), message (for people) and,
// on a phase conflict, the project's current phase.
type ErrorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Phase   string `json:"phase,omitempty"`
}

// errorHandler writes every error as {"error":{"code","message"}} and logs only
// internal ones: the others are the client's to fix.
func (s *Server) errorHandler(c *fiber.Ctx, err error) error {
	var fe *fiber.Error
	if errors.As(err, &fe) {
		code := "HTTP_" + strconv.Itoa(fe.Code)
		switch fe.Code {
		case fiber.StatusNotFound:
			code = koda.CodeNotFound
		case fiber.StatusRequestEntityTooLarge:
			code = "BODY_TOO_LARGE"
		case fiber.StatusMethodNotAllowed:
			code = "METHOD_NOT_ALLOWED"
		}
		return c.Status(fe.Code).JSON(ErrorBody{ErrorDetail{Code: code, Message: fe.Message}})
	}
	kind := koda.ErrorKind(err)
	status, ok := statuses[kind]
	if !ok {
		status = fiber.StatusInternalServerError
	}
	if kind == koda.EINTERNAL {
		s.log().Error("request failed", "method", c.Method(), "path", c.Path(), "err", err)
	}
	body := ErrorBody{ErrorDetail{Code: koda.ErrorCode(err), Message: koda.ErrorMessage(err)}}
	var ke *koda.Error
	if errors.As(err, &ke) {
		body.Error.Phase = string(ke.Phase)
		if ke.RetryAfter > 0 {
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(ke.RetryAfter))
		}
	}
	return c.Status(status).JSON(body)
}
