package editor

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fawn-ide/fawn/ui/keymap"
)

// openFind opens the incremental find prompt: each key moves to the first
// match from where the find started; Enter or F3 goes on to the next.
func (t *Tabs) openFind(tb *tab) {
	v := tb.shown()
	origin := v.Cursor()
	from, to, has := v.Selection()
	initial := ""
	if has && from.Line == to.Line {
		initial = v.buf.Text(from, to)
		origin = from
	}
	p := &prompt{label: "Find:", text: true, input: initial}
	p.change = func(p *prompt) {
		v.findText = p.input
		if p.input == "" {
			v.SetCursor(origin)
			return
		}
		if !t.findFrom(v, origin, p.input, true, false) {
			p.msg, p.msgErr = "no match", true
		} else {
			p.msg = t.matchCount(v, p.input)
		}
	}
	p.submit = func(p *prompt) {
		// Enter keeps the match selected and the matches tinted; F3 goes on.
	}
	p.cancel = func() { v.findText = "" }
	p.action = func(action keymap.Action) bool {
		switch action {
		case actFindNext, actFindPrev:
			if p.input != "" && !t.findStep(tb, p.input, action == actFindNext) {
				p.msg, p.msgErr = "no match", true
			}
			return true
		}
		return false
	}
	tb.prompt = p
	if initial != "" {
		p.changed()
	}
}

// matchCount says how many matches the file has, when that is cheap.
func (t *Tabs) matchCount(v *CodeView, q string) string {
	if v.buf.LineCount() > 50000 {
		return ""
	}
	n := 0
	for i := 0; i < v.buf.LineCount(); i++ {
		n += len(findAll(v.buf.Line(i), q))
	}
	if n == 1 {
		return "1 match"
	}
	return strconv.Itoa(n) + " matches"
}

// findStep moves to the next (or previous) match of q after the cursor.
func (t *Tabs) findStep(tb *tab, q string, forward bool) bool {
	v := tb.shown()
	if q == "" {
		return false
	}
	from, to, _ := v.Selection()
	start := to
	if !forward {
		start = from
	}
	return t.findFrom(v, start, q, forward, true)
}

// findFrom selects the first match of q at or after p (before p going
// back), wrapping around the end of the file.
func (t *Tabs) findFrom(v *CodeView, p Pos, q string, forward, strict bool) bool {
	n := v.buf.LineCount()
	for i := 0; i <= n; i++ {
		var l int
		if forward {
			l = (p.Line + i) % n
		} else {
			l = ((p.Line-i)%n + n) % n
		}
		text := v.buf.Line(l)
		col := -1
		switch {
		case forward && i == 0:
			if k := indexSmart(text[min(p.Col, len(text)):], q); k >= 0 {
				col = p.Col + k
			}
		case forward:
			if i == n && l == p.Line {
				text = text[:min(len(text), p.Col+len(q))]
			}
			col = indexSmart(text, q)
		case i == 0:
			col = lastIndexSmart(text[:min(p.Col, len(text))], q)
		default:
			col = lastIndexSmart(text, q)
		}
		if col >= 0 {
			v.Select(Pos{l, col}, Pos{l, col + len(q)})
			return true
		}
	}
	return false
}

// openGoto asks for a line number ("120" or "120:8").
func (t *Tabs) openGoto(tb *tab) {
	v := tb.shown()
	p := &prompt{label: fmt.Sprintf("Go to line (1–%d):", v.buf.LineCount()), text: true}
	p.change = func(p *prompt) {
		if _, _, ok := parseLineCol(p.input); !ok && p.input != "" {
			p.msg, p.msgErr = "a line number, or line:column", true
		}
	}
	p.submit = func(p *prompt) {
		line, col, ok := parseLineCol(p.input)
		if !ok {
			return
		}
		line = max(1, min(line, v.buf.LineCount()))
		text := v.buf.Line(line - 1)
		off := 0
		if col > 1 {
			off = offAt(text, col-1, v.tabWidth)
		}
		v.SetCursor(Pos{line - 1, off})
		v.CenterOn(line - 1)
	}
	tb.prompt = p
}

func parseLineCol(s string) (int, int, bool) {
	s = strings.TrimSpace(s)
	ls, cs, hasCol := strings.Cut(s, ":")
	line, err := strconv.Atoi(ls)
	if err != nil || line < 0 {
		return 0, 0, false
	}
	col := 0
	if hasCol {
		if col, err = strconv.Atoi(cs); err != nil || col < 0 {
			return 0, 0, false
		}
	}
	return line, col, true
}

// findAll returns the byte ranges of q in s (smart case: case-insensitive
// unless q has an upper-case letter).
func findAll(s, q string) [][2]int {
	var out [][2]int
	for from := 0; from <= len(s); {
		i := indexSmart(s[from:], q)
		if i < 0 {
			break
		}
		out = append(out, [2]int{from + i, from + i + len(q)})
		from += i + max(1, len(q))
	}
	return out
}

// indexSmart finds q in s, ignoring case unless q has upper case.
func indexSmart(s, q string) int {
	if q == "" {
		return -1
	}
	if strings.IndexFunc(q, unicode.IsUpper) >= 0 {
		return strings.Index(s, q)
	}
	r, _ := utf8.DecodeRuneInString(q)
	up := unicode.ToUpper(r)
	for i := 0; i+len(q) <= len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		if (c == r || c == up) && strings.EqualFold(s[i:i+len(q)], q) {
			return i
		}
		i += n
	}
	return -1
}

// lastIndexSmart finds the last q in s.
func lastIndexSmart(s, q string) int {
	last := -1
	for from := 0; from <= len(s); {
		i := indexSmart(s[from:], q)
		if i < 0 {
			break
		}
		last = from + i
		from += i + 1
	}
	return last
}
