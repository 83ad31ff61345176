package editor

import (
	"fmt"

	"github.com/fawn-ide/fawn/tools"
)

// CheckEdit implements tools.EditGuard: it refuses an agent edit to a file
// that has unsaved changes in the editor, so neither side's work is lost.
// It is safe to call from any goroutine.
func (t *Tabs) CheckEdit(path string) error {
	p := t.canon(path)
	t.mu.Lock()
	dirty := t.dirty[p]
	t.mu.Unlock()
	if !dirty {
		return nil
	}
	return fmt.Errorf("the user is editing %s; unsaved changes: the file was not changed. "+
		"Tell the user what you want to change, or ask them to save or discard their changes first", t.rel(p))
}

var _ tools.EditGuard = (*Tabs)(nil)

// AgentViewed opens (or finds) the file the agent read and scrolls to the
// lines it read.
func (t *Tabs) AgentViewed(ev tools.FileViewed) {
	tb, isNew, err := t.openTab(ev.Path)
	if err != nil {
		return // the tool reported it to the model; nothing to show
	}
	line := max(0, ev.Start-1)
	if isNew {
		tb.view.SetCursor(Pos{Line: line})
	}
	tb.view.ScrollTo(line)
	t.follow(tb)
}

// AgentChanged shows an edit of the agent that has landed on disk: the new
// content, its changed lines marked in the gutter and tinted until the next
// change, scrolled into view; the tab is marked as changed by the agent and
// the edit is kept for the diff key.
func (t *Tabs) AgentChanged(ev tools.FileChanged) {
	p := t.canon(ev.Path)
	edit := &agentEdit{before: ev.Before, after: ev.After, command: ev.Command}
	tb := t.find(p)
	if ev.After == nil {
		// The file is gone (undo_edit of a file the agent created).
		if tb == nil {
			return
		}
		name := t.rel(p)
		if tb.buf.Modified() {
			tb.flash, tb.flashErr = name+" was deleted by the agent; your unsaved changes are kept (Ctrl-S writes them)", true
			return
		}
		t.closeTab(tb, true)
		t.flash(name+" was deleted by the agent (it undid creating it)", false)
		return
	}
	if tb == nil {
		tb = t.newFileTab(p, t.fromBytes(ev.After))
		t.addTab(tb)
	} else if tb.buf.Modified() {
		// The guard let it through before the user started typing: keep
		// both, and ask.
		tb.agentEdit = edit
		tb.agentMark = true
		t.diskChanged(tb, t.fp.of(ev.After), ev.After)
		return
	} else if tb.binary || tb.readOnly {
		t.replaceContent(tb, t.fromBytes(ev.After))
	} else {
		tb.buf.SetContent(ev.After, tb.view.Cursor())
		tb.buf.MarkSaved()
		tb.disk = t.fp.of(ev.After)
	}
	tb.agentEdit = edit
	tb.agentMark = true
	if !tb.flashErr {
		// The watcher may have reloaded the file a moment before (an
		// agent that writes files itself): the change is the agent's, and
		// the status says so rather than "changed on disk".
		tb.flash = ""
	}
	if !tb.binary && !tb.readOnly {
		var before []string
		if ev.Before != nil {
			before, _ = parse(ev.Before)
		}
		after, _ := parse(ev.After)
		changes := diffLines(before, after)
		if len(after) == tb.buf.LineCount() {
			tb.view.setDecor(changeMarks(changes, tb.buf.LineCount(), t.th), false)
		}
		first := firstChanged(changes)
		tb.view.SetCursor(Pos{Line: first})
		tb.view.CenterOn(first)
	}
	if tb.diff != nil {
		t.showAgentDiff(tb)
	}
	t.syncDirty(tb)
	t.follow(tb)
}
