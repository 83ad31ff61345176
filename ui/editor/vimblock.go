package editor

import (
	"strconv"
	"strings"
)

// Visual-block mode (Ctrl-V): a rectangle of screen columns over lines.
// d x y c I A r ~ u U o O $ work on it; a blockwise register puts back as
// a rectangle.

// vimBlock is the rectangle: lines l1..l2, screen columns c1..c2
// (inclusive); toEnd after $ (every line to its end).
type vimBlock struct {
	l1, l2, c1, c2 int
	toEnd          bool
}

// blockIns is an I, A or c on a block: what is typed on the first line
// goes to the others on <Esc>.
type blockIns struct {
	b     vimBlock
	start Pos
	home  Pos  // where the cursor goes after
	col   int  // the screen column the text goes in at
	pad   bool // A: short lines are padded to col
}

func (v *CodeView) vimBlockRect() vimBlock {
	vs := v.vim
	a, c := vs.vstart, v.cursor
	ca := colOf(v.buf.Line(a.Line), a.Col, v.tabWidth)
	cc := colOf(v.buf.Line(c.Line), c.Col, v.tabWidth)
	b := vimBlock{l1: min(a.Line, c.Line), l2: max(a.Line, c.Line), c1: min(ca, cc), c2: max(ca, cc), toEnd: vs.blockEnd}
	// The right edge takes the whole width of a wide character or tab.
	for _, p := range []Pos{a, c} {
		line := v.buf.Line(p.Line)
		if p.Col < len(line) {
			end := colOf(line, nextCluster(line, p.Col), v.tabWidth) - 1
			if colOf(line, p.Col, v.tabWidth) == b.c2 {
				b.c2 = max(b.c2, end)
			}
		}
	}
	return b
}

// span is the byte range of line l inside the block's columns.
func (v *CodeView) blockSpan(b vimBlock, l int) (int, int) {
	line := v.buf.Line(l)
	s := offAt(line, b.c1, v.tabWidth)
	if s < len(line) && colOf(line, s, v.tabWidth) > b.c1 && s > 0 {
		s = prevCluster(line, s) // a wide character across the left edge
	}
	if b.toEnd {
		return s, len(line)
	}
	e := offAt(line, b.c2+1, v.tabWidth)
	if e < len(line) && colOf(line, e, v.tabWidth) > b.c2+1 {
		e = nextCluster(line, e)
	}
	return s, max(s, e)
}

// inVimBlock reports whether the character at screen column col of line
// is in the visual block (for drawing).
func (v *CodeView) inVimBlock(line, col int) bool {
	if v.vim == nil || v.vim.mode != vimVisualBlock {
		return false
	}
	b := v.vimBlockRect()
	return line >= b.l1 && line <= b.l2 && col >= b.c1 && (b.toEnd || col <= b.c2)
}

// vimBlockText is the block's text, a line a row.
func (v *CodeView) vimBlockText(b vimBlock) string {
	var rows []string
	for l := b.l1; l <= b.l2; l++ {
		s, e := v.blockSpan(b, l)
		rows = append(rows, v.buf.Line(l)[s:e])
	}
	return strings.Join(rows, "\n")
}

// vimBlockCmd runs a command in visual-block mode; false: not a block
// command (a motion, then).
func (v *CodeView) vimBlockCmd(c vimCmd) bool {
	vs := v.vim
	b := v.vimBlockRect()
	leave := func() {
		vs.mode, vs.want = vimNormal, -2
		v.selected = false
	}
	startCol := Pos{b.l1, offAt(v.buf.Line(b.l1), b.c1, v.tabWidth)}
	edit := func() bool {
		if !v.editable() {
			leave()
			return false
		}
		vs.seq++
		vs.merge = "vim:" + strconv.Itoa(vs.seq)
		v.vimVisualRecord(c)
		return true
	}
	switch c.key {
	case "o":
		vs.vstart, v.cursor = v.cursor, vs.vstart
	case "O":
		// The other corner on the same line.
		ca := colOf(v.buf.Line(vs.vstart.Line), vs.vstart.Col, v.tabWidth)
		cc := colOf(v.buf.Line(v.cursor.Line), v.cursor.Col, v.tabWidth)
		vs.vstart.Col = offAt(v.buf.Line(vs.vstart.Line), cc, v.tabWidth)
		v.cursor.Col = offAt(v.buf.Line(v.cursor.Line), ca, v.tabWidth)
	case "y", "Y":
		vs.setRegister(c.reg, vimReg{text: v.vimBlockText(b), block: true}, true)
		leave()
		v.cursor = v.buf.Clamp(startCol)
		v.clampNormal()
	case "d", "x", "X", "D", "c", "s":
		if !edit() {
			return true
		}
		if c.key == "X" || c.key == "D" {
			b.toEnd = true
		}
		if !vs.setRegister(c.reg, vimReg{text: v.vimBlockText(b), block: true}, false) {
			leave()
			return true
		}
		leave()
		v.vimEdit(func() Pos {
			for l := b.l1; l <= b.l2; l++ {
				s, e := v.blockSpan(b, l)
				v.buf.Delete(Pos{l, s}, Pos{l, e})
			}
			return startCol
		})
		if c.key == "c" || c.key == "s" {
			v.vimBlockInsert(b, b.c1, false)
			return true
		}
		v.clampNormal()
	case "I", "A":
		if !edit() {
			return true
		}
		leave()
		if c.key == "I" {
			v.cursor = v.buf.Clamp(startCol)
			v.vimBlockInsert(b, b.c1, false)
			return true
		}
		col := b.c2 + 1
		if b.toEnd {
			col = -1
		}
		line := v.buf.Line(b.l1)
		if b.toEnd {
			v.cursor = Pos{b.l1, len(line)}
		} else {
			v.cursor = Pos{b.l1, offAt(line, col, v.tabWidth)}
			if w := widthOf(line, v.tabWidth); w < col {
				// Pad the first line too, as vim does.
				pad := strings.Repeat(" ", col-w)
				v.vimEdit(func() Pos { return v.buf.Insert(Pos{b.l1, len(line)}, pad) })
			}
		}
		v.vimBlockInsert(b, col, true)
	case "r":
		if !edit() {
			return true
		}
		leave()
		v.vimEdit(func() Pos {
			for l := b.l1; l <= b.l2; l++ {
				s, e := v.blockSpan(b, l)
				n := len([]rune(v.buf.Line(l)[s:e]))
				if n > 0 {
					v.buf.Replace(Pos{l, s}, Pos{l, e}, strings.Repeat(string(c.arg), n))
				}
			}
			return startCol
		})
		v.clampNormal()
	case "~", "u", "U":
		if !edit() {
			return true
		}
		leave()
		fn := caseFn(c.key)
		v.vimEdit(func() Pos {
			for l := b.l1; l <= b.l2; l++ {
				s, e := v.blockSpan(b, l)
				line := v.buf.Line(l)
				if out := fn(line[s:e]); out != line[s:e] {
					v.buf.Replace(Pos{l, s}, Pos{l, e}, out)
				}
			}
			return startCol
		})
		v.clampNormal()
	case "J", ">", "<", "p", "P":
		vs.notBuilt(c.key + " in visual-block mode")
	default:
		return false
	}
	if vs.mode == vimNormal {
		vs.stopRecording(true)
	}
	return true
}

