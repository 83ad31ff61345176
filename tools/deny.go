package tools

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync/atomic"
)

// The user's Read() deny rules (Read(.env), Read(secrets/**)) hold for
// every tool that reads or lists, as Claude Code documents them: the agent
// refuses a call whose own path is denied before it runs, and the tools
// themselves never open a denied file nor name one in a listing or a
// search, saying how many entries they left out. Env.ReadDenied is the one
// check, the same the agent makes of text_editor view.

// readDenied is the rule that forbids reading abs, or "" (also when no
// check is set).
func (e *Env) readDenied(abs string) string {
	if e.ReadDenied == nil || !within(e.Root, abs) {
		return ""
	}
	return e.ReadDenied(filepath.ToSlash(e.Rel(abs)))
}

// codeContext is ctx carrying the deny check for the code intelligence
// (WithHidden).
func (e *Env) codeContext(ctx context.Context) context.Context {
	if e.ReadDenied == nil {
		return ctx
	}
	return WithHidden(ctx, func(abs string) bool { return e.readDenied(abs) != "" })
}

// checkReadable refuses a path the user's deny rules forbid reading.
func (e *Env) checkReadable(abs string) error {
	if rule := e.readDenied(abs); rule != "" {
		return fmt.Errorf("%s may not be read: denied by the user's permission rule %s. Do not try to read it another way; do what you can without it and say what was not done", filepath.ToSlash(e.Rel(abs)), rule)
	}
	return nil
}

// denyFilter leaves the denied entries out of a walk and counts them.
// Its methods are safe on nil (no rules) and from concurrent walkers.
type denyFilter struct {
	env    *Env
	hidden atomic.Int64
}

// denyFilter is nil when there is no check to make.
func (e *Env) denyFilter() *denyFilter {
	if e.ReadDenied == nil {
		return nil
	}
	return &denyFilter{env: e}
}

// hides reports whether the entry at rel (relative to the root) is denied,
// counting it.
func (f *denyFilter) hides(rel string) bool {
	if f == nil || f.env.ReadDenied(filepath.ToSlash(rel)) == "" {
		return false
	}
	f.hidden.Add(1)
	return true
}

// hidesEntry is hides for a walked entry: a symlink is hidden too when
// what it points to is denied, since listing it would name the denied file
// ("key.txt -> secrets/key.pem").
func (f *denyFilter) hidesEntry(rel, abs string, d fs.DirEntry) bool {
	if f.hides(rel) {
		return true
	}
	if f == nil || !f.env.linkDenied(abs, d) {
		return false
	}
	f.hidden.Add(1)
	return true
}

// linkDenied reports whether abs is a symlink whose target, resolved, is a
// file or directory in the project that the deny rules forbid reading.
func (e *Env) linkDenied(abs string, d fs.DirEntry) bool {
	if e.ReadDenied == nil || d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	real, err := e.Resolve(abs)
	return err == nil && e.readDenied(real) != ""
}

// hide is hidesEntry for project.WalkOptions: nil when there is no check
// to make, so the walk skips the call.
func (f *denyFilter) hide() func(rel, abs string, d fs.DirEntry) bool {
	if f == nil {
		return nil
	}
	return f.hidesEntry
}

// note says how many entries were left out; "" for none.
func (f *denyFilter) note() string {
	if f == nil || f.hidden.Load() == 0 {
		return ""
	}
	return fmt.Sprintf("[%s hidden by the user's Read deny rules]", plural(int(f.hidden.Load()), "entry", "entries"))
}
