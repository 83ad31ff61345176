// Package project owns how fawn touches the files of the project it works
// on: resolving a path to the one spelling it has once its symlinks are
// followed (and telling whether it stays inside the project), and writing a
// file atomically.
//
// The agent's tools, the editor and the checkpoint book all write through
// WriteFile, so one rule holds for all of them: a write replaces a file
// whole or not at all, keeps its mode and owner, and never lands outside
// the project through a symlink.
//
// tools, ui (and its sub-packages) and checkpoint import project; project
// imports none of them.
package project
