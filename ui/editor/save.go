package editor

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fawn-ide/fawn/project"
)

// Unsaved lists the files with unsaved changes, relative to the root, so
// the app can ask before quitting.
func (t *Tabs) Unsaved() []string {
	var out []string
	for _, tb := range t.tabs {
		if tb.path != "" && tb.buf.Modified() {
			out = append(out, t.rel(tb.path))
		}
	}
	return out
}

// SaveAll saves every file with unsaved changes that has no conflict on
// disk; it returns the first error.
func (t *Tabs) SaveAll() error {
	var first error
	for _, tb := range t.tabs {
		if tb.path == "" || !tb.buf.Modified() {
			continue
		}
		st, _, err := diskStamp(tb.path, t.fp)
		if err == nil && st != tb.disk {
			err = fmt.Errorf("%s changed on disk since it was opened: open its tab and save it to choose", t.rel(tb.path))
		}
		if err == nil {
			err = t.write(tb)
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// save writes tb, first asking when the file changed on disk since it was
// read; then runs after a successful write.
func (t *Tabs) save(tb *tab, then func()) {
	if tb.path == "" || tb.readOnly {
		tb.flash, tb.flashErr = "this tab is read-only", true
		if tb.notice != "" {
			tb.flash = tb.notice
		}
		return
	}
	st, data, err := diskStamp(tb.path, t.fp)
	if err != nil {
		tb.flash, tb.flashErr = fmt.Sprintf("cannot check %s before saving: %v", t.rel(tb.path), err), true
		return
	}
	if st != tb.disk && st.exists {
		name := t.rel(tb.path)
		var ask func()
		ask = func() {
			tb.prompt = &prompt{
				label: name + " changed on disk since you opened it. Save over it?",
				keys:  t.keyset.Save,
				choices: []choice{
					{action: actSaveOverwrite, label: "overwrite", do: func() {
						tb.diff = nil
						if t.write(tb) == nil && then != nil {
							then()
						}
					}},
					{action: actSaveReload, label: "reload (lose yours)", do: func() {
						tb.diff = nil
						t.reload(tb, data, st)
					}},
					{action: actSaveDiff, label: "diff", do: func() {
						t.showDiff(tb, data, tb.buf.Bytes(), "on disk → yours")
						ask()
					}},
				},
				cancel: func() { tb.diff = nil },
			}
		}
		ask()
		return
	}
	if t.write(tb) == nil && then != nil {
		then()
	}
}

// write saves tb atomically, keeping the file's mode, line breaks and BOM.
func (t *Tabs) write(tb *tab) error {
	data := tb.buf.Bytes()
	var before []byte
	if t.onSave != nil {
		if b, err := os.ReadFile(tb.path); err == nil {
			before = b
		}
	}
	// A file opened from outside the project (a definition in a library, a
	// link in the chat) is still the user's to save; it is confined to its
	// own directory, so a symlink put in its place since cannot carry the
	// save anywhere else.
	root := t.root
	if !project.Within(t.root, tb.path) {
		root = filepath.Dir(tb.path)
	}
	if _, err := project.WriteFile(root, tb.path, data, project.WriteOptions{InPlace: true}); err != nil {
		err = fmt.Errorf("could not save %s: %v; the file on disk is unchanged", t.rel(tb.path), err)
		tb.flash, tb.flashErr = err.Error(), true
		return err
	}
	tb.buf.MarkSaved()
	tb.buf.hist.seal()
	tb.disk = t.fp.of(data)
	tb.flash, tb.flashErr = "saved "+t.rel(tb.path), false
	t.syncDirty(tb)
	if t.onSave != nil {
		t.onSave(tb.path, before)
	}
	if t.onFile != nil {
		t.onFile(tb.path)
	}
	return nil
}

// reload replaces tb's text with data from disk, as one undoable step.
func (t *Tabs) reload(tb *tab, data []byte, st stamp) {
	cur := tb.view.Cursor()
	tb.buf.SetContent(data, cur)
	tb.buf.MarkSaved()
	tb.disk = st
	tb.view.cursor = tb.buf.Clamp(cur)
	tb.view.selected = false
	t.syncDirty(tb)
	t.replacedFromOutside(tb)
}

// replacedFromOutside is called when tb's text was replaced by what is on
// disk (a /rewind, a revert, a command, another editor): the problems the
// language server gave for the old text mark lines that now read
// otherwise, so they go, and the server is asked again: it holds the file
// as the editor last told it, not as the disk has it.
func (t *Tabs) replacedFromOutside(tb *tab) {
	t.SetProblems(tb.path, nil)
	if t.onFile != nil && tb.path != "" && !tb.binary {
		t.onFile(tb.path)
	}
}

// fileChanged runs on the watcher's goroutine: it reads the file and hands
// the result to the UI goroutine.
func (t *Tabs) fileChanged(path string) {
	if info, err := os.Stat(path); err == nil && t.maxSize > 0 && info.Size() > t.maxSize {
		// Too large to edit: never read it all on each change (a growing
		// log would be read again and again). An editable tab becomes a
		// read-only one once; a read-only one says it is out of date.
		l, err := readFile(path, t.maxSize, t.fp)
		t.box.post(func() {
			tb := t.find(path)
			switch {
			case tb == nil || err != nil:
			case tb.truncated:
				tb.notice = fmt.Sprintf("read-only: a %s file, first part shown; it changed on disk since (close and reopen to see it)", humanSize(info.Size()))
			case tb.buf.Modified():
				tb.flash, tb.flashErr = t.rel(path)+" changed on disk and is now too large to edit; saving overwrites it with yours", true
			default:
				t.replaceContent(tb, l)
			}
		})
		return
	}
	st, data, err := diskStamp(path, t.fp)
	if err != nil {
		return // unreadable for now; the next event tries again
	}
	// Only the newest version of a file waits for the UI goroutine: while
	// the editor is not drawn (another pane zoomed), a file rewritten again
	// and again holds one copy, not one per change.
	t.mu.Lock()
	_, queued := t.diskQueue[path]
	t.diskQueue[path] = diskVersion{st, data}
	t.mu.Unlock()
	if queued {
		return
	}
	t.box.post(func() {
		t.mu.Lock()
		dv := t.diskQueue[path]
		delete(t.diskQueue, path)
		t.mu.Unlock()
		if tb := t.find(path); tb != nil {
			t.diskChanged(tb, dv.st, dv.data)
		}
	})
}

// diskVersion is a file as read after a change on disk.
type diskVersion struct {
	st   stamp
	data []byte
}

// diskChanged reacts to a new version of tb's file: nothing when it is what
// the editor already has, a silent reload when the user has no unsaved
// changes, else a question.
func (t *Tabs) diskChanged(tb *tab, st stamp, data []byte) {
	if st == tb.disk {
		return
	}
	name := t.rel(tb.path)
	if !st.exists {
		tb.disk = st
		tb.flash, tb.flashErr = name+" was deleted on disk; save to write it again", true
		return
	}
	if tb.binary || tb.readOnly {
		if l, err := readFile(tb.path, t.maxSize, t.fp); err == nil {
			t.replaceContent(tb, l)
			t.replacedFromOutside(tb)
		}
		return
	}
	if !tb.buf.Modified() {
		t.reload(tb, data, st)
		tb.flash, tb.flashErr = "reloaded "+name+": it changed on disk", false
		return
	}
	var ask func()
	ask = func() {
		tb.prompt = &prompt{
			label: name + " changed on disk, and you have unsaved changes in it.",
			keys:  t.keyset.Changed,
			choices: []choice{
				{action: actChangedReload, label: "reload (lose yours)", do: func() {
					tb.diff = nil
					t.reload(tb, data, st)
				}},
				{action: actChangedKeep, label: "keep mine (also " + t.keyset.Prompt.Hint(actPromptCancel) + ")", do: func() {
					tb.diff = nil
					tb.disk = st // saving now overwrites, as chosen
				}},
				{action: actChangedDiff, label: "diff", do: func() {
					t.showDiff(tb, data, tb.buf.Bytes(), "on disk → yours")
					ask()
				}},
			},
			escHidden: true,
			cancel: func() {
				tb.diff = nil
				tb.disk = st
			},
		}
	}
	ask()
}
