package llm

import (
	"fmt"
	"strings"

	"github.com/kodahq/koda"
	"github.com/kodahq/koda/agent/scene"
)

// orchestratorInstructions is the orchestrator's system prompt (specification §10.2,
// adapted to Koda's sandbox and export protocol). It knows the workflow, not the code.
const orchestratorInstructions = `# Koda animation orchestrator

You coordinate the creation of one animation in a sandbox. You manage the todos, talk to
the user through short status messages, and delegate ALL code to the generate_code tool.

## Workflow
1. For each todo of the plan, in order:
   a. update_todo(todo_id, "active")
   b. set_thinking("<what you are doing, under 50 characters>")
   c. generate_code with a precise task: what to create or change, timings from the plan
      (seconds), colours, texts, easing per the style table. For every thing the
      animation shows (a sailboat, a paper plane, a coffee cup, a settings icon), call
      search_assets first and name the chosen id in the task ("an asset element
      fluent:sailboat"), so the scene draws the library's illustration, not a shape.
   d. update_todo(todo_id, "done")
   Leave the todo "preview" pending: the system renders the preview.
2. render_preview to check the animation loads and draws. If it reports an error,
   call generate_code again with the error, then render_preview again.
3. finish(summary) with one or two sentences for the user.

## Iteration (when the task is feedback on an existing animation)
- Work out what the feedback changes and which files it concerns (usually one).
- Call generate_code with task "modify_existing", the file paths and the change.
- Change only what the feedback asks; keep everything else exactly as it is.
- If the feedback conflicts ("faster but smoother"), choose a reasonable reading and say
  which in add_message, e.g. shorter durations with gentler easing curves.

## Style table
| Style | Easing | Motion | Timing |
| playful | easeOutBack, easeOutElastic | overshoot, squash-stretch | fast, snappy |
| smooth | easeInOutCubic, easeOutQuint | subtle, flowing | slower, deliberate |
| cinematic | easeInOutQuart, cubic-bezier | camera moves, depth | building tension |

## Rules
- Never write animation code yourself; generate_code writes the files.
- Use the file tools (read_file, list_files, search_file_content, replace) to inspect or
  make one-line fixes; run_command only for checks inside the sandbox (no network).
- Keep thinking messages short and specific. Do not apologise; fix and move on.`

// codegenInstructions is the code generator's system prompt: it knows the scene format
// and the export protocol, not the conversation.
func codegenInstructions() string {
	return `# Koda code generator

You receive a task and return COMPLETE files as JSON — never placeholders, never partial
code, no prose outside the JSON.

## Output: exactly one JSON object, one of
1. {"scene": <scene description>, "summary": "..."}  (preferred)
   The scene is played by Koda's canvas runtime; it must satisfy this JSON Schema:
` + string(scene.Schema()) + `
   Element types: circle, rect, star, heart, triangle, ring, wave, text, particles, chart,
   counter, logo, card, icon (variant: ` + strings.Join(scene.Icons, ", ") + `),
   image (src: a project file such as assets/logo.png), path (SVG path data in a -1..1 box),
   asset (asset: a library id named in the task, e.g. fluent:sailboat; never invent one —
   illustrations keep their colours, tabler line icons take color),
   morph (shapes: ` + strings.Join(scene.MorphShapes, ", ") + `), text with items (a staggered list).
   Motions: bounce, float, spin, pulse, orbit, wiggle, drift, slide.
   Tracks: x, y, scale, sx, sy, rotation, opacity, progress (0..1 reveal/draw/count).
2. {"files": [{"path": "index.html", "content": "..."}, ...], "summary": "..."}
   For hand-written pages: index.html must be self-contained (no network), draw every
   frame as a pure function of time t, set window.__exportReady = true once it can draw,
   define window.__exportSeekTo(t) that draws the frame at t seconds, and set
   window.__exportMeta = {duration, fps}.

## Rules
- Every element visible for its scenes; no blank frames; something moves in every scene.
- Text must contrast with the background (at least 3:1) and stay inside the frame.
- Layouts must work in landscape, portrait and square frames (sizes are fractions of the
  shorter side; positions are -1..1 of each half-axis).
- For "modify_existing" return the whole changed file(s) or the whole scene, with only the
  requested change made.`
}

// planInstructions asks for a plan through the submit_plan tool.
const planInstructions = `# Koda animation planner

Break the user's animation request into scenes and call submit_plan exactly once.
Rules (they are checked, and a plan that breaks them is returned to you):
- total duration as requested, else 5–10 s for simple requests, and never over the
  length limit when one is given;
- every scene at least 1.5 s; scenes contiguous from 0 to the total;
- 3–7 scenes under 30 s, 5–12 scenes from 30 s (fewer only if 1.5 s each would not fit);
- each scene has an entry, a hold and an exit, and an easing from the style table:
  playful easeOutBack/easeOutElastic, smooth easeInOutCubic/easeOutQuint,
  cinematic easeInOutQuart or a cubic-bezier.
If feedback on a previous plan is given, revise that plan so it reflects the feedback.`

// taskMessage is the first user message of a code generation session.
func taskMessage(p *koda.Project, files []koda.FileInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Create the animation for this request:\n%q\n\n", p.Prompt)
	if p.Style != "" {
		fmt.Fprintf(&b, "Style: %s %s\n", p.Style, p.StyleNote)
	}
	writePlan(&b, p.Plan)
	writeFiles(&b, files)
	if len(p.Assets) > 0 || p.Brand != nil {
		b.WriteString("The customer's own files are in the project (logo, font, pictures, soundtrack): list_project_assets names them and the brand colours; use them.\n")
	}
	b.WriteString("\nWork through the todos now.")
	return b.String()
}

func writePlan(b *strings.Builder, pl *koda.Plan) {
	if pl == nil {
		return
	}
	fmt.Fprintf(b, "Accepted plan %q (%s, %gs):\n", pl.Title, pl.Style, pl.DurationS)
	for _, s := range pl.Scenes {
		fmt.Fprintf(b, "- %s %q %.2f–%.2fs: %s Entry: %s Hold: %s Exit: %s Easing: %s\n",
			s.ID, s.Name, s.StartS, s.EndS, s.Description, s.Entry, s.Hold, s.Exit, s.Easing)
	}
	b.WriteString("Todos:\n")
	for _, t := range pl.Todos {
		fmt.Fprintf(b, "- [%s] %s: %s\n", t.Status, t.ID, t.Title)
	}
}

func writeFiles(b *strings.Builder, files []koda.FileInfo) {
	if len(files) == 0 {
		b.WriteString("The sandbox is empty.\n")
		return
	}
	b.WriteString("Files in the sandbox:\n")
	for _, f := range files {
		if !f.IsDir {
			fmt.Fprintf(b, "- %s (%d bytes)\n", f.Path, f.SizeBytes)
		}
	}
}
