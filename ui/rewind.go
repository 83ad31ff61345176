package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/sessions"
)

// diffEditor is an editor that can show a diff in a tab (*editor.Tabs).
type diffEditor interface {
	ShowDiff(path string, before, after []byte, title string) error
	ShowsDiff(path string) bool
	LeaveDiff(path, why string)
}

// wireChanges connects the Changes tab and the editor's saves and reverts
// to the session's checkpoints.
func (a *App) wireChanges(t *Task) {
	r := t.svc.Rewind
	if r == nil {
		t.changes.SetNote("This agent does not record what it changes.")
		return
	}
	// Looking is fine while a turn runs; reverting waits for it (a.book).
	t.changes.OnDiff = func(path string) {
		if t.review != nil {
			t.review.diff(path)
			return
		}
		if b := r.Checkpoints(); b != nil {
			a.showChange(b, path)
		}
	}
	t.changes.OnOpen = func(path string) {
		b := r.Checkpoints()
		ed := t.EditorPane()
		if b == nil || ed == nil {
			return
		}
		if err := ed.Open(b.Abs(path), 0); err != nil {
			t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: err.Error()})
			return
		}
		a.focusOn(panes.Editor)
	}
	t.changes.OnRevert = func(path string) {
		if t.review != nil {
			t.review.diff(path)
			a.flash("R in the diff puts the file back as the base has it, r a hunk")
			return
		}
		b := a.book()
		if b == nil {
			return
		}
		a.ask.Ask("Revert", fmt.Sprintf("Put %s back as it was before this session changed it? /rewind lists the revert, to undo it.", path),
			dialogs.Choice{Key: "enter", Label: "revert it", Do: func() {
				a.restoreFiles("revert "+path, func(force map[string]bool) (checkpoint.Result, error) {
					return b.RevertFile(path, force[path])
				})
				if ed, ok := t.editor.(diffEditor); ok && ed.ShowsDiff(b.Abs(path)) {
					a.refreshChange(b, path)
				}
			}},
			dialogs.Choice{Key: "esc", Label: "cancel", Do: func() {}})
	}
	// What the user saves in the editor is a change of the session too,
	// made by "you": /diff lists it and a rewind takes it back with the rest.
	if ed, ok := t.editor.(interface {
		SetOnSave(func(path string, before []byte))
	}); ok {
		ed.SetOnSave(func(path string, before []byte) {
			if b := r.Checkpoints(); b != nil {
				a.Go(func() {
					err := b.Record(checkpoint.ByUser, path, before)
					a.post(func() {
						if err != nil && !strings.Contains(err.Error(), "outside the project") {
							t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "the save was not recorded for /diff and /rewind: " + err.Error()})
						}
						t.noteChanges()
					})
				})
			}
		})
	}
	// r and R in a diff of /diff revert a hunk or the file through the
	// checkpoints, which record it and will not clobber a hand edit.
	if ed, ok := t.editor.(interface {
		SetOnRevert(func(path string, content []byte, whole bool))
	}); ok {
		ed.SetOnRevert(func(path string, content []byte, whole bool) {
			b := a.book()
			if b == nil {
				return
			}
			rel, err := filepath.Rel(b.Root(), path)
			if err != nil || strings.HasPrefix(rel, "..") {
				t.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: path + " is outside the project: nothing to revert"})
				return
			}
			rel = filepath.ToSlash(rel)
			if t.review != nil && t.review.reviewing(rel) {
				t.review.revert(b, rel, content, whole)
				return
			}
			what := "revert a hunk of " + rel
			if whole {
				what = "revert " + rel
			}
			a.restoreFiles(what, func(force map[string]bool) (checkpoint.Result, error) {
				if whole {
					return b.RevertFile(rel, force[rel])
				}
				return b.Write(rel, content, force[rel])
			})
			a.refreshChange(b, rel)
		})
	}
}

// RevertFile is /revert: it puts path back as it was before this session
// changed it, through the checkpoints.
func (a *App) RevertFile(path string) {
	b := a.book()
	if b == nil {
		return
	}
	if path == "" {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "which file? /revert PATH (/diff lists the files changed)"})
		return
	}
	a.restoreFiles("revert "+path, func(force map[string]bool) (checkpoint.Result, error) {
		return b.RevertFile(path, force[path])
	})
}

