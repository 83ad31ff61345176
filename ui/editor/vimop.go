package editor

import "strings"

// Vim's operators (d c y > < gu gU g~) over a motion, a text object or
// whole lines: the region they take, as vim's do_pending_operator makes
// it, and what each does with it.

// vimObject is a text object's range [from, to) around the cursor.
func (v *CodeView) vimObject(key string) (Pos, Pos, bool) {
	p := v.cursor
	line := v.buf.Line(p.Line)
	around := key[0] == 'a'
	switch obj := key[1:]; obj {
	case "w", "W":
		s, e := wordObject(line, p.Col, around, obj == "W")
		return Pos{p.Line, s}, Pos{p.Line, e}, e > s
	case "t":
		return v.tagObject(p, around)
	case `"`, "'", "`":
		s, e, ok := quoteObject(line, p.Col, obj[0], around)
		return Pos{p.Line, s}, Pos{p.Line, e}, ok
	case "(", ")", "b", "{", "}", "B", "[", "]", "<", ">":
		pair := map[string]string{"(": "()", ")": "()", "b": "()", "{": "{}", "}": "{}", "B": "{}", "[": "[]", "]": "[]", "<": "<>", ">": "<>"}[obj]
		s, e, ok := enclosing(v.buf, p, pair[0], pair[1])
		if !ok {
			// Not inside a pair: the next one, as vim 9 does.
			for l, from := p.Line, min(p.Col, len(line)); l < v.buf.LineCount() && !ok; l, from = l+1, 0 {
				if i := strings.IndexByte(v.buf.Line(l)[from:], pair[0]); i >= 0 {
					s, e, ok = enclosing(v.buf, Pos{l, from + i}, pair[0], pair[1])
					break
				}
			}
		}
		if !ok {
			return p, p, false
		}
		if around {
			return s, Pos{e.Line, e.Col + 1}, true
		}
		s.Col++
		if s.Col >= len(v.buf.Line(s.Line)) && s.Line < e.Line {
			s = Pos{s.Line + 1, 0} // the ( ends its line: start on the next
		}
		return s, e, true
	}
	v.vim.notBuilt(key + " (text object)")
	return p, p, false
}

// inIndent reports whether p is at or before its line's first non-blank.
func (v *CodeView) inIndent(p Pos) bool { return p.Col <= firstNonBlank(v.buf.Line(p.Line)) }

// vimOperator runs d, c, y, > or < over a motion or text object.
// vimOpRange is the region an operator works on: [a, b), and how.
func (v *CodeView) vimOpRange(c vimCmd) (a, b Pos, kind motionKind, ok bool) {
	vs := v.vim
	start := v.cursor
	kind = exclusive
	switch {
	case c.key == "line":
		if c.n() > 1 && start.Line == v.buf.LineCount()-1 {
			vs.beep = true // 2dd on the last line fails, as in vim
			return a, b, kind, false
		}
		last := min(start.Line+c.n()-1, v.buf.LineCount()-1)
		a, b, kind = start, Pos{last, 0}, linewise
	case c.key == "ip" || c.key == "ap":
		l1, l2, found := v.vimParaObject(c.key == "ap", c.n())
		if !found {
			vs.beep = true
			return a, b, kind, false
		}
		a, b, kind = Pos{l1, 0}, Pos{l2, 0}, linewise
	case len(c.key) == 2 && (c.key[0] == 'i' || c.key[0] == 'a'):
		if c.count > 1 {
			vs.notBuilt("a count on a text object")
			return a, b, kind, false
		}
		if a, b, ok = v.vimObject(c.key); !ok {
			return a, b, kind, false
		}
		if b.Col == 0 && b.Line > a.Line && c.key[1] != 't' { // a tag's content is taken as it is
			b.Line--
			if v.inIndent(a) {
				kind = linewise
			} else {
				b.Col = len(v.buf.Line(b.Line))
			}
		}
	default:
		to, k, moved, known := v.vimMotion(c, true)
		if !known {
			vs.notBuilt(c.key)
			return a, b, kind, false
		}
		if !moved {
			if c.op == "c" && (c.key == "h" || c.key == "<BS>" || c.key == "<Left>") {
				return start, start, exclusive, true // ch at column 0 still inserts, as in vim
			}
			vs.beep = true
			return a, b, kind, false
		}
		if isJump(c.key) {
			vs.setJump(start)
		}
		kind = k
		a, b = order(start, to)
		if kind == inclusive {
			bl := v.buf.Line(b.Line)
			if b.Col < len(bl) {
				b.Col = nextCluster(bl, b.Col)
			}
		}
		if kind == exclusive && b.Col == 0 && b.Line > a.Line {
			// Vim's rule: an exclusive motion that ends in column 0 stops
			// at the end of the line before, and is linewise when it
			// started in the indent.
			b.Line--
			if v.inIndent(a) {
				kind = linewise
			} else {
				b.Col = len(v.buf.Line(b.Line))
			}
		}
		if c.op == "d" && kind != linewise && b.Line > a.Line && v.inIndent(a) &&
			strings.TrimLeft(v.buf.Line(b.Line)[b.Col:], " \t") == "" {
			kind = linewise
		}
	}
	return a, b, kind, true
}

