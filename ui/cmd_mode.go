package ui

import (
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/picker"
)

// modeHelp says what each permission mode lets through.
var modeHelp = map[agent.Mode]string{
	agent.ModeAsk:         "reads never ask; edits and commands ask",
	agent.ModeAcceptEdits: "edits run; commands ask",
	agent.ModePlan:        "edits and commands are refused: the agent explores and plans",
	agent.ModeYolo:        "nothing asks",
}

// addModeCommands registers /mode.
func (a *App) addModeCommands() {
	a.commands.Add(commands.Command{Name: "mode", Args: "[ask|accept-edits|plan|yolo]", Help: "Show or set the permission mode", Run: func(_ commands.Host, args string) {
		if args == "" {
			a.pickMode()
			return
		}
		for _, m := range agent.Modes {
			if string(m) == args {
				a.setMode(m)
				a.list.Append(&noticeItem{kind: noticeInfo, text: "permission mode: " + args})
				return
			}
		}
		var names []string
		for _, m := range agent.Modes {
			names = append(names, string(m))
		}
		a.list.Append(&noticeItem{kind: noticeError, text: fmt.Sprintf("unknown mode %q — use %s, or /mode alone to choose", args, strings.Join(names, ", "))})
	}})
}

// pickMode shows the permission modes, the current one marked.
func (a *App) pickMode() {
	cur := a.opts.Agent.Mode()
	var items []picker.Item
	for _, m := range agent.Modes {
		items = append(items, picker.Item{Label: string(m), Detail: modeHelp[m], Current: m == cur, Value: m})
	}
	p := picker.New(&a.th, "Permission mode", items)
	p.OnPick = func(it picker.Item) {
		m := it.Value.(agent.Mode)
		a.setMode(m)
		a.list.Append(&noticeItem{kind: noticeInfo, text: "permission mode: " + string(m) + " — " + modeHelp[m]})
	}
	a.openPicker(p)
}