// escape is Esc in the chat's input: it cancels a running turn; twice in
// a row on an empty input with nothing running, it opens /rewind.
func (a *App) escape() {
	if a.task.turnRunning() {
		a.task.cancelTurn()
		return
	}
	if n := a.task.chat.Pending.Drop(); n > 0 {
		a.flash(fmt.Sprintf("dropped: the output of %s will not be sent", words.Plural(n, "command", "commands")))
		return
	}
	now := time.Now()
	if a.task.input.GetText() == "" && now.Sub(a.task.lastEsc) < escEscWindow {
		a.task.lastEsc = time.Time{}
		if a.task.svc.Rewind != nil {
			a.PickRewind()
		}
		return
	}
	a.task.lastEsc = now
}

// escEscWindow is how quickly a second Esc must follow the first.
const escEscWindow = 600 * time.Millisecond

// book is the session's checkpoints, or nil (said in the chat).
func (a *App) book() *checkpoint.Book {
	r := a.task.svc.Rewind
	var b *checkpoint.Book
	if r != nil {
		b = r.Checkpoints()
	}
	if b == nil {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "changes are recorded only when sessions are kept (fawn has no data directory)"})
		return nil
	}
	if a.task.turnRunning() {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "a turn is running — press Esc to cancel it first"})
		return nil
	}
	return b
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

// PickRewind is /rewind (and Esc Esc): it lists the session's prompts (and rewinds, to undo), newest
// first, the newest selected.
func (a *App) PickRewind() {
	b := a.book()
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
	p := picker.New(&a.th, "Rewind to before a prompt", items)
	if len(items) == 0 {
		p.SetNote("no prompts in this session yet")
	}
	a.openPicker(p)
	p.OnPick = func(it picker.Item) {
		t := it.Value.(checkpoint.Turn)
		if t.Kind == checkpoint.KindPrompt {
			a.askRewind(b, t)
			return
		}
		a.ask.Ask("Undo", fmt.Sprintf("Put back what this %s changed (%s)? A conversation it dropped stays dropped.", t.Kind, turnFiles(t)),
			dialogs.Choice{Key: "enter", Label: "undo it", Do: func() {
				a.restoreFiles("undo", func(force map[string]bool) (checkpoint.Result, error) { return b.Undo(t.ID, force) })
			}},
			dialogs.Choice{Key: "esc", Label: "cancel", Do: func() {}})
	}
}

// askRewind asks what to rewind to before prompt t.
func (a *App) askRewind(b *checkpoint.Book, t checkpoint.Turn) {
	a.ask.Ask("Rewind", fmt.Sprintf("Back to just before “%s” (%s).", firstLine(t.Prompt, 50), turnFiles(t)),
		dialogs.Choice{Key: "enter", Label: "code and conversation", Do: func() { a.rewind(b, t, true, true) }},
		dialogs.Choice{Key: "c", Label: "conversation only", Do: func() { a.rewind(b, t, false, true) }},
		dialogs.Choice{Key: "f", Label: "files only", Do: func() { a.rewind(b, t, true, false) }},
		dialogs.Choice{Key: "esc", Label: "cancel", Do: func() {}})
}

// rewind goes back to before prompt t: the files, the conversation, or both.
func (a *App) rewind(b *checkpoint.Book, t checkpoint.Turn, code, conv bool) {
	if conv {
		if err := a.task.svc.Rewind.RewindConversation(t.Messages, t.Prompt); err != nil {
			a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "could not rewind the conversation: " + err.Error()})
			return
		}
		a.reloadChat()
		a.task.input.SetText(t.Prompt, true)
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: fmt.Sprintf("the conversation is back to before “%s”: the prompt is in the input, to edit and send again", firstLine(t.Prompt, 50))})
	}
	if code {
		a.restoreFiles("rewind", func(force map[string]bool) (checkpoint.Result, error) { return b.Rewind(t.ID, force) })
	}
}

