package main

import (
	"github.com/fawn-ide/fawn/ui/keymap"

	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fawn config --check reports, with the file and line, an action no table
// has, a key two actions share, and a key that does not parse, from
// keys.yaml and from the keys: section of config.yaml.
func TestConfigCheckKeyBindings(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "keys.yaml"), []byte(`editor.save: ctrl+w
editor.svae: [ctrl+s]
app.quit: [alt+e]
`), 0o644)
	os.WriteFile(filepath.Join(home, "config.yaml"), []byte(`ui:
  theme: dark
keys:
  chat.send: [enter]
  editor.find: [ctrl+nope]
`), 0o644)
	code, _, errs := runCLI(t, home, "config", "--check", t.TempDir())
	if code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, errs)
	}
	keys, conf := filepath.Join(home, "keys.yaml"), filepath.Join(home, "config.yaml")
	for _, want := range []string{
		"error: " + keys + ":2: keys.editor.svae: no such action",
		"error: " + keys + ":3: keys.app.quit: alt+e is bound to both app.quit (Global) and pane.editor (Global)",
		"error: " + conf + ":5: keys.editor.find: unknown key \"ctrl+nope\"",
		"error: " + keys + ":1: keys.editor.save: ctrl+w is bound to both editor.save (Editor) and editor.close (Editor)",
		"4 problems in the key bindings",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

// Bindings that work pass the check, and keys.yaml is among the files read.
func TestConfigCheckKeysFileOK(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "keys.yaml"), []byte("editor.save: [f9]\napp.help: f2\npicker.down: [ctrl+j]\n"), 0o644)
	code, out, errs := runCLI(t, home, "config", "--check", t.TempDir())
	if code != 0 || !strings.Contains(out, filepath.Join(home, "keys.yaml")) {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
}

// A project's config never rebinds a key, under keys: or ui.keys:.
func TestProjectConfigCannotRebindKeys(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(project, ".fawn"), 0o755)
	os.WriteFile(filepath.Join(project, ".fawn", "config.yaml"), []byte("keys:\n  permission.deny: [y]\n"), 0o644)
	os.WriteFile(filepath.Join(project, ".fawn", "keys.yaml"), []byte("permission.deny: [y]\n"), 0o644)
	code, out, errs := runCLI(t, home, "config", project)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "key bindings are yours to choose") {
		t.Errorf("the project's keys: is not refused:\n%s", errs)
	}
	if strings.Contains(out, "permission.deny") {
		t.Errorf("the project's binding is in force:\n%s", out)
	}
}

// The contexts beyond the main tables — the lists, the editor's find bar
// and questions, keyboard selection in a terminal, the trust prompt — are
// checked too: an unknown name and a key two actions in force at once
// would share are errors with the file and line.
func TestConfigCheckKeysOfEveryContext(t *testing.T) {
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, "keys.yaml"), []byte(`changes.revert: [o]
editor.closeSave: [esc]
terminal.select_copy: ["ctrl+\\"]
changes.rever: [x]
trust.accept: [n]
editor.promptSubmit: [f3]
todo.down: [j]
`), 0o644)
	code, _, errs := runCLI(t, home, "config", "--check", t.TempDir())
	if code != 2 {
		t.Fatalf("exit %d, want 2: %s", code, errs)
	}
	keys := filepath.Join(home, "keys.yaml")
	for _, want := range []string{
		"error: " + keys + ":1: keys.changes.revert: o is bound to both changes.open (Changes) and changes.revert (Changes)",
		"error: " + keys + ":2: keys.editor.closeSave: esc is bound to both editor.closeSave (Editor: closing a tab with unsaved changes) and editor.promptCancel (Editor: closing a tab with unsaved changes)",
		"error: " + keys + ":3: keys.terminal.select_copy: ctrl+\\ is bound to both terminal.select_copy",
		"error: " + keys + ":4: keys.changes.rever: no such action",
		"error: " + keys + ":5: keys.trust.accept: n is bound to both trust.accept",
		"error: " + keys + ":6: keys.editor.promptSubmit: f3 is bound to both editor.promptSubmit (Editor: find bar and go to line) and editor.findNext",
		"6 problems in the key bindings",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "todo.down") {
		t.Errorf("a binding that works is reported:\n%s", errs)
	}
}

// fawn's own bindings share no key in any scope, so that every conflict
// the check reports is one the user made.
func TestDefaultKeyTablesHaveNoConflicts(t *testing.T) {
	k := defaultKeyTables()
	for _, c := range keymap.Conflicts(k.global, k.panes, append(k.modal, k.scopes()...)) {
		t.Errorf("%s is bound to both %s (%s) and %s (%s)", c.Key, c.A, c.InA, c.B, c.InB)
	}
}