// vimBlockInsert starts insert mode on the block's first line; on <Esc>
// what was typed goes in at screen column col of the other lines (-1:
// their ends).
func (v *CodeView) vimBlockInsert(b vimBlock, col int, pad bool) {
	v.vimStartInsert(1, "")
	home := Pos{b.l1, offAt(v.buf.Line(b.l1), b.c1, v.tabWidth)}
	v.vim.block = &blockIns{b: b, start: v.cursor, col: col, pad: pad, home: home}
}

// finishBlockInsert copies the text typed on the first line to the
// block's other lines (when it was typed on that one line).
func (v *CodeView) finishBlockInsert() {
	vs := v.vim
	bi := vs.block
	vs.block = nil
	if bi == nil {
		return
	}
	defer func() { v.cursor = v.buf.Clamp(bi.home) }()
	if v.cursor.Line != bi.start.Line || v.cursor.Col <= bi.start.Col {
		return
	}
	text := v.buf.Line(bi.start.Line)[bi.start.Col:v.cursor.Col]
	v.vimEdit(func() Pos {
		for l := bi.b.l1 + 1; l <= bi.b.l2; l++ {
			line := v.buf.Line(l)
			w := widthOf(line, v.tabWidth)
			switch {
			case bi.col < 0:
				v.buf.Insert(Pos{l, len(line)}, text)
			case w < bi.col && bi.pad:
				v.buf.Insert(Pos{l, len(line)}, strings.Repeat(" ", bi.col-w)+text)
			case w < bi.col:
				// A line that does not reach the block is left alone.
			default:
				v.buf.Insert(Pos{l, offAt(line, bi.col, v.tabWidth)}, text)
			}
		}
		return v.cursor
	})
}

// vimPutBlock puts a blockwise register as a rectangle at the cursor's
// column (after it for p), padding short lines with spaces.
func (v *CodeView) vimPutBlock(reg vimReg, before bool, n int) {
	rows := strings.Split(reg.text, "\n")
	width := 0
	for _, r := range rows {
		width = max(width, widthOf(r, v.tabWidth))
	}
	at := v.cursor
	line := v.buf.Line(at.Line)
	col := colOf(line, at.Col, v.tabWidth)
	if !before && at.Col < len(line) {
		col = colOf(line, nextCluster(line, at.Col), v.tabWidth)
	}
	v.vimEdit(func() Pos {
		for i, r := range rows {
			l := at.Line + i
			if l >= v.buf.LineCount() {
				v.buf.Insert(v.buf.End(), "\n")
			}
			cur := v.buf.Line(l)
			w := widthOf(cur, v.tabWidth)
			body := strings.Repeat(r+strings.Repeat(" ", width-widthOf(r, v.tabWidth)), n)
			if w <= col {
				// Nothing after: no trailing blanks.
				v.buf.Insert(Pos{l, len(cur)}, strings.Repeat(" ", col-w)+strings.TrimRight(body, " "))
				continue
			}
			v.buf.Insert(Pos{l, offAt(cur, col, v.tabWidth)}, body)
		}
		return Pos{at.Line, offAt(v.buf.Line(at.Line), col, v.tabWidth)}
	})
}
