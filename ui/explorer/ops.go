package explorer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gdamore/tcell/v2"
)

// promptKey edits the foot line, or answers its question.
func (e *Explorer) promptKey(ev *tcell.EventKey) {
	if e.prompt == promptDelete || e.prompt == promptOverwrite {
		switch e.ask.Answer.ActionFold(ev) {
		case ActionAnswerYes:
			if e.prompt == promptDelete {
				e.remove(e.target)
			} else {
				e.move(e.target, e.pendingDst, true)
			}
			e.prompt = promptNone
		case ActionAnswerNo:
			e.prompt = promptNone
			e.say("nothing was changed", false)
		}
		return
	}
	switch e.ask.Name.Action(ev) {
	case ActionNameCancel:
		e.prompt = promptNone
	case ActionNameDone:
		text := strings.TrimSpace(string(e.input))
		kind := e.prompt
		e.prompt = promptNone
		if text == "" {
			return
		}
		if kind == promptNew {
			e.create(e.target, text)
		} else {
			e.move(e.target, text, false)
		}
	case ActionNameBackward:
		if len(e.input) > 0 {
			e.input = e.input[:len(e.input)-1]
		}
	case ActionNameClear:
		e.input = nil
	default:
		if ev.Key() == tcell.KeyRune && ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) == 0 {
			e.input = append(e.input, ev.Rune())
		}
	}
}

// PasteText adds pasted text to the foot line.
func (e *Explorer) PasteText(text string) {
	if e.prompt == promptNew || e.prompt == promptRename {
		e.input = append(e.input, []rune(strings.Join(strings.Fields(text), " "))...)
	}
}

// inside resolves a name typed by the user below the root, refusing
// anything that would leave it.
func (e *Explorer) inside(base, name string) (string, error) {
	p := filepath.Clean(filepath.Join(e.root, filepath.FromSlash(base), filepath.FromSlash(name)))
	if p == e.root || !strings.HasPrefix(p, e.root+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the project", name)
	}
	return p, nil
}

// create makes a file (or, with a trailing "/", a directory) in dir.
func (e *Explorer) create(dir *node, name string) {
	p, err := e.inside(dir.rel, name)
	if err != nil {
		e.say(err.Error(), true)
		return
	}
	rel := e.relOf(p)
	if _, err := os.Lstat(p); err == nil {
		e.say(rel+" exists already", true)
		return
	}
	if strings.HasSuffix(name, "/") {
		err = os.MkdirAll(p, 0o755)
	} else {
		if err = os.MkdirAll(filepath.Dir(p), 0o755); err == nil {
			var f *os.File
			if f, err = os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
				err = f.Close()
			}
		}
	}
	if err != nil {
		e.say("could not create "+rel+": "+err.Error(), true)
		return
	}
	e.MarkChanged(p)
	e.say("created "+rel, false)
	e.afterChange(filepath.Dir(p), rel)
	if !strings.HasSuffix(name, "/") && e.OnOpen != nil {
		e.OnOpen(p)
	}
}

// move renames n to dst (relative to the root); an existing dst is only
// replaced after a yes.
func (e *Explorer) move(n *node, dst string, overwrite bool) {
	to, err := e.inside("", dst)
	if err != nil {
		e.say(err.Error(), true)
		return
	}
	from := e.abs(n)
	if to == from {
		return
	}
	if strings.HasPrefix(to, from+string(filepath.Separator)) {
		e.say("cannot move "+e.display(n)+" into itself", true)
		return
	}
	if _, err := os.Lstat(to); err == nil && !overwrite {
		e.prompt, e.pendingDst = promptOverwrite, dst
		return
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err == nil {
		err = os.Rename(from, to)
		if err != nil {
			e.say("could not rename "+e.display(n)+": "+err.Error(), true)
			return
		}
	}
	rel := e.relOf(to)
	e.MarkChanged(to)
	e.say("renamed "+e.display(n)+" to "+rel, false)
	e.afterChange(filepath.Dir(from), "")
	e.afterChange(filepath.Dir(to), rel)
}

// remove deletes n (a directory with all it holds).
func (e *Explorer) remove(n *node) {
	what := e.display(n)
	var err error
	if n.dir {
		err = os.RemoveAll(e.abs(n))
	} else {
		err = os.Remove(e.abs(n))
	}
	if err != nil {
		e.say("could not delete "+what+": "+err.Error(), true)
		return
	}
	e.MarkChanged(filepath.Dir(e.abs(n)))
	e.say("deleted "+what, false)
	e.afterChange(filepath.Dir(e.abs(n)), "")
}

// afterChange lists dir again at once (the watcher would too, a little
// later) and then selects rel.
func (e *Explorer) afterChange(dir, rel string) {
	n := e.find(dir)
	for n == nil && dir != e.root {
		dir = filepath.Dir(dir) // made with the entry: list from the nearest shown
		n = e.find(dir)
	}
	if n == nil {
		return
	}
	e.pendingSelect = rel
	e.load(n)
}

func (e *Explorer) relOf(abs string) string {
	r, _ := filepath.Rel(e.root, abs)
	return filepath.ToSlash(r)
}
