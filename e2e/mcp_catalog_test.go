package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// The everything server's prompts are slash commands and its resources
// @-mentions, against the real npm server: the completion lists a prompt
// with its arguments, the prompt's message goes to the model and shows in
// the chat; a mentioned resource is attached with its text and a chip.
func TestMCPPromptsAndResourcesFromNpm(t *testing.T) {
	every := npmBin(t, "mcp-server-everything")
	doc, err := os.ReadFile(filepath.Join(filepath.Dir(every), "..", "@modelcontextprotocol", "server-everything", "dist", "docs", "architecture.md"))
	if err != nil {
		t.Fatalf("the everything server's docs: %v", err)
	}
	conf := filepath.Join(t.TempDir(), "mcp.yaml")
	writeFile(t, conf, fmt.Sprintf("tools:\n  mcp_servers:\n    everything:\n      command: %s\n      args: [stdio]\n", every))
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "It is sunny in Paris."},
		{Text: "The architecture is plain."},
	}})
	tm := startIDE(t, srv, "", "--config", conf)
	tm.WaitFor("MCP: everything is ready")
	tm.Type("/mcp__everything__arg")
	tm.WaitFor("/mcp__everything__args-prompt <city> [state]  A prompt with")
	tm.Type("s-prompt Paris")
	tm.Keys("Enter")
	tm.WaitFor("› What's weather in Paris?", "It is sunny in Paris.")
	msgs := srv.ChatRequests()[0].Messages
	if sent := string(msgs[len(msgs)-1].Content); sent != "What's weather in Paris?" {
		t.Errorf("the model was sent %q", sent)
	}

	tm.Type("summarise @everything:archi")
	tm.WaitFor("@everything:demo://resource/static/document/architecture.md")
	tm.Keys("Tab")
	tm.Keys("Enter")
	tm.WaitFor("The architecture is plain.", "↳ everything:demo://resource/static/document/", "architecture.md · text, 1.6 KiB")
	msgs = srv.ChatRequests()[1].Messages
	sent := string(msgs[len(msgs)-1].Content)
	for _, want := range []string{`<attached path="everything:demo://resource/static/document/architecture.md">`, strings.SplitN(string(doc), "\n", 2)[0]} {
		if !strings.Contains(sent, want) {
			t.Errorf("the model was not sent %q:\n%.600s", want, sent)
		}
	}
}

// A tool the real filesystem server marks readOnlyHint runs in ask mode
// without a question (headless, where nobody could answer one); its
// write_file, not so marked, is refused.
func TestMCPReadOnlyHintFromNpm(t *testing.T) {
	files := npmBin(t, "mcp-server-filesystem")
	dir := project(t)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	writeFile(t, filepath.Join(dir, "notes.txt"), "hello from the project\n")
	conf := filepath.Join(t.TempDir(), "mcp.yaml")
	writeFile(t, conf, fmt.Sprintf("tools:\n  mcp_servers:\n    files:\n      command: %s\n      args: [%s]\n", files, dir))
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			call("mcp__files__read_text_file", `{"path":"`+filepath.Join(dir, "notes.txt")+`"}`),
			call("mcp__files__write_file", `{"path":"`+filepath.Join(dir, "out.txt")+`","content":"x"}`),
		}},
		{Text: "Read one, could not write the other."},
	}})
	out, errs, code := runHeadless(t, srv, dir, "--config", conf, "--permission-mode", "ask", "-p", "read and write")
	if code != 0 || !strings.Contains(out, "Read one, could not write the other.") {
		t.Fatalf("exit %d: %s\n%s", code, out, errs)
	}
	results := map[string]string{}
	for _, m := range srv.ChatRequests()[1].Messages {
		if m.Role == "tool" {
			results[m.ToolCallID] = string(m.Content)
		}
	}
	var read, wrote string
	for _, r := range results {
		if strings.Contains(r, "hello from the project") {
			read = r
		} else {
			wrote = r
		}
	}
	if read == "" || !strings.Contains(wrote, "denied") {
		t.Errorf("tool results %q", results)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.txt")); err == nil {
		t.Error("write_file ran in ask mode with nobody to ask")
	}
}

