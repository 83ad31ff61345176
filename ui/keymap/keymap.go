// Package keymap holds key bindings as data: one Table per context (chat,
// editor, terminal, global), each binding naming an action, its keys and a
// line of help. Widgets look keys up here instead of switching on them, the
// help overlay is generated from the tables, and the user's bindings
// (keys.yaml, the config's keys: or ui.keys: section) override them;
// Conflicts finds a key two actions would share.
//
// It imports nothing of fawn; ui, ui/editor, ui/explorer, ui/termview and
// cmd/fawn import it.
package keymap

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/gdamore/tcell/v2"
)

// Action is what a key does, by the name ui.keys in the config overrides it
// by ("editor.save"). Each widget declares its actions as constants and
// switches on those, so a table and its switch cannot drift apart by a typo.
type Action string

// Binding maps keys to a named action.
type Binding struct {
	Action Action   // "editor.save"
	Keys   []string // "ctrl+s", "alt+1", "f1", "shift+pgup"
	Help   string   // "Save the file"
	Hidden bool     // left out of the help overlay
}

// Table is the bindings of one context.
type Table struct {
	Context  string // "Editor"
	Bindings []Binding
	index    map[Key]Action
}

// Key is a normalised key: a tcell key (or KeyRune with its rune) plus modifiers.
type Key struct {
	K    tcell.Key
	R    rune
	Mods tcell.ModMask
}

// New builds a table; it panics on a malformed built-in key (a programming error).
func New(context string, bindings ...Binding) *Table {
	t := &Table{Context: context, Bindings: bindings}
	if err := t.reindex(); err != nil {
		panic(err)
	}
	return t
}

func (t *Table) reindex() error {
	t.index = map[Key]Action{}
	for _, b := range t.Bindings {
		for _, s := range b.Keys {
			k, err := Parse(s)
			if err != nil {
				return fmt.Errorf("%s: %w", b.Action, err)
			}
			t.index[k] = b.Action
		}
	}
	return nil
}

// Action returns the action bound to ev in this table, or "".
func (t *Table) Action(ev *tcell.EventKey) Action {
	return t.index[FromEvent(ev)]
}

// ActionFold is Action, except that a capital letter no binding names
// finds the binding of its small letter: a question's answers (y, n…)
// take either case, as they always have.
func (t *Table) ActionFold(ev *tcell.EventKey) Action {
	k := FromEvent(ev)
	if a := t.index[k]; a != "" || k.K != tcell.KeyRune || k.Mods != 0 || !unicode.IsUpper(k.R) {
		return a
	}
	k.R = unicode.ToLower(k.R)
	return t.index[k]
}

// Hint is the first key bound to action as help shows it ("Ctrl-S", "y"),
// or "" when the user bound it to none.
func (t *Table) Hint(action Action) string {
	if k := t.Keys(action); len(k) > 0 {
		return Display(k[0])
	}
	return ""
}

// Keys returns the keys bound to action, for hints ("Ctrl-S").
func (t *Table) Keys(action Action) []string {
	for _, b := range t.Bindings {
		if b.Action == action {
			return b.Keys
		}
	}
	return nil
}

