package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestExplainCommand: `koda explain` prints the reading of a prompt as text or JSON,
// and refuses an empty prompt with a clear message.
func TestExplainCommand(t *testing.T) {
	out, _, err := runKoda(t, "explain", "A weather forecast for Oslo: Monday snow -2°, Tuesday sunny 4°")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"genre: weather forecast", "layout: the genre table's weather forecast layout", "-2°", "Mon"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain output lacks %q:\n%s", want, out)
		}
	}
	out, _, err = runKoda(t, "explain", "--json", "a spaniel and a cat")
	if err != nil {
		t.Fatal(err)
	}
	var ex struct {
		Subjects []struct{ Noun, Drawing, Why string }
	}
	if err := json.Unmarshal([]byte(out), &ex); err != nil {
		t.Fatalf("explain --json: %v\n%s", err, out)
	}
	if len(ex.Subjects) != 2 || ex.Subjects[0].Drawing != "fluent:dog" || !strings.Contains(ex.Subjects[0].Why, "spaniel is a kind of dog") {
		t.Errorf("subjects %+v, want the spaniel drawn as a dog (WordNet) and the cat", ex.Subjects)
	}
	if _, _, err := runKoda(t, "explain"); err == nil || !strings.Contains(err.Error(), "give the prompt") {
		t.Errorf("explain without a prompt: %v, want a clear refusal", err)
	}
}
