package builtin_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/builtin"
)

func analyzeProject(t *testing.T, p *koda.Project) *koda.Analysis {
	t.Helper()
	an, err := builtin.New(nil).Analyze(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	return an
}

func TestAnalyzeQuestionOrSkip(t *testing.T) {
	answered := &koda.Question{ID: "style", Answer: &koda.Answer{OptionID: "cinematic"}}
	customAnswer := &koda.Question{ID: "style", Answer: &koda.Answer{OptionID: "custom", Text: "dreamy and slow, like clouds"}}
	tests := []struct {
		name     string
		p        koda.Project
		ask      bool
		style    koda.Style
		explicit bool
	}{
		{"demo names playful", koda.Project{Prompt: demoPrompt}, false, koda.StylePlayful, true},
		{"inferable only: ask", koda.Project{Prompt: "Create a bouncing ball animation"}, true, koda.StylePlayful, false},
		{"generic logo: ask", koda.Project{Prompt: "animate a logo"}, true, koda.StyleCinematic, false},
		{"nothing to infer: ask", koda.Project{Prompt: "make something for my website"}, true, "", false},
		{"explicit smooth minimal", koda.Project{Prompt: "smooth, minimal bouncing ball"}, false, koda.StyleSmooth, true},
		{"explicit cinematic", koda.Project{Prompt: "An epic reveal of the word 'Atlas' over a starfield"}, false, koda.StyleCinematic, true},
		{"elegant is smooth", koda.Project{Prompt: "An elegant product card for a watch"}, false, koda.StyleSmooth, true},
		{"reference Stripe", koda.Project{Prompt: "A logo animation like Stripe's site"}, false, koda.StyleSmooth, true},
		{"reference Pixar", koda.Project{Prompt: "A ball that jumps around, in the style of Pixar"}, false, koda.StylePlayful, true},
		{"unknown reference with site", koda.Project{Prompt: "Cards sliding in like the Acme website"}, false, koda.StyleSmooth, true},
		{"'like a' is no reference", koda.Project{Prompt: "I'd like a spinning star"}, true, "", false},
		{"highly specific", koda.Project{Prompt: "ball bounces 3 times with easeOutBack, squash on landing"}, false, koda.StylePlayful, true},
		{"specific without easing name", koda.Project{Prompt: "A blue square slides in for 8 seconds, 2 times, with the caption 'Go'"}, false, koda.StyleSmooth, true},
		{"project style wins", koda.Project{Prompt: "Create a bouncing ball animation", Style: koda.StyleCinematic}, false, koda.StyleCinematic, true},
		{"answered question", koda.Project{Prompt: "animate a logo", Question: answered}, false, koda.StyleCinematic, true},
		{"custom answer", koda.Project{Prompt: "animate a logo", Question: customAnswer}, false, koda.StyleCustom, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			an := analyzeProject(t, &tc.p)
			if (an.Question != nil) != tc.ask {
				t.Fatalf("question = %v, want ask=%v", an.Question, tc.ask)
			}
			if an.Style != tc.style || an.Explicit != tc.explicit {
				t.Errorf("style %q explicit %v, want %q %v", an.Style, an.Explicit, tc.style, tc.explicit)
			}
			if an.Question != nil {
				var ids []string
				for _, o := range an.Question.Options {
					ids = append(ids, o.ID)
					if o.FreeText != (o.ID == "custom") {
						t.Errorf("option %s free text = %v", o.ID, o.FreeText)
					}
				}
				if want := []string{"playful", "smooth", "cinematic", "custom"}; !reflect.DeepEqual(ids, want) {
					t.Errorf("options %v, want %v", ids, want)
				}
			}
			if an.DurationS < 5 || an.DurationS > 10 && !strings.Contains(tc.p.Prompt, "seconds") {
				t.Errorf("default duration %g outside 5–10 s", an.DurationS)
			}
		})
	}
}

