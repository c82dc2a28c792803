package llm

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// DefaultOpenAIModel is used when no model is configured.
const DefaultOpenAIModel = "gpt-4.1"

// OpenAI is a Model on the Chat Completions API, which OpenAI-compatible servers (a
// local model server, a gateway) implement as well: point baseURL at them.
type OpenAI struct {
	client openai.Client
	model  string
}

// NewOpenAI returns the OpenAI provider; baseURL "" means the public API, model "" means
// DefaultOpenAIModel.
func NewOpenAI(apiKey, model, baseURL string, opts ...option.RequestOption) *OpenAI {
	if model == "" {
		model = DefaultOpenAIModel
	}
	o := []option.RequestOption{option.WithAPIKey(apiKey)}
	if baseURL != "" {
		o = append(o, option.WithBaseURL(baseURL))
	}
	return &OpenAI{client: openai.NewClient(append(o, opts...)...), model: model}
}

// Provider is "openai".
func (*OpenAI) Provider() string { return "openai" }

// Complete sends one chat completion request.
func (o *OpenAI) Complete(ctx context.Context, req Request) (*Response, error) {
	params := openai.ChatCompletionNewParams{
		Model:               shared.ChatModel(o.model),
		MaxCompletionTokens: openai.Int(int64(max(req.MaxTokens, 1024))),
	}
	if req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(req.System))
	}
	for _, t := range req.Tools {
		params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: t.Name, Description: openai.String(t.Description), Parameters: shared.FunctionParameters(t.Schema),
		}))
	}
	for _, m := range req.Messages {
		if m.Role == RoleAssistant {
			am := openai.ChatCompletionAssistantMessageParam{}
			text := ""
			for _, p := range m.Parts {
				if p.IsCall() {
					args := string(p.Input)
					if args == "" {
						args = "{}"
					}
					am.ToolCalls = append(am.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
						OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: p.CallID,
							Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: p.Tool, Arguments: args}},
					})
				} else if p.Text != "" {
					text += p.Text
				}
			}
			if text != "" {
				am.Content.OfString = openai.String(text)
			}
			params.Messages = append(params.Messages, openai.ChatCompletionMessageParamUnion{OfAssistant: &am})
			continue
		}
		// Tool results are messages of their own in this API; user text follows them.
		text := ""
		for _, p := range m.Parts {
			if p.IsResult() {
				content := p.Result
				if p.IsError {
					content = "ERROR: " + content
				}
				params.Messages = append(params.Messages, openai.ToolMessage(content, p.CallID))
			} else if p.Text != "" {
				text += p.Text
			}
		}
		if text != "" {
			params.Messages = append(params.Messages, openai.UserMessage(text))
		}
	}
	cc, err := o.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("openai %s: %w", o.model, err)
	}
	if len(cc.Choices) == 0 {
		return nil, fmt.Errorf("openai %s: response has no choices", o.model)
	}
	ch := cc.Choices[0]
	res := &Response{StopReason: map[string]string{"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}[ch.FinishReason],
		InputTokens: cc.Usage.PromptTokens, OutputTokens: cc.Usage.CompletionTokens}
	if res.StopReason == "" {
		res.StopReason = ch.FinishReason
	}
	if ch.Message.Content != "" {
		res.Parts = append(res.Parts, Part{Text: ch.Message.Content})
	}
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "function" {
			continue
		}
		in := json.RawMessage(tc.Function.Arguments)
		if !json.Valid(in) {
			// Keep the call so the loop can answer it with an error the model can fix.
			b, _ := json.Marshal(map[string]string{"_invalid_json": tc.Function.Arguments})
			in = b
		}
		res.Parts = append(res.Parts, Part{CallID: tc.ID, Tool: tc.Function.Name, Input: in})
	}
	return res, nil
}
