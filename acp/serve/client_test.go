package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/internal/llmtest"
)

// editor is a client that offers fs/* and terminal/*, as an editor does:
// its buffers are a map over the disk (a write lands in the buffer only,
// unsaved), its terminals run commands with os/exec. Updates and
// permission requests go to the embedded client.
type editor struct {
	*client
	mu       sync.Mutex
	buffers  map[string]string
	reads    []string
	writes   []string
	terms    map[string]*editorTerm
	created  []acp.CreateTerminalRequest
	killed   []string
	released []string
}

type editorTerm struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
	code *int
}

func (t *editorTerm) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.Write(p)
}

func (t *editorTerm) output() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.String()
}

func newEditor(t *testing.T) *editor {
	e := &editor{client: &client{asked: make(chan struct{}, 16)}, buffers: map[string]string{}, terms: map[string]*editorTerm{}}
	t.Cleanup(func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		for _, term := range e.terms {
			_ = syscall.Kill(-term.cmd.Process.Pid, syscall.SIGKILL)
			<-term.done
		}
	})
	return e
}

func (e *editor) ReadTextFile(_ context.Context, req acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reads = append(e.reads, req.Path)
	if b, ok := e.buffers[req.Path]; ok {
		return acp.ReadTextFileResponse{Content: b}, nil
	}
	b, err := os.ReadFile(req.Path)
	if err != nil {
		return acp.ReadTextFileResponse{}, err
	}
	return acp.ReadTextFileResponse{Content: string(b)}, nil
}

func (e *editor) WriteTextFile(_ context.Context, req acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.writes = append(e.writes, req.Path)
	e.buffers[req.Path] = req.Content
	return acp.WriteTextFileResponse{}, nil
}

