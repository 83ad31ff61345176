package ui

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
)

// recordingAttacher attaches any file as its path and records the input
// each turn is started with.
type recordingAttacher struct{ got chan agent.Input }

func (r *recordingAttacher) Attach(_ context.Context, path string) (agent.Attachment, error) {
	return agent.Attachment{Path: path, Text: "text of " + filepath.Base(path)}, nil
}

func (r *recordingAttacher) RunInput(_ context.Context, in agent.Input) <-chan agent.Event {
	r.got <- in
	ch := make(chan agent.Event, 2)
	ch <- agent.Event{Type: agent.EventTurnStarted, Text: in.Typed}
	ch <- agent.Event{Type: agent.EventTurnEnded, Usage: &agent.Usage{}, SessionUsage: &agent.Usage{}}
	close(ch)
	return ch
}

func (r *recordingAttacher) AcceptsImages() bool { return true }

// The files a message @-mentions reach the backend apart from its text
// (agent.Input.Attached), for an agent that takes them as resources.
func TestMentionsReachTheBackendApart(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ra := &recordingAttacher{got: make(chan agent.Input, 1)}
	r := startApp(t, Options{Agent: newScriptAgent(), Services: backend.Services{Attach: ra}, Root: root}, 120, 30)
	r.typeText("see @a.txt")
	r.key(tcell.KeyEnter, 0, 0)
	select {
	case in := <-ra.got:
		if in.Typed != "see @a.txt" || len(in.Attached) != 1 || filepath.Base(in.Attached[0].Path) != "a.txt" || in.Attached[0].Text != "text of a.txt" {
			t.Errorf("input %+v", in)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no turn started")
	}
}
