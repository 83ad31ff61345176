package editor

import (
	"github.com/alecthomas/chroma/v2"
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/theme"
)

// decor is what a line shows besides its text: a gutter mark, a tint, and
// in a diff a label in place of the line number.
type decor struct {
	mark      rune
	markColor tcell.Color
	tint      tcell.Color // tcell.ColorDefault: none
	label     string
	hasLabel  bool
	fg        tcell.Color // draws the text plain in this colour (a diff's hunk header)
}

// clipboard is shared by the views of one Tabs: an internal copy, also sent
// to the terminal's clipboard with OSC 52 when the terminal supports it.
type clipboard struct {
	text   string
	screen tcell.Screen // the screen last drawn on
}

func (c *clipboard) set(text string) {
	c.text = text
	if c.screen != nil {
		c.screen.SetClipboard([]byte(text))
	}
}

// CodeView is a tview primitive that shows and edits one Buffer: a gutter
// with line numbers and change marks, the cursor and selection, vertical
// and horizontal scrolling or soft wrap, and chroma highlighting computed
// in the background for the visible window. Only visible lines are drawn.
type CodeView struct {
	*tview.Box

	buf      *Buffer
	th       theme.Theme
	keys     *keymap.Table
	vimKeys  *keymap.Table // vim's <Esc> (KeySet.Vim); nil: the Esc key
	base     tcell.Style
	tabWidth int
	indent   string // what Tab inserts: "\t" or spaces, as the file does
	wrap     bool
	readOnly bool
	noGutter bool // pages that are not files (Welcome, a binary notice)

	cursor   Pos
	anchor   Pos
	selected bool // anchor..cursor is a selection
	wantCol  int  // screen column kept across up/down; -1 none
	dragging bool

	top, topRow, left int // first line shown, its first row (wrap), first column (no wrap)
	textW, textH      int // size of the text area at the last draw
	pending           *scrollRequest

	styles    []lineStyle // parallel to the buffer's lines
	decor     []decor     // nil, or parallel to the buffer's lines
	keepDecor bool        // decor survives edits (a diff, which is read-only anyway)
	lexer     chroma.Lexer
	hl        *highlighter
	box       *mailbox
	ownBox    bool
	reqVer    uint64
	reqFrom   int
	reqTo     int
	reqValid  bool

	findText string // matches are tinted while a find is open
	// problems are the file's diagnostics, sorted by position: a gutter
	// mark and an underline each.
	problems []Problem
	oneRow   [1]int // rowStarts of a line without wrap, without allocating

	clip *clipboard
	// vim, when set, is the vim keys' state (editor.keys: vim).
	vim *vimState
	// notice shows a one-line message (a refused edit in a read-only view).
	notice func(string)
	// changed is called after every change of the text, by key or paste.
	changed func()
	focused func() bool
}

type scrollRequest struct {
	line   int
	center bool
}

func newCodeView(buf *Buffer, th theme.Theme, keys *keymap.Table, hl *highlighter, box *mailbox, clip *clipboard) *CodeView {
	v := &CodeView{
		Box:      tview.NewBox(),
		buf:      buf,
		th:       th,
		keys:     keys,
		base:     tcell.StyleDefault.Foreground(th.Foreground).Background(th.Background),
		tabWidth: 4,
		wantCol:  -1,
		hl:       hl,
		box:      box,
		clip:     clip,
	}
	if v.keys == nil {
		v.keys = DefaultKeys()
	}
	if v.box == nil {
		v.box = &mailbox{}
		v.ownBox = true
	}
	if v.clip == nil {
		v.clip = &clipboard{}
	}
	v.SetBackgroundColor(th.Background)
	v.indent = detectIndent(buf)
	v.styles = make([]lineStyle, buf.LineCount())
	buf.OnChange(v.onSplice)
	buf.OnLineEdit(v.onLineEdit)
	return v
}

// Close stops the view's own highlighter, if it has one (a view made by
// NewCodeView); views inside Tabs share the Tabs' one.
func (v *CodeView) Close() {
	if v.ownBox && v.hl != nil {
		v.hl.close()
	}
}

// SetRedraw sets what background work calls to get the view drawn again,
// for a view used on its own (inside Tabs, Tabs.SetRedraw does this).
func (v *CodeView) SetRedraw(fn func()) { v.box.setRedraw(fn) }

// Buffer returns the view's buffer.
func (v *CodeView) Buffer() *Buffer { return v.buf }

// SetReadOnly refuses edits when ro is set.
func (v *CodeView) SetReadOnly(ro bool) { v.readOnly = ro }

// SetWrap turns soft wrap on or off.
func (v *CodeView) SetWrap(on bool) {
	if v.wrap == on {
		return
	}
	v.wrap = on
	v.left, v.topRow = 0, 0
	v.pending = &scrollRequest{line: v.cursor.Line, center: true}
}

