package editor

import (
	"unicode"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/uniseg"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/keymap"
)

// prompt is a question on a tab's status line: either a line of text (find,
// go to line) or a choice of keys (save or discard, reload or keep mine).
// While it is open it takes the tab's keys.
type prompt struct {
	label   string
	text    bool // a line of input, else choices
	input   string
	choices []choice
	msg     string
	msgErr  bool
	// escLabel says what Esc does in a choice ("cancel" when empty);
	// escHidden leaves it out when a choice already says it.
	escLabel  string
	escHidden bool

	change func(p *prompt)          // input changed
	submit func(p *prompt)          // Enter
	cancel func()                   // Esc
	action func(keymap.Action) bool // bound editor actions while open (find next)
}

type choice struct {
	key   rune
	label string
	do    func()
}

// handle takes a key; close is called (before any callback runs) when the
// prompt is done.
func (p *prompt) handle(ev *tcell.EventKey, action keymap.Action, close func()) bool {
	switch ev.Key() {
	case tcell.KeyEscape:
		close()
		if p.cancel != nil {
			p.cancel()
		}
		return true
	case tcell.KeyEnter:
		if p.text {
			close()
			if p.submit != nil {
				p.submit(p)
			}
			return true
		}
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if p.text && p.input != "" {
			r := []rune(p.input)
			p.input = string(r[:len(r)-1])
			p.changed()
		}
		return true
	case tcell.KeyCtrlU:
		if p.text {
			p.input = ""
			p.changed()
		}
		return true
	case tcell.KeyRune:
		if ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) != 0 {
			break
		}
		if p.text {
			p.input += string(ev.Rune())
			p.changed()
			return true
		}
		for _, c := range p.choices {
			if unicode.ToLower(ev.Rune()) == c.key {
				close()
				c.do()
				return true
			}
		}
		return true
	}
	if action != "" && p.action != nil && p.action(action) {
		return true
	}
	return true // a prompt is modal for its tab
}

func (p *prompt) changed() {
	p.msg, p.msgErr = "", false
	if p.change != nil {
		p.change(p)
	}
}

// paste adds pasted text to a text prompt (its first line).
func (p *prompt) paste(text string) {
	if !p.text {
		return
	}
	for i, r := range text {
		if r == '\n' || r == '\r' {
			text = text[:i]
			break
		}
	}
	p.input += text
	p.changed()
}

// rows is how many status rows the prompt takes: a choice puts its
// question above the keys, so neither is cut short.
func (p *prompt) rows() int {
	if p.text {
		return 1
	}
	return 2
}

// draw puts the prompt on the rows from y; it returns the cursor column, or -1.
func (p *prompt) draw(screen tcell.Screen, x, y, w int, base tcell.Style, accent, dim, errColor tcell.Color) int {
	col := x
	put := func(s string, st tcell.Style) {
		s = safetext.Line(s) // a question may name a file
		for s != "" && col < x+w {
			var n int
			s, n = screen.Put(col, y, s, st)
			if n == 0 {
				break
			}
			col += n
		}
	}
	cursor := -1
	if p.text {
		put(p.label, base.Foreground(accent).Bold(true))
		put(" ", base)
		// Show the end of a long input.
		in := p.input
		for uniseg.StringWidth(in) > w-(col-x)-2 && in != "" {
			r := []rune(in)
			in = string(r[1:])
		}
		put(in, base)
		cursor = col
		put(" ", base)
	} else {
		put(p.label, base.Foreground(accent).Bold(true))
		y++
		col = x
		for i, c := range p.choices {
			if i > 0 {
				put("  ", base)
			}
			put("["+string(c.key)+"]", base.Foreground(accent).Bold(true))
			put(" "+c.label, base)
		}
		if !p.escHidden {
			put("  ", base)
			put("[Esc]", base.Foreground(accent).Bold(true))
			if p.escLabel != "" {
				put(" "+p.escLabel, base)
			} else {
				put(" cancel", base)
			}
		}
	}
	if p.msg != "" {
		put("  ", base)
		fg := dim
		if p.msgErr {
			fg = errColor
		}
		put(p.msg, base.Foreground(fg))
	}
	if cursor >= x+w {
		cursor = -1
	}
	return cursor
}
