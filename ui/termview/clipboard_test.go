package termview

import (
	"testing"
)

// A program's OSC 52 copy reaches the clipboard from the pane with focus,
// and only from it.
func TestProgramsCopyReachesTheClipboardFromTheFocusedPane(t *testing.T) {
	h := newHarness(t, 80, 12)
	var copied []string
	h.view.SetOnCopy(func(s string) { copied = append(copied, s) })
	h.typeText(`printf '\033]52;c;%s\a' "$(printf from-vim | base64)"; echo one''-done` + "\n")
	h.waitLine("one-done")
	if len(copied) != 1 || copied[0] != "from-vim" {
		t.Fatalf("copied %q, want [from-vim]", copied)
	}
	h.view.Blur()
	_, _ = h.term.Write([]byte(`printf '\033]52;c;%s\a' "$(printf unfocused | base64)"; echo two''-done` + "\r"))
	h.waitLine("two-done")
	if len(copied) != 1 {
		t.Fatalf("a pane without focus copied: %q", copied)
	}
}
