package commands

import (
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/hooks"
	"github.com/fawn-ide/fawn/rules"
)

// Permissions is /permissions: the rules in force, where each comes from,
// and the mode; /permissions remove RULE takes one out. It needs the Rules
// service.
func Permissions() Command {
	return Command{Name: "permissions", Args: "[remove RULE]", Help: "List the permission rules in force, where each comes from, and the mode; remove one", Run: func(h Host, args string) {
		rk := h.Services().Rules
		if raw, ok := strings.CutPrefix(strings.TrimSpace(args), "remove"); ok {
			removeRule(h, rk, strings.TrimSpace(raw))
			return
		}
		h.Info(permissionsText(rk.Rules(), string(h.Agent().Mode())))
	}}
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

// Hooks is /hooks: the hooks configured, by event. It needs the Hooks
// service.
func Hooks() Command {
	return Command{Name: "hooks", Help: "List the hooks configured, by event", Run: func(h Host, _ string) {
		cfg := h.Services().Hooks.Hooks()
		if len(cfg) == 0 {
			h.Info("no hooks are configured: add them under hooks (PreToolUse, PostToolUse, UserPromptSubmit, Stop, SessionStart, PreCompact); see config.example.yaml")
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
				for _, hk := range g.Hooks {
					fmt.Fprintf(&b, "\n  %-16s %-12s %s  (timeout %s)", ev, m, hk.Command, hk.Timeout)
				}
			}
		}
		h.Info(b.String())
	}}
}

// removeRule takes a rule out of force: from the rules the dialog saved,
// or, for one a config file sets, says where to remove it.
func removeRule(h Host, rk backend.RuleKeeper, raw string) {
	if raw == "" {
		h.Error("which rule? /permissions remove bash(go test:*) (/permissions lists them)")
		return
	}
	var found *rules.Rule
	for _, r := range rk.Rules() {
		if r.Raw == raw {
			r := r
			found = &r
			break
		}
	}
	if found == nil {
		h.Error("no rule " + raw + " is in force (/permissions lists them)")
		return
	}
	local := ""
	if cfg := h.Config(); cfg != nil {
		local = config.LocalRulesFile(cfg.DataDir, cfg.ProjectDir)
	}
	if local != "" && (found.Source == local || strings.HasPrefix(found.Source, local+":")) {
		if _, err := config.RemoveLocalRule(local, found.Effect.String(), raw); err != nil {
			h.Error("could not remove it from " + local + ": " + err.Error())
			return
		}
		rk.RemoveRule(found.Effect, raw)
		h.Info(fmt.Sprintf("removed the rule %s %s", found.Effect, raw))
		return
	}
	rk.RemoveRule(found.Effect, raw)
	h.Info(fmt.Sprintf("the rule %s %s is off for this session; it comes from %s: remove it there to keep it off", found.Effect, raw, found.Source))
}
