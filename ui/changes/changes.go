package changes

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/internal/words"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/picker"
)

// Host is what a Tracker needs of its task and of the frame around it.
type Host interface {
	// Info and Error add a notice to the task's chat.
	Info(text string)
	Error(text string)
	// Flash shows a short message in the status bar.
	Flash(msg string)
	// Ask shows a small modal question; the choice taken runs.
	Ask(title, text string, choices ...dialogs.Choice)
	// Pick opens a picker over the panes; onPick runs on the choice.
	Pick(title string, items []picker.Item, onPick func(picker.Item)) *picker.Picker
	// Focus gives the keyboard to pane p, when the task is shown.
	Focus(p panes.Pane)
	// RevealTab brings the Changes tab forward in the task's strip;
	// MarkTab flags it as changed while another tab shows.
	RevealTab()
	MarkTab()
	// Go runs f on its own goroutine (a panic is a crash); Post runs f on
	// the UI goroutine; Context ends when fawn stops.
	Go(f func())
	Post(f func())
	Context() context.Context
	// TurnRunning reports whether a turn runs in the task: reverting
	// waits for it.
	TurnRunning() bool
	// ReloadChat shows the task's conversation as its session holds it
	// (after a rewind); SetInput puts text in the chat's input.
	ReloadChat()
	SetInput(text string)
}

// Editor is the task's editor (*editor.Tabs): files open in it; the diff
// (diffEditor), the three versions, and the save and revert hooks are
// looked for on it.
type Editor interface {
	Open(path string, line int) error
}

// diffEditor is an editor that can show a diff in a tab (*editor.Tabs).
type diffEditor interface {
	ShowDiff(path string, before, after []byte, title string) error
	ShowsDiff(path string) bool
	LeaveDiff(path, why string)
}

// saveHooked is an editor that tells of the files the user saves, with
// their content before (*editor.Tabs).
type saveHooked interface {
	SetOnSave(func(path string, before []byte))
}

// revertHooked is an editor whose diffs put a hunk (r) or the whole file
// (R) back (*editor.Tabs).
type revertHooked interface {
	SetOnRevert(func(path string, content []byte, whole bool))
}

// versionEditor is an editor that shows three versions of a file side by
// side and the choices between them (*editor.Tabs).
type versionEditor interface {
	ShowVersions(path string, vs [3]editor.VersionText, choices []editor.VersionChoice) error
}

// Tracker is one task's changes: its Changes tab, kept up to date
// (Refresh), and what /diff, /revert, /rewind and /task review do.
type Tracker struct {
	h      Host
	rewind backend.Rewinder // nil: the agent records nothing
	view   *panes.ChangesView
	editor Editor // nil: the task has none
	root   string // the task's directory
	// busy: a refresh of the tab is being computed; again: another was
	// asked for meanwhile.
	busy, again bool
	// review, while on, fills the tab with the task's branch against its
	// base (/task review).
	review *review
}

// New wires view (the task's Changes tab) and the editor's saves and
// reverts to the session's checkpoints, which r keeps (nil: the agent
// records nothing, and the tab says so). ed may be nil; root is the
// task's directory.
func New(h Host, r backend.Rewinder, view *panes.ChangesView, ed Editor, root string) *Tracker {
	tr := &Tracker{h: h, rewind: r, view: view, editor: ed, root: root}
	if r == nil {
		view.SetNote("This agent does not record what it changes.")
		return tr
	}
	// Looking is fine while a turn runs; reverting waits for it (book).
	view.OnDiff = func(path string) {
		if tr.review != nil {
			tr.review.diff(path)
			return
		}
		if b := r.Checkpoints(); b != nil {
			tr.showChange(b, path)
		}
	}
	view.OnOpen = func(path string) {
		b := r.Checkpoints()
		if b == nil || ed == nil {
			return
		}
		if err := ed.Open(b.Abs(path), 0); err != nil {
			h.Error(err.Error())
			return
		}
		h.Focus(panes.Editor)
	}
	view.OnRevert = tr.askRevert
	// What the user saves in the editor is a change of the session too,
	// made by "you": /diff lists it and a rewind takes it back with the rest.
	if se, ok := ed.(saveHooked); ok {
		se.SetOnSave(tr.recordSave)
	}
	// r and R in a diff of /diff revert a hunk or the file through the
	// checkpoints, which record it and will not clobber a hand edit.
	if re, ok := ed.(revertHooked); ok {
		re.SetOnRevert(tr.revertInDiff)
	}
	return tr
}

