package ui

import (
	"os"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// newScreen returns tcell's screen for $TERM with two of its terminfo
// strings trimmed, because tcell sends them many times a second while an
// answer streams:
//
//   - sgr0, sent at every change of style, is ESC ( B ESC [ m on xterm and
//     its kin. The ESC ( B puts the G0 character set back to ASCII, which
//     fawn never leaves (it draws lines with Unicode characters, not the
//     DEC line-drawing set): it is sent once, on entering the screen,
//     instead of a thousand times per answer (a twentieth of the bytes).
//   - cnorm, sent at every frame that shows the cursor, is ESC [ ? 12 l
//     ESC [ ? 25 h: the ?12l stops the cursor blinking, overriding the
//     user's own setting each time. Only the ?25h is kept.
//
// Without a terminfo entry for $TERM it is tcell's default screen.
func newScreen() (tcell.Screen, error) {
	ti, err := tcell.LookupTerminfo(os.Getenv("TERM"))
	if err != nil {
		return tcell.NewScreen()
	}
	return tcell.NewTerminfoScreenFromTtyTerminfo(nil, leanTerminfo(ti))
}

// leanTerminfo is a copy of ti with sgr0 and cnorm trimmed (newScreen).
func leanTerminfo(ti *terminfo.Terminfo) *terminfo.Terminfo {
	lean := *ti
	if rest, ok := strings.CutPrefix(lean.AttrOff, "\x1b(B"); ok {
		lean.AttrOff = rest
		lean.EnterCA += "\x1b(B"
	}
	lean.ShowCursor = strings.Replace(lean.ShowCursor, "\x1b[?12l", "", 1)
	return &lean
}
