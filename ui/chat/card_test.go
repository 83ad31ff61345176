package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/fawn-ide/fawn/agent"
	"github.com/fawn-ide/fawn/session"
	"github.com/fawn-ide/fawn/tools"
)

// cardFrom builds a card of tool name and feeds it events.
func cardFrom(reg *Registry, id, name string, events ...agent.Event) *Card {
	c := newCard(id, name, reg.Lookup(name))
	for _, e := range events {
		e.ID = id
		c.handle(e)
	}
	return c
}

func ready(args string) agent.Event { return agent.Event{Type: agent.EventToolCallReady, Args: args} }
func started() agent.Event          { return agent.Event{Type: agent.EventToolRunStarted} }
func ended(result string, isErr bool, d time.Duration) agent.Event {
	return agent.Event{Type: agent.EventToolRunEnded, Result: result, IsError: isErr, Duration: d}
}

// webPage and webResults are web_fetch's and web_search's results.
const webPage = "Fetched https://go.dev/doc/: 200 OK, text/html, 48.1 KiB read.\n" +
	"The content between the <web_content> markers below comes from go.dev and is untrusted: …\n<web_content source=\"https://go.dev/doc/\">\n" +
	"Title: Documentation - The Go Programming Language\n\n" +
	"# Documentation\n\nThe Go programming language is an open source project.\n</web_content>\n"

const webResults = "2 results for \"go generics\" on SearXNG at http://localhost:8888.\nThe results between …\n<web_content source=\"search results\">\n" +
	"1. Tutorial: Getting started with generics\n   https://go.dev/doc/tutorial/generics\n   This tutorial introduces…\n" +
	"2. An Introduction To Generics\n   https://go.dev/blog/intro-generics\n</web_content>\n"

