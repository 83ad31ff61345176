package editor

import (
	"strconv"
	"strings"
)

// Visual, visual-line and visual-block modes: starting them (with a count,
// the size of the last selection an operator took, as vim's), the
// selection, and the commands run on it.

// vimResel is the size of the last visual selection an operator took,
// which a count before v, V or Ctrl-V selects again (vim's resel_VIsual).
type vimResel struct {
	mode  vimMode // vimNormal: none yet
	lines int
	// cols is the selection's width in screen columns; over lines in
	// visual mode, its end's column; -1 after $ (to the lines' ends).
	cols int
}

// vimStartVisual is v, V and Ctrl-V. With a count and a selection an
// operator took before: that many times its size, in its mode, from the
// cursor; with a count and none, count characters (lines for V).
func (v *CodeView) vimStartVisual(c vimCmd) {
	vs := v.vim
	mode := map[string]vimMode{"v": vimVisual, "V": vimVisualLine, "<C-v>": vimVisualBlock}[c.key]
	vs.vstart = v.cursor
	vs.blockEnd = false
	vs.want = -2 // a $ before v does not take the line break
	r := vs.resel
	switch {
	case c.count > 0 && r.mode != vimNormal:
		vs.mode = r.mode
		v.vimReselectCount(r, c.count)
	case c.count > 1 && mode == vimVisualLine:
		vs.mode = mode
		v.cursor.Line = min(v.buf.LineCount()-1, v.cursor.Line+c.count-1)
		v.cursor = v.buf.Clamp(v.cursor)
	default:
		vs.mode = mode
		line := v.buf.Line(v.cursor.Line)
		for i := 1; i < c.count && v.cursor.Col < len(line); i++ {
			v.cursor.Col = nextCluster(line, v.cursor.Col) // visual mode may end on the line's end
		}
	}
	v.vimShowSelection()
}

// vimReselectCount moves the cursor count times the last selection's size
// from where the new one starts, as vim's nv_visual does.
func (v *CodeView) vimReselectCount(r vimResel, count int) {
	vs := v.vim
	p := v.cursor
	if r.mode != vimVisual || r.lines > 1 {
		p = v.buf.Clamp(Pos{p.Line + r.lines*count - 1, p.Col})
	}
	line := v.buf.Line(p.Line)
	switch {
	case r.cols < 0:
		p.Col = len(line)
		vs.want = -1
		if r.mode == vimVisualBlock {
			vs.blockEnd = true
		}
	case r.mode == vimVisual && r.lines > 1:
		p.Col = offAt(line, r.cols, v.tabWidth)
	case r.mode == vimVisual || r.mode == vimVisualBlock:
		// Vim 9.0 counts the block's columns from the cursor's column
		// on the line it moved to.
		p.Col = offAt(line, colOf(line, p.Col, v.tabWidth)+r.cols*count-1, v.tabWidth)
	}
	v.cursor = p
}

// vimNoteResel keeps the size of the selection an operator is about to
// take, for a count before v, V or Ctrl-V (not when . repeats one).
func (v *CodeView) vimNoteResel() {
	vs := v.vim
	if vs.redoVisual {
		return
	}
	a, b := order(vs.vstart, v.cursor)
	r := vimResel{mode: vs.mode, lines: b.Line - a.Line + 1}
	endCol := func(p Pos) int {
		line := v.buf.Line(p.Line)
		if p.Col >= len(line) {
			return colOf(line, p.Col, v.tabWidth)
		}
		return colOf(line, nextCluster(line, p.Col), v.tabWidth) - 1
	}
	switch {
	case vs.want == -1:
		r.cols = -1
	case vs.mode == vimVisualBlock:
		blk := v.vimBlockRect()
		r.cols = blk.c2 - blk.c1 + 1
	case r.lines == 1:
		r.cols = endCol(b) - colOf(v.buf.Line(a.Line), a.Col, v.tabWidth) + 1
	default:
		r.cols = endCol(b)
	}
	vs.resel = r
}

