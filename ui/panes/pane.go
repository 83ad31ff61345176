package panes

// Pane names an area of the screen: the chat, the editor, the terminal,
// to-do and Changes tabs of the strip below it, the file explorer.
type Pane int

const (
	Chat Pane = iota
	Editor
	Terminal
	Todo
	Explorer
	Changes
)

func (p Pane) String() string {
	switch p {
	case Chat:
		return "chat"
	case Editor:
		return "editor"
	case Terminal:
		return "terminal"
	case Explorer:
		return "explorer"
	case Changes:
		return "changes"
	default:
		return "to-do"
	}
}