// askRevert is R in the Changes tab.
func (tr *Tracker) askRevert(path string) {
	if tr.review != nil {
		tr.review.diff(path)
		tr.h.Flash("R in the diff puts the file back as the base has it, r a hunk")
		return
	}
	b := tr.book()
	if b == nil {
		return
	}
	tr.h.Ask("Revert", fmt.Sprintf("Put %s back as it was before this session changed it? /rewind lists the revert, to undo it.", path),
		dialogs.Choice{Key: "enter", Label: "revert it", Do: func() {
			tr.restoreFiles("revert "+path, func(force map[string]bool) (checkpoint.Result, error) {
				return b.RevertFile(path, force[path])
			})
			if ed, ok := tr.editor.(diffEditor); ok && ed.ShowsDiff(b.Abs(path)) {
				tr.refreshChange(b, path)
			}
		}},
		dialogs.Choice{Key: "esc", Label: "cancel", Do: func() {}})
}

// recordSave records a file the user saved in the editor, as it was
// before.
func (tr *Tracker) recordSave(path string, before []byte) {
	b := tr.rewind.Checkpoints()
	if b == nil {
		return
	}
	tr.h.Go(func() {
		err := b.Record(checkpoint.ByUser, path, before)
		tr.h.Post(func() {
			if err != nil && !strings.Contains(err.Error(), "outside the project") {
				tr.h.Error("the save was not recorded for /diff and /rewind: " + err.Error())
			}
			tr.Refresh()
		})
	})
}

// revertInDiff is r (a hunk: content) or R (whole) in a diff the editor
// shows.
func (tr *Tracker) revertInDiff(path string, content []byte, whole bool) {
	b := tr.book()
	if b == nil {
		return
	}
	rel, err := filepath.Rel(b.Root(), path)
	if err != nil || strings.HasPrefix(rel, "..") {
		tr.h.Error(path + " is outside the project: nothing to revert")
		return
	}
	rel = filepath.ToSlash(rel)
	if tr.review != nil && tr.review.reviewing(rel) {
		tr.review.revert(b, rel, content, whole)
		return
	}
	what := "revert a hunk of " + rel
	if whole {
		what = "revert " + rel
	}
	tr.restoreFiles(what, func(force map[string]bool) (checkpoint.Result, error) {
		if whole {
			return b.RevertFile(rel, force[rel])
		}
		return b.Write(rel, content, force[rel])
	})
	tr.refreshChange(b, rel)
}

// RevertFile is /revert: it puts path back as it was before this session
// changed it, through the checkpoints.
func (tr *Tracker) RevertFile(path string) {
	b := tr.book()
	if b == nil {
		return
	}
	if path == "" {
		tr.h.Error("which file? /revert PATH (/diff lists the files changed)")
		return
	}
	tr.restoreFiles("revert "+path, func(force map[string]bool) (checkpoint.Result, error) {
		return b.RevertFile(path, force[path])
	})
}

// book is the session's checkpoints, or nil (said in the chat).
func (tr *Tracker) book() *checkpoint.Book {
	var b *checkpoint.Book
	if tr.rewind != nil {
		b = tr.rewind.Checkpoints()
	}
	if b == nil {
		tr.h.Error("changes are recorded only when sessions are kept (fawn has no data directory)")
		return nil
	}
	if tr.h.TurnRunning() {
		tr.h.Error("a turn is running — press Esc to cancel it first")
		return nil
	}
	return b
}

// Refresh refreshes the Changes tab in the background (reading and
// diffing the files changed); its tab is marked when the list changed
// while another tab showed. Calls while one runs are folded into one more.
func (tr *Tracker) Refresh() {
	if tr.review != nil {
		tr.review.refresh()
		return
	}
	if tr.busy {
		tr.again = true
		return
	}
	if tr.rewind == nil {
		return
	}
	b := tr.rewind.Checkpoints()
	if b == nil {
		tr.view.SetNote("Changes are recorded only when sessions are kept (fawn has no data directory).")
		return
	}
	tr.busy = true
	tr.h.Go(func() {
		rows := panes.ChangeRows(b)
		tr.h.Post(func() {
			tr.busy = false
			if tr.review != nil {
				return // the review took the tab meanwhile
			}
			if tr.view.SetRows(rows) {
				tr.h.MarkTab()
			}
			if tr.again {
				tr.again = false
				tr.Refresh()
			}
		})
	})
}

