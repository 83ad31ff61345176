package e2e

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
)

// startTerminal opens the IDE with the terminal pane focused and zoomed.
func startTerminal(t *testing.T) *Term {
	t.Helper()
	srv := llmtest.Start(t, llmtest.Script{})
	tm := startIDE(t, srv, "")
	tm.Keys("M-t")
	tm.Keys(`C-\`, "M-m") // in the terminal the escape key first: Alt-M is fawn's
	tm.WaitUntil("the zoomed terminal", func(s string) bool { return !strings.Contains(s, "Chat") })
	return tm
}

func (tm *Term) run(cmd string) {
	tm.t.Helper()
	tm.Type(cmd)
	tm.Keys("Enter")
}

// Full-screen programs after a first one draw in the alternate screen and
// leave nothing behind: less, then htop, then mc.
func TestFullScreenProgramsOneAfterAnother(t *testing.T) {
	for _, p := range []string{"less", "htop", "mc"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (apt-get install -y less htop mc)", p)
		}
	}
	tm := startTerminal(t)
	tm.run("PS1='$ '; seq 1 2000 > long.txt; clear")
	tm.run("less long.txt")
	tm.WaitUntil("less's first page", func(s string) bool { return strings.Contains(s, "│1 ") && strings.Contains(s, "│30 ") })
	tm.Keys("q")
	tm.WaitFor("$ less long.txt")

	tm.run("htop")
	tm.WaitFor("PID USER", "F10Quit")
	tm.Keys("q")
	s := tm.WaitFor("$ htop ")
	if strings.Contains(s, "PID USER") {
		t.Fatalf("htop's page stayed on the normal screen:\n%s", s)
	}

	tm.run("mc -u")
	s = tm.WaitFor("Left     File     Command     Options     Right", "10Quit", "UP--DIR")
	if strings.Contains(s, "$ mc -u") {
		t.Fatalf("mc's first frame has the shell's lines in it:\n%s", s)
	}
	tm.Keys("F10")
	s = tm.WaitFor("$ mc -u")
	if strings.Contains(s, "UP--DIR") {
		t.Fatalf("mc's page stayed behind:\n%s", s)
	}
}

// Keys fawn binds elsewhere reach the program in the terminal pane as
// xterm sends them: F1, F6, Alt-C, Ctrl-H (0x08, not DEL), Shift-PgUp, as
// cat -v shows them. The keypad types its characters (KP5: 5), also for a
// program that put it in application mode (ESC =): fawn keeps the outer
// terminal's keypad in numeric mode (see ui/display.Lean).
func TestKeysReachTheProgramInTheTerminal(t *testing.T) {
	tm := startTerminal(t)
	tm.run("stty -echo -icanon; printf '\\033='; echo key''pad; cat -v")
	tm.WaitFor("keypad")
	tm.Keys("F1", "F6", "M-c", "C-h", "BSpace", "S-PPage", "KP5", "Enter")
	tm.WaitFor("^[OP^[[17~^[c^H^?^[[5;2~5")
}

// htop gets its F6 (the sort menu) in the terminal pane.
func TestHtopGetsF6(t *testing.T) {
	if _, err := exec.LookPath("htop"); err != nil {
		t.Skip("htop is not installed (apt-get install -y htop)")
	}
	tm := startTerminal(t)
	tm.run("htop")
	tm.WaitFor("PID USER", "F6SortBy")
	tm.Keys("F6")
	tm.WaitFor("Sort by")
	tm.Keys("Escape", "q")
}

// A program's OSC 52 copy in the focused terminal pane reaches the outer
// tmux's buffer, as tmux passes a copy on from its active pane.
func TestProgramsCopyReachesTheOuterTmux(t *testing.T) {
	tm := startTerminal(t)
	tm.run(`printf '\033]52;c;%s\a' "$(printf copied-by-a-program | base64)"`)
	tm.WaitFor("copied 1 line")
	buffer := func() string {
		out, _ := exec.Command("tmux", "-S", tm.socket, "show-buffer").Output() // no buffer yet: an error
		return string(out)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(buffer(), "copied-by-a-program") {
		if time.Now().After(deadline) {
			t.Fatalf("tmux's buffer: %q", buffer())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// After the user replaced the terminal's shell with exec (zsh -f, or sh
// where zsh is not installed), the pane's title says so and the agent's
// command runs in fawn's own bash, shown as a tab.
func TestAgentRunsAfterExecInTheTerminal(t *testing.T) {
	shell := "zsh -f"
	if _, err := exec.LookPath("zsh"); err != nil {
		shell = "sh" // the same case: a shell without fawn's markers
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("bash", `{"command":"echo agent-$((6*7))"}`)}},
		{Text: "It ran."},
	}})
	tm := startIDE(t, srv, "", "--permission-mode", "yolo")
	tm.Keys("M-t")
	tm.run("exec " + shell)
	tm.WaitFor("(exec'd: no fawn markers)")
	tm.Keys(`C-\`, "M-c")
	tm.prompt("run it")
	tm.WaitFor("Agent shell", "agent-42", "It ran.")
	var result string
	for _, m := range srv.ChatRequests()[1].Messages {
		if m.Role == "tool" {
			result = string(m.Content)
		}
	}
	if !strings.Contains(result, "agent-42") || !strings.Contains(result, "fawn's own bash") {
		t.Fatalf("the tool result: %q", result)
	}
}
