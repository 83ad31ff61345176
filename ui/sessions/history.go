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