func (v *CodeView) vimOperator(c vimCmd) {
	vs := v.vim
	start := v.cursor
	a, b, kind, ok := v.vimOpRange(c)
	if !ok {
		return
	}
	if kind == linewise {
		v.vimLineOp(c, a.Line, b.Line, start, a, b)
		return
	}
	if isCaseOp(c.op) {
		v.vimCaseRange(c.op, a, b, false)
		return
	}
	if a == b && (c.op == "d" || c.op == "c" || c.op == "y") {
		// An empty region leaves the registers alone (c still inserts).
		v.cursor = a
		if c.op == "c" {
			v.vimStartInsert(1, "")
		}
		return
	}
	text := v.buf.Text(a, b)
	switch c.op {
	case "y":
		vs.setRegister(c.reg, vimReg{text: text}, true)
		v.cursor = a
	case "d", "c":
		if !vs.setRegister(c.reg, vimReg{text: text}, false) {
			return
		}
		v.cursor = a // where vim's undo puts the cursor back: the region's start
		v.vimEdit(func() Pos { v.buf.Delete(a, b); return a })
		if c.op == "c" {
			v.vimStartInsert(1, "")
		}
	case ">", "<":
		v.vimShift(a.Line, b.Line, c.op == "<")
	}
}

// vimLineOp is an operator over whole lines l1..l2.
func (v *CodeView) vimLineOp(c vimCmd, l1, l2 int, start, a, b Pos) {
	vs := v.vim
	l1, l2 = min(l1, l2), max(l1, l2)
	if isCaseOp(c.op) {
		v.vimCaseRange(c.op, Pos{l1, 0}, Pos{l2, 0}, true)
		// The cursor goes to the start of what the motion spans (gUU's
		// motion ends on its last line's first non-blank).
		v.cursor = a
		if c.key == "line" {
			v.cursor, _ = order(start, Pos{l2, firstNonBlank(v.buf.Line(l2))})
		}
		return
	}
	if c.op == "d" || c.op == "c" {
		// Vim starts a linewise change at the first line's column 0,
		// which is where undo puts the cursor back.
		v.cursor = Pos{l1, 0}
	}
	text := strings.Join(v.buf.Lines(l1, l2+1), "\n") + "\n"
	switch c.op {
	case "y":
		vs.setRegister(c.reg, vimReg{text: text, linewise: true}, true)
		if a.Line < start.Line || c.key == "ip" || c.key == "ap" {
			v.cursor = a // the start of what was yanked
		}
	case "d":
		if !vs.setRegister(c.reg, vimReg{text: text, linewise: true}, false) {
			return
		}
		vs.dropMarks(l1, l2)
		v.vimEdit(func() Pos {
			v.deleteLines(l1, l2)
			l := min(l1, v.buf.LineCount()-1)
			return Pos{l, firstNonBlank(v.buf.Line(l))}
		})
	case "c":
		if !vs.setRegister(c.reg, vimReg{text: text, linewise: true}, false) {
			return
		}
		ind := indentOf(v.buf.Line(l1))
		v.vimEdit(func() Pos {
			return v.buf.Replace(Pos{l1, 0}, Pos{l2, len(v.buf.Line(l2))}, ind)
		})
		v.vimStartInsert(1, "")
		if ind != "" {
			vs.aiLine = l1
		}
	case ">", "<":
		v.vimShift(l1, l2, c.op == "<")
	}
}

// deleteLines removes lines l1..l2, leaving one empty line in an emptied
// buffer.
func (v *CodeView) deleteLines(l1, l2 int) {
	switch {
	case l2+1 < v.buf.LineCount():
		v.buf.Delete(Pos{l1, 0}, Pos{l2 + 1, 0})
	case l1 > 0:
		v.buf.Delete(Pos{l1 - 1, len(v.buf.Line(l1 - 1))}, Pos{l2, len(v.buf.Line(l2))})
	default:
		v.buf.Delete(Pos{l1, 0}, Pos{l2, len(v.buf.Line(l2))})
	}
}

// vimShift indents (or outdents) lines l1..l2 by one indent unit, as > and
// < do with shiftwidth the file's indent; empty lines stay empty.
func (v *CodeView) vimShift(l1, l2 int, out bool) {
	sw := len(v.indent)
	if v.indent == "\t" {
		sw = v.tabWidth
	}
	v.vimEdit(func() Pos {
		for l := l1; l <= l2; l++ {
			text := v.buf.Line(l)
			ind := indentOf(text)
			if text == "" || (!out && ind == text) {
				continue
			}
			w := widthOf(ind, v.tabWidth)
			if out {
				w = max(0, w-sw)
			} else {
				w += sw
			}
			var nw string
			if v.indent == "\t" {
				nw = strings.Repeat("\t", w/v.tabWidth) + strings.Repeat(" ", w%v.tabWidth)
			} else {
				nw = strings.Repeat(" ", w)
			}
			if nw != ind {
				v.buf.Replace(Pos{l, 0}, Pos{l, len(ind)}, nw)
			}
		}
		return Pos{l1, firstNonBlank(v.buf.Line(l1))}
	})
}
