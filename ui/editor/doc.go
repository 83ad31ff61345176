// Package editor owns fawn's editor pane: the text buffer (lines, undo and
// redo as recorded splices, line endings, BOM, atomic saves), the CodeView
// primitive that draws only the visible part of a buffer with a gutter,
// selection and chroma highlighting computed off the UI goroutine, and Tabs,
// the tab strip around the views, which follows the agent's text_editor calls
// (AgentViewed, AgentChanged), guards files the user is editing (CheckEdit),
// watches open files for changes on disk, and offers find, go to line and a
// fuzzy file finder. With editor.keys: vim (WithVimKeys) a file's view
// takes vim's keys instead of its own (vim*.go): a state machine over the
// same buffer edits, so one vim change is one undo step, checked against
// vim itself by TestVimConformance (recorded from vim) and TestVimFuzzAgainstVim.
//
// Everything here runs on the UI goroutine except Tabs.CheckEdit and the
// background work (highlighting, file watching, listing project files),
// which hands its results back through the redraw hook: they are applied at
// the next Draw, so no background goroutine ever touches a buffer.
//
// It imports project, tools, ui/keymap, ui/picker, ui/syntax, ui/theme and
// internal/safetext, never ui; ui, ui/changes (diffs, versions),
// ui/panes (diff counts), cmd/fawn and the fawnedit command
// (internal/fawnedit, the pane on its own) import it.
package editor
