package vt

import (
	"io"

	"github.com/charmbracelet/x/ansi"
)

func (e *Emulator) handleMode(params ansi.Params, set, isAnsi bool) {
	for _, p := range params {
		param := p.Param(-1)
		if param == -1 {
			// Missing parameter, ignore
			continue
		}

		var mode ansi.Mode = ansi.DECMode(param)
		if isAnsi {
			mode = ansi.ANSIMode(param)
		}

		setting := e.modes[mode]
		if setting == ansi.ModePermanentlyReset || setting == ansi.ModePermanentlySet {
			// Permanently set modes are ignored.
			continue
		}

		setting = ansi.ModeReset
		if set {
			setting = ansi.ModeSet
		}

		e.setMode(mode, setting)
	}
}

// Modes this emulator knows that package ansi has no names for.
const (
	modeColumn          = ansi.DECMode(3)  // DECCOLM, 80/132 columns
	modeAltScreenLegacy = ansi.DECMode(47) // the alternate screen, VT100 style
)

// setAltScreenMode sets the alternate screen mode.
func (e *Emulator) setAltScreenMode(on bool) {
	e.switchScreen(on, true)
}

// switchScreen switches to the alternate screen (on) or back; fresh
// clears the alternate screen and homes the cursor on the way in.
func (e *Emulator) switchScreen(on, fresh bool) {
	if (on && e.scr == &e.scrs[1]) || (!on && e.scr == &e.scrs[0]) {
		// Already in alternate screen mode, or normal screen, do nothing.
		return
	}
	if on {
		e.scr = e.altScreen()
		e.scrs[1].cur = e.scrs[0].cur
		if fresh {
			e.scr.Clear()
			e.scr.ClearTouched()
			e.setCursor(0, 0)
		}
	} else {
		e.scr = &e.scrs[0]
	}
	if e.cb.AltScreen != nil {
		e.cb.AltScreen(on)
	}
	if e.cb.CursorVisibility != nil {
		e.cb.CursorVisibility(!e.scr.cur.Hidden)
	}
}

// savedState is what DECSC saves besides the cursor's position and pen:
// the character sets and shifts, and origin mode.
type savedState struct {
	charsets [4]CharSet
	gl, gr   int
	origin   bool
}

// saveCursor saves the cursor (position, pen, pending wrap excepted), the
// character sets and origin mode, as DECSC does.
func (e *Emulator) saveCursor() {
	e.scr.SaveCursor()
	e.saved[e.screenIndex()] = savedState{
		charsets: e.charsets,
		gl:       e.gl,
		gr:       e.gr,
		origin:   e.isModeSet(ansi.ModeOrigin),
	}
}

// restoreCursor restores what saveCursor saved, as DECRC does.
func (e *Emulator) restoreCursor() {
	e.scr.RestoreCursor()
	st := e.saved[e.screenIndex()]
	e.charsets, e.gl, e.gr = st.charsets, st.gl, st.gr
	if st.origin {
		e.modes[ansi.ModeOrigin] = ansi.ModeSet
	} else {
		e.modes[ansi.ModeOrigin] = ansi.ModeReset
	}
	e.atPhantom = false
}

// screenIndex is 0 on the normal screen, 1 on the alternate one.
func (e *Emulator) screenIndex() int {
	if e.scr == &e.scrs[1] {
		return 1
	}
	return 0
}

// setMode sets the mode to the given value.
func (e *Emulator) setMode(mode ansi.Mode, setting ansi.ModeSetting) {
	e.logf("setting mode %T(%v) to %v", mode, mode, setting)
	e.modes[mode] = setting
	switch mode {
	case ansi.ModeTextCursorEnable:
		e.scr.setCursorHidden(!setting.IsSet())
	case ansi.ModeAltScreen:
		e.setAltScreenMode(setting.IsSet())
	case modeAltScreenLegacy:
		// The alternate screen as the VT100-era ?47 knows it: no
		// clearing, no saved cursor.
		e.switchScreen(setting.IsSet(), false)
	case modeColumn:
		// DECCOLM: switching between 80 and 132 columns clears the
		// screen, resets the margins and homes the cursor, whatever the
		// width (this emulator's width is its host's to set).
		e.scr.Clear()
		e.scr.setVerticalMargins(0, e.Height())
		e.scr.setHorizontalMargins(0, e.Width())
		e.setCursor(0, 0)
	case ansi.ModeSaveCursor:
		if setting.IsSet() {
			e.saveCursor()
		} else {
			e.restoreCursor()
		}
	case ansi.ModeAltScreenSaveCursor: // Alternate Screen Save Cursor (1047 & 1048)
		// Save primary screen cursor position
		// Switch to alternate screen
		// Doesn't support scrollback
		if setting.IsSet() {
			e.saveCursor()
		}
		e.setAltScreenMode(setting.IsSet())
	case ansi.ModeInBandResize:
		if setting.IsSet() {
			_, _ = io.WriteString(e.pw, ansi.InBandResize(e.Height(), e.Width(), 0, 0))
		}
	}
	if setting.IsSet() {
		if e.cb.EnableMode != nil {
			e.cb.EnableMode(mode)
		}
	} else if setting.IsReset() {
		if e.cb.DisableMode != nil {
			e.cb.DisableMode(mode)
		}
	}
}

// isModeSet returns true if the mode is set.
func (e *Emulator) isModeSet(mode ansi.Mode) bool {
	m, ok := e.modes[mode]
	return ok && m.IsSet()
}
