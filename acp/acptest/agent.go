// Package acptest is a scripted ACP agent for tests: Serve speaks the
// agent side of the protocol on stdin and stdout and plays a scenario (an
// edit, out-of-order updates, writes, permission requests, a crash,
// garbage on stdout, a hang), noting what fawn answered in a report file.
// cmd/acpscript is it as a program, for fawn's end-to-end tests.
//
// Imports nothing of fawn; acp/host's tests and e2e use it.
package acptest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// Serve plays the scenario FAWN_ACP_SCRIPT names on stdin and stdout until
// fawn closes the connection, appending what it learns of fawn's answers
// to the file FAWN_ACP_REPORT names. It reports whether a scenario was set.
func Serve() bool {
	if os.Getenv("FAWN_ACP_SCRIPT") == "" {
		return false
	}
	runScripted()
	return true
}

type scripted struct {
	conn     *acp.AgentSideConnection
	scenario string
	report   string
	out      *os.File
	mu       sync.Mutex
	cwd      string
	prompts  int
	authed   bool
}

func runScripted() {
	a := &scripted{scenario: os.Getenv("FAWN_ACP_SCRIPT"), report: os.Getenv("FAWN_ACP_REPORT"), out: os.Stdout}
	a.conn = acp.NewAgentSideConnection(a, os.Stdout, os.Stdin)
	fmt.Fprintln(os.Stderr, "scripted agent up:", a.scenario)
	<-a.conn.Done()
}

func (a *scripted) note(format string, args ...any) {
	if a.report == "" {
		return
	}
	f, err := os.OpenFile(a.report, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, format+"\n", args...)
}

func (a *scripted) Authenticate(_ context.Context, p acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	a.note("authenticate %s", p.MethodId)
	if p.MethodId == "key" && os.Getenv("SCRIPTED_API_KEY") == "" {
		return acp.AuthenticateResponse{}, acp.NewAuthRequired(map[string]any{"error": "SCRIPTED_API_KEY is not set"})
	}
	if p.MethodId != "token" && p.MethodId != "key" {
		return acp.AuthenticateResponse{}, acp.NewInvalidParams(map[string]any{"error": "no such method"})
	}
	a.mu.Lock()
	a.authed = true
	a.mu.Unlock()
	return acp.AuthenticateResponse{}, nil
}

func (a *scripted) Initialize(_ context.Context, p acp.InitializeRequest) (acp.InitializeResponse, error) {
	a.note("init fs=%v/%v terminal=%v", p.ClientCapabilities.Fs.ReadTextFile, p.ClientCapabilities.Fs.WriteTextFile, p.ClientCapabilities.Terminal)
	if a.scenario == "hang-init" {
		select {}
	}
	methods := []acp.AuthMethod{}
	if a.scenario == "auth" {
		methods = []acp.AuthMethod{
			{Agent: &acp.AuthMethodAgent{Id: "token", Name: "Scripted sign-in", Description: acp.Ptr("signs in at once")}},
			{EnvVar: &acp.AuthMethodEnvVarInline{Id: "key", Name: "API key", Type: "env_var", Vars: []acp.AuthEnvVar{{Name: "SCRIPTED_API_KEY"}}}},
		}
	}
	return acp.InitializeResponse{ProtocolVersion: acp.ProtocolVersionNumber, AuthMethods: methods,
		AgentCapabilities: acp.AgentCapabilities{LoadSession: a.scenario == "load",
			PromptCapabilities: acp.PromptCapabilities{EmbeddedContext: a.scenario == "mention-embed", Image: a.scenario == "mention-embed"}}}, nil
}

func (a *scripted) Cancel(context.Context, acp.CancelNotification) error {
	a.note("cancel")
	return nil
}

func (a *scripted) CloseSession(context.Context, acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, nil
}

func (a *scripted) ListSessions(context.Context, acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	return acp.ListSessionsResponse{}, nil
}

