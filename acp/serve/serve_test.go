package serve

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/backend"
	"github.com/fawn-ide/fawn/commands"
	"github.com/fawn-ide/fawn/config"
	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/terminal"
	"github.com/fawn-ide/fawn/tools"
)

// deadline bounds every wait: generous for a loaded machine.
const deadline = 30 * time.Second

// client is an ACP client, on the SDK's client side, that records every
// update in order and answers permission requests with answer.
type client struct {
	mu      sync.Mutex
	updates []acp.SessionNotification
	asks    []acp.RequestPermissionRequest
	// answer picks the option (nil: "allow"); it may block.
	answer func(acp.RequestPermissionRequest) acp.RequestPermissionOutcome
	asked  chan struct{}
}

func (c *client) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.updates = append(c.updates, n)
	return nil
}

func (c *client) RequestPermission(_ context.Context, req acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.asks = append(c.asks, req)
	answer := c.answer
	c.mu.Unlock()
	select {
	case c.asked <- struct{}{}:
	default:
	}
	if answer == nil {
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(optAllow)}, nil
	}
	return acp.RequestPermissionResponse{Outcome: answer(req)}, nil
}

func (c *client) ReadTextFile(context.Context, acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	return acp.ReadTextFileResponse{}, errors.New("not offered")
}

func (c *client) WriteTextFile(context.Context, acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	return acp.WriteTextFileResponse{}, errors.New("not offered")
}

func (c *client) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errors.New("not offered")
}

func (c *client) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errors.New("not offered")
}

func (c *client) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errors.New("not offered")
}

func (c *client) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errors.New("not offered")
}

func (c *client) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errors.New("not offered")
}

func (c *client) snapshot() []acp.SessionNotification {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]acp.SessionNotification(nil), c.updates...)
}

func (c *client) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.updates = nil
}

// fixture is fawn served over in-process pipes to a client, with a real
// agent (the built-in tools, bash in a real pty, a session store) on the
// scripted model server.
type fixture struct {
	t    *testing.T
	root string
	data string
	srv  *llmtest.Server
	cl   *client
	conn *acp.ClientSideConnection
	mode agent.Mode
	// vision: the model takes images.
	vision bool
	// editor, when set, is the client the connection serves instead of
	// cl (which still records updates), advertising caps in initialize.
	editor acp.Client
	caps   acp.ClientCapabilities
	// project is the last Project opened.
	project *Project
}

func newFixture(t *testing.T, script llmtest.Script, mode agent.Mode) *fixture {
	t.Helper()
	f := &fixture{t: t, root: t.TempDir(), data: t.TempDir(), srv: llmtest.Start(t, script), cl: &client{asked: make(chan struct{}, 16)}, mode: mode}
	f.connect()
	return f
}

// connect starts a server and connects a client to it (a second
// connection is another editor window, or the same one restarted).
func (f *fixture) connect() {
	t := f.t
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = Serve(ctx, toAgentR, toClientW, Options{Open: f.open, Version: "test", List: func(dir string) ([]session.Info, error) {
			st, err := session.New(f.data, dir, session.Options{})
			if err != nil {
				return nil, err
			}
			return st.List()
		}})
	}()
	t.Cleanup(func() {
		cancel()
		toAgentW.Close()
		toClientW.Close()
		select {
		case <-done:
		case <-time.After(deadline):
			t.Error("Serve did not return")
		}
	})
	var impl acp.Client = f.cl
	if f.editor != nil {
		impl = f.editor
	}
	f.conn = acp.NewClientSideConnection(impl, toAgentW, toClientR)
}

