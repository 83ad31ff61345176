package ui

import (
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/rules"
)

// ruleKeeper is an agent with permission rules (*agent.Session is one).
type ruleKeeper interface {
	Rules() []rules.Rule
}

func (a *App) addPermissionCommands() {
	if _, ok := a.opts.Agent.(ruleKeeper); !ok {
		return
	}
	a.commands.Add(Command{Name: "permissions", Help: "List the permission rules in force, where each comes from, and the mode", Run: func(a *App, _ string) {
		a.list.Append(&noticeItem{kind: noticeInfo, text: permissionsText(a.opts.Agent.(ruleKeeper).Rules(), string(a.opts.Agent.Mode()))})
	}})
}

func permissionsText(rs []rules.Rule, mode string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Permission mode: %s. Rules are checked first: deny beats ask beats allow", mode)
	if len(rs) == 0 {
		b.WriteString(".\nNo rules: add them under permissions.allow, ask and deny (e.g. allow: [\"bash(go test:*)\"]); see config.example.yaml.")
		return b.String()
	}
	b.WriteString(":")
	for _, eff := range []rules.Effect{rules.Deny, rules.Ask, rules.Allow} {
		for _, r := range rs {
			if r.Effect != eff {
				continue
			}
			src := r.Source
			if src == "" {
				src = "set by fawn"
			}
			fmt.Fprintf(&b, "\n  %-5s %s  — %s", eff, r.Raw, src)
		}
	}
	return b.String()
}
