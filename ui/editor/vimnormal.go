package editor

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// changeKeys are the normal-mode commands that change the text (and so
// are what . repeats).
var changeKeys = map[string]bool{
	"x": true, "X": true, "D": true, "C": true, "s": true, "S": true, "p": true, "P": true,
	"J": true, "r": true, "o": true, "O": true, "a": true, "A": true, "i": true, "I": true,
	"~": true, "R": true, "gJ": true, "gp": true, "gP": true,
}

// vimNormal runs one complete normal-mode command.
func (v *CodeView) vimNormal(c vimCmd) {
	vs := v.vim
	if !validRegister(c.reg) {
		vs.notBuilt(`"` + string(c.reg) + " (register)")
		return
	}
	if _, ok := notBuilt[c.op]; ok {
		vs.notBuilt(c.op)
		return
	}
	if _, ok := notBuilt[c.key]; ok && c.op == "" {
		vs.notBuilt(c.key)
		return
	}
	if (c.key == "/" || c.key == "?") && c.search == "" && vs.mode != vimCmdline {
		v.vimStartSearch(c) // the pattern comes first; the command runs after <CR>
		return
	}
	isChange := (c.op != "" && c.op != "y") || changeKeys[c.key]
	if isChange {
		if !v.editable() {
			return
		}
		vs.startChange(c, cmdKeys(c))
	}
	if c.op != "" {
		v.vimOperator(c)
	} else if !v.vimSimple(c) {
		if p, _, ok, known := v.vimMotion(c, false); !known {
			vs.notBuilt(c.key)
		} else if ok {
			if isJump(c.key) {
				vs.setJump(v.cursor)
			}
			v.cursor = p
		} else {
			vs.beep = true
			if c.key == "e" || c.key == "E" || c.key == "ge" || c.key == "gE" {
				v.cursor = p // as far as there were words
			}
		}
	}
	if vs.mode == vimNormal {
		if isChange {
			vs.stopRecording(true)
		}
		v.clampNormal()
	}
	v.wantCol = -1
}

// vimSimple runs the commands that are neither motions nor operators; false
// when c is none of them.
func (v *CodeView) vimSimple(c vimCmd) bool {
	vs := v.vim
	n := c.n()
	switch c.key {
	case "<Esc>":
		vs.msg = ""
	case "x", "X", "D", "C", "s", "S", "Y":
		alias := map[string]vimCmd{
			"x": {op: "d", key: "l"}, "X": {op: "d", key: "h"}, "D": {op: "d", key: "$"},
			"C": {op: "c", key: "$"}, "s": {op: "c", key: "l"}, "S": {op: "c", key: "line"}, "Y": {op: "y", key: "line"},
		}[c.key]
		alias.count, alias.reg = c.count, c.reg
		if c.key == "x" || c.key == "X" || c.key == "s" {
			alias.count = n // x past the line's end takes what there is
		}
		v.vimOperator(alias)
	case "p", "P":
		v.vimPut(c.reg, c.key == "P", n)
	case "J":
		v.vimJoin(v.cursor.Line, max(2, n))
	case "r":
		v.vimReplaceChars(c.arg, n)
	case "u", "<C-r>":
		v.vimUndo(c.key == "u", n)
	case "~":
		v.vimTilde(n)
	case "R":
		v.vimStartReplace(n)
	case "gJ":
		v.vimJoinNoSpace(v.cursor.Line, max(2, n))
	case "m":
		v.vimSetMark(c.arg)
	case "q":
		v.vimStartMacro(c.arg)
	case "@":
		v.vimRunMacro(c.arg, n)
	case "v", "V", "<C-v>":
		v.vimStartVisual(c)
	case "gv":
		v.vimReselect()
	case "ZZ":
		v.vimEx("x")
	case "ZQ":
		v.vimEx("q!")
	case "zz", "zt", "zb", "z.", "z<CR>", "z-":
		v.vimScroll(c.key)
	case ".":
		v.vimRepeat(c.count)
	case "i", "a", "A", "I", "o", "O":
		v.vimInsertCmd(c.key, n)
	case ":":
		vs.mode, vs.cmdKind, vs.cmdline = vimCmdline, ':', ""
		if c.count > 0 {
			vs.cmdline = ".,.+" + strconv.Itoa(c.count-1)
		}
	default:
		return false
	}
	return true
}