// reloadChat shows the session's conversation as it is on disk.
func (a *App) reloadChat() {
	k, ok := a.task.keeper()
	if !ok {
		return
	}
	l, err := k.Store().Load(k.ID())
	if err != nil {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: "could not reload the chat: " + err.Error()})
		return
	}
	a.task.list.Clear()
	for _, it := range a.task.transcript(l) {
		a.task.list.Append(it)
	}
	a.task.todos.SetItems(a.task.agent.Todos())
	a.task.noteChanges()
	a.task.list.ScrollToBottom()
}

// restoreFiles runs a restore, says what it did, and asks before
// overwriting files changed by hand since (then runs it again, forcing them).
func (a *App) restoreFiles(what string, run func(force map[string]bool) (checkpoint.Result, error)) {
	defer a.task.noteChanges()
	res, err := run(nil)
	if err != nil {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: what + ": " + err.Error()})
		return
	}
	a.reportRestore(what, res)
	if len(res.Conflicts) == 0 {
		return
	}
	var names []string
	force := map[string]bool{}
	for _, c := range res.Conflicts {
		names = append(names, c.Path)
		force[c.Path] = true
	}
	a.ask.Ask("Changed by hand", fmt.Sprintf("%s changed since the agent's version, so %s left alone: %s.",
		words.Plural(len(names), "file was", "files were"), map[bool]string{true: "it was", false: "they were"}[len(names) == 1], strings.Join(names, ", ")),
		dialogs.Choice{Key: "v", Label: "view the three versions, file by file, and choose", Do: func() {
			a.showConflicts(what, run, res.Conflicts)
		}},
		dialogs.Choice{Key: "o", Label: "overwrite with the earlier version", Do: func() {
			defer a.task.noteChanges()
			res, err := run(force)
			if err != nil {
				a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: what + ": " + err.Error()})
				return
			}
			a.reportRestore(what, res)
		}},
		dialogs.Choice{Key: "esc", Label: "keep them as they are", Do: func() {}})
}

func (a *App) reportRestore(what string, res checkpoint.Result) {
	if len(res.Restored) > 0 {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: fmt.Sprintf("%s: restored %s — /rewind lists it, to undo", what, strings.Join(res.Restored, ", "))})
	} else if len(res.Conflicts) == 0 && len(res.Lost) == 0 {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: what + ": no files to restore"})
	}
	for _, c := range res.Lost {
		why := c.Before.Note
		if why == "" {
			why = "its earlier content is not kept"
		}
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: fmt.Sprintf("%s: cannot restore %s: %s", what, c.Path, why)})
	}
}

// PickChange is /diff: it lists the files changed in the session, newest first; Enter
// shows the file's diff against the session's start.
func (a *App) PickChange() {
	b := a.book()
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
	p := picker.New(&a.th, "Changed in this session", items)
	if len(items) == 0 {
		p.SetNote("nothing changed in this session yet")
	}
	a.openPicker(p)
	p.OnPick = func(it picker.Item) { a.showChange(b, it.Value.(string)) }
}

// changedFile is the session's record of rel, nil when the session has
// not changed it (or changed it back).
func changedFile(b *checkpoint.Book, rel string) *checkpoint.File {
	for _, x := range b.Files() {
		if x.Path == rel {
			return &x
		}
	}
	return nil
}

// refreshChange shows the diff of rel again after a revert: what is left
// of the session's change or, when nothing is, the file itself.
func (a *App) refreshChange(b *checkpoint.Book, rel string) {
	if changedFile(b, rel) != nil {
		a.showChange(b, rel)
		return
	}
	if ed, ok := a.task.editor.(diffEditor); ok {
		ed.LeaveDiff(b.Abs(rel), rel+" is as it was before this session: no changes left to show")
	}
}