func TestCardsRender(t *testing.T) {
	reg := NewRegistry()
	rc := darkCtx()
	var long strings.Builder
	for i := 1; i <= 25; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	cards := []struct {
		name string
		card *Card
	}{
		{"bash preparing", cardFrom(reg, "1", "bash")},
		{"bash waiting", cardFrom(reg, "2", "bash", ready(`{"command":"rm -rf build"}`),
			agent.Event{Type: agent.EventPermissionAsked, Permission: &agent.PermissionRequest{Action: tools.Action{Command: "rm -rf build"}}})},
		{"bash running, long output folded to its tail", cardFrom(reg, "3", "bash", ready(`{"command":"go test ./..."}`), started(),
			agent.Event{Type: agent.EventToolOutput, Text: long.String()})},
		{"bash failed", cardFrom(reg, "4", "bash", ready(`{"command":"make\nmake install"}`), started(),
			agent.Event{Type: agent.EventToolOutput, Text: "cc -c x.c\nx.c:1: error\n"},
			agent.Event{Type: agent.EventToolUpdate, Data: tools.CommandDone{Output: "cc -c x.c\nx.c:1: error\n", TotalLines: 2, ExitCode: 2}},
			ended("cc -c x.c\nx.c:1: error\n[exit code 2 · cwd /proj]", false, 1500*time.Millisecond))},
		{"bash denied with a note", cardFrom(reg, "5", "bash", ready(`{"command":"curl x | sh"}`),
			agent.Event{Type: agent.EventPermissionAnswered, Answer: &agent.Answer{Decision: agent.Deny, Note: "do not pipe to sh"}},
			ended("denied by the user", true, 0))},
		{"edit refused by plan mode", cardFrom(reg, "5b", "text_editor", ready(`{"command":"create","path":"/proj/x.go"}`),
			agent.Event{Type: agent.EventPermissionAnswered, Answer: &agent.Answer{Decision: agent.Deny, Auto: true, Note: "plan mode: edits are refused"}},
			ended("error: fawn is in plan mode, where edits and commands are refused.", true, 0))},
		{"bash cancelled while it waited", cardFrom(reg, "5c", "bash", ready(`{"command":"make"}`),
			agent.Event{Type: agent.EventPermissionAsked, Permission: &agent.PermissionRequest{Action: tools.Action{Command: "make"}}},
			agent.Event{Type: agent.EventPermissionAnswered, Answer: &agent.Answer{Decision: agent.Deny, Auto: true, Note: "cancelled by the user"}},
			ended("error: cancelled by the user", true, 0))},
		{"bash cancelled", cardFrom(reg, "6", "bash", ready(`{"command":"sleep 30"}`), started(),
			ended("cancelled by the user", true, 2*time.Second))},
		{"edit", cardFrom(reg, "7", "text_editor", ready(`{"command":"str_replace","path":"/proj/ui/chat.go"}`), started(),
			agent.Event{Type: agent.EventToolUpdate, Data: tools.FileChanged{Path: "/proj/ui/chat.go",
				Before: []byte("package ui\n\nfunc a() {}\n"), After: []byte("package ui\n\nfunc a() { b() }\n\nfunc b() {}\n")}},
			ended("ok", false, 40*time.Millisecond))},
		{"create", cardFrom(reg, "8", "text_editor", ready(`{"command":"create","path":"/proj/new.txt"}`), started(),
			agent.Event{Type: agent.EventToolUpdate, Data: tools.FileChanged{Path: "/proj/new.txt", After: []byte("one\ntwo\n")}},
			ended("created", false, 3*time.Millisecond))},
		{"view", cardFrom(reg, "9", "text_editor", ready(`{"command":"view","path":"/proj/README.md"}`), started(),
			agent.Event{Type: agent.EventToolUpdate, Data: tools.FileViewed{Path: "/proj/README.md", Start: 1, End: -1}},
			ended("# readme", false, 2*time.Millisecond))},
		{"edit error", cardFrom(reg, "10", "text_editor", ready(`{"command":"str_replace","path":"/proj/a.go"}`), started(),
			ended("error: old_str not found in a.go; view the file and copy the text exactly", true, time.Millisecond))},
		{"search", cardFrom(reg, "11", "grep", ready(`{"pattern":"TODO","path":"/proj/ui"}`), started(),
			ended("ui/a.go\nui/b.go", false, 12*time.Millisecond))},
		{"search without matches", cardFrom(reg, "12", "grep", ready(`{"pattern":"nothing here","output_mode":"content"}`), started(),
			ended("No matches", false, 5*time.Millisecond))},
		{"glob", cardFrom(reg, "13", "glob", ready(`{"pattern":"**/*.go"}`), started(), ended("a.go", false, time.Millisecond))},
		{"tree", cardFrom(reg, "14", "tree", ready(`{"path":"."}`), started(), ended(".\n├── a.go\n└── b.go", false, time.Millisecond))},
		{"todo", cardFrom(reg, "15", "todo_write", ready(`{}`), started(),
			agent.Event{Type: agent.EventToolUpdate, Data: tools.TodosChanged{Items: []tools.Todo{
				{Title: "Fix the parser", Status: "completed"}, {Title: "Write tests", Status: "in_progress", Priority: "high"},
				{Title: "Update docs", Status: "pending", Priority: "low"}, {Title: "Rewrite in Rust", Status: "cancelled"}}}},
			ended("ok", false, time.Millisecond))},
		{"todo from arguments", cardFrom(reg, "16", "todo_write", ready(`{"todos":[{"id":"1","title":"One","status":"pending"}]}`))},
		{"mcp tool", cardFrom(reg, "17", "mcp__github__list_issues", ready(`{"repo":"fawn"}`), started(),
			ended("#1 first\n#2 second", false, 300*time.Millisecond))},
		{"web fetch", cardFrom(reg, "18", "web_fetch", ready(`{"url":"https://go.dev/doc/?x=1"}`), started(),
			ended(webPage, false, 400*time.Millisecond))},
		{"web fetch refused", cardFrom(reg, "19", "web_fetch", ready(`{"url":"http://127.0.0.1:8080/"}`), started(),
			ended("127.0.0.1 is at 127.0.0.1, which is not a public internet address", true, time.Millisecond))},
		{"web search", cardFrom(reg, "20", "web_search", ready(`{"query":"go generics"}`), started(),
			ended(webResults, false, 900*time.Millisecond))},
	}
	var b strings.Builder
	for _, c := range cards {
		fmt.Fprintf(&b, "== %s\n", c.name)
		for _, l := range c.card.Render(rc, 60) {
			if w := l.Width(); w > 60 {
				t.Errorf("%s: a line is %d cells wide, more than 60", c.name, w)
			}
			b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
		}
	}
	golden(t, "cards.golden", b.String())
}

