// Package explorer owns the file explorer: a tree of the project that
// honours its ignore files (.gitignore, .ignore, .git/info/exclude, as the
// agent's tools do), follows the disk live (the directories shown, through
// project's one Watcher, no polling), marks the files changed in this session, opens a file
// with Enter, and creates, renames and deletes files and directories — each
// asked for in a line at its foot, a delete or an overwrite only after a
// yes.
//
// It is a tview primitive. Everything runs on the UI goroutine except the
// listings and the watcher, whose results come back through the post
// function the app gives it.
//
// It imports project, ui/keymap, ui/theme and internal/safetext, never ui;
// ui imports it.
package explorer

import (
	"path/filepath"
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/project"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/theme"
)

// Actions of the explorer's key table.
const (
	ActionUp       keymap.Action = "explorer.up"
	ActionDown     keymap.Action = "explorer.down"
	ActionOpen     keymap.Action = "explorer.open"
	ActionCollapse keymap.Action = "explorer.collapse"
	ActionExpand   keymap.Action = "explorer.expand"
	ActionNew      keymap.Action = "explorer.new"
	ActionRename   keymap.Action = "explorer.rename"
	ActionDelete   keymap.Action = "explorer.delete"
	ActionRefresh  keymap.Action = "explorer.refresh"
	ActionTop      keymap.Action = "explorer.top"
	ActionBottom   keymap.Action = "explorer.bottom"
)

// DefaultKeys returns the explorer's key table.
func DefaultKeys() *keymap.Table {
	return keymap.New("Explorer",
		keymap.Binding{Action: ActionUp, Keys: []string{"up", "k"}, Help: "Previous entry"},
		keymap.Binding{Action: ActionDown, Keys: []string{"down", "j"}, Help: "Next entry"},
		keymap.Binding{Action: ActionOpen, Keys: []string{"enter"}, Help: "Open the file in a tab, or open/close the directory"},
		keymap.Binding{Action: ActionCollapse, Keys: []string{"left", "h"}, Help: "Close the directory, or go to its parent"},
		keymap.Binding{Action: ActionExpand, Keys: []string{"right", "l"}, Help: "Open the directory"},
		keymap.Binding{Action: ActionNew, Keys: []string{"n", "a"}, Help: "New file in the directory (end the name with / for a directory)"},
		keymap.Binding{Action: ActionRename, Keys: []string{"r"}, Help: "Rename or move the entry"},
		keymap.Binding{Action: ActionDelete, Keys: []string{"d", "delete"}, Help: "Delete the entry (asks first)"},
		keymap.Binding{Action: ActionRefresh, Keys: []string{"ctrl+r"}, Help: "Read the tree from disk again"},
		keymap.Binding{Action: ActionTop, Keys: []string{"home", "g"}, Help: "First entry", Hidden: true},
		keymap.Binding{Action: ActionBottom, Keys: []string{"end", "G"}, Help: "Last entry", Hidden: true},
	)
}

// node is one entry of the tree.
type node struct {
	name     string
	rel      string // slash path below the root; "" for the root
	dir      bool
	link     bool
	expanded bool
	loaded   bool
	children []*node
	parent   *node
	depth    int
}

// promptKind is what the line at the foot asks for.
type promptKind int

const (
	promptNone promptKind = iota
	promptNew
	promptRename
	promptDelete
	promptOverwrite
)

// Explorer is the file tree.
type Explorer struct {
	*tview.Box
	root string
	th   theme.Theme
	keys *keymap.Table
	ask  *PromptKeys // the questions' keys

	tree   *node
	rows   []*node // the visible entries, in order
	sel    int
	offset int
	height int

	// changed are the paths changed in this session (files, and the
	// directories above them).
	changed map[string]bool

	prompt     promptKind
	input      []rune
	target     *node  // the entry the prompt is about
	pendingDst string // the rename waiting for an overwrite answer
	// pendingSelect is an entry to select once its listing has come.
	pendingSelect string
	flash         string
	flashErr      bool

	// OnOpen opens a file in the editor.
	OnOpen func(path string)
	// post runs f on the UI goroutine (the app's QueueUpdate); redraw asks
	// for a frame.
	post func(f func())

	watch *dirWatcher
}

// Option configures an Explorer.
type Option func(*options)

type options struct {
	watcher *project.Watcher
	prompt  *PromptKeys
}

// WithWatcher makes the explorer watch the disk through w, the watcher the
// editor shares, instead of one of its own.
func WithWatcher(w *project.Watcher) Option { return func(o *options) { o.watcher = w } }

