package koda

import (
	"errors"
	"fmt"
)

// Kind classifies an error by what the caller can do about it. The HTTP layer maps
// kinds to statuses in one table; workers map them to retry decisions.
type Kind string

const (
	EINVALID       Kind = "invalid"       // the request is malformed or out of range (400)
	EUNPROCESSABLE Kind = "unprocessable" // well-formed but not acceptable (422)
	ENOTFOUND      Kind = "not_found"     // 404
	ECONFLICT      Kind = "conflict"      // the current state forbids it (409)
	EUNAUTHORIZED  Kind = "unauthorized"  // 401
	EFORBIDDEN     Kind = "forbidden"     // authenticated, but not allowed from here (403)
	ELIMIT         Kind = "limit"         // a quota or rate limit (429)
	EUNAVAILABLE   Kind = "unavailable"   // a dependency is down; try again (503)
	ETIMEOUT       Kind = "timeout"       // work did not finish in its time budget
	EINTERNAL      Kind = "internal"      // a bug or an unexpected failure (500)
)

// Error is the one error type that crosses package boundaries towards users.
// Code is the stable machine-readable code clients branch on (e.g. UNKNOWN_PRESET);
// Message is for humans. Any other error reads as INTERNAL to users.
type Error struct {
	Kind    Kind
	Code    string
	Message string
	// Phase is set on phase conflicts so clients learn the current phase.
	Phase Phase
	// RetryAfter, in seconds, is set on ELIMIT errors.
	RetryAfter int
	// Err is the cause, kept for logs; never shown to users.
	Err error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with a formatted message.
func Errorf(kind Kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, args...)}
}

// Error codes shared by several packages. Packages may define their own codes;
// these are the ones clients are documented to see.
const (
	CodeInternal          = "INTERNAL"
	CodeMalformedJSON     = "MALFORMED_JSON"
	CodeInvalidPrompt     = "INVALID_PROMPT"
	CodeInvalidDuration   = "INVALID_DURATION"
	CodeInvalidCallback   = "INVALID_CALLBACK_URL"
	CodeInvalidStyle      = "INVALID_STYLE"
	CodeInvalidPreset     = "INVALID_PRESET"
	CodeUnknownPreset     = "UNKNOWN_PRESET"
	CodeDurationOverLimit = "DURATION_OVER_PRESET_LIMIT"
	CodeInvalidRequest    = "INVALID_REQUEST"
	CodeNotFound          = "NOT_FOUND"
	CodeForbidden         = "FORBIDDEN"
	CodePhaseConflict     = "PHASE_CONFLICT"
	CodeNotReady          = "NOT_READY"
	CodeIdempotencyReuse  = "IDEMPOTENCY_KEY_REUSED"
	CodeUnavailable       = "UNAVAILABLE"
	CodeRenderFailed      = "RENDER_FAILED"
	CodeTimeout           = "TIMEOUT"
	CodeAgentFailed       = "AGENT_FAILED"
	CodeAgentTimeout      = "AGENT_TIMEOUT"

	// Sandbox tool codes (DESIGN.md §3.7).
	CodeSandboxNotFound = "SANDBOX_NOT_FOUND"
	CodeInvalidPath     = "INVALID_PATH"
	CodeFileNotFound    = "FILE_NOT_FOUND"
	CodeQuotaExceeded   = "QUOTA_EXCEEDED"
	CodeCommandFailed   = "COMMAND_FAILED"
	CodeFileTooLarge    = "FILE_TOO_LARGE"
)

// ErrorKind returns the kind of err, or EINTERNAL when err is not an *Error.
func ErrorKind(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return EINTERNAL
}

// ErrorCode returns the client code of err, or INTERNAL when err is not an *Error.
func ErrorCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// ErrorMessage returns the human message of err; internal errors read "Internal error."
// so raw errors never reach users.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}

// NotFound is the error for a missing resource of the given type.
func NotFound(resource, id string) *Error {
	return Errorf(ENOTFOUND, CodeNotFound, "%s %q not found", resource, id)
}
