package chat

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/render"
)

// Vim keys for the chat input (chat.keys: vim): insert mode is the input
// as it always is, except that Esc goes to normal mode; normal mode has
// the motions and operators that make sense on a text field — h l w b e
// W B E 0 ^ $ f F t T ; , j k (past the first or last line: the history),
// x X D C s S r ~ p P u Ctrl-R, i a I A o O, d c y with a motion or iw aw
// i" a" i( a( i[ a[ i{ a{, dd cc yy, counts. Enter in normal mode sends;
// Esc in normal mode cancels the turn as Esc always does. A key it has not
// built says so beside the input and does nothing.

// inputVim is the chat input's vim state.
type inputVim struct {
	normal  bool
	pending string // the keys of a command being typed ("2d", "f")
	reg     string // the unnamed register
	regLine bool   // the register holds whole lines
	msg     string // what the last key had to say
	findCmd rune
	findCh  rune
}

// SetVimKeyTable sets the table of vim's <Esc> (ChatVimKeys, with the
// user's bindings); without it the input has its own default.
func (in *Input) SetVimKeyTable(t *keymap.Table) { in.vimKeys = t }

// SetVimKeys turns vim keys (chat.keys: vim) on or off for the input.
func (in *Input) SetVimKeys(on bool) {
	if on && in.vimKeys == nil {
		in.vimKeys = ChatVimKeys()
	}
	if on {
		in.vim = &inputVim{}
	} else {
		in.vim = nil
	}
}

// VimMode is "NORMAL" or "INSERT" with vim keys on, else "".
func (in *Input) VimMode() string {
	switch {
	case in.vim == nil:
		return ""
	case in.vim.normal:
		return "NORMAL"
	}
	return "INSERT"
}

// drawVimMode shows the mode (or a message) at the input's right edge in
// normal mode, where typing does not insert.
func (in *Input) drawVimMode(screen tcell.Screen) {
	if in.vim == nil || !in.vim.normal {
		return
	}
	tag := " NORMAL "
	if in.vim.msg != "" {
		tag = " " + in.vim.msg + " "
	} else if in.vim.pending != "" {
		tag = " " + in.vim.pending + " "
	}
	x, y, w, _ := in.GetInnerRect()
	tw := render.TextWidth(tag)
	if tw > w {
		return
	}
	render.DrawText(screen, x+w-tw, y, tw, tag, in.hintStyle.Reverse(true))
}

// vimKey handles a key with vim keys on, and says whether it took it.
func (in *Input) vimKey(ev *tcell.EventKey, action keymap.Action, setFocus func(p tview.Primitive)) bool {
	vs := in.vim
	esc := in.vimKeys.Action(ev) == actChatVimNormal
	if !vs.normal {
		if esc {
			// Esc leaves insert mode (closing a list it shows); a second
			// Esc, in normal mode, cancels as it always has.
			in.matches, in.MentionAt, in.mentionHits = nil, -1, nil
			in.compDismissed, in.mentionHidden = in.GetText(), in.GetText()
			vs.normal = true
			_, c, _ := in.GetSelection()
			text := in.GetText()
			if c > lineStart(text, c) {
				_, n := utf8.DecodeLastRuneInString(text[:c])
				in.Select(c-n, c-n)
			}
			return true
		}
		return false
	}
	vs.msg = ""
	if ev.Key() != tcell.KeyRune || ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) != 0 {
		switch {
		case ev.Key() == tcell.KeyCtrlR:
			text := in.GetText()
			_, cur, _ := in.GetSelection()
			in.vimSimple(text, cur, inputCmd{key: "<C-r>"})
			in.vimClamp()
			return true
		case esc && vs.pending != "":
			vs.pending = ""
			return true
		case action == actChatSend:
			vs.normal = false // the next message starts in insert mode
			return false
		case ev.Key() == tcell.KeyBackspace || ev.Key() == tcell.KeyBackspace2 || ev.Key() == tcell.KeyLeft:
			in.vimRun("h")
			return true
		case ev.Key() == tcell.KeyRight:
			in.vimRun("l")
			return true
		}
		return false // Ctrl-C, Esc (cancel), F-keys and the rest as always
	}
	vs.pending += string(ev.Rune())
	in.vimRun(vs.pending)
	return true
}