func (f *fixture) open(ctx context.Context, dir string, client *Client) (*Project, error) {
	env, err := tools.NewEnv(dir)
	if err != nil {
		return nil, err
	}
	env.Buffers = client.Buffers
	env.BashTimeout = time.Minute
	term, err := terminal.Start(terminal.Options{Dir: env.Root, Env: []string{"HOME=" + f.t.TempDir()}})
	if err != nil {
		return nil, err
	}
	st, err := session.New(f.data, env.Root, session.Options{})
	if err != nil {
		return nil, err
	}
	cfg := &config.Config{
		Models: config.Models{Chat: config.Model{Type: "openai", Model: "llmtest", BaseURL: f.srv.URL(),
			Timeout: time.Minute, StallTimeout: 15 * time.Second, Vision: map[bool]string{true: "yes", false: "no"}[f.vision]}},
		Permissions: config.Permissions{Mode: string(f.mode)},
		Agent:       config.Agent{MaxSteps: 50},
		ConfigDir:   f.t.TempDir(),
		ProjectDir:  env.Root,
	}
	var runner tools.Runner = term
	if r := client.Runner(env.Root, []string{"PAGER=cat"}); r != nil {
		runner = r
	}
	s, err := agent.NewSession(ctx, agent.Options{Config: cfg, Env: env, Tools: append(tools.Builtin(env), tools.NewBash(env, runner)),
		Interactive: true, Store: st, AskUser: true, RetryBaseDelay: 5 * time.Millisecond})
	if err != nil {
		term.Close()
		return nil, err
	}
	f.project = &Project{Agent: s, Services: backend.SessionServices(s), Root: env.Root, Notices: []string{"a notice"},
		Commands: commands.Load(cfg.ConfigDir, env.Root),
		Close:    func() { s.Close(); _ = term.Close() }}
	return f.project, nil
}

func (f *fixture) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	f.t.Cleanup(cancel)
	return ctx
}

func (f *fixture) newSession() acp.SessionId {
	f.t.Helper()
	if _, err := f.conn.Initialize(f.ctx(), acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber, ClientCapabilities: f.caps}); err != nil {
		f.t.Fatal(err)
	}
	resp, err := f.conn.NewSession(f.ctx(), acp.NewSessionRequest{Cwd: f.root, McpServers: []acp.McpServer{}})
	if err != nil {
		f.t.Fatal(err)
	}
	return resp.SessionId
}

func (f *fixture) prompt(sid acp.SessionId, text string) acp.PromptResponse {
	f.t.Helper()
	resp, err := f.conn.Prompt(f.ctx(), acp.PromptRequest{SessionId: sid, Prompt: []acp.ContentBlock{acp.TextBlock(text)}})
	if err != nil {
		f.t.Fatal(err)
	}
	return resp
}

func call(id, name, args string) llmtest.ToolCall {
	return llmtest.ToolCall{ID: id, Name: name, Arguments: args}
}

// step is one update, said briefly: "tool_call e1 pending", "update e1
// in_progress", "message", "plan".
func step(u acp.SessionUpdate) (kind, id, status string) {
	switch {
	case u.AgentMessageChunk != nil:
		return "message", "", ""
	case u.AgentThoughtChunk != nil:
		return "thought", "", ""
	case u.UserMessageChunk != nil:
		return "user", "", ""
	case u.ToolCall != nil:
		return "tool_call", string(u.ToolCall.ToolCallId), string(u.ToolCall.Status)
	case u.ToolCallUpdate != nil:
		s := ""
		if u.ToolCallUpdate.Status != nil {
			s = string(*u.ToolCallUpdate.Status)
		}
		return "update", string(u.ToolCallUpdate.ToolCallId), s
	case u.Plan != nil:
		return "plan", "", ""
	case u.AvailableCommandsUpdate != nil:
		return "commands", "", ""
	}
	return "other", "", ""
}

// statuses lists the status changes of call id, in order.
func statuses(ns []acp.SessionNotification, id string) []string {
	var out []string
	for _, n := range ns {
		if k, cid, s := step(n.Update); cid == id && s != "" && (k == "tool_call" || k == "update") {
			if len(out) == 0 || out[len(out)-1] != s {
				out = append(out, s)
			}
		}
	}
	return out
}

