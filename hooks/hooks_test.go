package hooks

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func runner(t *testing.T, event, matcher, command string, timeout any) *Runner {
	t.Helper()
	h := map[string]any{"type": "command", "command": command}
	if timeout != nil {
		h["timeout"] = timeout
	}
	cfg, err := Parse(map[string]any{event: []any{map[string]any{"matcher": matcher, "hooks": []any{h}}}})
	if err != nil {
		t.Fatal(err)
	}
	return &Runner{Config: cfg, Dir: t.TempDir(), Env: []string{"PATH=" + os.Getenv("PATH")}}
}

// The hook reads the event on stdin and runs in the project.
func TestStdinAndDirectory(t *testing.T) {
	r := runner(t, "PreToolUse", "bash", `cat > seen.json; pwd > where`, nil)
	res := r.Run(context.Background(), "PreToolUse", "bash", Input{SessionID: "s1", ToolName: "bash", ToolInput: json.RawMessage(`{"command":"git push"}`)})
	if len(res) != 1 || res[0].Block || res[0].Warning != "" {
		t.Fatalf("%+v", res)
	}
	b, _ := os.ReadFile(filepath.Join(r.Dir, "seen.json"))
	var in map[string]any
	if err := json.Unmarshal(b, &in); err != nil {
		t.Fatal(err, string(b))
	}
	if in["session_id"] != "s1" || in["hook_event_name"] != "PreToolUse" || in["tool_name"] != "bash" || in["cwd"] != r.Dir ||
		in["tool_input"].(map[string]any)["command"] != "git push" {
		t.Errorf("stdin: %s", b)
	}
	if w, _ := os.ReadFile(filepath.Join(r.Dir, "where")); strings.TrimSpace(string(w)) != r.Dir {
		t.Errorf("ran in %q", w)
	}
	// The matcher: another tool runs no hook.
	if res := r.Run(context.Background(), "PreToolUse", "text_editor", Input{}); len(res) != 0 {
		t.Errorf("matched text_editor: %+v", res)
	}
}

func TestExitCodesAndDecisions(t *testing.T) {
	for _, c := range []struct {
		command string
		check   func(Result) bool
	}{
		{`echo fine`, func(r Result) bool { return !r.Block && r.Output == "fine" && r.Verdict() == "ok" }},
		{`echo "no pushing to main" >&2; exit 2`, func(r Result) bool { return r.Block && r.Reason == "no pushing to main" && r.Exit == 2 }},
		{`echo oops >&2; exit 1`, func(r Result) bool { return !r.Block && strings.Contains(r.Warning, "exit 1: oops") }},
		{`echo '{"decision":"block","reason":"tests first"}'`, func(r Result) bool { return r.Block && r.Reason == "tests first" }},
		{`echo '{"decision":"approve"}'`, func(r Result) bool { return r.Approve && !r.Block }},
		{`echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"nope","updatedInput":{"command":"ls"}}}'`, func(r Result) bool {
			return r.Block && r.Reason == "nope" && string(r.UpdatedInput) == `{"command":"ls"}`
		}},
		{`echo '{"updated_input":{"command":"echo safe"}}'`, func(r Result) bool { return string(r.UpdatedInput) == `{"command":"echo safe"}` && !r.Block }},
	} {
		r := runner(t, "PreToolUse", "", c.command, nil)
		res := r.Run(context.Background(), "PreToolUse", "bash", Input{})
		if len(res) != 1 || !c.check(res[0]) {
			t.Errorf("%s: %+v", c.command, res)
		}
	}
}

// A hanging hook is killed at its timeout, with what it started.
func TestTimeoutKillsTheGroup(t *testing.T) {
	r := runner(t, "Stop", "", `sleep 30 & echo $! > child; sleep 30`, 0.3)
	start := time.Now()
	res := r.Run(context.Background(), "Stop", "", Input{})
	if len(res) != 1 || !strings.Contains(res[0].Warning, "killed after its timeout") || time.Since(start) > 10*time.Second {
		t.Fatalf("%+v after %s", res, time.Since(start))
	}
	waitGone(t, r.Dir, "child")
}