func (a *scripted) NewSession(_ context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	a.mu.Lock()
	a.cwd = p.Cwd
	authed := a.authed
	a.mu.Unlock()
	if a.scenario == "auth" && !authed {
		a.note("session refused: not signed in")
		return acp.NewSessionResponse{}, acp.NewAuthRequired(nil)
	}
	var names []string
	for _, s := range p.McpServers {
		if s.Stdio != nil {
			names = append(names, s.Stdio.Name)
		}
	}
	a.note("session cwd=%s mcp=%s env-key=%q", p.Cwd, strings.Join(names, ","), os.Getenv("FAWN_TEST_SECRET_KEY"))
	if a.scenario == "commands" {
		// As Claude Code does: its commands come before any prompt.
		a.send(acp.SessionUpdate{AvailableCommandsUpdate: &acp.SessionAvailableCommandsUpdate{AvailableCommands: []acp.AvailableCommand{
			{Name: "review", Description: "Review the changes", Input: &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: "what to review"}}},
			{Name: "compact", Description: "Compact the conversation"},
			{Name: "bad name", Description: "not a command a word names"},
		}}})
	}
	// Claude Code's modes.
	modes := &acp.SessionModeState{CurrentModeId: "default", AvailableModes: []acp.SessionMode{
		{Id: "default", Name: "Default"}, {Id: "acceptEdits", Name: "Accept Edits"},
		{Id: "plan", Name: "Plan Mode"}, {Id: "bypassPermissions", Name: "Bypass Permissions"}}}
	return acp.NewSessionResponse{SessionId: "s1", Modes: modes}, nil
}

// LoadSession replays a past conversation (scenario load): what the user
// said, a thought, the agent's words, an edit, a command that failed.
func (a *scripted) LoadSession(_ context.Context, p acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	a.mu.Lock()
	a.cwd = p.Cwd
	a.mu.Unlock()
	a.note("load %s", p.SessionId)
	send := func(u acp.SessionUpdate) {
		_ = a.conn.SessionUpdate(context.Background(), acp.SessionNotification{SessionId: p.SessionId, Update: u})
	}
	send(acp.UpdateUserMessageText("fix the greeting"))
	send(acp.UpdateAgentThoughtText("the greeting is wrong"))
	send(acp.UpdateAgentMessageText("I fixed "))
	send(acp.UpdateAgentMessageText("the greeting."))
	hello := a.path("hello.txt")
	send(acp.StartToolCall("e1", "Edit hello.txt", acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartLocations([]acp.ToolCallLocation{{Path: hello}}),
		acp.WithStartContent([]acp.ToolCallContent{acp.ToolDiffContent(hello, "hello, world", "hello, wrld")})))
	send(acp.UpdateToolCall("e1", acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
	send(acp.StartToolCall("x1", "Run make", acp.WithStartKind(acp.ToolKindExecute), acp.WithStartRawInput(map[string]any{"command": "make"})))
	send(acp.UpdateToolCall("x1", acp.WithUpdateStatus(acp.ToolCallStatusFailed),
		acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("make: no rule"))})))
	send(acp.UpdateUserMessageText("thanks"))
	send(acp.UpdateAgentMessageText("You are welcome."))
	return acp.LoadSessionResponse{}, nil
}

func (a *scripted) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, nil
}

func (a *scripted) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, nil
}

func (a *scripted) SetSessionMode(_ context.Context, p acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	a.note("set_mode %s", p.ModeId)
	return acp.SetSessionModeResponse{}, nil
}

func (a *scripted) send(u acp.SessionUpdate) {
	_ = a.conn.SessionUpdate(context.Background(), acp.SessionNotification{SessionId: "s1", Update: u})
}

func (a *scripted) path(rel string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return filepath.Join(a.cwd, rel)
}

var endTurn = acp.PromptResponse{StopReason: acp.StopReasonEndTurn}