// vimShowSelection shows the visual selection with the view's own
// selection, which ends before its end: vim's includes the cursor's
// character (and visual-line mode whole lines).
func (v *CodeView) vimShowSelection() {
	if v.vim.mode == vimVisualBlock {
		v.selected = false // drawn by inVimBlock
		return
	}
	a, b := v.vimVisualRange()
	v.anchor, v.selected = a, true
	if v.cursor == a || v.vim.mode == vimVisualLine && v.cursor.Line == a.Line && b.Line > a.Line {
		// The cursor is the selection's start: the other end is after it.
		v.anchor = b
	}
}

// vimVisualRange is the visual selection as [from, to).
func (v *CodeView) vimVisualRange() (Pos, Pos) {
	vs := v.vim
	a, b := order(vs.vstart, v.cursor)
	if vs.mode == vimVisualLine {
		return Pos{a.Line, 0}, Pos{b.Line, len(v.buf.Line(b.Line))}
	}
	bl := v.buf.Line(b.Line)
	switch {
	case (vs.want == -1 && b == v.cursor || b.Col >= len(bl)) && b.Line+1 < v.buf.LineCount():
		// Ending on a line's end (after $, or on an empty line) the
		// selection takes the line break too.
		b = Pos{b.Line + 1, 0}
	case b.Col < len(bl):
		b.Col = nextCluster(bl, b.Col)
	}
	return a, b
}

// vimVisualCmd runs a command in visual or visual-line mode.
func (v *CodeView) vimVisualCmd(c vimCmd) {
	vs := v.vim
	if !validRegister(c.reg) {
		vs.notBuilt(`"` + string(c.reg) + " (register)")
		return
	}
	leave := func() {
		vs.mode = vimNormal
		v.selected = false
		v.clampNormal()
	}
	// What gv selects again, as it is when a key may leave visual mode.
	vs.lastVisual = vimLastVisual{mode: vs.mode, start: vs.vstart, end: v.cursor, blockEnd: vs.blockEnd}
	switch c.key {
	case "<Esc>":
		leave()
		return
	case "v", "V", "<C-v>":
		want := map[string]vimMode{"v": vimVisual, "V": vimVisualLine, "<C-v>": vimVisualBlock}[c.key]
		if vs.mode == want {
			leave()
			return
		}
		vs.mode = want
	case "o":
		vs.vstart, v.cursor = v.cursor, vs.vstart
	case "d", "x", "X", "D", "c", "s", "y", "Y", ">", "<", "J", "C", "S", "R", "~", "u", "U":
		v.vimNoteResel()
		if vs.mode == vimVisualBlock && v.vimBlockCmd(c) {
			return
		}
		v.vimVisualOp(c)
		return
	case "p", "P":
		if vs.mode != vimVisualBlock {
			v.vimNoteResel()
			v.vimVisualPut(c)
			return
		}
		vs.notBuilt(c.key + " in visual-block mode")
		return
	case "I", "A", "r", "O":
		if vs.mode == vimVisualBlock && c.key != "O" {
			v.vimNoteResel()
		}
		if vs.mode == vimVisualBlock && v.vimBlockCmd(c) {
			if vs.mode == vimVisualBlock {
				v.vimShowSelection()
			}
			return
		}
		vs.notBuilt(c.key + " in visual mode")
		return
	case ":":
		leave()
		vs.mode, vs.cmdKind, vs.cmdline = vimCmdline, ':', "'<,'>"
		a, b := order(vs.vstart, v.cursor)
		vs.vmarks = [2]int{a.Line, b.Line}
		return
	default:
		if c.key == "ip" || c.key == "ap" {
			if l1, l2, ok := v.vimParaObject(c.key == "ap", c.n()); ok {
				vs.mode = vimVisualLine
				vs.vstart, v.cursor = Pos{l1, 0}, Pos{l2, 0}
			}
			break
		}
		if len(c.key) == 2 && (c.key[0] == 'i' || c.key[0] == 'a') {
			a, b, ok := v.vimObject(c.key)
			if ok && b.Col > 0 {
				vs.vstart, v.cursor = a, Pos{b.Line, prevCluster(v.buf.Line(b.Line), b.Col)}
			}
			break
		}
		if _, ok := notBuilt[c.key]; ok {
			vs.notBuilt(c.key)
			return
		}
		if vs.mode == vimVisualBlock {
			switch c.key {
			case "$":
				vs.blockEnd = true
			case "j", "k", "<Up>", "<Down>", "G", "gg":
			default:
				vs.blockEnd = false
			}
		}
		p, _, ok, known := v.vimMotion(c, false)
		if !known {
			vs.notBuilt(c.key + " in visual mode")
			return
		}
		if ok {
			if isJump(c.key) {
				vs.setJump(v.cursor)
			}
			v.cursor = v.buf.Clamp(p) // visual mode may sit on a line's end
		}
	}
	v.vimShowSelection()
}

