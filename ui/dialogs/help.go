package dialogs

import (
	"strings"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"github.com/fawn-ide/fawn/ui/chat"
	"github.com/fawn-ide/fawn/ui/commands"
	"github.com/fawn-ide/fawn/ui/keymap"
	"github.com/fawn-ide/fawn/ui/render"
)

// Help is the key overlay. It is generated from the key tables in force
// (after ui.keys overrides) and the slash commands, so it never drifts from
// what the keys do.
type Help struct {
	*tview.Box
	ctx      *chat.Ctx
	keys     *keymap.Table // the overlay's own keys
	tables   func() []*keymap.Table
	commands *commands.Commands
	shown    bool
	scroll   int
	rows     int
}

func NewHelp(ctx *chat.Ctx, keys *keymap.Table, tables func() []*keymap.Table, commands *commands.Commands) *Help {
	return &Help{Box: tview.NewBox(), ctx: ctx, keys: keys, tables: tables, commands: commands}
}

func (h *Help) Visible() bool { return h.shown }
func (h *Help) Modal() bool   { return true }

// Toggle shows or hides the overlay.
// Show opens the help at its top.
func (h *Help) Show() { h.shown, h.scroll = true, 0 }

func (h *Help) Toggle() {
	h.shown = !h.shown
	h.scroll = 0
}

// Lines renders the whole help at width.
func (h *Help) Lines(width int) []render.Line {
	th := h.ctx.Th
	base := tcell.StyleDefault.Foreground(th.Foreground).Background(th.CursorLine)
	head := base.Foreground(th.Accent).Bold(true)
	keySt := base.Foreground(th.Warning)
	var out []render.Line
	const keyCol = 26
	dim := base.Foreground(th.Dim)
	indent := render.Line{{Text: strings.Repeat(" ", keyCol), Style: base}}
	row := func(keys, help, action string) {
		spans := []render.Span{{Text: help, Style: base}}
		if action != "" {
			spans = append(spans, render.Span{Text: "  " + action, Style: dim})
		}
		if render.TextWidth(keys) >= keyCol {
			// Keys too long for their column get rows of their own, whole.
			out = append(out, render.WrapLine([]render.Span{{Text: keys, Style: keySt}}, width, nil, nil)...)
			out = append(out, render.WrapLine(spans, width, indent, indent)...)
			return
		}
		k := render.PadTo(render.Line{{Text: keys, Style: keySt}}, keyCol, base)
		out = append(out, render.WrapLine(spans, width, k, indent)...)
	}
	for _, t := range h.tables() {
		var rows [][3]string
		for _, b := range t.Bindings {
			if b.Hidden || len(b.Keys) == 0 {
				continue
			}
			var ks []string
			for _, k := range b.Keys {
				ks = append(ks, keymap.Display(k))
			}
			rows = append(rows, [3]string{strings.Join(ks, ", "), b.Help, string(b.Action)})
		}
		if len(rows) == 0 {
			continue
		}
		if len(out) > 0 {
			out = append(out, nil)
		}
		out = append(out, render.Line{{Text: t.Context, Style: head}})
		for _, r := range rows {
			row(r[0], r[1], r[2])
		}
	}
	if cmds := h.commands.All(); len(cmds) > 0 {
		out = append(out, nil, render.Line{{Text: "Commands (type / in the chat)", Style: head}})
		for _, c := range cmds {
			name := "/" + c.Name
			if c.Args != "" {
				name += " " + c.Args
			}
			row(name, c.Help, "")
		}
	}
	out = append(out, nil, render.Line{{Text: "Typed at the start of a message", Style: head}})
	row("!command", "Run the command in the terminal, in sight; its output goes with your next message (Esc drops it)", "")
	row("#note", "Add the note to AGENTS.md, the project's or yours (a question asks which); the agent reads it every turn", "")
	row("@path", "Attach a file, a directory's listing or an image (Tab completes the path)", "")
	row("//text", "Send text that starts with a slash as a message, not a command", "")
	row("␣!text, ␣#text", "A space first sends text that starts with ! or # as a message", "")
	out = append(out, nil, render.Line{{Text: "Mouse: a click focuses a pane, selects a message or opens what a tool card drove; the wheel scrolls; " +
		"the tab labels switch tabs. Most terminals select text natively with Shift held while dragging. " +
		"Keys can be changed in ~/.config/fawn/keys.yaml (or the keys: section of the config) by the action names shown in grey; fawn config --check finds clashes.", Style: base.Foreground(th.Dim)}})
	return out
}

func (h *Help) Draw(screen tcell.Screen) {
	if !h.shown {
		return
	}
	th := h.ctx.Th
	sx, sy, sw, sh := h.GetRect()
	w := min(sw-2, 100)
	ht := sh - 2
	x := sx + (sw-w)/2
	y := sy + (sh-ht)/2
	base := tcell.StyleDefault.Foreground(th.Foreground).Background(th.CursorLine)
	render.Fill(screen, x, y, w, ht, base)
	render.DrawBorder(screen, x, y, w, ht, base.Foreground(th.Accent), render.Line{{Text: " fawn — keys and commands ", Style: base.Foreground(th.Accent).Bold(true)}})
	var lines []render.Line
	for _, l := range h.Lines(w - 4) {
		lines = append(lines, render.WrapLine(l, w-4, nil, nil)...)
	}
	h.rows = ht - 2
	if h.scroll > len(lines)-h.rows {
		h.scroll = max(0, len(lines)-h.rows)
	}
	for i := 0; i < h.rows && h.scroll+i < len(lines); i++ {
		render.DrawLine(screen, x+2, y+1+i, w-4, lines[h.scroll+i])
	}
	hint := " Esc closes · ↑↓ PgUp PgDn scroll "
	render.DrawText(screen, x+w-2-len(hint), y+ht-1, len(hint), hint, base.Foreground(th.Dim))
}

func (h *Help) InputHandler() func(event *tcell.EventKey, setFocus func(p tview.Primitive)) {
	return func(ev *tcell.EventKey, setFocus func(p tview.Primitive)) {
		switch h.keys.Action(ev) {
		case actHelpClose:
			h.shown = false
		case actHelpUp:
			h.scroll = max(0, h.scroll-1)
		case actHelpDown:
			h.scroll++
		case actHelpPageUp:
			h.scroll = max(0, h.scroll-max(1, h.rows-1))
		case actHelpPageDown:
			h.scroll += max(1, h.rows-1)
		}
	}
}

func (h *Help) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
	return func(action tview.MouseAction, ev *tcell.EventMouse, setFocus func(p tview.Primitive)) (bool, tview.Primitive) {
		switch action {
		case tview.MouseScrollUp:
			h.scroll = max(0, h.scroll-3)
		case tview.MouseScrollDown:
			h.scroll += 3
		case tview.MouseLeftClick:
			h.shown = false
		}
		return true, nil
	}
}
