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
	// The library has no branch (only a nest whose keyword it is), so the branch may
	// not be a subject; when it is, it stays uncoloured.
	if leaf < 0 || pond < 0 {
		t.Fatalf("subjects %+v", b.Subjects)
	}
	if s := b.Subjects[leaf]; s.Color != "#43a047" || len(s.States) != 2 || s.States[0] != "#fb8c00" {
		t.Errorf("leaf %+v, want green turning orange then deep red", s)
	}
	if branch >= 0 && b.Subjects[branch].Color != "" || b.Subjects[pond].Color != "" {
		t.Errorf("the branch or the pond (%q) took the leaf's colours: %+v", b.Subjects[pond].Color, b.Subjects)
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

// TestFormsOfADrawing: a drawing that turns into another ("hatches into", "opens into")
// has it as its later form, and "into" places nothing inside anything (the scene is
// checked by TestFormsPlayInPlace).
func TestFormsOfADrawing(t *testing.T) {
	for _, prompt := range []string{"An egg wobbles, then hatches into a chick", "A small bud opens into a rose"} {
		b := analyze(prompt)
		var firsts []subject
		for _, s := range b.Subjects {
			if !s.Absorbed {
				firsts = append(firsts, s)
			}
		}
		if len(firsts) != 1 || len(firsts[0].Forms) != 1 {
			t.Fatalf("%q: subjects %+v, want one drawing with one later form", prompt, b.Subjects)
		}
		for _, bt := range b.Beats {
			if len(bt.Rels) > 0 {
				t.Errorf("%q: relations %+v, want none", prompt, bt.Rels)
			}
		}

	}
}