// contentOf joins the text and diffs of every update of call id.
func contentOf(ns []acp.SessionNotification, id string) (text string, diffs []*acp.ToolCallContentDiff) {
	var b strings.Builder
	for _, n := range ns {
		var cs []acp.ToolCallContent
		if u := n.Update.ToolCallUpdate; u != nil && string(u.ToolCallId) == id {
			cs = u.Content
		}
		for _, c := range cs {
			if c.Content != nil && c.Content.Content.Text != nil {
				b.WriteString(c.Content.Content.Text.Text + "\n")
			}
			if c.Diff != nil {
				diffs = append(diffs, c.Diff)
			}
		}
	}
	return b.String(), diffs
}

func lastPlan(ns []acp.SessionNotification) *acp.SessionUpdatePlan {
	var plan *acp.SessionUpdatePlan
	for _, n := range ns {
		if n.Update.Plan != nil {
			plan = n.Update.Plan
		}
	}
	return plan
}

func messageText(ns []acp.SessionNotification) string {
	var b strings.Builder
	for _, n := range ns {
		if c := n.Update.AgentMessageChunk; c != nil && c.Content.Text != nil {
			b.WriteString(c.Content.Text.Text)
		}
	}
	return b.String()
}

func TestPromptMultiToolTurn(t *testing.T) {
	f := newFixture(t, llmtest.Script{Responses: []llmtest.Response{
		{Reasoning: "I should write the file.", Text: "Writing it.", ToolCalls: []llmtest.ToolCall{
			call("e1", "text_editor", `{"command":"create","path":"hello.txt","file_text":"hello\n"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("b1", "bash", `{"command":"cat hello.txt; echo done-$((40+2))"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("t1", "todo_write", `{"todos":[{"id":"1","title":"Write hello","status":"completed"},{"id":"2","title":"Run it","status":"in_progress","priority":"high"}]}`)}},
		{Text: "All done."},
	}}, agent.ModeAsk)
	sid := f.newSession()
	resp := f.prompt(sid, "write hello.txt and run it")
	if resp.StopReason != acp.StopReasonEndTurn {
		t.Fatalf("stop reason %q", resp.StopReason)
	}
	ns := f.cl.snapshot()
	for _, n := range ns {
		if n.SessionId != sid {
			t.Errorf("an update of session %q, want %q", n.SessionId, sid)
		}
	}
	// Every update of a call follows its tool_call, and names a call
	// that was started.
	var ups []acp.SessionUpdate
	var order []string
	for _, n := range ns {
		ups = append(ups, n.Update)
		if n.Update.ToolCall != nil {
			order = append(order, string(n.Update.ToolCall.ToolCallId))
		}
	}
	checkStarted(t, ups)
	if strings.Join(order, ",") != "e1,b1,t1" {
		t.Errorf("calls started in the order %v, want e1, b1, t1", order)
	}
	for _, id := range []string{"e1", "b1", "t1"} {
		got := statuses(ns, id)
		want := []string{"pending", "in_progress", "completed"}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("call %s went %v, want %v", id, got, want)
		}
	}
	// The edit shows its diff and where it landed; the command its output.
	_, diffs := contentOf(ns, "e1")
	if len(diffs) != 1 || diffs[0].NewText != "hello\n" || diffs[0].OldText != nil || filepath.Base(diffs[0].Path) != "hello.txt" {
		t.Errorf("the edit's diff content: %+v", diffs)
	}
	out, _ := contentOf(ns, "b1")
	if !strings.Contains(out, "done-42") || !strings.Contains(out, "```console") {
		t.Errorf("the command's output content: %q", out)
	}
	kinds := map[string]acp.ToolKind{}
	for _, n := range ns {
		if u := n.Update.ToolCallUpdate; u != nil && u.Kind != nil {
			kinds[string(u.ToolCallId)] = *u.Kind
		}
	}
	if kinds["e1"] != acp.ToolKindEdit || kinds["b1"] != acp.ToolKindExecute {
		t.Errorf("kinds %v: want e1 edit, b1 execute", kinds)
	}
	// The to-do list is the plan.
	if plan := lastPlan(ns); plan == nil || len(plan.Entries) != 2 || plan.Entries[0].Status != acp.PlanEntryStatusCompleted ||
		plan.Entries[1].Status != acp.PlanEntryStatusInProgress || plan.Entries[1].Priority != acp.PlanEntryPriorityHigh {
		t.Errorf("plan: %+v", plan)
	}
	// Text, reasoning and the notice of the first prompt.
	msg := messageText(ns)
	if !strings.HasPrefix(msg, "fawn: a notice") || !strings.Contains(msg, "Writing it.") || !strings.HasSuffix(msg, "All done.") {
		t.Errorf("messages: %q", msg)
	}
	var thought strings.Builder
	for _, n := range ns {
		if c := n.Update.AgentThoughtChunk; c != nil {
			thought.WriteString(c.Content.Text.Text)
		}
	}
	if !strings.Contains(thought.String(), "I should write the file.") {
		t.Errorf("thoughts: %q", thought.String())
	}
	// Ask mode: the edit and the command were asked about, and allowed.
	if len(f.cl.asks) != 2 || string(f.cl.asks[0].ToolCall.ToolCallId) != "e1" || string(f.cl.asks[1].ToolCall.ToolCallId) != "b1" {
		t.Errorf("permission requests: %+v", f.cl.asks)
	}
	if b, err := os.ReadFile(filepath.Join(f.root, "hello.txt")); err != nil || string(b) != "hello\n" {
		t.Errorf("hello.txt: %q, %v", b, err)
	}
}

func TestPermissionRoundTrip(t *testing.T) {
	f := newFixture(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("b1", "bash", `{"command":"touch one"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("b2", "bash", `{"command":"touch two"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("b3", "bash", `{"command":"touch one"}`)}},
		{Text: "ok"},
	}}, agent.ModeAsk)
	// The first is allowed for the session, the second rejected; the third
	// (the first's command again) is not asked about.
	f.cl.answer = func(req acp.RequestPermissionRequest) acp.RequestPermissionOutcome {
		var ids []string
		for _, o := range req.Options {
			ids = append(ids, string(o.OptionId)+"/"+string(o.Kind))
		}
		if got := strings.Join(ids, " "); got != "allow/allow_once allow-session/allow_always allow-always/allow_always reject/reject_once" {
			t.Errorf("options %s", got)
		}
		if req.ToolCall.Title == nil || *req.ToolCall.Title != "$ touch "+map[acp.ToolCallId]string{"b1": "one", "b2": "two"}[req.ToolCall.ToolCallId] {
			t.Errorf("title %v", req.ToolCall.Title)
		}
		if req.ToolCall.ToolCallId == "b1" {
			return acp.NewRequestPermissionOutcomeSelected(optAllowSession)
		}
		return acp.NewRequestPermissionOutcomeSelected(optReject)
	}
	sid := f.newSession()
	f.prompt(sid, "touch")
	if len(f.cl.asks) != 2 {
		t.Fatalf("%d permission requests, want 2 (the third call is granted for the session)", len(f.cl.asks))
	}
	ns := f.cl.snapshot()
	if got := statuses(ns, "b2"); got[len(got)-1] != "failed" {
		t.Errorf("the rejected call went %v, want it to end failed", got)
	}
	if got := statuses(ns, "b3"); got[len(got)-1] != "completed" {
		t.Errorf("the granted call went %v", got)
	}
	if _, err := os.Stat(filepath.Join(f.root, "two")); err == nil {
		t.Error("the rejected command ran")
	}
	if _, err := os.Stat(filepath.Join(f.root, "one")); err != nil {
		t.Error("the allowed command did not run")
	}
}

