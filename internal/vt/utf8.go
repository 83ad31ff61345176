package vt

import (
	"strings"
	"unicode"
	"unicode/utf8"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// printableASCII reports whether r is a character that can never join the
// grapheme cluster beside it. No ASCII character is a combining mark, a ZWJ, a
// spacing mark or a regional indicator, and CR and LF are not printable, so a
// cluster boundary between two of these is certain without asking the
// segmenter.
func printableASCII(r rune) bool {
	return r >= ansi.SP && r < ansi.DEL
}

// handlePrint handles printable characters.
//
// A character is held back rather than printed straight away, because the one
// after it may be a combining mark that belongs to the same cluster. Printing
// "e" from "e\u0301" before the mark arrives puts the base in one cell and
// leaves the mark to become a zero-width cell of its own, which the next write
// or erase then destroys.
func (e *Emulator) handlePrint(r rune) {
	// No ASCII character can extend the cluster before it: none of them is
	// Extend, ZWJ, SpacingMark, Prepend, a regional indicator, or part of an
	// Indic conjunct. So an ASCII character arriving is proof that whatever is
	// buffered is finished, and the buffer can go out.
	//
	// This is also what keeps the buffer from being re-segmented as it grows.
	// Asking where the clusters are on every character costs the length of the
	// buffer each time, which is quadratic over a long run of combining marks
	// that never resolves into more than one cluster.
	if printableASCII(r) {
		// Two printable ASCII characters in a row is the common case by a wide
		// margin, and needs no segmenting at all.
		if len(e.grapheme) == 1 && printableASCII(rune(e.grapheme[0])) {
			e.handleGrapheme(string(e.grapheme[0]), 1)
			e.grapheme = utf8.AppendRune(e.grapheme[:0], r)
			return
		}
		e.flushGrapheme()
	}

	e.grapheme = utf8.AppendRune(e.grapheme, r)
	if len(e.grapheme) > 2*maxCluster {
		e.flushComplete()
	}
}

// maxCluster is the most bytes of one grapheme cluster a cell keeps (fawn,
// see FAWN.md, fix 15). Real clusters are far shorter (a family emoji is 25
// bytes, a flag with tags 28, thirty combining marks 60); without a cap a
// character followed by a gigabyte of combining marks grew one cell, and
// the buffer it was composed in, to a gigabyte.
const maxCluster = 128

// flushComplete prints the clusters in the buffer but the last, which may
// still grow, and keeps at most maxCluster bytes of that one: the marks
// past the cap are dropped. It runs each time the buffer passes twice the
// cap, so a long run of marks is segmented in linear time.
func (e *Emulator) flushComplete() {
	graphemes := e.grapheme
	for {
		cluster, width := ansi.FirstGraphemeCluster(graphemes, ansi.GraphemeWidth)
		if len(cluster) == 0 {
			break
		}
		if len(cluster) == len(graphemes) {
			break // the last one
		}
		e.handleGrapheme(capCluster(cluster), width)
		graphemes = graphemes[len(cluster):]
	}
	e.grapheme = append(e.grapheme[:0], capCluster(graphemes)...)
}

// capCluster cuts a cluster to maxCluster bytes, at a character boundary.
func capCluster(c []byte) string {
	if len(c) <= maxCluster {
		return string(c)
	}
	n := maxCluster
	for n > 0 && !utf8.RuneStart(c[n]) {
		n--
	}
	return string(c[:n])
}

// flushGrapheme flushes the current grapheme buffer, if any, and handles the
// grapheme as a single unit.
func (e *Emulator) flushGrapheme() {
	if len(e.grapheme) == 0 {
		return
	}

	// XXX: We always use [ansi.GraphemeWidth] here to report accurate widths
	// and it's up to the caller to decide how to handle Unicode vs non-Unicode
	// modes.
	method := ansi.GraphemeWidth
	graphemes := e.grapheme
	for len(graphemes) > 0 {
		cluster, width := ansi.FirstGraphemeCluster(graphemes, method)
		if len(cluster) == 0 {
			break
		}
		e.handleGrapheme(capCluster(cluster), width)
		graphemes = graphemes[len(cluster):]
	}
	e.grapheme = e.grapheme[:0] // Reset the grapheme buffer.
}

// handleGrapheme handles UTF-8 graphemes.
func (e *Emulator) handleGrapheme(content string, width int) {
	width = presentationWidth(content, width)
	awm := e.isModeSet(ansi.ModeAutoWrap)
	cell := uv.Cell{
		Content: content,
		Width:   width,
		Style:   e.scr.cursorPen(),
		Link:    e.scr.cursorLink(),
	}

	x, y := e.scr.CursorPosition()
	if e.atPhantom && awm {
		// moves cursor down similar to [Terminal.linefeed] except it doesn't
		// respects [ansi.LNM] mode.
		// This will reset the phantom state i.e. pending wrap state.
		e.scr.setWrapped(y, true)
		e.index()
		_, y = e.scr.CursorPosition()
		x = 0
	}

	// A single shift applies to the next character, whatever that character
	// turns out to be. Take it now, so it cannot leak onto the one after this
	// when this is a cluster no charset has a mapping for.
	single := e.gsingle
	e.gsingle = 0

	// Handle character set mappings
	if len(content) == 1 { //nolint:nestif
		var charset CharSet
		c := content[0]
		if single > 1 && single < 4 {
			charset = e.charsets[single]
		} else if c < 128 {
			charset = e.charsets[e.gl]
		} else {
			charset = e.charsets[e.gr]
		}

		if charset != nil {
			if r, ok := charset[c]; ok {
				cell.Content = r
				cell.Width = 1
			}
		}
	}

	if cell.Width == 1 && len(content) == 1 {
		e.lastChar, _ = utf8.DecodeRuneInString(content)
	}

	if w := e.scr.Width(); cell.Width > 1 && x+cell.Width > w {
		// A wide character that does not fit at the end of the row goes
		// to the start of the next one (with autowrap) or into the last
		// cells of this one (without), rather than being cut in half.
		if awm {
			e.scr.setCursor(x, y, false)
			e.scr.setWrapped(y, true)
			e.index()
			_, y = e.scr.CursorPosition()
			x = 0
		} else {
			x = max(w-cell.Width, 0)
		}
	}

	if e.isModeSet(ansi.ModeInsertReplace) {
		// IRM: what is on the row from the cursor moves right to make
		// room, and what passes the right edge is lost.
		e.scr.setCursor(x, y, false)
		e.scr.InsertCell(cell.Width)
	}

	e.scr.SetCell(x, y, &cell)

	// Handle phantom state at the end of the line: the character took the
	// last cell(s), so the next one wraps.
	e.atPhantom = awm && x+cell.Width >= e.scr.Width()
	if !e.atPhantom {
		x += cell.Width
	}

	// NOTE: We don't reset the phantom state here, we handle it up above.
	e.scr.setCursor(x, y, false)
}

// presentationWidth is the width of a cluster whose only additions to its
// first character are VS16 (U+FE0F, emoji presentation) and combining
// marks: the first character's own width, as wcwidth gives it to readline
// and the shell, and as tmux draws it ("❤️" and "1️⃣" take one cell; "😀"
// takes two with or without VS16). Segmentation widens such a cluster to
// two cells, and the shell's idea of where the cursor is goes wrong.
// Other clusters keep width.
func presentationWidth(content string, width int) int {
	if width < 2 || !strings.ContainsRune(content, 0xfe0f) {
		return width
	}
	first, n := utf8.DecodeRuneInString(content)
	for _, r := range content[n:] {
		if r != 0xfe0f && !unicode.In(r, unicode.Mn, unicode.Me) {
			return width
		}
	}
	return max(ansi.StringWidth(string(first)), 1)
}
