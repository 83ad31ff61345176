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
// entries list shows already (from Transcript): after the list's next
// draw, the older entries are read (l.Whole) and their items put above
// the others, unless the list was cleared since (another session shown).
// loaded, when set, runs on the UI goroutine with the log read whole;
// should the whole transcript not end with the entries shown, it is
// shown whole in their place (loaded is then called with ok false).
func Backfill(h BackfillHost, list *MessageList, reg *Registry, l *session.Log, open func(path string), loaded func(full *session.Log, ok bool)) {
	if !l.Partial() {
		return
	}
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
					list.Prepend(items)
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
	if len(items) == 0 {
		return
	}
	entries := make([]*entry, 0, len(items)+len(l.entries))
	for _, it := range items {
		entries = append(entries, &entry{item: it})
	}
	n := len(items)
	if len(l.entries) > 0 {
		l.top += n // the anchor's entry moved down
	}
	l.entries = append(entries, l.entries...)
	if l.sel >= 0 {
		l.sel += n
	}
	for i := range l.rows {
		if l.rows[i].entry >= 0 {
			l.rows[i].entry += n
		}
	}
}
