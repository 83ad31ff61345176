package chat

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/render"
	"github.com/fawn-ide/fawn/ui/theme"
)

// Item is one entry of the chat: a message, a notice or a tool card.
type Item interface {
	// rev changes whenever the item would render differently.
	rev(c *Ctx) uint64
	// Render lays the item out at width. It is called only when the cached
	// lines are stale (width or rev changed).
	Render(c *Ctx, width int) []render.Line
	// CopyText is what copying the item puts on the clipboard.
	CopyText() string
}

// Ctx is what items need to render.
type Ctx struct {
	Th   *theme.Theme
	MD   *Markdown
	Root string // project root, for relative paths
	// Frame advances while something runs, so spinners move.
	Frame uint64
}

func (c *Ctx) style() tcell.Style {
	return tcell.StyleDefault.Foreground(c.Th.Foreground)
}

// entry caches an item's lines for one width.
type entry struct {
	item  Item
	lines []render.Line
	width int
	rev   uint64
	valid bool
	// used is the draw that last asked for the lines (MessageList.draws).
	used uint64
}

// renderDropper is an item that keeps renders of its own (an answer's
// Markdown chunks) and can let them go.
type renderDropper interface{ dropRender() }

// maxWarm is how many entries keep their rendered lines: more, and those
// the last draw did not ask for drop them, so that a long session holds
// the lines of about a screen, not of every item it ever showed. An item
// scrolled back into view renders again.
const maxWarm = 256

func (e *entry) get(c *Ctx, width int) []render.Line {
	if r := e.item.rev(c); !e.valid || e.width != width || e.rev != r {
		e.lines = e.item.Render(c, width)
		e.width, e.rev, e.valid = width, r, true
	}
	return e.lines
}

// lines are e's lines at the list's width, rendered when not cached.
func (l *MessageList) lines(e *entry) []render.Line {
	if !e.valid {
		l.warm = append(l.warm, e)
	}
	e.used = l.draws
	return e.get(l.ctx, l.contentWidth())
}

// cool drops the rendered lines of the entries the last draw did not ask
// for, once more than maxWarm entries hold theirs.
func (l *MessageList) cool() {
	if len(l.warm) <= maxWarm {
		return
	}
	kept := l.warm[:0]
	for _, e := range l.warm {
		if e.used == l.draws && e.valid {
			kept = append(kept, e)
			continue
		}
		e.lines, e.valid = nil, false
		if d, ok := e.item.(renderDropper); ok {
			d.dropRender()
		}
	}
	clear(l.warm[len(kept):])
	l.warm = kept
}

// rowRef says what a screen row of the list shows.
type rowRef struct{ entry, line int }

// gutter is the columns left of each item: a selection bar and a space.
const gutter = 2

// MessageList is the chat's scrolling list of items. It caches each item's
// wrapped lines per width and draws only the rows in view, so a long session
// scrolls, streams and resizes in time proportional to the screen, not to the
// history. The list follows the bottom until the user scrolls up.
type MessageList struct {
	*tview.Box
	ctx     *Ctx
	keys    *keymap.Table
	entries []*entry

	follow      bool
	top, topOff int // first visible entry and row within it
	sel         int // selected entry, -1 for none
	// pinned: while following, the anchor stays put as long as everything
	// below it fits, and moves only when new rows no longer fit, then so
	// the newest row is a quarter of the way down the view (jump
	// scrolling, as terminals do). An answer streaming in then moves the
	// lines on screen a few times a second, not every frame: each move
	// repaints the whole list. Unpinned, the next draw puts the last row
	// at the bottom.
	pinned bool

	width, height int // of the last draw's content area
	rows          []rowRef

	// warm are the entries that hold rendered lines; draws counts Draws.
	warm  []*entry
	draws uint64

	// kept is what each row showed after the last draw, for a chat-only
	// frame (drawn over the last frame's cells) to redraw only the rows
	// that changed: while an answer streams, the last line or two.
	// keptFrame is the cell buffer's frame they are in (0: none);
	// keptRect the area they were drawn in.
	kept      []keptRow
	keptFrame uint64
	keptRect  [4]int

	// clears counts Clear's calls; afterDraw runs once after the next
	// draw (Backfill).
	clears    uint64
	afterDraw func()

	// OnCopy receives the text of a copied item.
	OnCopy func(it Item, text string)
	// OnLeave runs when the user leaves the list (back to the input);
	// onTypeThrough when they type text the list has no use for.
	OnLeave       func()
	OnTypeThrough func(ev *tcell.EventKey)
}

func NewMessageList(ctx *Ctx, keys *keymap.Table) *MessageList {
	l := &MessageList{Box: tview.NewBox(), ctx: ctx, keys: keys, follow: true, sel: -1}
	l.SetBackgroundColor(ctx.Th.Background)
	return l
}