// waitGone waits until the process whose pid the hook wrote to dir/name has
// ended (a generous deadline: this checks that it ends, not how fast).
func waitGone(t *testing.T, dir, name string) {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(dir, name))
	pid := strings.TrimSpace(string(b))
	if pid == "" {
		t.Fatalf("the hook wrote no pid to %s", name)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := os.Stat("/proc/" + pid); os.IsNotExist(err) {
			return
		}
		if st, _ := os.ReadFile("/proc/" + pid + "/stat"); strings.Contains(string(st), ") Z ") {
			return // a zombie waiting for its reaper is dead
		}
		if time.Now().After(deadline) {
			_ = exec.Command("kill", "-9", pid).Run()
			t.Fatalf("the hook's child %s (%s) outlived it", pid, name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A hook that leaves a child in a session of its own (setsid) holding its
// stdout still ends at its timeout, and the child with it: the wait for
// output is bounded and the kill reaches below the process group.
func TestTimeoutKillsASetsidChildHoldingStdout(t *testing.T) {
	r := runner(t, "Stop", "", `setsid sleep 30 & echo $! > child; sleep 30`, 0.3)
	done := make(chan []Result, 1)
	go func() { done <- r.Run(context.Background(), "Stop", "", Input{}) }()
	select {
	case res := <-done:
		if len(res) != 1 || !strings.Contains(res[0].Warning, "killed after its timeout") {
			t.Errorf("%+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hook did not return at its timeout: a child holding its stdout held it")
	}
	waitGone(t, r.Dir, "child")
}

// A hook that exits at once but leaves a background child holding its
// stdout returns without waiting for that child, which is ended.
func TestALeftoverHoldingStdoutIsEnded(t *testing.T) {
	r := runner(t, "Stop", "", `sleep 30 & echo $! > child; echo done`, 60)
	done := make(chan []Result, 1)
	go func() { done <- r.Run(context.Background(), "Stop", "", Input{}) }()
	select {
	case res := <-done:
		if len(res) != 1 || res[0].Warning != "" || res[0].Output != "done" {
			t.Errorf("%+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hook did not return: its leftover child held it")
	}
	waitGone(t, r.Dir, "child")
}

func TestParseErrors(t *testing.T) {
	for _, raw := range []map[string]any{
		{"OnSave": []any{}},
		{"Stop": "x"},
		{"Stop": []any{map[string]any{"hooks": []any{map[string]any{"type": "prompt", "command": "x"}}}}},
		{"Stop": []any{map[string]any{"hooks": []any{map[string]any{"command": " "}}}}},
		{"PreToolUse": []any{map[string]any{"matcher": "(", "hooks": []any{map[string]any{"command": "x"}}}}},
	} {
		if _, err := Parse(raw); err == nil {
			t.Errorf("%v parsed", raw)
		}
	}
}

// Configuration keys may come lower-cased.
func TestEventNamesIgnoreCase(t *testing.T) {
	cfg, err := Parse(map[string]any{"posttooluse": []any{map[string]any{"hooks": []any{map[string]any{"command": "true"}}}}})
	if err != nil || len(cfg["PostToolUse"]) != 1 {
		t.Errorf("%v %v", cfg, err)
	}
}

// A hook that exits at once but leaves a child in a session of its own
// (setsid) holding its stdout returns, and the child is ended: it is found
// by the output it holds.
func TestASetsidLeftoverHoldingStdoutIsEnded(t *testing.T) {
	r := runner(t, "Stop", "", `setsid sleep 30 & echo $! > child; echo done`, 60)
	done := make(chan []Result, 1)
	go func() { done <- r.Run(context.Background(), "Stop", "", Input{}) }()
	select {
	case res := <-done:
		if len(res) != 1 || res[0].Warning != "" || res[0].Output != "done" {
			t.Errorf("%+v", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the hook did not return: its leftover child held it")
	}
	waitGone(t, r.Dir, "child")
}

// A daemon a hook starts that lets go of the hook's output is the user's:
// it outlives the hook.
func TestADaemonThatLetGoOfTheOutputIsLeft(t *testing.T) {
	r := runner(t, "SessionStart", "", `sleep 30 >/dev/null 2>&1 & echo $! > child; echo started`, 60)
	res := r.Run(context.Background(), "SessionStart", "", Input{})
	b, _ := os.ReadFile(filepath.Join(r.Dir, "child"))
	pid := strings.TrimSpace(string(b))
	defer exec.Command("kill", "-9", pid).Run()
	if len(res) != 1 || res[0].Output != "started" {
		t.Fatalf("%+v", res)
	}
	time.Sleep(100 * time.Millisecond) // a kill, had there been one, has landed
	if st, err := os.ReadFile("/proc/" + pid + "/stat"); err != nil || strings.Contains(string(st), ") Z ") {
		t.Errorf("the hook's daemon %s, which held none of its output, was ended", pid)
	}
}
