package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

// Nothing a user must read is cut without a way to see it: the input's
// hint shows whole phrases, the help shows every key of a binding, and an
// expanded command card shows the whole command.
func TestNothingIsCutMidPhrase(t *testing.T) {
	for _, w := range []int{80, 100, 120, 160} {
		r := startApp(t, Options{Agent: newScriptAgent()}, w, 30)
		var hint string
		for _, l := range strings.Split(r.text(), "\n") {
			if i := strings.Index(l, "Ask fawn"); i >= 0 {
				hint = strings.TrimRight(strings.Split(l[i:], "│")[0], " ")
			}
		}
		ok := false
		for _, end := range []string{"Ask fawn…", "sends", "newline", "commands", "help"} {
			ok = ok || strings.HasSuffix(hint, end)
		}
		if !ok || !strings.Contains(hint, "Enter sends") {
			t.Errorf("at %d columns the input hint is %q", w, hint)
		}
	}

	r := startApp(t, Options{Agent: newScriptAgent()}, 120, 40)
	r.key(tcell.KeyF1, 0, 0)
	r.onUI(func() {
		help := linesText(r.app.help.Lines(96))
		if !strings.Contains(help, "Shift-Enter, Alt-Enter, Ctrl-J") || strings.Contains(help, "…") {
			t.Errorf("the help cuts a binding:\n%s", help)
		}
	})

}
