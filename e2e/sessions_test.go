package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// fawnIn runs the real binary with FAWN_HOME home against srv.
func fawnIn(t *testing.T, home string, srv *llmtest.Server, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if srv != nil {
		args = append([]string{"--base-url", srv.URL(), "--model", "scripted"}, args...)
	}
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "HOME="+home, "OPENAI_API_KEY=", "ANTHROPIC_API_KEY=")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	_ = cmd.Run()
	return o.String(), e.String(), cmd.ProcessState.ExitCode()
}

// contents are the text of a request's messages, by role.
func contents(req *llmtest.ChatRequest) []string {
	var out []string
	for _, m := range req.Messages {
		if m.Role == "system" {
			continue
		}
		out = append(out, m.Role+":"+string(m.Content))
	}
	return out
}

type sessionInfo struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	Messages int    `json:"messages"`
	Turns    int    `json:"turns"`
}

func listJSON(t *testing.T, home, project string) []sessionInfo {
	t.Helper()
	out, errs, code := fawnIn(t, home, nil, "sessions", "--json", project)
	if code != 0 {
		t.Fatalf("fawn sessions: %d %s", code, errs)
	}
	var all []sessionInfo
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatalf("fawn sessions --json: %v\n%s", err, out)
	}
	return all
}

// Three -p calls chained with --continue, then one with --resume ID: each
// request holds every earlier turn.
func TestHeadlessConversationAcrossCalls(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "One."}, {Text: "Two."}, {Text: "Three."}, {Text: "Four."}, {Text: "Elsewhere."},
	}})
	home, project := t.TempDir(), t.TempDir()
	out, errs, code := fawnIn(t, home, srv, "-p", "first", "--continue", project)
	if code != 0 || strings.TrimSpace(out) != "One." || !strings.Contains(errs, "no session of") {
		t.Fatalf("first call: %d %q %q", code, out, errs)
	}
	for i, p := range []string{"second", "third"} {
		out, errs, code = fawnIn(t, home, srv, "-p", p, "--continue", project)
		if code != 0 {
			t.Fatalf("call %d: %d %s", i+2, code, errs)
		}
	}
	all := listJSON(t, home, project)
	if len(all) != 1 || all[0].Turns != 3 || all[0].Messages != 6 || all[0].Title != "first" {
		t.Fatalf("sessions: %+v", all)
	}
	id := all[0].ID
	// Another session in between: --continue would now take it, --resume does not.
	if _, errs, code := fawnIn(t, home, srv, "-p", "unrelated", project); code != 0 {
		t.Fatal(errs)
	}
	out, errs, code = fawnIn(t, home, srv, "-p", "fourth", "--resume", id[:6], project, "--output-format", "json")
	if code != 0 {
		t.Fatalf("--resume: %d %s", code, errs)
	}
	var res struct {
		Result    string `json:"result"`
		SessionID string `json:"session_id"`
	}
	if json.Unmarshal([]byte(out), &res); res.SessionID != id || res.Result != "Elsewhere." {
		t.Errorf("--resume json: %s", out)
	}
	reqs := srv.ChatRequests()
	want := [][]string{
		{"user:first"},
		{"user:first", "assistant:One.", "user:second"},
		{"user:first", "assistant:One.", "user:second", "assistant:Two.", "user:third"},
		{"user:unrelated"},
		{"user:first", "assistant:One.", "user:second", "assistant:Two.", "user:third", "assistant:Three.", "user:fourth"},
	}
	for i, w := range want {
		if got := contents(reqs[i]); strings.Join(got, "|") != strings.Join(w, "|") {
			t.Errorf("request %d: %q, want %q", i+1, got, w)
		}
	}
	// The same system prompt every time: a server's prompt cache holds.
	sys := string(reqs[0].Messages[0].Content)
	for i, r := range []int{1, 2, 4} {
		if got := string(reqs[r].Messages[0].Content); got != sys {
			t.Errorf("request %d's system prompt differs", i)
		}
	}
	// Export writes it all as Markdown.
	md, errs, code := fawnIn(t, home, nil, "export", id[:5], project)
	if code != 0 || !strings.Contains(md, "## User\n\nfourth") || !strings.Contains(md, "Elsewhere.") {
		t.Errorf("export: %d %s\n%s", code, errs, md)
	}
	// A prefix that names nothing, or a resume without an ID in -p mode.
	if _, errs, code := fawnIn(t, home, srv, "-p", "x", "--resume", "zzzz", project); code != 2 || !strings.Contains(errs, `starting with "zzzz"`) {
		t.Errorf("unknown ID: %d %s", code, errs)
	}
	if _, errs, code := fawnIn(t, home, srv, "-p", "x", "--resume", project); code != 2 || !strings.Contains(errs, "needs an ID with -p") {
		t.Errorf("--resume without ID: %d %s", code, errs)
	}
}

// sessionFile returns the transcript of the only session of project.
func sessionFile(t *testing.T, home string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(home, "data", "sessions", "*", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("session files: %v", files)
	}
	return files[0]
}

