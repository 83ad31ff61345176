package editor

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/gdamore/tcell/v2"
)

// TabState is an open file tab as a session keeps it: the file, the cursor
// (1-based line and column), and whether it is the tab shown.
type TabState struct {
	Path      string
	Line, Col int
	Active    bool
}

// TabStates lists the open file tabs in order (the Welcome tab and diffs
// are not files and are left out).
func (t *Tabs) TabStates() []TabState {
	var out []TabState
	for i, tb := range t.tabs {
		if tb.path == "" || tb.welcome {
			continue
		}
		c := tb.view.Cursor()
		out = append(out, TabState{Path: tb.path, Line: c.Line + 1, Col: c.Col + 1, Active: i == t.active})
	}
	return out
}

// RestoreTabs opens the tabs of a session in their order, each with its
// cursor, and shows the one that was active. Files that are gone are left
// out; they are returned.
func (t *Tabs) RestoreTabs(states []TabState) (missing []string) {
	active := -1
	for _, st := range states {
		tb, _, err := t.openTab(st.Path)
		if err != nil {
			missing = append(missing, t.rel(t.canon(st.Path)))
			continue
		}
		i := t.indexOf(tb)
		t.activate(i) // the next one opens after this one: the order is kept
		if st.Line > 0 && !tb.binary {
			p := tb.buf.Clamp(Pos{Line: st.Line - 1, Col: max(0, st.Col-1)})
			tb.view.SetCursor(p)
			tb.view.CenterOn(p.Line)
		}
		if st.Active {
			active = i
		}
	}
	if active >= 0 {
		t.activate(active)
	}
	return missing
}

// Unsaved is the content of a tab with unsaved changes.
type Unsaved struct {
	Path    string
	Data    []byte
	Version uint64
}

// UnsavedBuffers returns the tabs with unsaved changes whose text changed
// since the version seen (by path); seen may be nil.
func (t *Tabs) UnsavedBuffers(seen map[string]uint64) []Unsaved {
	var out []Unsaved
	for _, tb := range t.tabs {
		if tb.path == "" || tb.readOnly || !tb.buf.Modified() {
			continue
		}
		v := tb.buf.Version()
		if seen != nil {
			if old, ok := seen[tb.path]; ok && old == v {
				out = append(out, Unsaved{Path: tb.path, Version: v})
				continue
			}
		}
		out = append(out, Unsaved{Path: tb.path, Data: tb.buf.Bytes(), Version: v})
	}
	return out
}

// tabFor opens path in a tab, or, when there is no such file (a file the
// session deleted), a new empty tab that Ctrl-S creates.
func (t *Tabs) tabFor(path string) (*tab, error) {
	tb, _, err := t.openTab(path)
	if err != nil && !existsFile(t.canon(path)) {
		tb = t.newFileTab(t.canon(path), t.fromBytes(nil))
		t.addTab(tb)
		err = nil
	}
	return tb, err
}

// Recover opens path and puts data in its buffer as an unsaved change (one
// undo step back to the file as it is on disk). A file that is gone gets a
// new tab that Ctrl-S creates.
func (t *Tabs) Recover(path string, data []byte) error {
	tb, err := t.tabFor(path)
	if err != nil {
		return err
	}
	if tb.readOnly {
		return errors.New(t.rel(tb.path) + " opens read-only here; its unsaved text was not restored")
	}
	tb.buf.SetContent(data, tb.view.Cursor())
	tb.view.cursor = tb.buf.Clamp(tb.view.cursor)
	t.syncDirty(tb)
	t.activate(t.indexOf(tb))
	tb.flash, tb.flashErr = "restored unsaved changes of "+t.rel(tb.path)+" (Ctrl-S saves them, Ctrl-Z goes back to the file)", false
	return nil
}

