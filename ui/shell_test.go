package ui

import (
	"path/filepath"
	"strings"
	"testing"
)

// maxShellFiles is how many files the frame may have: what a task does
// that needs no App goes to a package under ui/ behind a narrow
// interface (ARCHITECTURE.md, "Where a new thing goes"), so the frame
// stays the shell — the App, its loop, layout, focus, crash and recovery,
// and the task frame.
const maxShellFiles = 15

func TestTheFrameStaysTheShell(t *testing.T) {
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, p := range paths {
		if !strings.HasSuffix(p, "_test.go") {
			files = append(files, p)
		}
	}
	if len(files) == 0 {
		t.Fatal("no files found in the frame's directory")
	}
	if len(files) > maxShellFiles {
		t.Errorf("ui/ holds %d files (%s), more than %d: put what needs no App in a package under ui/ behind a narrow interface",
			len(files), strings.Join(files, ", "), maxShellFiles)
	}
}
