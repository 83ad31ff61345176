package chat

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/tools"
)

// When the result leaves the middle out, the card says which lines are
// missing and where they are, and numbers stay right on both sides.
func TestCommandCardSaysWhichLinesAreLeftOut(t *testing.T) {
	reg := NewRegistry()
	rc := darkCtx()
	out := "1\n2\n3\n[… 95 lines, 300 B omitted …]\n99\n100\n"
	c := cardFrom(reg, "1", "bash", ready(`{"command":"seq 100"}`), started(),
		agent.Event{Type: agent.EventToolOutput, Text: "98\n", Data: tools.Output{Text: "98\n", Skipped: true}},
		agent.Event{Type: agent.EventToolUpdate, Data: tools.CommandDone{Output: out, TotalLines: 100, OmittedLines: 95, HeadLines: 3}},
		ended(out+"[exit code 0 · cwd /proj]", false, time.Second))
	text := linesText(c.Render(rc, 200))
	for _, want := range []string{"│ 1\n", "│ 3\n", "lines 4–98 are left out", "Terminal pane", "│ 99\n", "│ 100"} {
		if !strings.Contains(text, want) {
			t.Errorf("card lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "skipped") {
		t.Errorf("the live view's gap outlived the result:\n%s", text)
	}
	live := cardFrom(reg, "2", "bash", ready(`{"command":"seq 100"}`), started(),
		agent.Event{Type: agent.EventToolOutput, Text: "1\n"},
		agent.Event{Type: agent.EventToolOutput, Text: "98\n", Data: tools.Output{Text: "98\n", Skipped: true}})
	if text := linesText(live.Render(rc, 200)); !strings.Contains(text, "│ 1\n") || !strings.Contains(text, "skipped lines") || !strings.Contains(text, "│ 98") {
		t.Errorf("the live view hides its gap:\n%s", text)
	}
}

// A fold too long for the width wraps rather than lose its end, and a click
// on any of its rows expands the card.
func TestCommandCardFoldWraps(t *testing.T) {
	var out strings.Builder
	for i := 1; i <= 3000; i++ {
		out.WriteString(strconv.Itoa(i) + "\n")
	}
	c := cardFrom(NewRegistry(), "1", "bash", ready(`{"command":"seq 3000"}`), started(),
		agent.Event{Type: agent.EventToolUpdate, Data: tools.CommandDone{Output: out.String(), TotalLines: 3000}},
		ended(out.String()+"[exit code 0]", false, time.Second))
	lines := c.Render(darkCtx(), 30)
	text := linesText(lines)
	if !strings.Contains(text, "3000 lines") || !strings.Contains(text, "(Space") {
		t.Fatalf("the fold lost its end at 30 columns:\n%s", text)
	}
	folds := 0
	for i := range lines {
		if c.foldLine(i, lines) {
			folds++
		}
	}
	if folds < 2 || c.foldLine(0, lines) || c.foldLine(len(lines)-1, lines) {
		t.Errorf("%d rows count as the fold:\n%s", folds, text)
	}
}
