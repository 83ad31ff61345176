package commands

import (
	"fmt"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/lsp"
	"github.com/fawn-ide/fawn/ui/render"
)

// LSP is /lsp: each language server's state; /lsp restart NAME restarts one.
func LSP() Command {
	return Command{Name: "lsp", Args: "[restart [NAME]]", Help: "Show each language server: state, root, pid, open files, last error; restart one", Run: func(h Host, args string) {
		ls := h.LSP()
		if ls == nil {
			h.Info("no language servers in this session (lsp.* in the configuration; see config.example.yaml)")
			return
		}
		if name, ok := strings.CutPrefix(args, "restart"); ok && (name == "" || name[0] == ' ') {
			name = strings.TrimSpace(name)
			if err := ls.Restart(name); err != nil {
				h.Error(err.Error())
				return
			}
			what := name
			if what == "" {
				what = "every language server"
			}
			h.Info("restarting " + what)
			return
		}
		if args != "" {
			h.Error(fmt.Sprintf("unknown /lsp argument %q — /lsp shows the servers, /lsp restart NAME restarts one", args))
			return
		}
		h.Info(lspText(ls.Statuses(), h.Root()))
	}}
}

func lspText(st []lsp.Status, root string) string {
	var b strings.Builder
	b.WriteString("Language servers:")
	for _, s := range st {
		fmt.Fprintf(&b, "\n  %s — %s", s.Name, s.State)
		if s.PID != 0 {
			fmt.Fprintf(&b, " (pid %d, %d open, up %s)", s.PID, s.Open, render.HumanDuration(time.Since(s.Since).Round(time.Second)))
		}
		if s.Root != "" {
			r := strings.TrimPrefix(strings.TrimPrefix(s.Root, root), "/")
			if r == "" {
				r = "the project root"
			}
			fmt.Fprintf(&b, "\n      root: %s", r)
		}
		if s.Command != "" {
			fmt.Fprintf(&b, "\n      command: %s", s.Command)
		}
		if s.LastErr != "" {
			fmt.Fprintf(&b, "\n      last error: %s", s.LastErr)
		}
	}
	return b.String()
}
