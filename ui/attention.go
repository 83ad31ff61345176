package ui

import (
	"os"
	"strings"

	"github.com/fawn-ide/fawn/ui/render"
)

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
