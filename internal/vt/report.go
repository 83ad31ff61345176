package vt

import (
	"io"

	"github.com/charmbracelet/x/ansi"
)

// registerReportHandlers registers what fawn added to the default
// handlers: the answers XTVERSION and the size reports give, and the
// 7-bit single shifts.
func (e *Emulator) registerReportHandlers() {
	e.RegisterCsiHandler(ansi.Command('>', 0, 'q'), func(params ansi.Params) bool {
		// Report the terminal's name and version [ansi.XTVERSION].
		if n, _, _ := params.Param(0, 0); n != 0 {
			return false
		}
		_, _ = io.WriteString(e.pw, "\x1bP>|"+e.terminalName()+"\x1b\\")
		return true
	})

	e.RegisterCsiHandler('t', func(params ansi.Params) bool {
		// Window operations [ansi.WindowOp]: the sizes in characters.
		switch n, _, _ := params.Param(0, 0); n {
		case 18: // the text area
			_, _ = io.WriteString(e.pw, ansi.WindowOp(8, e.Height(), e.Width()))
		case 19: // the screen
			_, _ = io.WriteString(e.pw, ansi.WindowOp(9, e.Height(), e.Width()))
		default:
			return false
		}
		return true
	})

	e.RegisterEscHandler('N', func() bool {
		// Single Shift 2 [ansi.SS2], in its 7-bit form
		e.gsingle = 2
		return true
	})

	e.RegisterEscHandler('O', func() bool {
		// Single Shift 3 [ansi.SS3], in its 7-bit form
		e.gsingle = 3
		return true
	})
}

// SetTerminalName sets the name and version XTVERSION (CSI > q) answers,
// "fawn 1.2" say; the default is "x/vt".
func (e *Emulator) SetTerminalName(name string) { e.name = name }

func (e *Emulator) terminalName() string {
	if e.name == "" {
		return "x/vt"
	}
	return e.name
}

// eraseScreenBackground fills the screen with the pen's background after
// ED 2 or 3 cleared it, as xterm does (background colour erase); the
// other erasing functions fill with blankCell themselves.
func (e *Emulator) eraseScreenBackground() {
	if c := e.scr.blankCell(); c != nil {
		e.scr.FillArea(c, e.scr.Bounds())
	}
}
