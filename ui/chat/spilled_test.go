package chat

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
)

// runBash runs command with the real bash tool in a real shell, whose
// session keeps cut outputs in a directory of its own, and returns the
// events its card gets: the call, what the tool emitted, its end.
func runBash(t *testing.T, command string) []agent.Event {
	t.Helper()
	env, err := tools.NewEnv(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	env.Outputs = tools.NewOutputs(t.TempDir(), nil)
	term, err := terminal.Start(terminal.Options{Dir: env.Root, Env: []string{"HOME=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close() })
	args := fmt.Sprintf(`{"command":%q}`, command)
	var mu sync.Mutex
	events := []agent.Event{ready(args), started()}
	ctx := tools.WithEmitter(context.Background(), func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, agent.Event{Type: agent.EventToolUpdate, Data: ev})
	})
	result, err := tools.NewBash(env, term).InvokableRun(ctx, args)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return append(events, ended(result, false, time.Second))
}

// spilledCard runs seq 1 30000 (an output the result cuts) and returns
// its card, a card of the same events that finished while the spill file
// was away (and so keeps the output in memory), and the spill file.
func spilledCard(t *testing.T) (c, inMemory *Card, path string) {
	t.Helper()
	reg := NewRegistry()
	events := runBash(t, "seq 1 30000")
	for _, ev := range events {
		if d, ok := ev.Data.(tools.CommandDone); ok {
			path = d.Spill
		}
	}
	if path == "" {
		t.Fatal("the bash tool kept no spill file of a cut output")
	}
	c = cardFrom(reg, "1", "bash", events...)
	if err := os.Rename(path, path+".away"); err != nil {
		t.Fatal(err)
	}
	inMemory = cardFrom(reg, "1", "bash", events...)
	if err := os.Rename(path+".away", path); err != nil {
		t.Fatal(err)
	}
	if inMemory.spill != nil {
		t.Fatal("a card whose spill file was gone when it finished left its output there")
	}
	return c, inMemory, path
}

// A finished command's card leaves a cut output in the file the bash tool
// kept it in, and keeps only its last lines and how it ended; folded,
// expanded and copied it shows what a card holding the output shows,
// read back from the file.
func TestCardReadsItsOutputBackFromItsSpillFile(t *testing.T) {
	c, kept, _ := spilledCard(t)
	if c.cmd.Output != "" || len(c.Result) > 1000 {
		t.Errorf("the card keeps the output: %d bytes of it, a result of %d bytes", len(c.cmd.Output), len(c.Result))
	}
	if c.spill == nil || cap(c.spill.last) > cardBodyLines {
		t.Errorf("the card keeps more than its last %d lines", cardBodyLines)
	}
	rc := darkCtx()
	folded := linesText(c.Render(rc, 80))
	if want := linesText(kept.Render(rc, 80)); folded != want {
		t.Errorf("folded, the card shows\n%s\nwant\n%s", folded, want)
	}
	if !strings.Contains(folded, "of 30000 lines printed") || !strings.Contains(folded, "30000") {
		t.Errorf("the folded card lacks the count or the last line:\n%s", folded)
	}
	c.Toggle()
	kept.Toggle()
	expanded := linesText(c.Render(rc, 80))
	if want := linesText(kept.Render(rc, 80)); expanded != want {
		t.Errorf("expanded, the card shows %d rows, want %d:\n%s", strings.Count(expanded, "\n"), strings.Count(want, "\n"), expanded)
	}
	if !strings.Contains(expanded, "│ 1\n") || !strings.Contains(expanded, "are left out here") {
		t.Errorf("the expanded card lacks the output's head or the line on what was left out:\n%.600s", expanded)
	}
	if got, want := c.CopyText(), kept.CopyText(); got != want {
		t.Errorf("copied, the card gives %d bytes, want %d", len(got), len(want))
	}
}

// A card whose spill file is gone says so, expanded and copied, and still
// shows the last lines it kept.
func TestSpilledCardSaysItsFileIsGone(t *testing.T) {
	c, _, path := spilledCard(t)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	c.Toggle()
	expanded := linesText(c.Render(darkCtx(), 200))
	if !strings.Contains(expanded, "is gone") || !strings.Contains(expanded, path) || !strings.Contains(expanded, "29999\n") {
		t.Errorf("the expanded card does not say its file is gone, or lacks its last lines:\n%s", expanded)
	}
	if cp := c.CopyText(); !strings.Contains(cp, "is gone") || !strings.HasSuffix(cp, "30000") {
		t.Errorf("copied: %q", cp)
	}
}

// A spill file that holds another output now (a command of another
// session with the same call ID wrote it) is not shown as this one's.
func TestSpilledCardReadsNoOtherOutput(t *testing.T) {
	c, _, path := spilledCard(t)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	other := strings.Replace(string(b), "\n17\n", "\n71\n", 1)
	if err := os.WriteFile(path, []byte(other), 0o600); err != nil {
		t.Fatal(err)
	}
	c.Toggle()
	if expanded := linesText(c.Render(darkCtx(), 200)); !strings.Contains(expanded, "holds another output now") || strings.Contains(expanded, "│ 71\n") {
		t.Errorf("the expanded card shows another output as its own:\n%.800s", expanded)
	}
}

// An output its spill file does not hold as the result has it (a secret
// redacted in the file, say) stays in the card.
func TestCardKeepsAnOutputItsFileDoesNotMatch(t *testing.T) {
	reg := NewRegistry()
	events := runBash(t, "seq 1 30000")
	var path string
	for _, ev := range events {
		if d, ok := ev.Data.(tools.CommandDone); ok {
			path = d.Spill
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), "\n3\n", "\n[redacted]\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	c := cardFrom(reg, "1", "bash", events...)
	if c.spill != nil || c.cmd.Output == "" {
		t.Fatal("the card left its output in a file that does not hold it")
	}
	c.Toggle()
	if expanded := linesText(c.Render(darkCtx(), 80)); !strings.Contains(expanded, "│ 3\n") || strings.Contains(expanded, "redacted") {
		t.Errorf("the card does not show its own output:\n%.300s", expanded)
	}
}
