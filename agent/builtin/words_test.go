package builtin_test

import (
	"strings"
	"testing"

	"github.com/kodahq/koda/agent/scene"
)

// textOf is the text element showing s.
func textOf(t *testing.T, d *scene.Description, s string) *scene.Element {
	t.Helper()
	for _, e := range d.Elements {
		if e.Type == scene.TypeText && e.Text == s {
			return e
		}
	}
	t.Fatalf("no text element shows %q", s)
	return nil
}

func motionTypes(e *scene.Element) []string {
	var out []string
	for _, m := range e.Motions {
		out = append(out, m.Type)
	}
	return out
}

// TestWordsPlayTheirVerbs: quoted words that do the verb themselves play it — a title
// slams at the camera, a word bounces in or floats, in the colours asked.
func TestWordsPlayTheirVerbs(t *testing.T) {
	cases := []struct {
		prompt, text, motion string
	}{
		{"Big bold title 'LAUNCH' slams onto the screen", "LAUNCH", scene.MotionSlam},
		{"The word 'JUMP' bounces in", "JUMP", scene.MotionBounce},
		{"The word 'Vibes' in pink and orange, floating gently", "Vibes", scene.MotionFloat},
		{"The headline 'Sale' spins", "Sale", scene.MotionSpin},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			_, sb, _ := generate(t, tc.prompt, "", 0)
			d := readScene(t, sb)
			e := textOf(t, d, tc.text)
			if !strings.Contains(strings.Join(motionTypes(e), ","), tc.motion) {
				t.Errorf("text %q plays %v, want a %s", tc.text, motionTypes(e), tc.motion)
			}
			if tc.text == "Vibes" && (e.Color != "#ec407a" || e.Color2 != "#fb8c00") {
				t.Errorf("Vibes in %s and %s, want pink (#ec407a) blending into orange (#fb8c00)", e.Color, e.Color2)
			}
		})
	}
}

// TestLoneWordIsBig: a lone word with nothing else drawn is the subject and is big; a
// sentence, or a word beside a drawn subject, keeps its caption size.
func TestLoneWordIsBig(t *testing.T) {
	for _, tc := range []struct {
		prompt, text string
		big          bool
	}{
		{"The word 'Vibes' in pink and orange, floating gently", "Vibes", true},
		{"Neon sign that flickers the word 'OPEN' in pink on a dark wall", "OPEN", true},
		{"Welcome screen that says 'Welcome to the team, Sara!' with confetti", "Welcome to the team, Sara!", false},
		{"A red ball bounces, then the word 'Boing' appears", "Boing", false},
	} {
		_, sb, _ := generate(t, tc.prompt, "", 0)
		e := textOf(t, readScene(t, sb), tc.text)
		if got := e.Size >= 0.2; got != tc.big {
			t.Errorf("%q: size %g, want big=%v", tc.text, e.Size, tc.big)
		}
	}
}

// TestLinesStackUp: "three lines stack up one by one" keeps every line, one under the
// other, each arriving after the last.
func TestLinesStackUp(t *testing.T) {
	_, sb, _ := generate(t, "Three lines stack up one by one: 'Design', 'Code', 'Deploy'", "", 0)
	d := readScene(t, sb)
	var prev *scene.Element
	for _, s := range []string{"Design", "Code", "Deploy"} {
		e := textOf(t, d, s)
		if e.End != 0 {
			t.Errorf("%q leaves at %gs; a stack keeps every line", s, e.End)
		}
		if op := e.Tracks["opacity"]; len(op) > 0 && op[len(op)-1].V < 1 {
			t.Errorf("%q fades out (%v)", s, op)
		}
		if prev != nil && (e.Y <= prev.Y || e.Start <= prev.Start) {
			t.Errorf("%q at y %g from %gs, previous line at y %g from %gs: want below and later", s, e.Y, e.Start, prev.Y, prev.Start)
		}
		prev = e
	}
}

// TestBigNumberAndGraph: "a big number 95%" is a counter to 95%, captioned; a graph
// drawing left to right is a line titled by its data, not its colour; a plan's title
// never carries a colour's hex code.
func TestBigNumberAndGraph(t *testing.T) {
	p, sb, _ := generate(t, "A big number 95% with the caption 'uptime'", "", 0)
	d := readScene(t, sb)
	c := elementsOf(d, scene.TypeCounter)
	if len(c) != 1 || c[0].To != 95 || c[0].Suffix != "%" || c[0].Sub != "uptime" {
		t.Fatalf("counters %+v, want one counting to 95%% captioned uptime", c)
	}
	if strings.Contains(p.Plan.Title, "#") {
		t.Errorf("plan title %q names a hex colour", p.Plan.Title)
	}
	_, sb, _ = generate(t, "A green graph of user growth drawing from left to right, subtle", "", 0)
	ch := elementsOf(readScene(t, sb), scene.TypeChart)
	if len(ch) != 1 || ch[0].Variant != scene.ChartLine || ch[0].Text != "User growth" || ch[0].Color != "#43a047" {
		t.Fatalf("charts %+v, want one green line titled User growth", ch)
	}
}