// waitFile polls path until it contains want.
func waitFile(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, _ := os.ReadFile(path)
		if bytes.Contains(data, []byte(want)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never held %q:\n%s", path, want, data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill -9 in the middle of a streamed answer, then in the middle of a
// running tool: --continue carries on with everything that was complete.
func TestKill9ThenContinue(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Done with the first."},
		// The answer stalls halfway: fawn is killed while it streams.
		{Text: "This answer is cut off by the kill and never seen again", ChunkSize: 4, Fault: &llmtest.Fault{Kind: llmtest.Stall, After: 3}},
		{Text: "Back after the first kill."},
		{Text: "Running it.", ToolCalls: []llmtest.ToolCall{
			call("bash", `{"command":"echo started-marker; sleep 60"}`),
		}},
		{Text: "Back after the second kill."},
	}})
	home, project := t.TempDir(), t.TempDir()
	if _, errs, code := fawnIn(t, home, srv, "-p", "first", project); code != 0 {
		t.Fatal(errs)
	}
	file := sessionFile(t, home)

	kill9 := func(prompt, marker string, ready func() bool) {
		cmd := exec.Command(binary, "--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "yolo", "-p", prompt, "--continue", project)
		cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "HOME="+home, "OPENAI_API_KEY=")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitFile(t, file, marker)
		deadline := time.Now().Add(30 * time.Second)
		for !ready() {
			if time.Now().After(deadline) {
				t.Fatalf("fawn -p %s never got where it was to be killed", prompt)
			}
			time.Sleep(10 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		// What the shell started dies with it or is left to its group.
		_ = exec.Command("pkill", "-9", "-f", "started-marker; sleep 60").Run()
	}

	// 1. During the streaming answer: the prompt is on disk and the server
	// has been asked (its answer stalls after a few chunks).
	kill9("second", `"content":"second"`, func() bool { return srv.Served() >= 2 })
	out, errs, code := fawnIn(t, home, srv, "-p", "third", "--continue", project)
	if code != 0 || strings.TrimSpace(out) != "Back after the first kill." {
		t.Fatalf("after the first kill: %d %q %s", code, out, errs)
	}
	got := contents(srv.ChatRequests()[2])
	want := []string{"user:first", "assistant:Done with the first.", "user:second", "user:third"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("request after the first kill: %q", got)
	}

	// 2. During a running tool: the call is on disk, its result is not.
	kill9("fourth", `started-marker`, func() bool { return true })
	out, errs, code = fawnIn(t, home, srv, "-p", "fifth", "--continue", project)
	if code != 0 || strings.TrimSpace(out) != "Back after the second kill." {
		t.Fatalf("after the second kill: %d %q %s", code, out, errs)
	}
	if !strings.Contains(errs, "1 call a stopped fawn never finished is answered as interrupted") {
		t.Errorf("no word about the interrupted call: %s", errs)
	}
	reqs := srv.ChatRequests()
	got = contents(reqs[len(reqs)-1])
	if len(got) != 9 || got[5] != "user:fourth" || !strings.HasPrefix(got[6], "assistant:Running it.") ||
		!strings.Contains(got[7], "fawn stopped (it was closed or killed)") || got[8] != "user:fifth" {
		t.Errorf("request after the second kill: %q", got)
	}
	// The file is whole: it loads without a warning and exports.
	if _, errs, code := fawnIn(t, home, nil, "export", project); code != 0 || errs != "" {
		t.Errorf("export after the kills: %d %s", code, errs)
	}
}

// The key never reaches a file under the data directory, even when the model
// repeats it and a project file holds it.
func TestNoKeyInTheDataDirectory(t *testing.T) {
	const key = "sk-e2e-NEVERWRITE-0123456789abcdef"
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("text_editor", `{"command":"view","path":".env"}`)}},
		{Text: "The key in .env is " + key},
	}})
	home, project := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(project, ".env"), "OPENAI_API_KEY="+key+"\n")
	cfg := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, cfg, "models:\n  chat_model:\n    api_key: "+key+"\n")
	if _, errs, code := fawnIn(t, home, srv, "--config", cfg, "-p", "show me .env", project); code != 0 {
		t.Fatal(errs)
	}
	if auth := srv.Requests()[0].Header.Get("Authorization"); auth != "Bearer "+key {
		t.Fatalf("the key was not used: %q", auth)
	}
	n := 0
	filepath.Walk(home, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return nil
		}
		n++
		data, _ := os.ReadFile(p)
		if bytes.Contains(data, []byte(key)) || bytes.Contains(data, []byte("NEVERWRITE")) {
			t.Errorf("%s holds the key", p)
		}
		return nil
	})
	if n == 0 {
		t.Fatal("no file was written")
	}
	if data, _ := os.ReadFile(sessionFile(t, home)); !bytes.Contains(data, []byte("[redacted]")) {
		t.Errorf("nothing redacted:\n%s", data)
	}
}

