package chat

import (
	"sync"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/render/screentest"
	"github.com/fawn-ide/fawn/ui/theme"
)

// The screen helpers the chat's tests share with the ui's (ui/render/screentest).

func darkCtx() *Ctx {
	th := theme.Get("dark")
	return &Ctx{Th: &th, MD: NewMarkdown(&th), Root: "/proj"}
}

func linesText(lines []render.Line) string                    { return screentest.LinesText(lines) }
func fgOf(st tcell.Style) tcell.Color                         { return screentest.Fg(st) }
func attrsOf(st tcell.Style) tcell.AttrMask                   { return screentest.Attrs(st) }
func simScreen(t testing.TB, w, h int) tcell.SimulationScreen { return screentest.New(t, w, h) }
func screenLines(s tcell.SimulationScreen) []string           { return screentest.Lines(s) }
func screenText(s tcell.SimulationScreen) string              { return screentest.Text(s) }
func cellAt(s tcell.SimulationScreen, x, y int) (string, tcell.Style) {
	return screentest.CellAt(s, x, y)
}
func findText(s tcell.SimulationScreen, text string) (int, int) { return screentest.Find(s, text) }
func golden(t *testing.T, name, got string)                     { t.Helper(); screentest.Golden(t, name, got) }

// harness is a chat's message list and router as a task has them, without
// the App: what the markdown works out in the background is posted to it
// and run by drain, as the App's loop runs it.
type harness struct {
	ctx    *Ctx
	list   *MessageList
	router *Router
	mu     sync.Mutex
	posted []func()
}

func newHarness() *harness {
	h := &harness{ctx: darkCtx()}
	h.ctx.MD.Async = func(work func() func()) {
		go func() {
			f := work()
			h.mu.Lock()
			h.posted = append(h.posted, f)
			h.mu.Unlock()
		}()
	}
	h.list = NewMessageList(h.ctx, MessageKeys())
	h.router = NewRouter(NewRegistry(), h.list, noWorkspace{})
	return h
}

// drain runs what was posted.
func (h *harness) drain() {
	h.mu.Lock()
	posted := h.posted
	h.posted = nil
	h.mu.Unlock()
	for _, f := range posted {
		f()
	}
}

// noWorkspace is a task with no editor, terminal or to-do pane.
type noWorkspace struct{}

func (noWorkspace) EditorPane() Editor                    { return nil }
func (noWorkspace) Reveal(panes.Pane)                     {}
func (noWorkspace) TerminalUsed()                         {}
func (noWorkspace) FileChanged(string)                    {}
func (noWorkspace) JumpTo(panes.Pane)                     {}
func (noWorkspace) SetTodos([]tools.Todo)                 {}
func (noWorkspace) AskPermission(agent.PermissionRequest) {}
func (noWorkspace) PermissionDone(string)                 {}
func (noWorkspace) AgentTerminal() AgentOutput            { return nil }
