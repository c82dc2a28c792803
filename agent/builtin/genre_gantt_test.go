package builtin

import (
	"reflect"
	"testing"
)

// TestGanttPlan: a Gantt chart's tasks with their periods, written as people write them
// (bare ranges after a unit said elsewhere, "Design: weeks 3-5", months in brackets,
// quarters, dates, "from week 6 to week 8"), its milestones and where today stands; a
// period in another unit than the chart's is left off, and a list of steps without
// periods is no Gantt chart.
func TestGanttPlan(t *testing.T) {
	type tk = ganttTask
	for _, c := range []struct {
		prompt string
		want   ganttPlan
	}{
		{`Gantt chart for the app launch, in weeks: Discovery 1–2, Wireframes 2–4, Design 3–6, Build 5–9, Testing 8–10; a today line at week 5 and a Launch milestone at week 10`,
			ganttPlan{Unit: "week", Tasks: []tk{{"Discovery", 1, 2}, {"Wireframes", 2, 4}, {"Design", 3, 6}, {"Build", 5, 9}, {"Testing", 8, 10}},
				Milestones: []tk{{"Launch", 10, 10}}, Today: 5}},
		{`Project timeline: Research: weeks 1-2. Design: weeks 3-5. Build: weeks 5-8. QA week 9.`,
			ganttPlan{Unit: "week", Tasks: []tk{{"Research", 1, 2}, {"Design", 3, 5}, {"Build", 5, 8}, {"QA", 9, 9}}}},
		{`Our product roadmap with bars: Plan (Jan–Feb), Build (Mar–May), Beta (Jun), Launch (Jul–Aug). Milestone: Public launch in Aug.`,
			ganttPlan{Unit: "month", Tasks: []tk{{"Plan", 1, 2}, {"Build", 3, 5}, {"Beta", 6, 6}, {"Launch", 7, 8}}, Milestones: []tk{{"Public launch", 8, 8}}}},
		{`Gantt of the year by quarter: Hiring Q1-Q2, Expansion Q2-Q4, Audit Q4`,
			ganttPlan{Unit: "quarter", Tasks: []tk{{"Hiring", 1, 2}, {"Expansion", 2, 4}, {"Audit", 4, 4}}}},
		{`Wedding planning gantt: Venue Mar 3-14, Invitations Mar 10 - Mar 24, Dress fittings from Mar 20 to Apr 2`,
			ganttPlan{Unit: "date", Tasks: []tk{{"Venue", 62, 73}, {"Invitations", 69, 83}, {"Dress fittings", 79, 92}}}},
		{`Sprint plan gantt: Auth from sprint 1 to sprint 2, Payments sprints 2-4 and Reports 4-5, today is sprint 3`,
			ganttPlan{Unit: "sprint", Tasks: []tk{{"Auth", 1, 2}, {"Payments", 2, 4}, {"Reports", 4, 5}}, Today: 3}},
		{`Gantt chart for the website redesign kickoff slide. Weeks 1–10 across the top. Bars grow left to right in order: Discovery wk 1–2, Wireframes wk 2–4, Visual design wk 4–7, Build wk 5–9, QA & launch wk 9–10. A vertical red "Today" line sits at week 3, and a diamond milestone "Launch 14 Mar" pops in at the end of week 10.`,
			ganttPlan{Unit: "week", Tasks: []tk{{"Discovery", 1, 2}, {"Wireframes", 2, 4}, {"Visual design", 4, 7}, {"Build", 5, 9}, {"QA & launch", 9, 10}},
				Milestones: []tk{{"Launch 14 Mar", 10, 10}}, Today: 3}},
		// A unit glued to its number, and quoted task names.
		{`Gantt chart, sprints in weeks: "Research" w1-w3, "Design" wk3-5, "Build" wk5-9, "Go live" milestone at wk10, today at week 4`,
			ganttPlan{Unit: "week", Tasks: []tk{{"Research", 1, 3}, {"Design", 3, 5}, {"Build", 5, 9}}, Milestones: []tk{{"Go live", 10, 10}}, Today: 4}},
		{`Gantt chart in weeks: Design 1-3, Build 3-6, Party in May`,
			ganttPlan{Unit: "week", Tasks: []tk{{"Design", 1, 3}, {"Build", 3, 6}}}},
		{`Step-by-step timeline of ordering: 1 Pick a plan, 2 Add your address, 3 Enjoy your first box`,
			ganttPlan{Unit: "week"}},
	} {
		if got := ganttPlanOf(c.prompt); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", c.prompt, got, c.want)
		}
	}
}
