// Package panes owns the panes of the bottom strip and the status line that
// draw without the App: the to-do view (TodoView, and the to-do line the
// chat's todo_write card shows too) and the status bar (StatusBar). Each
// takes only what it shows: the theme, a list to set, or a function the App
// answers at draw time (StatusInfo).
//
// It may import render, theme, internal/safetext and the domain packages it
// shows (tools for to-dos, agent for modes and usage); ui imports it, never the other way
// round. Everything here runs on the UI goroutine.
package panes