func (a *scripted) Prompt(ctx context.Context, p acp.PromptRequest) (acp.PromptResponse, error) {
	a.mu.Lock()
	a.prompts++
	n := a.prompts
	a.mu.Unlock()
	a.note("prompt %d: %s", n, p.Prompt[0].Text.Text)
	if a.scenario == "load" {
		a.note("prompt in %s", p.SessionId)
	}
	if strings.HasPrefix(a.scenario, "mention") {
		for _, b := range p.Prompt {
			switch {
			case b.Text != nil:
				a.note("block text %q", b.Text.Text)
			case b.ResourceLink != nil:
				a.note("block link %s %s", b.ResourceLink.Name, b.ResourceLink.Uri)
			case b.Resource != nil && b.Resource.Resource.TextResourceContents != nil:
				r := b.Resource.Resource.TextResourceContents
				a.note("block resource %s %q", r.Uri, r.Text)
			case b.Image != nil:
				a.note("block image %s %d", b.Image.MimeType, len(b.Image.Data))
			}
		}
	}
	switch a.scenario {
	case "edit":
		return a.edit()
	case "outoforder":
		return a.outOfOrder()
	case "late":
		return a.late()
	case "torn":
		return a.torn()
	case "hello":
		a.send(acp.UpdateAgentMessageText("hello from the other agent"))
		return endTurn, nil
	case "terminal":
		return a.terminal()
	case "write":
		return a.write(ctx)
	case "permcancel":
		return a.permCancel(ctx)
	case "crash":
		if b, _ := os.ReadFile(a.report); !strings.Contains(string(b), "crashing") {
			a.note("crashing")
			a.send(acp.UpdateAgentMessageText("working on it"))
			a.send(acp.StartToolCall("c1", "Run make", acp.WithStartKind(acp.ToolKindExecute), acp.WithStartStatus(acp.ToolCallStatusInProgress),
				acp.WithStartRawInput(map[string]any{"command": "make"})))
			time.Sleep(100 * time.Millisecond)
			fmt.Fprintln(os.Stderr, "Error: the scripted agent fell over holding", os.Getenv("FAWN_TEST_AGENT_KEY"))
			for i := range 5 {
				fmt.Fprintf(os.Stderr, "   %d: frame\n", i)
			}
			os.Exit(3)
		}
		a.send(acp.UpdateAgentMessageText("back again"))
		return endTurn, nil
	case "garbage":
		a.send(acp.UpdateAgentMessageText("about to babble"))
		time.Sleep(100 * time.Millisecond)
		fmt.Fprintln(a.out, "this is not json")
		select {} // and never answers
	case "hang":
		a.send(acp.UpdateAgentMessageText("thinking for ever"))
		select {} // deaf to session/cancel too
	case "read":
		r, err := a.conn.ReadTextFile(context.Background(), acp.ReadTextFileRequest{SessionId: "s1", Path: a.path("notes.txt"), Line: acp.Ptr(2), Limit: acp.Ptr(1)})
		a.note("read %q %v", r.Content, err)
		_, err = a.conn.ReadTextFile(context.Background(), acp.ReadTextFileRequest{SessionId: "s1", Path: "/etc/passwd"})
		a.note("read outside: %v", err)
		return endTurn, nil
	case "permission":
		r, err := a.conn.RequestPermission(context.Background(), acp.RequestPermissionRequest{SessionId: "s1",
			ToolCall: acp.ToolCallUpdate{ToolCallId: "p1", Title: acp.Ptr("Run rm -rf build"), Kind: acp.Ptr(acp.ToolKindExecute),
				RawInput: map[string]any{"command": "rm -rf build"}},
			Options: []acp.PermissionOption{
				{OptionId: "yes", Name: "Allow", Kind: acp.PermissionOptionKindAllowOnce},
				{OptionId: "no", Name: "Reject", Kind: acp.PermissionOptionKindRejectOnce},
			}})
		a.note("permission %s %v", outcome(r), err)
		a.send(acp.UpdateToolCall("p1", acp.WithUpdateStatus(acp.ToolCallStatusFailed)))
		return endTurn, nil
	}
	return endTurn, nil
}

func outcome(r acp.RequestPermissionResponse) string {
	switch {
	case r.Outcome.Cancelled != nil:
		return "cancelled"
	case r.Outcome.Selected != nil:
		return "selected:" + string(r.Outcome.Selected.OptionId)
	}
	return "none"
}

