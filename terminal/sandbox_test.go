package terminal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fawn-ide/fawn/sandbox"
)

// The sandbox binds the shell, so the agent's commands and the user's own
// typing in it are refused alike, and a shell started again is confined
// again.
func TestConfinedShell(t *testing.T) {
	if err := sandbox.Available(); err != nil {
		t.Skipf("no sandbox on this machine: %v", err)
	}
	root := t.TempDir()
	project := filepath.Join(root, "proj")
	if err := os.MkdirAll(filepath.Join(project, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A temp directory beside the project, as on a machine whose projects
	// are not in /tmp.
	env := []string{"TMPDIR=" + t.TempDir()}
	p, err := sandbox.New(sandbox.Settings{Mode: "workspace-write"}, project, t.TempDir(), env)
	if err != nil {
		t.Fatal(err)
	}
	term := startTerm(t, Options{Dir: project, Env: env, Start: p.Start})
	res := mustRun(t, term, "touch ../outside-agent")
	if res.ExitCode == 0 {
		t.Fatalf("the agent's command wrote outside the project: %+v", res)
	}
	if _, ok := p.Refusal(res.Output); !ok {
		t.Errorf("not read as a refusal: %q", res.Output)
	}
	if res := mustRun(t, term, "echo in > src/inside && cat src/inside"); res.ExitCode != 0 || !strings.Contains(res.Output, "in") {
		t.Fatalf("writing inside the project: %+v", res)
	}
	waitIdle(t, term)
	term.Write([]byte("touch ../outside-user; echo typed-$?\r"))
	waitScreen(t, term, "typed-1")
	for _, name := range []string{"outside-agent", "outside-user"} {
		if _, err := os.Stat(filepath.Join(root, name)); err == nil {
			t.Errorf("%s was created", name)
		}
	}
	// A shell that exits is started again, confined again.
	term.Write([]byte("exit\r"))
	waitFor(t, "a new shell", func() bool { return strings.Contains(term.ScreenText(), "a new one starts") })
	if res := mustRun(t, term, "touch ../outside-again"); res.ExitCode == 0 {
		t.Fatalf("the new shell is not confined: %+v", res)
	}
}
