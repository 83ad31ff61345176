package ui

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/proc"
	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/render"
)

// What fawn hands to the desktop around it: attention (the bell or a
// notification), the clipboard, and links opened in the user's browser or
// editor.

// Attention: when a turn ends or a permission is asked while the terminal
// window is not focused (the terminal reports focus, mode 1004), fawn rings
// the bell or sends a desktop notification (OSC 9 or OSC 777), as ui.notify
// says. A terminal that never reports focus is taken as focused: no
// notification rather than one on every turn.

// Notification methods (ui.notify).
const (
	notifyBell   = "bell"
	notifyOSC9   = "osc9"
	notifyOSC777 = "osc777"
	notifyOff    = "off"
)

// attend asks for the user's attention with body, unless the window has
// the focus or notifications are off. It runs on the UI goroutine, which
// is the one that draws, so the sequence never lands inside a frame.
func (a *App) attend(body string) {
	if a.windowFocused || a.cfg.UI.Notify == notifyOff {
		return
	}
	a.attentions++
	method := a.cfg.UI.Notify
	if method == "" {
		method = notifyBell
	}
	if method == notifyBell || a.tty == nil {
		if a.screen != nil {
			_ = a.screen.Beep()
		}
		return
	}
	title := "fawn"
	if a.task.root != "" {
		title = "fawn — " + lastElem(a.task.root)
	}
	_, _ = a.tty.Write(notification(method, title, body, os.Getenv("TMUX") != ""))
}

// notification is the escape sequence of a desktop notification: OSC 9
// (iTerm2, WezTerm, kitty, Windows Terminal) or OSC 777 (urxvt, foot,
// Ghostty, VTE), wrapped for tmux's passthrough when inside tmux.
func notification(method, title, body string, tmux bool) []byte {
	clean := func(s string) string {
		s = render.Sanitize(strings.ReplaceAll(s, "\n", " "), 1)
		if r := []rune(s); len(r) > 200 {
			s = string(r[:199]) + "…"
		}
		return s
	}
	var seq string
	switch method {
	case notifyOSC777:
		seq = "\x1b]777;notify;" + strings.ReplaceAll(clean(title), ";", ",") + ";" + clean(body) + "\x07"
	default:
		seq = "\x1b]9;" + clean(title+": "+body) + "\x07"
	}
	if tmux {
		seq = "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	return []byte(seq)
}

func lastElem(path string) string {
	path = strings.TrimRight(path, "/")
	return path[strings.LastIndexByte(path, '/')+1:]
}

// Notify shows a notice from fawn itself in the chat (red when isErr). It is
// safe from any goroutine: background work such as MCP servers finishing
// their start reports through it.
func (a *App) Notify(text string, isErr bool) {
	kind := chat.NoticeInfo
	if isErr {
		kind = chat.NoticeError
	}
	a.QueueUpdate(func() {
		a.task.list.Append(&chat.Notice{Kind: kind, Text: text})
	})
}

// copyToTmux also hands text to tmux when fawn runs inside it. tmux does not
// pass an application's OSC 52 to the outer terminal unless set-clipboard is
// on; `tmux load-buffer -w` both fills tmux's paste buffer and forwards the
// text to the outer terminal's clipboard (tmux ≥ 3.2), which reaches the
// user's machine over ssh.
func copyToTmux(a *App, text string) {
	if os.Getenv("TMUX") == "" {
		return
	}
	a.Go(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		cmd := proc.Command(ctx, "tmux", "load-buffer", "-w", "-")
		cmd.Stdin = strings.NewReader(text)
		if cmd.Run() != nil {
			// tmux older than 3.2 has no -w: fill its buffer at least.
			cmd = proc.Command(ctx, "tmux", "load-buffer", "-")
			cmd.Stdin = strings.NewReader(text)
			_ = cmd.Run()
		}
	})
}

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
