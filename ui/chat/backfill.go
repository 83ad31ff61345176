package chat

import (
	"github.com/fawn-ide/fawn/session"
)

// A resumed session's chat is shown in two steps: the first frame has the
// last entries of its transcript (session.Log.Partial), and once that frame
// is out the rest is read and built off the UI goroutine and put above
// them, the view kept where it is, so that neither the first frame nor the
// user's scrolling waits for a long history.

// BackfillHost is what Backfill needs of the App.
type BackfillHost interface {
	// Go runs f on a goroutine of its own; QueueUpdate runs f on the UI
	// goroutine and redraws.
	Go(f func())
	QueueUpdate(f func())
}

// Backfill shows the rest of the chat of l, a lazily opened log whose last
// entries list shows already (from Transcript): a notice above them says
// the earlier messages are being read, and after the list's next draw they
// are read (l.Whole) and their items take the notice's place, unless the
// list was cleared since (another session shown). loaded, when set, runs
// on the UI goroutine with the log read whole; should the whole transcript
// not end with the entries shown, it is shown whole in their place
// (loaded is then called with ok false).
func Backfill(h BackfillHost, list *MessageList, reg *Registry, l *session.Log, open func(path string), loaded func(full *session.Log, ok bool)) {
	if !l.Partial() {
		return
	}
	wait := &Notice{Kind: NoticeInfo, Text: "reading the earlier messages of this session…"}
	list.Prepend([]Item{wait})
	gen := list.clears
	list.afterDraw = func() {
		h.Go(func() {
			full := l.Whole()
			older, ok := l.Older()
			var items []Item
			if ok {
				items = transcriptItems(reg, older, full.Transcript, open)
			} else {
				items = Transcript(reg, full, open)
			}
			h.QueueUpdate(func() {
				if list.clears != gen {
					return
				}
				if ok {
					list.replace(wait, items)
				} else {
					list.Clear()
					for _, it := range items {
						list.Append(it)
					}
					list.ScrollToBottom()
				}
				if loaded != nil {
					loaded(full, ok)
				}
			})
		})
	}
}

// Prepend puts items before the first item. The view shows what it showed:
// the bottom while following, else the same rows.
func (l *MessageList) Prepend(items []Item) {
	if len(l.entries) == 0 {
		for _, it := range items {
			l.Append(it)
		}
		return
	}
	l.splice(0, 0, items)
}

// replace puts items in old's place. The view shows what it showed, or,
// when old is the first item shown, the first of items there.
func (l *MessageList) replace(old Item, items []Item) {
	for i, e := range l.entries {
		if e.item == old {
			l.splice(i, 1, items)
			return
		}
	}
}

// splice replaces the drop entries from i by items, keeping the anchor,
// the selection and the rows of the last draw on their entries.
func (l *MessageList) splice(i, drop int, items []Item) {
	entries := make([]*entry, 0, len(l.entries)-drop+len(items))
	entries = append(entries, l.entries[:i]...)
	for _, it := range items {
		entries = append(entries, &entry{item: it})
	}
	entries = append(entries, l.entries[i+drop:]...)
	l.entries = entries
	moved := func(j int) int {
		switch {
		case j >= i+drop:
			return j - drop + len(items)
		case j >= i: // a dropped entry: the first of items
			return min(i, len(entries)-1)
		}
		return j
	}
	if l.top >= i && l.top < i+drop {
		l.topOff = 0
	}
	l.top = moved(l.top)
	if l.sel >= 0 {
		l.sel = moved(l.sel)
	}
	for k := range l.rows {
		if l.rows[k].entry >= 0 {
			l.rows[k].entry = moved(l.rows[k].entry)
		}
	}
}
