package ui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/internal/llmtest"
)

// At every size from 80×24 to 140×40 the chat is wide enough that a command
// card shows its whole command (a 37-character one): side by side the chat
// keeps at least chatMinWidth columns and the editor at least
// editorMinWidth; stacked, the chat has the whole width.
func TestLayoutChatWidthEverySize(t *testing.T) {
	const cmd = "echo the-command-card-shows-all-of-it"
	sess, _, cfg, root := bashParts(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: fmt.Sprintf(`{"command":%q}`, cmd)}}},
		{Text: "Printed."},
	}})
	r := startApp(t, Options{Agent: sess, Services: backend.SessionServices(sess), Config: cfg, Root: root}, 140, 40)
	r.typeText("print")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("Printed.")

	for w := 80; w <= 140; w += 10 {
		for _, h := range []int{24, 30, 40} {
			t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
				r.resize(w, h)
				r.waitScreen("Printed.")
				var chat, editor [4]int
				r.onUI(func() { chat, editor, _ = paneRects(r.app) })
				switch {
				case w < narrowWidth:
					if chat[2] != w || editor[2] != w {
						t.Errorf("stacked: chat %v editor %v, want both %d wide", chat, editor, w)
					}
				default:
					if chat[2] < chatMinWidth || editor[2] < editorMinWidth || chat[2]+editor[2] != w {
						t.Errorf("side by side: chat %v editor %v, want the chat ≥ %d and the editor ≥ %d", chat, editor, chatMinWidth, editorMinWidth)
					}
				}
				if !strings.Contains(r.text(), cmd) {
					t.Errorf("the command card cuts the command %q:\n%s", cmd, r.text())
				}
			})
		}
	}
}