// Append adds an item at the end. A following list shows it at the bottom:
// jumping ahead (pinned) is for an answer that grows line by line, and an
// item added whole to a full view (a notice after a resumed session opens)
// would otherwise leave three quarters of the view empty.
func (l *MessageList) Append(it Item) {
	l.entries = append(l.entries, &entry{item: it})
	l.pinned = false
}

// Remove drops it from the list, if present.
func (l *MessageList) Remove(it Item) {
	for i, e := range l.entries {
		if e.item == it {
			l.entries = append(l.entries[:i], l.entries[i+1:]...)
			if l.sel >= i {
				l.sel--
			}
			if !l.follow && l.top >= i && l.top > 0 {
				l.top--
				l.topOff = 0
			}
			return
		}
	}
}

// Clear empties the list.
func (l *MessageList) Clear() {
	l.clears++
	l.afterDraw = nil
	l.entries, l.warm = nil, nil
	l.follow, l.top, l.topOff, l.sel, l.pinned = true, 0, 0, -1, false
}

// Settle puts the newest row back at the bottom when following (after a
// stream ended with the view jumped ahead of it).
func (l *MessageList) Settle() { l.pinned = false }

// Len is the number of items.
func (l *MessageList) Len() int { return len(l.entries) }

// Item returns the i-th item.
func (l *MessageList) Item(i int) Item { return l.entries[i].item }

// Selected returns the selected item or nil.
func (l *MessageList) Selected() Item {
	if l.sel < 0 || l.sel >= len(l.entries) {
		return nil
	}
	return l.entries[l.sel].item
}

// Following reports whether the list sticks to the newest item.
func (l *MessageList) Following() bool { return l.follow }

// blockHeight is entry i's rows: its lines plus a blank separator after all
// but the last.
func (l *MessageList) blockHeight(i int) int {
	h := len(l.lines(l.entries[i]))
	if i < len(l.entries)-1 {
		h++
	}
	return h
}

func (l *MessageList) contentWidth() int {
	w := l.width - gutter - 1 // a column of margin on the right
	if w < 1 {
		w = 1
	}
	return w
}

// anchorFromBottom places the anchor so the last item ends on the last row.
func (l *MessageList) anchorFromBottom() { l.anchorAbove(0) }

// anchorAbove places the anchor so the last item ends slack rows above the
// last row.
func (l *MessageList) anchorAbove(slack int) {
	need := l.height - slack
	i := len(l.entries) - 1
	for ; i >= 0; i-- {
		h := l.blockHeight(i)
		if h >= need {
			l.top, l.topOff = i, h-need
			return
		}
		need -= h
	}
	l.top, l.topOff = 0, 0
}

// restFits reports whether everything from the anchor down fits in view.
func (l *MessageList) restFits() bool {
	left := l.height + l.topOff
	for i := l.top; i < len(l.entries); i++ {
		left -= l.blockHeight(i)
		if left < 0 {
			return false
		}
	}
	return true
}

// ScrollBy moves the view by n rows (negative: towards older items).
func (l *MessageList) ScrollBy(n int) {
	if len(l.entries) == 0 || n == 0 {
		return
	}
	if l.follow {
		if n > 0 {
			return
		}
		l.showAnchor()
		l.follow = false
	}
	l.topOff += n
	for l.topOff < 0 && l.top > 0 {
		l.top--
		l.topOff += l.blockHeight(l.top)
	}
	if l.topOff < 0 {
		l.topOff = 0
	}
	for l.top < len(l.entries)-1 && l.topOff >= l.blockHeight(l.top) {
		l.topOff -= l.blockHeight(l.top)
		l.top++
	}
	if l.restFits() {
		l.follow = true
	}
}

// ScrollToBottom returns to following the newest item.
func (l *MessageList) ScrollToBottom() { l.follow, l.pinned = true, false }

// showAnchor makes the anchor the one the view shows while following.
func (l *MessageList) showAnchor() {
	if !l.pinned || l.top >= len(l.entries) {
		l.anchorFromBottom()
	}
}

// followAnchor places the anchor while following: at the bottom when not
// pinned; else where it is while the rows below it fit, and when they no
// longer do, so the newest row is a quarter of the way down the view.
func (l *MessageList) followAnchor() {
	if !l.pinned || l.top >= len(l.entries) || l.topOff >= l.blockHeight(l.top) {
		l.anchorFromBottom()
		l.pinned = true
		return
	}
	if !l.restFits() {
		l.anchorAbove(l.height * 3 / 4)
	}
}

// ScrollToTop shows the oldest item.
func (l *MessageList) ScrollToTop() {
	l.follow, l.top, l.topOff = false, 0, 0
	if l.restFits() {
		l.follow = true
	}
}

