package ui

import (
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/hooks"
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

// hookKeeper is an agent with hooks (*agent.Session is one).
type hookKeeper interface {
	Hooks() hooks.Config
}

func (a *App) addHookCommands() {
	if _, ok := a.opts.Agent.(hookKeeper); !ok {
		return
	}
	a.commands.Add(Command{Name: "hooks", Help: "List the hooks configured, by event", Run: func(a *App, _ string) {
		cfg := a.opts.Agent.(hookKeeper).Hooks()
		if len(cfg) == 0 {
			a.list.Append(&noticeItem{kind: noticeInfo, text: "no hooks are configured: add them under hooks (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, PreCompact); see config.example.yaml"})
			return
		}
		var b strings.Builder
		b.WriteString("Hooks:")
		for _, ev := range hooks.Events {
			for _, g := range cfg[ev] {
				m := g.Matcher
				if m == "" {
					m = "*"
				}
				for _, h := range g.Hooks {
					fmt.Fprintf(&b, "\n  %-16s %-12s %s  (timeout %s)", ev, m, h.Command, h.Timeout)
				}
			}
		}
		a.list.Append(&noticeItem{kind: noticeInfo, text: b.String()})
	}})
}
