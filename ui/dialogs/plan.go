package dialogs

import (
	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/ui/render"
)

// The plan dialog: the agent's plan (exit_plan) shown as Markdown in the
// permission dialog's frame and queue, scrolled with the arrows and PgUp/
// PgDn, with three answers: approve and let edits run (1 or a), approve
// and ask before each (2 or y), keep planning with a note (3 or n; Enter
// sends it, an empty note too). Esc sends the plan back without a note.

// planBody is the plan's lines at width.
func (d *PermissionDialog) planBody(req *agent.PermissionRequest, width int) []render.Line {
	bg := d.ctx.Th.CursorLine
	var out []render.Line
	for _, l := range d.ctx.MD.Lines(req.Plan, width) {
		l = append(render.Line(nil), l...)
		for i := range l {
			l[i].Style = l[i].Style.Background(bg)
		}
		out = append(out, l)
	}
	return out
}

// planFooter lists the answers.
func (d *PermissionDialog) planFooter(width int) []render.Line {
	th := d.ctx.Th
	base := tcell.StyleDefault.Foreground(th.Foreground).Background(th.CursorLine)
	key := base.Foreground(th.Accent).Bold(true)
	p := d.ask.Plan
	items := []render.Line{
		{{Text: allKeys(p, ActionPlanApproveEdits), Style: key}, {Text: " approve, edits run", Style: base}},
		{{Text: allKeys(p, ActionPlanApproveAsk), Style: key}, {Text: " approve, ask before edits", Style: base}},
		{{Text: allKeys(p, ActionPlanKeepPlanning), Style: key}, {Text: " keep planning (a note)", Style: base}},
		{{Text: p.Hint(ActionPlanScrollUp) + p.Hint(ActionPlanScrollDown) + " " + p.Hint(ActionPlanPageDown), Style: key}, {Text: " scroll", Style: base}},
	}
	return packItems(items, width, base)
}

// planKey handles a key while a plan is shown (the note field closed).
func (d *PermissionDialog) planKey(ev *tcell.EventKey) {
	scroll := func(n int) { d.scroll = max(0, d.scroll+n) }
	switch d.ask.Plan.Action(ev) {
	case ActionPlanScrollUp:
		scroll(-1)
	case ActionPlanScrollDown:
		scroll(1)
	case ActionPlanPageUp:
		scroll(-max(1, d.bodyRows-1))
	case ActionPlanPageDown:
		scroll(max(1, d.bodyRows-1))
	case ActionPlanBack:
		d.answer(agent.Answer{Decision: agent.PlanKeepPlanning})
	case ActionPlanApproveEdits:
		d.answer(agent.Answer{Decision: agent.PlanApproveAcceptEdits})
	case ActionPlanApproveAsk:
		d.answer(agent.Answer{Decision: agent.PlanApproveAsk})
	case ActionPlanKeepPlanning:
		d.noting = true
		d.note.SetText("")
	}
}
