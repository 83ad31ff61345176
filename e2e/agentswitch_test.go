package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentSwitch: /agent log shows the end of the hosted agent's log (its
// stderr and the protocol); /agent NAME opens a task on that agent beside
// the first, and the /agent picker goes back to the first.
func TestAgentSwitch(t *testing.T) {
	cfg, _ := acpConfig(t, "edit")
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
}
