package builtin

import (
	"strings"
	"testing"
)

// flowString writes a flowchart as "Q? [Yes: A | No: B? [Yes: C | No: D]]" for tests.
func flowString(n *flowNode) string {
	if n == nil {
		return "<nil>"
	}
	s := n.Text
	if len(n.Kids) > 0 {
		var ks []string
		for _, k := range n.Kids {
			ks = append(ks, strings.TrimSpace(k.Label+": "+flowString(k.To)))
		}
		s += " [" + strings.Join(ks, " | ") + "]"
	}
	return s
}

// TestFlowTree: a flowchart's top question and its answers, written with arrows and
// colons, in sentences ("if yes …, otherwise …"), unquoted, or with labels of the
// writer's own; each answer hangs off the latest question still without it.
func TestFlowTree(t *testing.T) {
	for _, c := range []struct{ prompt, want string }{
		{`Flowchart: Start: 'Can it go in the green bin?' → yes: 'Green bin'; no: 'Is it food?' → yes: 'Food caddy', no: 'General waste'`,
			`Can it go in the green bin? [Yes: Green bin | No: Is it food? [Yes: Food caddy | No: General waste]]`},
		{`Decision tree: start with "Is it raining?" If yes, "Take an umbrella". Otherwise ask "Is it cold?" - if it is, "Wear a coat", if not, "Go as you are".`,
			`Is it raining? [Yes: Take an umbrella | No: Is it cold? [Yes: Wear a coat | No: Go as you are]]`},
		{`a simple flow chart. Is the build green? yes -> Deploy; no -> Fix the tests`,
			`Is the build green? [Yes: Deploy | No: Fix the tests]`},
		{`decision tree for the cafe: "How old are you?" Under 12: "Kids menu"; 12 to 64: "Main menu"; 65+: "Senior deal"`,
			`How old are you? [Under 12: Kids menu | 12 to 64: Main menu | 65+: Senior deal]`},
		{`yes/no chart — "Did you sleep 8 hours?" yes leads to "Is it a workday?", which if yes goes to "Coffee and go" and if no goes to "Sleep in"; no goes to "Nap first"`,
			`Did you sleep 8 hours? [Yes: Is it a workday? [Yes: Coffee and go | No: Sleep in] | No: Nap first]`},
		{`a flowchart of nothing in particular`, `<nil>`},
	} {
		if got := flowString(flowTree(c.prompt)); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.prompt, got, c.want)
		}
	}
}

// TestFlowchartChosen: a flowchart asked for in any of its phrasings takes the row; a
// flowchart word with no question and answers in it, or a plain list of steps, does not.
func TestFlowchartChosen(t *testing.T) {
	for _, c := range []struct {
		prompt string
		want   bool
	}{
		{`Decision tree: start with "Is it raining?" If yes, "Take an umbrella". Otherwise "Stay dry"`, true},
		{`a simple flow chart. Is the build green? yes -> Deploy; no -> Fix the tests`, true},
		{`yes/no chart — "Did you sleep 8 hours?" yes leads to "Coffee", no goes to "Nap first"`, true},
		{`a flowchart icon spinning on a blue background`, false},
		{`Step-by-step timeline of ordering: 1 Pick a plan, 2 Add your address, 3 Enjoy your first box`, false},
	} {
		g := detectGenre(c.prompt)
		if got := g != nil && g.Name == "flowchart"; got != c.want {
			t.Errorf("%q: flowchart %v, want %v (row %v)", c.prompt, got, c.want, g)
		}
	}
}