// Override replaces the keys of the actions named in overrides that belong to
// this table; names it does not know are returned so the caller can warn.
func (t *Table) Override(overrides map[string][]string) (unknown []string, err error) {
	for name, keys := range overrides {
		found := false
		for i := range t.Bindings {
			if string(t.Bindings[i].Action) == name {
				for _, k := range keys {
					if _, err := Parse(k); err != nil {
						return nil, fmt.Errorf("ui.keys.%s: %w", name, err)
					}
				}
				t.Bindings[i].Keys = append([]string(nil), keys...)
				found = true
			}
		}
		if !found {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	return unknown, t.reindex()
}

// FromEvent normalises a tcell key event. Control keys arrive from tcell either
// as KeyCtrlX or as a rune with ModCtrl; both normalise to the same Key.
func FromEvent(ev *tcell.EventKey) Key {
	k := Key{K: ev.Key(), Mods: ev.Modifiers()}
	if k.K == tcell.KeyRune {
		k.R = ev.Rune()
		if k.Mods&tcell.ModShift != 0 && k.R != ' ' {
			// Shift is already in the rune's case ('A', '?').
			k.Mods &^= tcell.ModShift
		}
		if k.Mods&tcell.ModCtrl != 0 && k.R >= 'a' && k.R <= 'z' {
			return Key{K: tcell.KeyCtrlA + tcell.Key(k.R-'a'), Mods: k.Mods &^ tcell.ModCtrl}
		}
		return k
	}
	if k.K == tcell.KeyBackspace {
		// tcell reports the Backspace key (DEL) as KeyBackspace, and
		// 0x08 (Ctrl-H, Ctrl-Backspace in xterm) as KeyBackspace with
		// Ctrl; Parse reads "backspace" as KeyBackspace2.
		k.K = tcell.KeyBackspace2
	}
	if k.K >= tcell.KeyCtrlA && k.K <= tcell.KeyCtrlZ {
		// tcell sets ModCtrl on these; the key itself says Ctrl.
		k.Mods &^= tcell.ModCtrl
	}
	if k.K >= tcell.KeyCtrlBackslash && k.K <= tcell.KeyCtrlUnderscore {
		// Ctrl-\ Ctrl-] Ctrl-^ Ctrl-_ (0x1c-0x1f) arrive as these keys
		// from a legacy terminal and as the rune with Ctrl from one with
		// extended key reporting; Parse gives the rune.
		return Key{K: tcell.KeyRune, R: rune('\\' + k.K - tcell.KeyCtrlBackslash), Mods: k.Mods | tcell.ModCtrl}
	}
	return k
}

var named = map[string]tcell.Key{
	"enter": tcell.KeyEnter, "tab": tcell.KeyTab, "backtab": tcell.KeyBacktab, "esc": tcell.KeyEscape,
	"escape": tcell.KeyEscape, "backspace": tcell.KeyBackspace2, "delete": tcell.KeyDelete,
	"insert": tcell.KeyInsert, "up": tcell.KeyUp, "down": tcell.KeyDown, "left": tcell.KeyLeft,
	"right": tcell.KeyRight, "home": tcell.KeyHome, "end": tcell.KeyEnd, "pgup": tcell.KeyPgUp,
	"pgdn": tcell.KeyPgDn, "pageup": tcell.KeyPgUp, "pagedown": tcell.KeyPgDn,
	"f1": tcell.KeyF1, "f2": tcell.KeyF2, "f3": tcell.KeyF3, "f4": tcell.KeyF4, "f5": tcell.KeyF5,
	"f6": tcell.KeyF6, "f7": tcell.KeyF7, "f8": tcell.KeyF8, "f9": tcell.KeyF9, "f10": tcell.KeyF10,
	"f11": tcell.KeyF11, "f12": tcell.KeyF12,
}

// Parse reads "ctrl+s", "alt+shift+up", "f1", "?" or "space" into a Key.
func Parse(s string) (Key, error) {
	orig := s
	// Names and modifiers are case-blind; a key's own letter is not: "G"
	// is Shift-g, not g.
	s = strings.TrimSpace(s)
	if s == "" {
		return Key{}, fmt.Errorf("empty key")
	}
	var mods tcell.ModMask
	parts := strings.Split(s, "+")
	if strings.HasSuffix(s, "++") { // "ctrl++"
		parts = append(strings.Split(strings.TrimSuffix(s, "++"), "+"), "+")
	}
	base := parts[len(parts)-1]
	for _, m := range parts[:len(parts)-1] {
		switch strings.ToLower(m) {
		case "ctrl", "c":
			mods |= tcell.ModCtrl
		case "alt", "meta", "m", "a":
			mods |= tcell.ModAlt
		case "shift", "s":
			mods |= tcell.ModShift
		default:
			return Key{}, fmt.Errorf("unknown modifier %q in key %q (use ctrl, alt, shift)", m, orig)
		}
	}
	if k, ok := named[strings.ToLower(base)]; ok {
		return Key{K: k, Mods: mods}, nil
	}
	if strings.ToLower(base) == "space" {
		base = " "
	}
	r := []rune(base)
	if len(r) != 1 {
		return Key{}, fmt.Errorf("unknown key %q (examples: ctrl+s, alt+1, f1, shift+pgup)", orig)
	}
	if mods&tcell.ModCtrl != 0 {
		r[0] = unicode.ToLower(r[0]) // Ctrl-S and Ctrl-s are one key
	}
	if mods&tcell.ModCtrl != 0 && r[0] >= 'a' && r[0] <= 'z' {
		return Key{K: tcell.KeyCtrlA + tcell.Key(r[0]-'a'), Mods: mods &^ tcell.ModCtrl}, nil
	}
	if mods&tcell.ModShift != 0 && r[0] >= 'a' && r[0] <= 'z' {
		return Key{K: tcell.KeyRune, R: r[0] - 'a' + 'A', Mods: mods &^ tcell.ModShift}, nil
	}
	return Key{K: tcell.KeyRune, R: r[0], Mods: mods}, nil
}

// Display renders a key spec for help: "ctrl+s" → "Ctrl-S", "y" → "y".
func Display(spec string) string {
	if len([]rune(spec)) == 1 {
		return spec // a plain key: "y", "?", "G"
	}
	if spec == "space" {
		return "Space"
	}
	parts := strings.Split(spec, "+")
	if strings.HasSuffix(spec, "++") {
		parts = append(strings.Split(strings.TrimSuffix(spec, "++"), "+"), "+")
	}
	for i, p := range parts {
		switch strings.ToLower(p) {
		case "ctrl":
			parts[i] = "Ctrl"
		case "alt":
			parts[i] = "Alt"
		case "shift":
			parts[i] = "Shift"
		case "pgup":
			parts[i] = "PgUp"
		case "pgdn":
			parts[i] = "PgDn"
		case "esc":
			parts[i] = "Esc"
		default:
			if len(p) == 1 {
				parts[i] = strings.ToUpper(p)
			} else {
				parts[i] = strings.ToUpper(p[:1]) + p[1:]
			}
		}
	}
	return strings.Join(parts, "-")
}

// Only returns the bindings of the named actions, to join another
// context's in a Scope.
func (t *Table) Only(actions ...Action) []Binding {
	var out []Binding
	for _, b := range t.Bindings {
		for _, a := range actions {
			if b.Action == a {
				out = append(out, b)
			}
		}
	}
	return out
}

// Scope is one table of bindings in force at once though kept in several
// tables (a question's answers and the key that cancels every question),
// for Conflicts to check together. A key that does not parse is left out:
// Override refuses it first.
func Scope(context string, parts ...[]Binding) *Table {
	t := &Table{Context: context}
	for _, p := range parts {
		t.Bindings = append(t.Bindings, p...)
	}
	t.index = map[Key]Action{}
	for _, b := range t.Bindings {
		for _, s := range b.Keys {
			if k, err := Parse(s); err == nil {
				t.index[k] = b.Action
			}
		}
	}
	return t
}

// Conflict is a key two actions share where only one can have it: in one
// table, or in the global table and a pane's (the global one always wins).
type Conflict struct {
	Key     string // as written in the first binding
	A, B    Action
	InA     string // the tables' contexts
	InB     string
	Overlap Key
}

// Conflicts lists the keys bound twice in one table, or in global and one
// of panes. Modal tables (a dialog's) are checked alone: the global keys
// are off while they show.
func Conflicts(global *Table, panes, modal []*Table) []Conflict {
	var out []Conflict
	type owner struct {
		a    Action
		ctx  string
		spec string
	}
	check := func(seen map[Key]owner, t *Table) {
		for _, b := range t.Bindings {
			for _, s := range b.Keys {
				k, err := Parse(s)
				if err != nil {
					continue
				}
				if o, ok := seen[k]; ok && o.a != b.Action {
					out = append(out, Conflict{Key: o.spec, A: o.a, B: b.Action, InA: o.ctx, InB: t.Context, Overlap: k})
					continue
				}
				seen[k] = owner{b.Action, t.Context, s}
			}
		}
	}
	globals := map[Key]owner{}
	if global != nil {
		check(globals, global)
	}
	for _, t := range panes {
		seen := map[Key]owner{}
		for k, o := range globals {
			seen[k] = o
		}
		check(seen, t)
	}
	for _, t := range modal {
		check(map[Key]owner{}, t)
	}
	return out
}
