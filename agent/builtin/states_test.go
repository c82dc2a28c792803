package builtin

import (
	"slices"
	"testing"
)

// TestStatesAndActors: a colour change "from A to B to C" belongs to its clause's
// subject (drawn in A, turning into B and C), not to the nouns beside the colours; a
// clause with a verb but no actor of its own acts on the previous clause's actor.
func TestStatesAndActors(t *testing.T) {
	b := analyze("A single maple leaf on a branch turns from green to orange to deep red, then detaches and drifts down onto a pond.")
	leaf, branch, pond := -1, -1, -1
	for i, s := range b.Subjects {
		switch s.Noun {
		case "single maple leaf":
			leaf = i
		case "branch":
			branch = i
		case "pond":
			pond = i
		}
	}
	if leaf < 0 || branch < 0 || pond < 0 {
		t.Fatalf("subjects %+v", b.Subjects)
	}
	if s := b.Subjects[leaf]; s.Color != "#43a047" || len(s.States) != 2 || s.States[0] != "#fb8c00" {
		t.Errorf("leaf %+v, want green turning orange then deep red", s)
	}
	if b.Subjects[branch].Color != "" || b.Subjects[pond].Color != "" {
		t.Errorf("the branch (%q) and the pond (%q) took the leaf's colours", b.Subjects[branch].Color, b.Subjects[pond].Color)
	}
	last := b.Beats[len(b.Beats)-1]
	if !slices.Contains(last.Subjects, leaf) || !slices.Contains(last.Places, pond) {
		t.Errorf("last clause %+v, want the leaf drifting onto the pond, which stays", last)
	}

	// A shape turns by a recolour; the other colours of the prompt stay where they are.
	b = analyze("A red ball bounces while a square turns from blue to yellow")
	for _, s := range b.Subjects {
		if s.Noun == "square" && (s.Color != "#1e88e5" || !slices.Equal(s.States, []string{"#fdd835"})) {
			t.Errorf("square %+v, want blue turning yellow", s)
		}
		if s.Noun == "ball" && s.Color != "#e53935" {
			t.Errorf("ball %+v, want red", s)
		}
	}
}