// showChange shows in the editor what the session changed in the file at
// rel (project-relative): its content before the session against now.
func (a *App) showChange(b *checkpoint.Book, rel string) {
	f := changedFile(b, rel)
	if f == nil {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: rel + " was not changed in this session"})
		return
	}
	before, err := panes.VersionContent(b, f.Original)
	if err != nil {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: f.Path + ": " + err.Error()})
		return
	}
	after, err := os.ReadFile(b.Abs(f.Path))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: f.Path + ": " + err.Error()})
		return
	}
	ed, ok := a.task.editor.(diffEditor)
	if !ok {
		return
	}
	if err := ed.ShowDiff(b.Abs(f.Path), before, after, "this session's changes"); err != nil {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: err.Error()})
		return
	}
	a.focusOn(panes.Editor)
}

// noteChanges refreshes the Changes tab in the background (reading and
// diffing the files changed); its tab is marked when the list changed
// while another tab showed. Calls while one runs are folded into one more.
func (t *Task) noteChanges() {
	if t.review != nil {
		t.review.refresh()
		return
	}
	if t.changesBusy {
		t.changesAgain = true
		return
	}
	r := t.svc.Rewind
	if r == nil {
		return
	}
	b := r.Checkpoints()
	if b == nil {
		t.changes.SetNote("Changes are recorded only when sessions are kept (fawn has no data directory).")
		return
	}
	t.changesBusy = true
	t.app.Go(func() {
		rows := panes.ChangeRows(b)
		t.app.post(func() {
			t.changesBusy = false
			if t.review != nil {
				return // the review took the tab meanwhile
			}
			if t.changes.SetRows(rows) && t.strip.Active() != panes.Changes {
				t.strip.Mark(panes.Changes)
			}
			if t.changesAgain {
				t.changesAgain = false
				t.noteChanges()
			}
		})
	})
}

// showConflicts shows, for the first of conflicts, the three versions of
// the file in the editor (what the restore would write, what fawn last
// recorded, what is on disk now) and lets the user overwrite it or keep
// it; then the next.
func (a *App) showConflicts(what string, run func(force map[string]bool) (checkpoint.Result, error), conflicts []checkpoint.Conflict) {
	r := a.task.svc.Rewind
	ed, ok := a.task.editor.(interface {
		ShowVersions(path string, vs [3]editor.VersionText, choices []editor.VersionChoice) error
	})
	if len(conflicts) == 0 || r == nil || r.Checkpoints() == nil || !ok {
		return
	}
	b := r.Checkpoints()
	c, rest := conflicts[0], conflicts[1:]
	version := func(title string, v checkpoint.Version) editor.VersionText {
		vt := editor.VersionText{Title: title}
		if data, err := panes.VersionContent(b, v); err != nil {
			vt.Missing = err.Error()
		} else {
			vt.Content = data
			if v.Exists && data == nil {
				vt.Content = []byte{}
			}
		}
		return vt
	}
	disk := editor.VersionText{Title: "on disk now (changed by hand)"}
	if data, err := os.ReadFile(b.Abs(c.Path)); err == nil {
		disk.Content = data
	} else if !errors.Is(err, os.ErrNotExist) {
		disk.Missing = err.Error()
	}
	next := ""
	if len(rest) > 0 {
		next = fmt.Sprintf(", then %s", words.Plural(len(rest), "more file", "more files"))
	}
	err := ed.ShowVersions(b.Abs(c.Path), [3]editor.VersionText{
		version("the earlier version ("+what+")", c.Want),
		version("fawn's last record (the agent's)", c.Recorded),
		disk,
	}, []editor.VersionChoice{
		{Key: 'o', Label: "overwrite it with what the " + what + " puts back" + next, Do: func() {
			res, err := run(map[string]bool{c.Path: true})
			if err != nil {
				a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: what + ": " + err.Error()})
			} else {
				a.reportRestore(what, res)
			}
			a.task.noteChanges()
			a.showConflicts(what, run, rest)
		}},
		{Label: "keep it as it is" + next, Do: func() {
			a.task.list.Append(&chat.Notice{Kind: chat.NoticeInfo, Text: what + ": kept " + c.Path + " as you changed it"})
			a.showConflicts(what, run, rest)
		}},
	})
	if err != nil {
		a.task.list.Append(&chat.Notice{Kind: chat.NoticeError, Text: err.Error()})
		return
	}
	a.focusOn(panes.Editor)
}
