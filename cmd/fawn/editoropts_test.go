package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/ui/editor"
	"github.com/fawn-ide/fawn/ui/theme"
)

// editor.keys: vim holds in every task's editor (a task /task new opened
// used to get the standard keys): both are built from editorOptions.
func TestEditorOptionsCarryVimKeys(t *testing.T) {
	for keys, want := range map[string]bool{"vim": true, "standard": false} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := &config.Config{ProjectDir: dir}
		cfg.Editor.Keys = keys
		ed := editor.New(dir, theme.Get(""), editor.DefaultKeys(), editorOptions(cfg, nil, editor.DefaultKeySet())...)
		if err := ed.Open(filepath.Join(dir, "a.go"), 1); err != nil {
			t.Fatal(err)
		}
		s := tcell.NewSimulationScreen("UTF-8")
		if err := s.Init(); err != nil {
			t.Fatal(err)
		}
		s.SetSize(100, 10)
		ed.SetRect(0, 0, 100, 10)
		ed.Draw(s)
		s.Show()
		cells, w, h := s.GetContents()
		var b strings.Builder
		for i := 0; i < w*h; i++ {
			b.WriteString(string(cells[i].Runes))
		}
		if got := strings.Contains(b.String(), "-- NORMAL --"); got != want {
			t.Errorf("editor.keys %s: vim's mode shown %v, want %v:\n%s", keys, got, want, b.String())
		}
		ed.Close()
		s.Fini()
	}
}
