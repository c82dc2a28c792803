package koda

import (
	"fmt"
	"net/url"
)

// Validate checks a project request against DESIGN.md §3.2 before anything is stored.
func (n *NewProject) Validate() error {
	prompt, err := PromptText.Check("prompt", n.Prompt)
	if err != nil {
		return err
	}
	n.Prompt = prompt
	if n.DurationS != 0 && (n.DurationS < MinDurationS || n.DurationS > MaxDurationS) {
		return Errorf(EINVALID, CodeInvalidDuration, "duration_s must be between %d and %d seconds", MinDurationS, MaxDurationS)
	}
	if !n.Style.Valid() {
		return Errorf(EINVALID, CodeInvalidStyle, "style %q is not one of playful, smooth, cinematic, custom", n.Style)
	}
	if err := ValidateCallbackURL(n.CallbackURL); err != nil {
		return err
	}
	if err := CheckMetadata(n.Metadata); err != nil {
		return err
	}
	if err := CheckAssetRefs(n.Assets); err != nil {
		return err
	}
	return CheckPresetDurations(n.Presets, n.DurationS)
}

// ValidateCallbackURL accepts "" or an absolute http(s) URL.
func ValidateCallbackURL(s string) error {
	if s == "" {
		return nil
	}
	if len(s) > MaxURLChars {
		return Errorf(EINVALID, CodeInvalidCallback, "callback_url is longer than %d characters", MaxURLChars)
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Errorf(EINVALID, CodeInvalidCallback, "callback_url must be an absolute http or https URL")
	}
	return nil
}

// CheckPresetDurations rejects a duration over any preset's platform limit.
func CheckPresetDurations(presets []PresetSpec, durationS float64) error {
	for _, p := range presets {
		if err := p.CheckDuration(durationS); err != nil {
			return err
		}
	}
	return nil
}

// DurationLimit is the longest video every one of presets allows: the smallest
// positive MaxDurationS among them, with the name of the preset that sets it; 0 and ""
// when none limits the length.
func DurationLimit(presets []PresetSpec) (maxS float64, preset string) {
	for _, p := range presets {
		if p.MaxDurationS > 0 && (maxS == 0 || p.MaxDurationS < maxS) {
			maxS, preset = p.MaxDurationS, p.Name
		}
	}
	return maxS, preset
}

// FitDuration shortens durationS to the presets' DurationLimit. A length the user only
// implied (in the prompt, in feedback) is planned within the limit instead of failing
// at approval, after codegen and the preview; an explicit duration_s over it is refused
// at submission (CheckPresetDurations). When it shortens, note tells the user why.
func FitDuration(presets []PresetSpec, durationS float64) (fitted float64, note string) {
	maxS, preset := DurationLimit(presets)
	if maxS == 0 || durationS <= maxS {
		return durationS, ""
	}
	return maxS, fmt.Sprintf("Shortened to %g s (from %g s): %s allows at most %g s.", maxS, durationS, preset, maxS)
}
