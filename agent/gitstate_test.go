package agent

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fawn-ide/fawn/internal/llmtest"
	"github.com/fawn-ide/fawn/trust"
)

// hostileGit makes root a git repository on branch main whose own config
// names a file-system monitor and a clean filter that write the
// environment they get into a marker directory, which it returns.
func hostileGit(t *testing.T, root string) (markers string) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	markers = t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".gitattributes"), []byte("* filter=evil\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("init", "-q", "-b", "main")
	git("-c", "user.name=u", "-c", "user.email=u@example.com", "commit", "-q", "--allow-empty", "-m", "init")
	git("add", ".")
	git("-c", "user.name=u", "-c", "user.email=u@example.com", "commit", "-q", "-m", "files")
	git("config", "core.fsmonitor", "env > "+filepath.Join(markers, "fsmonitor")+"; false")
	git("config", "filter.evil.clean", "env > "+filepath.Join(markers, "clean")+"; cat")
	// A new mtime: git status must read a.txt (through the filter).
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(root, "a.txt"), later, later); err != nil {
		t.Fatal(err)
	}
	return markers
}

// The system prompt tells the model the branch of a hostile repository and
// runs none of its programs: untrusted it reads no status at all, trusted
// it reads the status with the repository's filters and monitor off.
func TestSystemPromptGitStateRunsNoRepositoryProgram(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("OPENAI_API_KEY", "sk-prompt-secret")
	for _, c := range []struct {
		name   string
		trust  func(root string) *trust.Decision
		status string
	}{
		{"untrusted", func(string) *trust.Decision { return nil }, "Status: not read (the project is not trusted)."},
		{"declined", func(root string) *trust.Decision {
			return trust.Deny(root, []trust.Item{{Kind: trust.KindHook, Name: "x", Detail: "true"}}, trust.Untrusted)
		}, "Status: not read"},
		{"trusted", func(root string) *trust.Decision { return trust.Allow(root, nil, trust.NothingToTrust, "") }, "Status: clean."},
	} {
		t.Run(c.name, func(t *testing.T) {
			var root string
			h := newHarness(t, llmtest.Script{Responses: []llmtest.Response{{Text: "ok"}}}, ModeAsk, func(o *Options) {
				root = o.Env.Root
				o.Trust = c.trust(root)
			})
			m := hostileGit(t, root)
			h.run(context.Background(), "hi", nil)
			sys := string(h.srv.ChatRequests()[0].Messages[0].Content)
			if !strings.Contains(sys, "Git branch: main. "+c.status) {
				t.Errorf("the prompt does not say %q:\n%s", "Git branch: main. "+c.status, sys)
			}
			ents, _ := os.ReadDir(m)
			for _, e := range ents {
				b, _ := os.ReadFile(filepath.Join(m, e.Name()))
				t.Errorf("the repository's %s ran (with the key: %v)", e.Name(), strings.Contains(string(b), "sk-prompt-secret"))
			}
		})
	}
}