// vimMotion moves from the cursor by c's motion: where to, how an operator
// takes it, whether it worked, and whether fawn knows the motion at all.
func (v *CodeView) vimMotion(c vimCmd, op bool) (Pos, motionKind, bool, bool) {
	vs := v.vim
	p := v.cursor
	n := c.n()
	line := v.buf.Line(p.Line)
	keepWant := false
	kind := exclusive
	ok := true
	switch c.key {
	case "h", "<Left>", "<BS>":
		if p.Col == 0 {
			return p, kind, op, true // an operator takes the empty region (ch inserts)
		}
		for ; n > 0 && p.Col > 0; n-- {
			p.Col = prevCluster(line, p.Col)
		}
	case "l", "<Right>", " ":
		last := len(line)
		// Visual mode may go onto the line's end (vim's 'selection'
		// inclusive): the selection then takes the line break.
		if !op && last > 0 && vs.mode == vimNormal {
			last = prevCluster(line, last)
		}
		if p.Col >= last {
			return p, kind, op, true // an empty line: an operator takes nothing
		}
		for ; n > 0 && p.Col < last; n-- {
			p.Col = nextCluster(line, p.Col)
		}
	case "j", "k", "<Down>", "<Up>", "<CR>":
		kind, keepWant = linewise, c.key != "<CR>"
		if p, ok = v.vimVertical(c.key, n); !ok {
			return p, kind, false, true
		}
	case "w", "W", "b", "B", "e", "E":
		p, kind, ok = v.vimWordMotion(c, op)
	case "0":
		p.Col = 0
	case "^":
		p.Col = firstNonBlank(line)
	case "$":
		kind = inclusive
		if n > 1 && p.Line == v.buf.LineCount()-1 {
			return p, kind, false, true // 2$ on the last line fails, as in vim
		}
		p.Line = min(p.Line+n-1, v.buf.LineCount()-1) // 9$ goes as far as there are lines
		p.Col = len(v.buf.Line(p.Line))
		if p.Col > 0 && vs.mode == vimNormal { // visual mode's $ is on the line's end
			p.Col = prevCluster(v.buf.Line(p.Line), p.Col)
		}
		vs.want = -1
		keepWant = true
	case "gg", "G":
		kind = linewise
		target := 0
		if c.key == "G" {
			target = v.buf.LineCount() - 1
		}
		if c.count > 0 {
			target = min(v.buf.LineCount(), c.count) - 1
		}
		p = Pos{target, firstNonBlank(v.buf.Line(target))}
	case "f", "F", "t", "T", ";", ",":
		if p, kind, ok = v.vimFind(c, n); !ok {
			return p, kind, false, true
		}
	default:
		var known bool
		if p, kind, ok, known = v.vimMoreMotion(c); !known || !ok {
			return p, kind, ok, known
		}
	}
	if !keepWant {
		vs.want = -2
	}
	return p, kind, ok, true
}

// vimWordMotion is w W b B e E. With an operator w, W, e and E do not
// fail, as in vim: the operator takes what they got to before the
// buffer's end (nothing, from an empty last line). Without one, e and E
// stop at the buffer's last character when the count runs past it (and
// fail all the same, which ends a macro).
func (v *CodeView) vimWordMotion(c vimCmd, op bool) (Pos, motionKind, bool) {
	p, n := v.cursor, c.n()
	t := vimText{b: v.buf, big: c.key == "W" || c.key == "B" || c.key == "E"}
	var ok bool
	switch c.key {
	case "w", "W":
		if op && c.op == "c" && t.cls(p) != 0 {
			// cw is ce: it changes the word, not the blanks after it.
			p, ok = t.endWord(p, n, true, false)
			return v.offLineEnd(p), inclusive, ok || op
		}
		var moved bool
		p, moved = t.fwdWord(p, n, op)
		return p, exclusive, moved || p != v.cursor || op
	case "b", "B":
		p, ok = t.bckWord(p, n)
		return p, exclusive, ok
	}
	p, ok = t.endWord(p, n, false, false)
	return v.offLineEnd(p), inclusive, ok || op
}

// offLineEnd is vim's adjust_cursor: a motion that stopped on a line's
// end (past its last character) is on that character.
func (v *CodeView) offLineEnd(p Pos) Pos {
	if l := v.buf.Line(p.Line); p.Col >= len(l) && len(l) > 0 {
		p.Col = prevCluster(l, len(l))
	}
	return p
}

