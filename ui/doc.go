// Package ui owns the screen: the tview application, its layout, the chat
// message list, tool cards, the router that sends each tool call's events to
// the widgets it drives, the permission dialog, the to-do view, the status bar
// and the key maps. Sub-packages hold the self-contained widgets: editor (code
// view and tabs), termview (the terminal pane), keymap and theme.
//
// Data flows one way: agent events → Router → widgets. Widgets never call into
// the graph; user intent goes through the small Agent interface.
package ui
