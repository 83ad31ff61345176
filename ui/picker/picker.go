// Package picker owns fawn's fuzzy picker: a modal list of choices with a
// query line that narrows them as the user types (the characters in order,
// anywhere, ranked by Score), the current choice marked, a detail per item,
// and Enter to choose or Esc to back out. The /mode and /model pickers use
// it; any list the user chooses one thing from (sessions to resume,
// checkpoints to rewind to) can. Items may arrive while it is open
// (SetItems), e.g. the models a server lists.
//
// It is a tview primitive drawn over the panes; it runs on the UI goroutine.
//
// Its keys are a keymap table (DefaultKeys) the user's bindings rebind.
//
// It imports ui/theme, ui/keymap and internal/safetext, never ui; ui,
// ui/changes, ui/chat, ui/commands, ui/editor, ui/sessions and cmd/fawn
// import it.
package picker

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"github.com/rivo/uniseg"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/theme"
)

// Item is one choice.
type Item struct {
	// Label is what the query matches and the list shows: "gpt-4o".
	Label string
	// Detail is shown dimmed after the label: "openai · from the config".
	Detail string
	// Current marks the choice in force (drawn with a dot).
	Current bool
	// Value is the caller's, handed back with the item.
	Value any
}

// Picker is the modal list. Build it with New, set OnPick (and OnCancel),
// and draw it over the screen while it is open.
type Picker struct {
	*tview.Box
	th    *theme.Theme
	title string
	items []Item

	query   string
	shown   []int // indexes into items, best match first
	sel     int   // index into shown
	offset  int
	rows    int // list rows at the last draw
	listY   int // screen row of the first list row at the last draw
	loading bool
	note    string

	// OnPick receives the chosen item; the picker has closed already.
	OnPick func(Item)
	// OnCancel runs when the user backs out with Esc (or a click outside).
	OnCancel func()
	closed   bool
	keys     *keymap.Table // DefaultKeys, or the app's with the user's bindings
}

// New returns an open picker titled title over items, the current item
// selected.
func New(th *theme.Theme, title string, items []Item) *Picker {
	p := &Picker{Box: tview.NewBox(), th: th, title: title, keys: DefaultKeys()}
	p.SetItems(items)
	return p
}

// SetKeys gives the picker the app's key table (DefaultKeys with the
// user's bindings).
func (p *Picker) SetKeys(keys *keymap.Table) {
	if keys != nil {
		p.keys = keys
	}
}

// SetItems replaces the choices, keeping the query and, when it is still
// there, the selected item.
func (p *Picker) SetItems(items []Item) {
	keep := ""
	if it, ok := p.Selected(); ok {
		keep = it.Label
	}
	p.items = append([]Item(nil), items...)
	p.filter()
	if keep != "" && p.selectLabel(keep) {
		return
	}
	if p.query == "" {
		for i, ix := range p.shown {
			if p.items[ix].Current {
				p.sel = i
			}
		}
	}
}

// Items returns the choices.
func (p *Picker) Items() []Item { return p.items }

// SetLoading says more items are coming ("…" after the count).
func (p *Picker) SetLoading(on bool) { p.loading = on }

// SetNote shows a line under the list: why some items are missing, an error.
func (p *Picker) SetNote(note string) { p.note = note }

// Note is the line shown under the list.
func (p *Picker) Note() string { return p.note }

// Query is what the user typed.
func (p *Picker) Query() string { return p.query }

// SetQuery types q into the query line.
func (p *Picker) SetQuery(q string) {
	p.query = q
	p.filter()
}

// Selected returns the highlighted item.
func (p *Picker) Selected() (Item, bool) {
	if p.sel < 0 || p.sel >= len(p.shown) {
		return Item{}, false
	}
	return p.items[p.shown[p.sel]], true
}

// Shown returns the items that match the query, in the order shown.
func (p *Picker) Shown() []Item {
	out := make([]Item, len(p.shown))
	for i, ix := range p.shown {
		out[i] = p.items[ix]
	}
	return out
}

// Open reports whether the picker is still open.
func (p *Picker) Open() bool { return !p.closed }

func (p *Picker) selectLabel(label string) bool {
	for i, ix := range p.shown {
		if p.items[ix].Label == label {
			p.sel = i
			return true
		}
	}
	return false
}

// filter ranks the items for the query: all of them in their order when it
// is empty, else the matching ones best first (ties keep their order).
func (p *Picker) filter() {
	p.shown = p.shown[:0]
	q := []rune(strings.ToLower(strings.TrimSpace(p.query)))
	type scored struct{ ix, score int }
	var got []scored
	for i, it := range p.items {
		if s, ok := Score(it.Label, q, nil); ok {
			got = append(got, scored{i, s})
		}
	}
	if len(q) > 0 {
		slices.SortStableFunc(got, func(a, b scored) int { return b.score - a.score })
	}
	for _, g := range got {
		p.shown = append(p.shown, g.ix)
	}
	p.sel, p.offset = 0, 0
}