func TestAnalyzeExtraction(t *testing.T) {
	tests := []struct {
		prompt   string
		colors   []string
		texts    []string
		duration float64
		aspect   string
		subjects []string
	}{
		{demoPrompt, []string{"#e53935"}, []string{"Hello from Koda"}, 0, "", []string{"ball"}},
		{`A #ff8800 star and a teal heart spin for 10 seconds, then "Love it" shows`, []string{"#ff8800", "#00897b"}, []string{"Love it"}, 10, "", []string{"star", "heart"}},
		{"Vertical video: the headline “Summer Sale” pops over a #0af background, 5s", []string{"#00aaff"}, []string{"Summer Sale"}, 5, "portrait", nil},
		{"Like Stripe's site: a card with 'Pro plan' slides in, 2 minutes", nil, []string{"Pro plan"}, 120, "", []string{"card"}},
		{"A square logo, ten seconds, with the words 'Red Alert'", nil, []string{"Red Alert"}, 10, "", []string{"logo"}},
		{"A square video of a spinning ring", nil, nil, 0, "square", []string{"ring"}},
		{"A 15-second bar chart of revenue growing in green", []string{"#43a047"}, nil, 15, "", []string{"chart"}},
		// A number word joined to its unit by a hyphen is a length, not an ordinal.
		{"A two-minute video of a ball rolling", nil, nil, 120, "", []string{"ball"}},
		{"A thirty-second promo: a cup of coffee steams", nil, nil, 30, "", []string{"cup of coffee"}},
		{"stars twinkling in a purple sky for 3 s", []string{"#8e24aa"}, nil, 3, "", []string{"stars"}},
		// Words to show written without quotes: an opening exclamation, a handle, a web address.
		{"We're hiring! A pencil doodles, then apply at lumenlabs.io/jobs or follow @lumenlabs", nil, []string{"We're hiring!", "lumenlabs.io/jobs", "@lumenlabs"}, 0, "", []string{"pencil"}},
		{"A ball bounces! Then it stops", nil, nil, 0, "", []string{"ball"}},
		// A name in capitals after what it names is shown; an acronym alone is not.
		{"intro for my gaming channel NULLSHIFT with RGB noise. the tagline \"retro games\" types out", nil, []string{"NULLSHIFT", "retro games"}, 0, "", nil},
		// A length inside a step is the step's; "square" set off by commas is the format.
		{"Recipe card, square, steps: 1. Boil noodles 4 min, 2. Melt the butter", nil, nil, 0, "square", []string{"card"}},
		// "Square" as a sentence of its own is the format too; a length per line is no
		// video's length when the whole is said.
		{"A paper boat sails off the top of the frame. Square, about 7 seconds.", nil, nil, 7, "square", []string{"boat"}},
		{"Two lines, \"Hello there\" and \"Good night\", about 3 seconds per line. 9 seconds total.", nil, []string{"Hello there", "Good night"}, 9, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.prompt, func(t *testing.T) {
			an := analyzeProject(t, &koda.Project{Prompt: tc.prompt})
			if !reflect.DeepEqual(an.Colors, tc.colors) {
				t.Errorf("colors %v, want %v", an.Colors, tc.colors)
			}
			if !reflect.DeepEqual(an.Texts, tc.texts) {
				t.Errorf("texts %q, want %q", an.Texts, tc.texts)
			}
			if tc.duration > 0 && an.DurationS != tc.duration {
				t.Errorf("duration %g, want %g", an.DurationS, tc.duration)
			}
			if an.Aspect != tc.aspect {
				t.Errorf("aspect %q, want %q", an.Aspect, tc.aspect)
			}
			if !reflect.DeepEqual(an.Subjects, tc.subjects) {
				t.Errorf("subjects %v, want %v", an.Subjects, tc.subjects)
			}
		})
	}
	// The project's duration beats the prompt's.
	if an := analyzeProject(t, &koda.Project{Prompt: "a ball for 10 seconds", DurationS: 7}); an.DurationS != 7 {
		t.Errorf("duration %g, want the project's 7", an.DurationS)
	}
}
