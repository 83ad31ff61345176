package agent

import (
	"context"
	"fmt"

	"github.com/cloudwego/eino/compose"

	"github.com/fawn-ide/fawn/tools"
)

// The answers to a plan (exit_plan), as Decisions of its PermissionRequest:
// the plan dialog has no other way back to the agent than the permission
// path ask_user takes too.
const (
	// PlanApproveAcceptEdits approves the plan; fawn goes on in
	// accept-edits mode.
	PlanApproveAcceptEdits = AllowSession
	// PlanApproveAsk approves the plan; fawn goes on in ask mode.
	PlanApproveAsk = AllowOnce
	// PlanKeepPlanning sends the plan back, with the Answer's Note.
	PlanKeepPlanning = Deny
)

// exitPlan is the exit_plan tool of the main session, asking through it.
func (s *Session) exitPlan() tools.Tool { return tools.NewExitPlan(s.env, s.reviewPlan) }

// reviewPlan shows the model's plan to the user and, when they approve it,
// leaves plan mode for the mode they chose; the turn goes on. Outside plan
// mode the call is a mistake the model is told of; headless nobody can
// approve, so the plan stands as the run's answer (the headless printer
// prints it) and the model is told to stop.
func (s *Session) reviewPlan(ctx context.Context, plan string) (tools.PlanVerdict, error) {
	if m := s.Mode(); m != ModePlan {
		return tools.PlanVerdict{}, fmt.Errorf("exit_plan is only for plan mode, and fawn is in %s mode: there is nothing to approve; carry on with the work", m)
	}
	if !s.interactive {
		return tools.PlanVerdict{}, fmt.Errorf("fawn runs headless (fawn -p) in plan mode: the plan was printed for the user, and nobody can approve it here. " +
			"End your turn now: no more tool calls; answer in one line that the plan is ready (the user runs fawn again in another mode to carry it out)")
	}
	tr := turnOf(ctx)
	id := compose.GetToolCallID(ctx)
	req := PermissionRequest{ID: id, Tool: tools.ExitPlanName, Action: tools.Action{Kind: tools.KindRead, Summary: "Approve the plan"},
		Reason: "the agent's plan", Plan: plan}
	ans, err := s.ap.ask(ctx, req, func() {
		tr.emit(Event{Type: EventPermissionAsked, ID: id, Name: tools.ExitPlanName, Action: &req.Action, Permission: &req})
	})
	if err != nil {
		return tools.PlanVerdict{}, fmt.Errorf("cancelled by the user")
	}
	s.answered(tr, id, tools.ExitPlanName, ans)
	switch ans.Decision {
	case PlanApproveAcceptEdits:
		s.SetMode(ModeAcceptEdits)
		return tools.PlanVerdict{Approved: true, Mode: string(ModeAcceptEdits)}, nil
	case PlanApproveAsk:
		s.SetMode(ModeAsk)
		return tools.PlanVerdict{Approved: true, Mode: string(ModeAsk)}, nil
	}
	return tools.PlanVerdict{Note: ans.Note}, nil
}
