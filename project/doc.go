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
// walked again only when a name came or went (the watcher's journal says
// so, or, while the tree is not watched, the stamps of the directories it
// listed and of the ignore files).
//
// One Watcher per project root is everything fawn learns from the kernel
// about changes on disk (Watchers hands it out: a task in a git worktree
// has a root, and so a Watcher, of its own): one inotify instance on Linux
// (fsnotify elsewhere, without the tree). Its consumers share it, each
// through its own subscription: the editor (its open files' directories)
// and the explorer (its expanded folders) get live events; the checkpoint
// book and the file index ask its journal what changed below the root
// since their last look. What watching cannot do (the watch limit, a lost
// queue) it says once through WatchOptions.Notify, and its consumers walk.
//
// tools, ui (and its sub-packages), checkpoint and cmd/fawn import
// project; project imports none of them, only trust (to open ignore files
// without blocking on a FIFO), golang.org/x/sys/unix (inotify) and
// fsnotify (other systems). Package projecttest holds the ignore-rule
// fixture the tests of project and tools share.
package project
