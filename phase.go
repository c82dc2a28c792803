package koda

// Phase is where a project stands in its life (DESIGN.md §3.1).
type Phase string

const (
	PhaseIdle      Phase = "idle"      // submitted; the planner has not looked at it yet
	PhaseQuestion  Phase = "question"  // waiting for the user to answer a style question
	PhasePlan      Phase = "plan"      // a plan is being made or waits for approval
	PhaseExecuting Phase = "executing" // code is being generated and the preview rendered
	PhasePreview   Phase = "preview"   // a preview waits for approval or feedback
	PhaseComplete  Phase = "complete"  // approved; final renders run or are done
	PhaseError     Phase = "error"     // stopped; can be retried from the last checkpoint
)

// Action is a request to move a project between phases, by a user or by the system.
type Action string

const (
	// User actions.
	ActionAnswer         Action = "answer"
	ActionApprovePlan    Action = "approve_plan"
	ActionRejectPlan     Action = "reject_plan"
	ActionApprovePreview Action = "approve_preview"
	ActionFeedback       Action = "feedback"
	ActionRetry          Action = "retry"

	// System actions.
	ActionAsk          Action = "ask"           // the planner needs a style answer
	ActionPlanned      Action = "planned"       // the planner produced a plan
	ActionPreviewReady Action = "preview_ready" // the preview render finished
	ActionFail         Action = "fail"          // unrecoverable failure
)

// transitions is the whole phase machine; nothing else decides which moves are legal.
var transitions = map[Phase]map[Action]Phase{
	PhaseIdle: {
		ActionAsk:     PhaseQuestion,
		ActionPlanned: PhasePlan,
	},
	PhaseQuestion: {
		ActionAnswer: PhasePlan,
		// After a rejected plan the project waits in question while the planner revises;
		// the revised plan moves it back.
		ActionPlanned: PhasePlan,
	},
	PhasePlan: {
		ActionApprovePlan: PhaseExecuting,
		ActionRejectPlan:  PhaseQuestion,
		ActionPlanned:     PhasePlan,
	},
	PhaseExecuting: {
		ActionPreviewReady: PhasePreview,
	},
	PhasePreview: {
		ActionApprovePreview: PhaseComplete,
		ActionFeedback:       PhaseExecuting,
	},
	PhaseComplete: {
		ActionFeedback: PhaseExecuting,
	},
	PhaseError: {
		ActionRetry: PhaseExecuting,
	},
}

// Next returns the phase that action leads to from p, or an ECONFLICT error naming the
// current phase when the machine does not allow it. Any phase may fail to error.
func (p Phase) Next(action Action) (Phase, error) {
	if action == ActionFail {
		return PhaseError, nil
	}
	if to, ok := transitions[p][action]; ok {
		return to, nil
	}
	return "", &Error{
		Kind:    ECONFLICT,
		Code:    CodePhaseConflict,
		Message: "cannot " + string(action) + " while the project is in phase " + string(p),
		Phase:   p,
	}
}

// Phases lists every phase, for tests and documentation.
func Phases() []Phase {
	return []Phase{PhaseIdle, PhaseQuestion, PhasePlan, PhaseExecuting, PhasePreview, PhaseComplete, PhaseError}
}

// Actions lists every action, for tests and documentation.
func Actions() []Action {
	return []Action{ActionAnswer, ActionApprovePlan, ActionRejectPlan, ActionApprovePreview,
		ActionFeedback, ActionRetry, ActionAsk, ActionPlanned, ActionPreviewReady, ActionFail}
}

// Valid reports whether p is a known phase.
func (p Phase) Valid() bool {
	for _, q := range Phases() {
		if p == q {
			return true
		}
	}
	return false
}
