package koda

import (
	"context"
	"time"
)

// PrefixQueuedMessage starts the IDs of messages sent while the agent works.
const PrefixQueuedMessage = "qmsg"

// MaxQueuedMessages bounds the messages of one project waiting to be applied, so a
// client cannot pile up unbounded feedback for the agent's next step.
const MaxQueuedMessages = 20

// Codes of queued messages.
const (
	CodeInvalidMessage     = "INVALID_MESSAGE"
	CodeLimitQueuedMessage = "LIMIT_QUEUED_MESSAGES"
)

// MessageStatus is where a queued message stands.
type MessageStatus string

const (
	MessageQueued  MessageStatus = "queued"  // waits for the current step to end
	MessageApplied MessageStatus = "applied" // given to the agent as feedback
)

// QueuedMessage is a message a person sent while the agent works (the companion
// documents' prompt queue). It waits until the current step ends and is then applied:
// as feedback to the plan while planning, as an iteration after the preview while
// executing (internal/lifecycle decides). Its JSON form is the API's and the events'.
type QueuedMessage struct {
	ID        string        `json:"id"`
	TenantID  string        `json:"-"`
	ProjectID string        `json:"-"`
	Text      string        `json:"text"`
	Status    MessageStatus `json:"status"`
	CreatedAt time.Time     `json:"created_at"`
	AppliedAt *time.Time    `json:"applied_at"`
}

// CleanMessage trims a message's text and checks it against MessageText.
func CleanMessage(text string) (string, error) {
	return MessageText.Check("text", text)
}

// MessageStore persists queued messages. Stores that keep projects implement it.
type MessageStore interface {
	CreateMessage(ctx context.Context, m *QueuedMessage) error
	// ListMessages returns a project's messages oldest first, only those with status
	// when it is not empty, at most limit (0: no limit).
	ListMessages(ctx context.Context, projectID string, status MessageStatus, limit int) ([]*QueuedMessage, error)
	// MarkMessagesApplied marks the messages applied at t.
	MarkMessagesApplied(ctx context.Context, ids []string, t time.Time) error
}
