// Package vt is a virtual terminal emulator that can be used to emulate a
// modern terminal application.
//
// In fawn it is charmbracelet/x/vt with the fixes FAWN.md lists, kept in the
// module until upstream has them; package terminal is its only importer.
package vt
