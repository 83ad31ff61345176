package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/tools"
)

// A task not shown goes on working: its events reach its own chat, editor
// and dialogs, never the task on screen, and are all there when it is
// shown.
func TestATaskInTheBackgroundKeepsItsEventsToItself(t *testing.T) {
	edA, edB := newRecordingEditor(), newRecordingEditor()
	agA := newScriptAgent()
	bTurn := func(ctx context.Context, emit func(agent.Event)) {
		emit(agent.Event{Type: agent.EventText, Text: "answer from task B"})
		emit(agent.Event{Type: agent.EventToolCallStarted, ID: "e1", Name: "text_editor"})
		emit(agent.Event{Type: agent.EventToolCallReady, ID: "e1", Name: "text_editor", Args: `{"command":"create","path":"/projB/new.txt"}`})
		emit(agent.Event{Type: agent.EventToolRunStarted, ID: "e1", Name: "text_editor"})
		emit(agent.Event{Type: agent.EventToolUpdate, ID: "e1", Data: tools.FileChanged{Path: "/projB/new.txt", After: []byte("b\n")}})
		emit(agent.Event{Type: agent.EventToolRunEnded, ID: "e1", Name: "text_editor", Result: "ok"})
		req := bashRequest("b1", "make -C b")
		emit(agent.Event{Type: agent.EventToolCallStarted, ID: "b1", Name: "bash"})
		emit(agent.Event{Type: agent.EventPermissionAsked, ID: "b1", Name: "bash", Permission: &req})
		<-ctx.Done()
	}
	agB := newScriptAgent(bTurn)
	r := startApp(t, Options{Agent: agA, Root: "/proj", Editor: edA}, 120, 30)
	r.waitScreen("idle")

	var b *Task
	r.onUI(func() {
		b = r.app.newTask(TaskOptions{Name: "b", Agent: agB, Root: "/projB", Editor: edB})
		b.submit("work in B")
	})
	waitFor(t, "task B's permission request", func() bool {
		var asked bool
		r.onUI(func() { asked = b.dialog.Visible() })
		return asked
	})
	r.sync()
	if text := r.text(); strings.Contains(text, "answer from task B") || strings.Contains(text, "make -C b") {
		t.Fatalf("the task on screen shows task B's work:\n%s", text)
	}
	r.onUI(func() {
		if len(edA.changed) != 0 {
			t.Errorf("task B's edit reached task A's editor: %v", edA.changed)
		}
		if len(edB.changed) != 1 {
			t.Errorf("task B's editor got %d edits, want 1", len(edB.changed))
		}
		if !b.turnRunning() || r.app.tasks[0].turnRunning() {
			t.Errorf("turns: B running %v, A running %v; want B's only", b.turnRunning(), r.app.tasks[0].turnRunning())
		}
	})

	r.onUI(func() { r.app.switchTo(b) })
	r.waitScreen("answer from task B")
	r.waitScreen("$ make -C b") // its permission dialog, waiting for the user
	r.onUI(func() { b.cancelTurn() })
	r.waitScreen("idle")
	r.onUI(func() { r.app.switchTo(r.app.tasks[0]) })
	r.sync()
	if text := r.text(); strings.Contains(text, "answer from task B") {
		t.Fatalf("back on task A, the screen still shows task B's chat:\n%s", text)
	}
}

// The commands offered are those of the task shown: a task whose agent
// has no compaction has no /compact, while the one beside it does.
func TestTheCommandsOfferedAreTheShownTasks(t *testing.T) {
	sess, cfg, root := demoSession(t)
	r := startApp(t, Options{Agent: sess, Services: backend.SessionServices(sess), Config: cfg, Root: root}, 120, 30)
	r.waitScreen("idle")
	var bare *Task
	r.onUI(func() {
		if r.app.commands.Find("compact") == nil {
			t.Error("/compact is not offered with fawn's agent")
		}
		bare = r.app.newTask(TaskOptions{Name: "bare", Agent: newScriptAgent(), Root: root})
		r.app.switchTo(bare)
		if r.app.commands.Find("compact") != nil || len(r.app.commands.Match("compa")) != 0 {
			t.Error("/compact is offered in a task whose agent cannot compact")
		}
	})
	r.typeText("/compact")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("/compact is not offered by this task's agent")
	r.onUI(func() {
		r.app.switchTo(r.app.tasks[0])
		if r.app.commands.Find("compact") == nil {
			t.Error("back on fawn's agent, /compact is not offered")
		}
	})
}

