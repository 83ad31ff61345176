package editor

import (
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/theme"
)

// What only the tests and benchmarks use: a view outside Tabs, a smaller
// size limit, and a check that highlighting has caught up.

// NewCodeView returns a view of buf outside any Tabs. path picks the
// highlighting (empty: none).
func NewCodeView(buf *Buffer, path string, th theme.Theme, keys *keymap.Table) *CodeView {
	v := newCodeView(buf, th, keys, nil, nil, nil)
	if path != "" {
		v.lexer = (&lexerCache{}).lexerFor(path, buf.Bytes())
		if v.lexer != nil {
			v.hl = newHighlighter(th.Syntax, v.base)
		}
	}
	return v
}

// WithMaxFileSize sets the size above which files open read-only, showing
// only their beginning (default DefaultMaxFileSize).
func WithMaxFileSize(n int64) Option { return func(t *Tabs) { t.maxSize = n } }

// highlighted reports whether every visible line has current highlighting
// (for tests and benchmarks).
func (v *CodeView) highlighted() bool {
	if v.lexer == nil {
		return true
	}
	if v.textH == 0 {
		return false // not drawn yet: nothing was asked for
	}
	ver := v.buf.Version()
	for i := v.top; i < v.lastVisibleLine() && i < len(v.styles); i++ {
		if !v.styles[i].done || v.styles[i].ver != ver {
			return false
		}
	}
	return true
}
