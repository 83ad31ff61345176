package editor

import "strings"

// Vim's operators (d c y > < gu gU g~) over a motion, a text object or
// whole lines: the region they take, as vim's do_pending_operator makes
// it (an exclusive motion ending in column 0, d over lines that leaves a
// blank line, an empty region), and what each does with it.

// vimObject is a text object's range [from, to) around the cursor.
func (v *CodeView) vimObject(key string) (Pos, Pos, bool) {
	p := v.cursor
	line := v.buf.Line(p.Line)
	around := key[0] == 'a'
	switch obj := key[1:]; obj {
	case "w", "W":
		s, e, _, ok := v.vimWordObject(around, obj == "W", 1)
		return s, e, ok
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

// vimWordObject is count iw aw iW aW as [from, to), and whether it was
// inclusive. Failing, it leaves the cursor where vim's current_word
// stopped.
func (v *CodeView) vimWordObject(around, big bool, count int) (Pos, Pos, bool, bool) {
	t := vimText{b: v.buf, big: big}
	s, e, incl, ok := t.currentWord(v.cursor, count, around)
	if !ok {
		v.cursor = v.offLineEnd(e)
		return s, e, incl, false
	}
	// iw on an empty last line ends on the line before, as in vim.
	s, e = order(s, e)
	if el := v.buf.Line(e.Line); incl && e.Col < len(el) {
		e.Col = nextCluster(el, e.Col) // inclusive: past its last character
	}
	return s, e, incl, true
}

// inIndent reports whether p is at or before its line's first non-blank.
func (v *CodeView) inIndent(p Pos) bool { return p.Col <= firstNonBlank(v.buf.Line(p.Line)) }

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
		if end := (Pos{last, firstNonBlank(v.buf.Line(last))}); c.op != "y" && end.Line == start.Line && end.Col < start.Col {
			// dd and cc go to the first non-blank first: the region starts
			// there when that is before the cursor.
			a = end
		}
	case c.key == "ip" || c.key == "ap":
		l1, l2, found := v.vimParaObject(c.key == "ap", c.n())
		if !found {
			vs.beep = true
			return a, b, kind, false
		}
		a, b, kind = Pos{l1, 0}, Pos{l2, 0}, linewise
	case len(c.key) == 2 && (c.key[0] == 'i' || c.key[0] == 'a'):
		if a, b, kind, ok = v.vimObjectRange(c); !ok {
			return a, b, kind, false
		}
	default:
		if a, b, kind, ok = v.vimMotionRange(c); !ok {
			return a, b, kind, false
		}
	}
	if c.op == "d" && kind != linewise && b.Line > a.Line && v.inIndent(a) &&
		strings.TrimLeft(v.buf.Line(b.Line)[b.Col:], " \t") == "" {
		// Vim's d over lines that leaves a blank line deletes the lines.
		kind = linewise
	}
	return a, b, kind, true
}

// vimObjectRange is a text object's region for an operator.
func (v *CodeView) vimObjectRange(c vimCmd) (a, b Pos, kind motionKind, ok bool) {
	vs := v.vim
	if c.key[1] == 'w' || c.key[1] == 'W' {
		var incl bool
		if a, b, incl, ok = v.vimWordObject(c.key[0] == 'a', c.key[1] == 'W', c.n()); !ok {
			vs.beep = true
			return a, b, exclusive, false
		}
		if !incl {
			// The last word ended at a line's start: exclusive.
			b, kind = v.endsInColumn0(a, b, inclusive)
			return a, b, kind, true
		}
		return a, b, inclusive, true
	}
	if c.count > 1 {
		vs.notBuilt("a count on a text object")
		return a, b, exclusive, false
	}
	if a, b, ok = v.vimObject(c.key); !ok {
		return a, b, exclusive, false
	}
	if c.key[1] == 't' {
		return a, b, exclusive, true // a tag's content is taken as it is
	}
	b, kind = v.endsInColumn0(a, b, exclusive)
	return a, b, kind, true
}

// vimMotionRange is a motion's region for an operator: from the cursor to
// where the motion goes, ordered.
func (v *CodeView) vimMotionRange(c vimCmd) (a, b Pos, kind motionKind, ok bool) {
	vs := v.vim
	start := v.cursor
	to, kind, moved, known := v.vimMotion(c, true)
	if !known {
		vs.notBuilt(c.key)
		return a, b, kind, false
	}
	if !moved {
		vs.beep = true
		if c.key == "b" || c.key == "B" || c.key == "ge" || c.key == "gE" {
			v.cursor = to // vim's motion got this far before the buffer's start
		}
		return a, b, kind, false
	}
	if isJump(c.key) {
		vs.setJump(start)
	}
	if c.key == "_" && c.op == "y" {
		to.Col = start.Col // y_ leaves the column alone, as vim's yy does
	}
	a, b = order(start, to)
	if kind == inclusive {
		if bl := v.buf.Line(b.Line); b.Col < len(bl) {
			b.Col = nextCluster(bl, b.Col)
		}
	}
	if kind == exclusive {
		b, kind = v.endsInColumn0(a, b, kind)
	}
	return a, b, kind, true
}

