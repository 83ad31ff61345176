package termview

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// press gives a key to the view the way fawn's App does: CaptureKey first,
// and the pane's input handler for a key it does not take (the App's
// global keys, which would come between, are not part of the pane).
func (h *harness) press(k tcell.Key, r rune, mods tcell.ModMask) {
	ev := tcell.NewEventKey(k, r, mods)
	if !h.view.CaptureKey(ev) {
		h.view.InputHandler()(ev, func(tview.Primitive) {})
	}
}

// The keys fawn binds globally or in the pane — F1, F6, Shift-F6, the
// Alt-letters readline uses, Shift-PgUp/PgDn, Ctrl-Q — reach the program
// while the pane has focus, in xterm's encodings.
func TestEveryKeyReachesTheProgram(t *testing.T) {
	h := newHarness(t, 80, 20)
	// No flow control or signals from the tty, so Ctrl-Q and Ctrl-\ show.
	// The tty reads keys as they arrive: wait until stty has run.
	h.typeText("stty -ixon -isig -echo; echo rea''dy; cat -v\n")
	h.waitLine("ready")
	keys := []struct {
		k    tcell.Key
		r    rune
		mods tcell.ModMask
	}{
		{tcell.KeyF1, 0, 0},
		{tcell.KeyF6, 0, 0},
		{tcell.KeyF6, 0, tcell.ModShift},
		{tcell.KeyRune, 'c', tcell.ModAlt},
		{tcell.KeyRune, 't', tcell.ModAlt},
		{tcell.KeyRune, 'n', tcell.ModAlt},
		{tcell.KeyRune, 'p', tcell.ModAlt},
		{tcell.KeyRune, 'v', tcell.ModAlt},
		{tcell.KeyRune, '/', tcell.ModAlt},
		{tcell.KeyPgUp, 0, tcell.ModShift},
		{tcell.KeyPgDn, 0, tcell.ModShift},
		{tcell.KeyPgUp, 0, 0},
		{tcell.KeyCtrlQ, 'q', tcell.ModCtrl},
	}
	for _, k := range keys {
		h.press(k.k, k.r, k.mods)
	}
	h.press(tcell.KeyEnter, 0, 0)
	h.waitText(`^[OP^[[17~^[[17;2~^[c^[t^[n^[p^[v^[/^[[5;2~^[[6;2~^[[5~^Q`)
	if h.view.find != nil || h.view.ksel != nil || h.view.back != 0 {
		t.Fatal("a key meant for the program acted in the pane")
	}
}

// The escape key makes the next key fawn's: the pane's own keys act, a key
// that is neither fawn's nor the pane's is dropped, and the escape key
// twice sends it once. The pane's corner says so.
func TestEscapeKeyGivesTheNextKeyToFawn(t *testing.T) {
	h := newHarness(t, 60, 14)
	h.typeText("seq 1 500\n")
	h.waitLine("500")
	hint := func() string { return h.rows()[13] }
	if !strings.Contains(hint(), `Ctrl-\: fawn keys`) {
		t.Fatalf("the bottom border does not name the escape key: %q", hint())
	}
	h.press(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl)
	if !strings.Contains(hint(), `Ctrl-\ …`) {
		t.Fatalf("the pending escape is not shown: %q", hint())
	}
	h.press(tcell.KeyPgUp, 0, tcell.ModNone)
	h.waitText("↑")
	h.press(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl)
	h.press(tcell.KeyPgDn, 0, tcell.ModNone)
	h.waitNoText("↑")

	h.typeText("stty -isig -echo; echo rea''dy; cat -v\n")
	h.waitLine("ready")
	h.press(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl)
	h.press(tcell.KeyRune, 'x', tcell.ModNone) // neither fawn's nor the pane's: dropped
	h.press(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl)
	h.press(tcell.KeyCtrlBackslash, 0, tcell.ModCtrl) // twice: sent
	h.typeText("y\n")
	h.waitLine(`^\y`)
}

// Ctrl-H reaches the program as 0x08 (as tmux and xterm send it), the
// Backspace key as DEL.
func TestCtrlHReachesTheProgram(t *testing.T) {
	h := newHarness(t, 80, 20)
	h.typeText("stty -echo -icanon; echo rea''dy; cat -v\n")
	h.waitLine("ready")
	h.view.CaptureKey(tcell.NewEventKey(tcell.KeyRune, 'h', tcell.ModCtrl)) // tcell's Ctrl-H
	h.press(tcell.KeyBackspace, 0, tcell.ModNone)                           // tcell's Backspace
	h.typeText("|")
	h.waitText("^H^?|")
}

// A shell replaced with exec is named in the pane's title.
func TestTitleNamesAShellReplacedByExec(t *testing.T) {
	h := newHarness(t, 80, 10)
	h.typeText("exec sh\n")
	h.waitFor("the title to name sh", func([]string) bool { return strings.Contains(h.view.Title(), "sh (exec'd: no fawn markers)") })
}