// restoreFiles runs a restore, says what it did, and asks before
// overwriting files changed by hand since (then runs it again, forcing them).
func (tr *Tracker) restoreFiles(what string, run func(force map[string]bool) (checkpoint.Result, error)) {
	defer tr.Refresh()
	res, err := run(nil)
	if err != nil {
		tr.h.Error(what + ": " + err.Error())
		return
	}
	tr.reportRestore(what, res)
	if len(res.Conflicts) == 0 {
		return
	}
	var names []string
	force := map[string]bool{}
	for _, c := range res.Conflicts {
		names = append(names, c.Path)
		force[c.Path] = true
	}
	tr.h.Ask("Changed by hand", fmt.Sprintf("%s changed since the agent's version, so %s left alone: %s.",
		words.Plural(len(names), "file was", "files were"), map[bool]string{true: "it was", false: "they were"}[len(names) == 1], strings.Join(names, ", ")),
		dialogs.Choice{Key: "v", Label: "view the three versions, file by file, and choose", Do: func() {
			tr.showConflicts(what, run, res.Conflicts)
		}},
		dialogs.Choice{Key: "o", Label: "overwrite with the earlier version", Do: func() {
			defer tr.Refresh()
			res, err := run(force)
			if err != nil {
				tr.h.Error(what + ": " + err.Error())
				return
			}
			tr.reportRestore(what, res)
		}},
		dialogs.Choice{Key: "esc", Label: "keep them as they are", Do: func() {}})
}

func (tr *Tracker) reportRestore(what string, res checkpoint.Result) {
	if len(res.Restored) > 0 {
		tr.h.Info(fmt.Sprintf("%s: restored %s — /rewind lists it, to undo", what, strings.Join(res.Restored, ", ")))
	} else if len(res.Conflicts) == 0 && len(res.Lost) == 0 {
		tr.h.Info(what + ": no files to restore")
	}
	for _, c := range res.Lost {
		why := c.Before.Note
		if why == "" {
			why = "its earlier content is not kept"
		}
		tr.h.Error(fmt.Sprintf("%s: cannot restore %s: %s", what, c.Path, why))
	}
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
func (tr *Tracker) refreshChange(b *checkpoint.Book, rel string) {
	if changedFile(b, rel) != nil {
		tr.showChange(b, rel)
		return
	}
	if ed, ok := tr.editor.(diffEditor); ok {
		ed.LeaveDiff(b.Abs(rel), rel+" is as it was before this session: no changes left to show")
	}
}

// showChange shows in the editor what the session changed in the file at
// rel (project-relative): its content before the session against now.
func (tr *Tracker) showChange(b *checkpoint.Book, rel string) {
	f := changedFile(b, rel)
	if f == nil {
		tr.h.Error(rel + " was not changed in this session")
		return
	}
	before, err := panes.VersionContent(b, f.Original)
	if err != nil {
		tr.h.Error(f.Path + ": " + err.Error())
		return
	}
	after, err := os.ReadFile(b.Abs(f.Path))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		tr.h.Error(f.Path + ": " + err.Error())
		return
	}
	ed, ok := tr.editor.(diffEditor)
	if !ok {
		return
	}
	if err := ed.ShowDiff(b.Abs(f.Path), before, after, "this session's changes"); err != nil {
		tr.h.Error(err.Error())
		return
	}
	tr.h.Focus(panes.Editor)
}

// showConflicts shows, for the first of conflicts, the three versions of
// the file in the editor (what the restore would write, what fawn last
// recorded, what is on disk now) and lets the user overwrite it or keep
// it; then the next.
func (tr *Tracker) showConflicts(what string, run func(force map[string]bool) (checkpoint.Result, error), conflicts []checkpoint.Conflict) {
	r := tr.rewind
	ed, ok := tr.editor.(versionEditor)
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
		{Action: editor.ActionVersionsOverwrite, Label: "overwrite it with what the " + what + " puts back" + next, Do: func() {
			res, err := run(map[string]bool{c.Path: true})
			if err != nil {
				tr.h.Error(what + ": " + err.Error())
			} else {
				tr.reportRestore(what, res)
			}
			tr.Refresh()
			tr.showConflicts(what, run, rest)
		}},
		{Action: editor.ActionVersionsKeep, Label: "keep it as it is" + next, Do: func() {
			tr.h.Info(what + ": kept " + c.Path + " as you changed it")
			tr.showConflicts(what, run, rest)
		}},
	})
	if err != nil {
		tr.h.Error(err.Error())
		return
	}
	tr.h.Focus(panes.Editor)
}
