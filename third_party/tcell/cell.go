// Copyright 2025 The TCell Authors
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use file except in compliance with the License.
// You may obtain a copy of the license at
//
//    http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

package tcell

import (
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

type cell struct {
	currStr   string
	lastStr   string
	currStyle Style
	lastStyle Style
	width     int
	lock      bool
}

func (c *cell) setDirty(dirty bool) {
	if dirty {
		c.lastStr = ""
	} else {
		if c.currStr == "" {
			c.currStr = " "
		}
		c.lastStr = c.currStr
		c.lastStyle = c.currStyle
	}
}

// CellBuffer represents a two-dimensional array of character cells.
// This is primarily intended for use by Screen implementors; it
// contains much of the common code they need.  To create one, just
// declare a variable of its type; no explicit initialization is necessary.
//
// CellBuffer is not thread safe.
type CellBuffer struct {
	w     int
	h     int
	cells []cell
	// lo[y]..hi[y] are the columns of row y where a cell may have changed
	// since the row was last drawn (none when lo > hi): a frame visits
	// only those. wide[y] says row y may hold a wide character; then a
	// frame visits the whole row, to keep to the cells' boundaries.
	// [fawn]
	lo, hi []int
	wide   []bool
}

// touch notes that cells x0..x1 of row y may have changed. [fawn]
func (cb *CellBuffer) touch(y, x0, x1 int) {
	if y >= 0 && y < len(cb.lo) {
		cb.lo[y] = min(cb.lo[y], x0)
		cb.hi[y] = max(cb.hi[y], x1)
	}
}

// touchAll notes that any cell may have changed. [fawn]
func (cb *CellBuffer) touchAll() {
	if len(cb.lo) != cb.h {
		cb.lo, cb.hi = make([]int, cb.h), make([]int, cb.h)
		cb.wide = make([]bool, cb.h)
		for y := range cb.wide {
			cb.wide[y] = true // not known
		}
	}
	for y := range cb.lo {
		cb.lo[y], cb.hi[y] = 0, cb.w-1
	}
}

// RowTouched reports whether a cell of row y may be dirty: when not, a
// screen drawing the buffer can pass over the row. [fawn]
func (cb *CellBuffer) RowTouched(y int) bool {
	return y < 0 || y >= len(cb.lo) || cb.lo[y] <= cb.hi[y]
}

// RowSpan returns the columns of row y a screen drawing the buffer must
// go through: those where a cell may be dirty, or the whole row when it
// may hold a wide character. [fawn]
func (cb *CellBuffer) RowSpan(y int) (x0, x1 int) {
	if y < 0 || y >= len(cb.lo) || cb.wide[y] {
		return 0, cb.w - 1
	}
	return max(cb.lo[y], 0), min(cb.hi[y], cb.w-1)
}

// RowDrawn notes that every dirty cell of row y was drawn (or is
// locked), and whether the columns gone through held a wide character
// (RowSpan goes through a part of a row only when it has none). [fawn]
func (cb *CellBuffer) RowDrawn(y int, wide bool) {
	if y >= 0 && y < len(cb.lo) {
		cb.lo[y], cb.hi[y] = cb.w, -1
		cb.wide[y] = wide
	}
}

// SetContent sets the contents (primary rune, combining runes,
// and style) for a cell at a given location.  If the background or
// foreground of the style is set to ColorNone, then the respective
// color is left un changed.
//
// Deprecated: Use Put instead, which this is implemented in terms of.
func (cb *CellBuffer) SetContent(x int, y int, mainc rune, combc []rune, style Style) {
	cb.Put(x, y, string(append([]rune{mainc}, combc...)), style)
}

// Put a single styled grapheme using the given string and style
// at the same location.  Note that only the first grapheme in the string
// will bre displayed, using only the 1 or 2 (depending on width) cells
// located at x, y. It returns the rest of the string, and the width used.
func (cb *CellBuffer) Put(x int, y int, str string, style Style) (string, int) {
	var width int = 0
	if x >= 0 && y >= 0 && x < cb.w && y < cb.h {
		var cl string
		c := &cb.cells[(y*cb.w)+x]
		if len(str) == 1 && str[0] >= 0x20 && str[0] < 0x7f {
			// One printable ASCII character: the cluster and width
			// uniseg gives it. [fawn]
			cl, width, str = str, 1, ""
		}
		state := -1
		for width == 0 && str != "" {
			g, rest, w, st := uniseg.FirstGraphemeClusterInString(str, state)
			if p, ok := controlPicture(g); ok {
				// A control character is never written raw: it is a cell
				// of its own showing its picture, and it does not join
				// the zero-width clusters before it. [fawn]
				if cl == "" {
					cl, width, str = p, 1, rest
				}
				break
			}
			cl += g
			str, width, state = rest, w, st
			if g == "" {
				break
			}
		}
		cb.touch(y, x, x+max(width, 1)-1) // [fawn]
		if width > 1 && y < len(cb.wide) {
			cb.wide[y] = true // [fawn]
		}

		// Wide characters: we want to mark the "wide" cells
		// dirty as well as the base cell, to make sure we consider
		// both cells as dirty together.  We only need to do this
		// if we're changing content
		if width > 0 && cl != c.currStr {
			// Prevent unnecessary boundchecks for first cell, since we already
			// received that one.
			c.setDirty(true)
			for i := 1; i < width; i++ {
				cb.SetDirty(x+i, y, true)
			}
		}

		c.currStr = cl
		c.width = width

		if style.fg == ColorNone {
			style.fg = c.currStyle.fg
		}
		if style.bg == ColorNone {
			style.bg = c.currStyle.bg
		}
		c.currStyle = style
	}
	return str, width
}

// Get the contents of a character cell (or two adjacent cells), including the
// the style and the display width in cells.  (The width can be either 1, normally,
// or 2 for East Asian full-width characters.  If the width is 0, then the cell is
// is empty.)
func (cb *CellBuffer) Get(x, y int) (string, Style, int) {
	var style Style
	var width int
	var str string
	if x >= 0 && y >= 0 && x < cb.w && y < cb.h {
		c := &cb.cells[(y*cb.w)+x]
		str, style = c.currStr, c.currStyle
		if width = c.width; width == 0 || str == "" {
			width = 1
			str = " "
		}
	}
	return str, style, width
}

// GetContent returns the contents of a character cell, including the
// primary rune, any combining character runes (which will usually be
// nil), the style, and the display width in cells.  (The width can be
// either 1, normally, or 2 for East Asian full-width characters.)
//
// Deprecated: Use Get, which this implemented in terms of.
func (cb *CellBuffer) GetContent(x, y int) (rune, []rune, Style, int) {
	var style Style
	var width int
	var mainc rune
	var combc []rune
	str, style, width := cb.Get(x, y)
	for i, r := range str {
		if i == 0 {
			mainc = r
		} else {
			combc = append(combc, r)
		}
	}
	return mainc, combc, style, width
}

// Size returns the (width, height) in cells of the buffer.
func (cb *CellBuffer) Size() (int, int) {
	return cb.w, cb.h
}

// Invalidate marks all characters within the buffer as dirty.
func (cb *CellBuffer) Invalidate() {
	for i := range cb.cells {
		cb.cells[i].lastStr = ""
	}
	cb.touchAll() // [fawn]
}

// Dirty checks if a character at the given location needs to be
// refreshed on the physical display.  This returns true if the cell
// content is different since the last time it was marked clean.
func (cb *CellBuffer) Dirty(x, y int) bool {
	if x >= 0 && y >= 0 && x < cb.w && y < cb.h {
		c := &cb.cells[(y*cb.w)+x]
		if c.lock {
			return false
		}
		if c.lastStyle != c.currStyle {
			return true
		}
		if c.lastStr != c.currStr {
			return true
		}
	}
	return false
}

// SetDirty is normally used to indicate that a cell has
// been displayed (in which case dirty is false), or to manually
// force a cell to be marked dirty.
func (cb *CellBuffer) SetDirty(x, y int, dirty bool) {
	if x >= 0 && y >= 0 && x < cb.w && y < cb.h {
		c := &cb.cells[(y*cb.w)+x]
		c.setDirty(dirty)
		if dirty {
			cb.touch(y, x, x) // [fawn]
		}
	}
}

// LockCell locks a cell from being drawn, effectively marking it "clean" until
// the lock is removed. This can be used to prevent tcell from drawing a given
// cell, even if the underlying content has changed. For example, when drawing a
// sixel graphic directly to a TTY screen an implementer must lock the region
// underneath the graphic to prevent tcell from drawing on top of the graphic.
func (cb *CellBuffer) LockCell(x, y int) {
	if x < 0 || y < 0 {
		return
	}
	if x >= cb.w || y >= cb.h {
		return
	}
	c := &cb.cells[(y*cb.w)+x]
	c.lock = true
}

// UnlockCell removes a lock from the cell and marks it as dirty
func (cb *CellBuffer) UnlockCell(x, y int) {
	if x < 0 || y < 0 {
		return
	}
	if x >= cb.w || y >= cb.h {
		return
	}
	c := &cb.cells[(y*cb.w)+x]
	c.lock = false
	cb.SetDirty(x, y, true)
}

// Resize is used to resize the cells array, with different dimensions,
// while preserving the original contents.  The cells will be invalidated
// so that they can be redrawn.
func (cb *CellBuffer) Resize(w, h int) {
	if cb.h == h && cb.w == w {
		return
	}

	newc := make([]cell, w*h)
	for y := 0; y < h && y < cb.h; y++ {
		for x := 0; x < w && x < cb.w; x++ {
			oc := &cb.cells[(y*cb.w)+x]
			nc := &newc[(y*w)+x]
			nc.currStr = oc.currStr
			nc.currStyle = oc.currStyle
			nc.width = oc.width
			nc.lastStr = ""
		}
	}
	cb.cells = newc
	cb.h = h
	cb.w = w
	cb.touchAll() // [fawn]
}

// Fill fills the entire cell buffer array with the specified character
// and style.  Normally choose ' ' to clear the screen.  This API doesn't
// support combining characters, or characters with a width larger than one.
// If either the foreground or background are ColorNone, then the respective
// color is unchanged.
func (cb *CellBuffer) Fill(r rune, style Style) {
	// PERF: convert the rune to a string once. all cells share the same
	// underlying value so a single allocation suffices.
	s := string(r)
	if p, ok := controlPicture(s); ok {
		s = p // [fawn]
	}
	for i := range cb.cells {
		c := &cb.cells[i]
		c.currStr = s
		cs := style
		if cs.fg == ColorNone {
			cs.fg = c.currStyle.fg
		}
		if cs.bg == ColorNone {
			cs.bg = c.currStyle.bg
		}
		c.currStyle = cs
		c.width = 1
	}
	cb.touchAll() // [fawn]
}

// controlPicture reports whether the grapheme cluster g holds a character
// a terminal would act on, or one that reorders the text after it on a
// terminal that does bidi, or bytes that are not UTF-8, and gives the one
// cell shown instead: a C0 control's or DEL's control picture (ESC as ␛; a
// newline as ⏎ and a tab as ⇥), U+FFFD for the others. Writing the cluster
// raw would let text drawn on the screen (a file name, a model's answer)
// send its own escape sequences: write the clipboard (OSC 52), set the
// title, clear the screen. fawn shows such characters visibly before they
// get here; this is the last guard. [fawn]
func controlPicture(g string) (string, bool) {
	for i := 0; i < len(g); i++ {
		if c := g[i]; c < 0x20 || c == 0x7f || c >= utf8.RuneSelf {
			return controlPictureSlow(g)
		}
	}
	return "", false
}

func controlPictureSlow(g string) (string, bool) {
	for i := 0; i < len(g); {
		r, size := utf8.DecodeRuneInString(g[i:])
		switch {
		case r == '\n':
			return "\u23ce", true // ⏎, as fawn shows a newline on one row
		case r == '\t':
			return "\u21e5", true // ⇥
		case r < 0x20:
			return string(0x2400 + r), true
		case r == 0x7f:
			return "\u2421", true
		case r >= 0x80 && r < 0xa0, r == utf8.RuneError && size == 1, unicode.Is(unicode.Bidi_Control, r):
			return "\ufffd", true
		}
		i += size
	}
	return "", false
}