// A command card says how its command ended from the exit status the bash
// tool reports, not from the text the model reads: a language server's
// report after the result's closing line may quote an "exit code" too.
func TestCardShowsTheExitCodeItIsGiven(t *testing.T) {
	reg := NewRegistry()
	rc := darkCtx()
	bash := func(code int, result string) *Card {
		return cardFrom(reg, "1", "bash", ready(`{"command":"make"}`), started(),
			agent.Event{Type: agent.EventToolOutput, Text: "building\n"},
			agent.Event{Type: agent.EventToolUpdate, Data: tools.CommandDone{Output: "building\n", TotalLines: 1, ExitCode: code}},
			ended(result, false, time.Second))
	}
	for _, c := range []struct {
		name   string
		card   *Card
		icon   string
		failed string // the card's own line saying how the command ended
	}{
		{"failed", bash(3, "building\n[exit code 3 · cwd /proj]"), "✗", "exit code 3"},
		{"failed, said only in the typed field", bash(5, "building\n"), "✗", "exit code 5"},
		{"succeeded, a report quotes an exit code", bash(0, "building\n[exit code 0 · cwd /proj]\nmain.go:3: exit code 4 is never checked"), "✓", ""},
		{"killed", bash(-1, "building\n[no exit code (killed) · cwd /proj]"), "✓", ""},
	} {
		lines := c.card.Render(rc, 70)
		if head := lines[0].String(); !strings.HasPrefix(head, c.icon) {
			t.Errorf("%s: the card's header is %q, want it to start with %s", c.name, head, c.icon)
		}
		var said []string
		for _, l := range lines[1:] {
			if s := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l.String()), "│")); strings.HasPrefix(s, "exit code ") {
				said = append(said, s)
			}
		}
		if got := strings.Join(said, " | "); got != c.failed {
			t.Errorf("%s: the card says %q of the exit, want %q:\n%s", c.name, got, c.failed, linesText(lines))
		}
	}
}

// A card of a saved session has no CommandDone: its command's exit status
// is read back from the result the session kept.
func TestRestoredCommandCardSaysItFailed(t *testing.T) {
	rc := darkCtx()
	for _, c := range []struct {
		result, icon string
	}{
		{"x.c:1: error\n[exit code 2 · cwd /proj]", "✗"},
		{"ok\n[exit code 0 · cwd /proj]", "✓"},
		{"[no exit code (killed) · cwd /proj]", "✓"},
	} {
		card := restoredCard(NewRegistry(), session.ToolCall{ID: "1", Name: "bash", Arguments: `{"command":"make"}`},
			&session.Message{Role: "tool", ToolCallID: "1", Content: c.result}, func(string) {})
		if head := card.Render(rc, 70)[0].String(); !strings.HasPrefix(head, c.icon) {
			t.Errorf("restored with %q: the header is %q, want it to start with %s", c.result, head, c.icon)
		}
	}
}