func TestCancelMidTurn(t *testing.T) {
	// The model streams slowly: the turn is cancelled in the middle of its
	// answer; a second call that waits for permission is cancelled too.
	f := newFixture(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("b1", "bash", `{"command":"touch x"}`)}},
		{Text: "this will be cancelled"},
	}}, agent.ModeAsk)
	release := make(chan struct{})
	f.cl.answer = func(acp.RequestPermissionRequest) acp.RequestPermissionOutcome {
		<-release // the client answers cancelled once the turn is cancelled, as the protocol says
		return acp.NewRequestPermissionOutcomeCancelled()
	}
	sid := f.newSession()
	type result struct {
		resp acp.PromptResponse
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := f.conn.Prompt(f.ctx(), acp.PromptRequest{SessionId: sid, Prompt: []acp.ContentBlock{acp.TextBlock("go")}})
		done <- result{resp, err}
	}()
	select {
	case <-f.cl.asked:
	case <-time.After(deadline):
		t.Fatal("no permission request")
	}
	if err := f.conn.Cancel(f.ctx(), acp.CancelNotification{SessionId: sid}); err != nil {
		t.Fatal(err)
	}
	close(release)
	var r result
	select {
	case r = <-done:
	case <-time.After(deadline):
		t.Fatal("the prompt did not answer after session/cancel")
	}
	if r.err != nil || r.resp.StopReason != acp.StopReasonCancelled {
		t.Fatalf("prompt after cancel: %+v, %v; want stop reason cancelled", r.resp, r.err)
	}
	ns := f.cl.snapshot()
	if got := statuses(ns, "b1"); len(got) == 0 || got[len(got)-1] != "failed" {
		t.Errorf("the call pending permission went %v; want it shown ended (failed)", got)
	}
	if _, err := os.Stat(filepath.Join(f.root, "x")); err == nil {
		t.Error("the cancelled command ran")
	}
	// The session goes on: the next prompt is answered.
	f.srv.Close()
}