// Select selects entry i (clamped) and scrolls it into view; -1 clears.
func (l *MessageList) Select(i int) {
	if i < 0 || len(l.entries) == 0 {
		l.sel = -1
		return
	}
	if i >= len(l.entries) {
		i = len(l.entries) - 1
	}
	l.sel = i
	l.reveal(i)
}

// SelectLast selects the newest item.
func (l *MessageList) SelectLast() { l.Select(len(l.entries) - 1) }

// reveal scrolls so entry i is in view, its top first when it is taller
// than the view.
func (l *MessageList) reveal(i int) {
	if l.height <= 0 {
		return
	}
	if l.follow {
		l.showAnchor()
	}
	if i < l.top || (i == l.top && l.topOff > 0) {
		l.follow, l.top, l.topOff = false, i, 0
		if l.restFits() {
			l.follow = true
		}
		return
	}
	// Rows from the anchor to the end of entry i.
	rows := -l.topOff
	for j := l.top; j <= i; j++ {
		rows += l.blockHeight(j)
	}
	if i < len(l.entries)-1 {
		rows-- // the separator need not show
	}
	if rows <= l.height {
		if l.restFits() {
			l.follow = true
		}
		return
	}
	// Bottom-align entry i, or top-align it when it is taller than the view.
	h := l.blockHeight(i)
	if i < len(l.entries)-1 {
		h--
	}
	l.follow = false
	if h >= l.height {
		l.top, l.topOff = i, 0
		return
	}
	need := l.height - h
	l.top, l.topOff = i, 0
	for j := i - 1; j >= 0 && need > 0; j-- {
		bh := l.blockHeight(j)
		if bh >= need {
			l.top, l.topOff = j, bh-need
			need = 0
			break
		}
		need -= bh
		l.top = j
	}
	if l.restFits() {
		l.follow = true
	}
}

// Draw draws the visible rows only.
func (l *MessageList) Draw(screen tcell.Screen) {
	l.draws++
	defer l.cool()
	if f := l.afterDraw; f != nil {
		l.afterDraw = nil
		defer f()
	}
	// No Box background fill: the app cleared the screen this frame, or,
	// in a chat-only frame, left the last one's cells, which the rows
	// below replace where they changed.
	x, y, w, h := l.GetInnerRect()
	if w != l.width || h != l.height {
		l.pinned = false // a new size starts from the bottom
	}
	l.width, l.height = w, h
	l.rows = l.rows[:0]
	buf, _ := screen.(*render.Buffer)
	partial := buf != nil && buf.Partial
	keep := partial && l.keptFrame == buf.Frame() && l.keptRect == [4]int{x, y, w, h} && len(l.kept) == h
	l.keptFrame = 0
	if w <= gutter || h <= 0 || len(l.entries) == 0 {
		if partial {
			buf.FillRect(x, y, w, h, ' ', l.background())
		}
		return
	}
	if !keep {
		l.kept = l.kept[:0]
		for range h {
			l.kept = append(l.kept, keptRow{})
		}
	}
	if l.follow {
		l.followAnchor()
	} else if l.top >= len(l.entries) {
		l.follow = true
		l.anchorFromBottom()
	}
	bar := tcell.StyleDefault.Foreground(l.ctx.Th.Accent)
	bg := l.background()
	// drawRow draws line (nil: nothing) in row, unless the row shows it
	// already.
	drawRow := func(row int, line render.Line, sel bool) {
		k := &l.kept[row]
		if keep && k.valid && k.sel == sel && k.line.Equal(line) {
			return
		}
		if partial {
			buf.FillRect(x, y+row, w, 1, ' ', bg)
		}
		if sel {
			screen.Put(x, y+row, "▌", bar)
		}
		render.DrawLine(screen, x+gutter, y+row, w-gutter, line)
		k.valid, k.sel, k.line = true, sel, append(k.line[:0], line...)
	}
	row := 0
	for i := l.top; i < len(l.entries) && row < h; i++ {
		lines := l.lines(l.entries[i])
		start := 0
		if i == l.top {
			start = l.topOff
		}
		for j := start; j < len(lines) && row < h; j++ {
			drawRow(row, lines[j], i == l.sel)
			l.rows = append(l.rows, rowRef{i, j})
			row++
		}
		if i < len(l.entries)-1 && row < h && start <= len(lines) {
			drawRow(row, nil, false)
			l.rows = append(l.rows, rowRef{-1, -1})
			row++
		}
	}
	for ; row < h; row++ {
		drawRow(row, nil, false)
	}
	if !l.follow && h > 1 {
		// Say that the newest items are below, so nothing seems lost.
		tag := " ↓ more below (PgDn, End) "
		tw := render.TextWidth(tag)
		if tw < w {
			render.DrawText(screen, x+w-tw, y+h-1, tw, tag, tcell.StyleDefault.Foreground(l.ctx.Th.Background).Background(l.ctx.Th.Accent))
			l.kept[h-1].valid = false
		}
	}
	if buf != nil {
		l.keptFrame, l.keptRect = buf.Frame()+1, [4]int{x, y, w, h}
	}
}

