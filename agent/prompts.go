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
	ID       string      `json:"id"`
	Category string      `json:"category"` // product, logo, data, text, character, abstract, portrait, long, short
	Prompt   string      `json:"prompt"`
	Expect   SuiteExpect `json:"expect"`
}

// SuiteExpect is what a person asking the prompt expects to see. The first four are
// checked on the video; the rest on the scene description the agent wrote.
type SuiteExpect struct {
	Texts     []string `json:"texts,omitempty"`      // quoted text that must be readable on screen
	Colors    []string `json:"colors,omitempty"`     // colour names used by the scene and among the video's dominant colours
	Aspect    string   `json:"aspect,omitempty"`     // landscape (default), portrait or square
	DurationS float64  `json:"duration_s,omitempty"` // requested duration the plan must keep

	// Subjects are the nouns that must be depicted, each "noun" or "noun|synonym|…"
	// ("paper plane|paper airplane"): some element must draw one of them.
	Subjects []string `json:"subjects,omitempty"`
	// Actions are the motion kinds that must be played ("fly", "trail", "sweep"),
	// "kind*N" when the prompt counts them ("bounce*3").
	Actions []string `json:"actions,omitempty"`
	// Chart is the data a chart must carry.
	Chart *SuiteChart `json:"chart,omitempty"`
	// Numbers must appear in the scene's data (a counter's target, a countdown's start).
	Numbers []float64 `json:"numbers,omitempty"`
	// Background is the colour name the background must read as ("cream", "navy").
	Background string `json:"background,omitempty"`
	// Direction is where what moves travels on the rendered frames: left, right, up or
	// down ("a car drives to the left").
	Direction string `json:"direction,omitempty"`
}

// SuiteChart is a chart's expected kind, category labels and values.
type SuiteChart struct {
	Kind   string    `json:"kind,omitempty"` // bar (default), pie, donut, line
	Labels []string  `json:"labels,omitempty"`
	Values []float64 `json:"values,omitempty"`
}

// SuitePrompts returns the prompts of the quality suite.
func SuitePrompts() ([]SuitePrompt, error) {
	var ps []SuitePrompt
	if err := json.Unmarshal(promptsJSON, &ps); err != nil {
		return nil, fmt.Errorf("decode testdata/prompts.json: %w", err)
	}
	return ps, nil
}
