package commands

import (
	"fmt"
	"strings"

	custom "github.com/fawn-ide/fawn/commands"
	"github.com/fawn-ide/fawn/ui/render"
)

// AddCustom loads the user's and the project's custom commands (off the UI
// goroutine) and adds them to the registry. A name fawn uses itself stays
// fawn's; a broken file is listed with its error.
func AddCustom(h Host) {
	configDir, project := h.Config().ConfigDir, h.Root()
	h.Go(func() {
		cs := custom.Load(configDir, project)
		if len(cs) == 0 {
			return
		}
		h.Post(func() {
			reg := h.Commands()
			var shadowed []string
			for _, c := range cs {
				if reg.Find(c.Name) != nil {
					shadowed = append(shadowed, "/"+c.Name+" ("+render.RelPath(project, c.Path)+")")
					continue
				}
				help := c.Description
				if c.Err != nil {
					help = "⚠ cannot run: " + c.Err.Error()
				}
				help += " · " + c.Scope + " command"
				reg.Add(Command{Name: c.Name, Args: c.ArgumentHint, Help: help, Run: func(h Host, args string) {
					text, err := custom.Expand(c, args, project)
					if err != nil {
						h.Error(err.Error())
						return
					}
					if strings.HasPrefix(text, "/") {
						text = "/" + text // a prompt, not another command
					}
					h.Submit(text)
				}})
			}
			if len(shadowed) > 0 {
				h.Info(fmt.Sprintf("custom commands named like fawn's own are not used: %s", strings.Join(shadowed, ", ")))
			}
		})
	})
}

// Skills is /skills: the skills the agent can load. It needs the Skills
// service.
func Skills() Command {
	return Command{Name: "skills", Help: "List the skills the agent can load, and any that cannot be used", Run: func(h Host, _ string) {
		ss := h.Services().Skills.Skills()
		if len(ss) == 0 {
			h.Info("no skills: a skill is a folder with a SKILL.md (front matter name and description) in .fawn/skills/, .claude/skills/ or your config's skills/")
			return
		}
		root := h.Root()
		var b strings.Builder
		b.WriteString("Skills (the agent loads one with the skill tool when the task is what it describes):")
		for _, s := range ss {
			if s.Err != nil {
				fmt.Fprintf(&b, "\n  ⚠ %s — cannot be used: %v (%s)", s.Name, s.Err, render.RelPath(root, s.Dir))
				continue
			}
			fmt.Fprintf(&b, "\n  %s — %s (%s, %s)", s.Name, s.Description, s.Scope, render.RelPath(root, s.Dir))
		}
		h.Info(b.String())
	}}
}

// Agents is /agents: the subagents the agent can hand a task to. It needs
// the Subagents service.
func Agents() Command {
	return Command{Name: "agents", Help: "List the subagents the agent can hand a task to, and any that cannot be used", Run: func(h Host, _ string) {
		ds := h.Services().Subagents.Subagents()
		root := h.Root()
		var b strings.Builder
		b.WriteString("Subagents (the agent hands one a task with the task tool; a definition is a Markdown file in .fawn/agents/, .claude/agents/ or your config's agents/):")
		for _, d := range ds {
			where := d.Scope
			if d.Path != "" {
				where += ", " + render.RelPath(root, d.Path)
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
		h.Info(b.String())
	}}
}
