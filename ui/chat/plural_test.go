package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/words"
)

// Counts agree with their nouns: "1 more line", never "1 more lines".
func TestCountsAgreeWithTheirNouns(t *testing.T) {
	reg := NewRegistry()
	rc := darkCtx()
	var res strings.Builder
	for i := 1; i <= cardBodyLines+1; i++ {
		fmt.Fprintf(&res, "#%d\n", i)
	}
	c := cardFrom(reg, "1", "mcp__x__list", ready(`{}`), started(), ended(res.String(), false, time.Millisecond))
	if text := linesText(c.Render(rc, 60)); !strings.Contains(text, "… 1 more line (Space expands)") {
		t.Errorf("one hidden line:\n%s", text)
	}
	var out strings.Builder
	for i := 1; i <= cardBodyLines+1; i++ {
		fmt.Fprintf(&out, "%d\n", i)
	}
	b := cardFrom(reg, "2", "bash", ready(`{"command":"seq 11"}`), started(), ended(strings.TrimSuffix(out.String(), "\n"), false, time.Millisecond))
	if text := linesText(b.Render(rc, 60)); !strings.Contains(text, "… 1 earlier line (Space expands)") {
		t.Errorf("one hidden output line:\n%s", text)
	}
	r := newReasoning()
	r.append("hmm")
	r.finish()
	if text := linesText(r.Render(rc, 60)); !strings.Contains(text, "(1 word)") {
		t.Errorf("reasoning of one word: %s", text)
	}
	for n, want := range map[int]string{0: "0 lines", 1: "1 line", 2: "2 lines"} {
		if got := words.Plural(n, "line", "lines"); got != want {
			t.Errorf("plural(%d) = %q", n, got)
		}
	}
}
