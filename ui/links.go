package ui

import (
	"net/url"
	"os"
	"os/exec"
	"runtime"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/proc"
)

// openLink opens a hyperlink the user asked for in the terminal pane
// (OSC 8): a file in the editor, a web page in the browser — or, where
// there is no browser to start (over ssh, no xdg-open), on the clipboard.
// Other schemes are refused: the link comes from a program's output.
func (a *App) openLink(link string) {
	u, err := url.Parse(link)
	if err != nil {
		a.flash("not a link fawn can open: " + link)
		return
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			if h, _ := os.Hostname(); u.Host != h {
				a.flash("the link is to a file on " + u.Host + ": " + u.Path)
				return
			}
		}
		if err := a.task.editor.Open(u.Path, 0); err != nil {
			a.flash(err.Error())
			return
		}
		a.setFocus(a.task.editor)
	case "http", "https":
		opener := map[string]string{"darwin": "open"}[runtime.GOOS]
		if opener == "" {
			opener = "xdg-open"
		}
		path, err := exec.LookPath(opener)
		if err != nil || os.Getenv("SSH_CONNECTION") != "" {
			a.copy(link)
			a.flash("copied the link (no browser to open here): " + link)
			return
		}
		a.Go(func() {
			// Its own process group, not fawn's: the browser an opener
			// starts (and may wait for) is the user's, and must neither get
			// the terminal's signals nor be killed with the opener. Nothing
			// is read from it, so nothing waits on what it leaves running.
			cmd := proc.Own(exec.Command(path, link))
			cmd.Env, _ = config.CleanEnv(os.Environ(), a.cfg.Shell) // no model keys
			_ = cmd.Run()
		})
		a.flash("opening " + link)
	default:
		a.flash("fawn opens http, https and file links only, not " + u.Scheme + ":")
	}
}