func TestLoadReplaysTheSession(t *testing.T) {
	f := newFixture(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Looking.", ToolCalls: []llmtest.ToolCall{call("v1", "text_editor", `{"command":"view","path":"a.txt"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("t1", "todo_write", `{"todos":[{"id":"1","title":"Read a.txt","status":"completed"}]}`)}},
		{Text: "It says alpha."},
		{Text: "Still alpha."},
	}}, agent.ModeAsk)
	if err := os.WriteFile(filepath.Join(f.root, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sid := f.newSession()
	f.prompt(sid, "what is in a.txt?")

	// A second connection, as an editor restarted, loads it.
	f.connect()
	f.cl.reset()
	if _, err := f.conn.Initialize(f.ctx(), acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	resp, err := f.conn.LoadSession(f.ctx(), acp.LoadSessionRequest{SessionId: sid, Cwd: f.root, McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Modes == nil || resp.Modes.CurrentModeId != "ask" || len(resp.Modes.AvailableModes) != 4 {
		t.Errorf("modes: %+v", resp.Modes)
	}
	ns := f.cl.snapshot()
	var steps []string
	for _, n := range ns {
		k, id, s := step(n.Update)
		steps = append(steps, strings.TrimSpace(k+" "+id+" "+s))
	}
	want := "user,message,tool_call v1 pending,update v1,update v1 completed,tool_call t1 pending,update t1,update t1 completed,message,plan,commands"
	if got := strings.Join(steps, ","); got != want {
		t.Errorf("replay:\n got %s\nwant %s", got, want)
	}
	if u := ns[0].Update.UserMessageChunk; u == nil || u.Content.Text.Text != "what is in a.txt?" {
		t.Errorf("first update: %+v", ns[0].Update)
	}
	if out, _ := contentOf(ns, "v1"); !strings.Contains(out, "alpha") {
		t.Errorf("the view's result is not replayed: %q", out)
	}
	// The agent carries on from it: the model is sent the conversation.
	f.cl.reset()
	f.prompt(sid, "and now?")
	reqs := f.srv.ChatRequests()
	last := reqs[len(reqs)-1]
	var all []string
	for _, m := range last.Messages {
		all = append(all, m.Role+":"+string(m.Content))
	}
	if !strings.Contains(strings.Join(all, "\n"), "what is in a.txt?") {
		t.Errorf("the loaded session's history was not sent: %v", all)
	}
}

func TestSetModeAndCommands(t *testing.T) {
	f := newFixture(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("b1", "bash", `{"command":"touch y"}`)}},
		{Text: "ok"},
	}}, agent.ModeAsk)
	sid := f.newSession()
	if _, err := f.conn.SetSessionMode(f.ctx(), acp.SetSessionModeRequest{SessionId: sid, ModeId: "yolo"}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.conn.SetSessionMode(f.ctx(), acp.SetSessionModeRequest{SessionId: sid, ModeId: "reckless"}); err == nil {
		t.Error("an unknown mode was accepted")
	}
	f.prompt(sid, "touch y")
	if len(f.cl.asks) != 0 {
		t.Errorf("yolo mode asked %d times", len(f.cl.asks))
	}
	var names []string
	for _, n := range f.cl.snapshot() {
		if u := n.Update.AvailableCommandsUpdate; u != nil {
			for _, c := range u.AvailableCommands {
				names = append(names, c.Name)
			}
		}
	}
	if strings.Join(names, ",") != "compact" {
		t.Errorf("available commands %v, want compact", names)
	}
}

func TestCustomCommandAndCompact(t *testing.T) {
	f := newFixture(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Reviewed."},
		{Text: "Summary: a review was asked for and given."},
	}}, agent.ModeAsk)
	if err := os.MkdirAll(filepath.Join(f.root, ".fawn", "commands"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.root, ".fawn", "commands", "review.md"),
		[]byte("---\ndescription: Review a file\nargument-hint: FILE\n---\nReview $ARGUMENTS with care.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sid := f.newSession()
	var cmds []acp.AvailableCommand
	for _, n := range f.cl.snapshot() {
		if u := n.Update.AvailableCommandsUpdate; u != nil {
			cmds = u.AvailableCommands
		}
	}
	if len(cmds) != 2 || cmds[1].Name != "review" || cmds[1].Description != "Review a file" || cmds[1].Input == nil || cmds[1].Input.Unstructured.Hint != "FILE" {
		t.Errorf("available commands: %+v", cmds)
	}
	f.prompt(sid, "/review main.go")
	reqs := f.srv.ChatRequests()
	msgs := reqs[0].Messages
	if got := string(msgs[len(msgs)-1].Content); got != "Review main.go with care.\n" && got != "Review main.go with care." {
		t.Errorf("the custom command sent %q", got)
	}
	f.cl.reset()
	if resp := f.prompt(sid, "/compact"); resp.StopReason != acp.StopReasonEndTurn {
		t.Errorf("/compact stopped with %q", resp.StopReason)
	}
	if n := len(f.srv.ChatRequests()); n != 2 {
		t.Errorf("%d model requests; /compact should have made the second", n)
	}
}

func TestAskUserIsAPermissionRequest(t *testing.T) {
	f := newFixture(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("q1", "ask_user", `{"question":"Which colour?","options":["red","blue"]}`)}},
		{Text: "Blue it is."},
	}}, agent.ModeAsk)
	f.cl.answer = func(req acp.RequestPermissionRequest) acp.RequestPermissionOutcome {
		var names []string
		for _, o := range req.Options {
			names = append(names, o.Name)
		}
		if strings.Join(names, ",") != "red,blue,Do not answer" || req.ToolCall.Title == nil || *req.ToolCall.Title != "Which colour?" {
			t.Errorf("question %v with options %v", req.ToolCall.Title, names)
		}
		return acp.NewRequestPermissionOutcomeSelected(req.Options[1].OptionId)
	}
	sid := f.newSession()
	f.prompt(sid, "paint it")
	reqs := f.srv.ChatRequests()
	msgs := reqs[len(reqs)-1].Messages
	if got := string(msgs[len(msgs)-1].Content); !strings.Contains(got, "The user answered: blue") {
		t.Errorf("the model was told %q", got)
	}
}