// fawn -p names an MCP server's prompt as the chat does; a name no server
// offers is refused, listing those offered.
func TestHeadlessMCPPromptFromNpm(t *testing.T) {
	every := npmBin(t, "mcp-server-everything")
	conf := filepath.Join(t.TempDir(), "mcp.yaml")
	writeFile(t, conf, fmt.Sprintf("tools:\n  mcp_servers:\n    everything:\n      command: %s\n      args: [stdio]\n", every))
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: "Sunny."}}})
	out, errs, code := runHeadless(t, srv, project(t), "--config", conf, "-p", "/mcp__everything__args-prompt city=Lyon state=Rhône")
	if code != 0 || strings.TrimSpace(out) != "Sunny." {
		t.Fatalf("exit %d: %q %s", code, out, errs)
	}
	msgs := srv.ChatRequests()[0].Messages
	if sent := string(msgs[len(msgs)-1].Content); sent != "What's weather in Lyon, Rhône?" {
		t.Errorf("the model was sent %q", sent)
	}
	_, errs, code = runHeadless(t, srv, project(t), "--config", conf, "-p", "/mcp__everything__nope")
	if code != 2 || !strings.Contains(errs, "/mcp__everything__nope: no MCP server offers that prompt; these are offered:") || !strings.Contains(errs, "/mcp__everything__simple-prompt") {
		t.Errorf("an unknown prompt: exit %d, %s", code, errs)
	}
}

// `fawn acp` offers the MCP servers' prompts to the editor as slash
// commands once the server is ready (available_commands_update), expands
// one when it is sent, and attaches a resource the prompt names as
// @SERVER:URI; the real everything server from npm.
func TestACPOffersMCPPromptsAndResources(t *testing.T) {
	every := npmBin(t, "mcp-server-everything")
	home := t.TempDir()
	conf := filepath.Join(home, "mcp.yaml")
	writeFile(t, conf, fmt.Sprintf("tools:\n  mcp_servers:\n    everything:\n      command: %s\n      args: [stdio]\n", every))
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "It is sunny in Lyon."},
		{Text: "The architecture is plain."},
	}})
	conn, cl, _, stderr := startACP(t, srv, home, "--config", conf)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if _, err := conn.Initialize(ctx, acp.InitializeRequest{ProtocolVersion: acp.ProtocolVersionNumber}); err != nil {
		t.Fatal(err)
	}
	sess, err := conn.NewSession(ctx, acp.NewSessionRequest{Cwd: project(t), McpServers: []acp.McpServer{}})
	if err != nil {
		t.Fatalf("new session: %v\n%s", err, stderr)
	}
	offered := func() *acp.AvailableCommand {
		cl.mu.Lock()
		defer cl.mu.Unlock()
		for _, u := range cl.updates {
			if a := u.Update.AvailableCommandsUpdate; a != nil {
				for _, c := range a.AvailableCommands {
					if c.Name == "mcp__everything__args-prompt" {
						return &c
					}
				}
			}
		}
		return nil
	}
	for offered() == nil && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
	}
	c := offered()
	if c == nil {
		t.Fatalf("the everything server's prompts were never offered\n%s", stderr)
	}
	if c.Input == nil || c.Input.Unstructured == nil || c.Input.Unstructured.Hint != "<city> [state]" {
		t.Errorf("args-prompt offered as %+v", c)
	}
	if _, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: sess.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock("/mcp__everything__args-prompt Lyon")}}); err != nil {
		t.Fatalf("prompt: %v\n%s", err, stderr)
	}
	if got := userText(t, srv.ChatRequests()[0]); got != "What's weather in Lyon?" {
		t.Errorf("the model was sent %q", got)
	}
	ref := "everything:demo://resource/static/document/architecture.md"
	if _, err := conn.Prompt(ctx, acp.PromptRequest{SessionId: sess.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock("summarise @" + ref)}}); err != nil {
		t.Fatalf("prompt: %v\n%s", err, stderr)
	}
	if got := userText(t, srv.ChatRequests()[1]); !strings.Contains(got, `<attached path="`+ref+`">`) || !strings.Contains(got, "Architecture") {
		t.Errorf("the resource was not attached:\n%.600s", got)
	}
	_, err = conn.Prompt(ctx, acp.PromptRequest{SessionId: sess.SessionId, Prompt: []acp.ContentBlock{acp.TextBlock("read @everything:demo://nothing/here")}})
	if err == nil || !strings.Contains(err.Error(), "@everything:demo://nothing/here") {
		t.Errorf("an unknown resource: %v", err)
	}
}
