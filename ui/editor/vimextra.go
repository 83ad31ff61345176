package editor

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The rest of vim's normal mode: the case operators (~ g~ gu gU), replace
// mode (R), the paragraph, sentence and screen motions ({ } ( ) H M L),
// and the small motions (ge gE - + _ | g_).

// replacedChar is one character R typed over: what was there ("" past
// the line's end, where R appends).
type replacedChar struct {
	at  Pos
	old string
}

// caseFn is what a case operator does to a string.
func caseFn(op string) func(string) string {
	switch op {
	case "gu", "u":
		return strings.ToLower
	case "gU", "U":
		return strings.ToUpper
	}
	return toggleCase
}

func toggleCase(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case unicode.IsUpper(r):
			return unicode.ToLower(r)
		case unicode.IsLower(r):
			return unicode.ToUpper(r)
		}
		return r
	}, s)
}

func isCaseOp(op string) bool { return op == "g~" || op == "gu" || op == "gU" }

// vimCaseRange changes the case of [a, b) (lines a.Line..b.Line whole when
// linewise); the cursor goes to the range's start, as in vim.
func (v *CodeView) vimCaseRange(op string, a, b Pos, linewise bool) {
	if linewise {
		a = Pos{a.Line, 0}
		b = Pos{b.Line, len(v.buf.Line(b.Line))}
	}
	fn := caseFn(op)
	v.vimEditStep(true, func() Pos {
		for l := a.Line; l <= b.Line; l++ {
			line := v.buf.Line(l)
			from, to := 0, len(line)
			if l == a.Line {
				from = a.Col
			}
			if l == b.Line {
				to = min(b.Col, len(line))
			}
			if from >= to {
				continue
			}
			if out := fn(line[from:to]); out != line[from:to] {
				v.buf.Replace(Pos{l, from}, Pos{l, to}, out)
			}
		}
		return a
	})
}

// vimTilde is ~: n characters from the cursor change case, and the
// cursor moves past them (to the line's last character at most).
func (v *CodeView) vimTilde(n int) {
	p := v.cursor
	line := v.buf.Line(p.Line)
	if line == "" {
		v.vim.stopRecording(false)
		return
	}
	end := p.Col
	for ; n > 0 && end < len(line); n-- {
		end = nextCluster(line, end)
	}
	v.vimCaseRange("g~", p, Pos{p.Line, end}, false)
	v.cursor = Pos{p.Line, end}
}

// vimStartReplace enters replace mode (R), n copies of what is typed.
func (v *CodeView) vimStartReplace(n int) {
	vs := v.vim
	vs.mode = vimReplace
	vs.insCount = n
	vs.insKeys = vs.insKeys[:0]
	vs.replaced = vs.replaced[:0]
	v.selected = false
}

// vimReplaceKey handles a key in replace mode: a character types over the
// one under the cursor (or appends at the line's end), <BS> gives the
// characters back, <CR> breaks the line without replacing.
func (v *CodeView) vimReplaceKey(tok string) {
	vs := v.vim
	p := v.cursor
	line := v.buf.Line(p.Line)
	switch tok {
	case "<Esc>":
		if !vs.insRepeat && vs.insCount > 1 && len(vs.insKeys) > 0 {
			keys := append([]string(nil), vs.insKeys...)
			vs.insRepeat = true
			for i := 1; i < vs.insCount; i++ {
				for _, k := range keys {
					v.vimReplaceKey(k)
				}
			}
			vs.insRepeat = false
		}
		vs.mode = vimNormal
		if v.cursor.Col > 0 {
			v.cursor.Col = prevCluster(v.buf.Line(v.cursor.Line), v.cursor.Col)
		}
		v.clampNormal()
		vs.want = -2
		vs.stopRecording(true)
		return
	case "<BS>":
		if len(vs.replaced) == 0 {
			return // not before where replace mode started (vim's backspace=)
		}
		r := vs.replaced[len(vs.replaced)-1]
		vs.replaced = vs.replaced[:len(vs.replaced)-1]
		if r.at.Line != p.Line {
			// The line break <CR> made.
			v.vimEdit(func() Pos {
				v.buf.Delete(r.at, Pos{p.Line, p.Col})
				return r.at
			})
			return
		}
		v.vimEdit(func() Pos { v.buf.Replace(r.at, p, r.old); return r.at })
		return
	}
	if !vs.insRepeat {
		vs.insKeys = append(vs.insKeys, tok)
	}
	switch {
	case tok == "<CR>":
		vs.replaced = append(vs.replaced, replacedChar{at: p, old: "\n"})
		v.vimEdit(func() Pos { return v.buf.Insert(p, "\n") })
	case utf8.RuneCountInString(tok) == 1:
		end := p.Col
		if end < len(line) {
			end = nextCluster(line, end)
		}
		vs.replaced = append(vs.replaced, replacedChar{at: p, old: line[p.Col:end]})
		v.vimEdit(func() Pos { return v.buf.Replace(p, Pos{p.Line, end}, tok) })
	default:
		vs.msg = "vim: " + tok + " in replace mode not built"
	}
}

