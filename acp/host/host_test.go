package host_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/acp/acptest"
	"github.com/fawn-ide/fawn/acp/host"
	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/checkpoint"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/secret"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
)

func TestMain(m *testing.M) {
	if acptest.Serve() {
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fixture is a Host on the scripted agent playing scenario in a project of
// its own.
type fixture struct {
	h      *host.Host
	root   string
	report string
	log    string
}

func newFixture(t *testing.T, scenario string, edit func(o *host.Options)) *fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f := &fixture{root: root, report: filepath.Join(dir, "report"), log: filepath.Join(dir, "agent.log")}
	o := host.Options{
		Name: "scripted",
		Agent: config.ACPAgent{Command: os.Args[0], Args: []string{"-test.run=^$"},
			Env: map[string]string{"FAWN_ACP_SCRIPT": scenario, "FAWN_ACP_REPORT": f.report}},
		Environ:     os.Environ(),
		Root:        root,
		LogPath:     f.log,
		Permissions: config.Permissions{Mode: "ask"},
		Interactive: true,
		CancelGrace: 2 * time.Second,
	}
	if edit != nil {
		edit(&o)
	}
	h, err := host.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	f.h = h
	return f
}

// collect reads a turn's events to the end (a minute at most).
func collect(t *testing.T, ch <-chan agent.Event) []agent.Event {
	t.Helper()
	var evs []agent.Event
	deadline := time.After(time.Minute)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return evs
			}
			evs = append(evs, ev)
		case <-deadline:
			t.Fatalf("the turn did not end; events so far: %v", types(evs))
		}
	}
}

func types(evs []agent.Event) []string {
	var out []string
	for _, e := range evs {
		s := string(e.Type)
		if e.ID != "" {
			s += "(" + e.ID + ")"
		}
		out = append(out, s)
	}
	return out
}

func (f *fixture) reportText(t *testing.T) string {
	b, _ := os.ReadFile(f.report)
	return string(b)
}

// ofCall are the events of call id.
func ofCall(evs []agent.Event, id string) []agent.Event {
	var out []agent.Event
	for _, e := range evs {
		if e.ID == id {
			out = append(out, e)
		}
	}
	return out
}

func last(evs []agent.Event) agent.Event { return evs[len(evs)-1] }

// checkStream holds for every turn: it opens with turn_started and closes
// with turn_ended, and every call started is ended exactly once, after
// which nothing of it follows.
func checkStream(t *testing.T, evs []agent.Event) {
	t.Helper()
	if len(evs) < 2 || evs[0].Type != agent.EventTurnStarted || last(evs).Type != agent.EventTurnEnded {
		t.Fatalf("a turn opens with turn_started and ends with turn_ended: %v", types(evs))
	}
	started, ended := map[string]int{}, map[string]bool{}
	for _, e := range evs {
		if e.ID == "" {
			continue
		}
		if ended[e.ID] {
			t.Errorf("%s of call %s after its end: %v", e.Type, e.ID, types(evs))
		}
		switch e.Type {
		case agent.EventToolCallStarted:
			started[e.ID]++
		case agent.EventToolRunEnded:
			ended[e.ID] = true
		}
	}
	for id, n := range started {
		if n != 1 {
			t.Errorf("call %s started %d times", id, n)
		}
		if !ended[id] {
			t.Errorf("call %s never ended: %v", id, types(evs))
		}
	}
}

