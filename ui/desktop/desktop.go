// Package desktop owns what fawn hands to the desktop around its
// terminal: a desktop notification's escape sequence (OSC 9 or OSC 777,
// wrapped for tmux), the clipboard through tmux's own buffer, and a
// hyperlink the user asked for in the terminal pane (OSC 8) opened — a
// file in the editor, a web page in the browser, or, where no browser
// can start, on the clipboard. The App decides when (the window's focus,
// ui.notify) and gives Links the few functions it needs.
//
// Imports from fawn: config (the environment a browser gets),
// internal/proc, ui/render (sanitising). Imported by: ui.
package desktop

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
	"github.com/fawn-ide/fawn/ui/render"
)

// Notification methods (ui.notify).
const (
	NotifyBell   = "bell"
	NotifyOSC9   = "osc9"
	NotifyOSC777 = "osc777"
	NotifyOff    = "off"
)

// Notification is the escape sequence of a desktop notification: OSC 9
// (iTerm2, WezTerm, kitty, Windows Terminal) or OSC 777 (urxvt, foot,
// Ghostty, VTE), wrapped for tmux's passthrough when inside tmux.
func Notification(method, title, body string, tmux bool) []byte {
	clean := func(s string) string {
		s = render.Sanitize(strings.ReplaceAll(s, "\n", " "), 1)
		if r := []rune(s); len(r) > 200 {
			s = string(r[:199]) + "…"
		}
		return s
	}
	var seq string
	switch method {
	case NotifyOSC777:
		seq = "\x1b]777;notify;" + strings.ReplaceAll(clean(title), ";", ",") + ";" + clean(body) + "\x07"
	default:
		seq = "\x1b]9;" + clean(title+": "+body) + "\x07"
	}
	if tmux {
		seq = "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	return []byte(seq)
}

// CopyToTmux also hands text to tmux when fawn runs inside it, on a
// goroutine goFn starts. tmux does not pass an application's OSC 52 to
// the outer terminal unless set-clipboard is on; `tmux load-buffer -w`
// both fills tmux's paste buffer and forwards the text to the outer
// terminal's clipboard (tmux ≥ 3.2), which reaches the user's machine
// over ssh.
func CopyToTmux(text string, goFn func(func())) {
	if os.Getenv("TMUX") == "" {
		return
	}
	goFn(func() {
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

// Links opens the hyperlinks the user asks for in the terminal pane,
// through what the App gives it.
type Links struct {
	// Flash shows a short message in the status bar.
	Flash func(msg string)
	// OpenFile opens path in the editor and focuses it.
	OpenFile func(path string) error
	// Copy puts text on the clipboard.
	Copy func(text string)
	// Go runs f on its own goroutine (a panic is a crash).
	Go func(f func())
	// Shell is the configuration the browser's environment is cleaned by
	// (no model keys).
	Shell config.Shell
}

// Open opens link: a file in the editor, a web page in the browser — or,
// where there is no browser to start (over ssh, no xdg-open), on the
// clipboard. Other schemes are refused: the link comes from a program's
// output.
func (l Links) Open(link string) {
	u, err := url.Parse(link)
	if err != nil {
		l.Flash("not a link fawn can open: " + link)
		return
	}
	switch u.Scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" {
			if h, _ := os.Hostname(); u.Host != h {
				l.Flash("the link is to a file on " + u.Host + ": " + u.Path)
				return
			}
		}
		if err := l.OpenFile(u.Path); err != nil {
			l.Flash(err.Error())
		}
	case "http", "https":
		opener := map[string]string{"darwin": "open"}[runtime.GOOS]
		if opener == "" {
			opener = "xdg-open"
		}
		path, err := exec.LookPath(opener)
		if err != nil || os.Getenv("SSH_CONNECTION") != "" {
			l.Copy(link)
			l.Flash("copied the link (no browser to open here): " + link)
			return
		}
		shell := l.Shell
		l.Go(func() {
			// Its own process group, not fawn's: the browser an opener
			// starts (and may wait for) is the user's, and must neither get
			// the terminal's signals nor be killed with the opener. Nothing
			// is read from it, so nothing waits on what it leaves running.
			cmd := proc.Own(exec.Command(path, link))
			cmd.Env, _ = config.CleanEnv(os.Environ(), shell) // no model keys
			_ = cmd.Run()
		})
		l.Flash("opening " + link)
	default:
		l.Flash("fawn opens http, https and file links only, not " + u.Scheme + ":")
	}
}