// vimRun runs the command typed so far when it is complete.
func (in *Input) vimRun(keys string) {
	vs := in.vim
	c, ok, more := parseInputVim(keys)
	if more {
		vs.pending = keys
		return
	}
	vs.pending = ""
	if !ok {
		vs.msg = "vim: " + keys + " not built in the chat"
		return
	}
	text := in.GetText()
	_, cur, _ := in.GetSelection()
	switch {
	case c.op != "":
		in.vimOperator(text, cur, c)
	default:
		in.vimSimple(text, cur, c)
	}
	in.vimClamp()
}

// inputCmd is a parsed normal-mode command: [count]key or
// [count]op[count]motion.
type inputCmd struct {
	count int
	op    string // d c y
	key   string // the motion or command; "line" for dd cc yy
	arg   rune   // f t F T r's character
}

func (c inputCmd) n() int { return max(1, c.count) }

// parseInputVim reads keys: done and known, or more needed.
func parseInputVim(keys string) (c inputCmd, ok, more bool) {
	rs := []rune(keys)
	i := 0
	count := func() int {
		n := 0
		for i < len(rs) && rs[i] >= '0' && rs[i] <= '9' && (n > 0 || rs[i] != '0') {
			n = n*10 + int(rs[i]-'0')
			i++
		}
		return n
	}
	c.count = count()
	if i < len(rs) && strings.ContainsRune("dcy", rs[i]) {
		c.op = string(rs[i])
		i++
		if n := count(); n > 0 {
			c.count = max(1, c.count) * n
		}
	}
	if i >= len(rs) {
		return c, false, true
	}
	k := string(rs[i])
	switch {
	case c.op != "" && k == c.op:
		c.key = "line"
		return c, i == len(rs)-1, false
	case c.op != "" && (k == "i" || k == "a"):
		if i+1 >= len(rs) {
			return c, false, true
		}
		c.key = k + string(rs[i+1])
		return c, strings.ContainsRune("wW\"'([{)]}b", rs[i+1]), false
	case strings.ContainsRune("fFtTr", rs[i]):
		if i+1 >= len(rs) {
			return c, false, true
		}
		c.key, c.arg = k, rs[i+1]
		return c, c.op == "" || k != "r", false
	}
	c.key = k
	if c.op != "" {
		return c, isInputMotion(k), false
	}
	return c, isInputMotion(k) || strings.Contains("xXDCsSpPu~iaIAoO", k), false
}

func isInputMotion(k string) bool {
	return len(k) == 1 && strings.Contains("hlwbeWBE0^$;,jk", k)
}

// vimClamp keeps the cursor on a character in normal mode.
func (in *Input) vimClamp() {
	if in.vim == nil || !in.vim.normal {
		return
	}
	text := in.GetText()
	_, c, _ := in.GetSelection()
	if le := lineEnd(text, c); c >= le && le > lineStart(text, c) {
		_, n := utf8.DecodeLastRuneInString(text[:le])
		in.Select(le-n, le-n)
	}
}

func lineStart(s string, c int) int { return strings.LastIndexByte(s[:c], '\n') + 1 }

func lineEnd(s string, c int) int {
	if i := strings.IndexByte(s[c:], '\n'); i >= 0 {
		return c + i
	}
	return len(s)
}

// charClass is 0 for a blank (or line break), 1 punctuation, 2 a word
// character; big (W B E) knows only blank and not.
func charClass(r rune, big bool) int {
	switch {
	case r == ' ' || r == '\t' || r == '\n':
		return 0
	case big || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
		return 2
	}
	return 1
}

// Stepping over a string a character at a time.
func runeAt(s string, i int) rune  { r, _ := utf8.DecodeRuneInString(s[i:]); return r }
func nextRune(s string, i int) int { _, w := utf8.DecodeRuneInString(s[i:]); return i + w }
func prevRune(s string, i int) int { _, w := utf8.DecodeLastRuneInString(s[:i]); return i - w }

// inputMotion moves from c: the target, whether an operator takes it
// inclusively or by lines, and whether it moved.
func (in *Input) inputMotion(s string, c int, cmd inputCmd) (to int, incl, lines, ok bool) {
	switch cmd.key {
	case "w", "W", "b", "B", "e", "E":
		to, incl = wordMotion(s, c, cmd)
	case "f", "F", "t", "T", ";", ",":
		if to, incl, ok = in.findMotion(s, c, cmd); !ok {
			return c, false, false, false
		}
	case "j", "k":
		if to, ok = verticalMotion(s, c, cmd); !ok {
			return c, false, true, false
		}
		lines = true
	default:
		to, incl = lineMotion(s, c, cmd)
	}
	return to, incl, lines, to != c || cmd.key == "0" || cmd.key == "^" || cmd.key == "$"
}