// The spinners of the task shown turn while it works (its cards draw with
// the task's own render context, which the loop's ticks must reach).
func TestTheShownTasksSpinnersTurn(t *testing.T) {
	hold := make(chan struct{})
	ag := newScriptAgent(func(ctx context.Context, emit func(agent.Event)) {
		emit(agent.Event{Type: agent.EventToolCallStarted, ID: "c1", Name: "bash"})
		emit(agent.Event{Type: agent.EventToolRunStarted, ID: "c1", Name: "bash", Action: &tools.Action{Kind: tools.KindExec, Command: "sleep 9"}})
		select {
		case <-hold:
		case <-ctx.Done():
		}
	})
	defer close(hold)
	r := startApp(t, Options{Agent: ag}, 120, 30)
	r.typeText("go")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("sleep 9")
	var first uint64
	r.onUI(func() { first = r.app.task.rctx.Frame })
	waitFor(t, "the card's spinner to turn", func() bool {
		var now uint64
		r.onUI(func() { now = r.app.task.rctx.Frame })
		return now > first+2
	})
}

// With two tasks the task bar shows both, the one in the background marked
// when its turn ends unseen; the keys and a click switch between them.
func TestTheTaskBarShowsAndSwitchesTasks(t *testing.T) {
	agB := newScriptAgent(func(ctx context.Context, emit func(agent.Event)) {
		emit(agent.Event{Type: agent.EventText, Text: "B has finished"})
	})
	r := startApp(t, Options{Agent: newScriptAgent()}, 120, 30)
	r.waitScreen("idle")
	if strings.Contains(r.text(), "1 project") {
		t.Fatal("the task bar shows with one task")
	}
	var b *Task
	r.onUI(func() {
		b = r.app.newTask(TaskOptions{Name: "refactor", Agent: agB, Root: "/projB"})
		b.submit("go")
	})
	r.waitScreen("1 project")
	r.waitScreen("✓ refactor •") // done, unseen
	r.waitScreen("task refactor has finished — Ctrl-Alt-2 shows it")
	r.key(tcell.KeyRune, '2', tcell.ModCtrl|tcell.ModAlt)
	r.waitScreen("B has finished")
	r.sync()
	if strings.Contains(r.text(), "refactor •") {
		t.Errorf("the task shown still has its badge:\n%s", r.text())
	}
	r.key(tcell.KeyRune, '.', tcell.ModAlt)
	r.sync()
	r.onUI(func() {
		if r.app.task != r.app.tasks[0] {
			t.Error("Alt-. did not go round to the first task")
		}
	})
	x, y := r.find("refactor")
	r.onUI(func() {
		m := &mouseState{}
		r.app.handleMouse(tcell.NewEventMouse(x, y, tcell.Button1, 0), m)
		r.app.handleMouse(tcell.NewEventMouse(x, y, tcell.ButtonNone, 0), m)
	})
	r.sync()
	r.onUI(func() {
		if r.app.task != b {
			t.Error("a click on its tab did not show the task")
		}
	})
}

// /task new NAME PROMPT makes a task's parts with Options.NewTask, shows
// the task and sends it the prompt; a failure says why in the chat the
// command was typed in; quitting stops what was started for the task.
func TestTaskNewStartsATaskAndItsFirstTurn(t *testing.T) {
	closed := make(chan string, 4)
	agFix := newScriptAgent(func(ctx context.Context, emit func(agent.Event)) {
		emit(agent.Event{Type: agent.EventText, Text: "fixing in the worktree"})
	})
	opts := Options{Agent: newScriptAgent()}
	opts.NewTask = func(ctx context.Context, name string) (TaskOptions, error) {
		if name == "bad" {
			return TaskOptions{}, errors.New("fatal: a branch named 'fawn/bad' already exists")
		}
		return TaskOptions{Agent: agFix, Root: "/worktrees/" + name, Close: func() { closed <- name }}, nil
	}
	r := startApp(t, opts, 200, 30)
	r.typeText("/task new bad try")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("task bad was not started")

	r.typeText("/task new fix make the tests pass")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("fixing in the worktree")
	r.waitScreen("task fix works on /worktrees/fix")
	r.waitScreen("2 ✓ fix")
	if got := agFix.promptList(); len(got) != 1 || got[0] != "make the tests pass" {
		t.Errorf("the task's first prompt was %q", got)
	}
	r.typeText("/task new fix again")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("a task called fix is open already")

	r.app.Stop()
	select {
	case name := <-closed:
		if name != "fix" {
			t.Errorf("closed %s, want fix", name)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("quitting did not stop what was started for the task")
	}
}

// /task merge and /task discard act only on a task with a branch of its
// own, and say so in the project's own task.
func TestMergeAndDiscardNeedATaskBranch(t *testing.T) {
	r := startApp(t, Options{Agent: newScriptAgent()}, 200, 30)
	r.typeText("/task merge")
	r.key(tcell.KeyEnter, 0, 0)
	r.waitScreen("this task works in the project itself")
	r.typeText("/task discard")
	r.key(tcell.KeyEnter, 0, 0)
	waitFor(t, "the second refusal", func() bool {
		r.sync()
		return strings.Count(r.text(), "works in the project itself") == 2
	})
}