// vimMoreMotion is the motions that jump (search, marks, paragraphs,
// sentences, screen lines, %) and the small ones (- + _ | g_ ge gE).
func (v *CodeView) vimMoreMotion(c vimCmd) (Pos, motionKind, bool, bool) {
	p := v.cursor
	n := c.n()
	t := vimText{b: v.buf}
	kind := exclusive
	ok := true
	switch c.key {
	case "%":
		if c.count > 0 {
			// N%: the line N percent into the file.
			if c.count > 100 {
				return p, kind, false, true
			}
			l := (c.count*v.buf.LineCount()+99)/100 - 1
			return Pos{l, firstNonBlank(v.buf.Line(l))}, linewise, true, true
		}
		p, ok = matchPair(v.buf, p)
		kind = inclusive
	case "/", "?", "n", "N", "*", "#":
		kind = exclusive
		if p, ok = v.vimSearchMotion(c); !ok {
			return p, kind, false, true
		}
	case "`", "'":
		if p, kind, ok = v.vimMark(c); !ok {
			return p, kind, false, true
		}
	case "{", "}":
		if p, kind, ok = v.vimPara(c.key == "}", n); !ok {
			return p, kind, false, true
		}
	case "(", ")":
		if p, ok = v.vimSentence(c.key == ")", n); !ok {
			return p, kind, false, true
		}
	case "H", "M", "L":
		kind = linewise
		p = v.vimScreenLine(c.key, c.count)
	case "-", "+", "_":
		kind = linewise
		if p, ok = v.vimLineMotion(c.key, n); !ok {
			return p, kind, false, true
		}
	case "|":
		p = v.vimColumn(n)
	case "g_":
		kind = inclusive
		if p, ok = v.vimLastNonBlank(n); !ok {
			return p, kind, false, true
		}
	case "ge", "gE":
		t.big = c.key == "gE"
		kind = inclusive
		if p, ok = t.bckEnd(p, n); !ok {
			return p, kind, false, true
		}
	default:
		return p, kind, false, false
	}
	return p, kind, ok, true
}

// vimVertical is j, k and Enter: n lines down or up, at the column kept.
func (v *CodeView) vimVertical(key string, n int) (Pos, bool) {
	vs := v.vim
	p := v.cursor
	d := n
	if key == "k" || key == "<Up>" {
		d = -n
	}
	to := max(0, min(v.buf.LineCount()-1, p.Line+d))
	if to == p.Line {
		return p, false
	}
	if vs.want == -2 {
		vs.want = colOf(v.buf.Line(p.Line), p.Col, v.tabWidth)
	}
	p.Line = to
	tl := v.buf.Line(to)
	switch {
	case key == "<CR>":
		p.Col = firstNonBlank(tl)
	case vs.want == -1:
		p.Col = len(tl)
	default:
		p.Col = offAt(tl, vs.want, v.tabWidth)
	}
	return p, true
}

// vimFind is f, F, t, T and their repeats ; and ,.
func (v *CodeView) vimFind(c vimCmd, n int) (Pos, motionKind, bool) {
	vs := v.vim
	p := v.cursor
	cmd, ch, again := c.key, c.arg, c.key == ";" || c.key == ","
	if again {
		if vs.findCmd == 0 {
			return p, exclusive, false
		}
		cmd, ch = string(vs.findCmd), vs.findChar
		if c.key == "," {
			cmd = map[string]string{"f": "F", "F": "f", "t": "T", "T": "t"}[cmd]
		}
	} else {
		vs.findCmd, vs.findChar = rune(c.key[0]), c.arg
	}
	col, found := findChar(v.buf.Line(p.Line), p.Col, rune(cmd[0]), ch, n, again)
	if !found {
		return p, exclusive, false
	}
	p.Col = col
	if cmd == "f" || cmd == "t" {
		return p, inclusive, true
	}
	return p, exclusive, true
}

// vimPut is p and P.
func (v *CodeView) vimPut(r rune, before bool, n int) {
	vs := v.vim
	reg, ok := vs.register(r)
	if !ok || reg.text == "" {
		vs.msg = "vim: register " + regName(r) + " is empty"
		v.vimEmptyStep() // vim's put keeps its undo step all the same
		return
	}
	if reg.block {
		v.vimPutBlock(reg, before, n)
		return
	}
	if reg.linewise {
		body := strings.Repeat(reg.text, n)
		body = body[:len(body)-1]
		l := v.cursor.Line
		v.vimEdit(func() Pos {
			if before {
				v.buf.Insert(Pos{l, 0}, body+"\n")
			} else {
				v.buf.Insert(Pos{l, len(v.buf.Line(l))}, "\n"+body)
				l++
			}
			return Pos{l, firstNonBlank(v.buf.Line(l))}
		})
		return
	}
	at := v.cursor
	line := v.buf.Line(at.Line)
	if !before && at.Col < len(line) {
		at.Col = nextCluster(line, at.Col)
	}
	body := strings.Repeat(reg.text, n)
	v.vimEdit(func() Pos {
		end := v.buf.Insert(at, body)
		if strings.Contains(body, "\n") {
			return at // a multi-line put leaves the cursor at its start
		}
		el := v.buf.Line(end.Line)
		return Pos{end.Line, prevCluster(el, end.Col)}
	})
}

