package main

import (
	"fmt"
	"sort"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/ui"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/dialogs"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/explorer"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/picker"
	"github.com/fawn-ide/fawn/ui/termview"
)

// defaultKeyTables are fawn's key tables as the app holds them: the global
// one, the panes' (which the global keys win over), and the modal ones
// (a dialog's, while the global keys are off).
func defaultKeyTables() (*keymap.Table, []*keymap.Table, []*keymap.Table) {
	return ui.GlobalKeys(),
		[]*keymap.Table{chat.ChatKeys(), chat.MessageKeys(), editor.DefaultKeys(), termview.DefaultKeys(), explorer.DefaultKeys()},
		[]*keymap.Table{dialogs.DialogKeys(), dialogs.HelpKeys(), picker.DefaultKeys()}
}

// checkKeyBindings applies the user's key bindings (keys.yaml, keys:) to
// fawn's tables and lists what does not work, each with the file and line
// that bound it: an action no table has, a key that does not parse, a key
// two actions would share.
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
	global, panes, modal := defaultKeyTables()
	all := append(append([]*keymap.Table{global}, panes...), modal...)
	var problems []string
	clean := map[string][]string{}
	for name, keys := range over {
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
	for _, c := range keymap.Conflicts(global, panes, modal) {
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
		if c.InA != c.InB && c.InA == global.Context {
			what += "; the global key wins everywhere"
		}
		problems = append(problems, fmt.Sprintf("%skeys.%s: %s is bound to both %s", where(name), name, c.Key, what))
	}
	sort.Strings(problems)
	return problems
}
