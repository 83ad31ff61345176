package ui

import (
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/commands"
	slash "github.com/fawn-ide/fawn/ui/commands"
)

// addCustomCommands loads the user's and the project's custom commands
// (off the UI goroutine) and adds them to the slash popup. A name fawn
// uses itself stays fawn's; a broken file is listed with its error.
func (a *App) addCustomCommands() {
	if a.cfg == nil {
		return
	}
	configDir, project := a.cfg.ConfigDir, a.opts.Root
	a.Go(func() {
		cs := commands.Load(configDir, project)
		if len(cs) == 0 {
			return
		}
		a.post(func() {
			var shadowed []string
			for _, c := range cs {
				if a.commands.Find(c.Name) != nil {
					shadowed = append(shadowed, "/"+c.Name+" ("+relPath(project, c.Path)+")")
					continue
				}
				c := c
				help := c.Description
				if c.Err != nil {
					help = "⚠ cannot run: " + c.Err.Error()
				}
				help += " · " + c.Scope + " command"
				a.commands.Add(slash.Command{Name: c.Name, Args: c.ArgumentHint, Help: help, Run: func(_ slash.Host, args string) {
					text, err := commands.Expand(c, args, project)
					if err != nil {
						a.list.Append(&noticeItem{kind: noticeError, text: err.Error()})
						return
					}
					if strings.HasPrefix(text, "/") {
						text = "/" + text // a prompt, not another command
					}
					a.submit(text)
				}})
			}
			if len(shadowed) > 0 {
				a.list.Append(&noticeItem{kind: noticeInfo, text: fmt.Sprintf("custom commands named like fawn's own are not used: %s", strings.Join(shadowed, ", "))})
			}
		})
	})
}

func (a *App) addSkillCommands() {
	sk := a.opts.Services.Skills
	if sk == nil {
		return
	}
	a.commands.Add(slash.Command{Name: "skills", Help: "List the skills the agent can load, and any that cannot be used", Run: func(_ slash.Host, _ string) {
		ss := sk.Skills()
		if len(ss) == 0 {
			a.list.Append(&noticeItem{kind: noticeInfo, text: "no skills: a skill is a folder with a SKILL.md (front matter name and description) in .fawn/skills/, .claude/skills/ or your config's skills/"})
			return
		}
		var b strings.Builder
		b.WriteString("Skills (the agent loads one with the skill tool when the task is what it describes):")
		for _, s := range ss {
			if s.Err != nil {
				fmt.Fprintf(&b, "\n  ⚠ %s — cannot be used: %v (%s)", s.Name, s.Err, relPath(a.opts.Root, s.Dir))
				continue
			}
			fmt.Fprintf(&b, "\n  %s — %s (%s, %s)", s.Name, s.Description, s.Scope, relPath(a.opts.Root, s.Dir))
		}
		a.list.Append(&noticeItem{kind: noticeInfo, text: b.String()})
	}})
}

func (a *App) addAgentCommands() {
	sk := a.opts.Services.Subagents
	if sk == nil {
		return
	}
	a.commands.Add(slash.Command{Name: "agents", Help: "List the subagents the agent can hand a task to, and any that cannot be used", Run: func(_ slash.Host, _ string) {
		ds := sk.Subagents()
		var b strings.Builder
		b.WriteString("Subagents (the agent hands one a task with the task tool; a definition is a Markdown file in .fawn/agents/, .claude/agents/ or your config's agents/):")
		for _, d := range ds {
			where := d.Scope
			if d.Path != "" {
				where += ", " + relPath(a.opts.Root, d.Path)
			}
			if d.Err != nil {
				fmt.Fprintf(&b, "\n  ⚠ %s — cannot be used: %v (%s)", d.Name, d.Err, where)
				continue
			}
			tools := "all tools but task and todo_write"
			if d.Tools != nil {
				tools = "tools: " + strings.Join(d.Tools, ", ")
			}
			model := ""
			if d.Model != "" && d.Model != "inherit" {
				model = " · model: " + d.Model
			}
			fmt.Fprintf(&b, "\n  %s — %s (%s · %s%s)", d.Name, d.Description, where, tools, model)
		}
		a.list.Append(&noticeItem{kind: noticeInfo, text: b.String()})
	}})
}
