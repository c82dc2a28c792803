package config

import (
	"fmt"
	"net/url"
	"time"

	"github.com/urfave/cli/v3"
)

// Agent chooses and configures the agent that plans and writes animations.
type Agent struct {
	// Kind (KODA_AGENT) is builtin (offline, default), anthropic or openai.
	Kind string
	// AnthropicKey (KODA_ANTHROPIC_API_KEY) and OpenAIKey (KODA_OPENAI_API_KEY) are
	// secrets: never logged.
	AnthropicKey string
	OpenAIKey    string
	// Model (KODA_AGENT_MODEL) overrides the provider's default model.
	Model string
	// OpenAIBaseURL (KODA_OPENAI_BASE_URL) points the openai agent at any
	// OpenAI-compatible server, such as a local one.
	OpenAIBaseURL string
	// MaxInFlight (KODA_AGENT_MAX_IN_FLIGHT) caps the requests in flight to the provider
	// across every worker.
	MaxInFlight int
	// Timeout (KODA_AGENT_TIMEOUT) bounds the agent's work on one request (a plan, a
	// codegen or a revision); past it the project fails with AGENT_TIMEOUT. Default 5m;
	// a plan also ends before its task's 2-minute deadline.
	Timeout time.Duration
}

// Agent kinds.
const (
	AgentBuiltin   = "builtin"
	AgentAnthropic = "anthropic"
	AgentOpenAI    = "openai"
)

func agentFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "agent", Value: AgentBuiltin, Usage: "agent: builtin (offline), anthropic or openai", Sources: cli.EnvVars("KODA_AGENT")},
		&cli.StringFlag{Name: "anthropic-api-key", Usage: "API key of the anthropic agent", Sources: cli.EnvVars("KODA_ANTHROPIC_API_KEY")},
		&cli.StringFlag{Name: "openai-api-key", Usage: "API key of the openai agent (optional for a local OpenAI-compatible server)", Sources: cli.EnvVars("KODA_OPENAI_API_KEY")},
		&cli.StringFlag{Name: "agent-model", Usage: "model of the LLM agent (default: the provider's recommended model)", Sources: cli.EnvVars("KODA_AGENT_MODEL")},
		&cli.StringFlag{Name: "openai-base-url", Usage: "base URL of an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1/", Sources: cli.EnvVars("KODA_OPENAI_BASE_URL")},
		&cli.DurationFlag{Name: "agent-timeout", Value: 5 * time.Minute, Usage: "bound of the agent's work on one request (a plan, a codegen, a revision); past it the project fails with AGENT_TIMEOUT", Sources: cli.EnvVars("KODA_AGENT_TIMEOUT")},
		&cli.IntFlag{Name: "agent-max-in-flight", Value: 4, Usage: "LLM requests in flight per provider across all workers", Sources: cli.EnvVars("KODA_AGENT_MAX_IN_FLIGHT")},
	}
}

func agentFromCommand(cmd *cli.Command) Agent {
	return Agent{
		Kind: cmd.String("agent"), AnthropicKey: cmd.String("anthropic-api-key"), OpenAIKey: cmd.String("openai-api-key"),
		Model: cmd.String("agent-model"), OpenAIBaseURL: cmd.String("openai-base-url"), MaxInFlight: int(cmd.Int("agent-max-in-flight")),
		Timeout: cmd.Duration("agent-timeout"),
	}
}

func (a Agent) validate() error {
	switch a.Kind {
	case "", AgentBuiltin:
	case AgentAnthropic:
		if a.AnthropicKey == "" {
			return fmt.Errorf("KODA_AGENT=anthropic needs KODA_ANTHROPIC_API_KEY")
		}
	case AgentOpenAI:
		if a.OpenAIKey == "" && a.OpenAIBaseURL == "" {
			return fmt.Errorf("KODA_AGENT=openai needs KODA_OPENAI_API_KEY (or KODA_OPENAI_BASE_URL for a local server)")
		}
	default:
		return fmt.Errorf("KODA_AGENT must be builtin, anthropic or openai, not %q", a.Kind)
	}
	if a.OpenAIBaseURL != "" {
		if u, err := url.Parse(a.OpenAIBaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("KODA_OPENAI_BASE_URL %q must be an http(s) URL", a.OpenAIBaseURL)
		}
	}
	if a.Timeout < 0 {
		return fmt.Errorf("KODA_AGENT_TIMEOUT must not be negative (0 means the default, 5m)")
	}
	if a.MaxInFlight < 0 {
		return fmt.Errorf("KODA_AGENT_MAX_IN_FLIGHT must be positive (0 means the default, 4)")
	}
	return nil
}
