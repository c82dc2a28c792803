package agent

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed testdata/prompts.json
var promptsJSON []byte

// SuitePrompt is one prompt of the quality suite (testdata/prompts.json) with what a good
// animation for it must show.
type SuitePrompt struct {
	ID       string `json:"id"`
	Category string `json:"category"` // product, logo, data, text, character, abstract, portrait, long, short
	Prompt   string `json:"prompt"`
	Expect   struct {
		Texts     []string `json:"texts,omitempty"`      // quoted text that must be readable on screen
		Colors    []string `json:"colors,omitempty"`     // colour names among the dominant colours
		Aspect    string   `json:"aspect,omitempty"`     // landscape (default), portrait or square
		DurationS float64  `json:"duration_s,omitempty"` // requested duration the plan must keep
	} `json:"expect"`
}

// SuitePrompts returns the prompts of the quality suite.
func SuitePrompts() ([]SuitePrompt, error) {
	var ps []SuitePrompt
	if err := json.Unmarshal(promptsJSON, &ps); err != nil {
		return nil, fmt.Errorf("decode testdata/prompts.json: %w", err)
	}
	return ps, nil
}
