package sessions

import (
	"strings"
	"time"

	"github.com/fawn-ide/fawn/internal/safetext"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/ui/picker"
)

// maxLabel is how much of a prompt the search matches and shows: more
// than a row, so that words well into a long prompt find it.
const maxLabel = 400

// HistoryItems are the choices of the prompt history search (Ctrl-R in
// the chat): what was sent from the input in this run (sent, oldest
// first; its commands, "!" runs and "#" notes too), then the prompts of
// the project's sessions (stored, newest first), each text once. Each
// item's Value is the text to put back in the input.
func HistoryItems(sent []string, stored []session.Prompt, now time.Time) []picker.Item {
	seen := map[string]bool{}
	var items []picker.Item
	add := func(text, detail string) {
		if strings.TrimSpace(text) == "" || seen[text] {
			return
		}
		seen[text] = true
		label := safetext.Line(strings.Join(strings.Fields(text), " "))
		if r := []rune(label); len(r) > maxLabel {
			label = string(r[:maxLabel-1]) + "…"
		}
		items = append(items, picker.Item{Label: label, Detail: detail, Value: text})
	}
	for i := len(sent) - 1; i >= 0; i-- {
		add(sent[i], "sent in this run")
	}
	for _, p := range stored {
		add(p.Text, Age(p.Time, now)+" · "+p.Session[:min(8, len(p.Session))])
	}
	return items
}

// SearchHost is what the prompt history search needs of the frame: a
// picker over the panes, and goroutines (*ui.App gives them).
type SearchHost interface {
	Pick(title string, items []picker.Item, onPick func(picker.Item)) *picker.Picker
	Go(f func())
	Post(f func())
}

// PromptStore is where the project's sessions are kept (*session.Store).
type PromptStore interface {
	Prompts() ([]session.Prompt, error)
}

// SearchPrompts is Ctrl-R in the chat: a picker over what the user sent
// — in this run first (sent), then in every session of the project
// (store; nil when fawn keeps none), newest first — narrowed as they
// type. The prompt chosen goes to use; Esc leaves everything as it was.
// The sessions are read off the UI goroutine and join the list when read.
func SearchPrompts(h SearchHost, sent []string, store PromptStore, use func(text string)) {
	p := h.Pick("Prompt history", HistoryItems(sent, nil, time.Now()), func(it picker.Item) {
		if text, ok := it.Value.(string); ok {
			use(text)
		}
	})
	if store == nil {
		p.SetNote("this run only: fawn keeps no sessions here (no data directory)")
		return
	}
	p.SetLoading(true)
	h.Go(func() {
		stored, err := store.Prompts()
		h.Post(func() {
			p.SetLoading(false)
			if err != nil {
				p.SetNote("the sessions could not be read: " + err.Error())
			}
			p.SetItems(HistoryItems(sent, stored, time.Now()))
		})
	})
}
