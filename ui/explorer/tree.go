package explorer

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/fawn-ide/fawn/project"
)

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