// endsInColumn0 is vim's rule for an exclusive region [a, b) that ends in
// column 0 of a later line: it stops at the end of the line before, and
// is linewise when it started in the indent.
func (v *CodeView) endsInColumn0(a, b Pos, kind motionKind) (Pos, motionKind) {
	if b.Col != 0 || b.Line <= a.Line {
		return b, kind
	}
	b.Line--
	if v.inIndent(a) {
		return b, linewise
	}
	b.Col = len(v.buf.Line(b.Line))
	return b, kind
}

// vimOperator runs an operator over a motion or text object.
func (v *CodeView) vimOperator(c vimCmd) {
	vs := v.vim
	start := v.cursor
	a, b, kind, ok := v.vimOpRange(c)
	if !ok {
		vs.stopRecording(false) // a failed operator is not what . repeats
		return
	}
	vs.want = -2 // j and k after an operator keep the column it left the cursor in
	if vs.emptied && (c.op == "d" || c.op == "c") {
		// Every line was deleted (vim's empty buffer): d and c take
		// nothing and leave the registers alone.
		if c.op == "c" {
			v.vimStartInsert(1, "")
		}
		return
	}
	if kind == linewise {
		v.vimLineOp(c, a.Line, b.Line, start, a, b)
		return
	}
	if a == b {
		v.vimEmptyOp(c, a, kind)
		return
	}
	if isCaseOp(c.op) {
		v.cursor = a // where undo puts the cursor back
		v.vimCaseRange(c.op, a, b, false)
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
		v.cursor = a
		v.vimShift(a.Line, b.Line, c.op == "<")
	}
}

// vimEmptyOp is an operator over an empty region at a: a motion that did
// not move, which vim does not count as failing (h in column 0, l on an
// empty line, w on the last one), or a text object on an empty line.
// Exclusive (vim's empty region): d and c keep an undo step that changes
// nothing, and the case operators, which step back over the region's end,
// take the whole line from column 0 (one character at the buffer's start).
func (v *CodeView) vimEmptyOp(c vimCmd, a Pos, kind motionKind) {
	v.cursor = a
	switch c.op {
	case "d", "c":
		if kind == exclusive {
			v.vimEmptyStep()
		}
		if c.op == "c" {
			v.vimStartInsert(1, "")
		}
	case "y":
		v.vim.setRegister(c.reg, vimReg{}, true) // vim yanks the nothing
	case ">", "<":
		v.vimShift(a.Line, a.Line, c.op == "<")
	default:
		line := v.buf.Line(a.Line)
		b := a
		switch {
		case kind != exclusive || a.Col > 0:
		case a.Line > 0:
			b.Col = len(line)
		case line != "":
			b.Col = nextCluster(line, 0)
		}
		v.vimCaseRange(c.op, a, b, false)
	}
}

// vimLineOp is an operator over whole lines l1..l2.
func (v *CodeView) vimLineOp(c vimCmd, l1, l2 int, start, a, b Pos) {
	vs := v.vim
	l1, l2 = min(l1, l2), max(l1, l2)
	if isCaseOp(c.op) {
		v.cursor = a
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
		// Where the region starts is where undo puts the cursor back.
		v.cursor = a
	}
	text := strings.Join(v.buf.Lines(l1, l2+1), "\n") + "\n"
	switch c.op {
	case "y":
		vs.setRegister(c.reg, vimReg{text: text, linewise: true}, true)
		if a.Line < start.Line || a.Line == start.Line && a.Col < start.Col || len(c.key) == 2 && (c.key[0] == 'i' || c.key[0] == 'a') {
			v.cursor = a // where the region starts (ygg, yk, yip, yi{)
		}
	case "d":
		if !vs.setRegister(c.reg, vimReg{text: text, linewise: true}, false) {
			return
		}
		vs.dropMarks(l1, l2)
		all := l1 == 0 && l2 == v.buf.LineCount()-1
		v.vimEdit(func() Pos {
			v.deleteLines(l1, l2)
			l := min(l1, v.buf.LineCount()-1)
			return Pos{l, firstNonBlank(v.buf.Line(l))}
		})
		vs.emptied = all
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
		v.cursor = a
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
	v.vimEditStep(true, func() Pos {
		for l := l1; l <= l2; l++ {
			text := v.buf.Line(l)
			ind := indentOf(text)
			if text == "" {
				continue // a line of blanks is shifted, as in vim
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
