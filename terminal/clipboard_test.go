package terminal

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

// A program's OSC 52 copy is kept, numbered; a query, data that is not
// base64 and a copy too long to have arrived whole change nothing.
func TestClipboardKeepsAProgramsCopy(t *testing.T) {
	term := startTerm(t, Options{})
	waitClip := func(want Clipboard) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for term.Clipboard() != want {
			if time.Now().After(deadline) {
				t.Fatalf("Clipboard() = %+v, want %+v", term.Clipboard(), want)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	mustRun(t, term, `printf '\033]52;c;%s\a' "$(printf 'copied\ntext' | base64)"`)
	waitClip(Clipboard{Seq: 1, Text: "copied\ntext"})
	long := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 60<<10)))
	mustRun(t, term, `printf '\033]52;c;?\a\033]52;c;!!notbase64\a\033]52;c;`+long+`\a'; echo done`)
	mustRun(t, term, `printf '\033]52;p;%s\a' "$(printf again | base64)"`)
	waitClip(Clipboard{Seq: 2, Text: "again"})
}
