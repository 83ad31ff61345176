package ui

import (
	"os"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/session"
)

// keeper is a session keeper over a real store, for the prompt history.
type keeper struct{ st *session.Store }

func (k keeper) ID() string                               { return "cur" }
func (k keeper) Sessions() ([]session.Info, error)        { return k.st.List() }
func (k keeper) Resume(id string) (*agent.Resumed, error) { return nil, os.ErrNotExist }
func (k keeper) NewConversation(bool)                     {}
func (k keeper) Store() *session.Store                    { return k.st }
func (k keeper) RecordWorkspace(session.Workspace)        {}
func (k keeper) prompt(t *testing.T, id string, p ...string) {
	t.Helper()
	w, err := k.st.Create(session.Record{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i, text := range p {
		if err := w.Append(session.Record{Type: session.TypeMessage, N: session.Of(i), Message: &session.Message{Role: "user", Content: text}}); err != nil {
			t.Fatal(err)
		}
	}
}

// Ctrl-R searches what was sent in every session of the project: typing
// narrows the list, Enter puts the prompt in the input, Esc leaves the
// input as it was.
func TestCtrlRSearchesThePromptsOfEverySession(t *testing.T) {
	st, err := session.New(t.TempDir(), t.TempDir(), session.Options{Fawn: "test"})
	if err != nil {
		t.Fatal(err)
	}
	k := keeper{st}
	k.prompt(t, "aa11", "refactor the parser into two files")
	k.prompt(t, "bb22", "why does the cache test flake?")
	ag := newScriptAgent()
	r := startApp(t, Options{Agent: ag, Services: backend.Services{Sessions: k}}, 120, 30)
	r.typeText("draft")
	r.key(tcell.KeyCtrlR, 0, tcell.ModCtrl)
	r.waitScreen("Prompt history")
	r.waitScreen("refactor the parser into two files")
	r.waitScreen("why does the cache test flake?")
	r.key(tcell.KeyEscape, 0, 0)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "draft" || r.app.Picker() != nil {
			t.Errorf("after Esc the input holds %q (picker open: %v)", got, r.app.Picker() != nil)
		}
	})
	r.key(tcell.KeyCtrlR, 0, tcell.ModCtrl)
	r.waitScreen("refactor the parser")
	r.typeText("cache flake")
	r.key(tcell.KeyEnter, 0, 0)
	r.onUI(func() {
		if got := r.app.task.input.GetText(); got != "why does the cache test flake?" {
			t.Errorf("Enter put %q in the input", got)
		}
	})
	if got := ag.promptList(); len(got) != 0 {
		t.Errorf("choosing a prompt sent it: %q", got)
	}
	// F1 lists the key.
	r.key(tcell.KeyF1, 0, 0)
	r.onUI(func() {
		if help := linesText(r.app.help.Lines(140)); !strings.Contains(help, "Ctrl-R") || !strings.Contains(help, "Search what you sent in every session") {
			t.Errorf("F1 help does not list Ctrl-R:\n%s", help)
		}
	})
}
