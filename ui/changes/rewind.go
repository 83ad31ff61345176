package changes

import (
	"fmt"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/sessions"
)

// PickRewind is /rewind (and Esc Esc): it lists the session's prompts
// (and rewinds, to undo), newest first, the newest selected.
func (tr *Tracker) PickRewind() {
	b := tr.book()
	if b == nil {
		return
	}
	turns := b.Turns()
	byID := map[int]checkpoint.Turn{}
	for _, t := range turns {
		byID[t.ID] = t
	}
	now := time.Now()
	var items []picker.Item
	for i := len(turns) - 1; i >= 0; i-- {
		t := turns[i]
		var label string
		switch t.Kind {
		case checkpoint.KindPrompt:
			label = "› " + firstLine(t.Prompt, 60)
		case checkpoint.KindRewind:
			label = "↶ rewind to before “" + firstLine(byID[t.Of].Prompt, 40) + "” (undo it)"
		case checkpoint.KindRevert:
			label = "↶ revert (undo it)"
		case checkpoint.KindUndo:
			label = "↷ undo"
		default:
			continue
		}
		if t.Kind != checkpoint.KindPrompt && len(t.Changes) == 0 {
			continue
		}
		items = append(items, picker.Item{Label: label, Detail: sessions.Age(t.Time, now) + " · " + turnFiles(t), Value: t})
	}
	p := tr.h.Pick("Rewind to before a prompt", items, func(it picker.Item) {
		t := it.Value.(checkpoint.Turn)
		if t.Kind == checkpoint.KindPrompt {
			tr.askRewind(b, t)
			return
		}
		tr.h.Ask("Undo", fmt.Sprintf("Put back what this %s changed (%s)? A conversation it dropped stays dropped.", t.Kind, turnFiles(t)),
			dialogs.Choice{Key: "enter", Label: "undo it", Do: func() {
				tr.restoreFiles("undo", func(force map[string]bool) (checkpoint.Result, error) { return b.Undo(t.ID, force) })
			}},
			dialogs.Choice{Key: "esc", Label: "cancel", Do: func() {}})
	})
	if len(items) == 0 {
		p.SetNote("no prompts in this session yet")
	}
}

// askRewind asks what to rewind to before prompt t.
func (tr *Tracker) askRewind(b *checkpoint.Book, t checkpoint.Turn) {
	tr.h.Ask("Rewind", fmt.Sprintf("Back to just before “%s” (%s).", firstLine(t.Prompt, 50), turnFiles(t)),
		dialogs.Choice{Key: "enter", Label: "code and conversation", Do: func() { tr.rewindTo(b, t, true, true) }},
		dialogs.Choice{Key: "c", Label: "conversation only", Do: func() { tr.rewindTo(b, t, false, true) }},
		dialogs.Choice{Key: "f", Label: "files only", Do: func() { tr.rewindTo(b, t, true, false) }},
		dialogs.Choice{Key: "esc", Label: "cancel", Do: func() {}})
}

// rewindTo goes back to before prompt t: the files, the conversation, or
// both.
func (tr *Tracker) rewindTo(b *checkpoint.Book, t checkpoint.Turn, code, conv bool) {
	if conv {
		if err := tr.rewind.RewindConversation(t.Messages, t.Prompt); err != nil {
			tr.h.Error("could not rewind the conversation: " + err.Error())
			return
		}
		tr.h.ReloadChat()
		tr.h.SetInput(t.Prompt)
		tr.h.Info(fmt.Sprintf("the conversation is back to before “%s”: the prompt is in the input, to edit and send again", firstLine(t.Prompt, 50)))
	}
	if code {
		tr.restoreFiles("rewind", func(force map[string]bool) (checkpoint.Result, error) { return b.Rewind(t.ID, force) })
	}
}

// PickChange is /diff: it lists the files changed in the session, newest
// first; Enter shows the file's diff against the session's start.
func (tr *Tracker) PickChange() {
	b := tr.book()
	if b == nil {
		return
	}
	now := time.Now()
	var items []picker.Item
	for _, r := range panes.ChangeRows(b) {
		detail := r.By + " · " + sessions.Age(r.When, now)
		if r.Counted {
			detail = fmt.Sprintf("+%d −%d · %s", r.Plus, r.Minus, detail)
		}
		if r.State != "" {
			detail = r.State + " · " + detail
		}
		items = append(items, picker.Item{Label: r.Path, Detail: detail, Value: r.Path})
	}
	p := tr.h.Pick("Changed in this session", items, func(it picker.Item) { tr.showChange(b, it.Value.(string)) })
	if len(items) == 0 {
		p.SetNote("nothing changed in this session yet")
	}
}

// turnFiles says which files a turn changed.
func turnFiles(t checkpoint.Turn) string {
	seen := map[string]bool{}
	var names []string
	for _, c := range t.Changes {
		if !seen[c.Path] {
			seen[c.Path] = true
			names = append(names, c.Path)
		}
	}
	if len(names) == 0 {
		return "no files changed"
	}
	if len(names) > 3 {
		return fmt.Sprintf("%s: %s, …", words.Plural(len(names), "file", "files"), strings.Join(names[:3], ", "))
	}
	return fmt.Sprintf("%s: %s", words.Plural(len(names), "file", "files"), strings.Join(names, ", "))
}

func firstLine(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}
