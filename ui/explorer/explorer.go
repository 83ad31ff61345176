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
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
	"github.com/rivo/uniseg"

	"github.com/fawn-ide/fawn/internal/safetext"
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

type options struct{ watcher *project.Watcher }

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
	e := &Explorer{Box: tview.NewBox(), root: root, th: th, keys: keys, post: post,
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

func pathDir(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

// abs is the absolute path of n.
func (e *Explorer) abs(n *node) string { return filepath.Join(e.root, filepath.FromSlash(n.rel)) }

// load lists n's entries in the background (ignore-aware) and watches n.
func (e *Explorer) load(n *node) {
	dir := e.abs(n)
	e.watch.add(dir)
	go func() {
		var entries []*node
		err := project.WalkFiles(context.Background(), e.root, dir, func(rel string, d fs.DirEntry) error {
			c := &node{name: d.Name(), rel: filepath.ToSlash(rel), dir: d.IsDir(), link: d.Type()&fs.ModeSymlink != 0}
			entries = append(entries, c)
			if d.IsDir() {
				return fs.SkipDir // only this directory's entries
			}
			return nil
		})
		e.post(func() { e.adopt(n, entries, err) })
	}()
}

// adopt puts a listing in place, keeping what was open and the selection.
func (e *Explorer) adopt(n *node, entries []*node, err error) {
	if n != e.tree {
		// The parent may have been listed again meanwhile, replacing n.
		cur := e.find(e.abs(n))
		if cur == nil || !cur.dir {
			return
		}
		n = cur
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		e.say("cannot list "+e.display(n)+": "+err.Error(), true)
	}
	old := map[string]*node{}
	for _, c := range n.children {
		old[c.name] = c
	}
	sort.SliceStable(entries, func(i, j int) bool {
		if entries[i].dir != entries[j].dir {
			return entries[i].dir
		}
		return strings.ToLower(entries[i].name) < strings.ToLower(entries[j].name)
	})
	for _, c := range entries {
		c.parent, c.depth = n, n.depth+1
		if o := old[c.name]; o != nil && o.dir == c.dir {
			c.expanded, c.loaded, c.children = o.expanded, o.loaded, o.children
			for _, g := range c.children {
				g.parent = c
			}
		}
	}
	for name, o := range old {
		if o.dir && !containsName(entries, name) {
			e.watch.removeTree(e.abs(o))
		}
	}
	var keep string
	if e.sel < len(e.rows) {
		keep = e.rows[e.sel].rel
	}
	n.children, n.loaded = entries, true
	e.flatten()
	e.selectRel(keep)
	if want := e.pendingSelect; want != "" {
		for _, r := range e.rows {
			if r.rel == want {
				e.selectRel(want)
				e.pendingSelect = ""
				return
			}
		}
		// Open the way down to it.
		for _, c := range n.children {
			if c.dir && strings.HasPrefix(want, c.rel+"/") {
				c.expanded = true
				e.load(c)
			}
		}
	}
}

func containsName(ns []*node, name string) bool {
	for _, n := range ns {
		if n.name == name {
			return true
		}
	}
	return false
}

// reload lists directory dir (absolute) again, if it is shown.
func (e *Explorer) reload(dir string) {
	if n := e.find(dir); n != nil && n.dir && n.loaded {
		e.load(n)
	}
}

// find returns the node of abs path p, or nil.
func (e *Explorer) find(p string) *node {
	rel, err := filepath.Rel(e.root, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil
	}
	if rel == "." {
		return e.tree
	}
	n := e.tree
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		var next *node
		for _, c := range n.children {
			if c.name == part {
				next = c
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}

// flatten lists the visible rows.
func (e *Explorer) flatten() {
	e.rows = e.rows[:0]
	var walk func(n *node)
	walk = func(n *node) {
		for _, c := range n.children {
			e.rows = append(e.rows, c)
			if c.dir && c.expanded {
				walk(c)
			}
		}
	}
	walk(e.tree)
	if e.sel >= len(e.rows) {
		e.sel = max(0, len(e.rows)-1)
	}
}

func (e *Explorer) selectRel(rel string) {
	for i, r := range e.rows {
		if r.rel == rel {
			e.sel = i
			return
		}
	}
}

// Selected returns the selected entry's path relative to the root ("" when
// the tree is empty).
func (e *Explorer) Selected() string {
	if e.sel < len(e.rows) {
		return e.rows[e.sel].rel
	}
	return ""
}

// Rows returns the visible entries' paths, in order.
func (e *Explorer) Rows() []string {
	out := make([]string, len(e.rows))
	for i, r := range e.rows {
		out[i] = r.rel
	}
	return out
}

// Reveal expands the directories above rel and selects it.
func (e *Explorer) Reveal(rel string) {
	n := e.tree
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		var next *node
		for _, c := range n.children {
			if c.name == part {
				next = c
			}
		}
		if next == nil {
			break
		}
		if i < len(parts)-1 && next.dir && !next.expanded {
			next.expanded = true
			if !next.loaded {
				e.load(next)
			}
		}
		n = next
	}
	e.flatten()
	e.selectRel(rel)
}

func (e *Explorer) say(msg string, isErr bool) { e.flash, e.flashErr = msg, isErr }

func (e *Explorer) display(n *node) string {
	if n.rel == "" {
		return "the project"
	}
	if n.dir {
		return printable(n.rel) + "/"
	}
	return printable(n.rel)
}

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

// promptKey edits the foot line, or answers its question.
func (e *Explorer) promptKey(ev *tcell.EventKey) {
	if e.prompt == promptDelete || e.prompt == promptOverwrite {
		switch {
		case ev.Key() == tcell.KeyRune && (ev.Rune() == 'y' || ev.Rune() == 'Y'):
			if e.prompt == promptDelete {
				e.remove(e.target)
			} else {
				e.move(e.target, e.pendingDst, true)
			}
			e.prompt = promptNone
		case ev.Key() == tcell.KeyRune && (ev.Rune() == 'n' || ev.Rune() == 'N'), ev.Key() == tcell.KeyEscape:
			e.prompt = promptNone
			e.say("nothing was changed", false)
		}
		return
	}
	switch ev.Key() {
	case tcell.KeyEscape:
		e.prompt = promptNone
	case tcell.KeyEnter:
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
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		if len(e.input) > 0 {
			e.input = e.input[:len(e.input)-1]
		}
	case tcell.KeyCtrlU:
		e.input = nil
	case tcell.KeyRune:
		if ev.Modifiers()&(tcell.ModCtrl|tcell.ModAlt) == 0 {
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

// Draw draws the visible rows and the foot line.
func (e *Explorer) Draw(screen tcell.Screen) {
	x, y, w, h := e.GetInnerRect()
	if w <= 2 || h <= 0 {
		return
	}
	base := tcell.StyleDefault.Foreground(e.th.Foreground).Background(e.th.Background)
	dim := base.Foreground(e.th.Dim)
	foot := e.footLines(w - 1)
	e.height = h - len(foot)
	if e.sel < e.offset {
		e.offset = e.sel
	}
	if e.sel >= e.offset+e.height {
		e.offset = e.sel - e.height + 1
	}
	if len(e.rows) == 0 && e.tree.loaded {
		put(screen, x+1, y, w-1, "(empty, or all ignored)", dim)
	}
	for i := 0; i < e.height && e.offset+i < len(e.rows); i++ {
		n := e.rows[e.offset+i]
		row := y + i
		st := base
		if e.offset+i == e.sel {
			st = st.Background(e.th.CursorLine)
			if e.HasFocus() {
				st = st.Background(e.th.Selection)
			}
			for c := x; c < x+w; c++ {
				screen.Put(c, row, " ", st)
			}
		}
		col := x + 1 + 2*(n.depth-1)
		switch {
		case n.dir && n.expanded:
			col += put(screen, col, row, x+w-col, "▾ ", st.Foreground(e.th.Accent))
		case n.dir:
			col += put(screen, col, row, x+w-col, "▸ ", st.Foreground(e.th.Accent))
		default:
			col += put(screen, col, row, x+w-col, "  ", st)
		}
		name := printable(n.name)
		nst := st
		if n.dir {
			name += "/"
			nst = nst.Foreground(e.th.Accent)
		}
		if n.link {
			name += " →"
		}
		mark := ""
		if e.changed[n.rel] {
			mark = " ✦"
			if n.dir {
				mark = " •"
			}
		}
		room := x + w - col - uniseg.StringWidth(mark)
		if uniseg.StringWidth(name) > room {
			name = cut(name, room)
		}
		col += put(screen, col, row, room, name, nst)
		if mark != "" {
			put(screen, col, row, x+w-col, mark, st.Foreground(e.th.Warning))
		}
	}
	for i, l := range foot {
		st := dim
		if i == 0 && e.prompt != promptNone {
			st = base.Foreground(e.th.Warning)
		} else if e.flashErr {
			st = base.Foreground(e.th.Error)
		}
		put(screen, x+1, y+h-len(foot)+i, w-1, l, st)
	}
	if e.prompt == promptNew || e.prompt == promptRename {
		if e.HasFocus() && len(foot) > 0 {
			last := foot[len(foot)-1]
			screen.ShowCursor(x+1+min(w-2, uniseg.StringWidth(last)), y+h-1)
		}
	}
}

// footLines is the prompt or the last message, wrapped to width.
func (e *Explorer) footLines(width int) []string {
	var text string
	switch e.prompt {
	case promptNew:
		text = "new in " + e.display(e.target) + " (end with / for a directory): " + string(e.input)
	case promptRename:
		text = "rename " + e.display(e.target) + " to: " + string(e.input)
	case promptDelete:
		what := e.display(e.target)
		if e.target.dir {
			what += " and everything in it"
		}
		text = "delete " + what + "? y/n"
	case promptOverwrite:
		text = e.pendingDst + " exists: replace it? y/n"
	default:
		text = e.flash
	}
	text = safetext.Line(text) // a path or an error may hold a control character
	if text == "" || width < 4 {
		return nil
	}
	var out []string
	for text != "" {
		n := len(cut(text, width))
		if n == 0 {
			break
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

// printable shows a name from the disk safely: a file name may hold an
// escape sequence, shown as safetext shows it (␛), never raw.
func printable(s string) string { return safetext.Line(s) }

// cut keeps the first w cells of s.
func cut(s string, w int) string {
	used, off := 0, 0
	state := -1
	for off < len(s) {
		g, _, gw, st := uniseg.FirstGraphemeClusterInString(s[off:], state)
		if used+gw > w {
			break
		}
		used, off, state = used+gw, off+len(g), st
	}
	return s[:off]
}

// put draws s from x in at most w cells and returns the cells used.
func put(screen tcell.Screen, x, y, w int, s string, st tcell.Style) int {
	used := 0
	state := -1
	for s != "" {
		var g string
		var gw int
		g, s, gw, state = uniseg.FirstGraphemeClusterInString(s, state)
		if used+gw > w {
			break
		}
		screen.Put(x+used, y, g, st)
		used += gw
	}
	return used
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

// dirWatcher watches the directories shown, through the project's shared
// watcher. An event in one lists it again after things settle; a write
// marks the file changed.
type dirWatcher struct {
	sub     *project.Sub
	own     *project.Watcher // made here when none was given; closed with us
	relist  func(dir string)
	written func(path string)

	mu     sync.Mutex
	timers map[string]*time.Timer
	closed bool
	wg     sync.WaitGroup
}

// settle is how long a directory must be quiet before it is listed again.
const settle = 80 * time.Millisecond

// newDirWatcher subscribes to pw, or to a watcher of its own when pw is nil.
func newDirWatcher(pw *project.Watcher, relist func(string), written func(string)) *dirWatcher {
	w := &dirWatcher{relist: relist, written: written, timers: map[string]*time.Timer{}}
	if pw == nil {
		pw = project.NewWatcher()
		w.own = pw
	}
	w.sub = pw.Subscribe(w.event)
	return w
}

func (w *dirWatcher) event(ev project.Event) {
	if ev.Op&(project.Written|project.Created) != 0 {
		w.written(ev.Path)
	}
	if ev.Op&(project.Created|project.Removed|project.Renamed) != 0 {
		w.soon(filepath.Dir(ev.Path))
	}
}

// soon lists dir once it has been quiet for settle.
func (w *dirWatcher) soon(dir string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || !w.sub.Watches(dir) {
		return
	}
	if t := w.timers[dir]; t != nil {
		t.Reset(settle)
		return
	}
	w.wg.Add(1)
	w.timers[dir] = time.AfterFunc(settle, func() {
		defer w.wg.Done()
		w.mu.Lock()
		delete(w.timers, dir)
		closed := w.closed
		w.mu.Unlock()
		if !closed {
			w.relist(dir)
		}
	})
}

// add watches dir, once however often it is listed (no live updates when
// the system gives no watches; Ctrl-R still reads the disk).
func (w *dirWatcher) add(dir string) {
	if w.sub.Watches(dir) {
		return
	}
	_ = w.sub.Add(dir)
}

// removeTree stops watching dir and everything below it.
func (w *dirWatcher) removeTree(dir string) {
	for _, d := range w.sub.Watching() {
		if d == dir || strings.HasPrefix(d, dir+string(filepath.Separator)) {
			w.sub.Remove(d)
		}
	}
}

func (w *dirWatcher) close() {
	w.sub.Close()
	w.mu.Lock()
	w.closed = true
	for d, t := range w.timers {
		if t.Stop() {
			w.wg.Done()
		}
		delete(w.timers, d)
	}
	w.mu.Unlock()
	w.wg.Wait()
	if w.own != nil {
		w.own.Close()
	}
}
