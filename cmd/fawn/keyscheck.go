package main

import (
	"fmt"
	"slices"
	"sort"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/ui"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/explorer"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/panes"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/termview"
	"github.com/fawn-ide/fawn/ui/trustprompt"
)

// keyTables are fawn's key tables as the app holds them: the global one,
// the panes' and the contexts the global keys stay on in (which the
// global keys win over), and the modal ones (a dialog's, keyboard
// selection in a terminal, the trust prompt: the global keys are off
// while they show). scopes are the keys in force together though kept
// in several tables, built from the tables as they are after the user's
// bindings.
type keyTables struct {
	global       *keymap.Table
	panes, modal []*keymap.Table
	scopes       func() []*keymap.Table
}

func (k keyTables) all() []*keymap.Table {
	return append(append([]*keymap.Table{k.global}, k.panes...), k.modal...)
}

func defaultKeyTables() keyTables {
	ed, edSet := editor.DefaultKeys(), editor.DefaultKeySet()
	term := termview.DefaultKeySet()
	lists := panes.DefaultKeys()
	ask := explorer.DefaultPromptKeys()
	p := []*keymap.Table{chat.ChatKeys(), chat.ChatVimKeys(), chat.MessageKeys(), ed, term.Pane, explorer.DefaultKeys()}
	p = append(p, ask.Tables()...)
	p = append(p, lists.Tables()...)
	// The finder's table is the picker's, checked as such.
	p = append(p, slices.DeleteFunc(edSet.Tables(), func(t *keymap.Table) bool { return t == edSet.Finder })...)
	return keyTables{
		global: ui.GlobalKeys(),
		panes:  p,
		modal: append([]*keymap.Table{dialogs.DialogKeys(), dialogs.HelpKeys(), dialogs.EditKeys(), picker.DefaultKeys(), term.Select, term.Find, trustprompt.DefaultKeys()},
			dialogs.DefaultAskKeys().Tables()...),
		scopes: func() []*keymap.Table { return append(edSet.Scopes(ed), term.Scopes()...) },
	}
}

// cleanKeys is the user's bindings whose keys all parse, and a problem
// for each key that does not.
func cleanKeys(cfg *config.Config) (map[string][]string, []string) {
	where := func(action string) string {
		if s := cfg.UI.KeySources[action]; s != "" {
			return s + ": "
		}
		return ""
	}
	var problems []string
	clean := map[string][]string{}
	for name, keys := range cfg.UI.Keys {
		ok := true
		for _, k := range keys {
			if _, err := keymap.Parse(k); err != nil {
				problems = append(problems, fmt.Sprintf("%skeys.%s: %v", where(name), name, err))
				ok = false
			}
		}
		if ok {
			clean[name] = keys
		}
	}
	return clean, problems
}

// userKeys applies the user's bindings to t (one shown before the App,
// which reports what is wrong with them) and returns it.
func userKeys(cfg *config.Config, t *keymap.Table) *keymap.Table {
	clean, _ := cleanKeys(cfg)
	_, _ = t.Override(clean)
	return t
}

// checkKeyBindings applies the user's key bindings (keys.yaml, keys:) to
// fawn's tables and lists what does not work, each with the file and line
// that bound it: an action no table has, a key that does not parse, a key
// two actions in force at once would share.
func checkKeyBindings(cfg *config.Config) []string {
	over := cfg.UI.Keys
	if len(over) == 0 {
		return nil
	}
	where := func(action string) string {
		if s := cfg.UI.KeySources[action]; s != "" {
			return s + ": "
		}
		return ""
	}
	tables := defaultKeyTables()
	all := tables.all()
	clean, problems := cleanKeys(cfg)
	unknownIn := map[string]int{}
	for _, t := range all {
		unknown, _ := t.Override(clean)
		for _, u := range unknown {
			unknownIn[u]++
		}
	}
	for name, n := range unknownIn {
		if n == len(all) {
			problems = append(problems, fmt.Sprintf("%skeys.%s: no such action (F1 in fawn lists them)", where(name), name))
		}
	}
	for _, c := range keymap.Conflicts(tables.global, tables.panes, append(tables.modal, tables.scopes()...)) {
		// Only a conflict the user's bindings made: the defaults are
		// kept free of them by a test.
		_, a := over[string(c.A)]
		_, b := over[string(c.B)]
		if !a && !b {
			continue
		}
		name := string(c.B)
		if !b {
			name = string(c.A)
		}
		what := fmt.Sprintf("%s (%s) and %s (%s)", c.A, c.InA, c.B, c.InB)
		if c.InA != c.InB && c.InA == tables.global.Context {
			what += "; the global key wins everywhere"
		}
		problems = append(problems, fmt.Sprintf("%skeys.%s: %s is bound to both %s", where(name), name, c.Key, what))
	}
	sort.Strings(problems)
	return slices.Compact(problems) // a table's conflict is its scope's too
}
