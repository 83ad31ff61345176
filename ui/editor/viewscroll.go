package editor

// resolveScroll applies a pending scroll request now that the size is
// known, then keeps top within the text.
func (v *CodeView) resolveScroll() {
	if p := v.pending; p != nil {
		v.pending = nil
		line := max(0, min(p.line, v.buf.LineCount()-1))
		if p.center {
			v.top = max(0, line-v.textH/2)
			v.topRow = 0
		} else if line == v.cursor.Line {
			v.ensureCursorVisible()
		} else {
			v.top = max(0, line-min(3, v.textH/4))
			v.topRow = 0
		}
		if line == v.cursor.Line {
			v.ensureCursorVisible()
		}
	}
	v.clampTop()
}

func (v *CodeView) clampTop() {
	if v.top >= v.buf.LineCount() {
		v.top = v.buf.LineCount() - 1
		v.topRow = 0
	}
	if mt, mr := v.maxTop(); v.top > mt || (v.top == mt && v.topRow > mr) {
		v.top, v.topRow = mt, mr
	}
	v.top = max(0, v.top)
	if v.topRow < 0 {
		v.topRow = 0
	}
}

// maxTop is the scroll position that shows the last line at the bottom.
func (v *CodeView) maxTop() (int, int) {
	if !v.wrap {
		return max(0, v.buf.LineCount()-v.textH), 0
	}
	rows := 0
	for line := v.buf.LineCount() - 1; line >= 0; line-- {
		n := len(v.rowStarts(line))
		if rows+n >= v.textH {
			return line, rows + n - v.textH
		}
		rows += n
	}
	return 0, 0
}

// cursorRow returns the row of the cursor within its line.
func (v *CodeView) cursorRow() int {
	starts := v.rowStarts(v.cursor.Line)
	r := 0
	for i, s := range starts {
		if s <= v.cursor.Col {
			r = i
		}
	}
	return r
}

// ensureCursorVisible scrolls the least needed to show the cursor.
func (v *CodeView) ensureCursorVisible() {
	if v.textH <= 0 {
		v.pending = &scrollRequest{line: v.cursor.Line}
		return
	}
	if !v.wrap {
		if v.cursor.Line < v.top {
			v.top = v.cursor.Line
		} else if v.cursor.Line >= v.top+v.textH {
			v.top = v.cursor.Line - v.textH + 1
		}
		col := colOf(v.buf.Line(v.cursor.Line), v.cursor.Col, v.tabWidth)
		margin := min(8, v.textW/4)
		if col < v.left {
			v.left = max(0, col-margin)
		} else if col >= v.left+v.textW {
			v.left = col - v.textW + 1 + margin
		}
		return
	}
	v.left = 0
	cr := v.cursorRow()
	if v.cursor.Line < v.top || (v.cursor.Line == v.top && cr < v.topRow) {
		v.top, v.topRow = v.cursor.Line, cr
		return
	}
	// Count rows from the top to the cursor; scroll down if past the bottom.
	rows := -v.topRow
	for l := v.top; l < v.cursor.Line; l++ {
		rows += len(v.rowStarts(l))
		if rows > v.textH {
			break
		}
	}
	rows += cr
	for rows >= v.textH {
		n := len(v.rowStarts(v.top))
		if v.topRow+1 < n {
			v.topRow++
		} else {
			v.top++
			v.topRow = 0
		}
		rows--
	}
}

// scrollBy moves the view by n rows without moving the cursor.
func (v *CodeView) scrollBy(n int) {
	if !v.wrap {
		v.top += n
		v.clampTop()
		return
	}
	for ; n > 0; n-- {
		if v.topRow+1 < len(v.rowStarts(v.top)) {
			v.topRow++
		} else if v.top+1 < v.buf.LineCount() {
			v.top++
			v.topRow = 0
		}
	}
	for ; n < 0; n++ {
		if v.topRow > 0 {
			v.topRow--
		} else if v.top > 0 {
			v.top--
			v.topRow = len(v.rowStarts(v.top)) - 1
		}
	}
	v.clampTop()
}

// posAt maps a screen cell to a buffer position.
func (v *CodeView) posAt(sx, sy int) Pos {
	x, y, _, _ := v.GetInnerRect()
	gw := v.gutterWidth()
	col := max(0, sx-x-gw)
	rowsDown := sy - y
	line, row := v.top, v.topRow
	for rowsDown > 0 && line < v.buf.LineCount() {
		if row+1 < len(v.rowStarts(line)) {
			row++
		} else {
			line++
			row = 0
		}
		rowsDown--
	}
	if line >= v.buf.LineCount() {
		return v.buf.End()
	}
	text := v.buf.Line(line)
	if v.wrap {
		starts := v.rowStarts(line)
		base, shift := v.rowOrigin(text, row, starts[row])
		off := offAt(text, base+max(0, col-shift), v.tabWidth)
		if row+1 < len(starts) && off >= starts[row+1] {
			off = prevCluster(text, starts[row+1])
		}
		return Pos{line, off}
	}
	return Pos{line, offAt(text, v.left+col, v.tabWidth)}
}
