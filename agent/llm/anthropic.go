package llm

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// DefaultAnthropicModel is used when no model is configured.
const DefaultAnthropicModel = "claude-sonnet-4-5"

// Anthropic is a Model on the Anthropic Messages API.
type Anthropic struct {
	client anthropic.Client
	model  string
}

// NewAnthropic returns the Anthropic provider. baseURL is for tests and proxies ("" for
// the public API); model "" means DefaultAnthropicModel.
func NewAnthropic(apiKey, model, baseURL string, opts ...option.RequestOption) *Anthropic {
	if model == "" {
		model = DefaultAnthropicModel
	}
	o := []option.RequestOption{option.WithAPIKey(apiKey)}
	if baseURL != "" {
		o = append(o, option.WithBaseURL(baseURL))
	}
	return &Anthropic{client: anthropic.NewClient(append(o, opts...)...), model: model}
}

// Provider is "anthropic".
func (*Anthropic) Provider() string { return "anthropic" }

// Complete sends one Messages request.
func (a *Anthropic) Complete(ctx context.Context, req Request) (*Response, error) {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(a.model),
		MaxTokens: int64(max(req.MaxTokens, 1024)),
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	for _, t := range req.Tools {
		props, _ := t.Schema["properties"]
		var required []string
		if r, ok := t.Schema["required"].([]string); ok {
			required = r
		}
		tp := anthropic.ToolParam{Name: t.Name, Description: anthropic.String(t.Description),
			InputSchema: anthropic.ToolInputSchemaParam{Properties: props, Required: required}}
		params.Tools = append(params.Tools, anthropic.ToolUnionParam{OfTool: &tp})
	}
	for _, m := range req.Messages {
		var blocks []anthropic.ContentBlockParamUnion
		for _, p := range m.Parts {
			switch {
			case p.IsCall():
				var input any = json.RawMessage(p.Input)
				if len(p.Input) == 0 {
					input = map[string]any{}
				}
				blocks = append(blocks, anthropic.NewToolUseBlock(p.CallID, input, p.Tool))
			case p.IsResult():
				blocks = append(blocks, anthropic.NewToolResultBlock(p.CallID, p.Result, p.IsError))
			case p.Text != "":
				blocks = append(blocks, anthropic.NewTextBlock(p.Text))
			}
		}
		if len(blocks) == 0 {
			continue
		}
		if m.Role == RoleAssistant {
			params.Messages = append(params.Messages, anthropic.NewAssistantMessage(blocks...))
		} else {
			params.Messages = append(params.Messages, anthropic.NewUserMessage(blocks...))
		}
	}
	msg, err := a.client.Messages.New(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("anthropic %s: %w", a.model, err)
	}
	res := &Response{StopReason: string(msg.StopReason), InputTokens: msg.Usage.InputTokens, OutputTokens: msg.Usage.OutputTokens}
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			res.Parts = append(res.Parts, Part{Text: b.Text})
		case "tool_use":
			res.Parts = append(res.Parts, Part{CallID: b.ID, Tool: b.Name, Input: json.RawMessage(b.Input)})
		}
	}
	return res, nil
}