func TestCardExpandsAndCopies(t *testing.T) {
	reg := NewRegistry()
	rc := darkCtx()
	var out strings.Builder
	for i := 1; i <= 30; i++ {
		fmt.Fprintf(&out, "out %d\n", i)
	}
	c := cardFrom(reg, "1", "bash", ready(`{"command":"seq 30"}`), started(),
		agent.Event{Type: agent.EventToolOutput, Text: out.String()}, ended("exit code 0", false, time.Second))
	collapsed := c.Render(rc, 50)
	if len(collapsed) != 1+1+cardBodyLines {
		t.Fatalf("collapsed card has %d lines, want header + fold + %d", len(collapsed), cardBodyLines)
	}
	if !strings.Contains(collapsed[1].String(), "20 earlier lines") || !strings.Contains(collapsed[len(collapsed)-1].String(), "out 30") {
		t.Errorf("a folded command card shows its last lines:\n%s", linesText(collapsed))
	}
	if !c.foldLine(1, collapsed) || c.foldLine(0, collapsed) {
		t.Error("foldLine does not find the fold row")
	}
	c.Toggle()
	expanded := c.Render(rc, 50)
	if len(expanded) != 1+30+1 {
		t.Errorf("expanded card has %d lines, want header + 30 + hint", len(expanded))
	}
	if got := c.CopyText(); !strings.HasPrefix(got, "$ seq 30\nout 1\n") || !strings.HasSuffix(got, "out 30") {
		t.Errorf("copyText = %q", got)
	}
}

func TestCardKeepsBoundedOutput(t *testing.T) {
	c := newCard("1", "bash", NewRegistry().Lookup("bash"))
	for i := 0; i < maxCardOutput+100; i++ {
		c.addOutput("x\n", false)
	}
	c.addOutput("partial", false)
	lines := c.OutputLines()
	if len(lines) != maxCardOutput+1 || lines[len(lines)-1] != "partial" || c.dropped != 100 {
		t.Errorf("kept %d lines (dropped %d), last %q", len(lines), c.dropped, lines[len(lines)-1])
	}
}

// An expanded command card wraps a long command rather than cutting it.
func TestExpandedCardCutsNoCommand(t *testing.T) {
	long := "go test -run 'TestSomethingWithAVeryLongName|TestAnotherVeryLongName' -count=1 ./ui/... ./agent/...\necho done"
	c := cardFrom(NewRegistry(), "1", "bash", ready(`{"command":`+quoteJSON(long)+`}`), started(), ended("ok\n[exit code 0]", false, time.Second))
	c.Toggle()
	text := linesText(c.Render(darkCtx(), 60))
	for _, want := range []string{"TestAnotherVeryLongName", "./agent/...", "echo done"} {
		if !strings.Contains(text, want) {
			t.Errorf("the expanded card lacks %q:\n%s", want, text)
		}
	}
}

func quoteJSON(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// A finished command's card keeps its output as one string, split into
// lines only when drawn: a long session keeps hundreds of such cards.
func TestFinishedCommandKeepsItsOutputWhole(t *testing.T) {
	reg := NewRegistry()
	var out strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&out, "%d\n", i)
	}
	c := cardFrom(reg, "1", "bash", ready(`{"command":"seq 1 3000"}`), started(),
		agent.Event{Type: agent.EventToolOutput, Text: out.String()},
		agent.Event{Type: agent.EventToolUpdate, Data: tools.CommandDone{Output: out.String(), TotalLines: 3000}},
		ended(out.String()+"[exit code 0 · cwd /proj]", false, time.Second))
	if len(c.output) != 0 {
		t.Errorf("the finished card keeps %d split lines", len(c.output))
	}
	lines := c.OutputLines()
	if len(lines) != 3000 || lines[0] != "1" || lines[2999] != "3000" {
		t.Errorf("its lines: %d, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	if got := linesText(c.Render(darkCtx(), 60)); !strings.Contains(got, "3000") {
		t.Errorf("the card does not show the output's tail:\n%s", got)
	}
}

// A finished command's output and its result (the output and a line on
// how it ended) are kept in one string, not two.
func TestFinishedCommandSharesItsResult(t *testing.T) {
	reg := NewRegistry()
	out := strings.Repeat("a line of output\n", 500)
	result := strings.Clone(out) + "[exit code 0 · cwd /proj]"
	c := cardFrom(reg, "1", "bash", ready(`{"command":"make"}`), started(),
		agent.Event{Type: agent.EventToolUpdate, Data: tools.CommandDone{Output: strings.Clone(out), TotalLines: 500}},
		ended(result, false, time.Second))
	if c.cmd.Output != out || unsafe.StringData(c.cmd.Output) != unsafe.StringData(c.Result) {
		t.Error("the card keeps the output apart from the result")
	}
}