// vimVisualOp runs an operator on the visual selection.
func (v *CodeView) vimVisualOp(c vimCmd) {
	vs := v.vim
	a, b := v.vimVisualRange()
	line := vs.mode == vimVisualLine
	op := map[string]string{"d": "d", "x": "d", "X": "d", "D": "d", "c": "c", "s": "c", "C": "c", "S": "c", "R": "c",
		"y": "y", "Y": "y", ">": ">", "<": "<", "J": "J", "~": "g~", "u": "gu", "U": "gU"}[c.key]
	if strings.Contains("XDCSRY", c.key) {
		line = true
	}
	vs.mode = vimNormal
	vs.want = -2
	v.selected = false
	if op != "y" {
		if !v.editable() {
			return
		}
		vs.seq++
		vs.merge = "vim:" + strconv.Itoa(vs.seq)
		v.vimVisualRecord(c)
	}
	if vs.emptied && (op == "d" || op == "c") {
		// Every line was deleted (vim's empty buffer): nothing to take.
		if op == "c" {
			v.vimStartInsert(1, "")
		}
		return
	}
	cmd := vimCmd{op: op, reg: c.reg, count: 1}
	if op == "J" || op == ">" || op == "<" {
		// Operators on lines do not take the line break after the
		// selection's end.
		_, e := order(vs.vstart, v.cursor)
		b.Line = e.Line
	}
	switch {
	case op == "J":
		v.vimJoin(a.Line, max(2, b.Line-a.Line+1))
	case op == ">" || op == "<":
		v.vimShift(a.Line, b.Line, op == "<")
	case isCaseOp(op):
		v.vimCaseRange(op, a, b, line)
	case line:
		if op == "y" {
			v.cursor, _ = order(vs.vstart, v.cursor)
			if v.cursor == vs.vstart && c.key == "y" {
				v.cursor.Col = 0 // vim yanks from where V started, at column 0
			}
		}
		if op == "d" || op == "c" {
			// Where undo puts the cursor back: the selection's start, in
			// column 0 when that is where it started.
			if a, _ = order(vs.vstart, v.cursor); a == vs.vstart {
				a.Col = 0
			}
		}
		v.vimLineOp(cmd, a.Line, b.Line, v.cursor, a, b)
	default:
		text := v.buf.Text(a, b)
		if op == "y" {
			vs.setRegister(c.reg, vimReg{text: text}, true)
			v.cursor = a
			break
		}
		if !vs.setRegister(c.reg, vimReg{text: text}, false) {
			return
		}
		v.cursor = a // where undo puts the cursor back
		v.vimEdit(func() Pos { v.buf.Delete(a, b); return a })
		if op == "c" {
			v.vimStartInsert(1, "")
		}
	}
	if vs.mode == vimNormal {
		v.clampNormal()
		vs.stopRecording(true)
	}
}
