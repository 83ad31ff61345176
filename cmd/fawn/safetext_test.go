package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fawn-ide/fawn/internal/safetext"
)

// Output to a terminal (any character device) goes through a writer that
// shows control characters; to a file it is written as it is.
func TestTerminalTextOnlyOnATerminal(t *testing.T) {
	dev, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	if _, ok := terminalText(dev).(*safetext.Writer); !ok {
		t.Errorf("a character device is written raw")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if w := terminalText(f); w != f {
		t.Errorf("a file is written through %T", w)
	}
}

// fawn sessions lists titles with their control characters shown.
func TestSessionListShowsControls(t *testing.T) {
	if got, want := printable("fix \x1b]0;PWNED\a\u009b"), "fix ␛]0;PWNED␇<U+009B>"; got != want {
		t.Errorf("printable = %q, want %q", got, want)
	}
}
