package editor

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"
)

// fromBytes is readFile for content already in hand (an agent's edit).
func (t *Tabs) fromBytes(data []byte) loaded {
	l := loaded{data: data, size: int64(len(data)), stamp: t.fp.of(data)}
	if t.maxSize > 0 && l.size > t.maxSize {
		l.data = data[:t.maxSize]
		if i := bytes.LastIndexByte(l.data, '\n'); i >= 0 {
			l.data = l.data[:i+1]
		}
		l.truncated = true
	}
	l.binary = looksBinary(l.data)
	return l
}

// Open opens path (absolute or relative to the root) in a tab, or switches
// to its tab, and puts the cursor on line (1-based; 0 keeps it).
func (t *Tabs) Open(path string, line int) error {
	tb, _, err := t.openTab(path)
	if err != nil {
		return err
	}
	t.activate(t.indexOf(tb))
	if line > 0 {
		tb.diff = nil
		tb.view.SetCursor(Pos{Line: line - 1})
		tb.view.CenterOn(line - 1)
	}
	return nil
}

// openTab finds the tab of path or opens one (not made active).
func (t *Tabs) openTab(path string) (*tab, bool, error) {
	p := t.canon(path)
	if tb := t.find(p); tb != nil {
		return tb, false, nil
	}
	l, err := readFile(p, t.maxSize, t.fp)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, false, fmt.Errorf("cannot open %s: %v", t.rel(p), err)
	}
	tb := t.newFileTab(p, l)
	t.addTab(tb)
	if t.onFile != nil && !tb.binary {
		t.onFile(p)
	}
	return tb, true, nil
}

func (t *Tabs) newFileTab(path string, l loaded) *tab {
	tb := &tab{path: path}
	t.replaceContent(tb, l)
	if t.watch != nil {
		if err := t.watch.add(path); err != nil {
			tb.flash = "changes on disk to this file are not watched (" + err.Error() + "); saving still checks it first"
		}
	} else {
		tb.flash = "changes on disk are not watched (" + t.watchErr + "); saving still checks the file first"
	}
	return tb
}

// replaceContent gives tb a fresh buffer and view for l, keeping the
// place the old view showed.
func (t *Tabs) replaceContent(tb *tab, l loaded) {
	old := tb.view
	tb.binary, tb.readOnly, tb.truncated, tb.notice, tb.diff = l.binary, false, l.truncated, "", nil
	tb.disk = l.stamp
	if l.binary {
		tb.readOnly = true
		tb.notice = fmt.Sprintf("binary file (%s): not shown", humanSize(l.size))
		tb.buf = NewBuffer([]byte("\n  " + filepath.Base(tb.path) + " is a binary file (" + humanSize(l.size) + ").\n  fawn does not show binary files.\n"))
	} else {
		tb.buf = NewBuffer(l.data)
	}
	v := newCodeView(tb.buf, t.th, t.keys, t.hl, t.box, t.clip)
	v.tabWidth = t.tabWidth
	v.wrap = t.wrap
	if l.binary {
		v.noGutter, v.wrap = true, true
	} else {
		v.lexer = t.lexers.lexerFor(tb.path, l.data)
	}
	if l.truncated {
		tb.readOnly = true
		tb.notice = fmt.Sprintf("read-only: a %s file, first %s shown", humanSize(l.size), humanSize(int64(len(l.data))))
	}
	v.readOnly = tb.readOnly
	if old != nil && !l.binary {
		v.cursor = tb.buf.Clamp(old.cursor)
		v.top, v.left, v.wrap = min(old.top, tb.buf.LineCount()-1), old.left, old.wrap
	}
	t.hookView(tb, v)
	t.hookVim(tb, v)
	v.problems = t.problems[tb.path]
	tb.view = v
}

// hookView connects a view to its tab.
func (t *Tabs) hookView(tb *tab, v *CodeView) {
	v.notice = func(msg string) {
		if tb.notice != "" && v == tb.view {
			msg = tb.notice
		}
		tb.flash, tb.flashErr = msg, true
	}
	v.changed = func() {
		t.syncDirty(tb)
		t.typed(tb)
	}
	v.focused = func() bool {
		return t.HasFocus() && t.finder == nil && tb.prompt == nil && t.current() == tb
	}
}

// typePause is how long typing pauses before the language servers get
// the text.
const typePause = 300 * time.Millisecond

// typed tells the language servers what the user is typing in tb, once
// the typing pauses: they mark its problems as it goes.
func (t *Tabs) typed(tb *tab) {
	if t.onType == nil || tb.path == "" || tb.binary {
		return
	}
	if t.typedTabs == nil {
		t.typedTabs = map[*tab]bool{}
	}
	t.typedTabs[tb] = true
	if t.typeTimer != nil {
		t.typeTimer.Stop()
	}
	t.typeTimer = time.AfterFunc(typePause, func() {
		t.box.post(func() {
			for tb := range t.typedTabs {
				if t.indexOf(tb) >= 0 {
					t.onType(tb.path, string(tb.buf.Bytes()))
				}
			}
			clear(t.typedTabs)
		})
	})
}
