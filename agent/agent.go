// Package agent chooses Koda's agent: the builtin offline one (agent/builtin) by default,
// or the two-agent LLM one (agent/llm) on Anthropic or any OpenAI-compatible server. It
// also holds the quality suite's prompts (testdata/prompts.json, run by agent/suite).
package agent

import (
	"fmt"
	"log/slog"

	"github.com/redis/go-redis/v9"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
	"github.com/kodahq/koda/agent/llm"
	"github.com/kodahq/koda/internal/rediskey"
	"github.com/kodahq/koda/internal/semaphore"
)

// Options configure New; they mirror internal/config's Agent settings.
type Options struct {
	Kind          string // builtin (default), anthropic or openai
	AnthropicKey  string
	OpenAIKey     string
	Model         string
	OpenAIBaseURL string
	// MaxInFlight caps requests in flight per provider across workers (default 4); it
	// needs Redis, without which there is no shared limit.
	MaxInFlight int
	Redis       redis.UniversalClient
	Node        string
	// Renderer smoke-renders what an LLM agent generated.
	Renderer koda.Renderer
	Logger   *slog.Logger
}

// New returns the configured agent.
func New(o Options) (koda.Agent, error) {
	var m llm.Model
	switch o.Kind {
	case "", "builtin":
		return builtin.New(o.Logger), nil
	case "anthropic":
		m = llm.NewAnthropic(o.AnthropicKey, o.Model, "")
	case "openai":
		key := o.OpenAIKey
		if key == "" {
			key = "none" // local OpenAI-compatible servers take any key
		}
		m = llm.NewOpenAI(key, o.Model, o.OpenAIBaseURL)
	default:
		return nil, fmt.Errorf("unknown agent %q (builtin, anthropic or openai)", o.Kind)
	}
	cfg := llm.Config{Model: m, Renderer: o.Renderer, Logger: o.Logger}
	if o.Redis != nil {
		cfg.Limiter = &llm.SemaphoreLimiter{Sem: semaphore.New(o.Redis, rediskey.Semaphore), Limit: o.MaxInFlight, Node: o.Node}
	}
	return llm.New(cfg)
}