// lineMotion is h l 0 ^ $.
func lineMotion(s string, c int, cmd inputCmd) (int, bool) {
	n := cmd.n()
	ls, le := lineStart(s, c), lineEnd(s, c)
	to := c
	switch cmd.key {
	case "h":
		for ; n > 0 && to > ls; n-- {
			to = prevRune(s, to)
		}
	case "l":
		last := le
		if cmd.op == "" && le > ls {
			last = prevRune(s, le)
		}
		for ; n > 0 && to < last; n-- {
			to = nextRune(s, to)
		}
	case "0":
		to = ls
	case "^":
		to = ls
		for to < le && (s[to] == ' ' || s[to] == '\t') {
			to++
		}
	case "$":
		to = le
		if le > ls {
			to = prevRune(s, le)
		}
		return to, true
	}
	return to, false
}

// wordMotion is w W b B e E.
func wordMotion(s string, c int, cmd inputCmd) (int, bool) {
	n := cmd.n()
	big := cmd.key == "W" || cmd.key == "B" || cmd.key == "E"
	cls := func(i int) int { return charClass(runeAt(s, i), big) }
	to := c
	switch cmd.key {
	case "w", "W":
		for ; n > 0 && to < len(s); n-- {
			cl := cls(to)
			for to < len(s) && cl != 0 && cls(to) == cl {
				to = nextRune(s, to)
			}
			for to < len(s) && cls(to) == 0 {
				if cmd.op != "" && n == 1 && s[to] == '\n' {
					break // dw does not take the line break
				}
				to = nextRune(s, to)
			}
		}
		if cmd.op == "c" && to > c && cls(c) != 0 {
			// cw is ce.
			to = prevRune(s, to)
			for to > c && cls(to) == 0 {
				to = prevRune(s, to)
			}
			return to, true
		}
	case "b", "B":
		for ; n > 0 && to > 0; n-- {
			to = prevRune(s, to)
			for to > 0 && cls(to) == 0 {
				to = prevRune(s, to)
			}
			cl := cls(to)
			for to > 0 && cls(prevRune(s, to)) == cl {
				to = prevRune(s, to)
			}
		}
	default:
		for ; n > 0 && to < len(s); n-- {
			to = nextRune(s, to)
			for to < len(s) && cls(to) == 0 {
				to = nextRune(s, to)
			}
			if to >= len(s) {
				return prevRune(s, len(s)), true
			}
			cl := cls(to)
			for nextRune(s, to) < len(s) && cls(nextRune(s, to)) == cl {
				to = nextRune(s, to)
			}
		}
		return to, true
	}
	return to, false
}

// findMotion is f F t T and their repeats ; and ,.
func (in *Input) findMotion(s string, c int, cmd inputCmd) (int, bool, bool) {
	vs := in.vim
	ls, le := lineStart(s, c), lineEnd(s, c)
	key, ch := cmd.key, cmd.arg
	if key == ";" || key == "," {
		if vs.findCmd == 0 {
			return c, false, false
		}
		key, ch = string(vs.findCmd), vs.findCh
		if cmd.key == "," {
			key = map[string]string{"f": "F", "F": "f", "t": "T", "T": "t"}[key]
		}
	} else {
		vs.findCmd, vs.findCh = rune(key[0]), ch
	}
	p := c
	for n := cmd.n(); n > 0; n-- {
		found := false
		if key == "f" || key == "t" {
			for q := nextRune(s, p); q < le; q = nextRune(s, q) {
				if runeAt(s, q) == ch && (key == "f" || q != nextRune(s, c) || cmd.key != ";") {
					p, found = q, true
					break
				}
			}
		} else {
			for q := p; q > ls; {
				q = prevRune(s, q)
				if runeAt(s, q) == ch {
					p, found = q, true
					break
				}
			}
		}
		if !found {
			return c, false, false
		}
	}
	switch key {
	case "t":
		p = prevRune(s, p)
	case "T":
		p = nextRune(s, p)
	}
	return p, key == "f" || key == "t", true
}

