package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