// TestEditTurn: text and reasoning deltas, the plan as a todo_write call,
// an edit the agent made itself shown as text_editor's change of the
// whole file, and a command's streamed output.
func TestEditTurn(t *testing.T) {
	f := newFixture(t, "edit", nil)
	p := filepath.Join(f.root, "hello.txt")
	if err := os.WriteFile(p, []byte("one\nhello, wrld\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	evs := collect(t, f.h.Run(context.Background(), "fix the greeting"))
	checkStream(t, evs)
	if err := last(evs).Err; err != nil {
		t.Fatalf("turn failed: %v", err)
	}
	var text, reasoning string
	var todos *tools.TodosChanged
	for _, e := range evs {
		switch e.Type {
		case agent.EventText:
			text += e.Text
		case agent.EventReasoning:
			reasoning += e.Text
		case agent.EventToolUpdate:
			if d, ok := e.Data.(tools.TodosChanged); ok {
				todos = &d
				if e.Name != "todo_write" {
					t.Errorf("a plan goes to the to-do view as todo_write, not %q", e.Name)
				}
			}
		}
	}
	if text != "I will fix the greeting.Done." || reasoning != "the greeting is wrong" {
		t.Errorf("text %q, reasoning %q", text, reasoning)
	}
	if todos == nil || len(todos.Items) != 2 || todos.Items[0].Title != "fix the greeting" || todos.Items[0].Status != "in_progress" {
		t.Errorf("plan: %+v", todos)
	}
	if got := f.h.Todos(); len(got) != 2 {
		t.Errorf("Todos() = %v", got)
	}

	edit := ofCall(evs, "e1")
	if edit[0].Type != agent.EventToolCallStarted || edit[0].Name != "text_editor" {
		t.Fatalf("an edit is a text_editor call: %v", types(edit))
	}
	var changed *tools.FileChanged
	for _, e := range edit {
		if d, ok := e.Data.(tools.FileChanged); ok {
			changed = &d
		}
	}
	if changed == nil {
		t.Fatalf("no FileChanged for the edit: %v", types(edit))
	}
	if changed.Path != p || string(changed.Before) != "one\nhello, wrld\nthree\n" || string(changed.After) != "one\nhello, world\nthree\n" {
		t.Errorf("FileChanged = %s %q → %q", changed.Path, changed.Before, changed.After)
	}

	run := ofCall(evs, "x1")
	if run[0].Name != "execute" {
		t.Errorf("the agent's own command is an execute call, not %q", run[0].Name)
	}
	var out string
	for _, e := range run {
		if e.Type == agent.EventToolOutput {
			out += e.Text
		}
	}
	if out != "ok  \tpkg\nPASS\n" {
		t.Errorf("streamed output %q", out)
	}
	if end := last(run); end.Type != agent.EventToolRunEnded || end.IsError || !strings.Contains(end.Result, "PASS") {
		t.Errorf("command end: %+v", end)
	}
	if u := last(evs).Usage; u == nil || u.ToolCalls != 2 {
		t.Errorf("usage: %+v", u)
	}
	// Its stderr went to the log, not to fawn's.
	if b, _ := os.ReadFile(f.log); !strings.Contains(string(b), "scripted agent up: edit") {
		t.Errorf("the agent's stderr is not in its log: %q", b)
	}
	if r := f.reportText(t); !strings.Contains(r, "init fs=true/true terminal=false") || !strings.Contains(r, "session cwd="+f.root) {
		t.Errorf("initialize and session/new: %q", r)
	}
}

// TestOutOfOrder: an update before its call's announcement announces it,
// a status never goes back, an update after the end is dropped, and an
// update for a call never announced makes its card; a call the agent left
// open is ended with the turn.
func TestOutOfOrder(t *testing.T) {
	f := newFixture(t, "outoforder", nil)
	evs := collect(t, f.h.Run(context.Background(), "go"))
	checkStream(t, evs)
	t1 := ofCall(evs, "t1")
	if t1[0].Type != agent.EventToolCallStarted {
		t.Fatalf("t1: %v", types(t1))
	}
	end := last(t1)
	if end.Type != agent.EventToolRunEnded || end.Result != "3 matches" || end.IsError {
		t.Errorf("t1 ends with its result, not the late update: %+v", end)
	}
	var title string
	for _, e := range t1 {
		if e.Type == agent.EventToolCallReady {
			title = e.Args
		}
	}
	if !strings.Contains(title, "Search for TODO") {
		t.Errorf("the announcement's title joins the call: %q", title)
	}
	ghost := ofCall(evs, "ghost")
	if len(ghost) == 0 || ghost[0].Type != agent.EventToolCallStarted || last(ghost).Type != agent.EventToolRunEnded || last(ghost).IsError {
		t.Errorf("an update for an unknown call makes and ends it: %v", types(ghost))
	}
	open := ofCall(evs, "open")
	if e := last(open); e.Type != agent.EventToolRunEnded || !e.IsError {
		t.Errorf("a call left open ends with the turn, as an error: %+v", e)
	}
	if err := last(evs).Err; err != nil {
		t.Errorf("turn: %v", err)
	}
}

// TestWrite: fs/write_text_file inside the project writes through fawn
// (asked, allowed, shown as the edit call's change); outside it is
// refused and nothing is written.
func TestWrite(t *testing.T) {
	f := newFixture(t, "write", nil)
	ch := f.h.Run(context.Background(), "write")
	var evs []agent.Event
	deadline := time.After(time.Minute)
	for done := false; !done; {
		select {
		case ev, ok := <-ch:
			if !ok {
				done = true
				break
			}
			evs = append(evs, ev)
			if ev.Type == agent.EventPermissionAsked {
				if ev.ID != "w1" || ev.Action == nil || ev.Action.Kind != tools.KindEdit {
					t.Errorf("the write asks under the call that names its file: %+v", ev)
				}
				f.h.Approve(ev.ID, agent.Answer{Decision: agent.AllowOnce})
			}
		case <-deadline:
			t.Fatalf("no end: %v", types(evs))
		}
	}
	checkStream(t, evs)
	if b, err := os.ReadFile(filepath.Join(f.root, "src/new.txt")); err != nil || string(b) != "fresh\n" {
		t.Errorf("inside: %q %v", b, err)
	}
	var changed *tools.FileChanged
	for _, e := range ofCall(evs, "w1") {
		if d, ok := e.Data.(tools.FileChanged); ok {
			if changed != nil {
				t.Errorf("the write is shown once, not again at the call's end")
			}
			changed = &d
		}
	}
	if changed == nil || changed.Before != nil || string(changed.After) != "fresh\n" || changed.Command != "create" {
		t.Errorf("the write shows as the call's change: %+v", changed)
	}
	r := f.reportText(t)
	if !strings.Contains(r, "write inside: <nil>") {
		t.Errorf("report: %q", r)
	}
	if !strings.Contains(r, "write outside:") || !strings.Contains(r, "outside the project") {
		t.Errorf("a write outside the project is refused with the reason: %q", r)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(f.root), "escaped.txt")); err == nil {
		t.Error("the write outside the project landed")
	}
}

// TestWriteDeniedInPlanMode: plan mode refuses the write without asking.
func TestWriteDeniedInPlanMode(t *testing.T) {
	f := newFixture(t, "write", func(o *host.Options) { o.Permissions.Mode = "plan" })
	evs := collect(t, f.h.Run(context.Background(), "write"))
	for _, e := range evs {
		if e.Type == agent.EventPermissionAsked {
			t.Fatalf("plan mode asked: %+v", e)
		}
	}
	if _, err := os.Stat(filepath.Join(f.root, "src/new.txt")); err == nil {
		t.Error("plan mode let the write through")
	}
	if r := f.reportText(t); !strings.Contains(r, "write inside: ") || strings.Contains(r, "write inside: <nil>") {
		t.Errorf("report: %q", r)
	}
}

// TestPermissionRules: a deny rule answers the agent's request without
// asking, and headless nobody is asked: the request is refused.
func TestPermissionRules(t *testing.T) {
	f := newFixture(t, "permission", func(o *host.Options) {
		o.Permissions.Mode = "yolo"
		o.Permissions.Deny = []string{"bash(rm:*)"}
	})
	evs := collect(t, f.h.Run(context.Background(), "clean"))
	checkStream(t, evs)
	var ans *agent.Answer
	for _, e := range evs {
		if e.Type == agent.EventPermissionAsked {
			t.Fatalf("a deny rule asks nobody: %+v", e)
		}
		if e.Type == agent.EventPermissionAnswered && e.ID == "p1" {
			ans = e.Answer
		}
	}
	if ans == nil || ans.Decision != agent.Deny || !strings.Contains(ans.Note, "bash(rm:*)") {
		t.Errorf("answer: %+v", ans)
	}
	if r := f.reportText(t); !strings.Contains(r, "permission selected:no") {
		t.Errorf("the deny rule picks the agent's reject option: %q", r)
	}

	g := newFixture(t, "permission", func(o *host.Options) { o.Interactive = false })
	collect(t, g.h.Run(context.Background(), "clean"))
	if r := g.reportText(t); !strings.Contains(r, "permission selected:no") {
		t.Errorf("headless, a request nothing allows is refused: %q", r)
	}
	h := newFixture(t, "permission", func(o *host.Options) {
		o.Interactive = false
		o.Permissions.Allow = []string{"bash(rm -rf build)"}
	})
	collect(t, h.h.Run(context.Background(), "clean"))
	if r := h.reportText(t); !strings.Contains(r, "permission selected:yes") {
		t.Errorf("an allow rule allows it: %q", r)
	}
}

// TestPermissionDuringCancel: the request the user cancels the turn under
// and one sent after are both answered "cancelled", and the turn ends as
// cancelled.
func TestPermissionDuringCancel(t *testing.T) {
	f := newFixture(t, "permcancel", nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := f.h.Run(ctx, "deploy")
	var evs []agent.Event
	for ev := range ch {
		evs = append(evs, ev)
		if ev.Type == agent.EventPermissionAsked {
			cancel()
		}
	}
	checkStream(t, evs)
	if err := last(evs).Err; !errors.Is(err, agent.ErrCancelled) {
		t.Errorf("the turn ends cancelled: %v", err)
	}
	r := f.reportText(t)
	if !strings.Contains(r, "first cancelled") || !strings.Contains(r, "second cancelled") || !strings.Contains(r, "cancel") {
		t.Errorf("report: %q", r)
	}
}

// TestCrash: an agent that dies mid-turn ends the turn with an error that
// says how it ended, what it said and how to go on; its open call ends;
// the next message starts it again.
func TestCrash(t *testing.T) {
	f := newFixture(t, "crash", func(o *host.Options) {
		o.Agent.Env["FAWN_TEST_AGENT_KEY"] = "sk-agent-secret"
		o.Redactor = secret.NewRedactor("sk-agent-secret")
	})
	evs := collect(t, f.h.Run(context.Background(), "build"))
	checkStream(t, evs)
	err := last(evs).Err
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"status 3", "fell over", "[redacted]", "next message starts it again", f.log} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	if b, _ := os.ReadFile(f.log); strings.Contains(err.Error(), "sk-agent-secret") || strings.Contains(string(b), "sk-agent-secret") || !strings.Contains(string(b), "fell over") {
		t.Errorf("the agent's key is not hidden in the error and the log: %v\n%s", err, b)
	}
	if e := last(ofCall(evs, "c1")); e.Type != agent.EventToolRunEnded || !e.IsError {
		t.Errorf("the open call ends: %+v", e)
	}
	evs = collect(t, f.h.Run(context.Background(), "again"))
	if err := last(evs).Err; err != nil {
		t.Fatalf("the second turn: %v", err)
	}
	var text string
	for _, e := range evs {
		if e.Type == agent.EventText {
			text += e.Text
		}
		if e.Type == agent.EventInfo && !strings.Contains(e.Text, "new conversation") {
			t.Errorf("info: %q", e.Text)
		}
	}
	if text != "back again" {
		t.Errorf("text %q", text)
	}
}

// TestGarbage: an agent that writes something that is not JSON-RPC ends
// the turn with that reason, at once.
func TestGarbage(t *testing.T) {
	f := newFixture(t, "garbage", nil)
	evs := collect(t, f.h.Run(context.Background(), "talk"))
	err := last(evs).Err
	if err == nil || !strings.Contains(err.Error(), "not JSON-RPC") || !strings.Contains(err.Error(), "this is not json") {
		t.Errorf("error: %v", err)
	}
}

// TestHang: an agent deaf to session/cancel is stopped after the grace,
// and the error says so.
func TestHang(t *testing.T) {
	f := newFixture(t, "hang", func(o *host.Options) { o.CancelGrace = 300 * time.Millisecond })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ch := f.h.Run(ctx, "think")
	var evs []agent.Event
	for ev := range ch {
		evs = append(evs, ev)
		if ev.Type == agent.EventText {
			cancel()
		}
	}
	err := last(evs).Err
	if err == nil || !strings.Contains(err.Error(), "did not stop") || !strings.Contains(err.Error(), "next message starts it again") {
		t.Errorf("error: %v", err)
	}
}

// TestHangAtStart: an agent that never answers initialize fails the turn
// after StartTimeout.
func TestHangAtStart(t *testing.T) {
	f := newFixture(t, "hang-init", func(o *host.Options) { o.StartTimeout = 300 * time.Millisecond })
	evs := collect(t, f.h.Run(context.Background(), "hello"))
	err := last(evs).Err
	if err == nil || !strings.Contains(err.Error(), "did not start") || !strings.Contains(err.Error(), "in time") {
		t.Errorf("error: %v", err)
	}
}

// TestNoCommand: a command that does not exist says which setting to fix.
func TestNoCommand(t *testing.T) {
	f := newFixture(t, "edit", func(o *host.Options) { o.Agent.Command = filepath.Join(t.TempDir(), "no-such-agent") })
	evs := collect(t, f.h.Run(context.Background(), "hello"))
	err := last(evs).Err
	if err == nil || !strings.Contains(err.Error(), "agents.scripted.command") {
		t.Errorf("error: %v", err)
	}
}

// TestRead: fs/read_text_file gives the editor's buffer of an open file,
// the lines asked for, and nothing outside the project.
func TestRead(t *testing.T) {
	f := newFixture(t, "read", func(o *host.Options) {
		o.Buffer = func(p string) ([]byte, bool) {
			if filepath.Base(p) == "notes.txt" {
				return []byte("a\nunsaved b\nc\n"), true
			}
			return nil, false
		}
	})
	if err := os.WriteFile(filepath.Join(f.root, "notes.txt"), []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	collect(t, f.h.Run(context.Background(), "read"))
	r := f.reportText(t)
	if !strings.Contains(r, `read "unsaved b\n" <nil>`) {
		t.Errorf("the buffer's line 2: %q", r)
	}
	if !strings.Contains(r, "read outside:") || !strings.Contains(r, "outside the project") {
		t.Errorf("a read outside the project is refused: %q", r)
	}
}

// TestEnvironment: the agent gets fawn's environment as given and the
// variables its entry names; nothing else.
func TestEnvironment(t *testing.T) {
	f := newFixture(t, "edit", func(o *host.Options) {
		o.Environ = []string{"PATH=" + os.Getenv("PATH")}
		o.Agent.Env["FAWN_TEST_SECRET_KEY"] = "given"
		o.MCPServers = map[string]config.MCPServer{"files": {Command: "mcp-files", Args: []string{"--root", "."}}}
	})
	t.Setenv("FAWN_TEST_SECRET_KEY", "leaked")
	collect(t, f.h.Run(context.Background(), "hi"))
	if r := f.reportText(t); !strings.Contains(r, `mcp=files env-key="given"`) {
		t.Errorf("report: %q", r)
	}
	g := newFixture(t, "edit", func(o *host.Options) { o.Environ = []string{"PATH=" + os.Getenv("PATH")} })
	collect(t, g.h.Run(context.Background(), "hi"))
	if r := g.reportText(t); !strings.Contains(r, `env-key=""`) {
		t.Errorf("a variable fawn did not pass reached the agent: %q", r)
	}
}

// TestLateEdits: an edit announced after it was made (no snapshot, no
// diff) shows a file born in the turn as created, and opens a file that
// existed before as it is now, claiming no change fawn did not see.
func TestLateEdits(t *testing.T) {
	f := newFixture(t, "late", nil)
	if err := os.WriteFile(filepath.Join(f.root, "old.txt"), []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	evs := collect(t, f.h.Run(context.Background(), "go"))
	checkStream(t, evs)
	var created *tools.FileChanged
	for _, e := range ofCall(evs, "n1") {
		if d, ok := e.Data.(tools.FileChanged); ok {
			created = &d
		}
	}
	if created == nil || created.Before != nil || string(created.After) != "born\n" || created.Command != "create" {
		t.Errorf("the file born in the turn: %+v", created)
	}
	var viewed *tools.FileViewed
	for _, e := range ofCall(evs, "o1") {
		switch d := e.Data.(type) {
		case tools.FileChanged:
			t.Errorf("a change fawn did not see is claimed: %+v", d)
		case tools.FileViewed:
			viewed = &d
		}
	}
	if viewed == nil || viewed.Path != filepath.Join(f.root, "old.txt") {
		t.Errorf("the changed file opens as it is: %+v", viewed)
	}
}

// TestTornSnapshot: fawn reads an announced edit's file while the agent
// is writing it (truncated); the change it shows and records is from the
// file before the edit, as the diff tells it, not from the torn read.
func TestTornSnapshot(t *testing.T) {
	f := newFixture(t, "torn", nil)
	p := filepath.Join(f.root, "hello.txt")
	if err := os.WriteFile(p, []byte("one\nhello, wrld\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.root, "other.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	evs := collect(t, f.h.Run(context.Background(), "fix"))
	checkStream(t, evs)
	if r := f.reportText(t); !strings.Contains(r, "synced <nil>") {
		t.Fatalf("the scripted agent did not sync: %q", r)
	}
	var changed *tools.FileChanged
	for _, e := range ofCall(evs, "e1") {
		if d, ok := e.Data.(tools.FileChanged); ok {
			changed = &d
		}
	}
	if changed == nil || string(changed.Before) != "one\nhello, wrld\nthree\n" || string(changed.After) != "one\nhello, world\nthree\n" {
		t.Errorf("the change: %+v", changed)
	}
}

// TestTerminal: terminal/create runs the command in fawn's shared shell
// (a real bash in a pty), its output reaches the call that shows the
// terminal, and wait, output and release answer; a command a deny rule
// names is refused.
func TestTerminal(t *testing.T) {
	f := newFixture(t, "terminal", func(o *host.Options) {
		term, err := terminal.Start(terminal.Options{Dir: o.Root, Env: []string{"HOME=" + t.TempDir()}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = term.Close() })
		o.Shell = term
		o.Permissions.Mode = "yolo"
		o.Permissions.Deny = []string{"bash(rm:*)"}
	})
	evs := collect(t, f.h.Run(context.Background(), "say hello"))
	checkStream(t, evs)
	r := f.reportText(t)
	for _, want := range []string{"terminal=true", `exit 0 <nil> output "hello from the shared shell`, "release <nil>", "refused:", "bash(rm:*)"} {
		if !strings.Contains(r, want) {
			t.Errorf("report lacks %q: %q", want, r)
		}
	}
	call := ofCall(evs, "r1")
	if len(call) == 0 || call[0].Name != "bash" {
		t.Fatalf("a call showing a terminal is a bash call: %v", types(call))
	}
	var out string
	for _, e := range call {
		if e.Type == agent.EventToolOutput {
			out += e.Text
		}
	}
	if !strings.Contains(out, "hello from the shared shell") {
		t.Errorf("the terminal's output did not reach its call: %q", out)
	}
}

// TestCheckpoints: the agent's edit is recorded in the checkpoint book
// with its content before and after, under the prompt's checkpoint, so
// /rewind puts the file back; the conversation is the agent's and is not
// rewound.
func TestCheckpoints(t *testing.T) {
	data := t.TempDir()
	var book *checkpoint.Book
	f := newFixture(t, "edit", func(o *host.Options) {
		st, err := session.New(data, o.Root, session.Options{})
		if err != nil {
			t.Fatal(err)
		}
		id := session.NewID()
		if book, err = checkpoint.Open(filepath.Join(st.Dir(), id), o.Root, st.Blobs(id), checkpoint.Options{}); err != nil {
			t.Fatal(err)
		}
		o.Checkpoints = book
	})
	p := filepath.Join(f.root, "hello.txt")
	if err := os.WriteFile(p, []byte("one\nhello, wrld\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	collect(t, f.h.Run(context.Background(), "fix the greeting"))
	turns := book.Turns()
	if len(turns) != 1 || turns[0].Prompt != "fix the greeting" || len(turns[0].Changes) != 1 {
		t.Fatalf("turns: %+v", turns)
	}
	if c := turns[0].Changes[0]; c.Path != "hello.txt" || !c.Before.Kept || !c.After.Kept {
		t.Errorf("change: %+v", c)
	}
	if _, err := book.Rewind(turns[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one\nhello, wrld\nthree\n" {
		t.Errorf("after the rewind: %q", b)
	}
	if err := f.h.RewindConversation(0, "fix the greeting"); !errors.Is(err, host.ErrOwnConversation) {
		t.Errorf("RewindConversation: %v", err)
	}
}

// TestModes: the agent's session mode follows fawn's permission mode where
// it offers a matching one: at the session's start, and when the user
// changes fawn's mode.
func TestModes(t *testing.T) {
	f := newFixture(t, "edit", func(o *host.Options) { o.Permissions.Mode = "plan" })
	collect(t, f.h.Run(context.Background(), "plan it"))
	if r := f.reportText(t); !strings.Contains(r, "set_mode plan") {
		t.Fatalf("the session did not start in plan mode: %q", r)
	}
	waitReport := func(want string) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(f.reportText(t), want); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the report never said %q: %q", want, f.reportText(t))
			}
		}
	}
	f.h.SetMode(agent.ModeYolo)
	waitReport("set_mode bypassPermissions")
	f.h.SetMode(agent.ModeAsk)
	waitReport("set_mode default")
}