// verticalMotion is j and k: the same screen column n lines down or up.
func verticalMotion(s string, c int, cmd inputCmd) (int, bool) {
	ls := lineStart(s, c)
	col := render.TextWidth(s[ls:c])
	l := ls
	for n := cmd.n(); n > 0; n-- {
		if cmd.key == "j" {
			e := lineEnd(s, l)
			if e >= len(s) {
				return c, false
			}
			l = e + 1
		} else {
			if l == 0 {
				return c, false
			}
			l = lineStart(s, l-1)
		}
	}
	to := l
	for e := lineEnd(s, l); to < e && render.TextWidth(s[l:nextRune(s, to)]) <= col; to = nextRune(s, to) {
	}
	if to > l && render.TextWidth(s[l:to]) > col {
		to = prevRune(s, to)
	}
	return to, true
}

// vimSimple runs a command that is not an operator.
func (in *Input) vimSimple(s string, c int, cmd inputCmd) {
	vs := in.vim
	n := cmd.n()
	ls, le := lineStart(s, c), lineEnd(s, c)
	switch cmd.key {
	case "x", "X", "D", "C", "s", "S":
		alias := map[string]inputCmd{"x": {op: "d", key: "l"}, "X": {op: "d", key: "h"}, "D": {op: "d", key: "$"},
			"C": {op: "c", key: "$"}, "s": {op: "c", key: "l"}, "S": {op: "c", key: "line"}}[cmd.key]
		alias.count = cmd.count
		in.vimOperator(s, c, alias)
	case "p", "P":
		if vs.reg == "" {
			vs.msg = "vim: nothing to put"
			return
		}
		body := strings.Repeat(vs.reg, n)
		switch {
		case vs.regLine && cmd.key == "p":
			in.Replace(le, le, "\n"+strings.TrimSuffix(body, "\n"))
			in.Select(le+1, le+1)
		case vs.regLine:
			in.Replace(ls, ls, body)
			in.Select(ls, ls)
		default:
			at := c
			if cmd.key == "p" && c < le {
				_, w := utf8.DecodeRuneInString(s[c:])
				at += w
			}
			in.Replace(at, at, body)
			end := at + len(body)
			_, w := utf8.DecodeLastRuneInString(body)
			in.Select(end-w, end-w)
		}
	case "u", "<C-r>":
		key := tcell.KeyCtrlZ
		if cmd.key == "<C-r>" {
			key = tcell.KeyCtrlY
		}
		for ; n > 0; n-- {
			in.forward(tcell.NewEventKey(key, 0, tcell.ModCtrl), nil)
		}
		// The cursor goes where the text changed, as vim's undo puts it.
		after := in.GetText()
		i := 0
		for i < len(s) && i < len(after) && s[i] == after[i] {
			i++
		}
		if after != s {
			in.Select(i, i)
		}
	case "r":
		end := c
		for i := 0; i < n; i++ {
			if end >= le {
				return
			}
			_, w := utf8.DecodeRuneInString(s[end:])
			end += w
		}
		in.Replace(c, end, strings.Repeat(string(cmd.arg), n))
		in.Select(end-len(string(cmd.arg)), end-len(string(cmd.arg)))
	case "~":
		end := c
		for ; n > 0 && end < le; n-- {
			_, w := utf8.DecodeRuneInString(s[end:])
			end += w
		}
		if end > c {
			in.Replace(c, end, strings.Map(func(r rune) rune {
				if unicode.IsUpper(r) {
					return unicode.ToLower(r)
				}
				return unicode.ToUpper(r)
			}, s[c:end]))
			in.Select(min(end, prevOrSame(s, le, ls)), min(end, prevOrSame(s, le, ls)))
		}
	case "i", "a", "I", "A", "o", "O":
		vs.normal = false
		switch cmd.key {
		case "a":
			if c < le {
				_, w := utf8.DecodeRuneInString(s[c:])
				in.Select(c+w, c+w)
			}
		case "I":
			i := ls
			for i < le && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			in.Select(i, i)
		case "A":
			in.Select(le, le)
		case "o":
			in.Replace(le, le, "\n")
		case "O":
			in.Replace(ls, ls, "\n")
			in.Select(ls, ls)
		}
	default:
		if to, _, _, ok := in.inputMotion(s, c, cmd); ok {
			in.Select(to, to)
		} else if cmd.key == "k" || cmd.key == "j" {
			// Past the first or last line: the history, as Up and Down.
			if cmd.key == "k" {
				in.historyPrev()
			} else {
				in.historyNext()
			}
		}
	}
}

