package ui

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
)

// Tab after /mo offers /model too: it completes what the matches share,
// then steps through them; Shift-Tab steps back.
func TestTabCyclesThroughTheMatches(t *testing.T) {
	r := startApp(t, Options{Agent: newScriptAgent()}, 120, 30)
	r.typeText("/mo")
	r.waitScreen("/model")
	var got []string
	for i := 0; i < 4; i++ {
		r.key(tcell.KeyTab, 0, 0)
		r.onUI(func() { got = append(got, r.app.task.input.GetText()) })
	}
	if strings.Join(got, " ") != "/mode /model /mode /model" {
		t.Errorf("Tab gave %q", got)
	}
	if s := r.text(); !strings.Contains(s, "/model") || !strings.Contains(s, "/mode [") {
		t.Errorf("the popup does not show every match while cycling:\n%s", s)
	}
	r.key(tcell.KeyBacktab, 0, 0)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "/mode" {
			t.Errorf("Shift-Tab gave %q", got)
		}
	})
}

// Enter on /mode alone shows the modes, the current one marked, and
// choosing one sets it; it never just inserts a space.
func TestBareModeOpensAPicker(t *testing.T) {
	ag := newScriptAgent()
	r := startApp(t, Options{Agent: ag}, 120, 30)
	r.typeText("/mode")
	r.key(tcell.KeyEnter, 0, 0)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "" {
			t.Errorf("the input holds %q after Enter", got)
		}
	})
	r.waitScreen("Permission mode")
	s := r.text()
	for _, want := range []string{"● ask", "accept-edits", "plan", "yolo", "nothing asks"} {
		if !strings.Contains(s, want) {
			t.Errorf("the picker lacks %q:\n%s", want, s)
		}
	}
	r.typeText("yo")
	r.key(tcell.KeyEnter, 0, 0)
	if ag.Mode() != agent.ModeYolo {
		t.Errorf("mode = %s after choosing yolo", ag.Mode())
	}
	r.waitScreen("permission mode: yolo")
	if r.app.Picker() != nil {
		t.Error("the picker is still open")
	}
	// Typed with the popup open, /mo + Enter runs the highlighted /mode bare.
	r.typeText("/mo")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("● yolo")
	r.key(tcell.KeyEscape, 0, 0)
	if r.app.Picker() != nil || ag.Mode() != agent.ModeYolo {
		t.Errorf("Esc did not leave the picker untouched (mode %s)", ag.Mode())
	}
}
