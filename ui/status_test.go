package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
)

// statusLine is the screen's last row.
func (r *running) statusLine() string {
	r.t.Helper()
	lines := strings.Split(r.text(), "\n")
	return lines[len(lines)-1]
}

// The status bar never says two things at once: a mode set with /mode
// replaces the message of the mode cycled to before, and "cancelling…" goes
// when the turn has ended.
func TestStatusMessagesDoNotGoStale(t *testing.T) {
	block := make(chan struct{})
	ag := newScriptAgent(func(ctx context.Context, emit func(agent.Event)) {
		select {
		case <-ctx.Done():
		case <-block:
		}
	})
	defer close(block)
	r := startApp(t, Options{Agent: ag}, 120, 30)
	r.key(tcell.KeyRune, 'p', tcell.ModAlt) // ask → accept-edits
	r.key(tcell.KeyRune, 'p', tcell.ModAlt) // → plan
	r.key(tcell.KeyRune, 'p', tcell.ModAlt) // → yolo
	if s := r.statusLine(); !strings.Contains(s, "permission mode: yolo") {
		t.Fatalf("Alt-P does not say the new mode: %q", s)
	}
	r.typeText("/mode ask")
	r.key(tcell.KeyEnter, 0, 0)
	if s := r.statusLine(); strings.Contains(s, "yolo") || !strings.Contains(s, "ask") {
		t.Errorf("after /mode ask the status bar says %q", s)
	}

	r.typeText("go")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("thinking")
	r.key(tcell.KeyEscape, 0, 0)
	r.waitScreen("idle")
	if s := r.statusLine(); strings.Contains(s, "cancelling") {
		t.Errorf("\"cancelling…\" outlived the turn: %q", s)
	}
}