func prevOrSame(s string, le, ls int) int {
	if le > ls {
		_, w := utf8.DecodeLastRuneInString(s[:le])
		return le - w
	}
	return le
}

// vimOperator runs d, c or y over a motion, a text object or lines.
func (in *Input) vimOperator(s string, c int, cmd inputCmd) {
	vs := in.vim
	var a, b int
	lines := false
	switch {
	case cmd.key == "line":
		a = lineStart(s, c)
		b = c
		for i := 0; i < cmd.n(); i++ {
			b = lineEnd(s, b)
			if i < cmd.n()-1 && b < len(s) {
				b++
			}
		}
		lines = true
	case len(cmd.key) == 2:
		var ok bool
		if a, b, ok = textObject(s, c, cmd.key); !ok {
			return
		}
	default:
		to, incl, ln, ok := in.inputMotion(s, c, cmd)
		if !ok {
			return
		}
		a, b = min(c, to), max(c, to)
		if ln {
			a, b, lines = lineStart(s, a), lineEnd(s, b), true
		} else if incl && b < len(s) {
			_, w := utf8.DecodeRuneInString(s[b:])
			b += w
		}
	}
	text := s[a:b]
	if lines {
		vs.reg, vs.regLine = text+"\n", true
	} else {
		vs.reg, vs.regLine = text, false
	}
	switch cmd.op {
	case "y":
		in.Select(a, a)
	case "d":
		if lines {
			// The line and one line break with it.
			switch {
			case b < len(s):
				b++
			case a > 0:
				a--
			}
		}
		in.Replace(a, b, "")
		if lines {
			na := a
			if na > 0 && na >= len(in.GetText()) {
				na = lineStart(in.GetText(), na)
			}
			in.Select(na, na)
		} else {
			in.Select(a, a)
		}
	case "c":
		in.Replace(a, b, "")
		in.Select(a, a)
		vs.normal = false
	}
}

// textObject is iw aw iW aW i" a" i' a' i( a( i[ a[ i{ a{ on s around c.
func textObject(s string, c int, key string) (int, int, bool) {
	around := key[0] == 'a'
	switch obj := key[1]; obj {
	case 'w', 'W':
		big := obj == 'W'
		at := func(i int) rune { r, _ := utf8.DecodeRuneInString(s[i:]); return r }
		if c >= len(s) {
			return c, c, false
		}
		cl := charClass(at(c), big)
		a, b := c, c
		for a > 0 {
			r, w := utf8.DecodeLastRuneInString(s[:a])
			if r == '\n' || charClass(r, big) != cl {
				break
			}
			a -= w
		}
		for b < len(s) && s[b] != '\n' && charClass(at(b), big) == cl {
			_, w := utf8.DecodeRuneInString(s[b:])
			b += w
		}
		if around {
			for b < len(s) && (s[b] == ' ' || s[b] == '\t') {
				b++
			}
		}
		return a, b, b > a
	case '"', '\'':
		ls, le := lineStart(s, c), lineEnd(s, c)
		var qs []int
		for i := ls; i < le; i++ {
			if s[i] == obj {
				qs = append(qs, i)
			}
		}
		for k := 0; k+1 < len(qs); k += 2 {
			if c <= qs[k+1] {
				if around {
					return qs[k], qs[k+1] + 1, true
				}
				return qs[k] + 1, qs[k+1], true
			}
		}
	case '(', ')', 'b', '[', ']', '{', '}', 'B':
		open, close := byte('('), byte(')')
		switch obj {
		case '[', ']':
			open, close = '[', ']'
		case '{', '}', 'B':
			open, close = '{', '}'
		}
		depth := 0
		a := -1
		for i := min(c, len(s)-1); i >= 0; i-- {
			if s[i] == close && i != c {
				depth++
			} else if s[i] == open {
				if depth == 0 {
					a = i
					break
				}
				depth--
			}
		}
		if a < 0 {
			return c, c, false
		}
		depth = 0
		for i := a + 1; i < len(s); i++ {
			if s[i] == open {
				depth++
			} else if s[i] == close {
				if depth == 0 {
					if around {
						return a, i + 1, true
					}
					return a + 1, i, true
				}
				depth--
			}
		}
	}
	return c, c, false
}
