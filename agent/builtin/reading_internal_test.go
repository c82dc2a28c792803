package builtin

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestReadingRules: each rule of the reading added for words nobody tuned for, with its
// example: what the prompt draws, colours and counts, and what it does not.
func TestReadingRules(t *testing.T) {
	nouns := func(b *brief) []string {
		var out []string
		for _, s := range b.Subjects {
			out = append(out, s.Noun)
		}
		return out
	}
	for _, c := range []struct {
		rule, prompt string
		check        func(b *brief) string
	}{
		{"a colour's name then its code is one colour, the code's",
			"KPI cards. Navy background #0B1F3A, cards in white, accent teal #14B8A6.",
			func(b *brief) string {
				if b.Background != "#0b1f3a" || b.Background2 != "" {
					return "background " + b.Background + " " + b.Background2 + ", want #0b1f3a alone"
				}
				return ""
			}},
		{"a colour called an accent is the layout's accent",
			"KPI cards. Navy background #0B1F3A, cards in white, accent teal #14B8A6.",
			func(b *brief) string {
				if b.Accent != "#14b8a6" {
					return "accent " + b.Accent + ", want #14b8a6"
				}
				return ""
			}},
		{"a counter something stands on is no number counting",
			"a cat on a kitchen counter pushes a glass off the edge",
			func(b *brief) string {
				for _, s := range b.Subjects {
					if s.Kind == "counter" || s.Data != nil {
						return "a counter widget in " + strings.Join(nouns(b), ", ")
					}
				}
				return ""
			}},
		{"a counter with a number still counts",
			"a counter counts from 0 to 500",
			func(b *brief) string {
				for _, s := range b.Subjects {
					if s.Kind == "counter" {
						return ""
					}
				}
				return "no counter in " + strings.Join(nouns(b), ", ")
			}},
		{"the camera a subject looks at is the viewer",
			"a cat looks at the camera and yawns",
			func(b *brief) string {
				if slices.Contains(nouns(b), "camera") {
					return "a camera is drawn"
				}
				return ""
			}},
		{"an idiom's noun is not drawn",
			"poll results: YES 46% / NO 54%, NO wins by a hair",
			func(b *brief) string {
				if slices.Contains(nouns(b), "hair") {
					return "hair is drawn"
				}
				return ""
			}},
		{"an adjective before a noun the library cannot draw is not drawn instead",
			"an electric kettle starts bubbling",
			func(b *brief) string {
				if slices.Contains(nouns(b), "electric") {
					return "'electric' is drawn"
				}
				return ""
			}},
		{"a list's marks count nothing",
			"A story in 3 beats: (1) a dog sits by the door; (2) the door opens; (3) the dog jumps",
			func(b *brief) string {
				for _, s := range b.Subjects {
					if s.Noun == "dog" && s.Many > 1 {
						return "the dog is drawn several times"
					}
				}
				return ""
			}},
		{"a frame's size in pixels is its shape",
			"GOAL! graphic for our club's socials, 1080x1080, 5 seconds",
			func(b *brief) string {
				if b.Aspect != "square" {
					return "aspect " + b.Aspect
				}
				return ""
			}},
		{"a comparative after a linking verb is a change, not a thing",
			"a pink piggy bank on a shelf, gold coins drop into the slot one by one and the pig gets a little rounder and happier each time",
			func(b *brief) string {
				for _, s := range b.Subjects {
					if s.Noun == "rounder" || s.Noun == "happier" {
						return s.Noun + " is drawn"
					}
				}
				return ""
			}},
		{"where the video goes is not drawn",
			"Cricket chase graphic for our club's live stream: Millbrook 158/6, need 24 off 12 balls",
			func(b *brief) string {
				for _, s := range b.Subjects {
					if s.Noun == "stream" || s.Noun == "club" || s.Noun == "live stream" {
						return s.Noun + " is drawn"
					}
				}
				if len(b.Purpose) != 1 {
					return fmt.Sprintf("purpose %q", b.Purpose)
				}
				return ""
			}},
		{"what the video is for stays when it is a thing",
			"A dog waits by the door for his ball",
			func(b *brief) string {
				for _, s := range b.Subjects {
					if s.Noun == "ball" {
						return ""
					}
				}
				return "the ball is not drawn"
			}},
		{"a hedged length is the video's length",
			"achievement popup slides in, trophy spins, then it slides back out. like 4 seconds",
			func(b *brief) string {
				if b.Duration != 4 {
					return fmt.Sprintf("duration %g", b.Duration)
				}
				return ""
			}},
		{"one of several is introduced as a thing",
			"laundry on a line; one red sock blows off its peg and tumbles across the lawn",
			func(b *brief) string {
				for _, s := range b.Subjects {
					if s.Noun == "sock" {
						return ""
					}
				}
				return "the sock is not drawn"
			}},
		{"a counter one looks from is a place",
			"Sushi conveyor belt in a small restaurant, seen from the counter: colourful plates glide past left to right",
			func(b *brief) string {
				for _, s := range b.Subjects {
					if s.Kind == "counter" {
						return "a number counts"
					}
				}
				return ""
			}},
		{"an accented word is one word",
			"calaveritas de azúcar and a café sign",
			func(b *brief) string {
				for _, s := range b.Subjects {
					if s.Noun == "car" {
						return "'azúcar' read as 'az' and 'car'"
					}
				}
				return ""
			}},
		{"a material and an infinitive are not things",
			"a paper boat made from newspaper floats down the gutter into a puddle where a kid is waiting to pick it up",
			func(b *brief) string {
				for _, s := range b.Subjects {
					if s.Noun == "newspaper" || s.Noun == "pick" {
						return s.Noun + " is drawn"
					}
				}
				return ""
			}},
		{"a place after 'to' stays",
			"a yellow bus drives to the school and then to school again",
			func(b *brief) string {
				for _, s := range b.Subjects {
					if s.Noun == "school" {
						return ""
					}
				}
				return "the school is not drawn"
			}},
		{"words after a label and a colon are the words to show",
			"Announcement: we are hiring designers, apply by 30 June",
			func(b *brief) string {
				if len(b.Texts) != 1 || b.Texts[0] != "We are hiring designers, apply by 30 June" {
					return fmt.Sprintf("texts %q", b.Texts)
				}
				return ""
			}},
		{"a ratio beats a word that names something else",
			"brand colour palette reveal — five vertical swatches slide up one after another, then the wordmark fades in. 16:9, smooth and slow",
			func(b *brief) string {
				if b.Aspect != "landscape" {
					return "aspect " + b.Aspect
				}
				return ""
			}},
		{"a score is not a frame's ratio",
			"Final score graphic: United win 3:1, vertical for reels",
			func(b *brief) string {
				if b.Aspect != "portrait" {
					return "aspect " + b.Aspect
				}
				return ""
			}},
		{"a word numbered first to last is the counter's range",
			`candles light one per night from night 1 to night 8, with a counter "Night 1" … "Night 8"`,
			func(b *brief) string {
				for _, s := range b.Subjects {
					if d := s.Data; d != nil && d.Kind == dataCounter {
						if d.From != 1 || d.To != 8 || d.Prefix != "Night " {
							return fmt.Sprintf("counter %q%v to %v", d.Prefix, d.From, d.To)
						}
						return ""
					}
				}
				return "no counter"
			}},
		{"a colour before a place is the place's colour",
			"wind turbines on green hills spin",
			func(b *brief) string {
				if b.GroundColor != namedColors["green"] || b.Background != "" {
					return "ground " + b.GroundColor + ", background " + b.Background
				}
				return ""
			}},
	} {
		if msg := c.check(analyze(c.prompt)); msg != "" {
			t.Errorf("%s: %q: %s", c.rule, c.prompt, msg)
		}
	}
}

