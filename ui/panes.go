package ui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/tools"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/theme"
)

// EditorPane is what the app needs of the editor tabs (*editor.Tabs): what
// the chat's router drives.
type EditorPane = chat.Editor

// TerminalPane is the terminal view (*termview.View). The bottom strip draws
// its border: a pane with a border of its own has it turned off, and its
// Title() (or, failing that, its Box title) is shown on the strip's tab.
type TerminalPane interface {
	tview.Primitive
}

// placeholder stands in for a pane that was not provided.
type placeholder struct {
	*tview.Box
	text string
	th   *theme.Theme
}

func newPlaceholder(text string, th *theme.Theme) *placeholder {
	p := &placeholder{Box: tview.NewBox(), text: text, th: th}
	p.SetBackgroundColor(th.Background)
	return p
}

func (p *placeholder) Draw(screen tcell.Screen) {
	x, y, w, h := p.GetInnerRect()
	if h > 0 {
		render.DrawText(screen, x+1, y, w-1, p.text, tcell.StyleDefault.Foreground(p.th.Dim))
	}
}

func (p *placeholder) AgentViewed(tools.FileViewed)   {}
func (p *placeholder) AgentChanged(tools.FileChanged) {}
func (p *placeholder) Open(string, int) error         { return nil }