// edit: words and a thought, a plan, and an edit the agent makes itself
// (as Claude Code does), announced with its diff and location.
func (a *scripted) edit() (acp.PromptResponse, error) {
	a.send(acp.UpdateAgentThoughtText("the greeting is wrong"))
	a.send(acp.UpdateAgentMessageText("I will fix "))
	a.send(acp.UpdateAgentMessageText("the greeting."))
	a.send(acp.UpdatePlan(
		acp.PlanEntry{Content: "fix the greeting", Status: acp.PlanEntryStatusInProgress, Priority: acp.PlanEntryPriorityHigh},
		acp.PlanEntry{Content: "run the tests", Status: acp.PlanEntryStatusPending, Priority: acp.PlanEntryPriorityMedium},
	))
	p := a.path("hello.txt")
	a.send(acp.StartToolCall("e1", "Edit hello.txt", acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartLocations([]acp.ToolCallLocation{{Path: p}}),
		acp.WithStartContent([]acp.ToolCallContent{acp.ToolDiffContent(p, "hello, world", "hello, wrld")})))
	a.send(acp.UpdateToolCall("e1", acp.WithUpdateStatus(acp.ToolCallStatusInProgress)))
	_ = os.WriteFile(p, []byte("one\nhello, world\nthree\n"), 0o644)
	a.send(acp.UpdateToolCall("e1", acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
	a.send(acp.StartToolCall("x1", "Run go test", acp.WithStartKind(acp.ToolKindExecute), acp.WithStartStatus(acp.ToolCallStatusInProgress),
		acp.WithStartRawInput(map[string]any{"command": "go test ./..."})))
	a.send(acp.UpdateToolCall("x1", acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("ok  \tpkg\n"))})))
	a.send(acp.UpdateToolCall("x1", acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
		acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("ok  \tpkg\nPASS\n"))})))
	a.send(acp.UpdateAgentMessageText("Done."))
	return endTurn, nil
}

