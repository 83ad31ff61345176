package ui

import (
	"time"

	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/sessions"
)

// searchHistory is Ctrl-R in the chat: a picker over what the user sent
// — in this run first, then in every session of the project, newest
// first — narrowed as they type. Enter puts the prompt chosen in the
// input in place of what was there; Esc leaves the input as it was.
// The sessions are read off the UI goroutine and join the list when read.
func (t *Task) searchHistory() {
	a := t.app
	sent := t.input.History()
	p := a.Pick("Prompt history", sessions.HistoryItems(sent, nil, time.Now()), func(it picker.Item) {
		if text, ok := it.Value.(string); ok {
			t.input.SetText(text, true)
			t.input.UpdateCompletion()
		}
	})
	k, ok := t.keeper()
	if !ok {
		p.SetNote("this run only: fawn keeps no sessions here (no data directory)")
		return
	}
	store := k.Store()
	p.SetLoading(true)
	a.Go(func() {
		stored, err := store.Prompts()
		a.post(func() {
			p.SetLoading(false)
			if err != nil {
				p.SetNote("the sessions could not be read: " + err.Error())
			}
			p.SetItems(sessions.HistoryItems(sent, stored, time.Now()))
		})
	})
}