func regName(r rune) string {
	if r == 0 {
		return `"`
	}
	return string(r)
}

// vimJoin is J: n lines from l joined with one space between them.
func (v *CodeView) vimJoin(l, n int) {
	if v.vimJoinLast(l, n) {
		return
	}
	last := min(v.buf.LineCount()-1, l+n-1)
	v.vimEdit(func() Pos {
		var at Pos
		for i := l; i < last; i++ {
			cur, next := v.buf.Line(l), v.buf.Line(l+1)
			rest := strings.TrimLeft(next, " \t")
			sep := " "
			if rest == "" || rest[0] == ')' || cur == "" || strings.HasSuffix(cur, " ") || strings.HasSuffix(cur, "\t") {
				sep = ""
			}
			at = Pos{l, len(cur)}
			v.buf.Replace(at, Pos{l + 1, len(next) - len(rest)}, sep)
		}
		return at
	})
}

// vimJoinLast is J and gJ on the last line, which join nothing: vim's
// 2J fails there, and 3J "joins" the one line, a change that changes
// nothing and puts the cursor in column 0.
func (v *CodeView) vimJoinLast(l, n int) bool {
	if l+1 < v.buf.LineCount() {
		return false
	}
	if n <= 2 {
		v.vim.stopRecording(false)
		v.vim.beep = true
		return true
	}
	v.vimEditStep(true, func() Pos { return Pos{l, 0} })
	return true
}

// vimReplaceChars is r: n characters from the cursor become ch.
func (v *CodeView) vimReplaceChars(ch rune, n int) {
	line := v.buf.Line(v.cursor.Line)
	end := v.cursor.Col
	for i := 0; i < n; i++ {
		if end >= len(line) {
			v.vim.stopRecording(false)
			return
		}
		end = nextCluster(line, end)
	}
	from := v.cursor
	v.vimEdit(func() Pos {
		p := v.buf.Replace(from, Pos{from.Line, end}, strings.Repeat(string(ch), n))
		return Pos{p.Line, p.Col - utf8.RuneLen(ch)}
	})
}

// vimUndo is u and Ctrl-R: the editor's undo, the cursor where vim puts
// it (where the change began when that is on its first line, else that
// line's first non-blank).
func (v *CodeView) vimUndo(undo bool, n int) {
	for ; n > 0; n-- {
		var g *step
		h := &v.buf.hist
		if undo && len(h.undo) > 0 {
			g = h.undo[len(h.undo)-1]
		} else if !undo && len(h.redo) > 0 {
			g = h.redo[len(h.redo)-1]
		}
		if g == nil {
			v.vim.msg = map[bool]string{true: "Already at oldest change", false: "Already at newest change"}[undo]
			return
		}
		if undo {
			v.undo()
		} else {
			v.redo()
		}
		top := -1
		if len(g.splices) == 0 {
			top = g.before.Line // a step that changed nothing
		}
		for _, s := range g.splices {
			if at := undoLine(s, g.before, undo); top < 0 || at < top {
				top = at
			}
		}
		top = min(max(top, 0), v.buf.LineCount()-1)
		if g.before.Line == top {
			v.cursor = v.buf.Clamp(g.before)
		} else {
			v.cursor = Pos{top, firstNonBlank(v.buf.Line(top))}
		}
	}
}

// undoLine is the line vim's undo (or redo) of splice s puts the cursor
// on: where it was before the change when that is in or next to the
// lines changed, else the first line changed back, past those left as
// they were (unless only lines off their end were).
func undoLine(s splice, before Pos, undo bool) int {
	back, now := s.old, s.new
	if !undo {
		back, now = now, back
	}
	if before.Line >= s.at-1 && before.Line <= s.at+len(back) {
		return before.Line
	}
	i := 0
	for i < min(len(back), len(now)) && back[i] == now[i] {
		i++
	}
	if i == len(back) {
		i = 0
	}
	return s.at + i
}

// vimRepeat is .: the last change's keys again, with count instead of the
// one it had.
func (v *CodeView) vimRepeat(count int) {
	vs := v.vim
	if vs.visualChange {
		v.vimRepeatVisual()
		return
	}
	if len(vs.lastChange) == 0 {
		return
	}
	keys := vs.lastChange
	if count == 0 {
		count = vs.lastCount
	}
	var feed []string
	if count > 0 {
		for _, r := range strconv.Itoa(count) {
			feed = append(feed, string(r))
		}
	}
	feed = append(feed, keys...)
	vs.depth++ // a macro being recorded has the . already
	defer func() { vs.depth-- }()
	for _, k := range feed {
		v.vimFeed(k)
	}
}
