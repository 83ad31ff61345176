package chat

import (
	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/agent/background"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/render"
)

// GoalCard is the goal set (/goal) or a judge's verdict on it after a
// turn: met in green, not met in the accent colour, impossible, exhausted
// or a failed judge in the warning colour.
type GoalCard struct {
	Verdict background.Verdict
}

// GoalCardOf is the card of an EventGoal.
func GoalCardOf(ev agent.Event) *GoalCard {
	v, ok := ev.Data.(background.Verdict)
	if !ok {
		v = background.Verdict{State: background.Failed, Why: ev.Text}
	}
	return &GoalCard{Verdict: v}
}

func (g *GoalCard) rev(*Ctx) uint64 { return 0 }

func (g *GoalCard) Render(c *Ctx, width int) []render.Line {
	st := tcell.StyleDefault.Foreground(c.Th.Accent)
	switch g.Verdict.State {
	case background.Met:
		st = tcell.StyleDefault.Foreground(c.Th.Success)
	case background.Impossible, background.Exhausted, background.Failed:
		st = tcell.StyleDefault.Foreground(c.Th.Warning)
	}
	return render.WrapText(safetext.Line(g.Verdict.Line()), st, width, nil, render.Line{{Text: "  ", Style: st}})
}

func (g *GoalCard) CopyText() string { return g.Verdict.Line() }
