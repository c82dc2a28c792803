package builtin

// WayExamples are the example prompts of the ways' rows, by preposition, for the
// external test that renders each.
func WayExamples() map[string]string {
	out := map[string]string{}
	for _, r := range wayRows {
		out[r.Prep] = r.Example
	}
	return out
}