// keptRow is what a row of the list shows.
type keptRow struct {
	line  render.Line
	sel   bool
	valid bool
}

// forgetRows makes the next draw redraw every row: something else drew
// over the list (the input's completion popup).
func (l *MessageList) forgetRows() { l.keptFrame = 0 }

func (l *MessageList) background() tcell.Style {
	return tcell.StyleDefault.Background(l.ctx.Th.Background)
}

// InputHandler handles the Messages key table: selection, copy, expand, open.
func (l *MessageList) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return l.WrapInputHandler(func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		if l.sel < 0 && len(l.entries) > 0 {
			l.SelectLast()
		}
		switch l.keys.Action(ev) {
		case actMessagesUp:
			if l.sel > 0 {
				l.Select(l.sel - 1)
			}
		case actMessagesDown:
			if l.sel < len(l.entries)-1 {
				l.Select(l.sel + 1)
			}
		case actMessagesPageUp:
			l.ScrollBy(-max(1, l.height-2))
			l.selectVisible()
		case actMessagesPageDown:
			l.ScrollBy(max(1, l.height-2))
			l.selectVisible()
		case actMessagesTop:
			l.ScrollToTop()
			l.Select(0)
		case actMessagesBottom:
			l.ScrollToBottom()
			l.SelectLast()
		case actMessagesCopy:
			if it := l.Selected(); it != nil && l.OnCopy != nil {
				l.OnCopy(it, it.CopyText())
			}
		case actMessagesCopyCode:
			if it, ok := l.Selected().(interface{ codeText(*Ctx) string }); ok && l.OnCopy != nil {
				if code := it.codeText(l.ctx); code != "" {
					l.OnCopy(l.Selected(), code)
				}
			}
		case actMessagesToggle:
			if t, ok := l.Selected().(toggler); ok {
				t.toggle()
			}
		case actMessagesOpen:
			if it := l.Selected(); it != nil {
				l.Activate(it, -1)
			}
		case actMessagesBack:
			l.sel = -1
			if l.OnLeave != nil {
				l.OnLeave()
			}
		default:
			// Typing text goes back to the input rather than nowhere.
			if ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModAlt|tcell.ModCtrl) == 0 && l.OnTypeThrough != nil {
				l.sel = -1
				l.OnTypeThrough(ev)
			}
		}
	})
}

// selectVisible moves the selection into view after a page scroll.
func (l *MessageList) selectVisible() {
	if len(l.rows) == 0 {
		return
	}
	first, last := -1, -1
	for _, r := range l.rows {
		if r.entry >= 0 {
			if first < 0 {
				first = r.entry
			}
			last = r.entry
		}
	}
	if l.sel < first || l.sel > last {
		if l.sel < first {
			l.sel = first
		} else {
			l.sel = last
		}
	}
}

// toggler is an item that expands and collapses (cards, reasoning).
type toggler interface{ toggle() }

// MouseHandler scrolls with the wheel and selects or activates on click.
func (l *MessageList) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return l.WrapMouseHandler(func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		if !l.InRect(mx, my) {
			return false, nil
		}
		switch action {
		case tview.MouseScrollUp:
			l.ScrollBy(-3)
			return true, nil
		case tview.MouseScrollDown:
			l.ScrollBy(3)
			return true, nil
		case tview.MouseLeftClick:
			_, y, _, _ := l.GetInnerRect()
			r := my - y
			if r >= 0 && r < len(l.rows) && l.rows[r].entry >= 0 {
				ref := l.rows[r]
				l.sel = ref.entry
				setFocus(l)
				{
					l.Activate(l.entries[ref.entry].item, ref.line)
				}
			}
			return true, nil
		}
		return false, nil
	})
}

// activate opens what a card drove, or toggles a fold row that was clicked.
// ScrollPages scrolls the list by dir pages (PgUp in the input: -1).
func (l *MessageList) ScrollPages(dir int) { l.ScrollBy(dir * max(1, l.height-2)) }

func (l *MessageList) Activate(it Item, line int) {
	switch it := it.(type) {
	case *Card:
		if line >= 0 && it.foldLine(line, l.lines(l.entries[l.sel])) {
			it.Toggle()
			return
		}
		if it.jump != nil {
			l.sel = -1
			it.jump()
			return
		}
		it.Toggle()
	case *reasoningItem:
		it.toggle()
	case *compactItem:
		it.toggle()
	}
}