// Wrap reports whether soft wrap is on.
func (v *CodeView) Wrap() bool { return v.wrap }

// SetTabWidth sets the columns between tab stops.
func (v *CodeView) SetTabWidth(n int) {
	if n > 0 {
		v.tabWidth = n
	}
}

// Cursor returns the cursor position.
func (v *CodeView) Cursor() Pos { return v.cursor }

// SetCursor moves the cursor (clamped), drops the selection and scrolls to it.
func (v *CodeView) SetCursor(p Pos) {
	v.cursor = v.buf.Clamp(p)
	v.selected = false
	v.wantCol = -1
	v.buf.hist.seal()
	v.pending = &scrollRequest{line: v.cursor.Line}
}

// Select selects from..to, the cursor at to, and scrolls to it.
func (v *CodeView) Select(from, to Pos) {
	v.anchor = v.buf.Clamp(from)
	v.cursor = v.buf.Clamp(to)
	v.selected = v.anchor != v.cursor
	v.wantCol = -1
	v.buf.hist.seal()
	v.pending = &scrollRequest{line: v.cursor.Line, center: true}
}

// Selection returns the selected range, ordered, and whether there is one.
func (v *CodeView) Selection() (Pos, Pos, bool) {
	if !v.selected || v.anchor == v.cursor {
		return v.cursor, v.cursor, false
	}
	a, b := order(v.anchor, v.cursor)
	return a, b, true
}

// ScrollTo shows line (0-based) near the top of the view, with a few lines
// of context above it, once the view knows its size.
func (v *CodeView) ScrollTo(line int) {
	v.pending = &scrollRequest{line: line}
	v.top = max(0, min(line, v.buf.LineCount()-1))
	v.topRow = 0
}

// CenterOn shows line in the middle of the view.
func (v *CodeView) CenterOn(line int) {
	v.pending = &scrollRequest{line: line, center: true}
}

// Top returns the first line shown.
func (v *CodeView) Top() int { return v.top }

// setDecor replaces the per-line marks (nil clears them).
func (v *CodeView) setDecor(d []decor, keep bool) {
	v.decor = d
	v.keepDecor = keep
}

// onSplice keeps the per-line data in step with the buffer.
func (v *CodeView) onSplice(at, removed, added int) {
	v.styles = spliceKeep(v.styles, at, removed, added)
	if v.decor != nil {
		if v.keepDecor {
			v.decor = spliceKeep(v.decor, at, removed, added)
		} else {
			v.decor = nil // agent marks last until the next change
		}
	}
}

// onLineEdit moves the old colours of a line edited in place with its
// characters: until the line is lexed again (after a pause in typing) the
// text after the edit keeps its own colours rather than its old columns',
// and the typed text takes the colour of what it continues.
func (v *CodeView) onLineEdit(line int, old string) {
	if line >= len(v.styles) || len(v.styles[line].spans) == 0 {
		return
	}
	v.styles[line].spans = shiftSpans(v.styles[line].spans, old, v.buf.Line(line))
}

// shiftSpans returns spans (ends of byte ranges of old) moved onto now:
// the unchanged head keeps its ends, the unchanged tail moves with the
// length change, and an end inside the changed middle goes to the end of
// the new middle.
func shiftSpans(spans []span, old, now string) []span {
	head := 0
	for head < len(old) && head < len(now) && old[head] == now[head] {
		head++
	}
	tail := 0
	for tail < len(old)-head && tail < len(now)-head && old[len(old)-1-tail] == now[len(now)-1-tail] {
		tail++
	}
	out := make([]span, 0, len(spans))
	for _, sp := range spans {
		switch {
		case sp.end < head:
		case sp.end >= len(old)-tail:
			sp.end += len(now) - len(old)
		default:
			sp.end = len(now) - tail
		}
		if k := len(out); k > 0 && out[k-1].end >= sp.end {
			continue // emptied by the edit
		}
		out = append(out, sp)
	}
	return out
}

// spliceKeep replaces s[at:at+removed] with added entries, the first of
// which keep the old values (a retyped line keeps its colours until the
// fresh ones arrive).
func spliceKeep[T any](s []T, at, removed, added int) []T {
	if at > len(s) {
		return s
	}
	removed = min(removed, len(s)-at)
	if added == removed {
		return s
	}
	if added < removed {
		return append(s[:at+added], s[at+removed:]...)
	}
	extra := make([]T, added-removed)
	out := make([]T, 0, len(s)+len(extra))
	out = append(out, s[:at+removed]...)
	out = append(out, extra...)
	return append(out, s[at+removed:]...)
}