func TestInitialize(t *testing.T) {
	f := newFixture(t, llmtest.Script{}, agent.ModeAsk)
	resp, err := f.conn.Initialize(f.ctx(), acp.InitializeRequest{ProtocolVersion: 7})
	if err != nil {
		t.Fatal(err)
	}
	caps := resp.AgentCapabilities
	if resp.ProtocolVersion != 1 || !caps.LoadSession || !caps.PromptCapabilities.Image || !caps.PromptCapabilities.EmbeddedContext || resp.AgentInfo.Name != "fawn" {
		b, _ := json.Marshal(resp)
		t.Errorf("initialize: %s", b)
	}
}

func TestPromptWithImageAndEmbeddedFile(t *testing.T) {
	f := newFixture(t, llmtest.Script{Responses: []llmtest.Response{{Text: "A pixel."}}}, agent.ModeAsk)
	f.vision = true
	sid := f.newSession()
	resp, err := f.conn.Prompt(f.ctx(), acp.PromptRequest{SessionId: sid, Prompt: []acp.ContentBlock{
		acp.TextBlock("what is this?"),
		acp.ImageBlock(pixelPNG, "image/png"),
		acp.ResourceBlock(acp.EmbeddedResourceResource{TextResourceContents: &acp.TextResourceContents{Uri: "file://" + f.root + "/n.txt", Text: "unsaved words"}}),
	}})
	if err != nil || resp.StopReason != acp.StopReasonEndTurn {
		t.Fatalf("prompt: %+v, %v", resp, err)
	}
	reqs := f.srv.ChatRequests()
	msgs := reqs[len(reqs)-1].Messages
	last := msgs[len(msgs)-1]
	sent := string(last.Content)
	if len(last.Images) != 1 || last.Images[0] != "data:image/png;base64,"+pixelPNG || !strings.Contains(sent, "unsaved words") || !strings.Contains(sent, "what is this?") {
		t.Errorf("the model was sent %s and images %v", sent, last.Images)
	}
}

