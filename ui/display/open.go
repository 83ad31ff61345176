package display

import (
	"bytes"
	"os"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/gdamore/tcell/v2/terminfo"
)

// Open returns the guarded screen of the terminal (not yet initialised):
// tcell's for $TERM, its terminfo trimmed (Lean), reading the terminal
// through the filter that keeps Ctrl-H apart from Backspace. Without a
// terminfo entry for $TERM it is tcell's default screen, guarded.
func Open() (tcell.Screen, error) {
	ti, err := tcell.LookupTerminfo(os.Getenv("TERM"))
	if err != nil {
		s, err := tcell.NewScreen()
		if err != nil {
			return nil, err
		}
		return Guard(s), nil
	}
	tty, err := tcell.NewDevTty()
	if err != nil {
		return nil, err
	}
	return open(tty, ti)
}

func open(tty tcell.Tty, ti *terminfo.Terminfo) (tcell.Screen, error) {
	s, err := tcell.NewTerminfoScreenFromTtyTerminfo(&keyFilter{Tty: tty}, Lean(ti))
	if err != nil {
		return nil, err
	}
	return Guard(s), nil
}

// Lean is a copy of ti with the strings trimmed that tcell would send
// many times a second while an answer streams, or that would cost keys:
//
//   - sgr0, sent at every change of style, is ESC ( B ESC [ m on xterm and
//     its kin. The ESC ( B puts the G0 character set back to ASCII, which
//     fawn never leaves (it draws lines with Unicode characters, not the
//     DEC line-drawing set): it is sent once, on entering the screen,
//     instead of a thousand times per answer (a twentieth of the bytes).
//   - cnorm, sent at every frame that shows the cursor, is ESC [ ? 12 l
//     ESC [ ? 25 h: the ?12l stops the cursor blinking, overriding the
//     user's own setting each time. Only the ?25h is kept.
//   - smkx and rmkx (keypad_xmit, keypad_local) are dropped: in
//     application mode the keypad sends ESC O and a letter, which tcell
//     reads as F5–F10 (ESC O t … x, KP4–KP9) or drops (KP Enter, KP0–3,
//     the operators). In numeric mode it types its characters. The cursor
//     keys then send ESC [ A … D, which tcell reads as it does ESC O A.
func Lean(ti *terminfo.Terminfo) *terminfo.Terminfo {
	lean := *ti
	if rest, ok := strings.CutPrefix(lean.AttrOff, "\x1b(B"); ok {
		lean.AttrOff = rest
		lean.EnterCA += "\x1b(B"
	}
	lean.ShowCursor = strings.Replace(lean.ShowCursor, "\x1b[?12l", "", 1)
	lean.EnterKeypad, lean.ExitKeypad = "", ""
	return &lean
}

// ctrlH is Ctrl-H as xterm's modifyOtherKeys sends it (BS with Ctrl):
// tcell reads it as KeyBackspace with ModCtrl, which fawn's terminal pane
// sends on as 0x08.
const ctrlH = "\x1b[27;5;8~"

// keyFilter is the terminal's input with each BS byte (0x08) turned into
// ctrlH. tcell reads BS as the Backspace key, as it does DEL; but a
// terminal sends DEL for Backspace and BS for Ctrl-H (xterm, tmux, the
// Linux console), which a program in the terminal pane tells apart
// (Emacs's help key). A terminal with extended key reporting (kitty,
// xterm's modifyOtherKeys, which tcell asks for) sends Ctrl-H as an escape
// sequence itself (tcell: KeyCtrlH, which the pane sends as 0x08 too) and
// never BS. No sequence a terminal sends holds a BS.
type keyFilter struct {
	tcell.Tty
	pending []byte // what a Read could not hold
}

func (f *keyFilter) Read(p []byte) (int, error) {
	if len(f.pending) > 0 {
		n := copy(p, f.pending)
		f.pending = f.pending[n:]
		return n, nil
	}
	n, err := f.Tty.Read(p)
	if n == 0 || bytes.IndexByte(p[:n], 0x08) < 0 {
		return n, err
	}
	out := bytes.ReplaceAll(p[:n], []byte{0x08}, []byte(ctrlH))
	m := copy(p, out)
	f.pending = append(f.pending, out[m:]...)
	return m, err
}