func (p *Picker) move(n int) {
	if len(p.shown) == 0 {
		return
	}
	p.sel = max(0, min(len(p.shown)-1, p.sel+n))
}

func (p *Picker) pick() {
	it, ok := p.Selected()
	if !ok {
		return
	}
	p.closed = true
	if p.OnPick != nil {
		p.OnPick(it)
	}
}

func (p *Picker) cancel() {
	p.closed = true
	if p.OnCancel != nil {
		p.OnCancel()
	}
}

// HandleKey applies one key: arrows and PgUp/PgDn move, Enter chooses, Esc
// backs out, anything typed narrows the list.
func (p *Picker) HandleKey(ev *tcell.EventKey) {
	switch p.keys.Action(ev) {
	case ActCancel:
		p.cancel()
	case ActPick:
		p.pick()
	case ActUp:
		p.move(-1)
	case ActDown:
		p.move(1)
	case ActPageUp:
		p.move(-max(1, p.rows-1))
	case ActPageDown:
		p.move(max(1, p.rows-1))
	case ActFirst:
		p.sel = 0
	case ActLast:
		p.sel = max(0, len(p.shown)-1)
	case ActErase:
		if r := []rune(p.query); len(r) > 0 {
			p.SetQuery(string(r[:len(r)-1]))
		}
	case ActClear:
		p.SetQuery("")
	default:
		if ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) == 0 {
			p.SetQuery(p.query + string(ev.Rune()))
		}
	}
}

func (p *Picker) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return func(ev *tcell.EventKey, _ func(tview.Primitive)) { p.HandleKey(ev) }
}

func (p *Picker) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return func(text string, _ func(tview.Primitive)) {
		p.SetQuery(p.query + strings.Join(strings.Fields(text), " "))
	}
}

func (p *Picker) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, ev *tcell.EventMouse, _ func(tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		switch action {
		case tview.MouseScrollUp:
			p.move(-1)
		case tview.MouseScrollDown:
			p.move(1)
		case tview.MouseLeftClick:
			if !p.InRect(mx, my) {
				p.cancel()
				break
			}
			if i := p.offset + my - p.listY; my >= p.listY && my < p.listY+p.rows && i < len(p.shown) {
				p.sel = i
				p.pick()
			}
		}
		return true, nil
	}
}

// box returns where the picker draws inside the area it was given, and
// whether a row under the list shows the selected item's whole detail.
func (p *Picker) box() (x, y, w, h int, detailRow bool) {
	ax, ay, aw, ah := p.Box.GetRect()
	labels, details := 0, 0
	for _, it := range p.items {
		labels, details = max(labels, width(it.Label)), max(details, width(it.Detail))
	}
	w = min(aw-4, max(40, labels+details+10), 100)
	h = min(ah-2, len(p.items)+3, 22)
	detailRow = labels+details+10 > w
	extra := len(wrap(p.note, w-4))
	if detailRow {
		extra++
	}
	h = min(ah-2, h+extra)
	h = max(h, min(ah, 6))
	return ax + (aw-w)/2, ay + max(0, (ah-h)/3), w, h, detailRow
}

// wrap breaks text into rows of at most width cells at spaces (inside a
// word only when it is longer than a row); at most 3 rows, the last ending
// in "…" when more was left.
func wrap(text string, cols int) []string {
	if text == "" || cols < 4 {
		return nil
	}
	var rows []string
	line := ""
	for _, word := range strings.Fields(text) {
		for width(word) > cols {
			if line != "" {
				rows, line = append(rows, line), ""
			}
			cut := cutAt(word, cols)
			rows, word = append(rows, word[:cut]), word[cut:]
		}
		switch {
		case line == "":
			line = word
		case width(line)+1+width(word) <= cols:
			line += " " + word
		default:
			rows, line = append(rows, line), word
		}
	}
	if line != "" {
		rows = append(rows, line)
	}
	if len(rows) > 3 {
		last := []rune(rows[2])
		rows = append(rows[:2], string(last[:max(0, min(len(last), cols-1))])+"…")
	}
	return rows
}

// cutAt is the byte offset of the first n cells of s.
func cutAt(s string, n int) int {
	used, off := 0, 0
	state := -1
	for off < len(s) {
		g, _, w, st := uniseg.FirstGraphemeClusterInString(s[off:], state)
		if used+w > n {
			break
		}
		used, off, state = used+w, off+len(g), st
	}
	return max(off, 1)
}

// InRect reports whether x, y is on the picker itself.
func (p *Picker) InRect(x, y int) bool {
	bx, by, bw, bh, _ := p.box()
	return x >= bx && x < bx+bw && y >= by && y < by+bh
}