// outOfOrder: an update before its call's announcement, a status going
// back, an update after the end, and an update for a call never announced.
func (a *scripted) outOfOrder() (acp.PromptResponse, error) {
	a.send(acp.UpdateToolCall("t1", acp.WithUpdateStatus(acp.ToolCallStatusInProgress)))
	a.send(acp.StartToolCall("t1", "Search for TODO", acp.WithStartKind(acp.ToolKindSearch), acp.WithStartStatus(acp.ToolCallStatusPending)))
	a.send(acp.UpdateToolCall("t1", acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
		acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("3 matches"))})))
	a.send(acp.UpdateToolCall("t1", acp.WithUpdateStatus(acp.ToolCallStatusInProgress),
		acp.WithUpdateContent([]acp.ToolCallContent{acp.ToolContent(acp.TextBlock("late"))})))
	a.send(acp.UpdateToolCall("ghost", acp.WithUpdateTitle("Fetch the docs"), acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
	a.send(acp.StartToolCall("open", "Think it over", acp.WithStartKind(acp.ToolKindThink), acp.WithStartStatus(acp.ToolCallStatusInProgress)))
	a.send(acp.UpdateAgentMessageText("all done"))
	return endTurn, nil
}

// write: fs/write_text_file inside the project (under an edit call that
// names the file) and outside it.
func (a *scripted) write(ctx context.Context) (acp.PromptResponse, error) {
	inside := a.path("src/new.txt")
	a.send(acp.StartToolCall("w1", "Write src/new.txt", acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusInProgress),
		acp.WithStartLocations([]acp.ToolCallLocation{{Path: inside}})))
	_, err := a.conn.WriteTextFile(context.Background(), acp.WriteTextFileRequest{SessionId: "s1", Path: inside, Content: "fresh\n"})
	a.note("write inside: %v", err)
	a.send(acp.UpdateToolCall("w1", acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
	outside := filepath.Join(filepath.Dir(a.path("")), "escaped.txt")
	_, err = a.conn.WriteTextFile(context.Background(), acp.WriteTextFileRequest{SessionId: "s1", Path: outside, Content: "nope\n"})
	a.note("write outside: %v", err)
	return endTurn, nil
}

// permCancel: a permission request the user cancels the turn under, then
// one sent after the cancel.
func (a *scripted) permCancel(ctx context.Context) (acp.PromptResponse, error) {
	ask := func(id string) string {
		r, err := a.conn.RequestPermission(context.Background(), acp.RequestPermissionRequest{SessionId: "s1",
			ToolCall: acp.ToolCallUpdate{ToolCallId: acp.ToolCallId(id), Title: acp.Ptr("Run make deploy"), Kind: acp.Ptr(acp.ToolKindExecute),
				RawInput: map[string]any{"command": "make deploy"}},
			Options: []acp.PermissionOption{{OptionId: "yes", Name: "Allow", Kind: acp.PermissionOptionKindAllowOnce},
				{OptionId: "no", Name: "Reject", Kind: acp.PermissionOptionKindRejectOnce}}})
		if err != nil {
			return "error " + err.Error()
		}
		return outcome(r)
	}
	a.note("first %s", ask("k1"))
	<-ctx.Done() // session/cancel arrived
	a.note("second %s", ask("k2"))
	return acp.PromptResponse{StopReason: acp.StopReasonCancelled}, nil
}

// late: edits announced only after the agent made them (as opencode does):
// a file it created, and a file it changed, neither with a diff.
func (a *scripted) late() (acp.PromptResponse, error) {
	created, changed := a.path("new.txt"), a.path("old.txt")
	_ = os.WriteFile(created, []byte("born\n"), 0o644)
	_ = os.WriteFile(changed, []byte("changed\n"), 0o644)
	for id, p := range map[string]string{"n1": created, "o1": changed} {
		a.send(acp.StartToolCall(acp.ToolCallId(id), "write", acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusPending)))
		a.send(acp.UpdateToolCall(acp.ToolCallId(id), acp.WithUpdateStatus(acp.ToolCallStatusInProgress), acp.WithUpdateLocations([]acp.ToolCallLocation{{Path: p}})))
		a.send(acp.UpdateToolCall(acp.ToolCallId(id), acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
	}
	return endTurn, nil
}

// torn: an edit announced with its diff while the agent is in the middle
// of writing the file (truncated): fawn reads the file then, and must not
// take what it read for the file before the edit. A read of another file
// waits until fawn has handled the announcement.
func (a *scripted) torn() (acp.PromptResponse, error) {
	p := a.path("hello.txt")
	_ = os.WriteFile(p, nil, 0o644)
	a.send(acp.StartToolCall("e1", "Edit hello.txt", acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusInProgress),
		acp.WithStartLocations([]acp.ToolCallLocation{{Path: p}}),
		acp.WithStartContent([]acp.ToolCallContent{acp.ToolDiffContent(p, "hello, world", "hello, wrld")})))
	_, err := a.conn.ReadTextFile(context.Background(), acp.ReadTextFileRequest{SessionId: "s1", Path: a.path("other.txt")})
	a.note("synced %v", err)
	_ = os.WriteFile(p, []byte("one\nhello, world\nthree\n"), 0o644)
	a.send(acp.UpdateToolCall("e1", acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
	return endTurn, nil
}

// terminal: a command run through terminal/* (create, a call showing it,
// wait, output, release), then one fawn refuses.
func (a *scripted) terminal() (acp.PromptResponse, error) {
	ctx := context.Background()
	tm, err := a.conn.CreateTerminal(ctx, acp.CreateTerminalRequest{SessionId: "s1", Command: "printf", Args: []string{"%s\\n", "hello from the shared shell"}})
	if err != nil {
		a.note("create: %v", err)
		return endTurn, nil
	}
	a.send(acp.StartToolCall("r1", "Say hello", acp.WithStartKind(acp.ToolKindExecute), acp.WithStartStatus(acp.ToolCallStatusInProgress),
		acp.WithStartContent([]acp.ToolCallContent{acp.ToolTerminalRef(tm.TerminalId)})))
	ex, err := a.conn.WaitForTerminalExit(ctx, acp.WaitForTerminalExitRequest{SessionId: "s1", TerminalId: tm.TerminalId})
	code := -1
	if ex.ExitCode != nil {
		code = *ex.ExitCode
	}
	out, _ := a.conn.TerminalOutput(ctx, acp.TerminalOutputRequest{SessionId: "s1", TerminalId: tm.TerminalId})
	a.note("exit %d %v output %q", code, err, out.Output)
	_, err = a.conn.ReleaseTerminal(ctx, acp.ReleaseTerminalRequest{SessionId: "s1", TerminalId: tm.TerminalId})
	a.note("release %v", err)
	a.send(acp.UpdateToolCall("r1", acp.WithUpdateStatus(acp.ToolCallStatusCompleted)))
	_, err = a.conn.CreateTerminal(ctx, acp.CreateTerminalRequest{SessionId: "s1", Command: "rm", Args: []string{"-rf", "/"}})
	a.note("refused: %v", err)
	return endTurn, nil
}
