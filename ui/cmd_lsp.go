package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/lsp"
	"github.com/fawn-ide/fawn/ui/commands"
)

// SetLSP gives the app the project's language servers. Call it before Run.
func (a *App) SetLSP(m commands.LSPView) { a.lsp = m }

// addLSPCommand registers /lsp.
func (a *App) addLSPCommand() {
	a.commands.Add(commands.Command{Name: "lsp", Args: "[restart [NAME]]", Help: "Show each language server: state, root, pid, open files, last error; restart one", Run: func(_ commands.Host, args string) {
		if a.lsp == nil {
			a.list.Append(&noticeItem{kind: noticeInfo, text: "no language servers in this session (lsp.* in the configuration; see config.example.yaml)"})
			return
		}
		if name, ok := strings.CutPrefix(args, "restart"); ok && (name == "" || name[0] == ' ') {
			name = strings.TrimSpace(name)
			if err := a.lsp.Restart(name); err != nil {
				a.list.Append(&noticeItem{kind: noticeError, text: err.Error()})
				return
			}
			what := name
			if what == "" {
				what = "every language server"
			}
			a.list.Append(&noticeItem{kind: noticeInfo, text: "restarting " + what})
			return
		}
		if args != "" {
			a.list.Append(&noticeItem{kind: noticeError, text: fmt.Sprintf("unknown /lsp argument %q — /lsp shows the servers, /lsp restart NAME restarts one", args)})
			return
		}
		a.list.Append(&noticeItem{kind: noticeInfo, text: lspText(a.lsp.Statuses(), a.opts.Root)})
	}})
}

func lspText(st []lsp.Status, root string) string {
	var b strings.Builder
	b.WriteString("Language servers:")
	for _, s := range st {
		fmt.Fprintf(&b, "\n  %s — %s", s.Name, s.State)
		if s.PID != 0 {
			fmt.Fprintf(&b, " (pid %d, %d open, up %s)", s.PID, s.Open, fmtDuration(time.Since(s.Since).Round(time.Second)))
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
