package commands

import (
	"fmt"
	"strings"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/ui/picker"
)

// modeHelp says what each permission mode lets through.
var modeHelp = map[agent.Mode]string{
	agent.ModeAsk:         "reads never ask; edits and commands ask",
	agent.ModeAcceptEdits: "edits run; commands ask",
	agent.ModePlan:        "edits and commands are refused: the agent explores and plans",
	agent.ModeYolo:        "nothing asks",
}

// Mode is /mode: show or set the permission mode.
func Mode() Command {
	return Command{Name: "mode", Args: "[ask|accept-edits|plan|yolo]", Help: "Show or set the permission mode", Run: func(h Host, args string) {
		if args == "" {
			pickMode(h)
			return
		}
		for _, m := range agent.Modes {
			if string(m) == args {
				h.SetMode(m)
				h.Info("permission mode: " + args)
				return
			}
		}
		var names []string
		for _, m := range agent.Modes {
			names = append(names, string(m))
		}
		h.Error(fmt.Sprintf("unknown mode %q — use %s, or /mode alone to choose", args, strings.Join(names, ", ")))
	}}
}

// pickMode shows the permission modes, the current one marked.
func pickMode(h Host) {
	cur := h.Agent().Mode()
	var items []picker.Item
	for _, m := range agent.Modes {
		items = append(items, picker.Item{Label: string(m), Detail: modeHelp[m], Current: m == cur, Value: m})
	}
	h.Pick("Permission mode", items, func(it picker.Item) {
		m := it.Value.(agent.Mode)
		h.SetMode(m)
		h.Info("permission mode: " + string(m) + " — " + modeHelp[m])
	})
}
