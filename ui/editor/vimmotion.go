package editor

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Vim's motions, written after vim's own search.c and textobject.c so
// that w, b and e stop where vim stops: a position may sit on a line's end
// (the NUL vim keeps there), stepping past it goes to the next line, and a
// character is of class 0 (blank or line end), 1 (punctuation) or 2 (a
// word character); a WORD motion knows only blank and not blank.

// motionKind is how an operator takes a motion's range.
type motionKind int

const (
	exclusive motionKind = iota
	inclusive
	linewise
)

// vimText walks the buffer the way vim's inc() and dec() do.
type vimText struct {
	b   *Buffer
	big bool // WORD motions
}

// cls is vim's cls(): the class of the character at p.
func (t vimText) cls(p Pos) int {
	line := t.b.Line(p.Line)
	if p.Col >= len(line) {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(line[p.Col:])
	if r == ' ' || r == '\t' {
		return 0
	}
	if t.big {
		return 1
	}
	if isWordRune(r) {
		return 2
	}
	return 1
}

func isWordRune(r rune) bool {
	return r == '_' || r >= 0x100 && !unicode.IsPunct(r) && !unicode.IsSpace(r) ||
		r < 0x100 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// inc steps p forward: 0 within the line, 2 onto the line's end, 1 onto
// the next line, -1 at the end of the buffer (p unchanged).
func (t vimText) inc(p *Pos) int {
	line := t.b.Line(p.Line)
	if p.Col < len(line) {
		_, n := utf8.DecodeRuneInString(line[p.Col:])
		p.Col += n
		if p.Col < len(line) {
			return 0
		}
		return 2
	}
	if p.Line+1 < t.b.LineCount() {
		*p = Pos{p.Line + 1, 0}
		return 1
	}
	return -1
}

// dec steps p back: 0 within the line, 1 onto the previous line's end,
// -1 at the start of the buffer.
func (t vimText) dec(p *Pos) int {
	if p.Col > 0 {
		line := t.b.Line(p.Line)
		_, n := utf8.DecodeLastRuneInString(line[:min(p.Col, len(line))])
		p.Col = min(p.Col, len(line)) - n
		return 0
	}
	if p.Line > 0 {
		p.Line--
		p.Col = len(t.b.Line(p.Line))
		return 1
	}
	return -1
}

func (t vimText) emptyLine(p Pos) bool { return p.Col == 0 && t.b.Line(p.Line) == "" }

// fwdWord is vim's fwd_word: eol stops at a line's end on the last count
// (an operator's w does not take the next line's indent).
func (t vimText) fwdWord(p Pos, count int, eol bool) (Pos, bool) {
	for count > 0 {
		count--
		sclass := t.cls(p)
		lastLine := p.Line == t.b.LineCount()-1
		i := t.inc(&p)
		if i == -1 || (i >= 1 && lastLine) {
			return p, false
		}
		if i >= 1 && eol && count == 0 {
			return p, true
		}
		if sclass != 0 {
			for t.cls(p) == sclass {
				i = t.inc(&p)
				if i == -1 || (i >= 1 && eol && count == 0) {
					return p, true
				}
			}
		}
		for t.cls(p) == 0 {
			if t.emptyLine(p) {
				break
			}
			i = t.inc(&p)
			if i == -1 || (i >= 1 && eol && count == 0) {
				return p, true
			}
		}
	}
	return p, true
}

// skip moves p over characters of class c; it reports hitting an end.
func (t vimText) skip(p *Pos, c int, forward bool) bool {
	for t.cls(*p) == c {
		var i int
		if forward {
			i = t.inc(p)
		} else {
			i = t.dec(p)
		}
		if i == -1 {
			return true
		}
	}
	return false
}

// endWord is vim's end_word; stop keeps a cursor already at a word's end
// there (cw).
func (t vimText) endWord(p Pos, count int, stop bool) (Pos, bool) {
	for ; count > 0; count-- {
		sclass := t.cls(p)
		if t.inc(&p) == -1 {
			return p, false
		}
		if t.cls(p) == sclass && sclass != 0 {
			if t.skip(&p, sclass, true) {
				return p, false
			}
		} else if !stop || sclass == 0 {
			for t.cls(p) == 0 {
				if t.inc(&p) == -1 {
					return p, false
				}
			}
			if t.skip(&p, t.cls(p), true) {
				return p, false
			}
		}
		t.dec(&p)
		stop = false
	}
	return p, true
}

// bckWord is vim's bck_word.
func (t vimText) bckWord(p Pos, count int) (Pos, bool) {
	for ; count > 0; count-- {
		if t.dec(&p) == -1 {
			return p, false
		}
		stopped := false
		for t.cls(p) == 0 {
			if t.emptyLine(p) {
				stopped = true
				break
			}
			if t.dec(&p) == -1 {
				return p, true
			}
		}
		if stopped {
			continue
		}
		if t.skip(&p, t.cls(p), false) {
			return p, true
		}
		t.inc(&p)
	}
	return p, true
}

// firstNonBlank is the offset of line's first character that is not a
// space or tab (the line's length when there is none).
func firstNonBlank(line string) int { return len(indentOf(line)) }

// findChar is f, F, t and T: the count-th c on the line from col. again
// (; and , after t or T) does not count the character next to the cursor,
// so the repeat does not stay stuck before it.
func findChar(line string, col int, cmd, c rune, count int, again bool) (int, bool) {
	forward := cmd == 'f' || cmd == 't'
	till := cmd == 't' || cmd == 'T'
	stop := !(again && till && count == 1)
	p := col
	for ; count > 0; count-- {
		for {
			if forward {
				if p >= len(line) {
					return 0, false
				}
				_, n := utf8.DecodeRuneInString(line[p:])
				p += n
				if p >= len(line) {
					return 0, false
				}
			} else {
				if p == 0 {
					return 0, false
				}
				_, n := utf8.DecodeLastRuneInString(line[:p])
				p -= n
			}
			r, _ := utf8.DecodeRuneInString(line[p:])
			if r == c && stop {
				break
			}
			stop = true
		}
	}
	if till {
		if forward {
			_, n := utf8.DecodeLastRuneInString(line[:p])
			p -= n
		} else {
			_, n := utf8.DecodeRuneInString(line[p:])
			p += n
		}
	}
	return p, true
}

const brackets = "(){}[]"

// matchPair is %: from the first bracket at or after p on its line, the
// bracket that matches it.
func matchPair(b *Buffer, p Pos) (Pos, bool) {
	line := b.Line(p.Line)
	i := p.Col
	for i < len(line) && !strings.ContainsRune(brackets, rune(line[i])) {
		i++
	}
	if i >= len(line) {
		return p, false
	}
	k := strings.IndexByte(brackets, line[i])
	open, close := brackets[k&^1], brackets[k|1]
	if k%2 == 0 {
		return scanPair(b, Pos{p.Line, i}, open, close, true)
	}
	return scanPair(b, Pos{p.Line, i}, close, open, false)
}

// scanPair finds the bracket that closes (or opens) the one at p, counting
// nesting.
func scanPair(b *Buffer, p Pos, self, other byte, forward bool) (Pos, bool) {
	t := vimText{b: b}
	depth := 0
	for {
		var i int
		if forward {
			i = t.inc(&p)
		} else {
			i = t.dec(&p)
		}
		if i == -1 {
			return p, false
		}
		line := b.Line(p.Line)
		if p.Col >= len(line) {
			continue
		}
		switch line[p.Col] {
		case self:
			depth++
		case other:
			if depth == 0 {
				return p, true
			}
			depth--
		}
	}
}

// enclosing finds the open..close pair around p (p on either counts).
func enclosing(b *Buffer, p Pos, open, close byte) (Pos, Pos, bool) {
	line := b.Line(p.Line)
	var start Pos
	switch {
	case p.Col < len(line) && line[p.Col] == open:
		start = p
	case p.Col < len(line) && line[p.Col] == close:
		s, ok := scanPair(b, p, close, open, false)
		if !ok {
			return p, p, false
		}
		start = s
	default:
		s, ok := scanPair(b, p, close, open, false)
		if !ok {
			return p, p, false
		}
		start = s
	}
	end, ok := scanPair(b, start, open, close, true)
	return start, end, ok
}

// wordObject is iw and aw: the range [from, to) on p's line.
func wordObject(line string, col int, around, big bool) (int, int) {
	if len(line) == 0 {
		return 0, 0
	}
	col = min(col, len(line)-1)
	kind := func(i int) int {
		r, _ := utf8.DecodeRuneInString(line[i:])
		switch {
		case r == ' ' || r == '\t':
			return 0
		case big || isWordRune(r):
			return 2
		}
		return 1
	}
	run := func(i int) (int, int) {
		k := kind(i)
		s, e := i, i
		for s > 0 {
			_, n := utf8.DecodeLastRuneInString(line[:s])
			if kind(s-n) != k {
				break
			}
			s -= n
		}
		for e < len(line) && kind(e) == k {
			_, n := utf8.DecodeRuneInString(line[e:])
			e += n
		}
		return s, e
	}
	s, e := run(col)
	if !around {
		return s, e
	}
	if kind(col) == 0 {
		// Blanks and the word after them.
		if e < len(line) {
			_, e = run(e)
		}
		return s, e
	}
	if e < len(line) && kind(e) == 0 {
		_, e = run(e)
		return s, e
	}
	// No blank after: take the blanks before (not the line's indent).
	if s > 0 && kind(s-1) == 0 {
		bs, _ := run(s - 1)
		if bs > 0 {
			s = bs
		}
	}
	return s, e
}

// quoteObject is i" and a" (and ' and `): the quoted string on the line
// around col, or the first one after it.
func quoteObject(line string, col int, q byte, around bool) (int, int, bool) {
	var quotes []int
	for i := 0; i < len(line); i++ {
		if line[i] == '\\' {
			i++
			continue
		}
		if line[i] == q {
			quotes = append(quotes, i)
		}
	}
	start, end := -1, -1
	for k := 0; k+1 < len(quotes); k += 2 {
		if col <= quotes[k+1] {
			start, end = quotes[k], quotes[k+1]
			break
		}
	}
	if start < 0 {
		return 0, 0, false
	}
	if !around {
		return start + 1, end, true
	}
	s, e := start, end+1
	if e < len(line) && (line[e] == ' ' || line[e] == '\t') {
		for e < len(line) && (line[e] == ' ' || line[e] == '\t') {
			e++
		}
	} else {
		for s > 0 && (line[s-1] == ' ' || line[s-1] == '\t') {
			s--
		}
	}
	return s, e, true
}
