package koda

import (
	"encoding/json"
	"math"
	"time"
)

// Style is the motion style of an animation (the specification's style table).
type Style string

const (
	StylePlayful   Style = "playful"   // easeOutBack/easeOutElastic, overshoot, squash-stretch, snappy
	StyleSmooth    Style = "smooth"    // easeInOutCubic/easeOutQuint, subtle and flowing, deliberate
	StyleCinematic Style = "cinematic" // easeInOutQuart, camera moves and depth, building tension
	StyleCustom    Style = "custom"    // described in free text by the user
)

// Valid reports whether s is a known style ("" is valid: not chosen yet).
func (s Style) Valid() bool {
	switch s {
	case "", StylePlayful, StyleSmooth, StyleCinematic, StyleCustom:
		return true
	}
	return false
}

// Limits of a project's duration; limits of its text are in text.go.
const (
	MinDurationS = 1
	MaxDurationS = 180
)

// Project is one animation request and everything produced for it.
type Project struct {
	ID          string
	TenantID    string
	Prompt      string
	Style       Style
	StyleNote   string  // the user's words for a custom style
	DurationS   float64 // requested duration; 0 until chosen by the planner
	AutoApprove bool
	Presets     []PresetSpec // final presets to render on approval
	CallbackURL string
	Metadata    json.RawMessage
	// Assets are the tenant's files the project uses (the request's and its brand
	// kit's), copied into the project folder before codegen.
	Assets []ProjectAsset
	// Brand is the tenant's brand kit as it was when the project was made; nil when
	// the tenant has none or the request said "brand": false.
	Brand *Brand

	Phase     Phase
	Question  *Question
	Plan      *Plan
	Execution Execution
	Preview   *Output  // the latest preview
	Error     *Failure // why the project is in phase error
	Feedback  []string // feedback not yet applied by the agent, oldest first

	// Step counts the work items enqueued for this project; a task carries the step it
	// was enqueued for and does nothing when the project has moved on.
	Step int
	// Pending names the task kind the project waits for ("" when it waits for the user);
	// the reconciler re-enqueues it when its task was lost.
	Pending string

	CreatedAt time.Time
	UpdatedAt time.Time
}

// Question is the one multiple-choice question the agent may ask.
type Question struct {
	ID      string           `json:"id"`
	Text    string           `json:"text"`
	Options []QuestionOption `json:"options"`
	Answer  *Answer          `json:"answer,omitempty"`
}

// QuestionOption is one choice; the option with FreeText accepts text from the user.
type QuestionOption struct {
	ID          string `json:"id"`
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
	FreeText    bool   `json:"free_text,omitempty"`
}

// Answer is the user's reply to a Question.
type Answer struct {
	OptionID string `json:"option_id,omitempty"`
	Text     string `json:"text,omitempty"`
}

// Plan is the agent's breakdown of the animation into scenes.
type Plan struct {
	Title     string  `json:"title"`
	Style     Style   `json:"style"`
	DurationS float64 `json:"duration_s"`
	Scenes    []Scene `json:"scenes"`
	Todos     []Todo  `json:"todos"`
	// Revision counts plans made for this project; a rejected plan's feedback yields the next.
	Revision int    `json:"revision"`
	Feedback string `json:"feedback,omitempty"` // the rejection feedback this plan answers
	// Notes tell the user where the plan departs from what was asked, and why: the user
	// sees the plan before (or, with auto_approve, instead of) approving it.
	Notes []string `json:"notes,omitempty"`
}

// ScaleTo changes the length of a plan that has one to totalS, every scene's times
// scaled in proportion (to the millisecond, the last scene ending exactly at totalS),
// so the scenes keep their share of the video.
func (pl *Plan) ScaleTo(totalS float64) {
	if pl.DurationS <= 0 {
		return
	}
	f := totalS / pl.DurationS
	for i := range pl.Scenes {
		pl.Scenes[i].StartS = math.Round(pl.Scenes[i].StartS*f*1000) / 1000
		pl.Scenes[i].EndS = math.Round(pl.Scenes[i].EndS*f*1000) / 1000
	}
	if n := len(pl.Scenes); n > 0 {
		pl.Scenes[n-1].EndS = totalS
	}
	pl.DurationS = totalS
}

// FitPresets shortens a plan longer than presets allow to their DurationLimit (ScaleTo)
// and adds FitDuration's note to Notes. It returns the note, "" when the plan fits.
func (pl *Plan) FitPresets(presets []PresetSpec) string {
	d, note := FitDuration(presets, pl.DurationS)
	if note == "" {
		return ""
	}
	pl.ScaleTo(d)
	pl.Notes = append(pl.Notes, note)
	return note
}

// Scene is one visual moment of the plan with its timing.
type Scene struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	StartS      float64 `json:"start_s"`
	EndS        float64 `json:"end_s"`
	Description string  `json:"description"`
	Entry       string  `json:"entry"`
	Hold        string  `json:"hold"`
	Exit        string  `json:"exit"`
	Easing      string  `json:"easing"`
}

// TodoStatus is the state of one todo.
type TodoStatus string

const (
	TodoPending TodoStatus = "pending"
	TodoActive  TodoStatus = "active"
	TodoDone    TodoStatus = "done"
)

// TodoRenderPreview is the ID of the plan's last todo, "Render preview". The agent
// leaves it pending; the system marks it active when the preview render is queued and
// done when the preview is ready.
const TodoRenderPreview = "preview"

// Todo is one step of code generation derived from the plan.
type Todo struct {
	ID     string     `json:"id"`
	Title  string     `json:"title"`
	Status TodoStatus `json:"status"`
}

// Execution is the visible progress of code generation.
type Execution struct {
	Todos    []Todo     `json:"todos"`
	Thinking string     `json:"thinking,omitempty"`
	Files    []FileInfo `json:"files"`
	Messages []Message  `json:"messages"`
}

// Message is one entry of the conversation between the user and the agent.
type Message struct {
	Role    string    `json:"role"` // user | assistant
	Content string    `json:"content"`
	At      time.Time `json:"at"`
}

// FileInfo describes a file in a project or sandbox.
type FileInfo struct {
	Path      string `json:"path"`
	SizeBytes int64  `json:"size_bytes"`
	IsDir     bool   `json:"is_dir,omitempty"`
}

// Output points at a rendered video and its thumbnail in storage.
type Output struct {
	RenderID     string `json:"render_id"`
	VideoKey     string `json:"video_key"`
	ThumbnailKey string `json:"thumbnail_key"`
}

// Failure records why something stopped.
type Failure struct {
	Code    string    `json:"code"`
	Message string    `json:"message"`
	At      time.Time `json:"at"`
}

// NewProject is a validated request to create a project.
type NewProject struct {
	TenantID    string
	Prompt      string
	Style       Style
	DurationS   float64
	AutoApprove bool
	Presets     []PresetSpec
	CallbackURL string
	Metadata    json.RawMessage
	// Assets name the tenant's assets the project uses and their roles.
	Assets []AssetRef
	// NoBrand leaves the tenant's brand kit out ("brand": false).
	NoBrand bool
}
