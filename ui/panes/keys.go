package panes

import "github.com/fawn-ide/fawn/ui/keymap"

// The actions of the list panes' tables: the names the user's bindings
// override, and what their key handlers switch on.
const (
	ActionTodoUp       keymap.Action = "todo.up"
	ActionTodoDown     keymap.Action = "todo.down"
	ActionTodoPageUp   keymap.Action = "todo.page_up"
	ActionTodoPageDown keymap.Action = "todo.page_down"
	ActionTodoTop      keymap.Action = "todo.top"

	ActionChangesUp       keymap.Action = "changes.up"
	ActionChangesDown     keymap.Action = "changes.down"
	ActionChangesPageUp   keymap.Action = "changes.page_up"
	ActionChangesPageDown keymap.Action = "changes.page_down"
	ActionChangesTop      keymap.Action = "changes.top"
	ActionChangesBottom   keymap.Action = "changes.bottom"
	ActionChangesDiff     keymap.Action = "changes.diff"
	ActionChangesOpen     keymap.Action = "changes.open"
	ActionChangesRevert   keymap.Action = "changes.revert"

	ActionAgentTermUp       keymap.Action = "agent_terminal.up"
	ActionAgentTermDown     keymap.Action = "agent_terminal.down"
	ActionAgentTermPageUp   keymap.Action = "agent_terminal.page_up"
	ActionAgentTermPageDown keymap.Action = "agent_terminal.page_down"
	ActionAgentTermFollow   keymap.Action = "agent_terminal.follow"
)

// Keys are the list panes' key tables. The App holds one set for every
// task, so the user's bindings, applied to it once, hold in all.
type Keys struct {
	Todo, Changes, AgentTerm *keymap.Table
}

// DefaultKeys returns fresh default tables of the to-do list, the Changes
// list and the agent terminal.
func DefaultKeys() *Keys {
	return &Keys{Todo: TodoKeys(), Changes: ChangesKeys(), AgentTerm: AgentTermKeys()}
}

// Tables lists the set's tables, for the help and the user's bindings.
func (k *Keys) Tables() []*keymap.Table { return []*keymap.Table{k.Todo, k.Changes, k.AgentTerm} }

// TodoKeys is the to-do list's table.
func TodoKeys() *keymap.Table {
	return keymap.New("To-dos",
		keymap.Binding{Action: ActionTodoUp, Keys: []string{"up"}, Help: "Scroll up a line"},
		keymap.Binding{Action: ActionTodoDown, Keys: []string{"down"}, Help: "Scroll down a line"},
		keymap.Binding{Action: ActionTodoPageUp, Keys: []string{"pgup"}, Help: "Scroll up a page"},
		keymap.Binding{Action: ActionTodoPageDown, Keys: []string{"pgdn"}, Help: "Scroll down a page"},
		keymap.Binding{Action: ActionTodoTop, Keys: []string{"home"}, Help: "Back to the top"},
	)
}

// ChangesKeys is the Changes list's table.
func ChangesKeys() *keymap.Table {
	return keymap.New("Changes",
		keymap.Binding{Action: ActionChangesUp, Keys: []string{"up", "k"}, Help: "Previous file"},
		keymap.Binding{Action: ActionChangesDown, Keys: []string{"down", "j"}, Help: "Next file"},
		keymap.Binding{Action: ActionChangesPageUp, Keys: []string{"pgup"}, Help: "A page up"},
		keymap.Binding{Action: ActionChangesPageDown, Keys: []string{"pgdn"}, Help: "A page down"},
		keymap.Binding{Action: ActionChangesTop, Keys: []string{"home", "g"}, Help: "First file"},
		keymap.Binding{Action: ActionChangesBottom, Keys: []string{"end", "G"}, Help: "Last file"},
		keymap.Binding{Action: ActionChangesDiff, Keys: []string{"enter", "d"}, Help: "Show the file's diff in the editor"},
		keymap.Binding{Action: ActionChangesOpen, Keys: []string{"o"}, Help: "Open the file"},
		keymap.Binding{Action: ActionChangesRevert, Keys: []string{"R"}, Help: "Revert the file to before the session"},
	)
}

// AgentTermKeys is the agent terminal's table (a hosted agent's commands).
func AgentTermKeys() *keymap.Table {
	return keymap.New("Agent terminal (a hosted agent's commands)",
		keymap.Binding{Action: ActionAgentTermUp, Keys: []string{"up"}, Help: "Scroll back a line"},
		keymap.Binding{Action: ActionAgentTermDown, Keys: []string{"down"}, Help: "Scroll forward a line"},
		keymap.Binding{Action: ActionAgentTermPageUp, Keys: []string{"pgup"}, Help: "Scroll back a page"},
		keymap.Binding{Action: ActionAgentTermPageDown, Keys: []string{"pgdn"}, Help: "Scroll forward a page"},
		keymap.Binding{Action: ActionAgentTermFollow, Keys: []string{"end"}, Help: "Follow the output again"},
	)
}