// Draw draws the picker centred in its rect.
func (p *Picker) Draw(screen tcell.Screen) {
	x, y, w, h, detailRow := p.box()
	if w < 12 || h < 4 {
		return
	}
	th := p.th
	base := tcell.StyleDefault.Foreground(th.Foreground).Background(th.CursorLine)
	dim := base.Foreground(th.Dim)
	border := base.Foreground(th.Accent)
	for row := y; row < y+h; row++ {
		for col := x; col < x+w; col++ {
			screen.Put(col, row, " ", base)
		}
	}
	for col := x + 1; col < x+w-1; col++ {
		screen.Put(col, y, "─", border)
		screen.Put(col, y+h-1, "─", border)
	}
	for row := y + 1; row < y+h-1; row++ {
		screen.Put(x, row, "│", border)
		screen.Put(x+w-1, row, "│", border)
	}
	screen.Put(x, y, "╭", border)
	screen.Put(x+w-1, y, "╮", border)
	screen.Put(x, y+h-1, "╰", border)
	screen.Put(x+w-1, y+h-1, "╯", border)
	put(screen, x+2, y, w-4, " "+p.title+" ", border.Bold(true))

	// The query line.
	qx := x + 2 + put(screen, x+2, y+1, w-4, "> ", border.Bold(true))
	qw := put(screen, qx, y+1, x+w-2-qx, p.query, base)
	if p.query == "" {
		put(screen, qx, y+1, x+w-2-qx, "type to filter", dim.Italic(true))
	}
	screen.ShowCursor(qx+qw, y+1)

	// The list.
	p.listY = y + 2
	p.rows = h - 3
	// Under the list: the note, and the selected item's detail when the
	// details do not fit their rows, each whole.
	var below []string
	if it, ok := p.Selected(); ok && detailRow && it.Detail != "" {
		below = append(below, wrap(it.Detail, w-4)[0:1]...)
		if d := wrap(it.Detail, w-4); len(d) > 1 {
			below = d
		}
	}
	below = append(below, wrap(p.note, w-4)...)
	for len(below) > 0 && p.rows-len(below) < 1 {
		below = below[1:]
	}
	p.rows -= len(below)
	for i, l := range below {
		put(screen, x+2, y+h-1-len(below)+i, w-4, l, dim.Italic(true))
	}
	if p.sel < p.offset {
		p.offset = p.sel
	}
	if p.sel >= p.offset+p.rows {
		p.offset = p.sel - p.rows + 1
	}
	q := strings.TrimSpace(p.query)
	// Details line up in a column when the labels leave room for it.
	detailX := 0
	for _, ix := range p.shown {
		detailX = max(detailX, width(p.items[ix].Label))
	}
	detailX += x + 6
	if detailX > x+w/2 {
		detailX = 0
	}
	for i := 0; i < p.rows && p.offset+i < len(p.shown); i++ {
		it := p.items[p.shown[p.offset+i]]
		row := p.listY + i
		st := base
		if p.offset+i == p.sel {
			st = base.Background(th.Selection)
			for col := x + 1; col < x+w-1; col++ {
				screen.Put(col, row, " ", st)
			}
		}
		mark := "  "
		if it.Current {
			mark = "● "
		}
		col := x + 2 + put(screen, x+2, row, w-4, mark, st.Foreground(th.Accent))
		end := x + w - 2
		pos := Positions(it.Label, q)
		pi := 0
		for off, r := range it.Label {
			if col >= end {
				break
			}
			cs := st
			if pi < len(pos) && pos[pi] == off {
				cs = cs.Foreground(th.Accent).Bold(true)
				pi++
			}
			col += put(screen, col, row, end-col, string(r), cs)
		}
		if dx := max(col+2, detailX); it.Detail != "" && dx+1 < end {
			put(screen, dx, row, end-dx, it.Detail, st.Foreground(th.Dim))
		}
	}
	if len(p.shown) == 0 {
		msg := "nothing matches"
		if p.loading {
			msg = "loading…"
		}
		put(screen, x+2, p.listY, w-4, msg, dim)
	}
	count := fmt.Sprintf(" %d/%d", len(p.shown), len(p.items))
	if p.loading {
		count += " …"
	}
	hint := count + " · ↑↓ Enter Esc "
	put(screen, x+w-2-width(hint), y+h-1, width(hint), hint, dim)
}

// width is how many cells put takes to draw s.
func width(s string) int { return uniseg.StringWidth(safetext.Line(s)) }

// put draws s from x in at most w cells and returns the cells used.
// Control characters (items may come from a server or a file) show as
// safetext shows them (␛), never raw.
func put(screen tcell.Screen, x, y, w int, s string, st tcell.Style) int {
	s = safetext.Line(s)
	used := 0
	state := -1
	for s != "" {
		var g string
		var gw int
		g, s, gw, state = uniseg.FirstGraphemeClusterInString(s, state)
		if used+gw > w {
			break
		}
		screen.Put(x+used, y, g, st)
		used += gw
	}
	return used
}
