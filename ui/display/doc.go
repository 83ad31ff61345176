// Package display owns the terminal screen fawn draws on: Open makes
// tcell's screen for $TERM with the terminfo strings fawn trims, the
// input fawn reads through a filter that keeps Ctrl-H apart from
// Backspace, and every cell, the title and the rune fallbacks behind
// Guard, which never hands the terminal a control character.
//
// Guard is the last guard: a control character written raw to a terminal
// acts on it (ESC ] 52 writes the clipboard, ESC ] 0 the title, ESC [ 2 J
// clears the screen; U+009B is CSI to a terminal that reads C1 controls).
// fawn shows such characters visibly before they get here (safetext, and
// ui/render's Buffer); whatever a widget, tview's included, puts on a
// guarded screen reaches tcell with each control as its picture (ESC as
// ␛, a newline as ⏎, a tab as ⇥, U+FFFD for C1 and bidi controls and for
// bytes that are not UTF-8), in a cell of its own.
//
// It imports internal/safetext; ui, ui/trustprompt and the fawnedit
// command (ui/editor/internal/fawnedit) import it.
package display
