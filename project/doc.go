// Package project owns how fawn touches the files of the project it works
// on: resolving a path to the one spelling it has once its symlinks are
// followed (and telling whether it stays inside the project), writing a file
// atomically, and walking the project's files the way git and ripgrep do,
// honouring .gitignore files at every level, .ignore files and
// .git/info/exclude.
//
// The agent's tools, the editor and the checkpoint book all write through
// WriteFile, so one rule holds for all of them: a write replaces a file
// whole or not at all, keeps its mode and owner, and never lands outside
// the project through a symlink. The walking tools, the explorer, the
// editor's file finder, @-mention completion and the checkpoint scan all
// walk with WalkFiles and its variants, so they agree on which files the
// project has. What the user's rules forbid reading is not decided here: a
// caller passes it as WalkOptions.Hide.
//
// Index keeps the project's paths at hand for @-mention completion: walked
// in the background with the same rules, read while the walk goes on, and
// walked again only when a directory it listed or an ignore file changed.
//
// One Watcher tells the panes what changes on disk: the editor (its open
// files' directories) and the explorer (its expanded folders) subscribe to
// the one fawn makes at start, so a directory both show is watched once.
// The checkpoint book keeps its own whole-tree inotify, read only around
// agent commands (see Watcher).
//
// tools, ui (and its sub-packages) and checkpoint import project; project
// imports none of them, only trust (to open ignore files without blocking
// on a FIFO) and fsnotify. Package projecttest holds the ignore-rule
// fixture the tests of project and tools share.
package project
