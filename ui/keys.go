package ui

import "github.com/fawn-ide/fawn/ui/keymap"

// The default key tables. They avoid the prefixes of tmux (Ctrl-B), screen
// (Ctrl-A) and zellij's mode keys, and use only keys that plain xterm, tmux
// and ssh deliver: Ctrl-letters, Alt-letters (sent as Esc + letter), F-keys.
// The global keys take precedence over every pane, so they also stay clear
// of the editor's keys and of the readline keys people use in the shell
// (Alt-B/F/D, Alt-Backspace…); a test checks the tables do not collide.
// ui.keys in the config overrides them by action name.

// The actions of the app's own tables: the names ui.keys overrides, and
// what the switches on a key's action test for.
const (
	// of GlobalKeys
	actAppQuit        keymap.Action = "app.quit"
	actAppHelp        keymap.Action = "app.help"
	actPaneNext       keymap.Action = "pane.next"
	actPanePrev       keymap.Action = "pane.prev"
	actPaneChat       keymap.Action = "pane.chat"
	actPaneEditor     keymap.Action = "pane.editor"
	actPaneTerminal   keymap.Action = "pane.terminal"
	actTerminalNew    keymap.Action = "terminal.new"
	actPaneTodo       keymap.Action = "pane.todo"
	actPaneChanges    keymap.Action = "pane.changes"
	actPaneExplorer   keymap.Action = "pane.explorer"
	actPaneZoom       keymap.Action = "pane.zoom"
	actLayoutWider    keymap.Action = "layout.wider"
	actLayoutNarrower keymap.Action = "layout.narrower"
	actLayoutTaller   keymap.Action = "layout.taller"
	actLayoutShorter  keymap.Action = "layout.shorter"
	actAgentMode      keymap.Action = "agent.mode"
	actTaskNext       keymap.Action = "task.next"
	actTaskPrev       keymap.Action = "task.prev"
	actTaskNumber     keymap.Action = "task.number"
)

// GlobalKeys are active whatever has focus (unless a dialog is open).
func GlobalKeys() *keymap.Table {
	return keymap.New("Global",
		keymap.Binding{Action: actAppQuit, Keys: []string{"ctrl+q"}, Help: "Quit fawn"},
		keymap.Binding{Action: actAppHelp, Keys: []string{"f1"}, Help: "Show the keys and commands"},
		keymap.Binding{Action: actPaneNext, Keys: []string{"f6"}, Help: "Focus the next pane"},
		keymap.Binding{Action: actPanePrev, Keys: []string{"shift+f6"}, Help: "Focus the previous pane"},
		keymap.Binding{Action: actPaneChat, Keys: []string{"alt+c"}, Help: "Focus the chat"},
		keymap.Binding{Action: actPaneEditor, Keys: []string{"alt+e"}, Help: "Focus the editor"},
		keymap.Binding{Action: actPaneTerminal, Keys: []string{"alt+t"}, Help: "Focus the terminal; again: the next terminal tab"},
		keymap.Binding{Action: actTerminalNew, Keys: []string{"alt+n"}, Help: "Open another terminal of your own (exit closes it; the agent keeps its shell)"},
		keymap.Binding{Action: actPaneTodo, Keys: []string{"alt+o"}, Help: "Focus the to-do list"},
		keymap.Binding{Action: actPaneChanges, Keys: []string{"alt+g"}, Help: "Focus the Changes list: the files this session changed"},
		keymap.Binding{Action: actPaneExplorer, Keys: []string{"alt+x"}, Help: "Show and focus the file explorer; again: hide it"},
		keymap.Binding{Action: actPaneZoom, Keys: []string{"alt+m"}, Help: "Zoom the focused pane to the full screen, or back"},
		keymap.Binding{Action: actLayoutWider, Keys: []string{"alt+>"}, Help: "Widen the chat"},
		keymap.Binding{Action: actLayoutNarrower, Keys: []string{"alt+<"}, Help: "Narrow the chat"},
		keymap.Binding{Action: actLayoutTaller, Keys: []string{"alt+="}, Help: "Give the editor more height"},
		keymap.Binding{Action: actLayoutShorter, Keys: []string{"alt+-"}, Help: "Give the terminal more height"},
		keymap.Binding{Action: actAgentMode, Keys: []string{"alt+p"}, Help: "Cycle the permission mode (ask, accept-edits, plan, yolo)"},
		keymap.Binding{Action: actTaskNext, Keys: []string{"alt+."}, Help: "Show the next task (several run at once: /task new)"},
		keymap.Binding{Action: actTaskPrev, Keys: []string{"alt+,"}, Help: "Show the previous task"},
		keymap.Binding{Action: actTaskNumber, Keys: []string{"ctrl+alt+1", "ctrl+alt+2", "ctrl+alt+3", "ctrl+alt+4", "ctrl+alt+5", "ctrl+alt+6", "ctrl+alt+7", "ctrl+alt+8", "ctrl+alt+9"}, Help: "Show task 1 to 9 of the task bar"},
	)
}