func TestListAndCloseSessions(t *testing.T) {
	f := newFixture(t, llmtest.Script{Responses: []llmtest.Response{{Text: "one"}, {Text: "two"}}}, agent.ModeAsk)
	sid := f.newSession()
	f.prompt(sid, "the first question")
	list, err := f.conn.ListSessions(f.ctx(), acp.ListSessionsRequest{Cwd: &f.root})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Sessions) != 1 || list.Sessions[0].SessionId != sid || list.Sessions[0].Title == nil || *list.Sessions[0].Title != "the first question" || list.Sessions[0].Cwd != f.root {
		t.Errorf("session/list: %+v", list.Sessions)
	}
	if _, err := f.conn.CloseSession(f.ctx(), acp.CloseSessionRequest{SessionId: sid}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.conn.Prompt(f.ctx(), acp.PromptRequest{SessionId: sid, Prompt: []acp.ContentBlock{acp.TextBlock("hello?")}}); err == nil {
		t.Error("a closed session took a prompt")
	}
	// Loaded again on the same connection, twice (the second while the
	// first is open): the agent carries on from it under its own ID, not
	// from a copy.
	for range 2 {
		if _, err := f.conn.LoadSession(f.ctx(), acp.LoadSessionRequest{SessionId: sid, Cwd: f.root, McpServers: []acp.McpServer{}}); err != nil {
			t.Fatal(err)
		}
	}
	f.prompt(sid, "the second question")
	list, _ = f.conn.ListSessions(f.ctx(), acp.ListSessionsRequest{Cwd: &f.root})
	if len(list.Sessions) != 1 {
		t.Errorf("%d sessions after the load, want the one carried on", len(list.Sessions))
	}
}
