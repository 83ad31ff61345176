package vt

import (
	"io"
	"strconv"

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

	e.RegisterCsiHandler(ansi.Command('=', 0, 'c'), func(params ansi.Params) bool {
		// Tertiary Device Attributes [ansi.DA3]: a unit ID of zeros,
		// as xterm answers.
		if n, _, _ := params.Param(0, 0); n != 0 {
			return false
		}
		_, _ = io.WriteString(e.pw, "\x1bP!|00000000\x1b\\")
		return true
	})

	e.RegisterCsiHandler('x', func(params ansi.Params) bool {
		// Request Terminal Parameters [DECREQTPARM]: xterm's answer (no
		// parity, 8 bits, 38400 baud, clock multiplier 1, no flags),
		// unsolicited (2) for a request of 0, solicited (3) for 1.
		n, _, _ := params.Param(0, 0)
		if n != 0 && n != 1 {
			return false
		}
		_, _ = io.WriteString(e.pw, "\x1b["+strconv.Itoa(n+2)+";1;1;128;128;1;0x")
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

// reportedCursor is the cursor as CPR reports it: in origin mode relative
// to the margins, as xterm does (vttest: "Ignores origin mode" otherwise).
func (e *Emulator) reportedCursor() (x, y int) {
	x, y = e.scr.CursorPosition()
	if e.isModeSet(ansi.ModeOrigin) {
		r := e.scr.ScrollRegion()
		y -= r.Min.Y
		if e.isModeSet(ansi.ModeLeftRightMargin) {
			x -= r.Min.X
		}
	}
	return x, y
}
