package ui

import (
	"context"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/tools"
)

// A turn that ends, or a permission asked, while the window is not focused
// calls the user back; with the window focused, or notify off, nothing does.
func TestAttentionWhenTheWindowIsNotFocused(t *testing.T) {
	ask := func(ctx context.Context, emit func(agent.Event)) {
		emit(agent.Event{Type: agent.EventToolCallStarted, ID: "b1", Name: "bash"})
		emit(agent.Event{Type: agent.EventPermissionAsked, ID: "b1", Name: "bash",
			Permission: &agent.PermissionRequest{ID: "b1", Tool: "bash", Action: tools.Action{Kind: tools.KindExec, Command: "make"}}})
		<-ctx.Done()
	}
	for _, c := range []struct {
		name    string
		notify  string
		focused bool
		want    int
	}{
		{"unfocused", "bell", false, 2},
		{"focused", "bell", true, 0},
		{"off", "off", false, 0},
		{"osc9 without a tty falls back to the bell", "osc9", false, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := &config.Config{DataDir: t.TempDir()}
			cfg.UI.Notify = c.notify
			r := startApp(t, Options{Agent: newScriptAgent(nil, ask), Config: cfg}, 100, 30)
			if !c.focused {
				r.screen.PostEventWait(tcell.NewEventFocus(false))
			}
			r.typeText("one")
			r.key(tcell.KeyEnter, 0, 0)
			r.waitScreen("idle")
			r.typeText("two")
			r.key(tcell.KeyEnter, 0, 0)
			r.waitScreen("wants to run a command")
			var n int
			r.onUI(func() { n = r.app.attentions })
			if n != c.want {
				t.Errorf("%d calls for attention, want %d", n, c.want)
			}
			r.screen.PostEventWait(tcell.NewEventFocus(true))
			r.key(tcell.KeyEscape, 0, 0)
		})
	}
}
