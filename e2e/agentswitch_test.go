package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentSwitch: /agent log shows the end of the hosted agent's log (its
// stderr and the protocol); /agent NAME opens a task on that agent beside
// the first, and the /agent picker goes back to the first.
func TestAgentSwitch(t *testing.T) {
	cfg, _ := acpConfig(t, "edit")
	prog, _ := acpscript()
	b, _ := os.ReadFile(cfg)
	writeFile(t, cfg, string(b)+"  other:\n    command: "+prog+"\n    env:\n      FAWN_ACP_SCRIPT: hello\n")
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "hello.txt"), "one\nhello, wrld\nthree\n")
	tm := Start(t, 160, 45, dir, nil, "--config", cfg, "--agent", "scripted")
	tm.WaitFor("acp/scripted")
	tm.Keys("fix the greeting", "Enter")
	tm.WaitFor("Done.")
	tm.Keys("/agent log", "Enter")
	tm.WaitFor("end_turn", "All of it is in", "scripted.log")

	tm.Keys("/agent fawn", "Enter")
	tm.WaitFor("task fawn: fawn's own agent works on the project")
	tm.WaitUntil("the task bar shows both tasks", func(s string) bool { return strings.Contains(s, "fawn") && !strings.Contains(s, "Done.") })
	tm.Keys("/agent", "Enter")
	tm.WaitFor("ACP · ")
	tm.Keys("scripted", "Enter")
	tm.WaitFor("Done.", "acp/scripted")

	// Another configured agent opens in a task of its own, and works.
	tm.Keys("/agent other", "Enter")
	tm.WaitFor("task other: the ACP agent other works on the project", "acp/other")
	tm.Keys("say hello", "Enter")
	tm.WaitFor("hello from the other agent")
}

// TestHostedContinue: --continue with --agent loads the agent's last
// conversation in the project (session/load, its ID kept by fawn when the
// agent opened it): its history shows in the chat, and the next message
// carries it on.
func TestHostedContinue(t *testing.T) {
	cfg, report := acpConfig(t, "load")
	dir := t.TempDir()
	home := t.TempDir()
	cmd := exec.Command(binary, "--config", cfg, "--agent", "scripted", "-p", "hello", dir)
	cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "OPENAI_API_KEY=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the first run: %v\n%s", err, out)
	}
	tm := Start(t, 160, 45, dir, []string{"FAWN_HOME=" + home}, "--config", cfg, "--agent", "scripted", "--continue")
	tm.WaitFor("fix the greeting", "I fixed the greeting.", "Edit hello.txt", "You are welcome.", "resumed session")
	tm.Keys("and now?", "Enter")
	tm.WaitUntil("the prompt reaches the loaded conversation", func(string) bool {
		b, _ := os.ReadFile(report)
		return strings.Contains(string(b), "load s1") && strings.Contains(string(b), "prompt in s1")
	})
}

// TestHostedResume: --resume ID with --agent loads that conversation of
// the agent's in the project (a unique prefix is enough); --resume alone
// names the conversations it could load.
func TestHostedResume(t *testing.T) {
	cfg, report := acpConfig(t, "load")
	dir := t.TempDir()
	home := t.TempDir()
	run := func(args ...string) (string, int) {
		cmd := exec.Command(binary, append(append([]string{"--config", cfg, "--agent", "scripted"}, args...), dir)...)
		cmd.Env = append(os.Environ(), "FAWN_HOME="+home, "OPENAI_API_KEY=")
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	if out, code := run("-p", "hello"); code != 0 {
		t.Fatalf("the first run: exit %d\n%s", code, out)
	}
	if out, code := run("--resume", "-p", "again"); code != 2 || !strings.Contains(out, "s1") {
		t.Errorf("--resume alone: exit %d, want 2 naming s1:\n%s", code, out)
	}
	if out, code := run("--resume=s", "-p", "again"); code != 0 || !strings.Contains(out, "loading scripted's conversation s1") {
		t.Fatalf("--resume=s: exit %d\n%s", code, out)
	}
	if b, _ := os.ReadFile(report); !strings.Contains(string(b), "load s1") || !strings.Contains(string(b), "prompt in s1") {
		t.Errorf("the agent did not load s1 and take the prompt there:\n%s", b)
	}
}
