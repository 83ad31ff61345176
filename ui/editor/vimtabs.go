package editor

import "path/filepath"

// WithVimKeys turns on vim keys (editor.keys: vim) in every file view.
func WithVimKeys() Option { return func(t *Tabs) { t.vimKeys = true } }

// vimTab is what a view's : command line does to its tab.
type vimTab struct {
	t  *Tabs
	tb *tab
}

func (h vimTab) vimWrite(then func()) { h.t.save(h.tb, then) }

func (h vimTab) vimQuit(force bool) {
	if h.t.indexOf(h.tb) >= 0 {
		h.t.closeTab(h.tb, force)
	}
}

func (h vimTab) vimEdit(path string) error {
	if !filepath.IsAbs(path) {
		path = filepath.Join(h.t.root, path)
	}
	return h.t.Open(path, 0)
}

// hookVim gives a file's view vim keys when they are on.
func (t *Tabs) hookVim(tb *tab, v *CodeView) {
	if !t.vimKeys || tb.welcome || tb.binary {
		return
	}
	v.SetVim(true)
	v.vim.host = vimTab{t, tb}
	v.vimKeys = t.keyset.Vim
}