// New returns an explorer of root (absolute, symlinks resolved). post runs
// functions on the UI goroutine; keys may be nil for DefaultKeys.
func New(root string, th theme.Theme, keys *keymap.Table, post func(func()), opts ...Option) *Explorer {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if keys == nil {
		keys = DefaultKeys()
	}
	if o.prompt == nil {
		o.prompt = DefaultPromptKeys()
	}
	e := &Explorer{Box: tview.NewBox(), root: root, th: th, keys: keys, ask: o.prompt, post: post,
		changed: map[string]bool{}}
	e.SetBackgroundColor(th.Background)
	e.tree = &node{dir: true, expanded: true}
	e.watch = newDirWatcher(o.watcher, func(dir string) { e.post(func() { e.reload(dir) }) },
		func(path string) { e.post(func() { e.MarkChanged(path) }) })
	e.load(e.tree)
	return e
}

// Close stops watching the disk.
func (e *Explorer) Close() { e.watch.close() }

// Keys returns the explorer's key table.
func (e *Explorer) Keys() *keymap.Table { return e.keys }

// MarkChanged marks path (absolute or relative to the root) as changed in
// this session, with the directories above it.
func (e *Explorer) MarkChanged(path string) {
	rel := path
	if filepath.IsAbs(path) {
		r, err := filepath.Rel(e.root, path)
		if err != nil || strings.HasPrefix(r, "..") {
			return
		}
		rel = r
	}
	rel = filepath.ToSlash(rel)
	for rel != "." && rel != "" {
		e.changed[rel] = true
		rel = pathDir(rel)
	}
}

// Changed reports whether rel is marked changed.
func (e *Explorer) Changed(rel string) bool { return e.changed[rel] }

// HandleKey applies one key; it reports whether the key was the explorer's.
func (e *Explorer) HandleKey(ev *tcell.EventKey) bool {
	if e.prompt != promptNone {
		e.promptKey(ev)
		return true
	}
	e.flash = ""
	var cur *node
	if e.sel < len(e.rows) {
		cur = e.rows[e.sel]
	}
	switch e.keys.Action(ev) {
	case ActionUp:
		e.sel = max(0, e.sel-1)
	case ActionDown:
		e.sel = min(len(e.rows)-1, e.sel+1)
	case ActionTop:
		e.sel = 0
	case ActionBottom:
		e.sel = max(0, len(e.rows)-1)
	case ActionOpen:
		switch {
		case cur == nil:
		case cur.dir:
			e.toggle(cur, !cur.expanded)
		case e.OnOpen != nil:
			e.OnOpen(e.abs(cur))
		}
	case ActionExpand:
		if cur != nil && cur.dir {
			e.toggle(cur, true)
		}
	case ActionCollapse:
		switch {
		case cur == nil:
		case cur.dir && cur.expanded:
			e.toggle(cur, false)
		case cur.parent != nil && cur.parent != e.tree:
			e.selectRel(cur.parent.rel)
		}
	case ActionNew:
		e.target = e.tree
		if cur != nil {
			e.target = cur
			if !cur.dir {
				e.target = cur.parent
			}
		}
		e.prompt, e.input = promptNew, nil
	case ActionRename:
		if cur != nil {
			e.prompt, e.target, e.input = promptRename, cur, []rune(cur.rel)
		}
	case ActionDelete:
		if cur != nil {
			e.prompt, e.target = promptDelete, cur
		}
	case ActionRefresh:
		e.refresh(e.tree)
	default:
		return false
	}
	if e.sel < 0 {
		e.sel = 0
	}
	return true
}

// refresh lists every loaded directory again.
func (e *Explorer) refresh(n *node) {
	if n.dir && n.loaded {
		e.load(n)
		for _, c := range n.children {
			e.refresh(c)
		}
	}
}

func (e *Explorer) toggle(n *node, open bool) {
	n.expanded = open
	if open && !n.loaded {
		e.load(n)
	}
	if !open {
		e.watch.removeTree(e.abs(n))
		n.loaded = false
	}
	e.flatten()
	e.selectRel(n.rel)
}

func (e *Explorer) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return func(ev *tcell.EventKey, _ func(tview.Primitive)) { e.HandleKey(ev) }
}

func (e *Explorer) PasteHandler() func(text string, setFocus func(p tview.Primitive)) {
	return func(text string, _ func(tview.Primitive)) { e.PasteText(text) }
}

func (e *Explorer) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		mx, my := ev.Position()
		if !e.InRect(mx, my) {
			return false, nil
		}
		_, y, _, _ := e.GetInnerRect()
		switch action {
		case tview.MouseScrollUp:
			e.sel = max(0, e.sel-3)
		case tview.MouseScrollDown:
			e.sel = min(len(e.rows)-1, e.sel+3)
		case tview.MouseLeftDown:
			setFocus(e)
			if i := e.offset + my - y; my-y < e.height && i >= 0 && i < len(e.rows) {
				e.sel = i
			}
		case tview.MouseLeftDoubleClick, tview.MouseLeftClick:
			if i := e.offset + my - y; my-y < e.height && i >= 0 && i < len(e.rows) && i == e.sel {
				if action == tview.MouseLeftDoubleClick || e.rows[i].dir {
					e.HandleKey(tcell.NewEventKey(tcell.KeyEnter, 0, tcell.ModNone))
				}
			}
		default:
			return false, nil
		}
		return true, nil
	}
}
