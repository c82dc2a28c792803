package builtin_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kodahq/koda/agent/builtin"
)

// TestExplain: explain says what the agent read — counts, relations, paths, data, the
// genre and the drawing chosen with its reason — and where each element rests.
func TestExplain(t *testing.T) {
	for _, c := range []struct {
		prompt string
		check  func(t *testing.T, ex *builtin.Explanation)
	}{
		{"Three balloons float up over a house", func(t *testing.T, ex *builtin.Explanation) {
			s := subjectOf(t, ex, "balloons")
			if s.Count != 3 || s.Drawing != "fluent:balloon" {
				t.Errorf("balloons %+v, want three of the balloon drawing", s)
			}
			if !hasRelation(ex, "balloons over house") {
				t.Errorf("clauses %+v, want the balloons over the house", ex.Clauses)
			}
		}},
		{"A red ball rolls from the left to the right", func(t *testing.T, ex *builtin.Explanation) {
			if s := subjectOf(t, ex, "ball"); s.Color == "" || s.Kind != "circle" {
				t.Errorf("ball %+v, want a red circle", s)
			}
			if len(ex.Clauses) == 0 || !slices.Contains(ex.Clauses[0].Actions, "roll") {
				t.Errorf("clauses %+v, want the ball rolling", ex.Clauses)
			}
		}},
		{"A paper airplane flies from a house to a school", func(t *testing.T, ex *builtin.Explanation) {
			at := map[string]float64{}
			for _, p := range ex.Placed {
				at[p.ID] = p.X
			}
			if at["house-2"] > -0.5 || at["school-3"] < 0.5 || at["paper-airplane-1"] > -0.5 {
				t.Errorf("placed %+v, want the house at the left end, the school at the right, the plane setting off from the house", ex.Placed)
			}
		}},
		{"Five colourful balloons float up", func(t *testing.T, ex *builtin.Explanation) {
			colors := map[string]bool{}
			for _, p := range ex.Placed {
				if strings.HasPrefix(p.ID, "colourful-balloons") && p.Color != "" {
					colors[p.Color] = true
				}
			}
			if len(colors) < 4 {
				t.Errorf("placed %+v, want five balloons in several colours", ex.Placed)
			}
		}},
		{"A cat sits between two potted plants", func(t *testing.T, ex *builtin.Explanation) {
			var cat float64
			var plants []float64
			for _, p := range ex.Placed {
				switch {
				case strings.HasPrefix(p.ID, "cat"):
					cat = p.X
				case strings.HasPrefix(p.ID, "potted-plants"):
					plants = append(plants, p.X)
				}
			}
			if len(plants) != 2 || !(plants[0] < cat && cat < plants[1] || plants[1] < cat && cat < plants[0]) {
				t.Errorf("cat at %.2f, plants at %v: want the cat between them", cat, plants)
			}
		}},
		{"A dog runs from the left to the right chasing a red frisbee", func(t *testing.T, ex *builtin.Explanation) {
			if s := subjectOf(t, ex, "dog"); s.Color != "" {
				t.Errorf("dog %+v took the frisbee's red", s)
			}
			if len(ex.Clauses) == 0 || !slices.Contains(ex.Clauses[0].Actions, "slide") {
				t.Errorf("clauses %+v, want the dog running (a travel)", ex.Clauses)
			}
		}},
		{"A bar chart of sales: March 90, April 60, May 40", func(t *testing.T, ex *builtin.Explanation) {
			if s := subjectOf(t, ex, "chart"); !strings.Contains(s.Data, "[90 60 40]") || !strings.Contains(s.Data, "March April May") {
				t.Errorf("chart data %q, want 90, 60, 40 labelled by month", s.Data)
			}
		}},
		{"A spaniel runs across a park", func(t *testing.T, ex *builtin.Explanation) {
			s := subjectOf(t, ex, "spaniel")
			if s.Drawing != "fluent:dog" || !strings.Contains(s.Why, "WordNet") {
				t.Errorf("spaniel %+v, want the dog, WordNet's hypernym, said", s)
			}
		}},
		{`Lower third: "Ana Ruiz" with the role "Mayor of Lisbon" on a teal bar`, func(t *testing.T, ex *builtin.Explanation) {
			if ex.Genre == nil || ex.Genre.Name != "lower third" || !strings.Contains(ex.Layout, "lower third") {
				t.Fatalf("genre %+v, layout %q, want the lower third", ex.Genre, ex.Layout)
			}
			var words []string
			for _, p := range ex.Placed {
				words = append(words, p.What)
			}
			if !slices.Contains(words, "Ana Ruiz") || !slices.Contains(words, "Mayor of Lisbon") {
				t.Errorf("placed %v, want the name and the role", words)
			}
		}},
	} {
		t.Run(c.prompt, func(t *testing.T) {
			ex := builtin.Explain(c.prompt)
			if len(ex.Placed) == 0 || ex.String() == "" {
				t.Fatalf("nothing placed: %+v", ex)
			}
			c.check(t, ex)
		})
	}
}

func subjectOf(t *testing.T, ex *builtin.Explanation, noun string) builtin.ExplainedSubject {
	t.Helper()
	for _, s := range ex.Subjects {
		if s.Noun == noun {
			return s
		}
	}
	t.Fatalf("no subject %q in %+v", noun, ex.Subjects)
	return builtin.ExplainedSubject{}
}

func hasRelation(ex *builtin.Explanation, rel string) bool {
	for _, c := range ex.Clauses {
		if slices.Contains(c.Relations, rel) {
			return true
		}
	}
	return false
}
