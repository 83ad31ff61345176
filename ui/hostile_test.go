package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"github.com/rivo/uniseg"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/tools"
)

// rawGuard is a simulation screen that keeps every text a widget handed
// it with a control character in it: what a widget draws must already
// show its controls, not lean on the cell buffer's last guard.
type rawGuard struct {
	tcell.SimulationScreen
	raw []string
}

func (g *rawGuard) Put(x, y int, str string, st tcell.Style) (string, int) {
	if first, _, _, _ := uniseg.FirstGraphemeClusterInString(str, -1); first != "" {
		if _, bad := safetext.Cell(first); bad {
			g.raw = append(g.raw, str)
		}
	}
	return g.SimulationScreen.Put(x, y, str, st)
}

func (g *rawGuard) SetContent(x, y int, r rune, comb []rune, st tcell.Style) {
	g.Put(x, y, string(append([]rune{r}, comb...)), st)
}

// titledPane is a terminal pane whose program set a hostile title.
type titledPane struct {
	*tview.Box
	title string
}

func (p titledPane) Title() string { return p.title }

// Text from a model, a tool, a file's name, a program's title and a
// message reaches the screen with its control characters shown (␛,
// <U+009B>): the chat's answer and code block, a tool card, a notice, the
// terminal's tab and the status bar. No widget hands one to the screen raw.
func TestHostileTextIsShownNotSent(t *testing.T) {
	term := titledPane{tview.NewBox(), "Terminal — \x1b]0;PWNED\a\u009b2J"}
	a, s := newDrawnApp(t, Options{Root: "/proj", Terminal: term}, 160, 50)
	name := "/proj/README\x1b]52;c;eA==\a.md"
	args, _ := json.Marshal(map[string]string{"command": "view", "path": name})
	handleAll(a,
		agent.Event{Type: agent.EventTurnStarted},
		agent.Event{Type: agent.EventText, Text: "Answer \x1b]52;c;eA==\a and `x\x1b[2J`\n\n```\ncode\x1b]0;PWNED\a\u009b\n```\n"},
		ev(agent.EventToolCallStarted, "v1", "text_editor"),
		agent.Event{Type: agent.EventToolCallReady, ID: "v1", Name: "text_editor", Args: string(args)},
		ev(agent.EventToolRunStarted, "v1", "text_editor"),
		agent.Event{Type: agent.EventToolUpdate, ID: "v1", Data: tools.FileViewed{Path: name, Start: 1, End: -1}},
		agent.Event{Type: agent.EventToolRunEnded, ID: "v1", Result: "…"},
		agent.Event{Type: agent.EventInfo, Text: "a hook said \x1b]0;PWNED\a\u202e"},
	)
	a.flash("opened \x1b[2J\u009b")
	g := &rawGuard{SimulationScreen: s}
	w, h := s.Size()
	g.Fill(' ', tcell.StyleDefault)
	a.layout.SetRect(0, 0, w, h)
	a.layout.Draw(g)
	g.Show()
	for _, r := range g.raw {
		t.Errorf("handed to the screen raw: %q", r)
	}
	text := screenText(s)
	for _, want := range []string{
		"Answer ␛]52;c;eA==␇ and x␛[2J",   // the answer, its inline code
		"code␛]0;PWNED␇<U+009B>",          // its code block
		"View README␛]52;c;eA==␇.md",      // the card
		"a hook said ␛]0;PWNED␇<U+202E>",  // a notice
		"Terminal — ␛]0;PWNED␇<U+009B>2J", // the terminal's tab
		"opened ␛[2J<U+009B>",             // the status bar
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the screen lacks %q:\n%s", want, text)
		}
	}
}