func (e *editor) CreateTerminal(_ context.Context, req acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.created = append(e.created, req)
	cmd := exec.Command(req.Command, req.Args...)
	if req.Cwd != nil {
		cmd.Dir = *req.Cwd
	}
	cmd.Env = os.Environ()
	for _, v := range req.Env {
		cmd.Env = append(cmd.Env, v.Name+"="+v.Value)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	term := &editorTerm{cmd: cmd, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = term, term
	if err := cmd.Start(); err != nil {
		return acp.CreateTerminalResponse{}, err
	}
	id := fmt.Sprintf("term-%d", len(e.created))
	e.terms[id] = term
	go func() {
		defer close(term.done)
		_ = cmd.Wait()
		if code := cmd.ProcessState.ExitCode(); code >= 0 {
			term.code = &code
		}
	}()
	return acp.CreateTerminalResponse{TerminalId: id}, nil
}

func (e *editor) term(id string) (*editorTerm, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, ok := e.terms[id]
	if !ok {
		return nil, errors.New("no terminal " + id)
	}
	return t, nil
}

func (e *editor) TerminalOutput(_ context.Context, req acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	t, err := e.term(req.TerminalId)
	if err != nil {
		return acp.TerminalOutputResponse{}, err
	}
	resp := acp.TerminalOutputResponse{Output: t.output()}
	select {
	case <-t.done:
		resp.ExitStatus = &acp.TerminalExitStatus{ExitCode: t.code}
	default:
	}
	return resp, nil
}

func (e *editor) WaitForTerminalExit(ctx context.Context, req acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	t, err := e.term(req.TerminalId)
	if err != nil {
		return acp.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-t.done:
		return acp.WaitForTerminalExitResponse{ExitCode: t.code}, nil
	case <-ctx.Done():
		return acp.WaitForTerminalExitResponse{}, ctx.Err()
	}
}

func (e *editor) KillTerminal(_ context.Context, req acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	t, err := e.term(req.TerminalId)
	if err != nil {
		return acp.KillTerminalResponse{}, err
	}
	e.mu.Lock()
	e.killed = append(e.killed, req.TerminalId)
	e.mu.Unlock()
	_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	return acp.KillTerminalResponse{}, nil
}

func (e *editor) ReleaseTerminal(_ context.Context, req acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	t, err := e.term(req.TerminalId)
	if err != nil {
		return acp.ReleaseTerminalResponse{}, err
	}
	e.mu.Lock()
	e.released = append(e.released, req.TerminalId)
	e.mu.Unlock()
	_ = syscall.Kill(-t.cmd.Process.Pid, syscall.SIGKILL)
	return acp.ReleaseTerminalResponse{}, nil
}

// editorFixture is fawn served to an editor that offers fs/* and terminal/*.
func editorFixture(t *testing.T, script llmtest.Script, mode agent.Mode) (*fixture, *editor) {
	t.Helper()
	ed := newEditor(t)
	f := &fixture{t: t, root: t.TempDir(), data: t.TempDir(), srv: llmtest.Start(t, script), cl: ed.client, mode: mode, editor: ed,
		caps: acp.ClientCapabilities{Fs: acp.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}, Terminal: true}}
	f.connect()
	return f, ed
}

// toolResults are the tool results the model was sent, by call ID.
func toolResults(srv *llmtest.Server) map[string]string {
	out := map[string]string{}
	for _, r := range srv.ChatRequests() {
		for _, m := range r.Messages {
			if m.Role == "tool" {
				out[m.ToolCallID] = string(m.Content)
			}
		}
	}
	return out
}

func TestClientBuffersViewAndEdit(t *testing.T) {
	f, ed := editorFixture(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("v1", "text_editor", `{"command":"view","path":"notes.txt"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("e1", "text_editor", `{"command":"str_replace","path":"notes.txt","old_str":"unsaved","new_str":"edited"}`)}},
		{Text: "Edited."},
	}}, agent.ModeAsk)
	notes := filepath.Join(f.root, "notes.txt")
	if err := os.WriteFile(notes, []byte("on disk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(notes)
	ed.buffers[real] = "unsaved words\n"
	sid := f.newSession()
	f.prompt(sid, "edit the notes")

	res := toolResults(f.srv)
	if !strings.Contains(res["v1"], "unsaved words") || strings.Contains(res["v1"], "on disk") {
		t.Errorf("the view showed %q; want the editor's unsaved buffer", res["v1"])
	}
	if !strings.Contains(res["e1"], "Edited notes.txt") {
		t.Errorf("the edit: %q", res["e1"])
	}
	ed.mu.Lock()
	buf, writes, reads := ed.buffers[real], slices.Clone(ed.writes), slices.Clone(ed.reads)
	ed.mu.Unlock()
	if buf != "edited words\n" || len(writes) != 1 || writes[0] != real || len(reads) == 0 {
		t.Errorf("the editor's buffer %q after writes %v (reads %v)", buf, writes, reads)
	}
	if b, _ := os.ReadFile(notes); string(b) != "on disk\n" {
		t.Errorf("the disk changed to %q: the edit went past the editor", b)
	}
	_, diffs := contentOf(f.cl.snapshot(), "e1")
	if len(diffs) != 1 || diffs[0].OldText == nil || *diffs[0].OldText != "unsaved words\n" || diffs[0].NewText != "edited words\n" {
		t.Errorf("the edit's diff: %+v", diffs)
	}
	// The checkpoint has the edit, from the buffer's text to the new.
	book := f.project.Services.Rewind.Checkpoints()
	var found bool
	for _, turn := range book.Turns() {
		for _, c := range turn.Changes {
			if c.Path != "notes.txt" {
				continue
			}
			before, _ := book.Content(c.Before)
			after, _ := book.Content(c.After)
			found = string(before) == "unsaved words\n" && string(after) == "edited words\n"
		}
	}
	if !found {
		t.Errorf("no checkpoint of the edit from the buffer's text: %+v", book.Turns())
	}
}

func TestClientBuffersWriteOutsideIsRefusedFirst(t *testing.T) {
	f, ed := editorFixture(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("e1", "text_editor", `{"command":"create","path":"out/x.txt","file_text":"x\n"}`)}},
		{Text: "No."},
	}}, agent.ModeYolo)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(f.root, "out")); err != nil {
		t.Fatal(err)
	}
	sid := f.newSession()
	f.prompt(sid, "write outside")
	if got := statuses(f.cl.snapshot(), "e1"); len(got) == 0 || got[len(got)-1] != "failed" {
		t.Errorf("the write went %v, want failed", got)
	}
	ed.mu.Lock()
	writes := slices.Clone(ed.writes)
	ed.mu.Unlock()
	if len(writes) != 0 {
		t.Errorf("the editor was asked to write %v", writes)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("x.txt outside the project: %v", err)
	}
}

func TestClientTerminalRunsTheCommand(t *testing.T) {
	f, ed := editorFixture(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("b1", "bash", `{"command":"mkdir -p sub && cd sub && echo from-$((6*7)) pager=$PAGER && exit 3"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("b2", "bash", `{"command":"pwd; cd /"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("b3", "bash", `{"command":"pwd"}`)}},
		{Text: "Ran."},
	}}, agent.ModeYolo)
	sid := f.newSession()
	f.prompt(sid, "run it")

	var desc string
	for _, tool := range f.srv.ChatRequests()[0].Tools {
		if tool.Function.Name == "bash" {
			desc = tool.Function.Description
		}
	}
	if !strings.Contains(desc, "each command runs in a new bash in a terminal of the editor's") {
		t.Errorf("the bash tool's description does not say how commands run here: %q", desc)
	}
	res := toolResults(f.srv)
	if !strings.Contains(res["b1"], "from-42 pager=cat") || !strings.Contains(res["b1"], "exit code 3") {
		t.Errorf("the command's result: %q", res["b1"])
	}
	sub, _ := filepath.EvalSymlinks(filepath.Join(f.root, "sub"))
	if !strings.Contains(res["b2"], sub) {
		t.Errorf("the second command did not start where the first ended (%s): %q", sub, res["b2"])
	}
	ed.mu.Lock()
	created, released := slices.Clone(ed.created), slices.Clone(ed.released)
	ed.mu.Unlock()
	// A command that ends outside the project leaves the next to start in
	// its root.
	if len(created) != 3 || created[0].Command != "bash" || *created[0].Cwd != f.project.Root || *created[1].Cwd != sub || *created[2].Cwd != f.project.Root {
		t.Fatalf("terminals created: %+v", created)
	}
	if !strings.Contains(res["b2"], "cwd /]") {
		t.Errorf("the result of a command that ended in /: %q", res["b2"])
	}
	if strings.Join(released, ",") != "term-1,term-2,term-3" {
		t.Errorf("terminals released: %v", released)
	}
	// The call embeds the terminal; its end says the exit code and output.
	ns := f.cl.snapshot()
	var embedded bool
	var raw any
	for _, n := range ns {
		u := n.Update.ToolCallUpdate
		if u == nil || u.ToolCallId != "b1" {
			continue
		}
		for _, c := range u.Content {
			embedded = embedded || (c.Terminal != nil && c.Terminal.TerminalId == "term-1")
		}
		if u.RawOutput != nil {
			raw = u.RawOutput
		}
	}
	if !embedded {
		t.Error("no update of b1 carries the terminal")
	}
	if m, ok := raw.(map[string]any); !ok || fmt.Sprint(m["exitCode"]) != "3" || !strings.Contains(fmt.Sprint(m["output"]), "from-42") {
		t.Errorf("b1's raw output: %#v", raw)
	}
	if got := statuses(ns, "b1"); strings.Join(got, ",") != "pending,in_progress,completed" {
		t.Errorf("b1 went %v", got)
	}
}

func TestClientTerminalCancelKills(t *testing.T) {
	f, ed := editorFixture(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("b1", "bash", `{"command":"echo started; sleep 120"}`)}},
		{Text: "never"},
	}}, agent.ModeYolo)
	sid := f.newSession()
	done := make(chan acp.PromptResponse, 1)
	go func() {
		resp, _ := f.conn.Prompt(f.ctx(), acp.PromptRequest{SessionId: sid, Prompt: []acp.ContentBlock{acp.TextBlock("go")}})
		done <- resp
	}()
	var term *editorTerm
	for end := time.Now().Add(deadline); term == nil || !strings.Contains(term.output(), "started"); {
		if time.Now().After(end) {
			t.Fatal("the command did not start in the editor's terminal")
		}
		time.Sleep(20 * time.Millisecond)
		term, _ = ed.term("term-1")
	}
	if err := f.conn.Cancel(f.ctx(), acp.CancelNotification{SessionId: sid}); err != nil {
		t.Fatal(err)
	}
	select {
	case resp := <-done:
		if resp.StopReason != acp.StopReasonCancelled {
			t.Errorf("stop reason %q", resp.StopReason)
		}
	case <-time.After(deadline):
		t.Fatal("the prompt did not end after session/cancel")
	}
	select {
	case <-term.done:
	case <-time.After(deadline):
		t.Fatal("the command still runs after the cancel")
	}
	ed.mu.Lock()
	killed := slices.Clone(ed.killed)
	ed.mu.Unlock()
	if len(killed) == 0 || killed[0] != "term-1" {
		t.Errorf("terminals killed: %v", killed)
	}
}
