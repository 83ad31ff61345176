package panes

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/ui/theme"
)

// The last turn's stats say how much of the prompt the server's cache
// served, in the IDE too, not only in headless JSON.
func TestStatusShowsCachedShare(t *testing.T) {
	th := theme.Get("dark")
	s := NewStatusBar(&th, func() StatusInfo { return StatusInfo{} })
	in := StatusInfo{Model: "openai/gpt-4o", State: "idle",
		Last: &agent.Usage{Duration: 2 * time.Second, InputTokens: 10000, CachedTokens: 8300, OutputTokens: 100}}
	var b strings.Builder
	for _, seg := range s.segments(in) {
		for _, sp := range seg {
			b.WriteString(sp.Text)
		}
		b.WriteString(" | ")
	}
	if !strings.Contains(b.String(), "83% cached") {
		t.Errorf("status: %s", b.String())
	}
	in.Last.CachedTokens = 0
	b.Reset()
	for _, seg := range s.segments(in) {
		for _, sp := range seg {
			b.WriteString(sp.Text)
		}
	}
	if strings.Contains(b.String(), "cached") {
		t.Errorf("cached shown without a cache: %s", b.String())
	}
}

// Without the server's count, ctx % is fawn's estimate and says so.
func TestStatusMarksAnEstimatedContext(t *testing.T) {
	th := theme.Get("dark")
	s := NewStatusBar(&th, func() StatusInfo { return StatusInfo{} })
	text := func(in StatusInfo) string {
		var b strings.Builder
		for _, seg := range s.segments(in) {
			for _, sp := range seg {
				b.WriteString(sp.Text)
			}
			b.WriteString(" | ")
		}
		return b.String()
	}
	in := StatusInfo{Model: "m", State: "idle", ContextWindow: 1000,
		Session: &agent.Usage{InputTokens: 300, OutputTokens: 10, ContextTokens: 300}}
	if got := text(in); !strings.Contains(got, "ctx 30%") {
		t.Errorf("reported: %s", got)
	}
	in.Session.ContextEstimated = true
	in.Session.InputTokens, in.Session.OutputTokens = 0, 0 // a server that reports no usage
	if got := text(in); !strings.Contains(got, "ctx ~30%") {
		t.Errorf("estimated: %s", got)
	}
}

// The status bar reuses its last layout while what it shows is unchanged;
// every change still shows: usage counted up in place (the same pointer),
// the spinner turning, a flash coming and going, a new width. Each step is
// compared with what a status bar that never drew before draws.
func TestStatusBarShowsEveryChange(t *testing.T) {
	th := theme.Get("dark")
	session := &agent.Usage{}
	last := &agent.Usage{}
	in := StatusInfo{Model: "openai/gpt-4o", Mode: agent.ModeAsk, State: "idle", ContextWindow: 128000,
		Session: session, Hint: "F1 help · Ctrl-Q quit"}
	info := func() StatusInfo { return in }
	kept := NewStatusBar(&th, info)
	screens := [2]tcell.SimulationScreen{tcell.NewSimulationScreen("UTF-8"), tcell.NewSimulationScreen("UTF-8")}
	for _, s := range screens {
		if err := s.Init(); err != nil {
			t.Fatal(err)
		}
		defer s.Fini()
		s.SetSize(100, 1)
	}
	w := 100
	steps := []func(){
		func() {},
		func() { in.State, in.Busy = "thinking", true },
		func() { in.Frame++ },
		func() { in.Frame++ },
		func() { session.InputTokens, session.OutputTokens, session.ContextTokens = 1200, 3, 1200 },
		func() { session.OutputTokens += 400 },
		func() { session.ContextEstimated = true },
		func() { kept.Flash("copied 3 lines", time.Now().Add(time.Hour)) },
		func() { in.Frame++ },
		func() { kept.Flash("copied 4 lines", time.Now().Add(-time.Second)) }, // already over
		func() { in.State = "waiting for you" },
		func() { in.Frame++ },
		func() { in.Mode = agent.ModeYolo },
		func() { in.Last = last; last.Duration, last.TokensPerSecond = 3*time.Second, 41 },
		func() { last.CachedTokens, last.InputTokens = 500, 1000 },
		func() { w = 40 },
		func() { w = 100; in.Busy, in.State = false, "idle" },
		func() { in.Model = "anthropic/claude-sonnet-4-5" },
	}
	for i, step := range steps {
		step()
		fresh := NewStatusBar(&th, info)
		fresh.flash, fresh.flashUntil = kept.flash, kept.flashUntil
		for j, s := range []*StatusBar{kept, fresh} {
			screens[j].Clear()
			s.SetRect(0, 0, w, 1)
			s.Draw(screens[j])
		}
		if got, want := screenRow(screens[0], 0, 100), screenRow(screens[1], 0, 100); got != want {
			t.Fatalf("step %d: the status bar shows\n%q\nwhere a fresh one shows\n%q", i, got, want)
		}
	}
}

// screenRow is row y of a simulation screen as text, with each cell's style.
func screenRow(s tcell.SimulationScreen, y, w int) string {
	var b strings.Builder
	for x := 0; x < w; x++ {
		str, st, _ := s.Get(x, y)
		fmt.Fprintf(&b, "%s[%v]", str, st)
	}
	return b.String()
}

// The session's cost is in the status bar when every response had a
// price, and nothing is shown (not $0) when one had none.
func TestStatusShowsTheSessionsCost(t *testing.T) {
	th := theme.Get("dark")
	s := NewStatusBar(&th, func() StatusInfo { return StatusInfo{} })
	text := func(in StatusInfo) string {
		var b strings.Builder
		for _, seg := range s.segments(in) {
			for _, sp := range seg {
				b.WriteString(sp.Text)
			}
			b.WriteString(" | ")
		}
		return b.String()
	}
	in := StatusInfo{Model: "openai/gpt-4o", State: "idle",
		Session: &agent.Usage{InputTokens: 30000, OutputTokens: 1000, Cost: agent.Cost{USD: 0.425, Priced: 3}}}
	if got := text(in); !strings.Contains(got, "| $0.42 |") {
		t.Errorf("status lacks the cost: %s", got)
	}
	in.Session.Cost = agent.Cost{USD: 0.425, Priced: 2, Unpriced: 1}
	if got := text(in); strings.Contains(got, "$") {
		t.Errorf("a cost shown with a response unpriced: %s", got)
	}
	in.Session.Cost = agent.Cost{}
	if got := text(in); strings.Contains(got, "$") {
		t.Errorf("a cost shown for a model without a price: %s", got)
	}
}
