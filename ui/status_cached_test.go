package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/ui/theme"
)

// The last turn's stats say how much of the prompt the server's cache
// served, in the IDE too, not only in headless JSON.
func TestStatusShowsCachedShare(t *testing.T) {
	th := theme.Get("dark")
	s := newStatusBar(&th, func() statusInfo { return statusInfo{} })
	in := statusInfo{Model: "openai/gpt-4o", State: "idle",
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
	s := newStatusBar(&th, func() statusInfo { return statusInfo{} })
	text := func(in statusInfo) string {
		var b strings.Builder
		for _, seg := range s.segments(in) {
			for _, sp := range seg {
				b.WriteString(sp.Text)
			}
			b.WriteString(" | ")
		}
		return b.String()
	}
	in := statusInfo{Model: "m", State: "idle", ContextWindow: 1000,
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