func existsFile(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// ShowDiff opens path (a tab of its own; a file that is gone gets an empty
// one) and shows before → after in place of its text, titled title. The
// diff key or Esc goes back to the file.
func (t *Tabs) ShowDiff(path string, before, after []byte, title string) error {
	tb, err := t.tabFor(path)
	if err != nil {
		return err
	}
	t.showDiff(tb, before, after, title)
	t.activate(t.indexOf(tb))
	return nil
}

// ShowsDiff reports whether path's tab shows a diff in place of its text.
func (t *Tabs) ShowsDiff(path string) bool {
	tb := t.find(t.canon(path))
	return tb != nil && tb.diff != nil
}

// LeaveDiff puts path's tab back to the file's text when it shows a diff
// (one with nothing left to show, after a revert) and says why in its
// status line.
func (t *Tabs) LeaveDiff(path, why string) {
	tb := t.find(t.canon(path))
	if tb == nil || tb.diff == nil {
		return
	}
	tb.diff, tb.review, tb.split, tb.splitOn = nil, nil, nil, false
	tb.flash, tb.flashErr = why, false
}

// DiffCounts is how many lines the diff from before to after adds and
// removes (nil before: no file).
func DiffCounts(before, after []byte) (plus, minus int) { return diffCounts(before, after) }

// review is what a diff in a tab compares, so its hunks can be reverted
// or opened in the file.
type review struct {
	before, after []byte
	hunks         []hunk // rows in the unified diff
	splitHunks    []hunk // rows in the side-by-side diff
}

// hunkAt is the hunk shown on row of the diff, unified or side by side
// (nil: none there).
func (r *review) hunkAt(row int, split bool) *hunk {
	hunks := r.hunks
	if split {
		hunks = r.splitHunks
	}
	for i := range hunks {
		if h := &hunks[i]; row >= h.doc0 && row < h.doc1 {
			return h
		}
	}
	return nil
}

// reviewKey handles the diff view's own keys (KeySet.Diff): r reverts the
// hunk at the cursor, R the whole file, o or Enter opens the file at the
// hunk, s switches between side by side and unified.
func (t *Tabs) reviewKey(tb *tab, ev *tcell.EventKey) bool {
	r := tb.review
	if r == nil {
		return false
	}
	action := t.keyset.Diff.Action(ev)
	h := r.hunkAt(tb.shown().Cursor().Line, tb.splitOn)
	switch action {
	case actDiffLayout:
		t.unifiedDiffs = !t.unifiedDiffs
		if _, _, w, _ := t.GetInnerRect(); !t.unifiedDiffs && w < splitMinWidth {
			tb.flash, tb.flashErr = fmt.Sprintf("side by side needs the editor %d columns wide (it is %d): zoom it (Alt-M) or narrow the chat (Alt-<)", splitMinWidth, w), false
		}
		return true
	case actDiffOpen:
		line := 0
		if h != nil {
			line = h.firstChangedLine
		}
		tb.diff, tb.review = nil, nil
		tb.view.SetCursor(Pos{Line: min(line, max(0, tb.buf.LineCount()-1))})
		tb.view.ScrollTo(max(0, line-3))
		return true
	case actDiffRevertHunk, actDiffRevertFile:
		if t.onRevert == nil {
			tb.flash, tb.flashErr = "nothing records this session's changes, so nothing can be reverted here", true
			return true
		}
		if now, err := os.ReadFile(tb.path); (err != nil && r.after != nil) || (err == nil && !bytes.Equal(now, r.after)) {
			tb.flash, tb.flashErr = "the file changed since this diff was made: open the diff again (/diff) before reverting", true
			return true
		}
		if action == actDiffRevertFile {
			t.onRevert(tb.path, nil, true)
			return true
		}
		if h == nil {
			tb.flash, tb.flashErr = "put the cursor on a hunk (a row from @@ to the next) to revert it", true
			return true
		}
		if r.before == nil {
			tb.flash, tb.flashErr = "the file is new in this session: "+t.keyset.Diff.Hint(actDiffRevertFile)+" reverts it (it is removed)", true
			return true
		}
		t.onRevert(tb.path, revertHunk(r.before, r.after, *h), false)
		return true
	}
	return false
}
