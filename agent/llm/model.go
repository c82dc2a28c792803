// Package llm is Koda's language-model agent: the specification's two-agent pattern on
// the official Anthropic and OpenAI SDKs. An orchestrator works through the plan's todos
// with the sandbox tool catalog of DESIGN.md §3.7 (write_file, read_file, replace,
// run_command, update_todo, render_preview…) acting on the real koda.Sandbox, and
// delegates code to a code generator that returns complete files or a scene description
// validated against agent/scene's JSON Schema. After the orchestrator finishes, the
// project is smoke-rendered; a failure is fed back and retried up to three times before
// the project fails with the reason.
//
// Providers speak through the small Model interface below, so the orchestration is
// written once and tested against recorded exchanges of both providers.
package llm

import (
	"context"
	"encoding/json"
)

// Role of a message.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Part is one piece of a message: text, a tool call by the model, or a tool's result.
type Part struct {
	Text string `json:"text,omitempty"`

	// ToolCall (assistant messages).
	CallID string          `json:"call_id,omitempty"`
	Tool   string          `json:"tool,omitempty"`
	Input  json.RawMessage `json:"input,omitempty"`

	// ToolResult (user messages) answers CallID.
	Result  string `json:"result,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
}

// IsCall reports whether the part is a tool call; IsResult whether it is a tool result.
func (p Part) IsCall() bool   { return p.Tool != "" }
func (p Part) IsResult() bool { return p.CallID != "" && p.Tool == "" }

// Message is one turn of a conversation.
type Message struct {
	Role  string `json:"role"`
	Parts []Part `json:"parts"`
}

// ToolSpec declares a tool to the model.
type ToolSpec struct {
	Name        string
	Description string
	Schema      map[string]any // JSON Schema of the input object
}

// Request is one model call.
type Request struct {
	System    string
	Messages  []Message
	Tools     []ToolSpec
	MaxTokens int
}

// Response is the model's answer: its parts, and why it stopped ("end_turn",
// "tool_use", "max_tokens").
type Response struct {
	Parts      []Part
	StopReason string
	InputTokens,
	OutputTokens int64
}

// Calls returns the tool calls of the response.
func (r *Response) Calls() []Part {
	var out []Part
	for _, p := range r.Parts {
		if p.IsCall() {
			out = append(out, p)
		}
	}
	return out
}

// Text joins the text parts of the response.
func (r *Response) Text() string {
	s := ""
	for _, p := range r.Parts {
		if p.Text != "" {
			if s != "" {
				s += "\n"
			}
			s += p.Text
		}
	}
	return s
}

// Model is one provider's chat API.
type Model interface {
	// Provider names the provider ("anthropic", "openai"): the key of its shared limit.
	Provider() string
	Complete(ctx context.Context, req Request) (*Response, error)
}

// Limiter bounds the requests in flight to a provider across every worker. Acquire
// blocks until a slot is free or ctx ends; release frees it.
type Limiter interface {
	Acquire(ctx context.Context, provider string) (release func(), err error)
}

// limited wraps a Model so each call holds a slot of its provider's limit.
type limited struct {
	Model
	l Limiter
}

func (m limited) Complete(ctx context.Context, req Request) (*Response, error) {
	release, err := m.l.Acquire(ctx, m.Provider())
	if err != nil {
		return nil, err
	}
	defer release()
	return m.Model.Complete(ctx, req)
}