// Two fawns on one project: the IDE holds its session; a -p --continue
// beside it carries on from a copy and never writes the IDE's file.
func TestTwoFawnsOnOneProject(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "From the IDE."}, {Text: "From the script."}, {Text: "IDE again."},
	}})
	home, project := t.TempDir(), t.TempDir()
	tm := Start(t, 140, 40, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Ask fawn")
	tm.prompt("hello ide")
	tm.WaitFor("From the IDE.", "idle")
	ideFile := sessionFile(t, home)
	before, _ := os.ReadFile(ideFile)

	out, errs, code := fawnIn(t, home, srv, "-p", "hello script", "--continue", project)
	if code != 0 || strings.TrimSpace(out) != "From the script." || !strings.Contains(errs, "open in another fawn") {
		t.Fatalf("the second fawn: %d %q %s", code, out, errs)
	}
	if got := contents(srv.ChatRequests()[1]); strings.Join(got, "|") != "user:hello ide|assistant:From the IDE.|user:hello script" {
		t.Errorf("the fork's request: %q", got)
	}
	after, _ := os.ReadFile(ideFile)
	if !bytes.Equal(before, after) {
		t.Errorf("the second fawn wrote the IDE's session")
	}
	tm.prompt("hello again")
	tm.WaitFor("IDE again.")
	if got := contents(srv.ChatRequests()[2]); len(got) != 3 || got[2] != "user:hello again" {
		t.Errorf("the IDE's own conversation: %q", got)
	}
	if all := listJSON(t, home, project); len(all) != 2 {
		t.Errorf("sessions: %+v", all)
	}
}

// /resume in the IDE: the picker lists the sessions; the one picked comes
// back with its chat, its tool cards, its to-dos and its editor tabs.
func TestResumePickerRestoresTheSession(t *testing.T) {
	project := t.TempDir()
	writeFile(t, filepath.Join(project, "notes.txt"), "alpha\nbeta\ngamma\n")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Planning.", ToolCalls: []llmtest.ToolCall{
			call("todo_write", `{"todos":[{"id":"1","title":"Read the notes","status":"completed"},{"id":"2","title":"Write the summary","status":"in_progress"}]}`),
			call("text_editor", `{"command":"view","path":"notes.txt"}`),
		}},
		{Text: "The notes list three Greek letters."},
		{Text: "Something else entirely."},
		{Text: "Carrying on with the notes."},
	}})
	home := t.TempDir()
	tm := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted", "--permission-mode", "yolo")
	tm.WaitFor("Ask fawn")
	tm.prompt("summarise the notes")
	tm.WaitFor("three Greek letters", "idle")
	tm.prompt("/new")
	tm.WaitFor("new session")
	tm.prompt("unrelated question")
	tm.WaitFor("Something else entirely.", "idle")
	tm.Keys("C-q")
	tm.WaitFor("fawn-exited-0")

	tm2 := Start(t, 150, 42, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm2.WaitFor("Ask fawn")
	tm2.prompt("/resume")
	s := tm2.WaitFor("Resume a session", "summarise the notes", "unrelated question", "5 messages")
	if strings.Index(s, "unrelated question") > strings.Index(s, "summarise the notes") {
		t.Errorf("not newest first:\n%s", s)
	}
	tm2.Type("summ")
	tm2.WaitGone("unrelated question")
	tm2.Keys("Enter")
	s = tm2.WaitFor("› summarise the notes", "Planning.", "To-do 1/2", "View notes.txt", "three Greek letters", "resumed \"summarise the notes\"")
	// The to-dos and the editor tab came back too.
	if !strings.Contains(s, "Write the summary") || !strings.Contains(s, "notes.txt") || !strings.Contains(s, "gamma") {
		t.Errorf("to-dos or tabs not restored:\n%s", s)
	}
	tm2.prompt("go on")
	tm2.WaitFor("Carrying on with the notes.")
	got := contents(srv.ChatRequests()[3])
	if len(got) != 6 || got[0] != "user:summarise the notes" || got[5] != "user:go on" {
		t.Errorf("request after /resume: %q", got)
	}
}

// --continue opens the chat at its last message and keeps it there when a
// notice comes after it opened (a server that cannot start): the chat is
// not left scrolled to a few rows at its top.
func TestContinueOpensAtTheLastMessage(t *testing.T) {
	var paras []string
	for i := 1; i <= 30; i++ {
		paras = append(paras, "Answer paragraph "+strconv.Itoa(i)+".")
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: strings.Join(paras, "\n\n")}}})
	home, project := t.TempDir(), t.TempDir()
	tm := Start(t, 140, 40, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Ask fawn")
	tm.prompt("a long answer please")
	tm.WaitFor("Answer paragraph 30.", "idle")
	tm.Keys("C-q")
	tm.WaitFor("fawn-exited-0")

	conf := filepath.Join(t.TempDir(), "mcp.yaml")
	writeFile(t, conf, "tools:\n  mcp_servers:\n    broken:\n      command: /nonexistent/fawn-no-such-server\n")
	tm2 := Start(t, 140, 40, project, []string{"FAWN_HOME=" + home}, "--base-url", srv.URL(), "--model", "scripted", "--config", conf, "--continue")
	tm2.WaitFor("Answer paragraph 30.", "resumed", "MCP: broken")
	tm2.WaitFor("Answer paragraph 20.", "Answer paragraph 30.", "MCP: broken")
}