// vimPara is { and }: vim's findpar, to the count-th empty line before or
// after; } on the last line goes to its last character (inclusive).
func (v *CodeView) vimPara(forward bool, n int) (Pos, motionKind, bool) {
	curr := v.cursor.Line
	last := v.buf.LineCount() - 1
	dir := 1
	if !forward {
		dir = -1
	}
	for n > 0 {
		n--
		didSkip := false
		for first := true; ; first = false {
			if v.buf.Line(curr) != "" {
				didSkip = true
			}
			if !first && didSkip && v.buf.Line(curr) == "" {
				break
			}
			curr += dir
			if curr < 0 || curr > last {
				if n > 0 {
					return v.cursor, exclusive, false
				}
				curr -= dir
				break
			}
		}
	}
	if curr == last && forward {
		line := v.buf.Line(curr)
		if line != "" {
			return Pos{curr, prevCluster(line, len(line))}, inclusive, true
		}
	}
	return Pos{curr, 0}, exclusive, true
}

// gchar is the character at p (0 at a line's end).
func (t vimText) gchar(p Pos) rune {
	line := t.b.Line(p.Line)
	if p.Col >= len(line) {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(line[p.Col:])
	return r
}

// incl and decl are vim's: they step over a line's end.
func (t vimText) incl(p *Pos) int {
	r := t.inc(p)
	if r >= 1 && p.Col > 0 {
		r = t.inc(p)
	}
	return r
}

func (t vimText) decl(p *Pos) int {
	r := t.dec(p)
	if r == 1 && p.Col > 0 {
		r = t.dec(p)
	}
	return r
}

// vimSentence is ( and ): vim's findsent.
func (v *CodeView) vimSentence(forward bool, count int) (Pos, bool) {
	t := vimText{b: v.buf}
	pos := v.cursor
	step := t.decl
	if forward {
		step = t.incl
	}
	startPS := func(l int) bool { return v.buf.Line(l) == "" }
	for count > 0 {
		count--
		noskip := false
		found := false
		switch {
		case t.gchar(pos) == 0:
			for {
				if step(&pos) == -1 {
					break
				}
				if t.gchar(pos) != 0 {
					break
				}
			}
			found = forward
		case forward && pos.Col == 0 && startPS(pos.Line):
			if pos.Line == v.buf.LineCount()-1 {
				return v.cursor, false
			}
			pos.Line++
			found = true
		case !forward:
			t.decl(&pos)
		}
		if !found {
			var fail bool
			pos, noskip, fail = v.sentenceEnd(pos, forward, count)
			if fail {
				return v.cursor, false
			}
		}
		for !noskip {
			if c := t.gchar(pos); c != ' ' && c != '\t' {
				break
			}
			if t.incl(&pos) == -1 {
				break
			}
		}
	}
	return pos, true
}

// sentenceEnd is the heart of vim's findsent: back over blanks and the
// end of the sentence before, then on to where this one ends (the next
// one's start). fail: the buffer ended with counts left.
func (v *CodeView) sentenceEnd(pos Pos, forward bool, count int) (Pos, bool, bool) {
	t := vimText{b: v.buf}
	step := t.decl
	if forward {
		step = t.incl
	}
	startPS := func(l int) bool { return v.buf.Line(l) == "" }
	foundDot := false
	for {
		c := t.gchar(pos)
		if !(c == ' ' || c == '\t' || strings.ContainsRune(".!?)]\"'", c) && c != 0) {
			break
		}
		tpos := pos
		if t.decl(&tpos) == -1 || (v.buf.Line(tpos.Line) == "" && forward) {
			break
		}
		if foundDot {
			break
		}
		if strings.ContainsRune(".!?", c) {
			foundDot = true
		}
		if tc := t.gchar(tpos); strings.ContainsRune(")]\"'", c) && (tc == 0 || !strings.ContainsRune(".!?)]\"'", tc)) {
			break
		}
		t.decl(&pos)
	}
	startLine := pos.Line
	for {
		c := t.gchar(pos)
		if c == 0 || (pos.Col == 0 && startPS(pos.Line)) {
			if !forward && pos.Line != startLine {
				pos = Pos{pos.Line + 1, 0}
			}
			return pos, false, false
		}
		if c == '.' || c == '!' || c == '?' {
			if end, ok := t.afterSentenceEnd(pos); ok {
				return end, false, false
			}
		}
		if step(&pos) == -1 {
			if count > 0 {
				return pos, false, true
			}
			return pos, true, false
		}
	}
}

// afterSentenceEnd: past a . ! or ? at p and its closing )]"', whether a
// blank or the line's end follows (so the sentence ends there), and where
// the next one may start.
func (t vimText) afterSentenceEnd(p Pos) (Pos, bool) {
	tpos := p
	r := 0
	var tc rune
	for {
		if r = t.inc(&tpos); r == -1 {
			break
		}
		if tc = t.gchar(tpos); tc == 0 || !strings.ContainsRune(")]\"'", tc) {
			break
		}
	}
	if r == -1 || tc == ' ' || tc == '\t' || tc == 0 {
		if t.gchar(tpos) == 0 {
			t.inc(&tpos)
		}
		return tpos, true
	}
	return p, false
}

// vimScreenLine is H, M and L: a line of those shown, at its first
// non-blank.
func (v *CodeView) vimScreenLine(key string, count int) Pos {
	top := v.top
	last := v.buf.LineCount() - 1
	if v.textH > 0 {
		last = min(last, top+v.textH-1)
	}
	var l int
	switch key {
	case "H":
		l = min(last, top+max(1, count)-1)
	case "L":
		l = max(top, last-max(1, count)+1)
	default:
		l = top + (last-top)/2
	}
	return Pos{l, firstNonBlank(v.buf.Line(l))}
}

// vimLineMotion is - + _ and <CR>: count lines up or down, at the first
// non-blank (_ counts from the cursor's own line).
func (v *CodeView) vimLineMotion(key string, n int) (Pos, bool) {
	l := v.cursor.Line
	last := v.buf.LineCount() - 1
	switch key {
	case "-":
		if l == 0 {
			return v.cursor, false
		}
		l = max(0, l-n)
	case "_":
		if n > 1 && l == last {
			return v.cursor, false
		}
		l = min(last, l+n-1) // as far as there are lines, as vim's cursor_down
	default:
		if l == last {
			return v.cursor, false
		}
		l = min(last, l+n)
	}
	return Pos{l, firstNonBlank(v.buf.Line(l))}, true
}

// vimBackEnd is ge and gE: vim's bckend_word.
func (t vimText) bckEnd(p Pos, count int) (Pos, bool) {
	for ; count > 0; count-- {
		sclass := t.cls(p)
		i := t.dec(&p)
		if i == -1 {
			return p, false
		}
		if sclass != 0 {
			for t.cls(p) == sclass {
				if i = t.dec(&p); i == -1 {
					return p, true
				}
			}
		}
		for t.cls(p) == 0 {
			if p.Col == 0 && t.b.Line(p.Line) == "" {
				break
			}
			if i = t.dec(&p); i == -1 {
				return p, true
			}
		}
	}
	return p, true
}

// vimColumn is |: screen column n of the line.
func (v *CodeView) vimColumn(n int) Pos {
	line := v.buf.Line(v.cursor.Line)
	col := offAt(line, n-1, v.tabWidth)
	if col >= len(line) && len(line) > 0 {
		col = prevCluster(line, len(line))
	}
	return Pos{v.cursor.Line, col}
}

// vimLastNonBlank is g_: the last non-blank of the count-th line down.
func (v *CodeView) vimLastNonBlank(n int) (Pos, bool) {
	l := v.cursor.Line + n - 1
	if l >= v.buf.LineCount() {
		return v.cursor, false
	}
	line := strings.TrimRight(v.buf.Line(l), " \t")
	if line == "" {
		return Pos{l, 0}, true
	}
	return Pos{l, prevCluster(line, len(line))}, true
}

// vimJoinNoSpace is gJ: lines joined as they are.
func (v *CodeView) vimJoinNoSpace(l, n int) {
	if v.vimJoinLast(l, n) {
		return
	}
	last := min(v.buf.LineCount()-1, l+n-1)
	v.vimEdit(func() Pos {
		var at Pos
		for i := l; i < last; i++ {
			at = Pos{l, len(v.buf.Line(l))}
			v.buf.Delete(at, Pos{l + 1, 0})
		}
		return at
	})
}

// vimScroll is zz, zt, zb (and z<CR> z. z-): where the cursor's line is
// shown.
func (v *CodeView) vimScroll(key string) bool {
	h := max(1, v.textH)
	l := v.cursor.Line
	switch key {
	case "zz", "z.":
		v.top = max(0, l-h/2)
	case "zt", "z<CR>":
		v.top = l
	case "zb", "z-":
		v.top = max(0, l-h+1)
	default:
		return false
	}
	if key == "z." || key == "z<CR>" || key == "z-" {
		v.cursor.Col = firstNonBlank(v.buf.Line(l))
	}
	v.pending = nil
	return true
}

// vimParaObject is ip and ap: the lines of the paragraph (or run of blank
// lines) around the cursor, n of them; ap takes the blank lines after
// (before, when there are none after).
func (v *CodeView) vimParaObject(around bool, n int) (int, int, bool) {
	blank := func(l int) bool { return strings.TrimLeft(v.buf.Line(l), " \t") == "" }
	last := v.buf.LineCount() - 1
	if last == 0 && v.buf.Line(0) == "" {
		return 0, 0, false // an empty buffer has no paragraph
	}
	l1 := v.cursor.Line
	for l1 > 0 && blank(l1-1) == blank(v.cursor.Line) {
		l1--
	}
	l2 := v.cursor.Line
	for i := 0; i < n; i++ {
		if i > 0 {
			if l2 == last {
				return 0, 0, false
			}
			l2++
		}
		kind := blank(l2)
		for l2 < last && blank(l2+1) == kind {
			l2++
		}
		if around && kind && l2 == last {
			return 0, 0, false // blank lines at the end: no paragraph after them
		}
		if around && kind {
			l2++ // the blank lines and the paragraph after them
			for l2 < last && !blank(l2+1) {
				l2++
			}
		} else if around && !kind {
			if l2 < last {
				l2++
				for l2 < last && blank(l2+1) {
					l2++
				}
			} else if i == 0 {
				for l1 > 0 && blank(l1-1) {
					l1--
				}
			}
		}
	}
	return l1, l2, true
}
