package commands

import (
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/ui/picker"
)

// Task is /task: list the tasks and switch, start one in a worktree of its
// own (/task new NAME [PROMPT]), review the one shown against its base,
// merge it into its base branch or discard it.
func Task() Command {
	return Command{Name: "task", Args: "[new NAME [PROMPT] | review | merge | discard]", Help: "Show the tasks; /task new NAME [PROMPT] starts one in its own git worktree, /task review shows its branch against the base in the Changes tab, /task merge merges the task shown into its base branch, /task discard throws it away", Run: func(h Host, args string) {
		sub, rest, _ := strings.Cut(args, " ")
		switch sub {
		case "":
			pickTask(h)
		case "new":
			name, prompt, _ := strings.Cut(strings.TrimSpace(rest), " ")
			if name == "" {
				h.Error("which name? /task new NAME [PROMPT] — the task works on branch fawn/NAME in a worktree of its own")
				return
			}
			h.NewTask(name, strings.TrimSpace(prompt))
		case "review":
			h.ReviewTask()
		case "merge":
			h.MergeTask()
		case "discard":
			h.DiscardTask()
		default:
			h.Error(fmt.Sprintf("unknown /task %s — /task lists the tasks, /task new NAME [PROMPT] starts one, /task review, /task merge and /task discard finish the one shown", sub))
		}
	}}
}

// pickTask lists the tasks, the one shown marked; choosing one shows it.
func pickTask(h Host) {
	var items []picker.Item
	for i, t := range h.Tasks() {
		name := t.Name
		if name == "" {
			name = "project"
		}
		where := t.Root
		if t.Branch != "" {
			where = t.Branch + " · " + t.Root
		}
		items = append(items, picker.Item{Label: fmt.Sprintf("%d %s", i+1, name), Detail: t.State + " · " + where, Current: t.Shown, Value: i})
	}
	h.Pick("Tasks (/task new NAME starts one)", items, func(it picker.Item) { h.ShowTask(it.Value.(int)) })
}