// TestQuotedChartTitle: a quoted line before a chart's figures is its title, shown once.
func TestQuotedChartTitle(t *testing.T) {
	b := analyze("poll results reveal: 'Pineapple on pizza?' YES 46% / NO 54%. bars race up")
	var title string
	for _, s := range b.Subjects {
		if s.Data != nil {
			title = s.Data.Title
		}
	}
	if title != "Pineapple on pizza?" {
		t.Fatalf("chart title %q, want the quoted question", title)
	}
	if !titlesData(b, 0) {
		t.Error("the quoted title would be shown again as a text")
	}
}

// TestStoryStepsAreNoFactCard: numbered clauses in which something acts are a scene's
// beats; numbered values are facts.
func TestStoryStepsAreNoFactCard(t *testing.T) {
	if !storySteps(enumerated("(1) a dog sits by the front door; (2) keys jingle, the door opens, the owner walks in; (3) the dog jumps around")) {
		t.Error("a story's beats read as facts")
	}
	if f := facts("Explainer: 1) water fills the drum, 2) the drum rotates with soap bubbles, 3) water drains, 4) the drum spins fast"); f != nil {
		t.Errorf("a machine's steps read as facts: %v", f)
	}
	if storySteps(enumerated("1. Flight BA 117 2. Gate B32 3. Seat 14C")) {
		t.Error("a boarding pass's facts read as a story")
	}
	if got := enumerated("(1) a dog sits; (2) the door opens"); len(got) != 2 || strings.HasSuffix(got[0], "(") {
		t.Errorf("items %q: the next mark's bracket stays on an item", got)
	}
}

// TestSettingRows: every row of the settings and times tables is chosen by its own
// example, the place named first wins, and snow lies on an outdoor ground.
func TestSettingRows(t *testing.T) {
	for _, s := range settings {
		got, _, ok := settingFor(strings.ToLower(s.Example))
		if !ok || got.Name != s.Name {
			t.Errorf("%q: setting %q, want %q", s.Example, got.Name, s.Name)
		}
	}
	for _, tm := range skyTimes {
		_, got, ok := settingFor(strings.ToLower(tm.Example))
		if !ok || got.Name != tm.Name {
			t.Errorf("%q: light %q, want %q", tm.Example, got.Name, tm.Name)
		}
	}
	if s, _, _ := settingFor("wind turbines on green hills send power to a small town"); s.Name != "countryside" {
		t.Errorf("the place named first: %q, want countryside", s.Name)
	}
	if s, _, _ := settingFor("a snowy night, a cabin in the forest"); s.Ground != "#eef3f8" {
		t.Errorf("a snowy forest's ground is %q", s.Ground)
	}
	if s, _, _ := settingFor("a yellow submarine bobs under the sea"); s.Name != "underwater" {
		t.Errorf("under the sea: %q, want underwater", s.Name)
	}
	if _, _, ok := settingFor("a red ball bounces"); ok {
		t.Error("a prompt naming no place got a setting")
	}
}
