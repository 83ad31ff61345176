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
// there (cw), empty stops on an empty line (the word objects).
func (t vimText) endWord(p Pos, count int, stop, empty bool) (Pos, bool) {
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
			blank := false
			for t.cls(p) == 0 {
				if empty && t.emptyLine(p) {
					blank = true
					break
				}
				if t.inc(&p) == -1 {
					return p, false
				}
			}
			if blank {
				stop = false
				continue
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

// backInLine is vim's back_in_line: back to the start of the word (or
// the blanks) p is in, on its line.
func (t vimText) backInLine(p Pos) Pos {
	sclass := t.cls(p)
	for p.Col > 0 {
		q := p
		t.dec(&q)
		if t.cls(q) != sclass {
			break
		}
		p = q
	}
	return p
}

// currentWord is iw aw iW aW, vim's current_word: count words (or runs of
// blanks) from start to end, inclusive unless the last one ended at a
// line's start (end may be an empty line's end, which takes nothing). It
// crosses lines as vim's does: aw on an empty line takes the line break
// and the next word. On failure end is where it stopped.
func (t vimText) currentWord(p Pos, count int, around bool) (Pos, Pos, bool, bool) {
	start := t.backInLine(p)
	p = start
	white := false
	if (t.cls(p) == 0) == around {
		var ok bool
		if p, ok = t.endWord(p, 1, true, true); !ok {
			return start, p, true, false
		}
	} else {
		p, _ = t.fwdWord(p, 1, true)
		if p.Col == 0 {
			t.decl(&p)
		} else {
			t.dec(&p)
		}
		white = around
	}
	incl := true
	for count--; count > 0; count-- {
		incl = true
		if t.incl(&p) == -1 {
			return start, p, incl, false
		}
		if around != (t.cls(p) == 0) {
			var ok bool
			if p, ok = t.fwdWord(p, 1, true); !ok && count > 1 {
				return start, p, incl, false
			}
			if p.Col == 0 {
				incl = false // past a line break: up to the line's start
			} else {
				t.dec(&p)
			}
		} else if q, ok := t.endWord(p, 1, true, true); !ok {
			return start, q, incl, false
		} else {
			p = q
		}
	}
	if white && (t.cls(p) != 0 || p.Col == 0 && !incl) && start.Col > 0 {
		// No blanks after the words: take the ones before, but not a
		// line's indent.
		q := start
		t.dec(&q)
		if q = t.backInLine(q); t.cls(q) == 0 && q.Col > 0 {
			start = q
		}
	}
	return start, p, incl, true
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
