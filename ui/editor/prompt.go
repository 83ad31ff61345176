package editor

import (
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
	keys    *keymap.Table // the choices' keys
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

// choice is an answer to a question: keys (the question's table) says
// which key gives action.
type choice struct {
	action keymap.Action
	label  string
	do     func()
}

// handle takes a key: keys is the prompt table (Enter, Esc, editing the
// line), action the key's editor action (find next in the find bar).
// close is called (before any callback runs) when the prompt is done.
func (p *prompt) handle(ev *tcell.EventKey, keys *keymap.Table, action keymap.Action, close func()) bool {
	switch keys.Action(ev) {
	case actPromptCancel:
		close()
		if p.cancel != nil {
			p.cancel()
		}
		return true
	case actPromptSubmit:
		if p.text {
			close()
			if p.submit != nil {
				p.submit(p)
			}
			return true
		}
	case actPromptBackspace:
		if p.text && p.input != "" {
			r := []rune(p.input)
			p.input = string(r[:len(r)-1])
			p.changed()
		}
		return true
	case actPromptClear:
		if p.text {
			p.input = ""
			p.changed()
		}
		return true
	}
	if !p.text && p.keys != nil {
		if a := p.keys.ActionFold(ev); a != "" {
			for _, c := range p.choices {
				if c.action == a {
					close()
					c.do()
					return true
				}
			}
		}
	}
	if isTyping(ev) {
		if p.text {
			p.input += string(ev.Rune())
			p.changed()
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
// keys is the prompt table, for the key that cancels.
func (p *prompt) draw(screen tcell.Screen, keys *keymap.Table, x, y, w int, base tcell.Style, accent, dim, errColor tcell.Color) int {
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
			put("["+p.keys.Hint(c.action)+"]", base.Foreground(accent).Bold(true))
			put(" "+c.label, base)
		}
		if esc := keys.Hint(actPromptCancel); !p.escHidden && esc != "" {
			put("  ", base)
			put("["+esc+"]", base.Foreground(accent).Bold(true))
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
